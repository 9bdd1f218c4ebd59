//! SG3101: killing the agent harness by name (`pkill hermes`, `kill $(pgrep -f gateway)`).

use crate::Span;
use crate::declare_rule;
use crate::model::opts::value_word;
use crate::model::{CmdId, Command};
use crate::rules::processes::signals::{only_informs, selector};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

use super::{harness_image, harness_matched, harness_named};

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
    /// Patterns are also matched the way `pkill` and `killall` match them against the command
    /// lines and process names of running harnesses, so a broad name that hits one asks:
    /// `pkill -f node` and `killall node` kill Claude Code, Gemini CLI and Copilot CLI (node
    /// programs), `pkill -f python` kills the Hermes gateway, `taskkill /F /IM node.exe` does
    /// the same on Windows. `pkill -f 'node server.js'` matches no harness and is allowed.
    /// Killing the harness's own process family asks too: `kill $PPID`, `kill 0` and
    /// `kill -- -$$` (the process group), `kill $(ps -o ppid= -p $$)`, `pkill -P $PPID`,
    /// `pkill -s 0`, `pkill -g 0`.
    ///
    /// ## Known limitations
    /// Process ids read from a file or variable whose name does not mention the harness are
    /// not recognised. Any pattern containing one of the names counts, so an unrelated
    /// `pkill -f api-gateway` asks too. The harness command lines matched are typical
    /// installations (`HARNESS_CMDLINES` in `self_protection/mod.rs`).
    pub struct KillHarness;
    code: "SG3101",
    name: "kill-agent-harness",
    severity: Approve,
    category: SelfProtection,
    hermes: [KILL_HARNESS = "kill hermes/gateway process (self-termination)", PGREP = "kill process via pgrep/pidof expansion (self-termination)", PGREP_BACKTICK = "kill process via backtick pgrep/pidof expansion (self-termination)"],
    programs: ["pkill", "killall", "kill", "taskkill", "taskkill.exe"],
    summary: "Kills the agent harness (hermes, gateway, claude, ...)",
    pass: ["pkill -f 'python app.py'", "kill 1234", "kill $(pgrep -f webpack)", "echo pkill hermes", "pgrep -f hermes", "killall --help", "pkill -f 'node server.js'", "pkill vite", "killall nodemon", "taskkill /F /IM chrome.exe", "kill $$", "pkill python"],
    fail: ["pkill hermes", "pkill -f 'hermes gateway'", "killall -9 claude", "kill $(pgrep -f gateway)", "kill -9 `pidof codex`", "kill $(cat ~/.hermes/gateway.pid)", "pgrep -f hermes | xargs kill", "sudo pkill -KILL -f Gemini", "pkill -f node", "killall node", "pkill -9 -f python", "pkill nod", "taskkill /F /IM node.exe", "taskkill.exe /im NODE.EXE /t", "kill $PPID", "kill -9 0", "kill -- -$$", "kill -9 $(ps -o ppid= -p $$)", "pkill -P $PPID"],
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
        if prog.starts_with("taskkill") {
            taskkill(cmd, out);
            return;
        }
        if prog != "kill" {
            if only_informs(cmd) {
                return;
            }
            let s = selector(cmd);
            let hit = s
                .patterns
                .iter()
                .find_map(|w| harness_named(cx.ctx, &w.shown()).map(|h| (h, w)));
            if let Some((h, w)) = hit {
                out.push(keyed(
                    cmd,
                    format!(
                        "{prog} {} kills the agent harness ({h}) that runs this command{}",
                        w.shown(),
                        route(cmd)
                    ),
                    KillHarness::KILL_HARNESS,
                    Some(w.span),
                ));
                return;
            }
            // A broad name that matches a running harness (`pkill -f node`).
            let regex = prog != "killall" || s.regex;
            let broad = s.patterns.iter().find_map(|w| {
                let t = w.lit()?;
                harness_matched(&t, regex, s.full, s.exact).map(|m| (m, *w))
            });
            if let Some((m, w)) = broad {
                let what = if s.full {
                    "command line"
                } else {
                    "process name"
                };
                let message = format!(
                    "{prog} {} also matches the agent harness (its {what} `{m}`), which runs this command{}",
                    w.shown(),
                    route(cmd)
                );
                out.push(keyed(cmd, message, KillHarness::KILL_HARNESS, Some(w.span)));
                return;
            }
            // `pkill -P $PPID`, `pkill -s 0`: the harness's own process family.
            if let Some((c, v)) = s.family.iter().find(|(c, v)| own_family(*c, v)) {
                out.push(Finding::on(
                    &Self::META,
                    cmd,
                    format!(
                        "{prog} -{c} {v} signals the process family of the harness that runs this command{}",
                        route(cmd)
                    ),
                ));
            }
            return;
        }
        // `kill $PPID`, `kill 0`, `kill -- -$$`, `kill -TERM -$PPID`: the harness and its
        // process group (kill's grammar reads `-$PPID` after the signal as a pid).
        let (_, pids) = crate::rules::processes::signals::kill_args(cmd);
        if let Some(w) = pids.iter().copied().find(|w| own_pid(cx, cmd, w)) {
            out.push(
                Finding::on(
                    &Self::META,
                    cmd,
                    format!(
                        "kill {} signals the harness that runs this command or its process group{}",
                        w.raw,
                        route(cmd)
                    ),
                )
                .with_span(w.span),
            );
            return;
        }
        // `kill $(pgrep hermes)`: the pid words' producers.
        for w in cmd.args() {
            for s in &w.substitutions {
                let mut ids = s.producers.clone();
                ids.extend(&s.commands);
                if let Some((h, by)) = Self::named_by(cx, &ids) {
                    let key = if w.raw.contains('`') {
                        KillHarness::PGREP_BACKTICK
                    } else {
                        KillHarness::PGREP
                    };
                    let message = format!(
                        "kill of the process ids printed by {by}, which names the agent harness ({h}){}",
                        route(cmd)
                    );
                    out.push(keyed(cmd, message, key, Some(w.span)));
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
                let message = format!(
                    "xargs kill of the process ids printed by {by}, which names the agent harness ({h}){}",
                    route(cmd)
                );
                out.push(keyed(cmd, message, KillHarness::PGREP, None));
            }
        }
    }
}

