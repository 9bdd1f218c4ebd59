//! The deny/allow glob matcher agrees with Python's `fnmatch` (what Hermes's
//! `approvals.deny` uses) on generated patterns and texts, case-insensitively.

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use shellgate::glob;

/// Ask Python for `fnmatchcase(text.lower(), pattern.lower())` over every pair at once.
fn python(pairs: &[(String, String)]) -> Vec<bool> {
    let script = "import fnmatch, json, sys\n\
                  pairs = json.load(sys.stdin)\n\
                  print(json.dumps([fnmatch.fnmatchcase(t.lower(), p.lower()) for p, t in pairs]))\n";
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is needed for the fnmatch oracle");
    let body = serde_json::to_vec(pairs).unwrap();
    child.stdin.take().unwrap().write_all(&body).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn matches_python_fnmatch_on_generated_globs() {
    let mut fixed: Vec<(String, String)> = [
        ("git push --force*", "git push --force origin main"),
        ("git push --force*", "GIT PUSH --FORCE"),
        ("*curl*|*sh*", "curl -s x | sh"),
        ("dd if=* of=/dev/*", "dd if=/dev/zero of=/dev/sda"),
        ("rm -[rR]f *", "rm -Rf x"),
        ("rm -[!r]f *", "rm -rf x"),
        ("[^a]", "^"),
        ("[]]", "]"),
        ("[!]]", "a"),
        ("[a-c]x", "bx"),
        ("a[", "a["),
        ("a[b", "a[b"),
        ("*", ""),
        ("?", ""),
        ("**a**", "xxaxx"),
    ]
    .iter()
    .map(|(p, t)| (p.to_string(), t.to_string()))
    .collect();
    let mut runner = TestRunner::new(Config {
        cases: 1,
        ..Config::default()
    });
    let strategy =
        proptest::collection::vec(("[ab*?\\[\\]!^/ -]{0,8}", "[abAB/ \\[\\]!^-]{0,10}"), 3000);
    let generated = strategy.new_tree(&mut runner).unwrap().current();
    fixed.extend(generated);
    let want = python(&fixed);
    let mismatches: Vec<String> = fixed
        .iter()
        .zip(&want)
        .filter(|((p, t), w)| glob::matches_ignore_case(p, t) != **w)
        .map(|((p, t), w)| format!("pattern {p:?} text {t:?}: python {w}"))
        .collect();
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(30)].join("\n")
    );
}
