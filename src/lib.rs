//! shellgate: decides whether an AI agent's shell command may run (allow / ask / deny) by
//! parsing it as bash, lowering it to the commands bash would execute, and matching rules.
//!
//! The pipeline is one-way: [`normalize`] → [`syntax`] → [`model`] → [`graph`] →
//! [`rules`] (with [`fallback`] for what does not parse) → findings → decision.

pub mod api;
pub mod audit;
pub mod boundary;
pub mod corpus;
pub mod fallback;
pub mod glob;
pub mod graph;
pub mod hooks;
pub mod model;
pub mod normalize;
pub mod policy;
pub mod render;
pub mod report;
pub mod rules;
pub mod scan;
pub mod syntax;
pub mod text;

use std::collections::BTreeMap;

use serde::Serialize;

pub use model::LowerLimits;
pub use rules::Finding;

/// A byte range `[start, end)` into the *original* command text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// How bad a finding is: `Block` is unrecoverable (deny in every mode), `Approve` needs a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Approve,
    Block,
}

/// What the harness should do with the command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Ask,
    Deny,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Ask => "ask",
            Decision::Deny => "deny",
        }
    }
}

/// How findings become decisions (see the risk model in `docs/ARCHITECTURE.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// block → deny, approve → ask.
    #[default]
    Manual,
    /// approve findings are allowed; block findings still deny.
    Off,
}

/// Commands longer than this are not parsed; the fallback catalog scans them and the
/// decision is at least `ask`.
pub const MAX_COMMAND_BYTES: usize = 1 << 20;

/// Everything the analysis knows about where the command will run.
#[derive(Debug, Clone)]
pub struct Context {
    /// The working directory the command starts in.
    pub cwd: Option<String>,
    pub home: Option<String>,
    pub user: Option<String>,
    /// Variables known to be set in the command's environment (`HOME`, `HERMES_HOME`, ...).
    pub env: BTreeMap<String, String>,
    pub mode: Mode,
    /// No person can answer: `ask` becomes `deny`.
    pub unattended: bool,
    /// The user configured a sudo password for the agent (then `sudo -S` is expected).
    pub sudo_password_configured: bool,
    /// Extra paths (globs, or directories covering everything below) that writes, copies
    /// and deletes must not reach without a person: the config's `protected_paths`.
    pub protected_paths: Vec<String>,
    /// Extra process names of agent harnesses that must not be killed: the config's
    /// `harness_processes`.
    pub harness_names: Vec<String>,
    pub limits: LowerLimits,
}

impl Default for Context {
    fn default() -> Self {
        Context::new(None, None, None)
    }
}

impl Context {
    /// A context with the given directory, home and user; `HOME`, `USER`, `PWD`,
    /// `HERMES_HOME` (default `~/.hermes`) are derived from them.
    pub fn new(cwd: Option<String>, home: Option<String>, user: Option<String>) -> Context {
        let mut env = BTreeMap::new();
        if let Some(h) = &home {
            env.insert("HOME".to_string(), h.clone());
            env.insert(
                "HERMES_HOME".to_string(),
                format!("{}/.hermes", h.trim_end_matches('/')),
            );
        }
        if let Some(u) = &user {
            env.insert("USER".to_string(), u.clone());
            env.insert("LOGNAME".to_string(), u.clone());
        }
        if let Some(c) = &cwd {
            env.insert("PWD".to_string(), c.clone());
        }
        Context {
            cwd,
            home,
            user,
            env,
            mode: Mode::Manual,
            unattended: false,
            sudo_password_configured: false,
            protected_paths: Vec::new(),
            harness_names: Vec::new(),
            limits: LowerLimits::default(),
        }
    }

    /// The fixed context the corpus and tests use: user `user`, home `/home/user`, working
    /// directory `/home/user/project`, `TMPDIR=/tmp`.
    pub fn fixture() -> Context {
        let mut c = Context::new(
            Some("/home/user/project".into()),
            Some("/home/user".into()),
            Some("user".into()),
        );
        c.env.insert("TMPDIR".into(), "/tmp".into());
        c
    }

    /// The context of the current process: its working directory and `HOME`, `USER`,
    /// `HERMES_HOME`, `TMPDIR` from its environment.
    pub fn from_process() -> Context {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let cwd = std::env::current_dir()
            .ok()
            .map(|p| p.to_string_lossy().into_owned());
        let mut c = Context::new(cwd, var("HOME"), var("USER").or_else(|| var("LOGNAME")));
        for k in ["HERMES_HOME", "TMPDIR"] {
            if let Some(v) = var(k) {
                c.env.insert(k.to_string(), v);
            }
        }
        c
    }
}

/// The result of analysing one command.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub command: String,
    pub normalized: normalize::Normalized,
    pub script: model::Script,
    pub flow: graph::Flow,
    pub findings: Vec<Finding>,
    pub decision: Decision,
}

/// Analyse a command and decide. Never panics and never allows what it could not analyse.
pub fn analyze(command: &str, ctx: &Context) -> Analysis {
    guarded(command, ctx, analyze_inner)
}

