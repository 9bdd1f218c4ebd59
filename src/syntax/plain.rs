//! An exact fast path for the commonest text, one simple command of plain words: it builds
//! the very tree tree-sitter-bash would build, or declines (`None`) so tree-sitter runs.
//!
//! For text made only of blanks and the bytes `[A-Za-z0-9_./:,+@%=-]`, bash's parse is
//! blank-separated words with no quoting, expansion, globbing, operator or redirection, and
//! tree-sitter-bash's tree is `program > command > (command_name > word|number)` followed by
//! one `argument:` `word` or `number` per further word. Everything the lexer is not sure of
//! is declined: a first word that is a token of the grammar (reserved words, declaration and
//! `unset` builtins, operators) or holds `=` (an assignment), `+`, `@` or `%`; an argument
//! that is a punctuation token of the grammar other than `-` and `--`; a newline between
//! words (a second command); a `0x` prefix (where the grammar's `number` and `word` tokens overlap in
//! ways not worth mirroring). `tests/plain_lexer.rs` proves it equal to tree-sitter on every
//! command of the corpora and on generated word sequences.

use std::sync::atomic::{AtomicBool, Ordering};

use super::{Node, NodeId, Tree, kinds};

/// Whether [`super::parse`] may take this path; the benchmarks turn it off to show what it
/// buys (docs/PERFORMANCE.md). On unless turned off.
static ENABLED: AtomicBool = AtomicBool::new(true);

/// Turn the fast path on or off for the whole process (for measurements only).
pub fn set_enabled(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

pub(super) fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

const fn is_word_byte(b: u8) -> bool {
    matches!(b, b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'.' | b'/' | b':' | b',' | b'+' | b'@' | b'%' | b'=' | b'-')
}

/// Every anonymous token of the grammar that a plain word could spell (`if`, `export`,
/// `unset`, `-`, `=`, …), read from the grammar itself so none is forgotten. As a first word
/// each of them starts something other than a plain command, or might; they are declined.
fn grammar_tokens() -> &'static [&'static str] {
    static TOKENS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
        let lang = super::language();
        let mut v: Vec<&'static str> = (0..lang.node_kind_count())
            .filter_map(|id| u16::try_from(id).ok())
            .filter(|&id| !lang.node_kind_is_named(id))
            .filter_map(|id| lang.node_kind_for_id(id))
            .filter(|k| !k.is_empty() && k.bytes().all(is_word_byte))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    });
    &TOKENS
}

/// What tree-sitter-bash's lexer makes of one plain word: `number` for `-?[0-9]+`, `word`
/// otherwise; `None` for a `0x` prefix, where `number` (`-?(0x)?[0-9]+`) and `word` compete.
fn word_kind(w: &[u8]) -> Option<&'static str> {
    let digits = w.strip_prefix(b"-").unwrap_or(w);
    if digits.starts_with(b"0x") {
        return None;
    }
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        Some(kinds::NUMBER)
    } else {
        Some(kinds::WORD)
    }
}

fn leaf(kind: &'static str, field: Option<&'static str>, start: usize, end: usize) -> Node {
    Node {
        kind,
        named: true,
        field,
        start,
        end,
        children: Vec::new(),
        is_error: false,
        is_missing: false,
    }
}

/// The tree of `text` when it is one simple command of plain words, else `None`.
pub(super) fn parse(text: &str) -> Option<Tree> {
    let b = text.as_bytes();
    let mut words: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    let mut line_ended = false;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' => i += 1,
            b'\n' if !words.is_empty() => {
                line_ended = true;
                i += 1;
            }
            c if is_word_byte(c) && !line_ended => {
                let start = i;
                while i < b.len() && is_word_byte(b[i]) {
                    i += 1;
                }
                words.push((start, i));
            }
            _ => return None,
        }
    }
    let &(first_start, first_end) = words.first()?;
    let first = &b[first_start..first_end];
    // `=` makes an assignment; after a name, `+`, `@` and `%` send the grammar down its
    // assignment and expansion rules (`a+:`, `a@`, `a%` are ERROR trees), so all four are
    // left to tree-sitter.
    if first.iter().any(|c| matches!(c, b'=' | b'+' | b'@' | b'%')) {
        return None;
    }
    let tokens = grammar_tokens();
    if tokens
        .binary_search(&text.get(first_start..first_end)?)
        .is_ok()
    {
        return None;
    }
    // As an argument a reserved word is a plain word, but a punctuation token may not be
    // (`x ==` is an ERROR); only `-` and `--`, common and checked, are kept.
    for &(s, e) in &words[1..] {
        let w = text.get(s..e)?;
        if w != "-"
            && w != "--"
            && !w.bytes().any(|c| c.is_ascii_alphanumeric())
            && tokens.binary_search(&w).is_ok()
        {
            return None;
        }
    }
    let last_end = words.last().map_or(first_end, |w| w.1);
    let mut nodes = Vec::with_capacity(words.len() + 3);
    let mut root = leaf(kinds::PROGRAM, None, first_start, b.len());
    root.children.push(1);
    nodes.push(root);
    let mut command = leaf(kinds::COMMAND, None, first_start, last_end);
    command.children.reserve_exact(words.len());
    command.children.push(2);
    nodes.push(command);
    let mut name = leaf(kinds::COMMAND_NAME, Some("name"), first_start, first_end);
    name.children.push(3);
    nodes.push(name);
    nodes.push(leaf(word_kind(first)?, None, first_start, first_end));
    for &(s, e) in &words[1..] {
        let id = NodeId::try_from(nodes.len()).ok()?;
        nodes[1].children.push(id);
        nodes.push(leaf(word_kind(&b[s..e])?, Some("argument"), s, e));
    }
    Some(Tree {
        nodes,
        root: 0,
        problems: Vec::new(),
    })
}
