//! Smart mode: the findings shellgate itself rates low-risk (a recursive delete of a path
//! inside the working directory, a build or cache directory, a temporary path or the
//! output of `mktemp` in the same command), and the optional external assessor.

use std::io::{Read, Write};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::Analysis;
use crate::model::paths::{self, Extent, Roots};
use crate::model::{Command, Piece, Word, WordNote};
use crate::rules::Finding;

use super::store::FindingKey;

/// Directory names whose contents a build or package manager regenerates.
pub const BUILD_DIRS: &[&str] = &[
    "build",
    "dist",
    "out",
    "target",
    "node_modules",
    ".cache",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".tox",
    ".nox",
    ".next",
    ".nuxt",
    ".turbo",
    ".parcel-cache",
    ".gradle",
    "coverage",
    ".coverage",
    "htmlcov",
    ".eggs",
    "_build",
    "cmake-build-debug",
    "cmake-build-release",
];

/// Wrappers that change who deletes: a delete under them is never rated low-risk.
const PRIVILEGE: &[&str] = &["sudo", "doas", "su", "pkexec", "run0"];

/// Why shellgate rates this finding low-risk, or `None`.
pub fn low_risk(a: &Analysis, f: &Finding, ctx: &crate::Context) -> Option<String> {
    let home = ctx.home.as_deref();
    if f.rule != "SG2001" {
        return None;
    }
    let cmd = a.script.command(f.cmd?)?;
    if cmd
        .wrappers
        .iter()
        .any(|w| PRIVILEGE.contains(&w.name.as_str()))
    {
        return None;
    }
    let (args, recursive) = crate::rules::filesystem::rm_args(cmd);
    if !recursive || args.is_empty() {
        return None;
    }
    let mut why = Vec::new();
    for w in &args {
        why.push(operand_low_risk(a, cmd, w, home, ctx)?);
    }
    why.dedup();
    Some(why.join("; "))
}

fn operand_low_risk(
    a: &Analysis,
    cmd: &Command,
    w: &Word,
    home: Option<&str>,
    ctx: &crate::Context,
) -> Option<String> {
    if let Some(v) = mktemp_var(a, w) {
        return Some(format!(
            "`{}` is the output of mktemp in the same command",
            v
        ));
    }
    let extent = paths::classify_word(w, cmd.cwd.as_deref(), home);
    // Whatever its extent, a path the catalog protects (credentials, harness or shellgate
    // config, shell startup files, ...) is never low-risk.
    let protected = |p: &str| {
        protects_below(p)
            || crate::rules::util::configured_protected(ctx, p)
            || paths::classify(
                p,
                Roots {
                    home,
                    hermes: None,
                    cwd: cmd.cwd.as_deref(),
                },
            )
            .class
            .is_protected()
    };
    let path = match &extent {
        Extent::Workspace(p) => {
            // A repository's history is not regenerable, whatever directory it is in.
            if protected(p) || p.split('/').any(|c| c == ".git") {
                return None;
            }
            return Some(format!("{p} is inside the working directory"));
        }
        Extent::Temp(p) => {
            // `/tmp/x` is fine; `/tmp`, `/tmp/*` hold other programs' files.
            let comps: Vec<&str> = p.split('/').filter(|c| !c.is_empty()).collect();
            let deep = match comps.first() {
                Some(&"tmp") => comps.len() >= 2,
                Some(&"var") | Some(&"private") => comps.len() >= 3,
                _ => comps.len() >= 2,
            };
            if deep
                && !comps
                    .get(1..)
                    .unwrap_or(&[])
                    .first()
                    .is_some_and(|c| c.contains(['*', '?', '[']))
                && !p.ends_with("/*")
            {
                return Some(format!("{p} is a temporary path"));
            }
            return None;
        }
        Extent::InsideHome(p) | Extent::Other(p) => p.clone(),
        _ => return None,
    };
    if protected(&path) {
        return None;
    }
    let base = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    if BUILD_DIRS.contains(&base) {
        return Some(format!("{path} is a build or cache directory"));
    }
    // Anything below ~/.cache is a cache.
    if let Some(h) = home {
        let cache = format!("{}/.cache/", h.trim_end_matches('/'));
        if path.starts_with(&cache)
            && path.len() > cache.len()
            && !path[cache.len()..].contains('*')
        {
            return Some(format!("{path} is inside the cache directory"));
        }
    }
    None
}

/// True when deleting directory `dir` removes a path the catalog protects wherever it is
/// (`.claude` holds `.claude/settings.json`, `.github` holds `.github/hooks`).
fn protects_below(dir: &str) -> bool {
    let base = dir.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    paths::catalog::CATALOG.iter().any(|e| {
        e.anchor == paths::catalog::Anchor::Anywhere
            && matches!(e.class, paths::catalog::Says::Is(c) if c.is_protected())
            && e.pattern
                .split('/')
                .next()
                .is_some_and(|first| crate::glob::matches_ignore_case(first, base))
    })
}

