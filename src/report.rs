//! The `explain` report: every finding with its spans into the original text and the
//! evidence chain behind it (decoded words, expanded variables, peeled wrappers, nested
//! code, graph paths). Built once; [`crate::render`] renders it and `--json` serialises it.

use serde::Serialize;

use crate::evidence::{Evidence, evidence_sentence};

use crate::model::{Command, OriginKind, Script, Word, WordNote};
use crate::policy::Verdict;
use crate::rules::Category;
use crate::{Analysis, Decision, Finding, Severity};

/// One finding as `explain` reports it.
#[derive(Debug, Serialize)]
pub struct FindingReport {
    pub rule: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub category: Category,
    pub message: String,
    /// Byte range `[start, end)` into the original command.
    pub span: [usize; 2],
    /// The text under the span.
    pub text: String,
    pub hermes: Vec<&'static str>,
    /// Where nested code the finding is about was written, when that is not under `span`
    /// (a heredoc body fed to a shell).
    pub sources: Vec<SourceSpan>,
    pub evidence: Vec<Evidence>,
    /// The same evidence as sentences, in the same order.
    pub why: Vec<String>,
}

/// A span of the original command that holds code the finding came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceSpan {
    /// What the span is (`heredoc read by bash`).
    pub label: String,
    pub span: [usize; 2],
}

/// Heredoc bodies that nested code came out of: lowering attributes such commands to the
/// shell reading the heredoc, so without this the body lines would never be shown.
fn sources_for(a: &Analysis, f: &Finding) -> Vec<SourceSpan> {
    let Some(c) = f.cmd.and_then(|id| a.script.command(id)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (step, parent) in c.origin.steps.iter().zip(ancestors(&a.script, c)) {
        let (OriginKind::HeredocToShell, Some(p)) = (step.kind, parent) else {
            continue;
        };
        for r in &p.redirects {
            if let Some(h) = &r.heredoc {
                let s = SourceSpan {
                    label: format!(
                        "heredoc read by `{}`",
                        p.name.as_deref().unwrap_or("the shell")
                    ),
                    span: [h.span.start, h.span.end],
                };
                if !out.contains(&s) {
                    out.push(s);
                }
            }
        }
    }
    out
}

/// What was analysed, for the summary line.
#[derive(Debug, Serialize)]
pub struct Summary {
    /// Simple commands lowered (including nested ones).
    pub commands: usize,
    /// Distinct programs run, in order of first appearance.
    pub programs: Vec<String>,
}

/// The whole explanation of one command.
#[derive(Debug, Serialize)]
pub struct Report {
    pub command: String,
    pub decision: Decision,
    pub findings: Vec<FindingReport>,
    pub summary: Summary,
    pub normalization: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cst: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Script>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub graph: Option<String>,
}

fn word_evidence(w: &Word, out: &mut Vec<Evidence>) {
    // The decoded result reads best after the expansions that produced it.
    let (decoded, steps): (Vec<&WordNote>, Vec<&WordNote>) = w
        .notes
        .iter()
        .partition(|n| matches!(n, WordNote::Decoded { .. }));
    for n in steps.into_iter().chain(decoded) {
        // `~` → `/home/user` is recorded both as decoding and as tilde expansion; the
        // expansion note says more, so the decoding note that repeats it is dropped.
        if let WordNote::Decoded { to, .. } = n
            && w.notes.iter().any(|m| match m {
                WordNote::Tilde { to: t } => t == to,
                WordNote::Expanded { value, .. } => value == to,
                _ => false,
            })
        {
            continue;
        }
        out.push(Evidence::Word {
            word: w.raw.clone(),
            note: n.clone(),
        });
    }
}

/// Wrappers, directory changes and word notes of one command, in the order a reader
/// meets them. `start` is the directory the whole command starts in.
fn command_evidence(c: &Command, start: Option<&str>, out: &mut Vec<Evidence>) {
    if let (Some(cwd), Some(start)) = (&c.cwd, start)
        && cwd != start
    {
        out.push(Evidence::Cwd {
            program: c.name.clone().unwrap_or_default(),
            cwd: cwd.clone(),
            start: start.to_string(),
        });
    }
    for a in &c.assignments {
        word_evidence(&a.value, out);
    }
    for w in &c.wrappers {
        out.push(Evidence::Wrapper {
            name: w.name.clone(),
            args: w.args.clone(),
        });
    }
    for w in &c.argv {
        word_evidence(w, out);
        if w.has_glob() {
            // Only a relative pattern is matched in the working directory; `"$DIR/"*` and
            // `/tmp/*` are matched wherever they point.
            let relative = matches!(
                w.pieces.first(),
                Some(crate::model::Piece::Lit { text, .. }) if !text.starts_with('/')
            );
            out.push(Evidence::Glob {
                word: w.raw.clone(),
                cwd: if relative { c.cwd.clone() } else { None },
            });
        }
    }
    for r in &c.redirects {
        if let Some(t) = &r.target {
            word_evidence(t, out);
        }
    }
}

/// The commands a nested command came out of: for each nesting step, the command at the
/// enclosing level whose text holds the nested code (the `bash -c` for `rm` in
/// `sudo bash -c "rm -rf $X"`). Their wrappers and expansions are part of the chain.
fn ancestors<'a>(script: &'a Script, c: &Command) -> Vec<Option<&'a Command>> {
    let steps = &c.origin.steps;
    (0..steps.len())
        .map(|k| {
            let step = &steps[k];
            let covers = |s: crate::Span| s.start <= step.span.start && s.end >= step.span.end;
            script.commands.iter().find(|d| {
                d.id != c.id
                    && d.origin.steps.as_slice() == &steps[..k]
                    && (covers(d.span)
                        || d.redirects.iter().any(|r| {
                            covers(r.span) || r.heredoc.as_ref().is_some_and(|h| covers(h.span))
                        }))
            })
        })
        .collect()
}

