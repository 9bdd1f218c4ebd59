//! Codex CLI hooks (`PreToolUse`): only a deny is honoured. `permissionDecision: "allow"`
//! (without `updatedInput`), `"ask"` and unknown fields make Codex count the hook as failed
//! and run the command, so allow is no output at all and ask becomes a deny whose reason
//! says a person must approve the command.

use serde_json::{Value, json};

use super::{
    Action, Event, HookError, Reply, Verdict, by_decision, command_of, named_tool_event, patch,
};

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let (event, tool) = named_tool_event(v, "PreToolUse")?;
    let input = v.get("tool_input");
    let action = match tool {
        // Codex names every shell-like tool `Bash` in hook input.
        "Bash" => Action::Shell {
            command: command_of(input, tool)?,
        },
        "apply_patch" => {
            let text = patch_text(input).ok_or_else(|| {
                HookError::Malformed("the apply_patch call carries no patch text".into())
            })?;
            let paths = patch::paths(text).map_err(HookError::Malformed)?;
            Action::Write { paths }
        }
        _ => Action::PassThrough,
    };
    Ok(Event::named_as_claude(v, event, tool, action))
}

/// The patch text of an `apply_patch` call: `tool_input.command` (as Codex sends it), or a
/// plain string input.
fn patch_text(input: Option<&Value>) -> Option<&str> {
    match input? {
        Value::String(s) => Some(s),
        Value::Object(m) => ["command", "input", "patch"]
            .iter()
            .find_map(|k| m.get(*k).and_then(Value::as_str)),
        _ => None,
    }
}

fn deny_json(reason: &str) -> String {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    })
    .to_string()
        + "\n"
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    by_decision(
        ev,
        v,
        |r| Reply::stdout(deny_json(&super::ask_as_deny(r, "Codex"))),
        |r| Reply::stdout(deny_json(r)),
    )
}

/// Exit 2 with the reason on stderr is a block in Codex for any input, parsed or not.
pub fn refuse(ev: Option<&Event>, reason: &str) -> Reply {
    match ev {
        Some(_) => Reply::stdout(deny_json(reason)),
        None => Reply::blocking(reason),
    }
}
