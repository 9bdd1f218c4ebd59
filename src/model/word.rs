//! Word decoding, done in exactly one function ([`Expander::decode_nodes`]): quote removal,
//! backslashes, `$'..'`, known variables and parameter-expansion forms, `~`, brace
//! expansion, word splitting of unquoted expansions, and substitutions (lowered as code).

use super::block::Block;
use super::env::{Env, VarValue};
use super::frame::Frame;
use super::source::Source;
use super::{OriginKind, OriginStep, Piece, SubstKind, Substitution, Word, WordNote, grow_stack};
use crate::normalize::Normalized;
use crate::syntax::{NodeId, kinds as k};

/// Most words one brace expansion may produce; beyond it the rest is summarised as unknown.
const MAX_BRACE_WORDS: usize = 256;
const MAX_BRACE_DEPTH: usize = 16;

/// How the word is used, which decides which expansions bash applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordMode {
    /// Command name or argument: brace expansion, tilde, word splitting.
    Argument,
    /// Right side of `X=...`: tilde after `=` and `:`, no splitting, no braces.
    Assignment,
    /// Redirect target or here-string: no splitting (bash keeps it one word).
    Single,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Atom {
    Ch {
        c: char,
        quoted: bool,
        expanded: bool,
    },
    Unk {
        reason: String,
        may_be_empty: bool,
    },
    /// A field boundary produced by word splitting of an unquoted expansion.
    Split,
    /// A non-whitespace IFS character that split an unquoted expansion: it ends a field even
    /// when the field is empty (`IFS=/; set -- $X` with `X=/` gives one empty field).
    Delim {
        c: char,
    },
}

impl Atom {
    /// A char as written in the source, not produced by an expansion.
    fn written(c: char, quoted: bool) -> Atom {
        Atom::Ch {
            c,
            quoted,
            expanded: false,
        }
    }
}

fn push_str(atoms: &mut Vec<Atom>, s: &str, quoted: bool, expanded: bool) {
    for c in s.chars() {
        atoms.push(Atom::Ch {
            c,
            quoted,
            expanded,
        });
    }
}

/// Push an expansion's value, splitting on whitespace when unquoted.
fn push_expanded(atoms: &mut Vec<Atom>, s: &str, quoted: bool, ifs: Option<&str>) {
    if quoted {
        push_str(atoms, s, true, true);
        return;
    }
    let Some(ifs) = ifs else {
        // IFS was set to something only known at run time: the fields are unknown.
        atoms.push(Atom::Unk {
            reason: "word splitting with an IFS known only at run time".into(),
            may_be_empty: true,
        });
        return;
    };
    for c in s.chars() {
        if ifs.contains(c) && !c.is_ascii_whitespace() {
            atoms.push(Atom::Delim { c });
        } else if ifs.contains(c) {
            if !matches!(atoms.last(), Some(Atom::Split)) {
                atoms.push(Atom::Split);
            }
        } else {
            atoms.push(Atom::Ch {
                c,
                quoted: false,
                expanded: true,
            });
        }
    }
}

/// The field separators for word splitting: `None` when IFS is only known at run time.
fn ifs_of(env: &Env) -> Option<String> {
    match env.get("IFS") {
        None => Some(" \t\n".to_string()),
        Some(VarValue::Known(v)) => Some(v.clone()),
        Some(VarValue::Unknown(_)) => None,
    }
}

/// Decode the escapes of `$'...'` content as bash does.
pub fn decode_ansi_c(body: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = body.chars().collect();
    let mut i = 0;
    let hex = |c: char| c.to_digit(16);
    while i < chars.len() {
        // bash ends a `$'..'` string at an escaped NUL: `$'/\0tmp'` is `/`.
        if out.ends_with('\0') {
            out.pop();
            return out;
        }
        let c = chars[i];
        if c != '\\' || i + 1 >= chars.len() {
            out.push(c);
            i += 1;
            continue;
        }
        let e = chars[i + 1];
        i += 2;
        match e {
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'e' | 'E' => out.push('\x1b'),
            'f' => out.push('\x0c'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            'v' => out.push('\x0b'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            '?' => out.push('?'),
            'x' => {
                let mut v = 0u32;
                let mut n = 0;
                while n < 2 && i < chars.len() && hex(chars[i]).is_some() {
                    v = v * 16 + hex(chars[i]).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    out.push_str("\\x");
                } else if let Some(ch) = char::from_u32(v) {
                    out.push(ch);
                }
            }
            'u' | 'U' => {
                let max = if e == 'u' { 4 } else { 8 };
                let mut v = 0u32;
                let mut n = 0;
                while n < max && i < chars.len() && hex(chars[i]).is_some() {
                    v = v
                        .saturating_mul(16)
                        .saturating_add(hex(chars[i]).unwrap_or(0));
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    out.push('\\');
                    out.push(e);
                } else if let Some(ch) = char::from_u32(v) {
                    out.push(ch);
                }
            }
            'c' => {
                if i < chars.len() {
                    // `\c?` is DEL; otherwise the low five bits, as bash computes it.
                    let ctl = if chars[i] == '?' {
                        0x7f
                    } else {
                        (chars[i] as u32) & 0x1f
                    };
                    i += 1;
                    if let Some(ch) = char::from_u32(ctl) {
                        out.push(ch);
                    }
                } else {
                    out.push_str("\\c");
                }
            }
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                let mut n = 1;
                while n < 3 && i < chars.len() && chars[i].is_digit(8) {
                    v = v * 8 + chars[i].to_digit(8).unwrap_or(0);
                    i += 1;
                    n += 1;
                }
                if let Some(ch) = char::from_u32(v & 0xff) {
                    out.push(ch);
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    if out.ends_with('\0') {
        out.pop();
    }
    out
}

/// Backslash processing inside double quotes: only `$ \` " \\` and newline are special.
fn decode_dq(s: &str, atoms: &mut Vec<Atom>) {
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.peek() {
                Some('$' | '`' | '"' | '\\') => {
                    let n = it.next().unwrap_or('\\');
                    atoms.push(Atom::written(n, true));
                }
                Some('\n') => {
                    it.next();
                }
                _ => atoms.push(Atom::written(c, true)),
            }
        } else {
            atoms.push(Atom::written(c, true));
        }
    }
}

/// Backslash processing in unquoted text: `\x` is a quoted `x`; backslash-newline vanishes.
fn decode_unquoted(s: &str, atoms: &mut Vec<Atom>) {
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('\n') => {}
                Some(n) => atoms.push(Atom::written(n, true)),
                None => atoms.push(Atom::written('\\', false)),
            }
        } else {
            atoms.push(Atom::written(c, false));
        }
    }
}

