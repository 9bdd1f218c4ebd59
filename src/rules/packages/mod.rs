//! packages rules.
