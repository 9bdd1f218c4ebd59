//! All human-readable rendering, into strings: `explain` reports, span underlines, the
//! lowered model, the rule catalog and rule docs. Kept in one place so every subcommand (and
//! the Python API's `explain`) looks alike and colour handling lives in one spot; the other
//! modules build data, this one renders it, and only `src/cli/` prints.

use std::fmt::{self, Write};

pub use crate::text::display;
use crate::text::{clip, display_text, display_width, quote};

use crate::rules::RuleMeta;
use crate::{Decision, Finding, Severity, Span};

use crate::evidence::{Evidence, evidence_sentence};
use crate::report::Report;

/// Whether to emit ANSI colour escapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

impl Style {
    /// Colour when `color` is true: the caller resolves `--color` and `NO_COLOR`.
    pub fn new(color: bool) -> Style {
        Style { color }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn bold(&self, t: &str) -> String {
        self.paint("1", t)
    }
    fn dim(&self, t: &str) -> String {
        self.paint("2", t)
    }
    fn red(&self, t: &str) -> String {
        self.paint("1;31", t)
    }
    fn yellow(&self, t: &str) -> String {
        self.paint("1;33", t)
    }
    fn green(&self, t: &str) -> String {
        self.paint("1;32", t)
    }
    fn cyan(&self, t: &str) -> String {
        self.paint("36", t)
    }

    fn decision(&self, d: Decision) -> String {
        let t = d.as_str().to_uppercase();
        match d {
            Decision::Allow => self.green(&t),
            Decision::Ask => self.yellow(&t),
            Decision::Deny => self.red(&t),
        }
    }

    fn severity(&self, s: Severity) -> String {
        match s {
            Severity::Block => self.red(severity_str(s)),
            Severity::Approve => self.yellow(severity_str(s)),
        }
    }
}

pub fn severity_str(s: Severity) -> &'static str {
    match s {
        Severity::Block => "block",
        Severity::Approve => "approve",
    }
}

/// Collects what a writer writes. Writing into memory cannot fail, so the writers' `?` only
/// passes on a formatter's own error, which collecting into a `String` never raises.
pub fn render(write: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result) -> String {
    fmt::from_fn(write).to_string()
}

/// `check`'s terse text form: the decision, then one line per finding with its byte span.
fn write_check(out: &mut impl Write, decision: Decision, findings: &[Finding]) -> fmt::Result {
    writeln!(out, "{}", decision.as_str())?;
    for f in findings {
        writeln!(
            out,
            "  {} {} [{}] {} ({}..{})",
            f.rule,
            f.name,
            severity_str(f.severity),
            display_text(&f.message),
            f.span.start,
            f.span.end
        )?;
    }
    Ok(())
}

/// `check`'s text form of a policy verdict: as [`write_check`] with the policy's decision, plus a
/// `policy:` line when the policy (not the findings alone) decided it.
pub fn check_verdict(v: &crate::policy::Verdict) -> String {
    use crate::policy::DecidedBy;
    render(|out| {
        write_check(out, v.decision, &v.findings)?;
        if !matches!(
            v.decided_by,
            DecidedBy::Rule { .. } | DecidedBy::NoFindings | DecidedBy::Ask
        ) {
            writeln!(out, "  policy: {}", display_text(&v.reason))?;
        }
        Ok(())
    })
}

/// `explain`'s closing line on the policy: the mode and what decided, when the policy (not
/// the findings alone) decided it.
pub fn policy_line(v: &crate::policy::Verdict) -> String {
    use crate::policy::DecidedBy;
    if matches!(
        v.decided_by,
        DecidedBy::Rule { .. } | DecidedBy::NoFindings | DecidedBy::Ask
    ) {
        return String::new();
    }
    format!(
        "\npolicy ({} mode): {}\n",
        v.mode.as_str(),
        display_text(&v.reason)
    )
}

/// What each decision means, for the line under the decision.
fn decision_meaning(d: Decision) -> &'static str {
    match d {
        Decision::Allow => "the command may run",
        Decision::Ask => "a person must approve the command before it runs",
        Decision::Deny => "the command must not run",
    }
}

/// Most source lines shown for one span; longer spans show their head and tail.
const MAX_SPAN_LINES: usize = 8;

/// Lines longer than this are shown as a window around the span.
const MAX_LINE_BYTES: usize = 160;
/// Bytes of context kept on each side of the span in a cut line.
const LINE_CONTEXT: usize = 40;

