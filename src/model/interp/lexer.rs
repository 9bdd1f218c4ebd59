//! Shared tokenizer machinery for the interpreter scanners: a char-safe cursor, tokens, escape
//! decoding, string bodies with interpolation, heredocs, and call-argument helpers.

use super::Out;

/// Brackets nested deeper than this make the code unreadable instead of being tracked.
const MAX_DEPTH: usize = 256;
/// Interpolation (`f"{..}"`, `${..}`, `#{..}`) recurses into the code lexer; this bounds it.
const MAX_INTERP: usize = 32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    Var,
    Str,
    /// A string run by a shell: backticks, `qx//`, `%x()`.
    Cmd,
    /// A word list (`qw()`, `%w[]`): `text` holds the words separated by whitespace.
    Words,
    Sym,
    Num,
    Punct,
    Regex,
    /// A statement-ending newline, only emitted where the language needs it (Ruby).
    Nl,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Kind,
    /// Identifier or punctuation text, or the decoded value of a string-like token.
    pub text: String,
    /// For string-like tokens: nothing was interpolated, so `text` is the runtime value.
    pub literal: bool,
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub fn punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && self.text == p
    }
    pub fn ident(&self, s: &str) -> bool {
        self.kind == Kind::Ident && self.text == s
    }
    pub fn lit(&self) -> Option<&str> {
        (self.kind == Kind::Str && self.literal).then_some(self.text.as_str())
    }
}

/// A position in the source that only ever moves by whole chars, up to `limit`.
pub(crate) struct Cursor<'a> {
    pub src: &'a str,
    pub pos: usize,
    pub limit: usize,
}

impl<'a> Cursor<'a> {
    pub fn rest(&self) -> &'a str {
        self.src.get(self.pos..self.limit).unwrap_or("")
    }
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    pub fn peek2(&self) -> Option<char> {
        self.rest().chars().nth(1)
    }
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }
    pub fn eat(&mut self, s: &str) -> bool {
        let hit = self.rest().starts_with(s);
        if hit {
            self.pos += s.len();
        }
        hit
    }
    pub fn eat_while(&mut self, f: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !f(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        self.src.get(start..self.pos).unwrap_or("")
    }
    pub fn skip_line(&mut self) {
        self.eat_while(|c| c != '\n');
    }
    pub fn at_line_start(&self) -> bool {
        self.pos == 0 || self.src.as_bytes().get(self.pos - 1) == Some(&b'\n')
    }
    pub fn prev_char(&self) -> Option<char> {
        self.src.get(..self.pos)?.chars().next_back()
    }
    /// Skips to just past the next line that starts with `marker`; false when there is none.
    pub fn skip_past_line_starting(&mut self, marker: &str) -> bool {
        while self.bump().is_some() {
            if self.at_line_start() && self.rest().starts_with(marker) {
                self.skip_line();
                return true;
            }
        }
        false
    }
}

pub(crate) fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

pub(crate) fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Backslash rules of a string kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Esc {
    Python,
    Js,
    Perl,
    Ruby,
    Php,
    /// Python raw strings: the backslash stays and protects the next char.
    Raw,
    /// Single-quoted strings: only `\\` and an escaped delimiter are special.
    Single,
}

/// How code is embedded in a string kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Interp {
    None,
    Python,
    Js,
    Ruby,
    Perl,
    Php,
}

/// The shape of one string body: its closing text (empty: up to the cursor limit), an optional
/// opening bracket that nests, and its escape and interpolation rules.
pub(crate) struct StrSpec<'s> {
    pub close: &'s str,
    pub open: Option<char>,
    pub esc: Esc,
    pub interp: Interp,
    pub multiline: bool,
}

impl<'s> StrSpec<'s> {
    /// A body that may span lines, as quote-like operators and most string kinds do.
    pub fn new(close: &'s str, open: Option<char>, esc: Esc, interp: Interp) -> Self {
        StrSpec {
            close,
            open,
            esc,
            interp,
            multiline: true,
        }
    }
}

