//! The policy configuration: the user's TOML file (XDG path, `--config`, `SHELLGATE_CONFIG`),
//! project `.shellgate.toml` files that may only tighten it, and the strictest fallback
//! used when any of them cannot be read.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Mode, Severity};

/// What `ask` becomes when no person can answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unattended {
    #[default]
    Deny,
    /// Leave the decision `ask` (for a harness that queues approvals for later).
    Ask,
}

/// The external assessor of smart mode.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct SmartConfig {
    /// A command run with `sh -c`; JSON on stdin, JSON verdict on stdout.
    pub assessor: Option<String>,
    /// Seconds the assessor may take; past it the answer is `ask`.
    pub assessor_timeout: u64,
}

/// Default seconds an unanswered prompt waits before it is denied.
pub const DEFAULT_TIMEOUT: u64 = 300;
/// Default seconds a session approval lasts.
pub const DEFAULT_SESSION_TTL: u64 = 24 * 3600;
/// Default seconds the smart-mode assessor may take.
pub const DEFAULT_ASSESSOR_TIMEOUT: u64 = 20;
/// The project file name looked up in the working directory and its parents.
pub const PROJECT_FILE: &str = ".shellgate.toml";

/// The effective configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Config {
    pub mode: Mode,
    /// fnmatch globs; a match denies the command before any mode or approval applies.
    pub deny: Vec<String>,
    /// The "always" list: rule codes or names, Hermes keys, `RULE: GLOB`, or command globs.
    pub allow: Vec<String>,
    /// Seconds an unanswered prompt waits before it is denied.
    pub timeout: u64,
    pub unattended: Unattended,
    /// The user gave the agent a sudo password, so `sudo -S` is expected.
    pub sudo_password_configured: bool,
    /// Extra paths (globs) that writes must not reach without a person.
    pub protected_paths: Vec<String>,
    /// Directories an agent's file tools may write in (empty: no restriction beyond the
    /// protected paths). Read by the hooks' file-write guard.
    pub write_roots: Vec<String>,
    /// Extra process names of agent harnesses that commands must not kill.
    pub harness_processes: Vec<String>,
    /// Seconds a session approval lasts.
    pub session_ttl: u64,
    pub smart: SmartConfig,
    /// Rules raised to `block` (`SG2001 = "block"` or `recursive-delete = "block"`).
    pub severity: BTreeMap<String, Severity>,
    /// Checkpoints before destructive commands that are let through.
    pub checkpoints: CheckpointConfig,
}

/// `[checkpoints]`: whether they are taken, their bounds and how many are kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CheckpointConfig {
    pub enabled: bool,
    /// Bytes: a larger file is not captured.
    pub max_file_size: u64,
    /// Bytes of files one checkpoint captures at most.
    pub max_size: u64,
    /// Checkpoints kept per project.
    pub keep: usize,
    /// Seconds one checkpoint may take (within a hook's own deadline).
    pub timeout: u64,
}

impl Default for CheckpointConfig {
    fn default() -> Self {
        CheckpointConfig {
            enabled: true,
            max_file_size: crate::checkpoint::DEFAULT_MAX_FILE,
            max_size: crate::checkpoint::DEFAULT_MAX_TOTAL,
            keep: crate::checkpoint::DEFAULT_KEEP,
            timeout: crate::checkpoint::DEFAULT_TIMEOUT,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            mode: Mode::Manual,
            deny: Vec::new(),
            allow: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            unattended: Unattended::Deny,
            sudo_password_configured: false,
            protected_paths: Vec::new(),
            write_roots: Vec::new(),
            harness_processes: Vec::new(),
            session_ttl: DEFAULT_SESSION_TTL,
            smart: SmartConfig {
                assessor: None,
                assessor_timeout: DEFAULT_ASSESSOR_TIMEOUT,
            },
            severity: BTreeMap::new(),
            checkpoints: CheckpointConfig::default(),
        }
    }
}

impl Config {
    /// Drop everything that can loosen a decision: what a broken config falls back to.
    fn make_strictest(&mut self) {
        self.mode = Mode::Manual;
        self.allow.clear();
        self.unattended = Unattended::Deny;
        self.sudo_password_configured = false;
        self.smart.assessor = None;
    }
}

