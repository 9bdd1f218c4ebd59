//! `shellgate exec`: allow runs the command and passes its status through, deny exits 126
//! and runs nothing, and ask prompts in a real pseudo-terminal (driven by Python's `pty`),
//! where Enter and the timeout deny.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new(config: &str) -> Home {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("cfg/shellgate");
        std::fs::create_dir_all(&cfg).unwrap();
        std::fs::write(cfg.join("config.toml"), config).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        Home { dir }
    }
    fn path(&self) -> &Path {
        self.dir.path()
    }
    fn work(&self) -> PathBuf {
        self.path().join("work")
    }
    fn config(&self) -> PathBuf {
        self.path().join("cfg/shellgate/config.toml")
    }
    fn env(&self, c: &mut Command) {
        c.env("HOME", self.path())
            .env("XDG_CONFIG_HOME", self.path().join("cfg"))
            .env("XDG_STATE_HOME", self.path().join("state"))
            .env_remove("SHELLGATE_CONFIG")
            .env_remove("SHELLGATE_SESSION")
            .current_dir(self.work());
    }
    fn shellgate(&self, args: &[&str]) -> Output {
        let mut c = Command::new(env!("CARGO_BIN_EXE_shellgate"));
        c.args(args).stdin(std::process::Stdio::null());
        self.env(&mut c);
        c.output().unwrap()
    }
    /// Run `args` in a pseudo-terminal, typing `answer` at the prompt (`None`: nothing).
    fn in_pty(&self, answer: Option<&str>, args: &[&str]) -> (i32, bool, String) {
        let mut c = Command::new("python3");
        c.arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/support/pty_drive.py"
        ))
        .arg(answer.unwrap_or("NONE"))
        .args(args)
        .env("SHELLGATE_BIN", env!("CARGO_BIN_EXE_shellgate"));
        self.env(&mut c);
        let o = c.output().unwrap();
        assert!(
            o.status.success(),
            "pty driver failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (
            v["status"].as_i64().unwrap() as i32,
            v["saw_prompt"].as_bool().unwrap(),
            v["output"].as_str().unwrap().to_string(),
        )
    }
    fn log(&self) -> Vec<serde_json::Value> {
        let o = self.shellgate(&["log", "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

/// A command that needs approval and leaves a mark when it runs.
const RISKY: &str = "git reset --hard 2>/dev/null; touch ran";

#[test]
fn allowed_command_runs_and_its_exit_status_passes_through() {
    let h = Home::new("");
    let o = h.shellgate(&["exec", "--", "touch ran; exit 7"]);
    assert_eq!(o.status.code(), Some(7));
    assert!(h.work().join("ran").exists());
    let o = h.shellgate(&["exec", "--", "kill $$"]);
    assert_eq!(o.status.code(), Some(128 + 15), "killed by SIGTERM");
}

#[test]
fn denied_command_exits_126_with_the_reason_and_does_not_run() {
    let h = Home::new("deny = [\"touch *\"]\n");
    let o = h.shellgate(&["exec", "--", "touch ran"]);
    assert_eq!(o.status.code(), Some(126));
    assert!(String::from_utf8_lossy(&o.stderr).contains("deny rule `touch *`"));
    assert!(!h.work().join("ran").exists());
}

#[test]
fn without_a_terminal_ask_is_denied_as_unattended() {
    let h = Home::new("");
    let mut c = Command::new("setsid");
    c.args([env!("CARGO_BIN_EXE_shellgate"), "exec", "--", RISKY])
        .stdin(std::process::Stdio::null());
    h.env(&mut c);
    let o = c.output().unwrap();
    assert_eq!(o.status.code(), Some(126));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unattended"));
    assert!(!h.work().join("ran").exists());
    assert_eq!(h.log()[0]["decided_by"], "unattended");
}

#[test]
fn enter_at_the_prompt_denies() {
    let h = Home::new("");
    let (status, prompted, out) = h.in_pty(Some("\r"), &["exec", "--session", "t", "--", RISKY]);
    assert!(prompted, "{out}");
    assert!(out.contains("SG3301"), "the prompt explains: {out}");
    assert!(
        out.contains("[o]nce / [s]ession / [a]lways / [d]eny"),
        "{out}"
    );
    assert_eq!(status, 126, "{out}");
    assert!(!h.work().join("ran").exists());
    let log = h.log();
    assert_eq!(log.last().unwrap()["decided_by"], "person");
    assert_eq!(log.last().unwrap()["answer"], "deny");
}

#[test]
fn unanswered_prompt_expires_to_deny() {
    let h = Home::new("timeout = 1\n");
    let (status, prompted, out) = h.in_pty(None, &["exec", "--session", "t", "--", RISKY]);
    assert!(prompted, "{out}");
    assert_eq!(status, 126, "{out}");
    assert!(out.contains("no answer in 1 s"), "{out}");
    assert!(!h.work().join("ran").exists());
    assert_eq!(h.log().last().unwrap()["answer"], "timeout");
}

#[test]
fn once_runs_this_time_only() {
    let h = Home::new("");
    let (status, _, out) = h.in_pty(Some("o\r"), &["exec", "--session", "t", "--", RISKY]);
    assert_eq!(status, 0, "{out}");
    assert!(h.work().join("ran").exists());
    let log = h.log();
    assert_eq!(log.last().unwrap()["answer"], "once");
    // The next run asks again.
    let o = h.shellgate(&["check", "--session", "t", RISKY]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn session_answer_covers_the_rest_of_the_session() {
    let h = Home::new("");
    let (status, _, out) = h.in_pty(Some("s\r"), &["exec", "--session", "t", "--", RISKY]);
    assert_eq!(status, 0, "{out}");
    let o = h.shellgate(&["check", "--session", "t", RISKY]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let o = h.shellgate(&["check", "--session", "other", RISKY]);
    assert_eq!(o.status.code(), Some(1));
    // Without a terminal, the session approval still lets it run.
    std::fs::remove_file(h.work().join("ran")).unwrap();
    let o = h.shellgate(&["exec", "--session", "t", "--", RISKY]);
    assert_eq!(o.status.code(), Some(0));
    assert!(h.work().join("ran").exists());
}

#[test]
fn always_answer_lands_in_the_config_allow_list() {
    let h = Home::new("# mine\n");
    let (status, _, out) = h.in_pty(Some("a\r"), &["exec", "--session", "t", "--", RISKY]);
    assert_eq!(status, 0, "{out}");
    let cfg = std::fs::read_to_string(h.config()).unwrap();
    assert!(cfg.contains("# mine") && cfg.contains("SG3301: "), "{cfg}");
    let o = h.shellgate(&["check", RISKY]);
    assert_eq!(o.status.code(), Some(0));
}
