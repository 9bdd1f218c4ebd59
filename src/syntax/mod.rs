//! Parsing with tree-sitter-bash into an owned, bounded syntax tree: the only module that
//! names `tree_sitter` types, so grammar quirks and limits are handled in one place.

pub mod kinds;
mod plain;
pub mod stages;

pub use plain::set_enabled as set_plain_lexer;

use tree_sitter::{Language, Parser};

/// Deepest node nesting kept; deeper subtrees are cut and reported, so that every later
/// stage can recurse over the tree without risking the stack.
pub const MAX_TREE_DEPTH: usize = 400;
/// Most nodes kept from one parse; beyond it the rest is cut and reported.
pub const MAX_NODES: usize = 2_000_000;

/// Index of a node in [`Tree::nodes`].
pub type NodeId = u32;

/// One syntax node, owned, with its byte span into the parsed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub kind: &'static str,
    pub named: bool,
    pub field: Option<&'static str>,
    pub start: usize,
    pub end: usize,
    pub children: Vec<NodeId>,
    pub is_error: bool,
    pub is_missing: bool,
}

/// Why part of the text was not understood by the parser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseProblem {
    /// An `ERROR` region: the grammar could not parse these bytes.
    Error { start: usize, end: usize },
    /// A token the parser assumed was there (e.g. a closing quote or `fi`).
    Missing {
        start: usize,
        end: usize,
        kind: String,
    },
    /// The tree was deeper than [`MAX_TREE_DEPTH`]; the subtree at this span was cut.
    TooDeep { start: usize, end: usize },
    /// The tree had more than [`MAX_NODES`] nodes; the rest was cut.
    TooManyNodes { start: usize, end: usize },
}

impl ParseProblem {
    pub fn span(&self) -> (usize, usize) {
        match self {
            ParseProblem::Error { start, end }
            | ParseProblem::Missing { start, end, .. }
            | ParseProblem::TooDeep { start, end }
            | ParseProblem::TooManyNodes { start, end } => (*start, *end),
        }
    }
}

/// An owned syntax tree of one piece of bash text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub root: NodeId,
    pub problems: Vec<ParseProblem>,
}

/// The parser itself could not run (never expected; reported, never a panic).
#[derive(Debug, thiserror::Error)]
pub enum SyntaxError {
    #[error("the bash grammar could not be loaded: {0}")]
    Language(String),
    #[error("tree-sitter returned no tree for the input")]
    NoTree,
    /// A pipeline too long to give to tree-sitter (see [`stages`]).
    #[error(
        "the command has a pipeline of about {0} stages, over the {max} stage limit; tree-sitter-bash's time and memory grow with the square of such a pipeline, so it was not parsed",
        max = stages::MAX_PIPELINE_STAGES
    )]
    PipelineTooLong(usize),
}

pub fn language() -> Language {
    tree_sitter_bash::LANGUAGE.into()
}

impl Tree {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn root(&self) -> &Node {
        self.node(self.root)
    }

    /// Children of `id` with their ids.
    pub fn children(&self, id: NodeId) -> impl Iterator<Item = (NodeId, &Node)> + '_ {
        self.nodes[id as usize]
            .children
            .iter()
            .map(move |&c| (c, &self.nodes[c as usize]))
    }

    /// Named children of `id`.
    pub fn named_children(&self, id: NodeId) -> impl Iterator<Item = (NodeId, &Node)> + '_ {
        self.children(id).filter(|(_, n)| n.named)
    }

    /// First child with the given field name.
    pub fn child_by_field(&self, id: NodeId, field: &str) -> Option<NodeId> {
        self.children(id)
            .find(|(_, n)| n.field == Some(field))
            .map(|(c, _)| c)
    }

    /// The S-expression of a subtree (named nodes only), for `explain --cst` and tests.
    pub fn sexp(&self, id: NodeId, text: &str) -> String {
        let mut out = String::new();
        self.sexp_into(id, text, 0, &mut out);
        out
    }

    fn sexp_into(&self, id: NodeId, text: &str, depth: usize, out: &mut String) {
        let n = self.node(id);
        for _ in 0..depth {
            out.push_str("  ");
        }
        if let Some(f) = n.field {
            out.push_str(f);
            out.push_str(": ");
        }
        if n.named {
            out.push_str(n.kind);
        } else {
            out.push('\'');
            out.push_str(n.kind);
            out.push('\'');
        }
        if n.is_missing {
            out.push_str(" MISSING");
        }
        out.push_str(&format!(" [{}..{}]", n.start, n.end));
        if n.children.is_empty() {
            let snippet: String = text
                .get(n.start..n.end)
                .unwrap_or("")
                .chars()
                .take(60)
                .collect();
            out.push_str(&format!(" {snippet:?}"));
        }
        out.push('\n');
        for &c in &n.children {
            self.sexp_into(c, text, depth + 1, out);
        }
    }
}

