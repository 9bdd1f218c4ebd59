//! Qwen Code hooks (`PreToolUse` in `settings.json`, Claude Code's protocol): allow is exit
//! 0 with no output; ask and deny are `hookSpecificOutput.permissionDecision` with a
//! reason. Qwen turns an ask into its own approval prompt when a person can answer and
//! blocks the call otherwise. A hook that exits non-zero (other than 2), times out or
//! prints text is "non-blocking" there and the tool runs, so every refusal here is that
//! JSON deny, or exit 2 with the reason on stderr for input that did not parse.

use serde_json::Value;

use super::{
    Action, Event, HookError, command_of, joined_cwd, named_tool_event, paths_of, str_field,
};

/// Qwen's shell tool.
const SHELL_TOOL: &str = "run_shell_command";
/// Qwen's file-writing tools and the input fields naming their file.
const FILE_TOOLS: &[(&str, &[&str])] = &[
    ("write_file", &["file_path"]),
    ("edit", &["file_path"]),
    ("notebook_edit", &["notebook_path"]),
];
/// Qwen's bridge to deferred tools: `{"name": TOOL, "arguments": {...}}`.
const BRIDGE_TOOL: &str = "tool_call";

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let (event, tool) = named_tool_event(v, "PreToolUse")?;
    let mut input = v.get("tool_input").cloned();
    let mut inner = tool.to_string();
    if tool == BRIDGE_TOOL {
        // The bridge runs the tool it names: judge that call.
        let i = input.as_ref();
        inner = i
            .and_then(|i| str_field(i, "name"))
            .unwrap_or_default()
            .to_string();
        input = i.and_then(|i| i.get("arguments")).map(|a| match a {
            Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
            other => other.clone(),
        });
    }
    let action = action_of(&inner, input.as_ref())?;
    // `run_shell_command` may run in its own `directory` (absolute or workspace-relative).
    let dir = match &action {
        Action::Shell { .. } => input.as_ref().and_then(|i| str_field(i, "directory")),
        _ => None,
    };
    let cwd = joined_cwd(dir, str_field(v, "cwd"));
    Ok(Event {
        event: event.to_string(),
        tool: tool.to_string(),
        session_id: str_field(v, "session_id").map(str::to_string),
        cwd,
        action,
    })
}

fn action_of(tool: &str, input: Option<&Value>) -> Result<Action, HookError> {
    if tool == SHELL_TOOL {
        return Ok(Action::Shell {
            command: command_of(input, tool)?,
        });
    }
    match FILE_TOOLS.iter().find(|(name, _)| *name == tool) {
        Some((_, keys)) => Ok(Action::Write {
            paths: paths_of(input, keys, tool)?,
        }),
        None => Ok(Action::PassThrough),
    }
}

/// Claude Code's answers: ask and deny as `permissionDecision` JSON; a refusal is that JSON
/// deny for an event that parsed, else exit 2 with the reason on stderr (which Qwen reads
/// as the deny reason).
pub use super::claude::{answer, refuse};
