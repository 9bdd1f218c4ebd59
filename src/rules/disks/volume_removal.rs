//! SG2203: removing LVM volumes and RAID members (`lvremove`, `vgremove`, `mdadm --stop`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags LVM removals (`lvremove`, `vgremove`, `pvremove`, also as `lvm lvremove`) and
    /// RAID member or array removal with `mdadm` (`--remove`, `--fail`, `--set-faulty`,
    /// `--stop`, `--zero-superblock`, and the short `-r`, `-f`, `-S`).
    ///
    /// ## Why is this bad?
    /// Removing a logical volume or volume group destroys its data; failing or stopping a
    /// RAID member degrades or takes down the array.
    ///
    /// ## Example
    /// ```sh
    /// sudo lvremove /dev/vg0/data         # approve
    /// sudo mdadm --detail /dev/md0        # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Shrinking (`lvreduce`) is not flagged.
    pub struct VolumeRemoval;
    code: "SG2203",
    name: "lvm-raid-removal",
    severity: Approve,
    category: Disks,
    hermes: [],
    programs: ["lvremove", "vgremove", "pvremove", "lvm", "mdadm"],
    summary: "lvremove/vgremove/pvremove or mdadm --remove/--fail/--stop",
    pass: ["lvs", "lvremove --help", "mdadm --detail /dev/md0", "mdadm --examine /dev/sdb1", "lvm lvs", "echo lvremove vg/lv"],
    fail: ["lvremove /dev/vg0/data", "sudo vgremove -f vg0", "pvremove /dev/sdb1", "lvm lvremove vg0/tmp", "mdadm --manage /dev/md0 --remove /dev/sdb1", "mdadm /dev/md0 -f /dev/sdc1", "mdadm --stop /dev/md0", "mdadm -S /dev/md0", "mdadm --zero-superblock /dev/sdb1"],
}

impl Rule for VolumeRemoval {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let args = cmd.arg_texts();
        if args
            .iter()
            .any(|a| a == "--help" || a == "-h" || a == "--version")
        {
            return;
        }
        let mut prog = cmd.name.clone().unwrap_or_default();
        if prog == "lvm" {
            let Some(sub) = args.first() else {
                return;
            };
            prog = sub.clone();
        }
        let what = match prog.as_str() {
            "lvremove" => "lvremove destroys logical volumes".to_string(),
            "vgremove" => "vgremove destroys volume groups and their logical volumes".to_string(),
            "pvremove" => "pvremove wipes LVM labels from physical volumes".to_string(),
            "mdadm" => {
                // Read by mdadm's grammar: a level, name or size (`-N fail`) is a value.
                let hit = cmd.opts.all().find(|x| {
                    matches!(
                        x.name.as_str(),
                        "r" | "f"
                            | "S"
                            | "remove"
                            | "fail"
                            | "set-faulty"
                            | "stop"
                            | "zero-superblock"
                    )
                });
                match hit.and_then(|h| cmd.args().get(h.word)) {
                    Some(h) => format!("mdadm {} removes, fails or stops a RAID device", h.shown()),
                    None => return,
                }
            }
            _ => return,
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!("{what}{}", route(cmd)),
        ));
    }
}
