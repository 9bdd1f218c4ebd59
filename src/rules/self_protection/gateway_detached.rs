//! SG3103: starting the Hermes gateway detached (`&`, `nohup`, `setsid`, `disown`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::hermes_operands;

declare_rule! {
    /// ## What it does
    /// Flags `hermes gateway run|start` started in the background (`&`), under `nohup`,
    /// `setsid` or `daemonize`, or followed by `disown` in the same command.
    ///
    /// ## Why is this bad?
    /// A second gateway outside its service manager fights the supervised one for the same
    /// sessions and ports, and survives logout where nothing will restart or stop it. The
    /// supported way is `systemctl --user restart hermes-gateway`.
    ///
    /// ## Example
    /// ```sh
    /// nohup hermes gateway run &    # approve
    /// hermes gateway run            # allowed (foreground)
    /// ```
    ///
    /// ## Known limitations
    /// Detaching through `screen` or `tmux` is not recognised.
    pub struct GatewayDetached;
    code: "SG3103",
    name: "gateway-detached-start",
    severity: Approve,
    category: SelfProtection,
    hermes: ["start gateway outside systemd (use 'systemctl --user restart hermes-gateway')"],
    programs: ["hermes"],
    summary: "Starts the hermes gateway detached from its service manager",
    pass: ["hermes gateway run", "hermes gateway status &", "echo 'hermes gateway run &'"],
    fail: ["hermes gateway run &", "nohup hermes gateway run", "setsid hermes gateway start >/dev/null 2>&1 &", "hermes gateway run & disown", "bash -c 'nohup hermes gateway run &'"],
}

impl Rule for GatewayDetached {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let ops = hermes_operands(cmd);
        if !matches!(
            ops.iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .as_slice(),
            ["gateway", "run" | "start", ..]
        ) {
            return;
        }
        let how = if let Some(w) = cmd
            .wrappers
            .iter()
            .find(|w| matches!(w.name.as_str(), "nohup" | "setsid" | "daemonize"))
        {
            format!("under {}", w.name)
        } else if cmd.background {
            "in the background (&)".to_string()
        } else if cx
            .script
            .commands
            .iter()
            .any(|c| c.id > cmd.id && c.is("disown"))
        {
            "and disowns it".to_string()
        } else {
            return;
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!("starts a hermes gateway {how}, outside its service manager (use `systemctl --user restart hermes-gateway`){}", route(cmd)),
        ));
    }
}
