//! Amp's permission delegation (`amp.permissions` rules with `"action": "delegate"` in
//! `~/.config/amp/settings.json`). Amp runs the rule's program with no arguments, the
//! tool's arguments as JSON on stdin and the tool's name in `AGENT_TOOL_NAME` (`AGENT=amp`),
//! and reads only the exit status: 0 allows, 1 asks a person, anything else rejects with
//! stderr as the message (checked against the released binary's `amp permissions test`).
//! A crash, a signal or a missing program therefore rejects. The hook reads the event as
//! `{"tool_name", "tool_input"}`; [`envelope`] builds it from what Amp sends.

use serde_json::{Value, json};

use super::{Action, Event, HookError, Reply, Verdict, command_of, patch, paths_of, str_field};
use crate::Decision;

/// Amp's shell tools and the field naming their working directory.
const SHELL_TOOLS: &[(&str, &str)] = &[
    ("Bash", "cwd"),
    ("shell_command", "workdir"),
    ("async_shell_command", "workdir"),
];
/// Amp's file-writing tools; each names its file in `path`.
const FILE_TOOLS: &[&str] = &["create_file", "edit_file", "undo_edit"];

/// The tools shellgate's delegate rules cover (`shellgate install amp`).
pub const DELEGATED_TOOLS: &[&str] = &[
    "Bash",
    "shell_command",
    "async_shell_command",
    "create_file",
    "edit_file",
    "undo_edit",
    "apply_patch",
];

/// The event for a delegated call: Amp's tool name (from `AGENT_TOOL_NAME`) around the
/// arguments it wrote to stdin. Without a name, or when stdin is not JSON, the input is
/// left as it was, and parsing reports what is wrong.
pub fn envelope(tool: Option<&str>, stdin: Vec<u8>) -> Vec<u8> {
    let Some(tool) = tool.filter(|t| !t.is_empty()) else {
        return stdin;
    };
    match serde_json::from_slice::<Value>(&stdin) {
        Ok(input) => json!({"tool_name": tool, "tool_input": input})
            .to_string()
            .into_bytes(),
        Err(_) => stdin,
    }
}

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let tool = str_field(v, "tool_name").ok_or_else(|| {
        HookError::Malformed("the event has no tool_name (AGENT_TOOL_NAME)".into())
    })?;
    let input = v.get("tool_input");
    let mut cwd = None;
    let action = if let Some((_, dir_key)) = SHELL_TOOLS.iter().find(|(n, _)| *n == tool) {
        cwd = input
            .and_then(|i| str_field(i, dir_key))
            .map(str::to_string);
        // `Bash` names its command `cmd`; the others `command`.
        let key_input = match input.and_then(|i| i.get("cmd")) {
            Some(c) => Some(json!({ "command": c })),
            None => input.cloned(),
        };
        Action::Shell {
            command: command_of(key_input.as_ref(), tool)?,
        }
    } else if FILE_TOOLS.contains(&tool) {
        Action::Write {
            paths: paths_of(input, &["path"], tool)?,
        }
    } else if tool == "apply_patch" {
        let text = input
            .and_then(|i| str_field(i, "patchText"))
            .ok_or_else(|| HookError::Malformed("the apply_patch call has no patchText".into()))?;
        Action::Write {
            paths: patch::paths(text).map_err(HookError::Malformed)?,
        }
    } else {
        Action::PassThrough
    };
    Ok(Event {
        event: "delegate".into(),
        tool: tool.to_string(),
        session_id: None,
        cwd: cwd.filter(|c| c.starts_with('/')),
        action,
    })
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    if matches!(ev.action, Action::PassThrough) {
        return Reply::default();
    }
    match v.decision {
        Decision::Allow => Reply::default(),
        Decision::Ask => Reply {
            stderr: format!("{}\n", v.reason),
            ask: true,
            ..Reply::default()
        },
        Decision::Deny => Reply::blocking(&v.reason),
    }
}

/// Exit 2 with the reason on stderr: Amp rejects on any status but 0 and 1.
pub fn refuse(_ev: Option<&Event>, reason: &str) -> Reply {
    Reply::blocking(reason)
}
