//! SG3305: discarding work-tree changes wholesale (`git checkout -- .`, `git restore .`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `git checkout -- .`, `git checkout .` (also `:/`, `*`, `./`, or
    /// `git checkout REV -- .`), `git checkout -f`/`--force`, `git restore .` and
    /// `git restore --worktree|--source=X .` (not `git restore --staged .`, which only
    /// unstages), and `git switch --discard-changes|-f`. Named paths count too: `git
    /// checkout -- f`, `git checkout REV -- f`, `git checkout REV f`, `git checkout
    /// src/a.ts` (an operand that is a file path: it has a file extension, a `./` or `../`
    /// start, a trailing `/` or a glob), `git restore f` without `--staged`.
    ///
    /// ## Why is this bad?
    /// Every uncommitted edit in the work tree is overwritten with the committed version;
    /// those edits were never stored anywhere git can recover them from.
    ///
    /// ## Example
    /// ```sh
    /// git checkout -- .          # approve
    /// git restore --staged .     # allowed: unstages only
    /// git checkout main          # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `git checkout NAME` with one operand that looks like a branch (`feature/x`,
    /// `path/to/file` without an extension) is read as switching branches; git decides by
    /// what exists in the repository. Interactive `--patch` is allowed.
    pub struct DiscardChanges;
    code: "SG3305",
    name: "git-discard-worktree-changes",
    severity: Approve,
    category: Git,
    hermes: [],
    programs: ["git"],
    summary: "git checkout -- . / git restore . discard uncommitted changes",
    pass: ["git checkout main", "git checkout -b feature", "git restore --staged .", "git restore --staged README.md", "git checkout feature/x", "git checkout v1.2.3", "git checkout -b feat origin/feat", "git restore -p", "echo git checkout .", "git commit -m 'checkout .'"],
    fail: ["git checkout -- .", "git checkout .", "git checkout HEAD -- .", "git restore .", "git restore --worktree --staged .", "git restore --source=HEAD~2 :/", "git checkout -f main", "git switch --discard-changes main", "git -C app checkout -- .", "git checkout -- src/a.rs", "git checkout src/a.ts", "git checkout HEAD -- f", "git checkout main src/a.ts", "git restore README.md", "git restore -s HEAD~1 src/a.ts"],
}

/// Does a lone checkout operand name a file rather than a branch or tag?
fn looks_like_path(p: &str) -> bool {
    if p.starts_with("./")
        || p.starts_with("../")
        || p.ends_with('/')
        || p.contains(['*', '?', '['])
    {
        return true;
    }
    let last = p.rsplit('/').next().unwrap_or(p);
    match last.rsplit_once('.') {
        Some((stem, ext)) => {
            !stem.is_empty()
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphabetic())
        }
        None => false,
    }
}

/// Does this pathspec cover the whole work tree?
fn whole_tree(p: &str) -> bool {
    matches!(
        p,
        "." | "./" | ":/" | ":/." | "*" | ":(top)" | ":(glob)**" | "**"
    )
}

impl Rule for DiscardChanges {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        let operands = a.operand_words(cmd.args());
        let what = match a.sub().unwrap_or_default() {
            "checkout" => {
                if a.long("help") {
                    return;
                }
                let ops: Vec<String> = operands.iter().map(|w| w.shown()).collect();
                // Operands after `--` are paths; `git checkout REV f..` names paths after the
                // tree-ish; a lone operand is a path only when it looks like one.
                let before = a
                    .end_of_options
                    .map_or(ops.len(), |d| a.operands.iter().filter(|&&i| i < d).count());
                let paths: Vec<&String> = if a.end_of_options.is_some() {
                    ops[before.min(ops.len())..].iter().collect()
                } else if ops.len() >= 2 {
                    ops[1..].iter().collect()
                } else {
                    ops.iter().filter(|t| looks_like_path(t)).collect()
                };
                if let Some(p) = ops.iter().find(|t| whole_tree(t)) {
                    format!("git checkout {p} overwrites every uncommitted change in the work tree")
                } else if !paths.is_empty() && !a.flag('p', "patch") {
                    let shown: Vec<&str> = paths.iter().take(3).map(|s| s.as_str()).collect();
                    format!(
                        "git checkout of {} discards uncommitted changes to those files",
                        shown.join(" ")
                    )
                } else if a.flag('f', "force") {
                    "git checkout -f throws away local changes while switching".to_string()
                } else {
                    return;
                }
            }
            "restore" => {
                let staged = a.flag('S', "staged");
                let worktree = a.flag('W', "worktree");
                if (staged && !worktree) || a.long("help") {
                    return;
                }
                if a.flag('p', "patch") {
                    return;
                }
                let ops: Vec<String> = operands.iter().map(|w| w.shown()).collect();
                if let Some(p) = ops.iter().find(|t| whole_tree(t)) {
                    format!("git restore {p} overwrites every uncommitted change in the work tree")
                } else if let Some(p) = ops.first() {
                    format!("git restore {p} discards uncommitted changes to that file")
                } else {
                    return;
                }
            }
            "switch" => {
                if !(a.flag('f', "force") || a.long("discard-changes")) {
                    return;
                }
                "git switch --discard-changes throws away local changes while switching".to_string()
            }
            _ => return,
        };
        out.push(Finding::on(
            &Self::META,
            cmd,
            format!("{what}{}", route(cmd)),
        ));
    }
}
