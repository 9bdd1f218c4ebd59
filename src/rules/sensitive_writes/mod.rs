//! Sensitive-write rules: writes, copies and in-place edits into the paths that
//! [`crate::model::paths::catalog`] marks protected (system trees, crontabs, credentials,
//! shell startup files, `.env*`, agent harness configs, shellgate's own config and state).

pub mod copy_into_sensitive;
pub mod in_place_edit_sensitive;
pub mod overwrite_sensitive;
