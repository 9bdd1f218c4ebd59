//! infrastructure rules.
