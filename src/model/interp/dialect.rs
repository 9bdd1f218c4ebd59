//! Table-driven scanner for the interpreters without a hand-written one (Lua, R, Julia,
//! Scheme, Lisp, Haskell, OCaml, JVM scripting, AppleScript, bpftrace, and a generic row for
//! languages not modelled at all), plus the word-based command languages (Tcl/expect,
//! PowerShell, gdb, dc).
//!
//! A [`Dialect`] lists the language's comment and string syntax and, per capability, the
//! calls that provide it. Calls whose single argument is a literal string run through a
//! shell (`os.execute("..")`, `system("..")`, `do shell script ".."`) have that string
//! lowered as shell code; literal argv calls and literal delete/write targets are recorded
//! the same way, so the shell rules judge them.

use super::{CapKind, Lang, Out};

/// How a dialect's code is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Identifiers, strings and punctuation; capabilities are calls by name.
    Tokens,
    /// Tcl/expect: commands of words; `exec`, `spawn`, `open "|.."`, `file delete`.
    Tcl,
    /// PowerShell: pipelines of cmdlets and native programs.
    PowerShell,
    /// gdb commands, one a line: `shell ..`, `!..`, `pipe .. | ..`, `python ..`.
    Gdb,
    /// dc: `!` runs the rest of the line through a shell.
    Dc,
}

/// A language's syntax and its capability calls. Names match an identifier exactly or as
/// its last qualified segment (`execute` matches `os.execute` only when listed as
/// `os.execute`; a bare name like `system` also matches `Base.system`).
pub(crate) struct Dialect {
    pub mode: Mode,
    pub line_comments: &'static [&'static str],
    pub block_comments: &'static [(&'static str, &'static str)],
    /// String delimiters with backslash escapes.
    pub quotes: &'static [char],
    /// String delimiters without escapes.
    pub raw_quotes: &'static [char],
    /// Text inside a string that interpolates code (`$x` in Julia): such a string is not
    /// literal.
    pub interp: &'static [&'static str],
    /// Lua long brackets `[[..]]`, `[==[..]==]`.
    pub long_brackets: bool,
    /// A quote that makes a command (argv) literal: Julia's backticks.
    pub cmd_quote: Option<char>,
    /// Characters allowed inside identifiers besides letters, digits and `_`.
    pub ident_chars: &'static str,
    pub case_insensitive: bool,
    /// Tokens that may stand between a function and its argument (`callCommand $ "ls"`).
    pub apply: &'static [&'static str],
    /// Calls whose literal string argument is run by a shell.
    pub shell: &'static [&'static str],
    /// Calls whose literal arguments are a program and its arguments (no shell).
    pub argv: &'static [&'static str],
    /// Calls whose single literal string is split on whitespace and exec'd
    /// (`Runtime.exec("..")`, Groovy `"..".execute()`).
    pub split: &'static [&'static str],
    pub process: &'static [&'static str],
    /// Delete calls and whether they are recursive by themselves.
    pub delete: &'static [(&'static str, bool)],
    /// Write calls and the position of their target path argument.
    pub write: &'static [(&'static str, usize)],
    /// Open calls and the position of their mode argument: a write when the mode writes.
    pub open: &'static [(&'static str, usize)],
    pub network: &'static [&'static str],
    pub eval: &'static [&'static str],
}

const NONE: Dialect = Dialect {
    mode: Mode::Tokens,
    line_comments: &[],
    block_comments: &[],
    quotes: &['"'],
    raw_quotes: &[],
    interp: &[],
    long_brackets: false,
    cmd_quote: None,
    ident_chars: ".",
    case_insensitive: false,
    apply: &[],
    shell: &[],
    argv: &[],
    split: &[],
    process: &[],
    delete: &[],
    write: &[],
    open: &[],
    network: &[],
    eval: &[],
};

static LUA: Dialect = Dialect {
    line_comments: &["--"],
    block_comments: &[("--[[", "]]"), ("--[==[", "]==]"), ("--[=[", "]=]")],
    quotes: &['"', '\''],
    long_brackets: true,
    ident_chars: ".:",
    shell: &["os.execute", "io.popen"],
    process: &["posix.fork", "posix.exec", "posix.spawn"],
    delete: &[("os.remove", false)],
    write: &[("os.rename", 1), ("io.output", 0)],
    open: &[("io.open", 1)],
    network: &["socket", "http.request", "socket.http", "require\"socket\""],
    eval: &["load", "loadstring", "loadfile"],
    ..NONE
};

static R: Dialect = Dialect {
    line_comments: &["#"],
    quotes: &['"', '\''],
    ident_chars: ".:",
    shell: &["system", "shell", "pipe"],
    process: &[
        "system2",
        "processx::run",
        "processx::process",
        "sys::exec_wait",
        "callr::r",
    ],
    delete: &[
        ("unlink", false),
        ("file.remove", false),
        ("fs::dir_delete", true),
        ("fs::file_delete", false),
    ],
    write: &[
        ("writeLines", 1),
        ("write.csv", 1),
        ("write.table", 1),
        ("write", 1),
        ("saveRDS", 1),
        ("sink", 0),
        ("cat", usize::MAX),
        ("file.copy", 1),
        ("file.rename", 1),
        ("readr::write_csv", 1),
        ("write_csv", 1),
    ],
    open: &[("file", 1)],
    network: &[
        "download.file",
        "url",
        "httr::GET",
        "httr::POST",
        "curl::curl",
        "socketConnection",
        "RCurl::getURL",
    ],
    eval: &["eval", "parse", "evalq", "source"],
    ..NONE
};

static JULIA: Dialect = Dialect {
    line_comments: &["#"],
    block_comments: &[("#=", "=#")],
    quotes: &['"'],
    interp: &["$"],
    cmd_quote: Some('`'),
    ident_chars: ".!",
    process: &["run", "Base.run", "pipeline", "spawn", "success"],
    delete: &[("rm", false), ("Base.rm", false)],
    write: &[
        ("write", 0),
        ("cp", 1),
        ("mv", 1),
        ("touch", 0),
        ("mkpath", 0),
    ],
    open: &[("open", 1)],
    network: &[
        "download",
        "Downloads.download",
        "Sockets.connect",
        "connect",
        "HTTP.get",
        "HTTP.request",
    ],
    eval: &["eval", "include_string", "Meta.parse", "ccall", "include"],
    ..NONE
};

static SCHEME: Dialect = Dialect {
    line_comments: &[";"],
    block_comments: &[("#|", "|#")],
    ident_chars: ".:-!?*/<>=+",
    shell: &[
        "system",
        "open-pipe",
        "open-input-pipe",
        "open-output-pipe",
        "process",
        "process*",
        "shell-command",
    ],
    argv: &["system*", "execl", "execlp", "process*/ports"],
    process: &["primitive-fork", "subprocess", "run-process"],
    delete: &[
        ("delete-file", false),
        ("delete-directory", false),
        ("delete-directory/files", true),
        ("rmdir", false),
    ],
    write: &[
        ("open-output-file", 0),
        ("call-with-output-file", 0),
        ("with-output-to-file", 0),
        ("copy-file", 1),
        ("rename-file", 1),
        ("copy-directory/files", 1),
    ],
    network: &[
        "socket",
        "connect",
        "tcp-connect",
        "http-get",
        "get-pure-port",
        "open-socket",
    ],
    eval: &["eval", "primitive-eval", "eval-string"],
    ..NONE
};

static LISP: Dialect = Dialect {
    line_comments: &[";"],
    block_comments: &[("#|", "|#")],
    ident_chars: ".:-!?*/<>=+%",
    case_insensitive: true,
    shell: &[
        "ext:shell",
        "ext:run-shell-command",
        "uiop:run-program",
        "uiop:launch-program",
        "shell",
        "run-shell-command",
        "asdf:run-shell-command",
        "inferior-shell:run",
    ],
    process: &[
        "ext:run-program",
        "sb-ext:run-program",
        "run-program",
        "ccl:run-program",
        "sb-posix:fork",
        "external-program:run",
    ],
    delete: &[
        ("delete-file", false),
        ("uiop:delete-directory-tree", true),
        ("sb-ext:delete-directory", false),
        ("uiop:delete-file-if-exists", false),
        ("cl-fad:delete-directory-and-files", true),
    ],
    write: &[("rename-file", 1), ("uiop:copy-file", 1)],
    network: &[
        "usocket:socket-connect",
        "socket-connect",
        "sb-bsd-sockets:socket-connect",
        "drakma:http-request",
        "dexador:get",
        "dex:get",
    ],
    eval: &["eval", "compile", "read-from-string", "coerce"],
    ..NONE
};

