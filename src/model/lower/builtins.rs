//! Builtins that change the shell's state, function calls, and programs that run other commands.

use std::rc::Rc;

use super::{Block, FnBody, Lowerer, is_shell, shorten};
use crate::Span;
use crate::model::env::{Env, VarValue};
use crate::model::opts::{self, grammars};
use crate::model::wrappers::{self};
use crate::model::{Assignment, CmdId, Origin, OriginKind, OriginStep, Word};

/// One command reaching a builtin or a program that runs code.
struct Call<'c> {
    id: CmdId,
    name: &'c str,
    argv: &'c [Word],
    args: &'c [Word],
    span: Span,
    origin: &'c Origin,
    stdin: Option<String>,
}

impl Lowerer<'_> {
    /// Builtins that change the shell's state, and programs that run code.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::model) fn builtin_or_nested(
        &mut self,
        id: CmdId,
        name: &str,
        argv: &[Word],
        env: &mut Env,
        child: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        recursive: bool,
    ) -> Option<Block> {
        let span = self
            .script
            .commands
            .get(id)
            .map(|c| c.span)
            .unwrap_or_default();
        let args = argv.get(1..).unwrap_or(&[]);
        // Functions take precedence over builtins and programs, as in bash.
        if let Some(f) = env.functions.get(name).cloned() {
            return self.call_function(f, name, args, env, origin, stdin, recursive, span);
        }
        let c = Call {
            id,
            name,
            argv,
            args,
            span,
            origin,
            stdin,
        };
        match name {
            "printf" if args.first().and_then(|w| w.lit()).as_deref() == Some("-v") => {
                self.printf_to_var(c, env)
            }
            "read" => self.read_builtin(c, env),
            "export" | "declare" | "typeset" | "local" | "readonly" => self.declare_builtin(c, env),
            "cd" | "pushd" => self.change_dir(c, env),
            "popd" => self.pop_dir(c, env),
            "eval" => self.eval_builtin(c, env),
            "source" | "." => self.source_builtin(c, env),
            _ if is_shell(name) => self.shell_program(c, child),
            "find" => self.find_exec(c, child),
            "at" | "batch" => self.at_batch(c, child),
            _ => self.other_program(c, env, child),
        }
    }

    /// `printf -v VAR FMT ARGS` assigns instead of printing.
    fn printf_to_var(&mut self, c: Call<'_>, env: &mut Env) -> Option<Block> {
        let Call { id, argv, args, .. } = c;
        // `printf -v VAR FMT ARGS` assigns instead of printing.
        let var = args.get(1).and_then(|w| w.lit())?;
        let mut c = self.script.commands.get(id)?.clone();
        c.argv = std::iter::once(argv[0].clone())
            .chain(args.iter().skip(2).cloned())
            .collect();
        let value = crate::model::payload::output_of(&c, None);
        env.set(
            &var,
            match value {
                Some(v) => VarValue::Known(v),
                None => {
                    VarValue::Unknown(format!("${var} is set by `printf -v` to a run-time value"))
                }
            },
        );
        Some(Block::empty_output())
    }

    /// `read A B`: the variables get the input line's fields when the input is known.
    fn read_builtin(&mut self, c: Call<'_>, env: &mut Env) -> Option<Block> {
        let Call { args, stdin, .. } = c;
        // `read A B <<< "x y"`: with known input the variables are known.
        // Read by read's grammar: `-p PROMPT`, `-d DELIM` values are not names.
        let names: Vec<String> = opts::parse(&grammars::READ, args)
            .operand_words(args)
            .iter()
            .filter_map(|w| w.lit())
            .collect();
        let first = stdin
            .as_deref()
            .map(|s| s.lines().next().unwrap_or("").to_string());
        let fields: Vec<String> = first
            .as_deref()
            .map(|l| l.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        for (i, n) in names.iter().enumerate() {
            let v = match &first {
                Some(_) if i + 1 == names.len() => {
                    Some(fields.get(i..).map(|r| r.join(" ")).unwrap_or_default())
                }
                Some(_) => Some(fields.get(i).cloned().unwrap_or_default()),
                None => None,
            };
            env.set(
                n,
                match v {
                    Some(v) => VarValue::Known(v),
                    None => VarValue::Unknown(format!("${n} is read from input at run time")),
                },
            );
        }
        Some(Block::empty_output())
    }

    /// `export`/`declare`/... reached as a program: the same assignments as the declaration syntax.
    fn declare_builtin(&mut self, c: Call<'_>, env: &mut Env) -> Option<Block> {
        let Call { id, name, args, .. } = c;
        // Reached as a program (`''export`, `builtin export`, `command declare`):
        // the same assignments as the declaration syntax.
        for w in args {
            let Some((n, v)) = wrappers::split_assignment(w) else {
                continue;
            };
            let value = match v.lit() {
                Some(t) => VarValue::Known(t),
                None => VarValue::Unknown(format!(
                    "${n} is assigned `{}`, only known at run time",
                    shorten(&v.raw)
                )),
            };
            env.set(&n, value);
            if name == "export" {
                env.export(&n);
            }
            // Rules read assignments off the command, however it was spelled.
            if let Some(c) = self.script.commands.get_mut(id) {
                c.assignments.push(Assignment {
                    name: n.clone(),
                    value: v.clone(),
                    span: w.span,
                });
            }
        }
        Some(Block::empty_output())
    }

    /// `cd`/`pushd`: the working directory later commands resolve paths against.
    fn change_dir(&mut self, c: Call<'_>, env: &mut Env) -> Option<Block> {
        let Call { name, args, .. } = c;
        // Read by cd's grammar: `-P`, `-L` are options, `-` and `--` are not directories.
        let target = opts::parse(&grammars::CD, args)
            .operand_words(args)
            .first()
            .copied();
        let new = match target {
            None if name == "cd" => env.home.clone(),
            None => None,
            Some(w) => match w.lit() {
                Some(v) if v == "-" => None,
                Some(v) => crate::model::paths::resolve(&v, env.cwd.as_deref()),
                None => None,
            },
        };
        if name == "pushd" {
            env.dir_stack.push(env.cwd.clone());
        }
        env.cwd = new;
        None
    }

    /// `popd`: back to the directory `pushd` left.
    fn pop_dir(&mut self, _c: Call<'_>, env: &mut Env) -> Option<Block> {
        env.cwd = env.dir_stack.pop().flatten();
        None
    }

    /// `eval ARGS`: the joined arguments are shell code.
    fn eval_builtin(&mut self, c: Call<'_>, env: &mut Env) -> Option<Block> {
        let Call {
            args,
            origin,
            stdin,
            ..
        } = c;
        if args.is_empty() {
            return None;
        }
        let code = wrappers::join_code(args);
        Some(self.lower_code(&code, OriginKind::Eval, "eval", env, origin, None, stdin))
    }

    /// `source FILE`: code from stdin, a process substitution, or a file written earlier.
    fn source_builtin(&mut self, c: Call<'_>, env: &mut Env) -> Option<Block> {
        let Call {
            name,
            args,
            span,
            origin,
            stdin,
            ..
        } = c;
        // `source /dev/stdin` runs what is piped in.
        if args
            .first()
            .and_then(|w| w.lit())
            .is_some_and(|f| f == "/dev/stdin" || f == "/proc/self/fd/0" || f == "/dev/fd/0")
        {
            let code = stdin?;
            let w = Word::literal(&code, span);
            return Some(self.lower_code(
                &w,
                OriginKind::StdinToShell,
                &format!("piped into {name} /dev/stdin"),
                env,
                origin,
                Some(span),
                None,
            ));
        }
        if let Some(out) = process_subst_output(args.first()?) {
            let w = Word::literal(&out, span);
            return Some(self.lower_code(
                &w,
                OriginKind::ProcessSubstitution,
                "source <(..) with known output",
                env,
                origin,
                Some(span),
                None,
            ));
        }
        let file = args.first()?.lit()?;
        let path = crate::model::paths::resolve(&file, env.cwd.as_deref())?;
        let content = self.files.get(&path)?.clone();
        let w = Word::literal(&content, span);
        Some(self.lower_code(
            &w,
            OriginKind::WrittenScript,
            &format!("source {file} (written earlier)"),
            env,
            origin,
            None,
            None,
        ))
    }

    /// A shell as a program: `bash -c`, `sh script`, code on stdin.
    fn shell_program(&mut self, c: Call<'_>, child: &mut Env) -> Option<Block> {
        self.lower_shell(c.name, c.args, child, c.origin, c.stdin, c.span, Some(c.id))
    }

    /// `find -exec CMD {} ;` runs CMD.
    fn find_exec(&mut self, c: Call<'_>, child: &mut Env) -> Option<Block> {
        let Call {
            args, span, origin, ..
        } = c;
        let mut out = Block::default();
        for (cmd_words, detail) in find_exec_clauses(args) {
            let step = OriginStep {
                kind: OriginKind::FindExec,
                span,
                detail,
            };
            let b = self.run_argv(
                cmd_words,
                Vec::new(),
                Vec::new(),
                span,
                child,
                &origin.push(step),
                None,
                None,
            );
            out.commands.extend(b.commands);
        }
        Some(out)
    }

    /// `at` and `batch` run their stdin (or `-f FILE`) later, as shell code.
    fn at_batch(&mut self, c: Call<'_>, child: &mut Env) -> Option<Block> {
        let Call {
            name,
            span,
            origin,
            stdin,
            ..
        } = c;
        // `at` and `batch` run their stdin (or `-f FILE`) later, as shell code.
        let code = stdin?;
        let w = Word::literal(&code, span);
        Some(self.lower_code(
            &w,
            OriginKind::StdinToShell,
            &format!("piped into {name} (runs later)"),
            child,
            origin,
            Some(span),
            None,
        ))
    }

    /// Programs that run code: hooks written out on the command line, scripts written earlier, inline interpreter code.
    fn other_program(&mut self, c: Call<'_>, env: &Env, child: &mut Env) -> Option<Block> {
        let Call {
            id,
            name,
            argv,
            span,
            origin,
            ..
        } = c;
        // Code run through another program's hook, when it is written out: shell hooks
        // from the exec-hook table, and the `system()` literals of an awk program.
        let mut hooks: Vec<(String, String)> = Vec::new();
        if let Some(cmd) = self.script.commands.get(id) {
            for h in crate::model::hooks::of_command(cmd) {
                if let Some(code) = h.lowered() {
                    hooks.push((code.to_string(), h.detail.clone()));
                }
            }
            if matches!(name, "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk") {
                for prog in crate::model::hooks::awk_programs(cmd.args(), &cmd.opts)
                    .into_iter()
                    .flatten()
                {
                    for s in crate::model::hooks::awk_system_literals(&prog) {
                        hooks.push((s, format!("{name} system()")));
                    }
                }
            }
        }
        if !hooks.is_empty() {
            let mut out = Block::default();
            for (code, detail) in hooks {
                let w = Word::literal(&code, span);
                let b = self.lower_code(
                    &w,
                    OriginKind::ShellString,
                    &detail,
                    child,
                    origin,
                    Some(span),
                    None,
                );
                out.commands.extend(b.commands);
            }
            return Some(out);
        }
        // Running a file written earlier in the script (`./x.sh`).
        if let Some(path) = argv
            .first()
            .and_then(|w| w.lit())
            .filter(|p| p.contains('/'))
            && let Some(content) = crate::model::paths::resolve(&path, env.cwd.as_deref())
                .and_then(|p| self.files.get(&p).cloned())
        {
            let w = Word::literal(&content, span);
            return Some(self.lower_code(
                &w,
                OriginKind::WrittenScript,
                &format!("{path} (written earlier)"),
                child,
                origin,
                Some(span),
                None,
            ));
        }
        crate::model::inline::lower_inline(self, id, name, argv, child, origin)
    }

    #[allow(clippy::too_many_arguments)]
    pub(in crate::model) fn call_function(
        &mut self,
        f: Rc<FnBody>,
        name: &str,
        args: &[Word],
        env: &mut Env,
        origin: &Origin,
        stdin: Option<String>,
        recursive: bool,
        span: Span,
    ) -> Option<Block> {
        if recursive || self.fn_stack.len() >= self.limits.max_fn_depth {
            return None;
        }
        if let Some(c) = self.called.get_mut(f.index) {
            *c = true;
        }
        if let Some(d) = self.script.functions.get_mut(f.index) {
            d.called = true;
        }
        let saved = (env.positional.clone(), env.arg0.clone());
        env.positional = Some(args.iter().map(word_var).collect());
        self.fn_stack.push(name.to_string());
        let step = OriginStep {
            kind: OriginKind::Function,
            span,
            detail: format!("function {name}"),
        };
        let b = self.lower_stmt(&f.src, f.node, env, &origin.push(step), stdin, &[]);
        self.fn_stack.pop();
        env.positional = saved.0;
        env.arg0 = saved.1;
        Some(b)
    }
}

