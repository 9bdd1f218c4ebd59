//! SG3308: sync tools that delete at the target (`rsync --delete*`, `rclone sync`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `rsync` with any of its deleting options — `--delete`, `--del`,
    /// `--delete-before|during|after|delay|excluded|missing-args`, `--remove-source-files`,
    /// and their getopt_long abbreviations (`--dele`) — to a local or remote target, and
    /// `rclone sync` (which deletes at the destination whatever the source lacks), and
    /// rclone's deleting subcommands (`purge`, `delete`, `deletefile`, `rmdir`, `rmdirs`,
    /// `cleanup`).
    ///
    /// ## Why is this bad?
    /// A mirror deletes every file at the target that the source does not have: a swapped
    /// source and target, or a wrong directory, wipes the target's work.
    ///
    /// ## Example
    /// ```sh
    /// rsync -av --delete src/ dst/    # approve
    /// rsync -av src/ dst/             # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `--delete` given through `RSYNC_OPTIONS`-like wrappers or a config file is not seen.
    pub struct SyncDelete;
    code: "SG3308",
    name: "sync-deletes-at-target",
    severity: Approve,
    category: Git,
    hermes: [],
    programs: ["rsync", "rclone"],
    summary: "rsync --delete / rclone sync delete files at the target",
    pass: ["rsync -av src/ dst/", "rsync -av --delay-updates src/ dst/", "rclone copy src remote:dst", "rclone ls remote:", "rsync -av -- --delete dst/", "rsync -avn --delete src/ dst/", "rclone --dry-run delete remote:x", "rsync -av --exclude --delete src/ dst/", "rclone --config sync copy a b:"],
    fail: ["rsync -av --delete src/ dst/", "rsync -a --delete-after src/ host:dst/", "rsync -a --del src/ dst/", "rsync -a --dele src/ dst/", "rsync -a --remove-source-files src/ dst/", "rclone sync src remote:dst", "rclone purge remote:path", "sudo rsync -aHAX --delete-excluded / /mnt/backup", "rclone --config c.conf sync a b:", "rsync -e ssh --delete a/ h:b/"],
}

/// Does this rsync long option (without `--`) delete files?
fn rsync_deletes(name: &str) -> bool {
    const DELETING: &[&str] = &[
        "delete",
        "del",
        "delete-before",
        "delete-during",
        "delete-delay",
        "delete-after",
        "delete-excluded",
        "delete-missing-args",
        "remove-source-files",
    ];
    // getopt_long takes any unambiguous prefix; `--dela` is `--delay-updates`.
    DELETING.contains(&name)
        || (name.len() >= 4 && "delete".starts_with(name) && name != "dela")
        || (name.len() >= 8 && "remove-source-files".starts_with(name))
}

fn deletes(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    // Options as the program's grammar reads them: a value is never an option
    // (`--exclude --delete`), nothing after `--` is one.
    let o = &cmd.opts;
    // A dry run only lists what it would delete.
    if o.all().any(|x| x.name.starts_with("dry") && x.long) || o.short('n') {
        return None;
    }
    match name {
        "rsync" => o
            .all()
            .filter(|x| x.long)
            .map(|x| x.name.as_str())
            .find(|n| rsync_deletes(n))
            .map(|n| format!("rsync --{n} deletes files at the target that the source lacks")),
        "rclone" => {
            let sub = o.operand_words(cmd.args()).first()?.lit()?;
            match sub.as_str() {
                "sync" => Some(
                    "rclone sync deletes files at the destination that the source lacks".into(),
                ),
                "purge" | "delete" | "deletefile" | "rmdir" | "rmdirs" | "cleanup" => {
                    Some(format!("rclone {sub} deletes remote files"))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

impl Rule for SyncDelete {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if let Some(m) = deletes(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
