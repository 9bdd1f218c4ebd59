//! Hermes Agent shell hooks (`pre_tool_call`, `hooks:` in `config.yaml`). hermes-agent
//! 0.19.0 reads only stdout: `{"decision": "block", "reason"}` (or `{"action": "block",
//! "message"}`) blocks; the exit code is only logged. Newer documentation also names exit 2
//! with the reason on stderr, so a block carries all three. There is no ask over this
//! protocol (the Python plugin in `integrations/hermes/` escalates to Hermes's own prompt
//! instead), so ask blocks with a reason saying a person must approve.

use serde_json::{Value, json};

use super::{
    Action, Event, HookError, Reply, Verdict, by_decision, command_of, patch, paths_of, str_field,
};

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let event = str_field(v, "hook_event_name")
        .ok_or_else(|| HookError::Malformed("the event has no hook_event_name".into()))?;
    if event != "pre_tool_call" {
        return Err(HookError::Malformed(format!(
            "unexpected hook event {event:?}; shellgate handles pre_tool_call"
        )));
    }
    let tool = str_field(v, "tool_name")
        .ok_or_else(|| HookError::Malformed("the event has no tool_name".into()))?;
    let input = v.get("tool_input");
    let action = match tool {
        "terminal" => Action::Shell {
            command: command_of(input, tool)?,
        },
        "write_file" => Action::Write {
            paths: paths_of(input, &["path"], tool)?,
        },
        // `patch` replaces text in `path` (mode `replace`) or applies a V4A multi-file
        // patch (mode `patch`); both fields are judged whatever the mode says.
        "patch" => {
            let mut paths = Vec::new();
            if let Some(p) = input.and_then(|i| str_field(i, "path")) {
                paths.push(p.to_string());
            }
            if let Some(text) = input.and_then(|i| str_field(i, "patch")) {
                paths.extend(patch::paths(text).map_err(HookError::Malformed)?);
            }
            if paths.is_empty() {
                return Err(HookError::Malformed(
                    "the patch call names no file (path, patch)".into(),
                ));
            }
            Action::Write { paths }
        }
        _ => Action::PassThrough,
    };
    Ok(Event {
        event: event.to_string(),
        tool: tool.to_string(),
        session_id: str_field(v, "session_id")
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        cwd: str_field(v, "cwd")
            .filter(|s| !s.is_empty())
            .map(str::to_string),
        action,
    })
}

fn block(reason: &str) -> Reply {
    Reply {
        stdout: json!({"decision": "block", "reason": reason}).to_string() + "\n",
        stderr: format!("{reason}\n"),
        block: true,
        ask: false,
    }
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    by_decision(
        ev,
        v,
        |r| block(&super::ask_as_deny(r, "Hermes shell")),
        block,
    )
}

pub fn refuse(_ev: Option<&Event>, reason: &str) -> Reply {
    block(reason)
}

// ---- The shellgate plugin's protocol ------------------------------------------------
//
// `integrations/hermes/` calls `shellgate hook hermes-plugin` with the same event and
// relays the answer as its `pre_tool_call` return value. Hermes's plugin directives
// (`hermes_cli/plugins.py`, `_get_pre_tool_call_directive_details`): `block` needs a
// message; `approve` escalates to Hermes's own approval prompt (fail-closed when nobody
// can answer). Allow is no output.

fn directive(action: &str, message: &str) -> Reply {
    Reply::stdout(json!({"action": action, "message": message}).to_string() + "\n")
}

pub fn plugin_answer(ev: &Event, v: &Verdict) -> Reply {
    by_decision(
        ev,
        v,
        |r| directive("approve", r),
        |r| directive("block", r),
    )
}

pub fn plugin_refuse(reason: &str) -> Reply {
    directive("block", reason)
}