/// Graphs larger than this are not searched for the path into a shell: explain must stay
/// fast on hostile input, and such paths are rarely readable anyway.
const MAX_FLOW_NODES: usize = 256;

/// Every dataflow path into a code-executing sink, computed once per report (each search
/// walks the whole graph), or none when the graph is too large to search.
fn sink_paths(a: &Analysis) -> Vec<crate::graph::FlowPath> {
    if a.flow.graph.node_count() > MAX_FLOW_NODES {
        return Vec::new();
    }
    a.flow.paths_to_sinks(&a.script, |_| true)
}

/// The longest dataflow path that ends in command `sink` (`echo →pipe→ base64 →pipe→ sh`).
fn flow_into(a: &Analysis, paths: &[crate::graph::FlowPath], sink: &Command) -> Option<String> {
    paths
        .iter()
        .filter(|p| {
            p.last()
                .and_then(|(n, _)| a.flow.node_cmd(*n))
                .is_some_and(|id| id == sink.id)
        })
        .max_by_key(|p| p.len())
        .map(|p| a.flow.describe(&a.script, p))
}

fn evidence_for(
    a: &Analysis,
    paths: &[crate::graph::FlowPath],
    f: &Finding,
    start: Option<&str>,
) -> Vec<Evidence> {
    let mut ev = Vec::new();
    if let Some(c) = f.cmd.and_then(|id| a.script.command(id)) {
        let anc = ancestors(&a.script, c);
        for (step, parent) in c.origin.steps.iter().zip(anc) {
            if let Some(p) = parent {
                command_evidence(p, start, &mut ev);
                if let Some(path) = flow_into(a, paths, p) {
                    ev.push(Evidence::Flow { path });
                }
                if matches!(
                    step.kind,
                    OriginKind::StdinToShell
                        | OriginKind::HeredocToShell
                        | OriginKind::DecodedPayload
                ) && let Some(text) = &p.stdin_text
                {
                    ev.push(Evidence::Stdin {
                        program: p.name.clone().unwrap_or_default(),
                        text: text.clone(),
                    });
                }
            }
            ev.push(Evidence::Nested {
                origin: step.kind,
                detail: step.detail.clone(),
            });
        }
        command_evidence(c, start, &mut ev);
    }
    for e in &f.evidence {
        ev.push(Evidence::Rule { text: e.clone() });
    }
    // Nested lowering can record the same note on several layers; say each thing once.
    let mut unique: Vec<Evidence> = Vec::new();
    for e in ev {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    unique
}

/// Build the report of the policy's verdict on a command run from directory `start`: its
/// decision and findings (after `[severity]` overrides), explained by its analysis.
pub fn report(v: &Verdict, start: Option<&str>) -> Report {
    let a = &v.analysis;
    let paths = if v.findings.iter().any(|f| f.cmd.is_some()) {
        sink_paths(a)
    } else {
        Vec::new()
    };
    let findings = v
        .findings
        .iter()
        .map(|f| {
            let evidence = evidence_for(a, &paths, f, start);
            let why = evidence.iter().map(evidence_sentence).collect();
            FindingReport {
                rule: f.rule,
                name: f.name,
                severity: f.severity,
                category: f.category,
                message: f.message.clone(),
                span: [f.span.start, f.span.end],
                text: a
                    .command
                    .get(f.span.start..f.span.end)
                    .unwrap_or_default()
                    .to_string(),
                hermes: f.hermes.clone(),
                sources: sources_for(a, f),
                evidence,
                why,
            }
        })
        .collect();
    let mut programs: Vec<String> = Vec::new();
    for c in &a.script.commands {
        // Wrappers run too (`sudo` is what gains root), so they are listed before the program.
        let names = c.wrappers.iter().map(|w| &w.name).chain(c.name.as_ref());
        for n in names {
            if !programs.contains(n) {
                programs.push(n.clone());
            }
        }
    }
    Report {
        command: a.command.clone(),
        decision: v.decision,
        findings,
        summary: Summary {
            commands: a
                .script
                .commands
                .iter()
                .filter(|c| c.name.is_some())
                .count(),
            programs,
        },
        normalization: a.normalized.notes().to_vec(),
        cst: None,
        model: None,
        graph: None,
    }
}
