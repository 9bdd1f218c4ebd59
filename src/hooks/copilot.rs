//! GitHub Copilot CLI hooks (`preToolUse`, camelCase payload): `toolName`, and `toolArgs`
//! which arrives as a JSON *string* (an object is accepted too). A deny is
//! `{"permissionDecision": "deny", "permissionDecisionReason"}` on stdout; allow is no
//! output. Copilot documents `"ask"`, so ask stays ask.

use serde_json::{Value, json};

use super::{
    Action, Event, HookError, Reply, Verdict, by_decision, command_of, paths_of, str_field,
};

/// Copilot's shell tools.
const SHELL_TOOLS: &[&str] = &["bash", "shell", "powershell"];
/// Copilot's file-editing tools and the fields naming their file.
const FILE_TOOLS: &[(&str, &[&str])] = &[
    ("create", &["path"]),
    ("edit", &["path"]),
    ("str_replace_editor", &["path"]),
    ("write", &["path"]),
];

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let tool = str_field(v, "toolName")
        .ok_or_else(|| HookError::Malformed("the event has no toolName".into()))?;
    let args = match v.get("toolArgs") {
        Some(Value::String(s)) => Some(serde_json::from_str::<Value>(s).map_err(|e| {
            HookError::Malformed(format!("the event's toolArgs is not valid JSON ({e})"))
        })?),
        Some(Value::Null) | None => None,
        Some(o) => Some(o.clone()),
    };
    let action = if SHELL_TOOLS.contains(&tool) {
        Action::Shell {
            command: command_of(args.as_ref(), tool)?,
        }
    } else if let Some((_, keys)) = FILE_TOOLS.iter().find(|(n, _)| *n == tool) {
        Action::Write {
            paths: paths_of(args.as_ref(), keys, tool)?,
        }
    } else {
        Action::PassThrough
    };
    Ok(Event {
        event: "preToolUse".into(),
        tool: tool.to_string(),
        session_id: str_field(v, "sessionId").map(str::to_string),
        cwd: str_field(v, "cwd").map(str::to_string),
        action,
    })
}

fn decision_json(decision: &str, reason: &str) -> String {
    json!({"permissionDecision": decision, "permissionDecisionReason": reason}).to_string() + "\n"
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    by_decision(
        ev,
        v,
        |r| Reply::stdout(decision_json("ask", r)),
        |r| Reply::stdout(decision_json("deny", r)),
    )
}

/// The JSON deny; it needs no event name, so it serves unparsed input too.
pub fn refuse(_ev: Option<&Event>, reason: &str) -> Reply {
    Reply::stdout(decision_json("deny", reason))
}
