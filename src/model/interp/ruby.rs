//! Ruby scanner: tokenizes `ruby -e` code (`%` literals, heredocs, symbols, `#{}`) and finds
//! process, delete, write, network and eval capabilities of Kernel and the standard library.

use std::ops::Range;

use super::lexer::{self, At, Esc, Heredoc, Interp, Kind, Lex, StrSpec, Token};
use super::tokens::{self, View};
use super::{CapKind, Out};

const OPS: &[&str] = &[
    "**=", "<=>", "===", "...", "||=", "&&=", "<<=", ">>=", "==", "!=", "=~", "!~", "<=", ">=",
    "&&", "||", "<<", ">>", "**", "::", "..", "=>", "->", "&.", "+=", "-=", "*=", "/=", "%=", "|=",
    "&=", "^=",
];
const JOIN: &[&str] = &["+"];
/// Why nested code (an interpolation) that runs out of input is unreadable.
const UNTERMINATED: &str = "unterminated interpolation";
/// Words after which `/`, `%` and `?` start a literal rather than an operator.
const TERM_AFTER: &[&str] = &[
    "if", "unless", "elsif", "when", "while", "until", "and", "or", "not", "return", "puts",
    "print", "p", "case", "in", "then", "do", "yield", "else", "split", "scan", "match", "gsub",
    "sub",
];
const ARGS_END: &[&str] = &[
    "do", "if", "unless", "while", "until", "and", "or", "rescue", "then", "end",
];
const FU_DELETE: &[&str] = &[
    "rm",
    "rm_f",
    "rm_r",
    "rm_rf",
    "rmtree",
    "remove",
    "remove_dir",
    "remove_entry",
    "remove_entry_secure",
    "remove_file",
    "rmdir",
    "safe_unlink",
];
const FU_RECURSIVE: &[&str] = &[
    "rm_r",
    "rm_rf",
    "rmtree",
    "remove_dir",
    "remove_entry",
    "remove_entry_secure",
];
const FU_WRITE: &[&str] = &[
    "cp",
    "cp_r",
    "cp_lr",
    "copy",
    "copy_entry",
    "copy_file",
    "copy_stream",
    "mv",
    "move",
    "touch",
    "chmod",
    "chmod_R",
    "chown",
    "chown_R",
    "ln",
    "ln_s",
    "ln_sf",
    "ln_sr",
    "link",
    "symlink",
    "install",
];
const NET_CONSTS: &[&str] = &[
    "TCPSocket",
    "UDPSocket",
    "TCPServer",
    "UNIXSocket",
    "UNIXServer",
    "Socket",
    "OpenURI",
    "HTTParty",
    "Faraday",
    "RestClient",
    "Excon",
    "HTTPClient",
    "Typhoeus",
];

pub(crate) fn scan(code: &str, out: &mut Out) {
    let mut lx = Lex::new(code);
    lx.lex_all(lex, out);
    let include_fu = lx
        .toks
        .windows(2)
        .any(|w| matches!(w, [a, b] if a.ident("include") && b.ident("FileUtils")));
    Scanner {
        t: &lx.toks,
        out,
        code,
        include_fu,
    }
    .run();
}

