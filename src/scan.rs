//! The one text lexer for bash outside tree-sitter: it knows quotes, comments, substitutions,
//! arithmetic and heredoc bodies, and finds where bash starts a new command, where a
//! `\`+newline continuation joins two lines, and how many stages the longest pipeline has.
//! The normaliser uses the continuations and heredoc bodies (bash removes the first before
//! it splits words, and ends an unterminated body at the end of input); the run-time boundary
//! check compares the separators with the parse tree, which is not trusted to have seen them
//! all; `syntax::stages` keeps a pipeline that would make tree-sitter quadratic away from it.

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
    /// Command separators at the top level (not inside substitutions), in order.
    pub separators: Vec<Separator>,
    /// Heredoc bodies, in order.
    pub heredocs: Vec<HeredocBody>,
    /// The number of stages of the longest pipeline, over-approximated: pipes at any
    /// nesting (`$(..)`, backticks, groups, subshells) count, a line ending in `|`, `&&` or
    /// `||` continues the pipeline, and only `;`, `&` or a newline outside a group or
    /// subshell ends it (`&&`/`||` do not).
    pub longest_pipeline: usize,
}

/// One heredoc body: `start..end` covers its lines and the delimiter line; an unterminated
/// body runs to the end of the text, as in bash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeredocBody {
    pub start: usize,
    pub end: usize,
    /// The delimiter was quoted: the body is data, never expanded.
    pub quoted: bool,
    /// The delimiter word, and whether a line with it ended the body (bash ends an
    /// unterminated body at the end of input, with a warning).
    pub delim: String,
    pub terminated: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// Shell code; `close` is the byte that ends it (`)` of `$(`, `` ` ``, `}` of `${`, 0 at
    /// the top), `depth` counts nested openers of the same kind, `groups` the subshells and
    /// `{ ..; }` groups open in it (a `;` inside one does not end a pipeline around it), and
    /// `arith` marks `$((..))`/`((..))`, where `<<` is a shift, not a heredoc.
    Code {
        close: u8,
        depth: u32,
        groups: u32,
        arith: bool,
    },
    Double,
}

impl Ctx {
    const TOP: Ctx = Ctx::code(0);

    const fn code(close: u8) -> Ctx {
        Ctx::Code {
            close,
            depth: 0,
            groups: 0,
            arith: false,
        }
    }

    /// `$((..))` or `((..))`, ended by its second `)`.
    const ARITH: Ctx = Ctx::Code {
        close: b')',
        depth: 0,
        groups: 0,
        arith: true,
    };
}

struct Pending {
    delim: String,
    quoted: bool,
    strip_tabs: bool,
}

/// Scan `text`. Linear time; never panics.
pub fn scan(text: &str) -> Scan {
    let mut s = Scanner {
        b: text.as_bytes(),
        i: 0,
        stack: vec![Ctx::TOP],
        pending: Vec::new(),
        word_start: true,
        out: Scan::default(),
        pipes: 0,
        longest: 0,
        continued: false,
    };
    while s.i < s.b.len() {
        match s.top() {
            Ctx::Double => s.double(),
            Ctx::Code {
                close,
                depth,
                arith,
                ..
            } => s.code(close, depth, arith),
        }
    }
    s.finish()
}

/// The lexer's state while it walks the text once.
struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
    stack: Vec<Ctx>,
    /// Heredocs opened on the current line, whose bodies start after it.
    pending: Vec<Pending>,
    /// Whether the previous byte ends a word (so `#` starts a comment, `{` a group).
    word_start: bool,
    out: Scan,
    /// Pipes of the pipeline being read, the most seen in one, and whether the last token
    /// (`|`, `&&`, `||`) continues the pipeline onto the next line.
    pipes: usize,
    longest: usize,
    continued: bool,
}

