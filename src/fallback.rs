//! Regex catalog over text that did not parse (placeholder until written).
