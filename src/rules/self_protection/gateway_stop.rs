//! SG3102: `hermes gateway stop|restart` and `hermes update`.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::hermes_operands;

declare_rule! {
    /// ## What it does
    /// Flags `hermes gateway stop`, `hermes gateway restart` and `hermes update` (which
    /// restarts the gateway), however the `hermes` program is reached.
    ///
    /// ## Why is this bad?
    /// The gateway runs the agents: stopping or restarting it kills every running agent,
    /// including the one that issued the command.
    ///
    /// ## Example
    /// ```sh
    /// hermes gateway restart   # approve
    /// hermes gateway status    # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Stopping the gateway's systemd unit is reported by SG3001.
    pub struct GatewayStop;
    code: "SG3102",
    name: "hermes-gateway-stop",
    severity: Approve,
    category: SelfProtection,
    hermes: [GATEWAY_STOP = "stop/restart hermes gateway (kills running agents)", UPDATE = "hermes update (restarts gateway, kills running agents)"],
    programs: ["hermes"],
    summary: "hermes gateway stop/restart, hermes update",
    pass: ["hermes gateway status", "hermes --version", "echo hermes gateway stop", "hermes chat", "hermes gateway run"],
    fail: ["hermes gateway stop", "hermes -p work gateway stop", "hermes --verbose update", "hermes gateway restart", "hermes update", "~/.local/bin/hermes gateway stop", "bash -c 'hermes update'"],
}

impl Rule for GatewayStop {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let ops = hermes_operands(cmd);
        let (what, key) = match ops
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["gateway", v @ ("stop" | "restart"), ..] => (
                format!(
                    "hermes gateway {v} stops the gateway and every agent it runs, this one included"
                ),
                GatewayStop::GATEWAY_STOP,
            ),
            ["update", ..] => (
                "hermes update restarts the gateway, killing every running agent".to_string(),
                GatewayStop::UPDATE,
            ),
            _ => return,
        };
        let mut f = Finding::on(&Self::META, cmd, format!("{what}{}", route(cmd)));
        f.hermes = vec![key];
        out.push(f);
    }
}
