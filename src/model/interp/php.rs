//! PHP scanner: tokenizes `php -r` code or a script with `<?php` tags and finds process,
//! delete, write, network and eval capabilities among builtin functions and callbacks.

use std::collections::HashMap;
use std::ops::Range;

use super::lexer::{self, At, Esc, Heredoc, Interp, Kind, Lex, StrSpec, Token};
use super::tokens::{self, View};
use super::{CapKind, Out};

const OPS: &[&str] = &[
    "<=>", "===", "!==", "**=", "...", "<<=", ">>=", "??=", "?->", "->", "=>", "::", "==", "!=",
    "<>", "<=", ">=", "&&", "||", "??", "++", "--", "+=", "-=", "*=", "/=", ".=", "%=", "**", "<<",
    ">>",
];
const JOIN: &[&str] = &["."];
/// Why nested code (an interpolation) that runs out of input is unreadable.
const UNTERMINATED: &str = "unterminated interpolation";
/// Streams that are not files: writing to them is output, not a write to disk.
const NOT_FILES: &[&str] = &[
    "php://stdout",
    "php://stderr",
    "php://output",
    "php://memory",
    "php://temp",
];
const URLS: &[&str] = &["http://", "https://", "ftp://", "ftps://"];

pub(crate) fn scan(code: &str, out: &mut Out) {
    let mut lx = Lex::new(code);
    if code.starts_with("#!") {
        lx.cur.skip_line();
    }
    // A script file starts as inline HTML; `php -r` code has no open tag and is all code.
    if lx.cur.rest().trim_start().starts_with("<?") {
        html(&mut lx);
    }
    lx.lex_all(lex, out);
    Scanner::new(&lx.toks, out).run();
}

/// Skips inline HTML up to and including the next open tag.
fn html(lx: &mut Lex<'_>) {
    match lx.cur.rest().find("<?") {
        Some(k) => {
            lx.cur.pos += k + 2;
            if !lx.cur.eat("php") {
                lx.cur.eat("=");
            }
        }
        None => lx.cur.pos = lx.cur.limit,
    }
}

fn line_comment(lx: &mut Lex<'_>) {
    while let Some(c) = lx.cur.peek() {
        if c == '\n' || lx.cur.rest().starts_with("?>") {
            return;
        }
        lx.cur.bump();
    }
}

fn lex(lx: &mut Lex<'_>, nested: bool) {
    lx.run(nested, UNTERMINATED, OPS, |lx, At { start, c, c2, .. }| {
        match c {
            c if c.is_whitespace() => {
                lx.cur.bump();
            }
            '?' if c2 == Some('>') => {
                lx.cur.pos += 2;
                lx.push(Kind::Punct, ";".into(), start);
                html(lx);
            }
            '#' if c2 != Some('[') => line_comment(lx),
            '/' if c2 == Some('/') => line_comment(lx),
            '/' if c2 == Some('*') => lx.block_comment(),
            '"' | '`' | '\'' => {
                lx.cur.bump();
                let kind = if c == '`' { Kind::Cmd } else { Kind::Str };
                let (close, _) = lexer::closer(c);
                let (esc, interp) = if c == '\'' {
                    (Esc::Single, Interp::None)
                } else {
                    (Esc::Php, Interp::Php)
                };
                let spec = StrSpec {
                    close: &close,
                    open: None,
                    esc,
                    interp,
                    multiline: true,
                };
                lx.string(kind, start, &spec, lex);
            }
            '$' if c2.is_some_and(lexer::is_ident_start) => {
                lx.cur.bump();
                let name = lx.cur.eat_while(lexer::is_ident).to_string();
                lx.push(Kind::Var, name, start);
            }
            '<' if lx.cur.rest().starts_with("<<<") => heredoc(lx, start),
            c if lexer::is_ident_start(c) => {
                let word = lx.cur.eat_while(lexer::is_ident).to_string();
                lx.push(Kind::Ident, word, start);
            }
            '.' if c2.is_some_and(|d| d.is_ascii_digit()) => lx.number(),
            _ => return false,
        }
        true
    });
}

