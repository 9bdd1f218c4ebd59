//! `shellgate install|uninstall HARNESS`: where each harness keeps its hook settings, and
//! the text edit that adds or removes shellgate's entry. Edits keep every other byte of the
//! file (see [`super::jsonedit`]), so uninstall after install gives the original file back.
//! A file that does not parse is refused, never overwritten. Reading, writing and backups
//! are the CLI's job.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::Harness;
use super::install_amp as amp_rules;
use super::install_plugin as plugin_file;
use super::jsonedit::{self, Kind, Node};

/// The hook timeout written into every harness's settings, in seconds: three times the
/// hook's own deadline (`shellgate hook` answers deny after 20 s), so the harness never
/// times the hook out first (a harness timeout lets the tool run in most of them).
pub const HOOK_TIMEOUT_SECS: u64 = 60;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The user's own settings (`~/.claude/settings.json`, ...).
    User,
    /// The project's settings, in the project directory.
    Project,
}

/// The settings file `install` edits for this harness and scope.
pub fn settings_path(
    harness: Harness,
    scope: Scope,
    home: Option<&Path>,
    project: &Path,
    hermes_home: Option<&Path>,
) -> Result<PathBuf, String> {
    let home_dir = || {
        home.map(Path::to_path_buf)
            .ok_or_else(|| "HOME is not set; pass --project or set HOME".to_string())
    };
    Ok(match (harness, scope) {
        (Harness::Claude, Scope::User) => home_dir()?.join(".claude/settings.json"),
        (Harness::Claude, Scope::Project) => project.join(".claude/settings.json"),
        (Harness::Codex, Scope::User) => home_dir()?.join(".codex/hooks.json"),
        (Harness::Codex, Scope::Project) => project.join(".codex/hooks.json"),
        (Harness::Gemini, Scope::User) => home_dir()?.join(".gemini/settings.json"),
        (Harness::Gemini, Scope::Project) => project.join(".gemini/settings.json"),
        (Harness::Copilot, Scope::Project) => project.join(".github/hooks/shellgate.json"),
        (Harness::Copilot, Scope::User) => {
            return Err(
                "Copilot CLI loads hooks from the repository's .github/hooks/ only; use --project"
                    .into(),
            );
        }
        (Harness::Hermes, Scope::User) => match hermes_home {
            Some(h) => h.join("config.yaml"),
            None => home_dir()?.join(".hermes/config.yaml"),
        },
        (Harness::Hermes, Scope::Project) => {
            return Err("Hermes reads hooks from $HERMES_HOME/config.yaml only; use --user".into());
        }
        (Harness::HermesPlugin, _) => {
            return Err("the Hermes plugin is installed by copying integrations/hermes/shellgate into $HERMES_HOME/plugins/ (see integrations/hermes/README.md); `shellgate install hermes` sets up the shell hook".into());
        }
        (Harness::Qwen, Scope::User) => home_dir()?.join(".qwen/settings.json"),
        (Harness::Qwen, Scope::Project) => project.join(".qwen/settings.json"),
        (Harness::Crush, Scope::User) => match env_dir("CRUSH_GLOBAL_CONFIG") {
            Some(d) => d.join("crush.json"),
            None => config_home(home)?.join("crush/crush.json"),
        },
        (Harness::Crush, Scope::Project) => project.join("crush.json"),
        (Harness::OpenCode, Scope::User) => config_home(home)?.join("opencode/plugin/shellgate.js"),
        (Harness::OpenCode, Scope::Project) => project.join(".opencode/plugin/shellgate.js"),
        (Harness::Pi, Scope::User) => match env_dir("PI_CODING_AGENT_DIR") {
            Some(d) => d.join("extensions/shellgate.ts"),
            None => home_dir()?.join(".pi/agent/extensions/shellgate.ts"),
        },
        (Harness::Pi, Scope::Project) => project.join(".pi/extensions/shellgate.ts"),
        (Harness::Amp, Scope::User) => config_home(home)?.join("amp/settings.json"),
        (Harness::Amp, Scope::Project) => {
            return Err(
                "shellgate delegates Amp's permissions from the user's settings only; use --user"
                    .into(),
            );
        }
        (Harness::Cursor, Scope::User) => home_dir()?.join(".cursor/hooks.json"),
        (Harness::Cursor, Scope::Project) => project.join(".cursor/hooks.json"),
    })
}

