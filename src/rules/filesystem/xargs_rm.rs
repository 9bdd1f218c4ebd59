//! SG2004: `xargs rm`: deleting whatever names arrive on standard input.

use crate::declare_rule;
use crate::model::{Command, OriginKind};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `rm` (and `unlink`) run by `xargs` (`... | xargs rm`, `xargs -0 rm -f`, `sudo xargs rm`,
    /// `xargs -I{} rm {}`, also inside `bash -c`), and by GNU `parallel` (`parallel rm ::: *.tmp`,
    /// `... | parallel rm {}`).
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
    /// `xargs shred` is judged by the shred rule.
    pub struct XargsRm;
    code: "SG2004",
    name: "xargs-rm",
    severity: Approve,
    category: Filesystem,
    hermes: ["xargs with rm"],
    programs: ["rm", "unlink"],
    summary: "rm of names read by xargs",
    pass: ["ls | xargs echo", "find . -print0 | xargs -0 wc -l", "echo 'xargs rm'", "rm a.txt"],
    fail: ["ls *.tmp | xargs rm", "find . -name '*.o' -print0 | xargs -0 rm -f", "cat list | sudo xargs rm", "xargs -I{} rm {} < files.txt", "git ls-files -o | xargs -n1 /bin/rm", "ls | xargs -n1 unlink", "parallel rm ::: a b", "ls *.log | parallel rm {}"],
}

impl Rule for XargsRm {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let (runner, names) = if cmd.has_wrapper("xargs")
            || cmd.origin.steps.iter().any(|s| s.kind == OriginKind::Xargs)
        {
            ("xargs", "names read from its input")
        } else if cmd
            .origin
            .steps
            .iter()
            .any(|s| s.kind == OriginKind::ShellString && s.detail.starts_with("parallel"))
        {
            ("parallel", "names it substitutes at run time")
        } else {
            return;
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!(
                "{runner} runs {} on {names}{}",
                cmd.name.as_deref().unwrap_or("rm"),
                route(cmd)
            ),
        ));
    }
}