/// The file as written; every key optional, unknown keys are errors.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    mode: Option<Mode>,
    deny: Option<Vec<String>>,
    allow: Option<Vec<String>>,
    timeout: Option<u64>,
    unattended: Option<Unattended>,
    sudo_password_configured: Option<bool>,
    protected_paths: Option<Vec<String>>,
    write_roots: Option<Vec<String>>,
    harness_processes: Option<Vec<String>>,
    session_ttl: Option<u64>,
    smart: Option<RawSmart>,
    severity: Option<BTreeMap<String, String>>,
    checkpoints: Option<RawCheckpoints>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheckpoints {
    enabled: Option<bool>,
    /// Megabytes.
    max_file_mb: Option<u64>,
    /// Megabytes.
    max_mb: Option<u64>,
    keep: Option<usize>,
    timeout: Option<u64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSmart {
    assessor: Option<String>,
    timeout: Option<u64>,
}

/// A config file that could not be used. While any exists, the policy runs with the
/// strictest settings (manual mode, no allowlist, unattended deny, no assessor).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConfigError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if let Some(k) = &self.key {
            write!(f, ": key `{k}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Where shellgate keeps its files, from the environment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Paths {
    /// The user config file (may not exist).
    pub config: Option<PathBuf>,
    /// True when the config path was given explicitly (`--config`, `SHELLGATE_CONFIG`):
    /// then a missing file is an error, not "use the defaults".
    pub config_explicit: bool,
    /// The state database (approvals and ledger).
    pub state_db: Option<PathBuf>,
    /// The checkpoint stores, one per project (beside the state database).
    pub checkpoints: Option<PathBuf>,
}

impl Paths {
    /// `explicit` (from `--config`), else `SHELLGATE_CONFIG`, else
    /// `$XDG_CONFIG_HOME/shellgate/config.toml` (default `~/.config/...`); the database at
    /// `$XDG_STATE_HOME/shellgate/state.db` (default `~/.local/state/...`).
    pub fn from_env(explicit: Option<&Path>) -> Paths {
        Paths::from_vars(explicit, |k| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
    }

    /// As [`Paths::from_env`] with the environment given as a function (for tests).
    pub fn from_vars(explicit: Option<&Path>, var: impl Fn(&str) -> Option<PathBuf>) -> Paths {
        let home = var("HOME");
        let xdg = |name: &str, fallback: &str| {
            var(name)
                .filter(|p| p.is_absolute())
                .or_else(|| home.as_ref().map(|h| h.join(fallback)))
        };
        let (config, config_explicit) = match explicit {
            Some(p) => (Some(p.to_path_buf()), true),
            None => match var("SHELLGATE_CONFIG") {
                Some(p) => (Some(p), true),
                None => (
                    xdg("XDG_CONFIG_HOME", ".config").map(|d| d.join("shellgate/config.toml")),
                    false,
                ),
            },
        };
        let state = xdg("XDG_STATE_HOME", ".local/state").map(|d| d.join("shellgate"));
        Paths {
            config,
            config_explicit,
            state_db: state.as_ref().map(|d| d.join("state.db")),
            checkpoints: state.map(|d| d.join("checkpoints")),
        }
    }
}

/// The configuration in effect, with where it came from and what went wrong.
#[derive(Debug, Clone, Default)]
pub struct LoadedConfig {
    pub config: Config,
    pub paths: Paths,
    /// Project files that were applied, nearest first.
    pub project_files: Vec<PathBuf>,
    /// Files that could not be used; non-empty means the strictest settings are in force.
    pub errors: Vec<ConfigError>,
    /// Settings that were ignored (a project file trying to loosen the policy, ...).
    pub warnings: Vec<String>,
}

impl LoadedConfig {
    /// Load the user config and the project files for `cwd`. Never fails: errors are
    /// recorded in `errors` and the result is then the strictest configuration.
    pub fn load(explicit: Option<&Path>, cwd: Option<&Path>) -> LoadedConfig {
        LoadedConfig::load_with(Paths::from_env(explicit), cwd)
    }

    /// As [`LoadedConfig::load`] with the paths given.
    pub fn load_with(paths: Paths, cwd: Option<&Path>) -> LoadedConfig {
        let mut out = LoadedConfig {
            config: Config::default(),
            paths,
            ..LoadedConfig::default()
        };
        if let Some(p) = out.paths.config.clone() {
            match read_file(&p, out.paths.config_explicit) {
                Ok(Some(raw)) => {
                    let mut warnings = Vec::new();
                    if let Err(e) = apply_user(&mut out.config, raw, &p, &mut warnings) {
                        out.errors.push(e);
                    }
                    out.warnings.extend(warnings);
                }
                Ok(None) => {}
                Err(e) => {
                    salvage(&mut out.config, &p);
                    out.errors.push(e)
                }
            }
        }
        if let Some(cwd) = cwd {
            for dir in cwd.ancestors() {
                let p = dir.join(PROJECT_FILE);
                match read_file(&p, false) {
                    Ok(Some(raw)) => {
                        out.project_files.push(p.clone());
                        let mut w = Vec::new();
                        if let Err(e) = apply_project(&mut out.config, raw, &p, &mut w) {
                            out.errors.push(e);
                        }
                        out.warnings.extend(w);
                    }
                    Ok(None) => {}
                    Err(e) => {
                        salvage(&mut out.config, &p);
                        out.errors.push(e)
                    }
                }
            }
        }
        if !out.errors.is_empty() {
            out.config.make_strictest();
        }
        out
    }

    /// The defaults with nothing read from disk and no state (`--no-config`).
    pub fn defaults() -> LoadedConfig {
        LoadedConfig::default()
    }

    /// The configuration built from TOML text (for tests and tools): user-file semantics.
    pub fn from_toml(text: &str) -> LoadedConfig {
        let file = PathBuf::from("<inline>");
        let mut out = LoadedConfig::default();
        match parse_raw(text, &file) {
            Ok(raw) => {
                let mut w = Vec::new();
                if let Err(e) = apply_user(&mut out.config, (text.to_string(), raw), &file, &mut w)
                {
                    out.errors.push(e);
                }
                out.warnings = w;
            }
            Err(e) => out.errors.push(e),
        }
        if !out.errors.is_empty() {
            out.config.make_strictest();
        }
        out
    }

    /// Every config problem as one line for a person: errors (with the strictest settings
    /// in force) and ignored settings.
    pub fn problems(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .errors
            .iter()
            .map(|e| {
                format!(
                    "config error: {e}; using the strictest settings (manual mode, no allowlist, unattended deny)"
                )
            })
            .collect();
        out.extend(self.warnings.iter().map(|w| format!("config warning: {w}")));
        out
    }

    /// True when a config file could not be used and the strictest settings are in force.
    pub fn is_strict_fallback(&self) -> bool {
        !self.errors.is_empty()
    }
}

/// From a file that is valid TOML but not a valid config (a wrong type, an unknown key),
/// keep what can only tighten: deny globs, protected paths and harness names. A file that
/// is not TOML at all gives nothing.
fn salvage(c: &mut Config, path: &Path) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
        return;
    };
    let strings = |key: &str| -> Vec<String> {
        doc.get(key)
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    c.deny.extend(strings("deny"));
    c.protected_paths.extend(strings("protected_paths"));
    c.harness_processes.extend(strings("harness_processes"));
}

/// Read and parse one file. `Ok(None)` when it does not exist and need not.
fn read_file(path: &Path, must_exist: bool) -> Result<Option<(String, RawConfig)>, ConfigError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !must_exist => return Ok(None),
        Err(e) => {
            return Err(ConfigError {
                file: path.to_path_buf(),
                line: None,
                key: None,
                message: format!("cannot be read: {e}"),
            });
        }
    };
    let raw = parse_raw(&text, path)?;
    Ok(Some((text, raw)))
}

