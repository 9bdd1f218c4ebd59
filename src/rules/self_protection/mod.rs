//! Self-protection rules: commands that stop or restart the agent's own harness (the
//! Hermes gateway, or the agent CLI processes themselves).

pub mod gateway_detached;
pub mod gateway_stop;
pub mod guard_loosen;
pub mod kill_harness;
pub mod launchd_stop;

use crate::model::{Command, Word};

/// Names that identify the agent harness in a process pattern or a service label.
pub const HARNESS: &[&str] = &["hermes", "gateway", "claude", "codex", "gemini", "copilot"];

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
    let t = t.trim_matches(|c: char| c == '…' || c.is_whitespace());
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
        .filter_map(|&i| args.get(i).map(|w: &Word| (i, w.text_with("…"))))
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
