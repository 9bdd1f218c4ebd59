//! SQL rules: destructive statements passed to database clients.

pub mod destructive_sql;
