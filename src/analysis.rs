//! The analysis pipeline behind [`analyze`]: normalise, parse, lower, build the dataflow
//! graph and run the rules, with the fallback catalog for what does not parse, the
//! boundary check against a parse that runs commands across separators, and panics caught.
//! It reports findings, never a decision: the policy layer alone turns findings into
//! allow / ask / deny (`policy::decide_default` without a config).

use crate::rules::{self, Finding};
use crate::{Context, Span, boundary, graph, model, normalize, syntax};

/// Commands longer than this are not parsed; the fallback catalog scans them and the
/// decision is at least `ask`.
pub const MAX_COMMAND_BYTES: usize = 1 << 20;

/// The result of analysing one command.
#[derive(Debug, Clone)]
pub struct Analysis {
    pub command: String,
    pub normalized: normalize::Normalized,
    pub script: model::Script,
    pub flow: graph::Flow,
    /// What the rules found, including what could not be analysed (category
    /// [`rules::Category::Analysis`]: unparsed syntax, limits, internal errors, ...).
    pub findings: Vec<Finding>,
}

impl Analysis {
    /// True when part of the command could not be analysed (a finding of category
    /// `analysis`): no mode or approval may then allow it unseen.
    pub fn unanalysed(&self) -> bool {
        unanalysed(&self.findings)
    }
}

/// True when one of `findings` says shellgate could not analyse the command.
pub fn unanalysed(findings: &[Finding]) -> bool {
    findings
        .iter()
        .any(|f| f.category == rules::Category::Analysis)
}

/// Analyse a command: its findings, never a decision (`policy::decide_default` gives one).
/// Never panics; what it could not analyse is reported as a finding, so no decision built
/// on it allows the command unseen.
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
            fallback_only(command, findings)
        }
    }
}

/// The analysis of a command that only the fallback catalog scanned: its `findings` are all
/// there is, with no model or dataflow graph.
fn fallback_only(command: &str, findings: Vec<Finding>) -> Analysis {
    Analysis {
        command: command.to_string(),
        normalized: normalize::normalize(""),
        script: model::Script::default(),
        flow: graph::Flow::default(),
        findings,
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
        return fallback_only(command, findings);
    }
    let normalized = normalize::normalize(command);
    let (script, flow, mut main) = match analyze_text(&normalized, command, ctx) {
        Ok(v) => v,
        Err(f) => {
            findings.extend(f);
            return Analysis {
                command: command.to_string(),
                normalized,
                script: model::Script::default(),
                flow: graph::Flow::default(),
                findings,
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
    Analysis {
        command: command.to_string(),
        normalized,
        script,
        flow,
        findings,
    }
}

type Lowered = (model::Script, graph::Flow, Vec<Finding>);

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

/// Parse, lower, build the graph and run the rules over one text.
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

#[cfg(test)]
mod distrust_tests {
    use super::*;
    use crate::Decision;
    use crate::policy::decide_default;

    /// The decision on `found` alone, as the policy takes it without a config.
    fn decide(cmd: &str, found: Vec<Finding>) -> Decision {
        decide_default(&fallback_only(cmd, found))
    }

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
        assert_eq!(decide(cmd, found), Decision::Deny);
    }

    #[test]
    fn a_distrusted_parse_is_never_allowed() {
        let cmd = "echo a ; echo b";
        let (norm, script) = misread(cmd);
        let ctx = Context::fixture();
        let found = distrust(&norm, cmd, &script, &ctx, &[]);
        assert_eq!(decide(cmd, found), Decision::Ask);
    }

    #[test]
    fn a_correct_parse_adds_nothing() {
        let cmd = "ls | grep x | head\necho ok && echo done";
        let a = analyze(cmd, &Context::fixture());
        assert!(distrust(&a.normalized, cmd, &a.script, &Context::fixture(), &[]).is_empty());
        assert_eq!(decide_default(&a), Decision::Allow);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Decision;
    use crate::policy::decide_default;

    fn crash(_: &str, _: &Context) -> Analysis {
        // An injected failure standing for any bug in the analysis.
        panic!("injected panic")
    }

    #[test]
    fn a_panicking_analysis_still_denies_what_the_fallback_catalog_blocks() {
        let a = guarded("rm -rf /", &Context::fixture(), crash);
        assert_eq!(decide_default(&a), Decision::Deny);
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
        assert_eq!(decide_default(&a), Decision::Ask);
    }
}
