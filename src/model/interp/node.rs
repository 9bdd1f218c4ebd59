//! JavaScript scanner (node, deno, bun): tokenizes the code, follows `require`/`import`
//! bindings and finds process, delete, write, network and eval capabilities.

use std::collections::HashMap;
use std::ops::Range;

use super::lexer::{self, At, Esc, Interp, Kind, Lex, StrSpec, Token};
use super::tokens::{self, View};
use super::{CapKind, Out};

const OPS: &[&str] = &[
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=",
    "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "**", "<<", ">>",
];
const JOIN: &[&str] = &["+"];
/// Why nested code (an interpolation) that runs out of input is unreadable.
const UNTERMINATED: &str = "unterminated template expression";
const REGEX_AFTER: &[&str] = &[
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

pub(crate) fn scan(code: &str, out: &mut Out) {
    let mut lx = Lex::new(code);
    lx.lex_all(lex, out);
    Scanner {
        t: &lx.toks,
        out,
        alias: HashMap::new(),
    }
    .run();
}

fn ident_char(c: char) -> bool {
    lexer::is_ident(c) || c == '$'
}

fn regex_ok(prev: Option<&Token>) -> bool {
    prev.is_none_or(|t| match t.kind {
        Kind::Punct => !matches!(t.text.as_str(), ")" | "]" | "}" | "++" | "--"),
        Kind::Ident => REGEX_AFTER.contains(&t.text.as_str()),
        _ => false,
    })
}

fn lex(lx: &mut Lex<'_>, nested: bool) {
    lx.run(nested, UNTERMINATED, OPS, |lx, At { start, c, c2, .. }| {
        match c {
            c if c.is_whitespace() => {
                lx.cur.bump();
            }
            '/' if c2 == Some('/') => lx.cur.skip_line(),
            '#' if start == 0 && c2 == Some('!') => lx.cur.skip_line(),
            '/' if c2 == Some('*') => lx.block_comment(),
            '"' | '\'' | '`' => {
                lx.cur.bump();
                let (close, _) = lexer::closer(c);
                let interp = if c == '`' { Interp::Js } else { Interp::None };
                let spec = StrSpec {
                    close: &close,
                    open: None,
                    esc: Esc::Js,
                    interp,
                    multiline: c == '`',
                };
                lx.string(Kind::Str, start, &spec, lex);
            }
            '/' if regex_ok(lx.prev()) => regex(lx, start),
            c if lexer::is_ident_start(c) || c == '$' => {
                let word = lx.cur.eat_while(ident_char).to_string();
                lx.push(Kind::Ident, word, start);
            }
            '.' if c2.is_some_and(|d| d.is_ascii_digit()) => lx.number(),
            _ => return false,
        }
        true
    });
}

fn regex(lx: &mut Lex<'_>, start: usize) {
    lx.cur.bump();
    let mut class = false;
    loop {
        match lx.cur.bump() {
            None | Some('\n') => return lx.fail("unterminated regex"),
            Some('\\') => {
                lx.cur.bump();
            }
            Some('[') => class = true,
            Some(']') => class = false,
            Some('/') if !class => break,
            Some(_) => {}
        }
    }
    lx.cur.eat_while(lexer::is_ident);
    lx.push(Kind::Regex, String::new(), start);
}

/// Canonical module name: `node:fs` and `fs/promises` are `fs`.
fn module(spec: &str) -> String {
    let m = spec.strip_prefix("node:").unwrap_or(spec);
    match m {
        "fs/promises" | "fs-extra" | "graceful-fs" | "original-fs" => "fs".into(),
        "child_process" | "node:child_process" => "child_process".into(),
        _ => m.to_string(),
    }
}

fn fs_kind(f: &str) -> Option<CapKind> {
    match f {
        "rm" | "rmSync" | "rmdir" | "rmdirSync" | "unlink" | "unlinkSync" | "remove"
        | "removeSync" | "emptyDir" | "emptyDirSync" => Some(CapKind::Delete),
        "writeFile" | "writeFileSync" | "appendFile" | "appendFileSync" | "createWriteStream"
        | "copyFile" | "copyFileSync" | "cp" | "cpSync" | "rename" | "renameSync" | "chmod"
        | "chmodSync" | "lchmod" | "fchmod" | "chown" | "chownSync" | "lchown" | "fchown"
        | "truncate" | "truncateSync" | "ftruncate" | "symlink" | "symlinkSync" | "link"
        | "linkSync" | "write" | "writeSync" | "writev" | "utimes" | "utimesSync"
        | "outputFile" | "outputFileSync" | "outputJson" | "writeJson" | "writeJsonSync"
        | "move" | "moveSync" | "copy" | "copySync" => Some(CapKind::Write),
        _ => None,
    }
}

fn deno_kind(f: &str) -> Option<CapKind> {
    match f {
        "run" | "Command" | "spawn" | "spawnSync" | "kill" => Some(CapKind::Process),
        "remove" | "removeSync" => Some(CapKind::Delete),
        "writeTextFile" | "writeTextFileSync" | "writeFile" | "writeFileSync" | "create"
        | "createSync" | "rename" | "renameSync" | "chmod" | "chmodSync" | "chown"
        | "chownSync" | "copyFile" | "copyFileSync" | "truncate" | "truncateSync" | "symlink"
        | "symlinkSync" | "link" | "linkSync" | "utime" | "utimeSync" => Some(CapKind::Write),
        "connect" | "connectTls" | "listen" | "listenTls" | "listenDatagram" | "serve"
        | "startTls" | "resolveDns" => Some(CapKind::Network),
        "dlopen" => Some(CapKind::Eval),
        _ => None,
    }
}

/// Capability of a canonical name such as `child_process.execSync` or `fetch`.
fn classify(name: &str) -> Option<CapKind> {
    let (m, f) = name.split_once('.').unwrap_or((name, ""));
    match m {
        "shelljs" if f == "rm" => Some(CapKind::Delete),
        "child_process" | "shelljs" | "execa" | "zx" | "cross-spawn" | "node-pty" => {
            Some(CapKind::Process)
        }
        "http" | "https" | "http2" | "net" | "dgram" | "tls" | "axios" | "node-fetch" | "got"
        | "ws" | "undici" | "request" | "superagent" | "socket.io-client" | "fetch"
        | "XMLHttpRequest" | "WebSocket" | "EventSource" => Some(CapKind::Network),
        "vm" | "worker_threads" => Some(CapKind::Eval),
        "eval" | "Function" if f.is_empty() => Some(CapKind::Eval),
        "rimraf" | "del" => Some(CapKind::Delete),
        "fs" => fs_kind(f.strip_prefix("promises.").unwrap_or(f)),
        "process" => match f {
            "binding" | "_linkedBinding" | "kill" => Some(CapKind::Process),
            "dlopen" => Some(CapKind::Eval),
            _ => None,
        },
        "Deno" => deno_kind(f),
        "Bun" | "bun" => match f {
            "spawn" | "spawnSync" | "$" => Some(CapKind::Process),
            "write" => Some(CapKind::Write),
            "connect" | "listen" | "serve" | "udpSocket" => Some(CapKind::Network),
            _ => None,
        },
        "navigator" if f == "sendBeacon" => Some(CapKind::Network),
        _ => None,
    }
}

struct Scanner<'t, 'o> {
    t: &'t [Token],
    out: &'o mut Out,
    alias: HashMap<String, String>,
}

impl<'t> View<'t> for Scanner<'t, '_> {
    fn toks(&self) -> &'t [Token] {
        self.t
    }
}

