//! Grammar tests: bash snippets per grammar construct (`grammar-tests/*.txt`) and the
//! lowered model they must produce, in the text form of `explain --model`; every mismatch is shown as a diff.
//! Set `UPDATE_GRAMMAR=1` to rewrite the expectations (then review the diff in git).

use std::path::PathBuf;

use shellgate::{Context, analyze};

struct Case {
    title: String,
    input: String,
    expected: String,
}

fn parse_file(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut blocks = text.split("\n=== ").peekable();
    if let Some(first) = blocks.peek()
        && !first.starts_with("=== ")
    {
        blocks.next();
    }
    for b in text.split("=== ").skip(1) {
        let (title, rest) = b.split_once('\n').unwrap_or((b, ""));
        let (input, expected) = rest.split_once("\n---\n").unwrap_or((rest, ""));
        cases.push(Case {
            title: title.trim().to_string(),
            input: input.to_string(),
            expected: expected.trim_end().to_string(),
        });
    }
    cases
}

#[test]
fn grammar_snippets_lower_to_their_expected_models() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("grammar-tests");
    let update = std::env::var("UPDATE_GRAMMAR").is_ok();
    let mut failures = Vec::new();
    let mut total = 0;
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("grammar-tests dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for path in files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
    {
        let text = std::fs::read_to_string(&path).expect("read grammar file");
        let cases = parse_file(&text);
        let mut rewritten = String::new();
        for c in &cases {
            total += 1;
            let a = analyze(&c.input, &Context::fixture());
            let actual = a.script.to_string().trim_end().to_string();
            rewritten.push_str(&format!(
                "=== {}\n{}\n---\n{}\n\n",
                c.title, c.input, actual
            ));
            if actual != c.expected {
                let d = similar::TextDiff::from_lines(&c.expected, &actual);
                failures.push(format!(
                    "{} — {}\n{}",
                    path.display(),
                    c.title,
                    d.unified_diff().header("expected", "actual")
                ));
            }
        }
        if update {
            std::fs::write(&path, rewritten).expect("write grammar file");
        }
    }
    assert!(total > 0, "no grammar tests found");
    if !update {
        assert!(
            failures.is_empty(),
            "{} of {total} grammar cases differ:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }
}
