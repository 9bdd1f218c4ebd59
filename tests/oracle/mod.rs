//! The execution oracle: bash runs commands in a sandbox where no program exists, and the
//! argvs it would have executed are compared with shellgate's lowered model.
#![allow(dead_code)]

pub mod compare;
pub mod inputs;
pub mod run;
pub mod sandbox;

use shellgate::policy::decide_default;
use shellgate::{Context, Decision, analyze};

/// The seed already has its labelled decision (seeds that do not are the corpus test's
/// failures, not a respelling's).
pub fn support_passing(cmd: &str, expect: &str) -> bool {
    let d = decide_default(&analyze(cmd, &Context::fixture()));
    match expect {
        "deny" => d == Decision::Deny,
        "ask" => d != Decision::Allow,
        _ => true,
    }
}
