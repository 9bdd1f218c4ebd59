//! The wrapper families, one function each: how a wrapper's own words are read and where
//! the command it runs starts. Each is a row of `FAMILIES` in `mod.rs`; the grammars they
//! read options with are in `model::opts::grammars` (the wrappers section).

use super::{
    Peel, SIMPLE_WRAPPERS, SUB_WRAPPERS, Step, UNTIL_DASHES, dynamic_word, is_assignment,
    join_code, lit, replace_placeholder, started_shell,
};
use crate::model::Word;
use crate::model::opts::{self, Opts};

/// `sudo`, `sudoedit`, `doas`, `pkexec`: run a command as another user, or with no command
/// start a shell as that user (`sudo -s`, `sudo -i`, `doas -s`, a bare `pkexec`).
/// `sudo NAME=VALUE cmd` sets variables for the command.
pub(super) fn identity(p: &mut Peel<'_>) -> Step {
    let (o, mut i) = p.read_opts();
    if matches!(p.name, "sudo" | "sudoedit") {
        while let Some((n, v)) = p.argv.get(i).and_then(is_assignment) {
            p.out.assignments.push((n, v));
            i += 1;
        }
    }
    let starts_shell = match p.name {
        "sudo" => !sudo_other_mode(&o) && (o.flag('s', "shell") || o.flag('i', "login")),
        "doas" => o.short('s'),
        "pkexec" => !o.long("help") && !o.long("version"),
        _ => false,
    };
    if i >= p.argv.len() && starts_shell {
        return p.wrap_shell();
    }
    Step::Command(i)
}

/// `sudo -l`, `-v`, `-k`, `-e`, `-h`, `-V` (with `-s`/`-i` too) do something other than
/// start a shell.
fn sudo_other_mode(o: &Opts) -> bool {
    ['l', 'v', 'k', 'K', 'e', 'h', 'V']
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
        .any(|l| o.long(l))
}

/// `env [-i] [-C DIR] [-u NAME] [-] [NAME=VALUE...] cmd`, and `env -S 'prog args'`, which
/// splits one string into words.
pub(super) fn env(p: &mut Peel<'_>) -> Step {
    let argv: &[Word] = p.argv;
    let args = argv.get(1..).unwrap_or(&[]);
    let o = opts::parse_program(Some("env"), args);
    p.out.clear_env |= o.flag('i', "ignore-environment");
    if let Some(d) = o.value_of(args, &["C", "chdir"]) {
        p.out.chdir = Some(d);
    }
    if let Some(split) = o.named(&["S", "split-string"]).next() {
        let end = split.value.as_ref().map_or(split.word, |v| v.word) + 2;
        let span = argv.get(split.word + 1).map(|w| w.span).unwrap_or_default();
        let text = opts::value_word(args, split).and_then(|w| w.lit());
        let rest: Vec<Word> = argv.get(end..).map(|s| s.to_vec()).unwrap_or_default();
        p.taken = argv.get(1..end).unwrap_or(&[]).iter().map(lit).collect();
        p.record(end);
        *p.argv = match text.and_then(|t| shell_words::split(&t).ok()) {
            Some(parts) => parts
                .iter()
                .map(|w| Word::literal(w, span))
                .chain(rest)
                .collect(),
            None => vec![dynamic_word(
                "the string passed to env -S is only known at run time",
                span,
            )],
        };
        // `env -S 'X=1 prog'`: env sets the leading assignments too.
        while p.argv.len() > 1
            && let Some(a) = p.argv.first().and_then(is_assignment)
        {
            p.out.assignments.push(a);
            p.argv.remove(0);
        }
        return Step::Replaced;
    }
    let mut i = o.operands.first().map_or(argv.len(), |i| i + 1);
    p.taken
        .extend(argv.get(1..i).unwrap_or(&[]).iter().map(lit));
    // `env -`: the obsolete spelling of `-i`.
    if argv.get(i).and_then(|w| w.lit()).as_deref() == Some("-") {
        p.out.clear_env = true;
        p.taken.push("-".into());
        i += 1;
    }
    while let Some((n, v)) = argv.get(i).and_then(is_assignment) {
        p.out.assignments.push((n, v));
        i += 1;
    }
    Step::Command(i)
}

/// `nice`, `stdbuf`, `nohup`, `setsid`, `time`, `exec`, ...: options, then the command.
pub(super) fn options_only(p: &mut Peel<'_>) -> Step {
    let (_, i) = p.read_opts();
    Step::Command(i)
}

/// `ionice [opts] cmd`; `-p PID` and friends change a running process instead of running one.
pub(super) fn ionice(p: &mut Peel<'_>) -> Step {
    let (o, i) = p.read_opts();
    if o.flag('p', "pid") || o.flag('P', "pgid") || o.flag('u', "uid") {
        return Step::Program;
    }
    Step::Command(i)
}

