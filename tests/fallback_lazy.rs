//! The fallback catalog's regexes are compiled only when text reaches the fallback, and then
//! only those whose literals the text contains. One test in its own process: the count of
//! compiled regexes is process-wide, so no other test may run beside it.

use shellgate::{Context, analyze, fallback};

#[test]
fn regexes_compile_only_for_unparsed_text_and_only_those_it_could_match() {
    let ctx = Context::fixture();
    for clean in [
        "ls -la",
        "git status && cargo test",
        "ps aux | grep x | head",
    ] {
        let a = analyze(clean, &ctx);
        assert!(a.findings.iter().all(|f| f.rule != "SG0004"), "{clean}");
    }
    assert_eq!(
        fallback::compiled_patterns(),
        0,
        "a clean parse compiled fallback regexes"
    );

    // Unparsable text reaches the fallback: the root deletion in it is still found ...
    let a = analyze("rm -rf / \"unterminated", &ctx);
    assert!(
        a.findings.iter().any(|f| f.message.contains("fb-rm-root")),
        "{:#?}",
        a.findings
    );
    // ... having compiled some of the catalog, not all of it.
    let compiled = fallback::compiled_patterns();
    let all = fallback::catalog().count();
    assert!(compiled > 0 && compiled < all, "{compiled} of {all}");
}