fn parse_raw(text: &str, path: &Path) -> Result<RawConfig, ConfigError> {
    toml::from_str::<RawConfig>(text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        let key = e.span().and_then(|s| key_at(text, s.start)).or_else(|| {
            // serde names unknown fields in its message: "unknown field `x`".
            let m = e.message();
            m.split('`').nth(1).map(str::to_string)
        });
        ConfigError {
            file: path.to_path_buf(),
            line,
            key,
            message: e.message().trim().to_string(),
        }
    })
}

/// The dotted key of the line holding byte `at` (`[smart]` + `timeout` → `smart.timeout`).
fn key_at(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let line = text[start..].lines().next().unwrap_or("");
    let mut table = None;
    for l in text[..start].lines().rev() {
        let t = l.trim();
        if t.starts_with('[') {
            table = Some(t.trim_matches(['[', ']']).trim().to_string());
            break;
        }
    }
    let key = line.split('=').next()?.trim().trim_matches('"').to_string();
    if key.is_empty() || key.starts_with('[') || line.find('=').is_none() {
        return table;
    }
    Some(match table {
        Some(t) => format!("{t}.{key}"),
        None => key,
    })
}

fn err(file: &Path, text: &str, key: &str, message: String) -> ConfigError {
    let line = text
        .lines()
        .position(|l| {
            let t = l.trim_start();
            t.starts_with(key.rsplit('.').next().unwrap_or(key))
        })
        .map(|i| i + 1);
    ConfigError {
        file: file.to_path_buf(),
        line,
        key: Some(key.to_string()),
        message,
    }
}

