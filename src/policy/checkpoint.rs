//! The checkpoint step: when a decision can let a command run and the command destroys or
//! overwrites files ([`crate::model::affected`]), the affected files are captured into the
//! project's shadow store before the answer goes out ([`crate::checkpoint`]), and the
//! checkpoint is indexed in the state database and linked from the ledger. A checkpoint
//! that cannot be taken is said in the reason; it never changes the decision.
//!
//! When it runs: only for decisions with findings (a command with none is never
//! checkpointed), and only when the decision can lead to the command running —
//! allow (approvals, the allow list, smart mode, mode `off`), a person's answer in `exec`,
//! and an ask in a harness whose own prompt a person then answers ([`Checkpoints`]).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::store::{CheckpointRecord, Store};
use super::{LoadedConfig, Request};
use crate::checkpoint::{self, Settings};
use crate::model::affected::{Affected, affected};
use crate::{Analysis, Decision, Finding};

/// Which decisions of a front end lead to the command running, and so take a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Checkpoints {
    /// None (inspection: `check`, `explain`, and library callers unless they ask).
    #[default]
    Off,
    /// Only allow runs the command: the harness cannot ask, so an ask becomes a deny
    /// (Codex, Gemini CLI, Hermes shell hooks).
    Allow,
    /// Allow and ask may both run: an ask goes to the harness's own prompt (Claude Code,
    /// Copilot CLI, the Hermes plugin), after which shellgate hears nothing before it runs.
    AllowOrAsk,
    /// shellgate's own prompt (`exec`): allow takes the checkpoint, an ask says what one
    /// would hold, and a person's answer that allows takes it
    /// ([`super::record_answer`] with [`super::AnswerSource::Prompt`]).
    Prompt,
}

/// What the step did, for the reason and the ledger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointNote {
    /// The checkpoint taken, if any.
    pub id: Option<i64>,
    /// For the person: `checkpoint 42 taken (build/: 3 files, 1.2 kB): undo with
    /// `shellgate undo 42``, what one would hold, or why none was taken.
    pub text: String,
}

/// Seconds kept free before a hook's own deadline, to answer after a checkpoint.
const MARGIN: Duration = Duration::from_secs(2);

/// The checkpoint settings of a configuration (`None` when no state directory is known).
pub fn settings(loaded: &LoadedConfig) -> Option<Settings> {
    let dir = loaded.paths.checkpoints.clone()?;
    let c = &loaded.config.checkpoints;
    let mut s = Settings::new(dir);
    s.enabled = c.enabled;
    s.max_file = c.max_file_size;
    s.max_total = c.max_size;
    s.keep = c.keep;
    s.timeout = Duration::from_secs(c.timeout);
    Some(s)
}

/// When the checkpoint must be done: its own time budget, within the request's deadline.
fn deadline(req: &Request, s: &Settings) -> Instant {
    let own = Instant::now() + s.timeout;
    match req.deadline {
        Some(d) => own.min(d.checked_sub(MARGIN).unwrap_or(d)),
        None => own,
    }
}

fn note(text: impl Into<String>) -> Option<CheckpointNote> {
    Some(CheckpointNote {
        id: None,
        text: text.into(),
    })
}

/// The step after a decision: take a checkpoint (or, for an `exec` ask, say what one would
/// hold) when the decision may let the command run.
pub(crate) fn step(
    req: &Request,
    loaded: &LoadedConfig,
    a: &Analysis,
    findings: &[Finding],
    decision: Decision,
    store: &mut dyn Store,
) -> Option<CheckpointNote> {
    if findings.is_empty() {
        return None;
    }
    let take = match (decision, req.checkpoints) {
        (_, Checkpoints::Off) | (Decision::Deny, _) | (Decision::Ask, Checkpoints::Allow) => {
            return None;
        }
        (Decision::Allow, _) | (Decision::Ask, Checkpoints::AllowOrAsk) => true,
        (Decision::Ask, Checkpoints::Prompt) => false,
    };
    let items = affected(&a.script, req.context.home.as_deref());
    if items.is_empty() {
        return None;
    }
    if take {
        take_items(req, loaded, &items, store)
    } else {
        preview(req, loaded, &items)
    }
}

