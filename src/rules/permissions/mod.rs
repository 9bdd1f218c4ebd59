//! Permission rules: recursive permission changes of system directories, sudo password feeding.

pub mod recursive_perm_system;
pub mod sudo_stdin_password;