/// `${X#p}`, `${X##p}`, `${X%p}`, `${X%%p}`.
fn strip_pattern(value: &str, pat: &str, op: &str) -> String {
    let idx: Vec<usize> = value
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(value.len()))
        .collect();
    match op {
        "#" => idx
            .iter()
            .find(|&&i| crate::glob::matches(pat, &value[..i]))
            .map(|&i| value[i..].to_string()),
        "##" => idx
            .iter()
            .rev()
            .find(|&&i| crate::glob::matches(pat, &value[..i]))
            .map(|&i| value[i..].to_string()),
        "%" => idx
            .iter()
            .rev()
            .find(|&&i| crate::glob::matches(pat, &value[i..]))
            .map(|&i| value[..i].to_string()),
        "%%" => idx
            .iter()
            .find(|&&i| crate::glob::matches(pat, &value[i..]))
            .map(|&i| value[..i].to_string()),
        _ => None,
    }
    .unwrap_or_else(|| value.to_string())
}

/// `${X/a/b}` and friends with a literal or simple glob pattern.
fn replace_pattern(value: &str, pat: &str, rep: &str, op: &str) -> Option<String> {
    if pat.contains(['*', '?', '[']) {
        return None;
    }
    if pat.is_empty() {
        return Some(value.to_string());
    }
    Some(match op {
        "/" => value.replacen(pat, rep, 1),
        "//" => value.replace(pat, rep),
        "/#" => match value.strip_prefix(pat) {
            Some(rest) => format!("{rep}{rest}"),
            None => value.to_string(),
        },
        "/%" => match value.strip_suffix(pat) {
            Some(rest) => format!("{rest}{rep}"),
            None => value.to_string(),
        },
        _ => return None,
    })
}

/// What one `$NAME` / `${...}` reference evaluates to.
enum Expanded {
    Known(String),
    Unknown {
        reason: String,
        may_be_empty: bool,
    },
    /// `$@`: several fields.
    Fields(Vec<String>),
}

/// What word expansion needs from the code around it, as mvdan/sh's `expand.Config` has: the
/// code inside `$(..)` and `<(..)` is run (lowered) by the caller, reached through this callback,
/// so expansion never depends on the lowering that drives it.
pub(super) trait Substitute {
    /// The user whose home `~` names, when known.
    fn user(&self) -> Option<&str>;
    /// Run the statements of one substitution in `f` (its environment already a copy: a
    /// subshell; its origin ending in the substitution; no stdin).
    fn run_substitution(&mut self, f: &mut Frame<'_>, nodes: &[NodeId]) -> Block;
}

/// Where decoding one word puts what it finds: the word's atoms, the evidence notes, and the
/// substitutions that ran inside it.
struct Out<'o> {
    atoms: &'o mut Vec<Atom>,
    notes: &'o mut Vec<WordNote>,
    subs: &'o mut Vec<Substitution>,
}

/// Word expansion over one normalised command, running substitutions through `cx`.
pub(super) struct Expander<'a> {
    pub norm: &'a Normalized,
    pub cx: &'a mut dyn Substitute,
}