fn lex(lx: &mut Lex<'_>, nested: bool) {
    lx.run(
        nested,
        UNTERMINATED,
        OPS,
        |lx, At { start, c, c2, base }| {
            match c {
                '\n' => {
                    lx.cur.bump();
                    let continues = lx.prev().is_none_or(|t| {
                        t.kind == Kind::Nl
                            || t.kind == Kind::Punct && !matches!(t.text.as_str(), ")" | "]" | "}")
                    });
                    if !continues && !lx.in_parens(base) {
                        lx.push(Kind::Nl, String::new(), start);
                    }
                    lx.flush_heredocs(lex);
                }
                '\\' if c2 == Some('\n') => lx.cur.pos += 2,
                c if c.is_whitespace() => {
                    lx.cur.bump();
                }
                '#' => lx.cur.skip_line(),
                '=' if lx.cur.at_line_start() && lx.cur.rest().starts_with("=begin") => {
                    if !lx.cur.skip_past_line_starting("=end") {
                        lx.fail("unterminated =begin comment");
                    }
                }
                '_' if lx.cur.at_line_start()
                    && lx.cur.rest().lines().next() == Some("__END__") =>
                {
                    lx.cur.pos = lx.cur.limit;
                }
                '"' => string(lx, start, Kind::Str, "\"", None, Esc::Ruby, Interp::Ruby),
                '`' => string(lx, start, Kind::Cmd, "`", None, Esc::Ruby, Interp::Ruby),
                '\'' => string(lx, start, Kind::Str, "'", None, Esc::Single, Interp::None),
                ':' if c2 == Some('"') => {
                    lx.cur.bump();
                    string(lx, start, Kind::Sym, "\"", None, Esc::Ruby, Interp::Ruby);
                }
                ':' if c2.is_some_and(lexer::is_ident_start) && lx.cur.prev_char() != Some(':') => {
                    lx.cur.bump();
                    let name = ident(lx).to_string();
                    lx.push(Kind::Sym, name, start);
                }
                '@' | '$' => {
                    lx.cur.eat_while(|c| c == '@' || c == '$');
                    if lx.cur.eat_while(lexer::is_ident).is_empty() {
                        lx.cur.bump();
                    }
                    let text = lx.cur.src.get(start..lx.cur.pos).unwrap_or("").to_string();
                    lx.push(Kind::Var, text, start);
                }
                '%' if lx.term_pos(TERM_AFTER) && percent(lx, start) => {}
                '/' if lx.term_pos(TERM_AFTER) => {
                    string(lx, start, Kind::Regex, "/", None, Esc::Single, Interp::Ruby);
                    lx.cur.eat_while(|c| c.is_ascii_alphabetic());
                    if let Some(t) = lx.toks.last_mut() {
                        t.end = lx.cur.pos;
                    }
                }
                '?' if lx.term_pos(TERM_AFTER)
                    && c2.is_some_and(|c| !c.is_whitespace())
                    && !lx.cur.rest().chars().nth(2).is_some_and(lexer::is_ident) =>
                {
                    lx.cur.bump();
                    let ch = lx.cur.bump().map(String::from).unwrap_or_default();
                    lx.push(Kind::Str, ch, start);
                }
                '<' if heredoc_start(lx.cur.rest()) => heredoc(lx, start),
                c if lexer::is_ident_start(c) => {
                    let name = ident(lx).to_string();
                    lx.push(Kind::Ident, name, start);
                }
                _ => return false,
            }
            true
        },
    );
}

/// An identifier with Ruby's `?`/`!` method suffix.
fn ident<'a>(lx: &mut Lex<'a>) -> &'a str {
    let start = lx.cur.pos;
    lx.cur.eat_while(lexer::is_ident);
    if matches!(lx.cur.peek(), Some('?' | '!')) && lx.cur.peek2() != Some('=') {
        lx.cur.bump();
    }
    lx.cur.src.get(start..lx.cur.pos).unwrap_or("")
}

/// The string body is read with `open` brackets nesting; the cursor is at the opener.
fn string(
    lx: &mut Lex<'_>,
    start: usize,
    kind: Kind,
    close: &str,
    open: Option<char>,
    esc: Esc,
    interp: Interp,
) {
    lx.cur.bump();
    lx.string(kind, start, &StrSpec::new(close, open, esc, interp), lex);
}

/// `%q() %Q() %() %w[] %W[] %i[] %I[] %x() %r{} %s()`; false when `%` is an operator here.
fn percent(lx: &mut Lex<'_>, start: usize) -> bool {
    let mut chars = lx.cur.rest().chars().skip(1);
    let (t, d) = (chars.next(), chars.next());
    let delim =
        |c: Option<char>| c.filter(|c| !c.is_alphanumeric() && !c.is_whitespace() && *c != '=');
    let (ty, d, explicit) = match (t, delim(d), delim(t)) {
        (Some(t @ ('q' | 'Q' | 'w' | 'W' | 'i' | 'I' | 'x' | 'r' | 's')), Some(d), _) => {
            (t, d, true)
        }
        (_, _, Some(d)) => ('Q', d, false),
        _ => return false,
    };
    lx.cur.bump();
    if explicit {
        lx.cur.bump();
    }
    let (close, open) = lexer::closer(d);
    let (kind, esc, interp) = match ty {
        'q' => (Kind::Str, Esc::Single, Interp::None),
        'w' | 'i' => (Kind::Words, Esc::Single, Interp::None),
        'W' | 'I' => (Kind::Words, Esc::Ruby, Interp::Ruby),
        'x' => (Kind::Cmd, Esc::Ruby, Interp::Ruby),
        'r' => (Kind::Regex, Esc::Single, Interp::Ruby),
        's' => (Kind::Sym, Esc::Single, Interp::None),
        _ => (Kind::Str, Esc::Ruby, Interp::Ruby),
    };
    string(lx, start, kind, &close, open, esc, interp);
    if ty == 'r' {
        lx.cur.eat_while(|c| c.is_ascii_alphabetic());
    }
    true
}