/// A directory named by an environment variable, when it is set and not empty.
fn env_dir(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// `$XDG_CONFIG_HOME`, else `~/.config` (where OpenCode, Crush and Amp keep their config).
fn config_home(home: Option<&Path>) -> Result<PathBuf, String> {
    match (env_dir("XDG_CONFIG_HOME"), home) {
        (Some(d), _) => Ok(d),
        (None, Some(h)) => Ok(h.join(".config")),
        (None, None) => Err("neither XDG_CONFIG_HOME nor HOME is set; pass --project".into()),
    }
}

/// The scope used when neither `--user` nor `--project` is given.
pub fn default_scope(harness: Harness) -> Scope {
    match harness {
        Harness::Copilot => Scope::Project,
        _ => Scope::User,
    }
}

/// The command line a harness runs: the binary's absolute path, quoted for a shell.
pub fn hook_command(binary: &str, harness: Harness) -> String {
    format!("{} hook {}", shell_words::quote(binary), harness.name())
}

/// Does this hook command run shellgate's hook for `harness`?
pub fn is_ours(command: &str, harness: Harness) -> bool {
    let words = shell_words::split(command).unwrap_or_default();
    words.len() == 3
        && Path::new(&words[0])
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("shellgate"))
        && words[1] == "hook"
        && words[2] == harness.name()
}

/// Install `command` into `before` (the file's text, `None` when it does not exist).
/// Returns the new text; equal to `before` when shellgate is already installed this way.
pub fn install(harness: Harness, before: Option<&str>, command: &str) -> Result<String, String> {
    match harness {
        Harness::Hermes | Harness::HermesPlugin => hermes_install(before.unwrap_or(""), command),
        Harness::OpenCode | Harness::Pi => plugin_file::install(harness, before, command),
        Harness::Amp => {
            let base = match before {
                Some(t) if !t.trim().is_empty() => t.to_string(),
                _ => "{}\n".to_string(),
            };
            amp_rules::install(&base, &plugin_file::binary_of(command)?)
        }
        _ => {
            let base = match before {
                Some(t) if !t.trim().is_empty() => t.to_string(),
                _ => match harness {
                    Harness::Copilot | Harness::Cursor => "{\n  \"version\": 1\n}\n".to_string(),
                    _ => "{}\n".to_string(),
                },
            };
            // Replace an older entry (another binary path or timeout) instead of adding a
            // second one.
            let cleaned = json_uninstall(harness, &base)?;
            let mut text = cleaned;
            for (event, group) in json_groups(harness, command) {
                text = json_add_group(&text, harness, event, &group)?;
            }
            Ok(text)
        }
    }
}

/// Remove shellgate's entries from `before`. `None` means the file should be deleted
/// (shellgate's own Copilot file with nothing else left in it).
pub fn uninstall(harness: Harness, before: &str) -> Result<Option<String>, String> {
    match harness {
        Harness::Hermes | Harness::HermesPlugin => hermes_uninstall(before).map(Some),
        Harness::OpenCode | Harness::Pi => plugin_file::uninstall(harness, before),
        Harness::Amp => amp_rules::uninstall(before).map(unless_fresh),
        Harness::Copilot | Harness::Cursor => {
            let text = json_uninstall(harness, before)?;
            let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let empty_hooks = v
                .get("hooks")
                .is_none_or(|h| h.as_object().is_none_or(|m| m.is_empty()));
            let only_version = v
                .as_object()
                .is_some_and(|m| m.keys().all(|k| k == "version" || k == "hooks"));
            Ok(if empty_hooks && only_version {
                None
            } else {
                Some(text)
            })
        }
        _ => json_uninstall(harness, before).map(unless_fresh),
    }
}

