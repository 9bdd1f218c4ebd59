//! SG5001: a redirect or `tee` writes into a system, credential, startup, cron, env,
//! Hermes or shellgate file.

use crate::declare_rule;
use crate::model::paths::PathClass;
use crate::model::{Command, RedirectOp};
use crate::rules::util::protected_word;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags output redirects (`>`, `>>`, `>|`, `&>`, `&>>`, `<>`, on any fd) and `tee`/`tee
    /// -a`/`sponge` whose target the path catalog (`model::paths::catalog`) protects: `/etc`,
    /// `/boot`, `/usr`, `/bin`, `/sbin`, `/lib*`, `/var/lib`, macOS `/private/etc` and
    /// launch daemons, a credential path (`~/.ssh/*`, `~/.aws/`, `~/.kube/`, `~/.gnupg/`,
    /// `~/.netrc`, `~/.docker/config.json`, `~/.config/gh/`, `~/.git-credentials`), a shell
    /// startup file (`~/.bashrc`, `~/.profile`, `~/.zshrc`, `~/.config/fish/`, ...), a
    /// crontab, a `.env*` file in any directory (not templates such as `.env.example`), an
    /// agent harness's config or hooks (`$HERMES_HOME`, `~/.claude/settings.json`,
    /// `~/.codex/`, `~/.gemini/`, `.github/hooks/`), or shellgate's own config and state
    /// (`~/.config/shellgate/`, `~/.local/state/shellgate/`, `shellgate.toml`), in any
    /// user's home. Paths are resolved against the working directory and home, through
    /// wrappers and nested code.
    ///
    /// ## Why is this bad?
    /// These files control the system, the user's credentials, what runs at every login,
    /// or the guard itself; a bad write there outlives the command.
    ///
    /// ## Example
    /// ```sh
    /// echo 'alias ls=rm' >> ~/.bashrc   # approve
    /// echo x > /tmp/out                 # allow
    /// ```
    ///
    /// ## Known limitations
    /// A target named only at run time (`> "$F"`) cannot be classified.
    pub struct OverwriteSensitive;
    code: "SG5001",
    name: "write-sensitive-path",
    severity: Approve,
    category: SensitiveWrites,
    hermes: ["overwrite system config", "overwrite system file via redirection", "overwrite system file via tee", "overwrite project env/config via redirection", "overwrite project env/config via tee"],
    programs: [],
    summary: "A redirect or tee writes a system, credential, startup, env or guard file",
    pass: ["echo x > /tmp/out", "echo A= > .env.example", "echo x > /dev/null", "cat ~/.ssh/id_rsa.pub", "ls > files.txt", "tee out.log < in.txt", "cat /etc/hosts > hosts.bak"],
    fail: [
        "echo 'alias ls=rm' >> ~/.bashrc",
        "echo 'nameserver 1.1.1.1' > /etc/resolv.conf",
        "echo key | sudo tee -a /etc/sudoers",
        "cat key.pub >> ~/.ssh/authorized_keys",
        "echo SECRET=1 > .env",
        "echo x | tee .env.local",
        "echo 'mode=off' > ~/.config/shellgate/config.toml",
        "echo '* * * * * x' > /var/spool/cron/crontabs/user",
        "printf 'k=v' > \"$HERMES_HOME/.env\"",
        "echo x > ~/.config/fish/functions/x.fish",
        "echo x >> /home/bob/.bashrc",
    ],
}

fn key(s: PathClass, tee: bool, path: &str) -> &'static str {
    match (s, tee) {
        (PathClass::ProjectEnv, false) => "overwrite project env/config via redirection",
        (PathClass::ProjectEnv, true) => "overwrite project env/config via tee",
        (_, true) => "overwrite system file via tee",
        (_, false) if path.starts_with("/etc/") => "overwrite system config",
        (_, false) => "overwrite system file via redirection",
    }
}

/// The files `tee`/`sponge` write: their operands, read by their grammar.
fn tee_targets(cmd: &Command) -> Vec<&crate::model::Word> {
    cmd.opts.operand_words(cmd.args())
}

impl Rule for OverwriteSensitive {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        for cmd in &cx.script.commands {
            for r in &cmd.redirects {
                if !r.op.writes() || r.op == RedirectOp::DupFd {
                    continue;
                }
                let Some(t) = &r.target else { continue };
                if let Some((s, p)) = protected_word(cx, cmd, t) {
                    let verb = if matches!(r.op, RedirectOp::Append | RedirectOp::AppendAll) {
                        "appends to"
                    } else {
                        "overwrites"
                    };
                    let mut f = Finding::on(
                        &Self::META,
                        cmd,
                        format!("a redirect {verb} {p}, {}{}", s.describe(), route(cmd)),
                    )
                    .with_span(r.span);
                    f.hermes = vec![key(s, false, &p)];
                    out.push(f);
                }
            }
            if cmd.is("tee") || cmd.is("sponge") {
                for t in tee_targets(cmd) {
                    if let Some((s, p)) = protected_word(cx, cmd, t) {
                        let name = cmd.name.clone().unwrap_or_default();
                        let mut f = Finding::on(
                            &Self::META,
                            cmd,
                            format!("{name} writes {p}, {}{}", s.describe(), route(cmd)),
                        )
                        .with_span(t.span);
                        f.hermes = vec![key(s, true, &p)];
                        out.push(f);
                    }
                }
            }
        }
    }
}