/// The text the grammar sees: every non-ASCII character replaced by as many `x` bytes as it
/// has. tree-sitter-bash's scanner calls C `isdigit` on raw code points and crashes on large
/// ones; no non-ASCII character is bash syntax, and keeping byte lengths keeps every offset
/// valid in the real text, which is what lowering reads.
fn ascii_shadow(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            out.extend(std::iter::repeat_n('x', c.len_utf8()));
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The grammar's node kind and field names by id, read once: tree-sitter's own accessors
/// re-validate the C string as UTF-8 on every call, once per node of every parse.
struct Names {
    kinds: Vec<Option<&'static str>>,
    fields: Vec<Option<&'static str>>,
}

impl Names {
    fn kind(&self, id: u16) -> Option<&'static str> {
        self.kinds.get(usize::from(id)).copied().flatten()
    }

    fn field(&self, id: u16) -> Option<&'static str> {
        self.fields.get(usize::from(id)).copied().flatten()
    }
}

fn names() -> &'static Names {
    static NAMES: std::sync::LazyLock<Names> = std::sync::LazyLock::new(|| {
        let lang = language();
        Names {
            kinds: (0..lang.node_kind_count())
                .map(|id| {
                    u16::try_from(id)
                        .ok()
                        .and_then(|id| lang.node_kind_for_id(id))
                })
                .collect(),
            fields: (0..=lang.field_count())
                .map(|id| {
                    u16::try_from(id)
                        .ok()
                        .and_then(|id| lang.field_name_for_id(id))
                })
                .collect(),
        }
    });
    &NAMES
}

/// Texts longer than this do not leave their parser to the next parse (see [`ts_parse`]).
const KEEP_PARSER_BELOW: usize = 64 * 1024;

/// Run tree-sitter on `text` with this thread's parser.
fn ts_parse(text: &str) -> Result<tree_sitter::Tree, SyntaxError> {
    // One parser per thread: a fresh parser pays for growing its internal stacks on every
    // parse, which dominates the cost of short commands.
    thread_local! {
        static PARSER: std::cell::RefCell<Option<Parser>> = const { std::cell::RefCell::new(None) };
    }
    PARSER.with(|cell| -> Result<tree_sitter::Tree, SyntaxError> {
        let mut slot = cell.try_borrow_mut().map_err(|_| SyntaxError::NoTree)?;
        if slot.is_none() {
            let mut p = Parser::new();
            p.set_language(&language())
                .map_err(|e| SyntaxError::Language(e.to_string()))?;
            *slot = Some(p);
        }
        let parser = slot.as_mut().ok_or(SyntaxError::NoTree)?;
        let tree = parser.parse(ascii_shadow(text).as_ref(), None);
        if tree.is_none() || text.len() > KEEP_PARSER_BELOW {
            // A parser that failed may hold state; start the next parse from a new one. One
            // that parsed a large text keeps stacks sized for it, and every later parse on
            // this thread pays for them (a 10 MB heredoc made each following 1 KB parse
            // ~7 ms), so it is dropped too.
            *slot = None;
        }
        tree.ok_or(SyntaxError::NoTree)
    })
}