static HASKELL: Dialect = Dialect {
    line_comments: &["--"],
    block_comments: &[("{-", "-}")],
    ident_chars: ".'",
    apply: &["$"],
    shell: &[
        "callCommand",
        "System.Process.callCommand",
        "system",
        "System.Cmd.system",
        "spawnCommand",
        "shell",
        "runCommand",
        "readCreateProcess",
    ],
    argv: &[
        "callProcess",
        "rawSystem",
        "readProcess",
        "spawnProcess",
        "proc",
        "readProcessWithExitCode",
        "executeFile",
    ],
    process: &["createProcess", "forkProcess"],
    delete: &[
        ("removeFile", false),
        ("removeDirectory", false),
        ("removeDirectoryRecursive", true),
        ("removePathForcibly", true),
    ],
    write: &[
        ("writeFile", 0),
        ("appendFile", 0),
        ("copyFile", 1),
        ("renameFile", 1),
        ("BS.writeFile", 0),
        ("T.writeFile", 0),
    ],
    network: &[
        "connectTo",
        "Network.Socket",
        "socket",
        "simpleHTTP",
        "httpLBS",
        "connect",
    ],
    eval: &["unsafePerformIO", "interpret", "runInterpreter"],
    ..NONE
};

static OCAML: Dialect = Dialect {
    block_comments: &[("(*", "*)")],
    ident_chars: ".'",
    shell: &[
        "Sys.command",
        "Unix.system",
        "Unix.open_process_in",
        "Unix.open_process_out",
        "Unix.open_process",
        "Unix.open_process_full",
    ],
    argv: &[
        "Unix.execvp",
        "Unix.execv",
        "Unix.create_process",
        "Unix.open_process_args_in",
    ],
    process: &["Unix.fork", "Unix.execve"],
    delete: &[
        ("Sys.remove", false),
        ("Unix.unlink", false),
        ("Sys.rmdir", false),
        ("Unix.rmdir", false),
    ],
    write: &[
        ("open_out", 0),
        ("open_out_bin", 0),
        ("open_out_gen", 2),
        ("Out_channel.with_open_text", 0),
        ("Sys.rename", 1),
        ("Unix.rename", 1),
    ],
    network: &[
        "Unix.socket",
        "Unix.open_connection",
        "Unix.connect",
        "Cohttp_lwt_unix.Client.get",
    ],
    eval: &["Toploop.execute_phrase", "Dynlink.loadfile", "Obj.magic"],
    ..NONE
};

static JVM_SCRIPT: Dialect = Dialect {
    line_comments: &["//"],
    block_comments: &[("/*", "*/")],
    quotes: &['"', '\''],
    interp: &["${"],
    ident_chars: ".$",
    shell: &["$EXEC"],
    split: &[
        "exec",
        ".exec",
        "Runtime.getRuntime.exec",
        "execute",
        ".execute",
    ],
    argv: &["ProcessBuilder", "java.lang.ProcessBuilder"],
    process: &[
        "Runtime",
        "java.lang.Runtime",
        "ProcessBuilder",
        "java.lang.ProcessBuilder",
        "Process",
    ],
    delete: &[
        ("java.nio.file.Files.delete", false),
        ("Files.delete", false),
        ("Files.deleteIfExists", false),
        ("deleteDir", true),
        ("deleteRecursively", true),
    ],
    write: &[
        ("java.io.FileWriter", 0),
        ("FileWriter", 0),
        ("java.io.FileOutputStream", 0),
        ("FileOutputStream", 0),
        ("Files.write", 0),
        ("Files.writeString", 0),
        ("PrintWriter", 0),
        ("Files.copy", 1),
        ("Files.move", 1),
    ],
    network: &[
        "java.net.Socket",
        "Socket",
        "java.net.URL",
        "URL",
        "HttpClient",
        "java.net.http.HttpClient",
        "ServerSocket",
        "toURL",
    ],
    eval: &[
        "eval",
        "ScriptEngineManager",
        "load",
        "Class.forName",
        "evaluate",
        "GroovyShell",
    ],
    ..NONE
};

static APPLESCRIPT: Dialect = Dialect {
    line_comments: &["--", "#", "//"],
    block_comments: &[("(*", "*)"), ("/*", "*/")],
    quotes: &['"', '\''],
    ident_chars: ".",
    case_insensitive: true,
    shell: &[
        "do shell script",
        "doShellScript",
        "app.doShellScript",
        "do script",
        "doScript",
    ],
    process: &["ObjC.import", "$.NSTask", "NSTask"],
    delete: &[
        ("delete", false),
        ("move to trash", false),
        ("empty trash", true),
    ],
    network: &["open location", "NSURLSession", "curl"],
    eval: &["run script", "load script", "eval"],
    ..NONE
};

static BPFTRACE: Dialect = Dialect {
    line_comments: &["//"],
    block_comments: &[("/*", "*/")],
    ident_chars: "",
    shell: &["system"],
    process: &["signal", "override"],
    ..NONE
};

static GENERIC: Dialect = Dialect {
    // No comment syntax is assumed: a commented-out call still counts, which errs safe.
    quotes: &['"', '\''],
    interp: &["#{", "${"],
    ident_chars: ".:!?-/",
    shell: &[
        "system",
        "shell",
        "execute",
        "exec",
        "popen",
        "shell_exec",
        "run-shell-command",
        "os.cmd",
        ":os.cmd",
        "sh",
        "shell-command",
    ],
    argv: &[
        "System.cmd",
        "spawn",
        "run-program",
        "sh/sh",
        "clojure.java.shell/sh",
        "babashka.process/shell",
        "proc",
    ],
    process: &[
        "fork",
        "Port.open",
        "open_port",
        "os:cmd",
        "Process.run",
        "ProcessBuilder",
    ],
    delete: &[
        ("rm", false),
        ("rm_rf", true),
        ("rm_rf!", true),
        ("rm!", false),
        ("rmtree", true),
        ("remove", false),
        ("unlink", false),
        ("delete", false),
        ("rmdir", false),
        ("delete-file", false),
        ("delete_file", false),
        ("remove_dir_all", true),
        ("del_dir", false),
        ("delete-tree", true),
    ],
    write: &[
        ("write", 0),
        ("write!", 0),
        ("write_file", 0),
        ("spit", 0),
        ("File.write", 0),
        ("File.write!", 0),
        ("copy", 1),
        ("rename", 1),
    ],
    network: &[
        "socket",
        "connect",
        "http",
        "request",
        "urlopen",
        "httpc:request",
        ":httpc.request",
        "gen_tcp:connect",
        ":gen_tcp.connect",
        "HTTPoison.get",
        "slurp",
    ],
    eval: &[
        "eval",
        "load_string",
        "loadstring",
        "compile",
        "Code.eval_string",
        "load-string",
        "read-string",
    ],
    ..NONE
};

static TCL: Dialect = Dialect {
    mode: Mode::Tcl,
    line_comments: &["#"],
    ..NONE
};

static POWERSHELL: Dialect = Dialect {
    mode: Mode::PowerShell,
    line_comments: &["#"],
    block_comments: &[("<#", "#>")],
    case_insensitive: true,
    ..NONE
};

static GDB: Dialect = Dialect {
    mode: Mode::Gdb,
    ..NONE
};

static DC: Dialect = Dialect {
    mode: Mode::Dc,
    ..NONE
};

