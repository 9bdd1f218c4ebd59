//! Gemini CLI's saved chats: `~/.gemini/tmp/<project>/chats/session-*.jsonl` (0.61: a header
//! line with `sessionId`, then message records, a record written again whole when it
//! changes, and `{"$set": ...}` updates) or `session-*.json` (older releases: one object
//! with `sessionId` and `messages`). A `gemini` message's `toolCalls` hold `name`, `args`,
//! `status` (`success`, `error`, `cancelled`) and `result` (function responses). A call
//! whose response is an error saying it was blocked (a hook's `Tool execution blocked`) or
//! that was cancelled did not run. The project directory is in `<project>/.project_root`.
//! The `logs/` next to `chats/` hold only the user's prompts: nothing to judge there.
//! Verified against the chats of Gemini CLI 0.61.0 the end-to-end suite keeps.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::{Call, FileCalls, Ran, Reader, action_of, excerpt, jsonl, parse_time, refusal};
use crate::hooks::Harness;

pub const READER: Reader = Reader {
    host: "gemini",
    harness: Harness::Gemini,
    roots: &[".gemini/tmp"],
    owns,
    read,
};

fn owns(p: &Path) -> bool {
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.starts_with("session-")
        && (name.ends_with(".json") || name.ends_with(".jsonl"))
        && p.parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == "chats")
}

/// The project directory Gemini recorded for this chat's project folder.
fn project_root(path: &Path) -> Option<String> {
    let dir = path.parent()?.parent()?;
    let root = std::fs::read_to_string(dir.join(".project_root")).ok()?;
    Some(root.trim().to_string()).filter(|r| !r.is_empty())
}

/// The messages of a chat, in order, each with the line it was last written on.
fn messages(path: &Path, out: &mut FileCalls) -> (Option<String>, Vec<(usize, Value)>) {
    let json = path.extension().is_some_and(|e| e == "json");
    if json {
        let parsed = std::fs::read(path)
            .map_err(|e| format!("cannot be read: {e}"))
            .and_then(|b| {
                serde_json::from_slice::<Value>(&b).map_err(|e| format!("not JSON: {e}"))
            });
        return match parsed {
            Ok(v) => {
                let session = v
                    .get("sessionId")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                let msgs = v
                    .get("messages")
                    .and_then(Value::as_array)
                    .cloned()
                    .unwrap_or_default();
                (session, msgs.into_iter().map(|m| (0, m)).collect())
            }
            Err(e) => {
                out.malformed.push((0, e));
                (None, Vec::new())
            }
        };
    }
    let mut session = None;
    let mut order: Vec<String> = Vec::new();
    let mut by_id: HashMap<String, (usize, Value)> = HashMap::new();
    jsonl(path, out, |line, v, _| {
        if v.get("$set").is_some() {
            return;
        }
        if session.is_none() {
            session = v
                .get("sessionId")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
        let Some(id) = v.get("id").and_then(Value::as_str).map(str::to_string) else {
            return;
        };
        if !by_id.contains_key(&id) {
            order.push(id.clone());
        }
        by_id.insert(id, (line, v));
    });
    let msgs = order
        .into_iter()
        .filter_map(|id| by_id.remove(&id))
        .collect();
    (session, msgs)
}

/// What the calls' responses say: their text, and whether they say it was blocked.
fn response_text(call: &Value) -> String {
    let mut parts = Vec::new();
    for r in call
        .get("result")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(resp) = r.pointer("/functionResponse/response") {
            for k in ["error", "output"] {
                if let Some(s) = resp.get(k).and_then(Value::as_str) {
                    parts.push(s.to_string());
                }
            }
        }
    }
    if parts.is_empty()
        && let Some(s) = call.get("resultDisplay").and_then(Value::as_str)
    {
        parts.push(s.to_string());
    }
    parts.join("\n")
}

fn read(path: &Path) -> FileCalls {
    let mut out = FileCalls::default();
    let (session, msgs) = messages(path, &mut out);
    let session = session.unwrap_or_else(|| {
        path.file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let project = project_root(path);
    for (line, m) in msgs {
        for tc in m
            .get("toolCalls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let Some(name) = tc.get("name").and_then(Value::as_str) else {
                out.malformed
                    .push((line, "a tool call without a name".into()));
                continue;
            };
            let args = tc.get("args").cloned().unwrap_or(Value::Null);
            let Some(ask) = action_of(Harness::Gemini, name, &args, project.as_deref()) else {
                continue;
            };
            let text = response_text(tc);
            let ran = match tc.get("status").and_then(Value::as_str) {
                Some("success") => Ran::Ran,
                Some("cancelled") => Ran::Refused,
                Some("error") if refusal(&text) => Ran::Refused,
                _ => Ran::Unknown,
            };
            let time = tc
                .get("timestamp")
                .or_else(|| m.get("timestamp"))
                .and_then(Value::as_str)
                .and_then(parse_time);
            out.calls.push(Call {
                host: "gemini",
                session: session.clone(),
                project: project.clone(),
                cwd: project.clone(),
                time,
                tool: name.to_string(),
                ask,
                ran,
                result: (!text.is_empty()).then(|| excerpt(&text)),
                file: path.to_path_buf(),
                line,
            });
        }
    }
    out
}
