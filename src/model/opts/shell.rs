//! How a shell (`bash`, `sh`, `zsh`, ...) reads its own argv, for the lowering of `sh -c CODE`
//! / `sh script` / `sh -s` and for the rules that look at the code word.
//!
//! Shells are not read by the generic [`super::parse`]: `+o opt` turns an option off, `-o`
//! and `-O` take the next word even at the end of a bundle (`-eo pipefail`), `--rcfile` and
//! `--init-file` take a value, and a word whose text is known only at run time ends the
//! options (it may be the code itself), where the generic grammar would read it as an
//! operand after flagging the options as dynamic.

use crate::model::Word;

/// What a shell's options say about where its code comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShellArgs {
    /// `-c` was given: the first word after the options is the code.
    pub code_string: bool,
    /// `-s` was given: the code is read from stdin even if operands follow.
    pub reads_stdin: bool,
    /// Index (in the arguments) of the first word after the options.
    pub rest: usize,
}

/// Read a shell's arguments (the words after its name).
pub fn shell_args(args: &[Word]) -> ShellArgs {
    let mut i = 0;
    let mut code_string = false;
    let mut reads_stdin = false;
    while i < args.len() {
        let Some(a) = args[i].lit() else { break };
        if a == "--" || a == "-" {
            i += 1;
            break;
        }
        if a.starts_with("--") {
            i += if matches!(a.as_str(), "--rcfile" | "--init-file") {
                2
            } else {
                1
            };
            continue;
        }
        if (a.starts_with('-') || a.starts_with('+')) && a.len() > 1 {
            let flags = &a[1..];
            code_string |= flags.contains('c');
            reads_stdin |= flags.contains('s');
            // `-o opt` / `-O opt` take a value.
            i += if flags.ends_with('o') || flags.ends_with('O') {
                2
            } else {
                1
            };
            continue;
        }
        break;
    }
    ShellArgs {
        code_string,
        reads_stdin,
        rest: i,
    }
}
