//! The approvals store and decision ledger interface, and an in-memory implementation
//! for tests. The SQLite implementation is `SqliteStore` (`sqlite.rs`).

use serde::{Deserialize, Serialize};

use crate::Decision;

/// How long an approval lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// One run of exactly this command (in this directory and session); used up when it
    /// allows the command.
    Once,
    /// Findings with this rule and target, for the rest of the session (until it expires).
    Session,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Once => "once",
            Scope::Session => "session",
        }
    }
    pub fn parse(s: &str) -> Option<Scope> {
        match s {
            "once" => Some(Scope::Once),
            "session" => Some(Scope::Session),
            _ => None,
        }
    }
}

/// What one finding is about: the key an approval must match.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FindingKey {
    /// Rule code (`SG2001`).
    pub rule: String,
    /// The text of the pipeline the finding is in, whitespace collapsed (`rm -rf build`).
    pub target: String,
    /// The finding's message, which names the resolved path, remote or resource.
    pub detail: String,
}

/// A stored approval.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Approval {
    pub id: i64,
    pub scope: Scope,
    pub session: Option<String>,
    /// For `Session` scope: the finding it covers. For `Once`: every finding of the command.
    pub keys: Vec<FindingKey>,
    /// The command that was approved (for `Once`, the only command it covers).
    pub command: String,
    pub cwd: Option<String>,
    pub harness: Option<String>,
    /// Unix seconds.
    pub created: i64,
    /// Unix seconds after which it no longer applies.
    pub expires: Option<i64>,
}

/// An approval to store (the store assigns the id).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewApproval {
    pub scope: Scope,
    pub session: Option<String>,
    pub keys: Vec<FindingKey>,
    pub command: String,
    pub cwd: Option<String>,
    pub harness: Option<String>,
    pub created: i64,
    pub expires: Option<i64>,
}

impl NewApproval {
    fn with_id(&self, id: i64) -> Approval {
        Approval {
            id,
            scope: self.scope,
            session: self.session.clone(),
            keys: self.keys.clone(),
            command: self.command.clone(),
            cwd: self.cwd.clone(),
            harness: self.harness.clone(),
            created: self.created,
            expires: self.expires,
        }
    }
}

/// A person's answer to a prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Answer {
    Once,
    Session,
    Always,
    Deny,
    /// Nobody answered before the timeout.
    Timeout,
}

impl Answer {
    pub fn as_str(self) -> &'static str {
        match self {
            Answer::Once => "once",
            Answer::Session => "session",
            Answer::Always => "always",
            Answer::Deny => "deny",
            Answer::Timeout => "timeout",
        }
    }
    pub fn parse(s: &str) -> Option<Answer> {
        match s {
            "once" => Some(Answer::Once),
            "session" => Some(Answer::Session),
            "always" => Some(Answer::Always),
            "deny" => Some(Answer::Deny),
            "timeout" => Some(Answer::Timeout),
            _ => None,
        }
    }
    /// The decision the answer makes.
    pub fn decision(self) -> Decision {
        match self {
            Answer::Once | Answer::Session | Answer::Always => Decision::Allow,
            Answer::Deny | Answer::Timeout => Decision::Deny,
        }
    }
}

/// One finding as the ledger records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerFinding {
    pub rule: String,
    pub name: String,
    pub severity: String,
    pub message: String,
    pub target: String,
}

/// One decision in the ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LedgerEntry {
    /// Assigned by the store; 0 before it is appended.
    pub id: i64,
    /// Unix seconds.
    pub time: i64,
    pub harness: Option<String>,
    pub session: Option<String>,
    pub cwd: Option<String>,
    pub command: String,
    pub decision: Decision,
    pub findings: Vec<LedgerFinding>,
    /// What decided it: `rule`, `deny-glob`, `no-findings`, `mode-off`, `allowlist`,
    /// `session-approval`, `once-approval`, `smart`, `assessor`, `ask`, `unattended`,
    /// `person`, `harness`.
    pub decided_by: String,
    /// The rule code, glob, allowlist entries, approval ids or assessor reason.
    pub detail: Option<String>,
    /// The person's answer, for prompts.
    pub answer: Option<Answer>,
    pub reason: String,
    /// The checkpoint taken before the command could run (`shellgate undo ID`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<i64>,
}

/// A ledger query; every field narrows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogQuery {
    /// Unix seconds: entries at or after it.
    pub since: Option<i64>,
    pub decision: Option<Decision>,
    pub session: Option<String>,
    pub harness: Option<String>,
    /// Only entries decided by a person (or the harness's own prompt) allowing the command.
    pub approved_only: bool,
    /// Most entries to return (newest first); `None` for all.
    pub limit: Option<usize>,
}

