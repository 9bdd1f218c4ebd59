//! Checkpoints through the front ends, with the real binary, real files, real git and the
//! SQLite index: `exec` (allow, and a person's answer at a real pseudo-terminal), the hooks
//! (smart mode's allow, an ask a harness's own prompt may pass, a harness that cannot ask,
//! a file tool's overwrite), what the command left recorded after it ran, `log`,
//! `explain`, `checkpoints`, and `undo` with `--dry-run` and `--force`. The skip paths
//! (no git, no time left) never change the decision.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::json;

struct Home {
    _tmp: tempfile::TempDir,
    root: PathBuf,
}

impl Home {
    fn new(config: &str) -> Home {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().to_path_buf();
        std::fs::create_dir_all(root.join("cfg/shellgate")).unwrap();
        std::fs::create_dir_all(root.join("work")).unwrap();
        std::fs::write(root.join("cfg/shellgate/config.toml"), config).unwrap();
        Home { _tmp: tmp, root }
    }

    fn work(&self) -> PathBuf {
        self.root.join("work")
    }

    fn cmd(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("HOME", &self.root)
            .env("XDG_CONFIG_HOME", self.root.join("cfg"))
            .env("XDG_STATE_HOME", self.root.join("state"))
            .env_remove("SHELLGATE_CONFIG")
            .env_remove("SHELLGATE_SESSION")
            .env_remove("SHELLGATE_HOOK_DEADLINE_MS")
            .env_remove("SHELLGATE_GIT")
            .current_dir(self.work())
            .stdin(Stdio::null());
        c
    }

    fn shellgate(&self, args: &[&str]) -> Output {
        self.cmd(env!("CARGO_BIN_EXE_shellgate"))
            .args(args)
            .output()
            .unwrap()
    }

    fn sh(&self, script: &str) {
        let o = self.cmd("bash").arg("-c").arg(script).output().unwrap();
        assert!(
            o.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }

    fn write(&self, rel: &str, content: &str) {
        let p = self.work().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.work().join(rel)).ok()
    }

    fn hook(&self, harness: &str, event: &serde_json::Value, env: &[(&str, &str)]) -> String {
        let mut c = self.cmd(env!("CARGO_BIN_EXE_shellgate"));
        c.args(["hook", harness])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            c.env(k, v);
        }
        let mut child = c.spawn().unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(event.to_string().as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
    }

    fn bash_event(&self, when: &str, command: &str) -> serde_json::Value {
        json!({"hook_event_name": when, "tool_name": "Bash", "session_id": "s1",
               "cwd": self.work(), "tool_input": {"command": command}})
    }

