//! SG3002: `pkill -9` and `killall` (any signal): killing processes by name.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::signals::{is_kill_signal, only_informs, selector};

declare_rule! {
    /// ## What it does
    /// Flags `pkill` with SIGKILL (`-9`, `-KILL`, `-SIGKILL`, `--signal KILL`) and every
    /// `killall` (`killall node`, `killall -9`, `killall -s KILL`, `killall -r REGEX`).
    /// `pkill` with the default SIGTERM is not this rule (self-protection judges what it
    /// names).
    ///
    /// ## Why is this bad?
    /// Matching by name hits every process with that name, including other users' sessions
    /// and services; SIGKILL gives them no chance to save state or clean up.
    ///
    /// ## Example
    /// ```sh
    /// pkill -9 node        # approve
    /// killall python3      # approve
    /// pkill -HUP nginx     # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `pkill` with other signals is allowed unless it names the agent harness.
    pub struct ForceKill;
    code: "SG3002",
    name: "force-kill-processes",
    severity: Approve,
    category: Processes,
    hermes: [FORCE_KILL = "force kill processes", KILLALL_KILL = "force kill processes (killall -KILL)", KILLALL_S_KILL = "force kill processes (killall -s KILL)", KILLALL_REGEX = "kill processes by regex (killall -r)"],
    programs: ["pkill", "killall"],
    summary: "pkill -9 or killall",
    pass: ["pkill -HUP nginx", "pkill node", "pgrep -9 node", "echo killall node", "killall --help", "killall -l"],
    fail: ["pkill -9 node", "pkill -KILL -f 'python app.py'", "sudo pkill --signal SIGKILL java", "killall node", "killall -9 node", "killall -KILL chrome", "killall -s KILL node", "killall -r 'worker.*'", "bash -c 'killall -q ruby'"],
}

impl Rule for ForceKill {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let prog = cmd.name.as_deref().unwrap_or("pkill");
        if only_informs(cmd) {
            return;
        }
        let s = selector(cmd);
        let kill = s.signal.as_deref().is_some_and(is_kill_signal);
        let names = s
            .patterns
            .iter()
            .map(|w| w.shown())
            .collect::<Vec<_>>()
            .join(" ");
        let (what, key) = if prog == "pkill" {
            if !kill {
                return;
            }
            (
                format!("pkill sends SIGKILL to every process matching {names}"),
                ForceKill::FORCE_KILL,
            )
        } else if s.regex {
            (
                format!("killall -r kills every process whose name matches the regex {names}"),
                ForceKill::KILLALL_REGEX,
            )
        } else if kill && s.via_s {
            (
                format!("killall -s KILL kills every process named {names}"),
                ForceKill::KILLALL_S_KILL,
            )
        } else if kill {
            (
                format!("killall -KILL kills every process named {names}"),
                ForceKill::KILLALL_KILL,
            )
        } else {
            (
                format!("killall signals every process named {names}"),
                ForceKill::FORCE_KILL,
            )
        };
        let mut f = Finding::on(&Self::META, cmd, format!("{what}{}", route(cmd)));
        f.hermes = vec![key];
        out.push(f);
    }
}
