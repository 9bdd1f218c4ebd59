//! Command resolution, done once: the program's basename, and wrapper programs (`sudo`,
//! `env`, `timeout`, `xargs`, ...) peeled off with their own option grammars.

use super::opts::{self, Opts};
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

/// `name` given no command: recorded as a wrapper over all of `argv`, and the shell it
/// starts becomes the program.
fn wrap_shell(out: &mut Peeled, name: &str, taken: Vec<String>, argv: &[Word]) -> Vec<Word> {
    out.wrappers.push(wrapper(name, taken, argv, argv.len()));
    vec![started_shell(None, argv)]
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
                let (o, mut i) = read_opts(&name, &argv, &mut taken);
                while let Some((n, v)) = argv.get(i).and_then(is_assignment) {
                    out.assignments.push((n, v));
                    i += 1;
                }
                // `sudo -s` / `sudo -i` with no command start a shell as the target user;
                // `-l`, `-v`, `-k`, `-e`, `-h`, `-V` with them do something else.
                let other_mode = ['l', 'v', 'k', 'K', 'e', 'h', 'V']
                    .iter()
                    .any(|&c| o.short(c))
                    || [
                        "list",
                        "validate",
                        "reset-timestamp",
                        "remove-timestamp",
                        "edit",
                        "help",
                        "version",
                    ]
                    .iter()
                    .any(|l| o.long(l));
                if i >= argv.len()
                    && name == "sudo"
                    && !other_mode
                    && (o.flag('s', "shell") || o.flag('i', "login"))
                {
                    argv = wrap_shell(&mut out, &name, taken, &argv);
                    continue;
                }
                i
            }
            "env" => {
                let args = argv.get(1..).unwrap_or(&[]);
                let o = opts::parse_program(Some("env"), args);
                out.clear_env |= o.flag('i', "ignore-environment");
                if let Some(d) = o.value_of(args, &["C", "chdir"]) {
                    out.chdir = Some(d);
                }
                if let Some(split) = o.named(&["S", "split-string"]).next() {
                    // `env -S 'prog args'` splits one string into words.
                    let end = split.value.as_ref().map_or(split.word, |v| v.word) + 2;
                    let taken: Vec<String> =
                        argv.get(1..end).unwrap_or(&[]).iter().map(lit).collect();
                    let span = argv.get(split.word + 1).map(|w| w.span).unwrap_or_default();
                    let text = opts::value_word(args, split).and_then(|w| w.lit());
                    let rest: Vec<Word> = argv.get(end..).map(|s| s.to_vec()).unwrap_or_default();
                    out.wrappers.push(wrapper("env", taken, &argv, end));
                    argv = match text.and_then(|t| shell_words::split(&t).ok()) {
                        Some(parts) => parts
                            .iter()
                            .map(|p| Word::literal(p, span))
                            .chain(rest)
                            .collect(),
                        None => vec![dynamic_word(
                            "the string passed to env -S is only known at run time",
                            span,
                        )],
                    };
                    // `env -S 'X=1 prog'`: env sets the leading assignments too.
                    while argv.len() > 1
                        && let Some(a) = argv.first().and_then(is_assignment)
                    {
                        out.assignments.push(a);
                        argv.remove(0);
                    }
                    continue;
                }
                let mut i = o.operands.first().map_or(argv.len(), |i| i + 1);
                taken.extend(argv.get(1..i).unwrap_or(&[]).iter().map(lit));
                // `env -`: the obsolete spelling of `-i`.
                if argv.get(i).and_then(|w| w.lit()).as_deref() == Some("-") {
                    out.clear_env = true;
                    taken.push("-".into());
                    i += 1;
                }
                while let Some((n, v)) = argv.get(i).and_then(is_assignment) {
                    out.assignments.push((n, v));
                    i += 1;
                }
                i
            }
            "doas" | "pkexec" | "nice" | "stdbuf" | "nohup" | "unbuffer" | "builtin"
            | "caffeinate" | "setsid" | "catchsegv" | "time" | "exec" => {
                let (o, i) = read_opts(&name, &argv, &mut taken);
                // `doas -s`, and `pkexec` with no program, start a shell as the target user.
                let shell = match name.as_str() {
                    "doas" => o.short('s'),
                    "pkexec" => !o.long("help") && !o.long("version"),
                    _ => false,
                };
                if i >= argv.len() && shell {
                    argv = wrap_shell(&mut out, &name, taken, &argv);
                    continue;
                }
                i
            }
            "ionice" => {
                let (o, i) = read_opts(&name, &argv, &mut taken);
                // `-p PID` and friends change a running process instead of running one.
                if o.flag('p', "pid") || o.flag('P', "pgid") || o.flag('u', "uid") {
                    argv.len()
                } else {
                    i
                }
            }
            "timeout" | "chroot" => {
                // One operand (the duration, the new root) before the command.
                let (_, i) = read_opts(&name, &argv, &mut taken);
                if let Some(d) = argv.get(i) {
                    taken.push(lit(d));
                }
                i + 1
            }
            "command" => {
                let (o, i) = read_opts(&name, &argv, &mut taken);
                // `command -v rm` only looks the name up.
                if o.short('v') || o.short('V') {
                    break;
                }
                i
            }
            "busybox" | "toybox" => {
                // `busybox --list`: the multiplexer's own options, no applet.
                let (_, i) = read_opts(&name, &argv, &mut taken);
                if i != 1 {
                    break;
                }
                1
            }
            "flock" => {
                let (o, i) = read_opts(&name, &argv, &mut taken);
                let args = argv.get(1..).unwrap_or(&[]);
                // `flock -c CMD FILE` or `flock FILE -c CMD` (flock reads a `-c` right after
                // its file itself).
                let code = o.value_of(args, &["c", "command"]).or_else(|| {
                    argv.get(i + 1)
                        .map(lit)
                        .filter(|a| a == "-c" || a == "--command")
                        .and_then(|_| argv.get(i + 2).cloned())
                });
                if let Some(code) = code {
                    out.wrappers
                        .push(wrapper("flock", taken, &argv, argv.len()));
                    out.code = Some(WrappedCode {
                        code,
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
                let args = argv.get(1..).unwrap_or(&[]);
                let o = opts::parse_program(Some(&name), args);
                let code_opt = o.named(&["c", "command", "session-command"]).next();
                let code = code_opt.and_then(|c| opts::value_word(args, c));
                // The code is recorded as nested code, not as a wrapper argument.
                let code_word = code_opt
                    .and_then(|c| c.value.as_ref())
                    .filter(|v| v.attached.is_none())
                    .map(|v| v.word);
                // `runuser -u bob [--] cmd args`: with `-u` the operands are the command.
                let start = match o.end_of_options.filter(|_| name == "runuser") {
                    Some(e) => Some(e + 2),
                    None if name == "runuser" && o.flag('u', "user") => {
                        o.operands.first().map(|i| i + 1)
                    }
                    None => None,
                }
                .filter(|_| code.is_none());
                // No command: `su`, `su -`, `su - bob`, `runuser -l bob` start the user's
                // login shell (or the one `-s` names); operands after the user are that
                // shell's own arguments (`su - bob ./run.sh` runs a script).
                let starts_shell = code.is_none()
                    && start.is_none()
                    && !o.flag('h', "help")
                    && !o.flag('V', "version");
                let shell_args: Vec<usize> = if starts_shell {
                    let mut operands = o.operands.iter().copied().peekable();
                    operands
                        .next_if(|&i| args.get(i).and_then(|w| w.lit()).as_deref() == Some("-"));
                    operands.next();
                    operands.collect()
                } else {
                    Vec::new()
                };
                // The wrapper's own words: up to the command it runs, if any.
                let end = start.unwrap_or(argv.len());
                let taken: Vec<String> = args
                    .iter()
                    .enumerate()
                    .take(end.saturating_sub(1))
                    .filter(|(i, _)| Some(*i) != code_word && !shell_args.contains(i))
                    .map(|(_, w)| lit(w))
                    .collect();
                out.wrappers.push(wrapper(&name, taken, &argv, end));
                if let Some(c) = code {
                    out.code = Some(WrappedCode {
                        code: c,
                        kind: OriginKind::ShellString,
                        detail: format!("{name} -c"),
                    });
                    argv.clear();
                    break;
                }
                match start {
                    Some(s) => {
                        argv = argv.split_off(s.min(argv.len()));
                        continue;
                    }
                    None if starts_shell => {
                        let named = o.value_of(args, &["s", "shell"]);
                        let shell = started_shell(named.as_ref(), &argv);
                        let rest = shell_args.iter().filter_map(|&i| args.get(i).cloned());
                        argv = std::iter::once(shell).chain(rest).collect();
                        continue;
                    }
                    None => {
                        argv.clear();
                        break;
                    }
                }
            }
            "watch" => {
                let (o, i) = read_opts(&name, &argv, &mut taken);
                if o.flag('x', "exec") {
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
                let (o, i) = read_opts(&name, &argv, &mut taken);
                let args = argv.get(1..).unwrap_or(&[]);
                // `-I R`, `-iR`, `-i`/`--replace[=R]` (default `{}`).
                let repl = o.value_of(args, &["I"]).map(|w| lit(&w)).or_else(|| {
                    o.named(&["i", "replace"]).next().map(|x| {
                        x.value
                            .as_ref()
                            .and_then(|v| v.attached.clone())
                            .unwrap_or_else(|| "{}".into())
                    })
                });
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
                let (_, i) = read_opts(&name, &argv, &mut taken);
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
                // `sg GROUP -c CODE` (or `sg GROUP CMD`), `nix-shell --run CODE`.
                let args = argv.get(1..).unwrap_or(&[]);
                let o = opts::parse_program(Some(&name), args);
                let (names, detail): (&[&str], &str) = match name.as_str() {
                    "nix-shell" => (&["run", "command"], "--run"),
                    _ => (&["c", "command"], "-c"),
                };
                let code = o.value_of(args, names).or_else(|| {
                    (name == "sg")
                        .then(|| o.operand_words(args).get(1).map(|w| (*w).clone()))
                        .flatten()
                });
                let Some(code) = code else { break };
                out.wrappers.push(wrapper(
                    &name,
                    args.iter().map(lit).collect(),
                    &argv,
                    argv.len(),
                ));
                out.code = Some(WrappedCode {
                    code,
                    kind: OriginKind::ShellString,
                    detail: format!("{name} {detail}"),
                });
                argv.clear();
                break;
            }
            other
                if SUB_WRAPPERS.iter().any(|(p, sub, _)| {
                    *p == other && argv.get(1).and_then(|w| w.lit()).as_deref() == Some(*sub)
                }) =>
            {
                let sub = argv.get(1).and_then(|w| w.lit());
                let positional = SUB_WRAPPERS
                    .iter()
                    .find(|(p, s, _)| *p == other && sub.as_deref() == Some(*s))
                    .map_or(0, |w| w.2);
                let args = argv.get(2..).unwrap_or(&[]);
                let o = opts::parse(&opts::grammars::RUNNER, args);
                let dashes = (positional == UNTIL_DASHES)
                    .then(|| args.iter().position(|w| w.lit().as_deref() == Some("--")))
                    .flatten();
                let start = match o.end_of_options.or(dashes) {
                    Some(e) => e + 3,
                    None if positional == UNTIL_DASHES => argv.len(),
                    None => o.operands.get(positional).map_or(argv.len(), |i| i + 2),
                };
                taken.extend(argv.get(1..start).unwrap_or(&[]).iter().map(lit));
                start
            }
            other => {
                let Some(&(_, positional)) = SIMPLE_WRAPPERS.iter().find(|w| w.0 == other) else {
                    break;
                };
                let (o, i) = read_opts(other, &argv, &mut taken);
                // `-p PID` forms of tracers attach to a process instead of running one.
                if matches!(other, "strace" | "ltrace" | "taskset" | "chrt" | "prlimit")
                    && o.flag('p', "pid")
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
