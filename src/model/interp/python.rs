//! Python scanner: tokenizes `python -c` code and resolves imports and aliases to find
//! process, delete, write, network and eval capabilities.

use std::collections::HashMap;
use std::ops::Range;

use super::lexer::{self, At, Esc, Interp, Kind, Lex, StrSpec, Token};
use super::tokens::{self, View};
use super::{CapKind, Out};

const OPS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "->", "**", "//", "==", "!=", "<=", ">=", ":=", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "@=", "<<", ">>",
];
const JOIN: &[&str] = &["+"];
/// Why nested code (an interpolation) that runs out of input is unreadable.
const UNTERMINATED: &str = "unterminated f-string expression";

pub(crate) fn scan(code: &str, out: &mut Out) {
    let mut lx = Lex::new(code);
    lx.lex_all(lex, out);
    Scanner::new(&lx.toks, out).run();
}

fn lex(lx: &mut Lex<'_>, nested: bool) {
    lx.run(nested, UNTERMINATED, OPS, |lx, At { start, c, c2, .. }| {
        match c {
            c if c.is_whitespace() || c == '\\' => {
                lx.cur.bump();
            }
            '#' => lx.cur.skip_line(),
            '"' | '\'' => string(lx, start, ""),
            c if lexer::is_ident_start(c) => {
                let word = lx.cur.eat_while(lexer::is_ident);
                let prefix = word.to_ascii_lowercase();
                let is_prefix = matches!(
                    prefix.as_str(),
                    "r" | "u" | "b" | "f" | "br" | "rb" | "fr" | "rf"
                );
                if is_prefix && matches!(lx.cur.peek(), Some('"' | '\'')) {
                    string(lx, start, &prefix);
                } else {
                    lx.push(Kind::Ident, word.to_string(), start);
                }
            }
            '.' if c2.is_some_and(|d| d.is_ascii_digit()) => lx.number(),
            _ => return false,
        }
        true
    });
}

fn string(lx: &mut Lex<'_>, start: usize, prefix: &str) {
    let rest = lx.cur.rest();
    let close = ["'''", "\"\"\"", "'", "\""]
        .into_iter()
        .find(|q| rest.starts_with(q))
        .unwrap_or("'");
    lx.cur.pos += close.len();
    let spec = StrSpec {
        close,
        open: None,
        esc: if prefix.contains('r') {
            Esc::Raw
        } else {
            Esc::Python
        },
        interp: if prefix.contains('f') {
            Interp::Python
        } else {
            Interp::None
        },
        multiline: close.len() == 3,
    };
    lx.string(Kind::Str, start, &spec, lex);
}

/// `os` functions that start or replace processes.
const OS_PROCESS: &[&str] = &[
    "system",
    "popen",
    "popen2",
    "popen3",
    "popen4",
    "fork",
    "forkpty",
    "posix_spawn",
    "posix_spawnp",
    "execl",
    "execle",
    "execlp",
    "execlpe",
    "execv",
    "execve",
    "execvp",
    "execvpe",
    "spawnl",
    "spawnle",
    "spawnlp",
    "spawnlpe",
    "spawnv",
    "spawnve",
    "spawnvp",
    "spawnvpe",
];
const OS_WRITE: &[&str] = &[
    "rename",
    "renames",
    "replace",
    "chmod",
    "lchmod",
    "fchmod",
    "chown",
    "lchown",
    "fchown",
    "truncate",
    "ftruncate",
    "link",
    "symlink",
    "mkfifo",
    "mknod",
];
const NETWORK: &[&str] = &[
    "socket",
    "urllib",
    "urllib2",
    "urllib3",
    "requests",
    "httpx",
    "aiohttp",
    "ftplib",
    "smtplib",
    "paramiko",
    "telnetlib",
    "poplib",
    "imaplib",
    "nntplib",
    "websocket",
    "websockets",
    "xmlrpc",
    "socketserver",
    "asyncssh",
    "pycurl",
    "httplib",
    "httplib2",
];
/// Names a star import cannot rebind in practice (keywords and common builtins).
const KEYWORDS: &[&str] = &[
    "from", "import", "as", "in", "is", "not", "and", "or", "if", "else", "elif", "for", "while",
    "def", "class", "return", "lambda", "with", "try", "except", "finally", "raise", "pass",
    "None", "True", "False", "print", "len", "range", "str", "int", "list", "dict",
];
/// Modules whose functions can be reached through `getattr(module, name)`.
const REFLECTABLE: &[&str] = &[
    "os",
    "posix",
    "subprocess",
    "shutil",
    "builtins",
    "__builtins__",
    "socket",
    "pty",
    "ctypes",
    "importlib",
    "sys",
    "commands",
    "pathlib",
];

