//! The in-process API front ends share: decide a command exactly as `shellgate check` does
//! (config, mode, session approvals, no ledger write), explain it as `shellgate explain`
//! does, and judge batches on every core. The Python package (`crates/shellgate-py`) and the
//! CLI both call it, so an in-process answer and the binary's answer cannot drift apart.

use std::path::PathBuf;

use crate::Context;
use crate::policy::{self, LoadedConfig, Mode, NoLedger, NullStore, Request, Store, Verdict};

/// Which config a check runs under.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum ConfigChoice {
    /// `$SHELLGATE_CONFIG`, else `$XDG_CONFIG_HOME/shellgate/config.toml`, plus every
    /// `.shellgate.toml` from the working directory up (what `shellgate check` reads).
    #[default]
    Default,
    /// This file (`--config PATH`), plus the project files.
    File(PathBuf),
    /// No config, approvals or ledger: the analyzer's own decision (`--no-config`).
    None,
}

/// Everything a check takes besides the command; every field defaults to what
/// `shellgate check COMMAND` uses with no options.
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// Working directory the command will run in (default: this process's).
    pub cwd: Option<String>,
    /// Home directory of the user running it (default: `$HOME`).
    pub home: Option<String>,
    /// Overrides the configured mode (`--mode`).
    pub mode: Option<Mode>,
    pub config: ConfigChoice,
    /// The harness's session id: session approvals for it apply (`--session`).
    pub session: Option<String>,
    /// Which harness is asking (`--harness`).
    pub harness: Option<String>,
    /// No person can answer: ask becomes deny (`--unattended`).
    pub unattended: bool,
}

/// Why a check could not be made. Nothing is decided then: a caller must treat it as
/// "not allowed".
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// A config file could not be read or parsed.
    #[error("{0}")]
    Config(String),
    /// An argument is not usable (a mode that does not exist, `--no-config` with a mode).
    #[error("{0}")]
    Argument(String),
}

/// The context of a command run in `cwd` by a user whose home is `home` (defaults: this
/// process's working directory and environment).
pub fn context_at(cwd: Option<&str>, home: Option<&str>) -> Context {
    // `Environment::context` is the one place `HERMES_HOME` defaults to the home's `.hermes`.
    let mut e = crate::Environment::from_process();
    if let Some(cwd) = cwd {
        e.cwd = Some(cwd.to_string());
    }
    if let Some(h) = home {
        e.home = Some(h.to_string());
    }
    e.context()
}

/// A mode by its config name (`manual`, `smart`, `off`).
pub fn parse_mode(name: &str) -> Result<Mode, ApiError> {
    match name {
        "manual" => Ok(Mode::Manual),
        "smart" => Ok(Mode::Smart),
        "off" => Ok(Mode::Off),
        other => Err(ApiError::Argument(format!(
            "unknown mode {other:?}; use \"manual\", \"smart\" or \"off\""
        ))),
    }
}

/// A loaded policy for many checks with the same options: the config is read once.
pub struct Checker {
    opts: CheckOptions,
    ctx: Context,
    cfg: LoadedConfig,
}

impl Checker {
    /// Load the config the options name. A config that cannot be loaded is an error here
    /// (the CLI reports it and goes on with the strictest settings; a library caller gets
    /// no stderr, so it is told).
    pub fn new(opts: CheckOptions) -> Result<Checker, ApiError> {
        let ctx = context_at(opts.cwd.as_deref(), opts.home.as_deref());
        let cfg = match &opts.config {
            ConfigChoice::None => {
                if opts.mode.is_some() || opts.session.is_some() || opts.unattended {
                    return Err(ApiError::Argument(
                        "no config (config=False) is the analyzer's own decision; it takes no mode, session or unattended".into(),
                    ));
                }
                LoadedConfig::defaults()
            }
            ConfigChoice::Default => {
                LoadedConfig::load(None, ctx.cwd.as_deref().map(std::path::Path::new))
            }
            ConfigChoice::File(p) => {
                LoadedConfig::load(Some(p), ctx.cwd.as_deref().map(std::path::Path::new))
            }
        };
        if cfg.is_strict_fallback() {
            let errors: Vec<String> = cfg
                .errors
                .iter()
                .map(|e| format!("config error: {e}"))
                .collect();
            return Err(ApiError::Config(errors.join("; ")));
        }
        Ok(Checker { opts, ctx, cfg })
    }

