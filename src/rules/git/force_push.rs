//! SG3302: force pushes and remote ref deletion (`push --force`, `+ref`, `--mirror`, `:ref`).

use crate::declare_rule;
use crate::model::Command;
use crate::rules::util::route;
use crate::rules::{Cx, Finding, Rule};

declare_rule! {
    /// ## What it does
    /// Flags `git push` that rewrites or deletes remote history: `--force`/`-f` (in any
    /// cluster, e.g. `-uf`), `--force-with-lease`, a `+refspec`, `--mirror`, `--delete`/`-d`,
    /// a `:branch` refspec, and `--prune`. Git global options before `push` do not hide it.
    ///
    /// ## Why is this bad?
    /// Other people's commits on the remote branch are replaced or removed; clones that
    /// already fetched them diverge, and the remote may have no reflog to recover from.
    ///
    /// ## Example
    /// ```sh
    /// git push --force origin main    # approve
    /// git push origin main            # allowed
    /// ```
    ///
    /// ## Known limitations
    /// `--force-with-lease` is safer than `--force` but still rewrites history, so it asks
    /// too; push options set in git config (`remote.*.push = +...`) are not seen.
    pub struct ForcePush;
    code: "SG3302",
    name: "git-force-push",
    severity: Approve,
    category: Git,
    hermes: [LONG = "git force push (rewrites remote history)", SHORT = "git force push short flag (rewrites remote history)"],
    programs: ["git"],
    summary: "git push --force, +refspec, --mirror, --delete",
    pass: ["git push", "git push -n -f", "git push origin main", "git push -u origin feature", "git commit -m 'push --force'", "echo git push -f", "git push --tags", "git pull --force"],
    fail: ["git push --force", "git push -f origin main", "git push -uf origin x", "git push --force-with-lease", "git push --force-with-lease=main:abc origin main", "git push origin +main", "git push --mirror backup", "git push origin --delete old", "git push origin :old", "git -C repo push -f", "git push --force-w origin main", "bash -c 'git push -f'"],
}

impl Rule for ForcePush {
    fn check_command(&self, _cx: &Cx, cmd: &Command, out: &mut Vec<Finding>) {
        let a = &cmd.opts;
        if a.sub() != Some("push") {
            return;
        }
        let operands = a.operand_words(cmd.args());
        if a.long("help") || a.long("dry-run") || a.short('n') {
            return;
        }
        let (what, key) = if a.long("force") {
            (
                "--force overwrites the remote branch with local history".to_string(),
                Self::LONG,
            )
        } else if a.long("force-with-lease") {
            ("--force-with-lease overwrites the remote branch if it is where it was last fetched".to_string(), Self::LONG)
        } else if a.short('f') {
            (
                "-f overwrites the remote branch with local history".to_string(),
                Self::SHORT,
            )
        } else if a.long("mirror") {
            (
                "--mirror makes every remote ref match the local ones, deleting the rest"
                    .to_string(),
                Self::LONG,
            )
        } else if a.long("delete") || a.short('d') {
            (
                "--delete deletes remote branches or tags".to_string(),
                Self::LONG,
            )
        } else if a.long("prune") {
            (
                "--prune deletes remote branches that have no local counterpart".to_string(),
                Self::LONG,
            )
        } else if let Some(r) = operands
            .iter()
            .skip(1)
            .filter_map(|w| w.lit())
            .find(|t| t.starts_with('+'))
        {
            (
                format!("the refspec {r} force-updates the remote ref"),
                Self::LONG,
            )
        } else if let Some(r) = operands
            .iter()
            .skip(1)
            .filter_map(|w| w.lit())
            .find(|t| t.starts_with(':') && t.len() > 1)
        {
            (
                format!("the refspec {r} deletes the remote ref"),
                Self::LONG,
            )
        } else {
            return;
        };
        let mut f = Finding::on(&Self::META, cmd, format!("git push {what}{}", route(cmd)));
        f.hermes = vec![key];
        out.push(f);
    }
}
