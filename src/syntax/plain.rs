//! An exact fast path for the commonest text, plain simple commands and the lists, pipelines
//! and `> file` redirections joining them: it builds the very tree tree-sitter-bash would
//! build, or declines (`None`) so tree-sitter runs.
//!
//! A command is blank-separated words of the bytes `[A-Za-z0-9_./:,+@%=-]`; for bash such a
//! word has no quoting, expansion or globbing, and tree-sitter-bash's tree for the command is
//! `command > (name: command_name > word|number)` then one `argument:` `word` or `number` per
//! further word. Commands are joined by `&&` and `||` (a `list`, nested to the left), `|` and
//! `|&` (one flat `pipeline`), may be followed by `> word` (a `redirected_statement` with a
//! `file_redirect`), and end statements at `;`, `&` or a newline (children of `program`; a
//! newline after `&&`, `||`, `|` continues the statement). The grammar's tree for a redirect
//! is not bash's: `> f` wraps everything to its left in the statement (`a && b > f` is
//! `redirected_statement(list(a, b), > f)`), and a `|` after it pipes that whole statement;
//! the fast path builds the grammar's shape, since it must equal tree-sitter, not bash.
//!
//! Everything the lexer is not sure of is declined: a first word that is a token of the
//! grammar (reserved words, declaration and `unset` builtins, operators) or holds `=` (an
//! assignment), `+`, `@` or `%`; an argument or redirect target that is a punctuation token
//! of the grammar other than `-` and `--`; a `0x` prefix (where the grammar's `number` and
//! `word` tokens overlap in ways not worth mirroring); a `>` not preceded by a blank (`2>f`
//! names a file descriptor), or followed by a word and then another word; `;;`, `;&`, `&>`,
//! an operator with no command after it, a leading newline, anything else. The tree is cut
//! at the same depth and node count as tree-sitter's copy, by the same builder
//! (`super::Builder`), so a long chain gives the same tree and the same problems.
//! `tests/plain_lexer.rs` proves it equal to tree-sitter on every command of the corpora,
//! on generated word and operator sequences and on long chains past the depth cut.
//!
//! This is no second bash lexer: quoting, substitutions and heredocs are never lexed here
//! (their first byte is outside the word class, so the text is declined and `crate::scan`,
//! the one text lexer, and tree-sitter see it). What the fast path reads instead is the
//! grammar's own tokens, which `scan`'s separators do not give exactly (`;;`, `;&`, `&>`, a
//! `>` after a word, where the grammar's tree is not bash's), and it reads them in the same
//! single pass that builds the tree.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{Builder, Node, NodeId, Step, Tree, kinds};

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

const fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t')
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

/// Whether a word may stand after the first word of a command (as an argument or a redirect
/// target): a reserved word is a plain word there, but a punctuation token may not be
/// (`x ==` is an ERROR); only `-` and `--`, common and checked, are kept.
fn plain_after_first(w: &str) -> bool {
    w == "-"
        || w == "--"
        || w.bytes().any(|c| c.is_ascii_alphanumeric())
        || grammar_tokens().binary_search(&w).is_err()
}

/// Whether a word may start a command (see the module doc).
fn plain_first(w: &str) -> bool {
    // `=` makes an assignment; after a name, `+`, `@` and `%` send the grammar down its
    // assignment and expansion rules (`a+:`, `a@`, `a%` are ERROR trees), so all four are
    // left to tree-sitter.
    !w.bytes().any(|c| matches!(c, b'=' | b'+' | b'@' | b'%'))
        && grammar_tokens().binary_search(&w).is_err()
}

/// An anonymous token (an operator) at a byte offset.
#[derive(Clone, Copy)]
struct Tok {
    kind: &'static str,
    start: usize,
}

#[derive(Clone, Copy)]
struct Word {
    start: usize,
    end: usize,
    kind: &'static str,
}

/// One statement-level node of the parse, its children by index into [`Parse`]'s tables.
enum Shape {
    /// `words[range]`, the first the command name.
    Command(Range<usize>),
    List {
        left: usize,
        op: Tok,
        right: usize,
    },
    /// The first stage, then `(operator, stage)` pairs in `pipe_rest[range]`.
    Pipeline {
        first: usize,
        rest: Range<usize>,
    },
    /// `redirects[range]` applied to `body`.
    Redirected {
        body: usize,
        redirects: Range<usize>,
    },
}