/// `<<<TAG`, `<<<"TAG"` and nowdoc `<<<'TAG'`, read at once since the body follows the opener.
fn heredoc(lx: &mut Lex<'_>, start: usize) {
    lx.cur.pos += 3;
    lx.cur.eat_while(|c| c == ' ' || c == '\t');
    let q = lx.cur.peek().filter(|c| matches!(c, '"' | '\''));
    if q.is_some() {
        lx.cur.bump();
    }
    let tag = lx.cur.eat_while(lexer::is_ident).to_string();
    if let Some(q) = q {
        lx.cur.eat(&q.to_string());
    }
    lx.cur.eat("\r");
    if tag.is_empty() || !lx.cur.eat("\n") {
        return lx.fail("malformed heredoc");
    }
    let raw = q == Some('\'');
    let h = Heredoc {
        tag,
        indent: true,
        dedent: true,
        php: true,
        esc: if raw { Esc::Single } else { Esc::Php },
        interp: if raw { Interp::None } else { Interp::Php },
    };
    let idx = lx.placeholder(Kind::Str, start);
    let body = lexer::read_heredoc(lx, &h, lex);
    let body = body.map(|(text, lit)| (text.strip_suffix('\n').unwrap_or(&text).to_string(), lit));
    lx.fill(idx, body, true);
}

/// Capability a builtin function has whatever its arguments.
fn kind(name: &str) -> Option<CapKind> {
    match name {
        "system" | "exec" | "shell_exec" | "passthru" | "popen" | "proc_open" | "pcntl_exec"
        | "pcntl_fork" | "expect_popen" => Some(CapKind::Process),
        "unlink" | "rmdir" => Some(CapKind::Delete),
        "rename" | "copy" | "chmod" | "chown" | "chgrp" | "lchown" | "lchgrp" | "touch"
        | "symlink" | "link" | "move_uploaded_file" => Some(CapKind::Write),
        "fsockopen"
        | "pfsockopen"
        | "stream_socket_client"
        | "stream_socket_server"
        | "get_headers"
        | "mail"
        | "ftp_connect"
        | "ftp_ssl_connect"
        | "ssh2_connect" => Some(CapKind::Network),
        n if n.starts_with("curl_") || n.starts_with("socket_") => Some(CapKind::Network),
        "eval" | "create_function" | "unserialize" | "dl" => Some(CapKind::Eval),
        _ => None,
    }
}

/// Index of the callback among a higher-order builtin's arguments.
fn callback_arg(name: &str) -> Option<usize> {
    match name {
        "call_user_func"
        | "call_user_func_array"
        | "forward_static_call"
        | "forward_static_call_array"
        | "register_shutdown_function"
        | "register_tick_function"
        | "array_map"
        | "iterator_apply" => Some(0),
        "array_filter"
        | "array_walk"
        | "array_walk_recursive"
        | "usort"
        | "uasort"
        | "uksort"
        | "array_reduce" => Some(1),
        _ => None,
    }
}

struct Scanner<'t, 'o> {
    t: &'t [Token],
    out: &'o mut Out,
    /// Variables assigned a literal string (`$f = 'system'`), or `None` for a closure.
    vars: HashMap<&'t str, Option<String>>,
}

impl<'t> View<'t> for Scanner<'t, '_> {
    fn toks(&self) -> &'t [Token] {
        self.t
    }
}

impl<'t, 'o> Scanner<'t, 'o> {
    fn new(t: &'t [Token], out: &'o mut Out) -> Self {
        let mut vars = HashMap::new();
        for (i, tok) in t.iter().enumerate() {
            if tok.kind != Kind::Var || !t.get(i + 1).is_some_and(|n| n.punct("=")) {
                continue;
            }
            let Some(end) = tokens::bare_end(t, i + 2, |x| x.punct(";")) else {
                continue;
            };
            let closure = t
                .get(i + 2)
                .is_some_and(|n| n.ident("function") || n.ident("fn") || n.ident("static"));
            if closure {
                vars.insert(tok.text.as_str(), None);
            } else if let Some(s) = tokens::lit(t, &(i + 2..end), JOIN, false) {
                vars.insert(tok.text.as_str(), Some(s));
            }
        }
        Scanner { t, out, vars }
    }

