//! Statements: lists, pipelines, compound commands, assignments and declarations, lowered in
//! execution order with the environment each one leaves behind.

use std::rc::Rc;

use super::{Block, FnBody, Frame, Lowerer, readback, shorten};
use crate::Span;
use crate::model::env::{Env, VarValue};
use crate::model::opts::{self, grammars};
use crate::model::word::WordMode;
use crate::model::{Assignment, FunctionDef, PipeRef, Pipeline, Redirect, Word, grow_stack};
use crate::syntax::{NodeId, kinds as k};

impl Lowerer<'_> {
    /// Lower a sequence of sibling nodes (statements and separator tokens) in order.
    pub(in crate::model) fn lower_statements(
        &mut self,
        f: &mut Frame<'_>,
        nodes: &[NodeId],
    ) -> Block {
        let src = f.src;
        let mut out = Block::empty_output();
        let mut i = 0;
        while i < nodes.len() {
            if self.limit_hit {
                out.output = None;
                break;
            }
            let id = nodes[i];
            let n = src.tree.node(id);
            i += 1;
            if !n.named || n.kind == k::COMMENT {
                continue;
            }
            let background = nodes
                .get(i)
                .map(|&x| {
                    let t = src.tree.node(x);
                    !t.named && t.kind == "&"
                })
                .unwrap_or(false);
            let (start, end) = (n.start, n.end);
            let b = match readback::misread_newline(src, id) {
                Some(cut) => self.lower_resplit(&mut f.again(), (start, cut, end)),
                None => self.lower_stmt(&mut f.again(), id, &[]),
            };
            if background {
                for &c in &b.commands {
                    if let Some(cmd) = self.script.commands.get_mut(c) {
                        cmd.background = true;
                    }
                }
            }
            out.then(b);
        }
        out
    }

    /// Lower one statement, one function per construct; `redirs` are redirects of an
    /// enclosing statement that apply to this one.
    pub(in crate::model) fn lower_stmt(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        redirs: &[Redirect],
    ) -> Block {
        // Recursion here follows the input's nesting: grow the stack instead of overflowing.
        grow_stack(|| {
            let src = f.src;
            let node = src.tree.node(id);
            let children = &node.children;
            match node.kind {
                k::COMMAND => self.lower_command(f, id, redirs),
                k::PIPELINE => self.lower_pipeline(f, id, redirs),
                k::LIST => self.lower_list(f, id, redirs),
                k::REDIRECTED_STATEMENT => self.lower_redirected(f, id, redirs),
                k::SUBSHELL => {
                    let mut sub = f.env.clone();
                    let b = self.lower_statements(&mut f.in_env(&mut sub), children);
                    self.apply_redirects(&b, redirs);
                    b
                }
                k::COMPOUND_STATEMENT | k::DO_GROUP => {
                    let b = self.lower_statements(f, children);
                    self.apply_redirects(&b, redirs);
                    b
                }
                k::NEGATED_COMMAND => self.lower_statements(f, children),
                k::FUNCTION_DEFINITION => self.define_function(f, id),
                k::IF_STATEMENT => self.lower_if(f, id, redirs),
                k::CASE_STATEMENT => self.lower_case(f, id, redirs),
                k::FOR_STATEMENT => self.lower_for(f, id, redirs),
                k::WHILE_STATEMENT | k::C_STYLE_FOR_STATEMENT => self.lower_loop(f, id, redirs),
                k::VARIABLE_ASSIGNMENT | k::VARIABLE_ASSIGNMENTS => {
                    self.lower_assignments(f, id, redirs)
                }
                k::DECLARATION_COMMAND => self.lower_declaration(f, id, redirs),
                k::UNSET_COMMAND => self.lower_unset(f, id, redirs),
                k::TEST_COMMAND if glob_not_test(src.text.get(node.start..node.end)) => {
                    // `[!a]`: `[` not followed by a blank is no test in bash but a (glob) word,
                    // run as a program.
                    let span = src.span(node.start, node.end, self.norm);
                    let text = src.text.get(node.start..node.end).unwrap_or("");
                    let mut w = Word::literal(text, span);
                    w.nspan = src.nspan(node.start, node.end);
                    self.push_plain(f, vec![w], Vec::new(), redirs.to_vec(), span)
                }
                k::TEST_COMMAND => {
                    let mut subs = Vec::new();
                    self.lower_subs(f, id, &mut subs);
                    let mut b = Block::empty_output();
                    for s in subs {
                        b.commands.extend(s.commands);
                    }
                    b
                }
                k::COMMENT => Block::empty_output(),
                _ => self.lower_unknown(f, id),
            }
        })
    }

    /// `a | b | c`: a stage alone is a statement; extra redirects belong to the last stage.
    fn lower_pipeline(&mut self, f: &mut Frame<'_>, id: NodeId, redirs: &[Redirect]) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let mut stages: Vec<(NodeId, Vec<Redirect>)> = node
            .children
            .iter()
            .filter(|&&c| src.tree.node(c).named && src.tree.node(c).kind != k::COMMENT)
            .map(|&c| (c, Vec::new()))
            .collect();
        if let Some(last) = stages.last_mut() {
            last.1 = redirs.to_vec();
        }
        let span = src.span(node.start, node.end, self.norm);
        if stages.len() == 1 {
            let (c, r) = stages.remove(0);
            return self.lower_stmt(f, c, &r);
        }
        self.lower_stages(f, stages, span)
    }

    /// `a && b || c`: run in order; extra redirects belong to the last one.
    fn lower_list(&mut self, f: &mut Frame<'_>, id: NodeId, redirs: &[Redirect]) -> Block {
        let src = f.src;
        let named: Vec<NodeId> = src
            .tree
            .node(id)
            .children
            .iter()
            .copied()
            .filter(|&c| src.tree.node(c).named && src.tree.node(c).kind != k::COMMENT)
            .collect();
        let mut out = Block::empty_output();
        for (i, &c) in named.iter().enumerate() {
            let r: &[Redirect] = if i + 1 == named.len() { redirs } else { &[] };
            let b = self.lower_stmt(&mut f.again(), c, r);
            out.then(b);
        }
        out
    }

    /// `name() { body; }`: recorded, and kept so that calls lower the body with their
    /// arguments.
    fn define_function(&mut self, f: &mut Frame<'_>, id: NodeId) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let name_node = src.tree.child_by_field(id, "name");
        let body = src.tree.child_by_field(id, "body");
        if let (Some(nn), Some(b)) = (name_node, body) {
            let n = src.tree.node(nn);
            let name = src.text.get(n.start..n.end).unwrap_or("").to_string();
            let index = self.script.functions.len();
            self.script.functions.push(FunctionDef {
                name: name.clone(),
                span: src.span(node.start, node.end, self.norm),
                called: false,
            });
            // Bodies refer to their source, kept alive by the Rc made here.
            let fb = Rc::new(FnBody {
                src: self.rc_source(src),
                node: b,
                name: name.clone(),
                index,
            });
            self.defined.push(fb.clone());
            self.called.push(false);
            f.env.functions.insert(name, fb);
        }
        Block::empty_output()
    }

    /// `case WORD in ...`: each item is a branch that may or may not run.
    fn lower_case(&mut self, f: &mut Frame<'_>, id: NodeId, redirs: &[Redirect]) -> Block {
        let src = f.src;
        let mut out = Block::default();
        if let Some(v) = src.tree.child_by_field(id, "value") {
            self.expander().decode_nodes(f, &[v], WordMode::Single);
        }
        let before = f.env.clone();
        let mut branches = Vec::new();
        for &c in &src.tree.node(id).children {
            if src.tree.node(c).kind != k::CASE_ITEM {
                continue;
            }
            let mut e = before.clone();
            let body: Vec<NodeId> = src
                .tree
                .node(c)
                .children
                .iter()
                .copied()
                .filter(|&x| src.tree.node(x).field != Some("value"))
                .collect();
            let b = self.lower_statements(&mut f.in_env(&mut e), &body);
            out.absorb(b);
            branches.push(e);
        }
        *f.env = before;
        f.env.merge_from(&branches);
        self.apply_redirects(&out, redirs);
        out
    }

    /// `while`/`until` and `for ((;;))`: the body may run any number of times.
    fn lower_loop(&mut self, f: &mut Frame<'_>, id: NodeId, redirs: &[Redirect]) -> Block {
        let src = f.src;
        let before = f.env.clone();
        let mut out = Block::default();
        for &c in &src.tree.node(id).children {
            let cn = src.tree.node(c);
            if !cn.named {
                continue;
            }
            let b = if cn.kind == k::DO_GROUP || is_statement(cn.kind) {
                self.lower_stmt(&mut f.again(), c, &[])
            } else {
                let mut subs = Vec::new();
                self.lower_subs(f, c, &mut subs);
                Block::default()
            };
            out.absorb(b);
        }
        f.env.merge_maybe_ran(before);
        self.apply_redirects(&out, redirs);
        out
    }

    /// `X=1` and `X=1 Y=2` alone set variables in this shell.
    fn lower_assignments(&mut self, f: &mut Frame<'_>, id: NodeId, redirs: &[Redirect]) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let ids: Vec<NodeId> = if node.kind == k::VARIABLE_ASSIGNMENT {
            vec![id]
        } else {
            node.children.clone()
        };
        let mut assigns = Vec::new();
        for a in ids {
            if src.tree.node(a).kind == k::VARIABLE_ASSIGNMENT
                && let Some(asg) = self.lower_assignment(f, a)
            {
                apply_assignment(f.env, &asg, false);
                assigns.push(asg);
            }
        }
        let span = src.span(node.start, node.end, self.norm);
        self.push_plain(f, Vec::new(), assigns, redirs.to_vec(), span)
    }

    /// `unset NAME`, `unset -f NAME`.
    fn lower_unset(&mut self, f: &mut Frame<'_>, id: NodeId, redirs: &[Redirect]) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let mut unset_fn = false;
        for &c in &node.children {
            let cn = src.tree.node(c);
            let t = src.text.get(cn.start..cn.end).unwrap_or("");
            if cn.kind == k::WORD && t == "-f" {
                unset_fn = true;
            } else if cn.kind == k::VARIABLE_NAME || cn.kind == k::WORD {
                if unset_fn {
                    f.env.functions.remove(t);
                } else {
                    f.env.unset(t);
                }
            }
        }
        let span = src.span(node.start, node.end, self.norm);
        self.push_plain(
            f,
            vec![Word::literal("unset", span)],
            Vec::new(),
            redirs.to_vec(),
            span,
        )
    }

    /// ERROR regions and anything unexpected: lower the statements we can see inside; the
    /// problem itself is already an issue and is fallback-scanned.
    fn lower_unknown(&mut self, f: &mut Frame<'_>, id: NodeId) -> Block {
        let src = f.src;
        let mut out = Block::default();
        for &c in &src.tree.node(id).children {
            let cn = src.tree.node(c);
            if cn.named && is_statement(cn.kind) {
                let b = self.lower_stmt(&mut f.with_stdin(None), c, &[]);
                out.commands.extend(b.commands);
            } else if cn.named {
                let mut subs = Vec::new();
                self.lower_subs(f, c, &mut subs);
            }
        }
        out
    }

    /// The stages of a pipeline, each in a subshell reading the previous stage's output.
    pub(in crate::model) fn lower_stages(
        &mut self,
        f: &mut Frame<'_>,
        stages: Vec<(NodeId, Vec<Redirect>)>,
        span: Span,
    ) -> Block {
        let n = stages.len();
        let pipeline = self.script.pipelines.len();
        self.script.pipelines.push(Pipeline {
            stages: Vec::new(),
            span,
        });
        let mut out = Block::default();
        let mut input = f.stdin.clone();
        for (i, (node, redirs)) in stages.into_iter().enumerate() {
            // Every stage runs in a subshell.
            let mut sub = f.env.clone();
            let mut stage = Frame::new(f.src, &mut sub, f.origin, input.take());
            let b = self.lower_stmt(&mut stage, node, &redirs);
            for &c in b.heads.iter().chain(&b.tails) {
                if let Some(cmd) = self.script.commands.get_mut(c) {
                    cmd.pipe = Some(PipeRef {
                        pipeline,
                        stage: i,
                        stages: n,
                    });
                }
            }
            if let Some(p) = self.script.pipelines.get_mut(pipeline) {
                p.stages.push(crate::model::PipeStage {
                    heads: b.heads.clone(),
                    tails: b.tails.clone(),
                });
            }
            if i == 0 {
                out.heads = b.heads.clone();
            }
            if i + 1 == n {
                out.tails = b.tails.clone();
                out.output = b.output.clone();
            }
            input = b.output.clone();
            out.commands.extend(b.commands);
        }
        out
    }

    /// `if`/`elif`/`else`: conditions run in order in the shell's environment; each body is
    /// a branch that may or may not run, lowered from the environment its condition left.
    pub(in crate::model) fn lower_if(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        redirs: &[Redirect],
    ) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let mut out = Block::default();
        let mut branches: Vec<Env> = Vec::new();
        let mut has_else = false;
        let mut then_env: Option<Env> = None;
        for &c in &node.children {
            let cn = src.tree.node(c);
            if !cn.named || cn.kind == k::COMMENT {
                continue;
            }
            if cn.field == Some("condition") {
                let b = self.lower_stmt(&mut f.again(), c, &[]);
                out.absorb(b);
            } else if cn.kind == k::ELIF_CLAUSE || cn.kind == k::ELSE_CLAUSE {
                has_else |= cn.kind == k::ELSE_CLAUSE;
                let mut e = f.env.clone();
                let mut body = Vec::new();
                for &x in &cn.children {
                    let xn = src.tree.node(x);
                    if xn.field == Some("condition") {
                        let b = self.lower_stmt(&mut f.in_env(&mut e), x, &[]);
                        out.absorb(b);
                    } else {
                        body.push(x);
                    }
                }
                let b = self.lower_statements(&mut f.in_env(&mut e), &body);
                out.absorb(b);
                branches.push(e);
            } else {
                let e = then_env.get_or_insert_with(|| f.env.clone());
                let b = self.lower_stmt(&mut f.in_env(e), c, &[]);
                out.absorb(b);
            }
        }
        branches.insert(0, then_env.unwrap_or_else(|| f.env.clone()));
        if has_else {
            let first = branches.remove(0);
            *f.env = first;
        }
        f.env.merge_from(&branches);
        self.apply_redirects(&out, redirs);
        out
    }

    /// `for VAR in WORDS`: lowered once per item when the items are known and few, else
    /// once with the variable unknown.
    pub(in crate::model) fn lower_for(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        redirs: &[Redirect],
    ) -> Block {
        let src = f.src;
        let var = src.tree.child_by_field(id, "variable").map(|v| {
            let n = src.tree.node(v);
            src.text.get(n.start..n.end).unwrap_or("").to_string()
        });
        let body = src.tree.child_by_field(id, "body");
        let value_nodes: Vec<NodeId> = src
            .tree
            .node(id)
            .children
            .iter()
            .copied()
            .filter(|&c| src.tree.node(c).field == Some("value"))
            .collect();
        let mut values = Vec::new();
        for v in value_nodes {
            values.extend(self.expander().decode_nodes(f, &[v], WordMode::Argument));
        }
        let literal: Option<Vec<String>> = values.iter().map(|w| w.lit()).collect();
        let mut out = Block::default();
        let Some(body) = body else { return out };
        match (literal, &var) {
            (Some(items), Some(var))
                if !items.is_empty() && items.len() <= self.limits.max_loop_items =>
            {
                for it in items {
                    f.env.set(var, VarValue::Known(it));
                    let b = self.lower_stmt(&mut f.again(), body, &[]);
                    out.absorb(b);
                }
            }
            _ => {
                let before = f.env.clone();
                if let Some(var) = &var {
                    f.env.set(
                        var,
                        VarValue::Unknown(format!(
                            "${var} is the loop variable; its values are only known at run time"
                        )),
                    );
                }
                let b = self.lower_stmt(f, body, &[]);
                out.absorb(b);
                f.env.merge_maybe_ran(before);
            }
        }
        self.apply_redirects(&out, redirs);
        out
    }

    pub(in crate::model) fn lower_assignment(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
    ) -> Option<Assignment> {
        self.lower_assignment_with(f, id, &[])
    }

    /// An assignment whose value continues in `extra` nodes the grammar split off.
    pub(in crate::model) fn lower_assignment_with(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        extra: &[NodeId],
    ) -> Option<Assignment> {
        let src = f.src;
        let node = src.tree.node(id);
        let name_node = src.tree.child_by_field(id, "name")?;
        let nn = src.tree.node(name_node);
        let mut name = src.text.get(nn.start..nn.end).unwrap_or("").to_string();
        if nn.kind == k::SUBSCRIPT {
            name = name.split('[').next().unwrap_or("").to_string();
        }
        let append = node.children.iter().any(|&c| {
            let cn = src.tree.node(c);
            !cn.named && cn.kind == "+="
        });
        let span = src.span(node.start, node.end, self.norm);
        let mut value_nodes: Vec<NodeId> = node
            .children
            .iter()
            .copied()
            .filter(|&c| src.tree.node(c).field == Some("value"))
            .collect();
        value_nodes.extend_from_slice(extra);
        let mut value = if value_nodes.is_empty() {
            Word::literal("", span)
        } else if src.tree.node(value_nodes[0]).kind == k::ARRAY {
            // Arrays: lower what runs inside, keep the value unknown.
            let mut subs = Vec::new();
            self.lower_subs(f, value_nodes[0], &mut subs);
            let mut w = Word::literal("", span);
            w.pieces = vec![crate::model::Piece::Unknown {
                reason: format!("${name} is an array"),
                may_be_empty: true,
            }];
            w.substitutions = subs;
            w
        } else {
            self.expander()
                .decode_nodes(f, &value_nodes, WordMode::Assignment)
                .into_iter()
                .next()
                .unwrap_or_else(|| Word::literal("", span))
        };
        if append {
            if let (Some(VarValue::Known(old)), Some(new)) =
                (f.env.get(&name).cloned(), value.lit())
            {
                value = Word::literal(&format!("{old}{new}"), value.span);
            } else {
                value.pieces.insert(
                    0,
                    crate::model::Piece::Unknown {
                        reason: format!("${name} before `+=`"),
                        may_be_empty: true,
                    },
                );
            }
        }
        Some(Assignment { name, value, span })
    }

    /// `export`/`declare`/`local`/`readonly`/`typeset` as the grammar parses them.
    pub(in crate::model) fn lower_declaration(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        redirs: &[Redirect],
    ) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let keyword = src
            .text
            .get(node.start..node.end)
            .unwrap_or("")
            .split_whitespace()
            .next()
            .unwrap_or("declare")
            .to_string();
        let mut export = keyword == "export";
        let mut assigns = Vec::new();
        let mut args = vec![Word::literal(
            &keyword,
            src.span(node.start, node.start + keyword.len(), self.norm),
        )];
        for &c in &node.children {
            let cn = src.tree.node(c);
            let t = src.text.get(cn.start..cn.end).unwrap_or("").to_string();
            match cn.kind {
                k::VARIABLE_ASSIGNMENT => {
                    if let Some(a) = self.lower_assignment(f, c) {
                        apply_assignment(f.env, &a, export);
                        assigns.push(a);
                    }
                }
                k::VARIABLE_NAME => {
                    if export {
                        f.env.export(&t);
                    }
                    args.push(Word::literal(&t, src.span(cn.start, cn.end, self.norm)));
                }
                _ if cn.named => {
                    args.extend(self.expander().decode_nodes(f, &[c], WordMode::Argument));
                    // `declare -fx`, `local -x`: read by the builtin's grammar, so only an
                    // option before the first name exports.
                    export = export
                        || opts::parse(&grammars::DECLARE, args.get(1..).unwrap_or_default())
                            .short('x');
                }
                _ => {}
            }
        }
        let span = src.span(node.start, node.end, self.norm);
        self.push_plain(f, args, assigns, redirs.to_vec(), span)
    }
}