impl LogQuery {
    pub fn accepts(&self, e: &LedgerEntry) -> bool {
        self.since.is_none_or(|s| e.time >= s)
            && self.decision.is_none_or(|d| e.decision == d)
            && self
                .session
                .as_ref()
                .is_none_or(|s| e.session.as_ref() == Some(s))
            && self
                .harness
                .as_ref()
                .is_none_or(|h| e.harness.as_ref() == Some(h))
            && (!self.approved_only
                || (e.decision == Decision::Allow
                    && matches!(e.decided_by.as_str(), "person" | "harness")))
    }
}

/// One checkpoint in the index (its files and manifest are in the project's shadow store).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointRecord {
    /// Assigned by the store; 0 before it is added.
    pub id: i64,
    /// Unix seconds.
    pub time: i64,
    /// The project's root directory.
    pub project: String,
    /// The shadow store (a bare git directory).
    pub store: String,
    pub cwd: Option<String>,
    pub session: Option<String>,
    pub harness: Option<String>,
    pub command: String,
    /// The checkpoint's commit in the store, once written.
    pub commit: Option<String>,
    /// Files and symlinks captured, and their bytes.
    pub files: u64,
    pub bytes: u64,
    /// One line for people: what it holds and what it left out.
    pub summary: String,
    /// What the command left at each captured path once it ran (path → blob id), when a
    /// front end saw it run; `undo` tells the command's changes from later ones by it.
    pub after: Option<std::collections::BTreeMap<String, String>>,
}

/// A store that failed; the policy reports it and never lets it turn into allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct StoreError(pub String);

/// Approvals and the ledger. Implementations must be safe to use from many processes at
/// once (the SQLite one is); each call is one short transaction.
pub trait Store {
    /// Approvals in force at `now` for `session` (session approvals of other sessions and
    /// expired ones are left out; once approvals without a session apply to any).
    fn approvals(&mut self, session: Option<&str>, now: i64) -> Result<Vec<Approval>, StoreError>;
    /// Every approval still in force at `now`, any session (for `approvals list`).
    fn all_approvals(&mut self, now: i64) -> Result<Vec<Approval>, StoreError>;
    fn add_approval(&mut self, a: &NewApproval) -> Result<i64, StoreError>;
    /// Use up a once approval: true when it was still there (and now is not).
    fn take_approval(&mut self, id: i64) -> Result<bool, StoreError>;
    /// Remove one approval; true when it existed.
    fn revoke(&mut self, id: i64) -> Result<bool, StoreError>;
    /// Remove every approval (of one session); returns how many.
    fn clear(&mut self, session: Option<&str>) -> Result<usize, StoreError>;
    /// Append a decision; returns its id.
    fn append(&mut self, e: &LedgerEntry) -> Result<i64, StoreError>;
    /// Ledger entries matching `q`, oldest first.
    fn query(&mut self, q: &LogQuery) -> Result<Vec<LedgerEntry>, StoreError>;
    /// Add a checkpoint to the index; returns its id.
    fn add_checkpoint(&mut self, _c: &CheckpointRecord) -> Result<i64, StoreError> {
        Err(StoreError("checkpoints are not kept here".into()))
    }
    /// Replace a checkpoint's record (same id).
    fn update_checkpoint(&mut self, _c: &CheckpointRecord) -> Result<(), StoreError> {
        Err(StoreError("checkpoints are not kept here".into()))
    }
    /// Checkpoints, oldest first: all, or one project's.
    fn checkpoints(&mut self, _project: Option<&str>) -> Result<Vec<CheckpointRecord>, StoreError> {
        Ok(Vec::new())
    }
    /// Remove checkpoints from the index.
    fn remove_checkpoints(&mut self, _ids: &[i64]) -> Result<(), StoreError> {
        Ok(())
    }
}

/// Approvals and ledger in memory: for tests, and for one-process front ends.
#[derive(Debug, Default, Clone)]
pub struct MemoryStore {
    pub approvals: Vec<Approval>,
    pub ledger: Vec<LedgerEntry>,
    pub checkpoints: Vec<CheckpointRecord>,
    next: i64,
}

impl MemoryStore {
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
}

pub(crate) fn in_force(a: &Approval, session: Option<&str>, now: i64) -> bool {
    let live = a.expires.is_none_or(|e| now < e);
    let same_session = match (&a.session, session) {
        (None, _) => a.scope == Scope::Once,
        (Some(s), Some(q)) => s == q,
        (Some(_), None) => false,
    };
    live && same_session
}

