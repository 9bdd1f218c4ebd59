//! shellgate: decides whether an AI agent's shell command may run (allow / ask / deny) by
//! parsing it as bash, lowering it to the commands bash would execute, and matching rules.

pub mod fallback;
pub mod model;
pub mod normalize;

use serde::Serialize;

/// A byte range `[start, end)` into the *original* command text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// How bad a finding is: `Block` is unrecoverable (deny in every mode), `Approve` needs a person.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Approve,
    Block,
}