pub(super) fn is_statement(kind: &str) -> bool {
    matches!(
        kind,
        k::COMMAND
            | k::PIPELINE
            | k::LIST
            | k::SUBSHELL
            | k::COMPOUND_STATEMENT
            | k::REDIRECTED_STATEMENT
            | k::NEGATED_COMMAND
            | k::FUNCTION_DEFINITION
            | k::IF_STATEMENT
            | k::CASE_STATEMENT
            | k::FOR_STATEMENT
            | k::C_STYLE_FOR_STATEMENT
            | k::WHILE_STATEMENT
            | k::VARIABLE_ASSIGNMENT
            | k::VARIABLE_ASSIGNMENTS
            | k::DECLARATION_COMMAND
            | k::UNSET_COMMAND
            | k::TEST_COMMAND
            | k::DO_GROUP
    )
}

pub(super) fn apply_assignment(env: &mut Env, a: &Assignment, export: bool) {
    let v = match a.value.lit() {
        Some(s) => VarValue::Known(s),
        None => VarValue::Unknown(format!(
            "${} is assigned `{}`, only known at run time",
            a.name,
            shorten(&a.value.raw)
        )),
    };
    env.set(&a.name, v);
    if export {
        env.export(&a.name);
    }
}

/// A `test_command` node whose text is one word starting with `[` and no blank after it.
fn glob_not_test(text: Option<&str>) -> bool {
    text.is_some_and(|t| {
        t.starts_with('[') && !t.starts_with("[[") && !t.contains([' ', '\t', '\n'])
    })
}