/// For inspection (`explain`): what a checkpoint would hold if the command were let
/// through, or why none would be taken; `None` when it destroys nothing or has no findings.
pub fn would_take(
    req: &Request,
    loaded: &LoadedConfig,
    a: &Analysis,
    findings: &[Finding],
) -> Option<CheckpointNote> {
    if findings.is_empty() {
        return None;
    }
    let items = affected(&a.script, req.context.home.as_deref());
    if items.is_empty() {
        return None;
    }
    preview(req, loaded, &items)
}

/// Work out the scope and plan for `items`, or say why there is none.
fn prepare(
    req: &Request,
    loaded: &LoadedConfig,
    items: &[Affected],
) -> Result<(Settings, checkpoint::Scope, checkpoint::Plan, Instant), String> {
    let Some(s) = settings(loaded) else {
        return Err(
            "not checkpointed: no state directory is known (set HOME or XDG_STATE_HOME)".into(),
        );
    };
    if !s.enabled {
        return Err("not checkpointed: checkpoints are off in the config".into());
    }
    let Some(cwd) = req.context.cwd.as_deref() else {
        return Err("not checkpointed: the working directory is not known".into());
    };
    let by = deadline(req, &s);
    let tmp = req.context.env.get("TMPDIR").map(String::as_str);
    let scope = checkpoint::scope(Path::new(cwd), req.context.home.as_deref(), tmp, &s);
    let plan = checkpoint::plan(items, &scope, &s, by);
    // The store is written by git: say so rather than promise a checkpoint (only asked
    // when there is something to write, so a command whose targets do not exist costs no
    // process).
    if !plan.is_empty()
        && let Err(e) = checkpoint::git_version(by)
    {
        return Err(format!("not checkpointed: {e}"));
    }
    Ok((s, scope, plan, by))
}

fn with_notes(head: String, notes: &[String]) -> String {
    if notes.is_empty() {
        head
    } else {
        format!("{head}; {}", notes.join("; "))
    }
}

/// What a checkpoint would hold, for a prompt.
fn preview(req: &Request, loaded: &LoadedConfig, items: &[Affected]) -> Option<CheckpointNote> {
    let (_, _, plan, _) = match prepare(req, loaded, items) {
        Ok(p) => p,
        Err(e) => return note(e),
    };
    if plan.is_empty() {
        return note(notes_or_nothing(&plan.notes));
    }
    let (files, bytes) = plan.size();
    let what = checkpoint::summary(
        files,
        bytes,
        &plan.roots,
        plan.git.iter().any(|g| !g.is_empty()),
    );
    note(with_notes(
        format!("a checkpoint is taken before it runs ({what})"),
        &plan.notes,
    ))
}

fn notes_or_nothing(notes: &[String]) -> String {
    if notes.is_empty() {
        "not checkpointed: nothing it changes exists yet".into()
    } else {
        notes.join("; ")
    }
}

