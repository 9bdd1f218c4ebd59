//! Git rules: history and work loss (`reset --hard`, force push, `clean -f`, branch force
//! delete, discarding work-tree changes, dropping stashes, rewriting history). Shared
//! reading of git's global options lives here.

pub mod branch_force_delete;
pub mod clean_force;
pub mod discard_changes;
pub mod force_push;
pub mod history_rewrite;
pub mod reset_hard;
pub mod stash_drop;
pub mod sync_delete;

use crate::model::{Command, Word};

/// Global options of `git` that take the next word as their value.
const VALUE_GLOBALS: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--super-prefix",
    "--config-env",
    "--attr-source",
];

/// Index into `cmd.args()` of the git subcommand, after global options (`-C dir`,
/// `-c k=v`, `--git-dir=x`, `--work-tree x`, `-p`, `--no-pager`, ...). `None` when there is
/// no subcommand or it is known only at run time.
pub fn subcommand_index(cmd: &Command) -> Option<usize> {
    let words = cmd.args();
    let mut i = 0;
    while i < words.len() {
        let t = words[i].lit()?;
        if !t.starts_with('-') {
            return Some(i);
        }
        if VALUE_GLOBALS.contains(&t.as_str()) {
            i += 2;
        } else {
            i += 1;
        }
    }
    None
}

/// The git subcommand and the words after it.
pub fn subcommand(cmd: &Command) -> Option<(String, &[Word])> {
    let i = subcommand_index(cmd)?;
    let words = cmd.args();
    let sub = words.get(i)?.lit()?;
    Some((sub, words.get(i + 1..).unwrap_or(&[])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Context, analyze};

    fn sub(src: &str) -> Option<String> {
        let a = analyze(src, &Context::fixture());
        let cmd = a.script.commands.iter().find(|c| c.is("git"))?;
        subcommand(cmd).map(|(s, _)| s)
    }

    #[test]
    fn global_options_do_not_hide_the_subcommand() {
        assert_eq!(sub("git -C repo reset --hard").as_deref(), Some("reset"));
        assert_eq!(
            sub("git -c a.b=c --no-pager -p push -f").as_deref(),
            Some("push")
        );
        assert_eq!(
            sub("git --git-dir=.git --work-tree x clean -f").as_deref(),
            Some("clean")
        );
        assert_eq!(
            sub("git --git-dir .git branch -D x").as_deref(),
            Some("branch")
        );
        assert_eq!(sub("git --version"), None);
        assert_eq!(sub("git $SUB --hard"), None);
    }
}