struct Statement {
    shape: Shape,
    start: usize,
    end: usize,
}

/// A `>` at `gt` and its target.
struct Redirect {
    gt: usize,
    target: Word,
}

/// A node of the tree to build, named by where its parts are in [`Parse`].
#[derive(Clone, Copy)]
enum Item {
    Program,
    Statement(usize, Option<&'static str>),
    Tok(Tok),
    CommandName(usize),
    Word(usize, Option<&'static str>),
    Redirect(usize),
    Target(usize),
}

/// The whole text lexed and structured, before the owned tree is built from it.
#[derive(Default)]
struct Parse {
    words: Vec<Word>,
    statements: Vec<Statement>,
    pipe_rest: Vec<(Tok, usize)>,
    redirects: Vec<Redirect>,
    /// The children of `program`: statements and their `;`/`&` terminators.
    program: Vec<Item>,
}

/// The tree of `text` when it is plain commands joined as the module doc says, else `None`.
pub(super) fn parse(text: &str) -> Option<Tree> {
    let p = Lexer::run(text)?;
    let mut out = Builder::new(
        text.len(),
        p.words.len() * 2 + p.statements.len() + p.program.len() + 1,
    );
    p.emit(text, &mut out, Item::Program, 0, None);
    Some(out.finish())
}

struct Lexer<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    p: Parse,
}

impl<'a> Lexer<'a> {
    fn run(text: &'a str) -> Option<Parse> {
        let mut lx = Lexer {
            text,
            b: text.as_bytes(),
            i: 0,
            p: Parse::default(),
        };
        lx.skip_blanks();
        loop {
            if !lx.at_word() {
                return None;
            }
            let (s, long_pipeline) = lx.statement()?;
            lx.p.program.push(Item::Statement(s, None));
            lx.skip_blanks();
            match lx.peek(0) {
                None => break,
                Some(b'\n') if long_pipeline => {
                    lx.skip_blanks_and_newlines();
                    if lx.i < lx.b.len() {
                        return None;
                    }
                    break;
                }
                Some(b'\n') => {}
                Some(c @ (b';' | b'&')) => {
                    // `;;`, `;&`, `;;&` end case items; `&>` is a redirect.
                    if matches!(lx.peek(1), Some(b';' | b'&' | b'>')) {
                        return None;
                    }
                    let kind = if c == b';' { ";" } else { "&" };
                    lx.p.program.push(Item::Tok(Tok { kind, start: lx.i }));
                    lx.i += 1;
                }
                Some(_) => return None,
            }
            lx.skip_blanks_and_newlines();
            if lx.i == lx.b.len() {
                break;
            }
        }
        Some(lx.p)
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.b.get(self.i + ahead).copied()
    }

    fn at_word(&self) -> bool {
        self.peek(0).is_some_and(is_word_byte)
    }

    fn skip_blanks(&mut self) {
        while self.peek(0).is_some_and(is_blank) {
            self.i += 1;
        }
    }

    fn skip_blanks_and_newlines(&mut self) {
        while self.peek(0).is_some_and(|c| is_blank(c) || c == b'\n') {
            self.i += 1;
        }
    }

    fn word(&mut self) -> Option<Word> {
        let start = self.i;
        while self.at_word() {
            self.i += 1;
        }
        Some(Word {
            start,
            end: self.i,
            kind: word_kind(&self.b[start..self.i])?,
        })
    }

    fn add(&mut self, shape: Shape, start: usize, end: usize) -> usize {
        self.p.statements.push(Statement { shape, start, end });
        self.p.statements.len() - 1
    }

    /// One command's words, stopping right after the last (trailing blanks are not its).
    fn command(&mut self) -> Option<usize> {
        let first = self.p.words.len();
        loop {
            let w = self.word()?;
            let ok = if self.p.words.len() == first {
                plain_first(self.text.get(w.start..w.end)?)
            } else {
                plain_after_first(self.text.get(w.start..w.end)?)
            };
            if !ok {
                return None;
            }
            self.p.words.push(w);
            let mut j = self.i;
            while self.b.get(j).copied().is_some_and(is_blank) {
                j += 1;
            }
            if !self.b.get(j).copied().is_some_and(is_word_byte) {
                break;
            }
            self.i = j;
        }
        let start = self.p.words[first].start;
        Some(self.add(Shape::Command(first..self.p.words.len()), start, self.i))
    }

