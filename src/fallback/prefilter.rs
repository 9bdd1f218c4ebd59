//! Literal prefilters for the fallback catalog: for each pattern, a few byte strings of which
//! any match must contain one (compared ASCII-case-insensitively). A pattern whose strings
//! are all absent from the text cannot match there, so its regex is never compiled for it:
//! compiling the whole catalog costs about 20 ms, more than the rest of a hook process.

use regex_syntax::hir::{Class, Hir, HirKind};

/// Most strings kept per node; past it the node gives no prefilter (never a wrong one).
const MAX_STRINGS: usize = 16;
/// Strings shorter than this occur in almost any command: not worth a prefilter.
const MIN_LEN: usize = 2;

/// What a sub-expression tells about the text of its matches (folded to lower case).
#[derive(Debug, Clone)]
enum Lits {
    /// Every match is exactly one of these strings.
    Exact(Vec<Vec<u8>>),
    /// Every match contains one of these strings.
    Contains(Vec<Vec<u8>>),
    /// Nothing useful is known.
    Any,
}

/// The strings one of which every match of `regex` contains (lower case), or `None` when
/// none can be told; `None` also for a regex that does not parse (the engine skips it).
pub(crate) fn required(regex: &str) -> Option<Vec<Vec<u8>>> {
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(regex)
        .ok()?;
    let set = match lits(&hir) {
        Lits::Exact(s) | Lits::Contains(s) => s,
        Lits::Any => return None,
    };
    (!set.is_empty() && set.iter().all(|s| s.len() >= MIN_LEN)).then_some(set)
}

/// Does `hay_lower` (the text in ASCII lower case) contain one of `set`?
pub(crate) fn any_in(hay_lower: &[u8], set: &[Vec<u8>]) -> bool {
    set.iter()
        .any(|s| memchr::memmem::find(hay_lower, s).is_some())
}

fn lits(h: &Hir) -> Lits {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => Lits::Exact(vec![Vec::new()]),
        HirKind::Literal(l) => Lits::Exact(vec![l.0.to_ascii_lowercase()]),
        HirKind::Class(c) => class(c),
        HirKind::Capture(c) => lits(&c.sub),
        HirKind::Repetition(r) => {
            if r.min == 0 {
                return Lits::Any;
            }
            match lits(&r.sub) {
                Lits::Exact(s) if r.min == 1 && r.max == Some(1) => Lits::Exact(s),
                Lits::Exact(s) | Lits::Contains(s) => Lits::Contains(s),
                Lits::Any => Lits::Any,
            }
        }
        HirKind::Alternation(alts) => {
            let mut exact = true;
            let mut all = Vec::new();
            for a in alts {
                match lits(a) {
                    Lits::Exact(s) => all.extend(s),
                    Lits::Contains(s) => {
                        exact = false;
                        all.extend(s);
                    }
                    Lits::Any => return Lits::Any,
                }
                if all.len() > MAX_STRINGS {
                    return Lits::Any;
                }
            }
            all.sort();
            all.dedup();
            if exact {
                Lits::Exact(all)
            } else {
                Lits::Contains(all)
            }
        }
        HirKind::Concat(parts) => concat(parts),
    }
}

/// A class of one byte, or of one ASCII letter in both cases, is that (lower-case) byte;
/// a small class is its bytes; anything larger is unknown.
fn class(c: &Class) -> Lits {
    let mut bytes: Vec<u8> = Vec::new();
    match c {
        Class::Bytes(b) => {
            for r in b.ranges() {
                for x in r.start()..=r.end() {
                    bytes.push(x.to_ascii_lowercase());
                    if bytes.len() > 2 * MAX_STRINGS {
                        return Lits::Any;
                    }
                }
            }
        }
        Class::Unicode(u) => {
            for r in u.ranges() {
                for x in r.start()..=r.end() {
                    let Ok(x) = u8::try_from(u32::from(x)) else {
                        return Lits::Any;
                    };
                    bytes.push(x.to_ascii_lowercase());
                    if bytes.len() > 2 * MAX_STRINGS {
                        return Lits::Any;
                    }
                }
            }
        }
    }
    bytes.sort_unstable();
    bytes.dedup();
    if bytes.is_empty() || bytes.len() > MAX_STRINGS {
        return Lits::Any;
    }
    Lits::Exact(bytes.into_iter().map(|b| vec![b]).collect())
}

/// Adjacent exact parts join into longer strings; the best run (the one whose shortest
/// string is longest) is what every match must contain.
fn concat(parts: &[Hir]) -> Lits {
    let mut best: Option<Vec<Vec<u8>>> = None;
    let mut run: Option<Vec<Vec<u8>>> = Some(vec![Vec::new()]);
    let mut all_exact = true;
    let consider = |best: &mut Option<Vec<Vec<u8>>>, cand: Vec<Vec<u8>>| {
        let score = |s: &[Vec<u8>]| s.iter().map(Vec::len).min().unwrap_or(0);
        if best.as_deref().is_none_or(|b| score(&cand) > score(b)) {
            *best = Some(cand);
        }
    };
    for p in parts {
        match lits(p) {
            Lits::Exact(s) => {
                run = match run {
                    Some(r) if r.len() * s.len() <= MAX_STRINGS => Some(
                        r.iter()
                            .flat_map(|a| {
                                s.iter().map(move |b| {
                                    let mut x = a.clone();
                                    x.extend_from_slice(b);
                                    x
                                })
                            })
                            .collect(),
                    ),
                    Some(r) => {
                        // Too many combinations: end this run here and start one at `s`.
                        all_exact = false;
                        consider(&mut best, r);
                        Some(s)
                    }
                    None => Some(s),
                };
            }
            other => {
                all_exact = false;
                if let Some(r) = run.take() {
                    consider(&mut best, r);
                }
                if let Lits::Contains(s) = other {
                    consider(&mut best, s);
                }
            }
        }
    }
    if all_exact {
        return Lits::Exact(run.unwrap_or_default());
    }
    if let Some(r) = run {
        consider(&mut best, r);
    }
    match best {
        Some(b) if !b.is_empty() => Lits::Contains(b),
        _ => Lits::Any,
    }
}