/// The dialect that reads `lang`, when it is one of the table-driven languages.
pub(crate) fn dialect(lang: Lang) -> Option<&'static Dialect> {
    Some(match lang {
        Lang::Lua => &LUA,
        Lang::R => &R,
        Lang::Julia => &JULIA,
        Lang::Scheme => &SCHEME,
        Lang::Lisp => &LISP,
        Lang::Haskell => &HASKELL,
        Lang::Ocaml => &OCAML,
        Lang::JvmScript => &JVM_SCRIPT,
        Lang::AppleScript => &APPLESCRIPT,
        Lang::Bpftrace => &BPFTRACE,
        Lang::Generic => &GENERIC,
        Lang::Tcl => &TCL,
        Lang::PowerShell => &POWERSHELL,
        Lang::Gdb => &GDB,
        Lang::Dc => &DC,
        Lang::Python | Lang::Node | Lang::Perl | Lang::Ruby | Lang::Php => return None,
    })
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum T {
    Ident(String),
    /// A string: its value, and whether it is fully literal (no interpolation).
    Str(String, bool),
    /// A command literal (Julia backticks): its text.
    Cmd(String),
    Punct(String),
    Nl,
}

#[derive(Debug, Clone)]
struct Tok {
    t: T,
    start: usize,
    end: usize,
}

/// Scans `code` with the dialect of `lang`.
pub(crate) fn scan(lang: Lang, code: &str, out: &mut Out) {
    let Some(d) = dialect(lang) else { return };
    match d.mode {
        Mode::Tokens => match lex(d, code) {
            Ok(toks) => Calls { d, t: &toks, out }.run(),
            Err(e) => out.fail(&e),
        },
        Mode::Tcl => tcl(code, 0, out, 0),
        Mode::PowerShell => powershell(code, out),
        Mode::Gdb => gdb(code, out),
        Mode::Dc => dc(code, out),
    }
}

