//! A small lexer for bash text that does not use tree-sitter: it knows quotes, comments,
//! substitutions and heredoc bodies, and finds where bash starts a new command and where a
//! `\`+newline continuation joins two lines. The normaliser uses the continuations (bash
//! removes them before it splits words); the run-time boundary check compares the separators
//! with the parse tree, which is not trusted to have seen them all.

/// A command separator outside quotes, substitutions and heredoc bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Separator {
    /// Byte offset of the separator.
    pub at: usize,
    pub len: usize,
    pub kind: SepKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SepKind {
    Newline,
    Semicolon,
    Background,
    Pipe,
    And,
    Or,
}

/// What the scan found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Offsets of the `\` of every line continuation bash removes.
    pub continuations: Vec<usize>,
    /// Command separators, in order.
    pub separators: Vec<Separator>,
    /// Heredoc bodies, in order.
    pub heredocs: Vec<HeredocBody>,
}

/// One heredoc body: `start..end` covers its lines and the delimiter line; an unterminated
/// body runs to the end of the text, as in bash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeredocBody {
    pub start: usize,
    pub end: usize,
    /// The delimiter was quoted: the body is data, never expanded.
    pub quoted: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Plain shell code; `close` is the byte that ends it (`)` of `$(`, `` ` ``, `}` of `${`),
    /// `depth` counts nested openers of the same kind.
    Code {
        close: u8,
        depth: u32,
    },
    Double,
}

struct Pending {
    delim: String,
    quoted: bool,
    strip_tabs: bool,
}

/// Scan `text`. Linear time; never panics.
pub fn scan(text: &str) -> Scan {
    let b = text.as_bytes();
    let mut out = Scan::default();
    let mut stack: Vec<Ctx> = vec![Ctx::Code { close: 0, depth: 0 }];
    let mut pending: Vec<Pending> = Vec::new();
    let mut i = 0;
    // Whether the previous byte ends a word (so `#` starts a comment).
    let mut word_start = true;
    while i < b.len() {
        let c = b[i];
        let top = stack
            .last()
            .copied()
            .unwrap_or(Ctx::Code { close: 0, depth: 0 });
        let top_level = stack.len() == 1;
        match top {
            Ctx::Double => {
                match c {
                    b'\\' if b.get(i + 1) == Some(&b'\n') => {
                        out.continuations.push(i);
                        i += 2;
                    }
                    b'\\' => i += 2,
                    b'"' => {
                        stack.pop();
                        i += 1;
                    }
                    b'$' if b.get(i + 1) == Some(&b'(') => {
                        stack.push(Ctx::Code {
                            close: b')',
                            depth: 0,
                        });
                        i += 2;
                    }
                    b'$' if b.get(i + 1) == Some(&b'{') => {
                        stack.push(Ctx::Code {
                            close: b'}',
                            depth: 0,
                        });
                        i += 2;
                    }
                    b'`' => {
                        stack.push(Ctx::Code {
                            close: b'`',
                            depth: 0,
                        });
                        i += 1;
                    }
                    _ => i += 1,
                }
                continue;
            }
            Ctx::Code { close, depth } => {
                if c == close && close != 0 {
                    if depth == 0 || close == b'`' {
                        stack.pop();
                    } else if let Some(Ctx::Code { depth: d, .. }) = stack.last_mut() {
                        *d -= 1;
                    }
                    i += 1;
                    word_start = false;
                    continue;
                }
                match c {
                    b'\\' => {
                        if b.get(i + 1) == Some(&b'\n') {
                            out.continuations.push(i);
                        }
                        i += 2;
                        word_start = false;
                    }
                    b'\'' => {
                        let end = find(b, i + 1, b'\'').unwrap_or(b.len());
                        i = end + 1;
                        word_start = false;
                    }
                    b'"' => {
                        stack.push(Ctx::Double);
                        i += 1;
                        word_start = false;
                    }
                    b'$' if b.get(i + 1) == Some(&b'\'') => {
                        i = ansi_c_end(b, i + 2);
                        word_start = false;
                    }
                    b'$' if b.get(i + 1) == Some(&b'(') => {
                        stack.push(Ctx::Code {
                            close: b')',
                            depth: 0,
                        });
                        i += 2;
                        word_start = true;
                    }
                    b'$' if b.get(i + 1) == Some(&b'{') => {
                        stack.push(Ctx::Code {
                            close: b'}',
                            depth: 0,
                        });
                        i += 2;
                        word_start = false;
                    }
                    b'`' => {
                        stack.push(Ctx::Code {
                            close: b'`',
                            depth: 0,
                        });
                        i += 1;
                        word_start = true;
                    }
                    b'<' | b'>' if b.get(i + 1) == Some(&b'(') => {
                        stack.push(Ctx::Code {
                            close: b')',
                            depth: 0,
                        });
                        i += 2;
                        word_start = true;
                    }
                    b'(' if close == b')' => {
                        if let Some(Ctx::Code { depth: d, .. }) = stack.last_mut() {
                            *d += 1;
                        }
                        i += 1;
                        word_start = true;
                    }
                    b'{' if close == b'}' => {
                        if let Some(Ctx::Code { depth: d, .. }) = stack.last_mut() {
                            *d += 1;
                        }
                        i += 1;
                        word_start = false;
                    }
                    b'#' if word_start => {
                        while i < b.len() && b[i] != b'\n' {
                            i += 1;
                        }
                    }
                    b'<' if b.get(i + 1) == Some(&b'<') && b.get(i + 2) != Some(&b'<') => {
                        let strip_tabs = b.get(i + 2) == Some(&b'-');
                        let mut j = i + 2 + usize::from(strip_tabs);
                        while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                            j += 1;
                        }
                        let (delim, quoted, end) = heredoc_word(b, j);
                        if !delim.is_empty() {
                            pending.push(Pending {
                                delim,
                                quoted,
                                strip_tabs,
                            });
                        }
                        i = end.max(i + 2);
                        word_start = false;
                    }
                    b'\n' => {
                        if top_level {
                            out.separators.push(Separator {
                                at: i,
                                len: 1,
                                kind: SepKind::Newline,
                            });
                        }
                        i += 1;
                        if !pending.is_empty() {
                            i = read_bodies(b, i, &mut pending, &mut out);
                        }
                        word_start = true;
                    }
                    b';' | b'&' | b'|' => {
                        let two = b.get(i + 1).copied();
                        let (len, kind) = match (c, two) {
                            (b'&', Some(b'&')) => (2, Some(SepKind::And)),
                            (b'|', Some(b'|')) => (2, Some(SepKind::Or)),
                            (b'|', Some(b'&')) => (2, Some(SepKind::Pipe)),
                            (b';', Some(b';')) => (2, None),
                            (b'&', Some(b'>')) => (1, None),
                            (b'|', _) => (1, Some(SepKind::Pipe)),
                            (b';', _) => (1, Some(SepKind::Semicolon)),
                            _ => (1, Some(SepKind::Background)),
                        };
                        // `>&`, `<&`, `&>`: redirect operators, not separators.
                        let redirect = c == b'&'
                            && (i > 0 && matches!(b[i - 1], b'>' | b'<') || two == Some(b'>'));
                        if let Some(kind) = kind
                            && top_level
                            && !redirect
                        {
                            out.separators.push(Separator { at: i, len, kind });
                        }
                        i += len;
                        word_start = true;
                    }
                    b' ' | b'\t' | b'(' | b')' | b'<' | b'>' => {
                        i += 1;
                        word_start = true;
                    }
                    _ => {
                        i += 1;
                        word_start = false;
                    }
                }
            }
        }
    }
    out
}

