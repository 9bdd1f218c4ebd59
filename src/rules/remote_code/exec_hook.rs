//! SG4005: a shell or program spawned through another program's exec hook, where the code
//! run there is not visible (`find -exec /bin/sh`, `awk 'BEGIN{system(..)}'`, `git -c
//! core.pager=..`, `tar --checkpoint-action=exec=..`, `ssh -o ProxyCommand=..`, ...).

use crate::declare_rule;
use crate::model::{Command, OriginKind, is_shell};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags options and program texts that make a program run another program or shell
    /// code: a shell started by `find -exec`/`xargs` with no visible code (`find . -exec
    /// /bin/sh \;`), `awk` programs calling `system()` or piping to a command,
    /// `sort --compress-program`, `rg --pre`, `ag --pager`, `man -P`, `tar
    /// --checkpoint-action=exec=`/`--to-command`/`-I`/`--use-compress-program`/`-F`,
    /// `git -c core.pager=`/`core.sshCommand=`/`alias.x='!..'` and `--upload-pack`,
    /// `apt -o ...::Pre-Invoke::=`/`Post-Invoke`, `vim -c ':!..'`/`+'!..'`, `less` with
    /// `LESSOPEN` or a `+!cmd`, `ssh -o ProxyCommand=`/`LocalCommand=`, `rsync -e` with a
    /// non-ssh program, `zip -TT`, `tcpdump -z`. (gdb's `-ex` commands are inline code in the interpreter
    /// table, judged by SG6101 and by what their shell commands do.) Common compressors
    /// (`tar -I zstd`) and pagers (`git -c core.pager=cat`) are not flagged. Where the
    /// nested code is visible (`find . -exec sh -c 'mv "$1" "$1.bak"' _ {} \;`) it is
    /// analysed like other code instead.
    ///
    /// ## Why is this bad?
    /// The command looks like a search, an archive or a pager, but it runs arbitrary code
    /// that shellgate cannot judge.
    ///
    /// ## Example
    /// ```sh
    /// tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh x  # approve
    /// tar -I zstd -xf a.tar.zst                                     # allow
    /// ```
    ///
    /// ## Known limitations
    /// Hooks configured in files (`.gitconfig`, `~/.lessfilter`, `.vimrc`) are not read.
    pub struct ExecHook;
    code: "SG4005",
    name: "exec-hook-hidden-code",
    severity: Approve,
    category: RemoteCode,
    hermes: ["arbitrary program execution via sort --compress-program", "arbitrary program execution via rg --pre", "arbitrary program execution via ag --pager", "arbitrary program execution via man -P"],
    programs: ["sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "awk", "gawk", "mawk", "nawk", "sort", "rg", "ag", "man", "tar", "bsdtar", "gtar", "git", "apt", "apt-get", "vim", "vi", "nvim", "view", "ex", "vimdiff", "gvim", "less", "more", "ssh", "scp", "sftp", "rsync", "zip", "tcpdump"],
    summary: "A program runs hidden code through its exec hook",
    pass: ["find . -exec sh -c 'echo \"$1\"' _ {} \\;", "awk '{print $1}' f", "tar -I zstd -xf a.tar.zst", "git -c core.pager=cat log", "sort -u f", "rg --pre-glob '*.x' foo", "ssh -o StrictHostKeyChecking=no host ls", "rsync -av -e 'ssh -p 2222' src host:dst", "vim -c 'set nu' f", "man ls"],
    fail: [
        "find . -exec /bin/sh \\;",
        "awk 'BEGIN{system(\"id\")}'",
        "awk '{print | \"sh\"}' f",
        "sort --compress-program=./x f",
        "rg --pre ./x foo",
        "ag --pager ./x foo",
        "man -P ./x ls",
        "tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh x",
        "tar -xf a.tar --to-command=./x",
        "git -c core.pager='sh -c id' log",
        "git -c alias.x='!sh' x",
        "apt-get -o APT::Update::Pre-Invoke::=./x update",
        "vim -c ':!sh'",
        "vim +'!id'",
        "ssh -o ProxyCommand='sh -c id' host",
        "rsync -e ./x src host:dst",
        "zip a.zip f -T -TT ./x",
        "LESSOPEN='|./x %s' less f",
    ],
}

const PAGERS: &[&str] = &[
    "cat",
    "less",
    "more",
    "most",
    "true",
    "false",
    ":",
    "delta",
    "bat",
    "diff-so-fancy",
    "vim",
    "vi",
    "nvim",
    "nano",
    "emacs",
    "code",
    "tee",
];
const COMPRESSORS: &[&str] = &[
    "gzip", "gunzip", "pigz", "zstd", "unzstd", "pzstd", "xz", "unxz", "pixz", "bzip2", "bunzip2",
    "pbzip2", "lbzip2", "lz4", "lzip", "plzip", "lzma", "lzop", "brotli", "compress",
];

