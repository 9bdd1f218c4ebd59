//! SG8004: changing firewall rules (`iptables -A/-D/-F/-P`, `nft add`, `ufw allow`).

use super::verb_words;
use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags firewall changes: `iptables`/`ip6tables`/`ebtables`/`arptables` with a
    /// mutating command (`-A -D -I -R -F -X -P -N -E -Z` and their long forms),
    /// `iptables-restore`, `nft` other than `list`/`monitor`/`describe`/`--check`, `ufw`
    /// other than `status`/`show`/`app list|info`/`version`/`--dry-run`, `firewall-cmd`
    /// other than `--state`/`--list-*`/`--get-*`/`--query-*`/`--info-*`, and `pfctl -e -d
    /// -f -F`. Listing rules (`iptables -L`, `nft list ruleset`, `ufw status`) is fine.
    ///
    /// ## Why is this bad?
    /// A wrong rule can cut the machine off the network (including the session running
    /// the agent) or open services to the world.
    ///
    /// ## Example
    /// ```sh
    /// sudo iptables -F          # approve
    /// sudo iptables -L -n -v    # allow
    /// ```
    ///
    /// ## Known limitations
    /// Rule files loaded by services at boot are not read.
    pub struct FirewallChange;
    code: "SG8004",
    name: "firewall-change",
    severity: Approve,
    category: Infrastructure,
    hermes: [],
    programs: ["iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft", "ebtables", "arptables", "iptables-restore", "ip6tables-restore", "nft", "ufw", "firewall-cmd", "pfctl"],
    summary: "Changes firewall rules",
    pass: ["iptables -L -n -v", "iptables -S", "iptables -t nat -L", "nft list ruleset", "ufw status verbose", "firewall-cmd --list-all", "firewall-cmd --state", "pfctl -s rules", "iptables-save", "pfctl -sinfo", "iptables -L INPUT -m comment --comment -F", "iptables-restore -t < rules.v4", "nft -c -f rules.nft"],
    fail: ["iptables -F", "sudo iptables -A INPUT -p tcp --dport 22 -j ACCEPT", "iptables -P INPUT DROP", "ip6tables -I INPUT 1 -j DROP", "iptables --flush", "iptables-restore < rules.v4", "nft add rule inet filter input drop", "nft flush ruleset", "nft -f rules.nft", "ufw allow 22", "ufw disable", "ufw --force reset", "firewall-cmd --add-port=80/tcp --permanent", "firewall-cmd --reload", "pfctl -d", "iptables -t nat -vA POSTROUTING -j MASQUERADE", "pfctl -ef /etc/pf.conf", "iptables --app INPUT -j DROP"],
}

/// The iptables-family options that change rules (short letter or long name).
const IPTABLES_CHANGES: &[&str] = &[
    "A",
    "D",
    "I",
    "R",
    "F",
    "X",
    "P",
    "N",
    "E",
    "Z",
    "append",
    "delete",
    "insert",
    "replace",
    "flush",
    "delete-chain",
    "policy",
    "new-chain",
    "new",
    "rename-chain",
    "zero",
];

/// pfctl options that change the firewall: enable, disable, load, flush, kill states.
const PFCTL_CHANGES: &[&str] = &["e", "d", "f", "F", "k", "K"];

/// Options read by the program's grammar (`model::opts::grammars`): an option's value is
/// never an option (`iptables -A INPUT -m comment --comment -F`), bundles split.
fn changes(cmd: &Command) -> Option<String> {
    let name = cmd.name.as_deref()?;
    let args = cmd.arg_texts();
    let o = &cmd.opts;
    let given = |names: &[&str]| o.all().any(|x| names.contains(&x.name.as_str()));
    let hit = match name {
        "iptables-restore" | "ip6tables-restore" => !given(&["t", "test"]),
        "iptables" | "ip6tables" | "iptables-legacy" | "iptables-nft" | "ip6tables-legacy"
        | "ip6tables-nft" | "ebtables" | "arptables" => given(IPTABLES_CHANGES),
        "nft" => {
            let w = verb_words(cmd, 1);
            !given(&["c", "check"])
                && (given(&["f", "file"])
                    || w.first()
                        .is_some_and(|v| !matches!(v.as_str(), "list" | "monitor" | "describe")))
                && !given(&["h", "help"])
        }
        "ufw" => {
            let w = verb_words(cmd, 2);
            w.first().is_some_and(|v| {
                !(matches!(v.as_str(), "status" | "show" | "version" | "help")
                    || (v == "app" && w.get(1).is_some_and(|x| x == "list" || x == "info")))
            })
        }
        "firewall-cmd" => {
            let read_only = |n: &str| {
                matches!(
                    n,
                    "state" | "permanent" | "zone" | "help" | "version" | "quiet"
                ) || ["list-", "get-", "query-", "info-"]
                    .iter()
                    .any(|p| n.starts_with(p))
            };
            o.all().any(|x| x.long) && o.all().any(|x| x.long && !read_only(&x.name))
        }
        "pfctl" => given(PFCTL_CHANGES),
        _ => false,
    };
    hit.then(|| format!("`{name} {}` changes firewall rules", args.join(" ")))
}

impl Rule for FirewallChange {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if super::dry_run(cmd) {
            return;
        }
        if let Some(m) = changes(cmd) {
            out.push(Finding::on(&Self::META, cmd, format!("{m}{}", route(cmd))));
        }
    }
}
