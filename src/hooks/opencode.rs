//! OpenCode, through shellgate's plugin (`integrations/opencode/shellgate.js`), which
//! OpenCode loads from `plugin/` in its config directory. The plugin's
//! `tool.execute.before` handler sends `{"tool", "sessionID", "callID", "args",
//! "directory"}` and throws (which stops the tool, and OpenCode reports the error to the
//! model) unless shellgate answers allow. `tool.execute.before` cannot ask, so ask arrives
//! as a deny saying a person must approve. The answer protocol is [`super::plugin`].

use serde_json::Value;

use super::{Action, Event, HookError, Reply, Verdict, command_of, patch, paths_of, str_field};

/// OpenCode's file-writing tools and the fields naming their file.
const FILE_TOOLS: &[(&str, &[&str])] = &[
    ("write", &["filePath"]),
    ("edit", &["filePath"]),
    ("multiedit", &["filePath"]),
];

pub fn parse(v: &Value) -> Result<Event, HookError> {
    let tool =
        str_field(v, "tool").ok_or_else(|| HookError::Malformed("the event has no tool".into()))?;
    let args = v.get("args");
    let action = match tool {
        "bash" => Action::Shell {
            command: command_of(args, tool)?,
        },
        // The patch tool of GPT-family models: `patchText` in Codex's patch format.
        "apply_patch" | "patch" => {
            let text = args
                .and_then(|a| str_field(a, "patchText"))
                .ok_or_else(|| HookError::Malformed(format!("the {tool} call has no patchText")))?;
            Action::Write {
                paths: patch::paths(text).map_err(HookError::Malformed)?,
            }
        }
        t => match FILE_TOOLS.iter().find(|(name, _)| *name == t) {
            Some((_, keys)) => Action::Write {
                paths: paths_of(args, keys, tool)?,
            },
            None => Action::PassThrough,
        },
    };
    let base = str_field(v, "directory");
    let workdir = match action {
        Action::Shell { .. } => args.and_then(|a| str_field(a, "workdir")),
        _ => None,
    };
    Ok(Event {
        event: "tool.execute.before".into(),
        tool: tool.to_string(),
        session_id: str_field(v, "sessionID").map(str::to_string),
        cwd: super::joined_cwd(workdir, base),
        action,
    })
}

pub fn answer(ev: &Event, v: &Verdict) -> Reply {
    super::plugin::answer(ev, v, Some("OpenCode plugin"))
}
