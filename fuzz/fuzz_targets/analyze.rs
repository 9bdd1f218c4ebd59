//! Fuzz target: `shellgate::analyze` on arbitrary UTF-8. Checks the invariants the property
//! tests check (tests/fuzz_props.rs): no panic escapes, spans lie inside the command on char
//! boundaries, and nothing shellgate could not analyse is allowed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shellgate::{Context, Decision, analyze};
use shellgate::policy::decide_default;

fuzz_target!(|data: &[u8]| {
    let Ok(cmd) = std::str::from_utf8(data) else {
        return;
    };
    let a = analyze(cmd, &Context::fixture());
    for f in &a.findings {
        assert!(
            f.span.start <= f.span.end && f.span.end <= cmd.len(),
            "span out of range"
        );
        assert!(cmd.is_char_boundary(f.span.start) && cmd.is_char_boundary(f.span.end));
        assert!(
            !f.message.contains("internal error while analysing"),
            "caught panic: {}",
            f.message
        );
    }
    if a.findings.iter().any(|f| f.rule.starts_with("SG000")) {
        assert_ne!(decide_default(&a), Decision::Allow, "unanalysed input allowed");
    }
});
