//! SG1102: `kill` of process id -1 (every process the user may signal).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Blocks `kill` aimed at pid `-1` — `kill -9 -1`, `kill -KILL -1`, `kill -s KILL -1`,
    /// `kill -- -1`, and `kill -1` itself — and `killall5`, which signal every process the
    /// user can reach.
    ///
    /// ## Why is this bad?
    /// As root it takes the machine down; as a user it kills the session, the agent and
    /// every unsaved program.
    ///
    /// ## Example
    /// ```sh
    /// kill -9 -1      # block
    /// kill -9 1234    # allowed: one process
    /// ```
    ///
    /// ## Known limitations
    /// A pid computed at run time (`kill -9 $PID`) is judged by the approval-tier kill rules.
    pub struct KillAllProcesses;
    code: "SG1102",
    name: "kill-all-processes",
    severity: Block,
    category: Processes,
    hermes: ["kill all processes"],
    programs: ["kill", "killall5"],
    summary: "Signals every process (kill -1)",
    pass: ["kill 1234", "kill -9 1234", "kill -l", "echo 'kill -1 sends SIGHUP'", "kill -HUP 4321"],
    fail: ["kill -9 -1", "kill -KILL -1", "kill -1", "sudo kill -s KILL -1", "kill -- -1", "killall5 -9"],
}

impl Rule for KillAllProcesses {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if cmd.is("killall5") {
            out.push(Finding::on(
                &Self::META,
                cmd,
                "killall5 signals every process on the system",
            ));
            return;
        }
        // Read by kill's grammar: the first `-X` word is the signal, later `-N` are pids.
        let o = &cmd.opts;
        if o.short('l') || o.short('L') || o.long("list") || o.long("table") {
            return;
        }
        let (signal, pids) = crate::rules::processes::signals::kill_args(cmd);
        let mut pids: Vec<String> = pids.iter().filter_map(|w| w.lit()).collect();
        if signal.as_deref() == Some("1") && pids.is_empty() && cmd.args().len() == 1 {
            // `kill -1` alone: RISK_MODEL treats it as kill-all.
            pids.push("-1".into());
        }
        if pids.iter().any(|p| p == "-1") {
            out.push(Finding::on(
                &Self::META,
                cmd,
                "kill of pid -1 signals every process the user can reach",
            ));
        }
    }
}