fn find(b: &[u8], from: usize, c: u8) -> Option<usize> {
    b.get(from..)?
        .iter()
        .position(|&x| x == c)
        .map(|p| p + from)
}

/// End (exclusive) of `$'..'` whose body starts at `i`.
fn ansi_c_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\'' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The heredoc delimiter word at `j`: (delimiter, quoted, end).
fn heredoc_word(b: &[u8], mut j: usize) -> (String, bool, usize) {
    let mut delim = Vec::new();
    let mut quoted = false;
    while j < b.len() {
        match b[j] {
            b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' => break,
            b'\'' | b'"' => {
                quoted = true;
                let q = b[j];
                let end = find(b, j + 1, q).unwrap_or(b.len());
                delim.extend_from_slice(b.get(j + 1..end).unwrap_or(&[]));
                j = end + 1;
            }
            b'\\' => {
                quoted = true;
                if let Some(&n) = b.get(j + 1) {
                    delim.push(n);
                }
                j += 2;
            }
            x => {
                delim.push(x);
                j += 1;
            }
        }
    }
    (
        String::from_utf8_lossy(&delim).into_owned(),
        quoted,
        j.min(b.len()),
    )
}

/// Skip the bodies of the pending heredocs starting at line `i`; returns the offset after.
fn read_bodies(b: &[u8], mut i: usize, pending: &mut Vec<Pending>, out: &mut Scan) -> usize {
    for p in pending.drain(..) {
        let start = i;
        loop {
            if i >= b.len() {
                break;
            }
            let line_end = find(b, i, b'\n').unwrap_or(b.len());
            let mut line = &b[i..line_end];
            if p.strip_tabs {
                while let [b'\t', rest @ ..] = line {
                    line = rest;
                }
            }
            // Unquoted bodies join continued lines (an odd run of backslashes at the end).
            let slashes = line.iter().rev().take_while(|&&x| x == b'\\').count();
            if !p.quoted && slashes % 2 == 1 && line_end < b.len() {
                out.continuations.push(line_end - 1);
            }
            i = (line_end + 1).min(b.len());
            if line == p.delim.as_bytes() {
                break;
            }
        }
        out.heredocs.push(HeredocBody {
            start,
            end: i,
            quoted: p.quoted,
        });
    }
    i
}

