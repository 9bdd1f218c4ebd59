//! Perl scanner: tokenizes `perl -e` code (quote-like operators, heredocs, POD) and finds
//! process, delete, write, network and eval capabilities among builtins and modules.

use std::ops::Range;

use super::lexer::{self, At, Esc, Heredoc, Interp, Kind, Lex, StrSpec, Token};
use super::tokens::{self, View};
use super::{CapKind, Out};

const OPS: &[&str] = &[
    "<=>", "**=", "||=", "&&=", "//=", "...", "->", "=>", "=~", "!~", "==", "!=", "<=", ">=", "&&",
    "||", "//", "..", "::", "++", "--", "**", "+=", "-=", "*=", "/=", ".=", "<<", ">>",
];
const JOIN: &[&str] = &["."];
/// Why nested code (an interpolation) that runs out of input is unreadable.
const UNTERMINATED: &str = "unterminated interpolation";
/// Words after which a `/` starts a regex rather than a division.
const TERM_AFTER: &[&str] = &[
    "if", "unless", "while", "until", "and", "or", "not", "xor", "return", "split", "grep", "map",
    "join", "push", "unshift", "print", "say", "when", "lt", "gt", "le", "ge", "eq", "ne", "cmp",
    "x", "die", "warn",
];
/// Builtins (and File::Path / File::Copy functions) whose arguments are looked at.
const HANDLED: &[&str] = &[
    "system",
    "exec",
    "readpipe",
    "fork",
    "syscall",
    "open2",
    "open3",
    "run3",
    "open",
    "unlink",
    "rmdir",
    "rmtree",
    "remove_tree",
    "rename",
    "chmod",
    "chown",
    "utime",
    "truncate",
    "symlink",
    "link",
    "sysopen",
    "copy",
    "move",
    "cp",
    "mv",
    "mkfifo",
    "socket",
    "connect",
    "socketpair",
    "eval",
    "do",
    "require",
];
/// Low-precedence words that end a paren-less argument list.
const ARGS_END: &[&str] = &[
    "or", "and", "xor", "if", "unless", "while", "until", "for", "foreach",
];

pub(crate) fn scan(code: &str, out: &mut Out) {
    let mut lx = Lex::new(code);
    lx.lex_all(lex, out);
    Scanner {
        t: &lx.toks,
        out,
        code,
    }
    .run();
}

fn lex(lx: &mut Lex<'_>, nested: bool) {
    lx.run(nested, UNTERMINATED, OPS, |lx, At { start, c, c2, .. }| {
        match c {
            '\n' => {
                lx.cur.bump();
                lx.flush_heredocs(lex);
            }
            c if c.is_whitespace() => {
                lx.cur.bump();
            }
            '#' => lx.cur.skip_line(),
            '=' if lx.cur.at_line_start() && c2.is_some_and(|c| c.is_ascii_alphabetic()) => {
                if !lx.cur.skip_past_line_starting("=cut") {
                    lx.cur.pos = lx.cur.limit;
                }
            }
            '"' | '`' => {
                lx.cur.bump();
                let kind = if c == '"' { Kind::Str } else { Kind::Cmd };
                let close = if c == '"' { "\"" } else { "`" };
                quoted(lx, start, kind, close, None, Esc::Perl, Interp::Perl);
            }
            '\'' => {
                lx.cur.bump();
                quoted(lx, start, Kind::Str, "'", None, Esc::Single, Interp::None);
            }
            '$' | '@' => var(lx, c, start),
            '/' if lx.term_pos(TERM_AFTER) => {
                lx.cur.bump();
                quoted(lx, start, Kind::Regex, "/", None, Esc::Single, Interp::None);
                let flags = lx.cur.eat_while(|c| c.is_ascii_alphabetic());
                if let Some(t) = lx.toks.last_mut() {
                    t.text = format!("m/{flags}");
                    t.end = lx.cur.pos;
                }
            }
            '<' if heredoc_start(lx.cur.rest()) => heredoc(lx, start),
            c if lexer::is_ident_start(c) => word(lx, start),
            _ => return false,
        }
        true
    });
}

