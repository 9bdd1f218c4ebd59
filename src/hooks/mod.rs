//! Harness hook adapters: read one hook event (Claude Code, Codex, Gemini CLI, Copilot CLI,
//! Hermes, Qwen Code, Crush, OpenCode, Pi, Amp, Cursor), judge the shell command or file write it carries, and answer in exactly that
//! harness's protocol — never in a shape the harness would read as "run it".
//!
//! Each adapter module has three functions: `parse` (event JSON → [`Event`]), `answer`
//! ([`Event`] + [`Verdict`] → [`Reply`]) and `refuse` (a deny for input that could not be
//! judged). The protocol notes, with sources, are in `docs/HOOKS.md`. This module never
//! prints or exits: the CLI (`shellgate hook HARNESS`) writes the [`Reply`].

pub mod amp;
pub mod claude;
pub mod codex;
pub mod copilot;
pub mod crush;
pub mod cursor;
pub mod files;
pub mod gemini;
pub mod hermes;
pub mod install;
pub mod install_amp;
pub mod install_plugin;
pub mod jsonedit;
pub mod judge;
pub mod opencode;
pub mod patch;
pub mod pi;
pub mod plugin;
pub mod qwen;

use serde_json::Value;

use crate::Decision;

pub use judge::judge;

/// The harnesses shellgate has a hook adapter for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Harness {
    Claude,
    Codex,
    Gemini,
    Copilot,
    Hermes,
    /// The shellgate plugin inside Hermes (`integrations/hermes/`): Hermes's shell-hook
    /// event in, a plugin directive (`{"action": "block"|"approve", "message"}`) out.
    HermesPlugin,
    /// Qwen Code (a Gemini CLI fork with Claude Code's hook protocol).
    Qwen,
    /// Charm's Crush (`PreToolUse` hooks in `crush.json`).
    Crush,
    /// OpenCode, through the plugin in `integrations/opencode/`.
    OpenCode,
    /// Pi (`pi-coding-agent`), through the extension in `integrations/pi/`.
    Pi,
    /// Amp, as the program an `amp.permissions` rule delegates to.
    Amp,
    /// Cursor's agent hooks (`beforeShellExecution`, `preToolUse`).
    Cursor,
}

impl Harness {
    pub const ALL: [Harness; 12] = [
        Harness::Claude,
        Harness::Codex,
        Harness::Gemini,
        Harness::Copilot,
        Harness::Hermes,
        Harness::HermesPlugin,
        Harness::Qwen,
        Harness::Crush,
        Harness::OpenCode,
        Harness::Pi,
        Harness::Amp,
        Harness::Cursor,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Harness::Claude => "claude",
            Harness::Codex => "codex",
            Harness::Gemini => "gemini",
            Harness::Copilot => "copilot",
            Harness::Hermes => "hermes",
            Harness::HermesPlugin => "hermes-plugin",
            Harness::Qwen => "qwen",
            Harness::Crush => "crush",
            Harness::OpenCode => "opencode",
            Harness::Pi => "pi",
            Harness::Amp => "amp",
            Harness::Cursor => "cursor",
        }
    }

    /// Can the harness ask a person (its own prompt) when shellgate answers ask? Codex,
    /// Gemini CLI and Hermes shell hooks cannot: their ask is a deny.
    pub fn can_ask(self) -> bool {
        matches!(
            self,
            Harness::Claude | Harness::Copilot | Harness::HermesPlugin
        )
    }

    pub fn from_name(s: &str) -> Option<Harness> {
        Harness::ALL.into_iter().find(|h| h.name() == s)
    }
}

/// What a tool call asks to do, as far as shellgate is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Run this shell command.
    Shell { command: String },
    /// Write (create, overwrite, edit, delete) these files; paths as the tool gave them.
    Write { paths: Vec<String> },
    /// A shell command has run (Claude `PostToolUse`): learn from the person's answer.
    ShellRan { command: String },
    /// A tool shellgate does not judge: let the harness go on as it would without a hook.
    PassThrough,
}

/// One parsed hook event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// The hook event name as the harness sent it (`PreToolUse`, `BeforeTool`, ...).
    pub event: String,
    pub tool: String,
    pub session_id: Option<String>,
    pub cwd: Option<String>,
    pub action: Action,
}

