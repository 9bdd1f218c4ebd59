//! Command resolution, done once: the program's basename, and wrapper programs (`sudo`,
//! `env`, `timeout`, `xargs`, ...) peeled off with their own option grammars.
//!
//! Each wrapper family is one small function in `families.rs` and one row of [`FAMILIES`]
//! (as ripgrep keeps its flags and ShellCheck its `commandChecks`): [`peel`] looks the
//! program up, and the family reads the wrapper's words and says where the command it runs
//! starts ([`Step`]). Adding a wrapper with a plain grammar is a row of [`SIMPLE_WRAPPERS`]
//! (or [`SUB_WRAPPERS`] for a tool manager's `exec`/`run` subcommand); a wrapper with its own
//! behaviour is a family function and a row of [`FAMILIES`].

mod families;

use super::frame::NestedCode;
use super::opts::{self, Opts};
use super::{OriginKind, Piece, Word, WrapperUse};
use crate::Span;

/// The result of peeling wrappers off an argv.
#[derive(Debug, Clone, Default)]
pub struct Peeled {
    pub wrappers: Vec<WrapperUse>,
    /// The real program and its arguments (empty when the wrapper runs nothing, e.g. `sudo -v`).
    pub argv: Vec<Word>,
    /// `env NAME=VALUE` and `sudo NAME=VALUE` assignments for the program.
    pub assignments: Vec<(String, Word)>,
    /// `env -C DIR`: the program runs in another directory.
    pub chdir: Option<Word>,
    /// `env -i`: the program starts with an empty environment.
    pub clear_env: bool,
    /// Shell code a wrapper runs (`su -c`, `watch`, `flock -c`).
    pub code: Option<NestedCode>,
    /// Origin added for wrappers that feed run-time input (`xargs`).
    pub via: Option<(OriginKind, String)>,
}

/// Basename of a program path: `/usr/bin/rm` → `rm`. `None` unless the word is literal and
/// free of glob characters (bash would glob a command name too).
pub fn program_name(word: &Word) -> Option<String> {
    let v = word.lit()?;
    if word.has_glob() || v.is_empty() {
        return None;
    }
    // A bare name (most are) is returned as read, without a second copy.
    match v.rfind('/') {
        None => Some(v),
        Some(i) => Some(v[i + 1..].to_string()).filter(|b| !b.is_empty()),
    }
}

/// Wrappers with a plain grammar (in `model::opts::grammars`) that run the rest of their
/// argv as a command: (name, operands before the command).
const SIMPLE_WRAPPERS: &[(&str, usize)] = &[
    ("strace", 0),
    ("ltrace", 0),
    ("nsenter", 0),
    ("unshare", 0),
    ("setpriv", 0),
    ("taskset", 1),
    ("chrt", 1),
    ("numactl", 0),
    ("prlimit", 0),
    ("fakeroot", 0),
    ("faketime", 1),
    ("dbus-run-session", 0),
    ("xvfb-run", 0),
    ("firejail", 0),
    ("systemd-run", 0),
    ("proxychains", 0),
    ("proxychains4", 0),
    ("torsocks", 0),
    ("gtimeout", 1),
];

/// Subcommands of tool managers that run a command in the tool's environment
/// (`cabal exec -- bash`, `poetry run pytest`): (program, subcommand, operands before the
/// command; [`UNTIL_DASHES`] when tool names come first and `--` starts the command, as in
/// `mise exec node@20 -- node`). Their options are read with `grammars::RUNNER`; a `--`
/// before the command ends them (`cabal exec -- bash`).
const UNTIL_DASHES: usize = usize::MAX;

const SUB_WRAPPERS: &[(&str, &str, usize)] = &[
    ("cabal", "exec", 0),
    ("stack", "exec", 0),
    ("poetry", "run", 0),
    ("pipenv", "run", 0),
    ("uv", "run", 0),
    ("pdm", "run", 0),
    ("hatch", "run", 0),
    ("rye", "run", 0),
    ("pixi", "run", 0),
    ("bundle", "exec", 0),
    ("conda", "run", 0),
    ("mamba", "run", 0),
    ("micromamba", "run", 0),
    ("rbenv", "exec", 0),
    ("pyenv", "exec", 0),
    ("nodenv", "exec", 0),
    ("asdf", "exec", 0),
    ("mise", "exec", UNTIL_DASHES),
    ("mise", "x", UNTIL_DASHES),
    ("rtx", "exec", UNTIL_DASHES),
    ("direnv", "exec", 1),
];