fn heredoc_start(rest: &str) -> bool {
    let Some(r) = rest.strip_prefix("<<") else {
        return false;
    };
    match r.strip_prefix(['~', '-']) {
        Some(r) => r.starts_with(['"', '\'', '`']) || r.starts_with(lexer::is_ident_start),
        None => r.starts_with(['"', '\'', '`']) || r.starts_with(|c: char| c.is_ascii_uppercase()),
    }
}

fn heredoc(lx: &mut Lex<'_>, start: usize) {
    lx.cur.pos += 2;
    let squiggly = lx.cur.eat("~");
    let dash = !squiggly && lx.cur.eat("-");
    let Some((q, tag)) = lx.heredoc_tag() else {
        return;
    };
    let raw = q == Some('\'');
    let h = Heredoc {
        tag,
        indent: squiggly || dash,
        dedent: squiggly,
        php: false,
        esc: if raw { Esc::Single } else { Esc::Ruby },
        interp: if raw { Interp::None } else { Interp::Ruby },
    };
    lx.defer_heredoc(q, start, h);
}

fn require_kind(lib: &str) -> Option<CapKind> {
    match lib {
        "open3" | "pty" | "open4" => Some(CapKind::Process),
        "socket" | "open-uri" | "httparty" | "faraday" | "rest-client" | "excon" | "httpclient"
        | "typhoeus" => Some(CapKind::Network),
        l if l.starts_with("net/") => Some(CapKind::Network),
        _ => None,
    }
}

/// Capability of a canonical name such as `FileUtils.rm_rf`, `Net::HTTP.get` or `system`.
fn classify(name: &str) -> Option<CapKind> {
    let (recv, m) = name.rsplit_once('.').unwrap_or(("", name));
    let net = |c: &str| {
        c == "Net"
            || c.starts_with("Net::")
            || NET_CONSTS.contains(&c.split("::").next().unwrap_or(""))
    };
    match (recv, m) {
        ("", "system" | "exec" | "spawn" | "fork" | "syscall")
        | ("IO", "popen")
        | ("PTY", _)
        | ("Open3" | "Open4", _) => Some(CapKind::Process),
        ("FileUtils", f) if FU_DELETE.contains(&f) => Some(CapKind::Delete),
        ("FileUtils", f) if FU_WRITE.contains(&f) => Some(CapKind::Write),
        ("File", "delete" | "unlink") | ("Dir", "rmdir" | "delete" | "unlink") => {
            Some(CapKind::Delete)
        }
        ("File" | "IO", "write" | "binwrite")
        | (
            "File",
            "rename" | "chmod" | "chown" | "lchmod" | "lchown" | "symlink" | "link" | "truncate"
            | "utime" | "mkfifo",
        ) => Some(CapKind::Write),
        ("URI", "open") => Some(CapKind::Network),
        (r, _) if net(r) => Some(CapKind::Network),
        ("", c) if net(c) => Some(CapKind::Network),
        ("", "load") | ("Marshal", "load" | "restore") | ("binding", "eval") => Some(CapKind::Eval),
        _ => None,
    }
}

/// Whether a call of `name` can matter, so that its arguments are worth reading.
fn wanted(name: &str, last: &str) -> bool {
    let special = [
        "eval",
        "instance_eval",
        "class_eval",
        "module_eval",
        "send",
        "public_send",
        "__send__",
        "method",
        "rmtree",
        "open",
        "require",
        "require_relative",
    ];
    classify(name).is_some()
        || special.contains(&last)
        || name.starts_with("Pathname")
        || matches!(
            name,
            "File.open" | "File.new" | "IO.read" | "IO.readlines" | "IO.foreach"
        )
}

