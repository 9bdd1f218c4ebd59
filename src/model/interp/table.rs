//! The one table of interpreters: which program names run which language, which of their
//! options carry code (and whether code may be attached, `-e'..'`), which options take a
//! value that is not code, and whether the program reads its code from stdin. The reader
//! [`inline_code`] walks an argv with an entry's grammar; nothing else reads interpreter
//! options.
//!
//! To add an interpreter: add a row to [`INTERPRETERS`] with its program names and the
//! option grammar from its manual, pick the [`Lang`] whose scanner reads its code (a
//! [`Lang`] backed by a dialect table in `dialect.rs` is enough for most languages), and add
//! corpus cases for every spelling of its code option.

use super::Lang;

/// How an interpreter's options are spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Short options with a single dash that may be bundled (`-ne`), long options with two
    /// dashes (`--eval`, `--eval=code`).
    Getopt,
    /// Long option names with a single dash, case-insensitive, any unambiguous prefix
    /// (PowerShell: `-c`, `-Com`, `-Command`).
    PowerShell,
}

/// One option whose value is code.
#[derive(Debug, Clone, Copy)]
pub struct CodeOpt {
    /// As written: `-e`, `--eval`, `-ex`.
    pub opt: &'static str,
    /// The code may be attached to a short option (`-e'code'`, `-cprint(1)`), or follow a
    /// long option after `=`.
    pub attached: bool,
}

const fn c(opt: &'static str) -> CodeOpt {
    CodeOpt {
        opt,
        attached: false,
    }
}

/// Attached code is accepted too (`-e'..'`; `--eval=..` for a long option).
const fn ca(opt: &'static str) -> CodeOpt {
    CodeOpt {
        opt,
        attached: true,
    }
}

/// One interpreter and its option grammar.
#[derive(Debug)]
pub struct Interpreter {
    /// Program families: a name matches after `.exe` and a version suffix are removed
    /// (`python3.12` → `python`, `lua5.4` → `lua`, `tclsh8.6` → `tclsh`).
    pub names: &'static [&'static str],
    pub lang: Lang,
    pub style: Style,
    /// Options whose value is code.
    pub code: &'static [CodeOpt],
    /// A short code option may end a bundle (`perl -ne`, `python3 -Ic`).
    pub bundle: bool,
    /// Several code options are joined, one per line (`perl -e a -e b`, `osascript -e ..`).
    pub repeat: bool,
    /// The first code option ends the interpreter's own options (`python -c code args..`).
    pub code_ends_options: bool,
    /// Short options that take a value which is not code (`-W ignore`, `-r socket`).
    pub short_values: &'static str,
    /// Short options whose value is the rest of the word, so no code letter follows them in
    /// a bundle (`perl -Mfeature=say`, `perl -i.bak`, `ruby -rsocket`).
    pub short_rest: &'static str,
    /// Long options that take a separate value which is not code.
    pub long_values: &'static [&'static str],
    /// Options after which no inline code runs: a module or script named by the value, or
    /// the program being debugged (`python -m mod`, `gdb --args prog ..`).
    pub not_inline: &'static [&'static str],
    /// Options that make the code unreadable (PowerShell `-EncodedCommand`).
    pub opaque: &'static [&'static str],
    /// Code is the first operand after this subcommand (`deno eval CODE`).
    pub subcommand: Option<&'static str>,
    /// The first operand is code (PowerShell 5 `powershell 'code'`).
    pub operand_code: bool,
    /// With no code option and no script operand, code is read from stdin (`python3 - <<EOF`).
    pub stdin: bool,
}

const BASE: Interpreter = Interpreter {
    names: &[],
    lang: Lang::Generic,
    style: Style::Getopt,
    code: &[],
    bundle: false,
    repeat: true,
    code_ends_options: false,
    short_values: "",
    short_rest: "",
    long_values: &[],
    not_inline: &[],
    opaque: &[],
    subcommand: None,
    operand_code: false,
    stdin: true,
};