fn lex(d: &Dialect, code: &str) -> Result<Vec<Tok>, String> {
    let mut toks = Vec::new();
    let mut i = 0;
    let b = code;
    'outer: while i < b.len() {
        let rest = &b[i..];
        let Some(c) = rest.chars().next() else { break };
        if c == '\n' || c == ';' && !d.line_comments.contains(&";") {
            toks.push(Tok {
                t: T::Nl,
                start: i,
                end: i + 1,
            });
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        for (open, close) in d.block_comments {
            if let Some(body) = rest.strip_prefix(open) {
                match body.find(close) {
                    Some(p) => {
                        i += open.len() + p + close.len();
                        continue 'outer;
                    }
                    None => return Err("unterminated comment".into()),
                }
            }
        }
        if d.line_comments.iter().any(|m| rest.starts_with(m)) {
            i += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if d.long_brackets && rest.starts_with('[') {
            let eq = rest[1..].chars().take_while(|&c| c == '=').count();
            if rest[1 + eq..].starts_with('[') {
                let close = format!("]{}]", "=".repeat(eq));
                let body_start = 2 + eq;
                match rest[body_start..].find(&close) {
                    Some(p) => {
                        let body = rest[body_start..body_start + p].to_string();
                        let end = i + body_start + p + close.len();
                        toks.push(Tok {
                            t: T::Str(body, true),
                            start: i,
                            end,
                        });
                        i = end;
                        continue;
                    }
                    None => return Err("unterminated long string".into()),
                }
            }
        }
        let is_quote = d.quotes.contains(&c);
        let is_raw = d.raw_quotes.contains(&c);
        if is_quote || is_raw || d.cmd_quote == Some(c) {
            // Triple quotes (Julia, Groovy) close with the same three.
            let triple: String = std::iter::repeat_n(c, 3).collect();
            let delim = if rest.starts_with(&triple) {
                triple
            } else {
                c.to_string()
            };
            let mut j = i + delim.len();
            let mut val = String::new();
            let mut closed = false;
            while j < b.len() {
                let r = &b[j..];
                if r.starts_with(&delim) {
                    closed = true;
                    break;
                }
                let Some(ch) = r.chars().next() else { break };
                if ch == '\\' && !is_raw {
                    let Some(n) = r[1..].chars().next() else {
                        break;
                    };
                    val.push(match n {
                        'n' => '\n',
                        't' => '\t',
                        o => o,
                    });
                    j += 1 + n.len_utf8();
                    continue;
                }
                val.push(ch);
                j += ch.len_utf8();
            }
            if !closed {
                return Err("unterminated string".into());
            }
            let end = j + delim.len();
            let raw_body = &b[i + delim.len()..j];
            let literal = is_raw || !d.interp.iter().any(|m| raw_body.contains(m));
            let t = if d.cmd_quote == Some(c) {
                if literal {
                    T::Cmd(val)
                } else {
                    T::Cmd(String::new())
                }
            } else {
                T::Str(val, literal)
            };
            toks.push(Tok { t, start: i, end });
            i = end;
            continue;
        }
        let next_alpha = rest[c.len_utf8()..]
            .chars()
            .next()
            .is_some_and(|n| n.is_alphabetic());
        let starts_ident = c.is_alphanumeric()
            || c == '_'
            || (d.ident_chars.contains(c) && (!matches!(c, '.' | ':') || next_alpha));
        if starts_ident {
            let mut j = i;
            for ch in rest.chars() {
                if ch.is_alphanumeric() || ch == '_' || d.ident_chars.contains(ch) {
                    j += ch.len_utf8();
                } else {
                    break;
                }
            }
            if j == i {
                j = i + c.len_utf8();
            }
            toks.push(Tok {
                t: T::Ident(b[i..j].to_string()),
                start: i,
                end: j,
            });
            i = j;
            continue;
        }
        let n = c.len_utf8();
        toks.push(Tok {
            t: T::Punct(c.to_string()),
            start: i,
            end: i + n,
        });
        i += n;
    }
    Ok(toks)
}

/// An argument of a call: a literal string, or anything else.
#[derive(Debug, Clone)]
enum Arg {
    Lit(String),
    Other,
}

struct Calls<'a, 'o> {
    d: &'a Dialect,
    t: &'a [Tok],
    out: &'o mut Out,
}

fn norm(d: &Dialect, s: &str) -> String {
    let s = s.trim_start_matches(['.', ':']);
    if d.case_insensitive {
        s.to_ascii_lowercase()
    } else {
        s.to_string()
    }
}

/// Does identifier `ident` name `name` (exactly, or as its last qualified segment when the
/// name is unqualified)?
fn names(ident: &str, name: &str) -> bool {
    if ident == name {
        return true;
    }
    ident.len() > name.len()
        && ident.ends_with(name)
        && ident[..ident.len() - name.len()].ends_with(['.', ':', '/'])
        && !name.contains(['.', ':'])
}

impl Calls<'_, '_> {
    fn ident(&self, i: usize) -> Option<String> {
        match self.t.get(i).map(|t| &t.t) {
            Some(T::Ident(s)) => Some(norm(self.d, s)),
            _ => None,
        }
    }

    fn punct(&self, i: usize, p: &str) -> bool {
        matches!(self.t.get(i).map(|t| &t.t), Some(T::Punct(x)) if x == p)
    }

    /// A multi-word name (`do shell script`) or a single identifier at `i`; returns how many
    /// tokens it spans.
    fn name_at(&self, i: usize, name: &str) -> Option<usize> {
        let want: Vec<String> = name.split(' ').map(|w| norm(self.d, w)).collect();
        if want.len() == 1 {
            return self.ident(i).filter(|id| names(id, &want[0])).map(|_| 1);
        }
        for (k, w) in want.iter().enumerate() {
            if self.ident(i + k).as_deref() != Some(w.as_str()) {
                return None;
            }
        }
        Some(want.len())
    }

    fn find<'n>(&self, i: usize, list: &[&'n str]) -> Option<(&'n str, usize)> {
        list.iter()
            .find_map(|n| self.name_at(i, n).map(|k| (*n, k)))
    }

    /// The arguments after a call name ending before token `j`, and the token after them.
    fn args(&self, mut j: usize) -> (Vec<Arg>, usize) {
        while matches!(self.t.get(j).map(|t| &t.t), Some(T::Punct(p)) if self.d.apply.contains(&p.as_str()))
        {
            j += 1;
        }
        let mut args = Vec::new();
        if self.punct(j, "(") {
            let mut depth = 0usize;
            let mut cur: Vec<&Tok> = Vec::new();
            let mut k = j;
            while let Some(t) = self.t.get(k) {
                match &t.t {
                    T::Punct(p) if p == "(" || p == "[" || p == "{" => {
                        depth += 1;
                        if depth > 1 {
                            cur.push(t);
                        }
                    }
                    T::Punct(p) if p == ")" || p == "]" || p == "}" => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            args.push(arg_of(&cur));
                            return (args, k + 1);
                        }
                        cur.push(t);
                    }
                    T::Punct(p) if p == "," && depth == 1 => {
                        args.push(arg_of(&cur));
                        cur.clear();
                    }
                    // `rm("/"; recursive=true)`: keyword arguments after `;`.
                    T::Nl if depth == 1 => {
                        if !cur.is_empty() {
                            args.push(arg_of(&cur));
                            cur.clear();
                        }
                    }
                    _ => cur.push(t),
                }
                k += 1;
            }
            args.push(Arg::Other);
            return (args, k);
        }
        // Paren-less: `os.execute "ls"`, `callCommand "ls"`, `(system "ls")`. A string
        // followed by an operator is an expression, not a literal.
        let mut k = j;
        while let Some(t) = self.t.get(k) {
            match &t.t {
                T::Str(s, lit) => {
                    let joined = matches!(self.t.get(k + 1).map(|t| &t.t), Some(T::Punct(p)) if !matches!(p.as_str(), ")" | "]" | "}" | ","));
                    args.push(if *lit && !joined {
                        Arg::Lit(s.clone())
                    } else {
                        Arg::Other
                    });
                }
                T::Ident(_) | T::Cmd(_) => args.push(Arg::Other),
                _ => break,
            }
            k += 1;
            if args.len() > 64 {
                break;
            }
        }
        (args, k)
    }

    fn run(&mut self) {
        let mut i = 0;
        while i < self.t.len() {
            let tok = &self.t[i];
            let span = (tok.start, tok.end);
            if let T::Cmd(text) = &tok.t {
                self.out.cap(CapKind::Process, "command literal", span);
                if let Ok(argv) = shell_words::split(text)
                    && !text.is_empty()
                {
                    self.out.argv(argv, span);
                }
                i += 1;
                continue;
            }
            // A string with a method: Groovy `"rm -rf x".execute()`.
            if let T::Str(s, lit) = &tok.t
                && self.punct(i + 1, ".")
                && let Some(m) = self.ident(i + 2)
                && self.d.split.iter().any(|n| n.trim_start_matches('.') == m)
            {
                self.out.cap(CapKind::Process, &m, span);
                if *lit {
                    self.out
                        .argv(s.split_whitespace().map(str::to_string).collect(), span);
                }
                i += 3;
                continue;
            }
            if let T::Ident(id) = &tok.t
                && let Some((m, _)) = id.rsplit_once('.')
                && i > 0
                && let T::Str(s, lit) = &self.t[i - 1].t
                && m.is_empty()
                && self
                    .d
                    .split
                    .iter()
                    .any(|n| norm(self.d, n) == norm(self.d, id))
            {
                self.out.cap(CapKind::Process, id, span);
                if *lit {
                    self.out
                        .argv(s.split_whitespace().map(str::to_string).collect(), span);
                }
                i += 1;
                continue;
            }
            if !matches!(tok.t, T::Ident(_)) {
                i += 1;
                continue;
            }
            i += self.call(i);
        }
    }

    /// Judges the identifier at `i`; returns how many tokens to advance.
    fn call(&mut self, i: usize) -> usize {
        let d = self.d;
        let start = self.t[i].start;
        let lit1 = |args: &[Arg]| match args {
            [Arg::Lit(s)] => Some(s.clone()),
            _ => None,
        };
        let span_to =
            |s: &Self, j: usize| (start, s.t.get(j.saturating_sub(1)).map_or(start, |t| t.end));
        if let Some((n, k)) = self.find(i, d.shell) {
            let (args, j) = self.args(i + k);
            let span = span_to(self, j);
            self.out.cap(CapKind::Process, n, span);
            if let Some(code) = lit1(&args).or_else(|| match args.first() {
                // `io.popen("ls", "r")`, `(open-pipe "ls" OPEN_READ)`: the command comes first.
                Some(Arg::Lit(s)) if args.len() > 1 && !d.argv.contains(&n) => Some(s.clone()),
                _ => None,
            }) {
                self.out.code(code, span);
            }
            return k;
        }
        if let Some((n, k)) = self.find(i, d.argv) {
            let (args, j) = self.args(i + k);
            let span = span_to(self, j);
            self.out.cap(CapKind::Process, n, span);
            let lits: Option<Vec<String>> = args
                .iter()
                .map(|a| match a {
                    Arg::Lit(s) => Some(s.clone()),
                    Arg::Other => None,
                })
                .collect();
            if let Some(l) = lits.filter(|l| !l.is_empty()) {
                self.out.argv(l, span);
            }
            return k;
        }
        if let Some((n, k)) = self.find(i, d.split) {
            let (args, j) = self.args(i + k);
            let span = span_to(self, j);
            self.out.cap(CapKind::Process, n, span);
            if let Some(s) = lit1(&args) {
                self.out
                    .argv(s.split_whitespace().map(str::to_string).collect(), span);
            }
            return k;
        }
        if let Some((n, k)) = self.find(i, d.process) {
            let span = span_to(self, i + k);
            self.out.cap(CapKind::Process, n, span);
            return k;
        }
        let delete: Vec<&str> = d.delete.iter().map(|(n, _)| *n).collect();
        if let Some((n, k)) = self.find(i, &delete) {
            let recursive_call = d.delete.iter().any(|(m, r)| *m == n && *r);
            let (args, j) = self.args(i + k);
            let span = span_to(self, j);
            self.out.cap(CapKind::Delete, n, span);
            let recursive = recursive_call || self.recursive_kwarg(i + k, j);
            if let Some(Arg::Lit(p)) = args.first() {
                self.out.delete(p.clone(), recursive, n, span);
            }
            return k;
        }
        let write: Vec<&str> = d.write.iter().map(|(n, _)| *n).collect();
        if let Some((n, k)) = self.find(i, &write) {
            let pos = d.write.iter().find(|(m, _)| *m == n).map_or(0, |w| w.1);
            let (args, j) = self.args(i + k);
            let span = span_to(self, j);
            // A literal target is judged like any other write to it; another is a capability.
            match args.get(pos) {
                Some(Arg::Lit(p)) => self.out.write(p.clone(), n, span),
                _ => self.out.cap(CapKind::Write, n, span),
            }
            return k;
        }
        let open: Vec<&str> = d.open.iter().map(|(n, _)| *n).collect();
        if let Some((n, k)) = self.find(i, &open) {
            let pos = d.open.iter().find(|(m, _)| *m == n).map_or(1, |w| w.1);
            let (args, j) = self.args(i + k);
            let span = span_to(self, j);
            match args.get(pos) {
                None => {}
                Some(Arg::Lit(m)) if !m.contains(['w', 'a', '+', 'x']) => {}
                Some(mode) => {
                    self.out
                        .cap(CapKind::Write, &format!("{n}(.., write)"), span);
                    if let (Some(Arg::Lit(p)), Arg::Lit(_)) = (args.first(), mode) {
                        self.out.write(p.clone(), n, span);
                    }
                }
            }
            return k;
        }
        if let Some((n, k)) = self.find(i, d.network) {
            self.out.cap(CapKind::Network, n, span_to(self, i + k));
            return k;
        }
        if let Some((n, k)) = self.find(i, d.eval) {
            // `load "f"` of a workspace file is like running it; only a call counts.
            let (args, j) = self.args(i + k);
            if !args.is_empty() {
                self.out.cap(CapKind::Eval, n, span_to(self, j));
            }
            return k;
        }
        1
    }

    /// `recursive=TRUE`, `; recursive=true`, `:recursive t` among the call's tokens.
    fn recursive_kwarg(&self, from: usize, to: usize) -> bool {
        (from..to).any(|k| {
            self.ident(k)
                .is_some_and(|id| id.eq_ignore_ascii_case("recursive") || id == ":recursive")
                && self
                    .ident(k + 2)
                    .or_else(|| self.ident(k + 1))
                    .is_some_and(|v| matches!(v.as_str(), "TRUE" | "true" | "T" | "t"))
        })
    }
}