/// Take a checkpoint of `items` for `req`, index it and keep the project's last
/// `keep`.
pub fn take_items(
    req: &Request,
    loaded: &LoadedConfig,
    items: &[Affected],
    store: &mut dyn Store,
) -> Option<CheckpointNote> {
    let (s, scope, plan, by) = match prepare(req, loaded, items) {
        Ok(p) => p,
        Err(e) => return note(e),
    };
    if plan.is_empty() {
        return note(notes_or_nothing(&plan.notes));
    }
    let shadow = checkpoint::Shadow::for_project(&s.dir, &scope.project);
    let mut rec = CheckpointRecord {
        id: 0,
        time: req.now(),
        project: scope.project.to_string_lossy().into_owned(),
        store: shadow.dir.to_string_lossy().into_owned(),
        cwd: req.context.cwd.clone(),
        session: req.session.clone(),
        harness: req.harness.clone(),
        command: req.command.clone(),
        commit: None,
        files: 0,
        bytes: 0,
        summary: String::new(),
        after: None,
    };
    let id = match store.add_checkpoint(&rec) {
        Ok(id) => id,
        Err(e) => return note(format!("not checkpointed: {e}")),
    };
    rec.id = id;
    let meta = checkpoint::Meta {
        id,
        time: rec.time,
        cwd: req.context.cwd.as_deref(),
        command: &req.command,
    };
    let (commit, m) = match checkpoint::write(plan, &scope, meta, &s, by) {
        Ok((_, commit, m)) => (commit, m),
        Err(e) => {
            let _ = store.remove_checkpoints(&[id]);
            return note(format!("not checkpointed: {e}"));
        }
    };
    let what = checkpoint::summary(m.files(), m.bytes(), &m.roots, m.git.is_some());
    rec.commit = Some(commit);
    rec.files = m.files() as u64;
    rec.bytes = m.bytes();
    rec.summary = with_notes(what.clone(), &m.notes);
    let mut text = with_notes(
        format!("checkpoint {id} taken ({what}): undo with `shellgate undo {id}`"),
        &m.notes,
    );
    if let Err(e) = store.update_checkpoint(&rec) {
        text.push_str(&format!(" (the index was not updated: {e})"));
    }
    retain(store, &shadow, &scope.project, s.keep, by);
    Some(CheckpointNote { id: Some(id), text })
}

/// Keep the project's newest `keep` checkpoints; older ones leave the index and the store
/// (the store's space is reclaimed within what is left of the time budget, else later).
fn retain(
    store: &mut dyn Store,
    shadow: &checkpoint::Shadow,
    project: &Path,
    keep: usize,
    by: Instant,
) {
    let Ok(all) = store.checkpoints(Some(&project.to_string_lossy())) else {
        return;
    };
    if all.len() <= keep {
        return;
    }
    let old: Vec<i64> = all[..all.len() - keep].iter().map(|c| c.id).collect();
    if store.remove_checkpoints(&old).is_ok() {
        let _ = shadow.drop_checkpoints(&old, by);
    }
}

/// After the command ran: record what it left at each captured path, so `undo` can tell
/// its changes from later ones. Errors are returned for the front end to report.
pub fn record_after(loaded: &LoadedConfig, store: &mut dyn Store, id: i64) -> Result<(), String> {
    let all = store.checkpoints(None).map_err(|e| e.to_string())?;
    let Some(mut rec) = all.into_iter().find(|c| c.id == id) else {
        return Err(format!("there is no checkpoint {id}"));
    };
    let s = settings(loaded).ok_or("no state directory is known")?;
    let by = Instant::now() + s.timeout;
    let shadow = checkpoint::Shadow {
        dir: PathBuf::from(&rec.store),
    };
    let m = shadow.manifest(id, by)?;
    rec.after = Some(checkpoint::restore::after(&m, by)?);
    store.update_checkpoint(&rec).map_err(|e| e.to_string())
}

/// The newest checkpoint of `command` run in `cwd` in `session` whose aftermath is not yet
/// recorded (a harness reporting that the command ran).
pub fn pending(
    store: &mut dyn Store,
    command: &str,
    cwd: Option<&str>,
    session: Option<&str>,
) -> Option<i64> {
    let project = crate::checkpoint::project_root(Path::new(cwd?));
    let all = store.checkpoints(Some(&project.to_string_lossy())).ok()?;
    all.iter()
        .rev()
        .find(|c| {
            c.after.is_none()
                && c.command == command
                && c.cwd.as_deref() == cwd
                && c.session.as_deref() == session
        })
        .map(|c| c.id)
}
