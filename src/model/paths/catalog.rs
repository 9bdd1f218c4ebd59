//! The one catalog of sensitive paths: what a resolved path *is* (a system file, a credential,
//! a shell startup file, a harness's or shellgate's own config, a temporary or workspace
//! file). Every rule that deletes, writes, copies or uploads files, and the hooks' file-write
//! guard, ask [`classify`]; none keeps a list of its own.
//!
//! The table is [`CATALOG`], read top to bottom. An entry can say what *class* a path has,
//! and whether it is a *secret* (worth protecting from leaving the machine); the first entry
//! that says something about each wins, so narrow exceptions stand above the broad rules
//! they carve out of (`*.pub` is no secret, even inside `~/.ssh`). A path no entry classes is
//! [`PathClass::Temp`], [`PathClass::Workspace`] or [`PathClass::Other`] by where it lies.
//!
//! Anchors make one row cover every spelling of a place: [`Anchor::Home`] rows hold for the
//! current home and every user's home (`/root`, `/var/root`, `/home/*`, `/Users/*`), and
//! macOS's `/private/etc`, `/private/var` and `/private/tmp` are read as `/etc`, `/var` and
//! `/tmp` before the lookup.
//!
//! To add a place: add one row in the section for its anchor, above any broader row it
//! narrows, and a line to the table test below.

use super::{fold, within};

/// What a path is, for the rules that guard writes, deletes and uploads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PathClass {
    /// The operating system's own trees (`/etc`, `/usr`, `/boot`, `/lib*`, `/var/lib`,
    /// macOS `/System`, `/Library/LaunchDaemons`).
    System,
    /// Crontabs (`/etc/crontab`, `/etc/cron*`, `/var/spool/cron`).
    Cron,
    /// Credentials and keys (`~/.ssh`, `~/.aws`, `~/.netrc`, `~/.docker/config.json`, ...).
    Credential,
    /// Files a shell or the login session runs (`~/.bashrc`, `~/.config/fish/`,
    /// `~/Library/LaunchAgents`).
    ShellStartup,
    /// A project's `.env*` or `.envrc` file.
    ProjectEnv,
    /// An agent harness's configuration or hook settings (`$HERMES_HOME`,
    /// `.claude/settings.json`, `.codex/`, `.gemini/`, `.github/hooks/`).
    HarnessConfig,
    /// shellgate's own configuration and state.
    Guard,
    /// A path the user's config protects (`protected_paths`).
    Configured,
    /// A temporary path (`/tmp/x`, `/var/tmp/x`, `/dev/shm/x`).
    Temp,
    /// A path inside the working directory.
    Workspace,
    /// Anything else.
    Other,
}

impl PathClass {
    /// Must a write, copy or delete of this path be approved by a person?
    pub fn is_protected(self) -> bool {
        !matches!(
            self,
            PathClass::Temp | PathClass::Workspace | PathClass::Other
        )
    }

    /// Wording for messages ("..., a credential file").
    pub fn describe(self) -> &'static str {
        match self {
            PathClass::System => "a system path",
            PathClass::Cron => "a crontab",
            PathClass::Credential => "a credential file",
            PathClass::ShellStartup => "a shell startup file",
            PathClass::ProjectEnv => "an env file",
            PathClass::HarnessConfig => "an agent harness's config",
            PathClass::Guard => "shellgate's own config/state",
            PathClass::Configured => "a path protected by the config (protected_paths)",
            PathClass::Temp => "a temporary path",
            PathClass::Workspace => "a workspace path",
            PathClass::Other => "a path",
        }
    }
}

/// What a row's pattern is relative to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// An absolute path (after `/private/...` is read as `/...`).
    Root,
    /// Relative to any user's home directory.
    Home,
    /// Relative to Hermes's home (`$HERMES_HOME`, and `.hermes` in any home).
    Hermes,
    /// A run of components anywhere in the path (`.github/hooks` in any repository).
    Anywhere,
    /// The file name alone, in any directory.
    Name,
}

/// What a row says about a path's class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Says {
    /// The path has this class.
    Is(PathClass),
    /// The path is not sensitive, whatever later rows say (templates such as `.env.example`).
    Ordinary,
    /// The row says nothing about the class (it only marks secrecy).
    Nothing,
}

/// One row of the catalog. `pattern` is `/`-separated; `*` in a component matches any
/// characters but `/`. A row matches the path it names and everything below it.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub anchor: Anchor,
    pub pattern: &'static str,
    pub class: Says,
    /// `Some(true)`: a secret; `Some(false)`: not one (public keys); `None`: no say.
    pub secret: Option<bool>,
}