/// The closing delimiter of a quote-like opener `d` and, for a bracket, the opener that nests:
/// `q(a(b)c)` closes at the second `)`, `q/a/` at the second `/`.
pub(crate) fn closer(d: char) -> (String, Option<char>) {
    match d {
        '(' => (")".into(), Some('(')),
        '[' => ("]".into(), Some('[')),
        '{' => ("}".into(), Some('{')),
        '<' => (">".into(), Some('<')),
        _ => (d.to_string(), None),
    }
}

/// The char a language lexer's loop is at, with the one after it and the bracket depth the
/// loop started at (its interpolation's own brackets are above it).
pub(crate) struct At {
    pub start: usize,
    pub c: char,
    pub c2: Option<char>,
    pub base: usize,
}

/// The language's code lexer; `nested` means "stop at the `}` closing an interpolation".
pub(crate) type CodeFn = fn(&mut Lex<'_>, bool);

/// A heredoc whose body starts at the next line.
pub(crate) struct Heredoc {
    pub tag: String,
    pub indent: bool,
    pub dedent: bool,
    pub php: bool,
    pub esc: Esc,
    pub interp: Interp,
}

pub(crate) struct Lex<'a> {
    pub cur: Cursor<'a>,
    pub toks: Vec<Token>,
    stack: Vec<char>,
    interp: usize,
    pub err: Option<String>,
    pub pending: Vec<(usize, Heredoc)>,
}