fn severities(
    raw: Option<BTreeMap<String, String>>,
    file: &Path,
    text: &str,
) -> Result<BTreeMap<String, Severity>, ConfigError> {
    let mut out = BTreeMap::new();
    for (rule, v) in raw.unwrap_or_default() {
        if crate::rules::find(&rule).is_none() {
            return Err(err(
                file,
                text,
                &format!("severity.{rule}"),
                format!("`{rule}` is not a rule code or name (see `shellgate rules`)"),
            ));
        }
        match v.as_str() {
            "block" => {
                out.insert(rule, Severity::Block);
            }
            other => {
                return Err(err(
                    file,
                    text,
                    &format!("severity.{rule}"),
                    format!(
                        "`{other}`: a severity can only be raised, to \"block\"; block findings can never be lowered"
                    ),
                ));
            }
        }
    }
    Ok(out)
}

fn apply_user(
    c: &mut Config,
    (text, raw): (String, RawConfig),
    file: &Path,
    _warnings: &mut Vec<String>,
) -> Result<(), ConfigError> {
    if raw.timeout == Some(0) {
        return Err(err(
            file,
            &text,
            "timeout",
            "must be at least 1 second".into(),
        ));
    }
    if raw.session_ttl == Some(0) {
        return Err(err(
            file,
            &text,
            "session_ttl",
            "must be at least 1 second".into(),
        ));
    }
    let sev = severities(raw.severity, file, &text)?;
    if let Some(m) = raw.mode {
        c.mode = m;
    }
    c.deny.extend(raw.deny.unwrap_or_default());
    c.allow.extend(raw.allow.unwrap_or_default());
    if let Some(t) = raw.timeout {
        c.timeout = t;
    }
    if let Some(u) = raw.unattended {
        c.unattended = u;
    }
    if let Some(s) = raw.sudo_password_configured {
        c.sudo_password_configured = s;
    }
    c.protected_paths
        .extend(raw.protected_paths.unwrap_or_default());
    c.write_roots.extend(raw.write_roots.unwrap_or_default());
    c.harness_processes
        .extend(raw.harness_processes.unwrap_or_default());
    if let Some(t) = raw.session_ttl {
        c.session_ttl = t;
    }
    if let Some(s) = raw.smart {
        if s.timeout == Some(0) {
            return Err(err(
                file,
                &text,
                "smart.timeout",
                "must be at least 1 second".into(),
            ));
        }
        if let Some(a) = s.assessor {
            c.smart.assessor = Some(a);
        }
        if let Some(t) = s.timeout {
            c.smart.assessor_timeout = t;
        }
    }
    c.severity.extend(sev);
    if let Some(k) = raw.checkpoints {
        apply_checkpoints(&mut c.checkpoints, k, file, &text)?;
    }
    Ok(())
}

fn apply_checkpoints(
    c: &mut CheckpointConfig,
    k: RawCheckpoints,
    file: &Path,
    text: &str,
) -> Result<(), ConfigError> {
    for (key, v) in [
        ("checkpoints.max_file_mb", k.max_file_mb),
        ("checkpoints.max_mb", k.max_mb),
        ("checkpoints.timeout", k.timeout),
        ("checkpoints.keep", k.keep.map(|n| n as u64)),
    ] {
        if v == Some(0) {
            return Err(err(file, text, key, "must be at least 1".into()));
        }
    }
    if let Some(e) = k.enabled {
        c.enabled = e;
    }
    if let Some(m) = k.max_file_mb {
        c.max_file_size = m.saturating_mul(1_000_000);
    }
    if let Some(m) = k.max_mb {
        c.max_size = m.saturating_mul(1_000_000);
    }
    if let Some(n) = k.keep {
        c.keep = n;
    }
    if let Some(t) = k.timeout {
        c.timeout = t;
    }
    Ok(())
}

