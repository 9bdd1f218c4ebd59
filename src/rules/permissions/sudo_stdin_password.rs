//! SG1402: feeding a password to `sudo -S` / `sudo --stdin`.

use crate::declare_rule;
use crate::model::Command;
use crate::model::opts::Opts;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Blocks `sudo -S` / `sudo --stdin` (in any flag cluster, as a wrapper or on its own),
    /// unless the user configured a sudo password for the agent.
    ///
    /// ## Why is this bad?
    /// An agent piping passwords into sudo is guessing or replaying credentials it should
    /// not have; repeated attempts also lock accounts.
    ///
    /// ## Example
    /// ```sh
    /// echo hunter2 | sudo -S apt update   # block
    /// sudo apt update                     # allowed by this rule
    /// ```
    ///
    /// ## Known limitations
    /// `SUDO_ASKPASS` helpers are judged by the approval-tier sudo rules.
    pub struct SudoStdinPassword;
    code: "SG1402",
    name: "sudo-password-on-stdin",
    severity: Block,
    category: Permissions,
    hermes: ["sudo with privilege flag (stdin/askpass/shell/list)", COMBINED = "sudo with combined-flag privilege escalation"],
    programs: [],
    summary: "Feeds a password to sudo on stdin (sudo -S)",
    pass: ["sudo apt update", "sudo -u www-data ls", "echo 'sudo -S'"],
    fail: ["echo pw | sudo -S apt update", "sudo --stdin true", "echo pw | sudo -kS -u root id", "sudo -S -v"],
}

impl Rule for SudoStdinPassword {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        if cx.ctx.sudo_password_configured {
            return;
        }
        for cmd in &cx.script.commands {
            // sudo's grammar resolves abbreviations (`--std`) and bundles (`-kS`).
            let as_program = (cmd.is("sudo") && cmd.opts.flag('S', "stdin")).then_some(&cmd.opts);
            let as_wrapper = cmd
                .wrappers
                .iter()
                .find(|w| w.name == "sudo" && w.opts.flag('S', "stdin"))
                .map(|w| &w.opts);
            if let Some(opts) = as_program.or(as_wrapper) {
                push(self, cmd, combined(opts), out);
            }
        }
    }
}

/// `-S` inside a bundle (`-kS`): Hermes keys that as a combined-flag escalation.
fn combined(opts: &Opts) -> bool {
    opts.own()
        .iter()
        .filter(|o| !o.long && o.name == "S")
        .any(|s| opts.own().iter().filter(|o| o.word == s.word).count() > 1)
}

fn push(_r: &SudoStdinPassword, cmd: &Command, combined: bool, out: &mut Vec<Finding>) {
    let mut f = Finding::on(
        &SudoStdinPassword::META,
        cmd,
        "sudo -S reads a password from stdin: an agent feeding sudo passwords is not allowed",
    );
    if combined {
        f.hermes = vec![SudoStdinPassword::COMBINED];
    }
    out.push(f);
}
