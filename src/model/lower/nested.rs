//! Nested code: shell strings, scripts fed to shells, eval, and function bodies never called.

use super::builtins::{process_subst_output, word_var};
use super::{Block, Frame, Lowerer, NestedCode, Source, SrcMap};
use crate::Span;
use crate::model::env::{Env, VarValue};
use crate::model::{CmdId, Issue, IssueKind, Origin, OriginKind, OriginStep, RedirectOp, Word};
use crate::syntax::{self};

impl Lowerer<'_> {
    /// `bash -c CODE`, `sh -s`, `bash script` and `bash` reading code from stdin. `f` is the
    /// frame of the shell's process: its environment, and the stdin it reads.
    pub(in crate::model) fn lower_shell(
        &mut self,
        f: &mut Frame<'_>,
        name: &str,
        args: &[Word],
        span: Span,
        id: Option<CmdId>,
    ) -> Option<Block> {
        let shell = crate::model::opts::shell::shell_args(args);
        let reads_stdin = shell.reads_stdin;
        let rest = args.get(shell.rest..).unwrap_or(&[]);
        if shell.code_string {
            let code = rest.first()?;
            if let Some(a0) = rest.get(1) {
                f.env.arg0 = a0.lit();
            }
            f.env.positional = Some(rest.iter().skip(2).map(word_var).collect());
            let code = NestedCode::new(code.clone(), OriginKind::ShellString, format!("{name} -c"));
            return Some(self.lower_code(&mut f.with_stdin(None), &code, None));
        }
        let script_is_stdin = rest
            .first()
            .and_then(|w| w.lit())
            .is_some_and(|f| f == "/dev/stdin" || f == "/dev/fd/0" || f == "/proc/self/fd/0");
        if !reads_stdin && !script_is_stdin {
            if let Some(script) = rest.first() {
                f.env.positional = Some(rest.iter().skip(1).map(word_var).collect());
                if let Some(out) = process_subst_output(script) {
                    let code = NestedCode::new(
                        Word::literal(&out, span),
                        OriginKind::ProcessSubstitution,
                        format!("{name} <(..) with known output"),
                    );
                    return Some(self.lower_code(&mut f.with_stdin(None), &code, Some(span)));
                }
                let file = script.lit()?;
                let path = crate::model::paths::resolve(&file, f.env.cwd.as_deref())?;
                let content = self.files.get(&path)?.clone();
                let code = NestedCode::new(
                    Word::literal(&content, span),
                    OriginKind::WrittenScript,
                    format!("{name} {file} (written earlier)"),
                );
                return Some(self.lower_code(&mut f.with_stdin(None), &code, None));
            }
        } else {
            f.env.positional = Some(rest.iter().map(word_var).collect());
        }
        // No -c and no script: the shell runs its stdin.
        let cmd = id.and_then(|i| self.script.commands.get(i));
        let heredoc = cmd.and_then(|c| {
            c.redirects
                .iter()
                .rev()
                .find(|r| matches!(r.op, RedirectOp::Heredoc | RedirectOp::HereString))
                .cloned()
        });
        let heredoc_text = heredoc.as_ref().and_then(|r| {
            r.heredoc
                .as_ref()
                .map(|h| h.body.clone().unwrap_or_else(|| h.raw.clone()))
        });
        let decoded = self.fed_by_decoder();
        let code = f.stdin.clone().or(heredoc_text)?;
        let (kind, detail) = if heredoc.is_some() {
            (OriginKind::HeredocToShell, format!("heredoc into {name}"))
        } else if decoded {
            (
                OriginKind::DecodedPayload,
                format!("decoded payload piped into {name}"),
            )
        } else {
            (OriginKind::StdinToShell, format!("piped into {name}"))
        };
        // A heredoc body that reaches the shell verbatim keeps exact spans.
        if let Some(h) = heredoc.as_ref().and_then(|r| r.heredoc.as_ref())
            && let (Some(ns), true) = (
                h.nstart,
                h.body.as_deref() == Some(h.raw.as_str()) && code == h.raw,
            )
        {
            let mut w = Word::literal(&code, h.span);
            w.raw = h.raw.clone();
            w.nspan = Some((ns, ns + h.raw.len()));
            let code = NestedCode::new(w, kind, detail);
            return Some(self.lower_code(&mut f.with_stdin(None), &code, None));
        }
        let code = NestedCode::new(Word::literal(&code, span), kind, detail);
        Some(self.lower_code(&mut f.with_stdin(None), &code, Some(span)))
    }

    /// Whether the stage before the command being lowered decodes its input
    /// (`base64 -d`, `xxd -r`, ...): the latest pipeline's last finished stage.
    pub(in crate::model) fn fed_by_decoder(&self) -> bool {
        self.script
            .pipelines
            .last()
            .and_then(|p| p.stages.last())
            .is_some_and(|st| {
                st.tails
                    .iter()
                    .filter_map(|&t| self.script.commands.get(t))
                    .any(crate::model::payload::is_decoder)
            })
    }

    /// Parse a string of shell code and lower it as nested code, in `f`'s environment,
    /// reading `f.stdin`. `fixed`: the span every command of the code gets when the code is
    /// not a verbatim slice of the command text.
    pub(in crate::model) fn lower_code(
        &mut self,
        f: &mut Frame<'_>,
        nested: &NestedCode,
        fixed: Option<Span>,
    ) -> Block {
        let code = &nested.code;
        let step = OriginStep {
            kind: nested.kind,
            span: code.span,
            detail: nested.detail.clone(),
        };
        let origin = f.origin.push(step);
        // Unknown parts of the code become placeholder variables the env marks unknown, so
        // the known structure around them is still analysed.
        let mut text = String::new();
        for p in &code.pieces {
            match p {
                crate::model::Piece::Lit { text: t, .. } => text.push_str(t),
                crate::model::Piece::Unknown { reason, .. } => {
                    self.placeholder += 1;
                    let var = format!("__shellgate_unknown_{}", self.placeholder);
                    f.env.set(&var, VarValue::Unknown(reason.clone()));
                    text.push_str(&format!("${{{var}}}"));
                }
            }
        }
        // bash drops NUL bytes from code it reads; so does the analysis.
        if text.contains('\0') {
            text.retain(|c| c != '\0');
        }
        if origin.steps.len() > self.limits.max_nesting {
            self.script.issues.push(Issue {
                kind: IssueKind::NestingLimit,
                span: code.span,
                message: format!(
                    "code nested more than {} levels deep was not analysed",
                    self.limits.max_nesting
                ),
                origin: origin.clone(),
                text,
            });
            return Block::default();
        }
        // The shell that runs this code joins `\`+newline continuations first, as the
        // normaliser did for the top-level text; offsets then no longer match the word.
        let mut joined = crate::scan::join_continuations(&text);
        // An unterminated heredoc in the code ends at its end, as in the top-level text.
        if let Some(c) = crate::scan::heredoc_closing(joined.as_deref().unwrap_or(&text)) {
            joined = Some(format!("{}{c}", joined.as_deref().unwrap_or(&text)));
        }
        let fixed = if joined.is_some() {
            Some(fixed.unwrap_or(code.span))
        } else {
            fixed
        };
        if let Some(j) = joined {
            text = j;
        }
        let tree = match syntax::parse(&text) {
            Ok(t) => t,
            Err(e) => {
                self.script.issues.push(Issue {
                    kind: IssueKind::Internal,
                    span: code.span,
                    message: format!("nested code could not be parsed: {e}"),
                    origin: origin.clone(),
                    text,
                });
                return Block::default();
            }
        };
        let map = match (fixed, code.nspan) {
            (None, Some((ns, ne))) if code.is_literal() && !text.is_empty() => {
                let raw_in_norm = self.norm.text.get(ns..ne).unwrap_or("");
                match raw_in_norm.find(text.as_str()) {
                    Some(idx) if raw_in_norm == code.raw => SrcMap::Offset(ns + idx),
                    _ => SrcMap::Fixed(code.span),
                }
            }
            (f, _) => SrcMap::Fixed(f.unwrap_or(code.span)),
        };
        let src = Source { text, tree, map };
        self.record_problems(&src, &origin);
        let root = src.tree.root;
        let children = src.tree.node(root).children.clone();
        let stdin = f.stdin.clone();
        self.lower_statements(&mut Frame::new(&src, f.env, &origin, stdin), &children)
    }

    /// Functions defined but never called still get their bodies analysed: the text may be
    /// sourced or called in a way shellgate cannot see.
    pub(in crate::model) fn lower_uncalled(&mut self, env: &mut Env) {
        for i in 0..self.defined.len() {
            if self.called.get(i).copied().unwrap_or(true) {
                continue;
            }
            let f = self.defined[i].clone();
            let span = self
                .script
                .functions
                .get(f.index)
                .map(|d| d.span)
                .unwrap_or_default();
            let step = OriginStep {
                kind: OriginKind::Function,
                span,
                detail: format!("function {} (defined, not called)", f.name),
            };
            let mut e = env.clone();
            e.positional = None;
            self.fn_stack.push(f.name.clone());
            let origin = Origin::default().push(step);
            self.lower_stmt(&mut Frame::new(&f.src, &mut e, &origin, None), f.node, &[]);
            self.fn_stack.pop();
        }
    }
}