/// Programs a glob in a command name is resolved against (`/???/r? -rf /` runs `/bin/rm`):
/// the ones rules care about, most dangerous first.
const GLOB_CANDIDATES: &[&str] = &[
    "rm",
    "dd",
    "shred",
    "mkfs",
    "wipefs",
    "chmod",
    "chown",
    "kill",
    "pkill",
    "killall",
    "shutdown",
    "reboot",
    "halt",
    "poweroff",
    "init",
    "sh",
    "bash",
    "dash",
    "zsh",
    "ksh",
    "python3",
    "python",
    "perl",
    "ruby",
    "node",
    "php",
    "curl",
    "wget",
    "nc",
    "git",
    "docker",
    "sudo",
    "su",
    "env",
    "xargs",
    "find",
    "tee",
    "cp",
    "mv",
    "truncate",
    "crontab",
    "systemctl",
    "iptables",
];

/// The program a glob-named command would run, if it can match one rules care about.
pub fn glob_program(word: &Word) -> Option<String> {
    if !word.has_glob() {
        return None;
    }
    let v = word.lit()?;
    let base = v.rsplit('/').next().unwrap_or(&v);
    GLOB_CANDIDATES
        .iter()
        .find(|c| crate::glob::matches(base, c))
        .map(|c| c.to_string())
}

fn lit(w: &Word) -> String {
    w.text_with("\u{fffd}")
}

/// Read a wrapper's options with its grammar: the options, and the index in `argv` of the
/// first operand (the command it runs, or the wrapper's own operand). The words before it
/// are added to `taken`.
fn read_opts(name: &str, argv: &[Word], taken: &mut Vec<String>) -> (Opts, usize) {
    let args = argv.get(1..).unwrap_or(&[]);
    let o = opts::parse_program(Some(name), args);
    let first = o.operands.first().map_or(argv.len(), |i| i + 1);
    taken.extend(argv.get(1..first).unwrap_or(&[]).iter().map(lit));
    (o, first)
}

/// `NAME=VALUE` as one word: the name and the value word.
pub fn split_assignment(w: &Word) -> Option<(String, Word)> {
    is_assignment(w)
}

fn is_assignment(w: &Word) -> Option<(String, Word)> {
    let Some(Piece::Lit { text, .. }) = w.pieces.first() else {
        return None;
    };
    let eq = text.find('=')?;
    let name = &text[..eq];
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        || name.chars().next().is_some_and(|c| c.is_ascii_digit())
    {
        return None;
    }
    let mut value = w.clone();
    if let Some(Piece::Lit { text, .. }) = value.pieces.first_mut() {
        *text = text[eq + 1..].to_string();
    }
    Some((name.to_string(), value))
}

fn wrapper(name: &str, args: Vec<String>, argv: &[Word], upto: usize) -> WrapperUse {
    let start = argv.first().map(|w| w.span.start).unwrap_or(0);
    let end = argv
        .get(upto.saturating_sub(1))
        .map(|w| w.span.end)
        .unwrap_or(start);
    WrapperUse {
        name: name.to_string(),
        args,
        span: Span::new(start, end.max(start)),
        opts: opts::parse_program(
            Some(name),
            argv.get(1..upto.min(argv.len()).max(1)).unwrap_or(&[]),
        ),
    }
}

