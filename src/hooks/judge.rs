//! The one place a hook asks for a decision: a shell command goes to the policy (config,
//! modes, approvals, ledger) with the event's session id and working directory, a file
//! write to the write guard, and a command that Claude Code reports as run after an ask is
//! recorded as approved once. Adapters never decide anything themselves.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::files::{WriteScope, judge_writes, target};
use super::{Action, Event, Harness, Verdict, clip};
use crate::model::affected::{Affected, Change, Target};
use crate::policy::{self, Answer, AnswerSource, Checkpoints, LoadedConfig, LogQuery, Request};
use crate::{Context, Decision, Environment};

/// What the hook knows about the process it runs in (environment, config).
#[derive(Debug, Clone, Default)]
pub struct HookEnv {
    /// The hook process's environment; its `cwd` is used when the event names none.
    pub process: Environment,
    pub own_binary: Option<String>,
    /// When the hook must have answered: a checkpoint that cannot finish by then is
    /// skipped (and said).
    pub deadline: Option<Instant>,
}

impl HookEnv {
    /// The environment of the current process.
    pub fn from_process() -> HookEnv {
        HookEnv {
            process: Environment::from_process(),
            own_binary: std::env::current_exe()
                .ok()
                .map(|p| p.to_string_lossy().into_owned()),
            deadline: None,
        }
    }

    fn cwd(&self, ev: &Event) -> Option<String> {
        ev.cwd
            .clone()
            .filter(|c| c.starts_with('/'))
            .or_else(|| self.process.cwd.clone())
    }

    /// The analysis context for a command from this event.
    pub fn context(&self, ev: &Event) -> Context {
        Environment {
            cwd: self.cwd(ev),
            ..self.process.clone()
        }
        .context()
    }

    /// Where writes may go: the user's `write_roots` and `protected_paths`, and
    /// shellgate's own config and state files wherever the environment put them.
    pub fn write_scope(&self, ev: &Event, loaded: &LoadedConfig) -> WriteScope {
        let own = [
            loaded.paths.config.as_deref(),
            loaded.paths.state_db.as_deref().and_then(Path::parent),
        ];
        let guard_paths = own
            .into_iter()
            .flatten()
            .chain(loaded.project_files.iter().map(PathBuf::as_path))
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        WriteScope {
            cwd: self.cwd(ev),
            home: self.process.home.clone(),
            hermes_home: self.process.hermes_home(),
            write_roots: loaded.config.write_roots.clone(),
            own_binary: self.own_binary.clone(),
            protected: loaded.config.protected_paths.clone(),
            guard_paths,
        }
    }
}

/// The policy request for a shell command from this event.
fn request(harness: Harness, ev: &Event, command: &str, env: &HookEnv) -> Request {
    let mut req = Request::new(command, env.context(ev));
    req.session = ev.session_id.clone();
    req.harness = Some(harness.name().to_string());
    req.checkpoints = if harness.can_ask() {
        Checkpoints::AllowOrAsk
    } else {
        Checkpoints::Allow
    };
    req.deadline = env.deadline;
    req
}

/// The reason a harness shows: the policy's text, and any config or store trouble.
fn reason_with_warnings(reason: &str, warnings: &[String]) -> String {
    // The harness shows this among its own messages: say whose decision it is.
    let reason = if reason.starts_with("shellgate") {
        reason.to_string()
    } else {
        format!("shellgate: {reason}")
    };
    if warnings.is_empty() {
        clip(&reason)
    } else {
        clip(&format!(
            "{reason} (shellgate warnings: {})",
            warnings.join("; ")
        ))
    }
}

/// A command the harness ran after its own prompt: when shellgate had asked about exactly
/// this command in this session and directory, a person approved it — record that.
fn record_ran(harness: Harness, ev: &Event, command: &str, env: &HookEnv, loaded: &LoadedConfig) {
    let req = request(harness, ev, command, env);
    let mut store = policy::open_store(loaded);
    let q = LogQuery {
        since: None,
        decision: Some(Decision::Ask),
        session: req.session.clone(),
        harness: req.harness.clone(),
        approved_only: false,
        limit: Some(200),
    };
    let asked = store.query(&q).is_ok_and(|entries| {
        entries
            .iter()
            .any(|e| e.command == req.command && e.cwd == req.context.cwd)
    });
    if asked {
        policy::record_answer(
            &req,
            Answer::Once,
            AnswerSource::HarnessRan,
            loaded,
            &mut *store,
        );
    }
    // What the command left where a checkpoint was taken before it: `undo` then tells the
    // command's own changes from later ones.
    if let Some(id) = policy::checkpoint::pending(
        &mut *store,
        &req.command,
        req.context.cwd.as_deref(),
        req.session.as_deref(),
    ) {
        let _ = policy::checkpoint::record_after(loaded, &mut *store, id);
    }
}

/// A file tool about to overwrite existing files that a person is asked about: snapshot
/// them first, since the harness's prompt may let it through. The note for the reason.
fn checkpoint_writes(
    harness: Harness,
    ev: &Event,
    paths: &[String],
    env: &HookEnv,
    loaded: &LoadedConfig,
) -> Option<String> {
    let scope = env.write_scope(ev, loaded);
    let items: Vec<Affected> = paths
        .iter()
        .filter_map(|p| target(p, &scope).lexical)
        .filter(|p| Path::new(p).exists())
        .map(|path| Affected {
            cmd: 0,
            span: crate::Span::default(),
            change: Change::Overwrite,
            target: Target::Path {
                path,
                recursive: false,
            },
        })
        .collect();
    if items.is_empty() {
        return None;
    }
    let command = format!("{} {}", ev.tool, paths.join(" "));
    let req = request(harness, ev, &command, env);
    let mut store = policy::open_store(loaded);
    policy::checkpoint::take_items(&req, loaded, &items, &mut *store).map(|n| n.text)
}

/// Decide what the event asks. `None` for events that need no answer (pass-through tools,
/// a command that already ran).
pub fn judge(harness: Harness, ev: &Event, env: &HookEnv) -> Option<Verdict> {
    if matches!(ev.action, Action::PassThrough) {
        return None;
    }
    let cwd = env.cwd(ev);
    let loaded = LoadedConfig::load(None, cwd.as_deref().map(Path::new));
    match &ev.action {
        Action::PassThrough => None,
        Action::ShellRan { command } => {
            record_ran(harness, ev, command, env, &loaded);
            None
        }
        Action::Shell { command } => {
            let mut store = policy::open_store(&loaded);
            let v = policy::evaluate(&request(harness, ev, command, env), &loaded, &mut *store);
            Some(Verdict {
                decision: v.decision,
                reason: reason_with_warnings(&v.reason, &v.warnings),
            })
        }
        Action::Write { paths } => {
            let mut v = judge_writes(paths, &env.write_scope(ev, &loaded));
            if v.decision == Decision::Ask
                && harness.can_ask()
                && let Some(n) = checkpoint_writes(harness, ev, paths, env, &loaded)
            {
                v.reason = format!("{}; {n}", v.reason);
            }
            if v.decision != Decision::Allow {
                let errors: Vec<String> = loaded.errors.iter().map(|e| e.to_string()).collect();
                v.reason = reason_with_warnings(&v.reason, &errors);
            }
            Some(v)
        }
    }
}
