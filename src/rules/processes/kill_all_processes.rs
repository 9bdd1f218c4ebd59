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
        let args: Vec<String> = cmd.arg_texts();
        let mut i = 0;
        let mut signal_given = false;
        let mut pids = Vec::new();
        while i < args.len() {
            let a = &args[i];
            if a == "--" {
                pids.extend(args[i + 1..].iter().cloned());
                break;
            }
            if a == "-s" || a == "-n" {
                signal_given = true;
                i += 2;
                continue;
            }
            if a == "-l" || a == "-L" || a == "--list" || a == "--table" {
                return;
            }
            if a.starts_with('-') && !signal_given {
                // The first `-X` is the signal (`-9`, `-KILL`, `-1` = SIGHUP).
                signal_given = true;
                if a == "-1" && i + 1 == args.len() {
                    // `kill -1` alone: RISK_MODEL treats it as kill-all.
                    pids.push("-1".into());
                }
                i += 1;
                continue;
            }
            pids.push(a.clone());
            i += 1;
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