/// Run `inner` with a grown stack and panics caught. A panic is an internal error finding,
/// and the fallback catalog still scans the text, so `rm -rf /` in an input that crashes the
/// analysis is denied, not merely asked about.
fn guarded(command: &str, ctx: &Context, inner: fn(&str, &Context) -> Analysis) -> Analysis {
    let run = || stacker::maybe_grow(256 * 1024, 16 * 1024 * 1024, || inner(command, ctx));
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(a) => a,
        Err(_) => {
            let whole = Span::new(0, command.len());
            let mut findings = vec![rules::analysis_finding(
                &rules::analysis::InternalError::META,
                "internal error while analysing the command; it was not judged".into(),
                whole,
            )];
            let scan = || rules::fallback_findings(command, whole);
            if let Ok(hits) = std::panic::catch_unwind(scan) {
                findings.extend(hits);
            }
            fallback_only(command, findings, ctx)
        }
    }
}

/// The analysis of a command that only the fallback catalog scanned: its `findings` decide,
/// and there is no model or dataflow graph.
fn fallback_only(command: &str, findings: Vec<Finding>, ctx: &Context) -> Analysis {
    let decision = decide(&findings, ctx);
    Analysis {
        command: command.to_string(),
        normalized: normalize::normalize(""),
        script: model::Script::default(),
        flow: graph::Flow::default(),
        findings,
        decision,
    }
}

fn analyze_inner(command: &str, ctx: &Context) -> Analysis {
    let mut findings = Vec::new();
    if command.len() > MAX_COMMAND_BYTES {
        findings.push(rules::analysis_finding(
            &rules::analysis::AnalysisLimit::META,
            format!(
                "the command is {} bytes, over the {} byte limit; it was only scanned by the fallback catalog",
                command.len(),
                MAX_COMMAND_BYTES
            ),
            Span::new(0, command.len()),
        ));
        findings.extend(rules::fallback_findings(
            command,
            Span::new(0, command.len()),
        ));
        return fallback_only(command, findings, ctx);
    }
    let normalized = normalize::normalize(command);
    let (script, flow, mut main) = match analyze_text(&normalized, command, ctx) {
        Ok(v) => v,
        Err(f) => {
            findings.extend(f);
            let decision = decide(&findings, ctx);
            return Analysis {
                command: command.to_string(),
                normalized,
                script: model::Script::default(),
                flow: graph::Flow::default(),
                findings,
                decision,
            };
        }
    };
    findings.append(&mut main);
    findings.extend(distrust(&normalized, command, &script, ctx, &findings));
    if normalized.changed() {
        // bash does not normalise: what it runs is the raw text. Judge both and keep the
        // stricter result, so escapes or NFKC cannot hide a command (or invent quoting).
        let raw = normalize::identity(command);
        match analyze_text(&raw, command, ctx) {
            Ok((_, _, raw_findings)) => {
                for f in raw_findings {
                    if !findings
                        .iter()
                        .any(|g| g.rule == f.rule && g.span == f.span)
                    {
                        findings.push(f);
                    }
                }
            }
            Err(f) => findings.extend(f),
        }
        if command
            .chars()
            .any(|c| c == '\u{1b}' || ('\u{80}'..='\u{9f}').contains(&c) || c == '\0')
        {
            findings.push(rules::analysis_finding(
                &rules::analysis::HiddenControls::META,
                format!(
                    "the command contains terminal escape sequences or control characters that can hide text ({})",
                    normalized.notes().join("; ")
                ),
                Span::new(0, command.len()),
            ));
        }
    }
    let decision = decide(&findings, ctx);
    Analysis {
        command: command.to_string(),
        normalized,
        script,
        flow,
        findings,
        decision,
    }
}

type Lowered = (model::Script, graph::Flow, Vec<Finding>);

/// Parse, lower, build the graph and run the rules over one text.
/// The run-time boundary check (`boundary`): where the model ran a command across a separator
/// the text shows, the parse is distrusted. Then every piece of text between separators is
/// analysed on its own as well; its findings are added (shifted to the whole command), so the
/// stricter answer wins and the decision is never allow.
fn distrust(
    norm: &normalize::Normalized,
    original: &str,
    script: &model::Script,
    ctx: &Context,
    have: &[Finding],
) -> Vec<Finding> {
    let disagree = boundary::disagreements(norm, script);
    let Some(first) = disagree.first() else {
        return Vec::new();
    };
    let at = norm.to_original(first.separator.at);
    let mut out = vec![rules::analysis_finding(
        &rules::analysis::ParseDistrusted::META,
        format!(
            "the parse ran a command across the separator at byte {at} that bash sees ({} place{}); each piece of the command was also judged on its own",
            disagree.len(),
            if disagree.len() == 1 { "" } else { "s" }
        ),
        norm.span_to_original(first.separator.at, first.separator.at + first.separator.len),
    )];
    for (s, e) in boundary::segments(&norm.text) {
        let span = norm.span_to_original(s, e);
        let Some(piece) = original.get(span.start..span.end) else {
            continue;
        };
        let piece_norm = normalize::normalize(piece);
        let Ok((_, _, found)) = analyze_text(&piece_norm, piece, ctx) else {
            continue;
        };
        for mut f in found {
            f.span = Span::new(f.span.start + span.start, f.span.end + span.start);
            if !have
                .iter()
                .chain(&out)
                .any(|g| g.rule == f.rule && g.span == f.span)
            {
                out.push(f);
            }
        }
    }
    out
}

