//! `shellgate audit`: what agents already ran. Readers (one per host format) turn the
//! transcripts agents leave into tool calls; each shell command and file write is judged as
//! the hook would have judged it (the policy for commands, the write guard for files), and
//! whether it ran is read from what followed it. Printing lives in `src/cli/audit.rs`.
//!
//! A host is added by writing a reader ([`Reader`]) and listing it in [`READERS`]: it says
//! which files are its own and yields [`Call`]s; judging and reporting are shared.

pub mod claude;
pub mod codex;
pub mod gemini;
pub mod hermes;
pub mod opencode;

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::hooks::files::judge_writes;
use crate::hooks::judge::HookEnv;
use crate::hooks::{Action, Event, Harness};
use crate::policy::{self, LoadedConfig, NoLedger, NullStore, Request};
use crate::{Decision, Severity};

/// What a tool call asked for, as the hook adapter of its host reads it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Ask {
    Shell { command: String },
    Write { paths: Vec<String> },
}

/// Whether a call ran, from what the transcript shows after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ran {
    /// A tool result followed that is the tool's own output.
    Ran,
    /// A tool result followed saying the call was blocked or refused (a hook, a person, a
    /// permission rule): it did not run.
    Refused,
    /// No result followed (the session ended, or the transcript was cut).
    Unknown,
}

/// One shell command or file write found in a transcript.
#[derive(Debug, Clone, Serialize)]
pub struct Call {
    /// `claude`, `codex`, `gemini`, `hermes`, `opencode`.
    pub host: &'static str,
    pub session: String,
    /// The project (working directory) the session ran in, when the transcript says.
    pub project: Option<String>,
    pub cwd: Option<String>,
    /// Milliseconds since the Unix epoch, when the transcript says.
    pub time: Option<i64>,
    pub tool: String,
    #[serde(flatten)]
    pub ask: Ask,
    pub ran: Ran,
    /// The start of the tool result, for the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Where it was read: file and line (1-based; 0 for a database row).
    pub file: PathBuf,
    pub line: usize,
}

impl Call {
    /// A tool result followed: the call ran, unless the result says it was refused.
    pub fn answered(&mut self, result: &str) {
        self.ran = if refusal(result) {
            Ran::Refused
        } else {
            Ran::Ran
        };
        self.result = Some(excerpt(result));
    }
}

/// What a reader found in one file, and what it could not read.
#[derive(Debug, Default)]
pub struct FileCalls {
    pub calls: Vec<Call>,
    /// Lines (or rows, or whole files) that are not what the format says, with why.
    pub malformed: Vec<(usize, String)>,
}

/// A host's transcript format.
pub struct Reader {
    pub host: &'static str,
    /// The harness whose hook adapter reads this host's tool calls.
    pub harness: Harness,
    /// Where the host keeps transcripts, relative to a home directory.
    pub roots: &'static [&'static str],
    /// Is this file one of this host's transcripts?
    pub owns: fn(&Path) -> bool,
    pub read: fn(&Path) -> FileCalls,
}

/// Every format `audit` reads; [`discover`] tries them in this order.
pub const READERS: &[Reader] = &[
    claude::READER,
    codex::READER,
    gemini::READER,
    hermes::READER,
    opencode::READER,
];

/// Longest tool result kept per call.
const RESULT_EXCERPT: usize = 300;

/// The start of a tool result, cut on a character boundary.
pub fn excerpt(s: &str) -> String {
    if s.len() <= RESULT_EXCERPT {
        return s.to_string();
    }
    let end = s.floor_char_boundary(RESULT_EXCERPT);
    format!("{}…", &s[..end])
}

/// Does a tool result say that a hook, a permission rule or a person stopped the call?
/// These are the texts the hosts and shellgate write in place of a tool's output.
pub fn refusal(text: &str) -> bool {
    const MARKS: &[&str] = &[
        "shellgate blocked",
        "shellgate: ",
        "shellgate could not judge",
        "blocked by hook",
        "hook blocked",
        "pretooluse:",
        "blocked by pretooluse hook",
        "tool execution blocked",
        "was blocked",
        "blocked by a hook",
        "permission to use",
        "user denied",
        "denied by the user",
        "command denied",
        "the user doesn't want to proceed",
        "operation cancelled",
        "blocked: ",
    ];
    let lower = text.to_lowercase();
    MARKS.iter().any(|m| lower.contains(m))
}

