//! SG1201: formatting, wiping or overwriting a block device.

use crate::declare_rule;
use crate::model::paths::is_block_device;
use crate::model::{Command, Word};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Blocks writes that destroy a disk: `mkfs*`/`mke2fs`/`mkswap` on a device, `wipefs`,
    /// `dd of=/dev/sdX`, any redirect into a block device (`> /dev/nvme0n1`,
    /// `cat img > /dev/sdb1`), `cp`/`tee`/`pv`/`ddrescue` onto a device, `shred` of a
    /// device, `badblocks -w`, `blkdiscard`, and `partclone.* -o /dev/..`. Devices are
    /// `sd* hd* vd* xvd* nvme* mmcblk* disk* rdisk* md* dm-* mapper/* loop*`; `/dev/null`,
    /// `/dev/zero`, `/dev/stdout`, `/dev/tty` are not.
    ///
    /// ## Why is this bad?
    /// Overwriting a device destroys every filesystem on it at once.
    ///
    /// ## Example
    /// ```sh
    /// dd if=image.iso of=/dev/sdb   # block
    /// dd if=/dev/zero of=disk.img   # not this rule (a file)
    /// ```
    ///
    /// ## Known limitations
    /// A device named through a variable set at run time is not known here.
    pub struct BlockDeviceWrite;
    code: "SG1201",
    name: "block-device-overwrite",
    severity: Block,
    category: Disks,
    hermes: [MKFS = "format filesystem (mkfs)", DD = "dd to raw block device", REDIRECT = "redirect to raw block device", WRITE = "write to block device"],
    programs: [],
    summary: "Formats, wipes or overwrites a block device",
    pass: ["dd if=/dev/zero of=disk.img bs=1M count=10", "echo x > /dev/null", "cat /dev/sda1 | head", "mkfs.ext4 disk.img", "ls /dev/sda"],
    fail: ["mkfs.ext4 /dev/sdb1", "dd if=/dev/zero of=/dev/sda", "echo x > /dev/nvme0n1", "cat x > /dev/sdb1", "cp img /dev/disk2", "shred /dev/sda", "wipefs -a /dev/sdc", "badblocks -w /dev/sdb", "sudo partclone.ext4 -r -s img -o /dev/sdb1", "tee /dev/mmcblk0 < img"],
}

fn lit(w: &Word) -> Option<String> {
    w.lit()
}

/// Device operands of the command's arguments.
fn device_operands(cmd: &Command) -> Vec<(String, &Word)> {
    cmd.args()
        .iter()
        .filter_map(|w| lit(w).filter(|v| is_block_device(v)).map(|v| (v, w)))
        .collect()
}

impl Rule for BlockDeviceWrite {
    fn check_script(&self, _cx: &Cx, out: &mut Vec<Finding>) {
        for cmd in &_cx.script.commands {
            for r in &cmd.redirects {
                if !r.op.writes() {
                    continue;
                }
                if let Some(t) = r.target.as_ref().and_then(lit)
                    && is_block_device(&t)
                {
                    let mut f = Finding::on(
                        &Self::META,
                        cmd,
                        format!("redirect writes into the block device {t}{}", route(cmd)),
                    )
                    .with_span(r.span);
                    f.hermes = vec![BlockDeviceWrite::REDIRECT];
                    out.push(f);
                }
            }
            let Some(name) = cmd.name.as_deref() else {
                continue;
            };
            let devices = device_operands(cmd);
            let hit =
                |out: &mut Vec<Finding>, what: String, key: &'static str, w: Option<&Word>| {
                    let mut f = Finding::on(&Self::META, cmd, format!("{what}{}", route(cmd)));
                    if let Some(w) = w {
                        f = f.with_span(w.span);
                    }
                    f.hermes = vec![key];
                    out.push(f);
                };
            match name {
                n if n.starts_with("mkfs")
                    || n == "mke2fs"
                    || n == "mkswap"
                    || n == "newfs"
                    || n.starts_with("newfs_")
                    || n == "mkdosfs"
                    || n == "mkntfs" =>
                {
                    if let Some((d, w)) = devices.first() {
                        hit(
                            out,
                            format!("{n} formats the block device {d}"),
                            BlockDeviceWrite::MKFS,
                            Some(w),
                        );
                    }
                }
                "wipefs" | "shred" | "blkdiscard" | "cp" | "tee" | "pv" | "ddrescue" | "dcfldd"
                | "cat" => {
                    let target = match name {
                        // cp/ddrescue write the last operand; tee writes every operand.
                        "cp" | "ddrescue" => cmd
                            .opts
                            .operand_words(cmd.args())
                            .last()
                            .map(|w| w.text_with("\u{fffd}"))
                            .filter(|a| is_block_device(a)),
                        "cat" | "pv" => None,
                        _ => devices.first().map(|(d, _)| d.clone()),
                    };
                    if let Some(d) = target {
                        let w = devices.iter().find(|(x, _)| *x == d).map(|(_, w)| *w);
                        // Hermes's keys: `wipefs` is a format, the copiers write.
                        let key = if name == "wipefs" {
                            BlockDeviceWrite::MKFS
                        } else {
                            BlockDeviceWrite::WRITE
                        };
                        hit(
                            out,
                            format!("{name} overwrites the block device {d}"),
                            key,
                            w,
                        );
                    }
                }
                "badblocks" => {
                    // `-w` as badblocks' grammar reads it (not the value of `-t`/`-o`).
                    if cmd.opts.short('w')
                        && let Some((d, w)) = devices.first()
                    {
                        hit(
                            out,
                            format!("badblocks -w overwrites the block device {d}"),
                            BlockDeviceWrite::WRITE,
                            Some(w),
                        );
                    }
                }
                "dd" | "dc3dd" => {
                    for w in cmd.args() {
                        if let Some(v) = lit(w)
                            && let Some(of) =
                                v.strip_prefix("of=").or_else(|| v.strip_prefix("hof="))
                            && is_block_device(of)
                        {
                            hit(
                                out,
                                format!("dd writes to the block device {of}"),
                                BlockDeviceWrite::DD,
                                Some(w),
                            );
                        }
                    }
                }
                n if n.starts_with("partclone") => {
                    let mut it = cmd.args().iter();
                    while let Some(w) = it.next() {
                        if lit(w).is_some_and(|a| {
                            a == "-o" || a == "--output" || a == "-O" || a == "--overwrite"
                        }) && let Some(t) = it.next()
                            && lit(t).is_some_and(|d| is_block_device(&d))
                        {
                            hit(
                                out,
                                format!("{n} restores onto the block device {}", t.raw),
                                BlockDeviceWrite::WRITE,
                                Some(t),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
    }
}
