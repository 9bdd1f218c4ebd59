//! Comparing what bash executed with the lowered model: every argv bash ran must match one of
//! the model's simple commands (with its wrappers peeled or not); unknown words match
//! anything, a wholly unknown word may vanish, and an unquoted glob may expand.

use shellgate::model::{Command, Piece, Script, Word};

/// One model word as a pattern over bash's fields.
#[derive(Debug, Clone)]
pub(crate) enum Elem {
    /// A known word: exactly one field with this text.
    Exact(String),
    /// A known word with unquoted glob characters: the text itself, or one or more fields
    /// that match the pattern (the sandbox's files).
    Glob { pat: Vec<GlobTok>, lit: String },
    /// A word with parts known only at run time: any fields, at least `min` of them.
    Any { min: usize },
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum GlobTok {
    Ch(char),
    Star,
    Question,
    /// A bracket expression, kept loose: matches any one character.
    Class,
}

/// The pattern of one word.
pub(crate) fn elem(w: &Word) -> Elem {
    // A substitution's output in the sandbox is what its stubs print (nothing): the word's
    // value there says nothing about the model's.
    if !w.substitutions.is_empty() {
        return Elem::Any { min: 0 };
    }
    let known = w.pieces.iter().all(|p| matches!(p, Piece::Lit { .. }));
    if !known {
        let wholly = w.pieces.iter().all(|p| match p {
            Piece::Unknown { .. } => true,
            Piece::Lit { text, .. } => text.is_empty(),
        });
        return Elem::Any {
            min: usize::from(!wholly),
        };
    }
    let mut pat = Vec::new();
    let mut globby = false;
    let mut lit = String::new();
    for p in &w.pieces {
        if let Piece::Lit { text, quoted } = p {
            lit.push_str(text);
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if *quoted {
                    pat.push(GlobTok::Ch(c));
                    continue;
                }
                match c {
                    '*' => {
                        globby = true;
                        pat.push(GlobTok::Star);
                    }
                    '?' => {
                        globby = true;
                        pat.push(GlobTok::Question);
                    }
                    '[' if text.contains(']') => {
                        globby = true;
                        for d in chars.by_ref() {
                            if d == ']' {
                                break;
                            }
                        }
                        pat.push(GlobTok::Class);
                    }
                    _ => pat.push(GlobTok::Ch(c)),
                }
            }
        }
    }
    if globby {
        Elem::Glob { pat, lit }
    } else {
        Elem::Exact(lit)
    }
}

fn glob_match(p: &[GlobTok], s: &[char]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((GlobTok::Star, rest)) => (0..=s.len()).any(|i| glob_match(rest, &s[i..])),
        Some((GlobTok::Question | GlobTok::Class, rest)) => {
            !s.is_empty() && glob_match(rest, &s[1..])
        }
        Some((GlobTok::Ch(c), rest)) => s.first() == Some(c) && glob_match(rest, &s[1..]),
    }
}

fn base(s: &str) -> &str {
    s.rsplit('/').next().unwrap_or(s)
}

/// Does the pattern sequence match `argv` exactly (the first word by basename)?
pub(crate) fn seq_match(elems: &[Elem], argv: &[String]) -> bool {
    fn go(e: &[Elem], a: &[String], first: bool) -> bool {
        let Some((head, rest)) = e.split_first() else {
            return a.is_empty();
        };
        let eq = |x: &str, y: &str| if first { base(x) == base(y) } else { x == y };
        match head {
            Elem::Exact(t) => a.first().is_some_and(|f| eq(t, f)) && go(rest, &a[1..], false),
            Elem::Glob { pat, lit } => {
                if a.first().is_some_and(|f| eq(lit, f)) && go(rest, &a[1..], false) {
                    return true;
                }
                let mut n = 0;
                while n < a.len() {
                    let f: Vec<char> = a[n].chars().collect();
                    let fb: Vec<char> = base(&a[n]).chars().collect();
                    if !(glob_match(pat, &f) || (first && glob_match(pat, &fb))) {
                        break;
                    }
                    n += 1;
                    if go(rest, &a[n..], false) {
                        return true;
                    }
                }
                false
            }
            Elem::Any { min } => (*min..=a.len()).any(|n| go(rest, &a[n..], false)),
        }
    }
    go(elems, argv, true)
}

