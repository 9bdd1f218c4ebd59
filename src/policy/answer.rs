//! A person's answer to an `ask` (or a harness reporting that a command it asked about
//! ran): recorded in the ledger, and stored as approvals or allowlist entries.

use super::checkpoint::{self, CheckpointNote};
use super::config::{LoadedConfig, add_allow_entries};
use super::store::{Answer, FindingKey, LedgerEntry, NewApproval, Scope, Store};
use super::{Analysed, Request, analyse, append, later, ledger_findings, matching};
use crate::rules::Category;
use crate::{Decision, Severity};

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
    let Analysed {
        analysis,
        findings,
        keys,
        ..
    } = analyse(req, cfg);
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
