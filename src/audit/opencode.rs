//! OpenCode's storage: `~/.local/share/opencode/storage/`, one JSON file per record:
//! `session/<project>/<session>.json` (`id`, `directory`), `message/<session>/<message>.json`
//! and `part/<message>/<part>.json`. A tool part (`"type": "tool"`) names the `tool`
//! (`bash`, `write`, `edit`, `patch`), its `sessionID` and `callID`, and a `state` with
//! `status` (`completed`, `error`, ...), `input`, `output` or `error`, and `time.start` (ms).
//! A `completed` call ran; an `error` saying permission was refused or a hook blocked it
//! did not. Calls go through the Claude hook adapter under Claude's names for the same tools
//! (`Bash`, `Write`, `Edit`), whose inputs carry the same fields.
//! Read from OpenCode's storage layout; no OpenCode transcript from the end-to-end suite
//! has verified it yet (OpenCode is not among the harnesses it drives).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Call, FileCalls, Ran, Reader, action_of, excerpt, refusal};
use crate::hooks::Harness;

pub const READER: Reader = Reader {
    host: "opencode",
    harness: Harness::Claude,
    roots: &[".local/share/opencode/storage/part"],
    owns,
    read,
};

fn owns(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "json")
        && p.parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .is_some_and(|n| n == "part")
}

/// The storage root (`.../storage`) a part file lies under.
fn storage_root(part: &Path) -> Option<PathBuf> {
    Some(part.parent()?.parent()?.parent()?.to_path_buf())
}

/// The directory a session ran in, from `session/*/<session>.json`.
fn session_dir(root: &Path, session: &str) -> Option<String> {
    let projects = std::fs::read_dir(root.join("session")).ok()?;
    for p in projects.flatten() {
        let f = p.path().join(format!("{session}.json"));
        if let Ok(b) = std::fs::read(&f)
            && let Ok(v) = serde_json::from_slice::<Value>(&b)
        {
            return v
                .get("directory")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
    }
    None
}

/// Claude's name and input for an OpenCode tool call.
fn as_claude(tool: &str, input: &Value) -> Option<(&'static str, Value)> {
    let file = || {
        input
            .get("filePath")
            .or_else(|| input.get("file_path"))
            .cloned()
    };
    match tool {
        "bash" => Some(("Bash", json!({ "command": input.get("command")? }))),
        "write" => Some(("Write", json!({ "file_path": file()? }))),
        "edit" | "multiedit" => Some(("Edit", json!({ "file_path": file()? }))),
        _ => None,
    }
}

fn read(path: &Path) -> FileCalls {
    let mut out = FileCalls::default();
    let v = match std::fs::read(path)
        .map_err(|e| format!("cannot be read: {e}"))
        .and_then(|b| serde_json::from_slice::<Value>(&b).map_err(|e| format!("not JSON: {e}")))
    {
        Ok(v) => v,
        Err(e) => {
            out.malformed.push((0, e));
            return out;
        }
    };
    if v.get("type").and_then(Value::as_str) != Some("tool") {
        return out;
    }
    let tool = v.get("tool").and_then(Value::as_str).unwrap_or("");
    let state = v.get("state").unwrap_or(&Value::Null);
    let input = state.get("input").unwrap_or(&Value::Null);
    let Some((name, claude_input)) = as_claude(tool, input) else {
        return out;
    };
    let session = v
        .get("sessionID")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let dir = storage_root(path).and_then(|r| session_dir(&r, &session));
    let Some(ask) = action_of(Harness::Claude, name, &claude_input, dir.as_deref()) else {
        return out;
    };
    let text = state
        .get("output")
        .or_else(|| state.get("error"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let ran = match state.get("status").and_then(Value::as_str) {
        Some("completed") => Ran::Ran,
        Some("error") if refusal(&text) => Ran::Refused,
        _ => Ran::Unknown,
    };
    out.calls.push(Call {
        host: "opencode",
        session,
        project: dir.clone(),
        cwd: dir,
        time: state.pointer("/time/start").and_then(Value::as_i64),
        tool: tool.to_string(),
        ask,
        ran,
        result: (!text.is_empty()).then(|| excerpt(&text)),
        file: path.to_path_buf(),
        line: 0,
    });
    out
}
