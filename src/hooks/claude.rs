//! Claude Code hooks (`PreToolUse`, `PostToolUse`): allow is exit 0 with no output; ask and
//! deny are `hookSpecificOutput.permissionDecision` with a reason, exit 0. Any non-zero exit
//! other than 2 lets the tool run, so a refusal is either that JSON deny or exit 2.

use serde_json::{Value, json};

use super::{
    Action, Event, HookError, Reply, Verdict, by_decision, command_of, paths_of, str_field,
};

/// Claude's file-writing tools and the input fields naming their file.
const FILE_TOOLS: &[(&str, &[&str])] = &[
    ("Write", &["file_path"]),
    ("Edit", &["file_path"]),
    ("MultiEdit", &["file_path"]),
    ("NotebookEdit", &["notebook_path"]),
];

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let event = str_field(v, "hook_event_name")
        .ok_or_else(|| HookError::Malformed("the event has no hook_event_name".into()))?;
    let tool = str_field(v, "tool_name")
        .ok_or_else(|| HookError::Malformed("the event has no tool_name".into()))?;
    let input = v.get("tool_input");
    let action = match (event, tool) {
        ("PreToolUse", "Bash") => Action::Shell {
            command: command_of(input, tool)?,
        },
        ("PostToolUse", "Bash") => Action::ShellRan {
            command: command_of(input, tool)?,
        },
        ("PreToolUse", t) => match FILE_TOOLS.iter().find(|(name, _)| *name == t) {
            Some((_, keys)) => Action::Write {
                paths: paths_of(input, keys, tool)?,
            },
            None => Action::PassThrough,
        },
        ("PostToolUse", _) => Action::PassThrough,
        (other, _) => {
            return Err(HookError::Malformed(format!(
                "unexpected hook event {other:?}; shellgate handles PreToolUse and PostToolUse"
            )));
        }
    };
    Ok(Event::named_as_claude(v, event, tool, action))
}

pub(crate) fn decision_json(decision: &str, reason: &str) -> String {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": decision,
            "permissionDecisionReason": reason,
        }
    })
    .to_string()
        + "\n"
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    if ev.event != "PreToolUse" {
        return Reply::default();
    }
    by_decision(
        ev,
        v,
        |r| Reply::stdout(decision_json("ask", r)),
        |r| Reply::stdout(decision_json("deny", r)),
    )
}

/// A `PreToolUse` event that parsed gets the JSON deny; anything else gets exit 2, which
/// Claude Code treats as blocking for every event that can block.
pub fn refuse(ev: Option<&Event>, reason: &str) -> Reply {
    match ev {
        Some(e) if e.event == "PreToolUse" => Reply::stdout(decision_json("deny", reason)),
        _ => Reply::blocking(reason),
    }
}