/// `timeout DURATION cmd`, `chroot NEWROOT cmd`: one operand before the command.
pub(super) fn one_operand(p: &mut Peel<'_>) -> Step {
    let (_, i) = p.read_opts();
    if let Some(d) = p.argv.get(i) {
        p.taken.push(lit(d));
    }
    Step::Command(i + 1)
}

/// `command cmd`; `command -v rm` only looks the name up.
pub(super) fn command(p: &mut Peel<'_>) -> Step {
    let (o, i) = p.read_opts();
    if o.short('v') || o.short('V') {
        return Step::Program;
    }
    Step::Command(i)
}

/// `busybox APPLET args`; `busybox --list` is the multiplexer's own options, no applet.
pub(super) fn multiplexer(p: &mut Peel<'_>) -> Step {
    let (_, i) = p.read_opts();
    if i != 1 {
        return Step::Program;
    }
    Step::Command(1)
}

/// `flock FILE cmd`, and `flock -c CODE FILE` or `flock FILE -c CODE` (flock reads a `-c`
/// right after its file itself), which run shell code.
pub(super) fn flock(p: &mut Peel<'_>) -> Step {
    let (o, i) = p.read_opts();
    let argv: &[Word] = p.argv;
    let code = o.value_of(p.args(), &["c", "command"]).or_else(|| {
        argv.get(i + 1)
            .map(lit)
            .filter(|a| a == "-c" || a == "--command")
            .and_then(|_| argv.get(i + 2).cloned())
    });
    if let Some(code) = code {
        return p.runs_code(code, "flock -c".into());
    }
    if let Some(d) = p.argv.get(i) {
        p.taken.push(lit(d));
    }
    Step::Command(i + 1)
}

/// `su [opts] [-c CODE] [user]`, `runuser -u user [--] cmd args`. With no command, `su`,
/// `su -`, `su - bob` and `runuser -l bob` start the user's login shell (or the one `-s`
/// names); operands after the user are that shell's own arguments (`su - bob ./run.sh`
/// runs a script).
pub(super) fn switch_user(p: &mut Peel<'_>) -> Step {
    let name = p.name;
    let argv: &[Word] = p.argv;
    let args = argv.get(1..).unwrap_or(&[]);
    let o = opts::parse_program(Some(name), args);
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
        None if name == "runuser" && o.flag('u', "user") => o.operands.first().map(|i| i + 1),
        None => None,
    }
    .filter(|_| code.is_none());
    let starts_shell =
        code.is_none() && start.is_none() && !o.flag('h', "help") && !o.flag('V', "version");
    let shell_args: Vec<usize> = if starts_shell {
        let mut operands = o.operands.iter().copied().peekable();
        operands.next_if(|&i| args.get(i).and_then(|w| w.lit()).as_deref() == Some("-"));
        operands.next();
        operands.collect()
    } else {
        Vec::new()
    };
    // The wrapper's own words: up to the command it runs, if any.
    let end = start.unwrap_or(argv.len());
    p.taken = args
        .iter()
        .enumerate()
        .take(end.saturating_sub(1))
        .filter(|(i, _)| Some(*i) != code_word && !shell_args.contains(i))
        .map(|(_, w)| lit(w))
        .collect();
    let shell = starts_shell.then(|| {
        let named = o.value_of(args, &["s", "shell"]);
        let shell = started_shell(named.as_ref(), argv);
        let rest = shell_args.iter().filter_map(|&i| args.get(i).cloned());
        std::iter::once(shell).chain(rest).collect::<Vec<Word>>()
    });
    p.record(end);
    if let Some(c) = code {
        p.out.code = Some(crate::model::frame::NestedCode::new(
            c,
            crate::model::OriginKind::ShellString,
            format!("{name} -c"),
        ));
        p.argv.clear();
        return Step::Replaced;
    }
    match (start, shell) {
        (Some(s), _) => {
            let s = s.min(p.argv.len());
            *p.argv = p.argv.split_off(s);
        }
        (None, Some(shell)) => *p.argv = shell,
        (None, None) => p.argv.clear(),
    }
    Step::Replaced
}

/// `watch [opts] CMD...` runs its arguments joined with `sh -c`; `watch -x` runs them as a
/// command.
pub(super) fn watch(p: &mut Peel<'_>) -> Step {
    let (o, i) = p.read_opts();
    if o.flag('x', "exec") {
        return Step::Command(i);
    }
    let rest = p.argv.get(i..).map(|s| s.to_vec()).unwrap_or_default();
    p.record(i);
    if !rest.is_empty() {
        p.out.code = Some(crate::model::frame::NestedCode::new(
            join_code(&rest),
            crate::model::OriginKind::ShellString,
            "watch (runs its arguments with sh -c)",
        ));
    }
    p.argv.clear();
    Step::Replaced
}

