//! SG3004: `crontab -r`: deleting a user's whole crontab.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `crontab -r` (also `-ri`, `-u USER -r`, through `sudo`) and `crontab /dev/null`,
    /// which installs an empty crontab.
    ///
    /// ## Why is this bad?
    /// It deletes every scheduled job of the user at once, without a backup; `-r` sits next
    /// to `-e` on the keyboard and is a classic slip.
    ///
    /// ## Example
    /// ```sh
    /// crontab -r     # approve
    /// crontab -l     # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Replacing the crontab from a file (`crontab file`) is judged by the sensitive-write
    /// rules, not this one.
    pub struct CrontabRemove;
    code: "SG3004",
    name: "crontab-remove",
    severity: Approve,
    category: Processes,
    hermes: [],
    programs: ["crontab"],
    summary: "crontab -r deletes all scheduled jobs",
    pass: ["crontab -l", "crontab -e", "echo crontab -r", "crontab -u root -l", "crontab -s -l"],
    fail: ["crontab -r", "crontab -ir", "sudo crontab -u www-data -r", "bash -c 'crontab -r'", "crontab /dev/null", "crontab -s -r"],
}

impl Rule for CrontabRemove {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        let operands = a.operand_words(cmd.args());
        if operands
            .iter()
            .any(|w| w.lit().is_some_and(|t| t == "/dev/null"))
        {
            out.push(Finding::on(
                &Self::META,
                cmd,
                format!("crontab /dev/null replaces the crontab with an empty one, deleting every job{}", route(cmd)),
            ));
            return;
        }
        if a.short('r') {
            let who = a
                .value_of(cmd.args(), &["u"])
                .map(|w| format!(" of {}", w.shown()))
                .unwrap_or_default();
            out.push(Finding::on(
                &Self::META,
                cmd,
                format!("crontab -r deletes every scheduled job{who}{}", route(cmd)),
            ));
        }
    }
}
