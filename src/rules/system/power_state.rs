//! SG1301: shutting down, rebooting or halting the machine.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Blocks changes of the machine's power state: `shutdown`, `reboot`, `halt`,
    /// `poweroff`, `init 0|6`, `telinit 0|6`, `systemctl poweroff|reboot|halt|kexec`,
    /// `loginctl poweroff|reboot`. It judges the program that runs, so `adb reboot`,
    /// `bazel shutdown` and `docker restart` are not this rule, and `shutdown -c`
    /// (cancel a pending shutdown) is allowed.
    ///
    /// ## Why is this bad?
    /// It stops the agent, every other program and every user session; a remote machine may
    /// not come back.
    ///
    /// ## Example
    /// ```sh
    /// sudo shutdown -h now   # block
    /// adb reboot             # allowed: reboots a phone, judged as adb
    /// ```
    ///
    /// ## Known limitations
    /// Suspend and hibernate are not flagged (they are recoverable).
    pub struct PowerState;
    code: "SG1301",
    name: "power-state-change",
    severity: Block,
    category: System,
    hermes: ["system shutdown/reboot", "init 0/6 (shutdown/reboot)", "systemctl poweroff/reboot", "telinit 0/6 (shutdown/reboot)"],
    programs: ["shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "loginctl"],
    summary: "Shuts down, reboots or halts the machine",
    pass: ["adb reboot", "bazel shutdown", "docker restart web", "shutdown -c", "systemctl status nginx", "echo reboot", "init --version", "reboot --help", "reboot --wtmp-only", "systemctl soft-reboot --when cancel"],
    fail: ["shutdown -h now", "sudo reboot", "halt", "poweroff", "init 0", "telinit 6", "systemctl reboot", "systemctl --no-wall poweroff", "sh -c 'sleep 1; reboot'"],
}

/// The first operand of `cmd`, read by its grammar.
fn first_operand(cmd: &Command) -> Option<String> {
    cmd.opts
        .operand_words(cmd.args())
        .first()
        .map(|w| w.text_with("\u{fffd}"))
}

impl Rule for PowerState {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let args = cmd.arg_texts();
        let name = cmd.name.as_deref().unwrap_or("");
        // Help, version, record-only (`--wtmp-only`) and cancelling forms change nothing.
        let inert = |a: &String| {
            a == "--help"
                || (a == "-h" && name != "shutdown")
                || a == "--version"
                || a == "--wtmp-only"
                || (a == "-w" && name != "shutdown")
                || a == "--when=cancel"
        };
        if args.iter().any(inert)
            || args
                .windows(2)
                .any(|w| w[0] == "--when" && w[1] == "cancel")
        {
            return;
        }
        let (what, key): (String, &'static str) = match name {
            "shutdown" => {
                if args.iter().any(|a| a == "-c") {
                    return;
                }
                (
                    "shutdown stops the machine".into(),
                    "system shutdown/reboot",
                )
            }
            "reboot" | "halt" | "poweroff" => (
                format!("{name} stops the machine"),
                "system shutdown/reboot",
            ),
            "init" | "telinit" => {
                let first = first_operand(cmd);
                let Some(level) = first.as_ref() else {
                    return;
                };
                if !matches!(level.as_str(), "0" | "6") {
                    return;
                }
                (
                    format!(
                        "{name} {level} {}",
                        if level == "0" {
                            "halts the machine"
                        } else {
                            "reboots the machine"
                        }
                    ),
                    if name == "init" {
                        "init 0/6 (shutdown/reboot)"
                    } else {
                        "telinit 0/6 (shutdown/reboot)"
                    },
                )
            }
            "systemctl" | "loginctl" => {
                // The grammar reads `-H host`/`-M machine` values, so they are not verbs.
                let verb = first_operand(cmd);
                match verb.as_deref() {
                    Some(v @ ("poweroff" | "reboot" | "halt" | "kexec" | "soft-reboot")) => (
                        format!("{name} {v} stops the machine"),
                        "systemctl poweroff/reboot",
                    ),
                    _ => return,
                }
            }
            _ => return,
        };
        let mut f = Finding::on(&Self::META, cmd, format!("{what}{}", route(cmd)));
        f.hermes = vec![key];
        out.push(f);
    }
}
