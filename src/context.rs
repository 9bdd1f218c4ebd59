//! Where a command will run: the analysis [`Context`] (directory, home, user, environment,
//! the config's extra protected paths and harness names, limits), built in one place from
//! an [`Environment`] for the CLI, the hooks and library users alike.

use std::collections::BTreeMap;

use crate::model::LowerLimits;

/// The parts of a process environment the analysis reads. [`Environment::context`] is the one
/// place they become a [`Context`] (and `HERMES_HOME` gets its `~/.hermes` default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Environment {
    /// The working directory the command starts in.
    pub cwd: Option<String>,
    pub home: Option<String>,
    pub user: Option<String>,
    /// `HERMES_HOME` when the environment sets it; see [`Environment::hermes_home`].
    pub hermes_home: Option<String>,
    pub tmpdir: Option<String>,
}

impl Environment {
    /// The current process's working directory and its `HOME`, `USER` (else `LOGNAME`),
    /// `HERMES_HOME` and `TMPDIR` (empty values count as unset).
    pub fn from_process() -> Environment {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        Environment {
            cwd: std::env::current_dir()
                .ok()
                .map(|p| p.to_string_lossy().into_owned()),
            home: var("HOME"),
            user: var("USER").or_else(|| var("LOGNAME")),
            hermes_home: var("HERMES_HOME"),
            tmpdir: var("TMPDIR"),
        }
    }

    /// Hermes's home: `HERMES_HOME` when set, else `~/.hermes` of this environment's home.
    pub fn hermes_home(&self) -> Option<String> {
        self.hermes_home.clone().or_else(|| {
            self.home
                .as_ref()
                .map(|h| format!("{}/.hermes", h.trim_end_matches('/')))
        })
    }

    /// The analysis context of a command run in this environment: `HOME`, `USER`,
    /// `LOGNAME`, `PWD`, `HERMES_HOME` and `TMPDIR` are known variables.
    pub fn context(&self) -> Context {
        let mut env = BTreeMap::new();
        let mut set = |k: &str, v: &Option<String>| {
            if let Some(v) = v {
                env.insert(k.to_string(), v.clone());
            }
        };
        set("HOME", &self.home);
        set("HERMES_HOME", &self.hermes_home());
        set("USER", &self.user);
        set("LOGNAME", &self.user);
        set("PWD", &self.cwd);
        set("TMPDIR", &self.tmpdir);
        Context {
            cwd: self.cwd.clone(),
            home: self.home.clone(),
            user: self.user.clone(),
            env,
            sudo_password_configured: false,
            protected_paths: Vec::new(),
            harness_names: Vec::new(),
            limits: LowerLimits::default(),
        }
    }
}

/// Everything the analysis knows about where the command will run.
#[derive(Debug, Clone)]
pub struct Context {
    /// The working directory the command starts in.
    pub cwd: Option<String>,
    pub home: Option<String>,
    pub user: Option<String>,
    /// Variables known to be set in the command's environment (`HOME`, `HERMES_HOME`, ...).
    pub env: BTreeMap<String, String>,
    /// The user configured a sudo password for the agent (then `sudo -S` is expected).
    pub sudo_password_configured: bool,
    /// Extra paths (globs, or directories covering everything below) that writes, copies
    /// and deletes must not reach without a person: the config's `protected_paths`.
    pub protected_paths: Vec<String>,
    /// Extra process names of agent harnesses that must not be killed: the config's
    /// `harness_processes`.
    pub harness_names: Vec<String>,
    pub limits: LowerLimits,
}

impl Default for Context {
    fn default() -> Self {
        Context::new(None, None, None)
    }
}

impl Context {
    /// A context with the given directory, home and user; `HOME`, `USER`, `PWD`,
    /// `HERMES_HOME` (default `~/.hermes`) are derived from them.
    pub fn new(cwd: Option<String>, home: Option<String>, user: Option<String>) -> Context {
        Environment {
            cwd,
            home,
            user,
            ..Environment::default()
        }
        .context()
    }

    /// The fixed context the corpus and tests use: user `user`, home `/home/user`, working
    /// directory `/home/user/project`, `TMPDIR=/tmp`.
    pub fn fixture() -> Context {
        Environment {
            cwd: Some("/home/user/project".into()),
            home: Some("/home/user".into()),
            user: Some("user".into()),
            hermes_home: None,
            tmpdir: Some("/tmp".into()),
        }
        .context()
    }

    /// The context of the current process: its working directory and `HOME`, `USER`,
    /// `HERMES_HOME`, `TMPDIR` from its environment ([`Environment::from_process`]).
    pub fn from_process() -> Context {
        Environment::from_process().context()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hermes_home_defaults_below_the_home_unless_set() {
        let mut e = Environment {
            home: Some("/home/u/".into()),
            ..Environment::default()
        };
        assert_eq!(e.context().env["HERMES_HOME"], "/home/u/.hermes");
        e.hermes_home = Some("/srv/hermes".into());
        assert_eq!(e.context().env["HERMES_HOME"], "/srv/hermes");
        assert_eq!(Environment::default().hermes_home(), None);
    }

    #[test]
    fn the_fixture_knows_its_directory_home_user_and_tmpdir() {
        let c = Context::fixture();
        for (k, v) in [
            ("HOME", "/home/user"),
            ("USER", "user"),
            ("LOGNAME", "user"),
            ("PWD", "/home/user/project"),
            ("HERMES_HOME", "/home/user/.hermes"),
            ("TMPDIR", "/tmp"),
        ] {
            assert_eq!(c.env.get(k).map(String::as_str), Some(v), "{k}");
        }
    }
}
