//! SG2003: `find ... -delete`, and `rm` run by `find -exec`/`-execdir`/`-ok`.

use crate::declare_rule;
use crate::model::opts::grammars::find_takes_value;
use crate::model::{Command, OriginKind};
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `find` with the `-delete` action, and any `rm` or `unlink` that `find` runs through
    /// `-exec`, `-execdir`, `-ok` or `-okdir` (also `/bin/rm`, `sudo rm`, or an `rm` inside
    /// `-exec sh -c '...'`).
    ///
    /// ## Why is this bad?
    /// find deletes every file its expression matches, anywhere below the start directories;
    /// a test that matches more than intended (or a misplaced `-delete`, which acts before
    /// later tests) removes files in bulk.
    ///
    /// ## Example
    /// ```sh
    /// find . -name '*.pyc' -delete        # approve
    /// find . -type f -exec rm {} \;       # approve
    /// find . -name '*.pyc' -print         # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `find -exec shred` is judged by the shred rule; other deleting programs run by find
    /// (`truncate`, `mv` to `/dev/null`) are not recognised.
    pub struct FindDelete;
    code: "SG2003",
    name: "find-delete",
    severity: Approve,
    category: Filesystem,
    hermes: ["find -delete", EXEC_RM = "find -exec/-execdir rm"],
    programs: ["find", "rm", "unlink"],
    summary: "find -delete or find -exec rm",
    pass: ["find . -name '*.pyc'", "find . -name x -print", "find . -exec ls {} \\;", "echo find . -delete", "find . -name '-delete'"],
    fail: ["find . -name '*.pyc' -delete", "find /tmp -mtime +7 -delete", "find . -type f -exec rm {} \\;", "find . -execdir /bin/rm -f {} +", "sudo find /var/log -name '*.gz' -exec rm -f {} +", "find . -exec sh -c 'rm \"$1\"' _ {} \\;", "find . -name x -exec unlink {} \\;"],
}

impl Rule for FindDelete {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if cmd.is("find") {
            // `-delete` as an expression word; the words of `-exec ... ;` clauses and the
            // values of tests (`-name -delete`) are not actions.
            let words = cmd.args();
            let mut i = 0;
            while i < words.len() {
                let t = words[i].lit().unwrap_or_default();
                match t.as_str() {
                    "-exec" | "-execdir" | "-ok" | "-okdir" => {
                        i += 1;
                        while i < words.len() {
                            let e = words[i].lit().unwrap_or_default();
                            i += 1;
                            if e == ";" || e == "+" {
                                break;
                            }
                        }
                        continue;
                    }
                    "-delete" => {
                        out.push(
                            Finding::on(
                                &Self::META,
                                cmd,
                                format!(
                                    "find -delete deletes every file the expression matches{}",
                                    route(cmd)
                                ),
                            )
                            .with_span(words[i].span),
                        );
                        return;
                    }
                    _ if find_takes_value(&t) => i += 2,
                    _ => i += 1,
                }
            }
        } else if cmd
            .origin
            .steps
            .iter()
            .any(|s| s.kind == OriginKind::FindExec)
        {
            let mut f = Finding::on(
                &Self::META,
                cmd,
                format!(
                    "find runs {} on every file it matches{}",
                    cmd.name.as_deref().unwrap_or("rm"),
                    route(cmd)
                ),
            );
            f.hermes = vec![FindDelete::EXEC_RM];
            out.push(f);
        }
    }
}
