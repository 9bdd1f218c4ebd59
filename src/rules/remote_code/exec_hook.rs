//! SG4005: code another program runs through its exec hook that is not visible: a hook
//! option whose value is exec'd as a program (`rg --pre`, `sort --compress-program`), an
//! option that lets a program run code from elsewhere (`pdflatex --shell-escape`,
//! `sudo -A`), a shell or interpreter another program starts with no program at all (`env
//! /bin/sh`, `find . -exec /bin/sh \;`, `git -c core.pager=sh log`), and awk programs
//! that pipe to commands. The hooks are rows of the exec-hook table in
//! `src/model/hooks.rs`; hooks that run their value through a shell are lowered as nested
//! code there and judged on what that code does.

use crate::declare_rule;
use crate::model::hooks::{self, HookUse, Runs};
use crate::model::{Command, OriginKind, RedirectOp, is_shell};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Reads every command against the exec-hook table (`HOOK_OPTIONS` and `ENV_HOOKS` in
    /// `src/model/hooks.rs`), one row per option or environment variable whose value the
    /// program runs, each read with the program's own option grammar (values consume
    /// their word, `--` ends options, getopt_long prefixes where the program accepts them).
    /// A row says whether the value runs **through a shell** (`man -P`, `ag --pager`,
    /// `git -c core.pager=`/`core.sshCommand=`/`core.editor=`/`diff.external=`/`alias.x=!..`,
    /// `tar --to-command`/`-I`/`--checkpoint-action=exec=`, `ssh -o ProxyCommand=`,
    /// `certbot --pre-hook`, `fzf --bind '..:execute(..)'`, `hg --config alias.x=!..`,
    /// `zip -TT`, `apt -o ..::Pre-Invoke::=`, `vim -c ':!..'`, `PAGER=`/`EDITOR=`/`LESSOPEN=`
    /// before a program that reads them): that text is lowered as nested shell code and
    /// the command is judged on what it does. This rule flags the rest: values **exec'd as
    /// a program** whose code is not visible (`rg --pre`, `rg --hostname-bin`, `sort
    /// --compress-program`, `gcc -wrapper`, `aria2c --on-download-complete`, `borg --rsh`,
    /// `busctl --address=unixexec:`, `dhclient -sf`, `dnsmasq --conf-script`, `rsync -e`,
    /// `scp -S`, `tcpdump -z`, `git --upload-pack`, `GIT_SSH=`, `LD_PRELOAD=`), options
    /// that **enable** code from elsewhere (`pdflatex --shell-escape`, `sudo -A`,
    /// `git -c core.hooksPath=`), shell hooks whose code is known only at run time, a
    /// **shell or interpreter started with no program** by a wrapper or another program
    /// (`env /bin/sh`, `flock /tmp/l sh`, `cabal exec -- bash`, `script -qc bash /dev/null`,
    /// `sudo -i`, `find . -exec /bin/sh \;`, `git -c core.pager=sh log`: it reads its code
    /// from a terminal or from another program's output), and awk programs that pipe to
    /// commands. Known programs in a hook (`tar -I zstd`, `sort --compress-program=gzip`,
    /// `rsync -e 'ssh -p 22'`) are not flagged.
    ///
    /// ## Why is this bad?
    /// The command looks like a search, an archive or a pager, but it runs code that
    /// shellgate cannot judge.
    ///
    /// ## Example
    /// ```sh
    /// rg --pre ./x foo                                              # approve
    /// tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh x  # approve
    /// tar -I zstd -xf a.tar.zst                                     # allow
    /// rg -e TODO -- --pre src/                                      # allow
    /// ```
    ///
    /// ## Known limitations
    /// Hooks configured in files (`.gitconfig`, `~/.lessfilter`, `.vimrc`, `ssh_config`)
    /// and hook variables exported earlier instead of given as a prefix assignment are not
    /// read. Adding a hook is one row in `HOOK_OPTIONS` or `ENV_HOOKS` (and an option in
    /// the program's grammar in `src/model/opts/grammars.rs`).
    pub struct ExecHook;
    code: "SG4005",
    name: "exec-hook-hidden-code",
    severity: Approve,
    category: RemoteCode,
    hermes: [SORT = "arbitrary program execution via sort --compress-program", RG = "arbitrary program execution via rg --pre", AG = "arbitrary program execution via ag --pager", MAN = "arbitrary program execution via man -P", SUDO = "sudo with privilege flag (stdin/askpass/shell/list)"],
    programs: [],
    summary: "A program runs hidden code through its exec hook",
    pass: ["find . -exec sh -c 'echo \"$1\"' _ {} \\;", "awk '{print $1}' f", "tar -I zstd -xf a.tar.zst", "git -c core.pager=cat log", "sort -u f", "rg --pre-glob '*.x' foo", "rg -e TODO -- --pre src/", "sort -T --compress-program data.csv", "man -k pager", "man -P 'less -R' ls", "ssh -o StrictHostKeyChecking=no host ls", "rsync -av -e 'ssh -p 2222' src host:dst", "vim -c 'set nu' f", "man ls", "env FOO=1 sh script.sh", "flock /tmp/l sh -c 'echo hi'", "PAGER=./x echo hi"],
    fail: [
        "find . -exec /bin/sh \\;",
        "awk 'BEGIN{system(\"id\")}'",
        "awk '{print | \"sh\"}' f",
        "sort --compress-program=./x f",
        "rg --pre ./x foo",
        "rg --hostname-bin ./x foo",
        "gcc -wrapper ./x,a a.c",
        "aria2c --on-download-complete ./x http://127.0.0.1/",
        "borg --rsh ./x list host:repo",
        "busctl --address=unixexec:path=/bin/sh list",
        "dhclient -sf ./x eth0",
        "dnsmasq --conf-script=./x",
        "pdflatex --shell-escape doc.tex",
        "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh x",
        "git -c core.pager=sh log",
        "git -c core.hooksPath=./h commit",
        "git ls-remote --upload-pack=./x origin",
        "man -P sh ls",
        "man -P \"$VIEWER\" ls",
        "ag --pager \"$VIEWER\" foo",
        "rsync -e ./x src host:dst",
        "scp -S ./x a host:b",
        "tcpdump -w f -z ./x",
        "vim -c 'py3 import os'",
        "sudo -A id",
        "GIT_SSH=./x git fetch",
        "LD_PRELOAD=./x.so ls",
        "env /bin/sh",
        "flock /tmp/l sh",
        "script -qc bash /dev/null",
        "env python3",
    ],
}