    fn lit(&self, r: &Range<usize>) -> Option<String> {
        tokens::lit(self.t, r, JOIN, false)
    }

    fn run(mut self) {
        for i in 0..self.t.len() {
            self.visit(i);
        }
    }

    fn visit(&mut self, i: usize) {
        let Some(t) = self.t.get(i) else { return };
        let prev = i.checked_sub(1).and_then(|p| self.t.get(p));
        let member = prev.is_some_and(|p| p.punct("->") || p.punct("?->") || p.punct("::"));
        let span_to = |end: usize| (t.start, self.t.get(end).map_or(t.end, |e| e.end));
        match t.kind {
            Kind::Cmd => {
                self.out
                    .cap(CapKind::Process, "backticks", (t.start, t.end));
                if t.literal {
                    self.out.code(t.text.clone(), (t.start, t.end));
                }
            }
            Kind::Var if self.is(i + 1, "(") && !member => {
                let Some((args, close)) = tokens::args(self.t, i + 1) else {
                    return;
                };
                match self.vars.get(t.text.as_str()).cloned() {
                    Some(Some(f)) => self.call(&f.to_ascii_lowercase(), &args, span_to(close)),
                    Some(None) => {}
                    None => self
                        .out
                        .cap(CapKind::Eval, "variable function", span_to(close)),
                }
            }
            Kind::Ident if !member => {
                let declared =
                    prev.is_some_and(|p| p.ident("function") || p.ident("fn") || p.ident("const"));
                let name = t.text.to_ascii_lowercase();
                if prev.is_some_and(|p| p.ident("new")) {
                    if name == "soapclient" {
                        self.out
                            .cap(CapKind::Network, "SoapClient", (t.start, t.end));
                    }
                } else if matches!(
                    name.as_str(),
                    "include" | "require" | "include_once" | "require_once"
                ) {
                    let end = tokens::bare_end(self.t, i + 1, |x| x.punct(";")).unwrap_or(i + 1);
                    self.out
                        .cap(CapKind::Eval, &name, span_to(end.saturating_sub(1)));
                } else if !declared && self.is(i + 1, "(") {
                    let Some((args, close)) = tokens::args(self.t, i + 1) else {
                        return;
                    };
                    self.call(&name, &args, span_to(close));
                }
            }
            _ => {}
        }
    }

