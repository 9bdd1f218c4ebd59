//! SG3301: `git reset --hard` (and its unambiguous prefixes).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `git reset --hard`, also written as a prefix git accepts (`--h`, `--ha`,
    /// `--har`), after any git global options (`git -C repo reset --hard`), through wrappers
    /// and nested code. Words after `--` are paths, and other subcommands' arguments
    /// (`git commit -m 'reset --hard'`) are not options of reset.
    ///
    /// ## Why is this bad?
    /// It throws away every uncommitted change in the index and the work tree; those
    /// changes were never committed, so no reflog can bring them back.
    ///
    /// ## Example
    /// ```sh
    /// git reset --hard HEAD~1    # approve
    /// git reset --soft HEAD~1    # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Git aliases that expand to `reset --hard` are not resolved.
    pub struct ResetHard;
    code: "SG3301",
    name: "git-reset-hard",
    severity: Approve,
    category: Git,
    hermes: ["git reset --hard (destroys uncommitted changes)"],
    programs: ["git"],
    summary: "git reset --hard destroys uncommitted changes",
    pass: ["git reset", "git reset --soft HEAD~1", "git reset HEAD file.txt", "git commit -m 'reset --hard'", "echo git reset --hard", "git reset -- --hard", "git log --hard"],
    fail: ["git reset --hard", "git reset --hard origin/main", "git -C repo reset --hard", "git -c core.x=y --no-pager reset -q --hard HEAD", "git reset --har", "git reset --h", "sudo git reset --hard", "bash -c 'git reset --hard'"],
}

impl Rule for ResetHard {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        if a.sub() != Some("reset") {
            return;
        }
        // `--h` is ambiguous to getopt (`--hard`, `--help`), but git reads it as `--hard`.
        let hard = a
            .own()
            .iter()
            .find(|o| o.long && !o.name.is_empty() && "hard".starts_with(o.name.as_str()));
        if let Some(o) = hard
            && let Some(w) = cmd.args().get(o.word)
        {
            let t = w.shown();
            out.push(
                Finding::on(
                    &Self::META,
                    cmd,
                    format!("git reset {t} discards every uncommitted change in the index and work tree{}", route(cmd)),
                )
                .with_span(w.span),
            );
        }
    }
}