    /// The statement so far as one node: the open pipeline `stages` (one stage is itself),
    /// under the list `left` is waiting to be closed with.
    fn close(
        &mut self,
        left: Option<(usize, Tok)>,
        stages: &mut Vec<(Tok, usize)>,
    ) -> Option<usize> {
        let mut it = stages.drain(..);
        let (_, first) = it.next()?;
        let from = self.p.pipe_rest.len();
        self.p.pipe_rest.extend(it);
        let to = self.p.pipe_rest.len();
        let right = if from == to {
            first
        } else {
            let (start, end) = (
                self.p.statements[first].start,
                self.p.statements[self.p.pipe_rest[to - 1].1].end,
            );
            self.add(
                Shape::Pipeline {
                    first,
                    rest: from..to,
                },
                start,
                end,
            )
        };
        Some(match left {
            None => right,
            Some((left, op)) => {
                let (start, end) = (self.p.statements[left].start, self.p.statements[right].end);
                self.add(Shape::List { left, op, right }, start, end)
            }
        })
    }

    /// One statement, up to (not including) its terminator or the end of the text, and
    /// whether it holds a pipeline of three or more stages.
    fn statement(&mut self) -> Option<(usize, bool)> {
        let mut left: Option<(usize, Tok)> = None;
        // The open pipeline's stages, each with the operator before it (a dummy for the first).
        let mut stages: Vec<(Tok, usize)> = Vec::new();
        let mut pipe = Tok { kind: "", start: 0 };
        // The grammar's `[$.pipeline]` conflict (docs/PERFORMANCE.md, "pipeline cliff") makes
        // trees of pipelines of three or more stages that are not mirrored: a statement
        // opening with one and going on with `&&`/`||` is parsed as
        // `pipeline(a, |, list(pipeline(b, |, c), &&, d))`, and words on the lines after one
        // can join its last command (`a | b | c` newline `d && e` puts `d` in `c`'s words).
        // Such statements are declined, and so is any text going on after a newline that
        // ends a statement holding such a pipeline.
        let (mut long, mut long_first) = (false, false);
        loop {
            let cmd = self.command()?;
            stages.push((pipe, cmd));
            if stages.len() >= 3 {
                long = true;
                long_first |= left.is_none();
            }
            // The redirected statement the next `>` adds to (`a > f > g` is one).
            let mut redirected: Option<usize> = None;
            loop {
                let before = self.i;
                self.skip_blanks();
                let at = self.i;
                match (self.peek(0), self.peek(1)) {
                    (Some(b'>'), _) if at > before => {
                        self.i += 1;
                        self.skip_blanks();
                        if !self.at_word() {
                            return None;
                        }
                        let target = self.word()?;
                        if !plain_after_first(self.text.get(target.start..target.end)?) {
                            return None;
                        }
                        self.p.redirects.push(Redirect { gt: at, target });
                        let r = self.p.redirects.len() - 1;
                        match redirected {
                            Some(s) => {
                                let st = &mut self.p.statements[s];
                                st.end = target.end;
                                if let Shape::Redirected { redirects, .. } = &mut st.shape {
                                    redirects.end = r + 1;
                                }
                            }
                            None => {
                                let body = self.close(left.take(), &mut stages)?;
                                let start = self.p.statements[body].start;
                                let s = self.add(
                                    Shape::Redirected {
                                        body,
                                        redirects: r..r + 1,
                                    },
                                    start,
                                    target.end,
                                );
                                stages.push((pipe, s));
                                redirected = Some(s);
                            }
                        }
                    }
                    (Some(b'&'), Some(b'&')) | (Some(b'|'), Some(b'|')) => {
                        if long_first {
                            return None;
                        }
                        let kind = if self.peek(0) == Some(b'&') {
                            "&&"
                        } else {
                            "||"
                        };
                        let l = self.close(left.take(), &mut stages)?;
                        left = Some((l, Tok { kind, start: at }));
                        self.i += 2;
                        break;
                    }
                    (Some(b'|'), next) => {
                        let kind = if next == Some(b'&') { "|&" } else { "|" };
                        pipe = Tok { kind, start: at };
                        self.i += kind.len();
                        break;
                    }
                    _ => {
                        self.i = before;
                        return Some((self.close(left, &mut stages)?, long));
                    }
                }
            }
            self.skip_blanks_and_newlines();
            if !self.at_word() {
                return None;
            }
        }
    }
}

impl Parse {
    fn statement(&self, s: usize) -> &Statement {
        &self.statements[s]
    }