const fn row(anchor: Anchor, pattern: &'static str, class: Says, secret: Option<bool>) -> Entry {
    Entry {
        anchor,
        pattern,
        class,
        secret,
    }
}

use Anchor::{Anywhere, Hermes, Home, Name, Root};
use PathClass::{Credential, Cron, Guard, HarnessConfig, ProjectEnv, ShellStartup, System};
use Says::{Is, Nothing, Ordinary};

const SECRET: Option<bool> = Some(true);
const PUBLIC: Option<bool> = Some(false);

/// The catalog, read top to bottom (see the module docs).
pub const CATALOG: &[Entry] = &[
    // Secrecy exceptions first: public halves and host lists are no secrets wherever they
    // are; they say nothing about the class, so `~/.ssh/authorized_keys` stays a credential.
    row(Name, "*.pub", Nothing, PUBLIC),
    row(Name, "known_hosts", Nothing, PUBLIC),
    row(Name, "authorized_keys", Nothing, PUBLIC),
    row(Home, ".ssh/config", Nothing, PUBLIC),
    // The operating system.
    row(Root, "etc/shadow", Is(System), SECRET),
    row(Root, "etc/shadow-", Is(System), SECRET),
    row(Root, "etc/gshadow", Is(System), SECRET),
    row(Root, "etc/gshadow-", Is(System), SECRET),
    row(Root, "etc/sudoers", Is(System), SECRET),
    row(Root, "etc/master.passwd", Is(System), SECRET),
    row(Root, "etc/crontab", Is(Cron), None),
    row(Root, "etc/cron*", Is(Cron), None),
    row(Root, "var/spool/cron", Is(Cron), None),
    row(Root, "etc", Is(System), None),
    row(Root, "boot", Is(System), None),
    row(Root, "usr", Is(System), None),
    row(Root, "bin", Is(System), None),
    row(Root, "sbin", Is(System), None),
    row(Root, "lib*", Is(System), None),
    row(Root, "var/lib", Is(System), None),
    row(Root, "var/db", Is(System), None),
    row(Root, "System", Is(System), None),
    row(Root, "Library/LaunchDaemons", Is(System), None),
    row(Root, "Library/LaunchAgents", Is(System), None),
    row(Root, "proc/*/environ", Nothing, SECRET),
    // Every user's home.
    row(Home, ".ssh", Is(Credential), SECRET),
    row(Home, ".aws", Is(Credential), SECRET),
    row(Home, ".kube", Is(Credential), SECRET),
    row(Home, ".gnupg", Is(Credential), SECRET),
    row(Home, ".azure", Is(Credential), SECRET),
    row(Home, ".config/gh", Is(Credential), SECRET),
    row(Home, ".config/gcloud", Is(Credential), SECRET),
    row(Home, ".docker/config.json", Is(Credential), SECRET),
    row(Home, ".netrc", Is(Credential), SECRET),
    row(Home, ".git-credentials", Is(Credential), SECRET),
    row(Home, ".pgpass", Is(Credential), SECRET),
    row(Home, ".pypirc", Is(Credential), SECRET),
    row(Home, ".npmrc", Is(Credential), SECRET),
    row(Home, ".my.cnf", Is(Credential), SECRET),
    row(Home, ".bashrc", Is(ShellStartup), None),
    row(Home, ".bash_profile", Is(ShellStartup), None),
    row(Home, ".bash_login", Is(ShellStartup), None),
    row(Home, ".bash_logout", Is(ShellStartup), None),
    row(Home, ".profile", Is(ShellStartup), None),
    row(Home, ".zshrc", Is(ShellStartup), None),
    row(Home, ".zprofile", Is(ShellStartup), None),
    row(Home, ".zshenv", Is(ShellStartup), None),
    row(Home, ".zlogin", Is(ShellStartup), None),
    row(Home, ".zlogout", Is(ShellStartup), None),
    row(Home, ".kshrc", Is(ShellStartup), None),
    row(Home, ".cshrc", Is(ShellStartup), None),
    row(Home, ".tcshrc", Is(ShellStartup), None),
    row(Home, ".inputrc", Is(ShellStartup), None),
    // fish runs `conf.d/*` at startup and autoloads `functions/*` by name: all of it is code.
    row(Home, ".config/fish", Is(ShellStartup), None),
    row(Home, "Library/LaunchAgents", Is(ShellStartup), None),
    row(Home, ".config/shellgate", Is(Guard), None),
    // The ledger and approvals (`state.db`) and the checkpoint stores (`checkpoints/`).
    row(Home, ".local/state/shellgate", Is(Guard), None),
    row(Home, ".local/share/shellgate", Is(Guard), None),
    // Agent harnesses: Hermes's home holds its config, keys, plugins and hooks.
    row(Hermes, ".env", Is(HarnessConfig), SECRET),
    row(Hermes, "config.yaml", Is(HarnessConfig), SECRET),
    row(Hermes, "config.yml", Is(HarnessConfig), SECRET),
    row(Hermes, "", Is(HarnessConfig), None),
    row(Anywhere, ".claude/settings.json", Is(HarnessConfig), None),
    row(
        Anywhere,
        ".claude/settings.local.json",
        Is(HarnessConfig),
        None,
    ),
    // Scripts that Claude's hook settings run are as much the hook as the settings.
    row(Anywhere, ".claude/hooks", Is(HarnessConfig), None),
    row(Home, ".claude.json", Is(HarnessConfig), None),
    row(Home, ".copilot", Is(HarnessConfig), None),
    row(Anywhere, ".codex", Is(HarnessConfig), None),
    row(Anywhere, ".gemini", Is(HarnessConfig), None),
    row(Anywhere, ".github/hooks", Is(HarnessConfig), None),
    // By name, in any directory.
    row(Name, "shellgate.toml", Is(Guard), None),
    row(Name, ".shellgate.toml", Is(Guard), None),
    // Committed templates hold no secrets.
    row(Name, ".env.example", Ordinary, PUBLIC),
    row(Name, ".env.sample", Ordinary, PUBLIC),
    row(Name, ".env.template", Ordinary, PUBLIC),
    row(Name, ".env.dist", Ordinary, PUBLIC),
    row(Name, ".env.defaults", Ordinary, PUBLIC),
    row(Name, ".env", Is(ProjectEnv), SECRET),
    row(Name, ".env.*", Is(ProjectEnv), SECRET),
    row(Name, ".env-*", Is(ProjectEnv), SECRET),
    row(Name, ".env_*", Is(ProjectEnv), SECRET),
    // direnv runs `.envrc` as shell code on `cd`.
    row(Name, ".envrc", Is(ProjectEnv), SECRET),
    row(Name, "id_*", Nothing, SECRET),
    row(Name, "*.pem", Nothing, SECRET),
    row(Name, "*.key", Nothing, SECRET),
    row(Name, "*.p12", Nothing, SECRET),
    row(Name, "*.pfx", Nothing, SECRET),
    row(Name, "*.kdbx", Nothing, SECRET),
];