/// Every interpreter shellgate reads inline code of.
pub static INTERPRETERS: &[Interpreter] = &[
    Interpreter {
        names: &["python", "pypy", "python-dbg", "ipython"],
        lang: Lang::Python,
        code: &[ca("-c")],
        bundle: true,
        repeat: false,
        code_ends_options: true,
        short_values: "WXQ",
        short_rest: "WXQm",
        not_inline: &["-m"],
        ..BASE
    },
    Interpreter {
        // node rejects code attached to `-e` (`node -e'1'` is a bad option), but a command
        // that shows its code is judged on it: reading it costs nothing if node refuses.
        names: &["node", "nodejs"],
        lang: Lang::Node,
        code: &[ca("-e"), ca("--eval"), ca("-p"), ca("--print"), c("-pe")],
        short_values: "rC",
        long_values: &[
            "--require",
            "--import",
            "--loader",
            "--experimental-loader",
            "--input-type",
            "--env-file",
            "--conditions",
            "--title",
        ],
        ..BASE
    },
    Interpreter {
        names: &["bun"],
        lang: Lang::Node,
        code: &[c("-e"), ca("--eval"), c("-p"), ca("--print")],
        short_values: "r",
        long_values: &["--preload", "--cwd", "--env-file", "--tsconfig-override"],
        ..BASE
    },
    Interpreter {
        names: &["deno"],
        lang: Lang::Node,
        subcommand: Some("eval"),
        short_values: "cL",
        long_values: &[
            "--config",
            "--import-map",
            "--ext",
            "--env-file",
            "--location",
            "--log-level",
            "--reload",
        ],
        stdin: false,
        ..BASE
    },
    Interpreter {
        names: &["perl"],
        lang: Lang::Perl,
        code: &[ca("-e"), ca("-E")],
        bundle: true,
        short_values: "I",
        short_rest: "MmIxiCdD0",
        ..BASE
    },
    Interpreter {
        names: &["ruby", "jruby", "truffleruby"],
        lang: Lang::Ruby,
        code: &[ca("-e")],
        bundle: true,
        short_values: "rICEF",
        short_rest: "rICEFxi0WTK",
        ..BASE
    },
    Interpreter {
        // The REPL reads its code from stdin only.
        names: &["irb"],
        lang: Lang::Ruby,
        short_values: "rI",
        ..BASE
    },
    Interpreter {
        names: &["php", "php-cli"],
        lang: Lang::Php,
        code: &[ca("-r"), ca("-B"), ca("-R"), ca("-E")],
        short_values: "cdzS",
        not_inline: &["-f", "-F", "-t"],
        ..BASE
    },
    Interpreter {
        // lua.c reads `-estat` attached and `-e stat` (collectargs).
        names: &["lua", "luajit", "texlua"],
        lang: Lang::Lua,
        code: &[ca("-e")],
        short_values: "l",
        ..BASE
    },
    Interpreter {
        names: &["R", "Rscript"],
        lang: Lang::R,
        code: &[c("-e")],
        long_values: &["--default-packages"],
        ..BASE
    },
    Interpreter {
        names: &["julia"],
        lang: Lang::Julia,
        code: &[ca("-e"), ca("--eval"), ca("-E"), ca("--print")],
        short_values: "CJtpL",
        long_values: &[
            "--load",
            "--sysimage",
            "--threads",
            "--procs",
            "--machine-file",
        ],
        ..BASE
    },
    Interpreter {
        // tclsh and wish read a script file or stdin; expect also takes `-c cmds`.
        names: &["tclsh", "wish", "jimsh"],
        lang: Lang::Tcl,
        ..BASE
    },
    Interpreter {
        names: &["expect"],
        lang: Lang::Tcl,
        code: &[ca("-c")],
        short_values: "D",
        not_inline: &["-f"],
        ..BASE
    },
    Interpreter {
        // guile `-e FUNC` names an entry point, it is not code.
        names: &["guile"],
        lang: Lang::Scheme,
        code: &[c("-c")],
        short_values: "elLxC",
        not_inline: &["-s"],
        ..BASE
    },
    Interpreter {
        names: &["racket", "csi", "gosh", "mit-scheme", "chez", "scheme"],
        lang: Lang::Scheme,
        code: &[c("-e"), ca("--eval"), c("-eval"), c("-p"), c("-print")],
        short_values: "lrtfkS",
        long_values: &["--load", "--require"],
        ..BASE
    },
    Interpreter {
        names: &["clisp"],
        lang: Lang::Lisp,
        code: &[c("-x")],
        short_values: "BKMmLEpCi",
        ..BASE
    },
    Interpreter {
        names: &["sbcl", "ecl", "ccl", "ccl64", "lx86cl64"],
        lang: Lang::Lisp,
        code: &[c("--eval"), c("-eval"), c("-e")],
        long_values: &[
            "--load",
            "--core",
            "--dynamic-space-size",
            "--control-stack-size",
        ],
        not_inline: &["--script"],
        ..BASE
    },
    Interpreter {
        names: &["ghc", "ghci", "stack-ghci"],
        lang: Lang::Haskell,
        code: &[c("-e")],
        short_values: "io",
        ..BASE
    },
    Interpreter {
        names: &["ocaml", "utop"],
        lang: Lang::Ocaml,
        short_values: "I",
        long_values: &["-init", "-open", "-ppx"],
        ..BASE
    },
    Interpreter {
        // pwsh's first operand is a script file; Windows PowerShell's is a command.
        names: &["pwsh"],
        lang: Lang::PowerShell,
        style: Style::PowerShell,
        code: &[c("-command"), c("-c"), c("-commandwithargs"), c("-cwa")],
        code_ends_options: true,
        long_values: &[
            "-executionpolicy",
            "-ep",
            "-inputformat",
            "-outputformat",
            "-windowstyle",
            "-workingdirectory",
            "-wd",
            "-w",
            "-o",
            "-of",
            "-if",
            "-inp",
            "-configurationname",
            "-settingsfile",
            "-custompipename",
            "-version",
        ],
        not_inline: &["-file", "-f"],
        opaque: &["-encodedcommand", "-e", "-ec", "-encodedarguments"],
        ..BASE
    },
    Interpreter {
        names: &["powershell"],
        lang: Lang::PowerShell,
        style: Style::PowerShell,
        code: &[c("-command"), c("-c")],
        code_ends_options: true,
        long_values: &[
            "-executionpolicy",
            "-ep",
            "-inputformat",
            "-outputformat",
            "-windowstyle",
            "-configurationname",
            "-psconsolefile",
            "-version",
        ],
        not_inline: &["-file", "-f"],
        opaque: &["-encodedcommand", "-e", "-ec"],
        operand_code: true,
        ..BASE
    },
    Interpreter {
        names: &["jrunscript"],
        lang: Lang::JvmScript,
        code: &[c("-e")],
        long_values: &["-cp", "-classpath", "-l"],
        not_inline: &["-f"],
        ..BASE
    },
    Interpreter {
        names: &["jjs", "groovy", "scala", "kotlinc", "kotlin", "jshell"],
        lang: Lang::JvmScript,
        code: &[c("-e"), c("-expression")],
        long_values: &["-cp", "-classpath"],
        ..BASE
    },
    Interpreter {
        names: &["osascript"],
        lang: Lang::AppleScript,
        code: &[ca("-e")],
        short_values: "lis",
        ..BASE
    },
    Interpreter {
        // Everything after `--args` is the debugged program and its arguments.
        names: &["gdb", "gdb-multiarch", "cgdb"],
        lang: Lang::Gdb,
        code: &[
            c("-ex"),
            ca("--ex"),
            c("-eval-command"),
            ca("--eval-command"),
            c("-iex"),
            ca("--init-eval-command"),
        ],
        short_values: "pxcsedD",
        long_values: &[
            "--pid",
            "--command",
            "--cd",
            "--directory",
            "--core",
            "--se",
            "--exec",
            "--symbols",
            "-x",
            "--init-command",
            "-ix",
        ],
        not_inline: &["--args"],
        stdin: false,
        ..BASE
    },
    Interpreter {
        names: &["bpftrace"],
        lang: Lang::Bpftrace,
        code: &[ca("-e")],
        short_values: "cpoBfI",
        long_values: &["--include"],
        stdin: false,
        ..BASE
    },
    Interpreter {
        names: &["dc"],
        lang: Lang::Dc,
        code: &[ca("-e"), ca("--expression")],
        not_inline: &["-f", "--file"],
        ..BASE
    },
    Interpreter {
        // Languages without a dedicated dialect: their shell-looking string literals passed to
        // `system(..)`-like calls are still judged as shell code.
        names: &[
            "elixir", "raku", "perl6", "rakudo", "pike", "janet", "fennel", "bb", "clojure", "clj",
        ],
        lang: Lang::Generic,
        code: &[c("-e"), ca("--eval")],
        ..BASE
    },
    Interpreter {
        names: &["erl"],
        lang: Lang::Generic,
        code: &[c("-eval")],
        stdin: false,
        ..BASE
    },
    Interpreter {
        names: &["hy", "xonsh"],
        lang: Lang::Generic,
        code: &[c("-c")],
        ..BASE
    },
];