impl Event {
    /// An event of a harness whose input names the session `session_id` and the working
    /// directory `cwd`, as Claude Code's and Codex's do.
    pub(crate) fn named_as_claude(v: &Value, event: &str, tool: &str, action: Action) -> Event {
        Event {
            event: event.to_string(),
            tool: tool.to_string(),
            session_id: str_field(v, "session_id").map(str::to_string),
            cwd: str_field(v, "cwd").map(str::to_string),
            action,
        }
    }
}

/// shellgate's answer to one event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub decision: Decision,
    /// One line for the person and the model: what was found, and what to do.
    pub reason: String,
}

/// What the hook process must write and how it must exit. `block` means the harness's
/// blocking exit status (2 for every harness here); `ask` the exit status that asks a
/// person (1, Amp's delegate protocol only); otherwise the process exits 0.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    pub stdout: String,
    pub stderr: String,
    pub block: bool,
    pub ask: bool,
}

impl Reply {
    /// Exit 0 with `text` on stdout.
    pub fn stdout(text: String) -> Reply {
        Reply {
            stdout: text,
            ..Reply::default()
        }
    }

    /// The blocking exit status (2) with `reason` on stderr.
    pub fn blocking(reason: &str) -> Reply {
        Reply {
            stderr: format!("{reason}\n"),
            block: true,
            ..Reply::default()
        }
    }
}

/// The shape every adapter's answer shares: nothing for a tool shellgate does not judge
/// or an allowed call; otherwise the harness's reply for an ask or a deny, given the reason.
pub(crate) fn by_decision(
    ev: &Event,
    v: &Verdict,
    ask: impl FnOnce(&str) -> Reply,
    deny: impl FnOnce(&str) -> Reply,
) -> Reply {
    if matches!(ev.action, Action::PassThrough) {
        return Reply::default();
    }
    match v.decision {
        Decision::Allow => Reply::default(),
        Decision::Ask => ask(&v.reason),
        Decision::Deny => deny(&v.reason),
    }
}

/// Why an event could not be judged. Every variant ends in a deny for a shell or file call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookError {
    /// stdin was not valid UTF-8 JSON, or too large.
    Unreadable(String),
    /// The JSON parsed but lacks what the protocol promises (no command for a shell call).
    Malformed(String),
}

impl HookError {
    pub fn message(&self) -> &str {
        match self {
            HookError::Unreadable(m) | HookError::Malformed(m) => m,
        }
    }
}

/// Most bytes of hook event read from stdin. Claude caps a Bash command at far less; an
/// event past this is refused, never truncated.
pub const EVENT_LIMIT: usize = 64 << 20;

/// Longest reason sent back: Claude Code truncates `permissionDecisionReason` at 2000
/// characters; shorter keeps every harness's display readable.
pub const REASON_LIMIT: usize = 1500;

/// Parse raw stdin bytes as a JSON object.
pub fn parse_json(bytes: &[u8]) -> Result<Value, HookError> {
    if bytes.len() > EVENT_LIMIT {
        return Err(HookError::Unreadable(format!(
            "the hook event is larger than {} MiB",
            EVENT_LIMIT >> 20
        )));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        HookError::Unreadable(format!(
            "the hook event is not valid UTF-8 (first bad byte at offset {})",
            e.valid_up_to()
        ))
    })?;
    let v: Value = serde_json::from_str(text)
        .map_err(|e| HookError::Unreadable(format!("the hook event is not valid JSON ({e})")))?;
    if !v.is_object() {
        return Err(HookError::Malformed(
            "the hook event is not a JSON object".into(),
        ));
    }
    Ok(v)
}

/// The event and tool names of a harness whose input carries `hook_event_name` and
/// `tool_name` (Claude's shape), when the event is `expected`.
pub(crate) fn named_tool_event<'a>(
    v: &'a Value,
    expected: &str,
) -> Result<(&'a str, &'a str), HookError> {
    let event = str_field(v, "hook_event_name")
        .ok_or_else(|| HookError::Malformed("the event has no hook_event_name".into()))?;
    if event != expected {
        return Err(HookError::Malformed(format!(
            "unexpected hook event {event:?}; shellgate handles {expected}"
        )));
    }
    let tool = str_field(v, "tool_name")
        .ok_or_else(|| HookError::Malformed("the event has no tool_name".into()))?;
    Ok((event, tool))
}

