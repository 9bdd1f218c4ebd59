//! The policy layer: the one place findings become allow / ask / deny. It turns an analysis
//! into what the user wants (config, modes, deny globs, approvals, unattended runs), and
//! records every decision in a ledger. Without a config, [`decide_default`] applies the same
//! decision order under the default config.
//!
//! # Entry points (what front ends call)
//!
//! ```no_run
//! use shellgate::policy::{self, LoadedConfig, Request, SqliteStore};
//! let cwd = std::path::Path::new("/home/me/project");
//! let cfg = LoadedConfig::load(None, Some(cwd)); // never fails; see cfg.errors
//! let mut store = policy::open_store(&cfg);        // SQLite at $XDG_STATE_HOME, opened lazily
//! let mut req = Request::new("rm -rf build", shellgate::Context::from_process());
//! req.session = Some("abc".into());
//! req.harness = Some("claude".into());
//! let v = policy::evaluate(&req, &cfg, &mut *store);
//! // v.decision: allow | ask | deny; v.reason: text for the person or the model
//! // later, when a person answered the harness's own prompt and the command ran:
//! policy::record_answer(&req, policy::Answer::Once, policy::AnswerSource::HarnessRan, &cfg, &mut *store);
//! ```
//!
//! - [`LoadedConfig::load`]`(explicit: Option<&Path>, cwd: Option<&Path>) -> LoadedConfig`:
//!   the user config (`--config`, else `SHELLGATE_CONFIG`, else
//!   `$XDG_CONFIG_HOME/shellgate/config.toml`) plus every `.shellgate.toml` from `cwd` up,
//!   which may only tighten it. A file that cannot be read or parsed is reported in
//!   `errors` (file, line, key) and the strictest settings apply: manual mode, no
//!   allowlist, unattended deny, no assessor, no sudo password.
//! - [`evaluate`]`(&Request, &LoadedConfig, &mut dyn Store) -> Verdict`: analyses the
//!   command, applies the decision order below and appends the decision to the ledger.
//! - [`decide_default`]`(&Analysis) -> Decision`: the decision order under the default
//!   config and no store, for an analysis from [`crate::analyze`] (the corpus, benches,
//!   examples, library users without a config). It comes to: block → deny, any other
//!   finding → ask, nothing found → allow.
//! - [`record_answer`]`(&Request, Answer, AnswerSource, &LoadedConfig, &mut dyn Store) ->
//!   Recorded`: a person's answer to an `ask` (once / session / always / deny / timeout),
//!   or a harness reporting that a command it asked about ran (`AnswerSource::HarnessRan`,
//!   e.g. Claude Code's PostToolUse after `ask`, recorded as approved once).
//! - [`Store`]: approvals and ledger; [`SqliteStore`] (WAL, busy timeout, short
//!   transactions; safe for many processes), [`MemoryStore`] for tests, [`NullStore`] for
//!   `--no-config`.
//! - [`Config::write_roots`] and [`Config::protected_paths`] are for the hooks' file-write
//!   guard; [`crate::glob::matches_ignore_case`] is the fnmatch used everywhere here.
//!
//! # Decision order
//!
//! One function per step (`ladder.rs`); the first step that decides, decides.
//!
//! 1. Unconditional (block) findings → deny (also rules raised to block by `[severity]`).
//! 2. User deny globs → deny: fnmatch, case-insensitive, against the command as written,
//!    its normalised text, each lowered simple command (wrappers peeled, program as a
//!    basename, git global options dropped) and each pipeline rebuilt from lowered commands.
//! 3. No findings → allow. Mode `off` → allow, unless a finding says shellgate could not
//!    analyse the command (those go on to step 4: unanalysed input is never allowed by a mode).
//! 4. Approvals → allow only when every finding is covered: by an allowlist entry, a
//!    session approval (same rule, same target, same resolved detail), or a once approval
//!    of exactly this command in this directory (used up).
//! 5. Smart mode: the remaining findings are allowed when shellgate rates each low-risk
//!    ([`smart::low_risk`]); otherwise the assessor, if configured, may allow, deny or ask.
//! 6. Otherwise ask; when unattended (and `unattended = "deny"`, the default), deny.
//!
//! A store that cannot be opened, read or written is reported in `Verdict::warnings` and
//! treated as holding no approvals: its failure never turns a decision into allow.

mod answer;
pub mod checkpoint;
pub mod config;
pub mod hermes_import;
mod ladder;
pub mod matching;
pub mod smart;
pub mod sqlite;
pub mod store;
pub mod suggest;

use std::borrow::Cow;
use std::time::Instant;

use serde::Serialize;

use crate::rules::Finding;
use crate::{Analysis, Context, Decision, Severity, analyze};

