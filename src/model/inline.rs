//! Inline interpreter code (`python3 -c`, `node -e`, heredocs into `perl`): the code is
//! scanned for capabilities; literal shell-outs become nested shell code and literal
//! deletes `rm` commands ([`InlineRun`]), which the lowering lowers, so the same rules
//! judge them.

use super::frame::NestedCode;
use super::interp::{self, CapKind, ShellOut};
use super::{InlineCode, OriginKind, Word};
use crate::Span;

/// The code an interpreter invocation runs, when it is inline (flag or stdin), read with the
/// interpreter's row of the interpreter table.
fn inline_code(
    it: &interp::table::Interpreter,
    argv: &[Word],
    stdin: Option<&str>,
) -> Option<Result<String, String>> {
    // An option word with a run-time tail (`-c"$CODE"`) keeps its known option text, so the
    // table still sees the code option; the tail is marked so that code is never read.
    let args: Vec<Option<String>> = argv
        .get(1..)
        .unwrap_or(&[])
        .iter()
        .map(|w| {
            w.lit().or_else(|| {
                let known = w.text_with(interp::table::RUN_TIME);
                (known.len() > 2
                    && known.starts_with('-')
                    && !known.starts_with(interp::table::RUN_TIME))
                .then_some(known)
            })
        })
        .collect();
    interp::table::inline_code(it, &args, stdin)
}

fn cap_name(k: CapKind) -> &'static str {
    match k {
        CapKind::Process => "process",
        CapKind::Delete => "delete",
        CapKind::Write => "write",
        CapKind::Network => "network",
        CapKind::Eval => "eval",
    }
}

/// What inline interpreter code runs, for the lowering to lower as commands of its own.
pub(super) enum InlineRun {
    /// A literal shell-out (`os.system("..")`, `subprocess.run([..])`), as shell code.
    ShellOut(NestedCode),
    /// A literal delete or write, as the shell command that does the same (`rm -r -- P`,
    /// `tee -- P`), made by the interpreter's `call`.
    FileCall { argv: Vec<Word>, call: String },
}

/// Read the inline code of `name` (an interpreter) with the interpreter table: what it can
/// do, for the command, and (unless the code could not be read) what it runs. `None` when
/// `name` is no interpreter or runs no inline code.
pub(super) fn read(
    name: &str,
    argv: &[Word],
    stdin: Option<&str>,
    span: Span,
) -> Option<(InlineCode, Option<Vec<InlineRun>>)> {
    let it = interp::table::lookup(name)?;
    let lang = it.lang;
    let code = match inline_code(it, argv, stdin)? {
        Ok(c) => c,
        Err(reason) => {
            let code = InlineCode {
                language: format!("{lang:?}").to_lowercase(),
                capabilities: Vec::new(),
                unreadable: Some(reason),
            };
            return Some((code, None));
        }
    };
    let scan = interp::scan(lang, &code);
    let inline = InlineCode {
        language: format!("{lang:?}").to_lowercase(),
        capabilities: scan
            .capabilities
            .iter()
            .map(|c| (cap_name(c.kind).to_string(), c.what.clone()))
            .collect(),
        unreadable: scan.unreadable.then(|| {
            scan.unreadable_reason
                .clone()
                .unwrap_or_else(|| "the code could not be read".into())
        }),
    };
    let mut runs = Vec::new();
    for so in &scan.shell_outs {
        let text = match so {
            ShellOut::Code { code, .. } => code.clone(),
            ShellOut::Argv { argv, .. } => shell_words::join(argv),
        };
        runs.push(InlineRun::ShellOut(NestedCode::new(
            Word::literal(&text, span),
            OriginKind::Interpreter,
            format!("{name} shell-out"),
        )));
    }
    for d in &scan.deletes {
        let mut words = vec![Word::literal("rm", span)];
        if d.recursive {
            words.push(Word::literal("-r", span));
        }
        words.push(Word::literal("--", span));
        words.push(Word::literal(&d.path, span));
        runs.push(InlineRun::FileCall {
            argv: words,
            call: d.call.clone(),
        });
    }
    for w in &scan.writes {
        // Judged by its target like any other write: `tee` is the one writer every
        // sensitive-path rule reads.
        let words = vec![
            Word::literal("tee", span),
            Word::literal("--", span),
            Word::literal(&w.path, span),
        ];
        runs.push(InlineRun::FileCall {
            argv: words,
            call: w.call.clone(),
        });
    }
    Some((inline, Some(runs)))
}