/// The directory a command runs in: the tool's own directory argument (absolute, or
/// relative to `base`), else `base`.
pub(crate) fn joined_cwd(dir: Option<&str>, base: Option<&str>) -> Option<String> {
    match (dir.filter(|d| !d.is_empty()), base) {
        (Some(d), _) if d.starts_with('/') => Some(d.to_string()),
        (Some(d), Some(b)) => Some(format!("{}/{d}", b.trim_end_matches('/'))),
        (_, b) => b.map(str::to_string),
    }
}

/// A string field, `None` when absent or not a string.
pub(crate) fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The command string of a shell tool's input; a shell call without one is malformed.
pub(crate) fn command_of(input: Option<&Value>, tool: &str) -> Result<String, HookError> {
    match input.and_then(|i| i.get("command")) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(HookError::Malformed(format!(
            "the {tool} call's command is not a string"
        ))),
        None => Err(HookError::Malformed(format!(
            "the {tool} call has no command"
        ))),
    }
}

/// The file path fields of a file tool's input (`file_path`, `path`, ...); a file call with
/// none is malformed.
pub(crate) fn paths_of(
    input: Option<&Value>,
    keys: &[&str],
    tool: &str,
) -> Result<Vec<String>, HookError> {
    let mut out = Vec::new();
    for k in keys {
        match input.and_then(|i| i.get(*k)) {
            Some(Value::String(s)) => out.push(s.clone()),
            Some(Value::Null) | None => {}
            Some(_) => {
                return Err(HookError::Malformed(format!(
                    "the {tool} call's {k} is not a string"
                )));
            }
        }
    }
    if out.is_empty() {
        return Err(HookError::Malformed(format!(
            "the {tool} call names no file ({})",
            keys.join(", ")
        )));
    }
    Ok(out)
}

/// Parse an event for `harness`.
pub fn parse(harness: Harness, v: &Value) -> Result<Event, HookError> {
    match harness {
        Harness::Claude => claude::parse(v),
        Harness::Codex => codex::parse(v),
        Harness::Gemini => gemini::parse(v),
        Harness::Copilot => copilot::parse(v),
        Harness::Hermes | Harness::HermesPlugin => hermes::parse(v),
        Harness::Qwen => qwen::parse(v),
        Harness::Crush => crush::parse(v),
        Harness::OpenCode => opencode::parse(v),
        Harness::Pi => pi::parse(v),
        Harness::Amp => amp::parse(v),
        Harness::Cursor => cursor::parse(v),
    }
}

/// The reply for a judged event.
pub fn answer(harness: Harness, ev: &Event, verdict: &Verdict) -> Reply {
    match harness {
        Harness::Claude => claude::answer(ev, verdict),
        Harness::Codex => codex::answer(ev, verdict),
        Harness::Gemini => gemini::answer(ev, verdict),
        Harness::Copilot => copilot::answer(ev, verdict),
        Harness::Hermes => hermes::answer(ev, verdict),
        Harness::HermesPlugin => hermes::plugin_answer(ev, verdict),
        Harness::Qwen => qwen::answer(ev, verdict),
        Harness::Crush => crush::answer(ev, verdict),
        Harness::OpenCode => opencode::answer(ev, verdict),
        Harness::Pi => pi::answer(ev, verdict),
        Harness::Amp => amp::answer(ev, verdict),
        Harness::Cursor => cursor::answer(ev, verdict),
    }
}

/// A deny in the harness's own shape for what could not be judged (bad input, internal
/// error, time running out). `ev` is the event when it was parsed.
pub fn refuse(harness: Harness, ev: Option<&Event>, why: &str) -> Reply {
    let reason = clip(&format!(
        "shellgate could not judge this tool call, so it is blocked: {why}"
    ));
    match harness {
        Harness::Claude => claude::refuse(ev, &reason),
        Harness::Codex => codex::refuse(ev, &reason),
        Harness::Gemini => gemini::refuse(ev, &reason),
        Harness::Copilot => copilot::refuse(ev, &reason),
        Harness::Hermes => hermes::refuse(ev, &reason),
        Harness::HermesPlugin => hermes::plugin_refuse(&reason),
        Harness::Qwen => qwen::refuse(ev, &reason),
        Harness::Crush => crush::refuse(ev, &reason),
        Harness::OpenCode | Harness::Pi => plugin::refuse(&reason),
        Harness::Amp => amp::refuse(ev, &reason),
        Harness::Cursor => cursor::refuse(ev, &reason),
    }
}

