//! `config import-hermes`: read the `approvals:` section and `command_allowlist` of a Hermes
//! Agent `config.yaml` and write the equivalent shellgate config, reporting what has no
//! equivalent.

use std::path::{Path, PathBuf};

use serde_yaml_ng::Value;

use crate::rules::{self, hermes::HERMES_KEYS};

/// The result of an import.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Import {
    /// The shellgate config, as TOML with comments saying where each value came from.
    pub toml: String,
    /// Settings that were carried over, one line each.
    pub mapped: Vec<String>,
    /// Settings that could not be carried over, and why.
    pub unmapped: Vec<String>,
}

/// The Hermes config path: `$HERMES_HOME/config.yaml`, else `~/.hermes/config.yaml`.
pub fn default_path() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("HERMES_HOME")
        .map(|h| h.join("config.yaml"))
        .or_else(|| var("HOME").map(|h| h.join(".hermes/config.yaml")))
}

/// Import a Hermes config file. `Err` when it cannot be read or is not YAML.
pub fn import_file(path: &Path) -> Result<Import, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = import_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    // Hermes reads SUDO_PASSWORD from the .env next to its config; only its presence is
    // looked at, never its value.
    if let Some(dir) = path.parent()
        && let Ok(env) = std::fs::read_to_string(dir.join(".env"))
        && env.lines().any(|l| {
            let l = l.trim_start().trim_start_matches("export ").trim_start();
            l.strip_prefix("SUDO_PASSWORD=")
                .is_some_and(|v| !v.trim().is_empty())
        })
    {
        out.mapped
            .push("SUDO_PASSWORD is set in Hermes's .env → sudo_password_configured = true".into());
        out.toml = out.toml.replace(
            "sudo_password_configured = false",
            "sudo_password_configured = true",
        );
    }
    Ok(out)
}