    fn log(&self) -> Vec<serde_json::Value> {
        let o = self.shellgate(&["log", "--json"]);
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    fn checkpoints(&self) -> Vec<serde_json::Value> {
        let o = self.shellgate(&["checkpoints", "--json"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

#[test]
fn exec_checkpoints_an_allowed_delete_and_undo_brings_it_back() {
    let h = Home::new("allow = [\"SG2001\"]\n");
    h.write("build/out.bin", "binary");
    h.write("build/sub/x.txt", "x");
    let o = h.shellgate(&["exec", "--", "rm -rf build"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o)
            .contains("checkpoint 1 taken (build/: 2 files, 7 B): undo with `shellgate undo 1`"),
        "{}",
        text(&o)
    );
    assert!(h.read("build/out.bin").is_none());
    let log = h.log();
    assert_eq!(log.last().unwrap()["checkpoint"], 1, "{log:?}");
    let o = h.shellgate(&["log"]);
    assert!(
        text(&o).contains("checkpoint 1: undo with `shellgate undo 1`"),
        "{}",
        text(&o)
    );
    let o = h.shellgate(&["explain", "rm -rf build"]);
    assert!(
        text(&o).contains("checkpoint 1: undo with `shellgate undo 1`"),
        "{}",
        text(&o)
    );
    let o = h.shellgate(&["undo", "--dry-run"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o).contains("restore 2 files (7 B), 2 directories"),
        "{}",
        text(&o)
    );
    assert!(
        h.read("build/out.bin").is_none(),
        "a dry run restores nothing"
    );
    let o = h.shellgate(&["undo"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(h.read("build/out.bin").as_deref(), Some("binary"));
    assert_eq!(h.read("build/sub/x.txt").as_deref(), Some("x"));
    let o = h.shellgate(&["undo", "1"]);
    assert!(
        text(&o).contains("unchanged 2 files"),
        "undoing again changes nothing: {}",
        text(&o)
    );
}

#[test]
fn a_later_change_needs_force_and_the_commands_own_change_does_not() {
    let h = Home::new("allow = [\"SG5003\"]\n");
    h.write(".env", "KEY=old\n");
    let o = h.shellgate(&["exec", "--", "sed -i 's/old/new/' .env"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(h.read(".env").as_deref(), Some("KEY=new\n"));
    // What exec recorded after the command ran lets undo restore without --force.
    let o = h.shellgate(&["undo", "--dry-run"]);
    assert!(!text(&o).contains("changed since"), "{}", text(&o));
    h.write(".env", "KEY=the person's\n");
    let o = h.shellgate(&["undo"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("changed after the command ran"),
        "{}",
        text(&o)
    );
    assert_eq!(
        h.read(".env").as_deref(),
        Some("KEY=the person's\n"),
        "nothing restored"
    );
    let o = h.shellgate(&["undo", "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(h.read(".env").as_deref(), Some("KEY=old\n"));
}

#[test]
fn a_persons_answer_at_the_exec_prompt_takes_the_checkpoint_the_prompt_announced() {
    let h = Home::new("");
    h.write("dist/app.js", "js");
    let mut c = h.cmd("python3");
    c.arg(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/support/pty_drive.py"
    ))
    .arg("o\n")
    .args(["exec", "--", "rm -rf dist"])
    .env("SHELLGATE_BIN", env!("CARGO_BIN_EXE_shellgate"));
    let o = c.output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let shown = v["output"].as_str().unwrap();
    assert!(
        shown.contains("a checkpoint is taken before it runs (dist/: 1 file, 2 B)"),
        "{shown}"
    );
    assert!(shown.contains("checkpoint 1 taken"), "{shown}");
    assert!(h.read("dist/app.js").is_none());
    let o = h.shellgate(&["undo", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(h.read("dist/app.js").as_deref(), Some("js"));
}

#[test]
fn hooks_checkpoint_what_may_run_and_record_what_it_left() {
    let h = Home::new("mode = \"smart\"\n");
    h.sh("git init -q -b main . && git config user.email t@e && git config user.name t && echo a > a.txt && git add a.txt && git commit -qm a && echo dirty > a.txt");
    h.write("build/x.o", "obj");
    // Smart mode allows the delete: checkpoint first, nothing shown to Claude.
    let out = h.hook("claude", &h.bash_event("PreToolUse", "rm -rf ./build"), &[]);
    assert_eq!(out, "", "allow shows nothing");
    assert_eq!(h.checkpoints().len(), 1);
    // An ask Claude's own prompt may pass: the checkpoint is taken before answering.
    let out = h.hook(
        "claude",
        &h.bash_event("PreToolUse", "git reset --hard"),
        &[],
    );
    assert!(
        out.contains("\"ask\"")
            && out.contains(
                "checkpoint 2 taken (a.txt: 1 file, 6 B, git refs): undo with `shellgate undo 2`"
            ),
        "{out}"
    );
    // Codex cannot ask: its ask is a deny, so nothing can run and nothing is taken.
    let out = h.hook(
        "codex",
        &h.bash_event("PreToolUse", "git reset --hard"),
        &[],
    );
    assert!(!out.contains("checkpoint"), "{out}");
    assert_eq!(h.checkpoints().len(), 2);
    // The person approves in Claude; it runs; PostToolUse records what it left.
    h.sh("git reset -q --hard");
    h.hook(
        "claude",
        &h.bash_event("PostToolUse", "git reset --hard"),
        &[],
    );
    let o = h.shellgate(&["undo", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(h.read("a.txt").as_deref(), Some("dirty\n"));
    assert!(text(&o).contains("git stash apply --index"), "{}", text(&o));
}

#[test]
fn a_file_tool_overwrite_that_asks_is_checkpointed() {
    let h = Home::new("");
    h.write(".env", "SECRET=1\n");
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Write", "session_id": "s1",
                    "cwd": h.work(), "tool_input": {"file_path": ".env", "content": "SECRET=2\n"}});
    let out = h.hook("claude", &ev, &[]);
    assert!(
        out.contains("\"ask\"") && out.contains("checkpoint 1 taken (.env: 1 file, 9 B)"),
        "{out}"
    );
    h.write(".env", "SECRET=2\n");
    let o = h.shellgate(&["undo", "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(h.read(".env").as_deref(), Some("SECRET=1\n"));
}

#[test]
fn no_git_or_no_time_skips_the_checkpoint_and_says_so_but_never_changes_the_decision() {
    let h = Home::new("mode = \"smart\"\n");
    h.write("build/x.o", "obj");
    // The delete is still allowed; the ledger's reason says why nothing was taken.
    let skipped = |env: &[(&str, &str)], why: &str| {
        let out = h.hook("claude", &h.bash_event("PreToolUse", "rm -rf ./build"), env);
        assert_eq!(out, "", "still allowed");
        let last = h.log().pop().unwrap();
        assert_eq!(last["decision"], "allow");
        let reason = last["reason"].as_str().unwrap().to_string();
        assert!(reason.contains(why), "{reason}");
    };
    skipped(
        &[("SHELLGATE_GIT", "/nonexistent/git")],
        "not checkpointed: git could not be run",
    );
    // A hook deadline that leaves no time for a checkpoint (2 s are kept for the answer).
    skipped(
        &[("SHELLGATE_HOOK_DEADLINE_MS", "1500")],
        "not checkpointed",
    );
    assert!(h.checkpoints().is_empty());
    assert_eq!(h.read("build/x.o").as_deref(), Some("obj"));
}

#[test]
fn retention_keeps_the_newest_checkpoints_of_a_project() {
    let h = Home::new("allow = [\"SG2001\"]\n[checkpoints]\nkeep = 2\n");
    for i in 0..4 {
        h.write(&format!("d{i}/f"), &format!("{i}"));
        let o = h.shellgate(&["exec", "--", &format!("rm -rf d{i}")]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    }
    let ids: Vec<i64> = h
        .checkpoints()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![3, 4]);
    let o = h.shellgate(&["undo", "1"]);
    assert_eq!(o.status.code(), Some(64), "{}", text(&o));
    let o = h.shellgate(&["undo", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(h.read("d2/f").as_deref(), Some("2"));
}

#[test]
fn checkpoints_can_be_switched_off_and_inspection_takes_none() {
    let h = Home::new("allow = [\"SG2001\"]\n[checkpoints]\nenabled = false\n");
    h.write("build/x", "x");
    let o = h.shellgate(&["check", "--record", "rm -rf build"]);
    assert_eq!(o.status.code(), Some(0));
    let o = h.shellgate(&["exec", "--", "rm -rf build"]);
    assert!(
        text(&o).contains("not checkpointed: checkpoints are off in the config"),
        "{}",
        text(&o)
    );
    assert!(h.checkpoints().is_empty());
    assert!(
        Path::new(&h.root.join("state/shellgate/checkpoints"))
            .read_dir()
            .is_err()
    );
}
