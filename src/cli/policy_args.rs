//! Options every policy-aware subcommand shares (`--config`, `--no-config`, `--mode`,
//! `--session`, `--harness`, `--unattended`), and loading the config and store they name.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use shellgate::policy::{self, LoadedConfig, Mode, NullStore, Request, Store};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Manual,
    Smart,
    Off,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Manual => Mode::Manual,
            ModeArg::Smart => Mode::Smart,
            ModeArg::Off => Mode::Off,
        }
    }
}

#[derive(Args, Debug, Clone, Default)]
pub(super) struct PolicyArgs {
    /// Config file (default: $SHELLGATE_CONFIG, else $XDG_CONFIG_HOME/shellgate/config.toml).
    #[arg(long, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Ignore every config file, approval and the ledger: the analyzer's own decision
    /// (manual mode), as the corpus uses.
    #[arg(long, conflicts_with_all = ["config", "mode", "session", "unattended"])]
    pub no_config: bool,
    /// Override the configured mode for this run.
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// The harness's session id: session approvals for it apply.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Which harness is asking, for the ledger.
    #[arg(long, value_name = "NAME")]
    pub harness: Option<String>,
    /// No person can answer: ask becomes deny (unless the config says `unattended = "ask"`).
    #[arg(long)]
    pub unattended: bool,
}

impl PolicyArgs {
    /// The config for a command run in `cwd`; problems are printed to stderr once.
    pub(super) fn load(&self, cwd: Option<&str>) -> LoadedConfig {
        if self.no_config {
            return LoadedConfig::defaults();
        }
        let c = LoadedConfig::load(self.config.as_deref(), cwd.map(Path::new));
        for p in c.problems() {
            eprintln!("shellgate: {p}");
        }
        c
    }

    /// The store: none with `--no-config`, else the SQLite database (opened on first use).
    pub(super) fn store(&self, cfg: &LoadedConfig) -> Box<dyn Store> {
        if self.no_config {
            Box::new(NullStore)
        } else {
            policy::open_store(cfg)
        }
    }

    pub(super) fn request(&self, command: &str, ctx: shellgate::Context) -> Request {
        let mut r = Request::new(command, ctx);
        r.session = self.session.clone();
        r.harness = self.harness.clone();
        r.unattended = self.unattended;
        r.mode = self.mode.map(Mode::from);
        r
    }
}

/// Print a verdict's warnings (store failures and the like) to stderr.
pub(super) fn report_warnings(v: &policy::Verdict) {
    for w in &v.warnings {
        eprintln!("shellgate: warning: {w}");
    }
}