impl Expander<'_> {
    fn lookup(&self, env: &Env, name: &str) -> Expanded {
        match name {
            "PWD" => {
                if let Some(c) = &env.cwd {
                    return Expanded::Known(c.clone());
                }
            }
            "HOME" => {
                if let Some(h) = &env.home
                    && env.get("HOME").is_none()
                {
                    return Expanded::Known(h.clone());
                }
            }
            "0" => {
                if let Some(a) = &env.arg0 {
                    return Expanded::Known(a.clone());
                }
                return Expanded::Unknown {
                    reason: "$0 (the shell's name) is only known at run time".into(),
                    may_be_empty: false,
                };
            }
            "@" | "*" => {
                if let Some(pos) = &env.positional {
                    let mut vals = Vec::new();
                    for v in pos {
                        match v {
                            VarValue::Known(s) => vals.push(s.clone()),
                            VarValue::Unknown(r) => {
                                return Expanded::Unknown {
                                    reason: r.clone(),
                                    may_be_empty: true,
                                };
                            }
                        }
                    }
                    return Expanded::Fields(vals);
                }
                return Expanded::Unknown {
                    reason: format!(
                        "${name} (the positional parameters) is only known at run time"
                    ),
                    may_be_empty: true,
                };
            }
            "#" => {
                if let Some(pos) = &env.positional {
                    return Expanded::Known(pos.len().to_string());
                }
            }
            _ => {}
        }
        if let Ok(n) = name.parse::<usize>()
            && n >= 1
        {
            if let Some(pos) = &env.positional {
                return match pos.get(n - 1) {
                    Some(VarValue::Known(s)) => Expanded::Known(s.clone()),
                    Some(VarValue::Unknown(r)) => Expanded::Unknown {
                        reason: r.clone(),
                        may_be_empty: true,
                    },
                    None => Expanded::Known(String::new()),
                };
            }
            return Expanded::Unknown {
                reason: format!("${name} (a positional parameter) is only known at run time"),
                may_be_empty: true,
            };
        }
        match env.get(name) {
            Some(VarValue::Known(v)) => Expanded::Known(v.clone()),
            Some(VarValue::Unknown(r)) => Expanded::Unknown {
                reason: r.clone(),
                may_be_empty: true,
            },
            None => Expanded::Unknown {
                reason: if matches!(name, "?" | "$" | "!" | "-" | "_") {
                    format!("${name} is only known at run time")
                } else {
                    format!(
                        "${name} is not set by this command; its value comes from the environment and may be empty"
                    )
                },
                may_be_empty: true,
            },
        }
    }

    /// Decode adjacent nodes (no whitespace between them, one node for most words) into the
    /// fields bash would produce. The one place words are decoded: everything that needs a
    /// word's value goes through here.
    pub(super) fn decode_nodes(
        &mut self,
        f: &mut Frame<'_>,
        nodes: &[NodeId],
        mode: WordMode,
    ) -> Vec<Word> {
        let src = f.src;
        if let [only] = nodes
            && plain_path_on()
            && let Some(text) = plain_word(src, *only)
        {
            // What the general decoding below gives such a word, without its atoms: one
            // unquoted piece equal to the text, no notes (see `plain_words_decode_as_the_
            // general_path_does`).
            let node = src.tree.node(*only);
            return vec![Word {
                pieces: vec![Piece::Lit {
                    text: text.to_string(),
                    quoted: false,
                }],
                span: src.span(node.start, node.end, self.norm),
                raw: text.to_string(),
                notes: Vec::new(),
                substitutions: Vec::new(),
                nspan: src.nspan(node.start, node.end),
            }];
        }
        // Every other word: atoms per character, then braces, tilde, splitting and pieces.
        let Some((&first, rest)) = nodes.split_first() else {
            return Vec::new();
        };
        let start = src.tree.node(first).start;
        let end = rest
            .last()
            .map(|&l| src.tree.node(l).end)
            .unwrap_or(src.tree.node(first).end);
        let raw = src.text.get(start..end).unwrap_or("").to_string();
        let mut atoms = Vec::new();
        let mut notes = Vec::new();
        let mut substitutions = Vec::new();
        let mut skip_dollar = false;
        for (i, &n) in nodes.iter().enumerate() {
            let node = src.tree.node(n);
            // `$"..."` is split by the grammar into `$` and a string.
            if !node.named
                && node.kind == "$"
                && let Some(&next) = nodes.get(i + 1)
                && src.tree.node(next).kind == k::STRING
            {
                skip_dollar = true;
                continue;
            }
            let _ = skip_dollar;
            let mut out = Out {
                atoms: &mut atoms,
                notes: &mut notes,
                subs: &mut substitutions,
            };
            self.atoms_of(f, n, false, &mut out, 0);
        }
        let env: &Env = f.env;
        let span = src.span(start, end, self.norm);
        let fields: Vec<Vec<Atom>> = match mode {
            WordMode::Argument => {
                // Most words hold no brace at all: keep their atoms instead of copying them.
                let braced = if atoms.iter().any(|a| is_brace(a, '{')) {
                    expand_braces(&atoms, 0)
                } else {
                    vec![atoms]
                };
                if braced.len() > 1 {
                    notes.push(WordNote::Braces {
                        count: braced.len(),
                    });
                }
                let several = braced.len() > 1;
                braced
                    .into_iter()
                    // An alternative that is empty (`{/,}`) is no word at all, as in bash.
                    .filter(|field| !several || !field.is_empty())
                    .flat_map(|field| {
                        // bash (not in posix mode) expands `~` in arguments shaped like an
                        // assignment too: `dd of=~/swap`.
                        let field = match assignment_shaped(&field) {
                            Some(eq) => {
                                let mut v = field;
                                let value = v.split_off(eq + 1);
                                v.extend(self.tilde(value, env, &mut notes, true));
                                v
                            }
                            None => self.tilde(field, env, &mut notes, false),
                        };
                        split_fields(field)
                    })
                    .collect()
            }
            WordMode::Assignment => vec![self.tilde(atoms, env, &mut notes, true)],
            WordMode::Single => vec![
                self.tilde(atoms, env, &mut notes, false)
                    .into_iter()
                    .map(|a| match a {
                        Atom::Split => Atom::Ch {
                            c: ' ',
                            quoted: true,
                            expanded: true,
                        },
                        Atom::Delim { c } => Atom::Ch {
                            c,
                            quoted: true,
                            expanded: true,
                        },
                        a => a,
                    })
                    .collect(),
            ],
        };
        let mut words = Vec::with_capacity(fields.len());
        let count = fields.len();
        let (mut raw, mut notes, mut substitutions) = (Some(raw), Some(notes), Some(substitutions));
        for (i, field) in fields.into_iter().enumerate() {
            let pieces = to_pieces(&field);
            // The last field takes what the others copy (the only field, for most words).
            fn own<T: Clone + Default>(v: &mut Option<T>, last: bool) -> T {
                if last {
                    v.take().unwrap_or_default()
                } else {
                    v.clone().unwrap_or_default()
                }
            }
            let last = i + 1 == count;
            let mut w = Word {
                pieces,
                span,
                raw: own(&mut raw, last),
                notes: own(&mut notes, last),
                substitutions: own(&mut substitutions, last),
                nspan: src.nspan(start, end),
            };
            if let Some(v) = w.lit()
                && v != w.raw
                && !w
                    .notes
                    .iter()
                    .any(|n| matches!(n, WordNote::Decoded { .. }))
            {
                w.notes.insert(
                    0,
                    WordNote::Decoded {
                        from: w.raw.clone(),
                        to: v,
                    },
                );
            }
            words.push(w);
        }
        words
    }

    /// The text of an unquoted heredoc body after expansion (`None` when part of it is only
    /// known at run time), and the substitutions that ran inside it.
    pub(super) fn decode_heredoc(
        &mut self,
        f: &mut Frame<'_>,
        body: NodeId,
    ) -> (Option<String>, Vec<Substitution>) {
        let src = f.src;
        let node = src.tree.node(body);
        let mut atoms = Vec::new();
        let mut notes = Vec::new();
        let mut subs = Vec::new();
        let mut pos = node.start;
        let heredoc_text = |s: &str, atoms: &mut Vec<Atom>| {
            // In a heredoc a backslash only escapes `$`, backtick, backslash and newline.
            let mut it = s.chars().peekable();
            while let Some(c) = it.next() {
                if c == '\\' && matches!(it.peek(), Some('$' | '`' | '\\' | '\n')) {
                    let n = it.next().unwrap_or('\\');
                    if n != '\n' {
                        atoms.push(Atom::written(n, true));
                    }
                } else {
                    atoms.push(Atom::written(c, true));
                }
            }
        };
        for &c in &node.children {
            let ch = src.tree.node(c);
            if ch.start > pos {
                heredoc_text(src.text.get(pos..ch.start).unwrap_or(""), &mut atoms);
            }
            if ch.kind == k::HEREDOC_CONTENT {
                heredoc_text(src.text.get(ch.start..ch.end).unwrap_or(""), &mut atoms);
            } else {
                let mut out = Out {
                    atoms: &mut atoms,
                    notes: &mut notes,
                    subs: &mut subs,
                };
                self.atoms_of(f, c, true, &mut out, 0);
            }
            pos = pos.max(ch.end);
        }
        if node.end > pos {
            heredoc_text(src.text.get(pos..node.end).unwrap_or(""), &mut atoms);
        }
        let mut out = String::new();
        for p in to_pieces(&atoms) {
            match p {
                Piece::Lit { text, .. } => out.push_str(&text),
                Piece::Unknown { .. } => return (None, subs),
            }
        }
        (Some(out), subs)
    }

    fn tilde(
        &self,
        atoms: Vec<Atom>,
        env: &Env,
        notes: &mut Vec<WordNote>,
        assign: bool,
    ) -> Vec<Atom> {
        // Tilde prefixes: at the start, and after `:` or the first `=` in assignments.
        let tilde_at = |a: &Atom| {
            matches!(
                a,
                Atom::Ch {
                    c: '~',
                    quoted: false,
                    expanded: false
                }
            )
        };
        if !atoms.iter().any(tilde_at) {
            return atoms;
        }
        let mut out = Vec::with_capacity(atoms.len());
        let mut i = 0;
        let mut at_start = true;
        while i < atoms.len() {
            let is_tilde = matches!(
                atoms[i],
                Atom::Ch {
                    c: '~',
                    quoted: false,
                    expanded: false
                }
            );
            if at_start && is_tilde {
                let mut j = i + 1;
                let mut user = String::new();
                let mut plain = true;
                while j < atoms.len() {
                    match &atoms[j] {
                        Atom::Ch {
                            c,
                            quoted: false,
                            expanded: false,
                        } if *c != '/' && !(assign && *c == ':') => {
                            user.push(*c);
                            j += 1;
                        }
                        Atom::Ch { c: '/', .. } => break,
                        Atom::Ch { c: ':', .. } if assign => break,
                        Atom::Split | Atom::Delim { .. } => break,
                        _ => {
                            plain = false;
                            break;
                        }
                    }
                }
                if plain {
                    let home = env.home.clone();
                    let expansion = if user.is_empty() {
                        home.clone()
                    } else if user == "+" {
                        env.cwd.clone()
                    } else if user == "-" {
                        None
                    } else if self.cx.user() == Some(user.as_str()) {
                        home.clone()
                    } else if user
                        .chars()
                        .all(|c| c.is_alphanumeric() || "._-".contains(c))
                    {
                        let base = home
                            .as_deref()
                            .and_then(|h| h.rsplit_once('/').map(|(p, _)| p.to_string()))
                            .filter(|p| p == "/Users" || p == "/home")
                            .unwrap_or_else(|| "/home".to_string());
                        if user == "root" {
                            Some("/root".to_string())
                        } else {
                            Some(format!("{base}/{user}"))
                        }
                    } else {
                        None
                    };
                    match expansion {
                        Some(h) => {
                            notes.push(WordNote::Tilde { to: h.clone() });
                            push_str(&mut out, &h, true, true);
                        }
                        None => out.push(Atom::Unk {
                            reason: "the home directory is not known".into(),
                            may_be_empty: false,
                        }),
                    }
                    i = j;
                    at_start = false;
                    continue;
                }
            }
            at_start = assign
                && matches!(
                    atoms[i],
                    Atom::Ch {
                        c: ':',
                        quoted: false,
                        ..
                    }
                );
            out.push(atoms[i].clone());
            i += 1;
        }
        out
    }

    /// Runs the code of the `$(..)`, `<(..)` or `>(..)` node `id` in a copy of `env`, as the
    /// subshell it is, with the substitution as a step of its origin.
    fn run_subst(&mut self, f: &Frame<'_>, id: NodeId, kind: OriginKind, detail: &str) -> Block {
        let src = f.src;
        let node = src.tree.node(id);
        let inner: Vec<NodeId> = src.tree.named_children(id).map(|(c, _)| c).collect();
        let step = OriginStep {
            kind,
            span: src.span(node.start, node.end, self.norm),
            detail: detail.into(),
        };
        let mut sub_env = f.env.clone();
        let origin = f.origin.push(step);
        self.cx
            .run_substitution(&mut Frame::new(src, &mut sub_env, &origin, None), &inner)
    }

    /// The atoms of one node of a word (`in_dq`: inside double quotes), with its notes and
    /// the substitutions it runs.
    fn atoms_of(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        in_dq: bool,
        out: &mut Out<'_>,
        depth: usize,
    ) {
        grow_stack(|| {
            let src = f.src;
            let node = src.tree.node(id);
            let text = src.text.get(node.start..node.end).unwrap_or("");
            if depth > 64 {
                out.atoms.push(Atom::Unk {
                    reason: "word nesting is too deep to decode".into(),
                    may_be_empty: true,
                });
                return;
            }
            if node.is_error || node.is_missing {
                out.atoms.push(Atom::Unk {
                    reason: "part of the word did not parse".into(),
                    may_be_empty: true,
                });
                return;
            }
            // `$$` at the end of a word comes as one anonymous token: the shell's process id.
            if !node.named && text == "$$" {
                out.atoms.push(Atom::Unk {
                    reason: "$$ (the shell's process id) is only known at run time".into(),
                    may_be_empty: false,
                });
                return;
            }
            // Anonymous tokens inside a word (a lone `$`, `=`) are literal text.
            if !node.named {
                if in_dq {
                    decode_dq(text, out.atoms);
                } else {
                    decode_unquoted(text, out.atoms);
                }
                return;
            }
            match node.kind {
                k::WORD | k::NUMBER if !in_dq => decode_unquoted(text, out.atoms),
                k::WORD | k::NUMBER | k::STRING_CONTENT | k::HEREDOC_CONTENT => {
                    if in_dq {
                        decode_dq(text, out.atoms)
                    } else {
                        decode_unquoted(text, out.atoms)
                    }
                }
                k::RAW_STRING => {
                    let inner = text
                        .strip_prefix('\'')
                        .map(|t| t.strip_suffix('\'').unwrap_or(t))
                        .unwrap_or(text);
                    push_str(out.atoms, inner, true, false);
                }
                k::ANSI_C_STRING => {
                    let inner = text
                        .strip_prefix("$'")
                        .map(|t| t.strip_suffix('\'').unwrap_or(t))
                        .unwrap_or(text);
                    let decoded = decode_ansi_c(inner);
                    if decoded != inner {
                        out.notes.push(WordNote::Decoded {
                            from: text.to_string(),
                            to: decoded.clone(),
                        });
                    }
                    push_str(out.atoms, &decoded, true, false);
                }
                k::STRING | k::TRANSLATED_STRING => {
                    // Text between child nodes (e.g. a lone `$`) is literal.
                    let inner_start = node.start
                        + if node.kind == k::TRANSLATED_STRING {
                            2
                        } else {
                            1
                        };
                    let inner_end = node.end.saturating_sub(1).max(inner_start);
                    let mut pos = inner_start;
                    for &c in &node.children {
                        let ch = src.tree.node(c);
                        if !ch.named && (ch.kind == "\"" || ch.kind == "$\"") {
                            continue;
                        }
                        if ch.start > pos {
                            decode_dq(src.text.get(pos..ch.start).unwrap_or(""), out.atoms);
                        }
                        if ch.named {
                            self.atoms_of(f, c, true, out, depth + 1);
                        } else {
                            decode_dq(src.text.get(ch.start..ch.end).unwrap_or(""), out.atoms);
                        }
                        pos = pos.max(ch.end);
                    }
                    if inner_end > pos {
                        decode_dq(src.text.get(pos..inner_end).unwrap_or(""), out.atoms);
                    }
                }
                k::CONCATENATION => {
                    for &c in &node.children {
                        self.atoms_of(f, c, in_dq, out, depth + 1);
                    }
                }
                k::SIMPLE_EXPANSION => {
                    let name = text.trim_start_matches('$').to_string();
                    let v = self.lookup(f.env, &name);
                    let ifs = ifs_of(f.env);
                    self.push_value(v, &name, in_dq, out.atoms, out.notes, ifs);
                }
                k::EXPANSION => {
                    let v = self.expand_braced(f, id, out.notes, out.subs, depth);
                    let label = text.to_string();
                    let ifs = ifs_of(f.env);
                    self.push_value(v, &label, in_dq, out.atoms, out.notes, ifs);
                }
                k::COMMAND_SUBSTITUTION => {
                    let block = self.run_subst(
                        f,
                        id,
                        OriginKind::CommandSubstitution,
                        "command substitution $(..)",
                    );
                    out.subs.push(Substitution {
                        kind: SubstKind::Command,
                        producers: block.tails.clone(),
                        commands: block.commands.clone(),
                        output: block.output.clone(),
                        span: src.span(node.start, node.end, self.norm),
                    });
                    let ifs = ifs_of(f.env);
                    match block.output {
                        Some(output) => {
                            let trimmed = output.trim_end_matches('\n').to_string();
                            out.notes.push(WordNote::SubstitutionOutput {
                                value: trimmed.clone(),
                            });
                            push_expanded(out.atoms, &trimmed, in_dq, ifs.as_deref());
                        }
                        None => out.atoms.push(Atom::Unk {
                            reason: format!("the output of `{}`", short(text)),
                            may_be_empty: true,
                        }),
                    }
                }
                k::PROCESS_SUBSTITUTION => {
                    let out_dir = text.starts_with(">(");
                    let block = self.run_subst(
                        f,
                        id,
                        OriginKind::ProcessSubstitution,
                        if out_dir {
                            "process substitution >(..)"
                        } else {
                            "process substitution <(..)"
                        },
                    );
                    out.subs.push(Substitution {
                        kind: if out_dir {
                            SubstKind::ProcessOut
                        } else {
                            SubstKind::ProcessIn
                        },
                        producers: if out_dir {
                            block.heads.clone()
                        } else {
                            block.tails.clone()
                        },
                        commands: block.commands.clone(),
                        output: block.output.clone(),
                        span: src.span(node.start, node.end, self.norm),
                    });
                    out.atoms.push(Atom::Unk {
                        reason: format!("a /dev/fd path connected to `{}`", short(text)),
                        may_be_empty: false,
                    });
                }
                k::BRACE_EXPRESSION => {
                    // `{1..5}` / `{a..e}`: expand the sequence into a brace list.
                    let body = text.trim_start_matches('{').trim_end_matches('}');
                    match expand_sequence(body) {
                        Some(items) => {
                            out.atoms.push(Atom::written('{', false));
                            for (i, it) in items.iter().enumerate() {
                                if i > 0 {
                                    out.atoms.push(Atom::written(',', false));
                                }
                                push_str(out.atoms, it, true, false);
                            }
                            if items.len() == 1 {
                                out.atoms.push(Atom::written(',', false));
                            }
                            out.atoms.push(Atom::written('}', false));
                        }
                        None => push_str(out.atoms, text, false, false),
                    }
                }
                _ => {
                    // Arithmetic and other conservative kinds: value unknown, but any code
                    // inside still runs and is lowered.
                    self.lower_substitutions_in(f, id, out.subs, depth);
                    out.atoms.push(Atom::Unk {
                        reason: format!("`{}` is only known at run time", short(text)),
                        may_be_empty: true,
                    });
                }
            }
        })
    }

    /// Lower every `$(..)`/`<(..)` inside a subtree whose value we do not compute.
    fn lower_substitutions_in(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        subs: &mut Vec<Substitution>,
        depth: usize,
    ) {
        let src = f.src;
        let children = &src.tree.node(id).children;
        for &c in children {
            let kind = src.tree.node(c).kind;
            if kind == k::COMMAND_SUBSTITUTION || kind == k::PROCESS_SUBSTITUTION {
                let mut a = Vec::new();
                let mut n = Vec::new();
                let mut out = Out {
                    atoms: &mut a,
                    notes: &mut n,
                    subs,
                };
                self.atoms_of(f, c, false, &mut out, depth + 1);
            } else if depth < 64 {
                self.lower_substitutions_in(f, c, subs, depth + 1);
            }
        }
    }

    fn push_value(
        &self,
        v: Expanded,
        name: &str,
        in_dq: bool,
        atoms: &mut Vec<Atom>,
        notes: &mut Vec<WordNote>,
        ifs: Option<String>,
    ) {
        match v {
            Expanded::Known(s) => {
                notes.push(WordNote::Expanded {
                    var: name.to_string(),
                    value: short(&s),
                });
                push_expanded(atoms, &s, in_dq, ifs.as_deref());
            }
            Expanded::Fields(fs) => {
                // Evidence is bounded: every field of `$@` carries this note.
                notes.push(WordNote::Expanded {
                    var: name.to_string(),
                    value: short(&fs.join(" ")),
                });
                for (i, f) in fs.iter().enumerate() {
                    if i > 0 {
                        atoms.push(Atom::Split);
                    }
                    push_expanded(atoms, f, in_dq, ifs.as_deref());
                }
            }
            Expanded::Unknown {
                reason,
                may_be_empty,
            } => {
                notes.push(WordNote::UnknownVar {
                    var: name.to_string(),
                });
                atoms.push(Atom::Unk {
                    reason,
                    may_be_empty,
                });
            }
        }
    }

    /// `${...}` with its operators.
    fn expand_braced(
        &mut self,
        f: &mut Frame<'_>,
        id: NodeId,
        notes: &mut Vec<WordNote>,
        subs: &mut Vec<Substitution>,
        depth: usize,
    ) -> Expanded {
        let src = f.src;
        let node = src.tree.node(id);
        let text = src.text.get(node.start..node.end).unwrap_or("").to_string();
        let unknown = |r: String| Expanded::Unknown {
            reason: r,
            may_be_empty: true,
        };
        let mut name: Option<String> = None;
        let mut prefix_op: Option<String> = None;
        let mut ops: Vec<String> = Vec::new();
        let mut operands: Vec<Vec<NodeId>> = Vec::new();
        for &c in &node.children {
            let ch = src.tree.node(c);
            let ctext = src.text.get(ch.start..ch.end).unwrap_or("");
            if !ch.named && (ch.kind == "${" || ch.kind == "}") {
                continue;
            }
            if name.is_none()
                && ops.is_empty()
                && (ch.kind == k::VARIABLE_NAME || ch.kind == k::SPECIAL_VARIABLE_NAME)
            {
                name = Some(ctext.to_string());
                continue;
            }
            if name.is_none() && ch.kind == k::SUBSCRIPT {
                self.lower_substitutions_in(f, c, subs, depth);
                return unknown(format!(
                    "`{}` (an array element) is only known at run time",
                    short(&text)
                ));
            }
            if ch.field == Some("operator") || (!ch.named && name.is_none()) {
                if name.is_none() {
                    prefix_op = Some(ctext.to_string());
                } else {
                    ops.push(ctext.to_string());
                    operands.push(Vec::new());
                }
                continue;
            }
            if let Some(last) = operands.last_mut() {
                last.push(c);
            } else {
                // Something we do not model sits where the name should be.
                self.lower_substitutions_in(f, id, subs, depth);
                return unknown(format!("`{}` is only known at run time", short(&text)));
            }
        }
        let Some(name) = name else {
            self.lower_substitutions_in(f, id, subs, depth);
            return unknown(format!("`{}` is only known at run time", short(&text)));
        };
        if let Some(p) = prefix_op {
            return match (p.as_str(), self.lookup(f.env, &name)) {
                ("#", Expanded::Known(v)) => Expanded::Known(v.chars().count().to_string()),
                _ => unknown(format!("`{}` is only known at run time", short(&text))),
            };
        }
        let base = self.lookup(f.env, &name);
        if ops.is_empty() {
            return base;
        }
        // Decode an operand as a single word (no splitting).
        let mut operand = |this: &mut Self, i: usize, f: &mut Frame<'_>| -> Option<String> {
            let nodes = operands.get(i)?.clone();
            if nodes.is_empty() {
                return Some(String::new());
            }
            let mut a = Vec::new();
            for n in nodes {
                let nk = src.tree.node(n);
                if nk.kind == k::REGEX {
                    // Patterns are taken as written; glob characters keep their meaning.
                    let t = src.text.get(nk.start..nk.end).unwrap_or("");
                    push_str(&mut a, t, true, false);
                    continue;
                }
                let mut out = Out {
                    atoms: &mut a,
                    notes: &mut *notes,
                    subs: &mut *subs,
                };
                this.atoms_of(f, n, true, &mut out, depth + 1);
            }
            let pieces = to_pieces(&a);
            let mut s = String::new();
            for p in pieces {
                match p {
                    Piece::Lit { text, .. } => s.push_str(&text),
                    Piece::Unknown { .. } => return None,
                }
            }
            Some(s)
        };
        let op = ops[0].as_str();
        match op {
            ":-" | "-" | ":=" | "=" | ":?" | "?" | ":+" | "+" => {
                let def = operand(self, 0, f);
                let empty_counts = op.starts_with(':');
                let set_state = match &base {
                    Expanded::Known(v) if v.is_empty() && empty_counts => Some(false),
                    Expanded::Known(_) => Some(true),
                    _ => f.env.get(&name).map(|_| true).filter(|_| false),
                };
                let is_plus = op.ends_with('+');
                match (set_state, is_plus) {
                    (Some(true), false) => base,
                    (Some(true), true) => def.map(Expanded::Known).unwrap_or_else(|| {
                        unknown(format!("`{}` is only known at run time", short(&text)))
                    }),
                    (Some(false), true) => Expanded::Known(String::new()),
                    (Some(false), false) | (None, false) if op.contains('?') => base,
                    (Some(false), false) => match def {
                        Some(d) => {
                            if op.contains('=') {
                                f.env.set(&name, VarValue::Known(d.clone()));
                            }
                            Expanded::Known(d)
                        }
                        None => unknown(format!("`{}` is only known at run time", short(&text))),
                    },
                    (None, _) => {
                        if op.contains('=') {
                            f.env.set(
                                &name,
                                VarValue::Unknown(format!(
                                    "${name} may have been set by `{}`",
                                    short(&text)
                                )),
                            );
                        }
                        // Unknown variable: the value is it or the default; a non-empty
                        // default means it is not empty.
                        Expanded::Unknown {
                            reason: format!("`{}` depends on whether ${name} is set", short(&text)),
                            may_be_empty: is_plus || def.as_deref().is_none_or(str::is_empty),
                        }
                    }
                }
            }
            "#" | "##" | "%" | "%%" => {
                let pat = operand(self, 0, f);
                match (base, pat) {
                    (Expanded::Known(v), Some(p)) => Expanded::Known(strip_pattern(&v, &p, op)),
                    _ => unknown(format!("`{}` is only known at run time", short(&text))),
                }
            }
            "/" | "//" | "/#" | "/%" => {
                let pat = operand(self, 0, f);
                let rep = if ops.len() > 1 {
                    operand(self, 1, f)
                } else {
                    Some(String::new())
                };
                match (base, pat, rep) {
                    (Expanded::Known(v), Some(p), Some(r)) => match replace_pattern(&v, &p, &r, op)
                    {
                        Some(out) => Expanded::Known(out),
                        None => unknown(format!("`{}` is only known at run time", short(&text))),
                    },
                    _ => unknown(format!("`{}` is only known at run time", short(&text))),
                }
            }
            ":" => {
                let off = operand(self, 0, f).and_then(|s| s.trim().parse::<i64>().ok());
                let len = if ops.len() > 1 {
                    operand(self, 1, f).and_then(|s| s.trim().parse::<i64>().ok())
                } else {
                    None
                };
                match (base, off) {
                    (Expanded::Known(v), Some(o)) => {
                        let chars: Vec<char> = v.chars().collect();
                        let n = chars.len() as i64;
                        let start = if o < 0 { (n + o).max(0) } else { o.min(n) } as usize;
                        let end = match len {
                            Some(l) if l >= 0 => (start as i64 + l).min(n) as usize,
                            Some(l) => (n + l).max(start as i64) as usize,
                            None if ops.len() > 1 => {
                                return unknown(format!(
                                    "`{}` is only known at run time",
                                    short(&text)
                                ));
                            }
                            None => n as usize,
                        };
                        Expanded::Known(chars[start..end.max(start)].iter().collect())
                    }
                    _ => unknown(format!("`{}` is only known at run time", short(&text))),
                }
            }
            "^^" | "^" | ",," | "," => match base {
                Expanded::Known(v) => Expanded::Known(match op {
                    "^^" => v.to_uppercase(),
                    ",," => v.to_lowercase(),
                    "^" => {
                        let mut c = v.chars();
                        c.next()
                            .map(|f| f.to_uppercase().chain(c).collect())
                            .unwrap_or_default()
                    }
                    _ => {
                        let mut c = v.chars();
                        c.next()
                            .map(|f| f.to_lowercase().chain(c).collect())
                            .unwrap_or_default()
                    }
                }),
                other => other,
            },
            _ => unknown(format!("`{}` is only known at run time", short(&text))),
        }
    }
}