pub(super) fn word_var(w: &Word) -> VarValue {
    match w.lit() {
        Some(v) => VarValue::Known(v),
        None => VarValue::Unknown(format!("`{}` is only known at run time", w.raw)),
    }
}

/// The known output of a `<(..)` word, when the word is exactly one process substitution.
pub(super) fn process_subst_output(w: &Word) -> Option<String> {
    match w.substitutions.as_slice() {
        [s] if s.kind == crate::model::SubstKind::ProcessIn && w.pieces.len() == 1 => {
            s.output.clone()
        }
        _ => None,
    }
}

/// The commands `find` runs through `-exec`, `-execdir`, `-ok`, `-okdir`.
pub(super) fn find_exec_clauses(args: &[Word]) -> Vec<(Vec<Word>, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].lit().unwrap_or_default();
        if matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            let mut cmd = Vec::new();
            let mut j = i + 1;
            while j < args.len() {
                let t = args[j].lit().unwrap_or_default();
                if t == ";" || t == "+" {
                    break;
                }
                let w = &args[j];
                let replaced = if w.pieces.iter().any(
                    |p| matches!(p, crate::model::Piece::Lit { text, .. } if text.contains("{}")),
                ) {
                    let mut x = w.clone();
                    let mut pieces = Vec::new();
                    for p in &w.pieces {
                        match p {
                            crate::model::Piece::Lit { text, quoted } if text.contains("{}") => {
                                for (n, part) in text.split("{}").enumerate() {
                                    if n > 0 {
                                        pieces.push(crate::model::Piece::Unknown {
                                            reason: "a path found by find".into(),
                                            may_be_empty: false,
                                        });
                                    }
                                    if !part.is_empty() {
                                        pieces.push(crate::model::Piece::Lit {
                                            text: part.to_string(),
                                            quoted: *quoted,
                                        });
                                    }
                                }
                            }
                            p => pieces.push(p.clone()),
                        }
                    }
                    x.pieces = pieces;
                    x
                } else {
                    w.clone()
                };
                cmd.push(replaced);
                j += 1;
            }
            if !cmd.is_empty() {
                out.push((cmd, format!("find {a}")));
            }
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}