/// Offsets of the line continuations bash removes from `text`.
pub fn continuations(text: &str) -> Vec<usize> {
    if !text.contains("\\\n") {
        return Vec::new();
    }
    scan(text).continuations
}

/// `text` with its line continuations removed, when it has any (for code that is not
/// normalised: nested shell strings and scripts fed to a shell).
pub fn join_continuations(text: &str) -> Option<String> {
    let joins = continuations(text);
    if joins.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for j in joins {
        out.push_str(text.get(from..j)?);
        from = j + 2;
    }
    out.push_str(text.get(from..)?);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seps(t: &str) -> Vec<(usize, SepKind)> {
        scan(t).separators.iter().map(|s| (s.at, s.kind)).collect()
    }

    #[test]
    fn finds_separators_outside_quotes_and_substitutions() {
        assert_eq!(
            seps("a 'x;y' \"$(b; c)\" ; d && e || f | g & h\ni"),
            vec![
                (18, SepKind::Semicolon),
                (22, SepKind::And),
                (27, SepKind::Or),
                (32, SepKind::Pipe),
                (36, SepKind::Background),
                (39, SepKind::Newline),
            ]
        );
    }

    #[test]
    fn redirect_ampersands_and_comments_are_not_separators() {
        assert_eq!(seps("a 2>&1 >&2 &>f # x; y"), vec![]);
        assert_eq!(seps("echo a#b;c"), vec![(8, SepKind::Semicolon)]);
    }

    #[test]
    fn heredoc_bodies_are_skipped_and_unterminated_ones_run_to_the_end() {
        let t = "cat <<'EOF' ; rm x\n$(a; b) `c`\nEOF\nd";
        let s = scan(t);
        assert_eq!(
            s.separators.iter().map(|s| s.at).collect::<Vec<_>>(),
            vec![12, 18]
        );
        let h = |s: &Scan| {
            s.heredocs
                .iter()
                .map(|h| (h.start, h.end, h.quoted))
                .collect::<Vec<_>>()
        };
        assert_eq!(h(&s), vec![(19, 35, true)]);
        let u = scan("cat <<EOF\na; b");
        assert_eq!(h(&u), vec![(10, 14, false)]);
    }

    #[test]
    fn continuations_outside_single_quotes_and_quoted_heredocs() {
        assert_eq!(continuations("r\\\nm \"a\\\nb\" 'c\\\nd'"), vec![1, 7]);
        assert_eq!(continuations("# x\\\ny"), Vec::<usize>::new());
        assert_eq!(continuations("cat <<'E'\na\\\nE\n"), Vec::<usize>::new());
        assert_eq!(continuations("cat <<E\na\\\nb\nE\n"), vec![9]);
    }
}