/// `name` without directory, `.exe` and version suffix (`/usr/bin/python3.12` → `python`).
pub fn family(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let base = base
        .strip_suffix(".exe")
        .or_else(|| base.strip_suffix(".EXE"))
        .unwrap_or(base);
    let trimmed = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    // `ghc-9.4` → `ghc`, but a name that is only a version (`2to3`) stays whole.
    let trimmed = trimmed.strip_suffix('-').unwrap_or(trimmed);
    if trimmed.is_empty() { base } else { trimmed }
}

/// The table row for an interpreter program name.
pub fn lookup(name: &str) -> Option<&'static Interpreter> {
    let fam = family(name);
    INTERPRETERS.iter().find(|i| i.names.contains(&fam))
}

/// What one argv word is, read with an interpreter's grammar.
enum Opt<'s> {
    /// A code option; its code is attached (`Some`) or the next word.
    Code(Option<&'s str>),
    /// An option that takes the next word as its (non-code) value.
    Value,
    /// An option that ends inline code (`-m`, `--args`, `-File`).
    NotInline,
    /// Code that cannot be read (`-EncodedCommand`).
    Opaque,
    /// An option without a value, or one with its value attached.
    Flag,
}

fn read_getopt<'s>(it: &Interpreter, a: &'s str) -> Opt<'s> {
    if it.not_inline.contains(&a) {
        return Opt::NotInline;
    }
    if let Some((name, v)) = a.split_once('=')
        && name.starts_with("--")
    {
        if let Some(co) = it.code.iter().find(|c| c.opt == name) {
            return if co.attached {
                Opt::Code(Some(v))
            } else {
                Opt::Flag
            };
        }
        if it.not_inline.contains(&name) {
            return Opt::NotInline;
        }
        return Opt::Flag;
    }
    if it.code.iter().any(|c| c.opt == a) {
        return Opt::Code(None);
    }
    if it.long_values.contains(&a) {
        return Opt::Value;
    }
    if a.starts_with("--") {
        return Opt::Flag;
    }
    // Single-dash long options (`-ex`, `-eval`) were matched whole above; what remains is a
    // short option, possibly attached code or a bundle.
    for co in it.code {
        let Some(letter) = co.opt.strip_prefix('-').filter(|l| l.chars().count() == 1) else {
            continue;
        };
        if co.attached
            && let Some(code) = a.strip_prefix(co.opt)
        {
            return Opt::Code(Some(code));
        }
        if it.bundle {
            // `-ne`: flags then the code letter last; `-ne'code'`: code attached after it.
            let body = &a[1..];
            if let Some(pos) = body.find(letter) {
                let before = &body[..pos];
                let value_before = before
                    .chars()
                    .any(|ch| it.short_values.contains(ch) || it.short_rest.contains(ch));
                if !value_before && before.chars().all(|ch| ch.is_ascii_alphanumeric()) {
                    let rest = &body[pos + letter.len()..];
                    return if rest.is_empty() {
                        Opt::Code(None)
                    } else if co.attached {
                        Opt::Code(Some(rest))
                    } else {
                        Opt::Flag
                    };
                }
            }
        }
    }
    let mut chars = a[1..].chars();
    match chars.next() {
        Some(ch) if it.short_values.contains(ch) && chars.as_str().is_empty() => Opt::Value,
        Some(ch)
            if it
                .not_inline
                .iter()
                .any(|n| n.len() == 2 && n.ends_with(ch)) =>
        {
            Opt::NotInline
        }
        _ => Opt::Flag,
    }
}

