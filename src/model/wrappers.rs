//! Command resolution, done once: the program's basename, and wrapper programs (`sudo`,
//! `env`, `timeout`, `xargs`, ...) peeled off with their own option grammars.

use super::{OriginKind, Piece, Word, WrapperUse};
use crate::Span;

/// Code a wrapper runs through a shell (`su -c CODE`, `watch 'a | b'`).
#[derive(Debug, Clone)]
pub struct WrappedCode {
    pub code: Word,
    pub kind: OriginKind,
    pub detail: String,
}

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
    pub code: Option<WrappedCode>,
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
    let base = v.rsplit('/').next().unwrap_or(&v);
    if base.is_empty() {
        return None;
    }
    Some(base.to_string())
}

/// Wrappers that run the rest of their argv as a command: (name, short options taking a
/// value, long options taking a value, operands before the command).
const SIMPLE_WRAPPERS: &[(&str, &str, &[&str], usize)] = &[
    (
        "strace",
        "abeEIoOpPsSuX",
        &["--output", "--trace", "--signal", "--user"],
        0,
    ),
    ("ltrace", "aAenoOpsSu", &["--output"], 0),
    (
        "nsenter",
        "tSGwr",
        &["--target", "--setuid", "--setgid", "--wd", "--root"],
        0,
    ),
    (
        "unshare",
        "RwSG",
        &["--root", "--wd", "--setuid", "--setgid"],
        0,
    ),
    (
        "setpriv",
        "",
        &[
            "--reuid",
            "--regid",
            "--groups",
            "--inh-caps",
            "--bounding-set",
        ],
        0,
    ),
    ("taskset", "", &[], 1),
    ("chrt", "", &[], 1),
    ("numactl", "CNmlpi", &[], 0),
    ("prlimit", "p", &["--pid"], 0),
    ("fakeroot", "lis", &["--lib", "--faked"], 0),
    ("faketime", "", &[], 1),
    (
        "dbus-run-session",
        "",
        &["--config-file", "--dbus-daemon"],
        0,
    ),
    (
        "xvfb-run",
        "nsfep",
        &[
            "--server-num",
            "--server-args",
            "--auth-file",
            "--error-file",
        ],
        0,
    ),
    ("firejail", "", &[], 0),
    (
        "systemd-run",
        "pEuHM",
        &[
            "--property",
            "--setenv",
            "--unit",
            "--host",
            "--machine",
            "--description",
            "--slice",
            "--uid",
            "--gid",
            "--working-directory",
        ],
        0,
    ),
    ("proxychains", "f", &[], 0),
    ("proxychains4", "f", &[], 0),
    ("torsocks", "uaP", &[], 0),
    ("gtimeout", "sk", &["--signal", "--kill-after"], 1),
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
        .find(|c| super::word::glob_match(base, c) || glob_class_match(base, c))
        .map(|c| c.to_string())
}

/// `glob_match` plus `[..]` character classes, which it does not handle.
fn glob_class_match(pat: &str, s: &str) -> bool {
    let mut simple = String::new();
    let mut chars = pat.chars();
    while let Some(c) = chars.next() {
        if c == '[' {
            // Any class matches any one character: an over-approximation, fine for a guard.
            for d in chars.by_ref() {
                if d == ']' {
                    break;
                }
            }
            simple.push('?');
        } else {
            simple.push(c);
        }
    }
    super::word::glob_match(&simple, s)
}

fn lit(w: &Word) -> String {
    w.text_with("\u{fffd}")
}

/// How a wrapper's options are read.
struct OptSpec {
    /// Short options that take a value (`-u root`, `-uroot`).
    short_val: &'static str,
    /// Long options that take a value when not written `--opt=value`.
    long_val: &'static [&'static str],
    /// Stop at the first non-option word (most do).
    _posix: bool,
}