fn arg_of(toks: &[&Tok]) -> Arg {
    match toks {
        [t] => match &t.t {
            T::Str(s, true) => Arg::Lit(s.clone()),
            _ => Arg::Other,
        },
        _ => Arg::Other,
    }
}

// ---------------------------------------------------------------------------------------
// Word-based command languages.

/// One word of a Tcl command: its literal value when it has one.
struct Word {
    lit: Option<String>,
    start: usize,
    end: usize,
}

const MAX_TCL_DEPTH: usize = 16;

/// Index of the bracket `close` matching the `open` at `from`; a backslash escapes the byte
/// after it, as in Tcl.
fn tcl_close(b: &[u8], from: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = from;
    while let Some(&c) = b.get(j) {
        if c == b'\\' {
            j += 1;
        } else if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(j);
            }
        }
        j += 1;
    }
    None
}

/// Tcl: commands separated by newlines and `;`, words by blanks; `{..}` is literal, `".."`
/// and bare words are literal unless they substitute (`$x`, `[cmd]`). Bracketed command
/// substitutions and braced bodies of control commands are read as Tcl too.
fn tcl(code: &str, base: usize, out: &mut Out, depth: usize) {
    if depth > MAX_TCL_DEPTH {
        out.fail("Tcl nested too deeply");
        return;
    }
    let b = code.as_bytes();
    let mut i = 0;
    let mut words: Vec<Word> = Vec::new();
    let mut bodies: Vec<(usize, usize)> = Vec::new();
    let flush = |words: &mut Vec<Word>, out: &mut Out| {
        tcl_command(words, base, out);
        words.clear();
    };
    while i < b.len() {
        let c = b[i];
        if c == b'\n' || c == b';' {
            flush(&mut words, out);
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' {
            i += 1;
            continue;
        }
        if c == b'\\' && b.get(i + 1) == Some(&b'\n') {
            i += 2;
            continue;
        }
        if c == b'#' && words.is_empty() {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        if c == b'{' {
            let Some(j) = tcl_close(b, i, b'{', b'}') else {
                out.fail("unbalanced braces");
                return;
            };
            let body = &code[i + 1..j];
            bodies.push((i + 1, j));
            words.push(Word {
                lit: Some(body.to_string()),
                start,
                end: j + 1,
            });
            i = j + 1;
            continue;
        }
        // A quoted or bare word, with `[..]` substitutions inside.
        let quoted = c == b'"';
        let mut j = if quoted { i + 1 } else { i };
        let mut lit = true;
        let mut val = String::new();
        loop {
            let Some(&ch) = b.get(j) else {
                if quoted {
                    out.fail("unterminated string");
                    return;
                }
                break;
            };
            if quoted && ch == b'"' {
                j += 1;
                break;
            }
            if !quoted && matches!(ch, b' ' | b'\t' | b'\n' | b';' | b'\r') {
                break;
            }
            match ch {
                b'\\' => {
                    if let Some(n) = code.get(j + 1..).and_then(|r| r.chars().next()) {
                        val.push(match n {
                            'n' => '\n',
                            't' => '\t',
                            o => o,
                        });
                        j += 1 + n.len_utf8();
                    } else {
                        j += 1;
                    }
                    continue;
                }
                b'$' => lit = false,
                b'[' => {
                    let Some(k) = tcl_close(b, j, b'[', b']') else {
                        out.fail("unbalanced brackets");
                        return;
                    };
                    tcl(&code[j + 1..k], base + j + 1, out, depth + 1);
                    lit = false;
                    j = k + 1;
                    continue;
                }
                _ => {}
            }
            let Some(chr) = code.get(j..).and_then(|r| r.chars().next()) else {
                break;
            };
            val.push(chr);
            j += chr.len_utf8();
        }
        words.push(Word {
            lit: lit.then_some(val),
            start,
            end: j,
        });
        i = j;
    }
    flush(&mut words, out);
    // Bodies of `if`, `proc`, `foreach`, `catch`, ... are Tcl code too. Reading every braced
    // word as code over-approximates: a braced data string that looks like a command
    // counts.
    for (s, e) in bodies {
        if let Some(body) = code.get(s..e) {
            let mut sub = Out::default();
            tcl(body, base + s, &mut sub, depth + 1);
            out.merge(sub);
        }
    }
}

fn tcl_command(words: &[Word], base: usize, out: &mut Out) {
    let Some(first) = words.first() else { return };
    let span = (
        base + first.start,
        base + words.last().map_or(first.end, |w| w.end),
    );
    let name = first.lit.as_deref().unwrap_or("");
    let lits = |ws: &[Word]| -> Option<Vec<String>> { ws.iter().map(|w| w.lit.clone()).collect() };
    match name {
        "exec" => {
            out.cap(CapKind::Process, "exec", span);
            let mut rest = &words[1..];
            while let Some(w) = rest.first()
                && w.lit.as_deref().is_some_and(|l| l.starts_with('-'))
            {
                let end = w.lit.as_deref() == Some("--");
                rest = &rest[1..];
                if end {
                    break;
                }
            }
            // Tcl's exec reads `|`, `<`, `>` and `&` itself, as a shell would.
            if let Some(argv) = lits(rest).filter(|a| !a.is_empty()) {
                let ops = ["|", "|&", "<", ">", ">>", "2>", "2>>", ">&", "&", "<<"];
                if argv.iter().any(|a| ops.contains(&a.as_str())) {
                    let code = argv
                        .iter()
                        .map(|a| {
                            if ops.contains(&a.as_str()) {
                                a.clone()
                            } else {
                                shell_words::quote(a).into_owned()
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(" ");
                    out.code(code, span);
                } else {
                    out.argv(argv, span);
                }
            }
        }
        "spawn" => {
            out.cap(CapKind::Process, "spawn", span);
            let rest: Vec<&Word> = words[1..]
                .iter()
                .skip_while(|w| w.lit.as_deref().is_some_and(|l| l.starts_with('-')))
                .collect();
            let argv: Option<Vec<String>> = rest.iter().map(|w| w.lit.clone()).collect();
            if let Some(a) = argv.filter(|a| !a.is_empty()) {
                out.argv(a, span);
            }
        }
        "system" => {
            // expect's `system cmd args` joins its words and runs them with /bin/sh.
            out.cap(CapKind::Process, "system", span);
            if let Some(a) = lits(&words[1..]).filter(|a| !a.is_empty()) {
                out.code(a.join(" "), span);
            }
        }
        "open" => match words.get(1).and_then(|w| w.lit.as_deref()) {
            Some(p) if p.starts_with('|') => {
                out.cap(CapKind::Process, "open |", span);
                out.code(p[1..].to_string(), span);
            }
            Some(p) => {
                let mode = words.get(2).and_then(|w| w.lit.clone());
                if mode.as_deref().is_none_or(|m| {
                    m.contains(['w', 'a', '+']) || m.contains("WRONLY") || m.contains("RDWR")
                }) && words.len() > 2
                {
                    out.cap(CapKind::Write, "open (write)", span);
                    if mode.is_some() {
                        out.write(p.to_string(), "open", span);
                    }
                }
            }
            None => out.cap(CapKind::Write, "open ?", span),
        },
        "file" => match words.get(1).and_then(|w| w.lit.as_deref()) {
            Some("delete") => {
                out.cap(CapKind::Delete, "file delete", span);
                let mut force = false;
                for w in &words[2..] {
                    match w.lit.as_deref() {
                        Some("-force") => force = true,
                        Some("--") => {}
                        Some(p) => out.delete(p.to_string(), force, "file delete", span),
                        None => {}
                    }
                }
            }
            Some("copy" | "rename" | "link" | "mkdir" | "attributes") => {
                out.cap(CapKind::Write, "file write", span);
                if let Some(t) = words.last().and_then(|w| w.lit.clone())
                    && words.len() > 3
                {
                    out.write(t, "file copy", span);
                }
            }
            _ => {}
        },
        "socket" => out.cap(CapKind::Network, "socket", span),
        "http::geturl" | "::http::geturl" => out.cap(CapKind::Network, "http::geturl", span),
        "eval" | "uplevel" | "subst" | "interp" | "source" => {
            if name == "eval" || name == "uplevel" {
                if let Some(c) = lits(&words[1..]) {
                    let mut sub = Out::default();
                    tcl(&c.join(" "), span.0, &mut sub, 1);
                    out.merge(sub);
                } else {
                    out.cap(CapKind::Eval, name, span);
                }
            } else if name != "source" {
                out.cap(CapKind::Eval, name, span);
            }
        }
        _ => {}
    }
}

/// PowerShell cmdlets and aliases by what they do.
const PS_DELETE: &[&str] = &[
    "remove-item",
    "rm",
    "del",
    "erase",
    "rd",
    "ri",
    "rmdir",
    "clear-content",
    "clc",
    "clear-recyclebin",
];
const PS_WRITE: &[&str] = &[
    "set-content",
    "sc",
    "add-content",
    "ac",
    "out-file",
    "new-item",
    "ni",
    "mkdir",
    "md",
    "copy-item",
    "copy",
    "cp",
    "cpi",
    "move-item",
    "move",
    "mv",
    "mi",
    "rename-item",
    "ren",
    "rni",
    "set-itemproperty",
    "new-itemproperty",
    "set-acl",
    "expand-archive",
    "compress-archive",
    "export-csv",
    "tee-object",
    "tee",
];
const PS_NETWORK: &[&str] = &[
    "invoke-webrequest",
    "iwr",
    "curl",
    "wget",
    "invoke-restmethod",
    "irm",
    "start-bitstransfer",
    "new-pssession",
    "enter-pssession",
    "send-mailmessage",
    "test-netconnection",
    "net.webclient",
    "system.net.webclient",
    "system.net.sockets.tcpclient",
    "net.sockets.tcpclient",
];
const PS_EVAL: &[&str] = &[
    "invoke-expression",
    "iex",
    "invoke-command",
    "icm",
    "[scriptblock]::create",
    "add-type",
];
const PS_PROCESS: &[&str] = &[
    "start-process",
    "saps",
    "start",
    "invoke-item",
    "ii",
    "stop-process",
    "kill",
    "spps",
    "stop-service",
    "restart-service",
    "restart-computer",
    "stop-computer",
    "set-service",
    "&",
    ".",
];
/// Cmdlets and aliases that only read, print or compute.
const PS_SAFE: &[&str] = &[
    "get-childitem",
    "gci",
    "ls",
    "dir",
    "get-content",
    "gc",
    "cat",
    "type",
    "get-item",
    "gi",
    "get-location",
    "gl",
    "pwd",
    "set-location",
    "sl",
    "cd",
    "chdir",
    "push-location",
    "pushd",
    "pop-location",
    "popd",
    "write-host",
    "write-output",
    "echo",
    "write",
    "write-error",
    "write-warning",
    "write-verbose",
    "write-debug",
    "select-object",
    "select",
    "where-object",
    "where",
    "?",
    "foreach-object",
    "foreach",
    "%",
    "sort-object",
    "sort",
    "measure-object",
    "measure",
    "group-object",
    "group",
    "format-table",
    "ft",
    "format-list",
    "fl",
    "format-wide",
    "fw",
    "out-string",
    "out-host",
    "out-null",
    "convertto-json",
    "convertfrom-json",
    "convertto-csv",
    "convertfrom-csv",
    "convertto-html",
    "convertto-xml",
    "join-path",
    "split-path",
    "resolve-path",
    "rvpa",
    "test-path",
    "get-date",
    "get-process",
    "gps",
    "ps",
    "get-service",
    "gsv",
    "get-command",
    "gcm",
    "get-help",
    "help",
    "man",
    "get-member",
    "gm",
    "get-variable",
    "gv",
    "set-variable",
    "sv",
    "new-object",
    "get-itemproperty",
    "gp",
    "get-host",
    "get-culture",
    "get-random",
    "select-string",
    "sls",
    "compare-object",
    "compare",
    "tee-object",
    "get-filehash",
    "get-acl",
    "import-csv",
    "read-host",
    "start-sleep",
    "sleep",
    "get-history",
    "h",
    "history",
    "clear-host",
    "cls",
    "clear",
    "exit",
    "return",
    "if",
    "else",
    "elseif",
    "for",
    "while",
    "do",
    "switch",
    "function",
    "param",
    "try",
    "catch",
    "finally",
    "throw",
    "break",
    "continue",
    "$psversiontable",
    "get-module",
    "import-module",
    "get-psdrive",
    "get-uptime",
    "get-computerinfo",
    "get-ciminstance",
    "get-wmiobject",
    "gwmi",
    "get-alias",
    "gal",
    "get-eventlog",
    "get-winevent",
    "get-netipaddress",
    "get-netadapter",
    "set-strictmode",
    "get-executionpolicy",
    "out-gridview",
    "ogv",
    "get-unique",
    "gu",
    "get-clipboard",
];

/// PowerShell: statements split at `;`, newlines and pipes; each statement's first word is a
/// cmdlet or a native program. Literal `Remove-Item` targets become deletes; a native program
/// with literal arguments is lowered as that command.
fn powershell(code: &str, out: &mut Out) {
    let mut stmts: Vec<(usize, String)> = Vec::new();
    let (mut cur, mut from) = (String::new(), 0usize);
    let mut quote: Option<char> = None;
    let mut depth = 0i32;
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (Some(q), ch) if ch == q => {
                quote = None;
                cur.push(ch);
            }
            (Some(_), '`') => {
                cur.push(c);
                if let Some((_, n)) = chars.next() {
                    cur.push(n);
                }
            }
            (Some(_), ch) => cur.push(ch),
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, '#') if cur.trim().is_empty() || cur.ends_with(char::is_whitespace) => {
                while chars.peek().is_some_and(|(_, n)| *n != '\n') {
                    chars.next();
                }
            }
            (None, '{' | '(') => {
                depth += 1;
                // A script block or subexpression starts a statement of its own.
                stmts.push((from, std::mem::take(&mut cur)));
                from = i + 1;
            }
            (None, '}' | ')') => {
                depth -= 1;
                stmts.push((from, std::mem::take(&mut cur)));
                from = i + 1;
            }
            (None, ';' | '\n' | '|') => {
                stmts.push((from, std::mem::take(&mut cur)));
                from = i + 1;
            }
            (None, ch) => cur.push(ch),
        }
    }
    if quote.is_some() {
        out.fail("unterminated string");
        return;
    }
    let _ = depth;
    stmts.push((from, cur));
    for (start, s) in stmts {
        ps_statement(s.trim(), (start, start + s.len()), out);
    }
}

/// Splits a PowerShell statement into words; `None` for a word that is not literal. The
/// flag says the word was quoted (a quoted first word is an expression, not a command).
fn ps_words(s: &str) -> Vec<(Option<String>, bool)> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&c) = chars.peek() else { break };
        let mut w = String::new();
        let mut lit = true;
        let quoted = c == '\'' || c == '"';
        if quoted {
            chars.next();
            for ch in chars.by_ref() {
                if ch == c {
                    break;
                }
                if c == '"' && (ch == '$' || ch == '`') {
                    lit = false;
                }
                w.push(ch);
            }
        } else {
            while let Some(&ch) = chars.peek() {
                if ch.is_whitespace() {
                    break;
                }
                if ch == '$' || ch == '@' && w.is_empty() {
                    lit = false;
                }
                w.push(ch);
                chars.next();
            }
        }
        out.push((lit.then_some(w), quoted));
    }
    out
}