/// The bare tree-sitter parse, with no owned tree built: the floor the benchmarks compare
/// [`crate::analyze`] against. Returns the root's byte length.
pub fn parse_floor(text: &str) -> Result<usize, SyntaxError> {
    ts_parse(text).map(|t| t.root_node().end_byte())
}

/// Parse bash text into an owned tree. Never panics; grammar gaps become [`ParseProblem`]s.
/// Plain simple commands, alone or joined by `&&`, `||`, `|`, `;`, `&`, newlines and
/// `> word`, take the exact fast path of `plain` (the same tree tree-sitter builds, cut the
/// same way, without running it); everything else goes to tree-sitter.
pub fn parse(text: &str) -> Result<Tree, SyntaxError> {
    if plain::enabled()
        && let Some(tree) = plain::parse(text)
    {
        return Ok(tree);
    }
    // Text the fast path declines may hold a pipeline that tree-sitter parses in quadratic
    // time and memory (`stages`); past the limit it is not parsed at all.
    let stages = stages::longest_pipeline(text);
    if stages > stages::MAX_PIPELINE_STAGES {
        return Err(SyntaxError::PipelineTooLong(stages));
    }
    parse_tree_sitter(text)
}

/// The fast path alone: the tree of `text` when it is made of plain commands as `plain`
/// takes them, `None` when the fast path declines it. For the differential tests.
pub fn parse_plain(text: &str) -> Option<Tree> {
    plain::parse(text)
}

/// [`parse`] through tree-sitter always, never the fast path. For the differential tests.
pub fn parse_tree_sitter(text: &str) -> Result<Tree, SyntaxError> {
    let ts = ts_parse(text)?;
    let names = names();
    let root = ts.root_node();
    // The exact node count up front: one allocation for the node array instead of a
    // doubling series over every copy.
    let mut out = Builder::new(text.len(), root.descendant_count());
    let mut cursor = ts.walk();
    // Iterative pre-order walk: input-driven depth never reaches the Rust stack.
    let mut stack: Vec<NodeId> = Vec::new();
    loop {
        let n = cursor.node();
        let node = Node {
            kind: names.kind(n.kind_id()).unwrap_or_else(|| n.kind()),
            named: n.is_named(),
            field: cursor.field_id().and_then(|f| names.field(f.get())),
            start: n.start_byte(),
            end: n.end_byte(),
            children: Vec::new(),
            is_error: n.is_error(),
            is_missing: n.is_missing(),
        };
        match out.visit(node, n.child_count(), stack.len(), stack.last().copied()) {
            Step::Stop => break,
            Step::Descend(id) if cursor.goto_first_child() => {
                stack.push(id);
                continue;
            }
            Step::Descend(_) | Step::Skip => {}
        }
        // Climb until a sibling exists.
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Ok(out.finish());
            }
            stack.pop();
        }
    }
    Ok(out.finish())
}

/// What a [`Builder`] wants next after taking a node.
enum Step {
    /// Visit this node's children (with this id as their parent).
    Descend(NodeId),
    /// Go on with the node's next sibling: it has no children, or they are below the depth cut.
    Skip,
    /// The node limit is reached: nothing more is taken.
    Stop,
}

/// The owned tree under construction, fed in pre-order by either parser (the tree-sitter
/// copy and the plain fast path), so both apply the very same cuts: nodes at depth
/// [`MAX_TREE_DEPTH`] - 1 are kept without their children (the first such cut reported as
/// TooDeep), and the walk stops at [`MAX_NODES`] (TooManyNodes, to the end of the text).
struct Builder {
    nodes: Vec<Node>,
    problems: Vec<ParseProblem>,
    skipped_deep: bool,
    text_len: usize,
}

impl Builder {
    fn new(text_len: usize, expected_nodes: usize) -> Self {
        Builder {
            nodes: Vec::with_capacity(expected_nodes.min(MAX_NODES + 1)),
            problems: Vec::new(),
            skipped_deep: false,
            text_len,
        }
    }

