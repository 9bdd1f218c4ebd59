//! Statements: lists, pipelines, compound commands, assignments and declarations, lowered in
//! execution order with the environment each one leaves behind.

use std::rc::Rc;

use super::{Block, FnBody, Lowerer, Source, readback, shorten};
use crate::Span;
use crate::model::env::{Env, VarValue};
use crate::model::opts::{self, grammars};
use crate::model::word::WordMode;
use crate::model::{
    Assignment, FunctionDef, Origin, PipeRef, Pipeline, Redirect, Word, grow_stack,
};
use crate::syntax::{NodeId, kinds as k};

impl Lowerer<'_> {
    /// Lower a sequence of sibling nodes (statements and separator tokens) in order.
    pub(in crate::model) fn lower_statements(
        &mut self,
        src: &Source,
        nodes: &[NodeId],
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
    ) -> Block {
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
                Some(cut) => self.lower_resplit(src, (start, cut, end), env, origin, stdin.clone()),
                None => self.lower_stmt(src, id, env, origin, stdin.clone(), &[]),
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

    pub(in crate::model) fn lower_stmt(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        redirs: &[Redirect],
    ) -> Block {
        // Recursion here follows the input's nesting: grow the stack instead of overflowing.
        grow_stack(|| {
            let node = src.tree.node(id);
            let children = node.children.clone();
            match node.kind {
                k::COMMAND => self.lower_command(src, id, env, origin, stdin, redirs),
                k::PIPELINE => {
                    let stages: Vec<(NodeId, Vec<Redirect>)> = children
                        .iter()
                        .filter(|&&c| src.tree.node(c).named && src.tree.node(c).kind != k::COMMENT)
                        .map(|&c| (c, Vec::new()))
                        .collect();
                    let n = stages.len();
                    let mut stages = stages;
                    if let Some(last) = stages.last_mut() {
                        last.1 = redirs.to_vec();
                    }
                    let span = src.span(node.start, node.end, self.norm);
                    if n == 1 {
                        let (c, r) = stages.remove(0);
                        return self.lower_stmt(src, c, env, origin, stdin, &r);
                    }
                    self.lower_stages(src, stages, env, origin, stdin, span)
                }
                k::LIST => {
                    // `a && b || c`: run in order; extra redirects belong to the last one.
                    let named: Vec<NodeId> = children
                        .iter()
                        .copied()
                        .filter(|&c| src.tree.node(c).named && src.tree.node(c).kind != k::COMMENT)
                        .collect();
                    let mut out = Block::empty_output();
                    for (i, &c) in named.iter().enumerate() {
                        let r: &[Redirect] = if i + 1 == named.len() { redirs } else { &[] };
                        let b = self.lower_stmt(src, c, env, origin, stdin.clone(), r);
                        out.then(b);
                    }
                    out
                }
                k::REDIRECTED_STATEMENT => {
                    self.lower_redirected(src, id, env, origin, stdin, redirs)
                }
                k::SUBSHELL => {
                    let mut sub = env.clone();
                    let b = self.lower_statements(src, &children, &mut sub, origin, stdin);
                    self.apply_redirects(&b, redirs);
                    b
                }
                k::COMPOUND_STATEMENT | k::DO_GROUP => {
                    let b = self.lower_statements(src, &children, env, origin, stdin);
                    self.apply_redirects(&b, redirs);
                    b
                }
                k::NEGATED_COMMAND => self.lower_statements(src, &children, env, origin, stdin),
                k::FUNCTION_DEFINITION => {
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
                        // Safety: bodies refer to their source, which the caller keeps alive
                        // through the Rc we clone here.
                        let fb = Rc::new(FnBody {
                            src: self.rc_source(src),
                            node: b,
                            name: name.clone(),
                            index,
                        });
                        self.defined.push(fb.clone());
                        self.called.push(false);
                        env.functions.insert(name, fb);
                    }
                    Block::empty_output()
                }
                k::IF_STATEMENT => self.lower_if(src, id, env, origin, stdin, redirs),
                k::CASE_STATEMENT => {
                    let mut out = Block::default();
                    if let Some(v) = src.tree.child_by_field(id, "value") {
                        self.expander()
                            .decode_nodes(src, &[v], env, origin, WordMode::Single);
                    }
                    let before = env.clone();
                    let mut branches = Vec::new();
                    for &c in &children {
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
                        let b = self.lower_statements(src, &body, &mut e, origin, stdin.clone());
                        out.absorb(b);
                        branches.push(e);
                    }
                    *env = before;
                    env.merge_from(&branches);
                    self.apply_redirects(&out, redirs);
                    out
                }
                k::FOR_STATEMENT => self.lower_for(src, id, env, origin, stdin, redirs),
                k::WHILE_STATEMENT | k::C_STYLE_FOR_STATEMENT => {
                    let before = env.clone();
                    let mut out = Block::default();
                    for &c in &children {
                        let cn = src.tree.node(c);
                        if !cn.named {
                            continue;
                        }
                        let b = if cn.kind == k::DO_GROUP || is_statement(cn.kind) {
                            self.lower_stmt(src, c, env, origin, stdin.clone(), &[])
                        } else {
                            let mut subs = Vec::new();
                            self.lower_subs(src, c, env, origin, &mut subs);
                            Block::default()
                        };
                        out.absorb(b);
                    }
                    env.merge_maybe_ran(before);
                    self.apply_redirects(&out, redirs);
                    out
                }
                k::VARIABLE_ASSIGNMENT | k::VARIABLE_ASSIGNMENTS => {
                    let ids: Vec<NodeId> = if node.kind == k::VARIABLE_ASSIGNMENT {
                        vec![id]
                    } else {
                        children.clone()
                    };
                    let mut assigns = Vec::new();
                    for a in ids {
                        if src.tree.node(a).kind == k::VARIABLE_ASSIGNMENT
                            && let Some(asg) = self.lower_assignment(src, a, env, origin)
                        {
                            apply_assignment(env, &asg, false);
                            assigns.push(asg);
                        }
                    }
                    let span = src.span(node.start, node.end, self.norm);
                    self.push_plain(Vec::new(), assigns, redirs.to_vec(), span, env, origin)
                }
                k::DECLARATION_COMMAND => self.lower_declaration(src, id, env, origin, redirs),
                k::UNSET_COMMAND => {
                    let mut unset_fn = false;
                    for &c in &children {
                        let cn = src.tree.node(c);
                        let t = src.text.get(cn.start..cn.end).unwrap_or("");
                        if cn.kind == k::WORD && t == "-f" {
                            unset_fn = true;
                        } else if cn.kind == k::VARIABLE_NAME || cn.kind == k::WORD {
                            if unset_fn {
                                env.functions.remove(t);
                            } else {
                                env.unset(t);
                            }
                        }
                    }
                    let span = src.span(node.start, node.end, self.norm);
                    self.push_plain(
                        vec![Word::literal("unset", span)],
                        Vec::new(),
                        redirs.to_vec(),
                        span,
                        env,
                        origin,
                    )
                }
                k::TEST_COMMAND if glob_not_test(src.text.get(node.start..node.end)) => {
                    // `[!a]`: `[` not followed by a blank is no test in bash but a (glob) word,
                    // run as a program.
                    let span = src.span(node.start, node.end, self.norm);
                    let text = src.text.get(node.start..node.end).unwrap_or("");
                    let mut w = Word::literal(text, span);
                    w.nspan = src.nspan(node.start, node.end);
                    self.push_plain(vec![w], Vec::new(), redirs.to_vec(), span, env, origin)
                }
                k::TEST_COMMAND => {
                    let mut subs = Vec::new();
                    self.lower_subs(src, id, env, origin, &mut subs);
                    let mut b = Block::empty_output();
                    for s in subs {
                        b.commands.extend(s.commands);
                    }
                    b
                }
                k::COMMENT => Block::empty_output(),
                _ => {
                    // ERROR regions and anything unexpected: lower the statements we can see
                    // inside; the problem itself is already an issue and is fallback-scanned.
                    let mut out = Block::default();
                    for &c in &children {
                        let cn = src.tree.node(c);
                        if cn.named && is_statement(cn.kind) {
                            let b = self.lower_stmt(src, c, env, origin, None, &[]);
                            out.commands.extend(b.commands);
                        } else if cn.named {
                            let mut subs = Vec::new();
                            self.lower_subs(src, c, env, origin, &mut subs);
                        }
                    }
                    out
                }
            }
        })
    }

    pub(in crate::model) fn lower_stages(
        &mut self,
        src: &Source,
        stages: Vec<(NodeId, Vec<Redirect>)>,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        span: Span,
    ) -> Block {
        let n = stages.len();
        let pipeline = self.script.pipelines.len();
        self.script.pipelines.push(Pipeline {
            stages: Vec::new(),
            span,
        });
        let mut out = Block::default();
        let mut input = stdin;
        for (i, (node, redirs)) in stages.into_iter().enumerate() {
            // Every stage runs in a subshell.
            let mut sub = env.clone();
            let b = self.lower_stmt(src, node, &mut sub, origin, input.take(), &redirs);
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

    pub(in crate::model) fn lower_if(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        redirs: &[Redirect],
    ) -> Block {
        let node = src.tree.node(id).clone();
        let mut out = Block::default();
        let mut branches: Vec<Env> = Vec::new();
        let mut has_else = false;
        // Conditions run in order in the shell's env; each body is a branch that may or
        // may not run, lowered from the env as it is after its condition.
        let mut then_env: Option<Env> = None;
        for &c in &node.children {
            let cn = src.tree.node(c);
            if !cn.named || cn.kind == k::COMMENT {
                continue;
            }
            if cn.field == Some("condition") {
                let b = self.lower_stmt(src, c, env, origin, stdin.clone(), &[]);
                out.absorb(b);
            } else if cn.kind == k::ELIF_CLAUSE || cn.kind == k::ELSE_CLAUSE {
                has_else |= cn.kind == k::ELSE_CLAUSE;
                let mut e = env.clone();
                let mut body = Vec::new();
                for &x in &cn.children {
                    let xn = src.tree.node(x);
                    if xn.field == Some("condition") {
                        let b = self.lower_stmt(src, x, &mut e, origin, stdin.clone(), &[]);
                        out.absorb(b);
                    } else {
                        body.push(x);
                    }
                }
                let b = self.lower_statements(src, &body, &mut e, origin, stdin.clone());
                out.absorb(b);
                branches.push(e);
            } else {
                let e = then_env.get_or_insert_with(|| env.clone());
                let b = self.lower_stmt(src, c, e, origin, stdin.clone(), &[]);
                out.absorb(b);
            }
        }
        branches.insert(0, then_env.unwrap_or_else(|| env.clone()));
        if has_else {
            let first = branches.remove(0);
            *env = first;
        }
        env.merge_from(&branches);
        self.apply_redirects(&out, redirs);
        out
    }

    pub(in crate::model) fn lower_for(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        redirs: &[Redirect],
    ) -> Block {
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
            values.extend(
                self.expander()
                    .decode_nodes(src, &[v], env, origin, WordMode::Argument),
            );
        }
        let literal: Option<Vec<String>> = values.iter().map(|w| w.lit()).collect();
        let mut out = Block::default();
        let Some(body) = body else { return out };
        match (literal, &var) {
            (Some(items), Some(var))
                if !items.is_empty() && items.len() <= self.limits.max_loop_items =>
            {
                for it in items {
                    env.set(var, VarValue::Known(it));
                    let b = self.lower_stmt(src, body, env, origin, stdin.clone(), &[]);
                    out.absorb(b);
                }
            }
            _ => {
                let before = env.clone();
                if let Some(var) = &var {
                    env.set(
                        var,
                        VarValue::Unknown(format!(
                            "${var} is the loop variable; its values are only known at run time"
                        )),
                    );
                }
                let b = self.lower_stmt(src, body, env, origin, stdin, &[]);
                out.absorb(b);
                env.merge_maybe_ran(before);
            }
        }
        self.apply_redirects(&out, redirs);
        out
    }

    pub(in crate::model) fn lower_assignment(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
    ) -> Option<Assignment> {
        self.lower_assignment_with(src, id, &[], env, origin)
    }

    /// An assignment whose value continues in `extra` nodes the grammar split off.
    pub(in crate::model) fn lower_assignment_with(
        &mut self,
        src: &Source,
        id: NodeId,
        extra: &[NodeId],
        env: &mut Env,
        origin: &Origin,
    ) -> Option<Assignment> {
        let node = src.tree.node(id).clone();
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
            self.lower_subs(src, value_nodes[0], env, origin, &mut subs);
            let mut w = Word::literal("", span);
            w.pieces = vec![crate::model::Piece::Unknown {
                reason: format!("${name} is an array"),
                may_be_empty: true,
            }];
            w.substitutions = subs;
            w
        } else {
            self.expander()
                .decode_nodes(src, &value_nodes, env, origin, WordMode::Assignment)
                .into_iter()
                .next()
                .unwrap_or_else(|| Word::literal("", span))
        };
        if append {
            if let (Some(VarValue::Known(old)), Some(new)) = (env.get(&name).cloned(), value.lit())
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

    pub(in crate::model) fn lower_declaration(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        redirs: &[Redirect],
    ) -> Block {
        let node = src.tree.node(id).clone();
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
            let cn = src.tree.node(c).clone();
            let t = src.text.get(cn.start..cn.end).unwrap_or("").to_string();
            match cn.kind {
                k::VARIABLE_ASSIGNMENT => {
                    if let Some(a) = self.lower_assignment(src, c, env, origin) {
                        apply_assignment(env, &a, export);
                        assigns.push(a);
                    }
                }
                k::VARIABLE_NAME => {
                    if export {
                        env.export(&t);
                    }
                    args.push(Word::literal(&t, src.span(cn.start, cn.end, self.norm)));
                }
                _ if cn.named => {
                    args.extend(self.expander().decode_nodes(
                        src,
                        &[c],
                        env,
                        origin,
                        WordMode::Argument,
                    ));
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
        self.push_plain(args, assigns, redirs.to_vec(), span, env, origin)
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