fn quoted(
    lx: &mut Lex<'_>,
    start: usize,
    kind: Kind,
    close: &str,
    open: Option<char>,
    esc: Esc,
    interp: Interp,
) {
    lx.string(kind, start, &StrSpec::new(close, open, esc, interp), lex);
}

fn var(lx: &mut Lex<'_>, sigil: char, start: usize) {
    lx.cur.bump();
    let next = lx.cur.peek();
    if sigil == '$'
        && next == Some('#')
        && lx
            .cur
            .peek2()
            .is_some_and(|c| c == '{' || c == '$' || lexer::is_ident_start(c))
    {
        lx.cur.bump();
    }
    let next = lx.cur.peek();
    match next {
        Some(c) if lexer::is_ident_start(c) || c == ':' && lx.cur.peek2() == Some(':') => {
            ident_path(lx);
        }
        Some('{' | '$') | None => {}
        Some(c) if sigil == '$' && c.is_ascii_digit() => {
            lx.cur.eat_while(|c| c.is_ascii_digit());
        }
        Some('^') if sigil == '$' => {
            lx.cur.pos += 1;
            lx.cur.bump();
        }
        Some(c) if sigil == '$' && c.is_ascii_punctuation() => {
            lx.cur.pos += 1;
        }
        Some(_) if sigil == '@' => {
            lx.push(Kind::Punct, "@".into(), start);
            return;
        }
        Some(_) => {}
    }
    let text = lx.cur.src.get(start..lx.cur.pos).unwrap_or("").to_string();
    lx.push(Kind::Var, text, start);
}

fn ident_path<'a>(lx: &mut Lex<'a>) -> &'a str {
    let start = lx.cur.pos;
    loop {
        lx.cur.eat("::");
        lx.cur.eat_while(lexer::is_ident);
        if !(lx.cur.rest().starts_with("::")
            && lx
                .cur
                .rest()
                .get(2..)
                .is_some_and(|r| r.starts_with(lexer::is_ident_start)))
        {
            break;
        }
    }
    lx.cur.src.get(start..lx.cur.pos).unwrap_or("")
}

fn word(lx: &mut Lex<'_>, start: usize) {
    let w = ident_path(lx).to_string();
    if matches!(w.as_str(), "__END__" | "__DATA__") {
        lx.cur.pos = lx.cur.limit;
        return;
    }
    let after_arrow = lx.prev().is_some_and(|t| t.punct("->"));
    let hash_key = lx.prev().is_some_and(|t| t.punct("{")) && lx.cur.peek() == Some('}');
    // `-s $file` is a file test, not a substitution.
    let file_test = lx.prev().is_some_and(|t| t.punct("-") && t.end == start);
    let quote_op = matches!(
        w.as_str(),
        "q" | "qq" | "qw" | "qx" | "m" | "qr" | "s" | "tr" | "y"
    );
    if quote_op && !after_arrow && !hash_key && !file_test {
        let save = lx.cur.pos;
        let spaced = !lx.cur.eat_while(char::is_whitespace).is_empty();
        let d = lx.cur.peek();
        let fat_comma = lx.cur.rest().starts_with("=>");
        let ok = d
            .is_some_and(|d| !d.is_alphanumeric() && !d.is_whitespace() && !",;)_".contains(d))
            && !fat_comma
            && !(spaced && matches!(d, Some('#' | '=')));
        if let (true, Some(d)) = (ok, d) {
            lx.cur.bump();
            return quote_like(lx, &w, d, start);
        }
        lx.cur.pos = save;
    }
    lx.push(Kind::Ident, w, start);
}