fn read_powershell<'s>(it: &Interpreter, a: &'s str) -> Opt<'s> {
    let (name, attached) = match a.split_once(':') {
        Some((n, v)) => (n, Some(v)),
        None => (a, None),
    };
    let lower = name.to_ascii_lowercase();
    let lower = lower.replacen("--", "-", 1).replacen('/', "-", 1);
    // An exact alias wins; otherwise the first listed name it is a prefix of, as
    // PowerShell's MatchSwitch checks its switches in order (`-Comm` is `-Command`).
    let all = it
        .code
        .iter()
        .map(|c| c.opt)
        .chain(it.long_values.iter().copied())
        .chain(it.not_inline.iter().copied())
        .chain(it.opaque.iter().copied());
    let exact = all.clone().find(|o| *o == lower);
    let resolved = exact.or_else(|| {
        all.into_iter()
            .find(|o| lower.len() >= 3 && o.starts_with(&lower))
    });
    let Some(opt) = resolved else {
        return Opt::Flag;
    };
    if it.opaque.contains(&opt) {
        Opt::Opaque
    } else if it.code.iter().any(|c| c.opt == opt) {
        Opt::Code(attached)
    } else if it.not_inline.contains(&opt) {
        Opt::NotInline
    } else if attached.is_some() {
        Opt::Flag
    } else {
        Opt::Value
    }
}

