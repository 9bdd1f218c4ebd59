//! Lowering: walks the syntax tree in execution order, tracking the environment, and turns
//! every simple command (including nested code: `bash -c`, `eval`, heredocs into shells,
//! substitutions, function bodies, decoded payloads) into a [`Command`](super::Command) of the model.
//!
//! One file per construct: `stmt` (lists, pipelines, compound commands, assignments),
//! `redirect`, `command` (simple commands and wrappers), `builtins`, `nested` (code run by
//! shells, eval, functions). Word expansion lives in `super::word` and reaches back here only
//! through the [`Substitute`] callback.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::env::Env;
pub(crate) use super::frame::{Frame, NestedCode};
use super::word::{Expander, Substitute, short as shorten};
use super::{Issue, IssueKind, Origin, Script};
use crate::Span;
use crate::normalize::Normalized;
use crate::syntax::{self, NodeId, ParseProblem, Tree};

pub(crate) use super::block::Block;
pub(crate) use super::source::{FnBody, Source, SrcMap};

mod builtins;
mod command;
mod nested;
mod readback;
mod redirect;
mod stmt;

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
    /// Words the grammar put into a statement's trailing redirects, waiting for the simple
    /// command they belong to: (source id, command node, words).
    pending_words: Vec<(usize, NodeId, Vec<Vec<NodeId>>)>,
    /// Words the grammar dropped between a statement's body and its redirects, waiting for
    /// their simple command in the same way.
    pending_lost: Vec<(usize, NodeId, Vec<readback::Lost>)>,
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
        pending_words: Vec::new(),
        pending_lost: Vec::new(),
    };
    let src = Rc::new(Source {
        text: norm.text.clone(),
        tree,
        map: SrcMap::Offset(0),
    });
    let top = Origin::default();
    l.record_problems(&src, &top);
    let root = src.tree.root;
    let children = src.tree.node(root).children.clone();
    l.lower_statements(&mut Frame::new(&src, &mut env, &top, None), &children);
    l.lower_uncalled(&mut env);
    l.script
}

impl Lowerer<'_> {
    pub(in crate::model) fn record_problems(&mut self, src: &Source, origin: &Origin) {
        let root = src.tree.root;
        let heredoc_seps = readback::heredoc_separators(src);
        for p in src.tree.problems.clone() {
            let (s, e) = p.span();
            // A separator after a heredoc operator, read back as the separator it is.
            if matches!(p, ParseProblem::Error { .. })
                && heredoc_seps.iter().any(|&(a, b)| a <= s && e <= b)
            {
                continue;
            }
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

    pub(in crate::model) fn command_limit(&mut self, span: Span, origin: &Origin) -> bool {
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

    pub(in crate::model) fn rc_source(&self, src: &Source) -> Rc<Source> {
        // Sources are created in Rc and lowered by reference; rebuild an Rc for storage.
        Rc::new(Source {
            text: src.text.clone(),
            tree: src.tree.clone(),
            map: src.map,
        })
    }
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

impl Substitute for Lowerer<'_> {
    fn user(&self) -> Option<&str> {
        self.user.as_deref()
    }

    fn run_substitution(&mut self, f: &mut Frame<'_>, nodes: &[NodeId]) -> Block {
        self.lower_statements(f, nodes)
    }
}

/// Word expansion, with substitutions lowered by this lowerer: every word is decoded by
/// `self.expander().decode_nodes(..)` ([`Expander::decode_nodes`], the one decoder).
impl Lowerer<'_> {
    fn expander(&mut self) -> Expander<'_> {
        let norm = self.norm;
        Expander { norm, cx: self }
    }
}
