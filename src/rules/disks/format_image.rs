//! SG2201: `mkfs*` on an image file (block devices are SG1201).

use crate::declare_rule;
use crate::model::Command;
use crate::model::paths::is_block_device;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `mkfs`, `mkfs.<type>`, `mke2fs`, `mkswap`, `mkdosfs`, `mkntfs` and `newfs`
    /// run on something that is not a block device: an image file or a path known only at
    /// run time. Formatting a block device is blocked by SG1201.
    ///
    /// ## Why is this bad?
    /// Formatting replaces whatever the target held; if the "image" is a real disk image
    /// or a loop-mounted file in use, its contents are gone.
    ///
    /// ## Example
    /// ```sh
    /// mkfs.ext4 disk.img    # approve
    /// mkfs.ext4 /dev/sdb1   # block (SG1201), not this rule
    /// ```
    ///
    /// ## Known limitations
    /// Option values (`-L label`) are not told apart from the target; any mkfs with an
    /// operand that is not a block device asks.
    pub struct FormatImage;
    code: "SG2201",
    name: "format-filesystem-image",
    severity: Approve,
    category: Disks,
    hermes: ["format filesystem"],
    programs: ["mkfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat", "mkfs.msdos", "mkfs.exfat", "mkfs.ntfs", "mkfs.f2fs", "mkfs.minix", "mkfs.bfs", "mkfs.cramfs", "mkfs.jfs", "mkfs.reiserfs", "mkfs.udf", "mke2fs", "mkswap", "mkdosfs", "mkntfs", "newfs"],
    summary: "mkfs on an image file",
    pass: ["mkfs.ext4 --help", "mkfs -V", "mkfs.ext4 /dev/sdb1", "echo mkfs.ext4 disk.img"],
    fail: ["mkfs.ext4 disk.img", "mkfs -t ext4 rootfs.img", "sudo mkfs.vfat -F 32 efi.img", "mkswap ./swapfile", "mke2fs -F -L data \"$IMG\""],
}

impl Rule for FormatImage {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let texts = cmd.arg_texts();
        if texts
            .iter()
            .any(|t| matches!(t.as_str(), "--help" | "-h" | "-V" | "--version"))
        {
            return;
        }
        if cmd
            .args()
            .iter()
            .any(|w| w.lit().is_some_and(|t| is_block_device(&t)))
        {
            return;
        }
        // Read by the program's grammar: the device or image is the last operand, possibly
        // followed by a block count; an option's value (`-L data`) is not an operand.
        let Some(target) = cmd
            .opts
            .operand_words(cmd.args())
            .into_iter()
            .rev()
            .find(|w| {
                !w.lit()
                    .is_some_and(|t| t.chars().all(|c| c.is_ascii_digit()))
            })
        else {
            return;
        };
        let prog = cmd.name.as_deref().unwrap_or("mkfs");
        out.push(
            Finding::on(
                &Self::META,
                cmd,
                format!(
                    "{prog} formats {}, erasing what it holds{}",
                    target.shown(),
                    route(cmd)
                ),
            )
            .with_span(target.span),
        );
    }
}
