//! SG3116: `shellgate undo` run by an agent: it overwrites files with what a checkpoint
//! holds and moves git refs back.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `shellgate undo` (with or without a checkpoint id, with `--force`), unless it
    /// only shows what it would restore (`--dry-run`). `shellgate checkpoints` (listing)
    /// is allowed.
    ///
    /// ## Why is this bad?
    /// `undo` puts back the files a checkpoint holds over whatever is there now, recreates
    /// deleted branches, stores dropped stash entries and moves a branch back with
    /// `git reset --keep`; with `--force` it also overwrites work done after the command.
    /// That is a person's decision about their own files: an agent that could undo at will
    /// could roll back the person's edits, or replay files the person deleted on purpose.
    ///
    /// ## Example
    /// ```sh
    /// shellgate undo 42            # approve
    /// shellgate undo --force       # approve
    /// shellgate undo --dry-run     # allowed
    /// shellgate checkpoints --json # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Only the `shellgate` program is recognised. Writing into or deleting the checkpoint
    /// store by other means is judged by the path catalog, which protects shellgate's state
    /// (`~/.local/state/shellgate/checkpoints`); git run on the store with `--git-dir` is not
    /// a path write and is not recognised.
    pub struct UndoByAgent;
    code: "SG3116",
    name: "shellgate-undo",
    severity: Approve,
    category: SelfProtection,
    hermes: [],
    programs: ["shellgate"],
    summary: "shellgate undo overwrites files with a checkpoint's copies",
    pass: ["shellgate undo --dry-run", "shellgate undo 3 --dry-run", "shellgate checkpoints", "shellgate checkpoints list --json", "echo shellgate undo", "shellgate check 'shellgate undo'", "shellgate undo --help"],
    fail: ["shellgate undo", "shellgate undo 42", "shellgate undo --force 7", "bash -c 'shellgate undo'", "~/.cargo/bin/shellgate undo 3", "cd src && shellgate undo"],
}

impl Rule for UndoByAgent {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let o = &cmd.opts;
        if o.sub() != Some("undo") || o.long("dry-run") || o.long("help") {
            return;
        }
        let force = if o.long("force") {
            ", including work done after the command (--force)"
        } else {
            ""
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!(
                "shellgate undo overwrites files with a checkpoint's copies and moves git refs back{force}: a person decides that{}",
                route(cmd)
            ),
        ));
    }
}
