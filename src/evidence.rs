//! The evidence chain behind a finding, as data ([`Evidence`], what `explain --json` carries)
//! and as sentences a newcomer can follow ([`evidence_sentence`], the report's `why` and the
//! text view's lines). Shared by the report and the renderer, below both.

use serde::Serialize;

use crate::model::{OriginKind, WordNote};
use crate::text::{display_text, quote};

/// One step of the evidence chain behind a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Evidence {
    /// What happened while decoding one word (`$'\x72\x6d'` → `rm`, `$X` → `/`).
    Word { word: String, note: WordNote },
    /// A wrapper program peeled off in front of the real program.
    Wrapper { name: String, args: Vec<String> },
    /// Nested code that was parsed again (`bash -c`, `eval`, a decoded payload, ...).
    Nested { origin: OriginKind, detail: String },
    /// The command runs in another directory than the one the script starts in (`cd`).
    Cwd {
        program: String,
        cwd: String,
        start: String,
    },
    /// An unquoted glob that bash expands against the directory the command runs in.
    Glob { word: String, cwd: Option<String> },
    /// Code a shell or interpreter reads on its stdin (from a pipe, heredoc, here-string).
    Stdin { program: String, text: String },
    /// A dataflow path through the graph into the command that runs the code.
    Flow { path: String },
    /// A line of evidence the rule attached (a graph path, a call chain, ...).
    Rule { text: String },
    /// A normalisation step applied before parsing.
    Normalized { note: String },
}

/// A sentence a newcomer can follow for one piece of evidence.
pub fn evidence_sentence(e: &Evidence) -> String {
    match e {
        Evidence::Word { word, note } => match note {
            WordNote::Decoded { from, to } => format!(
                "bash decodes the word {} to {} (quotes, escapes and expansions resolved)",
                quote(from),
                quote(to)
            ),
            WordNote::Expanded { var, value } => {
                format!("in {}, ${var} expands to {}", quote(word), quote(value))
            }
            WordNote::Tilde { to } if word == "~" || word.starts_with("~/") => {
                format!("`~` expands to the home directory {}", quote(to))
            }
            WordNote::UnknownVar { var } => format!(
                "in {}, the value of ${var} is not known before the command runs",
                quote(word)
            ),
            WordNote::Tilde { to } => format!("in {}, `~` expands to {}", quote(word), quote(to)),
            WordNote::SubstitutionOutput { value } => format!(
                "in {}, the command substitution always prints {}",
                quote(word),
                quote(value)
            ),
            WordNote::Braces { count } => {
                format!("{} brace-expands into {count} separate words", quote(word))
            }
        },
        Evidence::Wrapper { name, args } => {
            let full = if args.is_empty() {
                name.clone()
            } else {
                format!("{name} {}", args.join(" "))
            };
            format!(
                "{} is a wrapper: it runs the program after it{}, so shellgate looked through it",
                quote(&full),
                wrapper_effect(name)
            )
        }
        Evidence::Nested { origin, detail } => {
            format!("{} ({})", nesting_sentence(*origin), display_text(detail))
        }
        // Graph paths are rendered by `Flow::describe` with `→edge→` arrows.
        Evidence::Cwd {
            program,
            cwd,
            start,
        } => format!(
            "{} runs in {}, not in the starting directory {} (an earlier `cd` changed it)",
            quote(program),
            quote(cwd),
            quote(start)
        ),
        Evidence::Glob { word, cwd } => match cwd {
            Some(d) => format!(
                "{} is an unquoted glob: bash replaces it with the matching entries of {}",
                quote(word),
                quote(d)
            ),
            None => format!(
                "{} is an unquoted glob: bash replaces it with the matching files",
                quote(word)
            ),
        },
        Evidence::Stdin { program, text } => format!(
            "{} reads this code on its stdin: {}",
            quote(program),
            quote(text.trim_end())
        ),
        Evidence::Flow { path } => format!("the data flows {}", display_text(path)),
        Evidence::Rule { text } if FLOW_ARROWS.iter().any(|a| text.contains(a)) => {
            format!("the dataflow path that fired: {}", display_text(text))
        }
        Evidence::Rule { text } => display_text(text),
        Evidence::Normalized { note } => format!("before parsing, the text was cleaned up: {note}"),
    }
}

/// What a well-known wrapper changes about the program it runs, for the evidence line.
fn wrapper_effect(name: &str) -> &'static str {
    match name {
        "sudo" | "sudoedit" | "doas" => " as another user (root unless told otherwise)",
        "su" | "runuser" => " as another user",
        "env" => " with a changed environment",
        "nice" | "ionice" => " at a changed priority",
        "timeout" => " and stops it after a time limit",
        "nohup" | "setsid" => " detached from the terminal",
        "exec" => " in place of the shell",
        "chroot" => " with another root directory",
        "xargs" => " once or more with arguments read from its input",
        "watch" => " over and over",
        "flock" => " while holding a lock",
        _ => "",
    }
}

/// The edge labels `Flow::describe` writes between the nodes of a path.
const FLOW_ARROWS: &[&str] = &[
    "→pipe→",
    "→writes→",
    "→appends→",
    "→read by→",
    "→saves→",
    "→heredoc→",
    "→process substitution→",
    "→command substitution→",
    "→executed by→",
];

fn nesting_sentence(k: OriginKind) -> &'static str {
    match k {
        OriginKind::CommandSubstitution => {
            "it runs inside a command substitution $(..), whose output becomes part of another command"
        }
        OriginKind::ProcessSubstitution => {
            "it runs inside a process substitution <(..)/>(..), which another command reads or writes like a file"
        }
        OriginKind::ShellString => "a string handed to a shell as code was parsed again as bash",
        OriginKind::Eval => "text given to `eval` was parsed again as bash",
        OriginKind::Source => "a sourced file was parsed as bash",
        OriginKind::HeredocToShell => "a heredoc fed to a shell was parsed as bash",
        OriginKind::StdinToShell => "text piped into a shell was parsed as bash",
        OriginKind::DecodedPayload => "a decoded payload was parsed as bash",
        OriginKind::Interpreter => "code for another interpreter was read for the commands it runs",
        OriginKind::Xargs => "xargs builds and runs this command from its input",
        OriginKind::FindExec => "find runs this command for each file it finds",
        OriginKind::Function => "it runs inside a shell function",
        OriginKind::WrittenScript => "a script written earlier in the command is executed",
    }
}
