//! SG8006: destroying disk-encryption headers or key slots (`cryptsetup luksFormat`).

use super::verb_words;
use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `cryptsetup` actions that destroy or rewrite LUKS headers and key slots:
    /// `luksFormat`, `erase`/`luksErase`, `luksKillSlot`, `luksRemoveKey`, `reencrypt`,
    /// `luksChangeKey`, `luksHeaderRestore`, also behind options (`cryptsetup --type luks2
    /// luksFormat`). `open`, `close`, `status`, `luksDump`, `isLuks` are fine.
    ///
    /// ## Why is this bad?
    /// Without the header or the last key slot the encrypted data is gone for good.
    ///
    /// ## Example
    /// ```sh
    /// cryptsetup luksFormat /dev/sdb1   # approve
    /// cryptsetup status cryptroot       # allow
    /// ```
    ///
    /// ## Known limitations
    /// Other encryption tools (`veracrypt`, `zfs` native encryption) are not covered.
    pub struct DiskEncryptionDestroy;
    code: "SG8006",
    name: "disk-encryption-destroy",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: ["cryptsetup"],
    summary: "Formats or erases LUKS headers or key slots",
    pass: ["cryptsetup status cryptroot", "cryptsetup luksDump /dev/sda2", "cryptsetup open /dev/sda2 root", "cryptsetup isLuks /dev/sda2"],
    fail: ["cryptsetup luksFormat /dev/sdb1", "sudo cryptsetup -q --type luks2 luksFormat /dev/sdb1", "cryptsetup erase /dev/sdb1", "cryptsetup luksKillSlot /dev/sdb1 0", "cryptsetup luksRemoveKey /dev/sdb1", "cryptsetup reencrypt /dev/sdb1"],
}

fn destroys(cmd: &Command) -> Option<String> {
    let w = verb_words(cmd, 1);
    let v = w.first()?;
    let hit = matches!(
        v.to_ascii_lowercase().as_str(),
        "luksformat"
            | "erase"
            | "lukserase"
            | "lukskillslot"
            | "luksremovekey"
            | "reencrypt"
            | "lukschangekey"
            | "luksheaderrestore"
    );
    hit.then(|| format!("`cryptsetup {v}` destroys or rewrites LUKS headers or key slots"))
}

impl Rule for DiskEncryptionDestroy {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if let Some(m) = destroys(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