/// A project file: only what tightens is applied; the rest is ignored with a warning.
fn apply_project(
    c: &mut Config,
    (text, raw): (String, RawConfig),
    file: &Path,
    warnings: &mut Vec<String>,
) -> Result<(), ConfigError> {
    let f = file.display();
    let sev = severities(raw.severity, file, &text)?;
    if let Some(m) = raw.mode {
        if m.strictness() > c.mode.strictness() {
            c.mode = m;
        } else if m != c.mode {
            warnings.push(format!(
                "{f}: `mode = \"{}\"` ignored: a project file can only tighten the mode (it is {})",
                m.as_str(),
                c.mode.as_str()
            ));
        }
    }
    if raw.allow.as_ref().is_some_and(|a| !a.is_empty()) {
        warnings.push(format!(
            "{f}: `allow` ignored: a project file cannot allow commands"
        ));
    }
    if raw.sudo_password_configured == Some(true) {
        warnings.push(format!(
            "{f}: `sudo_password_configured` ignored: a project file cannot loosen the sudo guard"
        ));
    }
    if let Some(u) = raw.unattended {
        if u == Unattended::Deny {
            c.unattended = u;
        } else if c.unattended != u {
            warnings.push(format!(
                "{f}: `unattended = \"ask\"` ignored: a project file can only tighten it"
            ));
        }
    }
    if let Some(t) = raw.timeout {
        if t > 0 && t < c.timeout {
            c.timeout = t;
        } else if t != c.timeout {
            warnings.push(format!(
                "{f}: `timeout = {t}` ignored: a project file can only shorten the prompt timeout"
            ));
        }
    }
    if let Some(t) = raw.session_ttl {
        if t > 0 && t < c.session_ttl {
            c.session_ttl = t;
        } else if t != c.session_ttl {
            warnings.push(format!(
                "{f}: `session_ttl = {t}` ignored: a project file can only shorten it"
            ));
        }
    }
    if raw.write_roots.as_ref().is_some_and(|w| !w.is_empty()) {
        warnings.push(format!(
            "{f}: `write_roots` ignored: only the user config sets where agents may write"
        ));
    }
    if raw.checkpoints.is_some() {
        warnings.push(format!(
            "{f}: `[checkpoints]` ignored: only the user config sets what checkpoints keep"
        ));
    }
    if raw.smart.as_ref().is_some_and(|s| s.assessor.is_some()) {
        warnings.push(format!(
            "{f}: `smart.assessor` ignored: a project file cannot choose who allows commands"
        ));
    }
    c.deny.extend(raw.deny.unwrap_or_default());
    c.protected_paths
        .extend(raw.protected_paths.unwrap_or_default());
    c.harness_processes
        .extend(raw.harness_processes.unwrap_or_default());
    c.severity.extend(sev);
    Ok(())
}

