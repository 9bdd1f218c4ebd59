//! The policy layer: turns an analysis into what the user wants (config, modes, deny
//! globs, approvals, unattended runs), and records every decision in a ledger.
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
//! - [`record_answer`]`(&Request, Answer, AnswerSource, &LoadedConfig, &mut dyn Store) ->
//!   Recorded`: a person's answer to an `ask` (once / session / always / deny / timeout),
//!   or a harness reporting that a command it asked about ran (`AnswerSource::HarnessRan`,
//!   e.g. Claude Code's PostToolUse after `ask`, recorded as approved once).
//! - [`Store`]: approvals and ledger; [`SqliteStore`] (WAL, busy timeout, short
//!   transactions; safe for many processes), [`MemoryStore`] for tests, [`NullStore`] for
//!   `--no-config`.
//! - [`Config::write_roots`] and [`Config::protected_paths`] are for the hooks' file-write
//!   guard; [`glob::matches`] is the fnmatch used everywhere here.
//!
//! # Decision order
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

pub mod checkpoint;
pub mod config;
pub mod glob;
pub mod hermes_import;
pub mod matching;
pub mod smart;
pub mod sqlite;
pub mod store;
pub mod suggest;

use std::borrow::Cow;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::rules::{Category, Finding};
use crate::{Analysis, Context, Decision, Severity, analyze};

pub use checkpoint::{CheckpointNote, Checkpoints};
pub use config::{
    CheckpointConfig, Config, ConfigError, DEFAULT_TIMEOUT, LoadedConfig, Mode, Paths, SmartConfig,
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

/// The analysis context a request runs under (the policy, not the analyser, applies the
/// mode and unattended behaviour).
fn analysis_context<'a>(req: &'a Request, cfg: &Config) -> Cow<'a, Context> {
    let c = &req.context;
    // Most requests already have what the analysis needs (a batch asks this per line):
    // borrowed then, not copied.
    if c.mode == crate::Mode::Manual
        && !c.unattended
        && c.sudo_password_configured == cfg.sudo_password_configured
        && cfg.protected_paths.is_empty()
        && cfg.harness_processes.is_empty()
    {
        return Cow::Borrowed(c);
    }
    let mut ctx = req.context.clone();
    ctx.mode = crate::Mode::Manual;
    ctx.unattended = false;
    ctx.sudo_password_configured = cfg.sudo_password_configured;
    ctx.protected_paths
        .extend(cfg.protected_paths.iter().cloned());
    ctx.harness_names
        .extend(cfg.harness_processes.iter().cloned());
    Cow::Owned(ctx)
}

/// Analyse the request's command and apply `[severity]` overrides.
fn analyse(req: &Request, cfg: &Config) -> (Analysis, Vec<Finding>, Vec<FindingKey>) {
    let a = analyze(&req.command, &analysis_context(req, cfg));
    let findings: Vec<Finding> = a
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
    let keys = findings.iter().map(|f| finding_key(&a, f)).collect();
    (a, findings, keys)
}

