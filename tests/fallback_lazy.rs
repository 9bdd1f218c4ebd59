//! The fallback catalog's regexes are compiled only when text reaches the fallback, and then
//! only those whose literals the text contains, at any text size. One test in its own process: the count of
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

    // Long text is prefiltered the same way: a chain past the depth cut, far over 64 KiB,
    // with the root deletion below the cut, is still caught by the fallback scan of the cut
    // part, and the scan compiles only what that text could match, not the whole catalog.
    let mut chain = String::from("rm -rf /");
    for i in 0..8_000 {
        chain.push_str(&format!(" && mkdir -p d{i}"));
    }
    assert!(chain.len() > 64 << 10);
    let a = analyze(&chain, &ctx);
    assert!(
        a.findings.iter().any(|f| f.message.contains("fb-rm-root")),
        "{:#?}",
        a.findings.iter().map(|f| &f.message).collect::<Vec<_>>()
    );
    let compiled = fallback::compiled_patterns();
    assert!(compiled < all, "{compiled} of {all} after the long chain");
}
