//! SG3305: discarding work-tree changes wholesale (`git checkout -- .`, `git restore .`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `git checkout -- .`, `git checkout .` (also `:/`, `*`, `./`, or
    /// `git checkout REV -- .`), `git checkout -f`/`--force`, `git restore .` and
    /// `git restore --worktree|--source=X .` (not `git restore --staged .`, which only
    /// unstages), and `git switch --discard-changes|-f`.
    ///
    /// ## Why is this bad?
    /// Every uncommitted edit in the work tree is overwritten with the committed version;
    /// those edits were never stored anywhere git can recover them from.
    ///
    /// ## Example
    /// ```sh
    /// git checkout -- .          # approve
    /// git restore --staged .     # allowed: unstages only
    /// git checkout main          # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Restoring a single named file (`git checkout -- a.txt`) is allowed.
    pub struct DiscardChanges;
    code: "SG3305",
    name: "git-discard-worktree-changes",
    severity: Approve,
    category: Git,
    hermes: [],
    programs: ["git"],
    summary: "git checkout -- . / git restore . discard uncommitted changes",
    pass: ["git checkout main", "git checkout -b feature", "git restore --staged .", "git checkout -- src/a.rs", "git restore README.md", "echo git checkout .", "git commit -m 'checkout .'"],
    fail: ["git checkout -- .", "git checkout .", "git checkout HEAD -- .", "git restore .", "git restore --worktree --staged .", "git restore --source=HEAD~2 :/", "git checkout -f main", "git switch --discard-changes main", "git -C app checkout -- ."],
}

/// Does this pathspec cover the whole work tree?
fn whole_tree(p: &str) -> bool {
    matches!(
        p,
        "." | "./" | ":/" | ":/." | "*" | ":(top)" | ":(glob)**" | "**"
    )
}

impl Rule for DiscardChanges {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        let operands = a.operand_words(cmd.args());
        let what = match a.sub().unwrap_or_default() {
            "checkout" => {
                if a.long("help") {
                    return;
                }
                if let Some(p) = operands
                    .iter()
                    .filter_map(|w| w.lit())
                    .find(|t| whole_tree(t))
                {
                    format!("git checkout {p} overwrites every uncommitted change in the work tree")
                } else if a.flag('f', "force") {
                    "git checkout -f throws away local changes while switching".to_string()
                } else {
                    return;
                }
            }
            "restore" => {
                let staged = a.flag('S', "staged");
                let worktree = a.flag('W', "worktree");
                if (staged && !worktree) || a.long("help") {
                    return;
                }
                let Some(p) = operands
                    .iter()
                    .filter_map(|w| w.lit())
                    .find(|t| whole_tree(t))
                else {
                    return;
                };
                format!("git restore {p} overwrites every uncommitted change in the work tree")
            }
            "switch" => {
                if !(a.flag('f', "force") || a.long("discard-changes")) {
                    return;
                }
                "git switch --discard-changes throws away local changes while switching".to_string()
            }
            _ => return,
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!("{what}{}", route(cmd)),
        ));
    }
}
