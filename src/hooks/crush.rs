//! Charm Crush hooks (`PreToolUse` in `crush.json`; `internal/hooks/` of
//! charmbracelet/crush). The event is `{"event", "session_id", "cwd", "tool_name",
//! "tool_input"}`. A deny is `{"decision": "deny", "reason"}` on stdout with exit 0. Crush
//! has no ask for hooks (no decision leaves its own permission prompt in charge, which
//! `--yolo` and `crush run` skip), so ask becomes a deny whose reason says a person must
//! approve. Crush lets the tool run when a hook exits with anything but 0 or 2, prints
//! JSON it cannot read, or outlives its timeout; the JSON deny needs no parsed event, so
//! every refusal is that deny.

use serde_json::Value;

use super::gemini::deny_json;
use super::{
    Action, Event, HookError, Reply, Verdict, by_decision, command_of, joined_cwd, paths_of,
    str_field,
};

/// Crush's file-writing tools; each names its file in `file_path`.
const FILE_TOOLS: &[&str] = &["edit", "multiedit", "write", "download"];

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let event = str_field(v, "event")
        .or_else(|| str_field(v, "hook_event_name"))
        .ok_or_else(|| HookError::Malformed("the event has no event name".into()))?;
    // Crush accepts any spelling of the event name in its config (`pre_tool_use`, ...),
    // but always sends `PreToolUse`.
    if !event.replace('_', "").eq_ignore_ascii_case("pretooluse") {
        return Err(HookError::Malformed(format!(
            "unexpected hook event {event:?}; shellgate handles PreToolUse"
        )));
    }
    let tool = str_field(v, "tool_name")
        .ok_or_else(|| HookError::Malformed("the event has no tool_name".into()))?;
    let input = v.get("tool_input");
    let action = if tool == "bash" {
        Action::Shell {
            command: command_of(input, tool)?,
        }
    } else if FILE_TOOLS.contains(&tool) {
        Action::Write {
            paths: paths_of(input, &["file_path"], tool)?,
        }
    } else {
        Action::PassThrough
    };
    let cwd = joined_cwd(
        input.and_then(|i| str_field(i, "working_dir")),
        str_field(v, "cwd"),
    );
    Ok(Event {
        event: "PreToolUse".into(),
        tool: tool.to_string(),
        session_id: str_field(v, "session_id")
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        cwd,
        action,
    })
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    by_decision(
        ev,
        v,
        |r| Reply::stdout(deny_json(&super::ask_as_deny(r, "Crush"))),
        |r| Reply::stdout(deny_json(r)),
    )
}

/// The JSON deny; it needs no parsed event.
pub fn refuse(_ev: Option<&Event>, reason: &str) -> Reply {
    Reply::stdout(deny_json(reason))
}
