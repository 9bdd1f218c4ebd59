//! Filesystem rules: recursive deletes and deletes of critical paths.

pub mod delete_protected_path;
pub mod find_delete;
pub mod recursive_delete;
pub mod recursive_delete_critical;
pub mod recursive_delete_maybe_root;
pub mod shred_files;
pub mod windows_delete;
pub mod xargs_rm;

use crate::model::{Command, Word};

/// The operands of `rm` (read with its grammar, `Command::opts`), and whether it deletes
/// recursively.
pub fn rm_args(cmd: &Command) -> (Vec<&Word>, bool) {
    let o = &cmd.opts;
    let recursive = o.short('r') || o.short('R') || o.long("recursive");
    (o.operand_words(cmd.args()), recursive)
}
