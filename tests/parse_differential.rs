//! Differential parse check: which commands of `../shared/corpora/{tldr,nl2bash}.jsonl` does
//! `bash -n` reject, and which does shellgate report as not fully parsed (a finding with rule
//! `SG0001`)? The comparison is an ignored test (it runs bash once per command); it prints a
//! summary and, with `SG_DIFF_OUT=FILE`, writes every disagreement as JSONL. The classes are
//! described in `docs/FIDELITY.md` (parse differential). Skips with a message when the corpora are absent.
//!
//! `cargo test --release --test parse_differential -- --ignored --nocapture`
#![expect(
    clippy::print_stderr,
    clippy::print_stdout,
    reason = "the test reports its figures"
)]

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use shellgate::{Context, analyze};

fn corpora_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora")
}

fn bash_accepts(cmd: &str) -> Option<bool> {
    let st = Command::new("bash")
        .args(["--norc", "--noprofile", "-n", "-c", cmd])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .ok()?;
    Some(st.success())
}

fn shellgate_parses(cmd: &str) -> bool {
    !analyze(cmd, &Context::fixture())
        .findings
        .iter()
        .any(|f| f.rule == "SG0001")
}

/// Rough features of a command, to group disagreements.
fn features(cmd: &str) -> Vec<&'static str> {
    let checks: &[(&str, &str)] = &[
        ("$((", "arithmetic"),
        ("((", "arith-command"),
        ("<<", "heredoc"),
        ("${", "param-expansion"),
        ("[[", "double-bracket"),
        ("case ", "case"),
        ("`", "backquote"),
        ("<(", "process-subst"),
        ("$'", "ansi-c"),
        ("!(", "extglob"),
        ("@(", "extglob"),
        ("{{", "placeholder-braces"),
        ("[", "bracket"),
        ("#", "hash"),
        ("\\", "backslash"),
        ("'", "single-quote"),
        ("\"", "double-quote"),
        ("\n", "multi-line"),
        ("function ", "function"),
        ("()", "function-parens"),
        ("=(", "array"),
        ("|&", "pipe-stderr"),
        (";&", "case-fallthrough"),
        ("!", "bang"),
    ];
    let mut v: Vec<&'static str> = checks
        .iter()
        .filter(|(p, _)| cmd.contains(p))
        .map(|&(_, n)| n)
        .collect();
    if !cmd.is_ascii() {
        v.push("non-ascii");
    }
    v
}

fn load_cmds(file: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(corpora_dir().join(file)).ok()?;
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if let Some(c) = v.get("cmd").and_then(|c| c.as_str())
            && seen.insert(c.to_string())
        {
            out.push(c.to_string());
        }
    }
    Some(out)
}

#[derive(Default)]
struct Summary {
    total: usize,
    both_ok: usize,
    both_reject: usize,
    bash_only_rejects: Vec<String>,
    shellgate_only_rejects: Vec<String>,
}

fn compare(cmds: &[String]) -> Summary {
    let mut s = Summary::default();
    for c in cmds {
        let Some(b) = bash_accepts(c) else { continue };
        let g = shellgate_parses(c);
        s.total += 1;
        match (b, g) {
            (true, true) => s.both_ok += 1,
            (false, false) => s.both_reject += 1,
            (false, true) => s.bash_only_rejects.push(c.clone()),
            (true, false) => s.shellgate_only_rejects.push(c.clone()),
        }
    }
    s
}

fn feature_table(cmds: &[String]) -> String {
    let mut m: BTreeMap<&str, usize> = BTreeMap::new();
    for c in cmds {
        for f in features(c) {
            *m.entry(f).or_default() += 1;
        }
    }
    let mut v: Vec<_> = m.into_iter().collect();
    v.sort_by_key(|e| std::cmp::Reverse(e.1));
    v.iter()
        .map(|(f, n)| format!("    {f}: {n}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
#[ignore = "slow: runs bash -n on every corpus command; see docs/FIDELITY.md"]
fn bash_and_shellgate_agree_on_what_parses_in_the_shared_corpora() {
    let mut out = Vec::new();
    for file in ["tldr.jsonl", "nl2bash.jsonl"] {
        let Some(cmds) = load_cmds(file) else {
            eprintln!("{} not found; skipping", corpora_dir().join(file).display());
            continue;
        };
        let limit = std::env::var("SG_DIFF_LIMIT")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(usize::MAX);
        let cmds: Vec<String> = cmds.into_iter().take(limit).collect();
        let s = compare(&cmds);
        println!(
            "{file}: {} unique commands; both parse {}, both reject {}, only bash rejects {}, only shellgate rejects {}",
            s.total,
            s.both_ok,
            s.both_reject,
            s.bash_only_rejects.len(),
            s.shellgate_only_rejects.len()
        );
        println!(
            "  only bash rejects, by feature:\n{}",
            feature_table(&s.bash_only_rejects)
        );
        println!(
            "  only shellgate rejects, by feature:\n{}",
            feature_table(&s.shellgate_only_rejects)
        );
        for c in &s.bash_only_rejects {
            out.push(serde_json::json!({"file": file, "kind": "bash_only_rejects", "cmd": c, "features": features(c)}).to_string());
        }
        for c in &s.shellgate_only_rejects {
            out.push(serde_json::json!({"file": file, "kind": "shellgate_only_rejects", "cmd": c, "features": features(c)}).to_string());
        }
    }
    if let Some(path) = std::env::var_os("SG_DIFF_OUT") {
        std::fs::write(path, out.join("\n") + "\n").expect("write the disagreements");
    }
}

#[test]
fn differential_classifies_known_examples() {
    if bash_accepts("true").is_none() {
        eprintln!("bash not found; skipping");
        return;
    }
    let s = compare(&[
        "ls -la".to_string(),
        "if true; then echo x".to_string(),
        "echo \"unterminated".to_string(),
    ]);
    assert_eq!(s.total, 3);
    assert_eq!(s.both_ok, 1);
    assert_eq!(s.both_reject, 2);
    assert!(features("echo $((1+2)) <<E").contains(&"arithmetic"));
}

#[test]
fn differential_skips_cleanly_without_the_shared_corpora() {
    // Only checks that loading a missing file is a skip, not a failure.
    assert!(load_cmds("does-not-exist.jsonl").is_none());
}
