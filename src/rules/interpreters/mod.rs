//! Interpreter rules: inline code in python, node, perl, ruby, php.

pub mod inline_code_capability;
