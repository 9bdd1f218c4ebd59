//! What lowering one statement produces: its commands, where its stdin and stdout go, and
//! its output when known.

use super::CmdId;

/// The result of lowering one statement.
#[derive(Debug, Clone, Default)]
pub(crate) struct Block {
    pub commands: Vec<CmdId>,
    /// Commands that read the statement's stdin.
    pub heads: Vec<CmdId>,
    /// Commands whose stdout is the statement's stdout.
    pub tails: Vec<CmdId>,
    /// What the statement prints, when known.
    pub output: Option<String>,
}

impl Block {
    /// Take `b`'s commands in as part of this statement (its output is not combined).
    pub(crate) fn absorb(&mut self, b: Block) {
        self.commands.extend(b.commands);
        self.heads.extend(b.heads);
        self.tails.extend(b.tails);
    }

    /// Run `b` after this statement: commands in order, outputs concatenated.
    pub(crate) fn then(&mut self, mut b: Block) {
        let output = b.output.take();
        self.absorb(b);
        self.output = match (self.output.take(), output) {
            (Some(a), Some(c)) => Some(a + &c),
            _ => None,
        };
    }
    pub(crate) fn empty_output() -> Block {
        Block {
            output: Some(String::new()),
            ..Block::default()
        }
    }
}
