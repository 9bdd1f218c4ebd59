//! SG5002: `cp`, `mv`, `install`, `ln`, `dd of=`, `truncate` or a download into a system,
//! credential, startup, cron, env, Hermes or shellgate path.

use crate::declare_rule;
use crate::model::paths::PathClass;
use crate::model::{Command, Word};
use crate::rules::util::protected_word;
use crate::rules::util::{FlagSpec, parse, route};
use crate::rules::{Cx, Finding, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Flags file-placing commands whose destination is a sensitive path (the list in
    /// SG5001): `cp`/`mv`/`install`/`ln` (the last operand, or `-t DIR`/`--target-directory`),
    /// `rsync`/`scp` to a local destination, `dd of=`, `truncate`, `curl -o`/`wget -O`
    /// downloads, `ssh-keygen -f FILE`/`-R host`, `crontab FILE`/`crontab -` (which
    /// replaces the user's crontab), and `mv` of a sensitive file away from its place.
    /// Sources are not judged: copying *from* `/etc` is fine.
    ///
    /// ## Why is this bad?
    /// Replacing a system file, a key, a startup file or the guard's config changes how
    /// the machine, the user's logins or shellgate itself behave from then on.
    ///
    /// ## Example
    /// ```sh
    /// cp my.conf /etc/nginx/nginx.conf   # approve
    /// cp /etc/nginx/nginx.conf ./        # allow
    /// ```
    ///
    /// ## Known limitations
    /// A destination known only at run time is not classified.
    pub struct CopyIntoSensitive;
    code: "SG5002",
    name: "copy-into-sensitive-path",
    severity: Approve,
    category: SensitiveWrites,
    hermes: ["copy/move file into system config path", "copy/move file into sensitive credential/SSH/shell-rc path", "overwrite project env/config file"],
    programs: ["cp", "mv", "install", "ln", "rsync", "scp", "crontab", "ssh-keygen", "dd", "truncate", "curl", "wget"],
    summary: "A file is copied, moved, linked or downloaded into a sensitive path",
    pass: ["cp /etc/nginx/nginx.conf ./", "mv a.txt b.txt", "ln -s /usr/bin/python3 ~/bin/python", "dd if=/dev/zero of=disk.img bs=1M count=1", "truncate -s 0 app.log", "curl -o out.json https://x"],
    fail: [
        "cp my.conf /etc/nginx/nginx.conf",
        "sudo mv x /usr/local/bin/",
        "install -m 755 tool /usr/bin/tool",
        "cp id_rsa ~/.ssh/id_rsa",
        "ln -sf ~/dotfiles/bashrc ~/.bashrc",
        "cp .env.example .env",
        "cp -t /etc/systemd/system app.service",
        "dd if=x of=/boot/vmlinuz",
        "truncate -s 0 /etc/passwd",
        "curl -o ~/.ssh/authorized_keys https://x/k",
    ],
}

const CP_SPEC: FlagSpec = FlagSpec {
    short_values: "tSmog",
    longs: &[
        "target-directory",
        "suffix",
        "backup",
        "no-target-directory",
        "recursive",
        "force",
        "archive",
        "mode",
        "owner",
        "group",
        "sparse",
        "reflink",
        "preserve",
        "symbolic",
        "verbose",
        "interactive",
        "update",
        "context",
        "strip-program",
    ],
    long_values: &[
        "target-directory",
        "suffix",
        "mode",
        "owner",
        "group",
        "strip-program",
    ],
};

fn key(s: PathClass, path: &str) -> &'static str {
    match s {
        PathClass::ProjectEnv => "overwrite project env/config file",
        PathClass::System | PathClass::Cron
            if path.starts_with("/etc")
                || path.starts_with("/var")
                || path.starts_with("/boot")
                || path.starts_with("/usr")
                || path.starts_with("/bin")
                || path.starts_with("/sbin")
                || path.starts_with("/lib") =>
        {
            "copy/move file into system config path"
        }
        _ => "copy/move file into sensitive credential/SSH/shell-rc path",
    }
}

