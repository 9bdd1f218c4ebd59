//! Simple commands: the words of one command become an argv, peeled of wrappers, and run.

use super::builtins::Call;
use super::redirect::heredoc_stdin;
use super::stmt::apply_assignment;
use super::{Block, Frame, Lowerer, Source, readback};
use crate::Span;
use crate::model::opts::{self, grammars};
use crate::model::word::WordMode;
use crate::model::wrappers::{self, program_name};
use crate::model::{Assignment, Command, OriginKind, OriginStep, Redirect, RedirectOp, Word};
use crate::syntax::{NodeId, kinds as k};

impl Lowerer<'_> {
    /// Lower `$(..)` and `<(..)` inside a node we do not otherwise model.
    pub(in crate::model) fn lower_subs(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        subs: &mut Vec<crate::model::Substitution>,
    ) {
        let node = f.src.tree.node(id);
        if node.kind == k::COMMAND_SUBSTITUTION || node.kind == k::PROCESS_SUBSTITUTION {
            let w = self.expander().decode_nodes(f, &[id], WordMode::Single);
            for x in w {
                subs.extend(x.substitutions);
            }
            return;
        }
        for &c in &node.children {
            self.lower_subs(f, c, subs);
        }
    }

    pub(in crate::model) fn lower_command(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        extra: &[Redirect],
    ) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let span = src.span(node.start, node.end, self.norm);
        let mut assign_nodes = Vec::new();
        let mut word_groups: Vec<Vec<NodeId>> = Vec::new();
        let mut redirect_nodes = Vec::new();
        let mut last_end: Option<usize> = None;
        let mut assign_end: Option<usize> = None;
        let src_id = src.text.as_ptr() as usize;
        for &c in &node.children {
            let cn = src.tree.node(c);
            if self
                .heredoc_cuts
                .iter()
                .any(|&(id, s, e)| id == src_id && cn.start + 1 >= s && cn.start < e)
            {
                continue;
            }
            if cn.kind == k::VARIABLE_ASSIGNMENT && word_groups.is_empty() {
                assign_nodes.push((c, Vec::new()));
                assign_end = Some(cn.end);
                continue;
            }
            // The grammar ends an assignment value at a quote (`p='r'\m`): a word that
            // touches the assignment is the rest of its value, not the command name.
            if word_groups.is_empty()
                && assign_end == Some(cn.start)
                && (cn.kind == k::COMMAND_NAME || cn.field == Some("argument"))
            {
                if let Some((_, extra)) = assign_nodes.last_mut() {
                    if cn.kind == k::COMMAND_NAME {
                        extra.extend(cn.children.iter().copied());
                    } else {
                        extra.push(c);
                    }
                }
                assign_end = Some(cn.end);
                continue;
            }
            assign_end = None;
            if matches!(
                cn.kind,
                k::FILE_REDIRECT | k::HEREDOC_REDIRECT | k::HERESTRING_REDIRECT
            ) || cn.field == Some("redirect")
            {
                redirect_nodes.push(c);
                let next = node
                    .children
                    .iter()
                    .skip_while(|&&x| x != c)
                    .nth(1)
                    .copied();
                word_groups.extend(readback::redirect_words(src, c, next));
                last_end = None;
                continue;
            }
            // Zero-width tokens the parser invented are reported as problems, not words.
            if cn.kind == k::COMMENT || cn.is_missing {
                continue;
            }
            if cn.kind == k::COMMAND_NAME
                || cn.field == Some("argument")
                || (cn.field.is_none() && (cn.named || cn.kind == "$"))
            {
                let inner: Vec<NodeId> = if cn.kind == k::COMMAND_NAME {
                    cn.children
                        .iter()
                        .copied()
                        .filter(|&x| !src.tree.node(x).is_missing)
                        .collect()
                } else {
                    vec![c]
                };
                if inner.is_empty() {
                    continue;
                }
                // Adjacent nodes with no space between are one word.
                match (last_end, word_groups.last_mut()) {
                    (Some(e), Some(g)) if e == cn.start => g.extend(inner),
                    _ => word_groups.push(inner),
                }
                last_end = Some(cn.end);
            }
        }
        // Words of this command that the grammar put into the statement's trailing redirects.
        let src_id = src.text.as_ptr() as usize;
        let mut pending = Vec::new();
        self.pending_words.retain(|(s, cmd, words)| {
            let mine = *s == src_id && *cmd == id;
            if mine {
                pending.extend(words.iter().cloned());
            }
            !mine
        });
        if !pending.is_empty() {
            word_groups.extend(pending);
            word_groups.sort_by_key(|g| g.first().map(|&n| src.tree.node(n).start));
        }
        // Words in text the tree has no node for (`\ ` escaped blanks, a dropped `-`).
        let mut lost = Vec::new();
        self.pending_lost.retain(|(s, cmd, l)| {
            let mine = *s == src_id && *cmd == id;
            if mine {
                lost.extend(l.iter().cloned());
            }
            !mine
        });
        for &c in &node.children {
            if let Some((s, e)) = readback::word_gap(src, c) {
                self.unread_text(f, s, e);
            }
        }
        match readback::lost_words(src, &node.children, true) {
            Ok(l) => lost.extend(l),
            Err((s, e)) => self.unread_text(f, s, e),
        }
        lost.sort_by_key(|l| l.start);
        let mut pre = Block::empty_output();
        let mut assigns = Vec::new();
        for (a, extra) in assign_nodes {
            if let Some(asg) = self.lower_assignment_with(f, a, &extra) {
                for s in &asg.value.substitutions {
                    pre.commands.extend(s.commands.iter().copied());
                }
                assigns.push(asg);
            }
        }
        let mut argv = Vec::new();
        let mut lost = lost.into_iter().peekable();
        for g in word_groups {
            let gstart = g.first().map(|&n| src.tree.node(n).start).unwrap_or(0);
            let mut prefix = None;
            while let Some(l) = lost.next_if(|l| l.start < gstart) {
                if l.glued && l.end == gstart {
                    prefix = Some(l);
                } else {
                    argv.push(lost_word(src, &l, self.norm));
                }
            }
            for (i, mut w) in self
                .expander()
                .decode_nodes(f, &g, WordMode::Argument)
                .into_iter()
                .enumerate()
            {
                if i == 0
                    && let Some(p) = &prefix
                {
                    w.pieces.insert(
                        0,
                        crate::model::Piece::Lit {
                            text: p.text.clone(),
                            quoted: true,
                        },
                    );
                    w.raw = format!("{}{}", src.text.get(p.start..p.end).unwrap_or(""), w.raw);
                    w.span = Span::new(src.span(p.start, p.end, self.norm).start, w.span.end);
                }
                for s in &w.substitutions {
                    pre.commands.extend(s.commands.iter().copied());
                }
                argv.push(w);
            }
        }
        for l in lost {
            argv.push(lost_word(src, &l, self.norm));
        }
        let mut redirs = Vec::new();
        for r in redirect_nodes {
            redirs.extend(self.lower_redirect(f, r, &mut pre));
        }
        redirs.extend(extra.iter().cloned());
        if argv.is_empty() {
            // `X=1` alone (or `X=$(..)`) sets the variable in this shell.
            for a in &assigns {
                apply_assignment(f.env, a, false);
            }
            let b = self.push_plain(f, Vec::new(), assigns, redirs, span);
            pre.then(b);
            pre.output = Some(String::new());
            return pre;
        }
        let b = self.run_argv(f, argv, assigns, redirs, span, None);
        let out = b.output.clone();
        let mut all = pre;
        all.commands.extend(b.commands);
        all.heads = b.heads;
        all.tails = b.tails;
        all.output = out;
        all
    }

    /// Record a command that runs no program (assignments, bare redirects, declarations).
    pub(in crate::model) fn push_plain(
        &mut self,
        f: &Frame<'_>,
        argv: Vec<Word>,
        assignments: Vec<Assignment>,
        redirects: Vec<Redirect>,
        span: Span,
    ) -> Block {
        if self.command_limit(span, f.origin) {
            return Block::default();
        }
        let id = self.script.commands.len();
        let name = argv.first().and_then(program_name);
        let opts = crate::model::opts::parse_program(name.as_deref(), argv.get(1..).unwrap_or(&[]));
        self.script.commands.push(Command {
            id,
            name,
            argv,
            wrappers: Vec::new(),
            assignments,
            redirects,
            span,
            origin: f.origin.clone(),
            cwd: f.env.cwd.clone(),
            pipe: None,
            background: false,
            functions: self.fn_stack.clone(),
            recursive_call: false,
            synthetic: None,
            stdin_text: None,
            inline: None,
            opts,
        });
        Block {
            commands: vec![id],
            heads: vec![id],
            tails: vec![id],
            output: Some(String::new()),
        }
    }

    /// Record a command from decoded argv, peel wrappers, and lower whatever code it runs.
    /// The command reads `f.stdin`.
    pub(in crate::model) fn run_argv(
        &mut self,
        f: &mut Frame<'_>,
        argv: Vec<Word>,
        mut assignments: Vec<Assignment>,
        redirects: Vec<Redirect>,
        span: Span,
        synthetic: Option<String>,
    ) -> Block {
        if self.command_limit(span, f.origin) {
            return Block::default();
        }
        let stdin = f.stdin.clone();
        let peeled = wrappers::peel(argv);
        let origin = match &peeled.via {
            Some((kind, detail)) => f.origin.push(OriginStep {
                kind: *kind,
                span,
                detail: detail.clone(),
            }),
            None => f.origin.clone(),
        };
        for (n, v) in &peeled.assignments {
            assignments.push(Assignment {
                name: n.clone(),
                value: v.clone(),
                span: v.span,
            });
        }
        let mut peeled = peeled;
        let name = peeled
            .argv
            .first()
            .and_then(|w| program_name(w).or_else(|| wrappers::glob_program(w)));
        // `xargs` with input known statically: its arguments are known too.
        if matches!(peeled.via, Some((OriginKind::Xargs, _)))
            && let Some(input) = heredoc_stdin(&redirects).or_else(|| stdin.clone())
        {
            peeled.argv = fill_xargs(&peeled.argv, &input);
        }
        let cwd = match &peeled.chdir {
            Some(d) => d
                .lit()
                .and_then(|d| crate::model::paths::resolve(&d, f.env.cwd.as_deref())),
            None => f.env.cwd.clone(),
        };
        let stdin_text = heredoc_stdin(&redirects).or(stdin);
        let recursive = name.as_ref().is_some_and(|n| self.fn_stack.contains(n));
        let id = self.script.commands.len();
        let opts =
            crate::model::opts::parse_program(name.as_deref(), peeled.argv.get(1..).unwrap_or(&[]));
        self.script.commands.push(Command {
            id,
            name: name.clone(),
            argv: peeled.argv.clone(),
            wrappers: std::mem::take(&mut peeled.wrappers),
            assignments: assignments.clone(),
            redirects,
            span,
            origin: origin.clone(),
            cwd,
            pipe: None,
            background: false,
            functions: self.fn_stack.clone(),
            recursive_call: recursive,
            synthetic,
            stdin_text: stdin_text.clone(),
            inline: None,
            opts,
        });
        let mut block = Block {
            commands: vec![id],
            heads: vec![id],
            tails: vec![id],
            output: None,
        };
        // The environment a child process sees: exported variables plus its assignments.
        let mut child = f.env.child(peeled.clear_env);
        for a in &assignments {
            apply_assignment(&mut child, a, true);
        }
        let mut nested_output = None;
        if let Some(code) = &peeled.code {
            let b = self.lower_code(
                &mut Frame::new(f.src, &mut child, &origin, None),
                code,
                None,
            );
            nested_output = b.output.clone();
            block.commands.extend(b.commands);
        }
        if let Some(n) = name.as_deref() {
            let argv = &peeled.argv;
            let call = Call {
                id,
                name: n,
                argv,
                args: argv.get(1..).unwrap_or(&[]),
                span,
                recursive,
            };
            let mut shell = Frame::new(f.src, &mut *f.env, &origin, stdin_text.clone());
            let b = self.builtin_or_nested(&mut shell, &mut child, call);
            if let Some(b) = b {
                nested_output = b.output.clone();
                block.commands.extend(b.commands);
            }
            if n == "tee"
                && let Some(text) = &stdin_text
            {
                let args = argv.get(1..).unwrap_or_default();
                for a in opts::parse(&grammars::TEE, args)
                    .operand_words(args)
                    .iter()
                    .filter_map(|w| w.lit())
                {
                    if let Some(p) = crate::model::paths::resolve(&a, f.env.cwd.as_deref()) {
                        self.files.insert(p, text.clone());
                    }
                }
            }
        } else if peeled.argv.len() > 1
            && opts::parse(&grammars::GENERIC, peeled.argv.get(1..).unwrap_or_default()).short('c')
        {
            // An unknown program given `-c CODE` is most likely a shell (`$SHELL -c ..`):
            // analyse the code as shell code rather than not at all.
            let args = peeled.argv[1..].to_vec();
            let mut cf = Frame::new(f.src, &mut child, &origin, None);
            if let Some(b) = self.lower_shell(&mut cf, "an unknown program", &args, span, Some(id))
            {
                block.commands.extend(b.commands);
            }
        }
        block.output = match self.script.commands.get(id) {
            Some(c) => {
                nested_output.or_else(|| crate::model::payload::output_of(c, stdin_text.as_deref()))
            }
            None => None,
        };
        // Remember files written with known content, for `bash f` / `source f` later.
        if let Some(c) = self.script.commands.get(id) {
            for r in &c.redirects {
                if matches!(r.op, RedirectOp::Write | RedirectOp::WriteAll)
                    && r.fd.is_none_or(|f| f == 1)
                    && let Some(path) = r.target.as_ref().and_then(|t| t.lit())
                    && let Some(p) = crate::model::paths::resolve(&path, c.cwd.as_deref())
                {
                    let content = {
                        let mut c2 = c.clone();
                        c2.redirects.clear();
                        crate::model::payload::output_of(&c2, stdin_text.as_deref())
                    };
                    match content {
                        Some(t) => {
                            self.files.insert(p.clone(), t);
                        }
                        None => {
                            self.files.remove(&p);
                        }
                    }
                    self.script.written_files.push((p, id));
                }
            }
        }
        block
    }
}

