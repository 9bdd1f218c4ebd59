//! Claude Code transcripts: `~/.claude/projects/<project>/<session>.jsonl`, one JSON object a
//! line. An `assistant` line's `message.content` holds `tool_use` blocks (`id`, `name`,
//! `input`); the `user` line that answers holds a `tool_result` with the same `tool_use_id`,
//! and Claude Code 2.x adds `permissionDecision.decision` (`accept`, `reject`) to it: a
//! `reject` (a hook's deny, a permission rule, a person) means the call did not run. Other
//! line types (attachments, queue operations, summaries, cost state) are skipped.
//! Verified against the transcripts of Claude Code 2.1.328 the end-to-end suite keeps.

use std::collections::HashMap;
use std::path::Path;

use serde_json::Value;

use super::{
    Call, FileCalls, Ran, Reader, action_of, excerpt, jsonl, parse_time, refusal, text_of,
};
use crate::hooks::Harness;

pub const READER: Reader = Reader {
    host: "claude",
    harness: Harness::Claude,
    roots: &[".claude/projects"],
    owns,
    read,
};

fn owns(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "jsonl")
        && p.parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .is_some_and(|n| n == "projects")
}

fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn read(path: &Path) -> FileCalls {
    let mut out = FileCalls::default();
    // tool_use id → index of its call in `out.calls`.
    let mut pending: HashMap<String, usize> = HashMap::new();
    let slug = path
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned());
    let file_session = path
        .file_stem()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    jsonl(path, &mut out, |line, v, out| {
        let kind = str_at(&v, "type").unwrap_or("");
        if kind != "assistant" && kind != "user" {
            return;
        }
        let Some(content) = v.pointer("/message/content").and_then(Value::as_array) else {
            return;
        };
        let cwd = str_at(&v, "cwd").map(str::to_string);
        let time = str_at(&v, "timestamp").and_then(parse_time);
        let session = str_at(&v, "sessionId").unwrap_or(&file_session).to_string();
        for block in content {
            match str_at(block, "type") {
                Some("tool_use") => {
                    let (Some(id), Some(name)) = (str_at(block, "id"), str_at(block, "name"))
                    else {
                        out.malformed
                            .push((line, "a tool_use without id or name".into()));
                        continue;
                    };
                    let input = block.get("input").cloned().unwrap_or(Value::Null);
                    let Some(ask) = action_of(Harness::Claude, name, &input, cwd.as_deref()) else {
                        continue;
                    };
                    pending.insert(id.to_string(), out.calls.len());
                    out.calls.push(Call {
                        host: "claude",
                        session: session.clone(),
                        project: cwd.clone().or_else(|| slug.clone()),
                        cwd: cwd.clone(),
                        time,
                        tool: name.to_string(),
                        ask,
                        ran: Ran::Unknown,
                        result: None,
                        file: path.to_path_buf(),
                        line,
                    });
                }
                Some("tool_result") => {
                    let Some(i) = str_at(block, "tool_use_id").and_then(|id| pending.remove(id))
                    else {
                        continue;
                    };
                    let text = text_of(block.get("content").unwrap_or(&Value::Null));
                    let rejected = v
                        .pointer("/permissionDecision/decision")
                        .and_then(Value::as_str)
                        == Some("reject");
                    let errored = block.get("is_error").and_then(Value::as_bool) == Some(true);
                    let call = &mut out.calls[i];
                    call.ran = if rejected || (errored && refusal(&text)) {
                        Ran::Refused
                    } else {
                        Ran::Ran
                    };
                    call.result = Some(excerpt(&text));
                }
                _ => {}
            }
        }
    });
    out
}