/// The lines of `text` that `span` touches, each with its line number and a `^^^` line
/// under exactly the bytes of the span on that line.
pub fn underline(text: &str, span: Span, style: &Style, severity: Severity) -> String {
    render(|out| write_underline(out, text, span, style, severity))
}

fn write_underline(
    out: &mut impl Write,
    text: &str,
    span: Span,
    style: &Style,
    severity: Severity,
) -> fmt::Result {
    let start = text.floor_char_boundary(span.start.min(text.len()));
    let end = text
        .floor_char_boundary(span.end.min(text.len()))
        .max(start);
    // (line number, byte offset of line start, line text without newline)
    let mut lines = Vec::new();
    let mut off = 0;
    for (i, l) in text.split('\n').enumerate() {
        lines.push((i + 1, off, l));
        off += l.len() + 1;
    }
    let touched: Vec<_> = lines
        .iter()
        .filter(|(_, ls, l)| {
            let le = ls + l.len();
            // A line is touched when the span overlaps it, or when an empty span sits on it.
            (start < le + 1 && end > *ls) || (start == end && start >= *ls && start <= le)
        })
        .collect();
    let width = touched
        .last()
        .map(|(n, _, _)| n.to_string().len())
        .unwrap_or(1);
    let shown: Vec<Option<&&(usize, usize, &str)>> = if touched.len() > MAX_SPAN_LINES {
        let head = MAX_SPAN_LINES - 2;
        touched[..head]
            .iter()
            .map(Some)
            .chain(std::iter::once(None))
            .chain(touched[touched.len() - 2..].iter().map(Some))
            .collect()
    } else {
        touched.iter().map(Some).collect()
    };
    let paint = |s: &str| match severity {
        Severity::Block => style.red(s),
        Severity::Approve => style.yellow(s),
    };
    for item in shown {
        let Some((n, ls, l)) = item else {
            let hidden = touched.len().saturating_sub(MAX_SPAN_LINES);
            writeln!(
                out,
                "{:>width$} {} … {hidden} more line(s) …",
                "",
                style.dim("|")
            )?;
            continue;
        };
        let mut from = start.saturating_sub(*ls).min(l.len());
        // A span running on from an earlier line is underlined from the line's first
        // non-blank character, as the eye expects, not from its indentation.
        if start < *ls {
            from = l.len() - l.trim_start().len();
        }
        let to = end.saturating_sub(*ls).min(l.len()).max(from);
        // Long lines (a minified one-liner, a 1 MiB hostile command) are cut to a window
        // around the span so the report stays readable and bounded.
        let (ws, we) = if l.len() > MAX_LINE_BYTES {
            let ws = l.floor_char_boundary(from.saturating_sub(LINE_CONTEXT));
            let shown_end = to.min(from + MAX_LINE_BYTES - 2 * LINE_CONTEXT);
            (
                ws,
                l.ceil_char_boundary((shown_end + LINE_CONTEXT).min(l.len())),
            )
        } else {
            (0, l.len())
        };
        let lead = if ws > 0 { "…" } else { "" };
        let trail = if we < l.len() { "…" } else { "" };
        writeln!(
            out,
            "{} {} {lead}{}{trail}",
            style.dim(&format!("{n:>width$}")),
            style.dim("|"),
            display_text(&l[ws..we])
        )?;
        let pad = lead.chars().count() + display_width(&l[ws..from]);
        let carets = display_width(&l[from..to.min(we)]).max(1);
        writeln!(
            out,
            "{:>width$} {} {}{}",
            "",
            style.dim("|"),
            " ".repeat(pad),
            paint(&"^".repeat(carets))
        )?;
    }
    Ok(())
}

/// Longest finding message shown; messages quote command text, which can be huge.
const MAX_MESSAGE_CHARS: usize = 400;

/// The full `explain` report.
pub fn explain(r: &Report, style: &Style) -> String {
    render(|out| write_explain(out, r, style))
}

