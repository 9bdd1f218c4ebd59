//! SG3306: `git stash drop` and `git stash clear`.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `git stash drop` and `git stash clear`, after any git global options.
    ///
    /// ## Why is this bad?
    /// Stashes hold work that was set aside, never committed; dropped stashes are only
    /// findable as dangling commits until the next garbage collection.
    ///
    /// ## Example
    /// ```sh
    /// git stash clear    # approve
    /// git stash pop      # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `git stash pop` that conflicts keeps the stash, so it is not flagged.
    pub struct StashDrop;
    code: "SG3306",
    name: "git-stash-drop",
    severity: Approve,
    category: Git,
    hermes: [],
    programs: ["git"],
    summary: "git stash drop/clear deletes stashed work",
    pass: ["git stash", "git stash pop", "git stash list", "git stash push -m drop", "echo git stash clear"],
    fail: ["git stash drop", "git stash -q drop", "git stash drop stash@{1}", "git stash clear", "git -C repo stash clear", "git stash drop -q"],
}

impl Rule for StashDrop {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let subs: Vec<&str> = cmd
            .opts
            .subcommand
            .iter()
            .map(|(s, _)| s.as_str())
            .collect();
        let what = match subs.as_slice() {
            ["stash", "drop", ..] => "git stash drop deletes a stash entry",
            ["stash", "clear", ..] => "git stash clear deletes every stash entry",
            _ => return,
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!("{what}{}", route(cmd)),
        ));
    }
}