impl<'t> Scanner<'t, '_> {
    fn lit(&self, r: &Range<usize>) -> Option<String> {
        tokens::lit(self.t, r, JOIN, false)
    }

    fn run(mut self) {
        for i in 0..self.t.len() {
            self.bind(i);
        }
        let mut i = 0;
        while i < self.t.len() {
            i = self.visit(i);
        }
    }

    /// Name chain at `i`: `a.b`, `a?.b`, `a['b']`, with `require('m')` / `import('m')` heads.
    fn chain(&mut self, i: usize) -> (String, usize) {
        let head = self.ident(i).unwrap_or("");
        let mut name = self
            .alias
            .get(head)
            .cloned()
            .unwrap_or_else(|| head.to_string());
        let mut j = i + 1;
        loop {
            let last = name.rsplit('.').next().unwrap_or("");
            if matches!(last, "require" | "import") && self.is(j, "(") {
                let Some((args, close)) = tokens::args(self.t, j) else {
                    break;
                };
                match args.first().and_then(|a| self.lit(a)) {
                    Some(m) => name = module(&m),
                    None => {
                        self.out.cap(
                            CapKind::Eval,
                            &format!("{last}(non-literal)"),
                            self.span(i, close),
                        );
                        break;
                    }
                }
                j = close + 1;
            } else if let (true, Some(seg)) =
                (self.is(j, ".") || self.is(j, "?."), self.ident(j + 1))
            {
                name.push('.');
                name.push_str(seg);
                j += 2;
            } else if let (true, Some(seg), true) = (
                self.is(j, "["),
                self.t.get(j + 1).and_then(|t| t.lit()),
                self.is(j + 2, "]"),
            ) {
                name.push('.');
                name.push_str(seg);
                j += 3;
            } else {
                break;
            }
        }
        for global in ["globalThis.", "global.", "window.", "self."] {
            if let Some(rest) = name.strip_prefix(global) {
                name = rest.to_string();
            }
        }
        (name, j)
    }

    /// Records what declarations, assignments and `import` statements bind at `i`.
    fn bind(&mut self, i: usize) {
        let Some(word) = self.ident(i) else { return };
        if word == "import" && !self.is(i + 1, "(") && !self.is(i + 1, ".") {
            return self.import(i);
        }
        let declares = matches!(word, "const" | "let" | "var");
        if declares && self.is(i + 1, "{") {
            let Some(close) = tokens::matching(self.t, i + 1) else {
                return;
            };
            if !self.is(close + 1, "=") || self.ident(close + 2).is_none() {
                return;
            }
            let (base, k) = self.chain(close + 2);
            if self.is(k, "(") {
                return;
            }
            for item in tokens::split(self.t, i + 2..close) {
                let key = self.ident(item.start).unwrap_or("").to_string();
                let local = if self.is(item.start + 1, ":") {
                    self.ident(item.start + 2)
                } else {
                    Some(key.as_str())
                };
                if let Some(local) = local {
                    self.alias
                        .insert(local.to_string(), format!("{base}.{key}"));
                }
            }
        } else if !declares
            && self.is(i + 1, "=")
            && !self.is(i.wrapping_sub(1), ".")
            && self.ident(i + 2).is_some()
        {
            let (target, k) = self.chain(i + 2);
            if !self.is(k, "(")
                && !self.t.get(k).is_some_and(|t| t.kind == Kind::Str)
                && target != word
            {
                self.alias.insert(word.to_string(), target);
            }
        }
    }

    /// `import d, * as ns, { a as b } from 'm'` and `import 'm'`.
    fn import(&mut self, i: usize) {
        let mut j = i + 1;
        let mut names: Vec<(String, Option<String>)> = Vec::new();
        while let Some(t) = self.t.get(j) {
            if t.kind == Kind::Str {
                break;
            }
            if t.ident("from") {
                j += 1;
                break;
            }
            if t.punct("*") && self.ident(j + 1) == Some("as") {
                names.push((self.ident(j + 2).unwrap_or("").to_string(), None));
                j += 3;
            } else if t.punct("{") {
                let close = tokens::matching(self.t, j).unwrap_or(j);
                for item in tokens::split(self.t, j + 1..close) {
                    let key = self.ident(item.start).unwrap_or("").to_string();
                    let local = if self.ident(item.start + 1) == Some("as") {
                        self.ident(item.start + 2)
                    } else {
                        Some(key.as_str())
                    };
                    names.push((local.unwrap_or("").to_string(), Some(key)));
                }
                j = close + 1;
            } else if let Some(w) = self.ident(j).filter(|w| *w != "type") {
                names.push((w.to_string(), None));
                j += 1;
            } else {
                j += 1;
            }
        }
        let Some(spec) = self.t.get(j).and_then(|t| t.lit()) else {
            return;
        };
        let m = module(spec);
        if let Some(kind) = classify(&m) {
            self.out.cap(kind, &m, self.span(i, j));
        }
        for (local, key) in names {
            let full = key.map_or_else(|| m.clone(), |k| format!("{m}.{k}"));
            self.alias.insert(local, full);
        }
    }

    fn visit(&mut self, i: usize) -> usize {
        let Some(word) = self.ident(i) else {
            return i + 1;
        };
        let prev = i.checked_sub(1);
        let member = prev.is_some_and(|p| self.is(p, ".") || self.is(p, "?."));
        let key = self.is(i + 1, ":") && prev.is_some_and(|p| self.is(p, "{") || self.is(p, ","));
        let declared = prev
            .and_then(|p| self.ident(p))
            .is_some_and(|w| matches!(w, "function" | "class"));
        if member || key || declared || word == "import" && !self.is(i + 1, "(") {
            return i + 1;
        }
        let (name, j) = self.chain(i);
        let called = self.is(j, "(");
        let newed = prev.and_then(|p| self.ident(p)) == Some("new");
        let end = if called {
            tokens::matching(self.t, j).unwrap_or(j)
        } else {
            j.saturating_sub(1)
        };
        let span = self.span(i, end);
        let kind = classify(&name).filter(|_| name != "Function" || called || newed);
        if let Some(kind) = kind {
            self.out.cap(kind, &name, span);
        }
        let template = self.t.get(j).filter(|t| t.kind == Kind::Str);
        let bun_shell = matches!(name.as_str(), "bun.$" | "Bun.$");
        if let (true, Some((t, code))) = (bun_shell, template.and_then(|t| Some((t, t.lit()?)))) {
            self.out.code(code.to_string(), (t.start, t.end));
        }
        if called {
            self.call(&name, j, span);
        }
        j.max(i + 1)
    }

    fn call(&mut self, name: &str, open: usize, span: (usize, usize)) {
        let Some((args, close)) = tokens::args(self.t, open) else {
            return;
        };
        let t = self.t;
        let first = args.first().and_then(|a| self.lit(a));
        let list = |n: usize| args.get(n).and_then(|a| tokens::lit_list(t, a, JOIN));
        let object_key = |n: usize, key: &str| {
            let a = args.get(n)?;
            let inner = tokens::split(t, a.start + 1..a.end.saturating_sub(1));
            t.get(a.start).filter(|o| o.punct("{"))?;
            tokens::kwarg(t, &inner, key)
        };
        let whole = tokens::span(t, &(open + 1..close));
        let recursive = tokens::opt_true(t, &(open..close), "recursive");
        let short = name.rsplit('.').next().unwrap_or(name);
        match name {
            "child_process.exec"
            | "child_process.execSync"
            | "shelljs.exec"
            | "execa.execaCommand"
            | "execa.execaCommandSync" => {
                if let (Some(code), Some(a)) = (first, args.first()) {
                    self.out.code(code, tokens::span(t, a));
                }
            }
            "child_process.spawn"
            | "child_process.spawnSync"
            | "child_process.execFile"
            | "child_process.execFileSync"
            | "execa"
            | "execa.execa"
            | "execa.execaSync"
            | "cross-spawn"
            | "cross-spawn.sync" => {
                let Some(file) = first else { return };
                let rest = list(1).unwrap_or_default();
                if tokens::opt_true(t, &(open..close), "shell") {
                    let joined = std::iter::once(file)
                        .chain(rest)
                        .collect::<Vec<_>>()
                        .join(" ");
                    self.out.code(joined, whole);
                } else {
                    self.out
                        .argv(std::iter::once(file).chain(rest).collect(), whole);
                }
            }
            "Deno.run" => {
                if let Some(argv) = object_key(0, "cmd").and_then(|r| tokens::lit_list(t, &r, JOIN))
                {
                    self.out.argv(argv, whole);
                }
            }
            "Deno.Command" => {
                let Some(file) = first else { return };
                let rest = object_key(1, "args").and_then(|r| tokens::lit_list(t, &r, JOIN));
                self.out.argv(
                    std::iter::once(file)
                        .chain(rest.unwrap_or_default())
                        .collect(),
                    whole,
                );
            }
            "Bun.spawn" | "Bun.spawnSync" | "bun.spawn" | "bun.spawnSync" => {
                let argv = list(0)
                    .or_else(|| object_key(0, "cmd").and_then(|r| tokens::lit_list(t, &r, JOIN)));
                if let Some(argv) = argv {
                    self.out.argv(argv, whole);
                }
            }
            "shelljs.rm" => {
                let items = tokens::lit_items(t, &args, JOIN).unwrap_or_default();
                let (flags, paths): (Vec<_>, Vec<_>) =
                    items.into_iter().partition(|s| s.starts_with('-'));
                let rec = flags.iter().any(|f| f.contains(['r', 'R']));
                for p in paths {
                    self.out.delete(p, rec, name, span);
                }
            }
            "fs.open" | "fs.openSync" | "fs.promises.open" => {
                let writes = match args.get(1) {
                    None => false,
                    Some(a) => self.lit(a).is_none_or(|f| f.contains(['w', 'a', '+'])),
                };
                if writes {
                    self.out.cap(CapKind::Write, name, span);
                }
            }
            "Deno.open" | "Deno.openSync"
                if ["write", "append", "create", "truncate"]
                    .iter()
                    .any(|k| tokens::opt_true(t, &(open..close), k)) =>
            {
                self.out.cap(CapKind::Write, name, span);
            }
            "setTimeout" | "setInterval" | "setImmediate"
                if args
                    .first()
                    .and_then(|a| t.get(a.start))
                    .is_some_and(|s| s.kind == Kind::Str) =>
            {
                self.out
                    .cap(CapKind::Eval, &format!("{name}(string)"), span);
            }
            _ if classify(name) == Some(CapKind::Delete) && !name.starts_with("shelljs") => {
                let always = matches!(short, "remove" | "removeSync" | "emptyDir" | "emptyDirSync")
                    || name.starts_with("rimraf")
                    || name.starts_with("del");
                let paths = first
                    .map(|p| vec![p])
                    .or_else(|| list(0))
                    .unwrap_or_default();
                for p in paths {
                    self.out.delete(p, always || recursive, name, span);
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
        testing::kinds(Lang::Node, code)
    }

    #[test]
    fn reading_and_printing_has_no_capability() {
        testing::assert_inert(
            Lang::Node,
            &[
                "console.log(JSON.parse(require('fs').readFileSync(0)))",
                "require('fs').readFileSync('x','utf8')",
                "const s = 'child_process.execSync(\"rm\")'; // require('child_process')\nconsole.log(s)",
                "/* eval(x) */ console.log(`a ${1 + 2} b`)",
                "const r = /exec\\(/g; console.log('x'.match(r), 4 / 2 / 1)",
                "const o = {exec: 1, spawn: 2}; console.log(o.exec)",
                "import fs from 'node:fs'; console.log(fs.readFileSync('a', 'utf8'))",
            ],
        );
    }

    #[test]
    fn finds_rmsync_recursive_literal_path() {
        let s = scan_lang(
            Lang::Node,
            "require('fs').rmSync('/', {recursive: true, force: true})",
        );
        assert_eq!(s.capabilities[0].what, "fs.rmSync");
        assert_eq!(
            (s.deletes[0].path.as_str(), s.deletes[0].recursive),
            ("/", true)
        );
        let s = scan_lang(
            Lang::Node,
            "const fs = require('node:fs/promises'); await fs.unlink(`/etc/passwd`)",
        );
        assert_eq!(
            (s.deletes[0].path.as_str(), s.deletes[0].recursive),
            ("/etc/passwd", false)
        );
    }

    #[test]
    fn follows_require_destructuring_and_import_aliases() {
        let s = scan_lang(
            Lang::Node,
            "const { execSync: run } = require('child_process'); run('rm -rf ' + '/')",
        );
        assert!(matches!(&s.shell_outs[..], [ShellOut::Code { code, .. }] if code == "rm -rf /"));
        let s = scan_lang(
            Lang::Node,
            "import { spawnSync as sp } from 'node:child_process';\nsp('rm', ['-rf', '/'])",
        );
        assert!(
            matches!(&s.shell_outs[..], [ShellOut::Argv { argv, .. }] if argv == &["rm", "-rf", "/"])
        );
        assert!(
            kinds("import * as cp from 'child_process'")
                .contains(&(CapKind::Process, "child_process".into()))
        );
        let s = scan_lang(
            Lang::Node,
            "const cp = require('child_'+'process'); const e = cp.exec; e('id')",
        );
        assert_eq!(s.shell_outs.len(), 1);
    }

    #[test]
    fn spawn_with_shell_option_is_code() {
        let s = scan_lang(
            Lang::Node,
            "require('child_process').spawn('ls', ['-l'], {shell: true})",
        );
        assert!(matches!(&s.shell_outs[..], [ShellOut::Code { code, .. }] if code == "ls -l"));
    }

    #[test]
    fn finds_network_eval_and_writes() {
        assert_eq!(
            kinds("fetch('https://x')"),
            vec![(CapKind::Network, "fetch".into())]
        );
        assert_eq!(kinds("require('https').get('u')")[0].0, CapKind::Network);
        assert_eq!(kinds("eval(atob(s))"), vec![(CapKind::Eval, "eval".into())]);
        assert_eq!(
            kinds("new Function('return 1')()"),
            vec![(CapKind::Eval, "Function".into())]
        );
        assert_eq!(
            kinds("require(name)"),
            vec![(CapKind::Eval, "require(non-literal)".into())]
        );
        assert_eq!(
            kinds("require('vm').runInNewContext(c)")[0].0,
            CapKind::Eval
        );
        assert_eq!(
            kinds("require('fs').writeFileSync('a', 'b')")[0].0,
            CapKind::Write
        );
        assert_eq!(
            kinds("require('fs').openSync('a', 'w')")[0].0,
            CapKind::Write
        );
        assert_eq!(kinds("require('fs').openSync('a', 'r')"), vec![]);
        assert_eq!(
            kinds("process.binding('spawn_sync')")[0].0,
            CapKind::Process
        );
        assert_eq!(kinds("globalThis['eval']('1')")[0].0, CapKind::Eval);
    }

    #[test]
    fn finds_deno_and_bun_apis() {
        let s = scan_lang(
            Lang::Node,
            "new Deno.Command('rm', {args: ['-rf', '/']}).outputSync()",
        );
        assert!(
            matches!(&s.shell_outs[..], [ShellOut::Argv { argv, .. }] if argv == &["rm", "-rf", "/"])
        );
        let s = scan_lang(
            Lang::Node,
            "await Deno.remove('/home/u', {recursive: true})",
        );
        assert!(s.deletes[0].recursive);
        assert_eq!(
            kinds("await Deno.writeTextFile('a', 'b')")[0].0,
            CapKind::Write
        );
        let s = scan_lang(Lang::Node, "import { $ } from 'bun'; await $`rm -rf /`");
        assert!(matches!(&s.shell_outs[..], [ShellOut::Code { code, .. }] if code == "rm -rf /"));
        assert_eq!(kinds("Bun.spawn(['ls'])")[0].0, CapKind::Process);
        assert_eq!(kinds("await Bun.write('a', 'b')")[0].0, CapKind::Write);
    }

    #[test]
    fn finds_calls_inside_template_interpolation() {
        assert!(
            kinds("console.log(`${require('child_process').execSync('id')}`)")
                .iter()
                .any(|k| k.0 == CapKind::Process)
        );
    }

    #[test]
    fn unreadable_when_unterminated() {
        testing::assert_unreadable(
            Lang::Node,
            &[
                "console.log('abc",
                "x = `abc ${",
                "/* never closed",
                "f(1]",
                "let r = /abc",
            ],
        );
    }
}