fn ps_statement(s: &str, span: (usize, usize), out: &mut Out) {
    let quoted_words = ps_words(s);
    if quoted_words.first().is_some_and(|w| w.1) {
        return;
    }
    // `$x = Remove-Item ..`: the right-hand side is a statement of its own.
    if quoted_words
        .get(1)
        .is_some_and(|w| w.0.as_deref() == Some("="))
        && let Some(pos) = s.find('=')
    {
        ps_statement(s[pos + 1..].trim(), span, out);
        return;
    }
    let words: Vec<Option<String>> = quoted_words.into_iter().map(|w| w.0).collect();
    let Some(first) = words.first() else { return };
    let Some(name) = first.as_deref() else {
        // `$x = ..`, `$cmd args`: an assignment, or a program known only at run time.
        let is_assign = words.get(1).is_some_and(|w| {
            w.as_deref()
                .is_some_and(|t| t == "=" || t.ends_with('=') && t.len() <= 2)
        });
        if !is_assign && s.starts_with('$') && !s.contains('=') && s.contains(' ') {
            out.cap(CapKind::Eval, "dynamic command", span);
        }
        return;
    };
    let lower = name.to_ascii_lowercase();
    let lower = lower.trim_start_matches('[').to_string();
    let has = |list: &[&str]| list.contains(&lower.as_str());
    let contains_any = |list: &[&str]| {
        let l = s.to_ascii_lowercase();
        list.iter().any(|n| n.contains('.') && l.contains(n))
    };
    if contains_any(PS_NETWORK) {
        out.cap(CapKind::Network, "network client", span);
    }
    if lower.contains("::create") || s.to_ascii_lowercase().contains("[scriptblock]::create") {
        out.cap(CapKind::Eval, "[scriptblock]::Create", span);
    }
    let operands: Vec<&Option<String>> = words[1..]
        .iter()
        .filter(|w| !w.as_deref().is_some_and(|t| t.starts_with('-')))
        .collect();
    if has(PS_DELETE) {
        out.cap(CapKind::Delete, name, span);
        let recursive = words[1..].iter().flatten().any(|w| {
            let l = w.to_ascii_lowercase();
            l.len() >= 2 && "-recurse".starts_with(&l) && l != "-"
        });
        for p in operands.into_iter().flatten() {
            out.delete(p.clone(), recursive, name, span);
        }
    } else if has(PS_WRITE) {
        out.cap(CapKind::Write, name, span);
    } else if has(PS_NETWORK) {
        out.cap(CapKind::Network, name, span);
    } else if has(PS_EVAL) {
        out.cap(CapKind::Eval, name, span);
    } else if has(PS_PROCESS) {
        out.cap(CapKind::Process, name, span);
        if matches!(lower.as_str(), "&" | "start-process" | "saps" | "start")
            && let Some(rest) = words[1..]
                .iter()
                .filter(|w| !w.as_deref().is_some_and(|t| t.starts_with('-')))
                .cloned()
                .collect::<Option<Vec<String>>>()
                .filter(|r| !r.is_empty())
        {
            out.argv(rest, span);
        }
    } else if has(PS_SAFE)
        || lower.starts_with("get-")
        || lower.starts_with(['[', '$', '.'])
        || lower.starts_with(|c: char| c.is_ascii_digit())
    {
    } else if lower
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_./\\:".contains(c))
    {
        // A native program: PowerShell runs it with these words as its argv.
        out.cap(CapKind::Process, name, span);
        if let Some(argv) = words.iter().cloned().collect::<Option<Vec<String>>>() {
            out.argv(argv, span);
        }
    }
}