/// The variable a delete operand consists of when that variable was set from `mktemp`
/// output earlier in the same command (`d=$(mktemp -d); ...; rm -rf "$d"`), or the operand
/// is `$(mktemp ...)` itself.
fn mktemp_var(a: &Analysis, w: &Word) -> Option<String> {
    let only_unknown = w.pieces.iter().all(|p| match p {
        Piece::Unknown { .. } => true,
        Piece::Lit { text, .. } => {
            text.is_empty() || (text.starts_with('/') && !text.contains(".."))
        }
    }) && matches!(w.pieces.first(), Some(Piece::Unknown { .. }));
    if !only_unknown {
        return None;
    }
    if w.substitutions.len() == 1
        && w.substitutions[0]
            .producers
            .iter()
            .all(|id| a.script.command(*id).is_some_and(|c| c.is("mktemp")))
        && !w.substitutions[0].producers.is_empty()
    {
        return Some(w.raw.clone());
    }
    let vars: Vec<&str> = w
        .notes
        .iter()
        .filter_map(|n| match n {
            WordNote::UnknownVar { var } => Some(var.as_str()),
            _ => None,
        })
        .collect();
    let [var] = vars.as_slice() else {
        return None;
    };
    // The lowering says what the variable holds at this point; it must be mktemp output
    // (a later `d=/` or a loop variable would say otherwise).
    let reason_says_mktemp = w.pieces.iter().any(|p| {
        matches!(p, Piece::Unknown { reason, .. } if reason.contains("`$(mktemp") || reason.contains("`` `mktemp"))
    });
    if !reason_says_mktemp {
        return None;
    }
    // Every assignment of the variable in the script must be mktemp output.
    let mut seen = false;
    for c in &a.script.commands {
        for asg in c.assignments.iter().filter(|x| x.name == *var) {
            let from_mktemp = asg.value.substitutions.len() == 1
                && !asg.value.substitutions[0].producers.is_empty()
                && asg.value.substitutions[0]
                    .producers
                    .iter()
                    .all(|id| a.script.command(*id).is_some_and(|p| p.is("mktemp")))
                && asg.value.pieces.len() == 1;
            if !from_mktemp {
                return None;
            }
            seen = true;
        }
    }
    seen.then(|| format!("${var}"))
}

/// What the assessor is sent on stdin.
#[derive(Debug, Serialize)]
pub struct AssessorInput<'a> {
    pub command: &'a str,
    pub cwd: Option<&'a str>,
    pub session: Option<&'a str>,
    pub harness: Option<&'a str>,
    pub findings: Vec<AssessorFinding<'a>>,
}

#[derive(Debug, Serialize)]
pub struct AssessorFinding<'a> {
    pub rule: &'a str,
    pub name: &'a str,
    pub message: &'a str,
    pub target: &'a str,
}

/// The assessor's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AssessorVerdict {
    Allow,
    Deny,
    Ask,
}

#[derive(Debug, Deserialize)]
struct AssessorOutput {
    verdict: AssessorVerdict,
    #[serde(default)]
    reason: Option<String>,
}

/// Run the assessor. Any failure (cannot start, non-zero exit, timeout, malformed JSON)
/// is `Ask` with the failure as the reason.
pub fn assess(
    assessor: &str,
    timeout: Duration,
    input: &AssessorInput,
) -> (AssessorVerdict, String) {
    match run_assessor(assessor, timeout, input) {
        Ok(o) => (
            o.verdict,
            o.reason.unwrap_or_else(|| "no reason given".to_string()),
        ),
        Err(e) => (AssessorVerdict::Ask, format!("assessor failed: {e}")),
    }
}

fn run_assessor(
    assessor: &str,
    timeout: Duration,
    input: &AssessorInput,
) -> Result<AssessorOutput, String> {
    let body = serde_json::to_vec(input).map_err(|e| e.to_string())?;
    let mut child = Process::new("sh")
        .arg("-c")
        .arg(assessor)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start `{assessor}`: {e}"))?;
    let mut stdin = child.stdin.take();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(&body);
        }
    });
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.take(1 << 20).read_to_end(&mut buf);
        }
        buf
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("no answer within {} s", timeout.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(e.to_string()),
        }
    };
    let _ = writer.join();
    let out = reader
        .join()
        .map_err(|_| "reader thread failed".to_string())?;
    if !status.success() {
        return Err(format!("exited with {status}"));
    }
    serde_json::from_slice::<AssessorOutput>(&out)
        .map_err(|e| format!("malformed answer ({e}); expected {{\"verdict\": \"allow\"|\"deny\"|\"ask\", \"reason\": ...}}"))
}

/// Build the assessor's input from the findings still undecided.
pub fn assessor_input<'a>(
    a: &'a Analysis,
    cwd: Option<&'a str>,
    session: Option<&'a str>,
    harness: Option<&'a str>,
    findings: &'a [(Finding, FindingKey)],
) -> AssessorInput<'a> {
    AssessorInput {
        command: &a.command,
        cwd,
        session,
        harness,
        findings: findings
            .iter()
            .map(|(f, k)| AssessorFinding {
                rule: f.rule,
                name: f.name,
                message: &f.message,
                target: &k.target,
            })
            .collect(),
    }
}
