//! SG1001: recursive delete of `/`, a top-level system directory, or a home directory.

use crate::declare_rule;
use crate::model::opts::grammars;
use crate::model::paths::Extent;
use crate::model::{Command, Word};
use crate::rules::util::{classify, describe, route};
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Blocks a recursive delete whose target is `/` (or `/*`, or a glob over top-level
    /// entries), a top-level system directory (`/etc`, `/usr`, `/home`, macOS `/System`,
    /// ...), or a home directory itself (`~`, `~/*`, `$HOME`, `/home/<user>`). Targets are
    /// judged after decoding, variable expansion and `cd` tracking, through wrappers and
    /// nested code: `X=/; sudo bash -c "rm -rf $X"` and `cd / && rm -rf *` are both caught.
    /// `find <critical dir> -delete` without any filter counts too.
    ///
    /// ## Why is this bad?
    /// It destroys the system or all of a user's data; nothing can approve it safely.
    ///
    /// ## Example
    /// ```sh
    /// rm -rf /          # block
    /// rm -rf ./build    # not this rule (an ordinary recursive delete)
    /// ```
    ///
    /// ## Known limitations
    /// Targets known only at run time (`rm -rf "$(cat dirs.txt)"`) cannot be judged here;
    /// they are at least `approve` through the recursive-delete rules.
    pub struct RecursiveDeleteCritical;
    code: "SG1001",
    name: "recursive-delete-critical-path",
    severity: Block,
    category: Filesystem,
    hermes: [ROOT = "recursive delete of root filesystem", SYSTEM_DIR = "recursive delete of system directory", HOME = "recursive delete of home directory"],
    programs: ["rm", "find"],
    summary: "Recursive delete of /, a system directory, or a home directory",
    pass: ["rm -rf ./build", "rm -rf /tmp/cache", "echo 'rm -rf /'", "rm notes.txt", "find . -name '*.pyc' -delete", "rm -r ~/project/tmp"],
    fail: [
        "rm -rf /",
        "rm -fr /*",
        "sudo rm -r -f --no-preserve-root /",
        "/bin/rm -rf ~",
        "r\\m -rf \"$HOME\"",
        "X=/; rm -rf $X",
        "cd / && rm -rf *",
        "rm -rf /usr/",
        "rm --recursive --force /etc",
        "bash -c 'rm -rf ~/'",
        "eval 'rm -rf /home/user'",
        "find / -delete",
        "rm -rf /Users/alice",
        "python3 -c 'import shutil; shutil.rmtree(\"/home/user\")'",
    ],
}

impl RecursiveDeleteCritical {
    fn judge(cx: &Cx, cmd: &Command, target: &Word, how: &str, out: &mut Vec<Finding>) {
        let class = classify(cmd, target, cx.ctx.home.as_deref());
        let key = match class {
            Extent::Root => RecursiveDeleteCritical::ROOT,
            Extent::SystemDir(_) => RecursiveDeleteCritical::SYSTEM_DIR,
            Extent::Home(_) => RecursiveDeleteCritical::HOME,
            _ => return,
        };
        let mut f = Finding::on(
            &Self::META,
            cmd,
            format!("{how} deletes {}{}", describe(&class), route(cmd)),
        )
        .with_span(target.span);
        if target.span.end <= target.span.start {
            f.span = cmd.span;
        }
        f.hermes = vec![key];
        out.push(f);
    }
}

impl Rule for RecursiveDeleteCritical {
    fn check_command(&self, cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        if cmd.is("rm") {
            let (args, recursive) = super::rm_args(cmd);
            if !recursive {
                return;
            }
            for t in &args {
                Self::judge(cx, cmd, t, "recursive rm", out);
            }
        } else if cmd.is("find") {
            // `find DIR... -delete` with no test before `-delete` removes everything below.
            let words = cmd.args();
            let texts: Vec<String> = words.iter().map(|w| w.text_with("\u{fffd}")).collect();
            if !texts.iter().any(|t| t == "-delete") {
                return;
            }
            // Read by find's grammar: its options (`-L`, `-D debugopts`) come before the
            // paths, and the expression starts at the first word find reads as one.
            let (paths, first_expr) = grammars::find_paths(&cmd.opts, words);
            let filtered = texts[first_expr..]
                .iter()
                .take_while(|t| *t != "-delete")
                .any(|t| {
                    !matches!(
                        t.as_str(),
                        "-depth" | "-xdev" | "-mount" | "-ignore_readdir_race" | "-noleaf"
                    )
                });
            if filtered {
                return;
            }
            for w in paths.iter().filter_map(|&i| words.get(i)) {
                Self::judge(cx, cmd, w, "find -delete", out);
            }
        }
    }
}