fn s(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn key_text(k: &Value) -> String {
    s(k).unwrap_or_else(|| format!("{k:?}"))
}

/// Import Hermes config text.
pub fn import_str(text: &str) -> Result<Import, String> {
    let root: Value = serde_yaml_ng::from_str(text).map_err(|e| format!("not valid YAML: {e}"))?;
    let mut imp = Import::default();
    let mut doc = toml_edit::DocumentMut::new();
    doc.decor_mut().set_prefix(
        "# shellgate config imported from a Hermes Agent config.yaml (shellgate config import-hermes).\n",
    );
    let empty = Value::Null;
    let approvals = root.get("approvals").unwrap_or(&empty);
    if !matches!(approvals, Value::Mapping(_) | Value::Null) {
        return Err("`approvals` is not a mapping".into());
    }
    let mut mode = "manual".to_string();
    let mut timeout: Option<i64> = None;
    let mut deny: Vec<String> = Vec::new();
    let unattended = "deny";
    if let Value::Mapping(m) = approvals {
        for (k, v) in m {
            let key = key_text(k);
            match key.as_str() {
                "mode" => match s(v).as_deref() {
                    Some(m @ ("manual" | "smart")) => {
                        mode = m.to_string();
                        imp.mapped.push(format!("approvals.mode: {m} → mode = \"{m}\""));
                        if m == "smart" {
                            imp.unmapped.push(
                                "approvals.mode: smart uses an auxiliary LLM in Hermes; shellgate's smart mode allows only its own low-risk classes unless you set smart.assessor".into(),
                            );
                        }
                    }
                    // YAML 1.1 reads a bare `off` as false.
                    Some("off") | Some("false") => {
                        mode = "off".into();
                        imp.mapped.push("approvals.mode: off → mode = \"off\"".into());
                    }
                    other => imp.unmapped.push(format!(
                        "approvals.mode: `{}` is not manual, smart or off; using manual",
                        other.unwrap_or_default()
                    )),
                },
                "timeout" => match v.as_i64() {
                    Some(t) if t > 0 => {
                        timeout = Some(t);
                        imp.mapped.push(format!("approvals.timeout: {t} → timeout = {t}"));
                    }
                    _ => imp.unmapped.push(format!(
                        "approvals.timeout: `{}` is not a positive number of seconds; using the default 300",
                        s(v).unwrap_or_default()
                    )),
                },
                "cron_mode" | "single_query_mode" => match s(v).as_deref() {
                    Some("deny") => imp
                        .mapped
                        .push(format!("approvals.{key}: deny → unattended = \"deny\"")),
                    Some(other) => {
                        imp.unmapped.push(format!(
                            "approvals.{key}: `{other}` has no equivalent: shellgate never approves every command of an unattended run; unattended = \"deny\""
                        ));
                    }
                    None => imp
                        .unmapped
                        .push(format!("approvals.{key}: not a string; unattended = \"deny\"")),
                },
                "deny" => match v {
                    Value::Sequence(seq) => {
                        for g in seq {
                            match s(g) {
                                Some(g) => deny.push(g),
                                None => imp
                                    .unmapped
                                    .push(format!("approvals.deny: `{g:?}` is not a string")),
                            }
                        }
                        imp.mapped
                            .push(format!("approvals.deny: {} glob(s) → deny", deny.len()));
                    }
                    _ => imp.unmapped.push("approvals.deny: not a list".into()),
                },
                "mcp_reload_confirm" | "destructive_slash_confirm" => imp.unmapped.push(format!(
                    "approvals.{key}: a Hermes chat setting, not about shell commands; not imported"
                )),
                other => imp
                    .unmapped
                    .push(format!("approvals.{other}: unknown to shellgate; not imported")),
            }
        }
    }
    let mut allow: Vec<String> = Vec::new();
    match root.get("command_allowlist") {
        None | Some(Value::Null) => {}
        Some(Value::Sequence(seq)) => {
            for e in seq {
                let Some(e) = s(e) else {
                    imp.unmapped
                        .push(format!("command_allowlist: `{e:?}` is not a string"));
                    continue;
                };
                match allow_entry(&e) {
                    Ok((entry, note)) => {
                        imp.mapped
                            .push(format!("command_allowlist: `{e}` → {note}"));
                        if !allow.contains(&entry) {
                            allow.push(entry);
                        }
                    }
                    Err(why) => imp
                        .unmapped
                        .push(format!("command_allowlist: `{e}`: {why}")),
                }
            }
        }
        Some(_) => imp.unmapped.push("command_allowlist: not a list".into()),
    }
    doc["mode"] = toml_edit::value(mode);
    doc["timeout"] = toml_edit::value(timeout.unwrap_or(super::DEFAULT_TIMEOUT as i64));
    doc["unattended"] = toml_edit::value(unattended);
    doc["sudo_password_configured"] = toml_edit::value(false);
    let mut d = toml_edit::Array::new();
    for g in &deny {
        d.push(g.as_str());
    }
    doc["deny"] = toml_edit::value(d);
    let mut a = toml_edit::Array::new();
    for e in &allow {
        a.push(e.as_str());
    }
    doc["allow"] = toml_edit::value(a);
    imp.toml = doc.to_string();
    Ok(imp)
}

/// One `command_allowlist` entry as a shellgate allow entry, with what it covers.
fn allow_entry(e: &str) -> Result<(String, String), String> {
    let t = e.trim();
    if let Some(key) = HERMES_KEYS.iter().find(|k| k.eq_ignore_ascii_case(t)) {
        let codes: Vec<&str> = rules::RULES
            .iter()
            .filter(|r| r.meta().hermes.iter().any(|h| h.eq_ignore_ascii_case(key)))
            .filter(|r| r.meta().severity != crate::Severity::Block)
            .map(|r| r.meta().code)
            .collect();
        if codes.is_empty() {
            return Err(
                "a Hermes key no approvable shellgate rule carries (block-tier keys are never allowed); not imported"
                    .into(),
            );
        }
        return Ok((
            key.to_string(),
            format!("Hermes key (rules {})", codes.join(", ")),
        ));
    }
    if t.contains(['*', '?', '[']) || t.contains(' ') {
        return Ok((t.to_string(), "command glob".into()));
    }
    Err("a bare word is not a Hermes key or a command pattern; allowing every finding about it would be broader than you meant, so it was not imported (add a rule code or `COMMAND *` glob by hand)".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_off_read_as_false_is_mode_off() {
        let i = import_str("approvals:\n  mode: off\n").unwrap_or_default();
        assert!(i.toml.contains("mode = \"off\""), "{}", i.toml);
    }
}