fn analyze_text(
    text: &normalize::Normalized,
    original: &str,
    ctx: &Context,
) -> Result<Lowered, Vec<Finding>> {
    let tree = match syntax::parse(&text.text) {
        Ok(t) => t,
        Err(e) => {
            // A limit is reported as one; anything else is the parser failing.
            let (meta, message) = match e {
                syntax::SyntaxError::PipelineTooLong(_) => {
                    (&rules::analysis::AnalysisLimit::META, e.to_string())
                }
                _ => (
                    &rules::analysis::InternalError::META,
                    format!("the parser failed: {e}"),
                ),
            };
            let mut findings = vec![rules::analysis_finding(
                meta,
                message,
                Span::new(0, original.len()),
            )];
            findings.extend(rules::fallback_findings(
                &text.text,
                Span::new(0, original.len()),
            ));
            return Err(findings);
        }
    };
    let mut env = model::Env::from_context(&ctx.env, ctx.cwd.clone(), ctx.home.clone());
    env.home = ctx.home.clone();
    let script = model::lower_script(text, tree, env, ctx.user.clone(), ctx.limits);
    let flow = graph::build(&script);
    let findings = rules::run(&rules::Cx {
        script: &script,
        flow: &flow,
        ctx,
        normalized: text,
        original,
    });
    Ok((script, flow, findings))
}

/// Findings → decision under the context's mode.
pub fn decide(findings: &[Finding], ctx: &Context) -> Decision {
    let block = findings.iter().any(|f| f.severity == Severity::Block);
    let approve = findings.iter().any(|f| f.severity == Severity::Approve);
    // What shellgate could not analyse is at least `ask`, whatever the mode.
    let unanalysed = findings
        .iter()
        .any(|f| f.category == rules::Category::Analysis);
    let d = if block {
        Decision::Deny
    } else if (approve && ctx.mode == Mode::Manual) || unanalysed {
        Decision::Ask
    } else {
        Decision::Allow
    };
    if d == Decision::Ask && ctx.unattended {
        Decision::Deny
    } else {
        d
    }
}

#[cfg(test)]
mod distrust_tests {
    use super::*;

    /// A model as the grammar bug built it: `rm -rf ~` read as arguments of `echo`.
    fn misread(cmd: &str) -> (normalize::Normalized, model::Script) {
        let a = analyze(cmd, &Context::fixture());
        let mut script = a.script.clone();
        let moved: Vec<model::Word> = script.commands[1].argv.clone();
        script.commands[0].argv.extend(moved);
        script.commands.truncate(1);
        (a.normalized, script)
    }

    #[test]
    fn a_command_run_across_a_separator_is_distrusted_and_each_piece_judged() {
        let cmd = "echo a ; rm -rf ~";
        let (norm, script) = misread(cmd);
        let ctx = Context::fixture();
        let found = distrust(&norm, cmd, &script, &ctx, &[]);
        assert!(found.iter().any(|f| f.rule == "SG0006"), "{found:?}");
        let rm = found
            .iter()
            .find(|f| f.rule == "SG1001")
            .expect("rm judged alone");
        assert_eq!(&cmd[rm.span.start..rm.span.end], "~");
        assert_eq!(decide(&found, &ctx), Decision::Deny);
    }

    #[test]
    fn a_distrusted_parse_is_never_allowed() {
        let cmd = "echo a ; echo b";
        let (norm, script) = misread(cmd);
        let ctx = Context::fixture();
        let found = distrust(&norm, cmd, &script, &ctx, &[]);
        assert_eq!(decide(&found, &ctx), Decision::Ask);
    }

    #[test]
    fn a_correct_parse_adds_nothing() {
        let cmd = "ls | grep x | head\necho ok && echo done";
        let a = analyze(cmd, &Context::fixture());
        assert!(distrust(&a.normalized, cmd, &a.script, &Context::fixture(), &[]).is_empty());
        assert_eq!(a.decision, Decision::Allow);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crash(_: &str, _: &Context) -> Analysis {
        // An injected failure standing for any bug in the analysis.
        panic!("injected panic")
    }

    #[test]
    fn a_panicking_analysis_still_denies_what_the_fallback_catalog_blocks() {
        let a = guarded("rm -rf /", &Context::fixture(), crash);
        assert_eq!(a.decision, Decision::Deny);
        assert!(
            a.findings
                .iter()
                .any(|f| f.rule == rules::analysis::InternalError::META.code)
        );
        assert!(
            a.findings
                .iter()
                .any(|f| f.rule == rules::analysis::FallbackPattern::META.code)
        );
    }

    #[test]
    fn a_panicking_analysis_of_a_harmless_command_asks() {
        let a = guarded("ls", &Context::fixture(), crash);
        assert_eq!(a.decision, Decision::Ask);
    }
}