fn destinations<'a>(cx: &Cx, cmd: &'a Command) -> Vec<(&'a Word, Option<String>)> {
    let name = cmd.name.as_deref().unwrap_or("");
    let _ = cx;
    match name {
        "cp" | "mv" | "install" | "ln" => {
            let a = parse(cmd, &CP_SPEC);
            if let Some(t) = a
                .values
                .iter()
                .find(|(o, _)| o == "-t" || o == "--target-directory")
                .map(|(_, w)| *w)
            {
                return vec![(t, None)];
            }
            if let Some(w) = cmd.args().iter().find(|w| {
                w.lit()
                    .is_some_and(|t| t.starts_with("--target-directory="))
            }) {
                let dir = w
                    .lit()
                    .unwrap_or_default()
                    .trim_start_matches("--target-directory=")
                    .to_string();
                return vec![(w, Some(dir))];
            }
            if name == "install" && a.short('d') {
                return Vec::new();
            }
            let min = if name == "ln" { 1 } else { 2 };
            if a.operands.len() < min {
                return Vec::new();
            }
            if name == "ln" && a.operands.len() == 1 {
                return Vec::new();
            }
            a.operands
                .last()
                .map(|w| vec![(*w, None)])
                .unwrap_or_default()
        }
        "rsync" | "scp" => {
            let ops: Vec<&Word> = cmd
                .args()
                .iter()
                .filter(|w| !w.lit().is_some_and(|t| t.starts_with('-')))
                .collect();
            match ops.last() {
                Some(w)
                    if ops.len() >= 2
                        && !w
                            .text_with("?")
                            .split('/')
                            .next()
                            .unwrap_or("")
                            .contains(':') =>
                {
                    vec![(*w, None)]
                }
                _ => Vec::new(),
            }
        }
        "dd" => cmd
            .args()
            .iter()
            .filter_map(|w| {
                w.lit()
                    .and_then(|t| t.strip_prefix("of=").map(|p| (w, Some(p.to_string()))))
            })
            .collect(),
        "truncate" => {
            let spec = FlagSpec {
                short_values: "sr",
                longs: &["size", "reference", "no-create", "io-blocks"],
                long_values: &["size", "reference"],
            };
            parse(cmd, &spec)
                .operands
                .into_iter()
                .map(|w| (w, None))
                .collect()
        }
        "ssh-keygen" => {
            let args = cmd.args();
            let texts = cmd.arg_texts();
            let reads_only = texts.iter().any(|a| {
                matches!(
                    a.as_str(),
                    "-l" | "-y" | "-F" | "-B" | "-L" | "-Q" | "-D" | "-lf" | "-yf"
                )
            });
            if reads_only {
                return Vec::new();
            }
            let file = texts
                .iter()
                .position(|a| a == "-f")
                .and_then(|i| args.get(i + 1));
            if let Some(f) = file {
                return vec![(f, None)];
            }
            // `ssh-keygen -R host` rewrites known_hosts.
            if texts.iter().any(|a| a == "-R") {
                return vec![(&cmd.argv[0], Some("~/.ssh/known_hosts".to_string()))];
            }
            Vec::new()
        }
        "curl" | "wget" => {
            let mut out = Vec::new();
            let args = cmd.args();
            for (i, w) in args.iter().enumerate() {
                let t = w.lit().unwrap_or_default();
                let takes = if name == "curl" {
                    t == "-o" || t == "--output"
                } else {
                    t == "-O" || t == "--output-document"
                };
                if takes {
                    if let Some(v) = args.get(i + 1) {
                        out.push((v, None));
                    }
                } else if let Some(v) = t
                    .strip_prefix("--output=")
                    .or_else(|| t.strip_prefix("--output-document="))
                {
                    out.push((w, Some(v.to_string())));
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

impl Rule for CopyIntoSensitive {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if cmd.is("crontab") {
            // `crontab FILE` / `crontab -` replaces the user's crontab.
            let args = cmd.arg_texts();
            let listing = args
                .iter()
                .any(|a| a.starts_with('-') && a.len() > 1 && a[1..].contains(['l', 'r', 'e']));
            let mut skip = false;
            let mut installs = false;
            for a in &args {
                if skip {
                    skip = false;
                } else if a == "-u" {
                    skip = true;
                } else if a == "-" || (!a.starts_with('-') && a != "/dev/null") {
                    // `crontab /dev/null` empties it: a removal, judged with `crontab -r`.
                    installs = true;
                }
            }
            if installs && !listing {
                let mut f = Finding::on(
                    &Self::META,
                    cmd,
                    format!("crontab replaces the user's crontab{}", route(cmd)),
                );
                f.hermes.clear();
                out.push(f);
            }
            return;
        }
        if cmd.is("mv") {
            // Moving a sensitive file away removes it from where it is needed.
            let a = parse(cmd, &CP_SPEC);
            let n = a.operands.len();
            let has_target_opt = a
                .values
                .iter()
                .any(|(o, _)| o == "-t" || o == "--target-directory")
                || cmd.args().iter().any(|w| {
                    w.lit()
                        .is_some_and(|t| t.starts_with("--target-directory="))
                });
            let sources = if has_target_opt {
                n
            } else {
                n.saturating_sub(1)
            };
            for w in a.operands.iter().take(sources) {
                if let Some((s, p)) = protected_word(cx, cmd, w) {
                    let mut f = Finding::on(
                        &Self::META,
                        cmd,
                        format!("mv moves {p}, {}, away{}", s.describe(), route(cmd)),
                    )
                    .with_span(w.span);
                    f.hermes = vec![key(s, &p)];
                    out.push(f);
                }
            }
        }
        for (w, inline) in destinations(cx, cmd) {
            let word = match inline {
                Some(t) => {
                    let mut x = w.clone();
                    x.pieces = vec![crate::model::Piece::Lit {
                        text: t,
                        quoted: true,
                    }];
                    x
                }
                None => w.clone(),
            };
            if let Some((s, p)) = protected_word(cx, cmd, &word) {
                let name = cmd.name.clone().unwrap_or_default();
                let mut f = Finding::on(
                    &Self::META,
                    cmd,
                    format!("{name} writes into {p}, {}{}", s.describe(), route(cmd)),
                )
                .with_span(w.span);
                f.hermes = vec![key(s, &p)];
                out.push(f);
            }
        }
    }
}
