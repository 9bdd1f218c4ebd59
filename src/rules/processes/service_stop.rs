//! SG3001: stopping, restarting, disabling or masking a system service.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

const VERBS: &[&str] = &[
    "stop",
    "restart",
    "try-restart",
    "reload-or-restart",
    "try-reload-or-restart",
    "condrestart",
    "force-reload",
    "disable",
    "mask",
    "kill",
    "isolate",
];

declare_rule! {
    /// ## What it does
    /// Flags `systemctl stop|restart|try-restart|reload-or-restart|disable|mask|kill|isolate`
    /// (systemctl's own options such as `--user`, `-q`, `--no-block`, `-H host` before the
    /// verb do not hide it), `service NAME stop|restart|force-reload|--full-restart`,
    /// `rc-service NAME stop|restart`, `sv down|stop|restart|kill NAME` and
    /// `initctl stop|restart NAME`.
    ///
    /// ## Why is this bad?
    /// Stopping or restarting a service interrupts whatever depends on it (a database, a web
    /// server, sshd, the agent's own gateway); disabling or masking keeps it down after
    /// reboot.
    ///
    /// ## Example
    /// ```sh
    /// sudo systemctl restart nginx    # approve
    /// systemctl status nginx          # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Init scripts run directly (`/etc/init.d/nginx stop`) are not recognised.
    pub struct ServiceStop;
    code: "SG3001",
    name: "stop-system-service",
    severity: Approve,
    category: Processes,
    hermes: ["stop/restart system service"],
    programs: ["systemctl", "service", "rc-service", "sv", "initctl"],
    summary: "systemctl/service stop, restart, disable or mask",
    pass: ["systemctl status nginx", "systemctl start nginx", "systemctl --user list-units", "service nginx status", "sv status nginx", "rc-service nginx start", "systemctl enable --now docker", "echo systemctl stop nginx", "systemctl is-active sshd", "sv -w 5 status nginx"],
    fail: ["systemctl stop nginx", "sudo systemctl restart postgresql", "systemctl --user stop hermes-gateway", "systemctl -q disable sshd", "systemctl mask --now bluetooth", "service nginx stop", "sudo service apache2 restart", "service nginx --full-restart", "rc-service nginx stop", "sv down nginx", "initctl stop ssh", "systemctl -H web1 stop nginx", "systemctl kill -s KILL foo", "sv -w 5 down nginx", "rc-service --ifstarted nginx stop"],
}

impl Rule for ServiceStop {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        // Operands as each program's grammar reads them (`model::opts::grammars`).
        let ops: Vec<String> = cmd
            .opts
            .operand_words(cmd.args())
            .iter()
            .map(|w| w.shown())
            .collect();
        let (verb, units) = if cmd.is("service") || cmd.is("rc-service") {
            if cmd.opts.long("full-restart") {
                let unit = ops.first().cloned().unwrap_or_default();
                out.push(Finding::on(
                    &Self::META,
                    cmd,
                    format!(
                        "service {unit} --full-restart stops and starts the service{}",
                        route(cmd)
                    ),
                ));
                return;
            }
            match ops.as_slice() {
                [unit, verb, ..] => (verb.clone(), unit.clone()),
                _ => return,
            }
        } else if cmd.is("sv") || cmd.is("initctl") {
            match ops.as_slice() {
                [verb, units @ ..] => {
                    let v = match verb.as_str() {
                        "down" | "d" | "force-stop" => "stop".to_string(),
                        "t" | "term" | "force-restart" => "restart".to_string(),
                        "k" => "kill".to_string(),
                        v => v.to_string(),
                    };
                    (v, units.join(" "))
                }
                _ => return,
            }
        } else {
            let a = &cmd.opts;
            let operands = a.operand_words(cmd.args());
            let Some((verb, units)) = operands.split_first() else {
                return;
            };
            let Some(v) = verb.lit() else { return };
            (
                v,
                units
                    .iter()
                    .map(|u| u.shown())
                    .collect::<Vec<_>>()
                    .join(" "),
            )
        };
        if !VERBS.contains(&verb.as_str()) {
            return;
        }
        let prog = cmd.name.as_deref().unwrap_or("systemctl");
        let what = match verb.as_str() {
            "disable" | "mask" => "keeps it from starting",
            "kill" => "signals its processes",
            "isolate" => "stops every unit the target does not need",
            _ => "interrupts what depends on it",
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!("{prog} {verb} {units} {what}{}", route(cmd)),
        ));
    }
}