impl<'a> Lex<'a> {
    pub fn new(src: &'a str) -> Self {
        let cur = Cursor {
            src,
            pos: 0,
            limit: src.len(),
        };
        Lex {
            cur,
            toks: Vec::new(),
            stack: Vec::new(),
            interp: 0,
            err: None,
            pending: Vec::new(),
        }
    }
    pub fn ok(&self) -> bool {
        self.err.is_none()
    }
    pub fn fail(&mut self, msg: &str) {
        if self.err.is_none() {
            self.err = Some(msg.to_string());
        }
    }
    pub fn depth(&self) -> usize {
        self.stack.len()
    }
    /// True when the innermost open bracket is `(` or `[`, where newlines do not end statements.
    pub fn in_parens(&self, base: usize) -> bool {
        self.stack.len() > base && matches!(self.stack.last(), Some('(' | '['))
    }
    pub fn prev(&self) -> Option<&Token> {
        self.toks.last()
    }
    pub fn push(&mut self, kind: Kind, text: String, start: usize) {
        let end = self.cur.pos;
        self.toks.push(Token {
            kind,
            text,
            literal: true,
            start,
            end,
        });
    }
    /// Reserves the token for a string so tokens lexed from its interpolations follow it.
    pub fn placeholder(&mut self, kind: Kind, start: usize) -> usize {
        self.push(kind, String::new(), start);
        self.toks.len() - 1
    }
    pub fn fill(&mut self, idx: usize, body: Option<(String, bool)>, set_end: bool) {
        let end = self.cur.pos;
        if let (Some(t), Some((text, literal))) = (self.toks.get_mut(idx), body) {
            t.text = text;
            t.literal = literal;
            if set_end {
                t.end = end;
            }
        }
    }
    /// Lexes a bracket at the cursor; returns true when it closes the interpolation being read.
    pub fn bracket(&mut self, c: char, nested: bool, base: usize) -> bool {
        let start = self.cur.pos;
        if matches!(c, '(' | '[' | '{') {
            if self.stack.len() >= MAX_DEPTH {
                self.fail("nesting too deep");
                return false;
            }
            self.stack.push(c);
        } else {
            if nested && c == '}' && self.stack.len() == base {
                self.cur.pos += 1;
                return true;
            }
            let want = match c {
                ')' => '(',
                ']' => '[',
                _ => '{',
            };
            if self.stack.len() <= base || self.stack.pop() != Some(want) {
                self.fail("unbalanced brackets");
                return false;
            }
        }
        self.cur.pos += 1;
        self.push(Kind::Punct, c.to_string(), start);
        false
    }
    /// The loop of a language's code lexer: `arm` lexes what is particular to the language and
    /// returns false for what it leaves to the rules every language shares (numbers, brackets,
    /// operators of `ops`). Nested code (`nested`) ends at the `}` closing its interpolation;
    /// running out of input before it fails with `eof`.
    pub fn run(
        &mut self,
        nested: bool,
        eof: &str,
        ops: &[&str],
        mut arm: impl FnMut(&mut Self, At) -> bool,
    ) {
        let base = self.depth();
        while self.ok() {
            let start = self.cur.pos;
            let Some(c) = self.cur.peek() else {
                if nested {
                    self.fail(eof);
                }
                return;
            };
            let c2 = self.cur.peek2();
            if arm(self, At { start, c, c2, base }) {
                continue;
            }
            match c {
                '0'..='9' => self.number(),
                '(' | '[' | '{' | ')' | ']' | '}' => {
                    if self.bracket(c, nested, base) {
                        return;
                    }
                }
                _ => self.punct(ops),
            }
        }
    }
    /// Lexes all of the code with `code` and reports to `out` why it could not be read.
    pub fn lex_all(&mut self, code: CodeFn, out: &mut Out) {
        code(self, false);
        self.end();
        if let Some(e) = &self.err {
            out.fail(e);
        }
    }
    /// Lexes a string-like token whose body starts at the cursor (just after its opener).
    pub fn string(&mut self, kind: Kind, start: usize, spec: &StrSpec, code: CodeFn) {
        let idx = self.placeholder(kind, start);
        let body = read_body(self, spec, code);
        self.fill(idx, body, true);
    }
    /// Whether a `/` (or `%`, `?`) at the cursor starts a literal rather than an operator:
    /// at the start, after an operator or an opening bracket, after a statement end, or after
    /// a word of `term_after` (`split /,/`). After any other bareword, a space before it and
    /// none after it read as an argument (`foo /x/`), else as an operator (`$n / 2`).
    pub fn term_pos(&self, term_after: &[&str]) -> bool {
        let Some(t) = self.prev() else { return true };
        match t.kind {
            Kind::Punct => !matches!(t.text.as_str(), ")" | "]" | "}"),
            Kind::Nl => true,
            Kind::Ident => {
                term_after.contains(&t.text.as_str())
                    || self.cur.prev_char().is_some_and(char::is_whitespace)
                        && self
                            .cur
                            .peek2()
                            .is_some_and(|c| !c.is_whitespace() && c != '=')
            }
            _ => false,
        }
    }
    /// The tag of the heredoc opener at the cursor, bare or quoted (`"EOF"`, `'EOF'`,
    /// `` `EOF` ``), with its quote; None, failing the lexer, when a quoted tag is not closed.
    pub fn heredoc_tag(&mut self) -> Option<(Option<char>, String)> {
        let q = self.cur.peek().filter(|c| matches!(c, '"' | '\'' | '`'));
        let tag = match q {
            Some(q) => {
                self.cur.bump();
                let tag = self.cur.eat_while(|c| c != q && c != '\n').to_string();
                if !self.cur.eat(&q.to_string()) {
                    self.fail("unterminated heredoc tag");
                    return None;
                }
                tag
            }
            None => self.cur.eat_while(is_ident).to_string(),
        };
        Some((q, tag))
    }
    /// Queues heredoc `h`, whose body starts at the next line, behind its token: a command
    /// for a backtick tag, else a string.
    pub fn defer_heredoc(&mut self, quote: Option<char>, start: usize, h: Heredoc) {
        let kind = if quote == Some('`') {
            Kind::Cmd
        } else {
            Kind::Str
        };
        let idx = self.placeholder(kind, start);
        self.pending.push((idx, h));
    }
    /// Skips a `/* .. */` comment that starts at the cursor.
    pub fn block_comment(&mut self) {
        self.cur.pos += 2;
        match self.cur.rest().find("*/") {
            Some(k) => self.cur.pos += k + 2,
            None => self.fail("unterminated comment"),
        }
    }
    /// Lexes the longest operator of `ops` at the cursor, else a single char.
    pub fn punct(&mut self, ops: &[&str]) {
        let start = self.cur.pos;
        if let Some(op) = ops.iter().find(|op| self.cur.rest().starts_with(**op)) {
            self.cur.pos += op.len();
            self.push(Kind::Punct, (*op).to_string(), start);
        } else if let Some(c) = self.cur.bump() {
            self.push(Kind::Punct, c.to_string(), start);
        }
    }
    pub fn number(&mut self) {
        let start = self.cur.pos;
        let mut prev = ' ';
        while let Some(c) = self.cur.peek() {
            let digit_after_dot = c == '.' && self.cur.peek2().is_some_and(|d| d.is_ascii_digit());
            let exp_sign = matches!(c, '+' | '-') && matches!(prev, 'e' | 'E');
            if !(c.is_ascii_alphanumeric() || c == '_' || digit_after_dot || exp_sign) {
                break;
            }
            prev = c;
            self.cur.pos += 1;
        }
        let text = self
            .cur
            .src
            .get(start..self.cur.pos)
            .unwrap_or("")
            .to_string();
        self.push(Kind::Num, text, start);
    }
    fn interpolate(&mut self, code: CodeFn) {
        self.recurse(code, true);
    }
    /// Lexes embedded code (an interpolation, or the code of `s///e`) within the depth limit.
    pub fn recurse(&mut self, code: CodeFn, nested: bool) {
        if self.interp >= MAX_INTERP {
            self.fail("nesting too deep");
            return;
        }
        self.interp += 1;
        code(self, nested);
        self.interp -= 1;
    }
    /// Checks what must hold once the whole input has been lexed.
    pub fn end(&mut self) {
        if !self.pending.is_empty() {
            self.fail("unterminated heredoc");
        }
        if !self.stack.is_empty() {
            self.fail("unclosed bracket");
        }
    }
    /// Reads the bodies of heredocs opened on the line just ended (cursor after its newline).
    pub fn flush_heredocs(&mut self, code: CodeFn) {
        let pending = std::mem::take(&mut self.pending);
        for (i, (idx, h)) in pending.iter().enumerate() {
            if i > 0 {
                self.cur.eat("\n");
            }
            let body = read_heredoc(self, h, code);
            self.fill(*idx, body, false);
        }
        if !pending.is_empty() {
            self.cur.eat("\n");
        }
    }
}

