//! SG1401: recursive chmod/chown/chgrp of `/` or a top-level system directory.

use crate::declare_rule;
use crate::model::paths::Extent;
use crate::model::{Command, Word};
use crate::rules::util::{classify, describe, route};
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Blocks `chmod -R`, `chown -R` and `chgrp -R` (any flag spelling) whose target is `/`
    /// or a top-level system directory (`/usr`, `/etc`, `/var`, ...).
    ///
    /// ## Why is this bad?
    /// Recursive mode or owner changes of system trees break setuid binaries, sshd's key
    /// checks and package ownership; the system typically cannot be repaired in place.
    ///
    /// ## Example
    /// ```sh
    /// chmod -R 777 /          # block
    /// chown -R nobody /usr    # block
    /// chmod -R u+w ./src      # allowed
    /// ```
    ///
    /// ## Known limitations
    /// Home directories are judged by the world-writable and chown-to-root rules instead.
    pub struct RecursivePermissionSystem;
    code: "SG1401",
    name: "recursive-permission-change-of-system",
    severity: Block,
    category: Permissions,
    hermes: [],
    programs: ["chmod", "chown", "chgrp"],
    summary: "Recursive chmod/chown of / or a system directory",
    pass: ["chmod -R u+w ./src", "chown -R user:user ~/project", "chmod 755 /usr/local/bin/tool"],
    fail: ["chmod -R 777 /", "chown -R nobody /usr", "sudo chmod --recursive 000 /etc/", "chgrp -R staff /var"],
}

/// True when this rule reports every one of `targets` (each is `/` or a top-level system
/// directory), so that the other permission rules need not report a recursive change again.
pub(super) fn judges_all(cx: &Cx, cmd: &Command, targets: &[&Word]) -> bool {
    let home = cx.ctx.home.as_deref();
    targets
        .iter()
        .all(|t| matches!(classify(cmd, t, home), Extent::Root | Extent::SystemDir(_)))
}

impl Rule for RecursivePermissionSystem {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        let operands = a.operand_words(cmd.args());
        if !(a.short('R') || a.long("recursive")) {
            return;
        }
        // The first operand is the mode or owner (unless --reference is given).
        let skip = usize::from(!a.long("reference"));
        for t in operands.iter().skip(skip) {
            let class = classify(cmd, t, cx.ctx.home.as_deref());
            if matches!(class, Extent::Root | Extent::SystemDir(_)) {
                let prog = cmd.name.as_deref().unwrap_or("chmod");
                out.push(
                    Finding::on(
                        &Self::META,
                        cmd,
                        format!("recursive {prog} of {}{}", describe(&class), route(cmd)),
                    )
                    .with_span(t.span),
                );
            }
        }
    }
}
