//! System package rules: removing system packages, installing packages straight from a
//! URL, and adding package sources.

pub mod package_source_added;
pub mod system_package_removal;
pub mod url_package_install;

use crate::model::Command;

/// The operands of `cmd` as its grammar reads them (literal text; unknown parts as
/// `\u{fffd}`).
pub fn operands(cmd: &Command) -> Vec<String> {
    cmd.opts
        .operand_words(cmd.args())
        .iter()
        .map(|w| w.text_with("\u{fffd}"))
        .collect()
}