fn first_word(s: &str) -> &str {
    let w = s.split_whitespace().next().unwrap_or("");
    w.rsplit('/').next().unwrap_or(w)
}

/// Value of a long option written `--name=v` or `--name v`, matching unambiguous prefixes
/// of at least `min` characters (`--compress-prog`).
fn long_value(args: &[String], full: &str, min: usize) -> Option<String> {
    for (i, a) in args.iter().enumerate() {
        let Some(body) = a.strip_prefix("--") else {
            continue;
        };
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        if name.len() >= min && full.starts_with(name) {
            return match inline {
                Some(v) => Some(v.to_string()),
                None => args.get(i + 1).cloned(),
            };
        }
    }
    None
}

/// Value of a short option `-P v` or `-Pv` (not inside other clusters).
fn short_value(args: &[String], c: char) -> Option<String> {
    for (i, a) in args.iter().enumerate() {
        if a == "--" {
            return None;
        }
        let Some(body) = a.strip_prefix('-') else {
            continue;
        };
        if body.starts_with('-') {
            continue;
        }
        let Some(pos) = body.find(c) else { continue };
        // Only when every char before it is a plain flag letter.
        let rest = &body[pos + c.len_utf8()..];
        if pos == 0 || body[..pos].chars().all(|x| x.is_ascii_alphabetic()) {
            return if rest.is_empty() {
                args.get(i + 1).cloned()
            } else {
                Some(rest.trim_start_matches('=').to_string())
            };
        }
    }
    None
}

fn awk_program(cmd: &Command) -> Option<String> {
    let args = cmd.arg_texts();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            return args.get(i + 1).cloned();
        }
        if a == "-f" || a.starts_with("--file") {
            return None;
        }
        if matches!(a.as_str(), "-F" | "-v" | "--assign" | "--field-separator") {
            i += 2;
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            i += 1;
            continue;
        }
        return Some(a.clone());
    }
    None
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

fn vim_runs(c: &str) -> bool {
    let t = c.trim_start_matches([':', ' ']).trim();
    let lower = t.to_ascii_lowercase();
    t.starts_with('!')
        || lower.contains("system(")
        || lower.starts_with("term")
        || lower.starts_with("py")
        || lower.starts_with("lua")
        || lower.starts_with("perl")
        || lower.starts_with("ruby")
        || [
            "r!", "r !", "read!", "read !", "w!", "w !", "write !", "write!",
        ]
        .iter()
        .any(|p| lower.starts_with(p) && lower.len() > p.len())
        || lower.contains("|!")
        || lower.contains("| !")
}

fn git_hook(key: &str, value: &str) -> bool {
    let k = key.to_ascii_lowercase();
    let pager_like = matches!(k.as_str(), "core.pager" | "core.editor" | "sequence.editor")
        || k.starts_with("pager.");
    if pager_like {
        return !PAGERS.contains(&first_word(value)) || value.contains(['|', ';', '&', '$', '`']);
    }
    if k == "core.sshcommand" {
        let l = value.to_ascii_lowercase();
        return first_word(value) != "ssh"
            || value.contains(['|', ';', '&', '$', '`'])
            || l.contains("proxycommand")
            || l.contains("localcommand");
    }
    matches!(
        k.as_str(),
        "core.fsmonitor"
            | "core.hookspath"
            | "core.gitproxy"
            | "core.askpass"
            | "diff.external"
            | "gpg.program"
            | "gpg.ssh.program"
            | "gpg.x509.program"
            | "credential.helper"
            | "uploadpack.packobjectshook"
            | "protocol.ext.allow"
            | "ssh.variant"
    ) || (k.starts_with("alias.") && value.starts_with('!'))
        || (k.starts_with("filter.")
            && (k.ends_with(".clean") || k.ends_with(".smudge") || k.ends_with(".process")))
        || (k.starts_with("diff.") && (k.ends_with(".textconv") || k.ends_with(".command")))
        || (k.starts_with("merge.") && k.ends_with(".driver"))
}

fn ssh_option_hook(opt: &str) -> bool {
    let (k, v) = match opt.split_once(['=', ' ']) {
        Some((k, v)) => (k.trim(), v.trim()),
        None => (opt, ""),
    };
    let k = k.to_ascii_lowercase();
    // A plain jump or proxy client (`ProxyCommand ssh -W %h:%p bastion`) runs no hidden code.
    let plain_proxy = k == "proxycommand"
        && matches!(
            first_word(v),
            "ssh" | "nc" | "ncat" | "connect" | "connect-proxy" | "corkscrew" | "cloudflared"
        )
        && !v.contains(['|', ';', '&', '$', '`', '(', ')']);
    if plain_proxy {
        return false;
    }
    matches!(
        k.as_str(),
        "proxycommand" | "localcommand" | "knownhostscommand" | "match"
    ) && !v.eq_ignore_ascii_case("none")
        && (k != "match" || v.to_ascii_lowercase().contains("exec"))
}