fn messages(findings: &[&Finding]) -> String {
    let mut m: Vec<String> = findings
        .iter()
        .map(|f| format!("{} ({} {})", f.message, f.rule, f.name))
        .collect();
    m.dedup();
    m.join("; ")
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
    let (analysis, findings, keys) = analyse(req, cfg);
    let (decision, decided_by, reason) = decide(
        req,
        loaded,
        mode,
        &analysis,
        &findings,
        &keys,
        store,
        &mut warnings,
    );
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

#[allow(clippy::too_many_arguments)]
fn decide(
    req: &Request,
    loaded: &LoadedConfig,
    mode: Mode,
    a: &Analysis,
    findings: &[Finding],
    keys: &[FindingKey],
    store: &mut dyn Store,
    warnings: &mut Vec<String>,
) -> (Decision, DecidedBy, String) {
    let cfg = &loaded.config;
    // 1. Unconditional findings.
    let blocks: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.severity == Severity::Block)
        .collect();
    if let Some(first) = blocks.first() {
        return (
            Decision::Deny,
            DecidedBy::Rule {
                rule: first.rule.to_string(),
            },
            format!(
                "shellgate blocked this command: {}. This is never allowed, in any mode; do not retry it or rewrite it to get around the check.",
                messages(&blocks)
            ),
        );
    }
    // 2. User deny globs.
    if let Some((g, matched)) = matching::deny_match(&cfg.deny, a) {
        return (
            Decision::Deny,
            DecidedBy::DenyGlob {
                glob: g.to_string(),
                matched: matched.clone(),
            },
            format!(
                "denied by the user's deny rule `{g}` (it matched `{matched}`). Do not retry it or rewrite it to get around the rule."
            ),
        );
    }
    // 3. Nothing found; mode off.
    if findings.is_empty() {
        return (
            Decision::Allow,
            DecidedBy::NoFindings,
            "no risk found".into(),
        );
    }
    let unanalysed = findings.iter().any(|f| f.category == Category::Analysis);
    if mode == Mode::Off && !unanalysed {
        return (
            Decision::Allow,
            DecidedBy::ModeOff,
            format!(
                "allowed because approvals are off (mode = \"off\"): {}",
                messages(&findings.iter().collect::<Vec<_>>())
            ),
        );
    }
    // 4. Approvals.
    let now = req.now();
    let approvals = match store.approvals(req.session.as_deref(), now) {
        Ok(v) => v,
        Err(e) => {
            warnings.push(format!(
                "approvals could not be read, so none were applied: {e}"
            ));
            Vec::new()
        }
    };
    let entries: Vec<(String, AllowEntry)> = cfg
        .allow
        .iter()
        .map(|e| (e.clone(), AllowEntry::parse(e)))
        .collect();
    let mut by_allow = Vec::new();
    let mut by_session = Vec::new();
    let mut uncovered: Vec<usize> = Vec::new();
    for (i, (f, k)) in findings.iter().zip(keys).enumerate() {
        if let Some((text, _)) = entries.iter().find(|(_, e)| e.covers(f, k)) {
            if !by_allow.contains(text) {
                by_allow.push(text.clone());
            }
            continue;
        }
        if let Some(ap) = approvals
            .iter()
            .find(|ap| ap.scope == Scope::Session && ap.keys.iter().any(|x| x == k))
        {
            if !by_session.contains(&ap.id) {
                by_session.push(ap.id);
            }
            continue;
        }
        uncovered.push(i);
    }
    if uncovered.is_empty() {
        let d = DecidedBy::Approvals {
            allowlist: by_allow,
            session: by_session,
            once: None,
        };
        let why = d.detail().unwrap_or_default();
        return (Decision::Allow, d, format!("allowed by {why}"));
    }
    // A once approval covers exactly this command, run in this directory.
    for ap in approvals.iter().filter(|ap| {
        ap.scope == Scope::Once && ap.command == req.command && ap.cwd.as_deref() == req.cwd()
    }) {
        match store.take_approval(ap.id) {
            Ok(true) => {
                let d = DecidedBy::Approvals {
                    allowlist: Vec::new(),
                    session: Vec::new(),
                    once: Some(ap.id),
                };
                return (
                    Decision::Allow,
                    d,
                    format!("allowed once by approval #{}", ap.id),
                );
            }
            Ok(false) => {}
            Err(e) => warnings.push(format!("a once approval could not be used: {e}")),
        }
    }
    let rest: Vec<&Finding> = uncovered.iter().map(|i| &findings[*i]).collect();
    // 5. Smart mode.
    if mode == Mode::Smart && !unanalysed {
        let ctx = analysis_context(req, cfg);
        let low: Vec<Option<String>> = rest.iter().map(|f| smart::low_risk(a, f, &ctx)).collect();
        if low.iter().all(Option::is_some) {
            let why: Vec<String> = low.into_iter().flatten().collect();
            return (
                Decision::Allow,
                DecidedBy::Smart { why: why.clone() },
                format!("allowed by smart mode as low-risk: {}", why.join("; ")),
            );
        }
        if let Some(cmd) = &cfg.smart.assessor {
            let pending: Vec<(Finding, FindingKey)> = uncovered
                .iter()
                .map(|i| (findings[*i].clone(), keys[*i].clone()))
                .collect();
            let input = smart::assessor_input(
                a,
                req.cwd(),
                req.session.as_deref(),
                req.harness.as_deref(),
                &pending,
            );
            let (verdict, reason) =
                smart::assess(cmd, Duration::from_secs(cfg.smart.assessor_timeout), &input);
            let by = DecidedBy::Assessor {
                verdict: format!("{verdict:?}").to_lowercase(),
                reason: reason.clone(),
            };
            match verdict {
                smart::AssessorVerdict::Allow => {
                    return (
                        Decision::Allow,
                        by,
                        format!("allowed by the smart-mode assessor: {reason}"),
                    );
                }
                smart::AssessorVerdict::Deny => {
                    return (
                        Decision::Deny,
                        by,
                        format!(
                            "denied by the smart-mode assessor: {reason}. Findings: {}",
                            messages(&rest)
                        ),
                    );
                }
                smart::AssessorVerdict::Ask => {
                    warnings.push(format!("assessor: {reason}"));
                }
            }
        }
    }
    // 6. Ask, or deny when nobody can answer.
    if req.unattended && cfg.unattended == Unattended::Deny {
        return (
            Decision::Deny,
            DecidedBy::Unattended,
            format!(
                "denied: this command needs a person's approval and none can answer (unattended run): {}",
                messages(&rest)
            ),
        );
    }
    (
        Decision::Ask,
        DecidedBy::Ask,
        format!("needs a person's approval: {}", messages(&rest)),
    )
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

/// Where an answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerSource {
    /// shellgate's own prompt (`shellgate exec`); the command runs right after an allow.
    Prompt,
    /// The harness's own prompt approved it and the command ran (e.g. Claude Code's
    /// PostToolUse after an `ask`). Recorded with `decided_by = "harness"`.
    HarnessRan,
    /// A person approved it out of band and the harness will submit it again: a `once`
    /// answer then stores a once approval that the next identical request uses up.
    Deferred,
}