pub use crate::Mode;
pub use answer::{AnswerSource, Recorded, record_answer};
pub use checkpoint::{CheckpointNote, Checkpoints};
pub use config::{
    CheckpointConfig, Config, ConfigError, DEFAULT_TIMEOUT, LoadedConfig, Paths, SmartConfig,
    Unattended, add_allow_entries,
};
pub use matching::{AllowEntry, finding_key};
pub use sqlite::SqliteStore;
pub use store::{
    Answer, Approval, CheckpointRecord, FindingKey, LedgerEntry, LedgerFinding, LogQuery,
    MemoryStore, NewApproval, NoLedger, NullStore, Scope, Store, StoreError,
};

/// One command to decide, and who is asking.
#[derive(Debug, Clone)]
pub struct Request {
    pub command: String,
    /// Working directory, home and environment the command will run with.
    pub context: Context,
    /// The harness's session id (session approvals are keyed by it).
    pub session: Option<String>,
    /// Which harness is asking (`claude`, `codex`, `exec`, ...), for the ledger.
    pub harness: Option<String>,
    /// No person can answer (cron, one-shot query, no terminal).
    pub unattended: bool,
    /// Overrides the configured mode (`--mode`).
    pub mode: Option<Mode>,
    /// Unix seconds to decide at (tests); `None` is now.
    pub now: Option<i64>,
    /// Which decisions let the command run, and so take a checkpoint first (none by
    /// default: inspection).
    pub checkpoints: Checkpoints,
    /// When the front end must have answered (a hook's own deadline): a checkpoint that
    /// cannot finish by then is skipped and said.
    pub deadline: Option<Instant>,
}

impl Request {
    pub fn new(command: impl Into<String>, context: Context) -> Request {
        Request {
            command: command.into(),
            context,
            session: None,
            harness: None,
            unattended: false,
            mode: None,
            now: None,
            checkpoints: Checkpoints::Off,
            deadline: None,
        }
    }

    fn now(&self) -> i64 {
        self.now.unwrap_or_else(now)
    }

    fn cwd(&self) -> Option<&str> {
        self.context.cwd.as_deref()
    }
}

/// Unix seconds now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// `now` plus `secs`, saturating (a config may hold any number of seconds).
fn later(now: i64, secs: u64) -> i64 {
    now.saturating_add(i64::try_from(secs).unwrap_or(i64::MAX))
}

/// What decided a verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum DecidedBy {
    /// A block finding (step 1): the rule code.
    Rule { rule: String },
    /// A user deny glob (step 2) and the text it matched.
    DenyGlob { glob: String, matched: String },
    /// Nothing was found (step 3).
    NoFindings,
    /// Mode off (step 3).
    ModeOff,
    /// Every finding was covered (step 4): allowlist entries, session or once approval ids.
    Approvals {
        allowlist: Vec<String>,
        session: Vec<i64>,
        once: Option<i64>,
    },
    /// Smart mode rated every remaining finding low-risk (step 5).
    Smart { why: Vec<String> },
    /// The smart-mode assessor (step 5).
    Assessor { verdict: String, reason: String },
    /// Nobody approved it yet (step 6).
    Ask,
    /// It needed a person and none can answer (step 6).
    Unattended,
}

impl DecidedBy {
    /// The short name the ledger stores.
    pub fn as_str(&self) -> &'static str {
        match self {
            DecidedBy::Rule { .. } => "rule",
            DecidedBy::DenyGlob { .. } => "deny-glob",
            DecidedBy::NoFindings => "no-findings",
            DecidedBy::ModeOff => "mode-off",
            DecidedBy::Approvals {
                allowlist,
                session,
                once,
            } => {
                if once.is_some() {
                    "once-approval"
                } else if session.is_empty() {
                    "allowlist"
                } else if allowlist.is_empty() {
                    "session-approval"
                } else {
                    "approvals"
                }
            }
            DecidedBy::Smart { .. } => "smart",
            DecidedBy::Assessor { .. } => "assessor",
            DecidedBy::Ask => "ask",
            DecidedBy::Unattended => "unattended",
        }
    }

    /// The rule, glob, entries, ids or reason behind it.
    pub fn detail(&self) -> Option<String> {
        match self {
            DecidedBy::Rule { rule } => Some(rule.clone()),
            DecidedBy::DenyGlob { glob, .. } => Some(glob.clone()),
            DecidedBy::Approvals {
                allowlist,
                session,
                once,
            } => {
                let mut parts: Vec<String> =
                    allowlist.iter().map(|e| format!("allow {e}")).collect();
                parts.extend(session.iter().map(|i| format!("session approval #{i}")));
                if let Some(i) = once {
                    parts.push(format!("once approval #{i}"));
                }
                Some(parts.join(", "))
            }
            DecidedBy::Smart { why } => Some(why.join("; ")),
            DecidedBy::Assessor { reason, .. } => Some(reason.clone()),
            _ => None,
        }
    }
}

