//! Token-pattern helpers shared by the language scanners: bracket matching, call arguments,
//! literal strings and lists, keyword arguments and boolean options.

use std::ops::Range;

use super::lexer::{Kind, Token};

/// Paren-less argument lists are only followed this far (in tokens).
const MAX_BARE_ARGS: usize = 64;

/// Lookups by token index that every language's scanner makes over its tokens.
pub(crate) trait View<'t> {
    fn toks(&self) -> &'t [Token];

    /// True when token `i` is the punctuation `p`.
    fn is(&self, i: usize, p: &str) -> bool {
        self.toks().get(i).is_some_and(|t| t.punct(p))
    }

    /// The identifier at `i`, if that token is one.
    fn ident(&self, i: usize) -> Option<&'t str> {
        self.toks()
            .get(i)
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| t.text.as_str())
    }

    /// Byte span from the start of token `a` to the end of token `b`.
    fn span(&self, a: usize, b: usize) -> (usize, usize) {
        let t = self.toks();
        (
            t.get(a).map_or(0, |t| t.start),
            t.get(b).map_or(0, |t| t.end),
        )
    }
}

/// The next token index after `i`, skipping tokens lexed from inside `i`'s interpolations.
pub(crate) fn next(toks: &[Token], i: usize) -> usize {
    let end = toks.get(i).map_or(0, |t| t.end);
    let mut j = i + 1;
    while toks.get(j).is_some_and(|t| t.start < end) {
        j += 1;
    }
    j
}

fn is_open(t: &Token) -> bool {
    t.kind == Kind::Punct && matches!(t.text.as_str(), "(" | "[" | "{")
}

fn is_close(t: &Token) -> bool {
    t.kind == Kind::Punct && matches!(t.text.as_str(), ")" | "]" | "}")
}

/// Index of the bracket closing the one at `open`.
pub(crate) fn matching(toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while let Some(t) = toks.get(i) {
        if is_open(t) {
            depth += 1;
        } else if is_close(t) {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(i);
            }
        }
        i = next(toks, i);
    }
    None
}

/// Splits `r` at its top-level commas.
pub(crate) fn split(toks: &[Token], r: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut depth, mut from, mut i) = (0usize, r.start, r.start);
    while i < r.end {
        let Some(t) = toks.get(i) else { break };
        if is_open(t) {
            depth += 1;
        } else if is_close(t) {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && t.punct(",") {
            if from < i {
                out.push(from..i);
            }
            from = i + 1;
        }
        i = next(toks, i);
    }
    if from < r.end.min(toks.len()) {
        out.push(from..r.end.min(toks.len()));
    }
    out
}

/// The arguments of the call whose `(` is at `open`, and the index of its `)`.
pub(crate) fn args(toks: &[Token], open: usize) -> Option<(Vec<Range<usize>>, usize)> {
    if !toks.get(open)?.punct("(") {
        return None;
    }
    let close = matching(toks, open)?;
    Some((split(toks, open + 1..close), close))
}

/// End (exclusive) of paren-less arguments starting at `from`: the first top-level token that
/// `stop` accepts, or a bracket closing something opened before `from`. None past
/// `MAX_BARE_ARGS` tokens, so that a statement of many names stays linear to scan.
pub(crate) fn bare_end(
    toks: &[Token],
    from: usize,
    stop: impl Fn(&Token) -> bool,
) -> Option<usize> {
    let (mut depth, mut i) = (0usize, from);
    let limit = from.saturating_add(MAX_BARE_ARGS);
    while let Some(t) = toks.get(i) {
        if i >= limit {
            return None;
        }
        if is_open(t) {
            depth += 1;
        } else if is_close(t) {
            match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => break,
            }
        } else if depth == 0 && stop(t) {
            break;
        }
        i = next(toks, i);
    }
    Some(i)
}

/// Byte span of the tokens in `r`.
pub(crate) fn span(toks: &[Token], r: &Range<usize>) -> (usize, usize) {
    let start = toks.get(r.start).map_or(0, |t| t.start);
    let end = r
        .end
        .checked_sub(1)
        .and_then(|i| toks.get(i))
        .map_or(start, |t| t.end);
    (start, end)
}

