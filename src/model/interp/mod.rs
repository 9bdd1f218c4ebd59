//! Capability scan of inline interpreter code (`python3 -c`, `node -e`, `perl -e`, `ruby -e`,
//! `php -r`, heredocs into them): which processes, deletes, writes, network and eval it can do.
//!
//! Each language has a small hand-written tokenizer that skips comments and keeps string
//! literals opaque, followed by token-pattern matching. Spans are byte offsets into the code
//! string: a [`Capability`] and a [`DeleteCall`] span the call, a [`ShellOut`] spans the
//! literal argument(s) it was read from.

mod lexer;
mod node;
mod perl;
mod php;
mod python;
mod ruby;
mod tokens;

/// A language whose inline code shellgate can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Python,
    Node,
    Perl,
    Ruby,
    Php,
}

/// Interpreter program basename → language: python, python2, python3, python3.12, pypy3,
/// node, nodejs, deno (only when used as `deno eval`—caller handles that), bun, perl,
/// perl5.36, ruby, php, php8.2 ...
pub fn lang_for_program(name: &str) -> Option<Lang> {
    let base = name.rsplit('/').next().unwrap_or(name);
    let base = base.strip_suffix(".exe").unwrap_or(base);
    // Versioned names (`python3.12`, `perl5.36`, `php8.2`, `ruby3.3`) keep the family prefix.
    let family = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match family {
        "python" | "pypy" | "python-dbg" => Some(Lang::Python),
        "node" | "nodejs" | "deno" | "bun" => Some(Lang::Node),
        "perl" => Some(Lang::Perl),
        "ruby" | "jruby" | "truffleruby" => Some(Lang::Ruby),
        "php" | "php-cli" => Some(Lang::Php),
        _ => None,
    }
}

/// What a piece of code is able to do; ordered from the most to the least direct harm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CapKind {
    Process,
    Delete,
    Write,
    Network,
    Eval,
}

/// One capability found in the code, named after the API that provides it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capability {
    pub kind: CapKind,
    /// e.g. "os.system", "subprocess", "open(..., 'w')", "fs.rmSync", "socket"
    pub what: String,
    pub start: usize,
    pub end: usize,
}

/// A process start whose command is fully literal, so it can be judged like shell input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellOut {
    /// A literal command string run by a shell: os.system("rm -rf /"), subprocess.run("..",
    /// shell=True), execSync(".."), child_process.exec, perl system("..")/backticks/qx, ruby
    /// system("..")/`..`/%x(), php shell_exec/system/exec/passthru/backticks, os.popen,
    /// commands.getoutput
    Code {
        code: String,
        start: usize,
        end: usize,
    },
    /// A literal argv run without a shell: subprocess.run(["rm","-rf","/"]), os.execvp("rm",
    /// ["rm","-rf"]), spawnSync("rm", ["-rf","/"]), perl system("rm","-rf","/") with several
    /// args, ruby system("rm", "-rf", "/")
    Argv {
        argv: Vec<String>,
        start: usize,
        end: usize,
    },
}

/// A delete call whose path argument is a literal string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeleteCall {
    pub path: String,
    pub recursive: bool,
    /// e.g. "shutil.rmtree"
    pub call: String,
    pub start: usize,
    pub end: usize,
}

/// Everything `scan` learned about one piece of code.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CodeScan {
    pub capabilities: Vec<Capability>,
    /// only those whose argument is fully literal
    pub shell_outs: Vec<ShellOut>,
    /// only those whose path argument is a literal string
    pub deletes: Vec<DeleteCall>,
    /// true when the tokenizer could not read the code (unterminated string, obviously not
    /// this language, too large > 1 MiB, nesting too deep); callers then treat it as capable
    /// of anything
    pub unreadable: bool,
    pub unreadable_reason: Option<String>,
}

/// Beyond this size the code is not tokenized at all.
const MAX_CODE: usize = 1 << 20;

/// Scans `code` written in `lang` for capabilities, literal shell-outs and literal deletes.
pub fn scan(lang: Lang, code: &str) -> CodeScan {
    let mut out = Out::default();
    if code.len() > MAX_CODE {
        out.fail("code is larger than 1 MiB");
        return out.finish();
    }
    // NUL and most C0 controls never occur in source text: this is binary or garbled input.
    if code
        .bytes()
        .any(|b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1b))
    {
        out.fail("control characters: not source code");
        return out.finish();
    }
    match lang {
        Lang::Python => python::scan(code, &mut out),
        Lang::Node => node::scan(code, &mut out),
        Lang::Perl => perl::scan(code, &mut out),
        Lang::Ruby => ruby::scan(code, &mut out),
        Lang::Php => php::scan(code, &mut out),
    }
    out.finish()
}

/// Collects findings while a language analyser walks its tokens.
#[derive(Default)]
pub(crate) struct Out {
    scan: CodeScan,
}

impl Out {
    pub(crate) fn fail(&mut self, reason: &str) {
        if !self.scan.unreadable {
            self.scan.unreadable = true;
            self.scan.unreadable_reason = Some(reason.to_string());
        }
    }