/// Does the awk program run commands: `system(..)`, `print | "cmd"`, `"cmd" | getline`,
/// `|&`? Scans outside string and regex literals, so `FS="|"` and `/a|b/` do not count.
fn awk_runs(p: &str) -> bool {
    let chars: Vec<char> = p.chars().collect();
    let mut code = String::new();
    let mut i = 0;
    let mut prev = ' ';
    while i < chars.len() {
        let c = chars[i];
        if c == '"' {
            // A string literal: keep a marker so `| "cmd"` is still seen.
            code.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            prev = '"';
            continue;
        }
        if c == '/'
            && matches!(
                prev,
                ' ' | '~' | '(' | ',' | '{' | ';' | '!' | '&' | '|' | '\n'
            )
        {
            i += 1;
            while i < chars.len() && chars[i] != '/' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            prev = '/';
            continue;
        }
        if !c.is_whitespace() {
            code.push(c);
            prev = c;
        } else if prev != ' ' {
            prev = ' ';
        }
        i += 1;
    }
    code.contains("system(")
        || code.contains("|\"")
        || code.contains("|&")
        || code.contains("|getline")
}

/// The Hermes key of a hook-table entry, when Hermes has one.
fn hermes_key(h: &HookUse) -> Option<&'static str> {
    match h.entry? {
        ("sort", "compress-program") => Some(ExecHook::SORT),
        ("rg", "pre") => Some(ExecHook::RG),
        ("ag", "pager") => Some(ExecHook::AG),
        ("man", "P") => Some(ExecHook::MAN),
        ("sudo", "A") => Some(ExecHook::SUDO),
        _ => None,
    }
}

/// What hidden code the command runs, with the Hermes key when there is one.
fn hook(cmd: &Command) -> Option<(String, Option<&'static str>)> {
    if let Some(msg) = shell_without_program(cmd) {
        return Some((msg, None));
    }
    for h in hooks::of_command(cmd) {
        if !h.hidden() {
            continue;
        }
        let msg = match (h.runs, &h.text) {
            (Runs::Program, Some(t)) => {
                format!(
                    "{} runs the program `{t}`, whose code is not visible",
                    h.detail
                )
            }
            (Runs::Program, None) => format!(
                "{} runs a program known only at run time, whose code is not visible",
                h.detail
            ),
            (Runs::Enables, Some(t)) => {
                format!(
                    "{} `{t}` lets it run code that is not on the command line",
                    h.detail
                )
            }
            (Runs::Enables, None) => {
                format!(
                    "{} lets it run code that is not on the command line",
                    h.detail
                )
            }
            (Runs::Shell, _) => format!("{} runs shell code known only at run time", h.detail),
        };
        return Some((msg, hermes_key(&h)));
    }
    let name = cmd.name.as_deref()?;
    if matches!(name, "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk")
        && hooks::awk_programs(cmd.args(), &cmd.opts)
            .iter()
            .any(|p| p.as_deref().is_some_and(awk_runs))
    {
        return Some((
            format!("the {name} program runs commands (`system()` or a pipe to a command)"),
            None,
        ));
    }
    None
}

