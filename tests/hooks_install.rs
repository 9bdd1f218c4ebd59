//! `shellgate install|uninstall HARNESS` through the built binary, on throwaway homes:
//! install then uninstall on a settings file with unrelated hooks gives back the exact
//! bytes; install is idempotent, keeps a backup, points at the absolute binary path;
//! `--dry-run` writes nothing; a file that does not parse is left alone.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shellgate(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shellgate"))
        .args(args)
        .env("HOME", home)
        .env_remove("HERMES_HOME")
        .current_dir(home)
        .output()
        .unwrap_or_else(|e| panic!("could not run shellgate: {e}"))
}

fn binary() -> String {
    std::fs::canonicalize(env!("CARGO_BIN_EXE_shellgate"))
        .unwrap_or_else(|e| panic!("no binary: {e}"))
        .to_string_lossy()
        .into_owned()
}

/// (harness, extra args, settings path under the home, a file with unrelated hooks)
fn fixtures(home: &Path) -> Vec<(&'static str, Vec<String>, PathBuf, &'static str)> {
    let dir = home.to_string_lossy().into_owned();
    vec![
        (
            "claude",
            vec![],
            home.join(".claude/settings.json"),
            "{\n  \"$schema\": \"https://json.schemastore.org/claude-code-settings.json\",\n  \"permissions\": {\n    \"allow\": [\"Bash(npm test:*)\"]\n  },\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Write|Edit\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"npx prettier --check\"\n          }\n        ]\n      }\n    ],\n    \"Notification\": [\n      {\n        \"hooks\": [{ \"type\": \"command\", \"command\": \"notify-send claude\" }]\n      }\n    ]\n  }\n}\n",
        ),
        (
            "codex",
            vec![],
            home.join(".codex/hooks.json"),
            "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"/usr/local/bin/audit-log\",\"timeout\":5}]}],\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"say done\"}]}]}}",
        ),
        (
            "gemini",
            vec![],
            home.join(".gemini/settings.json"),
            "{\n\t\"theme\": \"GitHub\",\n\t\"hooks\": {\n\t\t\"AfterTool\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"write_file\",\n\t\t\t\t\"hooks\": [{\"name\": \"fmt\", \"type\": \"command\", \"command\": \"fmt.sh\"}]\n\t\t\t}\n\t\t]\n\t}\n}\n",
        ),
        (
            "copilot",
            vec!["--dir".into(), dir],
            home.join(".github/hooks/shellgate.json"),
            "{\n  \"version\": 1,\n  \"hooks\": {\n    \"sessionStart\": [\n      {\"type\": \"command\", \"bash\": \"echo hi\"}\n    ]\n  }\n}\n",
        ),
        (
            "hermes",
            vec![],
            home.join(".hermes/config.yaml"),
            "model:\n  provider: openrouter\n  default: anthropic/claude-opus\nhooks:\n  post_tool_call:\n    - command: ~/.hermes/agent-hooks/log.sh\n      matcher: terminal\n# comments stay\napprovals:\n  mode: manual\n",
        ),
    ]
}

#[test]
fn install_then_uninstall_gives_back_the_exact_bytes_for_every_harness() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = tmp.path();
    let bin = binary();
    for (h, extra, path, original) in fixtures(home) {
        std::fs::create_dir_all(path.parent().unwrap_or(home)).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&path, original).unwrap_or_else(|e| panic!("{e}"));
        let mut args = vec!["install", h];
        args.extend(extra.iter().map(String::as_str));
        let o = shellgate(home, &args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{h}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let installed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            installed.contains(&bin),
            "{h}: the hook must run {bin}:\n{installed}"
        );
        assert!(
            installed.contains(&format!("hook {h}")),
            "{h}:\n{installed}"
        );
        let mut bak = path.clone().into_os_string();
        bak.push(".shellgate.bak");
        assert_eq!(
            std::fs::read_to_string(&bak).ok().as_deref(),
            Some(original),
            "{h}: the backup holds the original"
        );
        // Idempotent: a second install changes nothing.
        let o = shellgate(home, &args);
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(
            std::fs::read_to_string(&path).ok(),
            Some(installed.clone()),
            "{h}"
        );
        args[0] = "uninstall";
        let o = shellgate(home, &args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{h}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            std::fs::read(&path).ok(),
            Some(original.as_bytes().to_vec()),
            "{h}: uninstall must restore the file byte for byte"
        );
    }
}

#[test]
fn installed_settings_parse_and_carry_a_generous_timeout() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = tmp.path();
    let o = shellgate(home, &["install", "claude"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.join(".claude/settings.json")).unwrap_or_default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let pre = &v["hooks"]["PreToolUse"][0];
    assert_eq!(pre["matcher"], "Bash|Write|Edit|MultiEdit|NotebookEdit");
    assert_eq!(pre["hooks"][0]["timeout"], 60);
    assert_eq!(v["hooks"]["PostToolUse"][0]["matcher"], "Bash");
    let o = shellgate(home, &["install", "gemini"]);
    assert_eq!(o.status.code(), Some(0));
    let g: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.join(".gemini/settings.json")).unwrap_or_default(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"], 60000);
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = tmp.path();
    let o = shellgate(home, &["install", "codex", "--dry-run"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("+++") && out.contains("hook codex"), "{out}");
    assert!(!home.join(".codex/hooks.json").exists());
}

#[test]
fn a_settings_file_that_does_not_parse_is_never_overwritten() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = tmp.path();
    let path = home.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap_or(home)).unwrap_or_else(|e| panic!("{e}"));
    let broken = "{\n  // a comment\n  \"hooks\": {}\n}\n";
    std::fs::write(&path, broken).unwrap_or_else(|e| panic!("{e}"));
    for verb in ["install", "uninstall"] {
        let o = shellgate(home, &[verb, "claude"]);
        assert_eq!(o.status.code(), Some(64), "{verb}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("was not changed"));
        assert_eq!(std::fs::read_to_string(&path).ok().as_deref(), Some(broken));
    }
}

#[test]
fn copilot_needs_a_project_and_hermes_a_user_scope() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let o = shellgate(tmp.path(), &["install", "copilot", "--user"]);
    assert_eq!(o.status.code(), Some(64));
    let o = shellgate(tmp.path(), &["install", "hermes", "--project"]);
    assert_eq!(o.status.code(), Some(64));
}