/// gdb: one command a line.
fn gdb(code: &str, out: &mut Out) {
    let mut off = 0;
    for line in code.split('\n') {
        let span = (off, off + line.len());
        off += line.len() + 1;
        let t = line.trim_start();
        let lead = line.len() - t.len();
        let word_end = t
            .find(|c: char| c.is_whitespace() || c == '!' || c == '|')
            .unwrap_or(t.len());
        let (cmd, rest) = if t.starts_with('!') || t.starts_with('|') {
            (&t[..1], &t[1..])
        } else {
            (&t[..word_end], &t[word_end..])
        };
        let rest = rest.trim_start();
        match cmd {
            "shell" | "!" => {
                out.cap(CapKind::Process, "gdb shell", span);
                if !rest.is_empty() {
                    out.code(rest.to_string(), span);
                }
            }
            "pipe" | "|" => {
                out.cap(CapKind::Process, "gdb pipe", span);
                if let Some((_, sh)) = rest.split_once('|') {
                    out.code(sh.trim().to_string(), span);
                }
            }
            "python" | "py" | "python-interactive" | "pi" | "guile" | "gu" => {
                let lang = if cmd.starts_with('g') {
                    Lang::Scheme
                } else {
                    Lang::Python
                };
                if rest.is_empty() {
                    out.cap(CapKind::Eval, "gdb python", span);
                    continue;
                }
                let inner = super::scan(lang, rest);
                out.absorb(inner, off - line.len() - 1 + lead + (t.len() - rest.len()));
            }
            "call" | "print" | "p" | "output" => {
                if let Some(pos) = rest.find("system") {
                    out.cap(CapKind::Process, "system() in the debuggee", span);
                    let after = &rest[pos + 6..];
                    if let Some(a) = after.trim_start().strip_prefix("(\"")
                        && let Some(end) = a.find("\")")
                    {
                        out.code(a[..end].to_string(), span);
                    }
                }
            }
            "source" | "so" => out.cap(CapKind::Eval, "gdb source", span),
            _ => {}
        }
    }
}