/// The reason for an ask that a harness without an ask must turn into a deny.
pub fn ask_as_deny(reason: &str, harness: &str) -> String {
    clip(&format!(
        "{reason}. {harness} hooks cannot ask, so shellgate blocked it; a person can run it if it is intended"
    ))
}

/// Shorten a reason to [`REASON_LIMIT`] bytes on a character boundary.
pub fn clip(s: &str) -> String {
    if s.len() <= REASON_LIMIT {
        return s.to_string();
    }
    let end = s.floor_char_boundary(REASON_LIMIT);
    format!("{}…", &s[..end])
}

/// The whole hook: bytes in, reply out. Never panics: a panic anywhere below becomes a
/// refusal. `judge` decides what the event asks (the CLI passes [`judge::judge`]).
pub fn handle(harness: Harness, input: &[u8], judge: &dyn Fn(&Event) -> Option<Verdict>) -> Reply {
    let run = || -> Reply {
        let ev = match parse_json(input).and_then(|v| parse(harness, &v)) {
            Ok(ev) => ev,
            Err(e) => return refuse(harness, None, e.message()),
        };
        // Nothing to judge is an allow: most harnesses want no output for it, and those
        // that need every answer said (Cursor with `failClosed`, the plugins) get theirs.
        let v = judge(&ev).unwrap_or(Verdict {
            decision: Decision::Allow,
            reason: String::new(),
        });
        answer(harness, &ev, &v)
    };
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(r) => r,
        Err(_) => refuse(
            harness,
            None,
            "internal error in shellgate (please report it)",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_long_reasons_on_a_char_boundary() {
        let s = "é".repeat(REASON_LIMIT);
        let c = clip(&s);
        assert!(c.len() <= REASON_LIMIT + '…'.len_utf8());
        assert!(c.ends_with('…'));
    }

    #[test]
    fn refuses_non_utf8_and_non_object_input() {
        assert!(matches!(
            parse_json(b"\xff{}"),
            Err(HookError::Unreadable(_))
        ));
        assert!(matches!(parse_json(b"[1]"), Err(HookError::Malformed(_))));
        assert!(matches!(parse_json(b"{"), Err(HookError::Unreadable(_))));
    }

    #[test]
    fn a_panicking_judge_is_refused_in_each_new_hosts_terms() {
        let cases: [(Harness, &[u8]); 6] = [
            (
                Harness::Qwen,
                br#"{"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#,
            ),
            (
                Harness::Crush,
                br#"{"event":"PreToolUse","tool_name":"bash","tool_input":{"command":"ls"}}"#,
            ),
            (Harness::OpenCode, br#"{"tool":"bash","args":{"command":"ls"}}"#),
            (Harness::Pi, br#"{"toolName":"bash","input":{"command":"ls"}}"#),
            (
                Harness::Amp,
                br#"{"tool_name":"shell_command","tool_input":{"command":"ls"}}"#,
            ),
            (
                Harness::Cursor,
                br#"{"hook_event_name":"beforeShellExecution","command":"ls"}"#,
            ),
        ];
        for (h, ev) in cases {
            let r = handle(h, ev, &|_| panic!("boom"));
            let denied = r.block
                || r.stdout.contains("\"deny\"")
                || r.stdout.contains("\"decision\":\"deny\"");
            assert!(denied && !r.ask, "{}: {r:?}", h.name());
            assert!(
                format!("{}{}", r.stdout, r.stderr).contains("internal error"),
                "{}: {r:?}",
                h.name()
            );
        }
    }

    #[test]
    fn a_panicking_judge_becomes_a_blocking_refusal() {
        let ev =
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
        let r = handle(Harness::Claude, ev, &|_| panic!("boom"));
        assert!(r.block || r.stdout.contains("\"deny\""), "{r:?}");
    }
}
