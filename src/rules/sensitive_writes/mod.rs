//! Sensitive-write rules: writes, copies and in-place edits into system directories,
//! credential files, shell startup files, crontabs, `.env` files, Hermes's and
//! shellgate's own configuration; and the path classification they share.

pub mod copy_into_sensitive;
pub mod in_place_edit_sensitive;
pub mod overwrite_sensitive;

use crate::model::paths::{fold, resolve};
use crate::model::{Command, Word};
use crate::rules::Cx;

/// Why a path must not be written without approval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sensitive {
    /// `/etc`, `/boot`, `/usr`, `/bin`, `/sbin`, `/lib*`, `/var/lib`.
    System,
    /// Crontabs (`/var/spool/cron`, `/etc/cron*`).
    Cron,
    /// `~/.ssh/*`, `~/.aws/`, `~/.kube/`, `~/.gnupg/`, `~/.netrc`, docker and gh credentials.
    Credential,
    /// Shell startup files (`~/.bashrc`, `~/.profile`, ...).
    ShellRc,
    /// A `.env*` file in any directory.
    ProjectEnv,
    /// Hermes's `.env` and `config.yaml`.
    Hermes,
    /// shellgate's own configuration and state.
    Guard,
}

impl Sensitive {
    pub fn describe(self) -> &'static str {
        match self {
            Sensitive::System => "a system path",
            Sensitive::Cron => "a crontab",
            Sensitive::Credential => "a credential file",
            Sensitive::ShellRc => "a shell startup file",
            Sensitive::ProjectEnv => "an env file",
            Sensitive::Hermes => "Hermes's config/env",
            Sensitive::Guard => "shellgate's own config/state",
        }
    }
}

const SHELL_RC: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".cshrc",
    ".tcshrc",
    ".config/fish/config.fish",
    ".inputrc",
];

const CREDENTIAL_DIRS: &[&str] = &[
    ".ssh",
    ".aws",
    ".kube",
    ".gnupg",
    ".config/gh",
    ".azure",
    ".config/gcloud",
    ".docker",
];
const CREDENTIAL_FILES: &[&str] = &[
    ".netrc",
    ".git-credentials",
    ".docker/config.json",
    ".pgpass",
    ".pypirc",
    ".npmrc",
    ".my.cnf",
];

fn under(path: &str, dir: &str) -> bool {
    path == dir || path.starts_with(&format!("{}/", dir.trim_end_matches('/')))
}

/// The Hermes home directory for this context (`$HERMES_HOME`, default `~/.hermes`).
pub fn hermes_home(cx: &Cx) -> Option<String> {
    cx.ctx.env.get("HERMES_HOME").cloned().or_else(|| {
        cx.ctx
            .home
            .as_ref()
            .map(|h| format!("{}/.hermes", h.trim_end_matches('/')))
    })
}

/// Classify an absolute, folded path that is about to be written.
pub fn classify_write(path: &str, home: Option<&str>, hermes: Option<&str>) -> Option<Sensitive> {
    let p = fold(path);
    let base = p.rsplit('/').next().unwrap_or("");
    if base == "shellgate.toml" {
        return Some(Sensitive::Guard);
    }
    let mut homes: Vec<String> = home.map(fold).into_iter().collect();
    homes.push("/root".into());
    for h in &homes {
        if under(&p, &format!("{h}/.config/shellgate"))
            || under(&p, &format!("{h}/.local/state/shellgate"))
        {
            return Some(Sensitive::Guard);
        }
    }
    let mut hermes_dirs: Vec<String> = hermes.map(fold).into_iter().collect();
    hermes_dirs.extend(homes.iter().map(|h| format!("{h}/.hermes")));
    for d in &hermes_dirs {
        if p == format!("{d}/.env")
            || p == format!("{d}/config.yaml")
            || p == format!("{d}/config.yml")
        {
            return Some(Sensitive::Hermes);
        }
    }
    if under(&p, "/var/spool/cron")
        || under(&p, "/etc/crontab")
        || base.starts_with("cron") && p.starts_with("/etc/")
        || p.starts_with("/etc/cron")
    {
        return Some(Sensitive::Cron);
    }
    for h in &homes {
        if let Some(rel) = p.strip_prefix(&format!("{h}/")) {
            if SHELL_RC.contains(&rel) {
                return Some(Sensitive::ShellRc);
            }
            if CREDENTIAL_FILES.contains(&rel) || CREDENTIAL_DIRS.iter().any(|d| under(rel, d)) {
                // Only `~/.docker/config.json` in ~/.docker holds credentials.
                if under(rel, ".docker") && rel != ".docker/config.json" {
                    continue;
                }
                return Some(Sensitive::Credential);
            }
        }
    }
    let system = [
        "/etc",
        "/boot",
        "/usr",
        "/bin",
        "/sbin",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/var/lib",
        "/private/etc",
    ];
    let top_lib = p.split('/').nth(1).is_some_and(|t| t.starts_with("lib"));
    if top_lib || system.iter().any(|d| under(&p, d)) {
        return Some(Sensitive::System);
    }
    if base == ".env"
        || base == ".envrc"
        || [".env.", ".env-", ".env_"]
            .iter()
            .any(|p| base.starts_with(p))
    {
        return Some(Sensitive::ProjectEnv);
    }
    None
}