/// `None` (remove the file) when nothing but the `{}` a fresh install starts from is left.
fn unless_fresh(text: String) -> Option<String> {
    (text != "{}\n").then_some(text)
}

/// The hook groups shellgate adds, per event, for a JSON-settings harness.
fn json_groups(harness: Harness, command: &str) -> Vec<(&'static str, Value)> {
    let t = HOOK_TIMEOUT_SECS;
    match harness {
        Harness::Claude => vec![
            (
                "PreToolUse",
                json!({"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit",
                       "hooks": [{"type": "command", "command": command, "timeout": t}]}),
            ),
            (
                "PostToolUse",
                json!({"matcher": "Bash",
                       "hooks": [{"type": "command", "command": command, "timeout": t}]}),
            ),
        ],
        Harness::Codex => vec![(
            "PreToolUse",
            json!({"matcher": "Bash|apply_patch",
                   "hooks": [{"type": "command", "command": command, "timeout": t}]}),
        )],
        Harness::Gemini => vec![(
            "BeforeTool",
            json!({"matcher": "run_shell_command|write_file|replace",
                   "hooks": [{"name": "shellgate", "type": "command", "command": command,
                              "timeout": t * 1000}]}),
        )],
        Harness::Copilot => vec![(
            "preToolUse",
            json!({"type": "command", "bash": command, "timeoutSec": t}),
        )],
        Harness::Qwen => vec![(
            "PreToolUse",
            json!({"matcher": "run_shell_command|write_file|edit|notebook_edit|tool_call",
                   "hooks": [{"type": "command", "command": command, "timeout": t}]}),
        )],
        Harness::Crush => vec![(
            "PreToolUse",
            json!({"name": "shellgate", "matcher": "^(bash|edit|multiedit|write|download)$",
                   "command": command, "timeout": t}),
        )],
        // `failClosed`: without it Cursor runs the action when the hook fails.
        Harness::Cursor => vec![
            (
                "beforeShellExecution",
                json!({"command": command, "timeout": t, "failClosed": true}),
            ),
            (
                "preToolUse",
                json!({"command": command, "matcher": "Write|Delete", "timeout": t,
                       "failClosed": true}),
            ),
        ],
        Harness::Hermes
        | Harness::HermesPlugin
        | Harness::OpenCode
        | Harness::Pi
        | Harness::Amp => Vec::new(),
    }
}

/// Harnesses whose event arrays hold handlers directly, not `{matcher, hooks: [...]}`
/// groups.
fn flat_handlers(harness: Harness) -> bool {
    matches!(harness, Harness::Copilot | Harness::Crush | Harness::Cursor)
}

pub(crate) fn parse_settings(text: &str) -> Result<Node, String> {
    let root = jsonedit::parse(text).map_err(|e| format!("it is not valid JSON ({e})"))?;
    if !matches!(root.kind, Kind::Object(_)) {
        return Err("its top level is not a JSON object".into());
    }
    Ok(root)
}

fn json_add_group(
    text: &str,
    harness: Harness,
    event: &str,
    group: &Value,
) -> Result<String, String> {
    let root = parse_settings(text)?;
    let Some(hooks) = root.get("hooks") else {
        return Ok(jsonedit::insert_member(
            text,
            &root,
            "hooks",
            &json!({ event: [group] }),
        ));
    };
    if !matches!(hooks.kind, Kind::Object(_)) {
        return Err(format!(
            "its \"hooks\" is not an object ({} settings)",
            harness.name()
        ));
    }
    match hooks.get(event) {
        None => Ok(jsonedit::insert_member(text, hooks, event, &json!([group]))),
        Some(arr) if matches!(arr.kind, Kind::Array(_)) => {
            Ok(jsonedit::append_element(text, arr, group))
        }
        Some(_) => Err(format!("its \"hooks\".\"{event}\" is not an array")),
    }
}

