//! SG2005: `shred` of files (devices are SG1201).

use crate::declare_rule;
use crate::model::Command;
use crate::model::paths::is_block_device;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `shred` of one or more files (`shred -u secrets.txt`, `shred -n 3 -z f`).
    /// `shred` of a block device is blocked by SG1201 instead.
    ///
    /// ## Why is this bad?
    /// shred overwrites the file's contents in place before (optionally) deleting it: unlike
    /// `rm`, nothing can be recovered afterwards, not even from a snapshot of free blocks.
    ///
    /// ## Example
    /// ```sh
    /// shred -u old.key    # approve
    /// shred --help        # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `shred` reading standard output (`shred -`) is not flagged.
    pub struct ShredFiles;
    code: "SG2005",
    name: "shred-files",
    severity: Approve,
    category: Filesystem,
    hermes: [],
    programs: ["shred"],
    summary: "shred overwrites files irrecoverably",
    pass: ["shred --help", "shred --version", "echo shred x", "shred /dev/sda"],
    fail: ["shred secrets.txt", "shred -u -z old.key", "sudo shred -n 7 /var/log/auth.log", "bash -c 'shred -fu notes.txt'"],
}

impl Rule for ShredFiles {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        let operands = a.operand_words(cmd.args());
        if a.long("help") || a.long("version") {
            return;
        }
        let files: Vec<String> = operands
            .iter()
            .map(|w| w.shown())
            .filter(|t| t != "-" && !is_block_device(t))
            .collect();
        if files.is_empty()
            || operands
                .iter()
                .any(|w| w.lit().is_some_and(|t| is_block_device(&t)))
        {
            return;
        }
        let remove = if a.flag('u', "remove") {
            " and deletes"
        } else {
            ""
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!(
                "shred irrecoverably overwrites{remove} {}{}",
                files.join(", "),
                route(cmd)
            ),
        ));
    }
}