/// Capability of a canonical dotted name such as `os.system` or `subprocess`.
fn classify(name: &str) -> Option<CapKind> {
    let name = name.strip_prefix("builtins.").unwrap_or(name);
    let (m, f) = name.split_once('.').unwrap_or((name, ""));
    let first = f.split('.').next().unwrap_or("");
    match m {
        "os" | "posix" | "nt" if OS_PROCESS.contains(&first) => Some(CapKind::Process),
        "os" | "posix" | "nt" if matches!(first, "remove" | "unlink" | "rmdir" | "removedirs") => {
            Some(CapKind::Delete)
        }
        "os" | "posix" | "nt" if OS_WRITE.contains(&first) => Some(CapKind::Write),
        "subprocess" | "pty" | "commands" | "popen2" | "sh" | "pexpect" | "plumbum" => {
            Some(CapKind::Process)
        }
        "shutil" if matches!(first, "" | "rmtree" | "move") => Some(CapKind::Delete),
        // Copies are judged by their target (see `call`).
        "shutil" if matches!(first, "chown" | "unpack_archive") => Some(CapKind::Write),
        "urllib" if first == "parse" => None,
        "http" if matches!(first, "client" | "server") => Some(CapKind::Network),
        m if NETWORK.contains(&m) => Some(CapKind::Network),
        "asyncio" if first.starts_with("create_subprocess") => Some(CapKind::Process),
        "asyncio" if matches!(first, "open_connection" | "start_server") => Some(CapKind::Network),
        "platform" if first == "popen" => Some(CapKind::Process),
        "ctypes" | "cffi" | "runpy" => Some(CapKind::Eval),
        // Deserialising a file (`pickle.load(f)`, `torch.load(p)`, `shelve.open`) reads it,
        // like running a script in the workspace; bytes from anywhere (`pickle.loads(
        // base64.b64decode(..))`) are a way to hide code.
        "pickle" | "cPickle" | "_pickle" | "dill" | "marshal" if first == "loads" => {
            Some(CapKind::Eval)
        }

        "importlib" if !matches!(first, "" | "import_module") => Some(CapKind::Eval),
        "code" if first.starts_with("interact") || first.starts_with("Interactive") => {
            Some(CapKind::Eval)
        }
        "eval" | "exec" | "compile" | "execfile" if f.is_empty() => Some(CapKind::Eval),
        _ => None,
    }
}

struct Scanner<'t, 'o> {
    t: &'t [Token],
    out: &'o mut Out,
    alias: HashMap<String, String>,
    star: Vec<String>,
}

impl<'t> View<'t> for Scanner<'t, '_> {
    fn toks(&self) -> &'t [Token] {
        self.t
    }
}

impl<'t, 'o> Scanner<'t, 'o> {
    fn new(t: &'t [Token], out: &'o mut Out) -> Self {
        Scanner {
            t,
            out,
            alias: HashMap::new(),
            star: Vec::new(),
        }
    }

