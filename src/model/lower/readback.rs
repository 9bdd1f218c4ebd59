//! Reading the tree's words back against the source text, where tree-sitter-bash and bash
//! disagree about command boundaries (docs/FIDELITY.md):
//!
//! * every word after a redirect's target is put into the `file_redirect` as another
//!   `destination`; bash makes them arguments of the command (`rm 2>/dev/null -rf ~`);
//! * after some pipelines (upstream tree-sitter-bash issue #347) a newline is not seen as a
//!   separator, and the next line's words become arguments of the last stage. An unescaped
//!   newline between two words of one command is always the end of that command in bash, so
//!   the text is split there and each part parsed again.

use super::{Block, Frame, Lowerer, Source, SrcMap};
use crate::model::{Issue, IssueKind};
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
                .or_else(|| redirect_gaps_newline(src, &node.children))
        }
        // `declare -g x=1` followed by a newline is read the same way: the grammar can give
        // the next line's words to it as arguments.
        k::COMMAND | k::DECLARATION_COMMAND => {
            if has_heredoc(src, id) {
                return None;
            }
            gaps_newline(src, &node.children)
                .or_else(|| redirect_gaps_newline(src, &node.children))
                .or_else(|| {
                    node.children.iter().find_map(|&c| {
                        let n = src.tree.node(c);
                        match n.kind {
                            k::WORD => newline_in_word(src, c),
                            k::COMMAND_NAME | k::CONCATENATION => n
                                .children
                                .iter()
                                .filter(|&&w| src.tree.node(w).kind == k::WORD)
                                .find_map(|&w| newline_in_word(src, w)),
                            _ => None,
                        }
                    })
                })
        }
        _ => None,
    }
}

/// A newline between the destinations the grammar gave one file redirect (the next line's
/// words after `> file`).
fn redirect_gaps_newline(src: &Source, children: &[NodeId]) -> Option<usize> {
    children
        .iter()
        .filter(|&&c| src.tree.node(c).kind == k::FILE_REDIRECT)
        .find_map(|&c| {
            let r = src.tree.node(c);
            gaps_newline(src, &r.children).or_else(|| {
                r.children
                    .iter()
                    .filter(|&&d| src.tree.node(d).kind == k::WORD)
                    .find_map(|&d| newline_in_word(src, d))
            })
        })
}

