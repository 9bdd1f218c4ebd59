//! SG8005: changing the boot chain (`grub-install`, `update-grub`, `efibootmgr -c`,
//! `bootctl install`, `mkinitcpio -P`).

use super::verb_words;
use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags boot-chain writes: `grub-install`/`grub2-install`, `update-grub`,
    /// `grub-mkconfig -o`, `grub-set-default`, `grub-reboot`; `efibootmgr` with a writing
    /// option (`-c -B -o -n -N -a -A -t -T -D -b .. -B`; bare `efibootmgr` and `-v` only
    /// list); `bootctl install|remove|update|set-default|set-oneshot|unlink|cleanup`;
    /// `mkinitcpio` (other than `-L`/`-h`/`-V`), `update-initramfs`, `dracut` (other than
    /// `--help`/`--list-modules`), `kernel-install add|remove`.
    ///
    /// ## Why is this bad?
    /// A broken bootloader or initramfs leaves the machine unbootable on its next restart.
    ///
    /// ## Example
    /// ```sh
    /// sudo grub-install /dev/sda   # approve
    /// efibootmgr -v                # allow
    /// ```
    ///
    /// ## Known limitations
    /// Package hooks that regenerate these files during upgrades are not attributed here.
    pub struct BootChainChange;
    code: "SG8005",
    name: "boot-chain-change",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: ["grub-install", "grub2-install", "update-grub", "update-grub2", "grub-mkconfig", "grub2-mkconfig", "grub-set-default", "grub2-set-default", "grub-reboot", "grub2-reboot", "efibootmgr", "bootctl", "mkinitcpio", "update-initramfs", "dracut", "kernel-install"],
    summary: "Changes the bootloader, boot entries or initramfs",
    pass: ["efibootmgr", "efibootmgr -v", "bootctl status", "bootctl list", "grub-mkconfig", "mkinitcpio -L", "dracut --list-modules", "efibootmgr -v -d /dev/sda"],
    fail: ["sudo grub-install /dev/sda", "update-grub", "grub-mkconfig -o /boot/grub/grub.cfg", "efibootmgr -o 0001,0002", "efibootmgr -b 0003 -B", "efibootmgr -Bb 0003", "efibootmgr -c -d /dev/sda -p 1 -L x -l '\\EFI\\x.efi'", "bootctl install", "bootctl remove", "mkinitcpio -P", "update-initramfs -u -k all", "dracut -f"],
}

fn changes(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let args = cmd.arg_texts();
    let help = args
        .iter()
        .any(|a| matches!(a.as_str(), "-h" | "--help" | "-V" | "--version"));
    let hit = match name {
        // Read by grub-mkconfig's grammar: `-o FILE`, `-oFILE`, `--output[=]FILE`.
        "grub-mkconfig" | "grub2-mkconfig" => cmd.opts.flag('o', "output"),
        // Read by efibootmgr's grammar: a value (`-L Cool`, `-l \\EFI\\x`) holds no letter.
        "efibootmgr" => cmd.opts.all().any(|x| {
            matches!(
                x.name.as_str(),
                "c" | "C"
                    | "B"
                    | "o"
                    | "n"
                    | "N"
                    | "a"
                    | "A"
                    | "t"
                    | "T"
                    | "D"
                    | "O"
                    | "create"
                    | "create-only"
                    | "delete-bootnum"
                    | "bootorder"
                    | "bootnext"
                    | "delete-bootnext"
                    | "active"
                    | "inactive"
                    | "timeout"
                    | "delete-timeout"
                    | "remove-dups"
                    | "delete-bootorder"
            )
        }),
        "bootctl" => verb_words(cmd, 1).first().is_some_and(|v| {
            matches!(
                v.as_str(),
                "install"
                    | "remove"
                    | "update"
                    | "set-default"
                    | "set-oneshot"
                    | "set-timeout"
                    | "set-timeout-oneshot"
                    | "unlink"
                    | "cleanup"
                    | "random-seed"
            )
        }),
        "mkinitcpio" => !args.iter().any(|a| {
            matches!(
                a.as_str(),
                "-L" | "--listhooks" | "-H" | "--hookhelp" | "-M" | "--automods"
            )
        }),
        "dracut" => !args
            .iter()
            .any(|a| matches!(a.as_str(), "--list-modules" | "--print-cmdline")),
        "kernel-install" => verb_words(cmd, 1)
            .first()
            .is_some_and(|v| matches!(v.as_str(), "add" | "remove" | "add-all")),
        _ => true,
    };
    (hit && !help).then(|| format!("`{name}` changes the boot chain"))
}

impl Rule for BootChainChange {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if let Some(m) = changes(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