fn write_explain(out: &mut impl Write, r: &Report, style: &Style) -> fmt::Result {
    writeln!(
        out,
        "{} {}",
        style.decision(r.decision),
        style.dim(&format!("— {}", decision_meaning(r.decision)))
    )?;
    if r.findings.is_empty() {
        writeln!(out)?;
        writeln!(out, "{}", summary_line(r))?;
        writeln!(out, "No rule fired.")?;
        return normalization_block(out, r, style);
    }
    for (i, f) in r.findings.iter().enumerate() {
        writeln!(out)?;
        writeln!(
            out,
            "{} {} {} [{}] {}",
            style.dim(&format!("{}.", i + 1)),
            style.bold(f.rule),
            style.bold(f.name),
            style.severity(f.severity),
            clip(&display_text(&f.message), MAX_MESSAGE_CHARS)
        )?;
        if !f.hermes.is_empty() {
            writeln!(out, "   {} {}", style.dim("hermes:"), f.hermes.join(", "))?;
        }
        let span = Span::new(f.span[0], f.span[1]);
        for l in underline(&r.command, span, style, f.severity).lines() {
            writeln!(out, "   {l}")?;
        }
        for src in &f.sources {
            writeln!(
                out,
                "   {}",
                style.cyan(&format!("code from the {}:", src.label))
            )?;
            let span = Span::new(src.span[0], src.span[1]);
            for l in underline(&r.command, span, style, f.severity).lines() {
                writeln!(out, "   {l}")?;
            }
        }
        if !f.evidence.is_empty() {
            writeln!(out, "   {}", style.cyan("why:"))?;
            for e in &f.evidence {
                writeln!(out, "   - {}", evidence_sentence(e))?;
            }
        }
    }
    writeln!(out)?;
    writeln!(out, "{}", summary_line(r))?;
    normalization_block(out, r, style)
}

fn normalization_block(out: &mut impl Write, r: &Report, style: &Style) -> fmt::Result {
    if r.normalization.is_empty() {
        return Ok(());
    }
    writeln!(out, "{}", style.cyan("normalisation:"))?;
    for n in &r.normalization {
        writeln!(
            out,
            "- {}",
            evidence_sentence(&Evidence::Normalized { note: n.clone() })
        )?;
    }
    Ok(())
}