/// Join words into one shell code string (as `eval`, `watch` and `sudo -s` do).
pub(crate) fn join_code(words: &[Word]) -> Word {
    let mut w = words
        .first()
        .cloned()
        .unwrap_or_else(|| Word::literal("", Span::default()));
    let mut pieces = Vec::new();
    for (i, x) in words.iter().enumerate() {
        if i > 0 {
            pieces.push(Piece::Lit {
                text: " ".into(),
                quoted: true,
            });
        }
        pieces.extend(x.pieces.iter().cloned());
    }
    if let (Some(f), Some(l)) = (words.first(), words.last()) {
        w.span = Span::new(f.span.start, l.span.end.max(f.span.start));
    }
    w.pieces = pieces;
    w.nspan = None;
    w.raw = words
        .iter()
        .map(|x| x.raw.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    w
}

fn dynamic_word(reason: &str, span: Span) -> Word {
    Word {
        pieces: vec![Piece::Unknown {
            reason: reason.to_string(),
            may_be_empty: false,
        }],
        span,
        raw: String::new(),
        notes: Vec::new(),
        substitutions: Vec::new(),
        nspan: None,
    }
}

/// Replace `{}`-style placeholders in literal pieces by an unknown value.
fn replace_placeholder(w: &Word, ph: &str, reason: &str) -> Word {
    if ph.is_empty()
        || !w
            .pieces
            .iter()
            .any(|p| matches!(p, Piece::Lit { text, .. } if text.contains(ph)))
    {
        return w.clone();
    }
    let mut out = w.clone();
    let mut pieces = Vec::new();
    for p in &w.pieces {
        match p {
            Piece::Lit { text, quoted } if text.contains(ph) => {
                let parts: Vec<&str> = text.split(ph).collect();
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        pieces.push(Piece::Unknown {
                            reason: reason.to_string(),
                            may_be_empty: false,
                        });
                    }
                    if !part.is_empty() {
                        pieces.push(Piece::Lit {
                            text: part.to_string(),
                            quoted: *quoted,
                        });
                    }
                }
            }
            p => pieces.push(p.clone()),
        }
    }
    out.pieces = pieces;
    out
}

/// The shell a wrapper starts when it is given no command (`sudo -s`, `sudo -i`, `su`,
/// `doas -s`, `pkexec`): the one it names (`su -s /bin/zsh`), else the user's shell, taken as
/// `sh`. It carries the wrapper's span, so findings point at the wrapper.
fn started_shell(named: Option<&Word>, argv: &[Word]) -> Word {
    let span = argv.first().map(|w| w.span).unwrap_or_default();
    let name = named
        .and_then(program_name)
        .unwrap_or_else(|| "sh".to_string());
    Word::literal(&name, span)
}

/// One wrapper family: the programs it covers and how one of them is peeled.
struct Family {
    names: &'static [&'static str],
    peel: fn(&mut Peel<'_>) -> Step,
}

/// The wrapper families with behaviour of their own, one function each (`families.rs`).
/// Tool managers' runners ([`SUB_WRAPPERS`]) and wrappers with a plain grammar
/// ([`SIMPLE_WRAPPERS`]) are looked up after these.
const FAMILIES: &[Family] = &[
    Family {
        names: &["sudo", "sudoedit", "doas", "pkexec"],
        peel: families::identity,
    },
    Family {
        names: &["env"],
        peel: families::env,
    },
    Family {
        names: &[
            "nice",
            "stdbuf",
            "nohup",
            "unbuffer",
            "builtin",
            "caffeinate",
            "setsid",
            "catchsegv",
            "time",
            "exec",
        ],
        peel: families::options_only,
    },
    Family {
        names: &["ionice"],
        peel: families::ionice,
    },
    Family {
        names: &["timeout", "chroot"],
        peel: families::one_operand,
    },
    Family {
        names: &["command"],
        peel: families::command,
    },
    Family {
        names: &["busybox", "toybox"],
        peel: families::multiplexer,
    },
    Family {
        names: &["flock"],
        peel: families::flock,
    },
    Family {
        names: &["su", "runuser"],
        peel: families::switch_user,
    },
    Family {
        names: &["watch"],
        peel: families::watch,
    },
    Family {
        names: &["xargs"],
        peel: families::xargs,
    },
    Family {
        names: &["parallel"],
        peel: families::parallel,
    },
    Family {
        names: &["script", "sg", "nix-shell"],
        peel: families::code_string,
    },
];

