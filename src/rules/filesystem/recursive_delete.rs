//! SG2001: recursive `rm` of anything that is not already blocked as a critical path.

use crate::declare_rule;
use crate::model::Command;
use crate::model::paths::Extent;
use crate::rules::util::{classify, describe, route};
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `rm` with `-r`, `-R` or `--recursive` (in any flag cluster, in any order, or
    /// as an unambiguous prefix such as `--rec`), whatever the target, through wrappers and
    /// nested code. Targets that are already blocked by SG1001 (`/`, a system directory, a
    /// home directory) are not reported a second time.
    ///
    /// ## Why is this bad?
    /// A recursive delete removes a whole tree at once, with no trash can; a wrong path or a
    /// glob that matches more than intended loses work that cannot be recovered.
    ///
    /// ## Example
    /// ```sh
    /// rm -rf ./build        # approve
    /// rm -fR node_modules   # approve
    /// rm notes.txt          # allowed: one file
    /// ```
    ///
    /// ## Known limitations
    /// Every recursive delete asks, including of build output. Under `mode = "smart"` the
    /// policy (`src/policy/smart.rs`) rates a recursive delete inside the working directory,
    /// of a build or cache directory, of a temporary path or of `mktemp` output low-risk and
    /// lets it through; the rule itself does not look at the mode.
    pub struct RecursiveDelete;
    code: "SG2001",
    name: "recursive-delete",
    severity: Approve,
    category: Filesystem,
    hermes: ["recursive delete", LONG_FLAG = "recursive delete (long flag)"],
    programs: ["rm"],
    summary: "Recursive rm (-r, -R, --recursive)",
    pass: ["rm notes.txt", "rm -f a.o b.o", "rmdir build", "echo 'rm -rf build'", "rm -- -r", "rm -rf /"],
    fail: ["rm -rf ./build", "rm -r dir", "rm -fR node_modules", "rm --recursive --force out", "rm -v -i -r x", "sudo rm -rf /tmp/cache", "bash -c 'rm -rf dist'", "rm --rec x"],
}

impl Rule for RecursiveDelete {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let (args, recursive) = super::rm_args(cmd);
        if !recursive || args.is_empty() {
            return;
        }
        let home = cx.ctx.home.as_deref();
        let classes: Vec<Extent> = args.iter().map(|w| classify(cmd, w, home)).collect();
        let rest: Vec<&Extent> = classes
            .iter()
            .filter(|c| !matches!(c, Extent::Root | Extent::SystemDir(_) | Extent::Home(_)))
            .collect();
        if rest.is_empty() {
            // Every target is blocked by SG1001 already.
            return;
        }
        let what = rest
            .iter()
            .map(|c| describe(c))
            .collect::<Vec<_>>()
            .join(", ");
        let o = &cmd.opts;
        let long = o.long("recursive") && !(o.short('r') || o.short('R'));
        let mut f = Finding::on(
            &Self::META,
            cmd,
            format!(
                "rm deletes recursively, with everything below it: {what}{}",
                route(cmd)
            ),
        );
        if long {
            f.hermes = vec![RecursiveDelete::LONG_FLAG];
        }
        out.push(f);
    }
}