/// The action a tool call asks for, read by `harness`'s hook adapter from the tool's name
/// and input exactly as the hook would receive them. `None` for tools shellgate does not
/// judge (reads, searches, web fetches).
pub fn action_of(harness: Harness, tool: &str, input: &Value, cwd: Option<&str>) -> Option<Ask> {
    let event_name = match harness {
        Harness::Claude | Harness::Codex | Harness::Qwen | Harness::Crush | Harness::Amp => {
            "PreToolUse"
        }
        Harness::Gemini => "BeforeTool",
        Harness::Copilot => "preToolUse",
        Harness::Hermes | Harness::HermesPlugin => "pre_tool_call",
        Harness::OpenCode => "tool.execute.before",
        Harness::Pi => "tool_call",
        Harness::Cursor if tool == "Shell" => "beforeShellExecution",
        Harness::Cursor => "preToolUse",
    };
    // One object carries every adapter's field names (Crush's `event`, OpenCode's `tool` and
    // `args`, Pi's `input`, Cursor's top-level `command`).
    let ev = serde_json::json!({
        "hook_event_name": event_name,
        "event": event_name,
        "tool_name": tool,
        "toolName": tool,
        "tool": tool,
        "tool_input": input,
        "toolArgs": input.to_string(),
        "args": input,
        "input": input,
        "command": input.get("command"),
        "cwd": cwd.unwrap_or(""),
        "directory": cwd.unwrap_or(""),
        "session_id": "",
    });
    match crate::hooks::parse(harness, &ev).ok()?.action {
        Action::Shell { command } => Some(Ask::Shell { command }),
        Action::Write { paths } => Some(Ask::Write { paths }),
        Action::ShellRan { .. } | Action::PassThrough => None,
    }
}

/// Find the transcripts under `paths` (files or directories, searched recursively), each
/// with the reader that owns it. With no paths, every host's default roots under `home`.
pub fn discover(paths: &[PathBuf], home: Option<&Path>) -> Vec<(&'static Reader, PathBuf)> {
    let roots: Vec<PathBuf> = if paths.is_empty() {
        home.map(|h| {
            READERS
                .iter()
                .flat_map(|r| r.roots.iter().map(|p| h.join(p)))
                .filter(|p| p.exists())
                .collect()
        })
        .unwrap_or_default()
    } else {
        paths.to_vec()
    };
    let mut files = Vec::new();
    for root in roots {
        walk(&root, &mut files);
    }
    files.sort();
    files.dedup();
    files
        .into_iter()
        .filter_map(|f| READERS.iter().find(|r| (r.owns)(&f)).map(|r| (r, f)))
        .collect()
}

/// Every file under `p` (or `p` itself); symlinked directories are not followed.
fn walk(p: &Path, out: &mut Vec<PathBuf>) {
    let Ok(meta) = std::fs::symlink_metadata(p) else {
        return;
    };
    if meta.is_file() {
        out.push(p.to_path_buf());
        return;
    }
    if !meta.is_dir() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(p) else {
        return;
    };
    for e in entries.flatten() {
        walk(&e.path(), out);
    }
}

/// How a call was judged.
#[derive(Debug, Clone, Serialize)]
pub struct Judged {
    #[serde(flatten)]
    pub call: Call,
    pub decision: Decision,
    pub findings: Vec<JudgedFinding>,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct JudgedFinding {
    pub rule: String,
    pub name: String,
    pub severity: Severity,
    pub message: String,
    pub span: [usize; 2],
}

/// Judges calls as the hooks would: commands by the policy (config and mode, no session
/// approvals and no ledger), writes by the write guard.
pub struct Judge {
    cfg: LoadedConfig,
    env: HookEnv,
}

impl Judge {
    /// `cfg` is the policy to judge by; `home` the home the transcripts' commands ran in.
    pub fn new(cfg: LoadedConfig, home: Option<String>) -> Judge {
        let mut env = HookEnv::from_process();
        if home.is_some() {
            env.process.home = home;
            env.process.hermes_home = None;
        }
        Judge { cfg, env }
    }

    fn event(&self, c: &Call) -> Event {
        Event {
            event: "audit".into(),
            tool: c.tool.clone(),
            session_id: Some(c.session.clone()),
            cwd: c.cwd.clone(),
            action: Action::PassThrough,
        }
    }

