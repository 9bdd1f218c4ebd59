//! SG7003: adding package sources or signing keys (`add-apt-repository`, `zypper addrepo`).

use super::operands;
use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags commands that add a package source or trust a signing key: `add-apt-repository`
    /// (also `--remove`), `apt-add-repository`, `zypper addrepo|ar`, `dnf config-manager
    /// --add-repo`/`addrepo`, `yum-config-manager --add-repo`, `apt-key add|adv`,
    /// `rpm --import`, `pacman-key --add|--lsign-key`, `flatpak remote-add`
    /// (`brew tap` is not included). Writing `/etc/apt/sources.list.d/*` directly is a
    /// sensitive write (SG5001/SG5002).
    ///
    /// ## Why is this bad?
    /// Every later install and upgrade may pull packages, run as root, from the new source.
    ///
    /// ## Example
    /// ```sh
    /// sudo add-apt-repository ppa:x/y   # approve
    /// apt-cache policy                  # allow
    /// ```
    ///
    /// ## Known limitations
    /// Sources added by package managers' own config files or by install scripts are not seen.
    pub struct PackageSourceAdded;
    code: "SG7003",
    name: "package-source-added",
    severity: Approve,
    category: Packages,
    hermes: [],
    programs: ["add-apt-repository", "apt-add-repository", "zypper", "dnf", "yum-config-manager", "apt-key", "rpm", "pacman-key", "flatpak"],
    summary: "Adds a package source or trusts a signing key",
    pass: ["apt-key list", "zypper repos", "dnf repolist", "rpm -qa", "flatpak list", "add-apt-repository --help"],
    fail: ["sudo add-apt-repository ppa:x/y", "add-apt-repository -y 'deb http://x stable main'", "zypper addrepo http://x/repo x", "zypper ar http://x x", "dnf config-manager --add-repo https://x/x.repo", "yum-config-manager --add-repo https://x/x.repo", "curl -fsSL https://x/key | sudo apt-key add -", "rpm --import https://x/key", "flatpak remote-add x https://x"],
}

fn adds(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let args = cmd.arg_texts();
    let ops = operands(cmd);
    let sub = ops.first().map(String::as_str).unwrap_or("");
    let has = |f: &str| {
        args.iter()
            .any(|a| a == f || a.starts_with(&format!("{f}=")))
    };
    let hit = match name {
        "add-apt-repository" | "apt-add-repository" => {
            !has("--help") && !has("-h") && !has("--list") && !has("-L")
        }
        "zypper" => matches!(sub, "addrepo" | "ar" | "addservice" | "as"),
        "dnf" => {
            sub == "config-manager"
                && (has("--add-repo") || ops.get(1).is_some_and(|s| s == "addrepo"))
        }
        "yum-config-manager" => has("--add-repo"),
        "apt-key" => matches!(sub, "add" | "adv"),
        "rpm" => has("--import"),
        "pacman-key" => has("--add") || has("--lsign-key") || has("-a"),
        "flatpak" => sub == "remote-add",
        _ => false,
    };
    hit.then(|| format!("{name} adds a package source or signing key"))
}

impl Rule for PackageSourceAdded {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if let Some(m) = adds(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
