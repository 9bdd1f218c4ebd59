//! Capability scan of inline interpreter code (`python3 -c`, `node -e`, `perl -e`, `ruby -e`,
//! `php -r`, heredocs into them): which processes, deletes, writes, network and eval it can do.
//!
//! Each language has a small hand-written tokenizer that skips comments and keeps string
//! literals opaque, followed by token-pattern matching. Spans are byte offsets into the code
//! string: a [`Capability`] and a [`DeleteCall`] span the call, a [`ShellOut`] spans the
//! literal argument(s) it was read from.

mod dialect;
mod lexer;
mod node;
mod perl;
mod php;
mod python;
mod ruby;
pub mod table;
mod tokens;

/// A language whose inline code shellgate can read: the first five have hand-written
/// scanners, the rest are read with a dialect table (`dialect.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Python,
    Node,
    Perl,
    Ruby,
    Php,
    Lua,
    R,
    Julia,
    Tcl,
    Scheme,
    Lisp,
    Haskell,
    Ocaml,
    PowerShell,
    JvmScript,
    AppleScript,
    Gdb,
    Bpftrace,
    Dc,
    /// A language shellgate has no dialect for: only calls that look like shell-outs
    /// (`system("..")`, `os.cmd('..')`) and common delete/write/network names are read.
    Generic,
}

impl Lang {
    /// Every language, for tests that must cover each scanner.
    pub const ALL: &'static [Lang] = &[
        Lang::Python,
        Lang::Node,
        Lang::Perl,
        Lang::Ruby,
        Lang::Php,
        Lang::Lua,
        Lang::R,
        Lang::Julia,
        Lang::Tcl,
        Lang::Scheme,
        Lang::Lisp,
        Lang::Haskell,
        Lang::Ocaml,
        Lang::PowerShell,
        Lang::JvmScript,
        Lang::AppleScript,
        Lang::Gdb,
        Lang::Bpftrace,
        Lang::Dc,
        Lang::Generic,
    ];
}

/// Interpreter program name → language, from the one interpreter table ([`table`]):
/// `python3.12`, `/usr/bin/lua5.4`, `pwsh.exe`, ...
pub fn lang_for_program(name: &str) -> Option<Lang> {
    table::lookup(name).map(|i| i.lang)
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

/// A write call whose target path is a literal string (`shutil.copytree(a, 'dst')`,
/// `df.to_csv('out.csv')`, `zipfile.ZipFile(z).extractall('/etc')`): judged by its target
/// like any other write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteCall {
    pub path: String,
    /// e.g. "shutil.copytree"
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
    /// only those whose target path is a literal string
    pub writes: Vec<WriteCall>,
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
        other => dialect::scan(other, code, &mut out),
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

    pub(crate) fn write(&mut self, path: String, call: &str, (start, end): (usize, usize)) {
        self.scan.writes.push(WriteCall {
            path,
            call: call.to_string(),
            start,
            end,
        });
    }

    /// Takes over everything another scan of nested code found.
    pub(crate) fn merge(&mut self, other: Out) {
        self.absorb(other.scan, 0);
    }

    /// Takes over a finished scan of code that starts at byte `offset` of this code.
    pub(crate) fn absorb(&mut self, s: CodeScan, offset: usize) {
        let sh = |(a, b): (usize, usize)| (a + offset, b + offset);
        for c in s.capabilities {
            self.cap(c.kind, &c.what, sh((c.start, c.end)));
        }
        for o in s.shell_outs {
            match o {
                ShellOut::Code { code, start, end } => self.code(code, sh((start, end))),
                ShellOut::Argv { argv, start, end } => self.argv(argv, sh((start, end))),
            }
        }
        for d in s.deletes {
            self.delete(d.path, d.recursive, &d.call, sh((d.start, d.end)));
        }
        for w in s.writes {
            self.write(w.path, &w.call, sh((w.start, w.end)));
        }
        if s.unreadable {
            self.fail(
                s.unreadable_reason
                    .as_deref()
                    .unwrap_or("unreadable nested code"),
            );
        }
    }

    fn finish(mut self) -> CodeScan {
        let s = &mut self.scan;
        s.capabilities
            .sort_by(|a, b| (a.start, a.kind, &a.what).cmp(&(b.start, b.kind, &b.what)));
        s.capabilities.dedup();
        s.shell_outs.dedup();
        s.deletes.dedup();
        s.writes.dedup();
        self.scan
    }
}

/// Helpers for the tests of every language's scanner.
#[cfg(test)]
pub(crate) mod testing {
    use super::{CapKind, Lang, scan};

    /// What `code` can do: each capability's kind and the API that provides it, in order.
    pub(crate) fn kinds(lang: Lang, code: &str) -> Vec<(CapKind, String)> {
        scan(lang, code)
            .capabilities
            .into_iter()
            .map(|c| (c.kind, c.what))
            .collect()
    }

    /// Each of `codes` reads as `lang` and can do nothing.
    pub(crate) fn assert_inert(lang: Lang, codes: &[&str]) {
        for code in codes {
            let s = scan(lang, code);
            assert_eq!(s.capabilities, vec![], "{code}");
            assert!(!s.unreadable, "{code}");
        }
    }

    /// None of `codes` can be read as `lang`.
    pub(crate) fn assert_unreadable(lang: Lang, codes: &[&str]) {
        for code in codes {
            assert!(scan(lang, code).unreadable, "{code}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_interpreter_names_to_languages() {
        for (name, lang) in [
            ("lua5.4", Lang::Lua),
            ("Rscript", Lang::R),
            ("tclsh8.6", Lang::Tcl),
            ("expect", Lang::Tcl),
            ("pwsh", Lang::PowerShell),
            ("osascript", Lang::AppleScript),
            ("gdb", Lang::Gdb),
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
        for &lang in Lang::ALL {
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
        fn scan_never_panics_on_any_text(code in "\\PC{0,200}") {
            for &lang in Lang::ALL {
                let _ = scan(lang, &code);
            }
        }

        // Text made of each hand-scanned language's quoting and bracket characters reaches
        // the corners of its lexer that random text rarely does.
        #[test]
        fn scan_never_panics_on_language_like_text(
            python in "[a-z_().,'\"\\[\\]{}=+# \\\\\n]{0,120}",
            node in "[a-z$`'\"/*(){}\\[\\].,:=+ \\\\\n]{0,120}",
            perl in "[a-z$@%&qwxsy/`'\"(){}<>#=~;,. \\\\\n]{0,120}",
            ruby in "[a-z%:@$?#{}()\\[\\]`'\"/<~=. \\\\\n]{0,120}",
            php in "[a-z$<?>`'\"#/*(){}\\[\\];. \\\\\n]{0,120}",
        ) {
            for (lang, code) in [
                (Lang::Python, python),
                (Lang::Node, node),
                (Lang::Perl, perl),
                (Lang::Ruby, ruby),
                (Lang::Php, php),
            ] {
                let _ = scan(lang, &code);
            }
        }

        #[test]
        fn scan_never_panics_on_lossy_bytes(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..300)) {
            let code = String::from_utf8_lossy(&bytes);
            for &lang in Lang::ALL {
                let s = scan(lang, &code);
                for c in &s.capabilities {
                    proptest::prop_assert!(c.start <= c.end && c.end <= code.len());
                }
            }
        }
    }
}