/// Replace xargs' run-time argument placeholders by the input it will read.
/// A word read from text the tree dropped: literal, as bash reads it.
fn lost_word(src: &Source, l: &readback::Lost, norm: &crate::normalize::Normalized) -> Word {
    let mut w = Word::literal(&l.text, src.span(l.start, l.end, norm));
    w.raw = src.text.get(l.start..l.end).unwrap_or("").to_string();
    w.nspan = src.nspan(l.start, l.end);
    w
}

pub(super) fn fill_xargs(argv: &[Word], input: &str) -> Vec<Word> {
    let tokens: Vec<String> = input.split_whitespace().map(str::to_string).collect();
    let first_line = input.lines().next().unwrap_or("").to_string();
    let mut out = Vec::new();
    for w in argv {
        let placeholder = |p: &crate::model::Piece| matches!(p, crate::model::Piece::Unknown { reason, .. } if reason == "arguments xargs reads from its input");
        if w.pieces.len() == 1 && placeholder(&w.pieces[0]) {
            out.extend(tokens.iter().map(|t| Word::literal(t, w.span)));
        } else if w.pieces.iter().any(placeholder) {
            let mut x = w.clone();
            x.pieces = w
                .pieces
                .iter()
                .map(|p| {
                    if placeholder(p) {
                        crate::model::Piece::Lit {
                            text: first_line.clone(),
                            quoted: true,
                        }
                    } else {
                        p.clone()
                    }
                })
                .collect();
            out.push(x);
        } else {
            out.push(w.clone());
        }
    }
    out
}
