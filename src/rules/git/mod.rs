//! Git rules: history and work loss (`reset --hard`, force push, `clean -f`, branch force
//! delete, discarding work-tree changes, dropping stashes, rewriting history). git's
//! global options and subcommands are read by its grammar in `model::opts::grammars`.

pub mod branch_force_delete;
pub mod clean_force;
pub mod discard_changes;
pub mod force_push;
pub mod history_rewrite;
pub mod reset_hard;
pub mod stash_drop;
pub mod sync_delete;

use crate::model::{Command, Word};

/// The git subcommand and the words after it, read from the command's option grammar
/// (git's global options such as `-C dir`, `-c k=v`, `--git-dir x` come before it). `None`
/// when there is no subcommand or it is known only at run time.
pub fn subcommand(cmd: &Command) -> Option<(String, &[Word])> {
    let sub = cmd.opts.sub()?.to_string();
    Some((sub, cmd.opts.after_sub(cmd.args())))
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
