//! Pi (`@mariozechner/pi-coding-agent`), through shellgate's extension
//! (`integrations/pi/shellgate.ts`), which Pi loads from `extensions/` in its agent
//! directory. Its `tool_call` handler sends `{"toolName", "toolCallId", "input", "cwd"}`
//! and returns `{block: true, reason}` unless shellgate answers allow; for an ask it shows
//! Pi's own confirmation when a person is there (`ctx.hasUI`) and blocks otherwise. Pi
//! itself blocks the tool when a `tool_call` handler throws. The answer protocol is
//! [`super::plugin`].

use serde_json::Value;

use super::{Action, Event, HookError, Reply, Verdict, command_of, paths_of, str_field};

/// Pi's file-writing tools; each names its file in `path`.
const FILE_TOOLS: &[&str] = &["write", "edit"];

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let tool = str_field(v, "toolName")
        .ok_or_else(|| HookError::Malformed("the event has no toolName".into()))?;
    let input = v.get("input");
    let action = if tool == "bash" {
        Action::Shell {
            command: command_of(input, tool)?,
        }
    } else if FILE_TOOLS.contains(&tool) {
        Action::Write {
            paths: paths_of(input, &["path"], tool)?,
        }
    } else {
        Action::PassThrough
    };
    Ok(Event {
        event: "tool_call".into(),
        tool: tool.to_string(),
        session_id: str_field(v, "sessionId").map(str::to_string),
        cwd: str_field(v, "cwd").map(str::to_string),
        action,
    })
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    super::plugin::answer(ev, v, None)
}
