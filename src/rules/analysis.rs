//! Analysis rules: what shellgate could not understand (parse errors, limits, internal
//! errors) is itself a finding, so the guard fails closed; the fallback catalog's hits too.

use super::{Cx, Finding, Rule, RuleMeta, fallback_findings};
use crate::declare_rule;
use crate::model::IssueKind;

declare_rule! {
    /// ## What it does
    /// Flags commands with bash syntax that tree-sitter-bash could not parse (`ERROR` or
    /// `MISSING` regions), and runs the regex fallback catalog over the statement holding it.
    ///
    /// ## Why is this bad?
    /// Code shellgate cannot parse is code it cannot judge; bash may still run it. Allowing it
    /// would make every grammar gap a bypass.
    ///
    /// ## Example
    /// `echo "unterminated` — bash waits for the closing quote; shellgate asks.
    ///
    /// ## Known limitations
    /// tree-sitter-bash 0.25 rejects some valid bash (`${v:$i:1}`, `$((0x$h))`, a `;` right
    /// after a heredoc delimiter); those are asked about even when harmless.
    pub struct UnparsedSyntax;
    code: "SG0001",
    name: "unparsed-syntax",
    severity: Approve,
    category: Analysis,
    hermes: ["command parser limit or malformed executable payload"],
    programs: [],
    summary: "Part of the command could not be parsed as bash",
    pass: ["ls -la", "echo 'quoted ; text'"],
    fail: ["echo \"unterminated", "if true; then echo x"],
}

declare_rule! {
    /// ## What it does
    /// Flags commands that hit an analysis limit: code nested deeper than the nesting limit
    /// (`bash -c` inside `eval` inside ...), syntax deeper than the tree limit, more commands
    /// than the command limit, or a command larger than the size limit.
    ///
    /// ## Why is this bad?
    /// Past a limit shellgate stops looking; what it did not look at may be dangerous, and
    /// deep nesting is itself a way to hide code.
    ///
    /// ## Example
    /// Nine levels of `bash -c "bash -c ..."`.
    ///
    /// ## Known limitations
    /// The limits are fixed (see `LowerLimits`); the fallback catalog still scans the text.
    pub struct AnalysisLimit;
    code: "SG0002",
    name: "analysis-limit-exceeded",
    severity: Approve,
    category: Analysis,
    hermes: ["command parser limit exceeded"],
    programs: [],
    summary: "The command exceeded an analysis limit and was not fully analysed",
    pass: ["bash -c 'bash -c \"echo hi\"'"],
    fail: ["eval eval eval eval eval eval eval eval eval eval ls"],
}

declare_rule! {
    /// ## What it does
    /// Reports an internal error during analysis (a bug in shellgate, caught).
    ///
    /// ## Why is this bad?
    /// A guard that errors must not allow: the command was not judged.
    ///
    /// ## Example
    /// None: this only fires on shellgate bugs.
    ///
    /// ## Known limitations
    /// A stack overflow cannot be caught; recursion is bounded instead.
    pub struct InternalError;
    code: "SG0003",
    name: "internal-error",
    severity: Approve,
    category: Analysis,
    hermes: [],
    programs: [],
    summary: "shellgate hit an internal error; the command was not judged",
    pass: ["true"],
    fail: [],
}

declare_rule! {
    /// ## What it does
    /// Carries hits of the regex fallback catalog (Hermes-compatible patterns) on text that
    /// did not parse or was not analysed. A block-tier pattern hit is a block finding.
    ///
    /// ## Why is this bad?
    /// Unparsable text still reaches bash; the fallback keeps at least the unconditional tier
    /// in force for it.
    ///
    /// ## Example
    /// `rm -rf / "unterminated` — the quote breaks the parse; the fallback sees `rm -rf /`.
    ///
    /// ## Known limitations
    /// Regexes see text, not structure: inside unparsable regions, quoted mentions match too.
    pub struct FallbackPattern;
    code: "SG0004",
    name: "fallback-pattern-match",
    severity: Approve,
    category: Analysis,
    hermes: [],
    programs: [],
    summary: "Unanalysed text matches the fallback regex catalog",
    pass: ["echo 'rm -rf /'"],
    fail: ["rm -rf / \"unterminated"],
}

declare_rule! {
    /// ## What it does
    /// Flags commands containing terminal escape sequences (ANSI/ECMA-48), C1 control
    /// characters or NUL bytes. shellgate judges both the normalised and the raw text.
    ///
    /// ## Why is this bad?
    /// Escapes can make a terminal show a command different from the one bash runs; a model
    /// has no reason to emit them in a command, so they suggest injected text.
    ///
    /// ## Example
    /// `echo hi\x1b[8m; rm -rf ./x` — the escape hides the text after it on a terminal.
    ///
    /// ## Known limitations
    /// Legitimate `printf '\033[1m'` is written with escapes *as text* and is not flagged;
    /// only raw control bytes are.
    pub struct HiddenControls;
    code: "SG0005",
    name: "hidden-control-characters",
    severity: Approve,
    category: Analysis,
    hermes: [],
    programs: [],
    summary: "Raw terminal escapes or control characters in the command",
    pass: ["printf '\\033[1mbold\\033[0m'"],
    fail: ["echo hi\u{1b}[8m hidden"],
}

impl Rule for HiddenControls {}

impl Rule for UnparsedSyntax {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        let mut scanned = std::collections::BTreeSet::new();
        for issue in &cx.script.issues {
            let meta: &'static RuleMeta = match issue.kind {
                IssueKind::ParseError => &UnparsedSyntax::META,
                IssueKind::NestingLimit | IssueKind::SizeLimit | IssueKind::CommandLimit => {
                    &AnalysisLimit::META
                }
                IssueKind::Internal => &InternalError::META,
            };
            let mut f = Finding::at(meta, issue.span, issue.message.clone());
            if !issue.origin.is_top_level() {
                f = f.with_evidence(format!("inside {}", issue.origin.describe()));
            }
            out.push(f);
            // Scan each region once, however many problems it holds.
            if scanned.insert(issue.text.clone()) {
                out.extend(fallback_findings(&issue.text, issue.span));
            }
        }
    }
}

impl Rule for AnalysisLimit {}

impl Rule for InternalError {}

impl Rule for FallbackPattern {}
