//! Permission rules: recursive permission changes of system directories, sudo password
//! feeding, world-writable modes, chown to root, and chmod-then-execute.

pub mod chmod_exec;
pub mod chown_root;
pub mod recursive_perm_system;
pub mod sudo_stdin_password;
pub mod world_writable;

use crate::model::{Command, Word};

/// The first operand of `chmod`/`chown` (the mode or owner) with its literal value, and the
/// paths after it; None when that operand is known only at run time or no path follows.
fn spec_and_paths(cmd: &Command) -> Option<(&Word, String, Vec<&Word>)> {
    let mut operands = cmd.opts.operand_words(cmd.args()).into_iter();
    let spec = operands.next()?;
    let value = spec.lit()?;
    let paths: Vec<&Word> = operands.collect();
    (!paths.is_empty()).then_some((spec, value, paths))
}
