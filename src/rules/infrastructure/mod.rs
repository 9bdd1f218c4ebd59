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

/// The first `n` operand words of `cmd` (literal text, unknown parts as `\u{fffd}`),
/// skipping options and the values of options that take one: `short_vals` are short
/// options with a value (`-n prod`), `long_vals` long ones (`--namespace prod`; the
/// `--opt=value` form never consumes the next word).
pub fn verb_words(cmd: &Command, short_vals: &str, long_vals: &[&str], n: usize) -> Vec<String> {
    let args = cmd.arg_texts();
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() && out.len() < n {
        let a = &args[i];
        i += 1;
        if a == "--" {
            out.extend(args[i..].iter().take(n - out.len()).cloned());
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            if !long.contains('=') && long_vals.contains(&long) {
                i += 1;
            }
            continue;
        }
        if a.starts_with('-') && a.len() > 1 {
            let body: Vec<char> = a[1..].chars().collect();
            if let Some(pos) = body.iter().position(|c| short_vals.contains(*c))
                && pos + 1 == body.len()
            {
                i += 1;
            }
            continue;
        }
        out.push(a.clone());
    }
    out
}

/// Is the literal option `f` (or `f=...`) among the arguments?
pub fn has_opt(cmd: &Command, f: &str) -> bool {
    cmd.arg_texts()
        .iter()
        .any(|a| a == f || a.starts_with(&format!("{f}=")))
}

/// `--dry-run`, `--dry-run=client|server`, `--dryrun`: the command changes nothing.
pub fn dry_run(cmd: &Command) -> bool {
    cmd.arg_texts().iter().any(|a| {
        a == "--dry-run"
            || a == "--dryrun"
            || a.strip_prefix("--dry-run=").is_some_and(|v| v != "none")
    })
}