/// The code an interpreter invocation runs when it is inline: `Ok(code)` from its code
/// options, from the first operand where that is code, or from `stdin` when the program reads
/// its code there; `Err(reason)` when the code is only known at run time; `None` when the
/// program runs a script file or module instead. `args` are the words after the program name,
/// `None` where a word is not known literally.
pub fn inline_code(
    it: &Interpreter,
    args: &[Option<String>],
    stdin: Option<&str>,
) -> Option<Result<String, String>> {
    let code = inline_code_text(it, args, stdin)?;
    Some(code.and_then(|c| {
        if c.contains(RUN_TIME) {
            Err("the code is only known at run time".into())
        } else {
            Ok(c)
        }
    }))
}

/// Stands for the run-time part of an option word whose start is known (`-c"$CODE"` is
/// `-c` + this): code that contains it is only known at run time.
pub const RUN_TIME: &str = "\u{fffc}";

fn inline_code_text(
    it: &Interpreter,
    args: &[Option<String>],
    stdin: Option<&str>,
) -> Option<Result<String, String>> {
    let mut pieces: Vec<String> = Vec::new();
    let mut i = 0;
    let mut seen_sub = it.subcommand.is_none();
    // A word known only at run time where a script could be: with no code option after it,
    // it is taken as the script (`python3 <(curl ..)`), never as "read stdin".
    let mut unknown_operand = false;
    let take = |w: Option<&Option<String>>| -> Result<String, String> {
        match w {
            Some(Some(code)) => Ok(code.clone()),
            Some(None) => Err("the code is only known at run time".into()),
            None => Err("the code option has no argument".into()),
        }
    };
    while i < args.len() {
        let Some(a) = args[i].as_deref() else {
            // An unknown word where the script or code would be.
            if !seen_sub || it.operand_code {
                return Some(Err("the code is only known at run time".into()));
            }
            unknown_operand = true;
            i += 1;
            continue;
        };
        if !seen_sub {
            if Some(a) == it.subcommand {
                seen_sub = true;
                i += 1;
                continue;
            }
            if !a.starts_with('-') {
                // Another subcommand (`deno run x.ts`): no inline code.
                return None;
            }
        }
        if a == "--" {
            i += 1;
            break;
        }
        if a == "-" {
            break;
        }
        if !a.starts_with('-') || a.len() == 1 {
            if it.subcommand.is_some() || it.operand_code {
                // `deno eval CODE`, `powershell 'Get-Date; rm x'`: the operands are code.
                let rest: Result<Vec<String>, String> =
                    args[i..].iter().map(|w| take(Some(w))).collect();
                return Some(rest.map(|r| {
                    pieces.extend(r);
                    pieces.join(if it.operand_code { " " } else { "\n" })
                }));
            }
            break;
        }
        let opt = match it.style {
            Style::Getopt => read_getopt(it, a),
            Style::PowerShell => read_powershell(it, a),
        };
        match opt {
            Opt::Code(Some(code)) => {
                pieces.push(code.to_string());
                i += 1;
            }
            Opt::Code(None) => {
                if it.style == Style::PowerShell {
                    // `-Command` takes every remaining word as one command line; `-` is stdin.
                    let rest = &args[i + 1..];
                    if rest.first().is_some_and(|w| w.as_deref() == Some("-")) {
                        return stdin.map(|s| Ok(s.to_string()));
                    }
                    let words: Result<Vec<String>, String> =
                        rest.iter().map(|w| take(Some(w))).collect();
                    return Some(words.map(|w| w.join(" ")));
                }
                match take(args.get(i + 1)) {
                    Ok(code) => pieces.push(code),
                    Err(e) => return Some(Err(e)),
                }
                i += 2;
            }
            Opt::Value => i += 2,
            Opt::NotInline => return None,
            Opt::Opaque => {
                return Some(Err(format!("{a} carries encoded code")));
            }
            Opt::Flag => i += 1,
        }
        if !pieces.is_empty() && (it.code_ends_options || !it.repeat) {
            break;
        }
    }
    if !pieces.is_empty() {
        return Some(Ok(pieces.join("\n")));
    }
    if !seen_sub || unknown_operand {
        return None;
    }
    if i < args.len() && args[i].as_deref() != Some("-") {
        // A script operand (after `--` or the first non-option word).
        if it.operand_code {
            let rest: Result<Vec<String>, String> =
                args[i..].iter().map(|w| take(Some(w))).collect();
            return Some(rest.map(|r| r.join(" ")));
        }
        return None;
    }
    if it.subcommand.is_some() {
        return Some(Err("the code option has no argument".into()));
    }
    if it.stdin || args.get(i).is_some_and(|w| w.as_deref() == Some("-")) {
        return stdin.map(|s| Ok(s.to_string()));
    }
    None
}

