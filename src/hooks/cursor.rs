//! Cursor's agent hooks (`~/.cursor/hooks.json` or `.cursor/hooks.json`, version 1):
//! `beforeShellExecution` (`{"command", "cwd", ...}`) for shell commands and `preToolUse`
//! (`{"tool_name", "tool_input"}`) for file writes. Answers are flat JSON on stdout, exit 0:
//! `{"permission": "allow"|"ask"|"deny", "user_message", "agent_message"}`. Cursor lets the
//! action run when a hook crashes, times out or prints no JSON unless the entry sets
//! `"failClosed": true` (which `shellgate install cursor` does); with it, an empty answer
//! blocks too, so allow is said explicitly. `preToolUse` does not enforce ask, so an ask
//! there is a deny. Sources and the versions they describe: docs/HOOKS.md.

use serde_json::{Value, json};

use super::{Action, Event, HookError, Reply, Verdict, command_of, paths_of, str_field};
use crate::Decision;

/// Cursor's file-writing tool types in `preToolUse` and the fields that may name the file.
const FILE_TOOLS: &[&str] = &["Write", "Delete"];
const PATH_KEYS: &[&str] = &["file_path", "path", "target_file"];

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let event = str_field(v, "hook_event_name")
        .ok_or_else(|| HookError::Malformed("the event has no hook_event_name".into()))?;
    let (tool, action, cwd) = match event {
        "beforeShellExecution" => (
            "Shell".to_string(),
            Action::Shell {
                command: command_of(Some(v), event)?,
            },
            str_field(v, "cwd"),
        ),
        "preToolUse" => {
            let tool = str_field(v, "tool_name")
                .ok_or_else(|| HookError::Malformed("the event has no tool_name".into()))?;
            let input = v.get("tool_input");
            let action = if FILE_TOOLS.contains(&tool) {
                Action::Write {
                    paths: paths_any(input, tool)?,
                }
            } else {
                Action::PassThrough
            };
            (tool.to_string(), action, str_field(v, "cwd"))
        }
        other => {
            return Err(HookError::Malformed(format!(
                "unexpected hook event {other:?}; shellgate handles beforeShellExecution and preToolUse"
            )));
        }
    };
    // Cursor sends an empty `cwd` on some events; the first workspace root stands in.
    let root = v
        .get("workspace_roots")
        .and_then(Value::as_array)
        .and_then(|r| r.first())
        .and_then(Value::as_str);
    let cwd = cwd.filter(|c| !c.is_empty()).or(root).map(str::to_string);
    Ok(Event {
        event: event.to_string(),
        tool,
        session_id: str_field(v, "conversation_id").map(str::to_string),
        cwd,
        action,
    })
}

/// The first of the path fields a write tool carries.
fn paths_any(input: Option<&Value>, tool: &str) -> Result<Vec<String>, HookError> {
    let key = PATH_KEYS
        .iter()
        .find(|k| input.and_then(|i| i.get(**k)).is_some())
        .copied()
        .unwrap_or(PATH_KEYS[0]);
    paths_of(input, &[key], tool)
}

fn permission(decision: &str, reason: &str) -> Reply {
    let v = if reason.is_empty() {
        json!({ "permission": decision })
    } else {
        json!({ "permission": decision, "user_message": reason, "agent_message": reason })
    };
    Reply::stdout(v.to_string() + "\n")
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    if matches!(ev.action, Action::PassThrough) {
        return permission("allow", "");
    }
    match v.decision {
        Decision::Allow => permission("allow", ""),
        Decision::Ask if ev.event == "beforeShellExecution" => permission("ask", &v.reason),
        Decision::Ask => permission("deny", &super::ask_as_deny(&v.reason, "Cursor preToolUse")),
        Decision::Deny => permission("deny", &v.reason),
    }
}

/// The JSON deny; it needs no parsed event.
pub fn refuse(_ev: Option<&Event>, reason: &str) -> Reply {
    permission("deny", reason)
}
