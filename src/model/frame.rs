//! Where lowering stands: the text being read, the environment as the commands before left
//! it, how the code was reached, and what its stdin carries. Every lowering step and word
//! expansion takes one [`Frame`] instead of these four arguments.
//!
//! A frame borrows the environment, so a step that runs in another environment (a subshell,
//! a pipeline stage, a branch, the child process of a command) makes a new frame over its
//! own copy ([`Frame::in_env`]); nested code makes one over its own source and origin
//! ([`Frame::new`], [`Frame::reading`]).

use super::env::Env;
use super::source::Source;
use super::{Origin, OriginKind, Word};

/// The state one lowering step reads and writes besides the script being built.
pub(crate) struct Frame<'a> {
    /// The bash text being lowered, with its tree and its map back to the original text.
    pub src: &'a Source,
    /// Variables, functions and the working directory at this point; steps that change the
    /// shell's state (`cd`, assignments, `read`) write here.
    pub env: &'a mut Env,
    /// The nesting that led here (top level, `bash -c`, `$(..)`, a function, ...).
    pub origin: &'a Origin,
    /// What the statement reads on stdin, when statically known (a heredoc, a here-string,
    /// the known output of the previous pipeline stage).
    pub stdin: Option<String>,
}

impl<'a> Frame<'a> {
    pub(crate) fn new(
        src: &'a Source,
        env: &'a mut Env,
        origin: &'a Origin,
        stdin: Option<String>,
    ) -> Frame<'a> {
        Frame {
            src,
            env,
            origin,
            stdin,
        }
    }

    /// This frame again for a step inside it (a list item, a branch's condition): the same
    /// text, environment and origin, and a copy of its stdin.
    pub(crate) fn again(&mut self) -> Frame<'_> {
        let stdin = self.stdin.clone();
        self.with_stdin(stdin)
    }

    /// This frame with another stdin (`None` for a substitution or a step that reads none).
    pub(crate) fn with_stdin(&mut self, stdin: Option<String>) -> Frame<'_> {
        Frame {
            src: self.src,
            env: &mut *self.env,
            origin: self.origin,
            stdin,
        }
    }

    /// The same place in another environment: a subshell's or a branch's copy, or the
    /// environment a child process sees.
    pub(crate) fn in_env<'b>(&'b self, env: &'b mut Env) -> Frame<'b> {
        Frame {
            src: self.src,
            env,
            origin: self.origin,
            stdin: self.stdin.clone(),
        }
    }

    /// Another text lowered in this frame's environment (a function body, nested code).
    pub(crate) fn reading<'b>(&'b mut self, src: &'b Source) -> Frame<'b> {
        Frame {
            src,
            env: &mut *self.env,
            origin: self.origin,
            stdin: self.stdin.clone(),
        }
    }
}

/// Shell code that a command runs as nested code (`bash -c CODE`, `eval`, `su -c`, a hook
/// value, an interpreter's shell-out): the code and the origin step it adds.
#[derive(Debug, Clone)]
pub struct NestedCode {
    pub code: Word,
    pub kind: OriginKind,
    /// What introduced it, as `explain` shows it (`su -c`, `watch (runs ... with sh -c)`).
    pub detail: String,
}

impl NestedCode {
    pub fn new(code: Word, kind: OriginKind, detail: impl Into<String>) -> NestedCode {
        NestedCode {
            code,
            kind,
            detail: detail.into(),
        }
    }
}
