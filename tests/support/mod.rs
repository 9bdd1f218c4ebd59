//! Helpers shared by the robustness test files: corpus seeds, fixed-seed proptest runners,
//! a crude quote-aware scanner used to decide which rewrites are sound, and the binary path.
#![allow(dead_code)]

use std::path::PathBuf;

use proptest::test_runner::{Config, RngSeed};
use shellgate::{Context, Decision, corpus};

/// The repository's corpus directory.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every corpus command labelled `expect`, in file order.
pub fn seeds(expect: &str) -> Vec<String> {
    let files = corpus::files(&corpus_dir()).expect("corpus directory lists");
    let mut out = Vec::new();
    for f in files {
        for l in corpus::load(&f).expect("corpus file loads") {
            if l.case.expect == expect {
                out.push(l.case.cmd);
            }
        }
    }
    out
}

/// Corpus commands labelled `expect` that shellgate currently decides as labelled (for `ask`:
/// not `allow`), so a metamorphic failure is caused by the rewrite, not by the seed. Seeds
/// that already fail are printed: the corpus test reports them too.
pub fn passing_seeds(expect: &str) -> Vec<String> {
    let (ok, bad): (Vec<String>, Vec<String>) = seeds(expect).into_iter().partition(|c| {
        let d = decide(c);
        match expect {
            "deny" => d == Decision::Deny,
            "ask" => d != Decision::Allow,
            _ => d != Decision::Deny,
        }
    });
    for c in &bad {
        eprintln!("seed skipped, already decided against its label {expect}: {c:?}");
    }
    ok
}

/// A proptest config with a fixed seed (so a known bypass never makes CI flaky) and no
/// regression files written into the source tree. `PROPTEST_RNG_SEED` / `PROPTEST_CASES`
/// in the environment still override it for exploration runs.
pub fn config(cases: u32) -> Config {
    let mut c = Config::with_cases(cases);
    c.failure_persistence = None;
    c.rng_seed = match std::env::var("PROPTEST_RNG_SEED") {
        Ok(s) => RngSeed::Fixed(s.parse().unwrap_or(0x5e11_9a7e)),
        Err(_) => RngSeed::Fixed(0x5e11_9a7e),
    };
    if let Some(n) = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
    {
        c.cases = n;
    }
    c.max_shrink_iters = 2_000;
    c
}

pub fn decide(cmd: &str) -> Decision {
    shellgate::policy::decide_default(&shellgate::analyze(cmd, &Context::fixture()))
}

/// Path of the built `shellgate` binary.
pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_shellgate")
}

/// What a command looks like at the top level, judged without shellgate's parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One simple command: no unquoted `; & | newline ( ) { }` or backquote.
    Simple,
    /// Simple commands joined by single `|` only.
    Pipeline,
    /// Anything else (lists, compound commands, heredocs, functions).
    Other,
}

/// Classify `cmd` by scanning it with single/double quote and backslash tracking. `$'..'` is
/// treated like `'..'`, which is conservative for the characters it can hide.
pub fn shape(cmd: &str) -> Shape {
    let b = cmd.as_bytes();
    let mut i = 0;
    let mut sq = false;
    let mut dq = false;
    let mut pipe = false;
    while i < b.len() {
        let c = b[i];
        if sq {
            if c == b'\'' {
                sq = false;
            }
            i += 1;
            continue;
        }
        if c == b'\\' {
            if i + 1 < b.len() && b[i + 1] == b'\n' {
                return Shape::Other;
            }
            i += 2;
            continue;
        }
        if dq {
            if c == b'"' {
                dq = false;
            } else if c == b'`' || (c == b'$' && b.get(i + 1) == Some(&b'(')) {
                return Shape::Other;
            }
            i += 1;
            continue;
        }
        match c {
            b'\'' => sq = true,
            b'"' => dq = true,
            b'|' => {
                if b.get(i + 1) == Some(&b'|') || b.get(i + 1) == Some(&b'&') {
                    return Shape::Other;
                }
                pipe = true;
            }
            b';' | b'&' | b'\n' | b'(' | b')' | b'{' | b'}' | b'`' | b'#' => return Shape::Other,
            b'<' if b.get(i + 1) == Some(&b'<') => return Shape::Other,
            _ => {}
        }
        i += 1;
    }
    if sq || dq {
        return Shape::Other;
    }
    if pipe { Shape::Pipeline } else { Shape::Simple }
}

/// Characters a plain program word may consist of (safe inside any quoting).
pub fn is_plain_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '+' | '-')
}

/// Split `cmd` into its first word and the rest when the first word is plain text
/// (`rm`, `/usr/bin/rm`, `mkfs.ext4`) followed by a space or the end.
pub fn first_plain_word(cmd: &str) -> Option<(&str, &str)> {
    let end = cmd
        .char_indices()
        .find(|&(_, c)| !is_plain_word_char(c))
        .map(|(i, _)| i)
        .unwrap_or(cmd.len());
    if end == 0 {
        return None;
    }
    let rest = &cmd[end..];
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    let w = &cmd[..end];
    if w.starts_with('-') {
        return None;
    }
    Some((w, rest))
}

/// Reserved words: quoting them or putting something in front changes what they mean.
pub const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "select", "function", "time", "in", "coproc",
];

/// Builtins that a wrapper program (`sudo`, `env`, `nice`, ...) could not run.
pub const BUILTINS: &[&str] = &[
    "cd", "pushd", "popd", "export", "declare", "typeset", "local", "readonly", "eval", "exec",
    "command", "source", ".", "set", "unset", "alias", "unalias", "trap", "let", "shift", "wait",
    "ulimit", "umask", "builtin", "type", "hash", "jobs", "fg", "bg", "disown", "enable", "shopt",
    "getopts", "return", "exit", "break", "continue", "read", "mapfile", ":",
];
