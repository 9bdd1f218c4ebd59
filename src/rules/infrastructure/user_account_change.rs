//! SG8007: deleting or modifying user accounts (`userdel`, `usermod`, `passwd`, `chsh`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags account changes: `userdel`, `deluser`, `delgroup`, `groupdel`, `usermod`,
    /// `groupmod`, `chsh`, `chfn`, `chpasswd`, `passwd` (other than `-S`/`--status`),
    /// `chage` (other than `-l`), `gpasswd`, macOS `dscl . -delete|-passwd|-change` and
    /// `sysadminctl -deleteUser|-resetPasswordFor`. Creating accounts (`useradd`) and
    /// reading them (`id`, `getent passwd`) are fine.
    ///
    /// ## Why is this bad?
    /// Deleting an account can delete its home; changing passwords, shells or groups can
    /// lock people out or grant root.
    ///
    /// ## Example
    /// ```sh
    /// sudo userdel -r bob   # approve
    /// id bob                # allow
    /// ```
    ///
    /// ## Known limitations
    /// Direct edits of `/etc/passwd` are sensitive writes (SG5001-SG5003), not this rule.
    pub struct UserAccountChange;
    code: "SG8007",
    name: "user-account-change",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: ["userdel", "deluser", "delgroup", "groupdel", "usermod", "groupmod", "chsh", "chfn", "chpasswd", "passwd", "chage", "gpasswd", "dscl", "sysadminctl"],
    summary: "Deletes or modifies user accounts",
    pass: ["passwd -S bob", "chage -l bob", "dscl . -list /Users", "useradd -m bob", "id bob"],
    fail: ["sudo userdel -r bob", "deluser bob", "groupdel devs", "usermod -aG sudo bob", "passwd bob", "passwd", "chsh -s /bin/zsh", "echo 'bob:x' | chpasswd", "gpasswd -d bob sudo", "dscl . -delete /Users/bob", "sysadminctl -deleteUser bob"],
}

fn changes(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let args = cmd.arg_texts();
    let has = |f: &str| args.iter().any(|a| a == f);
    let help = has("-h") || has("--help");
    let hit = match name {
        "passwd" => !has("-S") && !has("--status") && !has("-a") && !has("--all"),
        "chage" => !has("-l") && !has("--list"),
        "dscl" => args.iter().any(|a| {
            matches!(
                a.as_str(),
                "-delete" | "-passwd" | "-change" | "-merge" | "-append"
            )
        }),
        "sysadminctl" => args
            .iter()
            .any(|a| matches!(a.as_str(), "-deleteUser" | "-resetPasswordFor")),
        _ => true,
    };
    (hit && !help).then(|| format!("`{name}` deletes or modifies user accounts"))
}

impl Rule for UserAccountChange {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if let Some(m) = changes(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
