//! SG2204: `dd` writing to a file (to a block device: SG1201).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `dd` (and `dc3dd`, `dcfldd`) whose `of=` names a regular file, with or without
    /// `if=`. Output to a block device is blocked by SG1201; output to `/dev/null`,
    /// `/dev/stdout` and other pseudo-devices, or to standard output, is allowed.
    ///
    /// ## Why is this bad?
    /// dd truncates and overwrites the output file without asking, block by block; a
    /// swapped `if=`/`of=` overwrites the file that was meant to be the source.
    ///
    /// ## Example
    /// ```sh
    /// dd if=/dev/sda of=backup.img        # approve
    /// dd if=/dev/urandom bs=16 count=1    # allowed: writes to stdout
    /// ```
    ///
    /// ## Known limitations
    /// An output path known only at run time is treated as a file.
    pub struct DdToFile;
    code: "SG2204",
    name: "dd-to-file",
    severity: Approve,
    category: Disks,
    hermes: ["disk copy"],
    programs: ["dd", "dc3dd", "dcfldd"],
    summary: "dd writing a file",
    pass: ["dd if=/dev/urandom bs=16 count=1", "dd if=x of=/dev/null", "dd --help", "echo dd if=a of=b", "dd if=/dev/zero of=/dev/sda"],
    fail: ["dd if=/dev/zero of=disk.img bs=1M count=10", "sudo dd if=/dev/sda of=backup.img", "dd if=a.iso of=\"$OUT\"", "dd of=out.bin", "bash -c 'dd if=/dev/zero of=~/swap bs=1M count=100'"],
}

impl Rule for DdToFile {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        for w in cmd.args() {
            let t = w.shown();
            let Some(of) = t.strip_prefix("of=") else {
                continue;
            };
            if of.starts_with("/dev/") || of.is_empty() {
                continue;
            }
            let src = cmd
                .args()
                .iter()
                .map(|x| x.shown())
                .find_map(|x| x.strip_prefix("if=").map(str::to_string))
                .map(|i| format!("copies {i} over"))
                .unwrap_or_else(|| "writes its input over".to_string());
            let prog = cmd.name.as_deref().unwrap_or("dd");
            out.push(
                Finding::on(
                    &Self::META,
                    cmd,
                    format!("{prog} {src} the file {of}{}", route(cmd)),
                )
                .with_span(w.span),
            );
        }
    }
}