/// The policy's answer for one request.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub decision: Decision,
    /// Human text for the person or the model: what was decided and why.
    pub reason: String,
    pub decided_by: DecidedBy,
    /// The findings after `[severity]` overrides (block-raised rules are `Block` here).
    pub findings: Vec<Finding>,
    /// The approval key of each finding, same order.
    pub keys: Vec<FindingKey>,
    /// The mode in force.
    pub mode: Mode,
    pub analysis: Analysis,
    /// Store failures, assessor failures and ignored flags, for the front end to report (a
    /// verdict with warnings is still a sound decision). Config problems are in
    /// [`LoadedConfig::problems`], reported once per load.
    pub warnings: Vec<String>,
    /// The ledger entry, when the store recorded it.
    pub ledger_id: Option<i64>,
    /// The checkpoint taken before the command may run (or what one would hold, or why
    /// none was taken); its text is also at the end of `reason`.
    pub checkpoint: Option<CheckpointNote>,
}

/// The analysis context a request runs under: the request's, with what the config adds
/// (a configured sudo password, protected paths, harness process names).
fn analysis_context<'a>(req: &'a Request, cfg: &Config) -> Cow<'a, Context> {
    let c = &req.context;
    // Most requests already have what the analysis needs (a batch asks this per line):
    // borrowed then, not copied.
    if c.sudo_password_configured == cfg.sudo_password_configured
        && cfg.protected_paths.is_empty()
        && cfg.harness_processes.is_empty()
    {
        return Cow::Borrowed(c);
    }
    let mut ctx = req.context.clone();
    ctx.sudo_password_configured = cfg.sudo_password_configured;
    ctx.protected_paths
        .extend(cfg.protected_paths.iter().cloned());
    ctx.harness_names
        .extend(cfg.harness_processes.iter().cloned());
    Cow::Owned(ctx)
}

/// A request's analysis, its findings after `[severity]` overrides and their approval keys.
struct Analysed<'a> {
    ctx: Cow<'a, Context>,
    analysis: Analysis,
    findings: Vec<Finding>,
    keys: Vec<FindingKey>,
}

/// Analyse the request's command and apply `[severity]` overrides.
fn analyse<'a>(req: &'a Request, cfg: &Config) -> Analysed<'a> {
    let ctx = analysis_context(req, cfg);
    let analysis = analyze(&req.command, &ctx);
    let findings: Vec<Finding> = analysis
        .findings
        .iter()
        .cloned()
        .map(|f| {
            let raised = cfg
                .severity
                .keys()
                .any(|k| k.eq_ignore_ascii_case(f.rule) || k == f.name);
            if raised {
                f.with_severity(Severity::Block)
            } else {
                f
            }
        })
        .collect();
    let keys = finding_keys(&analysis, &findings);
    Analysed {
        ctx,
        analysis,
        findings,
        keys,
    }
}

fn finding_keys(a: &Analysis, findings: &[Finding]) -> Vec<FindingKey> {
    findings.iter().map(|f| finding_key(a, f)).collect()
}

/// Decide a request: the decision order in the module docs. Appends the decision to the
/// ledger; store failures are reported in `warnings` and never allow anything.
pub fn evaluate(req: &Request, loaded: &LoadedConfig, store: &mut dyn Store) -> Verdict {
    let cfg = &loaded.config;
    let mut warnings: Vec<String> = Vec::new();
    let mode = match req.mode {
        // A `--mode` flag may not loosen a config that failed to load.
        Some(m) if !loaded.is_strict_fallback() => m,
        Some(_) => {
            warnings.push("--mode ignored: the config could not be loaded".into());
            Mode::Manual
        }
        None => cfg.mode,
    };
    let Analysed {
        ctx,
        analysis,
        findings,
        keys,
    } = analyse(req, cfg);
    let ladder = ladder::Ladder {
        req,
        cfg,
        mode,
        ctx: &ctx,
        analysis: &analysis,
        findings: &findings,
        keys: &keys,
    };
    let (decision, decided_by, reason) = ladder.decide(store, &mut warnings);
    // After the decision, before the answer: a checkpoint when the command may run.
    let cp = checkpoint::step(req, loaded, &analysis, &findings, decision, store);
    let reason = match &cp {
        Some(n) => format!("{reason}; {}", n.text),
        None => reason,
    };
    let mut v = Verdict {
        decision,
        reason,
        decided_by,
        findings,
        keys,
        mode,
        analysis,
        warnings,
        ledger_id: None,
        checkpoint: cp,
    };
    let entry = ledger_entry(req, &v, None, None);
    v.ledger_id = append(store, &entry, "decision", &mut v.warnings);
    v
}