/// Reads a string body from the cursor (just after the opening delimiter) through its close.
pub(crate) fn read_body(lx: &mut Lex, spec: &StrSpec, code: CodeFn) -> Option<(String, bool)> {
    let mut out = String::new();
    let mut literal = true;
    let mut depth = 0usize;
    loop {
        if !lx.ok() {
            return None;
        }
        if depth == 0 && !spec.close.is_empty() && lx.cur.eat(spec.close) {
            return Some((out, literal));
        }
        let Some(c) = lx.cur.bump() else {
            if spec.close.is_empty() {
                return Some((out, literal));
            }
            lx.fail("unterminated string");
            return None;
        };
        if c == '\n' && !spec.multiline {
            lx.fail("unterminated string");
            return None;
        }
        if c == '\\' {
            escape_in(lx, spec, &mut out);
            continue;
        }
        if spec.open == Some(c) {
            depth += 1;
        } else if depth > 0 && spec.close.starts_with(c) {
            depth -= 1;
        }
        if !interpolates(lx, spec.interp, c, &mut out, &mut literal, code) {
            out.push(c);
        }
    }
}

fn escape_in(lx: &mut Lex, spec: &StrSpec, out: &mut String) {
    match spec.esc {
        Esc::Raw => {
            out.push('\\');
            if let Some(n) = lx.cur.bump() {
                out.push(n);
            }
        }
        Esc::Single => match lx.cur.peek() {
            Some(n) if n == '\\' || spec.close.starts_with(n) || spec.open == Some(n) => {
                lx.cur.bump();
                out.push(n);
            }
            _ => out.push('\\'),
        },
        esc => decode_escape(&mut lx.cur, esc, out),
    }
}

