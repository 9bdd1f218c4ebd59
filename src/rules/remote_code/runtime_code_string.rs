//! SG4003: `eval`, `source` or `sh -c` of code built at run time.

use std::collections::BTreeSet;

use petgraph::graph::NodeIndex;

use super::{code_paths, node_command};
use crate::declare_rule;
use crate::graph::FlowNode;
use crate::model::opts::shell::shell_args;
use crate::model::{Command, SubstKind, Word, is_shell};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `eval` of anything not fully literal (`eval "$CMD"`, `eval "$(ssh-agent -s)"`),
    /// `sh -c`/`bash -c`/`zsh -c` whose code string holds a variable or substitution
    /// (`sh -c "$x"`, `bash -c "$(cat f)"`, `sh -c "cd $DIR && make"`), `source`/`.` of a
    /// file named at run time or of a process substitution (`source <(kubectl completion
    /// bash)`), and a shell running a process substitution (`bash <(cmd)`). Code that is
    /// literal (`sh -c 'echo hi'`, `bash -c 'echo $1' _ "$x"`) is analysed like any other
    /// code and not flagged. When the string comes from the network or a decoder, SG4001 or
    /// SG4002 reports it instead. The fixed output of a program on the one list of known
    /// generators (`src/rules/remote_code/generators.rs`: `eval "$(pyenv init -)"`,
    /// `eval "$(direnv hook bash)"`, `eval "$(brew shellenv)"`, `source <(kubectl
    /// completion bash)`, ...) is allowed.
    ///
    /// ## Why is this bad?
    /// The code that runs is only known when it runs: a variable holding `; rm -rf ~` runs
    /// it. Neither shellgate nor the person approving can see it.
    ///
    /// ## Example
    /// ```sh
    /// eval "$CMD"                 # approve
    /// bash -c 'echo $1' _ "$x"    # allow: the code is literal, `$x` is only an argument
    /// ```
    ///
    /// ## Known limitations
    /// A variable assigned a literal earlier in the same command is expanded by the core and
    /// then the code counts as literal; values from the harness environment are not known.
    pub struct RuntimeCodeString;
    code: "SG4003",
    name: "runtime-code-string",
    severity: Approve,
    category: RemoteCode,
    hermes: ["shell command via -c/-lc flag"],
    programs: [],
    summary: "eval, source or sh -c of a string built at run time",
    pass: ["sh -c 'echo hi'", "bash -c 'echo $1' _ \"$x\"", "eval 'echo hi'", "X='ls -l'; eval \"$X\"", "source venv/bin/activate", "eval \"$(pyenv init -)\"", "eval \"$(direnv hook bash)\"", "eval \"$(/opt/homebrew/bin/brew shellenv)\"", "source <(kubectl completion bash)"],
    fail: ["eval \"$CMD\"", "sh -c \"$x\"", "bash -c \"$(cat f)\"", "eval \"$(ssh-agent -s) $X\"", "source \"$ENV_FILE\"", "source <(cat \"$F\")", "bash -lc \"cd $DIR && make\"", "eval \"$(./pyenv init -)\"", "eval \"$(pyenv init - | sed s/a/b/)\"", "eval \"$(pyenv exec python gen.py)\""],
}

/// The code word of `sh -c CODE`, when the shell has `-c`.
fn shell_code(cmd: &Command) -> Option<&Word> {
    let args = cmd.args();
    let shell = shell_args(args);
    if shell.code_string {
        args.get(shell.rest)
    } else {
        None
    }
}

/// The first operand of a shell without `-c` (its script file), read by the shells' argv
/// reader (`-o pipefail` and `--rcfile FILE` take a value).
fn shell_script(cmd: &Command) -> Option<&Word> {
    let args = cmd.args();
    args.get(shell_args(args).rest)
}

/// A process substitution whose output is not plain literal text (`<(echo 'ls')` is).
fn has_process_subst(cx: &Cx, w: &Word) -> bool {
    w.substitutions.iter().any(|s| {
        s.kind == SubstKind::ProcessIn
            && !(s.commands.len() == s.producers.len()
                && s.producers.iter().all(|&p| {
                    cx.script.command(p).is_some_and(|c| {
                        (c.is("echo") || c.is("printf")) && c.args().iter().all(Word::is_literal)
                    })
                }))
    })
}

impl Rule for RuntimeCodeString {
    fn check_script(&self, cx: &Cx, out: &mut Vec<Finding>) {
        // Sinks already reported as running network or decoded content.
        let covered: BTreeSet<usize> = code_paths(cx, &|n: NodeIndex| {
            matches!(cx.flow.graph[n], FlowNode::Network { .. })
                || node_command(cx.flow, cx.script, n).is_some_and(super::decoded_content_executed::obfuscating)
                || matches!(&cx.flow.graph[n], FlowNode::File { path } if path.starts_with("/dev/tcp/") || path.starts_with("/dev/udp/"))
        })
        .into_iter()
        .map(|(id, _)| id)
        .collect();
        for cmd in &cx.script.commands {
            if covered.contains(&cmd.id) {
                continue;
            }
            let Some(name) = cmd.name.as_deref() else {
                continue;
            };
            let (what, word) = match name {
                // `eval "$(pyenv init -)"`: the fixed output of a known generator.
                "eval" => match cmd.args().iter().find(|w| {
                    !w.is_literal() && !super::generators::is_generator_output(cx.script, w)
                }) {
                    Some(w) => ("eval of a string built at run time", w),
                    None => continue,
                },
                "source" | "." => match cmd.args().first() {
                    Some(w) if super::generators::is_generator_output(cx.script, w) => continue,
                    Some(w) if has_process_subst(cx, w) => {
                        ("source of a process substitution's output", w)
                    }
                    Some(w)
                        if w.substitutions
                            .iter()
                            .any(|s| s.kind == SubstKind::ProcessIn) =>
                    {
                        continue;
                    }
                    Some(w) if !w.is_literal() => ("source of a file named at run time", w),
                    _ => continue,
                },
                n if is_shell(n) => match shell_code(cmd) {
                    Some(w) if !w.is_literal() => ("shell -c with code built at run time", w),
                    Some(_) => continue,
                    None => match shell_script(cmd) {
                        Some(w) if has_process_subst(cx, w) => {
                            ("shell running a process substitution's output", w)
                        }
                        _ => continue,
                    },
                },
                _ => continue,
            };
            let mut f = Finding::on(
                &Self::META,
                cmd,
                format!("{what}: `{}`{}", w_text(word), route(cmd)),
            )
            .with_span(word.span);
            // The Hermes key names the `-c` form only.
            if !what.starts_with("shell -c") {
                f.hermes.clear();
            }
            out.push(f);
        }
    }
}

fn w_text(w: &Word) -> String {
    let t: String = w.raw.chars().take(80).collect();
    t
}
