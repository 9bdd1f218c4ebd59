//! Parsing with tree-sitter-bash into an owned, bounded syntax tree: the only module that
//! names `tree_sitter` types, so grammar quirks and limits are handled in one place.

pub mod kinds;
mod plain;

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
        if tree.is_none() {
            // A parser that failed may hold state; start the next parse from a new one.
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
/// One simple command of plain words takes the exact fast path of `plain` (the same tree
/// tree-sitter builds, without running it); everything else goes to tree-sitter.
pub fn parse(text: &str) -> Result<Tree, SyntaxError> {
    if plain::enabled()
        && let Some(tree) = plain::parse(text)
    {
        return Ok(tree);
    }
    parse_tree_sitter(text)
}

/// The fast path alone: the tree of `text` when it is one simple command of plain words,
/// `None` when the fast path declines it. For the differential tests.
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
    let mut nodes: Vec<Node> = Vec::with_capacity(root.descendant_count().min(MAX_NODES + 1));
    let mut problems = Vec::new();
    let mut cursor = ts.walk();
    // Iterative pre-order walk: input-driven depth never reaches the Rust stack.
    let mut stack: Vec<NodeId> = Vec::new();
    let mut skipped_deep = false;
    loop {
        let n = cursor.node();
        let id = nodes.len() as NodeId;
        let too_many = nodes.len() >= MAX_NODES;
        if too_many {
            problems.push(ParseProblem::TooManyNodes {
                start: n.start_byte(),
                end: text.len(),
            });
            break;
        }
        let is_error = n.is_error();
        let is_missing = n.is_missing();
        if is_error {
            problems.push(ParseProblem::Error {
                start: n.start_byte(),
                end: n.end_byte(),
            });
        } else if is_missing {
            problems.push(ParseProblem::Missing {
                start: n.start_byte(),
                end: n.end_byte(),
                kind: n.kind().to_string(),
            });
        }
        let child_count = n.child_count();
        let deep = stack.len() + 1 >= MAX_TREE_DEPTH;
        nodes.push(Node {
            kind: names.kind(n.kind_id()).unwrap_or_else(|| n.kind()),
            named: n.is_named(),
            field: cursor.field_id().and_then(|f| names.field(f.get())),
            start: n.start_byte(),
            end: n.end_byte(),
            children: if deep {
                Vec::new()
            } else {
                Vec::with_capacity(child_count)
            },
            is_error,
            is_missing,
        });
        if let Some(&parent) = stack.last() {
            nodes[parent as usize].children.push(id);
        }
        let descend = if deep && child_count > 0 {
            if !skipped_deep {
                problems.push(ParseProblem::TooDeep {
                    start: n.start_byte(),
                    end: n.end_byte(),
                });
                skipped_deep = true;
            }
            false
        } else {
            true
        };
        if descend && cursor.goto_first_child() {
            stack.push(id);
            continue;
        }
        // Climb until a sibling exists.
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Ok(Tree {
                    nodes,
                    root: 0,
                    problems,
                });
            }
            stack.pop();
        }
    }
    Ok(Tree {
        nodes,
        root: 0,
        problems,
    })
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
