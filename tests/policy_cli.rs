//! `check`, `explain` and `check --jsonl` apply the policy (config, `--mode`, `--session`,
//! `--unattended`); `--no-config` gives the analyzer's own decision.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn run(home: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_shellgate"));
    c.args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("cfg"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env_remove("SHELLGATE_CONFIG")
        .current_dir(home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    if let Some(s) = stdin {
        child.stdin.take().unwrap().write_all(s.as_bytes()).unwrap();
    }
    drop(child.stdin.take());
    child.wait_with_output().unwrap()
}

fn home(config: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("cfg/shellgate")).unwrap();
    std::fs::write(d.path().join("cfg/shellgate/config.toml"), config).unwrap();
    d
}

#[test]
fn check_applies_the_config_and_no_config_gives_the_analyzer_decision() {
    let h = home("mode = \"off\"\ndeny = [\"npm publish*\"]\n");
    let p = h.path();
    assert_eq!(
        run(p, &["check", "git reset --hard"], None).status.code(),
        Some(0)
    );
    assert_eq!(
        run(p, &["check", "npm publish"], None).status.code(),
        Some(2)
    );
    assert_eq!(
        run(p, &["check", "--no-config", "git reset --hard"], None)
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        run(p, &["check", "--no-config", "npm publish"], None)
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        run(p, &["check", "--mode", "manual", "git reset --hard"], None)
            .status
            .code(),
        Some(1)
    );
    let o = run(p, &["check", "--json", "git reset --hard"], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["decision"], "allow");
    assert_eq!(v["decided_by"], "mode-off");
    assert_eq!(v["findings"][0]["rule"], "SG3301");
}

#[test]
fn unattended_flag_turns_ask_into_deny() {
    let h = home("");
    let o = run(
        h.path(),
        &["check", "--unattended", "git reset --hard"],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stdout).contains("unattended"));
}

#[test]
fn jsonl_batch_applies_the_policy_per_line() {
    let h = home("deny = [\"npm publish*\"]\nallow = [\"SG3301\"]\n");
    let input =
        "{\"cmd\":\"git reset --hard\"}\n{\"cmd\":\"npm publish\"}\n{\"cmd\":\"git clean -fd\"}\n";
    let decisions = |args: &[&str]| -> Vec<String> {
        let o = run(h.path(), args, Some(input));
        assert_eq!(o.status.code(), Some(0));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                v["decision"].as_str().unwrap().to_string()
            })
            .collect()
    };
    assert_eq!(
        decisions(&["check", "--jsonl", "-"]),
        ["allow", "deny", "ask"]
    );
    assert_eq!(
        decisions(&["check", "--no-config", "--jsonl", "-"]),
        ["ask", "allow", "ask"]
    );
}

#[test]
fn malformed_config_is_reported_with_file_line_and_key_and_is_strict() {
    let h = home("mode = \"off\"\nallow = [\"*\"]\nunattended = \"sometimes\"\n");
    let o = run(h.path(), &["check", "git reset --hard"], None);
    assert_eq!(o.status.code(), Some(1), "manual, no allowlist");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("config.toml:3: key `unattended`"), "{err}");
    assert!(err.contains("strictest"), "{err}");
    let o = run(
        h.path(),
        &["check", "--config", "/nonexistent/x.toml", "ls"],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/nonexistent/x.toml"));
}

#[test]
fn check_with_session_reads_approvals_and_plain_check_never_opens_the_database() {
    let h = home("");
    let p = h.path();
    assert_eq!(
        run(p, &["check", "git reset --hard"], None).status.code(),
        Some(1)
    );
    assert!(
        !p.join("state/shellgate/state.db").exists(),
        "opened lazily, only when needed"
    );
    assert_eq!(
        run(p, &["check", "--record", "git reset --hard"], None)
            .status
            .code(),
        Some(1)
    );
    assert!(p.join("state/shellgate/state.db").exists());
    let log = String::from_utf8_lossy(&run(p, &["log", "--json"], None).stdout).into_owned();
    assert_eq!(log.lines().count(), 1);
}

#[test]
fn explain_shows_the_policy_decision() {
    let h = home("allow = [\"SG3301\"]\n");
    let o = run(
        h.path(),
        &["explain", "--color", "never", "git reset --hard"],
        None,
    );
    assert_eq!(o.status.code(), Some(0));
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(
        t.contains("policy (manual mode): allowed by allow SG3301"),
        "{t}"
    );
    let o = run(h.path(), &["explain", "--json", "git reset --hard"], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["decision"], "allow");
    assert_eq!(v["policy"]["decided_by"]["kind"], "approvals");
    let o = run(
        h.path(),
        &["explain", "--no-config", "git reset --hard"],
        None,
    );
    assert_eq!(o.status.code(), Some(1));
}
