//! Process rules: fork bombs, killing every process, stopping services, force kills and
//! removing crontabs.

pub mod crontab_remove;
pub mod force_kill;
pub mod fork_bomb;
pub mod kill_all_processes;
pub mod kill_dynamic_pid;
pub mod service_stop;
pub mod signals;