/// Where the anchors are for one analysis.
#[derive(Debug, Clone, Copy, Default)]
pub struct Roots<'a> {
    /// The current user's home.
    pub home: Option<&'a str>,
    /// Hermes's home (`$HERMES_HOME`).
    pub hermes: Option<&'a str>,
    /// The working directory (for [`PathClass::Workspace`]).
    pub cwd: Option<&'a str>,
}

impl<'a> Roots<'a> {
    /// The roots of an analysis context: its home, `$HERMES_HOME` (default `~/.hermes`,
    /// which [`Anchor::Hermes`] covers anyway) and working directory.
    pub fn of(ctx: &'a crate::Context) -> Roots<'a> {
        Roots {
            home: ctx.home.as_deref(),
            hermes: ctx.env.get("HERMES_HOME").map(String::as_str),
            cwd: ctx.cwd.as_deref(),
        }
    }
}

/// The catalog's answer for one path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathInfo {
    pub class: PathClass,
    /// Sending this file off the machine leaks a secret.
    pub secret: bool,
}

/// macOS keeps `/etc`, `/var` and `/tmp` under `/private`; the catalog names them once.
fn canonical(path: &str) -> String {
    let p = fold(path);
    for dir in ["/private/etc", "/private/var", "/private/tmp"] {
        if let Some(rest) = p.strip_prefix(dir)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            return p["/private".len()..].to_string();
        }
    }
    p
}

/// `*` within one component: components never hold `/`, so the crate's one glob matcher
/// is fnmatch with `FNM_PATHNAME` here.
fn component_matches(pat: &str, text: &str) -> bool {
    crate::glob::matches(pat, text)
}

/// Does the pattern (its components) name `comps` or a directory above them?
fn tree_matches(pattern: &[&str], comps: &[&str]) -> bool {
    pattern.len() <= comps.len()
        && pattern
            .iter()
            .zip(comps)
            .all(|(p, c)| component_matches(p, c))
}