    fn call(&mut self, name: &str, args: &[Range<usize>], span: (usize, usize)) {
        let t = self.t;
        if let Some(kind) = kind(name) {
            self.out.cap(kind, name, span);
        }
        let first = args.first().and_then(|a| self.lit(a));
        let arg_span = |n: usize| args.get(n).map_or(span, |a| tokens::span(t, a));
        let is_url = |s: &str| URLS.iter().any(|u| s.to_ascii_lowercase().starts_with(u));
        let not_file = |s: &str| {
            NOT_FILES
                .iter()
                .any(|n| s.to_ascii_lowercase().starts_with(n))
        };
        match name {
            "system" | "exec" | "shell_exec" | "passthru" | "popen" | "expect_popen" => {
                if let Some(code) = first {
                    self.out.code(code, arg_span(0));
                }
            }
            "proc_open" => {
                if let Some(code) = first {
                    self.out.code(code, arg_span(0));
                } else if let Some(argv) = args.first().and_then(|a| tokens::lit_list(t, a, JOIN)) {
                    self.out.argv(argv, arg_span(0));
                }
            }
            "pcntl_exec" => {
                let rest = args
                    .get(1)
                    .and_then(|a| tokens::lit_list(t, a, JOIN))
                    .unwrap_or_default();
                if let Some(file) = first {
                    self.out
                        .argv(std::iter::once(file).chain(rest).collect(), span);
                }
            }
            "unlink" | "rmdir" => {
                if let Some(path) = first {
                    self.out.delete(path, false, name, span);
                }
            }
            "file_put_contents" => {
                if !first.as_deref().is_some_and(not_file) {
                    self.out.cap(CapKind::Write, name, span);
                }
            }
            "fopen"
            | "gzopen"
            | "file_get_contents"
            | "file"
            | "readfile"
            | "simplexml_load_file" => {
                if first.as_deref().is_some_and(is_url) {
                    self.out
                        .cap(CapKind::Network, &format!("{name}(url)"), span);
                }
                if name == "fopen" || name == "gzopen" {
                    let writes = args.get(1).map(|a| {
                        self.lit(a)
                            .is_none_or(|m| m.contains(['w', 'a', 'x', 'c', '+']))
                    });
                    if writes == Some(true)
                        && !first.as_deref().is_some_and(|p| not_file(p) || is_url(p))
                    {
                        self.out.cap(CapKind::Write, &format!("{name}(w)"), span);
                    }
                }
            }
            "assert" => {
                if args
                    .first()
                    .and_then(|a| t.get(a.start))
                    .is_some_and(|s| matches!(s.kind, Kind::Str | Kind::Var))
                {
                    self.out.cap(CapKind::Eval, "assert(string)", span);
                }
            }
            "preg_replace" | "preg_filter" => {
                if first.as_deref().is_some_and(eval_modifier) {
                    self.out.cap(CapKind::Eval, "preg_replace /e", span);
                }
            }
            _ => {
                let Some(n) = callback_arg(name) else { return };
                match args.get(n).and_then(|a| self.lit(a)) {
                    Some(f) => {
                        let f = f.trim_start_matches('\\').to_ascii_lowercase();
                        let rest = if n == 0 && name.starts_with("call_user_func") {
                            args.get(1..).unwrap_or(&[])
                        } else {
                            &[]
                        };
                        if callback_arg(&f).is_none() {
                            self.call(&f, rest, span);
                        }
                    }
                    None if name.starts_with("call_user_func")
                        || name.starts_with("forward_static") =>
                    {
                        self.out.cap(CapKind::Eval, name, span);
                    }
                    None => {}
                }
            }
        }
    }
}

/// True when a regex literal such as `/x/e` carries the eval modifier.
fn eval_modifier(pattern: &str) -> bool {
    let p = pattern.trim_start();
    let Some(open) = p.chars().next() else {
        return false;
    };
    let close = match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        '<' => '>',
        c => c,
    };
    let body = p.get(open.len_utf8()..).unwrap_or("");
    body.rfind(close)
        .and_then(|k| body.get(k + close.len_utf8()..))
        .is_some_and(|m| m.contains('e'))
}

#[cfg(test)]
mod tests {
    use super::super::{CapKind, Lang, ShellOut, scan as scan_lang, testing};

    fn kinds(code: &str) -> Vec<(CapKind, String)> {
        testing::kinds(Lang::Php, code)
    }

    fn outs(code: &str) -> Vec<ShellOut> {
        scan_lang(Lang::Php, code).shell_outs
    }

    #[test]
    fn echo_and_reading_has_no_capability() {
        testing::assert_inert(
            Lang::Php,
            &[
                "echo json_encode([1]);",
                "echo 'system(\"rm -rf /\")'; // exec('x')\n# shell_exec('y')\n/* passthru() */",
                "$pdo->exec('DROP TABLE x'); Foo::system(); function exec() {}",
                "echo file_get_contents('a.txt'); $f = fopen('a', 'r');",
                "fwrite(fopen('php://stderr', 'w'), 'x'); file_put_contents('php://stdout', 'y');",
                "$x = function($a) { return $a; }; echo $x(1); echo array_map(fn($v) => $v, [1])[0];",
            ],
        );
        assert!(!kinds("<html><?php system('id') ?>").is_empty());
    }

