//! Runs every labelled case in `corpus/` and reports every mismatch at once as a diff.

use std::path::PathBuf;

use shellgate::{Context, corpus};

#[test]
fn corpus_cases_get_their_labelled_decisions_and_rules() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let outcomes = match corpus::run_paths(&[root], &Context::fixture()) {
        Ok(o) => o,
        Err(e) => panic!("corpus could not be loaded: {e}"),
    };
    let failed: Vec<_> = outcomes.iter().filter(|o| !o.ok).collect();
    let report: String = failed
        .iter()
        .map(|o| corpus::diff(o))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        failed.is_empty(),
        "{} of {} corpus cases failed:\n{report}",
        failed.len(),
        outcomes.len()
    );
    assert!(
        outcomes.len() >= 100,
        "corpus unexpectedly small: {}",
        outcomes.len()
    );
}