/// The decision on an analysis without a config: the same decision order as [`evaluate`]
/// under the default config (manual mode, no deny globs, no allowlist, no approvals, a
/// person can answer), which comes to: a block finding → deny, any other finding → ask,
/// nothing found → allow. What the corpus, benches, examples and library users without a
/// config call; nothing is recorded.
pub fn decide_default(a: &Analysis) -> Decision {
    let cfg = Config::default();
    let req = Request::new(a.command.as_str(), Context::default());
    let keys = finding_keys(a, &a.findings);
    let ladder = ladder::Ladder {
        req: &req,
        cfg: &cfg,
        mode: cfg.mode,
        ctx: &req.context,
        analysis: a,
        findings: &a.findings,
        keys: &keys,
    };
    ladder.decide(&mut NullStore, &mut Vec::new()).0
}

/// Append a ledger entry; a failure becomes a warning (never a different decision).
fn append(
    store: &mut dyn Store,
    e: &LedgerEntry,
    what: &str,
    warnings: &mut Vec<String>,
) -> Option<i64> {
    match store.append(e) {
        Ok(0) => None,
        Ok(id) => Some(id),
        Err(x) => {
            warnings.push(format!("the {what} was not recorded: {x}"));
            None
        }
    }
}

fn ledger_findings(v: &[Finding], keys: &[FindingKey]) -> Vec<LedgerFinding> {
    v.iter()
        .zip(keys)
        .map(|(f, k)| LedgerFinding {
            rule: f.rule.to_string(),
            name: f.name.to_string(),
            severity: match f.severity {
                Severity::Block => "block".into(),
                Severity::Approve => "approve".into(),
            },
            message: f.message.clone(),
            target: k.target.clone(),
        })
        .collect()
}

fn ledger_entry(
    req: &Request,
    v: &Verdict,
    answer: Option<Answer>,
    by: Option<&str>,
) -> LedgerEntry {
    LedgerEntry {
        id: 0,
        time: req.now(),
        harness: req.harness.clone(),
        session: req.session.clone(),
        cwd: req.context.cwd.clone(),
        command: req.command.clone(),
        decision: v.decision,
        findings: ledger_findings(&v.findings, &v.keys),
        decided_by: by.unwrap_or(v.decided_by.as_str()).to_string(),
        detail: v.decided_by.detail(),
        answer,
        reason: v.reason.clone(),
        checkpoint: v.checkpoint.as_ref().and_then(|c| c.id),
    }
}

/// The SQLite store at the configured state path (`$XDG_STATE_HOME/shellgate/state.db`),
/// opened on first use. Without a known path (no `HOME`), a store that reports every use
/// as an error, so nothing is silently dropped.
pub fn open_store(loaded: &LoadedConfig) -> Box<dyn Store> {
    match &loaded.paths.state_db {
        Some(p) => Box::new(SqliteStore::new(p.clone())),
        None => Box::new(FailingStore(
            "no state directory is known (set HOME or XDG_STATE_HOME)".into(),
        )),
    }
}

/// A store whose every use fails with one message.
#[derive(Debug, Clone)]
pub struct FailingStore(pub String);

impl Store for FailingStore {
    fn approvals(&mut self, _: Option<&str>, _: i64) -> Result<Vec<Approval>, StoreError> {
        Err(StoreError(self.0.clone()))
    }
    fn all_approvals(&mut self, _: i64) -> Result<Vec<Approval>, StoreError> {
        Err(StoreError(self.0.clone()))
    }
    fn add_approval(&mut self, _: &NewApproval) -> Result<i64, StoreError> {
        Err(StoreError(self.0.clone()))
    }
    fn take_approval(&mut self, _: i64) -> Result<bool, StoreError> {
        Err(StoreError(self.0.clone()))
    }
    fn revoke(&mut self, _: i64) -> Result<bool, StoreError> {
        Err(StoreError(self.0.clone()))
    }
    fn clear(&mut self, _: Option<&str>) -> Result<usize, StoreError> {
        Err(StoreError(self.0.clone()))
    }
    fn append(&mut self, _: &LedgerEntry) -> Result<i64, StoreError> {
        Err(StoreError(self.0.clone()))
    }
    fn query(&mut self, _: &LogQuery) -> Result<Vec<LedgerEntry>, StoreError> {
        Err(StoreError(self.0.clone()))
    }
}