/// Append entries to the `allow` list of the user config file at `path`, keeping its
/// comments and layout; creates the file (and its directory) when missing. Entries already
/// present are not repeated. Returns the entries added.
pub fn add_allow_entries(path: &Path, entries: &[String]) -> Result<Vec<String>, ConfigError> {
    let e = |message: String| ConfigError {
        file: path.to_path_buf(),
        line: None,
        key: Some("allow".into()),
        message,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(x) if x.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(x) => return Err(e(format!("cannot be read: {x}"))),
    };
    // Refuse to rewrite a file the policy itself cannot read.
    parse_raw(&text, path)?;
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|x: toml_edit::TomlError| e(x.to_string()))?;
    if !doc.contains_key("allow") {
        doc["allow"] = toml_edit::value(toml_edit::Array::new());
    }
    let Some(arr) = doc["allow"].as_array_mut() else {
        return Err(e("`allow` is not an array".into()));
    };
    let mut added = Vec::new();
    for entry in entries {
        if !arr.iter().any(|v| v.as_str() == Some(entry.as_str())) {
            arr.push(entry.as_str());
            added.push(entry.clone());
        }
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|x| e(format!("cannot create {}: {x}", dir.display())))?;
    }
    // Write a sibling file and rename it over, so a concurrent reader never sees half a file.
    let tmp = path.with_extension(format!("toml.tmp{}", std::process::id()));
    std::fs::write(&tmp, doc.to_string()).map_err(|x| e(format!("cannot be written: {x}")))?;
    std::fs::rename(&tmp, path).map_err(|x| e(format!("cannot be replaced: {x}")))?;
    Ok(added)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_names_file_line_and_key() {
        let c = LoadedConfig::from_toml("mode = \"manual\"\nallowlist = [\"x\"]\n");
        let e = &c.errors[0];
        assert_eq!(e.line, Some(2));
        assert_eq!(e.key.as_deref(), Some("allowlist"));
        assert!(c.is_strict_fallback());
    }

    #[test]
    fn wrong_type_names_the_dotted_key() {
        let c = LoadedConfig::from_toml("allow = [\"SG2001\"]\n[smart]\ntimeout = \"ten\"\n");
        let e = &c.errors[0];
        assert_eq!(e.line, Some(3));
        assert_eq!(e.key.as_deref(), Some("smart.timeout"));
        assert!(
            c.config.allow.is_empty(),
            "strictest fallback drops the allowlist"
        );
        assert_eq!(c.config.mode, Mode::Manual);
    }

    #[test]
    fn bad_mode_falls_back_to_manual() {
        let c = LoadedConfig::from_toml("mode = \"yolo\"\n");
        assert_eq!(c.errors[0].key.as_deref(), Some("mode"));
        assert_eq!(c.config.mode, Mode::Manual);
    }

    #[test]
    fn severity_can_only_be_raised() {
        let c = LoadedConfig::from_toml("[severity]\nSG2001 = \"block\"\n");
        assert!(c.errors.is_empty(), "{:?}", c.errors);
        assert_eq!(c.config.severity.get("SG2001"), Some(&Severity::Block));
        let c = LoadedConfig::from_toml("[severity]\nSG1001 = \"approve\"\n");
        assert_eq!(c.errors[0].key.as_deref(), Some("severity.SG1001"));
    }

    #[test]
    fn checkpoints_are_configured_in_megabytes_and_never_by_a_project() {
        let c = LoadedConfig::from_toml(
            "[checkpoints]\nmax_file_mb = 5\nmax_mb = 20\nkeep = 3\ntimeout = 4\n",
        );
        assert!(c.errors.is_empty(), "{:?}", c.errors);
        assert_eq!(c.config.checkpoints.max_file_size, 5_000_000);
        assert_eq!(c.config.checkpoints.max_size, 20_000_000);
        assert_eq!(
            (c.config.checkpoints.keep, c.config.checkpoints.timeout),
            (3, 4)
        );
        let c = LoadedConfig::from_toml("[checkpoints]\nkeep = 0\n");
        assert_eq!(c.errors[0].key.as_deref(), Some("checkpoints.keep"));
        let d = tempfile::tempdir().unwrap();
        std::fs::write(
            d.path().join(PROJECT_FILE),
            "[checkpoints]\nenabled = false\n",
        )
        .unwrap();
        let c = LoadedConfig::load_with(Paths::default(), Some(d.path()));
        assert!(c.config.checkpoints.enabled);
        assert!(
            c.warnings[0].contains("`[checkpoints]` ignored"),
            "{:?}",
            c.warnings
        );
    }

    #[test]
    fn xdg_paths_and_overrides() {
        let env = |k: &str| match k {
            "HOME" => Some(PathBuf::from("/home/u")),
            "XDG_STATE_HOME" => Some(PathBuf::from("/s")),
            _ => None,
        };
        let p = Paths::from_vars(None, env);
        assert_eq!(
            p.config.as_deref(),
            Some(Path::new("/home/u/.config/shellgate/config.toml"))
        );
        assert_eq!(
            p.state_db.as_deref(),
            Some(Path::new("/s/shellgate/state.db"))
        );
        assert_eq!(
            p.checkpoints.as_deref(),
            Some(Path::new("/s/shellgate/checkpoints"))
        );
        assert!(!p.config_explicit);
        let p = Paths::from_vars(None, |k| match k {
            "SHELLGATE_CONFIG" => Some(PathBuf::from("/c.toml")),
            _ => env(k),
        });
        assert_eq!(p.config.as_deref(), Some(Path::new("/c.toml")));
        assert!(p.config_explicit);
    }
}