/// Text for a message: at most 60 characters, `…` when cut.
pub(super) fn short(s: &str) -> String {
    crate::text::clip(s, 60)
}

/// `1..5`, `a..e`, `1..10..2`.
fn expand_sequence(body: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = body.split("..").collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    let step: i64 = match parts.get(2) {
        Some(s) => s.parse::<i64>().ok()?.abs().max(1),
        None => 1,
    };
    if let (Ok(a), Ok(b)) = (parts[0].parse::<i64>(), parts[1].parse::<i64>()) {
        let mut v = Vec::new();
        let mut x = a;
        while v.len() < MAX_BRACE_WORDS {
            v.push(x.to_string());
            if x == b {
                break;
            }
            x += if b > a { step } else { -step };
            if (b > a && x > b) || (b < a && x < b) {
                break;
            }
        }
        return Some(v);
    }
    let (a, b) = (parts[0].chars().next()?, parts[1].chars().next()?);
    if parts[0].chars().count() != 1 || parts[1].chars().count() != 1 {
        return None;
    }
    let (a, b) = (a as u32, b as u32);
    let range: Vec<u32> = if a <= b {
        (a..=b).step_by(step as usize).collect()
    } else {
        (b..=a).rev().step_by(step as usize).collect()
    };
    Some(
        range
            .into_iter()
            .take(MAX_BRACE_WORDS)
            .filter_map(char::from_u32)
            .map(|c| c.to_string())
            .collect(),
    )
}

