//! SG1402: feeding a password to `sudo -S` / `sudo --stdin`.

use crate::declare_rule;
use crate::model::Command;
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
    hermes: ["sudo with privilege flag (stdin/askpass/shell/list)", "sudo with combined-flag privilege escalation"],
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
            let as_program = cmd.is("sudo") && cmd.opts.flag('S', "stdin");
            let as_wrapper = cmd
                .wrappers
                .iter()
                .any(|w| w.name == "sudo" && w.opts.flag('S', "stdin"));
            if as_program || as_wrapper {
                push(self, cmd, out);
            }
        }
    }
}

fn push(_r: &SudoStdinPassword, cmd: &Command, out: &mut Vec<Finding>) {
    out.push(Finding::on(
        &SudoStdinPassword::META,
        cmd,
        "sudo -S reads a password from stdin: an agent feeding sudo passwords is not allowed",
    ));
}
