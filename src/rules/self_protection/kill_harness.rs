//! SG3101: killing the agent harness by name (`pkill hermes`, `kill $(pgrep -f gateway)`).

use crate::declare_rule;
use crate::model::{CmdId, Command};
use crate::rules::processes::signals::selector;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::harness_named;

declare_rule! {
    /// ## What it does
    /// Flags `pkill` and `killall` whose pattern names the agent harness (`hermes`,
    /// `gateway`, `claude`, `codex`, `gemini`, `copilot`, in any case and any signal), and
    /// `kill` of process ids produced at run time by a command that names it:
    /// `kill $(pgrep -f hermes)`, `` kill `pidof claude` ``, `kill $(cat ~/.hermes/gateway.pid)`,
    /// `pgrep gateway | xargs kill`.
    ///
    /// ## Why is this bad?
    /// It kills the agent that is running the command (and every other agent on the same
    /// gateway), mid-task, with no report back to the user.
    ///
    /// ## Example
    /// ```sh
    /// pkill -f hermes               # approve
    /// kill $(pgrep -f gateway)      # approve
    /// pkill -f 'python app.py'      # allowed (not the harness)
    /// ```
    ///
    /// ## Known limitations
    /// Process ids read from a file or variable whose name does not mention the harness are
    /// not recognised. Any pattern containing one of the names counts, so an unrelated
    /// `pkill -f api-gateway` asks too.
    pub struct KillHarness;
    code: "SG3101",
    name: "kill-agent-harness",
    severity: Approve,
    category: SelfProtection,
    hermes: ["kill hermes/gateway process (self-termination)", "kill process via pgrep/pidof expansion (self-termination)", "kill process via backtick pgrep/pidof expansion (self-termination)"],
    programs: ["pkill", "killall", "kill"],
    summary: "Kills the agent harness (hermes, gateway, claude, ...)",
    pass: ["pkill -f 'python app.py'", "kill 1234", "kill $(pgrep -f webpack)", "echo pkill hermes", "pgrep -f hermes", "killall --help"],
    fail: ["pkill hermes", "pkill -f 'hermes gateway'", "killall -9 claude", "kill $(pgrep -f gateway)", "kill -9 `pidof codex`", "kill $(cat ~/.hermes/gateway.pid)", "pgrep -f hermes | xargs kill", "sudo pkill -KILL -f Gemini"],
}

impl KillHarness {
    /// The harness name mentioned by one of the commands `ids` (the producers of a pid).
    fn named_by(cx: &Cx, ids: &[CmdId]) -> Option<(String, String)> {
        ids.iter()
            .filter_map(|id| cx.script.command(*id))
            .find_map(|c| {
                let text = c.arg_texts().join(" ");
                harness_named(cx.ctx, &text).map(|h| (h, c.name.clone().unwrap_or_default()))
            })
    }
}

impl Rule for KillHarness {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let prog = cmd.name.as_deref().unwrap_or("kill");
        if prog != "kill" {
            let texts = cmd.arg_texts();
            if texts.iter().any(|t| {
                matches!(
                    t.as_str(),
                    "--help" | "-h" | "-V" | "--version" | "-l" | "--list"
                )
            }) {
                return;
            }
            let s = selector(cmd);
            let hit = s
                .patterns
                .iter()
                .find_map(|w| harness_named(cx.ctx, &w.text_with("…")).map(|h| (h, w)));
            if let Some((h, w)) = hit {
                let mut f = Finding::on(
                    &Self::META,
                    cmd,
                    format!(
                        "{prog} {} kills the agent harness ({h}) that runs this command{}",
                        w.text_with("…"),
                        route(cmd)
                    ),
                )
                .with_span(w.span);
                f.hermes = vec!["kill hermes/gateway process (self-termination)"];
                out.push(f);
            }
            return;
        }
        // `kill $(pgrep hermes)`: the pid words' producers.
        for w in cmd.args() {
            for s in &w.substitutions {
                let mut ids = s.producers.clone();
                ids.extend(&s.commands);
                if let Some((h, by)) = Self::named_by(cx, &ids) {
                    let key = if w.raw.contains('`') {
                        "kill process via backtick pgrep/pidof expansion (self-termination)"
                    } else {
                        "kill process via pgrep/pidof expansion (self-termination)"
                    };
                    let mut f = Finding::on(
                        &Self::META,
                        cmd,
                        format!("kill of the process ids printed by {by}, which names the agent harness ({h}){}", route(cmd)),
                    )
                    .with_span(w.span);
                    f.hermes = vec![key];
                    out.push(f);
                    return;
                }
            }
        }
        // `pgrep hermes | xargs kill`: the stage before xargs.
        let upstream = cmd.pipe.filter(|p| p.stage > 0 && cmd.has_wrapper("xargs"));
        if let Some(p) = upstream {
            let prev = cx
                .script
                .pipelines
                .get(p.pipeline)
                .and_then(|pl| pl.stages.get(p.stage - 1))
                .map(|st| st.tails.clone())
                .unwrap_or_default();
            if let Some((h, by)) = Self::named_by(cx, &prev) {
                let mut f = Finding::on(
                    &Self::META,
                    cmd,
                    format!(
                        "xargs kill of the process ids printed by {by}, which names the agent harness ({h}){}",
                        route(cmd)
                    ),
                );
                f.hermes = vec!["kill process via pgrep/pidof expansion (self-termination)"];
                out.push(f);
            }
        }
    }
}
