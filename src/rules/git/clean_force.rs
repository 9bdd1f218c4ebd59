//! SG3303: `git clean -f`: deleting untracked files.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `git clean` with `-f` in any cluster (`-fd`, `-xdf`, `-ffdx`) or `--force`,
    /// unless it is a dry run (`-n`, `--dry-run`).
    ///
    /// ## Why is this bad?
    /// Untracked files were never committed: new source files, local configs and `.env`
    /// files (with `-x`) are deleted for good.
    ///
    /// ## Example
    /// ```sh
    /// git clean -fdx    # approve
    /// git clean -n      # allowed: only lists
    /// ```
    ///
    /// ## Known limitations
    /// Interactive `git clean -i` is not flagged.
    pub struct CleanForce;
    code: "SG3303",
    name: "git-clean-force",
    severity: Approve,
    category: Git,
    hermes: ["git clean with force (deletes untracked files)"],
    programs: ["git"],
    summary: "git clean -f deletes untracked files",
    pass: ["git clean -n", "git clean -nd", "git clean --dry-run -f", "git status", "echo git clean -fdx", "git commit -m 'clean -f'"],
    fail: ["git clean -f", "git clean -fd", "git clean -xdf", "git clean --force -d", "git -C sub clean -ffdx", "git clean -d -f -e keep"],
}

impl Rule for CleanForce {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        if a.sub() != Some("clean") {
            return;
        }
        if !a.flag('f', "force") || a.flag('n', "dry-run") || a.long("help") {
            return;
        }
        let ignored = if a.short('x') {
            ", ignored files included"
        } else {
            ""
        };
        let dirs = if a.short('d') { " and directories" } else { "" };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!(
                "git clean -f deletes untracked files{dirs}{ignored}{}",
                route(cmd)
            ),
        ));
    }
}