/// Where an interpreter invocation takes its code from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeSource {
    /// A code option or code operand (`-c`, `-e`, `deno eval`).
    Inline,
    /// Standard input (`python3 -`, `lua` with no script).
    Stdin,
    /// A script file or module named in its arguments (`/dev/stdin` and `<(..)` included).
    File,
}

/// The index of the script file an interpreter runs (`python3 -u x.py` → 1), read with the
/// interpreter's own options (values skipped, `--` honoured); `None` for inline code, a
/// module (`-m`), stdin, or a script known only at run time.
pub fn script_operand(it: &Interpreter, args: &[Option<String>]) -> Option<usize> {
    if code_source(it, args) != CodeSource::File || it.subcommand.is_some() {
        return None;
    }
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let a = a.as_deref()?;
        if a == "--" {
            return (i + 1 < args.len()).then_some(i + 1);
        }
        if !a.starts_with('-') || a.len() == 1 {
            return Some(i);
        }
        let opt = match it.style {
            Style::Getopt => read_getopt(it, a),
            Style::PowerShell => read_powershell(it, a),
        };
        match opt {
            Opt::Value => i += 2,
            Opt::Flag => i += 1,
            Opt::Code(_) | Opt::NotInline | Opt::Opaque => return None,
        }
    }
    None
}

