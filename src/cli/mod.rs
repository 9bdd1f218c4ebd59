//! The clap front end: the only place that prints or decides exit codes.
//!
//! Exit codes: 0 allow, 1 ask, 2 deny (for `check` and `explain`); 64 usage error;
//! 70 internal error. No error ever exits 0.

mod check;

use clap::{Parser, Subcommand};

pub const EXIT_ALLOW: i32 = 0;
pub const EXIT_ASK: i32 = 1;
pub const EXIT_DENY: i32 = 2;
pub const EXIT_USAGE: i32 = 64;
pub const EXIT_INTERNAL: i32 = 70;

const EXIT_CODES: &str = "Exit codes:
  0   allow (check/explain), or success
  1   ask: a person must approve the command
  2   deny: the command must not run
  64  usage error (bad arguments, unreadable or invalid input)
  70  internal error";

#[derive(Parser, Debug)]
#[command(name = "shellgate", version, about = "A guard for AI agents' shell commands: allow, ask or deny, and why.", after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Decide one command (or a JSONL batch) and print the decision and findings.
    Check(check::CheckArgs),
}

/// Run the CLI; returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => EXIT_USAGE,
            };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Cmd::Check(a) => check::run(a),
    }
}

/// Exit code for a decision.
pub fn decision_exit(d: shellgate_decision::Decision) -> i32 {
    match d {
        shellgate_decision::Decision::Allow => EXIT_ALLOW,
        shellgate_decision::Decision::Ask => EXIT_ASK,
        shellgate_decision::Decision::Deny => EXIT_DENY,
    }
}

mod shellgate_decision {
    pub use crate::Decision;
}

/// Read a command from an argument or `-` (stdin). Invalid UTF-8 is an error.
pub fn read_command(arg: &str) -> Result<String, String> {
    if arg != "-" {
        return Ok(arg.to_string());
    }
    use std::io::Read;
    let mut buf = Vec::new();
    std::io::stdin()
        .take(crate::MAX_COMMAND_BYTES as u64 * 16)
        .read_to_end(&mut buf)
        .map_err(|e| format!("could not read the command from stdin: {e}"))?;
    String::from_utf8(buf).map_err(|e| {
        format!(
            "the command on stdin is not valid UTF-8 (first bad byte at offset {}); pass text",
            e.utf8_error().valid_up_to()
        )
    })
}
