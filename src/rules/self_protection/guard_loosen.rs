//! SG3105: shellgate commands that loosen shellgate itself (an agent approving its own
//! allowlist entries, importing a config over the user's, or removing the hooks).

use crate::declare_rule;
use crate::model::Command;
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
        let args = cmd.arg_texts();
        let ops: Vec<&str> = args
            .iter()
            .map(String::as_str)
            .filter(|a| !a.starts_with('-'))
            .collect();
        let has = |flag: &str| {
            args.iter()
                .any(|a| a == flag || a.starts_with(&format!("{flag}=")))
        };
        let what = match ops.as_slice() {
            ["approvals", "suggest", ..] if has("--apply") => {
                "adds entries to shellgate's allow list"
            }
            ["config", "import-hermes", ..] => {
                let prints = args
                    .windows(2)
                    .any(|w| matches!(w[0].as_str(), "--output" | "-o") && w[1] == "-")
                    || has("--output=-");
                if prints {
                    return;
                }
                "writes shellgate's config"
            }
            ["uninstall", ..] => "removes shellgate's hook from a harness",
            // `exec` gates the command itself; only a looser config for it is a loosening.
            ["exec", ..] | ["hook", ..] => {
                let exec_args: Vec<&str> = args
                    .iter()
                    .map(String::as_str)
                    .take_while(|a| *a != "--")
                    .collect();
                let loose_mode = exec_args
                    .windows(2)
                    .any(|w| w[0] == "--mode" && w[1] != "manual")
                    || exec_args
                        .iter()
                        .any(|a| a.starts_with("--mode=") && *a != "--mode=manual");
                let other_config = exec_args
                    .iter()
                    .any(|a| *a == "--no-config" || *a == "--config" || a.starts_with("--config="))
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
                ops.first().copied().unwrap_or_default(),
                route(cmd)
            ),
        ));
    }
}