    /// The node `item` stands for, without its children, and how many children it has.
    fn head(&self, text: &str, item: Item) -> (Node, usize) {
        let named = |kind, field, start, end| Node {
            kind,
            named: true,
            field,
            start,
            end,
            children: Vec::new(),
            is_error: false,
            is_missing: false,
        };
        match item {
            Item::Program => {
                let start = match self.program.first() {
                    Some(&Item::Statement(s, _)) => self.statement(s).start,
                    _ => 0,
                };
                (
                    named(kinds::PROGRAM, None, start, text.len()),
                    self.program.len(),
                )
            }
            Item::Statement(s, field) => {
                let st = self.statement(s);
                let (kind, count) = match &st.shape {
                    Shape::Command(words) => (kinds::COMMAND, words.len()),
                    Shape::List { .. } => (kinds::LIST, 3),
                    Shape::Pipeline { rest, .. } => (kinds::PIPELINE, 1 + 2 * rest.len()),
                    Shape::Redirected { redirects, .. } => {
                        (kinds::REDIRECTED_STATEMENT, 1 + redirects.len())
                    }
                };
                (named(kind, field, st.start, st.end), count)
            }
            Item::Tok(t) => (
                Node {
                    named: false,
                    ..named(t.kind, None, t.start, t.start + t.kind.len())
                },
                0,
            ),
            Item::CommandName(w) => {
                let w = self.words[w];
                (named(kinds::COMMAND_NAME, Some("name"), w.start, w.end), 1)
            }
            Item::Word(w, field) => {
                let w = self.words[w];
                (named(w.kind, field, w.start, w.end), 0)
            }
            Item::Redirect(r) => {
                let r = &self.redirects[r];
                (
                    named(kinds::FILE_REDIRECT, Some("redirect"), r.gt, r.target.end),
                    2,
                )
            }
            Item::Target(r) => {
                let t = self.redirects[r].target;
                (named(t.kind, Some("destination"), t.start, t.end), 0)
            }
        }
    }

    /// The `i`-th child of `item` (below its child count from [`Parse::head`]).
    fn child(&self, item: Item, i: usize) -> Item {
        match item {
            Item::Program => self.program[i],
            Item::Statement(s, _) => match &self.statement(s).shape {
                Shape::Command(words) if i == 0 => Item::CommandName(words.start),
                Shape::Command(words) => Item::Word(words.start + i, Some("argument")),
                Shape::List { left, op, right } => match i {
                    0 => Item::Statement(*left, None),
                    1 => Item::Tok(*op),
                    _ => Item::Statement(*right, None),
                },
                Shape::Pipeline { first, .. } if i == 0 => Item::Statement(*first, None),
                Shape::Pipeline { rest, .. } => {
                    let (op, stage) = self.pipe_rest[rest.start + (i - 1) / 2];
                    if i % 2 == 1 {
                        Item::Tok(op)
                    } else {
                        Item::Statement(stage, None)
                    }
                }
                Shape::Redirected { body, .. } if i == 0 => Item::Statement(*body, Some("body")),
                Shape::Redirected { redirects, .. } => Item::Redirect(redirects.start + i - 1),
            },
            Item::CommandName(w) => Item::Word(w, None),
            Item::Redirect(r) if i == 0 => Item::Tok(Tok {
                kind: ">",
                start: self.redirects[r].gt,
            }),
            Item::Redirect(r) => Item::Target(r),
            Item::Tok(_) | Item::Word(..) | Item::Target(_) => item,
        }
    }

    /// Builds `item` and its subtree in pre-order; false once the builder stops taking nodes.
    /// The recursion is bounded: the builder never descends below `MAX_TREE_DEPTH`.
    fn emit(
        &self,
        text: &str,
        out: &mut Builder,
        item: Item,
        depth: usize,
        parent: Option<NodeId>,
    ) -> bool {
        let (node, count) = self.head(text, item);
        match out.visit(node, count, depth, parent) {
            Step::Stop => false,
            Step::Skip => true,
            Step::Descend(id) => {
                (0..count).all(|i| self.emit(text, out, self.child(item, i), depth + 1, Some(id)))
            }
        }
    }
}