impl Store for MemoryStore {
    fn approvals(&mut self, session: Option<&str>, now: i64) -> Result<Vec<Approval>, StoreError> {
        Ok(self
            .approvals
            .iter()
            .filter(|a| in_force(a, session, now))
            .cloned()
            .collect())
    }
    fn all_approvals(&mut self, now: i64) -> Result<Vec<Approval>, StoreError> {
        Ok(self
            .approvals
            .iter()
            .filter(|a| a.expires.is_none_or(|e| now < e))
            .cloned()
            .collect())
    }
    fn add_approval(&mut self, a: &NewApproval) -> Result<i64, StoreError> {
        self.next += 1;
        self.approvals.push(a.with_id(self.next));
        Ok(self.next)
    }
    fn take_approval(&mut self, id: i64) -> Result<bool, StoreError> {
        self.revoke(id)
    }
    fn revoke(&mut self, id: i64) -> Result<bool, StoreError> {
        let n = self.approvals.len();
        self.approvals.retain(|a| a.id != id);
        Ok(self.approvals.len() != n)
    }
    fn clear(&mut self, session: Option<&str>) -> Result<usize, StoreError> {
        let n = self.approvals.len();
        self.approvals
            .retain(|a| session.is_some_and(|s| a.session.as_deref() != Some(s)));
        Ok(n - self.approvals.len())
    }
    fn append(&mut self, e: &LedgerEntry) -> Result<i64, StoreError> {
        self.next += 1;
        let mut e = e.clone();
        e.id = self.next;
        self.ledger.push(e);
        Ok(self.next)
    }
    fn query(&mut self, q: &LogQuery) -> Result<Vec<LedgerEntry>, StoreError> {
        let mut v: Vec<LedgerEntry> = self
            .ledger
            .iter()
            .filter(|e| q.accepts(e))
            .cloned()
            .collect();
        if let Some(l) = q.limit
            && v.len() > l
        {
            v.drain(..v.len() - l);
        }
        Ok(v)
    }
    fn add_checkpoint(&mut self, c: &CheckpointRecord) -> Result<i64, StoreError> {
        self.next += 1;
        let mut c = c.clone();
        c.id = self.next;
        self.checkpoints.push(c);
        Ok(self.next)
    }
    fn update_checkpoint(&mut self, c: &CheckpointRecord) -> Result<(), StoreError> {
        match self.checkpoints.iter_mut().find(|x| x.id == c.id) {
            Some(x) => {
                *x = c.clone();
                Ok(())
            }
            None => Err(StoreError(format!("no checkpoint {}", c.id))),
        }
    }
    fn checkpoints(&mut self, project: Option<&str>) -> Result<Vec<CheckpointRecord>, StoreError> {
        Ok(self
            .checkpoints
            .iter()
            .filter(|c| project.is_none_or(|p| c.project == p))
            .cloned()
            .collect())
    }
    fn remove_checkpoints(&mut self, ids: &[i64]) -> Result<(), StoreError> {
        self.checkpoints.retain(|c| !ids.contains(&c.id));
        Ok(())
    }
}

/// A store that keeps nothing: `--no-config` and pure analysis.
#[derive(Debug, Default, Clone, Copy)]
pub struct NullStore;

impl Store for NullStore {
    fn approvals(&mut self, _: Option<&str>, _: i64) -> Result<Vec<Approval>, StoreError> {
        Ok(Vec::new())
    }
    fn all_approvals(&mut self, _: i64) -> Result<Vec<Approval>, StoreError> {
        Ok(Vec::new())
    }
    fn add_approval(&mut self, _: &NewApproval) -> Result<i64, StoreError> {
        Err(StoreError("no state is kept (--no-config)".into()))
    }
    fn take_approval(&mut self, _: i64) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn revoke(&mut self, _: i64) -> Result<bool, StoreError> {
        Ok(false)
    }
    fn clear(&mut self, _: Option<&str>) -> Result<usize, StoreError> {
        Ok(0)
    }
    fn append(&mut self, _: &LedgerEntry) -> Result<i64, StoreError> {
        Ok(0)
    }
    fn query(&mut self, _: &LogQuery) -> Result<Vec<LedgerEntry>, StoreError> {
        Ok(Vec::new())
    }
}

/// A view of a store that reads approvals but does not write the ledger: for `check` and
/// `explain`, which inspect decisions without making them.
pub struct NoLedger<'a>(pub &'a mut dyn Store);

impl Store for NoLedger<'_> {
    fn approvals(&mut self, session: Option<&str>, now: i64) -> Result<Vec<Approval>, StoreError> {
        self.0.approvals(session, now)
    }
    fn all_approvals(&mut self, now: i64) -> Result<Vec<Approval>, StoreError> {
        self.0.all_approvals(now)
    }
    fn add_approval(&mut self, a: &NewApproval) -> Result<i64, StoreError> {
        self.0.add_approval(a)
    }
    /// Inspection never uses up a once approval.
    fn take_approval(&mut self, _: i64) -> Result<bool, StoreError> {
        Ok(true)
    }
    fn revoke(&mut self, id: i64) -> Result<bool, StoreError> {
        self.0.revoke(id)
    }
    fn clear(&mut self, session: Option<&str>) -> Result<usize, StoreError> {
        self.0.clear(session)
    }
    fn append(&mut self, _: &LedgerEntry) -> Result<i64, StoreError> {
        Ok(0)
    }
    fn query(&mut self, q: &LogQuery) -> Result<Vec<LedgerEntry>, StoreError> {
        self.0.query(q)
    }
    /// Inspection takes no checkpoint, but may read them.
    fn checkpoints(&mut self, project: Option<&str>) -> Result<Vec<CheckpointRecord>, StoreError> {
        self.0.checkpoints(project)
    }
}