/// dc: `!` runs the rest of the line (up to a closing `]` inside a macro) with the shell;
/// `!<`, `!>`, `!=` are comparisons.
fn dc(code: &str, out: &mut Out) {
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'[' {
            // A string: only a `!` inside runs when the macro is executed; read it anyway.
            i += 1;
            continue;
        }
        if b[i] == b'!' && !matches!(b.get(i + 1), Some(b'<' | b'>' | b'=')) {
            let rest = &code[i + 1..];
            let end = rest.find(['\n', ']']).unwrap_or(rest.len());
            out.cap(CapKind::Process, "dc !", (i, i + 1 + end));
            let cmd = rest[..end].trim();
            if !cmd.is_empty() {
                out.code(cmd.to_string(), (i, i + 1 + end));
            }
            i += 1 + end;
            continue;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CapKind, Lang, ShellOut, scan};

    fn codes(lang: Lang, code: &str) -> Vec<String> {
        scan(lang, code)
            .shell_outs
            .into_iter()
            .map(|s| match s {
                ShellOut::Code { code, .. } => code,
                ShellOut::Argv { argv, .. } => format!("argv:{}", argv.join(" ")),
            })
            .collect()
    }

    fn kinds(lang: Lang, code: &str) -> Vec<CapKind> {
        let mut k: Vec<CapKind> = scan(lang, code)
            .capabilities
            .into_iter()
            .map(|c| c.kind)
            .collect();
        k.dedup();
        k
    }

    #[test]
    fn lua_execute_and_popen_are_shell_code_in_every_call_form() {
        for code in [
            "os.execute('rm -rf /')",
            "os.execute(\"rm -rf /\")",
            "os.execute \"rm -rf /\"",
            "os.execute[[rm -rf /]]",
            "local h = io.popen('rm -rf /', 'r')",
        ] {
            assert_eq!(codes(Lang::Lua, code), ["rm -rf /"], "{code}");
        }
        assert!(codes(Lang::Lua, "os.execute('rm ' .. x)").is_empty());
        assert_eq!(
            kinds(Lang::Lua, "os.execute('rm ' .. x)"),
            [CapKind::Process]
        );
        assert!(kinds(Lang::Lua, "print(1) -- os.execute('x')").is_empty());
        assert!(kinds(Lang::Lua, "print('os.execute(\"x\")')").is_empty());
    }

    #[test]
    fn lua_open_is_a_write_only_with_a_write_mode() {
        assert!(kinds(Lang::Lua, "io.open('f', 'r'):read('a')").is_empty());
        assert!(kinds(Lang::Lua, "io.open('f'):read('a')").is_empty());
        assert_eq!(kinds(Lang::Lua, "io.open('f', 'w')"), [CapKind::Write]);
        let s = scan(Lang::Lua, "os.remove('/etc/passwd')");
        assert_eq!(s.deletes[0].path, "/etc/passwd");
    }

    #[test]
    fn r_system_unlink_and_writes() {
        assert_eq!(codes(Lang::R, "system('rm -rf ~')"), ["rm -rf ~"]);
        let s = scan(Lang::R, "unlink('/home/u', recursive = TRUE)");
        assert!(s.deletes[0].recursive && s.deletes[0].path == "/home/u");
        assert!(kinds(Lang::R, "x <- read.csv('a.csv'); print(summary(x))").is_empty());
        let s = scan(Lang::R, "write.csv(df, '~/.bashrc')");
        assert_eq!(s.writes[0].path, "~/.bashrc");
    }

    #[test]
    fn julia_command_literals_are_argv() {
        assert_eq!(codes(Lang::Julia, "run(`rm -rf /`)"), ["argv:rm -rf /"]);
        assert!(codes(Lang::Julia, "run(`rm -rf $d`)").is_empty());
        assert_eq!(kinds(Lang::Julia, "run(`rm -rf $d`)"), [CapKind::Process]);
        assert!(kinds(Lang::Julia, "println(1 + 2)").is_empty());
        let s = scan(Lang::Julia, "rm(\"/\"; recursive=true)");
        assert!(s.deletes[0].recursive);
    }

    #[test]
    fn lisp_scheme_haskell_ocaml_shell_outs() {
        assert_eq!(codes(Lang::Scheme, "(system \"rm -rf /\")"), ["rm -rf /"]);
        assert_eq!(codes(Lang::Lisp, "(EXT:SHELL \"rm -rf /\")"), ["rm -rf /"]);
        assert_eq!(codes(Lang::Lisp, "(uiop:run-program \"id\")"), ["id"]);
        assert_eq!(
            codes(Lang::Haskell, "System.Process.callCommand \"rm -rf /\""),
            ["rm -rf /"]
        );
        assert_eq!(codes(Lang::Haskell, "callCommand $ \"id\""), ["id"]);
        assert_eq!(
            codes(Lang::Ocaml, "let _ = Sys.command \"rm -rf /\""),
            ["rm -rf /"]
        );
        assert!(kinds(Lang::Haskell, "print (sum [1..10])").is_empty());
        assert!(kinds(Lang::Scheme, "(display (+ 1 2))").is_empty());
    }

    #[test]
    fn jvm_exec_splits_on_whitespace() {
        assert_eq!(
            codes(
                Lang::JvmScript,
                "java.lang.Runtime.getRuntime().exec(\"rm -rf /\")"
            ),
            ["argv:rm -rf /"]
        );
        assert_eq!(
            codes(Lang::JvmScript, "\"rm -rf /\".execute()"),
            ["argv:rm -rf /"]
        );
        assert_eq!(codes(Lang::JvmScript, "exec('id')"), ["argv:id"]);
        assert!(kinds(Lang::JvmScript, "print(1+1)").is_empty());
    }

    #[test]
    fn applescript_do_shell_script_in_any_case() {
        for code in [
            "do shell script \"rm -rf ~\"",
            "DO SHELL SCRIPT \"rm -rf ~\"",
            "tell application \"Terminal\" to do script \"rm -rf ~\"",
            "app.doShellScript('rm -rf ~')",
        ] {
            assert_eq!(codes(Lang::AppleScript, code), ["rm -rf ~"], "{code}");
        }
        assert!(kinds(Lang::AppleScript, "display dialog \"hi\"").is_empty());
    }

    #[test]
    fn bpftrace_system_is_shell_code() {
        assert_eq!(
            codes(Lang::Bpftrace, "BEGIN { system(\"rm -rf /\"); exit(); }"),
            ["rm -rf /"]
        );
        assert!(
            kinds(
                Lang::Bpftrace,
                "tracepoint:syscalls:sys_enter_open { printf(\"%s\\n\", str(args->filename)); }"
            )
            .is_empty()
        );
    }

    #[test]
    fn tcl_exec_spawn_open_and_file_delete() {
        assert_eq!(codes(Lang::Tcl, "exec rm -rf /"), ["argv:rm -rf /"]);
        assert_eq!(codes(Lang::Tcl, "puts [exec ls -l]"), ["argv:ls -l"]);
        assert_eq!(
            codes(Lang::Tcl, "exec -ignorestderr -- ls | wc -l"),
            ["ls | wc -l"]
        );
        assert_eq!(
            codes(Lang::Tcl, "spawn ssh host\nexpect \"$ \"\nsend \"ls\\r\""),
            ["argv:ssh host"]
        );
        assert_eq!(
            codes(Lang::Tcl, "set f [open \"|rm -rf /\" r]"),
            ["rm -rf /"]
        );
        assert_eq!(codes(Lang::Tcl, "if {1} { exec id }"), ["argv:id"]);
        let s = scan(Lang::Tcl, "file delete -force /home/u");
        assert!(s.deletes[0].recursive);
        assert!(codes(Lang::Tcl, "exec rm -rf $dir").is_empty());
        assert!(kinds(Lang::Tcl, "puts [expr {1 + 2}]").is_empty());
        assert!(kinds(Lang::Tcl, "# exec rm -rf /\nputs hi").is_empty());
        assert!(scan(Lang::Tcl, "puts {unbalanced").unreadable);
    }

    #[test]
    fn powershell_cmdlets_natives_and_deletes() {
        let s = scan(Lang::PowerShell, "Remove-Item -Recurse -Force C:\\Users");
        assert!(s.deletes[0].recursive && s.deletes[0].path == "C:\\Users");
        let s = scan(Lang::PowerShell, "rm -r -fo ~/x");
        assert!(s.deletes[0].recursive);
        assert_eq!(
            codes(Lang::PowerShell, "git status; git reset --hard"),
            ["argv:git status", "argv:git reset --hard"]
        );
        assert!(kinds(Lang::PowerShell, "Get-ChildItem | Select-Object Name").is_empty());
        assert!(kinds(Lang::PowerShell, "Write-Host 'rm -rf /'").is_empty());
        assert_eq!(
            kinds(Lang::PowerShell, "iex (iwr http://x)"),
            [CapKind::Eval, CapKind::Network]
        );
        assert_eq!(
            kinds(
                Lang::PowerShell,
                "(New-Object Net.WebClient).DownloadString('http://x')"
            ),
            [CapKind::Network]
        );
    }

    #[test]
    fn gdb_shell_pipe_and_python_commands() {
        assert_eq!(codes(Lang::Gdb, "!rm -rf /"), ["rm -rf /"]);
        assert_eq!(codes(Lang::Gdb, "shell rm -rf /"), ["rm -rf /"]);
        assert_eq!(codes(Lang::Gdb, "pipe bt | sh"), ["sh"]);
        assert_eq!(
            codes(Lang::Gdb, "python import os; os.system('id')"),
            ["id"]
        );
        assert_eq!(codes(Lang::Gdb, "call system(\"id\")"), ["id"]);
        assert!(kinds(Lang::Gdb, "run\nbt\ninfo registers").is_empty());
    }

    #[test]
    fn dc_bang_runs_the_rest_of_the_line() {
        assert_eq!(codes(Lang::Dc, "!rm -rf /"), ["rm -rf /"]);
        assert_eq!(codes(Lang::Dc, "[!id]x"), ["id"]);
        assert!(kinds(Lang::Dc, "2 3 + p").is_empty());
        assert!(kinds(Lang::Dc, "1 2 !<a p").is_empty());
    }

    #[test]
    fn unmodelled_languages_still_have_shell_literals_judged() {
        assert_eq!(
            codes(Lang::Generic, "System.cmd(\"rm\", [\"-rf\", \"/\"])"),
            Vec::<String>::new()
        );
        assert_eq!(codes(Lang::Generic, ":os.cmd('rm -rf /')"), ["rm -rf /"]);
        assert_eq!(codes(Lang::Generic, "shell(\"rm -rf /\")"), ["rm -rf /"]);
        assert!(kinds(Lang::Generic, "IO.puts(1 + 2)").is_empty());
        assert_eq!(
            kinds(Lang::Generic, "File.rm_rf!(\"/\")"),
            [CapKind::Delete]
        );
    }
}
