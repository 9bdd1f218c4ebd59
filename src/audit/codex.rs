//! Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, one
//! `{"timestamp", "type", "payload"}` a line. `session_meta` names the session (`id`) and
//! its `cwd`; `turn_context` may move the `cwd`. Tool calls are `response_item`s:
//! `function_call` (`name`, `arguments` as a JSON string, `call_id`) for the shell tools
//! (`shell` with an argv list, `shell_command` with a string, `exec_command` with `cmd`),
//! `local_shell_call` (`action.command` argv), and `custom_tool_call`/`function_call`
//! `apply_patch` (the patch text). Their results are `function_call_output` or
//! `custom_tool_call_output` with the same `call_id`; a hook's deny or a refused approval
//! arrives there as text saying so. Each call goes through the Codex hook adapter as
//! `Bash` or `apply_patch`, as Codex itself names them in hook input.
//! Verified against the rollouts of Codex 0.171.0 the end-to-end suite keeps.

use std::collections::HashMap;
use std::path::Path;

use serde_json::{Value, json};

use super::{Call, FileCalls, Ran, Reader, action_of, jsonl, parse_time, text_of};
use crate::hooks::Harness;

pub const READER: Reader = Reader {
    host: "codex",
    harness: Harness::Codex,
    roots: &[".codex/sessions"],
    owns,
    read,
};

fn owns(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.starts_with("rollout-") && name.ends_with(".jsonl")
}

/// A command given as an argv: `bash -lc CODE` is CODE; anything else is the argv quoted
/// for bash, so the analysis sees the words Codex ran.
fn argv_command(argv: &[Value]) -> Option<String> {
    let words: Vec<&str> = argv.iter().map(Value::as_str).collect::<Option<_>>()?;
    if let [sh, flag, code] = words.as_slice()
        && matches!(
            *sh,
            "bash" | "sh" | "zsh" | "/bin/bash" | "/bin/sh" | "/bin/zsh"
        )
        && matches!(*flag, "-c" | "-lc" | "-lic" | "-ic")
    {
        return Some((*code).to_string());
    }
    Some(shell_words::join(words))
}

/// The hook tool name and input a Codex tool call stands for, and its working directory.
fn as_hook_call(name: &str, args: &Value) -> Option<(&'static str, Value, Option<String>)> {
    let workdir = args
        .get("workdir")
        .and_then(Value::as_str)
        .map(str::to_string);
    match name {
        "apply_patch" => {
            let patch = match args {
                Value::String(s) => s.clone(),
                _ => args
                    .get("input")
                    .or_else(|| args.get("patch"))
                    .map(text_of)?,
            };
            Some(("apply_patch", json!({ "command": patch }), workdir))
        }
        _ => {
            let command = match args.get("command").or_else(|| args.get("cmd"))? {
                Value::String(s) => s.clone(),
                Value::Array(argv) => argv_command(argv)?,
                _ => return None,
            };
            Some(("Bash", json!({ "command": command }), workdir))
        }
    }
}

/// Is this function the shell or the patch tool (other tools are not judged)?
fn judged(name: &str) -> bool {
    matches!(
        name,
        "shell"
            | "shell_command"
            | "exec_command"
            | "container.exec"
            | "local_shell"
            | "apply_patch"
    )
}

/// State carried along a rollout.
struct Session {
    id: String,
    cwd: Option<String>,
    pending: HashMap<String, usize>,
}

fn item(
    s: &mut Session,
    line: usize,
    time: Option<i64>,
    p: &Value,
    path: &Path,
    out: &mut FileCalls,
) {
    let kind = p.get("type").and_then(Value::as_str).unwrap_or("");
    let call_id = p
        .get("call_id")
        .or_else(|| p.get("id"))
        .and_then(Value::as_str);
    let call = match kind {
        "function_call" | "custom_tool_call" => {
            let Some(name) = p.get("name").and_then(Value::as_str) else {
                out.malformed
                    .push((line, format!("a {kind} without a name")));
                return;
            };
            if !judged(name) {
                return;
            }
            let args = match (p.get("arguments"), p.get("input")) {
                (Some(Value::String(a)), _) => {
                    serde_json::from_str(a).unwrap_or(Value::String(a.clone()))
                }
                (_, Some(i)) => i.clone(),
                (Some(a), _) => a.clone(),
                _ => Value::Null,
            };
            as_hook_call(name, &args)
        }
        "local_shell_call" => p
            .pointer("/action/command")
            .and_then(Value::as_array)
            .and_then(|argv| argv_command(argv))
            .map(|c| {
                let wd = p
                    .pointer("/action/working_directory")
                    .and_then(Value::as_str);
                ("Bash", json!({ "command": c }), wd.map(str::to_string))
            }),
        "function_call_output" | "custom_tool_call_output" => {
            let Some(i) = call_id.and_then(|id| s.pending.remove(id)) else {
                return;
            };
            let output = p.get("output").unwrap_or(&Value::Null);
            let text = match output {
                Value::Object(_) => output
                    .get("content")
                    .map(text_of)
                    .unwrap_or_else(|| output.to_string()),
                other => text_of(other),
            };
            out.calls[i].answered(&text);
            return;
        }
        _ => return,
    };
    let Some((tool, input, workdir)) = call else {
        out.malformed
            .push((line, format!("a {kind} whose arguments could not be read")));
        return;
    };
    let cwd = workdir.or_else(|| s.cwd.clone());
    let Some(ask) = action_of(Harness::Codex, tool, &input, cwd.as_deref()) else {
        return;
    };
    if let Some(id) = call_id {
        s.pending.insert(id.to_string(), out.calls.len());
    }
    out.calls.push(Call {
        host: "codex",
        session: s.id.clone(),
        project: s.cwd.clone(),
        cwd,
        time,
        tool: tool.to_string(),
        ask,
        ran: Ran::Unknown,
        result: None,
        file: path.to_path_buf(),
        line,
    });
}

fn read(path: &Path) -> FileCalls {
    let mut out = FileCalls::default();
    let mut s = Session {
        id: path
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        cwd: None,
        pending: HashMap::new(),
    };
    jsonl(path, &mut out, |line, v, out| {
        let time = v
            .get("timestamp")
            .and_then(Value::as_str)
            .and_then(parse_time);
        let p = v.get("payload").unwrap_or(&Value::Null);
        match v.get("type").and_then(Value::as_str) {
            Some("session_meta") => {
                if let Some(id) = p.get("id").and_then(Value::as_str) {
                    s.id = id.to_string();
                }
                s.cwd = p
                    .get("cwd")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .or(s.cwd.take());
            }
            Some("turn_context") => {
                if let Some(c) = p.get("cwd").and_then(Value::as_str) {
                    s.cwd = Some(c.to_string());
                }
            }
            Some("response_item") => item(&mut s, line, time, p, path, out),
            _ => {}
        }
    });
    out
}