/// Where `args` make the interpreter read its code, by the same grammar as [`inline_code`].
pub fn code_source(it: &Interpreter, args: &[Option<String>]) -> CodeSource {
    const MARK: &str = "\u{0}stdin";
    match inline_code(it, args, Some(MARK)) {
        Some(Ok(c)) if c == MARK => CodeSource::Stdin,
        Some(_) => CodeSource::Inline,
        None => CodeSource::File,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(prog: &str, argv: &[&str]) -> Option<Result<String, String>> {
        let args: Vec<Option<String>> = argv.iter().map(|s| Some(s.to_string())).collect();
        inline_code(lookup(prog)?, &args, Some("STDIN"))
    }

    fn ok(prog: &str, argv: &[&str]) -> String {
        match code(prog, argv) {
            Some(Ok(c)) => c,
            other => panic!("{prog} {argv:?}: {other:?}"),
        }
    }

    #[test]
    fn every_interpreter_family_resolves_through_versions_and_paths() {
        for (name, fam) in [
            ("/usr/bin/python3.12", "python"),
            ("lua5.4", "lua"),
            ("tclsh8.6", "tclsh"),
            ("ghc-9.4.7", "ghc"),
            ("pwsh.exe", "pwsh"),
            ("Rscript", "Rscript"),
            ("guile3.0", "guile"),
        ] {
            assert_eq!(family(name), fam, "{name}");
            assert!(lookup(name).is_some(), "{name}");
        }
        for name in [
            "bash",
            "pythonista",
            "nodemon",
            "rubocop",
            "phpunit",
            "luarocks",
            "",
        ] {
            assert!(lookup(name).is_none(), "{name}");
        }
    }

    #[test]
    fn no_program_name_is_in_two_rows() {
        let mut seen = std::collections::BTreeSet::new();
        for it in INTERPRETERS {
            for n in it.names {
                assert!(seen.insert(*n), "{n} twice");
            }
        }
    }

    #[test]
    fn attached_code_is_read_where_the_interpreter_accepts_it() {
        assert_eq!(ok("ruby", &["-esystem('id')"]), "system('id')");
        assert_eq!(ok("perl", &["-le", "print 1"]), "print 1");
        assert_eq!(ok("perl", &["-neprint"]), "print");
        assert_eq!(ok("python3", &["-cprint(1)"]), "print(1)");
        assert_eq!(ok("python3", &["-Ic", "print(1)"]), "print(1)");
        assert_eq!(ok("php", &["-recho 1;"]), "echo 1;");
        assert_eq!(ok("lua", &["-eos.exit()"]), "os.exit()");
        assert_eq!(ok("julia", &["--eval=run(`ls`)"]), "run(`ls`)");
        assert_eq!(ok("node", &["--eval=1"]), "1");
        // node itself rejects `-e'1'`; the shown code is judged anyway.
        assert_eq!(ok("node", &["-e1"]), "1");
    }

    #[test]
    fn value_options_consume_their_value_so_it_is_not_the_script() {
        assert_eq!(ok("ruby", &["-r", "socket", "-e", "x"]), "x");
        assert_eq!(ok("python3", &["-W", "ignore", "-c", "x"]), "x");
        assert_eq!(ok("node", &["-r", "ts-node/register", "-e", "x"]), "x");
        assert_eq!(ok("lua", &["-l", "socket", "-e", "x"]), "x");
        assert_eq!(ok("Rscript", &["-e", "a", "-e", "b"]), "a\nb");
    }

    #[test]
    fn scripts_modules_and_debugged_programs_are_not_inline_code() {
        assert!(code("python3", &["tool.py", "-c", "x"]).is_none());
        assert!(code("python3", &["-m", "http.server"]).is_none());
        assert!(code("gdb", &["--args", "prog", "-ex", "!id"]).is_none());
        assert!(code("php", &["-f", "x.php"]).is_none());
        assert!(code("deno", &["run", "x.ts"]).is_none());
        assert!(code("pwsh", &["-File", "x.ps1"]).is_none());
        assert!(code("tclsh", &["x.tcl"]).is_none());
        assert!(code("sbcl", &["--script", "x.lisp"]).is_none());
    }

    #[test]
    fn python_code_ends_its_options() {
        assert_eq!(ok("python3", &["-c", "x", "-c", "y"]), "x");
    }

    #[test]
    fn subcommand_and_operand_code() {
        assert_eq!(ok("deno", &["eval", "Deno.exit()"]), "Deno.exit()");
        assert_eq!(ok("deno", &["eval", "-p", "1+1"]), "1+1");
        assert_eq!(ok("deno", &["eval", "--ext", "ts", "x"]), "x");
        assert_eq!(ok("powershell", &["Get-Date;", "ls"]), "Get-Date; ls");
        assert!(code("pwsh", &["script.ps1"]).is_none());
    }

    #[test]
    fn powershell_options_are_case_insensitive_prefixes() {
        for spelling in ["-c", "-C", "-Command", "-command", "-Comm", "--command"] {
            assert_eq!(
                ok("pwsh", &["-NoProfile", spelling, "Remove-Item", "x"]),
                "Remove-Item x",
                "{spelling}"
            );
        }
        assert_eq!(ok("pwsh", &["-ExecutionPolicy", "Bypass", "-c", "x"]), "x");
        assert!(matches!(code("pwsh", &["-enc", "SQBFAFgA"]), Some(Err(_))));
        assert!(matches!(
            code("pwsh", &["-EncodedCommand", "SQBFAFgA"]),
            Some(Err(_))
        ));
        assert_eq!(ok("pwsh", &["-Command", "-"]), "STDIN");
    }

    #[test]
    fn repeated_code_options_are_joined() {
        assert_eq!(ok("osascript", &["-e", "a", "-e", "b"]), "a\nb");
        assert_eq!(
            ok("gdb", &["-batch", "-ex", "run", "-ex", "!id"]),
            "run\n!id"
        );
        assert_eq!(ok("gdb", &["-p", "123", "--eval-command=!id"]), "!id");
        assert_eq!(ok("dc", &["-e", "!id"]), "!id");
        assert_eq!(ok("dc", &["--expression=!id"]), "!id");
    }

    #[test]
    fn stdin_is_code_only_without_a_script() {
        assert_eq!(ok("python3", &["-"]), "STDIN");
        assert_eq!(ok("lua", &[]), "STDIN");
        assert_eq!(ok("tclsh", &[]), "STDIN");
        assert!(code("gdb", &[]).is_none());
    }

    #[test]
    fn code_source_tells_stdin_from_inline_and_files() {
        let src = |p: &str, a: &[&str]| {
            let args: Vec<Option<String>> = a.iter().map(|s| Some(s.to_string())).collect();
            code_source(lookup(p).unwrap(), &args)
        };
        assert_eq!(src("python3", &["-"]), CodeSource::Stdin);
        assert_eq!(src("python3", &[]), CodeSource::Stdin);
        assert_eq!(src("python3", &["-c", "x"]), CodeSource::Inline);
        assert_eq!(src("python3", &["-mjson.tool"]), CodeSource::File);
        assert_eq!(src("python3", &["/dev/stdin"]), CodeSource::File);
        assert_eq!(src("ruby", &["-rsocket", "-e", "x"]), CodeSource::Inline);
        assert_eq!(src("lua", &["x.lua"]), CodeSource::File);
    }

    #[test]
    fn unknown_code_is_an_error_not_a_guess() {
        let args = vec![Some("-e".to_string()), None];
        assert!(matches!(
            inline_code(lookup("lua").unwrap(), &args, None),
            Some(Err(_))
        ));
        assert!(matches!(code("lua", &["-e"]), Some(Err(_))));
    }
}
