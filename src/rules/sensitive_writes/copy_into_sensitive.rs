//! SG5002: `cp`, `mv`, `install`, `ln`, `dd of=`, `truncate` or a download into a system,
//! credential, startup, cron, env, Hermes or shellgate path.

use crate::declare_rule;
use crate::model::affected::copy_dest;
use crate::model::opts::value_word;
use crate::model::paths::PathClass;
use crate::model::{Command, Word};
use crate::rules::util::protected_word;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

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

/// The words a file-placing command writes to (for an option's attached value, a word
/// holding just the value).
fn destinations(cmd: &Command) -> Vec<Word> {
    let name = cmd.name.as_deref().unwrap_or("");
    let args = cmd.args();
    let o = &cmd.opts;
    let operands = o.operand_words(args);
    match name {
        "cp" | "mv" | "install" | "ln" => copy_dest(cmd).map(|d| vec![d.dest]).unwrap_or_default(),
        "rsync" | "scp" => match operands.last() {
            Some(w)
                if operands.len() >= 2
                    && !w.shown().split('/').next().unwrap_or("").contains(':') =>
            {
                vec![(*w).clone()]
            }
            _ => Vec::new(),
        },
        // `dd` takes `key=value` operands, not options.
        "dd" => args
            .iter()
            .filter_map(|w| {
                w.lit()
                    .and_then(|t| t.strip_prefix("of=").map(|p| Word::literal(p, w.span)))
            })
            .collect(),
        "truncate" => operands.into_iter().cloned().collect(),
        "ssh-keygen" => {
            if "lyFBLQD".chars().any(|c| o.short(c)) {
                return Vec::new();
            }
            if let Some(f) = o.value_of(args, &["f"]) {
                return vec![f];
            }
            // `ssh-keygen -R host` rewrites known_hosts.
            if o.short('R') {
                return vec![Word::literal("~/.ssh/known_hosts", cmd.span)];
            }
            Vec::new()
        }
        "curl" => o
            .named(&["o", "output"])
            .filter_map(|x| value_word(args, x))
            .collect(),
        "wget" => o
            .named(&["O", "output-document"])
            .filter_map(|x| value_word(args, x))
            .collect(),
        _ => Vec::new(),
    }
}

impl Rule for CopyIntoSensitive {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if cmd.is("crontab") {
            // `crontab FILE` / `crontab -` replaces the user's crontab; `crontab /dev/null`
            // empties it, a removal judged with `crontab -r`.
            let o = &cmd.opts;
            let listing = "lre".chars().any(|c| o.short(c));
            let installs = o
                .operand_words(cmd.args())
                .iter()
                .any(|w| w.lit().as_deref() != Some("/dev/null"));
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
            let a = &cmd.opts;
            let operands = a.operand_words(cmd.args());
            let n = operands.len();
            let has_target_opt = a.named(&["t", "target-directory"]).next().is_some();
            let sources = if has_target_opt {
                n
            } else {
                n.saturating_sub(1)
            };
            for w in operands.iter().take(sources) {
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
        for w in destinations(cmd) {
            if let Some((s, p)) = protected_word(cx, cmd, &w) {
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
