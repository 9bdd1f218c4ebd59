//! Gemini CLI hooks (`BeforeTool`): `{"decision": "deny", "reason"}` on stdout, exit 0.
//! There is no ask, so ask becomes deny. stdout must hold JSON only; allow is no output,
//! which leaves Gemini's own confirmation policy in charge.

use serde_json::{Value, json};

use super::{
    Action, Event, HookError, Reply, Verdict, by_decision, command_of, joined_cwd,
    named_tool_event, paths_of, str_field,
};

const FILE_TOOLS: &[(&str, &[&str])] =
    &[("write_file", &["file_path"]), ("replace", &["file_path"])];

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let (event, tool) = named_tool_event(v, "BeforeTool")?;
    let input = v.get("tool_input");
    let action = if tool == "run_shell_command" {
        Action::Shell {
            command: command_of(input, tool)?,
        }
    } else if let Some((_, keys)) = FILE_TOOLS.iter().find(|(n, _)| *n == tool) {
        Action::Write {
            paths: paths_of(input, keys, tool)?,
        }
    } else {
        Action::PassThrough
    };
    // `run_shell_command` may carry its own directory (`dir_path`) relative to the project.
    let cwd = joined_cwd(
        input.and_then(|i| str_field(i, "dir_path")),
        str_field(v, "cwd"),
    );
    Ok(Event {
        event: event.to_string(),
        tool: tool.to_string(),
        session_id: str_field(v, "session_id").map(str::to_string),
        cwd,
        action,
    })
}

/// `{"decision": "deny", "reason"}`, Crush's deny too.
pub(crate) fn deny_json(reason: &str) -> String {
    json!({"decision": "deny", "reason": reason}).to_string() + "\n"
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    by_decision(
        ev,
        v,
        |r| Reply::stdout(deny_json(&super::ask_as_deny(r, "Gemini CLI"))),
        |r| Reply::stdout(deny_json(r)),
    )
}

/// The JSON deny for an event that parsed; exit 2 with the reason on stderr otherwise
/// (Gemini's "system block").
pub fn refuse(ev: Option<&Event>, reason: &str) -> Reply {
    match ev {
        Some(_) => Reply::stdout(deny_json(reason)),
        None => Reply::blocking(reason),
    }
}
