//! Hooks apply the policy: the user's config (mode, deny globs, `write_roots`,
//! `protected_paths`) decides, every decision lands in the SQLite ledger with the event's
//! session id, and Claude Code's PostToolUse of a command shellgate asked about is
//! recorded as approved once.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::json;
use shellgate::policy::{LogQuery, SqliteStore, Store};

struct Env {
    _tmp: tempfile::TempDir,
    root: std::path::PathBuf,
}

impl Env {
    fn new() -> Env {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let root = tmp.path().to_path_buf();
        for d in ["home", "config/shellgate", "state", "work"] {
            std::fs::create_dir_all(root.join(d)).unwrap_or_else(|e| panic!("{e}"));
        }
        Env { _tmp: tmp, root }
    }

    fn config(&self, text: &str) {
        std::fs::write(self.root.join("config/shellgate/config.toml"), text)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    fn work(&self) -> String {
        self.root.join("work").to_string_lossy().into_owned()
    }

    fn hook(&self, harness: &str, event: &serde_json::Value) -> (String, i32) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shellgate"))
            .args(["hook", harness])
            .env("HOME", self.root.join("home"))
            .env("XDG_CONFIG_HOME", self.root.join("config"))
            .env("XDG_STATE_HOME", self.root.join("state"))
            .env_remove("SHELLGATE_CONFIG")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{e}"));
        if let Some(mut i) = child.stdin.take() {
            i.write_all(event.to_string().as_bytes())
                .unwrap_or_else(|e| panic!("{e}"));
        }
        let o = child.wait_with_output().unwrap_or_else(|e| panic!("{e}"));
        (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            o.status.code().unwrap_or(-1),
        )
    }

    fn ledger(&self) -> Vec<shellgate::policy::LedgerEntry> {
        let db = self.root.join("state/shellgate/state.db");
        assert!(Path::new(&db).exists(), "no ledger at {}", db.display());
        SqliteStore::new(db)
            .query(&LogQuery::default())
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

fn claude(event: &str, command: &str, cwd: &str) -> serde_json::Value {
    json!({"session_id": "sess-1", "cwd": cwd, "hook_event_name": event, "tool_name": "Bash",
           "tool_input": {"command": command}, "tool_use_id": "t1"})
}

#[test]
fn every_hook_decision_is_in_the_ledger_with_its_session() {
    let e = Env::new();
    let (out, code) = e.hook("codex", &json!({"session_id": "sess-9", "cwd": e.work(),
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}));
    assert_eq!(code, 0);
    assert!(out.contains("\"deny\""), "{out}");
    let ledger = e.ledger();
    assert_eq!(ledger.len(), 1);
    assert_eq!(ledger[0].session.as_deref(), Some("sess-9"));
    assert_eq!(ledger[0].harness.as_deref(), Some("codex"));
    assert_eq!(ledger[0].command, "rm -rf /");
}

#[test]
fn claude_post_tool_use_after_an_ask_records_an_approval_once() {
    let e = Env::new();
    let (out, _) = e.hook(
        "claude",
        &claude("PreToolUse", "git reset --hard", &e.work()),
    );
    assert!(out.contains("\"ask\""), "{out}");
    let (out, code) = e.hook(
        "claude",
        &claude("PostToolUse", "git reset --hard", &e.work()),
    );
    assert_eq!((out.as_str(), code), ("", 0));
    // A command that was allowed and ran is not an approval.
    e.hook("claude", &claude("PreToolUse", "ls", &e.work()));
    e.hook("claude", &claude("PostToolUse", "ls", &e.work()));
    let ledger = e.ledger();
    let by: Vec<(&str, &str)> = ledger
        .iter()
        .map(|l| (l.command.as_str(), l.decided_by.as_str()))
        .collect();
    assert_eq!(
        by,
        [
            ("git reset --hard", "ask"),
            ("git reset --hard", "harness"),
            ("ls", "no-findings")
        ]
    );
    assert_eq!(ledger[1].decision, shellgate::Decision::Allow);
    assert_eq!(ledger[1].answer, Some(shellgate::policy::Answer::Once));
}

#[test]
fn user_deny_globs_and_mode_apply_to_hook_events() {
    let e = Env::new();
    e.config("deny = [\"*terraform apply*\"]\nmode = \"off\"\n");
    let (out, _) = e.hook(
        "claude",
        &claude("PreToolUse", "terraform apply -auto-approve", &e.work()),
    );
    assert!(
        out.contains("\"deny\"") && out.contains("terraform apply"),
        "{out}"
    );
    // Mode off allows approve findings...
    let (out, code) = e.hook(
        "claude",
        &claude("PreToolUse", "git reset --hard", &e.work()),
    );
    assert_eq!((out.as_str(), code), ("", 0));
    // ...but never block findings.
    let (out, _) = e.hook("claude", &claude("PreToolUse", "rm -rf ~", &e.work()));
    assert!(out.contains("\"deny\""), "{out}");
}

#[test]
fn write_roots_and_protected_paths_from_the_config_confine_file_tools() {
    let e = Env::new();
    e.config(&format!(
        "write_roots = [\"{}\"]\nprotected_paths = [\"{}/secrets/*\"]\n",
        e.work(),
        e.work()
    ));
    let write = |path: String| {
        json!({"session_id": "s", "cwd": e.work(), "hook_event_name": "PreToolUse",
               "tool_name": "Write", "tool_input": {"file_path": path, "content": "x"}})
    };
    let (out, _) = e.hook("claude", &write(format!("{}/src/a.rs", e.work())));
    assert_eq!(out, "");
    let (out, _) = e.hook("claude", &write("/tmp/elsewhere.txt".into()));
    assert!(
        out.contains("\"deny\"") && out.contains("outside write_roots"),
        "{out}"
    );
    let (out, _) = e.hook("claude", &write(format!("{}/secrets/token", e.work())));
    assert!(
        out.contains("\"ask\"") && out.contains("protected_paths"),
        "{out}"
    );
}

#[test]
fn shellgate_config_and_state_are_protected_wherever_xdg_puts_them() {
    let e = Env::new();
    for f in ["config/shellgate/config.toml", "state/shellgate/state.db"] {
        let path = e.root.join(f).to_string_lossy().into_owned();
        let ev = json!({"session_id": "s", "cwd": e.work(), "hook_event_name": "PreToolUse",
                        "tool_name": "Edit", "tool_input": {"file_path": path}});
        let (out, _) = e.hook("claude", &ev);
        assert!(
            out.contains("\"ask\"") && out.contains("shellgate's own config"),
            "{f}: {out}"
        );
    }
}
