//! Filesystem rules: recursive deletes and deletes of critical paths.

pub mod delete_protected_path;
pub mod find_delete;
pub mod recursive_delete;
pub mod recursive_delete_critical;
pub mod recursive_delete_maybe_root;
pub mod shred_files;
pub mod windows_delete;
pub mod xargs_rm;

use crate::model::Command;
use crate::rules::util::{Args, FlagSpec, parse};

/// GNU/BSD `rm` options.
pub const RM_SPEC: FlagSpec = FlagSpec {
    short_values: "",
    longs: &[
        "force",
        "interactive",
        "one-file-system",
        "no-preserve-root",
        "preserve-root",
        "recursive",
        "dir",
        "verbose",
        "help",
        "version",
    ],
    long_values: &[],
};

/// `rm` read with its own option grammar, and whether it deletes recursively.
pub fn rm_args(cmd: &Command) -> (Args<'_>, bool) {
    let a = parse(cmd, &RM_SPEC);
    let recursive = a.short('r') || a.short('R') || a.long("recursive");
    (a, recursive)
}