/// Wrappers that are shell builtins or keywords: they start nothing of their own.
const BUILTIN_WRAPPERS: &[&str] = &["command", "builtin", "exec", "time"];

/// Does the command read its stdin from the terminal (nothing piped, redirected or known)?
/// `</dev/null` is counted as the terminal: the answer must not change with a redirect
/// that feeds nothing.
fn stdin_is_terminal(cmd: &Command) -> bool {
    cmd.stdin_text.is_none()
        && cmd.pipe.as_ref().is_none_or(|p| p.stage == 0)
        && !cmd.redirects.iter().any(|r| {
            let from_null = r.op == RedirectOp::Read
                && r.target.as_ref().and_then(|t| t.lit()).as_deref() == Some("/dev/null");
            matches!(
                r.op,
                RedirectOp::Read
                    | RedirectOp::ReadWrite
                    | RedirectOp::Heredoc
                    | RedirectOp::HereString
            ) && r.fd.is_none_or(|f| f == 0)
                && !from_null
        })
}

/// A shell or interpreter that a wrapper or another program starts with no program: it
/// reads its code from the terminal (or, through a hook, from the program's output).
fn shell_without_program(cmd: &Command) -> Option<String> {
    let via = cmd.origin.steps.last().map(|s| (s.kind, s.detail.as_str()));
    let wrapped = cmd
        .wrappers
        .iter()
        .any(|w| !BUILTIN_WRAPPERS.contains(&w.name.as_str()));
    let name = cmd.name.as_deref()?;
    let nested = matches!(
        via,
        Some((
            OriginKind::ShellString | OriginKind::FindExec | OriginKind::Xargs,
            _
        ))
    );
    if !wrapped && !nested {
        return None;
    }
    let shell = crate::model::opts::shell::shell_args(cmd.args());
    // A literal script file (`xargs bash script.sh`) is like running `bash script.sh`; one
    // only known at run time (`find -exec sh {} \;`) is hidden code.
    let script = cmd
        .args()
        .get(shell.rest..)
        .and_then(|r| r.first())
        .filter(|_| !shell.reads_stdin);
    let no_program = if is_shell(name) {
        !shell.code_string && script.is_none_or(|w| !w.is_literal())
    } else if crate::graph::is_interpreter(name) {
        // Only the bare interpreter (`env python3`, `sudo node -`): with options it may
        // print its version or configuration (`perl -V`) and exit.
        let args: Vec<Option<String>> = cmd.args().iter().map(|w| w.lit()).collect();
        let bare = args
            .iter()
            .all(|a| matches!(a.as_deref(), Some("-" | "-i")));
        let it = crate::model::interp::table::lookup(name)?;
        bare && crate::model::interp::table::code_source(it, &args)
            == crate::model::interp::table::CodeSource::Stdin
    } else {
        false
    };
    if !no_program {
        return None;
    }
    let has_script = is_shell(name) && script.is_some();
    if !has_script && !stdin_is_terminal(cmd) {
        // Code arriving on stdin is judged where it comes from (a pipe, a heredoc).
        return None;
    }
    let how = match via {
        Some((_, detail)) if nested && !detail.is_empty() => format!("{detail} starts"),
        _ => match cmd
            .wrappers
            .iter()
            .rev()
            .find(|w| !BUILTIN_WRAPPERS.contains(&w.name.as_str()))
        {
            Some(w) => format!("{} starts", w.name),
            None => "a wrapper starts".to_string(),
        },
    };
    let what = if has_script {
        "on a file known only at run time"
    } else {
        "with no program: it reads its code from the terminal or another program's output"
    };
    Some(format!("{how} `{name}` {what}"))
}

impl Rule for ExecHook {
    // Every command: hooks belong to wrappers (`sudo -A`), to any program (`LD_PRELOAD=`),
    // or to a wrapper that runs no program of its own (`su`).
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        for cmd in &cx.script.commands {
            if let Some((msg, key)) = hook(cmd) {
                let mut f = Finding::on(&Self::META, cmd, format!("{msg}{}", route(cmd)));
                f.hermes = key.into_iter().collect();
                out.push(f);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ExecHook;
    use crate::{Context, analyze};

    #[test]
    fn each_declared_hermes_key_is_set_by_its_hook() {
        for (src, key) in [
            ("sort --compress-program=./x big.txt", ExecHook::SORT),
            ("rg --pre ./x pat", ExecHook::RG),
            ("ag --pager \"$P\" pat", ExecHook::AG),
            ("man -P \"$P\" ls", ExecHook::MAN),
            ("sudo -A true", ExecHook::SUDO),
        ] {
            let a = analyze(src, &Context::fixture());
            let keys: Vec<&str> = a
                .findings
                .iter()
                .filter(|f| f.rule == ExecHook::META.code)
                .flat_map(|f| f.hermes.iter().copied())
                .collect();
            assert_eq!(keys, [key], "{src}");
        }
    }
}