/// Every row's pattern split into components once, in catalog order: [`classify`] walks
/// every row for every path it is asked about (an `Anywhere` row once per suffix).
static PATTERNS: std::sync::LazyLock<Vec<Vec<&'static str>>> =
    std::sync::LazyLock::new(|| CATALOG.iter().map(|e| components(e.pattern)).collect());

fn components(p: &str) -> Vec<&str> {
    p.split('/').filter(|c| !c.is_empty()).collect()
}

/// The path relative to every home directory it lies in: the current one, `/root`,
/// `/var/root` (macOS), `/home/<user>`, `/Users/<user>`.
fn home_relatives<'p>(comps: &[&'p str], home: Option<&str>) -> Vec<Vec<&'p str>> {
    let mut out = Vec::new();
    if let Some(h) = home {
        let hc = components(h);
        if !hc.is_empty() && comps.len() >= hc.len() && comps[..hc.len()] == hc[..] {
            out.push(comps[hc.len()..].to_vec());
        }
    }
    match comps {
        ["root", rest @ ..] => out.push(rest.to_vec()),
        ["var", "root", rest @ ..] => out.push(rest.to_vec()),
        ["home" | "Users", _user, rest @ ..] => out.push(rest.to_vec()),
        _ => {}
    }
    out
}

fn entry_matches(
    e: &Entry,
    pattern: &[&str],
    comps: &[&str],
    homes: &[Vec<&str>],
    hermes: &[Vec<&str>],
) -> bool {
    match e.anchor {
        Anchor::Root => tree_matches(pattern, comps),
        Anchor::Home => homes.iter().any(|rel| tree_matches(pattern, rel)),
        Anchor::Hermes => hermes.iter().any(|rel| tree_matches(pattern, rel)),
        Anchor::Anywhere => (0..comps.len()).any(|i| tree_matches(pattern, &comps[i..])),
        Anchor::Name => comps
            .last()
            .is_some_and(|base| component_matches(e.pattern, base)),
    }
}

/// Classify an absolute path (`~` and the working directory already resolved; unknown
/// pieces may stand as `\u{fffd}`).
pub fn classify(path: &str, roots: Roots) -> PathInfo {
    let p = canonical(path);
    let comps = components(&p);
    let homes = home_relatives(&comps, roots.home);
    let mut hermes: Vec<Vec<&str>> = homes
        .iter()
        .filter_map(|rel| match rel.as_slice() {
            [".hermes", rest @ ..] => Some(rest.to_vec()),
            _ => None,
        })
        .collect();
    if let Some(h) = roots.hermes {
        let hc = components(h);
        if !hc.is_empty() && comps.len() >= hc.len() && comps[..hc.len()] == hc[..] {
            hermes.push(comps[hc.len()..].to_vec());
        }
    }
    let mut class: Option<Says> = None;
    let mut secret: Option<bool> = None;
    for (e, pattern) in CATALOG.iter().zip(PATTERNS.iter()) {
        if class.is_some() && secret.is_some() {
            break;
        }
        let wants_class = class.is_none() && e.class != Says::Nothing;
        let wants_secret = secret.is_none() && e.secret.is_some();
        if !(wants_class || wants_secret) || !entry_matches(e, pattern, &comps, &homes, &hermes) {
            continue;
        }
        if wants_class {
            class = Some(e.class);
        }
        if wants_secret {
            secret = e.secret;
        }
    }
    let class = match class {
        Some(Says::Is(c)) => c,
        _ => location(&p, roots.cwd),
    };
    PathInfo {
        class,
        secret: secret.unwrap_or(false),
    }
}

