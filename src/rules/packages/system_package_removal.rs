//! SG7001: removing system packages (`apt remove`, `dnf erase`, `pacman -R`, `brew uninstall`).

use super::operands;
use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags removal of system packages: `apt`/`apt-get`/`aptitude` `remove|purge|autoremove`,
    /// `dnf`/`yum`/`microdnf` `remove|erase|autoremove`, `zypper remove|rm`, `pacman -R*`
    /// (`-Rns`, `--remove`), `brew uninstall|remove|rm|autoremove`, `snap remove`, `apk del`,
    /// `port uninstall`, `dpkg -r|-P|--remove|--purge`, `rpm -e|--erase`, `flatpak uninstall`.
    ///
    /// ## Why is this bad?
    /// Removing a package can take its dependents with it (`apt purge python3` removes
    /// much of the desktop), and config files are deleted by purges.
    ///
    /// ## Example
    /// ```sh
    /// sudo apt-get purge -y nginx   # approve
    /// apt list --installed          # allow
    /// ```
    ///
    /// ## Known limitations
    /// Project-level managers (`pip uninstall`, `npm uninstall`) are not system packages
    /// and are not flagged.
    pub struct SystemPackageRemoval;
    code: "SG7001",
    name: "system-package-removal",
    severity: Approve,
    category: Packages,
    hermes: [],
    programs: ["apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "pacman", "yay", "paru", "brew", "snap", "apk", "port", "dpkg", "rpm", "flatpak"],
    summary: "Removes system packages",
    pass: ["apt install htop", "apt list --installed", "pacman -Syu", "pacman -Q", "brew install jq", "dpkg -l", "rpm -qa", "pacman -Ss remove"],
    fail: ["sudo apt-get purge -y nginx", "apt remove htop", "apt autoremove", "dnf erase x", "yum remove -y httpd", "zypper rm x", "pacman -Rns x", "brew uninstall jq", "dpkg -P x", "rpm -e x", "snap remove x", "apk del x", "rpm -evh x", "pacman --remove x", "dpkg --purge x"],
}

fn removes(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let args = cmd.arg_texts();
    let ops = operands(cmd);
    let sub = ops.first().map(String::as_str).unwrap_or("");
    let given = |names: &[&str]| cmd.opts.all().any(|x| names.contains(&x.name.as_str()));
    let hit = match name {
        "apt" | "apt-get" | "aptitude" => {
            matches!(sub, "remove" | "purge" | "autoremove" | "autopurge")
        }
        "dnf" | "yum" | "microdnf" => matches!(sub, "remove" | "erase" | "autoremove" | "rm"),
        "zypper" => matches!(sub, "remove" | "rm"),
        "brew" => matches!(sub, "uninstall" | "remove" | "rm" | "autoremove"),
        "snap" | "flatpak" => matches!(sub, "remove" | "uninstall"),
        "apk" => sub == "del",
        "port" => sub == "uninstall",
        // Operations as option letters, read by the grammar (bundles split: `-Rns`).
        "pacman" | "yay" | "paru" => given(&["R", "remove"]),
        "dpkg" => given(&["r", "P", "remove", "purge"]),
        "rpm" => given(&["e", "erase"]),
        _ => false,
    };
    hit.then(|| {
        format!(
            "{name} {} removes system packages",
            if sub.is_empty() {
                args.first().cloned().unwrap_or_default()
            } else {
                sub.to_string()
            }
        )
    })
}

impl Rule for SystemPackageRemoval {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if let Some(m) = removes(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