/// The command of one hook handler object, for each harness's field name.
fn handler_command(handler: &Node) -> Option<String> {
    handler
        .get("command")
        .or_else(|| handler.get("bash"))
        .and_then(Node::as_str)
        .map(str::to_string)
}

/// Remove every shellgate handler for `harness`; drop groups, event arrays and the
/// `hooks` object that become empty by it.
fn json_uninstall(harness: Harness, text: &str) -> Result<String, String> {
    let mut text = text.to_string();
    // One removal per pass: spans move after each edit.
    loop {
        let root = parse_settings(&text)?;
        let Some(hooks) = root.get("hooks") else {
            return Ok(text);
        };
        let Kind::Object(events) = &hooks.kind else {
            return Ok(text);
        };
        let mut edited = None;
        'events: for (ei, (_, _, arr)) in events.iter().enumerate() {
            for (gi, group) in arr.elements().iter().enumerate() {
                // Copilot, Crush, Cursor: the array holds handlers directly.
                if flat_handlers(harness) {
                    if handler_command(group).is_some_and(|c| is_ours(&c, harness)) {
                        edited = Some(if arr.elements().len() == 1 {
                            remove_member_or_hooks(&text, &root, hooks, ei)
                        } else {
                            jsonedit::remove_child(&text, arr, &jsonedit::element_spans(arr), gi)
                        });
                        break 'events;
                    }
                    continue;
                }
                let Some(handlers) = group.get("hooks") else {
                    continue;
                };
                for (hi, h) in handlers.elements().iter().enumerate() {
                    if !handler_command(h).is_some_and(|c| is_ours(&c, harness)) {
                        continue;
                    }
                    edited = Some(if handlers.elements().len() > 1 {
                        jsonedit::remove_child(
                            &text,
                            handlers,
                            &jsonedit::element_spans(handlers),
                            hi,
                        )
                    } else if arr.elements().len() > 1 {
                        jsonedit::remove_child(&text, arr, &jsonedit::element_spans(arr), gi)
                    } else {
                        remove_member_or_hooks(&text, &root, hooks, ei)
                    });
                    break 'events;
                }
            }
        }
        match edited {
            Some(t) => text = t,
            None => return Ok(text),
        }
    }
}

/// Remove event member `ei` of `hooks`; when it is the only one, remove `hooks` itself.
fn remove_member_or_hooks(text: &str, root: &Node, hooks: &Node, ei: usize) -> String {
    let spans = jsonedit::member_spans(hooks);
    if spans.len() > 1 {
        return jsonedit::remove_child(text, hooks, &spans, ei);
    }
    let root_spans = jsonedit::member_spans(root);
    let idx = match &root.kind {
        Kind::Object(m) => m.iter().position(|(k, _, _)| k == "hooks").unwrap_or(0),
        _ => 0,
    };
    jsonedit::remove_child(text, root, &root_spans, idx)
}

// ---- Hermes config.yaml -------------------------------------------------------------
//
// Hermes's hooks live under a top-level `hooks:` mapping. shellgate edits lines, not a
// YAML tree: each line it adds ends in MARKER, and uninstall removes exactly those lines.

const MARKER: &str = "# added by shellgate install";

fn hermes_lines(command: &str, item_indent: &str) -> Vec<String> {
    let q = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    let i = item_indent;
    vec![
        format!("{i}- command: {}  {MARKER}", q(command)),
        format!(
            "{i}  matcher: {}  {MARKER}",
            q("^(terminal|write_file|patch)$")
        ),
        format!("{i}  timeout: {HOOK_TIMEOUT_SECS}  {MARKER}"),
        format!("{i}  fail_closed: true  {MARKER}"),
    ]
}

fn indent_of(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

fn is_blank_or_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with('#')
}

