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
    pass: ["fdisk -l", "sudo fdisk -l /dev/sda", "parted -l", "parted /dev/sda print", "sgdisk -p /dev/sda", "sgdisk --backup=table.bin /dev/sda", "sfdisk --dump /dev/sda", "gdisk -l /dev/nvme0n1", "fdisk --help", "echo fdisk /dev/sda"],
    fail: ["fdisk /dev/sdb", "sudo parted /dev/sdb mklabel gpt", "parted -s /dev/sdb mkpart primary ext4 1MiB 100%", "sgdisk --zap-all /dev/sdb", "sgdisk -n 1:0:0 /dev/sdb", "sfdisk /dev/sdb < layout", "cfdisk /dev/sda", "gdisk /dev/sdb", "sfdisk --delete /dev/sdb 2"],
}

/// Is this invocation read-only?
fn read_only(prog: &str, args: &[String]) -> bool {
    let any = |set: &[&str]| args.iter().any(|a| set.contains(&a.as_str()));
    if any(&["--help", "-h", "--version", "-V"]) && prog != "sfdisk" {
        return true;
    }
    let short = |c: char| {
        args.iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(c))
    };
    match prog {
        "fdisk" => short('l') || short('x') || any(&["--list", "--list-details"]),
        "sfdisk" => {
            any(&[
                "--help",
                "-h",
                "--version",
                "-l",
                "--list",
                "-d",
                "--dump",
                "-J",
                "--json",
                "-s",
                "--show-size",
                "-V",
                "--verify",
                "-F",
                "--list-free",
                "-T",
                "--list-types",
                "-g",
                "--show-geometry",
            ]) && !any(&[
                "--delete",
                "--part-type",
                "--part-uuid",
                "--part-label",
                "--part-attrs",
                "-r",
                "--reorder",
                "--relocate",
                "-N",
                "--partno",
                "-A",
                "--activate",
                "--backup",
            ])
        }
        "parted" => {
            if short('l') || any(&["--list"]) {
                return true;
            }
            // `parted [-s] DEV print`: every command word after the device is read-only.
            let words: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
            words.len() >= 2
                && words[1..].iter().all(|w| {
                    matches!(
                        w.as_str(),
                        "print"
                            | "p"
                            | "unit"
                            | "s"
                            | "B"
                            | "MiB"
                            | "GiB"
                            | "MB"
                            | "GB"
                            | "%"
                            | "cyl"
                            | "chs"
                            | "compact"
                            | "free"
                            | "list"
                            | "all"
                            | "help"
                            | "version"
                    )
                })
        }
        "sgdisk" => {
            // Every option given must be one that only reads.
            let opts: Vec<&String> = args.iter().filter(|a| a.starts_with('-')).collect();
            !opts.is_empty()
                && opts.iter().all(|o| {
                    matches!(
                        o.as_str(),
                        "-p" | "--print"
                            | "-i"
                            | "--info"
                            | "-v"
                            | "--verify"
                            | "-O"
                            | "--print-mbr"
                            | "-L"
                            | "--list-types"
                            | "-P"
                            | "--pretend"
                            | "-?"
                            | "--help"
                            | "-V"
                            | "--version"
                    ) || o.starts_with("--info=")
                        || o.starts_with("--backup=")
                        || o.as_str() == "--backup"
                        || o.as_str() == "-b"
                })
        }
        "gdisk" | "cgdisk" => short('l'),
        "cfdisk" => short('r') || any(&["--read-only"]),
        _ => false,
    }
}

impl Rule for PartitionWrite {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let prog = cmd.name.as_deref().unwrap_or("fdisk");
        let args = cmd.arg_texts();
        if read_only(prog, &args) {
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