impl Scanner<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.b.get(self.i + ahead).copied()
    }

    fn top(&self) -> Ctx {
        self.stack.last().copied().unwrap_or(Ctx::TOP)
    }

    /// Subshells and groups open in the innermost code context.
    fn groups(&self) -> u32 {
        match self.top() {
            Ctx::Code { groups, .. } => groups,
            Ctx::Double => 0,
        }
    }

    /// Change the innermost code context's nesting counters.
    fn nest(&mut self, f: impl FnOnce(&mut u32, &mut u32)) {
        if let Some(Ctx::Code { depth, groups, .. }) = self.stack.last_mut() {
            f(depth, groups);
        }
    }

    /// Move past `len` bytes of a token that is not a pipeline operator.
    fn step(&mut self, len: usize, word_start: bool) {
        self.i += len;
        self.word_start = word_start;
        self.continued = false;
    }

    /// Enter `ctx`, whose opener is `len` bytes.
    fn enter(&mut self, ctx: Ctx, len: usize, word_start: bool) {
        self.stack.push(ctx);
        self.step(len, word_start);
    }

    /// The context `$(` at the cursor opens: a command substitution, or arithmetic for
    /// `$((`.
    fn substitution(&self) -> Ctx {
        if self.peek(2) == Some(b'(') {
            Ctx::ARITH
        } else {
            Ctx::code(b')')
        }
    }

    /// One step inside double quotes: only escapes, the closing quote and substitutions
    /// matter.
    fn double(&mut self) {
        match (self.b[self.i], self.peek(1)) {
            (b'\\', next) => {
                if next == Some(b'\n') {
                    self.out.continuations.push(self.i);
                }
                self.i += 2;
            }
            (b'"', _) => {
                self.stack.pop();
                self.i += 1;
            }
            (b'$', Some(b'(')) => {
                self.stack.push(self.substitution());
                self.i += 2;
            }
            (b'$', Some(b'{')) => {
                self.stack.push(Ctx::code(b'}'));
                self.i += 2;
            }
            (b'`', _) => {
                self.stack.push(Ctx::code(b'`'));
                self.i += 1;
            }
            _ => self.i += 1,
        }
    }

    /// One step of shell code whose context ends at `close` (0 at the top).
    fn code(&mut self, close: u8, depth: u32, arith: bool) {
        let (c, next) = (self.b[self.i], self.peek(1));
        if c == close && close != 0 {
            if depth == 0 || close == b'`' {
                self.stack.pop();
            } else {
                self.nest(|d, g| {
                    *d -= 1;
                    *g = g.saturating_sub(1);
                });
            }
            return self.step(1, false);
        }
        match (c, next) {
            (b'\\', _) => {
                if next == Some(b'\n') {
                    self.out.continuations.push(self.i);
                }
                self.step(2, false);
            }
            (b'\'', _) => {
                self.i = find(self.b, self.i + 1, b'\'').unwrap_or(self.b.len());
                self.step(1, false);
            }
            (b'"', _) => self.enter(Ctx::Double, 1, false),
            (b'$', Some(b'\'')) => {
                self.i = ansi_c_end(self.b, self.i + 2);
                self.step(0, false);
            }
            (b'$', Some(b'(')) => self.enter(self.substitution(), 2, true),
            (b'$', Some(b'{')) => self.enter(Ctx::code(b'}'), 2, false),
            (b'`', _) => self.enter(Ctx::code(b'`'), 1, true),
            (b'<' | b'>', Some(b'(')) => self.enter(Ctx::code(b')'), 2, true),
            // `((` where a command starts is arithmetic (`((x << 2))`, `for ((..))`).
            (b'(', Some(b'(')) if self.word_start && !arith => self.enter(Ctx::ARITH, 1, true),
            _ => self.code_rest(c, next, close, arith),
        }
    }

    /// [`Scanner::code`] past quotes and substitutions: groups, comments, heredocs,
    /// separators and plain bytes.
    fn code_rest(&mut self, c: u8, next: Option<u8>, close: u8, arith: bool) {
        match c {
            b'(' => {
                self.nest(|d, g| {
                    if close == b')' {
                        *d += 1;
                    }
                    *g += 1;
                });
                self.step(1, true);
            }
            b')' => {
                self.nest(|_, g| *g = g.saturating_sub(1));
                self.step(1, true);
            }
            b'{' if close == b'}' => {
                self.nest(|d, _| *d += 1);
                self.step(1, false);
            }
            // A group: `;` inside `{ a; } | b` does not end the pipeline.
            b'{' if self.word_start && matches!(next, Some(b' ' | b'\t' | b'\n')) => {
                self.nest(|_, g| *g += 1);
                self.step(1, false);
            }
            b'}' if self.word_start && self.groups() > 0 => {
                self.nest(|_, g| *g -= 1);
                self.step(1, false);
            }
            b'#' if self.word_start => {
                self.i = find(self.b, self.i, b'\n').unwrap_or(self.b.len());
            }
            // `<<<` is a here-string, not a heredoc; in arithmetic `<<` is a shift.
            b'<' if next == Some(b'<') && self.peek(2) == Some(b'<') => self.step(3, true),
            b'<' if next == Some(b'<') && arith => self.step(2, true),
            b'<' if next == Some(b'<') => self.heredoc(),
            b'\n' => self.newline(),
            b';' | b'&' | b'|' => self.operator(c, next),
            b' ' | b'\t' => {
                self.i += 1;
                self.word_start = true;
            }
            b'<' | b'>' => self.step(1, true),
            _ => self.step(1, false),
        }
    }

    /// `<<` or `<<-` and its delimiter word: the body starts after the current line.
    fn heredoc(&mut self) {
        let strip_tabs = self.peek(2) == Some(b'-');
        let mut j = self.i + 2 + usize::from(strip_tabs);
        while j < self.b.len() && (self.b[j] == b' ' || self.b[j] == b'\t') {
            j += 1;
        }
        let (delim, quoted, end) = heredoc_word(self.b, j);
        if !delim.is_empty() {
            self.pending.push(Pending {
                delim,
                quoted,
                strip_tabs,
            });
        }
        let start = self.i;
        self.i = end.max(start + 2);
        self.step(0, false);
    }

    /// A newline: a separator at the top level, the end of a pipeline that no operator
    /// continues, and the start of any pending heredoc bodies.
    fn newline(&mut self) {
        if self.stack.len() == 1 {
            self.out.separators.push(Separator {
                at: self.i,
                len: 1,
                kind: SepKind::Newline,
            });
        }
        if !self.continued && self.groups() == 0 {
            self.pipes = 0;
        }
        self.i += 1;
        if !self.pending.is_empty() {
            self.i = read_bodies(self.b, self.i, &mut self.pending, &mut self.out);
        }
        self.word_start = true;
    }

    /// `;`, `&`, `|` and their two-byte forms.
    fn operator(&mut self, c: u8, two: Option<u8>) {
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
            && (self.i > 0 && matches!(self.b[self.i - 1], b'>' | b'<') || two == Some(b'>'));
        if let Some(kind) = kind
            && self.stack.len() == 1
            && !redirect
        {
            self.out.separators.push(Separator {
                at: self.i,
                len,
                kind,
            });
        }
        if kind == Some(SepKind::Pipe) {
            self.pipes += 1;
            self.longest = self.longest.max(self.pipes);
        } else if (c == b';' || kind == Some(SepKind::Background) && !redirect)
            && self.groups() == 0
        {
            self.pipes = 0;
        }
        self.i += len;
        self.word_start = true;
        self.continued =
            !redirect && matches!(kind, Some(SepKind::Pipe | SepKind::And | SepKind::Or));
    }

    /// The scan, with the heredocs opened on the last line (no newline after it) as empty,
    /// unterminated bodies.
    fn finish(mut self) -> Scan {
        for p in self.pending {
            self.out.heredocs.push(HeredocBody {
                start: self.b.len(),
                end: self.b.len(),
                quoted: p.quoted,
                delim: p.delim,
                terminated: false,
            });
        }
        self.out.longest_pipeline = self.longest + 1;
        self.out
    }
}