/// A finding of this rule under the Hermes key `key`, on `span` when given.
fn keyed(cmd: &Command, message: String, key: &'static str, span: Option<Span>) -> Finding {
    let mut f = Finding::on(&KillHarness::META, cmd, message);
    if let Some(span) = span {
        f = f.with_span(span);
    }
    f.hermes = vec![key];
    f
}

/// A pid word naming the harness's own family: the parent (`$PPID`), the whole process
/// group (`0`, `-$$`, `-$PPID`), or this shell's parent read from `ps` (`$(ps -o ppid= -p
/// $$)`). Nested shells count too (`bash -c 'kill $PPID'`): erring on the side of asking.
fn own_pid(cx: &Cx, _cmd: &Command, w: &crate::model::Word) -> bool {
    // `0` is a value (`''0`, `"0"` and `\0` are spelled differently but decode alike); the
    // rest are run-time variables, recognised by how they are written.
    let raw = w.raw.trim_matches('"');
    let group_or_parent = w.lit().as_deref() == Some("0")
        || matches!(
            raw,
            "$PPID" | "${PPID}" | "-$$" | "-${$}" | "-$PPID" | "-${PPID}"
        );
    group_or_parent
        || w.substitutions.iter().any(|s| {
            s.commands
                .iter()
                .filter_map(|id| cx.script.command(*id))
                .any(|c| {
                    let args = c.args();
                    c.is("ps")
                        && args
                            .iter()
                            .any(|a| a.text_with("").to_ascii_lowercase().contains("ppid"))
                        && args
                            .iter()
                            .any(|a| matches!(a.raw.trim_matches('"'), "$$" | "${$}" | "$BASHPID"))
                })
        })
}

/// `pkill -P $PPID` (the harness's other children), `-s 0`/`-g 0` (this session or group).
fn own_family(c: char, v: &str) -> bool {
    let v = v.trim_matches('"');
    match c {
        'P' => matches!(v, "$PPID" | "${PPID}"),
        'g' | 's' => matches!(v, "0" | "$$" | "${$}" | "$PPID"),
        _ => false,
    }
}

/// `taskkill /IM node.exe` (also `-im`, `//IM` from Git Bash): an image name that matches a
/// harness process.
fn taskkill(cmd: &Command, out: &mut Vec<Finding>) {
    let args = cmd.args();
    // `/IM` as taskkill's grammar reads it (`/im`, `-IM`, `//IM`; the value is the next word).
    for opt in cmd.opts.named(&["im"]) {
        let Some(image) = value_word(args, opt).and_then(|v| v.lit()) else {
            continue;
        };
        if let Some(h) = harness_image(&image) {
            let span = args.get(opt.word).map_or(cmd.span, |w| w.span);
            out.push(
                Finding::on(
                    &KillHarness::META,
                    cmd,
                    format!(
                        "taskkill /IM {image} also kills the agent harness ({h}), which runs this command{}",
                        route(cmd)
                    ),
                )
                .with_span(span),
            );
            return;
        }
    }
}