    #[test]
    fn shell_functions_yield_literal_code() {
        assert!(
            matches!(&outs("system('rm -rf /');")[..], [ShellOut::Code { code, .. }] if code == "rm -rf /")
        );
        assert!(
            matches!(&outs("echo SHELL_EXEC(\"ls \" . \"-l\");")[..], [ShellOut::Code { code, .. }] if code == "ls -l")
        );
        assert!(matches!(&outs("echo `id`;")[..], [ShellOut::Code { code, .. }] if code == "id"));
        assert!(
            matches!(&outs("proc_open(['rm', '-rf', '/'], $d, $p);")[..], [ShellOut::Argv { argv, .. }] if argv.len() == 3)
        );
        assert!(
            matches!(&outs("pcntl_exec('/bin/rm', array('-rf', '/'));")[..], [ShellOut::Argv { argv, .. }] if argv == &["/bin/rm", "-rf", "/"])
        );
        assert!(outs("system(\"rm $x\");").is_empty());
        assert_eq!(kinds("system(\"rm $x\");")[0].0, CapKind::Process);
        assert!(
            matches!(&outs("<?php\nexec(<<<EOT\n  ls -l\n  EOT);\n")[..], [ShellOut::Code { code, .. }] if code == "ls -l")
        );
    }

    #[test]
    fn finds_unlink_literal_path_and_writes() {
        let s = scan_lang(Lang::Php, "unlink('/etc/passwd');");
        assert_eq!(
            (s.deletes[0].path.as_str(), s.deletes[0].recursive),
            ("/etc/passwd", false)
        );
        assert_eq!(kinds("file_put_contents('a', 'b');")[0].0, CapKind::Write);
        assert_eq!(
            kinds("$f = fopen('a', 'w');"),
            vec![(CapKind::Write, "fopen(w)".into())]
        );
        assert_eq!(kinds("rename('a', 'b');")[0].0, CapKind::Write);
    }

    #[test]
    fn finds_network_and_eval() {
        assert_eq!(
            kinds("echo file_get_contents('https://x');")[0].0,
            CapKind::Network
        );
        assert_eq!(kinds("$c = curl_init('u');")[0].0, CapKind::Network);
        assert_eq!(kinds("fsockopen('h', 80);")[0].0, CapKind::Network);
        assert_eq!(kinds("eval($code);"), vec![(CapKind::Eval, "eval".into())]);
        assert_eq!(
            kinds("assert('1 == 1');"),
            vec![(CapKind::Eval, "assert(string)".into())]
        );
        assert_eq!(
            kinds("preg_replace('/x/e', '$0', $s);"),
            vec![(CapKind::Eval, "preg_replace /e".into())]
        );
        assert_eq!(kinds("preg_replace('/e/i', 'x', $s);"), vec![]);
        assert_eq!(kinds("include $file;")[0].0, CapKind::Eval);
    }

    #[test]
    fn resolves_callbacks_and_variable_functions() {
        let s = scan_lang(Lang::Php, "call_user_func('system', 'id');");
        assert!(matches!(&s.shell_outs[..], [ShellOut::Code { code, .. }] if code == "id"));
        assert_eq!(
            kinds("$f = 'sys' . 'tem'; $f('id');")[0],
            (CapKind::Process, "system".into())
        );
        assert_eq!(
            kinds("$g($x);"),
            vec![(CapKind::Eval, "variable function".into())]
        );
        assert_eq!(
            kinds("array_map('unlink', glob('*'));")[0].0,
            CapKind::Delete
        );
        assert_eq!(
            kinds("call_user_func($f);"),
            vec![(CapKind::Eval, "call_user_func".into())]
        );
    }

    #[test]
    fn unreadable_when_unterminated() {
        testing::assert_unreadable(
            Lang::Php,
            &[
                "echo 'abc;",
                "echo \"{$x\";",
                "/* open",
                "f(1];",
                "$x = <<<EOT\nno end\n",
            ],
        );
    }
}
