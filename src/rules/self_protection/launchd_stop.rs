//! SG3104: stopping or unloading the Hermes launchd service on macOS.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `launchctl stop|unload|bootout|remove|kill|disable|kickstart -k` whose label or
    /// plist names Hermes (`ai.hermes.gateway`, `~/Library/LaunchAgents/...hermes...plist`).
    ///
    /// ## Why is this bad?
    /// The launchd service is the gateway that runs the agents; stopping it kills every
    /// running agent, this one included.
    ///
    /// ## Example
    /// ```sh
    /// launchctl unload ~/Library/LaunchAgents/ai.hermes.gateway.plist   # approve
    /// launchctl list | grep hermes                                      # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Labels that do not contain "hermes" are not recognised.
    pub struct LaunchdStop;
    code: "SG3104",
    name: "hermes-launchd-stop",
    severity: Approve,
    category: SelfProtection,
    hermes: ["stop/restart hermes launchd service (kills running agents)"],
    programs: ["launchctl"],
    summary: "launchctl stop/unload of the hermes service",
    pass: ["launchctl list", "launchctl print gui/501/ai.hermes.gateway", "launchctl stop com.example.web", "echo launchctl unload hermes"],
    fail: ["launchctl unload ~/Library/LaunchAgents/ai.hermes.gateway.plist", "launchctl stop ai.hermes.gateway", "launchctl bootout gui/501/ai.hermes.gateway", "launchctl kickstart -k gui/501/ai.hermes.gateway"],
}

impl Rule for LaunchdStop {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let args = cmd.arg_texts();
        // The verb is the first operand; `kickstart -k` kills the running job first.
        let Some(verb) = cmd.opts.operands.first().and_then(|&i| args.get(i)) else {
            return;
        };
        let stops = match verb.as_str() {
            "stop" | "unload" | "bootout" | "remove" | "kill" | "disable" => true,
            "kickstart" => cmd.opts.short('k'),
            _ => false,
        };
        if !stops {
            return;
        }
        let Some(target) = args
            .iter()
            .find(|a| a.to_ascii_lowercase().contains("hermes"))
        else {
            return;
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!(
                "launchctl {verb} {target} stops the hermes gateway and every agent it runs{}",
                route(cmd)
            ),
        ));
    }
}
