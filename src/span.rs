//! Byte spans into the original command: what every finding, word and diagnostic points at.
//! A base type with no dependencies, below every layer (as `oxc_span` and `ruff_text_size`).

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
