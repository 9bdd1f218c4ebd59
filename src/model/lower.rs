//! Lowering: walks the syntax tree in execution order, tracking the environment, and turns
//! every simple command (including nested code: `bash -c`, `eval`, heredocs into shells,
//! substitutions, function bodies, decoded payloads) into a [`Command`] of the model.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::env::{Env, VarValue};
use super::word::WordMode;
use super::wrappers::{self, program_name};
use super::{
    Assignment, CmdId, Command, FunctionDef, Heredoc, Issue, IssueKind, Origin, OriginKind,
    OriginStep, PipeRef, Pipeline, Redirect, RedirectOp, Script, Word,
};
use crate::Span;
use crate::normalize::Normalized;
use crate::syntax::{self, NodeId, ParseProblem, Tree, kinds as k};

/// Bounds on the work one analysis may do.
#[derive(Debug, Clone, Copy)]
pub struct LowerLimits {
    /// Deepest nesting of re-parsed code (`bash -c` in `eval` in ...).
    pub max_nesting: usize,
    /// Most commands lowered in total.
    pub max_commands: usize,
    /// Deepest chain of function calls expanded.
    pub max_fn_depth: usize,
    /// Most literal `for` items the body is lowered for, one by one.
    pub max_loop_items: usize,
}

impl Default for LowerLimits {
    fn default() -> Self {
        LowerLimits {
            max_nesting: 8,
            max_commands: 20_000,
            max_fn_depth: 16,
            max_loop_items: 16,
        }
    }
}

/// How offsets in a source map back to the top-level normalised text.
#[derive(Debug, Clone, Copy)]
pub enum SrcMap {
    /// Local offset + base = normalised offset (the code is a verbatim slice).
    Offset(usize),
    /// The code was decoded; every span maps to this original span (the word it came from).
    Fixed(Span),
}

/// One piece of bash text with its parse tree.
#[derive(Debug)]
pub struct Source {
    pub text: String,
    pub tree: Tree,
    pub map: SrcMap,
}

impl Source {
    /// Normalised-text span of a local span, when the source is a verbatim slice.
    pub fn nspan(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        match self.map {
            SrcMap::Offset(b) => Some((b + start, b + end)),
            SrcMap::Fixed(_) => None,
        }
    }

    /// Original-text span of a local span.
    pub fn span(&self, start: usize, end: usize, norm: &Normalized) -> Span {
        match self.map {
            SrcMap::Offset(b) => norm.span_to_original(b + start, b + end),
            SrcMap::Fixed(s) => s,
        }
    }
}

/// A function definition, kept so calls can lower its body with their arguments.
#[derive(Debug)]
pub struct FnBody {
    pub src: Rc<Source>,
    pub node: NodeId,
    pub name: String,
    pub index: usize,
}

/// The result of lowering one statement.
#[derive(Debug, Clone, Default)]
pub(super) struct Block {
    pub commands: Vec<CmdId>,
    /// Commands that read the statement's stdin.
    pub heads: Vec<CmdId>,
    /// Commands whose stdout is the statement's stdout.
    pub tails: Vec<CmdId>,
    /// What the statement prints, when known.
    pub output: Option<String>,
}

impl Block {
    /// Take `b`'s commands in as part of this statement (its output is not combined).
    fn absorb(&mut self, b: Block) {
        self.commands.extend(b.commands);
        self.heads.extend(b.heads);
        self.tails.extend(b.tails);
    }

    /// Run `b` after this statement: commands in order, outputs concatenated.
    fn then(&mut self, mut b: Block) {
        let output = b.output.take();
        self.absorb(b);
        self.output = match (self.output.take(), output) {
            (Some(a), Some(c)) => Some(a + &c),
            _ => None,
        };
    }
    fn empty_output() -> Block {
        Block {
            output: Some(String::new()),
            ..Block::default()
        }
    }
}

pub struct Lowerer<'a> {
    pub(super) norm: &'a Normalized,
    pub(super) user: Option<String>,
    pub(super) script: Script,
    limits: LowerLimits,
    fn_stack: Vec<String>,
    defined: Vec<Rc<FnBody>>,
    called: Vec<bool>,
    limit_hit: bool,
    /// Files written with known content earlier in the script (resolved path → content).
    files: BTreeMap<String, String>,
    placeholder: usize,
    /// Heredoc bodies the grammar misread as words: (source id, start, end).
    heredoc_cuts: Vec<(usize, usize, usize)>,
}

/// Lower a parsed command into the model.
pub fn lower_script(
    norm: &Normalized,
    tree: Tree,
    mut env: Env,
    user: Option<String>,
    limits: LowerLimits,
) -> Script {
    let mut l = Lowerer {
        norm,
        user,
        script: Script::default(),
        limits,
        fn_stack: Vec::new(),
        defined: Vec::new(),
        called: Vec::new(),
        limit_hit: false,
        files: BTreeMap::new(),
        placeholder: 0,
        heredoc_cuts: Vec::new(),
    };
    let src = Rc::new(Source {
        text: norm.text.clone(),
        tree,
        map: SrcMap::Offset(0),
    });
    l.record_problems(&src, &Origin::default());
    let root = src.tree.root;
    let children = src.tree.node(root).children.clone();
    l.lower_statements(&src, &children, &mut env, &Origin::default(), None);
    l.lower_uncalled(&mut env);
    l.script
}

