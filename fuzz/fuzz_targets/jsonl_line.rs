//! Fuzz target: one `check --jsonl` input line, decoded the way `src/cli/check.rs` decodes it
//! (UTF-8, then JSON, then a string `cmd`), then analysed. Whatever the bytes, either the line
//! is rejected (the CLI answers deny) or it is a command and gets the library's decision;
//! nothing panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shellgate::{Context, Decision, analyze};
use shellgate::policy::decide_default;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    let line = line.trim_end_matches(['\n', '\r']);
    if line.trim().is_empty() {
        return;
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
        return;
    };
    let Some(cmd) = v.get("cmd").and_then(|c| c.as_str()) else {
        return;
    };
    let a = analyze(cmd, &Context::fixture());
    if a.findings.iter().any(|f| f.rule.starts_with("SG000")) {
        assert_ne!(decide_default(&a), Decision::Allow);
    }
    // The result must encode (the CLI writes it as one JSON line).
    let out = serde_json::json!({ "cmd": a.command, "decision": decide_default(&a).as_str() });
    let s = out.to_string();
    assert!(!s.contains('\n'), "an output line contains a newline");
});
