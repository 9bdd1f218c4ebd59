//! Compares shellgate's structural decisions with a flat regex scan of the same text (its
//! own fallback catalog, Hermes-compatible keys) over `../shared/corpora/`: how many real
//! commands each flags, and where they disagree. Reads `../shared/`; skips when absent.
//!
//! Run: `cargo run --release --example regex_compare`

use shellgate::policy::decide_default;
use shellgate::{Context, Decision, analyze, fallback};

#[path = "../benches/support/mod.rs"]
mod support;

fn main() {
    let dir = support::corpora_dir();
    let ctx = Context::fixture();
    for file in ["tldr.jsonl", "nl2bash.jsonl"] {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            println!("{file}: not found (this comparison reads ../shared/corpora); skipped");
            continue;
        };
        let mut seen = std::collections::BTreeSet::new();
        let (mut total, mut regex, mut structural, mut both) = (0, 0, 0, 0);
        let mut only_regex = Vec::new();
        for line in text.lines() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let Some(cmd) = v.get("cmd").and_then(|c| c.as_str()) else {
                continue;
            };
            if v.get("kind").and_then(|k| k.as_str()) == Some("keypress")
                || !seen.insert(cmd.to_string())
            {
                continue;
            }
            total += 1;
            let r = !fallback::scan(cmd).is_empty();
            let s = decide_default(&analyze(cmd, &ctx)) != Decision::Allow;
            regex += usize::from(r);
            structural += usize::from(s);
            both += usize::from(r && s);
            if r && !s && only_regex.len() < 8 {
                only_regex.push(cmd.to_string());
            }
        }
        println!("== {file}: {total} unique commands");
        println!("flagged by the regex scan: {regex}; by shellgate: {structural}; by both: {both}");
        println!("regex only (shellgate allows): {}", regex - both);
        for c in &only_regex {
            println!("    {c}");
        }
        println!("shellgate only: {}", structural - both);
    }
}