/// The value of `r` when it is literal strings joined by one of `joins` (or adjacent).
pub(crate) fn lit(
    toks: &[Token],
    r: &Range<usize>,
    joins: &[&str],
    adjacent: bool,
) -> Option<String> {
    let mut r = r.clone();
    while r.len() >= 2
        && toks.get(r.start)?.punct("(")
        && matching(toks, r.start) == Some(r.end - 1)
    {
        r = r.start + 1..r.end - 1;
    }
    let (mut out, mut want, mut i) = (String::new(), true, r.start);
    while i < r.end {
        let t = toks.get(i)?;
        if t.kind == Kind::Nl {
        } else if let (true, Some(s)) = (want || adjacent, t.lit()) {
            out.push_str(s);
            want = false;
        } else if !want && t.kind == Kind::Punct && joins.contains(&t.text.as_str()) {
            want = true;
        } else {
            return None;
        }
        i = next(toks, i);
    }
    (!want).then_some(out)
}

/// Literal items of several arguments, word lists expanded; None if any is not literal.
pub(crate) fn lit_items(
    toks: &[Token],
    rs: &[Range<usize>],
    joins: &[&str],
) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for r in rs {
        match toks.get(r.start) {
            Some(t) if t.kind == Kind::Words && r.len() == 1 => {
                out.extend(t.text.split_whitespace().map(str::to_string));
            }
            _ => out.push(lit(toks, r, joins, true)?),
        }
    }
    Some(out)
}

/// A literal list: `[..]`, `(..)`, `array(..)` of literal strings, or a word list.
pub(crate) fn lit_list(toks: &[Token], r: &Range<usize>, joins: &[&str]) -> Option<Vec<String>> {
    let mut start = r.start;
    let first = toks.get(start)?;
    if first.kind == Kind::Words && r.len() == 1 {
        return lit_items(toks, std::slice::from_ref(r), joins);
    }
    if first.ident("array") {
        start += 1;
    }
    let open = toks.get(start)?;
    if !(open.punct("[") || open.punct("(")) || matching(toks, start)? + 1 != r.end {
        return None;
    }
    lit_items(toks, &split(toks, start + 1..r.end - 1), joins)
}

/// The value of keyword argument `key` (`key=v`, `key: v`, `key => v`) among `args`.
pub(crate) fn kwarg(toks: &[Token], args: &[Range<usize>], key: &str) -> Option<Range<usize>> {
    args.iter().find_map(|a| {
        let k = toks.get(a.start)?;
        let sep = toks.get(a.start + 1)?;
        let named =
            (k.kind == Kind::Ident || k.kind == Kind::Sym || k.lit().is_some()) && k.text == key;
        (named && ["=", ":", "=>"].iter().any(|s| sep.punct(s))).then(|| a.start + 2..a.end)
    })
}

/// Arguments that are not keyword arguments.
pub(crate) fn positional(toks: &[Token], args: &[Range<usize>]) -> Vec<Range<usize>> {
    let is_kw = |a: &Range<usize>| {
        toks.get(a.start).is_some_and(|t| t.kind == Kind::Ident)
            && toks
                .get(a.start + 1)
                .is_some_and(|t| t.punct("=") || t.punct(":"))
    };
    args.iter().filter(|a| !is_kw(a)).cloned().collect()
}

/// True when the tokens in `r` set option `key` to true (`key: true`, `key=True`, `{key}`).
pub(crate) fn opt_true(toks: &[Token], r: &Range<usize>, key: &str) -> bool {
    (r.start..r.end).any(|i| {
        let Some(t) = toks.get(i) else { return false };
        if !((t.kind == Kind::Ident || t.lit().is_some()) && t.text == key) {
            return false;
        }
        let after = |k: usize| toks.get(i + k);
        if after(1).is_some_and(|s| s.punct(":") || s.punct("=") || s.punct("=>")) {
            return after(2).is_some_and(|v| v.ident("true") || v.ident("True") || v.text == "1");
        }
        let before = i.checked_sub(1).and_then(|b| toks.get(b));
        before.is_some_and(|b| b.punct("{") || b.punct(","))
            && after(1).is_some_and(|a| a.punct("}") || a.punct(","))
    })
}
