//! SG2202: partition-table editors that write (`fdisk`, `sfdisk`, `parted`, `sgdisk`, ...).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `fdisk`, `sfdisk`, `parted`, `sgdisk`, `gdisk`, `cgdisk` and `cfdisk` unless
    /// they only read: `fdisk -l`/`--list`/`-x`, `sfdisk -l`/`--dump`/`--json`/`--verify`/
    /// `--show-size`, `parted -l` or `parted DEV print`, `sgdisk -p`/`--print`/`-i`/`-v`,
    /// `gdisk -l`, `cfdisk -r`, and `--help`/`--version` of any of them.
    ///
    /// ## Why is this bad?
    /// A wrong partition table makes every filesystem on the disk unreachable; interactive
    /// editors run without a terminal can act on piped input.
    ///
    /// ## Example
    /// ```sh
    /// sudo parted /dev/sdb mklabel gpt   # approve
    /// sudo fdisk -l                      # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Interactive sessions are flagged even when the user would only look and quit.
    pub struct PartitionWrite;
    code: "SG2202",
    name: "partition-table-write",
    severity: Approve,
    category: Disks,
    hermes: [],
    programs: ["fdisk", "sfdisk", "parted", "sgdisk", "gdisk", "cgdisk", "cfdisk"],
    summary: "fdisk/sfdisk/parted/sgdisk that change a partition table",
    pass: ["fdisk -l", "sudo fdisk -l /dev/sda", "parted -l", "parted /dev/sda print", "sgdisk -p /dev/sda", "sgdisk --backup=table.bin /dev/sda", "sfdisk --dump /dev/sda", "gdisk -l /dev/nvme0n1", "fdisk --help", "echo fdisk /dev/sda", "sgdisk -b table.bin /dev/sda", "sfdisk -l -o Device,Size /dev/sda"],
    fail: ["fdisk /dev/sdb", "sudo parted /dev/sdb mklabel gpt", "parted -s /dev/sdb mkpart primary ext4 1MiB 100%", "sgdisk --zap-all /dev/sdb", "sgdisk -n 1:0:0 /dev/sdb", "sfdisk /dev/sdb < layout", "cfdisk /dev/sda", "gdisk /dev/sdb", "sfdisk --delete /dev/sdb 2", "parted /dev/sdb mkpart primary 1 -1", "sgdisk -Z /dev/sdb", "fdisk -b 4096 /dev/sdb"],
}

/// sfdisk options that only read.
const SFDISK_READS: &[&str] = &[
    "help",
    "h",
    "version",
    "v",
    "l",
    "list",
    "d",
    "dump",
    "J",
    "json",
    "s",
    "show-size",
    "V",
    "verify",
    "F",
    "list-free",
    "T",
    "list-types",
    "g",
    "show-geometry",
];

/// sfdisk options that write even next to a reading one.
const SFDISK_WRITES: &[&str] = &[
    "delete",
    "part-type",
    "part-uuid",
    "part-label",
    "part-attrs",
    "r",
    "reorder",
    "relocate",
    "N",
    "partno",
    "A",
    "activate",
    "backup",
];

/// sgdisk options that only read (or back the table up to a file).
const SGDISK_READS: &[&str] = &[
    "p",
    "print",
    "i",
    "info",
    "v",
    "verify",
    "O",
    "print-mbr",
    "L",
    "list-types",
    "P",
    "pretend",
    "?",
    "help",
    "V",
    "version",
    "b",
    "backup",
];

/// parted commands (after the device) that only read.
const PARTED_READS: &[&str] = &[
    "print", "p", "unit", "s", "B", "MiB", "GiB", "MB", "GB", "%", "cyl", "chs", "compact", "free",
    "list", "all", "help", "version",
];

/// Is this invocation read-only? Options and operands as the program's grammar reads
/// them (`model::opts::grammars`).
fn read_only(prog: &str, cmd: &Command) -> bool {
    let o = &cmd.opts;
    let given = |names: &[&str]| o.all().any(|x| names.contains(&x.name.as_str()));
    if prog != "sfdisk" && given(&["help", "h", "version", "V"]) {
        return true;
    }
    match prog {
        "fdisk" => given(&["l", "x", "list", "list-details"]),
        "sfdisk" => given(SFDISK_READS) && !given(SFDISK_WRITES),
        "parted" => {
            if given(&["l", "list"]) {
                return true;
            }
            // `parted [-s] DEV print`: every command word after the device is read-only.
            let words: Vec<String> = o
                .operand_words(cmd.args())
                .iter()
                .map(|w| w.text_with("\u{fffd}"))
                .collect();
            words.len() >= 2
                && words[1..]
                    .iter()
                    .all(|w| PARTED_READS.contains(&w.as_str()))
        }
        // Every option given must be one that only reads.
        "sgdisk" => {
            o.all().next().is_some() && o.all().all(|x| SGDISK_READS.contains(&x.name.as_str()))
        }
        "gdisk" | "cgdisk" => given(&["l"]),
        "cfdisk" => given(&["r", "read-only"]),
        _ => false,
    }
}

impl Rule for PartitionWrite {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let prog = cmd.name.as_deref().unwrap_or("fdisk");
        let args = cmd.arg_texts();
        if read_only(prog, cmd) {
            return;
        }
        let dev = args
            .iter()
            .find(|a| a.starts_with("/dev/"))
            .map(|d| format!(" on {d}"))
            .unwrap_or_default();
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!("{prog} can rewrite the partition table{dev}{}", route(cmd)),
        ));
    }
}
