//! Interpreter rules: inline code in python, node, perl, ruby, php.
