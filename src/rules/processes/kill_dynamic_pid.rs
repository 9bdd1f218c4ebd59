//! SG3003: `kill -9` of process ids computed at run time (`kill -9 $(lsof -t -i:8080)`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::signals::{is_kill_signal, kill_args};

declare_rule! {
    /// ## What it does
    /// Flags `kill` with SIGKILL (`-9`, `-KILL`, `-s KILL`, `--signal=9`) when a process id
    /// is only known at run time: a command substitution (`$(lsof -t -i:8080)`, `` `pgrep x` ``),
    /// an unknown variable (`$PID`), or ids fed by `xargs`; and `fuser -k`, which SIGKILLs
    /// whatever processes use a file, port or mount.
    ///
    /// ## Why is this bad?
    /// Nobody can see which processes will die: `lsof -t` and `pgrep` often match more than
    /// intended (every process on a port, every process whose command line contains a word),
    /// and SIGKILL gives them no chance to clean up.
    ///
    /// ## Example
    /// ```sh
    /// kill -9 $(lsof -t -i:8080)   # approve
    /// kill -9 1234                 # allowed: one known process
    /// ```
    ///
    /// ## Known limitations
    /// `kill` with the default SIGTERM is not flagged (unless it targets the agent harness).
    pub struct KillDynamicPid;
    code: "SG3003",
    name: "force-kill-runtime-pids",
    severity: Approve,
    category: Processes,
    hermes: ["force kill processes"],
    programs: ["kill", "fuser"],
    summary: "kill -9 of process ids computed at run time",
    pass: ["kill 1234", "kill -9 1234", "kill $(cat app.pid)", "kill -l", "echo kill -9 $(pgrep x)", "kill -9 -1", "fuser 8080/tcp", "fuser -v -m /mnt"],
    fail: ["kill -9 $(lsof -t -i:8080)", "kill -KILL $PID", "kill -s KILL `pgrep node`", "lsof -ti:3000 | xargs kill -9", "sudo kill -9 $(pidof java)", "kill --signal=9 $(cat app.pid)", "fuser -k 8080/tcp", "sudo fuser -k -n tcp 3000"],
}

impl Rule for KillDynamicPid {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if cmd.is("fuser") {
            // `fuser -k` sends SIGKILL (unless another -SIGNAL is given) to every process
            // using the named files, ports or mounts.
            let texts = cmd.arg_texts();
            let kills = texts.iter().any(|t| {
                t == "--kill"
                    || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains('k'))
            });
            let other_signal = texts.iter().any(|t| {
                t.len() > 2
                    && t.starts_with('-')
                    && t[1..]
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                    && !is_kill_signal(t)
            });
            if kills && !other_signal {
                let what: Vec<&String> = texts.iter().filter(|t| !t.starts_with('-')).collect();
                let what = what
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                out.push(Finding::on(
                    &Self::META,
                    cmd,
                    format!("fuser -k sends SIGKILL to every process using {what}, whichever they are{}", route(cmd)),
                ));
            }
            return;
        }
        let (sig, pids) = kill_args(cmd);
        if !sig.as_deref().is_some_and(is_kill_signal) {
            return;
        }
        let dynamic: Vec<String> = pids
            .iter()
            .filter(|w| w.is_dynamic())
            .map(|w| {
                if w.raw.is_empty() {
                    "the ids read by xargs".to_string()
                } else {
                    w.raw.clone()
                }
            })
            .collect();
        if dynamic.is_empty() {
            return;
        }
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!(
                "kill sends SIGKILL to process ids known only at run time ({}){}",
                dynamic.join(", "),
                route(cmd)
            ),
        ));
    }
}
