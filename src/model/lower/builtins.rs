//! Builtins that change the shell's state, function calls, and programs that run other commands.

use std::rc::Rc;

use super::{Block, FnBody, Frame, Lowerer, NestedCode, is_shell, shorten};
use crate::Span;
use crate::model::env::{Env, VarValue};
use crate::model::inline::InlineRun;
use crate::model::opts::{self, grammars};
use crate::model::wrappers::{self};
use crate::model::{Assignment, CmdId, OriginKind, OriginStep, Word};

/// One command reaching a builtin or a program that runs code.
pub(super) struct Call<'c> {
    pub id: CmdId,
    pub name: &'c str,
    pub argv: &'c [Word],
    pub args: &'c [Word],
    pub span: Span,
    /// The command calls a function that is already running.
    pub recursive: bool,
}

impl Lowerer<'_> {
    /// Builtins that change the shell's state, and programs that run code. `f` is the
    /// shell's frame (its environment, the command's origin and stdin); `child` is the
    /// environment the command's process sees.
    pub(super) fn builtin_or_nested(
        &mut self,
        f: &mut Frame<'_>,
        child: &mut Env,
        c: Call<'_>,
    ) -> Option<Block> {
        // Functions take precedence over builtins and programs, as in bash.
        if let Some(body) = f.env.functions.get(c.name).cloned() {
            return self.call_function(f, body, &c);
        }
        let args = c.args;
        match c.name {
            "printf" if args.first().and_then(|w| w.lit()).as_deref() == Some("-v") => {
                self.printf_to_var(f, c)
            }
            "read" => self.read_builtin(f, c),
            "export" | "declare" | "typeset" | "local" | "readonly" => self.declare_builtin(f, c),
            "cd" | "pushd" => self.change_dir(f, c),
            "popd" => self.pop_dir(f),
            "eval" => self.eval_builtin(f, c),
            "source" | "." => self.source_builtin(f, c),
            name if is_shell(name) => {
                self.lower_shell(&mut f.in_env(child), name, args, c.span, Some(c.id))
            }
            "find" => self.find_exec(f, child, c),
            "at" | "batch" => self.at_batch(f, child, c),
            _ => self.other_program(f, child, c),
        }
    }

    /// `printf -v VAR FMT ARGS` assigns instead of printing.
    fn printf_to_var(&mut self, f: &mut Frame<'_>, c: Call<'_>) -> Option<Block> {
        let Call { id, argv, args, .. } = c;
        let var = args.get(1).and_then(|w| w.lit())?;
        let mut c = self.script.commands.get(id)?.clone();
        c.argv = std::iter::once(argv[0].clone())
            .chain(args.iter().skip(2).cloned())
            .collect();
        let value = crate::model::payload::output_of(&c, None);
        f.env.set(
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

    /// `read A B`: the variables get the input line's fields when the input is known
    /// (`read A B <<< "x y"`). Read by read's grammar: `-p PROMPT`, `-d DELIM` values are
    /// not names.
    fn read_builtin(&mut self, f: &mut Frame<'_>, c: Call<'_>) -> Option<Block> {
        let args = c.args;
        let names: Vec<String> = opts::parse(&grammars::READ, args)
            .operand_words(args)
            .iter()
            .filter_map(|w| w.lit())
            .collect();
        let first = f
            .stdin
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
            f.env.set(
                n,
                match v {
                    Some(v) => VarValue::Known(v),
                    None => VarValue::Unknown(format!("${n} is read from input at run time")),
                },
            );
        }
        Some(Block::empty_output())
    }

    /// `export`/`declare`/... reached as a program (`''export`, `builtin export`, `command
    /// declare`): the same assignments as the declaration syntax.
    fn declare_builtin(&mut self, f: &mut Frame<'_>, c: Call<'_>) -> Option<Block> {
        let Call { id, name, args, .. } = c;
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
            f.env.set(&n, value);
            if name == "export" {
                f.env.export(&n);
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

    /// `cd`/`pushd`: the working directory later commands resolve paths against. Read by
    /// cd's grammar: `-P`, `-L` are options, `-` and `--` are not directories.
    fn change_dir(&mut self, f: &mut Frame<'_>, c: Call<'_>) -> Option<Block> {
        let Call { name, args, .. } = c;
        let env = &mut *f.env;
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
    fn pop_dir(&mut self, f: &mut Frame<'_>) -> Option<Block> {
        f.env.cwd = f.env.dir_stack.pop().flatten();
        None
    }

    /// `eval ARGS`: the joined arguments are shell code, reading the command's stdin.
    fn eval_builtin(&mut self, f: &mut Frame<'_>, c: Call<'_>) -> Option<Block> {
        if c.args.is_empty() {
            return None;
        }
        let code = NestedCode::new(wrappers::join_code(c.args), OriginKind::Eval, "eval");
        Some(self.lower_code(f, &code, None))
    }

    /// `source FILE`: code from stdin, a process substitution, or a file written earlier.
    fn source_builtin(&mut self, f: &mut Frame<'_>, c: Call<'_>) -> Option<Block> {
        let Call {
            name, args, span, ..
        } = c;
        // `source /dev/stdin` runs what is piped in.
        if args
            .first()
            .and_then(|w| w.lit())
            .is_some_and(|p| p == "/dev/stdin" || p == "/proc/self/fd/0" || p == "/dev/fd/0")
        {
            let code = f.stdin.clone()?;
            let code = NestedCode::new(
                Word::literal(&code, span),
                OriginKind::StdinToShell,
                format!("piped into {name} /dev/stdin"),
            );
            return Some(self.lower_code(&mut f.with_stdin(None), &code, Some(span)));
        }
        if let Some(out) = process_subst_output(args.first()?) {
            let code = NestedCode::new(
                Word::literal(&out, span),
                OriginKind::ProcessSubstitution,
                "source <(..) with known output",
            );
            return Some(self.lower_code(&mut f.with_stdin(None), &code, Some(span)));
        }
        let file = args.first()?.lit()?;
        let path = crate::model::paths::resolve(&file, f.env.cwd.as_deref())?;
        let content = self.files.get(&path)?.clone();
        let code = NestedCode::new(
            Word::literal(&content, span),
            OriginKind::WrittenScript,
            format!("source {file} (written earlier)"),
        );
        Some(self.lower_code(&mut f.with_stdin(None), &code, None))
    }

    /// `find -exec CMD {} ;` runs CMD.
    fn find_exec(&mut self, f: &mut Frame<'_>, child: &mut Env, c: Call<'_>) -> Option<Block> {
        let Call { args, span, .. } = c;
        let mut out = Block::default();
        for (cmd_words, detail) in find_exec_clauses(args) {
            let step = OriginStep {
                kind: OriginKind::FindExec,
                span,
                detail,
            };
            let origin = f.origin.push(step);
            let mut cf = Frame::new(f.src, &mut *child, &origin, None);
            let b = self.run_argv(&mut cf, cmd_words, Vec::new(), Vec::new(), span, None);
            out.commands.extend(b.commands);
        }
        Some(out)
    }

    /// `at` and `batch` run their stdin (or `-f FILE`) later, as shell code.
    fn at_batch(&mut self, f: &mut Frame<'_>, child: &mut Env, c: Call<'_>) -> Option<Block> {
        let code = f.stdin.clone()?;
        let code = NestedCode::new(
            Word::literal(&code, c.span),
            OriginKind::StdinToShell,
            format!("piped into {} (runs later)", c.name),
        );
        let mut cf = Frame::new(f.src, child, f.origin, None);
        Some(self.lower_code(&mut cf, &code, Some(c.span)))
    }

    /// Programs that run code: hooks written out on the command line, scripts written
    /// earlier, inline interpreter code.
    fn other_program(&mut self, f: &mut Frame<'_>, child: &mut Env, c: Call<'_>) -> Option<Block> {
        let Call {
            id,
            name,
            argv,
            span,
            ..
        } = c;
        let mut cf = Frame::new(f.src, child, f.origin, None);
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
                let code =
                    NestedCode::new(Word::literal(&code, span), OriginKind::ShellString, detail);
                let b = self.lower_code(&mut cf, &code, Some(span));
                out.commands.extend(b.commands);
            }
            return Some(out);
        }
        // Running a file written earlier in the script (`./x.sh`).
        if let Some(path) = argv
            .first()
            .and_then(|w| w.lit())
            .filter(|p| p.contains('/'))
            && let Some(content) = crate::model::paths::resolve(&path, f.env.cwd.as_deref())
                .and_then(|p| self.files.get(&p).cloned())
        {
            let code = NestedCode::new(
                Word::literal(&content, span),
                OriginKind::WrittenScript,
                format!("{path} (written earlier)"),
            );
            return Some(self.lower_code(&mut cf, &code, Some(span)));
        }
        self.lower_inline(&mut cf, id, name, argv)
    }

    /// Inline interpreter code (`python3 -c CODE`): its capabilities go on the command, and
    /// its literal shell-outs and file calls are lowered as the commands they are.
    fn lower_inline(
        &mut self,
        f: &mut Frame<'_>,
        id: CmdId,
        name: &str,
        argv: &[Word],
    ) -> Option<Block> {
        let cmd = self.script.commands.get(id)?;
        let span = cmd.span;
        let (code, runs) = crate::model::inline::read(name, argv, cmd.stdin_text.as_deref(), span)?;
        if let Some(c) = self.script.commands.get_mut(id) {
            c.inline = Some(code);
        }
        let mut out = Block::default();
        for run in runs? {
            let b = match run {
                InlineRun::ShellOut(code) => self.lower_code(f, &code, Some(span)),
                InlineRun::FileCall { argv, call } => {
                    let step = OriginStep {
                        kind: OriginKind::Interpreter,
                        span,
                        detail: format!("{name} {call}"),
                    };
                    let origin = f.origin.push(step);
                    let mut cf = Frame::new(f.src, &mut *f.env, &origin, None);
                    self.run_argv(&mut cf, argv, Vec::new(), Vec::new(), span, Some(call))
                }
            };
            out.commands.extend(b.commands);
        }
        Some(out)
    }

    /// A call of a function defined earlier: its body runs with the call's arguments as
    /// `$1`..., in the shell's own environment.
    fn call_function(
        &mut self,
        f: &mut Frame<'_>,
        body: Rc<FnBody>,
        c: &Call<'_>,
    ) -> Option<Block> {
        if c.recursive || self.fn_stack.len() >= self.limits.max_fn_depth {
            return None;
        }
        if let Some(called) = self.called.get_mut(body.index) {
            *called = true;
        }
        if let Some(d) = self.script.functions.get_mut(body.index) {
            d.called = true;
        }
        let saved = (f.env.positional.clone(), f.env.arg0.clone());
        f.env.positional = Some(c.args.iter().map(word_var).collect());
        self.fn_stack.push(c.name.to_string());
        let step = OriginStep {
            kind: OriginKind::Function,
            span: c.span,
            detail: format!("function {}", c.name),
        };
        let origin = f.origin.push(step);
        let stdin = f.stdin.clone();
        let b = self.lower_stmt(
            &mut Frame::new(&body.src, &mut *f.env, &origin, stdin),
            body.node,
            &[],
        );
        self.fn_stack.pop();
        f.env.positional = saved.0;
        f.env.arg0 = saved.1;
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
