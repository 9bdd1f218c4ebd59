//! System package rules: removing system packages, installing packages straight from a
//! URL, and adding package sources.

pub mod package_source_added;
pub mod system_package_removal;
pub mod url_package_install;

use crate::model::Command;

/// The non-option words of `cmd`'s arguments (literal text; unknown parts as `\u{fffd}`).
pub fn operands(cmd: &Command) -> Vec<String> {
    cmd.arg_texts()
        .into_iter()
        .filter(|a| !a.starts_with('-'))
        .collect()
}