fn hermes_install(before: &str, command: &str) -> Result<String, String> {
    if before.contains('\t') {
        return Err("it contains tab characters, which YAML does not allow for indentation".into());
    }
    let cleaned = hermes_uninstall(before)?;
    let mut lines: Vec<String> = cleaned.lines().map(str::to_string).collect();
    let trailing_newline = cleaned.ends_with('\n') || cleaned.is_empty();
    let hooks_at = lines.iter().position(|l| l.starts_with("hooks:"));
    match hooks_at {
        None => {
            lines.push(format!("hooks:  {MARKER}"));
            lines.push(format!("  pre_tool_call:  {MARKER}"));
            lines.extend(hermes_lines(command, "    "));
        }
        Some(h) => {
            let rest = lines[h]["hooks:".len()..].trim();
            if !(rest.is_empty() || rest.starts_with('#')) {
                return Err(format!(
                    "its top-level `hooks:` is written inline ({rest}); write it as a block mapping first"
                ));
            }
            // The end of the hooks block: the next non-blank line at column 0.
            let end = (h + 1..lines.len())
                .find(|&i| !is_blank_or_comment(&lines[i]) && indent_of(&lines[i]) == 0)
                .unwrap_or(lines.len());
            let child_indent = (h + 1..end)
                .find(|&i| !is_blank_or_comment(&lines[i]))
                .map(|i| indent_of(&lines[i]))
                .unwrap_or(2);
            let pad = " ".repeat(child_indent);
            let ptc = (h + 1..end).find(|&i| {
                indent_of(&lines[i]) == child_indent
                    && lines[i].trim_start().starts_with("pre_tool_call:")
            });
            match ptc {
                None => {
                    let mut block = vec![format!("{pad}pre_tool_call:  {MARKER}")];
                    block.extend(hermes_lines(command, &format!("{pad}  ")));
                    let at = last_content_line(&lines, h, end) + 1;
                    lines.splice(at..at, block);
                }
                Some(p) => {
                    let rest = lines[p].trim_start()["pre_tool_call:".len()..].trim();
                    if !(rest.is_empty() || rest.starts_with('#')) {
                        return Err(format!(
                            "its `hooks.pre_tool_call` is written inline ({rest}); write it as a block list first"
                        ));
                    }
                    let p_end = (p + 1..end)
                        .find(|&i| {
                            let l = &lines[i];
                            !is_blank_or_comment(l)
                                && (indent_of(l) < child_indent
                                    || indent_of(l) == child_indent
                                        && !l.trim_start().starts_with('-'))
                        })
                        .unwrap_or(end);
                    let item_indent = (p + 1..p_end)
                        .find(|&i| !is_blank_or_comment(&lines[i]))
                        .map(|i| " ".repeat(indent_of(&lines[i])))
                        .unwrap_or_else(|| format!("{pad}  "));
                    let at = last_content_line(&lines, p, p_end) + 1;
                    lines.splice(at..at, hermes_lines(command, &item_indent));
                }
            }
        }
    }
    let mut out = lines.join("\n");
    if trailing_newline {
        out.push('\n');
    }
    Ok(out)
}

/// The last non-blank, non-comment line in `(from, to)`, or `from`.
fn last_content_line(lines: &[String], from: usize, to: usize) -> usize {
    (from + 1..to)
        .rev()
        .find(|&i| !is_blank_or_comment(&lines[i]))
        .unwrap_or(from)
}

