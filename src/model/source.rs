//! Bash text with its parse tree, and the map from its offsets back to the original command.

use std::rc::Rc;

use crate::Span;
use crate::normalize::Normalized;
use crate::syntax::{NodeId, Tree};

/// How offsets in a source map back to the top-level normalised text.
#[derive(Debug, Clone, Copy)]
pub enum SrcMap {
    /// Local offset + base = normalised offset (the code is a verbatim slice).
    Offset(usize),
    /// The code was decoded; every span maps to this original span (the word it came from).
    Fixed(Span),
}

/// One piece of bash text with its parse tree.
#[derive(Debug)]
pub struct Source {
    pub text: String,
    pub tree: Tree,
    pub map: SrcMap,
}

impl Source {
    /// Normalised-text span of a local span, when the source is a verbatim slice.
    pub fn nspan(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        match self.map {
            SrcMap::Offset(b) => Some((b + start, b + end)),
            SrcMap::Fixed(_) => None,
        }
    }

    /// Original-text span of a local span.
    pub fn span(&self, start: usize, end: usize, norm: &Normalized) -> Span {
        match self.map {
            SrcMap::Offset(b) => norm.span_to_original(b + start, b + end),
            SrcMap::Fixed(s) => s,
        }
    }
}

/// A function definition, kept so calls can lower its body with their arguments.
#[derive(Debug)]
pub struct FnBody {
    pub src: Rc<Source>,
    pub node: NodeId,
    pub name: String,
    pub index: usize,
}
