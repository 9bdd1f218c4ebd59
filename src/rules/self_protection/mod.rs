//! Self-protection rules: commands that stop or restart the agent's own harness (the
//! Hermes gateway, or the agent CLI processes themselves), and shellgate's own commands
//! that loosen the guard or roll files back (`undo`).

pub mod gateway_detached;
pub mod gateway_stop;
pub mod guard_loosen;
pub mod kill_harness;
pub mod launchd_stop;
pub mod undo_by_agent;

use crate::model::{Command, UNKNOWN_TEXT, Word};

/// Names that identify the agent harness in a process pattern or a service label.
pub const HARNESS: &[&str] = &["hermes", "gateway", "claude", "codex", "gemini", "copilot"];

/// Command lines of running harness processes, as `pkill -f` sees them: the node-based CLIs
/// (Claude Code, Gemini CLI, Copilot CLI, Codex's launcher) and the Python Hermes gateway.
pub const HARNESS_CMDLINES: &[&str] = &[
    "node /usr/local/lib/node_modules/@anthropic-ai/claude-code/cli.js",
    "node /usr/local/bin/gemini",
    "node /usr/local/bin/copilot",
    "node /usr/local/bin/codex",
    "/usr/local/lib/node_modules/@openai/codex/bin/codex-x86_64-unknown-linux-musl",
    "/root/.hermes/venv/bin/python3 /root/.hermes/venv/bin/hermes gateway run",
    "python3 -m hermes gateway run",
];

/// Process names (`comm`) of harness processes, as `pkill` without `-f` and `killall` see
/// them: a `#!/usr/bin/env node` script runs as `node`.
pub const HARNESS_COMMS: &[&str] = &["node", "claude", "gemini", "copilot", "codex", "hermes"];

/// Windows image names of harness processes (`taskkill /IM`).
pub const HARNESS_IMAGES: &[&str] = &[
    "node.exe",
    "claude.exe",
    "codex.exe",
    "gemini.exe",
    "copilot.exe",
    "hermes.exe",
    "python.exe",
    "pythonw.exe",
];

/// The harness process a `pkill`/`killall` pattern would match, if any: the pattern is a
/// regex for `pkill` (and `killall -r`), an exact name for `killall`; `full` matches whole
/// command lines (`pkill -f node` matches every node-based harness).
pub fn harness_matched(
    pattern: &str,
    regex: bool,
    full: bool,
    exact: bool,
) -> Option<&'static str> {
    let targets: &[&str] = if full {
        HARNESS_CMDLINES
    } else {
        HARNESS_COMMS
    };
    if !regex {
        return targets.iter().copied().find(|t| *t == pattern);
    }
    let anchored = if exact {
        format!("^(?:{pattern})$")
    } else {
        pattern.to_string()
    };
    // A pattern that is not a valid regex makes pkill fail; nothing is killed.
    let re = regex::RegexBuilder::new(&anchored)
        .size_limit(1 << 20)
        .build()
        .ok()?;
    targets.iter().copied().find(|t| re.is_match(t))
}

/// A Windows image name pattern (`node.exe`, `node*`, `*.exe`) that matches a harness image.
pub fn harness_image(pattern: &str) -> Option<&'static str> {
    let p = pattern.to_ascii_lowercase();
    let re = format!(
        "^{}$",
        regex::escape(&p).replace("\\*", ".*").replace("\\?", ".")
    );
    let re = regex::Regex::new(&re).ok()?;
    HARNESS_IMAGES
        .iter()
        .copied()
        .find(|i| re.is_match(i) || re.is_match(i.trim_end_matches(".exe")))
}

/// The harness name a text mentions, if any (case-insensitive).
pub fn harness_in(text: &str) -> Option<&'static str> {
    let t = text.to_ascii_lowercase();
    HARNESS.iter().copied().find(|h| t.contains(h))
}

/// The harness a process pattern names: a built-in name it mentions, or a configured
/// harness name (`harness_processes`) it mentions or would match as a substring.
pub fn harness_named(ctx: &crate::Context, text: &str) -> Option<String> {
    if let Some(h) = harness_in(text) {
        return Some(h.to_string());
    }
    let t = text.to_lowercase();
    let t = t.trim_matches(|c: char| UNKNOWN_TEXT.contains(c) || c.is_whitespace());
    ctx.harness_names
        .iter()
        .filter(|n| !n.trim().is_empty())
        .find(|n| {
            let n = n.to_lowercase();
            t.contains(&n) || (t.chars().count() >= 2 && n.contains(t))
        })
        .cloned()
}

/// The operands of a `hermes` command from its subcommand on, as text, read by its grammar
/// (`Command::opts`). An option the grammar does not know takes no value, so when the first
/// operand directly follows an option and a known subcommand comes next, the first operand
/// was that option's value (`hermes --model x gateway stop`).
pub fn hermes_operands(cmd: &Command) -> Vec<String> {
    let args = cmd.args();
    let o = &cmd.opts;
    let ops: Vec<(usize, String)> = o
        .operands
        .iter()
        .filter_map(|&i| args.get(i).map(|w: &Word| (i, w.shown())))
        .collect();
    let after_option = |i: usize| i > 0 && o.all().any(|x| x.word == i - 1 && x.value.is_none());
    let skip = match ops.first() {
        Some((i, _)) if after_option(*i) => {
            let next_is_sub = ops.get(1).is_some_and(|(_, t)| {
                matches!(
                    t.as_str(),
                    "gateway" | "update" | "chat" | "config" | "setup" | "status"
                )
            });
            usize::from(next_is_sub)
        }
        _ => 0,
    };
    ops.into_iter().skip(skip).map(|(_, t)| t).collect()
}