fn hermes_uninstall(before: &str) -> Result<String, String> {
    let kept: Vec<&str> = before.lines().filter(|l| !l.ends_with(MARKER)).collect();
    let mut out = kept.join("\n");
    if before.ends_with('\n') && !out.is_empty() {
        out.push('\n');
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CMD: &str = "/opt/shell gate/shellgate hook claude";

    #[test]
    fn recognises_only_its_own_hook_command() {
        assert!(is_ours("'/opt/x y/shellgate' hook claude", Harness::Claude));
        assert!(is_ours("/usr/bin/shellgate hook codex", Harness::Codex));
        assert!(!is_ours("/usr/bin/shellgate hook codex", Harness::Claude));
        assert!(!is_ours(
            "/usr/bin/other-guard hook claude",
            Harness::Claude
        ));
        assert!(!is_ours(
            "/usr/bin/shellgate hook claude; rm -rf /",
            Harness::Claude
        ));
    }

    #[test]
    fn quotes_the_binary_path() {
        assert_eq!(
            hook_command("/opt/shell gate/shellgate", Harness::Claude),
            "'/opt/shell gate/shellgate' hook claude"
        );
    }

    #[test]
    fn claude_install_then_uninstall_restores_a_file_with_other_hooks() {
        let before = "{\n  \"permissions\": {\"allow\": [\"Bash(ls:*)\"]},\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Write\",\n        \"hooks\": [{\"type\": \"command\", \"command\": \"prettier --check\"}]\n      }\n    ],\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"notify\"}]}]\n  }\n}\n";
        let cmd = hook_command("/usr/local/bin/shellgate", Harness::Claude);
        let after = install(Harness::Claude, Some(before), &cmd).unwrap_or_else(|e| panic!("{e}"));
        let v: Value = serde_json::from_str(&after).unwrap_or_else(|e| panic!("{e}: {after}"));
        assert_eq!(v["hooks"]["PreToolUse"].as_array().map(Vec::len), Some(2));
        assert_eq!(
            v["hooks"]["PostToolUse"][0]["hooks"][0]["command"],
            cmd.as_str()
        );
        assert_eq!(v["hooks"]["Stop"][0]["hooks"][0]["command"], "notify");
        let again = install(Harness::Claude, Some(&after), &cmd).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, after, "install is idempotent");
        let back = uninstall(Harness::Claude, &after).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.as_deref(), Some(before));
    }

    #[test]
    fn refuses_settings_that_do_not_parse() {
        assert!(install(Harness::Claude, Some("{\"hooks\": [}"), CMD).is_err());
        assert!(install(Harness::Gemini, Some("// c\n{}"), CMD).is_err());
        assert!(install(Harness::Codex, Some("[]"), CMD).is_err());
    }

    #[test]
    fn copilot_file_is_created_and_removed_whole() {
        let cmd = hook_command("/usr/bin/shellgate", Harness::Copilot);
        let text = install(Harness::Copilot, None, &cmd).unwrap_or_else(|e| panic!("{e}"));
        let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v["version"], 1);
        assert_eq!(v["hooks"]["preToolUse"][0]["bash"], cmd.as_str());
        assert_eq!(uninstall(Harness::Copilot, &text), Ok(None));
    }

    #[test]
    fn hermes_install_appends_a_fail_closed_hook_and_uninstall_removes_it() {
        let before = "model:\n  default: x\nhooks:\n  post_tool_call:\n    - command: /usr/bin/log-it\n# trailing\nplugins:\n  enabled: []\n";
        let cmd = hook_command("/usr/bin/shellgate", Harness::Hermes);
        let after = install(Harness::Hermes, Some(before), &cmd).unwrap_or_else(|e| panic!("{e}"));
        assert!(after.contains("  pre_tool_call:  # added by shellgate install\n    - command: \"/usr/bin/shellgate hook hermes\""), "{after}");
        assert!(after.contains("fail_closed: true"));
        assert!(after.find("pre_tool_call").unwrap_or(0) < after.find("plugins:").unwrap_or(0));
        assert_eq!(
            install(Harness::Hermes, Some(&after), &cmd).as_deref(),
            Ok(after.as_str())
        );
        assert_eq!(
            uninstall(Harness::Hermes, &after),
            Ok(Some(before.to_string()))
        );
    }

    #[test]
    fn hermes_install_joins_an_existing_pre_tool_call_list() {
        let before = "hooks:\n  pre_tool_call:\n  - command: /usr/bin/other\n";
        let cmd = hook_command("/usr/bin/shellgate", Harness::Hermes);
        let after = install(Harness::Hermes, Some(before), &cmd).unwrap_or_else(|e| panic!("{e}"));
        assert!(after.starts_with("hooks:\n  pre_tool_call:\n  - command: /usr/bin/other\n  - command: \"/usr/bin/shellgate hook hermes\""), "{after}");
        assert!(install(Harness::Hermes, Some("hooks: {}\n"), &cmd).is_err());
    }
}
