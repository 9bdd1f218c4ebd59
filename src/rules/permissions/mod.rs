//! Permission rules: recursive permission changes of system directories, sudo password
//! feeding, world-writable modes, chown to root, and chmod-then-execute.

pub mod chmod_exec;
pub mod chown_root;
pub mod recursive_perm_system;
pub mod sudo_stdin_password;
pub mod world_writable;