    /// The context commands are judged in (working directory, home, environment).
    pub fn context(&self) -> &Context {
        &self.ctx
    }

    /// The request for one command, as `shellgate check` builds it.
    fn request(&self, command: &str) -> Request {
        let mut r = Request::new(command, self.ctx.clone());
        r.session = self.opts.session.clone();
        r.harness = self.opts.harness.clone();
        r.unattended = self.opts.unattended;
        r.mode = self.opts.mode;
        r
    }

    /// The store a check reads: approvals only apply with a session, so without one the
    /// database is never opened (as `shellgate check`).
    fn store(&self) -> Box<dyn Store> {
        if self.opts.session.is_some() && self.opts.config != ConfigChoice::None {
            policy::open_store(&self.cfg)
        } else {
            Box::new(NullStore)
        }
    }

    /// Decide one command; nothing is written to the ledger.
    pub fn check(&self, command: &str) -> Verdict {
        let mut store = self.store();
        policy::evaluate(
            &self.request(command),
            &self.cfg,
            &mut NoLedger(&mut *store),
        )
    }

    /// Decide many commands on `jobs` threads (default: every core); results in input
    /// order. With a session the batch runs on one thread, since one-time approvals depend
    /// on order (as `shellgate check --jsonl`).
    pub fn check_many(&self, commands: &[String], jobs: Option<usize>) -> Vec<Verdict> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut threads = jobs.unwrap_or(cores).clamp(1, commands.len().max(1));
        if self.opts.session.is_some() {
            threads = 1;
        }
        if threads == 1 {
            let mut store = self.store();
            return commands
                .iter()
                .map(|c| policy::evaluate(&self.request(c), &self.cfg, &mut NoLedger(&mut *store)))
                .collect();
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let mut slots: Vec<Option<Verdict>> = Vec::with_capacity(commands.len());
        slots.resize_with(commands.len(), || None);
        // Blocks of commands taken in turn keep both cores busy when lengths vary.
        const BLOCK: usize = 16;
        let done: Vec<Vec<(usize, Verdict)>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut out = Vec::new();
                        let mut store = NullStore;
                        loop {
                            let start = next.fetch_add(BLOCK, std::sync::atomic::Ordering::Relaxed);
                            if start >= commands.len() {
                                break;
                            }
                            for (i, c) in commands.iter().enumerate().skip(start).take(BLOCK) {
                                let req = self.request(c);
                                out.push((
                                    i,
                                    policy::evaluate(&req, &self.cfg, &mut NoLedger(&mut store)),
                                ));
                            }
                        }
                        out
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        for (i, v) in done.into_iter().flatten() {
            slots[i] = Some(v);
        }
        // A thread that died (a panic the analysis did not catch) left holes: those
        // commands are judged again here, so every input gets a verdict.
        slots
            .into_iter()
            .zip(commands)
            .map(|(v, c)| v.unwrap_or_else(|| self.check(c)))
            .collect()
    }
}

/// Decide one command as `shellgate check` does with the same options.
pub fn check(command: &str, opts: &CheckOptions) -> Result<Verdict, ApiError> {
    Ok(Checker::new(opts.clone())?.check(command))
}

/// `shellgate explain`'s text report of a verdict: the decision, each finding with its
/// span underlined, the evidence chain, and the policy line.
pub fn explain_text(v: &Verdict, cwd: Option<&str>, color: bool) -> String {
    let r = crate::report::report(v, cwd);
    let style = crate::render::Style::new(color);
    let mut text = crate::render::explain(&r, &style);
    text.push_str(&crate::render::policy_line(v));
    text
}
