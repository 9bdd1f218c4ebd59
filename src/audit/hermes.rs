//! Hermes Agent's session store: `$HERMES_HOME/state.db` (default `~/.hermes`), SQLite
//! (`hermes_state.py`). `sessions` (`id`, `source`, `started_at`) and `messages`
//! (`session_id`, `role`, `content`, `tool_calls`, `tool_call_id`, `tool_name`,
//! `timestamp` in Unix seconds). An `assistant` message's `tool_calls` is a JSON list in the
//! OpenAI shape (`id`, `function.name`, `function.arguments` as a JSON string); the `tool`
//! message with that `tool_call_id` is its result, where a block by a hook, a plugin or
//! Hermes's own approval gate says so. Calls go through the Hermes hook adapter (`terminal`,
//! `write_file`, `patch`). The store is opened read-only; a locked or foreign database is
//! reported as malformed, never fatal.
//! Verified against the store hermes-agent 0.19.0 writes in the end-to-end suite.

use std::collections::HashMap;
use std::path::Path;

use rusqlite::{Connection, OpenFlags};
use serde_json::Value;

use super::{Call, FileCalls, Ran, Reader, action_of};
use crate::hooks::Harness;

pub const READER: Reader = Reader {
    host: "hermes",
    harness: Harness::Hermes,
    roots: &[".hermes/state.db"],
    owns,
    read,
};

fn owns(p: &Path) -> bool {
    p.file_name().is_some_and(|n| n == "state.db")
}

/// One row of `messages`.
struct Row {
    id: i64,
    session: String,
    role: String,
    content: Option<String>,
    tool_calls: Option<String>,
    tool_call_id: Option<String>,
    time: Option<f64>,
}

fn rows(path: &Path) -> rusqlite::Result<Vec<Row>> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let db = Connection::open_with_flags(path, flags)?;
    db.busy_timeout(std::time::Duration::from_secs(2))?;
    let mut st = db.prepare(
        "SELECT id, session_id, role, content, tool_calls, tool_call_id, timestamp
         FROM messages ORDER BY session_id, timestamp, id",
    )?;
    let it = st.query_map([], |r| {
        Ok(Row {
            id: r.get(0)?,
            session: r.get(1)?,
            role: r.get(2)?,
            content: r.get(3)?,
            tool_calls: r.get(4)?,
            tool_call_id: r.get(5)?,
            time: r.get(6)?,
        })
    })?;
    it.collect()
}

/// The project a Hermes session ran in: Hermes's store does not record a working
/// directory, so the store's own Hermes home stands for it.
fn project(path: &Path) -> Option<String> {
    path.parent().map(|p| p.to_string_lossy().into_owned())
}

fn read(path: &Path) -> FileCalls {
    let mut out = FileCalls::default();
    let rows = match rows(path) {
        Ok(r) => r,
        Err(e) => {
            out.malformed
                .push((0, format!("not a Hermes session store: {e}")));
            return out;
        }
    };
    let project = project(path);
    let mut pending: HashMap<(String, String), usize> = HashMap::new();
    for row in rows {
        let line = usize::try_from(row.id).unwrap_or(0);
        if row.role == "tool" {
            let key = (
                row.session.clone(),
                row.tool_call_id.clone().unwrap_or_default(),
            );
            if let Some(i) = pending.remove(&key) {
                let text = row.content.clone().unwrap_or_default();
                out.calls[i].answered(&text);
            }
            continue;
        }
        let Some(raw) = row.tool_calls.as_deref().filter(|t| !t.is_empty()) else {
            continue;
        };
        let Ok(Value::Array(calls)) = serde_json::from_str::<Value>(raw) else {
            out.malformed
                .push((line, "tool_calls is not a JSON list".into()));
            continue;
        };
        for tc in calls {
            let name = tc
                .pointer("/function/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            let args = match tc.pointer("/function/arguments") {
                Some(Value::String(a)) => serde_json::from_str(a).unwrap_or(Value::Null),
                Some(v) => v.clone(),
                None => Value::Null,
            };
            let Some(ask) = action_of(Harness::Hermes, name, &args, None) else {
                continue;
            };
            if let Some(id) = tc.get("id").and_then(Value::as_str) {
                pending.insert((row.session.clone(), id.to_string()), out.calls.len());
            }
            out.calls.push(Call {
                host: "hermes",
                session: row.session.clone(),
                project: project.clone(),
                cwd: args
                    .get("workdir")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                time: row.time.map(|t| (t * 1000.0) as i64),
                tool: name.to_string(),
                ask,
                ran: Ran::Unknown,
                result: None,
                file: path.to_path_buf(),
                line,
            });
        }
    }
    out
}