    pub(crate) fn cap(&mut self, kind: CapKind, what: &str, (start, end): (usize, usize)) {
        self.scan.capabilities.push(Capability {
            kind,
            what: what.to_string(),
            start,
            end,
        });
    }

    pub(crate) fn code(&mut self, code: String, (start, end): (usize, usize)) {
        self.scan
            .shell_outs
            .push(ShellOut::Code { code, start, end });
    }

    pub(crate) fn argv(&mut self, argv: Vec<String>, (start, end): (usize, usize)) {
        if !argv.is_empty() {
            self.scan
                .shell_outs
                .push(ShellOut::Argv { argv, start, end });
        }
    }

    /// One literal command: a single string goes to a shell, several form an argv.
    pub(crate) fn command(&mut self, mut items: Vec<String>, span: (usize, usize)) {
        if items.len() == 1 {
            let code = items.pop().unwrap_or_default();
            self.code(code, span);
        } else {
            self.argv(items, span);
        }
    }

    pub(crate) fn delete(
        &mut self,
        path: String,
        recursive: bool,
        call: &str,
        (start, end): (usize, usize),
    ) {
        self.scan.deletes.push(DeleteCall {
            path,
            recursive,
            call: call.to_string(),
            start,
            end,
        });
    }

    fn finish(mut self) -> CodeScan {
        let s = &mut self.scan;
        s.capabilities
            .sort_by(|a, b| (a.start, a.kind, &a.what).cmp(&(b.start, b.kind, &b.what)));
        s.capabilities.dedup();
        s.shell_outs.dedup();
        s.deletes.dedup();
        self.scan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_interpreter_names_to_languages() {
        for (name, lang) in [
            ("python", Lang::Python),
            ("python3.12", Lang::Python),
            ("/usr/bin/python2", Lang::Python),
            ("pypy3", Lang::Python),
            ("nodejs", Lang::Node),
            ("deno", Lang::Node),
            ("bun", Lang::Node),
            ("perl5.36", Lang::Perl),
            ("ruby", Lang::Ruby),
            ("php8.2", Lang::Php),
        ] {
            assert_eq!(lang_for_program(name), Some(lang), "{name}");
        }
        for name in ["bash", "pythonista", "nodemon", "rubocop", "phpunit", ""] {
            assert_eq!(lang_for_program(name), None, "{name}");
        }
    }

    #[test]
    fn oversized_code_is_unreadable() {
        let big = "x = 1\n".repeat(200_000);
        let s = scan(Lang::Python, &big);
        assert!(s.unreadable);
    }

    #[test]
    fn binary_input_is_unreadable_in_every_language() {
        for lang in [Lang::Python, Lang::Node, Lang::Perl, Lang::Ruby, Lang::Php] {
            assert!(scan(lang, "print(1)\0\x01").unreadable);
        }
    }

    #[test]
    fn deep_interpolation_and_nested_code_are_unreadable_not_a_crash() {
        let js = "`${".repeat(5000) + &"}`".repeat(5000);
        assert!(scan(Lang::Node, &js).unreadable);
        let py = "f'{".repeat(5000) + &"}'".repeat(5000);
        assert!(scan(Lang::Python, &py).unreadable);
        let rb = "\"#{".repeat(5000) + &"}\"".repeat(5000);
        assert!(scan(Lang::Ruby, &rb).unreadable);
        let pl = "s{x}{".repeat(5000) + &"}e".repeat(5000);
        assert!(scan(Lang::Perl, &pl).unreadable);
        let php = "\"{$a[".repeat(5000) + &"]}\"".repeat(5000);
        assert!(scan(Lang::Php, &php).unreadable);
    }

    #[test]
    fn long_statements_stay_fast() {
        let words = "system ".repeat(20_000);
        for lang in [Lang::Perl, Lang::Ruby] {
            assert!(!scan(lang, &words).capabilities.is_empty());
        }
        let chain = format!("x = a{}", ".b".repeat(40_000));
        assert!(scan(Lang::Python, &chain).capabilities.is_empty());
        assert!(scan(Lang::Node, &chain).capabilities.is_empty());
    }

    #[test]
    fn capabilities_are_sorted_and_deduplicated() {
        let s = scan(
            Lang::Python,
            "import subprocess; subprocess.run('a'); subprocess.run('a')",
        );
        let mut sorted = s.capabilities.clone();
        sorted.sort_by_key(|c| c.start);
        assert_eq!(sorted, s.capabilities);
    }

    proptest::proptest! {
        #[test]
        fn scan_never_panics_on_lossy_bytes(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
            let code = String::from_utf8_lossy(&bytes);
            for lang in [Lang::Python, Lang::Node, Lang::Perl, Lang::Ruby, Lang::Php] {
                let s = scan(lang, &code);
                for c in &s.capabilities {
                    proptest::prop_assert!(c.start <= c.end && c.end <= code.len());
                }
            }
        }
    }
}