/// The class of a path no row names: temporary, in the workspace, or elsewhere.
fn location(p: &str, cwd: Option<&str>) -> PathClass {
    if ["/tmp", "/var/tmp", "/dev/shm"]
        .iter()
        .any(|t| within(p, t))
    {
        return PathClass::Temp;
    }
    match cwd {
        Some(c) if c != "/" && within(p, c) => PathClass::Workspace,
        _ => PathClass::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOTS: Roots = Roots {
        home: Some("/home/user"),
        hermes: Some("/home/user/.hermes"),
        cwd: Some("/home/user/project"),
    };

    /// Every class, for the current user, any other user, root and macOS spellings.
    #[test]
    fn maps_paths_to_their_class_for_every_home_and_macos_private() {
        use PathClass::*;
        let table: &[(&str, PathClass, bool)] = &[
            ("/etc/passwd", System, false),
            ("/private/etc/hosts", System, false),
            ("/etc/shadow", System, true),
            ("/private/etc/sudoers", System, true),
            ("/usr/local/bin/tool", System, false),
            ("/lib64/ld.so", System, false),
            ("/var/lib/dpkg/status", System, false),
            ("/private/var/db/dslocal/x", System, false),
            ("/System/Library/x", System, false),
            ("/Library/LaunchDaemons/x.plist", System, false),
            ("/etc/crontab", Cron, false),
            ("/etc/cron.d/job", Cron, false),
            ("/var/spool/cron/crontabs/user", Cron, false),
            ("/home/user/.ssh/id_rsa", Credential, true),
            ("/home/user/.ssh/id_rsa.pub", Credential, false),
            ("/home/user/.ssh/authorized_keys", Credential, false),
            ("/home/user/.ssh/config", Credential, false),
            ("/home/bob/.ssh/id_ed25519", Credential, true),
            ("/root/.aws/credentials", Credential, true),
            ("/var/root/.netrc", Credential, true),
            ("/Users/alice/.kube/config", Credential, true),
            ("/home/user/.docker/config.json", Credential, true),
            ("/home/user/.docker/buildx/x", Other, false),
            ("/home/user/.my.cnf", Credential, true),
            ("/home/user/.bashrc", ShellStartup, false),
            ("/home/user/.kshrc", ShellStartup, false),
            ("/Users/alice/.zshrc", ShellStartup, false),
            ("/root/.profile", ShellStartup, false),
            ("/home/user/.config/fish/config.fish", ShellStartup, false),
            (
                "/home/user/.config/fish/functions/x.fish",
                ShellStartup,
                false,
            ),
            (
                "/Users/alice/Library/LaunchAgents/x.plist",
                ShellStartup,
                false,
            ),
            ("/home/user/project/.env", ProjectEnv, true),
            ("/home/user/project/.env.local", ProjectEnv, true),
            ("/home/user/project/.envrc", ProjectEnv, true),
            ("/tmp/.env", ProjectEnv, true),
            ("/home/user/project/.env.example", Workspace, false),
            ("/home/user/.hermes/.env", HarnessConfig, true),
            ("/home/bob/.hermes/config.yaml", HarnessConfig, true),
            ("/home/user/.hermes/plugins/x.py", HarnessConfig, false),
            ("/home/user/.claude/settings.json", HarnessConfig, false),
            (
                "/home/user/project/.claude/settings.local.json",
                HarnessConfig,
                false,
            ),
            ("/root/.codex/config.toml", HarnessConfig, false),
            ("/home/user/.gemini/settings.json", HarnessConfig, false),
            (
                "/home/user/project/.claude/hooks/guard.sh",
                HarnessConfig,
                false,
            ),
            ("/home/user/.claude.json", HarnessConfig, false),
            ("/home/bob/.copilot/config.json", HarnessConfig, false),
            (
                "/home/user/project/.github/hooks/hooks.json",
                HarnessConfig,
                false,
            ),
            ("/home/user/.config/shellgate/config.toml", Guard, false),
            ("/home/user/.local/state/shellgate/state.json", Guard, false),
            (
                "/home/user/.local/state/shellgate/checkpoints/p-0123/objects/pack",
                Guard,
                false,
            ),
            ("/root/.local/share/shellgate/ledger.db", Guard, false),
            ("/home/user/project/shellgate.toml", Guard, false),
            ("/tmp/x", Temp, false),
            ("/private/tmp/x", Temp, false),
            ("/var/tmp/x", Temp, false),
            ("/home/user/project/src/main.rs", Workspace, false),
            ("/home/user/project/key.pem", Workspace, true),
            ("/proc/self/environ", Other, true),
            ("/home/user/notes.txt", Other, false),
            ("/opt/app/x", Other, false),
        ];
        let mut wrong = Vec::new();
        for (path, class, secret) in table {
            let got = classify(path, ROOTS);
            if got.class != *class || got.secret != *secret {
                wrong.push(format!(
                    "{path}: got {:?}/{}, want {class:?}/{secret}",
                    got.class, got.secret
                ));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn custom_hermes_home_is_a_harness_config() {
        let roots = Roots {
            hermes: Some("/srv/hermes"),
            ..ROOTS
        };
        assert_eq!(
            classify("/srv/hermes/.env", roots).class,
            PathClass::HarnessConfig
        );
        assert!(classify("/srv/hermes/.env", roots).secret);
    }

    #[test]
    fn globs_match_within_one_component() {
        assert!(component_matches("*.pub", "id_rsa.pub"));
        assert!(component_matches("lib*", "lib"));
        assert!(component_matches(".env.*", ".env.prod"));
        assert!(!component_matches(".env.*", ".env"));
        assert!(!component_matches("*.pem", "pem"));
        assert!(component_matches("a*b*c", "aXbYc"));
    }
}