/// The argv forms of a model command: with every suffix of its wrapper chain in front.
pub(crate) fn forms(c: &Command) -> Vec<Vec<Elem>> {
    // A wrapper given no command (`sudo -i`, `su - bob`) starts a shell the model names with
    // the wrapper's own span; bash's argv holds no word for it.
    let implicit = c
        .wrappers
        .last()
        .zip(c.argv.first())
        .is_some_and(|(w, p)| p.span.start == w.span.start);
    let mut inner: Vec<Elem> = c
        .argv
        .iter()
        .skip(usize::from(implicit))
        .map(elem)
        .collect();
    // The command alone is one form; a shell only a wrapper names has none of its own.
    let mut out = Vec::new();
    if !implicit && !inner.is_empty() {
        out.push(inner.clone());
    }
    // A wrapper whose command the model took as code (`su -c CODE`, `watch 'CODE'`) keeps
    // only its options: the code follows in bash's argv.
    if inner.is_empty() && !implicit {
        inner.push(Elem::Any { min: 0 });
    }
    for i in (0..c.wrappers.len()).rev() {
        let mut f = Vec::new();
        for w in &c.wrappers[i..] {
            f.push(Elem::Exact(w.name.clone()));
            f.extend(w.args.iter().map(|a| {
                if a.contains('\u{fffd}') || a.is_empty() {
                    Elem::Any { min: 0 }
                } else {
                    Elem::Exact(a.clone())
                }
            }));
        }
        f.extend(inner.iter().cloned());
        out.push(f);
    }
    out
}

/// How a logged argv relates to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// Some command (or wrapped form) matches it exactly.
    Exact,
    /// bash ran a wrapper the model peeled and the wrapped command matches the argv's tail
    /// (`env -S`, `xargs`, wrapper options the model normalises).
    Wrapped,
    Missing,
}

pub(crate) fn find(script: &Script, argv: &[String]) -> Found {
    let mut wrapped = false;
    for c in &script.commands {
        if c.argv.is_empty() && c.wrappers.is_empty() {
            continue;
        }
        for f in forms(c) {
            if seq_match(&f, argv) {
                return Found::Exact;
            }
        }
        if !wrapped
            && let Some(first) = argv.first()
            && c.wrappers.iter().any(|w| base(&w.name) == base(first))
        {
            let inner: Vec<Elem> = c.argv.iter().map(elem).collect();
            // xargs and parallel add arguments from their input to the command they run, and
            // run `echo` when given none.
            let builds = matches!(base(first), "xargs" | "parallel");
            if builds && c.argv.first().and_then(|w| w.lit()).as_deref() == Some("echo") {
                let mut f = forms(c);
                f.retain(|f| f.len() > c.argv.len());
                for mut f in f {
                    f.truncate(f.len() - c.argv.len());
                    if seq_match(&f, argv) {
                        return Found::Wrapped;
                    }
                }
            }
            wrapped = (1..argv.len()).any(|s| {
                seq_match(&inner, &argv[s..])
                    || builds
                        && argv[s..].first().is_some_and(|p| {
                            inner.first().is_some_and(|e| {
                                seq_match(std::slice::from_ref(e), std::slice::from_ref(p))
                            })
                        })
            }) || inner_split_match(&inner, &argv[1..])
                // A split string that names wrappers (`env -S 'sudo -i'`) holds their words too.
                || forms(c).iter().any(|f| inner_split_match(f, &argv[1..]));
        }
    }
    if wrapped {
        Found::Wrapped
    } else {
        Found::Missing
    }
}

/// `env -S 'rm -rf /'`, `su -c 'rm -rf /'`: the wrapped command is one argument, split again.
fn inner_split_match(inner: &[Elem], rest: &[String]) -> bool {
    rest.iter().enumerate().any(|(i, a)| {
        // `--split-string=CODE`, `-SCODE`: the code is the option's value.
        let a = a
            .strip_prefix("--split-string=")
            .or_else(|| a.strip_prefix("-S"))
            .unwrap_or(a);
        let mut words: Vec<String> = a.split_whitespace().map(str::to_string).collect();
        words.extend(rest[i + 1..].iter().cloned());
        (0..words.len()).any(|s| seq_match(inner, &words[s..]))
    })
}

/// Model commands that bash is expected to log when the script has no branches: programs at
/// the top level (not inside nested code other than substitutions), not builtins or functions.
pub(crate) fn expected_to_run<'a>(script: &'a Script, logged_names: &[&str]) -> Vec<&'a Command> {
    let _ = logged_names;
    script
        .commands
        .iter()
        .filter(|c| c.synthetic.is_none() && !c.argv.is_empty())
        .filter(|c| {
            c.origin.steps.iter().all(|s| {
                matches!(
                    s.kind,
                    shellgate::model::OriginKind::CommandSubstitution
                        | shellgate::model::OriginKind::ProcessSubstitution
                )
            })
        })
        .collect()
}
