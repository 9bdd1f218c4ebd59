//! Reading the tree's words back against the source text, where tree-sitter-bash and bash
//! disagree about command boundaries (docs/FIDELITY.md):
//!
//! * every word after a redirect's target is put into the `file_redirect` as another
//!   `destination`; bash makes them arguments of the command (`rm 2>/dev/null -rf ~`);
//! * after some pipelines (upstream tree-sitter-bash issue #347) a newline is not seen as a
//!   separator, and the next line's words become arguments of the last stage. An unescaped
//!   newline between two words of one command is always the end of that command in bash, so
//!   the text is split there and each part parsed again.

use super::{Block, Lowerer, Source, SrcMap};
use crate::model::env::Env;
use crate::model::{Issue, IssueKind, Origin};
use crate::syntax::{self, NodeId, kinds as k};

/// The offset of the first newline that bash would take as the end of a command but the tree
/// reads as whitespace between two of its words, at this statement's own level (nested
/// bodies are checked when they are lowered).
pub(super) fn misread_newline(src: &Source, id: NodeId) -> Option<usize> {
    let node = src.tree.node(id);
    match node.kind {
        k::PIPELINE | k::LIST | k::NEGATED_COMMAND => {
            node.children.iter().find_map(|&c| misread_newline(src, c))
        }
        k::REDIRECTED_STATEMENT => {
            if has_heredoc(src, id) {
                return None;
            }
            let body = src.tree.child_by_field(id, "body");
            body.and_then(|b| misread_newline(src, b))
                .or_else(|| gaps_newline(src, &node.children))
        }
        k::COMMAND => {
            if has_heredoc(src, id) {
                return None;
            }
            gaps_newline(src, &node.children)
        }
        _ => None,
    }
}

fn has_heredoc(src: &Source, id: NodeId) -> bool {
    let node = src.tree.node(id);
    node.kind == k::HEREDOC_REDIRECT || node.children.iter().any(|&c| has_heredoc(src, c))
}

/// An unescaped newline in the text between consecutive children (blanks, `\`+newline and
/// comments are all the text a gap between words can hold).
fn gaps_newline(src: &Source, children: &[NodeId]) -> Option<usize> {
    let b = src.text.as_bytes();
    for w in children.windows(2) {
        let (a, c) = (src.tree.node(w[0]), src.tree.node(w[1]));
        let (mut i, end) = (a.end, c.start.min(b.len()));
        while i < end {
            match b[i] {
                b'\\' if b.get(i + 1) == Some(&b'\n') => i += 2,
                b'\\' if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') => i += 3,
                b'\n' => return Some(i),
                b'#' => {
                    // A comment runs to the end of the line, and that newline ends the command.
                    while i < end && b[i] != b'\n' {
                        i += 1;
                    }
                }
                _ => i += 1,
            }
        }
    }
    None
}

/// Words the grammar put into a redirect after its target: arguments of the command in bash.
/// Grouped as words (nodes that touch form one word). A number that touches the next
/// redirect is that redirect's file descriptor (`>& f 0>&1`), not a word.
pub(super) fn redirect_words(
    src: &Source,
    redirect: NodeId,
    next_sibling: Option<NodeId>,
) -> Vec<Vec<NodeId>> {
    let node = src.tree.node(redirect);
    if node.kind != k::FILE_REDIRECT {
        return Vec::new();
    }
    let dest: Vec<NodeId> = node
        .children
        .iter()
        .copied()
        .filter(|&c| src.tree.node(c).field == Some("destination"))
        .collect();
    let mut groups: Vec<Vec<NodeId>> = Vec::new();
    let mut end: Option<usize> = None;
    for d in dest {
        let n = src.tree.node(d);
        match (end, groups.last_mut()) {
            (Some(e), Some(g)) if e == n.start => g.push(d),
            _ => groups.push(vec![d]),
        }
        end = Some(n.end);
    }
    if groups.len() <= 1 {
        return Vec::new();
    }
    let mut words = groups.split_off(1);
    if let (Some(last), Some(next)) = (words.last(), next_sibling) {
        let (l, nx) = (
            src.tree.node(*last.last().unwrap_or(&redirect)),
            src.tree.node(next),
        );
        let digits = src
            .text
            .get(l.start..l.end)
            .is_some_and(|t| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit()));
        if last.len() == 1 && digits && l.end == nx.start && is_redirect(nx.kind) {
            words.pop();
        }
    }
    words
}

pub(super) fn is_redirect(kind: &str) -> bool {
    matches!(
        kind,
        k::FILE_REDIRECT | k::HEREDOC_REDIRECT | k::HERESTRING_REDIRECT
    )
}

/// The simple command that ends where a trailing redirect of `id` begins: the command its
/// stray words belong to in bash. `None` for compound commands (bash rejects words there).
pub(super) fn last_simple_command(src: &Source, id: NodeId) -> Option<NodeId> {
    let node = src.tree.node(id);
    match node.kind {
        k::COMMAND => Some(id),
        k::REDIRECTED_STATEMENT => src
            .tree
            .child_by_field(id, "body")
            .and_then(|b| last_simple_command(src, b)),
        k::PIPELINE | k::NEGATED_COMMAND => node
            .children
            .iter()
            .rev()
            .find(|&&c| src.tree.node(c).named && src.tree.node(c).kind != k::COMMENT)
            .and_then(|&c| last_simple_command(src, c)),
        _ => None,
    }
}

impl Lowerer<'_> {
    /// Lower a statement the tree misread at `cut` as two pieces of text, each parsed again:
    /// `[start, cut)` and `[cut, end)`.
    pub(super) fn lower_resplit(
        &mut self,
        src: &Source,
        (start, cut, end): (usize, usize, usize),
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
    ) -> Block {
        let mut out = Block::empty_output();
        for (a, b) in [(start, cut), (cut, end)] {
            let text = src.text.get(a..b).unwrap_or("").to_string();
            let tree = match syntax::parse(&text) {
                Ok(t) => t,
                Err(e) => {
                    self.script.issues.push(Issue {
                        kind: IssueKind::Internal,
                        span: src.span(a, b, self.norm),
                        message: format!("a statement split at a newline could not be parsed: {e}"),
                        origin: origin.clone(),
                        text,
                    });
                    out.output = None;
                    continue;
                }
            };
            let map = match src.map {
                SrcMap::Offset(o) => SrcMap::Offset(o + a),
                SrcMap::Fixed(s) => SrcMap::Fixed(s),
            };
            let sub = Source { text, tree, map };
            self.record_problems(&sub, origin);
            let children = sub.tree.node(sub.tree.root).children.clone();
            let blk = self.lower_statements(&sub, &children, env, origin, stdin.clone());
            out.then(blk);
        }
        out
    }
}