/// Handles a char that may start interpolated code; returns true when it consumed it.
fn interpolates(
    lx: &mut Lex,
    interp: Interp,
    c: char,
    out: &mut String,
    literal: &mut bool,
    code: CodeFn,
) -> bool {
    let next = lx.cur.peek();
    let embed = match (interp, c) {
        (Interp::Python, '{') | (Interp::Python, '}') if next == Some(c) => {
            lx.cur.bump();
            out.push(c);
            return true;
        }
        (Interp::Python, '{') => true,
        (Interp::Js, '$') | (Interp::Perl, '$' | '@') | (Interp::Php, '$') => lx.cur.eat("{"),
        (Interp::Ruby, '#') => lx.cur.eat("{"),
        (Interp::Php, '{') => next == Some('$'),
        _ => false,
    };
    if embed {
        *literal = false;
        lx.interpolate(code);
        return true;
    }
    let var = |n: Option<char>, extra: &str| n.is_some_and(|n| is_ident(n) || extra.contains(n));
    match (interp, c) {
        (Interp::Ruby, '#') if matches!(next, Some('@' | '$')) => *literal = false,
        (Interp::Perl, '$') if var(next, ":$!&") => *literal = false,
        (Interp::Perl, '@') if var(next, ":$") => *literal = false,
        (Interp::Php, '$') if next.is_some_and(is_ident_start) => *literal = false,
        _ => {}
    }
    false
}

fn hex(cur: &mut Cursor, max: usize) -> Option<char> {
    let start = cur.pos;
    let mut n = 0;
    while n < max && cur.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
        cur.pos += 1;
        n += 1;
    }
    let digits = cur.src.get(start..cur.pos)?;
    let v = u32::from_str_radix(digits, 16).ok()?;
    Some(char::from_u32(v).unwrap_or('\u{fffd}'))
}

fn braced_hex(cur: &mut Cursor, out: &mut String) -> bool {
    if !cur.eat("{") {
        return false;
    }
    let c = hex(cur, 8);
    cur.eat("}");
    out.push(c.unwrap_or('\u{fffd}'));
    true
}

/// Decodes one escape after its backslash (already consumed) the way `esc` strings do.
pub(crate) fn decode_escape(cur: &mut Cursor, esc: Esc, out: &mut String) {
    use Esc::*;
    let Some(c) = cur.bump() else {
        out.push('\\');
        return;
    };
    match c {
        'n' => out.push('\n'),
        't' => out.push('\t'),
        'r' => out.push('\r'),
        'f' => out.push('\x0c'),
        'v' if esc != Perl => out.push('\x0b'),
        'a' if !matches!(esc, Js | Php) => out.push('\x07'),
        'b' if esc != Php => out.push('\x08'),
        'e' if matches!(esc, Perl | Ruby | Php) => out.push('\x1b'),
        '0'..='7' => {
            let mut v = c.to_digit(8).unwrap_or(0);
            for _ in 0..2 {
                match cur.peek().and_then(|d| d.to_digit(8)) {
                    Some(d) => {
                        v = v * 8 + d;
                        cur.pos += 1;
                    }
                    None => break,
                }
            }
            out.push(char::from_u32(v).unwrap_or('\u{fffd}'));
        }
        'x' => {
            if !(matches!(esc, Perl) && braced_hex(cur, out)) {
                match hex(cur, 2) {
                    Some(h) => out.push(h),
                    None => out.push_str("\\x"),
                }
            }
        }
        'u' if matches!(esc, Js | Ruby | Php) && braced_hex(cur, out) => {}
        'u' if matches!(esc, Python | Js | Ruby) => match hex(cur, 4) {
            Some(h) => out.push(h),
            None => out.push_str("\\u"),
        },
        'U' if esc == Python => match hex(cur, 8) {
            Some(h) => out.push(h),
            None => out.push_str("\\U"),
        },
        '\n' if matches!(esc, Python | Js | Ruby) => {}
        '\\' | '"' => out.push(c),
        '\'' if esc != Php => out.push(c),
        '$' if esc == Php => out.push(c),
        _ if matches!(esc, Python | Php) => {
            out.push('\\');
            out.push(c);
        }
        _ => out.push(c),
    }
}