    fn tok(&self, i: usize) -> Option<&'t Token> {
        self.t.get(i)
    }

    fn lit(&self, r: &Range<usize>) -> Option<String> {
        tokens::lit(self.t, r, JOIN, true)
    }

    fn resolve(&self, name: &str) -> String {
        if let Some(a) = self.alias.get(name) {
            return a.clone();
        }
        if KEYWORDS.contains(&name) || self.star.iter().any(|m| m == name) {
            return name.to_string();
        }
        self.star
            .iter()
            .map(|m| format!("{m}.{name}"))
            .find(|full| classify(full).is_some())
            .unwrap_or_else(|| name.to_string())
    }

    /// Dotted name at `i` after `.`-separated identifiers; returns the name and the index after.
    fn dotted(&self, mut i: usize) -> (String, usize) {
        let mut name = self.ident(i).unwrap_or("").to_string();
        i += 1;
        while let (true, Some(seg)) = (self.is(i, "."), self.ident(i + 1)) {
            name.push('.');
            name.push_str(seg);
            i += 2;
        }
        (name, i)
    }

    fn run(mut self) {
        self.collect_aliases();
        let mut i = 0;
        while i < self.t.len() {
            i = self.visit(i);
        }
    }

    /// Records what `import`, `from .. import` and `name = dotted.name` bind.
    fn collect_aliases(&mut self) {
        let mut from_import = None;
        for i in 0..self.t.len() {
            match self.ident(i) {
                Some("import") if from_import == Some(i) => {}
                Some("import") => {
                    let mut j = i + 1;
                    loop {
                        let (module, k) = self.dotted(j);
                        j = k;
                        if let (Some("as"), Some(local)) = (self.ident(j), self.ident(j + 1)) {
                            self.alias.insert(local.to_string(), module);
                            j += 2;
                        }
                        if !self.is(j, ",") {
                            break;
                        }
                        j += 1;
                    }
                }
                Some("from") => from_import = self.bind_from_import(i),
                Some(local)
                    if self.is(i + 1, "=")
                        && !self.is(i.wrapping_sub(1), ".")
                        && self.ident(i + 2).is_some() =>
                {
                    let (target, k) = self.dotted(i + 2);
                    let plain = !self
                        .tok(k)
                        .is_some_and(|t| t.punct("(") || t.punct("[") || t.punct("."));
                    if plain && target != local {
                        let (head, rest) = target.split_once('.').unwrap_or((&target, ""));
                        let full = self.resolve(head);
                        let full = if rest.is_empty() {
                            full
                        } else {
                            format!("{full}.{rest}")
                        };
                        self.alias.insert(local.to_string(), full);
                    }
                }
                _ => {}
            }
        }
    }

    /// Binds the names of `from module import ...` at `i`; returns the index of its `import`.
    fn bind_from_import(&mut self, i: usize) -> Option<usize> {
        let mut j = i + 1;
        let mut module = String::new();
        while self.is(j, ".") {
            module.push('.');
            j += 1;
        }
        if self.ident(j).is_some() {
            let (m, k) = self.dotted(j);
            module.push_str(&m);
            j = k;
        }
        if self.ident(j) != Some("import") {
            return None;
        }
        let import_at = j;
        j += 1;
        if self.is(j, "(") {
            j += 1;
        }
        loop {
            if self.is(j, "*") {
                let known = classify(&module).is_some() || REFLECTABLE.contains(&module.as_str());
                if known && !self.star.contains(&module) {
                    self.star.push(module.clone());
                }
                return Some(import_at);
            }
            let Some(name) = self.ident(j) else {
                return Some(import_at);
            };
            let full = format!("{module}.{name}");
            j += 1;
            if let (Some("as"), Some(local)) = (self.ident(j), self.ident(j + 1)) {
                self.alias.insert(local.to_string(), full);
                j += 2;
            } else {
                self.alias.insert(name.to_string(), full);
            }
            if !self.is(j, ",") {
                return Some(import_at);
            }
            j += 1;
        }
    }

    /// The index after an `import a.b as c, d` or `from m import (x as y, z)` statement at `i`:
    /// an import only binds names, it is no capability by itself.
    fn skip_import(&self, i: usize) -> usize {
        let mut j = i + 1;
        let names = |s: &Self, mut j: usize| loop {
            let (_, k) = s.dotted(j);
            j = k;
            if s.ident(j) == Some("as") {
                j += 2;
            }
            if !s.is(j, ",") {
                return j;
            }
            j += 1;
        };
        if self.ident(i) == Some("import") {
            return names(self, j);
        }
        while self.is(j, ".") {
            j += 1;
        }
        if self.ident(j).is_some() && self.ident(j) != Some("import") {
            j = self.dotted(j).1;
        }
        if self.ident(j) != Some("import") {
            return i + 1;
        }
        j += 1;
        if self.is(j, "*") {
            return j + 1;
        }
        let paren = self.is(j, "(");
        if paren {
            j += 1;
        }
        j = names(self, j);
        if paren && self.is(j, ")") {
            j += 1;
        }
        j
    }

    /// Looks at token `i`; returns the index to continue from.
    fn visit(&mut self, i: usize) -> usize {
        let Some(word) = self.ident(i) else {
            return i + 1;
        };
        if matches!(word, "import" | "from") && !self.is(i.wrapping_sub(1), ".") {
            return self.skip_import(i).max(i + 1);
        }
        if self.is(i.wrapping_sub(1), ".") {
            self.method(i, word);
            return i + 1;
        }
        let prev = self.ident(i.wrapping_sub(1));
        let kwarg_name = self.is(i + 1, "=")
            && (self.is(i.wrapping_sub(1), "(") || self.is(i.wrapping_sub(1), ","));
        if matches!(prev, Some("def" | "class" | "as")) || kwarg_name {
            return i + 1;
        }
        let (name, j) = self.chain(i);
        let end = if self.is(j, "(") {
            tokens::matching(self.t, j).unwrap_or(j)
        } else {
            j.saturating_sub(1)
        };
        let span = self.span(i, end);
        match classify(&name) {
            Some(kind) => self.out.cap(kind, &name, span),
            // `p.unlink()` on a value of unknown type: judge the method by its name.
            None if j >= 2 && self.is(j - 2, ".") => {
                if let Some(m) = self.ident(j - 1) {
                    self.method(j - 1, m);
                }
            }
            None => {}
        }
        if self.is(j, "(") {
            self.call(&name, j, span);
        }
        j.max(i + 1)
    }

    /// Resolves a name chain starting at `i`, seeing through `__import__('m')`,
    /// `importlib.import_module('m')` and `getattr(obj, 'name')`.
    fn chain(&mut self, i: usize) -> (String, usize) {
        let (head, mut j) = self.dotted(i);
        let (first, rest) = head.split_once('.').unwrap_or((&head, ""));
        let mut name = self.resolve(first);
        if !rest.is_empty() {
            name = format!("{name}.{rest}");
        }
        loop {
            let dynamic = matches!(
                name.as_str(),
                "__import__" | "importlib.import_module" | "getattr"
            );
            if !dynamic || !self.is(j, "(") {
                break;
            }
            let Some((args, close)) = tokens::args(self.t, j) else {
                break;
            };
            let span = self.span(i, close);
            let first_lit = args.first().and_then(|a| self.lit(a));
            let resolved = if name == "getattr" {
                let base = args
                    .first()
                    .filter(|a| self.ident(a.start).is_some())
                    .map(|a| {
                        let (n, _) = self.dotted(a.start);
                        let (h, r) = n.split_once('.').unwrap_or((&n, ""));
                        let h = self.resolve(h);
                        if r.is_empty() { h } else { format!("{h}.{r}") }
                    });
                let attr = args.get(1).and_then(|a| self.lit(a));
                match (base, attr) {
                    // Reflection on a capable module is itself a sign of evasion.
                    (Some(b), a) if REFLECTABLE.contains(&b.split('.').next().unwrap_or("")) => {
                        self.out.cap(CapKind::Eval, "getattr", span);
                        a.map(|a| format!("{b}.{a}"))
                    }
                    (Some(b), Some(a)) => Some(format!("{b}.{a}")),
                    _ => None,
                }
            } else {
                if first_lit.is_none() {
                    self.out.cap(CapKind::Eval, &name, span);
                }
                first_lit
            };
            let Some(mut resolved) = resolved else { break };
            j = close + 1;
            while let (true, Some(seg)) = (self.is(j, "."), self.ident(j + 1)) {
                resolved.push('.');
                resolved.push_str(seg);
                j += 2;
            }
            name = resolved;
        }
        if name == "__import__" && !self.is(j, "(") {
            self.out.cap(CapKind::Eval, "__import__", self.span(i, i));
        }
        (name, j)
    }

    fn call(&mut self, name: &str, open: usize, span: (usize, usize)) {
        let Some((args, close)) = tokens::args(self.t, open) else {
            return;
        };
        let pos = tokens::positional(self.t, &args);
        let arg =
            |k: &str, n: usize| tokens::kwarg(self.t, &args, k).or_else(|| pos.get(n).cloned());
        let lit_span = |r: &Range<usize>| tokens::span(self.t, r);
        let name = name.strip_prefix("builtins.").unwrap_or(name);
        let short = name.rsplit('.').next().unwrap_or(name);
        match name {
            "os.system"
            | "os.popen"
            | "os.popen2"
            | "os.popen3"
            | "os.popen4"
            | "platform.popen"
            | "subprocess.getoutput"
            | "subprocess.getstatusoutput"
            | "commands.getoutput"
            | "commands.getstatusoutput"
            | "asyncio.create_subprocess_shell" => {
                if let Some((a, s)) = arg("cmd", 0).and_then(|a| Some((a.clone(), self.lit(&a)?))) {
                    self.out.code(s, lit_span(&a));
                }
            }
            "subprocess.run"
            | "subprocess.call"
            | "subprocess.check_call"
            | "subprocess.check_output"
            | "subprocess.Popen" => {
                let Some(a) = arg("args", 0) else { return };
                let shell = tokens::opt_true(self.t, &(open..close), "shell");
                if let Some(s) = self.lit(&a) {
                    if shell {
                        self.out.code(s, lit_span(&a))
                    } else {
                        self.out.argv(vec![s], lit_span(&a))
                    }
                } else if let Some(list) = tokens::lit_list(self.t, &a, JOIN) {
                    match (shell, list.first()) {
                        (true, Some(first)) => self.out.code(first.clone(), lit_span(&a)),
                        _ => self.out.argv(list, lit_span(&a)),
                    }
                }
            }
            "asyncio.create_subprocess_exec" => {
                if let Some(items) = tokens::lit_items(self.t, &pos, JOIN) {
                    self.out
                        .argv(items, self.span(open + 1, close.saturating_sub(1)));
                }
            }
            "pty.spawn" => {
                if let Some(a) = pos.first() {
                    let items = self
                        .lit(a)
                        .map(|s| vec![s])
                        .or_else(|| tokens::lit_list(self.t, a, JOIN));
                    if let Some(items) = items {
                        self.out.argv(items, lit_span(a));
                    }
                }
            }
            _ if name.starts_with("os.exec")
                || name.starts_with("os.spawn")
                || name.starts_with("os.posix_spawn") =>
            {
                self.exec_family(short, &pos);
            }
            // Writes judged by their target when it is literal, a write capability otherwise.
            _ if name.starts_with("shutil.copy")
                || name == "torch.save"
                || name.starts_with("numpy.save") =>
            {
                let target = if name.starts_with("numpy") {
                    arg("file", 0)
                } else if name == "torch.save" {
                    arg("f", 1)
                } else {
                    arg("dst", 1)
                };
                match target.and_then(|a| self.lit(&a)) {
                    Some(p) => self.out.write(p, name, span),
                    None => self.out.cap(CapKind::Write, name, span),
                }
            }
            "shutil.rmtree" | "shutil.move" | "os.remove" | "os.unlink" | "os.rmdir"
            | "os.removedirs" => {
                if name == "shutil.move"
                    && let Some(p) = arg("dst", 1).and_then(|a| self.lit(&a))
                {
                    self.out.write(p, name, span);
                }
                let key = if short == "move" { "src" } else { "path" };
                if let Some(p) = arg(key, 0).and_then(|a| self.lit(&a)) {
                    self.out
                        .delete(p, matches!(short, "rmtree" | "move"), name, span);
                }
            }
            "pathlib.Path" | "Path" | "pathlib.PosixPath" | "PosixPath" => {
                let method = self.ident(close + 2).filter(|_| self.is(close + 1, "."));
                if let (Some(m @ ("unlink" | "rmdir")), Some(p)) =
                    (method, pos.first().and_then(|a| self.lit(a)))
                {
                    let end = self.span(close + 2, close + 2).1;
                    self.out
                        .delete(p, false, &format!("Path.{m}"), (span.0, end));
                }
            }
            "open" | "io.open" | "codecs.open" => self.open_mode(arg("mode", 1), span),
            "os.open" => {
                let flags = pos.get(1).map(|a| {
                    self.t
                        .get(a.clone())
                        .unwrap_or(&[])
                        .iter()
                        .filter(|t| t.kind == Kind::Ident)
                        .map(|t| t.text.as_str())
                        .collect::<Vec<_>>()
                });
                let writes = flags.is_none_or(|f| {
                    f.iter().any(|w| {
                        matches!(
                            *w,
                            "O_WRONLY" | "O_RDWR" | "O_CREAT" | "O_TRUNC" | "O_APPEND"
                        )
                    }) || !f.contains(&"O_RDONLY")
                });
                if writes {
                    self.out.cap(CapKind::Write, "os.open", span);
                }
            }
            _ => {}
        }
    }

    fn open_mode(&mut self, mode: Option<Range<usize>>, span: (usize, usize)) {
        let Some(m) = mode else { return };
        match self.lit(&m) {
            Some(m) if !m.contains(['w', 'a', 'x', '+']) => {}
            Some(m) => self
                .out
                .cap(CapKind::Write, &format!("open(..., '{m}')"), span),
            None => self.out.cap(CapKind::Write, "open(..., ?)", span),
        }
    }

    /// `os.exec*`, `os.spawn*` and `os.posix_spawn*`: the file, then argv (argv[0] replaced by
    /// the file, since that is what runs).
    fn exec_family(&mut self, short: &str, pos: &[Range<usize>]) {
        let pos = if short.starts_with("spawn") {
            pos.get(1..).unwrap_or(&[])
        } else {
            pos
        };
        let Some(file) = pos.first().and_then(|a| self.lit(a)) else {
            return;
        };
        let suffix = short
            .trim_start_matches("exec")
            .trim_start_matches("spawn")
            .trim_start_matches("posix_spawn");
        let list = if suffix.starts_with('l') {
            let mut rest = pos.get(1..).unwrap_or(&[]);
            if suffix.contains('e') {
                rest = rest.get(..rest.len().saturating_sub(1)).unwrap_or(&[]);
            }
            tokens::lit_items(self.t, rest, JOIN)
        } else {
            pos.get(1).and_then(|a| tokens::lit_list(self.t, a, JOIN))
        };
        let Some(list) = list else { return };
        let whole = pos.first().zip(pos.last()).map_or((0, 0), |(a, b)| {
            (tokens::span(self.t, a).0, tokens::span(self.t, b).1)
        });
        let mut argv = vec![file];
        argv.extend(list.into_iter().skip(1));
        self.out.argv(argv, whole);
    }

    /// Method calls on values of unknown type, judged by the method name alone.
    fn method(&mut self, i: usize, word: &str) {
        if !self.is(i + 1, "(") {
            return;
        }
        let close = tokens::matching(self.t, i + 1).unwrap_or(i + 1);
        let span = self.span(i, close);
        match word {
            "unlink" | "rmdir" => self.out.cap(CapKind::Delete, &format!("Path.{word}"), span),
            "write_text" | "write_bytes" | "chmod" | "lchmod" | "symlink_to" | "hardlink_to" => {
                self.out.cap(CapKind::Write, &format!("Path.{word}"), span);
            }
            // Writes to a path given as the argument: with a literal target they are judged by
            // that target like any other write; with another target they are a write
            // capability. `df.to_csv()` with no path returns a string and writes nothing.
            "to_csv" | "to_parquet" | "to_json" | "to_excel" | "to_pickle" | "to_feather"
            | "to_hdf" | "to_html" | "to_markdown" | "to_latex" | "to_xml" | "to_stata"
            | "to_orc" | "savefig" | "save" | "extractall" | "extract" => {
                let Some((args, _)) = tokens::args(self.t, i + 1) else {
                    return;
                };
                let keys = [
                    "path_or_buf",
                    "path",
                    "fname",
                    "fp",
                    "filename",
                    "excel_writer",
                ];
                let target = keys
                    .iter()
                    .find_map(|k| tokens::kwarg(self.t, &args, k))
                    .or_else(|| {
                        // `zf.extract(member, path)`: the member comes first.
                        let p = tokens::positional(self.t, &args);
                        if word == "extract" {
                            p.get(1).cloned()
                        } else {
                            p.first().cloned()
                        }
                    });
                let what = format!(".{word}()");
                match target {
                    Some(t) => match self.lit(&t) {
                        Some(p) => self.out.write(p, &what, span),
                        None => self.out.cap(CapKind::Write, &what, span),
                    },
                    // `extractall()` writes into the working directory.
                    None if word.starts_with("extract") => self.out.write(".".into(), &what, span),
                    None => {}
                }
            }
            "open" => {
                if let Some((args, _)) = tokens::args(self.t, i + 1) {
                    let mode =
                        tokens::kwarg(self.t, &args, "mode").or_else(|| args.first().cloned());
                    let is_mode = mode
                        .as_ref()
                        .and_then(|m| self.lit(m))
                        .is_some_and(|m| m.chars().all(|c| "rwxabt+U".contains(c)));
                    if is_mode {
                        self.open_mode(mode, span);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CapKind, Lang, ShellOut, scan as scan_lang, testing};

    fn kinds(code: &str) -> Vec<(CapKind, String)> {
        testing::kinds(Lang::Python, code)
    }

    fn codes(code: &str) -> Vec<ShellOut> {
        scan_lang(Lang::Python, code).shell_outs
    }

    #[test]
    fn pure_computation_has_no_capability() {
        testing::assert_inert(
            Lang::Python,
            &[
                "print(1)",
                "import json,sys; print(json.load(sys.stdin)['x'])",
                "import os; print(os.getcwd())",
                "print(open('f').read())",
                "open('f', 'r')",
                "import os.path\nprint(os.path.join('a', 'b'))",
                "from urllib.parse import quote; print(quote('x'))",
                "x = {'os.system': 1}  # subprocess.run('rm -rf /')",
                "print('''import subprocess; os.system(\"x\")''')",
                "import re; re.compile('a').sub('b', 'c')",
            ],
        );
    }

    #[test]
    fn finds_os_system_literal_command() {
        let s = scan_lang(Lang::Python, "import os; os.system(\"rm -rf /\")");
        assert_eq!(
            kinds("import os; os.system(\"rm -rf /\")"),
            vec![(CapKind::Process, "os.system".into())]
        );
        assert!(matches!(&s.shell_outs[..], [ShellOut::Code { code, .. }] if code == "rm -rf /"));
    }

    #[test]
    fn decodes_escapes_and_joins_adjacent_literals() {
        let got = codes("import os\nos.system('\\x72m ' \"-rf /\")");
        assert!(
            matches!(&got[..], [ShellOut::Code { code, .. }] if code == "rm -rf /"),
            "{got:?}"
        );
        let got = codes("import os\nos.system('rm' + ' -rf' + ' /')");
        assert!(
            matches!(&got[..], [ShellOut::Code { code, .. }] if code == "rm -rf /"),
            "{got:?}"
        );
    }

    #[test]
    fn subprocess_list_is_argv_and_shell_true_is_code() {
        let got = codes("import subprocess\nsubprocess.run(['rm','-rf','/'], check=True)");
        assert!(matches!(&got[..], [ShellOut::Argv { argv, .. }] if argv == &["rm", "-rf", "/"]));
        let got = codes("import subprocess; subprocess.call(\"ls\", shell=True)");
        assert!(matches!(&got[..], [ShellOut::Code { code, .. }] if code == "ls"));
    }

    #[test]
    fn follows_import_and_from_import_aliases() {
        let got = codes("import subprocess as sp; sp.run('ls -l', shell=True)");
        assert!(matches!(&got[..], [ShellOut::Code { code, .. }] if code == "ls -l"));
        let s = scan_lang(Lang::Python, "from shutil import rmtree as r; r('/')");
        assert_eq!(s.deletes.len(), 1);
        assert_eq!(
            (s.deletes[0].path.as_str(), s.deletes[0].recursive),
            ("/", true)
        );
        assert_eq!(s.deletes[0].call, "shutil.rmtree");
        let s = scan_lang(
            Lang::Python,
            "from os import system\nrun = system\nrun('id')",
        );
        assert_eq!(s.shell_outs.len(), 1);
    }

    #[test]
    fn finds_rmtree_literal_path_and_plain_remove() {
        let s = scan_lang(Lang::Python, "import shutil\nshutil.rmtree('/home/user')");
        assert_eq!(
            (s.deletes[0].path.as_str(), s.deletes[0].recursive),
            ("/home/user", true)
        );
        let s = scan_lang(Lang::Python, "import os; os.remove(\"/etc/passwd\")");
        assert_eq!(
            (s.deletes[0].path.as_str(), s.deletes[0].recursive),
            ("/etc/passwd", false)
        );
        let s = scan_lang(
            Lang::Python,
            "from pathlib import Path\nPath('/x').unlink()",
        );
        assert_eq!(s.deletes[0].path, "/x");
        assert!(kinds("p.unlink()").contains(&(CapKind::Delete, "Path.unlink".into())));
    }

    #[test]
    fn non_literal_argument_keeps_capability_only() {
        let s = scan_lang(Lang::Python, "import os, sys; os.system(sys.argv[1])");
        assert!(s.shell_outs.is_empty());
        assert!(s.capabilities.iter().any(|c| c.what == "os.system"));
        let s = scan_lang(Lang::Python, "import os; os.system(f'rm {x}')");
        assert!(s.shell_outs.is_empty());
    }

    #[test]
    fn sees_through_dynamic_imports_and_getattr() {
        assert_eq!(codes("__import__('os').system('id')").len(), 1);
        assert!(
            kinds("import importlib; importlib.import_module('subprocess').run('x')")
                .contains(&(CapKind::Process, "subprocess.run".into()))
        );
        assert!(
            kinds("import os; getattr(os, 'system')('id')")
                .contains(&(CapKind::Process, "os.system".into()))
        );
        assert!(
            kinds("import os; getattr(os, n)('id')").contains(&(CapKind::Eval, "getattr".into()))
        );
        assert!(kinds("m = __import__(name)").contains(&(CapKind::Eval, "__import__".into())));
    }

    #[test]
    fn imports_alone_are_no_capability_but_their_use_is() {
        for code in [
            "import subprocess",
            "import socket",
            "import requests, pexpect",
            "import shutil",
            "from os import system",
            "import http.client",
            "from subprocess import (run as r, PIPE)",
            "import os.path as p, sys",
        ] {
            assert_eq!(kinds(code), vec![], "{code}");
        }
        assert_eq!(
            kinds("import subprocess\nsubprocess.run(x)"),
            vec![(CapKind::Process, "subprocess.run".into())]
        );
        assert_eq!(
            kinds("import requests; requests.get(u)"),
            vec![(CapKind::Network, "requests.get".into())]
        );
        assert_eq!(
            kinds("from os import system; system(c)"),
            vec![(CapKind::Process, "os.system".into())]
        );
        assert!(
            kinds("from os import *\nsystem('x')")
                .contains(&(CapKind::Process, "os.system".into()))
        );
    }

    #[test]
    fn open_for_writing_is_write_but_reading_is_not() {
        assert_eq!(
            kinds("open('f', 'w').write('x')"),
            vec![(CapKind::Write, "open(..., 'w')".into())]
        );
        assert_eq!(
            kinds("open('f', mode='ab')"),
            vec![(CapKind::Write, "open(..., 'ab')".into())]
        );
        assert_eq!(
            kinds("open('f', m)"),
            vec![(CapKind::Write, "open(..., ?)".into())]
        );
        assert_eq!(kinds("open('f', 'rb')"), vec![]);
        assert!(
            kinds("import pathlib; pathlib.Path('x').write_text('y')")
                .iter()
                .any(|k| k.0 == CapKind::Write)
        );
        assert!(
            kinds("import os; os.open('f', os.O_WRONLY)")
                .iter()
                .any(|k| k.0 == CapKind::Write)
        );
        assert_eq!(kinds("import os; os.open('f', os.O_RDONLY)"), vec![]);
    }

    #[test]
    fn eval_family_is_eval() {
        for code in [
            "eval(input())",
            "exec(s)",
            "compile(s, 'f', 'exec')",
            "import pickle; pickle.loads(b)",
            "import ctypes; ctypes.CDLL(None)",
        ] {
            assert!(kinds(code).iter().any(|k| k.0 == CapKind::Eval), "{code}");
        }
    }

    #[test]
    fn deserialising_a_file_is_a_read() {
        for code in [
            "import pickle; m = pickle.load(open('m.pkl', 'rb'))",
            "import torch; m = torch.load('model.pt')",
            "with open(f, 'rb') as fh: data = fh.read()",
            "import pandas as pd; print(pd.read_csv('a.csv').to_csv())",
        ] {
            assert_eq!(kinds(code), vec![], "{code}");
        }
    }

    #[test]
    fn writes_with_literal_targets_are_recorded_for_the_write_rules() {
        let targets = |code: &str| -> Vec<String> {
            scan_lang(Lang::Python, code)
                .writes
                .into_iter()
                .map(|w| w.path)
                .collect()
        };
        assert_eq!(
            targets("import zipfile; zipfile.ZipFile('a.zip').extractall('/etc')"),
            ["/etc"]
        );
        assert_eq!(
            targets("import zipfile; zipfile.ZipFile('a.zip').extractall()"),
            ["."]
        );
        assert_eq!(
            targets("import shutil; shutil.copytree('a', '/home/u/.ssh')"),
            ["/home/u/.ssh"]
        );
        assert_eq!(
            targets("import pandas as pd; pd.DataFrame().to_csv('out.csv')"),
            ["out.csv"]
        );
        assert_eq!(targets("df.to_csv(path_or_buf='~/.bashrc')"), ["~/.bashrc"]);
        assert_eq!(targets("import torch; torch.save(m, 'm.pt')"), ["m.pt"]);
        assert!(
            kinds("df.to_csv(out)")
                .iter()
                .any(|k| k.0 == CapKind::Write)
        );
        assert!(
            kinds("import shutil; shutil.copytree(a, dst)")
                .iter()
                .any(|k| k.0 == CapKind::Write)
        );
        assert_eq!(kinds("import shutil; shutil.copytree('a', 'b')"), vec![]);
    }

    #[test]
    fn execvp_and_spawn_build_argv() {
        let got = codes("import os; os.execvp('rm', ['rm', '-rf', '/'])");
        assert!(matches!(&got[..], [ShellOut::Argv { argv, .. }] if argv == &["rm", "-rf", "/"]));
        let got = codes("import os; os.spawnlp(os.P_WAIT, 'ls', 'ls', '-l')");
        assert!(matches!(&got[..], [ShellOut::Argv { argv, .. }] if argv == &["ls", "-l"]));
    }

    #[test]
    fn finds_calls_inside_fstring_expressions() {
        assert!(
            kinds("print(f\"{__import__('os').system('id')}\")")
                .iter()
                .any(|k| k.0 == CapKind::Process)
        );
        assert_eq!(kinds("print(f'{{os.system}} {x!r:>10}')"), vec![]);
    }

    #[test]
    fn unreadable_when_unterminated_or_unbalanced() {
        for code in ["print('abc", "x = '''abc", "print((1)", "f(1]", "x = f'{a'"] {
            let s = scan_lang(Lang::Python, code);
            assert!(s.unreadable && s.unreadable_reason.is_some(), "{code}");
        }
        let deep = "(".repeat(1000) + &")".repeat(1000);
        assert!(scan_lang(Lang::Python, &deep).unreadable);
    }

    #[test]
    fn unicode_text_is_handled() {
        let s = scan_lang(Lang::Python, "print('🦀 é') # ünïcode 🦀\nnamé = 1");
        assert!(!s.unreadable && s.capabilities.is_empty());
    }
}
