//! `shellgate install|uninstall` for Qwen Code, Crush, Cursor, Amp (settings edits) and
//! OpenCode, Pi (plugin files), through the built binary on throwaway homes: uninstall
//! after install gives back the exact bytes (or removes the file install created), install
//! is idempotent, and `--dry-run` writes nothing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shellgate(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shellgate"))
        .args(args)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("CRUSH_GLOBAL_CONFIG")
        .env_remove("PI_CODING_AGENT_DIR")
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

fn ok(o: &Output, what: &str) {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{what}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// (harness, settings path, a file with the user's own settings, or None: no file yet)
fn fixtures(home: &Path) -> Vec<(&'static str, PathBuf, Option<&'static str>)> {
    vec![
        (
            "qwen",
            home.join(".qwen/settings.json"),
            Some(
                "{\n  \"security\": {\"auth\": {\"selectedType\": \"openai\"}},\n  \"hooks\": {\n    \"PostToolUse\": [\n      {\"matcher\": \"edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"fmt.sh\"}]}\n    ]\n  }\n}\n",
            ),
        ),
        ("qwen", home.join(".qwen/settings.json"), None),
        (
            "crush",
            home.join(".config/crush/crush.json"),
            Some(
                "{\n  \"$schema\": \"https://charm.land/crush.json\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"^bash$\", \"command\": \"./no-haskell.sh\"}\n    ]\n  }\n}\n",
            ),
        ),
        (
            "cursor",
            home.join(".cursor/hooks.json"),
            Some(
                "{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [{\"command\": \"./format.sh\"}]\n  }\n}\n",
            ),
        ),
        ("cursor", home.join(".cursor/hooks.json"), None),
        (
            "amp",
            home.join(".config/amp/settings.json"),
            Some(
                "{\n  \"amp.permissions\": [\n    {\"tool\": \"Bash\", \"matches\": {\"cmd\": \"*git push*\"}, \"action\": \"reject\"},\n    {\"tool\": \"Bash\", \"action\": \"allow\"}\n  ],\n  \"amp.notifications.enabled\": false\n}\n",
            ),
        ),
        (
            "opencode",
            home.join(".config/opencode/plugin/shellgate.js"),
            None,
        ),
        ("pi", home.join(".pi/agent/extensions/shellgate.ts"), None),
    ]
}

#[test]
fn install_then_uninstall_gives_back_the_exact_bytes_for_each_new_host() {
    let bin = binary();
    for (h, path, original) in fixtures(Path::new("/nonexistent")) {
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let home = tmp.path();
        let rel = path.strip_prefix("/nonexistent").unwrap_or(&path);
        let path = home.join(rel);
        if let Some(text) = original {
            std::fs::create_dir_all(path.parent().unwrap_or(home))
                .unwrap_or_else(|e| panic!("{e}"));
            std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
        }
        ok(&shellgate(home, &["install", h]), h);
        let installed = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{h}: {e}"));
        assert!(installed.contains(&bin), "{h} must run {bin}:\n{installed}");
        // Idempotent.
        ok(&shellgate(home, &["install", h]), h);
        assert_eq!(std::fs::read_to_string(&path).ok(), Some(installed), "{h}");
        ok(&shellgate(home, &["uninstall", h]), h);
        assert_eq!(
            std::fs::read(&path).ok(),
            original.map(|t| t.as_bytes().to_vec()),
            "{h}: uninstall must restore the file byte for byte, or remove the one it created"
        );
    }
}

#[test]
fn installed_entries_fail_closed_in_each_hosts_terms() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = tmp.path();
    let read = |p: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(home.join(p)).unwrap_or_default())
            .unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    for h in ["cursor", "amp", "crush", "qwen"] {
        ok(&shellgate(home, &["install", h]), h);
    }
    // Cursor runs a failing hook's action unless the entry says failClosed.
    let c = read(".cursor/hooks.json");
    assert_eq!(c["version"], 1);
    for ev in ["beforeShellExecution", "preToolUse"] {
        assert_eq!(c["hooks"][ev][0]["failClosed"], true, "{ev}");
        assert_eq!(c["hooks"][ev][0]["timeout"], 60, "{ev}");
    }
    // Amp delegates to the binary itself (no arguments), one rule per judged tool.
    let a = read(".config/amp/settings.json");
    let rules = a["amp.permissions"].as_array().cloned().unwrap_or_default();
    assert!(
        rules
            .iter()
            .any(|r| r["tool"] == "shell_command" && r["to"] == binary())
    );
    assert!(rules.iter().all(|r| r["action"] == "delegate"));
    let cr = read(".config/crush/crush.json");
    assert_eq!(cr["hooks"]["PreToolUse"][0]["timeout"], 60);
    assert!(
        cr["hooks"]["PreToolUse"][0]["command"]
            .as_str()
            .is_some_and(|c| c.ends_with("hook crush"))
    );
    let q = read(".qwen/settings.json");
    assert_eq!(q["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 60);
}

#[test]
fn dry_run_writes_nothing_for_each_new_host() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = tmp.path();
    for h in ["qwen", "crush", "opencode", "pi", "amp", "cursor"] {
        let o = shellgate(home, &["install", h, "--dry-run"]);
        ok(&o, h);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(out.contains("+++"), "{h}: {out}");
    }
    assert!(
        std::fs::read_dir(home).map(|d| d.count()).unwrap_or(0) == 0,
        "dry runs wrote files"
    );
}

#[test]
fn a_plugin_file_shellgate_did_not_write_is_left_alone() {
    let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let home = tmp.path();
    let path = home.join(".config/opencode/plugin/shellgate.js");
    std::fs::create_dir_all(path.parent().unwrap_or(home)).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&path, "export const Mine = async () => ({})\n")
        .unwrap_or_else(|e| panic!("{e}"));
    for verb in ["install", "uninstall"] {
        let o = shellgate(home, &[verb, "opencode"]);
        assert_eq!(o.status.code(), Some(64), "{verb}");
        assert_eq!(
            std::fs::read_to_string(&path).ok().as_deref(),
            Some("export const Mine = async () => ({})\n")
        );
    }
}
