//! The lowered model: the simple commands bash will execute, with decoded words and origins.
