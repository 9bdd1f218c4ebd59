//! The one place a hook asks for a decision: a shell command goes to the analysis (and
//! the policy), a file write to the write guard. Adapters never decide anything themselves.

use super::files::{WriteScope, judge_writes};
use super::{Action, Event, Verdict, clip};
use crate::{Context, Decision, analyze};

/// What the hook knows about the process it runs in (environment, config).
#[derive(Debug, Clone, Default)]
pub struct HookEnv {
    pub home: Option<String>,
    pub user: Option<String>,
    pub hermes_home: Option<String>,
    pub tmpdir: Option<String>,
    /// The hook process's own working directory, used when the event names none.
    pub process_cwd: Option<String>,
    pub write_roots: Vec<String>,
    pub own_binary: Option<String>,
}

impl HookEnv {
    /// The environment of the current process.
    pub fn from_process() -> HookEnv {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        HookEnv {
            home: var("HOME"),
            user: var("USER").or_else(|| var("LOGNAME")),
            hermes_home: var("HERMES_HOME"),
            tmpdir: var("TMPDIR"),
            process_cwd: std::env::current_dir()
                .ok()
                .map(|p| p.to_string_lossy().into_owned()),
            write_roots: Vec::new(),
            own_binary: std::env::current_exe()
                .ok()
                .map(|p| p.to_string_lossy().into_owned()),
        }
    }

    fn cwd(&self, ev: &Event) -> Option<String> {
        ev.cwd
            .clone()
            .filter(|c| c.starts_with('/'))
            .or_else(|| self.process_cwd.clone())
    }

    /// The analysis context for a command from this event.
    pub fn context(&self, ev: &Event) -> Context {
        let mut c = Context::new(self.cwd(ev), self.home.clone(), self.user.clone());
        if let Some(h) = &self.hermes_home {
            c.env.insert("HERMES_HOME".into(), h.clone());
        }
        if let Some(t) = &self.tmpdir {
            c.env.insert("TMPDIR".into(), t.clone());
        }
        c
    }

    pub fn write_scope(&self, ev: &Event) -> WriteScope {
        let hermes = self.hermes_home.clone().or_else(|| {
            self.home
                .as_ref()
                .map(|h| format!("{}/.hermes", h.trim_end_matches('/')))
        });
        WriteScope {
            cwd: self.cwd(ev),
            home: self.home.clone(),
            hermes_home: hermes,
            write_roots: self.write_roots.clone(),
            own_binary: self.own_binary.clone(),
        }
    }
}

/// The one-line reason for a command decision: the decision and each finding's rule,
/// name and message.
pub fn command_reason(a: &crate::Analysis) -> String {
    let findings: Vec<String> = a
        .findings
        .iter()
        .map(|f| format!("{} {}: {}", f.rule, f.name, f.message))
        .collect();
    let what = match a.decision {
        Decision::Allow => "allow",
        Decision::Ask => "ask",
        Decision::Deny => "deny",
    };
    clip(&format!("shellgate: {what} — {}", findings.join("; ")))
}

/// Decide what the event asks. `None` for events that need no answer (pass-through tools,
/// a command that already ran).
pub fn judge(ev: &Event, env: &HookEnv) -> Option<Verdict> {
    match &ev.action {
        Action::PassThrough | Action::ShellRan { .. } => None,
        Action::Shell { command } => {
            let a = analyze(command, &env.context(ev));
            Some(Verdict {
                decision: a.decision,
                reason: command_reason(&a),
            })
        }
        Action::Write { paths } => Some(judge_writes(paths, &env.write_scope(ev))),
    }
}
