//! Golden hook tests: each recorded event in `tests/hooks/<harness>/<case>.json` is fed to
//! the built binary (`shellgate hook <harness>`), and its exact stdout, stderr and exit
//! code are compared with the case's `expect`. Every mismatch is reported at once as a
//! diff. `UPDATE_GOLDEN=1` rewrites the expectations (review the diff before committing).
//!
//! The process environment is fixed (HOME=/home/user, USER=user, throwaway config and
//! state directories) so reasons are stable.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

const HARNESSES: [&str; 12] = [
    "claude",
    "codex",
    "gemini",
    "copilot",
    "hermes",
    "hermes-plugin",
    "qwen",
    "crush",
    "opencode",
    "pi",
    "amp",
    "cursor",
];

/// The binary under test: the one cargo built for this test run, or the one
/// `SHELLGATE_GOLDEN_BIN` names (`.ci/run` runs the cases against the `cargo build-static`
/// binary too, whose statically linked libc must answer exactly the same).
fn binary() -> PathBuf {
    std::env::var_os("SHELLGATE_GOLDEN_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_shellgate")))
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hooks")
}

struct Run {
    stdout: String,
    stderr: String,
    exit: i32,
}

fn run_hook(harness: &str, input: &[u8], scratch: &Path, env: &[(String, String)]) -> Run {
    let mut child = Command::new(binary())
        .args(["hook", harness])
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", "/home/user")
        .env("USER", "user")
        .env("TMPDIR", "/tmp")
        .env("XDG_CONFIG_HOME", scratch.join("config"))
        .env("XDG_STATE_HOME", scratch.join("state"))
        .env("XDG_DATA_HOME", scratch.join("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("could not run shellgate: {e}"));
    if let Some(mut si) = child.stdin.take() {
        si.write_all(input)
            .unwrap_or_else(|e| panic!("could not write the event: {e}"));
    }
    let o = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("shellgate did not finish: {e}"));
    Run {
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        exit: o.status.code().unwrap_or(-1),
    }
}

fn case_files(harness: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(cases_dir().join(harness))
        .unwrap_or_else(|e| panic!("no golden cases for {harness}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    v.sort();
    v
}

fn input_of(case: &Value) -> Vec<u8> {
    match (case.get("raw"), case.get("event")) {
        (Some(Value::String(s)), _) => s.as_bytes().to_vec(),
        (_, Some(e)) => serde_json::to_vec(e).unwrap_or_default(),
        _ => panic!("a golden case needs `event` or `raw`"),
    }
}

/// Environment variables a case's harness sets for its hook (Amp names the tool in
/// `AGENT_TOOL_NAME`).
fn env_of(case: &Value) -> Vec<(String, String)> {
    case.get("env")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

fn render(stdout: &str, stderr: &str, exit: i64) -> String {
    format!("exit: {exit}\nstdout: {stdout:?}\nstderr: {stderr:?}\n")
}

/// Every harness's output shape is checked on top of the exact text: a reply the harness
/// would misread must fail even if someone updated the golden file. Codex publishes a
/// schema; the others are checked against their documented fields (docs/HOOKS.md).
fn check_shape(harness: &str, run: &Run) -> Result<(), String> {
    // Amp's delegate protocol: exit 1 asks a person.
    if run.exit != 0 && run.exit != 2 && !(harness == "amp" && run.exit == 1) {
        return Err(format!("exit {} would fail open", run.exit));
    }
    if run.exit == 2 && run.stderr.trim().is_empty() {
        return Err("exit 2 without a reason on stderr".into());
    }
    let out = run.stdout.trim();
    if out.is_empty() {
        return Ok(());
    }
    let v: Value = serde_json::from_str(out).map_err(|e| format!("stdout is not JSON: {e}"))?;
    let keys = |o: &Value| -> Vec<String> {
        o.as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    let decision_in =
        |d: &Value, allowed: &[&str]| d.as_str().is_some_and(|s| allowed.contains(&s));
    match harness {
        "codex" => {
            let errors =
                shellgate_schema::validate("codex-pre-tool-use.command.output.schema.json", &v);
            if !errors.is_empty() {
                return Err(format!(
                    "stdout fails the Codex schema: {}",
                    errors.join("; ")
                ));
            }
            // Codex honours only a deny with a non-empty reason.
            let h = &v["hookSpecificOutput"];
            if h["permissionDecision"] != "deny"
                || h["permissionDecisionReason"]
                    .as_str()
                    .is_none_or(|r| r.trim().is_empty())
            {
                return Err(
                    "Codex output that is not a deny with a reason counts as a failed hook".into(),
                );
            }
        }
        "claude" | "qwen" => {
            let h = &v["hookSpecificOutput"];
            if keys(&v) != ["hookSpecificOutput"]
                || h["hookEventName"] != "PreToolUse"
                || !decision_in(&h["permissionDecision"], &["ask", "deny"])
                || h["permissionDecisionReason"]
                    .as_str()
                    .is_none_or(|r| r.is_empty() || r.chars().count() > 2000)
            {
                return Err(format!("not a {harness} PreToolUse decision: {v}"));
            }
        }
        "gemini" => {
            if keys(&v) != ["decision", "reason"] || v["decision"] != "deny" {
                return Err(format!("not a Gemini BeforeTool deny: {v}"));
            }
        }
        "copilot" => {
            if keys(&v) != ["permissionDecision", "permissionDecisionReason"]
                || !decision_in(&v["permissionDecision"], &["ask", "deny"])
            {
                return Err(format!("not a Copilot preToolUse decision: {v}"));
            }
        }
        "hermes" => {
            if keys(&v) != ["decision", "reason"] || v["decision"] != "block" {
                return Err(format!("not a Hermes pre_tool_call block: {v}"));
            }
        }
        "hermes-plugin" => {
            if keys(&v) != ["action", "message"]
                || !decision_in(&v["action"], &["block", "approve"])
                || v["message"].as_str().is_none_or(str::is_empty)
            {
                return Err(format!("not a Hermes plugin directive: {v}"));
            }
        }
        "crush" => {
            if keys(&v) != ["decision", "reason"] || v["decision"] != "deny" {
                return Err(format!("not a Crush PreToolUse deny: {v}"));
            }
        }
        "opencode" | "pi" => {
            let allowed: &[&str] = if harness == "pi" {
                &["allow", "ask", "deny"]
            } else {
                &["allow", "deny"]
            };
            let k = keys(&v);
            let shape_ok = if v["decision"] == "allow" {
                k == ["decision"]
            } else {
                k == ["decision", "reason"] && v["reason"].as_str().is_some_and(|r| !r.is_empty())
            };
            if !decision_in(&v["decision"], allowed) || !shape_ok {
                return Err(format!("not a {harness} plugin answer: {v}"));
            }
        }
        "amp" => return Err(format!("Amp reads no stdout, but got {v}")),
        "cursor" => {
            let k = keys(&v);
            let shape_ok = if v["permission"] == "allow" {
                k == ["permission"]
            } else {
                k == ["agent_message", "permission", "user_message"]
            };
            if !decision_in(&v["permission"], &["allow", "ask", "deny"]) || !shape_ok {
                return Err(format!("not a Cursor permission answer: {v}"));
            }
        }
        _ => return Err(format!("unknown harness {harness}")),
    }
    Ok(())
}

#[path = "support/schema.rs"]
mod shellgate_schema;

#[test]
fn every_hook_event_gets_exactly_the_recorded_reply() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let scratch = tempfile::tempdir().unwrap_or_else(|e| panic!("no temp dir: {e}"));
    let mut failures = Vec::new();
    let mut count = 0;
    for h in HARNESSES {
        for path in case_files(h) {
            count += 1;
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let mut case: Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
            let run = run_hook(h, &input_of(&case), scratch.path(), &env_of(&case));
            let name = format!(
                "{h}/{}",
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            if let Err(e) = check_shape(h, &run) {
                failures.push(format!("{name}: {e}"));
            }
            let exp = &case["expect"];
            let want = render(
                exp["stdout"].as_str().unwrap_or(""),
                exp["stderr"].as_str().unwrap_or(""),
                exp["exit"].as_i64().unwrap_or(-1),
            );
            let got = render(&run.stdout, &run.stderr, run.exit as i64);
            if want != got {
                if update {
                    case["expect"] = serde_json::json!({
                        "stdout": run.stdout, "stderr": run.stderr, "exit": run.exit
                    });
                    let mut s = serde_json::to_string_pretty(&case).unwrap_or_default();
                    s.push('\n');
                    std::fs::write(&path, s)
                        .unwrap_or_else(|e| panic!("cannot update {}: {e}", path.display()));
                } else {
                    let diff = similar::TextDiff::from_lines(&want, &got)
                        .unified_diff()
                        .header("expected", "actual")
                        .to_string();
                    failures.push(format!("{name}:\n{diff}"));
                }
            }
        }
    }
    assert!(count >= 30, "only {count} golden cases found");
    assert!(
        failures.is_empty(),
        "{} of {count} golden hook cases differ:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_harness_has_the_required_golden_events() {
    for h in HARNESSES {
        let names: Vec<String> = case_files(h)
            .iter()
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        for required in ["allow", "ask", "deny", "malformed", "non_shell"] {
            assert!(
                names.iter().any(|n| n == required),
                "{h} lacks a `{required}` case"
            );
        }
        assert!(
            names.iter().any(|n| n.contains("protected")),
            "{h} lacks a protected-path write case"
        );
    }
}

/// Run `shellgate hook HARNESS` with stdin held open, so only the hook's own deadline ends it.
fn run_until_deadline(harness: &str) -> std::process::Output {
    let mut child = Command::new(binary())
        .args(["hook", harness])
        .env("SHELLGATE_HOOK_DEADLINE_MS", "300")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("could not run shellgate: {e}"));
    let stdin = child.stdin.take();
    let o = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("shellgate did not finish: {e}"));
    drop(stdin);
    o
}

#[test]
fn a_hook_that_times_out_blocks_in_the_harness_shape() {
    // stdin is never closed: the hook must answer before the harness gives up.
    for h in ["claude", "codex", "gemini", "hermes", "qwen", "amp"] {
        let o = run_until_deadline(h);
        assert_eq!(o.status.code(), Some(2), "{h}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("no decision within 300 ms"),
            "{h}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // These denies need no event, so even a timeout answers on stdout.
    for (h, deny) in [
        ("copilot", "\"permissionDecision\":\"deny\""),
        ("crush", "\"decision\":\"deny\""),
        ("opencode", "\"decision\":\"deny\""),
        ("pi", "\"decision\":\"deny\""),
        ("cursor", "\"permission\":\"deny\""),
    ] {
        let o = run_until_deadline(h);
        assert_eq!(o.status.code(), Some(0), "{h}");
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            out.contains(deny) && out.contains("no decision within 300 ms"),
            "{h}: {out}"
        );
    }
}

#[test]
fn a_hook_with_bad_arguments_blocks_instead_of_failing_open() {
    let o = Command::new(binary())
        .args(["hook", "no-such-harness"])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("could not run shellgate: {e}"));
    assert_eq!(o.status.code(), Some(2));
}