/// Reads a heredoc body from the cursor (start of the line after the opener).
pub(crate) fn read_heredoc(lx: &mut Lex, h: &Heredoc, code: CodeFn) -> Option<(String, bool)> {
    let (src, limit, body_start) = (lx.cur.src, lx.cur.limit, lx.cur.pos);
    let mut line_start = body_start;
    let (body_end, after) = loop {
        let rest = src.get(line_start..limit).unwrap_or("");
        let line_end = rest.find('\n').map_or(limit, |k| line_start + k);
        let line = src.get(line_start..line_end).unwrap_or("");
        let trimmed = if h.indent {
            line.trim_start_matches([' ', '\t'])
        } else {
            line
        };
        let tag_at = line_start + (line.len() - trimmed.len());
        if h.php {
            let after_tag = trimmed.strip_prefix(h.tag.as_str());
            if after_tag.is_some_and(|r| !r.starts_with(is_ident)) {
                break (line_start, tag_at + h.tag.len());
            }
        } else if trimmed.trim_end_matches('\r') == h.tag {
            break (line_start, line_end);
        }
        if line_end >= limit {
            lx.fail("unterminated heredoc");
            return None;
        }
        line_start = line_end + 1;
    };
    let body = if h.esc == Esc::Single {
        Some((
            src.get(body_start..body_end).unwrap_or("").to_string(),
            true,
        ))
    } else {
        lx.cur.limit = body_end;
        let spec = StrSpec {
            close: "",
            open: None,
            esc: h.esc,
            interp: h.interp,
            multiline: true,
        };
        let body = read_body(lx, &spec, code);
        lx.cur.limit = limit;
        body
    };
    lx.cur.pos = after;
    body.map(|(text, lit)| (if h.dedent { dedent(&text) } else { text }, lit))
}

fn dedent(text: &str) -> String {
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let min = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(indent)
        .min()
        .unwrap_or(0);
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.get(min.min(indent(l))..).unwrap_or(""))
        .collect();
    let mut joined = lines.join("\n");
    if text.ends_with('\n') {
        joined.push('\n');
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noop(_: &mut Lex<'_>, _: bool) {}

    fn body(src: &str, esc: Esc) -> Option<(String, bool)> {
        let mut lx = Lex::new(src);
        let spec = StrSpec {
            close: "\"",
            open: None,
            esc,
            interp: Interp::None,
            multiline: false,
        };
        read_body(&mut lx, &spec, noop)
    }

    #[test]
    fn decodes_hex_octal_and_unicode_escapes() {
        assert_eq!(
            body(r#"\x72m \055rf \u002f""#, Esc::Python),
            Some(("rm -rf /".into(), true))
        );
        assert_eq!(body(r#"\u{72}m""#, Esc::Js), Some(("rm".into(), true)));
        assert_eq!(body(r#"\x{72}m""#, Esc::Perl), Some(("rm".into(), true)));
    }

    #[test]
    fn keeps_unknown_python_escapes_and_raw_backslashes() {
        assert_eq!(
            body(r#"a\db""#, Esc::Python).map(|b| b.0),
            Some(r"a\db".into())
        );
        assert_eq!(
            body(r#"a\"b""#, Esc::Raw).map(|b| b.0),
            Some(r#"a\"b"#.into())
        );
    }

    #[test]
    fn reports_unterminated_string() {
        let mut lx = Lex::new("abc");
        let spec = StrSpec {
            close: "'",
            open: None,
            esc: Esc::Single,
            interp: Interp::None,
            multiline: true,
        };
        assert_eq!(read_body(&mut lx, &spec, noop), None);
        assert!(lx.err.is_some());
    }

    #[test]
    fn cursor_never_splits_multibyte_chars() {
        let mut c = Cursor {
            src: "é🦀x",
            pos: 0,
            limit: 7,
        };
        assert_eq!(c.bump(), Some('é'));
        assert_eq!(c.peek2(), Some('x'));
        assert_eq!(c.bump(), Some('🦀'));
        assert_eq!(c.prev_char(), Some('🦀'));
    }

    #[test]
    fn dedents_squiggly_heredoc_text() {
        assert_eq!(dedent("  a\n    b\n"), "a\n  b\n");
    }
}
