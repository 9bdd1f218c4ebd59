//! SG3307: rewriting or pruning history (`filter-branch`, `update-ref -d`, `reflog expire`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `git filter-branch`, `git filter-repo`, `git update-ref -d`, and
    /// `git reflog expire|delete`, after any git global options.
    ///
    /// ## Why is this bad?
    /// filter-branch and filter-repo rewrite every commit; update-ref -d deletes a ref
    /// without any safety check; expiring the reflog removes the last way back to lost
    /// commits.
    ///
    /// ## Example
    /// ```sh
    /// git reflog expire --expire=now --all   # approve
    /// git reflog                             # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `git gc --prune=now` and `git replace` are not flagged.
    pub struct HistoryRewrite;
    code: "SG3307",
    name: "git-history-rewrite",
    severity: Approve,
    category: Git,
    hermes: [],
    programs: ["git"],
    summary: "git filter-branch, update-ref -d, reflog expire",
    pass: ["git reflog", "git reflog show", "git update-ref refs/heads/x HEAD", "git log --all", "echo git filter-branch"],
    fail: ["git filter-branch --tree-filter 'rm -f x' HEAD", "git filter-repo --path secrets --invert-paths", "git update-ref -d refs/heads/old", "git reflog expire --expire=now --all", "git -C repo reflog delete HEAD@{1}"],
}

impl Rule for HistoryRewrite {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        let Some(sub) = a.sub() else {
            return;
        };
        let first = a.operand_words(cmd.args()).first().map(|w| w.shown());
        let what = match sub {
            "filter-branch" | "filter-repo" => {
                format!("git {sub} rewrites every commit of the history")
            }
            "update-ref" if a.flag('d', "delete") => {
                "git update-ref -d deletes a ref without any safety check".to_string()
            }
            "reflog" => match first.as_deref() {
                Some(v @ ("expire" | "delete")) => {
                    format!("git reflog {v} removes the record of where refs used to point")
                }
                _ => return,
            },
            _ => return,
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!("{what}{}", route(cmd)),
        ));
    }
}