/// `q qq qw qx m qr s tr y` with delimiter `d` (already consumed).
fn quote_like(lx: &mut Lex<'_>, op: &str, d: char, start: usize) {
    let (close, open) = lexer::closer(d);
    let interp = if d == '\'' {
        Interp::None
    } else {
        Interp::Perl
    };
    let esc = if d == '\'' { Esc::Single } else { Esc::Perl };
    match op {
        "q" => quoted(
            lx,
            start,
            Kind::Str,
            &close,
            open,
            Esc::Single,
            Interp::None,
        ),
        "qq" => quoted(lx, start, Kind::Str, &close, open, esc, interp),
        "qw" => quoted(
            lx,
            start,
            Kind::Words,
            &close,
            open,
            Esc::Single,
            Interp::None,
        ),
        "qx" => quoted(lx, start, Kind::Cmd, &close, open, esc, interp),
        _ => {
            let idx = lx.placeholder(Kind::Regex, start);
            let single = StrSpec::new(&close, open, Esc::Single, Interp::None);
            lexer::read_body(lx, &single, lex);
            let mut replacement = None;
            if matches!(op, "s" | "tr" | "y") {
                let (close2, open2) = if open.is_some() {
                    lx.cur.eat_while(char::is_whitespace);
                    lx.cur.bump().map(lexer::closer).unwrap_or_default()
                } else {
                    (close.clone(), None)
                };
                if close2.is_empty() {
                    return lx.fail("unterminated substitution");
                }
                let from = lx.cur.pos;
                let spec = StrSpec {
                    close: &close2,
                    open: open2,
                    ..single
                };
                lexer::read_body(lx, &spec, lex);
                replacement = Some(from..lx.cur.pos.saturating_sub(close2.len()));
            }
            let flags = lx.cur.eat_while(|c| c.is_ascii_alphabetic()).to_string();
            if let (Some(r), true) = (replacement, op == "s" && flags.contains('e')) {
                // With /e the replacement is Perl code, so it is lexed like any other code.
                let (save, limit) = (lx.cur.pos, lx.cur.limit);
                lx.cur.pos = r.start;
                lx.cur.limit = r.end;
                lx.recurse(lex, false);
                lx.cur.limit = limit;
                lx.cur.pos = save;
            }
            lx.fill(idx, Some((format!("{op}/{flags}"), true)), true);
        }
    }
}

fn heredoc_start(rest: &str) -> bool {
    let Some(r) = rest.strip_prefix("<<") else {
        return false;
    };
    let r = r.strip_prefix('~').unwrap_or(r);
    r.starts_with(['"', '\'', '`']) || r.starts_with(|c: char| c.is_ascii_uppercase() || c == '_')
}

fn heredoc(lx: &mut Lex<'_>, start: usize) {
    lx.cur.pos += 2;
    let squiggly = lx.cur.eat("~");
    let Some((q, tag)) = lx.heredoc_tag() else {
        return;
    };
    let interp = q != Some('\'');
    let h = Heredoc {
        tag,
        indent: squiggly,
        dedent: squiggly,
        php: false,
        esc: if interp { Esc::Perl } else { Esc::Single },
        interp: if interp { Interp::Perl } else { Interp::None },
    };
    lx.defer_heredoc(q, start, h);
}

/// Modules (and their packages) that provide a capability.
fn module_kind(name: &str) -> Option<CapKind> {
    let under =
        |pkg: &str| name == pkg || name.strip_prefix(pkg).is_some_and(|r| r.starts_with("::"));
    if [
        "IO::Socket",
        "LWP",
        "HTTP::Tiny",
        "HTTP::Request",
        "Mojo::UserAgent",
        "WWW::Mechanize",
        "Furl",
        "Socket",
        "Net::Ping",
    ]
    .iter()
    .any(|p| under(p))
        || name.starts_with("Net::")
    {
        Some(CapKind::Network)
    } else if [
        "IPC::Open2",
        "IPC::Open3",
        "IPC::Run",
        "IPC::Run3",
        "IPC::Cmd",
        "IPC::System::Simple",
        "Proc::Background",
        "Expect",
    ]
    .iter()
    .any(|p| under(p))
    {
        Some(CapKind::Process)
    } else if under("File::Copy") {
        Some(CapKind::Write)
    } else {
        None
    }
}

struct Scanner<'t, 'o> {
    t: &'t [Token],
    out: &'o mut Out,
    code: &'t str,
}

impl<'t> View<'t> for Scanner<'t, '_> {
    fn toks(&self) -> &'t [Token] {
        self.t
    }
}

impl Scanner<'_, '_> {
    fn kind(&self, i: usize) -> Option<Kind> {
        self.t.get(i).map(|t| t.kind)
    }

    fn run(mut self) {
        for i in 0..self.t.len() {
            self.visit(i);
        }
    }

