//! Regex fallback: a Hermes-keyed pattern catalog scanned over text that did not parse, so that
//! unparsable input still meets at least the unconditional (block) tier.
//!
//! The structural rules judge what bash will execute; this module only sees flat text, so it
//! favours recall over precision (`echo "rm -rf /"` does match here). It still avoids hits
//! that would be silly even for a fallback: power commands must be in command position
//! (`adb reboot` does not match), device patterns list block devices by name (`/dev/null`
//! never matches), and the root/home delete patterns need the target to *be* the root or
//! home (`rm -rf ./build` only meets the generic `recursive delete` pattern).
//!
//! How the regexes are run:
//! - They compile once, on the first call to [`scan`], so a clean parse pays nothing. A pattern
//!   that fails to compile is skipped (never a panic); a unit test requires all to compile.
//! - They are `regex::bytes` regexes built with Unicode disabled: `\w`, `\s` and `\b` are
//!   ASCII, which is what the shell means by them and keeps every pattern on the lazy DFA
//!   (a Unicode `\b` makes the DFA give up on non-ASCII input). Spans are snapped outward to
//!   char boundaries, so a class like `[^\w]` matching half of a multi-byte char cannot
//!   produce a span that splits it.
//! - The `regex` crate has no look-around or back-references. Where a rule needs one, the
//!   regex over-matches and a small check in code decides ([`Check`], named in the pattern): `DELETE FROM` without
//!   `WHERE`, the three names of a fork bomb being equal, and a `/dev/` name not being a
//!   harmless device. A pattern may name a group `m`: the hit's span is that group (so a
//!   consumed left-boundary character is not part of the span), otherwise the whole match.
//! - Bounded work: the regex crate runs in time linear in the haystack, and each search
//!   below sees at most [`MAX_SCAN_WINDOW`] bytes. Text longer than that is scanned in
//!   overlapping windows rather than truncated, because truncation would let padding hide a
//!   block-tier command past the cut. Windows overlap by [`WINDOW_OVERLAP`] bytes, and a
//!   match ending inside the overlap is searched again from its own start with a full window
//!   of lookahead, so results equal a whole-text scan except for a match longer than the
//!   overlap that straddles a window edge (none of the catalog's realistic matches are that
//!   long). Each pattern reports at most [`MAX_HITS_PER_PATTERN`] hits: the caller needs to
//!   know *that* a rule fired, and a per-pattern cap (rather than a global one) means a flood
//!   of approve-tier hits can never crowd out a block-tier one.
//!
//! Layout:
//! - `fragments.rs`: the regex pieces several patterns share (`sp!`, `cmd_pos!`, `rec_rm!`,
//!   `home_t!`, ...), as macros so that `concat!` builds each pattern at compile time.
//! - `catalog/`: the patterns, one file per subject, in scan order; each pattern carries its
//!   check and its examples (`hits`/`misses`, run by the catalog's tests) beside its regex.
//! - `engine.rs`: compiling, windowed scanning, the checks, and span snapping.

#[macro_use]
mod fragments;
mod catalog;
mod engine;

pub use catalog::catalog;
pub use engine::scan;

use crate::{Severity, Span};

/// One catalog pattern that matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FallbackHit {
    /// The Hermes approval key, exactly as Hermes spells it (see `HERMES_KEYS.md`).
    pub key: &'static str,
    pub severity: Severity,
    /// Byte span of the match within the scanned text, on char boundaries.
    pub span: Span,
    /// The stable id of the pattern, like `fb-rm-root`.
    pub pattern_id: &'static str,
}

/// One entry of the catalog.
#[derive(Debug)]
pub struct FallbackPattern {
    /// Stable id (`fb-...`); never reused or renamed.
    pub id: &'static str,
    /// The Hermes key this pattern corresponds to.
    pub key: &'static str,
    pub severity: Severity,
    /// The regex source, in `regex` crate syntax with Unicode disabled (ASCII `\w \s \b`).
    pub regex: &'static str,
    pub description: &'static str,
    /// What decides a match the regex alone cannot.
    pub check: Check,
    /// Texts the pattern must match (tested).
    pub hits: &'static [&'static str],
    /// Texts the pattern must not match (tested).
    pub misses: &'static [&'static str],
}

/// A decision the regex cannot make by itself (it has no look-around or back-references).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Every match is a hit.
    Always,
    /// The whole match is one SQL statement; a hit only if it has no `WHERE`.
    NoSqlWhere,
    /// Groups `a`, `b`, `c` are the function name and the two calls; a hit only if equal.
    SameFunctionName,
    /// Group `d` (or `e`) is a `/dev/` name; a hit only if it is not a harmless device.
    UnsafeDevice,
}

/// Largest slice of text one search looks at; longer text is scanned in windows.
pub const MAX_SCAN_WINDOW: usize = 1 << 20;
/// How much consecutive windows overlap; also the longest match that is always found intact.
pub const WINDOW_OVERLAP: usize = 64 << 10;
/// Hits reported per pattern at most; enough to explain, small enough to bound the output.
pub const MAX_HITS_PER_PATTERN: usize = 64;

/// The hits of one pattern, for the tests of the engine and the catalog.
#[cfg(test)]
fn hits_of(text: &str, id: &str) -> Vec<FallbackHit> {
    scan(text)
        .into_iter()
        .filter(|h| h.pattern_id == id)
        .collect()
}