/// Consume options per `spec` starting at `i`; returns the index of the first operand.
fn skip_opts(argv: &[Word], mut i: usize, spec: &OptSpec, taken: &mut Vec<String>) -> usize {
    while i < argv.len() {
        let a = lit(&argv[i]);
        if a == "--" {
            taken.push(a);
            return i + 1;
        }
        if a.starts_with("--") && a.len() > 2 {
            taken.push(a.clone());
            let name = a.split('=').next().unwrap_or("");
            if !a.contains('=') && spec.long_val.contains(&name) {
                if let Some(v) = argv.get(i + 1) {
                    taken.push(lit(v));
                }
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        if a.starts_with('-') && a.len() > 1 && !a.starts_with("-\u{fffd}") {
            taken.push(a.clone());
            // A value-taking short option consumes the rest of the cluster or the next word.
            let body: Vec<char> = a[1..].chars().collect();
            let mut consumed_next = false;
            for (pos, c) in body.iter().enumerate() {
                if spec.short_val.contains(*c) {
                    if pos + 1 == body.len() {
                        consumed_next = true;
                    }
                    break;
                }
            }
            if consumed_next {
                if let Some(v) = argv.get(i + 1) {
                    taken.push(lit(v));
                }
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        return i;
    }
    i
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
    }
}

/// Join words into one shell code string (as `watch` and `sudo -s` do).
fn join_code(words: &[Word]) -> Word {
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

/// Peel every wrapper off `argv`. Bounded: at most 32 wrappers.
pub fn peel(mut argv: Vec<Word>) -> Peeled {
    let mut out = Peeled::default();
    for _ in 0..32 {
        let Some(first) = argv.first() else { break };
        let Some(name) = program_name(first) else {
            break;
        };
        let mut taken = Vec::new();
        let next: usize = match name.as_str() {
            "sudo" | "sudoedit" => {
                let spec = OptSpec {
                    short_val: "ugpCDhrtTUR",
                    long_val: &[
                        "--user",
                        "--group",
                        "--prompt",
                        "--close-from",
                        "--chdir",
                        "--host",
                        "--role",
                        "--type",
                        "--command-timeout",
                        "--other-user",
                        "--chroot",
                    ],
                    _posix: true,
                };
                let mut i = skip_opts(&argv, 1, &spec, &mut taken);
                while let Some((n, v)) = argv.get(i).and_then(is_assignment) {
                    out.assignments.push((n, v));
                    i += 1;
                }
                i
            }
            "doas" => skip_opts(
                &argv,
                1,
                &OptSpec {
                    short_val: "uC",
                    long_val: &[],
                    _posix: true,
                },
                &mut taken,
            ),
            "pkexec" => skip_opts(
                &argv,
                1,
                &OptSpec {
                    short_val: "",
                    long_val: &["--user"],
                    _posix: true,
                },
                &mut taken,
            ),
            "env" => {
                let mut i = 1;
                while let Some(w) = argv.get(i) {
                    let a = lit(w);
                    if a == "--" {
                        taken.push(a);
                        i += 1;
                        break;
                    }
                    if a == "-i" || a == "--ignore-environment" || a == "-" {
                        out.clear_env = true;
                        taken.push(a);
                        i += 1;
                    } else if a == "-u" || a == "--unset" || a == "-C" || a == "--chdir" {
                        taken.push(a.clone());
                        if let Some(v) = argv.get(i + 1) {
                            taken.push(lit(v));
                            if a == "-C" || a == "--chdir" {
                                out.chdir = Some(v.clone());
                            }
                        }
                        i += 2;
                    } else if a.starts_with("--chdir=") {
                        taken.push(a.clone());
                        let mut v = w.clone();
                        if let Some(Piece::Lit { text, .. }) = v.pieces.first_mut() {
                            *text = text.trim_start_matches("--chdir=").to_string();
                        }
                        out.chdir = Some(v);
                        i += 1;
                    } else if a == "-S"
                        || a == "--split-string"
                        || a.starts_with("-S")
                        || a.starts_with("--split-string=")
                    {
                        // `env -S 'prog args'` splits one string into words.
                        taken.push(a.clone());
                        let (text, consumed) = if a == "-S" || a == "--split-string" {
                            (argv.get(i + 1).and_then(|x| x.lit()), 2)
                        } else {
                            (
                                Some(
                                    a.trim_start_matches("--split-string=")
                                        .trim_start_matches("-S")
                                        .to_string(),
                                ),
                                1,
                            )
                        };
                        let span = w.span;
                        let rest: Vec<Word> = argv
                            .get(i + consumed..)
                            .map(|s| s.to_vec())
                            .unwrap_or_default();
                        match text.and_then(|t| shell_words::split(&t).ok()) {
                            Some(parts) => {
                                let mut new_argv: Vec<Word> =
                                    parts.iter().map(|p| Word::literal(p, span)).collect();
                                new_argv.extend(rest);
                                // `env -S 'X=1 prog'`: env sets the leading assignments too.
                                let lead = new_argv
                                    .iter()
                                    .take_while(|w| is_assignment(w).is_some())
                                    .count();
                                for w in new_argv.drain(..lead) {
                                    if let Some(a) = is_assignment(&w) {
                                        out.assignments.push(a);
                                    }
                                }
                                out.wrappers.push(wrapper(
                                    "env",
                                    std::mem::take(&mut taken),
                                    &argv,
                                    i + consumed,
                                ));
                                argv = new_argv;
                            }
                            None => {
                                out.wrappers.push(wrapper(
                                    "env",
                                    std::mem::take(&mut taken),
                                    &argv,
                                    i + consumed,
                                ));
                                argv = vec![dynamic_word(
                                    "the string passed to env -S is only known at run time",
                                    span,
                                )];
                            }
                        }
                        i = usize::MAX;
                        break;
                    } else if a.starts_with('-') && a.len() > 1 {
                        taken.push(a);
                        i += 1;
                    } else if let Some((n, v)) = is_assignment(w) {
                        out.assignments.push((n, v));
                        i += 1;
                    } else {
                        break;
                    }
                }
                if i == usize::MAX {
                    continue;
                }
                i
            }
            "nice" => skip_opts(
                &argv,
                1,
                &OptSpec {
                    short_val: "n",
                    long_val: &["--adjustment"],
                    _posix: true,
                },
                &mut taken,
            ),
            "ionice" => {
                let i = skip_opts(
                    &argv,
                    1,
                    &OptSpec {
                        short_val: "cnpPu",
                        long_val: &["--class", "--classdata", "--pid", "--pgid", "--uid"],
                        _posix: true,
                    },
                    &mut taken,
                );
                if taken.iter().any(|t| {
                    t.starts_with("-p")
                        || t.starts_with("-P")
                        || t.starts_with("-u")
                        || t.starts_with("--pid")
                }) {
                    argv.len()
                } else {
                    i
                }
            }
            "timeout" => {
                let i = skip_opts(
                    &argv,
                    1,
                    &OptSpec {
                        short_val: "sk",
                        long_val: &["--signal", "--kill-after"],
                        _posix: true,
                    },
                    &mut taken,
                );
                if let Some(d) = argv.get(i) {
                    taken.push(lit(d));
                }
                i + 1
            }
            "stdbuf" => skip_opts(
                &argv,
                1,
                &OptSpec {
                    short_val: "ioe",
                    long_val: &["--input", "--output", "--error"],
                    _posix: true,
                },
                &mut taken,
            ),
            "nohup" | "unbuffer" | "builtin" | "caffeinate" | "setsid" | "catchsegv" => skip_opts(
                &argv,
                1,
                &OptSpec {
                    short_val: "tw",
                    long_val: &[],
                    _posix: true,
                },
                &mut taken,
            ),
            "time" => skip_opts(
                &argv,
                1,
                &OptSpec {
                    short_val: "fo",
                    long_val: &["--format", "--output"],
                    _posix: true,
                },
                &mut taken,
            ),
            "command" => {
                let i = skip_opts(
                    &argv,
                    1,
                    &OptSpec {
                        short_val: "",
                        long_val: &[],
                        _posix: true,
                    },
                    &mut taken,
                );
                // `command -v rm` only looks the name up.
                if taken.iter().any(|t| t.contains('v') || t.contains('V')) {
                    break;
                }
                i
            }
            "exec" => skip_opts(
                &argv,
                1,
                &OptSpec {
                    short_val: "a",
                    long_val: &[],
                    _posix: true,
                },
                &mut taken,
            ),
            "busybox" | "toybox" => {
                if argv.get(1).map(lit).is_some_and(|a| a.starts_with('-')) {
                    break;
                }
                1
            }
            "chroot" => {
                let i = skip_opts(
                    &argv,
                    1,
                    &OptSpec {
                        short_val: "",
                        long_val: &["--userspec", "--groups"],
                        _posix: true,
                    },
                    &mut taken,
                );
                if let Some(d) = argv.get(i) {
                    taken.push(lit(d));
                }
                i + 1
            }
            "flock" => {
                let i = skip_opts(
                    &argv,
                    1,
                    &OptSpec {
                        short_val: "wEc",
                        long_val: &["--timeout", "--conflict-exit-code", "--command"],
                        _posix: true,
                    },
                    &mut taken,
                );
                if let Some(pos) = argv.iter().position(|w| {
                    let a = lit(w);
                    a == "-c" || a == "--command"
                }) && let Some(code) = argv.get(pos + 1)
                {
                    out.wrappers
                        .push(wrapper("flock", taken, &argv, argv.len()));
                    out.code = Some(WrappedCode {
                        code: code.clone(),
                        kind: OriginKind::ShellString,
                        detail: "flock -c".into(),
                    });
                    argv.clear();
                    break;
                }
                if let Some(d) = argv.get(i) {
                    taken.push(lit(d));
                }
                i + 1
            }
            "su" | "runuser" => {
                // `su [opts] [-c CODE] [user]`, `runuser -u user -- cmd args`.
                let mut code = None;
                let mut i = 1;
                let mut cmd_start = None;
                while i < argv.len() {
                    let a = lit(&argv[i]);
                    if a == "-c" || a == "--command" || a == "--session-command" {
                        code = argv.get(i + 1).cloned();
                        taken.push(a);
                        i += 2;
                    } else if let Some(c) = a.strip_prefix("--command=") {
                        code = Some(Word::literal(c, argv[i].span));
                        taken.push(a.clone());
                        i += 1;
                    } else if a == "-u"
                        || a == "--user"
                        || a == "-s"
                        || a == "--shell"
                        || a == "-g"
                        || a == "-G"
                        || a == "--group"
                    {
                        taken.push(a);
                        if let Some(v) = argv.get(i + 1) {
                            taken.push(lit(v));
                        }
                        i += 2;
                    } else if a == "--" {
                        if name == "runuser" {
                            cmd_start = Some(i + 1);
                            break;
                        }
                        i += 1;
                    } else {
                        taken.push(a);
                        i += 1;
                    }
                }
                out.wrappers.push(wrapper(&name, taken, &argv, argv.len()));
                if let Some(c) = code {
                    out.code = Some(WrappedCode {
                        code: c,
                        kind: OriginKind::ShellString,
                        detail: format!("{name} -c"),
                    });
                    argv.clear();
                    break;
                }
                match cmd_start {
                    Some(s) => {
                        argv = argv.split_off(s.min(argv.len()));
                        continue;
                    }
                    None => {
                        argv.clear();
                        break;
                    }
                }
            }
            "watch" => {
                let i = skip_opts(
                    &argv,
                    1,
                    &OptSpec {
                        short_val: "nqd",
                        long_val: &["--interval", "--differences", "--equexit"],
                        _posix: true,
                    },
                    &mut taken,
                );
                let exec = taken.iter().any(|t| {
                    t == "-x"
                        || t == "--exec"
                        || (t.starts_with('-') && !t.starts_with("--") && t.contains('x'))
                });
                if exec {
                    i
                } else {
                    let rest = argv.get(i..).map(|s| s.to_vec()).unwrap_or_default();
                    out.wrappers.push(wrapper("watch", taken, &argv, i));
                    if !rest.is_empty() {
                        out.code = Some(WrappedCode {
                            code: join_code(&rest),
                            kind: OriginKind::ShellString,
                            detail: "watch (runs its arguments with sh -c)".into(),
                        });
                    }
                    argv.clear();
                    break;
                }
            }
            "xargs" => {
                let mut i = 1;
                let mut repl: Option<String> = None;
                while i < argv.len() {
                    let a = lit(&argv[i]);
                    if a == "--" {
                        taken.push(a);
                        i += 1;
                        break;
                    }
                    if !a.starts_with('-') || a == "-" {
                        break;
                    }
                    taken.push(a.clone());
                    if a == "-I" {
                        repl = argv.get(i + 1).map(lit);
                        if let Some(v) = &repl {
                            taken.push(v.clone());
                        }
                        i += 2;
                        continue;
                    }
                    if let Some(r) = a.strip_prefix("-I") {
                        repl = Some(r.to_string());
                        i += 1;
                        continue;
                    }
                    if a == "-i" || a == "--replace" {
                        repl = Some("{}".into());
                        i += 1;
                        continue;
                    }
                    if let Some(r) = a
                        .strip_prefix("--replace=")
                        .or_else(|| a.strip_prefix("-i").filter(|r| !r.is_empty()))
                    {
                        repl = Some(r.to_string());
                        i += 1;
                        continue;
                    }
                    // `-e[EOF]` and `-l[N]` take their value only attached (GNU xargs).
                    let takes_val = matches!(
                        a.as_str(),
                        "-a" | "-d"
                            | "-E"
                            | "-L"
                            | "-n"
                            | "-P"
                            | "-s"
                            | "--arg-file"
                            | "--delimiter"
                            | "--eof"
                            | "--max-lines"
                            | "--max-args"
                            | "--max-procs"
                            | "--max-chars"
                            | "--process-slot-var"
                    );
                    if takes_val && let Some(v) = argv.get(i + 1) {
                        taken.push(lit(v));
                    }
                    i += if takes_val { 2 } else { 1 };
                }
                out.wrappers.push(wrapper("xargs", taken, &argv, i));
                let reason = "arguments xargs reads from its input";
                let mut rest: Vec<Word> = argv.get(i..).map(|s| s.to_vec()).unwrap_or_default();
                if rest.is_empty() {
                    rest.push(Word::literal(
                        "echo",
                        argv.last().map(|w| w.span).unwrap_or_default(),
                    ));
                }
                match repl {
                    Some(r) => {
                        rest = rest
                            .iter()
                            .map(|w| replace_placeholder(w, &r, reason))
                            .collect();
                    }
                    None => {
                        let span = rest.last().map(|w| w.span).unwrap_or_default();
                        rest.push(dynamic_word(reason, span));
                    }
                }
                out.via = Some((OriginKind::Xargs, "xargs".into()));
                argv = rest;
                continue;
            }
            "parallel" => {
                // `parallel [opts] cmd args ::: values` runs the template through a shell.
                let mut i = 1;
                while i < argv.len() {
                    let a = lit(&argv[i]);
                    if !a.starts_with('-') {
                        break;
                    }
                    taken.push(a.clone());
                    let takes_val = matches!(
                        a.as_str(),
                        "-j" | "-P"
                            | "-n"
                            | "-N"
                            | "-S"
                            | "--jobs"
                            | "--sshlogin"
                            | "-a"
                            | "--arg-file"
                            | "-d"
                            | "--delimiter"
                            | "-I"
                            | "--colsep"
                            | "--joblog"
                            | "--results"
                            | "--tmpdir"
                            | "--timeout"
                            | "--delay"
                            | "-L"
                            | "--max-lines"
                            | "--max-args"
                    );
                    i += if takes_val { 2 } else { 1 };
                }
                let sep = argv
                    .iter()
                    .enumerate()
                    .skip(i)
                    .find(|(_, w)| matches!(lit(w).as_str(), ":::" | "::::" | ":::+" | "::::+"))
                    .map(|(p, _)| p);
                let template_end = sep.unwrap_or(argv.len());
                let template: Vec<Word> = argv
                    .get(i..template_end)
                    .map(|s| s.to_vec())
                    .unwrap_or_default();
                out.wrappers
                    .push(wrapper("parallel", taken, &argv, template_end));
                let reason = "arguments parallel substitutes at run time";
                let mut words: Vec<Word> = template
                    .iter()
                    .map(|w| replace_placeholder(w, "{}", reason))
                    .collect();
                if !template.iter().any(|w| w.raw.contains("{}")) {
                    let span = words.last().map(|w| w.span).unwrap_or_default();
                    words.push(dynamic_word(reason, span));
                }
                if !words.is_empty() {
                    out.code = Some(WrappedCode {
                        code: join_code(&words),
                        kind: OriginKind::ShellString,
                        detail: "parallel (runs its command template with a shell)".into(),
                    });
                }
                argv.clear();
                break;
            }
            "script" | "sg" | "nix-shell" => {
                // Programs that run one string of shell code: `script -c CODE`,
                // `sg GROUP -c CODE`, `nix-shell --run CODE`.
                let flag = match name.as_str() {
                    "script" => ["-c", "--command"],
                    "nix-shell" => ["--run", "--command"],
                    _ => ["-c", "-c"],
                };
                let pos = argv.iter().skip(1).position(|w| {
                    let a = lit(w);
                    a == flag[0]
                        || a == flag[1]
                        || (name == "script"
                            && a.starts_with('-')
                            && !a.starts_with("--")
                            && a.ends_with('c'))
                });
                let pos = pos.map(|p| p + 1);
                let code = match (name.as_str(), pos) {
                    (_, Some(p)) => argv.get(p + 1).cloned(),
                    // `sg GROUP CMD` also runs CMD through a shell.
                    ("sg", None) => argv
                        .iter()
                        .skip(1)
                        .filter(|w| !lit(w).starts_with('-'))
                        .nth(1)
                        .cloned(),
                    _ => None,
                };
                let Some(code) = code else { break };
                out.wrappers.push(wrapper(
                    &name,
                    argv.iter().skip(1).map(lit).collect(),
                    &argv,
                    argv.len(),
                ));
                out.code = Some(WrappedCode {
                    code,
                    kind: OriginKind::ShellString,
                    detail: format!("{name} {}", flag[0]),
                });
                argv.clear();
                break;
            }
            other => {
                let Some(&(_, short_val, long_val, positional)) =
                    SIMPLE_WRAPPERS.iter().find(|w| w.0 == other)
                else {
                    break;
                };
                let spec = OptSpec {
                    short_val,
                    long_val,
                    _posix: true,
                };
                let i = skip_opts(&argv, 1, &spec, &mut taken);
                // `-p PID` forms of tracers attach to a process instead of running one.
                if matches!(other, "strace" | "ltrace" | "taskset" | "chrt" | "prlimit")
                    && taken.iter().any(|t| t == "-p" || t.starts_with("--pid"))
                {
                    break;
                }
                for w in argv.iter().skip(i).take(positional) {
                    taken.push(lit(w));
                }
                i + positional
            }
        };
        if next >= argv.len() {
            // Nothing follows (`env`, `sudo -v`, `nohup`): the wrapper is the program.
            break;
        }
        out.wrappers.push(wrapper(&name, taken, &argv, next));
        argv = argv.split_off(next);
    }
    out.argv = argv;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(v: &[&str]) -> Vec<Word> {
        v.iter()
            .map(|s| Word::literal(s, Span::default()))
            .collect()
    }

    fn names(p: &Peeled) -> Vec<String> {
        p.wrappers.iter().map(|w| w.name.clone()).collect()
    }

    #[test]
    fn peels_sudo_with_value_options() {
        let p = peel(words(&["sudo", "-u", "root", "-E", "rm", "-rf", "/"]));
        assert_eq!(names(&p), ["sudo"]);
        assert_eq!(p.argv[0].lit().as_deref(), Some("rm"));
    }

    #[test]
    fn peels_nested_wrappers_in_order() {
        let p = peel(words(&[
            "sudo", "env", "X=1", "nice", "-n", "5", "timeout", "-s", "KILL", "5", "nohup", "rm",
            "x",
        ]));
        assert_eq!(names(&p), ["sudo", "env", "nice", "timeout", "nohup"]);
        assert_eq!(p.argv[0].lit().as_deref(), Some("rm"));
        assert_eq!(p.assignments[0].0, "X");
    }

    #[test]
    fn env_split_string_becomes_words() {
        let p = peel(words(&["env", "-S", "rm -rf /"]));
        assert_eq!(
            p.argv.iter().filter_map(|w| w.lit()).collect::<Vec<_>>(),
            ["rm", "-rf", "/"]
        );
    }

    #[test]
    fn xargs_appends_dynamic_argument() {
        let p = peel(words(&["xargs", "-0", "-n", "1", "rm", "-rf"]));
        assert_eq!(p.argv.len(), 3);
        assert!(p.argv[2].is_dynamic());
    }

    #[test]
    fn command_v_is_not_execution() {
        let p = peel(words(&["command", "-v", "rm"]));
        assert_eq!(p.argv[0].lit().as_deref(), Some("command"));
    }

    #[test]
    fn su_c_yields_code() {
        let p = peel(words(&["su", "-", "root", "-c", "rm -rf /"]));
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