    /// Arguments after the builtin at `i`, with or without parentheses, and the index after them.
    fn args(&self, i: usize) -> (Vec<Range<usize>>, usize) {
        if self.is(i + 1, "(") {
            return tokens::args(self.t, i + 1)
                .map_or((Vec::new(), i + 1), |(a, close)| (a, close + 1));
        }
        let stop = |t: &Token| {
            t.punct(";")
                || t.punct("||")
                || t.punct("&&")
                || t.punct("//")
                || t.punct("?")
                || t.punct(":")
                || t.kind == Kind::Ident && ARGS_END.contains(&t.text.as_str())
        };
        match tokens::bare_end(self.t, i + 1, stop) {
            Some(end) => (tokens::split(self.t, i + 1..end), end),
            None => (Vec::new(), i + 1),
        }
    }

    fn visit(&mut self, i: usize) {
        let Some(t) = self.t.get(i) else { return };
        match t.kind {
            Kind::Cmd => {
                let what = if self
                    .code
                    .get(t.start..)
                    .is_some_and(|s| s.starts_with("qx"))
                {
                    "qx"
                } else {
                    "backticks"
                };
                self.out.cap(CapKind::Process, what, (t.start, t.end));
                if t.literal {
                    self.out.code(t.text.clone(), (t.start, t.end));
                }
            }
            Kind::Regex if t.text.starts_with("s/") && t.text.contains('e') => {
                self.out.cap(CapKind::Eval, "s///e", (t.start, t.end));
            }
            Kind::Ident => self.builtin(i, t),
            _ => {}
        }
    }

    fn builtin(&mut self, i: usize, t: &Token) {
        let prev = i.checked_sub(1);
        let skip = prev.is_some_and(|p| self.is(p, "->") || self.is(p, "{") && self.is(i + 1, "}"))
            || self.is(i + 1, "=>")
            || prev
                .and_then(|p| self.t.get(p))
                .is_some_and(|p| p.ident("sub"));
        if skip {
            return;
        }
        let name = t.text.as_str();
        if let Some(kind) = module_kind(name) {
            self.out.cap(kind, name, (t.start, t.end));
        }
        let (pkg, short) = name.rsplit_once("::").unwrap_or(("", name));
        if !matches!(
            pkg,
            "" | "CORE" | "CORE::GLOBAL" | "File::Path" | "File::Copy" | "POSIX"
        ) {
            return;
        }
        if !HANDLED.contains(&short) {
            return;
        }
        let (args, after) = self.args(i);
        let span = (
            t.start,
            self.t
                .get(after.saturating_sub(1))
                .map_or(t.end, |e| e.end.max(t.end)),
        );
        let whole = args.first().zip(args.last()).map_or(span, |(a, b)| {
            (tokens::span(self.t, a).0, tokens::span(self.t, b).1)
        });
        let first_kind = args.first().and_then(|a| self.kind(a.start));
        let block = args.first().is_some_and(|a| self.is(a.start, "{"));
        match short {
            "system" | "exec" => {
                self.out.cap(CapKind::Process, short, span);
                if let (false, Some(items)) = (block, tokens::lit_items(self.t, &args, JOIN)) {
                    self.out.command(items, whole);
                }
            }
            "readpipe" => {
                self.out.cap(CapKind::Process, short, span);
                if let Some(s) = args
                    .first()
                    .and_then(|a| tokens::lit(self.t, a, JOIN, false))
                {
                    self.out.code(s, whole);
                }
            }
            "fork" | "syscall" | "open2" | "open3" | "run3" => {
                self.out.cap(CapKind::Process, short, span)
            }
            "open" => self.open(&args, span),
            "unlink" | "rmdir" | "rmtree" | "remove_tree" => {
                self.out.cap(CapKind::Delete, short, span);
                let recursive = matches!(short, "rmtree" | "remove_tree");
                for a in &args {
                    let items = tokens::lit_list(self.t, a, JOIN)
                        .or_else(|| tokens::lit_items(self.t, std::slice::from_ref(a), JOIN));
                    for path in items.unwrap_or_default() {
                        self.out.delete(path, recursive, short, span);
                    }
                }
            }
            "rename" | "chmod" | "chown" | "utime" | "truncate" | "symlink" | "link"
            | "sysopen" | "copy" | "move" | "cp" | "mv" | "mkfifo" => {
                self.out.cap(CapKind::Write, short, span)
            }
            "socket" | "connect" | "socketpair" => self.out.cap(CapKind::Network, short, span),
            "eval" if !block => self.out.cap(CapKind::Eval, "eval", span),
            "do" if !block && matches!(first_kind, Some(Kind::Str | Kind::Var)) => {
                self.out.cap(CapKind::Eval, "do FILE", span);
            }
            "require" if matches!(first_kind, Some(Kind::Str | Kind::Var)) => {
                self.out.cap(CapKind::Eval, "require", span);
            }
            _ => {}
        }
    }