/// Resolve a path word of `cmd` to an absolute path (unknown pieces become `\u{fffd}`).
pub fn resolve_word(cmd: &Command, w: &Word, home: Option<&str>) -> Option<String> {
    let t = expand_tilde(&w.text_with("\u{fffd}"), home);
    if t.is_empty() || t.starts_with('\u{fffd}') && !t.contains('/') {
        return None;
    }
    let t = match t.strip_prefix('\u{fffd}') {
        // `"$DIR/.env"`: the directory is unknown, but the name is not.
        Some(rest) if rest.starts_with('/') => format!("\u{fffd}{rest}"),
        _ => t,
    };
    if t.starts_with('\u{fffd}') {
        let base = t.rsplit('/').next().unwrap_or("");
        return Some(format!("/\u{fffd}/{base}"));
    }
    resolve(&t, cmd.cwd.as_deref())
        .or_else(|| Some(format!("/\u{fffd}/{}", t.rsplit('/').next().unwrap_or(""))))
}

/// `~/x` → `$HOME/x`. Words are already expanded by the core, but redirect targets and
/// option values such as `-d @~/x` may still hold a literal `~`.
pub fn expand_tilde(t: &str, home: Option<&str>) -> String {
    match home {
        Some(h) if t == "~" => h.to_string(),
        Some(h) => match t.strip_prefix("~/") {
            Some(rest) => format!("{}/{rest}", h.trim_end_matches('/')),
            None => t.to_string(),
        },
        None => t.to_string(),
    }
}

/// A graph file path that was resolved from an unexpanded `~/..` (`/cwd/~/x` → `$HOME/x`).
pub fn fix_tilde_path(p: &str, home: Option<&str>) -> String {
    match (p.find("/~/"), home) {
        (Some(i), Some(h)) => format!("{}/{}", h.trim_end_matches('/'), &p[i + 3..]),
        _ => p.to_string(),
    }
}

/// Classify a path word of `cmd` that is about to be written.
pub fn sensitive_word(cx: &Cx, cmd: &Command, w: &Word) -> Option<(Sensitive, String)> {
    let p = resolve_word(cmd, w, cx.ctx.home.as_deref())?;
    let h = hermes_home(cx);
    classify_write(&p, cx.ctx.home.as_deref(), h.as_deref()).map(|s| (s, p))
}

/// Is this resolved path a secret worth protecting from leaving the machine (credential
/// files, private keys, `.env*`, `/etc/shadow`)? Public keys and `known_hosts` are not.
pub fn is_secret(path: &str, home: Option<&str>, hermes: Option<&str>) -> bool {
    let p = fold(&fix_tilde_path(path, home));
    let base = p.rsplit('/').next().unwrap_or("");
    if base.ends_with(".pub")
        || base == "known_hosts"
        || base == "authorized_keys"
        || base == "config" && p.contains("/.ssh/")
    {
        return false;
    }
    if matches!(
        p.as_str(),
        "/etc/shadow"
            | "/etc/gshadow"
            | "/etc/shadow-"
            | "/etc/gshadow-"
            | "/etc/sudoers"
            | "/etc/master.passwd"
    ) {
        return true;
    }
    if base.starts_with("id_")
        || base.ends_with(".pem")
        || base.ends_with(".key")
        || base.ends_with(".p12")
        || base.ends_with(".pfx")
        || base.ends_with(".kdbx")
    {
        return true;
    }
    if p.starts_with("/proc/") && base == "environ" {
        return true;
    }
    matches!(
        classify_write(&p, home, hermes),
        Some(Sensitive::Credential | Sensitive::ProjectEnv | Sensitive::Hermes)
    )
}