/// The family that peels `name`, if it is a wrapper.
fn family(name: &str) -> Option<fn(&mut Peel<'_>) -> Step> {
    if let Some(f) = FAMILIES.iter().find(|f| f.names.contains(&name)) {
        return Some(f.peel);
    }
    if SUB_WRAPPERS.iter().any(|(p, _, _)| *p == name) {
        return Some(families::runner);
    }
    SIMPLE_WRAPPERS
        .iter()
        .any(|(p, _)| *p == name)
        .then_some(families::simple as fn(&mut Peel<'_>) -> Step)
}

/// One wrapper being peeled: `argv[0]` is the wrapper.
struct Peel<'p> {
    name: &'p str,
    argv: &'p mut Vec<Word>,
    out: &'p mut Peeled,
    /// The wrapper's own words, as decoded text (its options and operands).
    taken: Vec<String>,
}

/// What a family found.
enum Step {
    /// The wrapper's own words end at this index of argv, where the command it runs
    /// starts; when nothing follows (`env`, `nohup`), the wrapper is the program.
    Command(usize),
    /// The family recorded the wrapper and replaced argv itself: with the command it runs,
    /// the shell it starts, or nothing when what it runs is shell code (`Peeled::code`).
    Replaced,
    /// Not a wrapper in this use (`command -v rm`, `strace -p PID`): the program itself.
    Program,
}

impl Peel<'_> {
    /// Read the wrapper's options with its grammar ([`read_opts`]), into `taken`.
    fn read_opts(&mut self) -> (Opts, usize) {
        read_opts(self.name, self.argv, &mut self.taken)
    }

    /// The wrapper's arguments (after its name).
    fn args(&self) -> &[Word] {
        self.argv.get(1..).unwrap_or(&[])
    }

    /// Record the wrapper over `argv[..upto]` with the words taken so far.
    fn record(&mut self, upto: usize) {
        let taken = std::mem::take(&mut self.taken);
        self.out
            .wrappers
            .push(wrapper(self.name, taken, self.argv, upto));
    }

    /// Record the wrapper over all of argv; what it runs is shell code.
    fn runs_code(&mut self, code: Word, detail: String) -> Step {
        self.record(self.argv.len());
        self.out.code = Some(NestedCode::new(code, OriginKind::ShellString, detail));
        self.argv.clear();
        Step::Replaced
    }

    /// The wrapper given no command: recorded over all of argv, and the shell it starts
    /// becomes the program.
    fn wrap_shell(&mut self) -> Step {
        self.record(self.argv.len());
        *self.argv = vec![started_shell(None, self.argv)];
        Step::Replaced
    }
}

