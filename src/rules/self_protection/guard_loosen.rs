//! SG3105: shellgate commands that loosen shellgate itself (an agent approving its own
//! allowlist entries, importing a config over the user's, or removing the hooks).

use crate::declare_rule;
use crate::model::Command;
use crate::model::opts::value_word;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags the `shellgate` subcommands that widen what the guard lets through or switch
    /// it off: `approvals suggest --apply` (adds allowlist entries), `config import-hermes`
    /// (writes a config, unless it only prints it with `--output -`), and `uninstall`
    /// (removes shellgate's hook from a harness); and `exec` or `hook` run with a looser mode
    /// (`--mode off|smart`), another config (`--config`, `--no-config`), or
    /// `SHELLGATE_CONFIG=`/`XDG_CONFIG_HOME=`/`XDG_STATE_HOME=`/`HOME=` in front.
    ///
    /// ## Why is this bad?
    /// The guard is configured by the person, not by the agent it guards. An agent that can
    /// add its own allowlist entries or remove the hook has no guard at all.
    ///
    /// ## Example
    /// ```sh
    /// shellgate approvals suggest --apply 1,2   # approve
    /// shellgate uninstall claude                # approve
    /// shellgate approvals suggest               # allowed (a dry run)
    /// shellgate approvals clear                 # allowed (only tightens)
    /// ```
    ///
    /// ## Known limitations
    /// Only the `shellgate` program is recognised; editing its config file by other means is
    /// caught by the sensitive-write rules, which protect shellgate's config and state.
    pub struct GuardLoosen;
    code: "SG3105",
    name: "shellgate-loosens-itself",
    severity: Approve,
    category: SelfProtection,
    hermes: [],
    programs: ["shellgate"],
    summary: "shellgate approvals suggest --apply, config import-hermes, uninstall",
    pass: ["shellgate check 'ls'", "shellgate approvals suggest", "shellgate approvals clear", "shellgate approvals revoke 3", "shellgate config import-hermes --output -", "shellgate log --since 1h", "echo shellgate uninstall claude", "shellgate exec -- make test", "shellgate exec --mode manual --session s1 -- git status", "shellgate exec -- shellgate --mode off"],
    fail: ["shellgate approvals suggest --apply 1", "shellgate approvals suggest --apply=1,2", "shellgate config import-hermes ~/.hermes/config.yaml --force", "shellgate uninstall claude", "bash -c 'shellgate uninstall codex --project'", "./target/release/shellgate approvals suggest --min-count 1 --apply 2", "shellgate exec --mode off -- git reset --hard", "shellgate exec --no-config -- git clean -fdx", "SHELLGATE_CONFIG=/tmp/c.toml shellgate exec -- rm -rf src", "shellgate hook claude --config /tmp/open.toml"],
}

impl Rule for GuardLoosen {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        // Read by shellgate's own grammar (the one its CLI is checked against): options are
        // read after their subcommand, `exec`'s end at its command, nothing after `--`.
        let o = &cmd.opts;
        let args = cmd.args();
        let path: Vec<&str> = o.subcommand.iter().map(|(s, _)| s.as_str()).collect();
        let values = |names: &[&str]| -> Vec<Option<String>> {
            o.named(names)
                .map(|x| value_word(args, x).and_then(|w| w.lit()))
                .collect()
        };
        let what = match path.as_slice() {
            ["approvals", "suggest", ..] if o.long("apply") => {
                "adds entries to shellgate's allow list"
            }
            ["config", "import-hermes", ..] => {
                if values(&["output", "o"])
                    .iter()
                    .any(|v| v.as_deref() == Some("-"))
                {
                    return;
                }
                "writes shellgate's config"
            }
            ["uninstall", ..] => "removes shellgate's hook from a harness",
            // `exec` gates the command itself; only a looser config for it is a loosening.
            ["exec", ..] | ["hook", ..] => {
                let loose_mode = values(&["mode"])
                    .iter()
                    .any(|v| v.as_deref() != Some("manual"));
                let other_config = o.long("no-config")
                    || o.long("config")
                    || cmd.assignments.iter().any(|x| {
                        matches!(
                            x.name.as_str(),
                            "SHELLGATE_CONFIG" | "XDG_CONFIG_HOME" | "XDG_STATE_HOME" | "HOME"
                        )
                    });
                if !(loose_mode || other_config) {
                    return;
                }
                "runs the gate with another mode or config than the user's"
            }
            _ => return,
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!(
                "shellgate {} {what}: the agent would loosen its own guard{}",
                path.first().copied().unwrap_or_default(),
                route(cmd)
            ),
        ));
    }
}
