//! Self-protection rules: commands that stop or restart the agent's own harness (the
//! Hermes gateway, or the agent CLI processes themselves).

pub mod gateway_detached;
pub mod gateway_stop;
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

/// The operands of a `hermes` command (words that are not options), as text.
pub fn hermes_operands(cmd: &Command) -> Vec<String> {
    cmd.args()
        .iter()
        .map(|w: &Word| w.text_with("…"))
        .filter(|t| !t.starts_with('-'))
        .collect()
}
