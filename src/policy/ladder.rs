//! The decision ladder: how findings become allow / ask / deny, one function per step of
//! the decision order in the policy's module docs. A step either decides
//! (`ControlFlow::Break`) or passes the request on to the next.

use std::ops::ControlFlow;
use std::time::Duration;

use super::matching::{self, AllowEntry};
use super::store::{FindingKey, Scope, Store};
use super::{Config, DecidedBy, Request, Unattended, smart};
use crate::{Analysis, Context, Decision, Finding, Mode, Severity};

/// A decision, what made it, and the text for the person or the model.
pub(super) type Outcome = (Decision, DecidedBy, String);

/// Everything the ladder reads about one request.
pub(super) struct Ladder<'a> {
    pub(super) req: &'a Request,
    pub(super) cfg: &'a Config,
    /// The mode in force (the config's, or `--mode`).
    pub(super) mode: Mode,
    /// The context the command was analysed in.
    pub(super) ctx: &'a Context,
    pub(super) analysis: &'a Analysis,
    /// The findings after `[severity]` overrides, and their approval keys (same order).
    pub(super) findings: &'a [Finding],
    pub(super) keys: &'a [FindingKey],
}

impl Ladder<'_> {
    /// Walk the steps in order; the first that decides, decides. Store and assessor
    /// failures go to `warnings` and never allow anything.
    pub(super) fn decide(&self, store: &mut dyn Store, warnings: &mut Vec<String>) -> Outcome {
        let mut steps = || {
            self.block()?;
            self.deny_glob()?;
            self.nothing_found_or_off()?;
            let uncovered = self.approvals(store, warnings)?;
            self.smart(&uncovered, warnings)?;
            ControlFlow::Continue(uncovered)
        };
        match steps() {
            ControlFlow::Break(decided) => decided,
            ControlFlow::Continue(uncovered) => self.ask(&uncovered),
        }
    }

    /// True when a finding says shellgate could not analyse the command: no mode may then
    /// allow it.
    fn unanalysed(&self) -> bool {
        crate::analysis::unanalysed(self.findings)
    }

    /// Step 1: unconditional (block) findings deny.
    fn block(&self) -> ControlFlow<Outcome> {
        let blocks: Vec<&Finding> = self
            .findings
            .iter()
            .filter(|f| f.severity == Severity::Block)
            .collect();
        let Some(first) = blocks.first() else {
            return ControlFlow::Continue(());
        };
        ControlFlow::Break((
            Decision::Deny,
            DecidedBy::Rule {
                rule: first.rule.to_string(),
            },
            format!(
                "shellgate blocked this command: {}. This is never allowed, in any mode; do not retry it or rewrite it to get around the check.",
                messages(&blocks)
            ),
        ))
    }

    /// Step 2: the user's deny globs deny.
    fn deny_glob(&self) -> ControlFlow<Outcome> {
        let Some((g, matched)) = matching::deny_match(&self.cfg.deny, self.analysis) else {
            return ControlFlow::Continue(());
        };
        ControlFlow::Break((
            Decision::Deny,
            DecidedBy::DenyGlob {
                glob: g.to_string(),
                matched: matched.clone(),
            },
            format!(
                "denied by the user's deny rule `{g}` (it matched `{matched}`). Do not retry it or rewrite it to get around the rule."
            ),
        ))
    }

    /// Step 3: nothing found allows; mode off allows what was analysed.
    fn nothing_found_or_off(&self) -> ControlFlow<Outcome> {
        if self.findings.is_empty() {
            return ControlFlow::Break((
                Decision::Allow,
                DecidedBy::NoFindings,
                "no risk found".into(),
            ));
        }
        if self.mode == Mode::Off && !self.unanalysed() {
            return ControlFlow::Break((
                Decision::Allow,
                DecidedBy::ModeOff,
                format!(
                    "allowed because approvals are off (mode = \"off\"): {}",
                    messages(&self.findings.iter().collect::<Vec<_>>())
                ),
            ));
        }
        ControlFlow::Continue(())
    }

    /// Step 4: allowlist entries and session approvals allow when they cover every
    /// finding; else a once approval of exactly this command in this directory (used up).
    /// Passes on the indices of the findings nothing covered.
    fn approvals(
        &self,
        store: &mut dyn Store,
        warnings: &mut Vec<String>,
    ) -> ControlFlow<Outcome, Vec<usize>> {
        let req = self.req;
        let approvals = match store.approvals(req.session.as_deref(), req.now()) {
            Ok(v) => v,
            Err(e) => {
                warnings.push(format!(
                    "approvals could not be read, so none were applied: {e}"
                ));
                Vec::new()
            }
        };
        let entries: Vec<(String, AllowEntry)> = self
            .cfg
            .allow
            .iter()
            .map(|e| (e.clone(), AllowEntry::parse(e)))
            .collect();
        let mut by_allow = Vec::new();
        let mut by_session = Vec::new();
        let mut uncovered: Vec<usize> = Vec::new();
        for (i, (f, k)) in self.findings.iter().zip(self.keys).enumerate() {
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
            return ControlFlow::Break((Decision::Allow, d, format!("allowed by {why}")));
        }
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
                    return ControlFlow::Break((
                        Decision::Allow,
                        d,
                        format!("allowed once by approval #{}", ap.id),
                    ));
                }
                Ok(false) => {}
                Err(e) => warnings.push(format!("a once approval could not be used: {e}")),
            }
        }
        ControlFlow::Continue(uncovered)
    }

    /// Step 5: smart mode allows the remaining findings when shellgate rates each
    /// low-risk; otherwise the assessor, if configured, may allow, deny or ask.
    fn smart(&self, uncovered: &[usize], warnings: &mut Vec<String>) -> ControlFlow<Outcome> {
        if self.mode != Mode::Smart || self.unanalysed() {
            return ControlFlow::Continue(());
        }
        let low: Vec<Option<String>> = uncovered
            .iter()
            .map(|i| smart::low_risk(self.analysis, &self.findings[*i], self.ctx))
            .collect();
        if low.iter().all(Option::is_some) {
            let why: Vec<String> = low.into_iter().flatten().collect();
            return ControlFlow::Break((
                Decision::Allow,
                DecidedBy::Smart { why: why.clone() },
                format!("allowed by smart mode as low-risk: {}", why.join("; ")),
            ));
        }
        match &self.cfg.smart.assessor {
            Some(cmd) => self.assessor(cmd, uncovered, warnings),
            None => ControlFlow::Continue(()),
        }
    }

    /// Step 5, second half: the external assessor; its `ask` passes on, with its reason
    /// as a warning.
    fn assessor(
        &self,
        cmd: &str,
        uncovered: &[usize],
        warnings: &mut Vec<String>,
    ) -> ControlFlow<Outcome> {
        let req = self.req;
        let pending: Vec<(Finding, FindingKey)> = uncovered
            .iter()
            .map(|i| (self.findings[*i].clone(), self.keys[*i].clone()))
            .collect();
        let input = smart::assessor_input(
            self.analysis,
            req.cwd(),
            req.session.as_deref(),
            req.harness.as_deref(),
            &pending,
        );
        let timeout = Duration::from_secs(self.cfg.smart.assessor_timeout);
        let (verdict, reason) = smart::assess(cmd, timeout, &input);
        let by = DecidedBy::Assessor {
            verdict: format!("{verdict:?}").to_lowercase(),
            reason: reason.clone(),
        };
        match verdict {
            smart::AssessorVerdict::Allow => ControlFlow::Break((
                Decision::Allow,
                by,
                format!("allowed by the smart-mode assessor: {reason}"),
            )),
            smart::AssessorVerdict::Deny => ControlFlow::Break((
                Decision::Deny,
                by,
                format!(
                    "denied by the smart-mode assessor: {reason}. Findings: {}",
                    messages(&self.rest(uncovered))
                ),
            )),
            smart::AssessorVerdict::Ask => {
                warnings.push(format!("assessor: {reason}"));
                ControlFlow::Continue(())
            }
        }
    }

    /// Step 6: ask, or deny when nobody can answer (unless `unattended = "ask"`).
    fn ask(&self, uncovered: &[usize]) -> Outcome {
        let rest = messages(&self.rest(uncovered));
        if self.req.unattended && self.cfg.unattended == Unattended::Deny {
            return (
                Decision::Deny,
                DecidedBy::Unattended,
                format!(
                    "denied: this command needs a person's approval and none can answer (unattended run): {rest}"
                ),
            );
        }
        (
            Decision::Ask,
            DecidedBy::Ask,
            format!("needs a person's approval: {rest}"),
        )
    }

    /// The findings nothing approved.
    fn rest(&self, uncovered: &[usize]) -> Vec<&Finding> {
        uncovered.iter().map(|i| &self.findings[*i]).collect()
    }
}

/// The findings' messages with their rule, for a reason text (repeats dropped).
fn messages(findings: &[&Finding]) -> String {
    let mut m: Vec<String> = findings
        .iter()
        .map(|f| format!("{} ({} {})", f.message, f.rule, f.name))
        .collect();
    m.dedup();
    m.join("; ")
}
