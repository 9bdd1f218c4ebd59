//! SG2102: `chown -R` to root.

use crate::declare_rule;
use crate::model::Command;
use crate::rules::permissions::recursive_perm_system::judges_all;
use crate::rules::permissions::spec_and_paths;
use crate::rules::util::{route, shown_list};
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags a recursive `chown` (`-R`, `--recursive`, any cluster) whose new owner is root
    /// (`root`, `root:root`, `root:staff`, `0`, `0:0`, `root.root`).
    ///
    /// ## Why is this bad?
    /// Handing a user's tree to root locks the user out of their own files (builds, editors
    /// and the agent itself then fail or need sudo), and it is hard to undo selectively.
    ///
    /// ## Example
    /// ```sh
    /// sudo chown -R root:root ./app     # approve
    /// chown -R user:user ./app          # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `/` and system directories are blocked by SG1401 and not reported again; an owner
    /// known only at run time is not judged.
    pub struct ChownRoot;
    code: "SG2102",
    name: "recursive-chown-to-root",
    severity: Approve,
    category: Permissions,
    hermes: ["recursive chown to root", RECURSIVE_LONG_FLAG = "recursive chown to root (long flag)"],
    programs: ["chown"],
    summary: "chown -R to root",
    pass: ["chown -R user:user ./app", "chown root f", "chown -R www-data dist", "echo chown -R root x", "chown -R root /usr"],
    fail: ["chown -R root ./app", "sudo chown -R root:root ~/project", "chown --recursive 0:0 build", "chown -hR root.wheel x", "chown -R -v root: data"],
}

/// Is this `OWNER[:GROUP]` spec root?
fn is_root_owner(spec: &str) -> bool {
    let owner = spec.split([':', '.']).next().unwrap_or("");
    owner == "root" || owner == "0"
}

impl Rule for ChownRoot {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        if !(a.short('R') || a.long("recursive")) || a.long("reference") {
            return;
        }
        let Some((owner, o, targets)) = spec_and_paths(cmd) else {
            return;
        };
        if !is_root_owner(&o) || judges_all(cx, cmd, &targets) {
            return;
        }
        let names = shown_list(&targets);
        let mut f = Finding::on(
            &Self::META,
            cmd,
            format!(
                "chown -R {o} hands {names} and everything below it to root{}",
                route(cmd)
            ),
        )
        .with_span(owner.span);
        if a.long("recursive") && !a.short('R') {
            f.hermes = vec![ChownRoot::RECURSIVE_LONG_FLAG];
        }
        out.push(f);
    }
}
