//! Code that other programs run through their hooks, when it is written in the command:
//! `awk 'BEGIN{system("..")}'`, `git -c core.pager=..`, `tar --checkpoint-action=exec=..`,
//! `rsync -e ..`, `ssh -o ProxyCommand=..`, `at` reading commands on stdin. The code is
//! lowered as nested shell code so the same rules judge it.

use super::Word;

/// One piece of hook code: the shell code and how it is run.
pub struct HookCode {
    pub code: String,
    pub detail: String,
}

/// String literals passed to `system(...)` in an awk program (`"` strings, awk escapes).
fn awk_system_literals(prog: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = prog.as_bytes();
    let mut i = 0;
    while let Some(pos) = prog[i..].find("system") {
        let start = i + pos;
        i = start + "system".len();
        // The word must stand alone (not `mysystem`).
        if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            continue;
        }
        let rest = prog[i..].trim_start();
        let Some(rest) = rest.strip_prefix('(') else {
            continue;
        };
        let Some(rest) = rest.trim_start().strip_prefix('"') else {
            continue;
        };
        let mut lit = String::new();
        let mut chars = rest.chars();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => lit.push('\n'),
                    Some('t') => lit.push('\t'),
                    Some(o) => lit.push(o),
                    None => break,
                },
                '"' => {
                    closed = true;
                    break;
                }
                c => lit.push(c),
            }
        }
        // Only a whole literal argument: `system("a" x)` builds the string at run time.
        if closed && chars.as_str().trim_start().starts_with(')') {
            out.push(lit);
        }
    }
    out
}

fn lit(w: &Word) -> Option<String> {
    w.lit()
}

/// Hook code that `name` runs, read from its arguments.
pub fn hook_code(name: &str, argv: &[Word]) -> Vec<HookCode> {
    let args: Vec<Option<String>> = argv.iter().skip(1).map(lit).collect();
    let mut out = Vec::new();
    let mut push = |code: String, detail: String| out.push(HookCode { code, detail });
    match name {
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => {
            // The program is the first operand unless `-f` gives a file.
            let mut i = 0;
            while i < args.len() {
                match args[i].as_deref() {
                    Some("-f") => return out,
                    Some("-v" | "-F") => i += 2,
                    Some(a) if a.starts_with('-') && a.len() > 1 => i += 1,
                    Some(prog) => {
                        for s in awk_system_literals(prog) {
                            push(s, format!("{name} system()"));
                        }
                        break;
                    }
                    None => break,
                }
            }
        }
        "git" => {
            for w in args.windows(2) {
                if w[0].as_deref() != Some("-c") {
                    continue;
                }
                let Some(kv) = w[1].as_deref() else { continue };
                let Some((key, value)) = kv.split_once('=') else {
                    continue;
                };
                let key_l = key.to_ascii_lowercase();
                if matches!(
                    key_l.as_str(),
                    "core.pager"
                        | "core.sshcommand"
                        | "core.editor"
                        | "sequence.editor"
                        | "core.fsmonitor"
                ) || key_l.starts_with("pager.")
                {
                    push(value.to_string(), format!("git -c {key}="));
                } else if key_l.starts_with("alias.")
                    && let Some(code) = value.strip_prefix('!')
                {
                    push(code.to_string(), format!("git -c {key}=!"));
                }
            }
        }
        "tar" | "gtar" | "bsdtar" => {
            for a in args.iter().flatten() {
                if let Some(code) = a.strip_prefix("--checkpoint-action=exec=") {
                    push(code.to_string(), "tar --checkpoint-action=exec=".into());
                } else if let Some(code) = a.strip_prefix("--to-command=") {
                    push(code.to_string(), "tar --to-command=".into());
                }
            }
        }
        "rsync" => {
            for w in args.windows(2) {
                if matches!(w[0].as_deref(), Some("-e" | "--rsh"))
                    && let Some(code) = w[1].clone()
                {
                    push(code, "rsync -e".into());
                }
            }
            for a in args.iter().flatten() {
                if let Some(code) = a.strip_prefix("--rsh=") {
                    push(code.to_string(), "rsync --rsh=".into());
                }
            }
        }
        "ssh" | "scp" | "sftp" => {
            let opts = args
                .windows(2)
                .filter(|w| w[0].as_deref() == Some("-o"))
                .filter_map(|w| w[1].clone());
            let attached = args.iter().flatten().filter_map(|a| {
                a.strip_prefix("-o")
                    .filter(|r| !r.is_empty())
                    .map(str::to_string)
            });
            for o in opts.chain(attached) {
                let (k, v) = match o.split_once('=') {
                    Some((k, v)) => (k.to_string(), v.to_string()),
                    None => match o.split_once(' ') {
                        Some((k, v)) => (k.to_string(), v.to_string()),
                        None => continue,
                    },
                };
                if k.eq_ignore_ascii_case("ProxyCommand") || k.eq_ignore_ascii_case("LocalCommand")
                {
                    push(v, format!("{name} -o {k}="));
                }
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Span;

    fn words(v: &[&str]) -> Vec<Word> {
        v.iter()
            .map(|s| Word::literal(s, Span::default()))
            .collect()
    }

    #[test]
    fn reads_awk_system_literals_only() {
        assert_eq!(
            awk_system_literals(r#"BEGIN{system("rm -rf /")}"#),
            ["rm -rf /"]
        );
        assert!(awk_system_literals(r#"{system("echo " $1)}"#).is_empty());
        assert!(awk_system_literals(r#"{print "system(\"x\")"}"#).len() <= 1);
    }

    #[test]
    fn reads_git_pager_and_alias_hooks() {
        let h = hook_code("git", &words(&["git", "-c", "core.pager=rm -rf ~", "log"]));
        assert_eq!(h[0].code, "rm -rf ~");
        let h = hook_code("git", &words(&["git", "-c", "alias.x=!sh -c id", "x"]));
        assert_eq!(h[0].code, "sh -c id");
    }

    #[test]
    fn reads_tar_rsync_and_ssh_hooks() {
        assert_eq!(
            hook_code("tar", &words(&["tar", "--checkpoint-action=exec=id"]))[0].code,
            "id"
        );
        assert_eq!(
            hook_code("rsync", &words(&["rsync", "-e", "ssh -p 22", "a", "b"]))[0].code,
            "ssh -p 22"
        );
        assert_eq!(
            hook_code("ssh", &words(&["ssh", "-o", "ProxyCommand=nc %h %p", "h"]))[0].code,
            "nc %h %p"
        );
    }
}