/// What hidden code the command runs, with the Hermes key when there is one.
fn hook(cmd: &Command) -> Option<(String, Option<&'static str>)> {
    let name = cmd.name.as_deref()?;
    let args = cmd.arg_texts();
    match name {
        n if is_shell(n) => {
            let via = cmd.origin.steps.last().map(|s| s.kind);
            if !matches!(via, Some(OriginKind::FindExec | OriginKind::Xargs)) {
                return None;
            }
            // Literal `-c` code is lowered and judged on its own.
            let has_c = args
                .iter()
                .take_while(|a| a.starts_with('-'))
                .any(|a| !a.starts_with("--") && a.contains('c'));
            if has_c {
                return None;
            }
            // A literal script file (`xargs bash script.sh`) is like running `bash script.sh`.
            let script = cmd.args().iter().find(|w| {
                !w.lit()
                    .is_some_and(|t| t.starts_with('-') || t.starts_with('+'))
            });
            if script.is_some_and(|w| w.is_literal()) {
                return None;
            }
            let detail = cmd
                .origin
                .steps
                .last()
                .map(|s| s.detail.clone())
                .unwrap_or_default();
            Some((
                format!("{detail} starts the shell `{n}` on code that is not visible"),
                None,
            ))
        }
        "awk" | "gawk" | "mawk" | "nawk" => {
            let p = awk_program(cmd)?;
            awk_runs(&p).then(|| {
                (
                    format!("the {name} program runs commands (`system()` or a pipe to a command)"),
                    None,
                )
            })
        }
        "sort" => {
            let v = long_value(&args, "compress-program", 2)?;
            (!COMPRESSORS.contains(&first_word(&v))).then(|| {
                (
                    format!("sort --compress-program runs `{v}`"),
                    Some("arbitrary program execution via sort --compress-program"),
                )
            })
        }
        "rg" => {
            let v = args.iter().enumerate().find_map(|(i, a)| {
                if a == "--pre" {
                    args.get(i + 1).cloned()
                } else {
                    a.strip_prefix("--pre=").map(str::to_string)
                }
            })?;
            Some((
                format!("rg --pre runs `{v}` on every file"),
                Some("arbitrary program execution via rg --pre"),
            ))
        }
        "ag" => {
            let v = long_value(&args, "pager", 5)?;
            Some((
                format!("ag --pager runs `{v}`"),
                Some("arbitrary program execution via ag --pager"),
            ))
        }
        "man" => {
            let v = short_value(&args, 'P')
                .or_else(|| long_value(&args, "pager", 5))
                .or_else(|| long_value(&args, "html", 4))?;
            (!PAGERS.contains(&first_word(&v))).then(|| {
                (
                    format!("man runs the pager `{v}`"),
                    Some("arbitrary program execution via man -P"),
                )
            })
        }
        "tar" | "bsdtar" | "gtar" => {
            if let Some(a) = args
                .iter()
                .find(|a| a.starts_with("--checkpoint-action") && a.contains("exec"))
            {
                return Some((format!("tar {a} runs a command"), None));
            }
            for opt in ["to-command", "info-script", "new-volume-script"] {
                if let Some(v) = long_value(&args, opt, opt.len()) {
                    return Some((format!("tar --{opt} runs `{v}`"), None));
                }
            }
            let prog = long_value(&args, "use-compress-program", 8).or_else(|| {
                short_value(&args, 'I').filter(|_| args.iter().any(|a| a.starts_with("-I")))
            });
            if let Some(v) = prog
                && !COMPRESSORS.contains(&first_word(&v))
            {
                return Some((format!("tar runs `{v}` as its compressor"), None));
            }
            None
        }
        "git" => {
            let mut i = 0;
            while i < args.len() {
                let a = &args[i];
                if a == "-c" {
                    if let Some((k, v)) = args.get(i + 1).and_then(|kv| kv.split_once('='))
                        && git_hook(k, v)
                    {
                        return Some((format!("git -c {k}= runs `{v}`"), None));
                    }
                    i += 2;
                    continue;
                }
                if a == "--config-env" || a.starts_with("--config-env=") {
                    let kv = a
                        .strip_prefix("--config-env=")
                        .map(str::to_string)
                        .or_else(|| args.get(i + 1).cloned())
                        .unwrap_or_default();
                    if let Some((k, _)) = kv.split_once('=')
                        && git_hook(k, "?")
                    {
                        return Some((
                            format!("git --config-env {k} runs a program from the environment"),
                            None,
                        ));
                    }
                }
                if let Some(v) = ["--upload-pack", "--receive-pack", "--exec"]
                    .iter()
                    .find_map(|o| {
                        a.strip_prefix(&format!("{o}="))
                            .map(str::to_string)
                            .or_else(|| (a == o).then(|| args.get(i + 1).cloned()).flatten())
                    })
                    && !v.is_empty()
                    && !matches!(first_word(&v), "git-upload-pack" | "git-receive-pack")
                {
                    return Some((format!("git {a} runs `{v}`"), None));
                }
                if a.starts_with("ext::") {
                    return Some((format!("git's ext:: transport runs `{a}`"), None));
                }
                i += 1;
            }
            for asg in &cmd.assignments {
                if matches!(
                    asg.name.as_str(),
                    "GIT_SSH_COMMAND"
                        | "GIT_SSH"
                        | "GIT_EXTERNAL_DIFF"
                        | "GIT_ASKPASS"
                        | "GIT_PROXY_COMMAND"
                ) {
                    return Some((
                        format!("{}= makes git run `{}`", asg.name, asg.value.raw),
                        None,
                    ));
                }
            }
            None
        }
        "apt" | "apt-get" => {
            for (i, a) in args.iter().enumerate() {
                let opt = if a == "-o" || a == "--option" {
                    args.get(i + 1).cloned()
                } else {
                    a.strip_prefix("-o")
                        .or_else(|| a.strip_prefix("--option="))
                        .filter(|v| !v.is_empty())
                        .map(str::to_string)
                };
                if let Some(o) = opt {
                    let l = o.to_ascii_lowercase();
                    if l.contains("invoke") || l.contains("pre-install-pkgs") {
                        return Some((format!("{name} -o {o} runs a command"), None));
                    }
                }
            }
            None
        }
        "vim" | "vi" | "nvim" | "view" | "ex" | "vimdiff" | "gvim" => {
            for (i, a) in args.iter().enumerate() {
                let c = if a == "-c" || a == "--cmd" {
                    args.get(i + 1).cloned()
                } else {
                    a.strip_prefix('+').map(str::to_string)
                };
                if let Some(c) = c
                    && vim_runs(&c)
                {
                    return Some((
                        format!("{name} runs the editor command `{c}`, which runs a program"),
                        None,
                    ));
                }
            }
            None
        }
        "less" | "more" => {
            if let Some(a) = cmd.assignments.iter().find(|a| {
                matches!(a.name.as_str(), "LESSOPEN" | "LESSCLOSE") && !a.value.raw.is_empty()
            }) {
                return Some((
                    format!("{}= makes less run `{}`", a.name, a.value.raw),
                    None,
                ));
            }
            args.iter()
                .find(|a| a.starts_with('+') && (a.contains('!') || a.contains('|')))
                .map(|a| (format!("{name} {a} runs a shell command"), None))
        }
        "ssh" | "scp" | "sftp" => {
            for (i, a) in args.iter().enumerate() {
                let opt = if a == "-o" {
                    args.get(i + 1).cloned()
                } else {
                    a.strip_prefix("-o")
                        .filter(|v| !v.is_empty())
                        .map(str::to_string)
                };
                if let Some(o) = opt
                    && ssh_option_hook(&o)
                {
                    return Some((format!("{name} -o {o} runs a local command"), None));
                }
            }
            if name != "ssh"
                && let Some(v) = short_value(&args, 'S')
                && first_word(&v) != "ssh"
            {
                return Some((format!("{name} -S runs `{v}` instead of ssh"), None));
            }
            None
        }
        "rsync" => {
            let v = long_value(&args, "rsh", 3).or_else(|| short_value(&args, 'e'))?;
            let hidden = !matches!(first_word(&v), "ssh" | "rsh")
                || v.to_ascii_lowercase().contains("proxycommand")
                || v.to_ascii_lowercase().contains("localcommand");
            hidden.then(|| (format!("rsync -e runs `{v}` as its remote shell"), None))
        }
        "zip" => {
            let v = args.iter().enumerate().find_map(|(i, a)| {
                if a == "-TT" || a == "--unzip-command" {
                    args.get(i + 1).cloned()
                } else {
                    a.strip_prefix("-TT=")
                        .or_else(|| a.strip_prefix("--unzip-command="))
                        .map(str::to_string)
                }
            })?;
            Some((format!("zip -TT runs `{v}` to test the archive"), None))
        }
        "tcpdump" => {
            let v = short_value(&args, 'z')?;
            Some((format!("tcpdump -z runs `{v}` on every saved file"), None))
        }
        _ => None,
    }
}

impl Rule for ExecHook {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if let Some((msg, key)) = hook(cmd) {
            let mut f = Finding::on(&Self::META, cmd, format!("{msg}{}", route(cmd)));
            f.hermes = key.into_iter().collect();
            out.push(f);
        }
    }
}