fn summary_line(r: &Report) -> String {
    let n = r.summary.commands;
    let programs = if r.summary.programs.is_empty() {
        "no known program".to_string()
    } else {
        r.summary
            .programs
            .iter()
            .map(|p| quote(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Analysed {n} command{} (programs run: {programs}); {} finding{}.",
        if n == 1 { "" } else { "s" },
        r.findings.len(),
        if r.findings.len() == 1 { "" } else { "s" }
    )
}

fn hermes_str(m: &RuleMeta) -> String {
    if m.hermes.is_empty() {
        "-".to_string()
    } else {
        m.hermes.join("; ")
    }
}

/// The rule catalog as an aligned table.
pub fn rules_table(metas: &[&RuleMeta]) -> String {
    let header = ["CODE", "NAME", "SEVERITY", "CATEGORY", "HERMES KEY"];
    let rows: Vec<[String; 5]> = metas
        .iter()
        .map(|m| {
            [
                m.code.to_string(),
                m.name.to_string(),
                severity_str(m.severity).to_string(),
                m.category.as_str().to_string(),
                hermes_str(m),
            ]
        })
        .collect();
    let mut w = header.map(str::len);
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |out: &mut fmt::Formatter<'_>, cells: [&str; 5]| {
        writeln!(
            out,
            "{:<w0$}  {:<w1$}  {:<w2$}  {:<w3$}  {}",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            w0 = w[0],
            w1 = w[1],
            w2 = w[2],
            w3 = w[3]
        )
    };
    render(|out| {
        line(out, header)?;
        for r in &rows {
            line(out, [&r[0], &r[1], &r[2], &r[3], &r[4]])?;
        }
        writeln!(
            out,
            "\n{} rules. Run `shellgate rules CODE` for a rule's docs and examples.",
            rows.len()
        )
    })
}

/// One rule's docs and examples.
pub fn rule_docs(m: &RuleMeta) -> String {
    render(|out| write_rule_docs(out, m))
}

fn write_rule_docs(out: &mut impl Write, m: &RuleMeta) -> fmt::Result {
    writeln!(out, "{} {}", m.code, m.name)?;
    writeln!(out, "{}", m.summary)?;
    writeln!(out)?;
    writeln!(out, "severity: {}", severity_str(m.severity))?;
    writeln!(out, "category: {}", m.category.as_str())?;
    writeln!(out, "hermes:   {}", hermes_str(m))?;
    if !m.programs.is_empty() {
        writeln!(out, "programs: {}", m.programs.join(", "))?;
    }
    writeln!(out)?;
    // `///` docs keep the space after the slashes; drop it so the text reads as written.
    for l in m.docs.trim_end().lines() {
        writeln!(out, "{}", l.strip_prefix(' ').unwrap_or(l))?;
    }
    writeln!(out)?;
    writeln!(out, "## Examples it flags")?;
    if m.fail.is_empty() {
        writeln!(out, "(none)")?;
    }
    for e in m.fail {
        writeln!(out, "  $ {}", display_text(e))?;
    }
    writeln!(out)?;
    writeln!(out, "## Examples it does not flag")?;
    if m.pass.is_empty() {
        writeln!(out, "(none)")?;
    }
    for e in m.pass {
        writeln!(out, "  $ {}", display_text(e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAIN: Style = Style { color: false };

    #[test]
    fn underlines_a_span_on_one_line() {
        let u = underline("sudo rm -rf /", Span::new(5, 13), &PLAIN, Severity::Block);
        assert_eq!(u, "1 | sudo rm -rf /\n  |      ^^^^^^^^\n");
    }

    #[test]
    fn underlines_each_line_of_a_multi_line_span_from_its_first_non_blank() {
        let text = "ls\nrm -rf \\\n  /\necho";
        let start = text.find("rm").unwrap_or(0);
        let end = text.find('/').map(|i| i + 1).unwrap_or(0);
        let u = underline(text, Span::new(start, end), &PLAIN, Severity::Block);
        assert_eq!(u, "2 | rm -rf \\\n  | ^^^^^^^^\n3 |   /\n  |   ^\n");
    }

    #[test]
    fn empty_span_gets_one_caret_and_out_of_range_spans_do_not_panic() {
        let u = underline("ls", Span::new(2, 2), &PLAIN, Severity::Approve);
        assert_eq!(u, "1 | ls\n  |   ^\n");
        let u = underline("é", Span::new(1, 99), &PLAIN, Severity::Approve);
        assert!(u.contains('^'));
    }

    #[test]
    fn control_characters_are_escaped_and_underline_stays_aligned() {
        let u = underline("a\x1b[2J rm", Span::new(6, 8), &PLAIN, Severity::Block);
        assert_eq!(u, "1 | a\\x1b[2J rm\n  |          ^^\n");
    }

    #[test]
    fn long_lines_show_a_window_around_the_span() {
        let text = format!("{} rm -rf / {}", "a".repeat(500), "é".repeat(500));
        let start = 501;
        let u = underline(&text, Span::new(start, start + 9), &PLAIN, Severity::Block);
        let lines: Vec<&str> = u.lines().collect();
        assert!(
            lines[0].starts_with("1 | …") && lines[0].ends_with('…'),
            "{u}"
        );
        assert!(lines[0].chars().count() < 200, "{u}");
        let col = lines[1].find('^').unwrap_or(0);
        let shown: String = lines[0].chars().skip(col).take(9).collect();
        assert_eq!(shown, "rm -rf / ", "{u}");
    }

    #[test]
    fn long_quotes_are_cut() {
        let q = quote(&"x".repeat(5000));
        assert!(q.ends_with("…` (5000 bytes in all)"), "{q}");
        assert!(q.chars().count() < 250);
    }

    #[test]
    fn long_spans_are_cut_in_the_middle() {
        let text = (1..=20)
            .map(|i| format!("l{i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let u = underline(&text, Span::new(0, text.len()), &PLAIN, Severity::Block);
        assert!(u.contains("… 12 more line(s) …"), "{u}");
        assert!(u.contains("20 | l20"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        #[test]
        fn underline_never_panics_and_always_marks_something(
            text in "[a-zé\t\n \x1b\u{202e}]{0,60}",
            a in 0usize..80,
            b in 0usize..80,
        ) {
            let u = underline(&text, Span::new(a.min(b), a.max(b)), &PLAIN, Severity::Block);
            proptest::prop_assert!(u.contains('^'));
            proptest::prop_assert!(!u.contains('\x1b'), "raw ESC in {u:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        #[test]
        fn explain_renders_any_command(cmd in "[a-z $'\"\\\\|&;(){}<>\n~*=/-]{0,40}") {
            use crate::policy::{self, LoadedConfig, NullStore, Request};
            let req = Request::new(cmd, crate::Context::fixture());
            let v = policy::evaluate(&req, &LoadedConfig::default(), &mut NullStore);
            let r = crate::report::report(&v, Some("/home/user/project"));
            let style = Style { color: true };
            let text = explain(&r, &style);
            let head = style.decision(v.decision);
            proptest::prop_assert!(text.starts_with(&head), "{}", text);
            proptest::prop_assert_eq!(r.findings.len(), v.findings.len());
            let _ = v.analysis.script.to_string();
        }
    }
}