/// `xargs [opts] cmd args`: the command runs with arguments read from input, unknown here
/// (`-I R`, `-iR`, `-i`/`--replace[=R]` put them where `R` is, default `{}`); a bare
/// `xargs` runs `echo`.
pub(super) fn xargs(p: &mut Peel<'_>) -> Step {
    let (o, i) = p.read_opts();
    let argv: &[Word] = p.argv;
    let args = argv.get(1..).unwrap_or(&[]);
    let repl = o.value_of(args, &["I"]).map(|w| lit(&w)).or_else(|| {
        o.named(&["i", "replace"]).next().map(|x| {
            x.value
                .as_ref()
                .and_then(|v| v.attached.clone())
                .unwrap_or_else(|| "{}".into())
        })
    });
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
    p.record(i);
    p.out.via = Some((crate::model::OriginKind::Xargs, "xargs".into()));
    *p.argv = rest;
    Step::Replaced
}

/// `parallel [opts] cmd args ::: values` runs the command template through a shell, with
/// the values (unknown here) where `{}` is, or appended.
pub(super) fn parallel(p: &mut Peel<'_>) -> Step {
    let (_, i) = p.read_opts();
    let argv: &[Word] = p.argv;
    let sep = argv
        .iter()
        .enumerate()
        .skip(i)
        .find(|(_, w)| matches!(lit(w).as_str(), ":::" | "::::" | ":::+" | "::::+"))
        .map(|(at, _)| at);
    let template_end = sep.unwrap_or(argv.len());
    let template: Vec<Word> = argv
        .get(i..template_end)
        .map(|s| s.to_vec())
        .unwrap_or_default();
    let reason = "arguments parallel substitutes at run time";
    let mut words: Vec<Word> = template
        .iter()
        .map(|w| replace_placeholder(w, "{}", reason))
        .collect();
    if !template.iter().any(|w| w.raw.contains("{}")) {
        let span = words.last().map(|w| w.span).unwrap_or_default();
        words.push(dynamic_word(reason, span));
    }
    p.record(template_end);
    if !words.is_empty() {
        p.out.code = Some(crate::model::frame::NestedCode::new(
            join_code(&words),
            crate::model::OriginKind::ShellString,
            "parallel (runs its command template with a shell)",
        ));
    }
    p.argv.clear();
    Step::Replaced
}

/// Programs that run one string of shell code: `script -c CODE`, `sg GROUP -c CODE` (or
/// `sg GROUP CMD`), `nix-shell --run CODE`. Without code they are the program.
pub(super) fn code_string(p: &mut Peel<'_>) -> Step {
    let name = p.name;
    let argv: &[Word] = p.argv;
    let args = argv.get(1..).unwrap_or(&[]);
    let o = opts::parse_program(Some(name), args);
    let (names, detail): (&[&str], &str) = match name {
        "nix-shell" => (&["run", "command"], "--run"),
        _ => (&["c", "command"], "-c"),
    };
    let code = o.value_of(args, names).or_else(|| {
        (name == "sg")
            .then(|| o.operand_words(args).get(1).map(|w| (*w).clone()))
            .flatten()
    });
    let Some(code) = code else {
        return Step::Program;
    };
    p.taken = args.iter().map(lit).collect();
    p.runs_code(code, format!("{name} {detail}"))
}

/// A tool manager's runner (`cabal exec`, `poetry run`, `mise exec TOOLS -- cmd`): a row of
/// [`SUB_WRAPPERS`] names the subcommand and the operands before the command.
pub(super) fn runner(p: &mut Peel<'_>) -> Step {
    let argv: &[Word] = p.argv;
    let sub = argv.get(1).and_then(|w| w.lit());
    let Some(&(_, _, positional)) = SUB_WRAPPERS
        .iter()
        .find(|(prog, s, _)| *prog == p.name && sub.as_deref() == Some(*s))
    else {
        return Step::Program;
    };
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
    p.taken
        .extend(argv.get(1..start).unwrap_or(&[]).iter().map(lit));
    Step::Command(start)
}

/// A wrapper with a plain grammar ([`SIMPLE_WRAPPERS`]): options, the row's operands, then
/// the command. `-p PID` forms of tracers attach to a process instead of running one.
pub(super) fn simple(p: &mut Peel<'_>) -> Step {
    let Some(&(_, positional)) = SIMPLE_WRAPPERS.iter().find(|w| w.0 == p.name) else {
        return Step::Program;
    };
    let (o, i) = p.read_opts();
    if matches!(p.name, "strace" | "ltrace" | "taskset" | "chrt" | "prlimit") && o.flag('p', "pid")
    {
        return Step::Program;
    }
    for w in p.argv.iter().skip(i).take(positional) {
        p.taken.push(lit(w));
    }
    Step::Command(i + positional)
}
