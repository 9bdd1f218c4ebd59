//! `shellgate corpus`: passing corpora exit 0 with the summary line, a wrong expectation
//! gives a readable diff and exit 1, `--update` rewrites TOML labels, bad input exits 64.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use shellgate::{Context, corpus};

fn corpus_cmd(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shellgate"))
        .arg("corpus")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("could not run shellgate: {e}"))
}

fn text(o: &Output) -> (i32, String, String) {
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap_or_else(|e| panic!("could not write {}: {e}", p.display()));
    p
}

const GOOD: &str = r#"
source = "cli test"

[[case]]
cmd = "ls -la"
expect = "allow"

[[case]]
cmd = "rm -rf /"
expect = "deny"
rules = ["SG1001"]
"#;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap_or_else(|e| panic!("no temp dir: {e}"))
}

#[test]
fn passing_corpus_exits_0_with_the_summary_line() {
    let d = tmp();
    write(d.path(), "good.toml", GOOD);
    write(
        d.path(),
        "more.jsonl",
        "{\"cmd\": \"echo hi\", \"expect\": \"allow\"}\n",
    );
    // The default path is corpus/ in the working directory.
    std::fs::create_dir(d.path().join("corpus")).unwrap_or_else(|e| panic!("{e}"));
    write(&d.path().join("corpus"), "c.toml", GOOD);
    let (code, out, err) = text(&corpus_cmd(&["good.toml", "more.jsonl"], d.path()));
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("3 passed, 0 failed"), "{out}");
    let (code, out, _) = text(&corpus_cmd(&[], d.path()));
    assert_eq!(code, 0);
    assert_eq!(out, "2 passed, 0 failed\n");
}

#[test]
fn wrong_expectation_gives_a_readable_diff_and_exit_1_and_update_fixes_it() {
    let d = tmp();
    let wrong = GOOD.replace(
        "expect = \"deny\"",
        "expect = \"allow\"  # deliberately wrong",
    );
    let p = write(d.path(), "wrong.toml", &wrong);
    let (code, out, _) = text(&corpus_cmd(&["wrong.toml"], d.path()));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("wrong.toml case #2: rm -rf /"), "{out}");
    assert!(
        out.contains("-decision: allow") && out.contains("+decision: deny"),
        "{out}"
    );
    assert!(
        out.contains("--update"),
        "the failure should say how to accept new answers: {out}"
    );
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"), "{out}");

    let (code, out, err) = text(&corpus_cmd(&["--update", "wrong.toml"], d.path()));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("updated 1 case(s)"), "{out}");
    let now = std::fs::read_to_string(&p).unwrap_or_default();
    assert!(
        now.contains("source = \"cli test\""),
        "update lost the layout:\n{now}"
    );
    let (code, out, _) = text(&corpus_cmd(&["wrong.toml"], d.path()));
    assert_eq!((code, out.as_str()), (0, "2 passed, 0 failed\n"));
}

#[test]
fn jsonl_mismatches_are_reported_and_not_rewritten() {
    let d = tmp();
    let line = "{\"cmd\": \"rm -rf /\", \"expect\": \"allow\"}\n";
    let p = write(d.path(), "w.jsonl", line);
    let (code, out, err) = text(&corpus_cmd(&["--update", "w.jsonl"], d.path()));
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("by hand"), "{err}");
    assert_eq!(std::fs::read_to_string(&p).unwrap_or_default(), line);
}

#[test]
fn unreadable_or_invalid_corpus_input_exits_64_with_a_hint() {
    let d = tmp();
    write(
        d.path(),
        "bad.toml",
        "[[case]]\ncmd = \"ls\"\nexpect = \"maybe\"\n",
    );
    write(d.path(), "broken.toml", "[[case]\n");
    std::fs::create_dir(d.path().join("empty")).unwrap_or_else(|e| panic!("{e}"));
    for args in [
        &["bad.toml"][..],
        &["broken.toml"],
        &["empty"],
        &["missing"],
        &[],
    ] {
        let (code, out, err) = text(&corpus_cmd(args, d.path()));
        assert_eq!(code, 64, "{args:?}: {out}{err}");
        assert!(
            err.starts_with("shellgate: ") && err.contains(';'),
            "{args:?}: {err}"
        );
    }
}

/// The repository's own corpus passes through the CLI, exactly as the library harness
/// (`tests/corpus.rs`) counts it.
#[test]
fn repo_corpus_passes_through_the_cli() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let outcomes = corpus::run_paths(&[root.join("corpus")], &Context::fixture())
        .unwrap_or_else(|e| panic!("corpus could not be loaded: {e}"));
    let failed = outcomes.iter().filter(|o| !o.ok).count();
    let (code, out, err) = text(&corpus_cmd(&["corpus/"], &root));
    let summary = format!("{} passed, {failed} failed", outcomes.len() - failed);
    assert_eq!(out.lines().last(), Some(summary.as_str()), "{err}");
    assert_eq!(failed, 0, "{out}");
    assert_eq!(code, 0, "{out}");
}