    /// `open FH, MODE, ...` and the two-argument `open FH, "|cmd"` / `">file"` forms.
    fn open(&mut self, args: &[Range<usize>], span: (usize, usize)) {
        let lit = |n: usize| {
            args.get(n)
                .and_then(|a| tokens::lit(self.t, a, JOIN, false))
        };
        let arg_span = |n: usize| args.get(n).map_or(span, |a| tokens::span(self.t, a));
        if args.len() == 2 {
            let Some(spec) = lit(1) else {
                return self.out.cap(CapKind::Process, "open(non-literal)", span);
            };
            let spec = spec.trim();
            if let Some(cmd) = spec.strip_prefix('|').or_else(|| spec.strip_suffix('|')) {
                self.out.cap(CapKind::Process, "open(|)", span);
                self.out.code(cmd.trim().to_string(), arg_span(1));
            } else if spec.starts_with(['>', '+']) {
                self.out.cap(CapKind::Write, "open(>)", span);
            }
        } else if args.len() >= 3 {
            let Some(mode) = lit(1) else {
                return self.out.cap(CapKind::Write, "open(non-literal mode)", span);
            };
            let mode = mode.trim();
            if mode.starts_with("-|") || mode.starts_with("|-") {
                self.out.cap(CapKind::Process, "open(-|)", span);
                let rest = args.get(2..).unwrap_or(&[]);
                if let Some(items) = tokens::lit_items(self.t, rest, JOIN) {
                    let whole = (arg_span(2).0, arg_span(args.len() - 1).1);
                    self.out.command(items, whole);
                }
            } else if mode.starts_with(['>', '+']) {
                self.out.cap(CapKind::Write, "open(>)", span);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CapKind, Lang, ShellOut, scan as scan_lang, testing};

    fn kinds(code: &str) -> Vec<(CapKind, String)> {
        testing::kinds(Lang::Perl, code)
    }

    fn outs(code: &str) -> Vec<ShellOut> {
        scan_lang(Lang::Perl, code).shell_outs
    }

    #[test]
    fn printing_and_matching_has_no_capability() {
        testing::assert_inert(
            Lang::Perl,
            &[
                "print \"hello\\n\"",
                "print if /foo/",
                "next unless /^\\s*#/; s/a/b/g; print",
                "my @f = split /,/; print $f[0] / 2, \"\\n\"",
                "my %h = (system => 1); print $h{system}, $#ARGV",
                "print q{system('rm -rf /')}, qq{ `id` }",
                "# system('x')\nprint 1",
                "=pod\n\nsystem('x')\n\n=cut\nprint 1",
                "print 1;\n__END__\nsystem('rm -rf /')",
                "open(my $fh, '<', 'f') or die; print <$fh>",
                "eval { 1 }; do { 2 }",
            ],
        );
    }

    #[test]
    fn system_with_one_string_is_code_and_several_are_argv() {
        assert!(
            matches!(&outs("system \"rm -rf /\"")[..], [ShellOut::Code { code, .. }] if code == "rm -rf /")
        );
        assert!(
            matches!(&outs("system('rm', '-rf', '/') == 0 or die")[..], [ShellOut::Argv { argv, .. }] if argv == &["rm", "-rf", "/"])
        );
        assert!(
            matches!(&outs("exec qw(rm -rf /)")[..], [ShellOut::Argv { argv, .. }] if argv.len() == 3)
        );
        assert!(
            matches!(&outs("CORE::system('r' . 'm')")[..], [ShellOut::Code { code, .. }] if code == "rm")
        );
        assert!(outs("system $cmd").is_empty());
        assert_eq!(kinds("system $cmd")[0].0, CapKind::Process);
    }

    #[test]
    fn backticks_and_qx_are_process_with_literal_code() {
        assert!(
            matches!(&outs("my $x = `ls -l`;")[..], [ShellOut::Code { code, .. }] if code == "ls -l")
        );
        assert!(matches!(&outs("print qx{id}")[..], [ShellOut::Code { code, .. }] if code == "id"));
        assert_eq!(kinds("print qx/$c/"), vec![(CapKind::Process, "qx".into())]);
        assert!(outs("print qx/$c/").is_empty());
    }

    #[test]
    fn open_modes_decide_process_write_or_nothing() {
        assert!(
            matches!(&outs("open(my $p, '-|', 'ls', '-l')")[..], [ShellOut::Argv { argv, .. }] if argv == &["ls", "-l"])
        );
        assert!(
            matches!(&outs("open(P, \"| mail root\")")[..], [ShellOut::Code { code, .. }] if code == "mail root")
        );
        assert_eq!(
            kinds("open(my $f, '>>', 'log')"),
            vec![(CapKind::Write, "open(>)".into())]
        );
        assert_eq!(
            kinds("open F, \">out.txt\""),
            vec![(CapKind::Write, "open(>)".into())]
        );
        assert_eq!(kinds("open(F, $x)")[0].0, CapKind::Process);
    }

    #[test]
    fn finds_unlink_and_rmtree_literal_paths() {
        let s = scan_lang(Lang::Perl, "unlink \"/etc/passwd\", 'b';");
        assert_eq!(
            s.deletes
                .iter()
                .map(|d| d.path.as_str())
                .collect::<Vec<_>>(),
            ["/etc/passwd", "b"]
        );
        let s = scan_lang(
            Lang::Perl,
            "use File::Path qw(rmtree); File::Path::remove_tree(['/home/u'])",
        );
        assert!(s.deletes[0].recursive && s.deletes[0].path == "/home/u");
    }

    #[test]
    fn finds_network_modules_writes_and_eval() {
        assert_eq!(
            kinds("use IO::Socket::INET; IO::Socket::INET->new('h:1')")[0].0,
            CapKind::Network
        );
        assert_eq!(
            kinds("use LWP::Simple; get('http://x')")[0].0,
            CapKind::Network
        );
        assert_eq!(kinds("HTTP::Tiny->new->get($u)")[0].0, CapKind::Network);
        assert_eq!(kinds("rename 'a', 'b'")[0].0, CapKind::Write);
        assert_eq!(kinds("eval $code"), vec![(CapKind::Eval, "eval".into())]);
        assert_eq!(kinds("eval \"1+1\""), vec![(CapKind::Eval, "eval".into())]);
        assert_eq!(
            kinds("do 'file.pl'"),
            vec![(CapKind::Eval, "do FILE".into())]
        );
        assert_eq!(kinds("require $m"), vec![(CapKind::Eval, "require".into())]);
        assert_eq!(kinds("require strict"), vec![]);
    }

    #[test]
    fn substitution_with_e_flag_is_eval_and_its_code_is_scanned() {
        let k = kinds("s/x/system('id')/e");
        assert!(k.contains(&(CapKind::Eval, "s///e".into())));
        assert!(k.iter().any(|c| c.0 == CapKind::Process));
        assert_eq!(kinds("s{a}{system}g"), vec![]);
    }

    #[test]
    fn heredoc_bodies_are_strings() {
        let s = scan_lang(Lang::Perl, "system(<<'EOF');\nrm -rf /tmp/x\nEOF\nprint 1");
        assert!(
            matches!(&s.shell_outs[..], [ShellOut::Code { code, .. }] if code == "rm -rf /tmp/x\n"),
            "{s:?}"
        );
        assert_eq!(kinds("print <<~EOT;\n  system('x')\n  EOT\n"), vec![]);
        assert!(scan_lang(Lang::Perl, "print <<EOT;\nno end\n").unreadable);
    }

    #[test]
    fn unreadable_when_unterminated() {
        testing::assert_unreadable(
            Lang::Perl,
            &["print \"abc", "print q{abc", "s/a/b", "print (1"],
        );
    }
}
