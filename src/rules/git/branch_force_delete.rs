//! SG3304: `git branch -D` and its long spellings.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `git branch -D`, and `-d`/`--delete` combined with `-f`/`--force` in any order
    /// or cluster (`-df`, `--delete --force`, `--force --delete`). `git branch -d` alone,
    /// which refuses to delete unmerged work, is allowed.
    ///
    /// ## Why is this bad?
    /// A force delete removes a branch even when its commits are merged nowhere; they then
    /// survive only in the reflog, until it expires.
    ///
    /// ## Example
    /// ```sh
    /// git branch -D feature     # approve
    /// git branch -d feature     # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Deleting remote-tracking branches (`-r -D`) is treated like local ones.
    pub struct BranchForceDelete;
    code: "SG3304",
    name: "git-branch-force-delete",
    severity: Approve,
    category: Git,
    hermes: [SHORT = "git branch force delete", LONG = "git branch force delete (long flags)", LONG_FORCE_FIRST = "git branch force delete (long flags, force-first)"],
    programs: ["git"],
    summary: "git branch -D deletes unmerged branches",
    pass: ["git branch -d feature", "git branch --delete feature", "git branch -f main HEAD~1", "git branch", "git commit -m 'branch -D x'", "echo git branch -D x"],
    fail: ["git branch -D feature", "git branch -d -f feature", "git branch -df feature", "git branch --delete --force feature", "git branch --force --delete feature", "git -C repo branch -D a b", "git branch -D $(git branch --merged)"],
}

impl Rule for BranchForceDelete {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        if a.sub() != Some("branch") {
            return;
        }
        let key = if a.short('D') {
            BranchForceDelete::SHORT
        } else if a.long("delete") && a.long("force") {
            let at = |n: &str| a.own().iter().position(|o| o.long && o.name == n);
            let (d, f) = (at("delete"), at("force"));
            if f < d {
                BranchForceDelete::LONG_FORCE_FIRST
            } else {
                BranchForceDelete::LONG
            }
        } else if a.flag('d', "delete") && a.flag('f', "force") {
            BranchForceDelete::SHORT
        } else {
            return;
        };
        let names = a
            .operand_words(cmd.args())
            .iter()
            .map(|w| w.shown())
            .collect::<Vec<_>>()
            .join(" ");
        let mut f = Finding::on(
            &Self::META,
            cmd,
            format!(
                "git branch force-deletes {names} even if its commits are merged nowhere{}",
                route(cmd)
            ),
        );
        f.hermes = vec![key];
        out.push(f);
    }
}