#[cfg(test)]
thread_local! {
    /// Set by the tests to decode a word through the general path, for comparison.
    static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether [`Expander::decode_nodes`] may build plain words directly: always, but in tests
/// that compare it with the general path.
fn plain_path_on() -> bool {
    #[cfg(test)]
    if GENERAL_ONLY.with(std::cell::Cell::get) {
        return false;
    }
    true
}

/// The text of a word node that every expansion leaves as it is, in every [`WordMode`]: an
/// unquoted `word` or `number` that parsed cleanly, is not empty, and holds no backslash
/// (quoting), no `{` (brace expansion) and no `~` (tilde expansion, also after `=` or `:`).
/// Nothing else in such a text is expanded: `$`, quotes and substitutions are nodes of their
/// own, and without an expansion there is nothing to split.
fn plain_word(src: &Source, id: NodeId) -> Option<&str> {
    let node = src.tree.node(id);
    if !node.named
        || node.is_error
        || node.is_missing
        || !(node.kind == k::WORD || node.kind == k::NUMBER)
    {
        return None;
    }
    let text = src.text.get(node.start..node.end)?;
    let plain = !text.is_empty() && !text.bytes().any(|b| matches!(b, b'\\' | b'{' | b'~'));
    plain.then_some(text)
}

fn is_brace(a: &Atom, c: char) -> bool {
    matches!(a, Atom::Ch { c: x, quoted: false, expanded: false } if *x == c)
}

/// Bash brace expansion over unquoted, unexpanded `{a,b}` groups.
fn expand_braces(atoms: &[Atom], depth: usize) -> Vec<Vec<Atom>> {
    if depth > MAX_BRACE_DEPTH {
        return vec![atoms.to_vec()];
    }
    // Find the first `{` with a matching `}` and a top-level comma.
    for open in 0..atoms.len() {
        if !is_brace(&atoms[open], '{') {
            continue;
        }
        let mut level = 0;
        let mut commas = Vec::new();
        let mut close = None;
        for (j, a) in atoms.iter().enumerate().skip(open + 1) {
            if is_brace(a, '{') {
                level += 1;
            } else if is_brace(a, '}') {
                if level == 0 {
                    close = Some(j);
                    break;
                }
                level -= 1;
            } else if level == 0 && is_brace(a, ',') {
                commas.push(j);
            }
        }
        let Some(close) = close else { continue };
        let prefix = &atoms[..open];
        if commas.is_empty() {
            // `x{a..c}`: a sequence the grammar did not mark as a brace expression.
            let body: Option<String> = atoms[open + 1..close]
                .iter()
                .map(|a| match a {
                    Atom::Ch {
                        c,
                        quoted: false,
                        expanded: false,
                    } => Some(*c),
                    _ => None,
                })
                .collect();
            let Some(items) = body.as_deref().and_then(expand_sequence) else {
                continue;
            };
            let suffix_exp = expand_braces(&atoms[close + 1..], depth + 1);
            let mut out = Vec::new();
            for it in items {
                for suf in &suffix_exp {
                    if out.len() >= MAX_BRACE_WORDS {
                        return out;
                    }
                    let mut v = prefix.to_vec();
                    push_str(&mut v, &it, true, false);
                    v.extend(suf.iter().cloned());
                    out.push(v);
                }
            }
            return out;
        }
        let suffix_exp = expand_braces(&atoms[close + 1..], depth + 1);
        let mut bounds = vec![open];
        bounds.extend(&commas);
        bounds.push(close);
        let mut out = Vec::new();
        for w in bounds.windows(2) {
            for alt in expand_braces(&atoms[w[0] + 1..w[1]], depth + 1) {
                for suf in &suffix_exp {
                    if out.len() >= MAX_BRACE_WORDS {
                        return out;
                    }
                    let mut v = prefix.to_vec();
                    v.extend(alt.iter().cloned());
                    v.extend(suf.iter().cloned());
                    out.push(v);
                }
            }
        }
        return out;
    }
    vec![atoms.to_vec()]
}

/// `NAME=...` with an unquoted, literal name and `=`: an argument bash tilde-expands like an
/// assignment. The index of the `=`.
fn assignment_shaped(atoms: &[Atom]) -> Option<usize> {
    let mut n = 0;
    for (i, a) in atoms.iter().enumerate() {
        match a {
            Atom::Ch {
                c: '=',
                quoted: false,
                expanded: false,
            } => return (n > 0).then_some(i),
            Atom::Ch {
                c,
                quoted: false,
                expanded: false,
            } if c.is_ascii_alphanumeric() || *c == '_' => {
                if n == 0 && c.is_ascii_digit() {
                    return None;
                }
                n += 1;
            }
            _ => return None,
        }
    }
    None
}

/// Split atoms at word-splitting boundaries; fields that expanded to nothing vanish.
fn split_fields(atoms: Vec<Atom>) -> Vec<Vec<Atom>> {
    let had_split = atoms
        .iter()
        .any(|a| matches!(a, Atom::Split | Atom::Delim { .. }));
    if !had_split {
        // No expansion was split: one field, the atoms as they are (an empty one is `""`).
        return vec![atoms];
    }
    let mut out = Vec::new();
    let mut cur = Vec::new();
    // A field just ended at IFS whitespace: a delimiter right after it is part of that break.
    let mut after_blank = false;
    for a in &atoms {
        match a {
            Atom::Split => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    after_blank = true;
                }
            }
            Atom::Delim { .. } => {
                if !cur.is_empty() || !after_blank {
                    out.push(std::mem::take(&mut cur));
                }
                after_blank = false;
            }
            _ => {
                cur.push(a.clone());
                after_blank = false;
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    if out.is_empty() && !had_split {
        // `""` is one empty word, and an unquoted empty expansion is none; keep the empty
        // word only when something quoted was there (approximated by no split at all).
        let only_expanded_unquoted = !atoms.is_empty()
            && atoms.iter().all(|a| {
                matches!(
                    a,
                    Atom::Ch {
                        quoted: false,
                        expanded: true,
                        ..
                    }
                )
            });
        if !only_expanded_unquoted {
            out.push(Vec::new());
        }
    }
    out
}

fn to_pieces(atoms: &[Atom]) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    for (i, a) in atoms.iter().enumerate() {
        match a {
            Atom::Ch { c, quoted, .. } => match pieces.last_mut() {
                Some(Piece::Lit { text, quoted: q }) if *q == *quoted => text.push(*c),
                _ => {
                    // Sized for the whole run of characters it will hold: one allocation
                    // per piece instead of a doubling series per character.
                    let run: usize = atoms[i..]
                        .iter()
                        .map_while(|a| match a {
                            Atom::Ch { c, quoted: q, .. } if q == quoted => Some(c.len_utf8()),
                            _ => None,
                        })
                        .sum();
                    let mut text = String::with_capacity(run);
                    text.push(*c);
                    pieces.push(Piece::Lit {
                        text,
                        quoted: *quoted,
                    });
                }
            },
            Atom::Unk {
                reason,
                may_be_empty,
            } => pieces.push(Piece::Unknown {
                reason: reason.clone(),
                may_be_empty: *may_be_empty,
            }),
            Atom::Split => pieces.push(Piece::Lit {
                text: " ".into(),
                quoted: true,
            }),
            Atom::Delim { c } => pieces.push(Piece::Lit {
                text: c.to_string(),
                quoted: true,
            }),
        }
    }
    if pieces.is_empty() {
        pieces.push(Piece::Lit {
            text: String::new(),
            quoted: true,
        });
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Origin;
    use crate::model::source::SrcMap;
    use proptest::prelude::*;

    /// No substitution runs: the fast path never takes a word holding one, and the general
    /// path's result for such words is not compared.
    struct NoSubst;

    impl Substitute for NoSubst {
        fn user(&self) -> Option<&str> {
            Some("user")
        }

        fn run_substitution(&mut self, _: &mut Frame<'_>, _: &[NodeId]) -> Block {
            Block::default()
        }
    }

    /// Decodes every word node of `text` that the plain-word path takes both ways, in every
    /// mode, and asserts the words are equal; returns how many it took.
    fn plain_words_agree(text: &str) -> usize {
        let norm = crate::normalize::normalize(text);
        let Ok(tree) = crate::syntax::parse(&norm.text) else {
            return 0;
        };
        let src = Source {
            text: norm.text.clone(),
            tree,
            map: SrcMap::Offset(0),
        };
        let mut cx = NoSubst;
        let mut ex = Expander {
            norm: &norm,
            cx: &mut cx,
        };
        let env = Env::new(
            [("HOME".to_string(), "/home/user".to_string())],
            Some("/home/user/project".into()),
            Some("/home/user".into()),
        );
        let origin = Origin::default();
        let mut taken = 0;
        for id in 0..src.tree.nodes.len() as NodeId {
            if plain_word(&src, id).is_none() {
                continue;
            }
            taken += 1;
            for mode in [WordMode::Argument, WordMode::Assignment, WordMode::Single] {
                let (mut e1, mut e2) = (env.clone(), env.clone());
                let fast =
                    ex.decode_nodes(&mut Frame::new(&src, &mut e1, &origin, None), &[id], mode);
                GENERAL_ONLY.with(|g| g.set(true));
                let general =
                    ex.decode_nodes(&mut Frame::new(&src, &mut e2, &origin, None), &[id], mode);
                GENERAL_ONLY.with(|g| g.set(false));
                assert_eq!(fast, general, "{text:?}, node {id}, {mode:?}");
            }
        }
        taken
    }

    fn corpus_commands() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).expect("corpus dir").flatten() {
            let Ok(text) = std::fs::read_to_string(e.path()) else {
                continue;
            };
            let Ok(doc) = toml::from_str::<toml::Table>(&text) else {
                continue;
            };
            let cases = doc.get("case").and_then(|c| c.as_array());
            for case in cases.into_iter().flatten() {
                if let Some(cmd) = case.get("cmd").and_then(|c| c.as_str()) {
                    out.push(cmd.to_string());
                }
            }
        }
        let shared = match std::env::var_os("SHELLGATE_CORPORA") {
            Some(d) => std::path::PathBuf::from(d),
            None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
        };
        for name in ["tldr.jsonl", "nl2bash.jsonl"] {
            let Ok(text) = std::fs::read_to_string(shared.join(name)) else {
                continue;
            };
            for line in text.lines() {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(line)
                    && let Some(cmd) = v.get("cmd").and_then(|c| c.as_str())
                {
                    out.push(cmd.to_string());
                }
            }
        }
        out
    }

    #[test]
    fn plain_words_decode_as_the_general_path_does_on_every_corpus_command() {
        let cmds = corpus_commands();
        assert!(cmds.len() > 1000, "corpus read {} commands", cmds.len());
        let taken: usize = cmds.iter().map(|c| plain_words_agree(c)).sum();
        assert!(taken > 1000, "the plain-word path took only {taken} words");
    }

    #[test]
    fn words_with_a_backslash_or_tilde_take_the_general_path() {
        for w in [r"a\b", "~", "~/x", "a=~/x", "PATH=a:~/b"] {
            let text = format!("echo {w}");
            let tree = crate::syntax::parse(&text).expect("parses");
            let src = Source {
                text: text.clone(),
                tree,
                map: SrcMap::Offset(0),
            };
            let ids: Vec<NodeId> = (0..src.tree.nodes.len() as NodeId)
                .filter(|&id| {
                    let n = src.tree.node(id);
                    n.kind == k::WORD && src.text.get(n.start..n.end) == Some(w)
                })
                .collect();
            assert!(!ids.is_empty(), "{text}: no word node {w}");
            for id in ids {
                assert_eq!(plain_word(&src, id), None, "{text}");
            }
        }
    }

    proptest! {
        #[test]
        fn plain_words_decode_as_the_general_path_does(
            text in "[a-z0-9~{},=:/\\$'\"*?\\[\\] .#é-]{0,24}"
        ) {
            plain_words_agree(&format!("echo {text}"));
            plain_words_agree(&format!("X={text} cmd"));
            plain_words_agree(&format!("cat > {text}"));
        }
    }

    #[test]
    fn decodes_every_ansi_c_escape() {
        assert_eq!(decode_ansi_c(r"\x72\x6d"), "rm");
        assert_eq!(decode_ansi_c(r"\u0072m"), "rm");
        assert_eq!(decode_ansi_c(r"\162\155"), "rm");
        assert_eq!(decode_ansi_c(r"\0162"), "\u{e}2");
        assert_eq!(decode_ansi_c(r"\cA"), "\x01");
        assert_eq!(decode_ansi_c(r"a\nb\tc\\"), "a\nb\tc\\");
        assert_eq!(decode_ansi_c(r"\'"), "'");
    }

    #[test]
    fn strips_shortest_and_longest_patterns() {
        assert_eq!(strip_pattern("a.b.c", "*.", "#"), "b.c");
        assert_eq!(strip_pattern("a.b.c", "*.", "##"), "c");
        assert_eq!(strip_pattern("a.b.c", ".*", "%"), "a.b");
        assert_eq!(strip_pattern("a.b.c", ".*", "%%"), "a");
    }

    #[test]
    fn expands_numeric_and_alpha_sequences() {
        assert_eq!(
            expand_sequence("1..3"),
            Some(vec!["1".into(), "2".into(), "3".into()])
        );
        assert_eq!(
            expand_sequence("a..c"),
            Some(vec!["a".into(), "b".into(), "c".into()])
        );
    }
}