struct Scanner<'t, 'o> {
    t: &'t [Token],
    out: &'o mut Out,
    code: &'t str,
    include_fu: bool,
}

impl<'t> View<'t> for Scanner<'t, '_> {
    fn toks(&self) -> &'t [Token] {
        self.t
    }
}

impl<'t> Scanner<'t, '_> {
    fn lit(&self, r: &Range<usize>) -> Option<String> {
        tokens::lit(self.t, r, JOIN, true)
    }

    fn run(mut self) {
        let mut i = 0;
        while i < self.t.len() {
            i = self.visit(i);
        }
    }

    /// Arguments starting at `j`, in parentheses or up to the end of the statement.
    fn call_args(&self, j: usize) -> (Vec<Range<usize>>, usize) {
        if self.is(j, "(") {
            return tokens::args(self.t, j).map_or((Vec::new(), j), |(a, close)| (a, close + 1));
        }
        let starts_arg = self.t.get(j).is_some_and(|t| match t.kind {
            Kind::Str | Kind::Cmd | Kind::Words | Kind::Sym | Kind::Var | Kind::Num => true,
            Kind::Ident => !ARGS_END.contains(&t.text.as_str()),
            Kind::Punct => matches!(t.text.as_str(), "[" | "*" | "::"),
            _ => false,
        });
        if !starts_arg {
            return (Vec::new(), j);
        }
        let stop = |t: &Token| {
            t.kind == Kind::Nl
                || t.punct(";")
                || t.kind == Kind::Ident && ARGS_END.contains(&t.text.as_str())
        };
        match tokens::bare_end(self.t, j, stop) {
            Some(end) => (tokens::split(self.t, j..end), end),
            None => (Vec::new(), j),
        }
    }

    /// Arguments that are neither hashes nor `key: value` / `:key => value` options.
    fn plain(&self, args: &[Range<usize>]) -> Vec<Range<usize>> {
        let option = |a: &Range<usize>| {
            self.is(a.start, "{")
                || self.is(a.start + 1, ":") && self.ident(a.start).is_some()
                || self.is(a.start + 1, "=>")
        };
        args.iter().filter(|a| !option(a)).cloned().collect()
    }

    fn visit(&mut self, i: usize) -> usize {
        let Some(t) = self.t.get(i) else { return i + 1 };
        if t.kind == Kind::Cmd {
            let what = if self.code.get(t.start..).is_some_and(|s| s.starts_with('%')) {
                "%x"
            } else {
                "backticks"
            };
            self.out.cap(CapKind::Process, what, (t.start, t.end));
            if t.literal {
                self.out.code(t.text.clone(), (t.start, t.end));
            }
            return i + 1;
        }
        if t.kind != Kind::Ident {
            return i + 1;
        }
        let prev = i.checked_sub(1).and_then(|p| self.t.get(p));
        let after_dot = prev.is_some_and(|p| p.punct(".") || p.punct("&.") || p.punct("::"));
        let label = self
            .t
            .get(i + 1)
            .is_some_and(|n| n.punct(":") && n.start == t.end);
        if label || prev.is_some_and(|p| p.ident("def")) {
            return i + 1;
        }
        if after_dot {
            self.dispatch(&t.text, i, i + 1, true);
            return i + 1;
        }
        let (name, j) = self.chain(i);
        self.dispatch(&name, i, j, false);
        j.max(i + 1)
    }

    fn chain(&self, i: usize) -> (String, usize) {
        let mut name = self.ident(i).unwrap_or("").to_string();
        let mut j = i + 1;
        while let (true, Some(seg)) = (
            self.is(j, ".") || self.is(j, "&.") || self.is(j, "::"),
            self.ident(j + 1),
        ) {
            let constant = self.is(j, "::") && seg.starts_with(|c: char| c.is_ascii_uppercase());
            name.push_str(if constant { "::" } else { "." });
            name.push_str(seg);
            j += 2;
        }
        for prefix in ["Kernel.", "Object.", "Process."] {
            let rest = name.strip_prefix(prefix).unwrap_or(&name);
            if prefix != "Process." || matches!(rest, "spawn" | "exec" | "fork") {
                name = rest.to_string();
            }
        }
        if self.include_fu
            && (FU_DELETE.contains(&name.as_str()) || FU_WRITE.contains(&name.as_str()))
        {
            name = format!("FileUtils.{name}");
        }
        (name, j)
    }

    /// Handles a call of `name` whose head token is `i` and arguments start at `j`.
    fn dispatch(&mut self, name: &str, i: usize, j: usize, method: bool) {
        let t = self.t;
        let last = name.rsplit('.').next().unwrap_or(name);
        if !wanted(name, last) {
            return;
        }
        let (args, after) = self.call_args(j);
        let start = t.get(i).map_or(0, |t| t.start);
        let span = (
            start,
            t.get(after.saturating_sub(1).max(i))
                .map_or(start, |e| e.end),
        );
        let block = self.is(j, "{") || self.ident(j) == Some("do");
        if let (false, Some(kind)) = (method, classify(name)) {
            self.out.cap(kind, name, span);
        }
        match last {
            "eval" if !block && !method => self.out.cap(CapKind::Eval, "eval", span),
            "instance_eval" | "class_eval" | "module_eval" if !block => {
                self.out.cap(CapKind::Eval, last, span)
            }
            "send" | "public_send" | "__send__" | "method" => {
                self.out.cap(CapKind::Eval, last, span);
                let target = args
                    .first()
                    .filter(|a| a.len() == 1)
                    .and_then(|a| t.get(a.start));
                let target =
                    target.filter(|s| matches!(s.kind, Kind::Sym | Kind::Str) && s.literal);
                if let Some(target) = target {
                    let n = target.text.clone();
                    if let Some(kind) = classify(&n) {
                        self.out.cap(kind, &n, span);
                    }
                    if last != "method" {
                        self.extract(&n, args.get(1..).unwrap_or(&[]), span);
                    }
                }
            }
            "rmtree" if method || classify(name).is_none() => {
                self.out.cap(CapKind::Delete, "Pathname.rmtree", span)
            }
            _ if !method => self.extract(name, &args, span),
            _ => {}
        }
        if matches!(name, "Pathname.new" | "Pathname") {
            let close = after.saturating_sub(1);
            let m = self.ident(close + 2).filter(|_| self.is(close + 1, "."));
            if let (Some(m @ ("rmtree" | "delete" | "unlink" | "rmdir")), Some(p)) =
                (m, args.first().and_then(|a| self.lit(a)))
            {
                let end = t.get(close + 2).map_or(span.1, |e| e.end);
                if m != "rmtree" {
                    self.out
                        .cap(CapKind::Delete, &format!("Pathname.{m}"), (span.0, end));
                }
                self.out
                    .delete(p, m == "rmtree", &format!("Pathname.{m}"), (span.0, end));
            }
        }
    }

    /// Literal shell-outs, deletes and mode-dependent capabilities of a resolved call.
    fn extract(&mut self, name: &str, args: &[Range<usize>], span: (usize, usize)) {
        let t = self.t;
        let plain = self.plain(args);
        let first = plain.first().and_then(|a| self.lit(a));
        let whole = plain
            .first()
            .zip(plain.last())
            .map_or(span, |(a, b)| (tokens::span(t, a).0, tokens::span(t, b).1));
        let (recv, m) = name.rsplit_once('.').unwrap_or(("", name));
        match (recv, m) {
            ("", "system" | "exec" | "spawn") | ("Open3" | "Open4" | "PTY", _) => {
                if let Some(items) = tokens::lit_items(t, &plain, JOIN) {
                    self.out.command(items, whole);
                }
            }
            ("IO", "popen") => {
                let Some(a) = plain.first() else { return };
                if let Some(code) = first {
                    self.out.code(code, tokens::span(t, a));
                } else if let Some(argv) = tokens::lit_list(t, a, JOIN) {
                    self.out.argv(argv, tokens::span(t, a));
                }
            }
            ("", "open") | ("IO", "read" | "readlines" | "foreach") => {
                match first.as_deref().map(str::trim_start) {
                    Some(s) if s.starts_with('|') => {
                        self.out.cap(CapKind::Process, "open(|)", span);
                        self.out
                            .code(s.trim_start_matches('|').trim().to_string(), whole);
                    }
                    Some(s)
                        if ["http://", "https://", "ftp://"]
                            .iter()
                            .any(|p| s.starts_with(p)) =>
                    {
                        self.out.cap(CapKind::Network, "open(url)", span);
                    }
                    Some(_) if recv.is_empty() => self.mode(args, &plain, "open", span),
                    None if !plain.is_empty() && recv.is_empty() => {
                        self.out.cap(CapKind::Process, "open(non-literal)", span)
                    }
                    _ => {}
                }
            }
            ("File", "open" | "new") => self.mode(args, &plain, name, span),
            ("FileUtils", f) if FU_DELETE.contains(&f) => {
                self.deletes(&plain, FU_RECURSIVE.contains(&f), name, span)
            }
            ("File", "delete" | "unlink") | ("Dir", "rmdir" | "delete" | "unlink") => {
                self.deletes(&plain, false, name, span)
            }
            ("", "require" | "require_relative") => match first {
                Some(lib) => {
                    if let Some(kind) = require_kind(&lib) {
                        self.out.cap(kind, &lib, span);
                    }
                }
                None => self.out.cap(CapKind::Eval, m, span),
            },
            _ => {}
        }
    }

    fn mode(
        &mut self,
        args: &[Range<usize>],
        plain: &[Range<usize>],
        name: &str,
        span: (usize, usize),
    ) {
        let mode = tokens::kwarg(self.t, args, "mode").or_else(|| plain.get(1).cloned());
        let Some(mode) = mode else { return };
        match self.lit(&mode) {
            Some(m) if !m.contains(['w', 'a', '+']) => {}
            Some(m) => self
                .out
                .cap(CapKind::Write, &format!("{name}(..., '{m}')"), span),
            None => self
                .out
                .cap(CapKind::Write, &format!("{name}(..., ?)"), span),
        }
    }

    fn deletes(
        &mut self,
        plain: &[Range<usize>],
        recursive: bool,
        call: &str,
        span: (usize, usize),
    ) {
        for a in plain {
            let items = self
                .lit(a)
                .map(|p| vec![p])
                .or_else(|| tokens::lit_list(self.t, a, JOIN));
            for p in items.unwrap_or_default() {
                self.out.delete(p, recursive, call, span);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CapKind, Lang, ShellOut, scan as scan_lang, testing};

    fn kinds(code: &str) -> Vec<(CapKind, String)> {
        testing::kinds(Lang::Ruby, code)
    }

    fn outs(code: &str) -> Vec<ShellOut> {
        scan_lang(Lang::Ruby, code).shell_outs
    }

    #[test]
    fn printing_and_reading_has_no_capability() {
        testing::assert_inert(
            Lang::Ruby,
            &[
                "puts 1+1",
                "print if /foo/",
                "puts %w[system exec].map(&:upcase).join(' ')",
                "x = { system: 1, 'exec' => 2 }; puts x[:system] % 3",
                "# system('rm -rf /')\nputs File.read('a')",
                "=begin\nsystem('x')\n=end\nputs 1",
                "puts \"#{1 + 2} system('x')\"",
                "File.open('f') { |f| puts f.read }",
                "File.open('f', 'r').each_line { |l| p l }",
                "require 'json'; puts JSON.parse(STDIN.read)['x']",
                "puts <<~EOS\n  system('rm')\nEOS\nputs 2",
                "a = b ? c : d; puts a.nil? ? 1 : 2",
            ],
        );
    }

    #[test]
    fn system_with_one_string_is_code_and_several_are_argv() {
        assert!(
            matches!(&outs("system 'rm -rf /'\nputs 1")[..], [ShellOut::Code { code, .. }] if code == "rm -rf /")
        );
        assert!(
            matches!(&outs("system(\"rm\", \"-rf\", \"/\", exception: true)")[..], [ShellOut::Argv { argv, .. }] if argv == &["rm", "-rf", "/"])
        );
        assert!(
            matches!(&outs("Kernel.exec({'A' => '1'}, 'ls')")[..], [ShellOut::Code { code, .. }] if code == "ls")
        );
        assert!(matches!(
            &outs("Process.spawn('ls -l')")[..],
            [ShellOut::Code { .. }]
        ));
        assert!(matches!(
            &outs("require 'open3'; Open3.capture2('git', 'status')")[..],
            [ShellOut::Argv { .. }]
        ));
        assert!(
            matches!(&outs("IO.popen(['ls', '-l']).read")[..], [ShellOut::Argv { argv, .. }] if argv.len() == 2)
        );
    }

    #[test]
    fn backticks_and_percent_x_are_process() {
        assert!(
            matches!(&outs("x = `ls -l`")[..], [ShellOut::Code { code, .. }] if code == "ls -l")
        );
        assert!(matches!(&outs("x = %x(id)")[..], [ShellOut::Code { code, .. }] if code == "id"));
        assert_eq!(
            kinds("puts `#{cmd}`"),
            vec![(CapKind::Process, "backticks".into())]
        );
        assert!(outs("puts `#{cmd}`").is_empty());
    }

    #[test]
    fn finds_fileutils_deletes_with_literal_paths() {
        let s = scan_lang(Lang::Ruby, "require 'fileutils'; FileUtils.rm_rf('/')");
        assert_eq!(
            (s.deletes[0].path.as_str(), s.deletes[0].recursive),
            ("/", true)
        );
        let s = scan_lang(Lang::Ruby, "FileUtils.rm %w[a b]");
        assert_eq!(s.deletes.len(), 2);
        assert!(!s.deletes[0].recursive);
        let s = scan_lang(Lang::Ruby, "include FileUtils\nrm_r '/home/u'");
        assert!(s.deletes[0].recursive);
        let s = scan_lang(Lang::Ruby, "File.delete('/etc/passwd')");
        assert_eq!(s.deletes[0].path, "/etc/passwd");
        let s = scan_lang(
            Lang::Ruby,
            "require 'pathname'; Pathname.new('/srv').rmtree",
        );
        assert!(s.deletes[0].recursive && s.deletes[0].path == "/srv");
    }

    #[test]
    fn finds_writes_network_and_eval() {
        assert_eq!(kinds("File.write('a', 'b')")[0].0, CapKind::Write);
        assert_eq!(
            kinds("File.open('a', 'w') { |f| f << 1 }"),
            vec![(CapKind::Write, "File.open(..., 'w')".into())]
        );
        assert_eq!(kinds("FileUtils.cp('a', 'b')")[0].0, CapKind::Write);
        assert_eq!(kinds("require 'net/http'")[0].0, CapKind::Network);
        assert_eq!(
            kinds("Net::HTTP.get(URI('http://x'))")[0].0,
            CapKind::Network
        );
        assert_eq!(kinds("TCPSocket.new('h', 1)")[0].0, CapKind::Network);
        assert_eq!(kinds("URI.open('http://x').read")[0].0, CapKind::Network);
        assert_eq!(
            kinds("eval(STDIN.read)"),
            vec![(CapKind::Eval, "eval".into())]
        );
        assert_eq!(
            kinds("String.class_eval \"def x; end\""),
            vec![(CapKind::Eval, "class_eval".into())]
        );
        assert_eq!(kinds("o.instance_eval { @x }"), vec![]);
        assert_eq!(
            kinds("require lib"),
            vec![(CapKind::Eval, "require".into())]
        );
    }

    #[test]
    fn send_with_symbol_resolves_the_method() {
        let s = scan_lang(Lang::Ruby, "Kernel.send(:system, 'id')");
        assert!(
            s.capabilities
                .iter()
                .any(|c| c.kind == CapKind::Eval && c.what == "send")
        );
        assert!(
            s.capabilities
                .iter()
                .any(|c| c.kind == CapKind::Process && c.what == "system")
        );
        assert!(matches!(&s.shell_outs[..], [ShellOut::Code { code, .. }] if code == "id"));
        assert_eq!(
            kinds("obj.public_send(m)"),
            vec![(CapKind::Eval, "public_send".into())]
        );
    }

    #[test]
    fn open_with_pipe_is_process() {
        assert!(
            matches!(&outs("open('| ls -l') { |f| puts f.read }")[..], [ShellOut::Code { code, .. }] if code == "ls -l")
        );
        assert_eq!(
            kinds("open(path)"),
            vec![(CapKind::Process, "open(non-literal)".into())]
        );
        assert_eq!(
            kinds("open('a.txt', 'a')"),
            vec![(CapKind::Write, "open(..., 'a')".into())]
        );
    }

    #[test]
    fn unreadable_when_unterminated() {
        testing::assert_unreadable(
            Lang::Ruby,
            &[
                "puts 'abc",
                "puts \"#{x\"",
                "x = %w[a b",
                "puts <<~EOS\nno end\n",
                "=begin\nx",
            ],
        );
    }
}