/// Peel every wrapper off `argv`. Bounded: at most 32 wrappers.
pub fn peel(mut argv: Vec<Word>) -> Peeled {
    let mut out = Peeled::default();
    for _ in 0..32 {
        let Some(name) = argv.first().and_then(program_name) else {
            break;
        };
        let Some(peel) = family(&name) else {
            break;
        };
        let mut p = Peel {
            name: &name,
            argv: &mut argv,
            out: &mut out,
            taken: Vec::new(),
        };
        match peel(&mut p) {
            Step::Program => break,
            Step::Replaced => {}
            Step::Command(next) => {
                if next >= p.argv.len() {
                    // Nothing follows (`env`, `sudo -v`, `nohup`): the wrapper is the program.
                    break;
                }
                p.record(next);
                argv = argv.split_off(next);
            }
        }
    }
    out.argv = argv;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &Peeled) -> Vec<String> {
        p.wrappers.iter().map(|w| w.name.clone()).collect()
    }

    #[test]
    fn peels_sudo_with_value_options() {
        let p = peel(Word::literals(&[
            "sudo", "-u", "root", "-E", "rm", "-rf", "/",
        ]));
        assert_eq!(names(&p), ["sudo"]);
        assert_eq!(p.argv[0].lit().as_deref(), Some("rm"));
    }

    #[test]
    fn peels_nested_wrappers_in_order() {
        let p = peel(Word::literals(&[
            "sudo", "env", "X=1", "nice", "-n", "5", "timeout", "-s", "KILL", "5", "nohup", "rm",
            "x",
        ]));
        assert_eq!(names(&p), ["sudo", "env", "nice", "timeout", "nohup"]);
        assert_eq!(p.argv[0].lit().as_deref(), Some("rm"));
        assert_eq!(p.assignments[0].0, "X");
    }

    #[test]
    fn env_split_string_becomes_words() {
        let p = peel(Word::literals(&["env", "-S", "rm -rf /"]));
        assert_eq!(
            p.argv.iter().filter_map(|w| w.lit()).collect::<Vec<_>>(),
            ["rm", "-rf", "/"]
        );
    }

    #[test]
    fn xargs_appends_dynamic_argument() {
        let p = peel(Word::literals(&["xargs", "-0", "-n", "1", "rm", "-rf"]));
        assert_eq!(p.argv.len(), 3);
        assert!(p.argv[2].is_dynamic());
    }

    #[test]
    fn command_v_is_not_execution() {
        let p = peel(Word::literals(&["command", "-v", "rm"]));
        assert_eq!(p.argv[0].lit().as_deref(), Some("command"));
    }

    #[test]
    fn wrappers_given_no_command_start_a_shell() {
        for (argv, wrappers, shell) in [
            (&["sudo", "-s"][..], &["sudo"][..], "sh"),
            (&["sudo", "-u", "bob", "-i"], &["sudo"], "sh"),
            (&["sudo", "--login"], &["sudo"], "sh"),
            (&["su"], &["su"], "sh"),
            (&["su", "-", "bob"], &["su"], "sh"),
            (&["sudo", "su", "-"], &["sudo", "su"], "sh"),
            (&["su", "-s", "/bin/zsh"], &["su"], "zsh"),
            (&["runuser", "-l", "bob"], &["runuser"], "sh"),
            (&["doas", "-s"], &["doas"], "sh"),
            (&["pkexec"], &["pkexec"], "sh"),
        ] {
            let p = peel(Word::literals(argv));
            assert_eq!(names(&p), wrappers, "{argv:?}");
            let got: Vec<_> = p.argv.iter().filter_map(|w| w.lit()).collect();
            assert_eq!(got, [shell], "{argv:?}");
        }
    }

    #[test]
    fn words_after_the_user_are_arguments_of_the_shell_su_starts() {
        let p = peel(Word::literals(&[
            "su",
            "-",
            "jetty",
            "-s",
            "/bin/bash",
            "./run.sh",
            "x",
        ]));
        let got: Vec<_> = p.argv.iter().filter_map(|w| w.lit()).collect();
        assert_eq!(got, ["bash", "./run.sh", "x"]);
    }

    #[test]
    fn wrappers_in_another_mode_start_no_shell() {
        for argv in [
            &["sudo", "-l"][..],
            &["sudo", "-s", "-l"],
            &["sudo", "-v"],
            &["sudo", "-k"],
            &["sudo", "-i", "--version"],
            &["su", "--help"],
            &["pkexec", "--version"],
            &["doas", "-C", "/etc/doas.conf"],
        ] {
            let p = peel(Word::literals(argv));
            assert!(
                p.argv.iter().all(|w| w.lit().as_deref() != Some("sh")),
                "{argv:?} started a shell"
            );
        }
    }

    #[test]
    fn su_c_yields_code() {
        let p = peel(Word::literals(&["su", "-", "root", "-c", "rm -rf /"]));
        assert_eq!(
            p.code.and_then(|c| c.code.lit()).as_deref(),
            Some("rm -rf /")
        );
    }

    #[test]
    fn program_name_is_basename_and_rejects_globs() {
        assert_eq!(
            program_name(&Word::literal("/usr/bin/rm", Span::default())).as_deref(),
            Some("rm")
        );
        let mut w = Word::literal("/bin/r?", Span::default());
        w.pieces = vec![Piece::Lit {
            text: "/bin/r?".into(),
            quoted: false,
        }];
        assert_eq!(program_name(&w), None);
    }
}