    pub fn judge(&self, call: Call) -> Judged {
        let ev = self.event(&call);
        match &call.ask {
            Ask::Shell { command } => {
                let mut req = Request::new(command.clone(), self.env.context(&ev));
                req.harness = Some(call.host.to_string());
                let v = policy::evaluate(&req, &self.cfg, &mut NoLedger(&mut NullStore));
                let findings = v
                    .findings
                    .iter()
                    .map(|f| JudgedFinding {
                        rule: f.rule.to_string(),
                        name: f.name.to_string(),
                        severity: f.severity,
                        message: f.message.clone(),
                        span: [f.span.start, f.span.end],
                    })
                    .collect();
                Judged {
                    decision: v.decision,
                    findings,
                    reason: v.reason,
                    call,
                }
            }
            Ask::Write { paths } => {
                let v = judge_writes(paths, &self.env.write_scope(&ev, &self.cfg));
                Judged {
                    decision: v.decision,
                    findings: Vec::new(),
                    reason: v.reason,
                    call,
                }
            }
        }
    }
}

/// Everything one audit found.
#[derive(Debug, Default, Serialize)]
pub struct Audit {
    pub calls: Vec<Judged>,
    /// Transcript files read, per host.
    pub files: Vec<(String, PathBuf)>,
    /// Lines, rows or files that could not be read: (file, line, why).
    pub malformed: Vec<(PathBuf, usize, String)>,
}

impl Audit {
    /// The calls shellgate would have denied or asked about that ran anyway: the headline.
    pub fn ran_unsafe(&self) -> impl Iterator<Item = &Judged> {
        self.calls
            .iter()
            .filter(|j| j.decision != Decision::Allow && j.call.ran == Ran::Ran)
    }
}

/// Read and judge every transcript; `since` (ms since the epoch) drops older calls;
/// `progress` is told after each file (files done, files in all).
pub fn audit(
    files: &[(&'static Reader, PathBuf)],
    judge: &Judge,
    since: Option<i64>,
    progress: &mut dyn FnMut(usize, usize),
) -> Audit {
    let mut out = Audit::default();
    for (i, (reader, path)) in files.iter().enumerate() {
        let found =
            std::panic::catch_unwind(|| (reader.read)(path)).unwrap_or_else(|_| FileCalls {
                calls: Vec::new(),
                malformed: vec![(0, "internal error while reading this file".into())],
            });
        out.files.push((reader.host.to_string(), path.clone()));
        for (line, why) in found.malformed {
            out.malformed.push((path.clone(), line, why));
        }
        for call in found.calls {
            if since.is_some_and(|s| call.time.is_some_and(|t| t < s)) {
                continue;
            }
            out.calls.push(judge.judge(call));
        }
        progress(i + 1, files.len());
    }
    out.calls.sort_by(|a, b| {
        (&a.call.session, a.call.time, &a.call.file, a.call.line).cmp(&(
            &b.call.session,
            b.call.time,
            &b.call.file,
            b.call.line,
        ))
    });
    out
}

/// An RFC 3339 timestamp (`2026-12-04T18:03:12.197Z`, offsets allowed) in milliseconds
/// since the Unix epoch.
pub fn parse_time(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || (b[10] != b'T' && b[10] != b' ') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut rest = &s[19..];
    let mut ms = 0;
    if let Some(frac) = rest.strip_prefix('.') {
        let digits: String = frac.chars().take_while(|c| c.is_ascii_digit()).collect();
        let three: String = digits.chars().chain("000".chars()).take(3).collect();
        ms = three.parse::<i64>().ok()?;
        rest = &frac[digits.len()..];
    }
    let offset = match rest {
        "" | "Z" | "z" => 0,
        o if o.len() == 6 && (o.starts_with('+') || o.starts_with('-')) => {
            let sign = if o.starts_with('-') { -1 } else { 1 };
            let part = |r: std::ops::Range<usize>| o.get(r)?.parse::<i64>().ok();
            sign * (part(1..3)? * 60 + part(4..6)?) * 60_000
        }
        _ => return None,
    };
    // Days from the civil date (Howard Hinnant's algorithm).
    let y2 = if mo <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (mo + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + h * 3600 + mi * 60 + sec) * 1000 + ms - offset)
}

/// The text of a JSON value that is a string, or a list of text parts
/// (`[{"type":"text","text":...}]`), or anything else as JSON.
pub fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p {
                Value::String(s) => s.clone(),
                _ => p
                    .get("text")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .unwrap_or_else(|| p.to_string()),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Read a JSONL file line by line: `each` gets (line number, parsed value); lines that are
/// not JSON are counted as malformed, never fatal.
pub fn jsonl(path: &Path, out: &mut FileCalls, mut each: impl FnMut(usize, Value, &mut FileCalls)) {
    let text = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            out.malformed.push((0, format!("cannot be read: {e}")));
            return;
        }
    };
    for (i, raw) in text.split(|b| *b == b'\n').enumerate() {
        let line = i + 1;
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Value>(raw) {
            Ok(v) => each(line, v, out),
            Err(e) => out.malformed.push((line, format!("not JSON: {e}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rfc3339_times_with_fractions_and_offsets() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_time("1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(
            parse_time("2026-12-04T18:03:12.197Z"),
            Some(1_796_407_392_197)
        );
        assert_eq!(
            parse_time("2026-12-04T19:03:12.197+01:00"),
            Some(1_796_407_392_197)
        );
        assert_eq!(parse_time("yesterday"), None);
    }

    #[test]
    fn a_hook_refusal_is_not_a_run() {
        assert!(refusal(
            "PreToolUse:Bash hook error: shellgate blocked this command: mkfs"
        ));
        assert!(!refusal("(Bash completed with no output)"));
    }
}
