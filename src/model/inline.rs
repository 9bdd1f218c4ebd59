//! Inline interpreter code (`python3 -c`, `node -e`, heredocs into `perl`): the code is
//! scanned for capabilities; literal shell-outs are lowered as nested shell code and
//! literal deletes as `rm` commands, so the same rules judge them.

use super::env::Env;
use super::interp::{self, CapKind, ShellOut};
use super::lower::{Block, Lowerer};
use super::{CmdId, InlineCode, Origin, OriginKind, Word};

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

/// Lower what inline interpreter code runs, when `name` is an interpreter.
pub(super) fn lower_inline(
    l: &mut Lowerer<'_>,
    id: CmdId,
    name: &str,
    argv: &[Word],
    env: &mut Env,
    origin: &Origin,
) -> Option<Block> {
    let it = interp::table::lookup(name)?;
    let lang = it.lang;
    let (span, stdin) = {
        let c = l.script.commands.get(id)?;
        (c.span, c.stdin_text.clone())
    };
    let code = match inline_code(it, argv, stdin.as_deref())? {
        Ok(c) => c,
        Err(reason) => {
            if let Some(c) = l.script.commands.get_mut(id) {
                c.inline = Some(InlineCode {
                    language: format!("{lang:?}").to_lowercase(),
                    capabilities: Vec::new(),
                    unreadable: Some(reason),
                });
            }
            return None;
        }
    };
    let scan = interp::scan(lang, &code);
    if let Some(c) = l.script.commands.get_mut(id) {
        c.inline = Some(InlineCode {
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
        });
    }
    let mut out = Block::default();
    for so in &scan.shell_outs {
        let text = match so {
            ShellOut::Code { code, .. } => code.clone(),
            ShellOut::Argv { argv, .. } => shell_words::join(argv),
        };
        let w = Word::literal(&text, span);
        let detail = format!("{name} shell-out");
        let b = l.lower_code(
            &w,
            OriginKind::Interpreter,
            &detail,
            env,
            origin,
            Some(span),
            None,
        );
        out.commands.extend(b.commands);
    }
    for d in &scan.deletes {
        let mut words = vec![Word::literal("rm", span)];
        if d.recursive {
            words.push(Word::literal("-r", span));
        }
        words.push(Word::literal("--", span));
        words.push(Word::literal(&d.path, span));
        let b = lower_file_call(l, words, name, &d.call, span, env, origin);
        out.commands.extend(b.commands);
    }
    for w in &scan.writes {
        // Judged by its target like any other write: `tee` is the one writer every
        // sensitive-path rule reads.
        let words = vec![
            Word::literal("tee", span),
            Word::literal("--", span),
            Word::literal(&w.path, span),
        ];
        let b = lower_file_call(l, words, name, &w.call, span, env, origin);
        out.commands.extend(b.commands);
    }
    Some(out)
}

/// Lower a literal delete or write call of inline code as the shell command that does the
/// same (`words`: `rm -r -- P`, `tee -- P`), reached through the interpreter's `call`.
fn lower_file_call(
    l: &mut Lowerer<'_>,
    words: Vec<Word>,
    name: &str,
    call: &str,
    span: crate::Span,
    env: &mut Env,
    origin: &Origin,
) -> Block {
    let step = super::OriginStep {
        kind: OriginKind::Interpreter,
        span,
        detail: format!("{name} {call}"),
    };
    l.run_argv(
        words,
        Vec::new(),
        Vec::new(),
        span,
        env,
        &origin.push(step),
        None,
        Some(call.to_string()),
    )
}
