//! System rules: power state changes.

pub mod power_state;