/// What [`record_answer`] stored.
#[derive(Debug, Clone, Default)]
pub struct Recorded {
    pub ledger_id: Option<i64>,
    /// Approvals stored (session approvals, or the deferred once approval).
    pub approvals: Vec<i64>,
    /// Entries added to the config's `allow` list by an `always` answer.
    pub allow_entries: Vec<String>,
    /// What could not be stored.
    pub warnings: Vec<String>,
    /// The checkpoint taken before a command a person allowed at shellgate's own prompt.
    pub checkpoint: Option<CheckpointNote>,
}

/// Record a person's answer to an `ask` for `req`:
/// - `Once`: allowed this time (a deferred answer stores a once approval);
/// - `Session`: a session approval for each finding (rule + target + detail), expiring
///   after `session_ttl`; needs `req.session`;
/// - `Always`: `RULE: TARGET` entries appended to the user config's `allow` list, where
///   they are visible and editable;
/// - `Deny`, `Timeout`: denied.
///
/// Every answer is appended to the ledger with `decided_by = "person"` (or `"harness"`).
pub fn record_answer(
    req: &Request,
    answer: Answer,
    source: AnswerSource,
    loaded: &LoadedConfig,
    store: &mut dyn Store,
) -> Recorded {
    let cfg = &loaded.config;
    let (analysis, findings, keys) = analyse(req, cfg);
    let mut rec = Recorded::default();
    let now = req.now();
    // A block finding or deny glob is never approved, whatever the answer says.
    let blocked = findings.iter().any(|f| f.severity == Severity::Block)
        || matching::deny_match(&cfg.deny, &analysis).is_some();
    let answer = if blocked && answer.decision() == Decision::Allow {
        rec.warnings.push(
            "the command is blocked (block rule or deny glob); the answer was recorded as deny"
                .into(),
        );
        Answer::Deny
    } else {
        answer
    };
    let approvable: Vec<FindingKey> = findings.iter().zip(&keys).map(|(_, k)| k.clone()).collect();
    match answer {
        Answer::Once if source == AnswerSource::Deferred => {
            let a = NewApproval {
                scope: Scope::Once,
                session: req.session.clone(),
                keys: approvable.clone(),
                command: req.command.clone(),
                cwd: req.context.cwd.clone(),
                harness: req.harness.clone(),
                created: now,
                expires: Some(later(now, cfg.timeout.max(1))),
            };
            match store.add_approval(&a) {
                Ok(id) => rec.approvals.push(id),
                Err(e) => rec
                    .warnings
                    .push(format!("the once approval was not stored: {e}")),
            }
        }
        Answer::Session => match &req.session {
            Some(s) => {
                for k in &approvable {
                    let a = NewApproval {
                        scope: Scope::Session,
                        session: Some(s.clone()),
                        keys: vec![k.clone()],
                        command: req.command.clone(),
                        cwd: req.context.cwd.clone(),
                        harness: req.harness.clone(),
                        created: now,
                        expires: Some(later(now, cfg.session_ttl)),
                    };
                    match store.add_approval(&a) {
                        Ok(id) => rec.approvals.push(id),
                        Err(e) => rec
                            .warnings
                            .push(format!("the session approval was not stored: {e}")),
                    }
                }
            }
            None => rec
                .warnings
                .push("no session id, so the approval applies to this run only".into()),
        },
        Answer::Always => {
            let entries: Vec<String> = findings
                .iter()
                .zip(&keys)
                .filter(|(f, _)| f.category != Category::Analysis)
                .map(|(_, k)| matching::always_entry(k))
                .collect();
            if findings.iter().any(|f| f.category == Category::Analysis) {
                rec.warnings.push(
                    "what shellgate could not analyse is never added to the allowlist; it was approved this time only".into(),
                );
            }
            match (&loaded.paths.config, loaded.is_strict_fallback()) {
                (_, true) => rec.warnings.push(
                    "the config could not be loaded, so nothing was added to its allow list; this run only".into(),
                ),
                (None, _) => rec
                    .warnings
                    .push("no config file path is known (HOME unset?); this run only".into()),
                (Some(p), false) => match add_allow_entries(p, &entries) {
                    Ok(added) => rec.allow_entries = added,
                    Err(e) => rec
                        .warnings
                        .push(format!("the allow list was not updated: {e}")),
                },
            }
        }
        _ => {}
    }
    let reason = match answer {
        Answer::Once => "approved once by a person".to_string(),
        Answer::Session => "approved for the session by a person".to_string(),
        Answer::Always => format!(
            "approved always by a person{}",
            if rec.allow_entries.is_empty() {
                String::new()
            } else {
                format!(" (allow {})", rec.allow_entries.join(", "))
            }
        ),
        Answer::Deny => "denied by a person".to_string(),
        Answer::Timeout => "denied: nobody answered the prompt in time".to_string(),
    };
    if source == AnswerSource::Prompt && answer.decision() == Decision::Allow {
        rec.checkpoint =
            checkpoint::step(req, loaded, &analysis, &findings, Decision::Allow, store);
    }
    let reason = match &rec.checkpoint {
        Some(n) => format!("{reason}; {}", n.text),
        None => reason,
    };
    let by = match source {
        AnswerSource::HarnessRan => "harness",
        _ => "person",
    };
    let entry = LedgerEntry {
        id: 0,
        time: now,
        harness: req.harness.clone(),
        session: req.session.clone(),
        cwd: req.context.cwd.clone(),
        command: req.command.clone(),
        decision: answer.decision(),
        findings: ledger_findings(&findings, &keys),
        decided_by: by.to_string(),
        detail: (!rec.allow_entries.is_empty()).then(|| rec.allow_entries.join(", ")),
        answer: Some(answer),
        reason,
        checkpoint: rec.checkpoint.as_ref().and_then(|c| c.id),
    };
    rec.ledger_id = append(store, &entry, "answer", &mut rec.warnings);
    rec
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
