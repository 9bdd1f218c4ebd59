//! Process rules: fork bombs and killing every process.

pub mod fork_bomb;
pub mod kill_all_processes;
