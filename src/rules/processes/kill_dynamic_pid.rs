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
    pass: ["kill 1234", "kill -9 1234", "kill $(cat app.pid)", "kill -l", "echo kill -9 $(pgrep x)", "kill -9 -1", "fuser 8080/tcp", "fuser -v -m /mnt", "fuser -k -TERM 8080/tcp"],
    fail: ["kill -9 $(lsof -t -i:8080)", "kill -KILL $PID", "kill -s KILL `pgrep node`", "lsof -ti:3000 | xargs kill -9", "sudo kill -9 $(pidof java)", "kill --signal=9 $(cat app.pid)", "fuser -k 8080/tcp", "sudo fuser -k -n tcp 3000", "fuser -km /mnt", "fuser -4 -k 80/tcp"],
}

impl Rule for KillDynamicPid {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if cmd.is("fuser") {
            // `fuser -k` sends SIGKILL (unless another -SIGNAL is given) to every process
            // using the named files, ports or mounts.
            // Read by fuser's grammar: `-k` in a bundle, `-SIGNAL` words as the signal.
            let o = &cmd.opts;
            let kills = o.flag('k', "kill");
            // `-4`/`-6` are fuser's IPv4/IPv6 options, not signals.
            let other_signal = o
                .signal(cmd.args(), &["signal"])
                .is_some_and(|sig| sig != "4" && sig != "6" && !is_kill_signal(&sig));
            if kills && !other_signal {
                let what = o
                    .operand_words(cmd.args())
                    .iter()
                    .map(|w| w.shown())
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