impl Lowerer<'_> {
    fn record_problems(&mut self, src: &Source, origin: &Origin) {
        let root = src.tree.root;
        for p in src.tree.problems.clone() {
            let (s, e) = p.span();
            // The grammar has no `<>` operator; the lowering repairs it as a read-write
            // redirect, so its ERROR is not a problem.
            let around = |a: usize, b: usize| src.text.get(a..b) == Some("<>");
            if matches!(p, ParseProblem::Error { .. })
                && e == s + 1
                && (around(s, s + 2) || (s > 0 && around(s - 1, s + 1)))
            {
                continue;
            }
            // The statement that holds the problem is what the fallback scans.
            let region = src
                .tree
                .node(root)
                .children
                .iter()
                .map(|&c| src.tree.node(c))
                .find(|n| n.start <= s && e <= n.end.max(n.start + 1))
                .map(|n| (n.start, n.end))
                .unwrap_or((0, src.text.len()));
            let text = src
                .text
                .get(region.0..region.1)
                .unwrap_or(&src.text)
                .to_string();
            let (kind, message) = match &p {
                ParseProblem::Error { .. } => (
                    IssueKind::ParseError,
                    format!(
                        "bash syntax that shellgate could not parse: `{}`",
                        shorten(src.text.get(s..e).unwrap_or(""))
                    ),
                ),
                ParseProblem::Missing { kind, .. } => (
                    IssueKind::ParseError,
                    format!("incomplete command: the parser expected `{kind}` here"),
                ),
                ParseProblem::TooDeep { .. } => (
                    IssueKind::NestingLimit,
                    format!(
                        "syntax nested deeper than {} levels was not analysed",
                        syntax::MAX_TREE_DEPTH
                    ),
                ),
                ParseProblem::TooManyNodes { .. } => (
                    IssueKind::SizeLimit,
                    format!(
                        "the command has more than {} syntax nodes; the rest was not analysed",
                        syntax::MAX_NODES
                    ),
                ),
            };
            self.script.issues.push(Issue {
                kind,
                span: src.span(s, e.max(s), self.norm),
                message,
                origin: origin.clone(),
                text,
            });
        }
    }

    fn command_limit(&mut self, span: Span, origin: &Origin) -> bool {
        if self.script.commands.len() < self.limits.max_commands {
            return false;
        }
        if !self.limit_hit {
            self.limit_hit = true;
            let text = self
                .norm
                .text
                .get(span.start.min(self.norm.text.len())..)
                .unwrap_or("")
                .to_string();
            self.script.issues.push(Issue {
                kind: IssueKind::CommandLimit,
                span,
                message: format!(
                    "more than {} commands; the rest was not analysed",
                    self.limits.max_commands
                ),
                origin: origin.clone(),
                text,
            });
        }
        true
    }

    /// Lower a sequence of sibling nodes (statements and separator tokens) in order.
    pub(super) fn lower_statements(
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
            let b = self.lower_stmt(src, id, env, origin, stdin.clone(), &[]);
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

    fn lower_stmt(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        redirs: &[Redirect],
    ) -> Block {
        // Recursion here follows the input's nesting: grow the stack instead of overflowing.
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
            self.lower_stmt_inner(src, id, env, origin, stdin, redirs)
        })
    }

    fn lower_stmt_inner(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        redirs: &[Redirect],
    ) -> Block {
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
            k::REDIRECTED_STATEMENT => self.lower_redirected(src, id, env, origin, stdin, redirs),
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
                    self.decode_word(src, v, env, origin, WordMode::Single);
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
    }

    fn rc_source(&self, src: &Source) -> Rc<Source> {
        // Sources are created in Rc and lowered by reference; rebuild an Rc for storage.
        Rc::new(Source {
            text: src.text.clone(),
            tree: src.tree.clone(),
            map: src.map,
        })
    }

    /// Lower `$(..)` and `<(..)` inside a node we do not otherwise model.
    fn lower_subs(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        subs: &mut Vec<super::Substitution>,
    ) {
        let node = src.tree.node(id);
        if node.kind == k::COMMAND_SUBSTITUTION || node.kind == k::PROCESS_SUBSTITUTION {
            let w = self.decode_word(src, id, env, origin, WordMode::Single);
            for x in w {
                subs.extend(x.substitutions);
            }
            return;
        }
        for c in node.children.clone() {
            self.lower_subs(src, c, env, origin, subs);
        }
    }

    fn apply_redirects(&mut self, b: &Block, redirs: &[Redirect]) {
        if redirs.is_empty() {
            return;
        }
        let mut ids: Vec<CmdId> = b.heads.iter().chain(&b.tails).copied().collect();
        ids.sort_unstable();
        ids.dedup();
        let stdin = heredoc_stdin(redirs);
        for id in ids {
            if let Some(c) = self.script.commands.get_mut(id) {
                c.redirects.extend(redirs.iter().cloned());
                if c.stdin_text.is_none() {
                    c.stdin_text = stdin.clone();
                }
            }
        }
    }

    fn lower_stages(
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
                p.stages.push(super::PipeStage {
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

    fn lower_redirected(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        outer: &[Redirect],
    ) -> Block {
        let node = src.tree.node(id).clone();
        let body = src.tree.child_by_field(id, "body");
        let mut redirs: Vec<Redirect> = Vec::new();
        let mut pipe_cont: Option<NodeId> = None;
        let mut right: Option<NodeId> = None;
        let mut pre = Block::empty_output();
        for &c in &node.children {
            let cn = src.tree.node(c);
            if cn.field == Some("body") || !cn.named {
                continue;
            }
            if cn.kind == k::HEREDOC_REDIRECT {
                for &hc in &cn.children {
                    let h = src.tree.node(hc);
                    if h.field == Some("redirect") {
                        redirs.extend(self.lower_redirect(src, hc, env, origin, &mut pre));
                    } else if h.field == Some("right") {
                        right = Some(hc);
                    } else if h.kind == k::PIPELINE && h.field.is_none() {
                        pipe_cont = Some(hc);
                    }
                }
            }
            if matches!(
                cn.kind,
                k::FILE_REDIRECT | k::HEREDOC_REDIRECT | k::HERESTRING_REDIRECT
            ) {
                redirs.extend(self.lower_redirect(src, c, env, origin, &mut pre));
            } else if cn.kind != k::HEREDOC_REDIRECT {
                // `<>` and other gaps appear as ERROR siblings; already reported.
                let mut subs = Vec::new();
                self.lower_subs(src, c, env, origin, &mut subs);
            }
        }
        // The grammar's `<>` gap: ERROR(`<`) followed by a `>` redirect is a read-write open.
        for w in node.children.windows(2) {
            let (a, b) = (src.tree.node(w[0]), src.tree.node(w[1]));
            if a.is_error
                && src.text.get(a.start..a.end) == Some("<")
                && b.kind == k::FILE_REDIRECT
                && a.end == b.start
                && let Some(r) = redirs
                    .iter_mut()
                    .find(|r| r.span == src.span(b.start, b.end, self.norm))
            {
                r.op = RedirectOp::ReadWrite;
            }
        }
        redirs.extend(outer.iter().cloned());
        let mut out = pre;
        match (body, pipe_cont) {
            (Some(b), Some(p)) => {
                let mut stages = vec![(b, redirs)];
                for &pc in &src.tree.node(p).children {
                    let pn = src.tree.node(pc);
                    if pn.named && pn.kind != k::COMMENT {
                        stages.push((pc, Vec::new()));
                    }
                }
                let span = src.span(node.start, node.end, self.norm);
                let blk = self.lower_stages(src, stages, env, origin, stdin, span);
                out.then(blk);
            }
            (Some(b), None) => {
                let blk = self.lower_stmt(src, b, env, origin, stdin, &redirs);
                out.then(blk);
            }
            (None, _) => {
                // A bare redirect (`> file`) still opens, truncates or writes the file.
                let span = src.span(node.start, node.end, self.norm);
                let blk = self.push_plain(Vec::new(), Vec::new(), redirs, span, env, origin);
                out.then(blk);
            }
        }
        if let Some(r) = right {
            let blk = self.lower_stmt(src, r, env, origin, None, &[]);
            out.then(blk);
        }
        out
    }

    /// Decode one redirect node (a heredoc may carry more redirects inside it).
    fn lower_redirect(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        pre: &mut Block,
    ) -> Vec<Redirect> {
        let node = src.tree.node(id).clone();
        let span = src.span(node.start, node.end, self.norm);
        let mut fd = None;
        let mut op_text = String::new();
        let mut dest: Vec<NodeId> = Vec::new();
        let mut heredoc_start = None;
        let mut heredoc_body = None;
        for &c in &node.children {
            let cn = src.tree.node(c);
            let t = src.text.get(cn.start..cn.end).unwrap_or("");
            match (cn.named, cn.kind, cn.field) {
                (_, k::FILE_DESCRIPTOR, _) => fd = t.parse().ok(),
                (_, _, Some("descriptor")) => fd = t.parse().ok(),
                (_, k::HEREDOC_START, _) => heredoc_start = Some(t.to_string()),
                (_, k::HEREDOC_BODY, _) => heredoc_body = Some(c),
                (_, _, Some("destination")) => dest.push(c),
                (false, _, None) if op_text.is_empty() => op_text = t.to_string(),
                (true, _, None) if node.kind == k::HERESTRING_REDIRECT => dest.push(c),
                _ => {}
            }
        }
        // The grammar's `<>` gap inside a redirect: `<` then ERROR(`>`).
        let rw_gap = node.children.windows(2).any(|w| {
            let (a, b) = (src.tree.node(w[0]), src.tree.node(w[1]));
            !a.named
                && a.kind == "<"
                && b.is_error
                && src.text.get(b.start..b.end) == Some(">")
                && a.end == b.start
        });
        if rw_gap {
            op_text = "<>".into();
        }
        // Only the destination nodes that touch each other form the target: the grammar
        // hands a following redirect's fd (`>& f 0>&1`) to this one as another node.
        let mut end = None;
        dest.retain(|&d| {
            let n = src.tree.node(d);
            let keep = end.is_none_or(|e| e == n.start);
            if keep {
                end = Some(n.end);
            }
            keep
        });
        let mut target = None;
        if !dest.is_empty() {
            let words = self.decode_nodes(src, &dest, env, origin, WordMode::Single);
            target = words.into_iter().next();
            if let Some(t) = &target {
                for s in &t.substitutions {
                    pre.commands.extend(s.commands.iter().copied());
                }
            }
        }
        let op = match (node.kind, op_text.as_str()) {
            (k::HEREDOC_REDIRECT, _) => RedirectOp::Heredoc,
            (k::HERESTRING_REDIRECT, _) => RedirectOp::HereString,
            (_, ">" | ">|") => RedirectOp::Write,
            (_, ">>") => RedirectOp::Append,
            (_, "&>") => RedirectOp::WriteAll,
            (_, "&>>") => RedirectOp::AppendAll,
            (_, "<") => RedirectOp::Read,
            (_, "<>") => RedirectOp::ReadWrite,
            (_, ">&" | "<&" | ">&-" | "<&-") => {
                let is_fd = target
                    .as_ref()
                    .and_then(|w| w.lit())
                    .is_some_and(|v| v == "-" || v.chars().all(|c| c.is_ascii_digit()));
                if is_fd || op_text.starts_with('<') || op_text.ends_with('-') || target.is_none() {
                    RedirectOp::DupFd
                } else {
                    RedirectOp::WriteAll
                }
            }
            _ => RedirectOp::Write,
        };
        let heredoc = match (heredoc_start, heredoc_body) {
            (Some(start), body) => {
                let quoted = start.contains(['\'', '"', '\\']);
                let strip_tabs = op_text == "<<-";
                let mut heredoc_subs = Vec::new();
                // The grammar misreads a body whose first line starts with a backslash: that
                // line becomes words of the redirect and the body node is empty. Then the
                // body is the raw text between the delimiter line and the end marker.
                let end_marker = node
                    .children
                    .iter()
                    .map(|&c| src.tree.node(c))
                    .find(|n| n.kind == k::HEREDOC_END)
                    .map(|n| n.start);
                let start_line_end = node
                    .children
                    .iter()
                    .map(|&c| src.tree.node(c))
                    .find(|n| n.kind == k::HEREDOC_START)
                    .and_then(|n| {
                        src.text
                            .get(n.end..)
                            .and_then(|rest| rest.find('\n'))
                            .map(|i| n.end + i + 1)
                    });
                // The symptom: words of the redirect itself after the delimiter's line.
                let misread =
                    start_line_end.is_some_and(|ls| {
                        node.children
                            .iter()
                            .map(|&c| src.tree.node(c))
                            .any(|n| n.field == Some("argument") && n.end > ls)
                    }) || node.children.iter().map(|&c| src.tree.node(c)).any(|n| {
                        n.kind == k::PIPELINE && start_line_end.is_some_and(|ls| n.end > ls)
                    });
                let (text, raw, bspan, nstart) = match body {
                    _ if misread => {
                        let (ls, le) = (
                            start_line_end.unwrap_or(node.end),
                            end_marker.unwrap_or(node.end),
                        );
                        // Words the grammar took from the body belong to no command.
                        self.heredoc_cuts.push((src.text.as_ptr() as usize, ls, le));
                        let raw = src.text.get(ls..le.max(ls)).unwrap_or("").to_string();
                        let value = if quoted { Some(raw.clone()) } else { None };
                        (value, raw, src.span(ls, le.max(ls), self.norm), None)
                    }
                    Some(b) => {
                        let bn = src.tree.node(b).clone();
                        let raw = src.text.get(bn.start..bn.end).unwrap_or("").to_string();
                        let value = if quoted {
                            Some(raw.clone())
                        } else {
                            let (v, subs) = self.decode_heredoc(src, b, env, origin);
                            for s in &subs {
                                pre.commands.extend(s.commands.iter().copied());
                            }
                            heredoc_subs = subs;
                            v
                        };
                        (
                            value,
                            raw,
                            src.span(bn.start, bn.end, self.norm),
                            src.nspan(bn.start, bn.end).map(|x| x.0),
                        )
                    }
                    None => (Some(String::new()), String::new(), span, None),
                };
                let fix = |s: String| {
                    if strip_tabs {
                        s.split_inclusive('\n')
                            .map(|l| l.trim_start_matches('\t'))
                            .collect()
                    } else {
                        s
                    }
                };
                Some(Heredoc {
                    body: text.map(fix),
                    raw: fix(raw),
                    quoted,
                    span: bspan,
                    substitutions: heredoc_subs,
                    nstart: if strip_tabs { None } else { nstart },
                })
            }
            _ => None,
        };
        vec![Redirect {
            fd,
            op,
            target,
            heredoc,
            span,
        }]
    }

    fn lower_assignment(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
    ) -> Option<Assignment> {
        self.lower_assignment_with(src, id, &[], env, origin)
    }

    /// An assignment whose value continues in `extra` nodes the grammar split off.
    fn lower_assignment_with(
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
            w.pieces = vec![super::Piece::Unknown {
                reason: format!("${name} is an array"),
                may_be_empty: true,
            }];
            w.substitutions = subs;
            w
        } else {
            self.decode_nodes(src, &value_nodes, env, origin, WordMode::Assignment)
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
                    super::Piece::Unknown {
                        reason: format!("${name} before `+=`"),
                        may_be_empty: true,
                    },
                );
            }
        }
        Some(Assignment { name, value, span })
    }

    fn lower_declaration(
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
                    if t.starts_with('-') && t.contains('x') {
                        export = true;
                    }
                    args.extend(self.decode_word(src, c, env, origin, WordMode::Argument));
                }
                _ => {}
            }
        }
        let span = src.span(node.start, node.end, self.norm);
        self.push_plain(args, assigns, redirs.to_vec(), span, env, origin)
    }

    fn lower_if(
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

    fn lower_for(
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
            values.extend(self.decode_word(src, v, env, origin, WordMode::Argument));
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

    fn lower_command(
        &mut self,
        src: &Source,
        id: NodeId,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        extra: &[Redirect],
    ) -> Block {
        let node = src.tree.node(id).clone();
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
        let mut pre = Block::empty_output();
        let mut assigns = Vec::new();
        for (a, extra) in assign_nodes {
            if let Some(asg) = self.lower_assignment_with(src, a, &extra, env, origin) {
                for s in &asg.value.substitutions {
                    pre.commands.extend(s.commands.iter().copied());
                }
                assigns.push(asg);
            }
        }
        let mut argv = Vec::new();
        for g in word_groups {
            for w in self.decode_nodes(src, &g, env, origin, WordMode::Argument) {
                for s in &w.substitutions {
                    pre.commands.extend(s.commands.iter().copied());
                }
                argv.push(w);
            }
        }
        let mut redirs = Vec::new();
        for r in redirect_nodes {
            redirs.extend(self.lower_redirect(src, r, env, origin, &mut pre));
        }
        redirs.extend(extra.iter().cloned());
        if argv.is_empty() {
            // `X=1` alone (or `X=$(..)`) sets the variable in this shell.
            for a in &assigns {
                apply_assignment(env, a, false);
            }
            let b = self.push_plain(Vec::new(), assigns, redirs, span, env, origin);
            pre.then(b);
            pre.output = Some(String::new());
            return pre;
        }
        let b = self.run_argv(argv, assigns, redirs, span, env, origin, stdin, None);
        let out = b.output.clone();
        let mut all = pre;
        all.commands.extend(b.commands);
        all.heads = b.heads;
        all.tails = b.tails;
        all.output = out;
        all
    }

    /// Record a command that runs no program (assignments, bare redirects, declarations).
    fn push_plain(
        &mut self,
        argv: Vec<Word>,
        assignments: Vec<Assignment>,
        redirects: Vec<Redirect>,
        span: Span,
        env: &Env,
        origin: &Origin,
    ) -> Block {
        if self.command_limit(span, origin) {
            return Block::default();
        }
        let id = self.script.commands.len();
        let name = argv.first().and_then(program_name);
        self.script.commands.push(Command {
            id,
            name,
            argv,
            wrappers: Vec::new(),
            assignments,
            redirects,
            span,
            origin: origin.clone(),
            cwd: env.cwd.clone(),
            pipe: None,
            background: false,
            functions: self.fn_stack.clone(),
            recursive_call: false,
            synthetic: None,
            stdin_text: None,
            inline: None,
        });
        Block {
            commands: vec![id],
            heads: vec![id],
            tails: vec![id],
            output: Some(String::new()),
        }
    }

    /// Record a command from decoded argv, peel wrappers, and lower whatever code it runs.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run_argv(
        &mut self,
        argv: Vec<Word>,
        mut assignments: Vec<Assignment>,
        redirects: Vec<Redirect>,
        span: Span,
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        synthetic: Option<String>,
    ) -> Block {
        if self.command_limit(span, origin) {
            return Block::default();
        }
        let peeled = wrappers::peel(argv);
        let origin = match &peeled.via {
            Some((kind, detail)) => origin.push(OriginStep {
                kind: *kind,
                span,
                detail: detail.clone(),
            }),
            None => origin.clone(),
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
                .and_then(|d| super::paths::resolve(&d, env.cwd.as_deref())),
            None => env.cwd.clone(),
        };
        let stdin_text = heredoc_stdin(&redirects).or(stdin);
        let recursive = name.as_ref().is_some_and(|n| self.fn_stack.contains(n));
        let id = self.script.commands.len();
        self.script.commands.push(Command {
            id,
            name: name.clone(),
            argv: peeled.argv.clone(),
            wrappers: peeled.wrappers.clone(),
            assignments: assignments.clone(),
            redirects: redirects.clone(),
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
        });
        let mut block = Block {
            commands: vec![id],
            heads: vec![id],
            tails: vec![id],
            output: None,
        };
        // The environment a child process sees: exported variables plus its assignments.
        let mut child = env.child(peeled.clear_env);
        for a in &assignments {
            apply_assignment(&mut child, a, true);
        }
        let mut nested_output = None;
        if let Some(code) = &peeled.code {
            let b = self.lower_code(
                &code.code,
                code.kind,
                &code.detail,
                &mut child,
                &origin,
                None,
                None,
            );
            nested_output = b.output.clone();
            block.commands.extend(b.commands);
        }
        if let Some(n) = name.as_deref() {
            let argv = peeled.argv.clone();
            let b = self.builtin_or_nested(
                id,
                n,
                &argv,
                env,
                &mut child,
                &origin,
                stdin_text.clone(),
                recursive,
            );
            if let Some(b) = b {
                nested_output = b.output.clone();
                block.commands.extend(b.commands);
            }
            if n == "tee"
                && let Some(text) = &stdin_text
            {
                for a in argv
                    .iter()
                    .skip(1)
                    .filter_map(|w| w.lit())
                    .filter(|a| !a.starts_with('-'))
                {
                    if let Some(p) = super::paths::resolve(&a, env.cwd.as_deref()) {
                        self.files.insert(p, text.clone());
                    }
                }
            }
        } else if peeled.argv.len() > 1
            && peeled.argv.iter().skip(1).any(|w| {
                w.lit()
                    .is_some_and(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
            })
        {
            // An unknown program given `-c CODE` is most likely a shell (`$SHELL -c ..`):
            // analyse the code as shell code rather than not at all.
            let args = peeled.argv[1..].to_vec();
            if let Some(b) = self.lower_shell(
                "an unknown program",
                &args,
                &mut child,
                &origin,
                None,
                span,
                Some(id),
            ) {
                block.commands.extend(b.commands);
            }
        }
        let cmd = self.script.commands.get(id).cloned();
        block.output = match cmd {
            Some(c) => {
                nested_output.or_else(|| super::payload::output_of(&c, stdin_text.as_deref()))
            }
            None => None,
        };
        // Remember files written with known content, for `bash f` / `source f` later.
        if let Some(c) = self.script.commands.get(id) {
            for r in &c.redirects {
                if matches!(r.op, RedirectOp::Write | RedirectOp::WriteAll)
                    && r.fd.is_none_or(|f| f == 1)
                    && let Some(path) = r.target.as_ref().and_then(|t| t.lit())
                    && let Some(p) = super::paths::resolve(&path, c.cwd.as_deref())
                {
                    let content = {
                        let mut c2 = c.clone();
                        c2.redirects.clear();
                        super::payload::output_of(&c2, stdin_text.as_deref())
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

    /// Builtins that change the shell's state, and programs that run code.
    #[allow(clippy::too_many_arguments)]
    fn builtin_or_nested(
        &mut self,
        id: CmdId,
        name: &str,
        argv: &[Word],
        env: &mut Env,
        child: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        recursive: bool,
    ) -> Option<Block> {
        let span = self
            .script
            .commands
            .get(id)
            .map(|c| c.span)
            .unwrap_or_default();
        let args = argv.get(1..).unwrap_or(&[]);
        // Functions take precedence over builtins and programs, as in bash.
        if let Some(f) = env.functions.get(name).cloned() {
            return self.call_function(f, name, args, env, origin, stdin, recursive, span);
        }
        match name {
            "printf" if args.first().and_then(|w| w.lit()).as_deref() == Some("-v") => {
                // `printf -v VAR FMT ARGS` assigns instead of printing.
                let var = args.get(1).and_then(|w| w.lit())?;
                let mut c = self.script.commands.get(id)?.clone();
                c.argv = std::iter::once(argv[0].clone())
                    .chain(args.iter().skip(2).cloned())
                    .collect();
                let value = super::payload::output_of(&c, None);
                env.set(
                    &var,
                    match value {
                        Some(v) => VarValue::Known(v),
                        None => VarValue::Unknown(format!(
                            "${var} is set by `printf -v` to a run-time value"
                        )),
                    },
                );
                Some(Block::empty_output())
            }
            "read" => {
                // `read A B <<< "x y"`: with known input the variables are known.
                let names: Vec<String> = args
                    .iter()
                    .filter_map(|w| w.lit())
                    .filter(|a| !a.starts_with('-'))
                    .collect();
                let first = stdin
                    .as_deref()
                    .map(|s| s.lines().next().unwrap_or("").to_string());
                let fields: Vec<String> = first
                    .as_deref()
                    .map(|l| l.split_whitespace().map(str::to_string).collect())
                    .unwrap_or_default();
                for (i, n) in names.iter().enumerate() {
                    let v = match &first {
                        Some(_) if i + 1 == names.len() => {
                            Some(fields.get(i..).map(|r| r.join(" ")).unwrap_or_default())
                        }
                        Some(_) => Some(fields.get(i).cloned().unwrap_or_default()),
                        None => None,
                    };
                    env.set(
                        n,
                        match v {
                            Some(v) => VarValue::Known(v),
                            None => {
                                VarValue::Unknown(format!("${n} is read from input at run time"))
                            }
                        },
                    );
                }
                Some(Block::empty_output())
            }
            "export" | "declare" | "typeset" | "local" | "readonly" => {
                // Reached as a program (`''export`, `builtin export`, `command declare`):
                // the same assignments as the declaration syntax.
                for w in args {
                    let Some((n, v)) = wrappers::split_assignment(w) else {
                        continue;
                    };
                    let value = match v.lit() {
                        Some(t) => VarValue::Known(t),
                        None => VarValue::Unknown(format!(
                            "${n} is assigned `{}`, only known at run time",
                            shorten(&v.raw)
                        )),
                    };
                    env.set(&n, value);
                    if name == "export" {
                        env.export(&n);
                    }
                    // Rules read assignments off the command, however it was spelled.
                    if let Some(c) = self.script.commands.get_mut(id) {
                        c.assignments.push(Assignment {
                            name: n.clone(),
                            value: v.clone(),
                            span: w.span,
                        });
                    }
                }
                Some(Block::empty_output())
            }
            "cd" | "pushd" => {
                let target = args
                    .iter()
                    .find(|w| !w.lit().is_some_and(|v| v.starts_with('-') && v.len() > 1));
                let new = match target {
                    None if name == "cd" => env.home.clone(),
                    None => None,
                    Some(w) => match w.lit() {
                        Some(v) if v == "-" => None,
                        Some(v) => super::paths::resolve(&v, env.cwd.as_deref()),
                        None => None,
                    },
                };
                if name == "pushd" {
                    env.dir_stack.push(env.cwd.clone());
                }
                env.cwd = new;
                None
            }
            "popd" => {
                env.cwd = env.dir_stack.pop().flatten();
                None
            }
            "eval" => {
                if args.is_empty() {
                    return None;
                }
                let code = join_words(args);
                Some(self.lower_code(&code, OriginKind::Eval, "eval", env, origin, None, stdin))
            }
            "source" | "." => {
                // `source /dev/stdin` runs what is piped in.
                if args.first().and_then(|w| w.lit()).is_some_and(|f| {
                    f == "/dev/stdin" || f == "/proc/self/fd/0" || f == "/dev/fd/0"
                }) {
                    let code = stdin?;
                    let w = Word::literal(&code, span);
                    return Some(self.lower_code(
                        &w,
                        OriginKind::StdinToShell,
                        &format!("piped into {name} /dev/stdin"),
                        env,
                        origin,
                        Some(span),
                        None,
                    ));
                }
                if let Some(out) = process_subst_output(args.first()?) {
                    let w = Word::literal(&out, span);
                    return Some(self.lower_code(
                        &w,
                        OriginKind::ProcessSubstitution,
                        "source <(..) with known output",
                        env,
                        origin,
                        Some(span),
                        None,
                    ));
                }
                let file = args.first()?.lit()?;
                let path = super::paths::resolve(&file, env.cwd.as_deref())?;
                let content = self.files.get(&path)?.clone();
                let w = Word::literal(&content, span);
                Some(self.lower_code(
                    &w,
                    OriginKind::WrittenScript,
                    &format!("source {file} (written earlier)"),
                    env,
                    origin,
                    None,
                    None,
                ))
            }
            _ if is_shell(name) => {
                self.lower_shell(name, args, child, origin, stdin, span, Some(id))
            }
            "find" => {
                let mut out = Block::default();
                for (cmd_words, detail) in find_exec_clauses(args) {
                    let step = OriginStep {
                        kind: OriginKind::FindExec,
                        span,
                        detail,
                    };
                    let b = self.run_argv(
                        cmd_words,
                        Vec::new(),
                        Vec::new(),
                        span,
                        child,
                        &origin.push(step),
                        None,
                        None,
                    );
                    out.commands.extend(b.commands);
                }
                Some(out)
            }
            "at" | "batch" => {
                // `at` and `batch` run their stdin (or `-f FILE`) later, as shell code.
                let code = stdin?;
                let w = Word::literal(&code, span);
                Some(self.lower_code(
                    &w,
                    OriginKind::StdinToShell,
                    &format!("piped into {name} (runs later)"),
                    child,
                    origin,
                    Some(span),
                    None,
                ))
            }
            _ => {
                // Code run through another program's hook, when it is written out.
                let hooks = super::hooks::hook_code(name, argv);
                if !hooks.is_empty() {
                    let mut out = Block::default();
                    for h in hooks {
                        let w = Word::literal(&h.code, span);
                        let b = self.lower_code(
                            &w,
                            OriginKind::ShellString,
                            &h.detail,
                            child,
                            origin,
                            Some(span),
                            None,
                        );
                        out.commands.extend(b.commands);
                    }
                    return Some(out);
                }
                // Running a file written earlier in the script (`./x.sh`).
                if let Some(path) = argv
                    .first()
                    .and_then(|w| w.lit())
                    .filter(|p| p.contains('/'))
                    && let Some(content) = super::paths::resolve(&path, env.cwd.as_deref())
                        .and_then(|p| self.files.get(&p).cloned())
                {
                    let w = Word::literal(&content, span);
                    return Some(self.lower_code(
                        &w,
                        OriginKind::WrittenScript,
                        &format!("{path} (written earlier)"),
                        child,
                        origin,
                        Some(span),
                        None,
                    ));
                }
                super::inline::lower_inline(self, id, name, argv, child, origin)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn call_function(
        &mut self,
        f: Rc<FnBody>,
        name: &str,
        args: &[Word],
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        recursive: bool,
        span: Span,
    ) -> Option<Block> {
        if recursive || self.fn_stack.len() >= self.limits.max_fn_depth {
            return None;
        }
        if let Some(c) = self.called.get_mut(f.index) {
            *c = true;
        }
        if let Some(d) = self.script.functions.get_mut(f.index) {
            d.called = true;
        }
        let saved = (env.positional.clone(), env.arg0.clone());
        env.positional = Some(args.iter().map(word_var).collect());
        self.fn_stack.push(name.to_string());
        let step = OriginStep {
            kind: OriginKind::Function,
            span,
            detail: format!("function {name}"),
        };
        let b = self.lower_stmt(&f.src, f.node, env, &origin.push(step), stdin, &[]);
        self.fn_stack.pop();
        env.positional = saved.0;
        env.arg0 = saved.1;
        Some(b)
    }

    /// `bash -c CODE`, `sh -s`, `bash script` and `bash` reading code from stdin.
    #[allow(clippy::too_many_arguments)]
    fn lower_shell(
        &mut self,
        name: &str,
        args: &[Word],
        child: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        span: Span,
        id: Option<CmdId>,
    ) -> Option<Block> {
        let mut i = 0;
        let mut has_c = false;
        let mut reads_stdin = false;
        while i < args.len() {
            let Some(a) = args[i].lit() else { break };
            if a == "--" || a == "-" {
                i += 1;
                break;
            }
            if a.starts_with("--") {
                i += if matches!(a.as_str(), "--rcfile" | "--init-file") {
                    2
                } else {
                    1
                };
                continue;
            }
            if (a.starts_with('-') || a.starts_with('+')) && a.len() > 1 {
                let flags = &a[1..];
                if flags.contains('c') {
                    has_c = true;
                }
                if flags.contains('s') {
                    reads_stdin = true;
                }
                // `-o opt` / `-O opt` take a value.
                i += if flags.ends_with('o') || flags.ends_with('O') {
                    2
                } else {
                    1
                };
                continue;
            }
            break;
        }
        let rest = args.get(i..).unwrap_or(&[]);
        if has_c {
            let code = rest.first()?;
            if let Some(a0) = rest.get(1) {
                child.arg0 = a0.lit();
            }
            child.positional = Some(rest.iter().skip(2).map(word_var).collect());
            return Some(self.lower_code(
                code,
                OriginKind::ShellString,
                &format!("{name} -c"),
                child,
                origin,
                None,
                None,
            ));
        }
        let script_is_stdin = rest
            .first()
            .and_then(|w| w.lit())
            .is_some_and(|f| f == "/dev/stdin" || f == "/dev/fd/0" || f == "/proc/self/fd/0");
        if !reads_stdin && !script_is_stdin {
            if let Some(script) = rest.first() {
                child.positional = Some(rest.iter().skip(1).map(word_var).collect());
                if let Some(out) = process_subst_output(script) {
                    let w = Word::literal(&out, span);
                    return Some(self.lower_code(
                        &w,
                        OriginKind::ProcessSubstitution,
                        &format!("{name} <(..) with known output"),
                        child,
                        origin,
                        Some(span),
                        None,
                    ));
                }
                let file = script.lit()?;
                let path = super::paths::resolve(&file, child.cwd.as_deref())?;
                let content = self.files.get(&path)?.clone();
                let w = Word::literal(&content, span);
                return Some(self.lower_code(
                    &w,
                    OriginKind::WrittenScript,
                    &format!("{name} {file} (written earlier)"),
                    child,
                    origin,
                    None,
                    None,
                ));
            }
        } else {
            child.positional = Some(rest.iter().map(word_var).collect());
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
        let code = stdin.or(heredoc_text)?;
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
            return Some(self.lower_code(&w, kind, &detail, child, origin, None, None));
        }
        let w = Word::literal(&code, span);
        Some(self.lower_code(&w, kind, &detail, child, origin, Some(span), None))
    }

    /// Whether the stage before the command being lowered decodes its input
    /// (`base64 -d`, `xxd -r`, ...): the latest pipeline's last finished stage.
    fn fed_by_decoder(&self) -> bool {
        self.script
            .pipelines
            .last()
            .and_then(|p| p.stages.last())
            .is_some_and(|st| {
                st.tails
                    .iter()
                    .filter_map(|&t| self.script.commands.get(t))
                    .any(super::payload::is_decoder)
            })
    }

    /// Parse a string of shell code and lower it as nested code.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lower_code(
        &mut self,
        code: &Word,
        kind: OriginKind,
        detail: &str,
        env: &mut Env,
        origin: &Origin,
        fixed: Option<Span>,
        stdin: Option<String>,
    ) -> Block {
        let step = OriginStep {
            kind,
            span: code.span,
            detail: detail.to_string(),
        };
        let origin = origin.push(step);
        // Unknown parts of the code become placeholder variables the env marks unknown, so
        // the known structure around them is still analysed.
        let mut text = String::new();
        for p in &code.pieces {
            match p {
                super::Piece::Lit { text: t, .. } => text.push_str(t),
                super::Piece::Unknown { reason, .. } => {
                    self.placeholder += 1;
                    let var = format!("__shellgate_unknown_{}", self.placeholder);
                    env.set(&var, VarValue::Unknown(reason.clone()));
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
        self.lower_statements(&src, &children, env, &origin, stdin)
    }

    /// Functions defined but never called still get their bodies analysed: the text may be
    /// sourced or called in a way shellgate cannot see.
    fn lower_uncalled(&mut self, env: &mut Env) {
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
            self.lower_stmt(
                &f.src,
                f.node,
                &mut e,
                &Origin::default().push(step),
                None,
                &[],
            );
            self.fn_stack.pop();
        }
    }
}

fn is_statement(kind: &str) -> bool {
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

/// Shells that run `-c` strings, scripts and stdin.
pub fn is_shell(name: &str) -> bool {
    matches!(
        name,
        "sh" | "bash"
            | "zsh"
            | "ksh"
            | "dash"
            | "ash"
            | "mksh"
            | "yash"
            | "posh"
            | "fish"
            | "rbash"
            | "pdksh"
            | "ksh93"
            | "tcsh"
            | "csh"
    )
}

fn word_var(w: &Word) -> VarValue {
    match w.lit() {
        Some(v) => VarValue::Known(v),
        None => VarValue::Unknown(format!("`{}` is only known at run time", w.raw)),
    }
}

fn join_words(words: &[Word]) -> Word {
    let mut w = words[0].clone();
    let mut pieces = Vec::new();
    for (i, x) in words.iter().enumerate() {
        if i > 0 {
            pieces.push(super::Piece::Lit {
                text: " ".into(),
                quoted: true,
            });
        }
        pieces.extend(x.pieces.iter().cloned());
    }
    w.pieces = pieces;
    if let Some(l) = words.last() {
        w.span = Span::new(words[0].span.start, l.span.end.max(words[0].span.start));
        w.nspan = None;
    }
    w.raw = words
        .iter()
        .map(|x| x.raw.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    w
}

/// The known output of a `<(..)` word, when the word is exactly one process substitution.
fn process_subst_output(w: &Word) -> Option<String> {
    match w.substitutions.as_slice() {
        [s] if s.kind == super::SubstKind::ProcessIn && w.pieces.len() == 1 => s.output.clone(),
        _ => None,
    }
}

/// Replace xargs' run-time argument placeholders by the input it will read.
fn fill_xargs(argv: &[Word], input: &str) -> Vec<Word> {
    let tokens: Vec<String> = input.split_whitespace().map(str::to_string).collect();
    let first_line = input.lines().next().unwrap_or("").to_string();
    let mut out = Vec::new();
    for w in argv {
        let placeholder = |p: &super::Piece| matches!(p, super::Piece::Unknown { reason, .. } if reason == "arguments xargs reads from its input");
        if w.pieces.len() == 1 && placeholder(&w.pieces[0]) {
            out.extend(tokens.iter().map(|t| Word::literal(t, w.span)));
        } else if w.pieces.iter().any(placeholder) {
            let mut x = w.clone();
            x.pieces = w
                .pieces
                .iter()
                .map(|p| {
                    if placeholder(p) {
                        super::Piece::Lit {
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

fn heredoc_stdin(redirs: &[Redirect]) -> Option<String> {
    redirs.iter().rev().find_map(|r| match r.op {
        RedirectOp::Heredoc => r.heredoc.as_ref().and_then(|h| h.body.clone()),
        RedirectOp::HereString => r.target.as_ref().and_then(|t| t.lit()).map(|s| s + "\n"),
        _ => None,
    })
}

fn apply_assignment(env: &mut Env, a: &Assignment, export: bool) {
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

fn shorten(s: &str) -> String {
    let mut t: String = s.chars().take(60).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

/// The commands `find` runs through `-exec`, `-execdir`, `-ok`, `-okdir`.
fn find_exec_clauses(args: &[Word]) -> Vec<(Vec<Word>, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].lit().unwrap_or_default();
        if matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let mut cmd = Vec::new();
            let mut j = i + 1;
            while j < args.len() {
                let t = args[j].lit().unwrap_or_default();
                if t == ";" || t == "+" {
                    break;
                }
                let w = &args[j];
                let replaced = if w
                    .pieces
                    .iter()
                    .any(|p| matches!(p, super::Piece::Lit { text, .. } if text.contains("{}")))
                {
                    let mut x = w.clone();
                    let mut pieces = Vec::new();
                    for p in &w.pieces {
                        match p {
                            super::Piece::Lit { text, quoted } if text.contains("{}") => {
                                for (n, part) in text.split("{}").enumerate() {
                                    if n > 0 {
                                        pieces.push(super::Piece::Unknown {
                                            reason: "a path found by find".into(),
                                            may_be_empty: false,
                                        });
                                    }
                                    if !part.is_empty() {
                                        pieces.push(super::Piece::Lit {
                                            text: part.to_string(),
                                            quoted: *quoted,
                                        });
                                    }
                                }
                            }
                            p => pieces.push(p.clone()),
                        }
                    }
                    x.pieces = pieces;
                    x
                } else {
                    w.clone()
                };
                cmd.push(replaced);
                j += 1;
            }
            if !cmd.is_empty() {
                out.push((cmd, format!("find {a}")));
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}
