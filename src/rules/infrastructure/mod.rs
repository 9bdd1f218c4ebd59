//! Infrastructure rules: deleting or stopping cloud and cluster resources, destroying
//! infrastructure-as-code stacks, firewall, boot-chain, disk-encryption and user-account
//! changes, and the long tail of destructive subcommands by verb.

pub mod boot_chain_change;
pub mod cloud_resource_destroy;
pub mod cluster_resource_destroy;
pub mod destructive_verb;
pub mod disk_encryption_destroy;
pub mod firewall_change;
pub mod iac_destroy;
pub mod user_account_change;

use crate::model::Command;

/// The first `n` operand words of `cmd` (literal text, unknown parts as `\u{fffd}`), read
/// by the program's grammar (`Command::opts`), so the values of options that take one
/// (`-n prod`, `--namespace prod`) are not verbs.
pub fn verb_words(cmd: &Command, n: usize) -> Vec<String> {
    cmd.opts
        .operand_words(cmd.args())
        .iter()
        .take(n)
        .map(|w| w.text_with("\u{fffd}"))
        .collect()
}

/// Was the long option `name` (`--name`, `--name=x`; `-name` for single-dash grammars such
/// as terraform's) given?
pub fn has_long(cmd: &Command, name: &str) -> bool {
    cmd.opts.all().any(|o| o.long && o.name == name)
}

/// `--dry-run`, `--dry-run=client|server`, `--dryrun`: the command changes nothing.
pub fn dry_run(cmd: &Command) -> bool {
    let args = cmd.args();
    cmd.opts.all().any(|o| {
        o.long
            && (o.name == "dryrun"
                || o.name == "dry-run"
                    && crate::model::opts::value_word(args, o)
                        .is_none_or(|v| v.lit().as_deref() != Some("none")))
    })
}