/// An unescaped newline inside a bare `word` node (`grep x` + newline + `\rm` became the one
/// word `x\nrm`): a bare word never holds one in bash.
fn newline_in_word(src: &Source, id: NodeId) -> Option<usize> {
    let n = src.tree.node(id);
    let b = src.text.as_bytes();
    let mut i = n.start;
    while i < n.end.min(b.len()) {
        match b[i] {
            b'\\' => i += 2,
            b'\n' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

/// Text between two parts of one word that the grammar joined although they do not touch
/// (`` `date +"%a"` `hostname` `` became one concatenation): the tree is wrong there.
pub(super) fn word_gap(src: &Source, id: NodeId) -> Option<(usize, usize)> {
    let n = src.tree.node(id);
    if n.kind != k::CONCATENATION {
        return None;
    }
    let gap = n.children.windows(2).find_map(|w| {
        let (a, c) = (src.tree.node(w[0]), src.tree.node(w[1]));
        (a.end < c.start).then_some((a.end, c.start))
    });
    // An anonymous token holding a blank or a backquote (the "` `" between two backquoted
    // substitutions) is not part of any word in bash.
    gap.or_else(|| {
        n.children.iter().map(|&c| src.tree.node(c)).find_map(|c| {
            let t = src.text.get(c.start..c.end).unwrap_or("");
            (!c.named && t.contains([' ', '\t', '`'])).then_some((c.start, c.end))
        })
    })
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
        f: &mut Frame<'_>,
        (start, cut, end): (usize, usize, usize),
    ) -> Block {
        let mut out = self.lower_text(&mut f.again(), (start, cut));
        let blk = self.lower_text(f, (cut, end));
        out.then(blk);
        out
    }

    /// Parse `src.text[a..b]` again on its own and lower it as statements.
    pub(super) fn lower_text(&mut self, f: &mut Frame<'_>, (a, b): (usize, usize)) -> Block {
        let src = f.src;
        let text = src.text.get(a..b).unwrap_or("").to_string();
        let tree = match syntax::parse(&text) {
            Ok(t) => t,
            Err(e) => {
                self.script.issues.push(Issue {
                    kind: IssueKind::Internal,
                    span: src.span(a, b, self.norm),
                    message: format!("a statement split at a separator could not be parsed: {e}"),
                    origin: f.origin.clone(),
                    text,
                });
                return Block::default();
            }
        };
        let map = match src.map {
            SrcMap::Offset(o) => SrcMap::Offset(o + a),
            SrcMap::Fixed(s) => SrcMap::Fixed(s),
        };
        let sub = Source { text, tree, map };
        self.record_problems(&sub, f.origin);
        let children = sub.tree.node(sub.tree.root).children.clone();
        self.lower_statements(&mut f.reading(&sub), &children)
    }
}

/// A word bash reads in text the tree has no node for: an escaped blank (`\ `, which
/// tree-sitter-bash drops at the start of a word) or a plain word the grammar lost
/// (`python3 - <<'PY'` loses the `-`). `glued` words are the start of the next node's word.
#[derive(Debug, Clone)]
pub(super) struct Lost {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub glued: bool,
}

/// The words in the gaps between `children` (and, for `tail`, escaped blanks right after the
/// last child). `Err(span)` when a gap holds text this reading cannot decode.
pub(super) fn lost_words(
    src: &Source,
    children: &[NodeId],
    tail: bool,
) -> Result<Vec<Lost>, (usize, usize)> {
    let b = src.text.as_bytes();
    let mut out = Vec::new();
    let mut gaps: Vec<(usize, usize, Option<usize>)> = children
        .windows(2)
        .map(|w| {
            let (a, c) = (src.tree.node(w[0]), src.tree.node(w[1]));
            (a.end, c.start, Some(c.start))
        })
        .collect();
    if tail && let Some(&last) = children.last() {
        let e = src.tree.node(last).end;
        let mut j = e;
        while j < b.len() && matches!(b[j], b' ' | b'\t') {
            j += 1;
        }
        if b.get(j) == Some(&b'\\') && matches!(b.get(j + 1), Some(b' ' | b'\t')) {
            let mut k = j;
            while k + 1 < b.len() && b[k] == b'\\' && matches!(b[k + 1], b' ' | b'\t') {
                k += 2;
                while k < b.len() && matches!(b[k], b' ' | b'\t') {
                    k += 1;
                }
            }
            gaps.push((e, k, None));
        }
    }
    for (s, e, next) in gaps {
        let mut i = s;
        let e = e.min(b.len());
        while i < e {
            match b[i] {
                b' ' | b'\t' => i += 1,
                b'\\' if b.get(i + 1) == Some(&b'\n') => i += 2,
                b'#' if i == s || matches!(b[i - 1], b' ' | b'\t' | b'\n') => {
                    while i < e && b[i] != b'\n' {
                        i += 1;
                    }
                }
                b'\n' | b'\r' => i += 1,
                _ => {
                    let start = i;
                    let mut text = String::new();
                    while i < e && !matches!(b[i], b' ' | b'\t' | b'\n') {
                        match b[i] {
                            b'\\' if i + 1 < e => {
                                text.push(b[i + 1] as char);
                                i += 2;
                            }
                            b'\'' | b'"' | b'$' | b'`' | b';' | b'&' | b'|' | b'<' | b'>'
                            | b'(' | b')' | b'\\' => return Err((start, e)),
                            c if c.is_ascii() => {
                                text.push(c as char);
                                i += 1;
                            }
                            _ => return Err((start, e)),
                        }
                    }
                    let glued = next == Some(i);
                    if !glued && start == s && s > 0 {
                        // Touching the previous node: not a word of its own.
                        return Err((start, i));
                    }
                    out.push(Lost {
                        start,
                        end: i,
                        text,
                        glued,
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The line of a heredoc operator: words on it that belong to the command
/// (`cat <<EOF notes.md`), and, after a `;`, `&` or `&&`/`||` the grammar turned into an
/// ERROR, the rest of the line, which bash runs as the next command.
pub(super) fn heredoc_line(
    src: &Source,
    redirect: NodeId,
) -> (Vec<Vec<NodeId>>, Option<(usize, usize)>) {
    let node = src.tree.node(redirect);
    let mut words: Vec<Vec<NodeId>> = Vec::new();
    let Some(start) = node
        .children
        .iter()
        .map(|&c| src.tree.node(c))
        .find(|n| n.kind == k::HEREDOC_START)
    else {
        return (words, None);
    };
    let line_end = src
        .text
        .get(start.end..)
        .and_then(|r| r.find('\n'))
        .map(|i| start.end + i)
        .unwrap_or(src.text.len());
    let mut end: Option<usize> = None;
    for &c in &node.children {
        let n = src.tree.node(c);
        if n.start < start.end || n.start >= line_end {
            continue;
        }
        if n.is_error {
            let t = src.text.get(n.start..n.end).unwrap_or("").trim();
            if matches!(t, ";" | "&" | "&&" | "||") {
                return (words, Some((n.end, line_end)));
            }
            break;
        }
        if n.field == Some("argument") {
            match (end, words.last_mut()) {
                (Some(e), Some(g)) if e == n.start => g.push(c),
                _ => words.push(vec![c]),
            }
            end = Some(n.end);
        }
    }
    (words, None)
}

/// Spans of the ERROR nodes that are a separator on a heredoc's line (`cat <<'EOF' ; cmd`):
/// `heredoc_line` reads them as the separator bash sees, so they are not parse problems.
pub(super) fn heredoc_separators(src: &Source) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, n) in src.tree.nodes.iter().enumerate() {
        if n.kind != k::HEREDOC_REDIRECT {
            continue;
        }
        let Ok(id) = NodeId::try_from(i) else {
            break;
        };
        if let (_, Some((after, _))) = heredoc_line(src, id)
            && let Some(e) = n
                .children
                .iter()
                .map(|&c| src.tree.node(c))
                .find(|c| c.is_error && c.end == after)
        {
            out.push((e.start, e.end));
        }
    }
    out
}