    /// Takes `node` (given with no children) at `depth` below `parent`, the next node in
    /// pre-order; `child_count` is how many children it has in the parse.
    #[inline]
    fn visit(
        &mut self,
        mut node: Node,
        child_count: usize,
        depth: usize,
        parent: Option<NodeId>,
    ) -> Step {
        if self.nodes.len() >= MAX_NODES {
            self.problems.push(ParseProblem::TooManyNodes {
                start: node.start,
                end: self.text_len,
            });
            return Step::Stop;
        }
        if node.is_error {
            self.problems.push(ParseProblem::Error {
                start: node.start,
                end: node.end,
            });
        } else if node.is_missing {
            self.problems.push(ParseProblem::Missing {
                start: node.start,
                end: node.end,
                kind: node.kind.to_string(),
            });
        }
        let id = self.nodes.len() as NodeId;
        let deep = depth + 1 >= MAX_TREE_DEPTH;
        if !deep {
            node.children = Vec::with_capacity(child_count);
        }
        let span = (node.start, node.end);
        self.nodes.push(node);
        if let Some(parent) = parent {
            self.nodes[parent as usize].children.push(id);
        }
        if child_count == 0 {
            Step::Skip
        } else if deep {
            if !self.skipped_deep {
                self.problems.push(ParseProblem::TooDeep {
                    start: span.0,
                    end: span.1,
                });
                self.skipped_deep = true;
            }
            Step::Skip
        } else {
            Step::Descend(id)
        }
    }

    fn finish(self) -> Tree {
        Tree {
            nodes: self.nodes,
            root: 0,
            problems: self.problems,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_constant_exists_in_the_grammar() {
        let lang = language();
        for k in kinds::LOWERED.iter().chain(kinds::CONSERVATIVE) {
            assert_ne!(lang.id_for_node_kind(k, true), 0, "kind {k} not in grammar");
        }
    }

    #[test]
    fn every_named_grammar_kind_is_lowered_or_marked_conservative() {
        let lang = language();
        let mut unhandled = Vec::new();
        for id in 0..lang.node_kind_count() as u16 {
            if !(lang.node_kind_is_named(id) && lang.node_kind_is_visible(id)) {
                continue;
            }
            let Some(kind) = lang.node_kind_for_id(id) else {
                continue;
            };
            if !kinds::LOWERED.contains(&kind) && !kinds::CONSERVATIVE.contains(&kind) {
                unhandled.push(kind);
            }
        }
        unhandled.sort_unstable();
        unhandled.dedup();
        assert!(
            unhandled.is_empty(),
            "unhandled grammar kinds: {unhandled:?}"
        );
    }

    #[test]
    fn reports_error_region_for_read_write_redirect_gap() {
        let t = parse("cat <> f").expect("parse");
        assert!(
            t.problems
                .iter()
                .any(|p| matches!(p, ParseProblem::Error { .. }))
        );
    }

    #[test]
    fn deep_nesting_is_cut_and_reported_not_overflowed() {
        let text = format!("{}echo{}", "$(".repeat(10_000), ")".repeat(10_000));
        let t = parse(&text).expect("parse");
        assert!(
            t.problems
                .iter()
                .any(|p| matches!(p, ParseProblem::TooDeep { .. }))
        );
    }

    #[test]
    fn large_code_points_after_a_brace_do_not_crash_the_scanner() {
        let t = parse("{\u{F0000}").expect("parse");
        assert!(!t.nodes.is_empty());
        let t = parse("echo 'ünïcödé ✓' {\u{10FFFF}}").expect("parse");
        assert_eq!(t.root().end, "echo 'ünïcödé ✓' {\u{10FFFF}}".len());
    }

    #[test]
    fn clean_command_has_no_problems() {
        let t = parse("ls -la | grep foo && echo done").expect("parse");
        assert!(t.problems.is_empty());
        assert_eq!(t.root().kind, kinds::PROGRAM);
    }
}