/// The text to append so that every unterminated heredoc ends at the end of input, as bash
/// ends it: a newline (when missing) and each missing delimiter line. `None` when all are
/// terminated.
pub fn heredoc_closing(text: &str) -> Option<String> {
    if !text.contains("<<") {
        return None;
    }
    let open: Vec<HeredocBody> = scan(text)
        .heredocs
        .into_iter()
        .filter(|h| !h.terminated)
        .collect();
    if open.is_empty() {
        return None;
    }
    let mut s = String::new();
    if !text.ends_with('\n') {
        s.push('\n');
    }
    for h in open {
        s.push_str(&h.delim);
        s.push('\n');
    }
    Some(s)
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
        let mut terminated = false;
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
                terminated = true;
                break;
            }
        }
        out.heredocs.push(HeredocBody {
            start,
            end: i,
            quoted: p.quoted,
            delim: p.delim,
            terminated,
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
    fn shifts_in_arithmetic_are_not_heredocs() {
        let s = scan("echo $((1 << 2))\na; b");
        assert!(s.heredocs.is_empty(), "{s:?}");
        assert_eq!(
            seps("echo $((1 << 2))\na; b"),
            vec![(16, SepKind::Newline), (18, SepKind::Semicolon)]
        );
        assert_eq!(heredoc_closing("x=$((1<<3)) \"$((y << 1))\""), None);
        assert_eq!(heredoc_closing("((x <<= 1))\nls"), None);
        // Still a heredoc after the arithmetic closes.
        assert_eq!(heredoc_closing("((x)); cat <<E"), Some("\nE\n".into()));
    }

    #[test]
    fn separators_inside_an_arithmetic_for_are_not_command_boundaries() {
        assert_eq!(
            seps("for ((i=0; i<3; i++)); do a; done"),
            vec![(21, SepKind::Semicolon), (27, SepKind::Semicolon)]
        );
    }

    #[test]
    fn continuations_outside_single_quotes_and_quoted_heredocs() {
        assert_eq!(continuations("r\\\nm \"a\\\nb\" 'c\\\nd'"), vec![1, 7]);
        assert_eq!(continuations("# x\\\ny"), Vec::<usize>::new());
        assert_eq!(continuations("cat <<'E'\na\\\nE\n"), Vec::<usize>::new());
        assert_eq!(continuations("cat <<E\na\\\nb\nE\n"), vec![9]);
    }
}
