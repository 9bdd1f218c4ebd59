//! SG2004: `xargs rm`: deleting whatever names arrive on standard input.

use crate::declare_rule;
use crate::model::{Command, OriginKind};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Flags `rm` (and `unlink`) run by `xargs` (`... | xargs rm`, `xargs -0 rm -f`, `sudo xargs rm`,
    /// `xargs -I{} rm {}`, also inside `bash -c`).
    ///
    /// ## Why is this bad?
    /// The files deleted are whatever the previous command prints, which shellgate cannot
    /// see; names with spaces or a wrong filter turn into unintended deletes.
    ///
    /// ## Example
    /// ```sh
    /// git ls-files -o | xargs rm      # approve
    /// ls | xargs echo                 # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `xargs shred` is judged by the shred rule; `parallel rm` is not recognised here.
    pub struct XargsRm;
    code: "SG2004",
    name: "xargs-rm",
    severity: Approve,
    category: Filesystem,
    hermes: ["xargs with rm"],
    programs: ["rm", "unlink"],
    summary: "rm of names read by xargs",
    pass: ["ls | xargs echo", "find . -print0 | xargs -0 wc -l", "echo 'xargs rm'", "rm a.txt"],
    fail: ["ls *.tmp | xargs rm", "find . -name '*.o' -print0 | xargs -0 rm -f", "cat list | sudo xargs rm", "xargs -I{} rm {} < files.txt", "git ls-files -o | xargs -n1 /bin/rm", "ls | xargs -n1 unlink"],
}

impl Rule for XargsRm {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if cmd.has_wrapper("xargs") || cmd.origin.steps.iter().any(|s| s.kind == OriginKind::Xargs)
        {
            out.push(Finding::on(
                &Self::META,
                cmd,
                format!(
                    "xargs runs {} on names read from its input{}",
                    cmd.name.as_deref().unwrap_or("rm"),
                    route(cmd)
                ),
            ));
        }
    }
}
