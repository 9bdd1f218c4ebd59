//! False-positive report on real commands: runs every command of `../shared/corpora/`
//! (tldr-pages and NL2Bash) and prints, per rule, how many commands it flagged with a
//! sample, plus the decision counts. Reads `../shared/`; says so and exits 0 when absent.
//!
//! Run: `cargo run --release --example fp_report [-- SAMPLES]`. `SHELLGATE_CORPORA=DIR` reads
//! the corpora from DIR instead (a worktree whose `../shared` is elsewhere);
//! `FP_REPORT_DUMP=FILE` also writes one `decision<TAB>rules<TAB>command` line per command, so
//! two builds can be diffed command by command.

use std::collections::BTreeMap;

use shellgate::policy::decide_default;
use shellgate::{Context, analyze};

#[path = "../benches/support/mod.rs"]
mod support;

fn main() {
    let samples: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let dir = support::corpora_dir();
    let mut dump = std::env::var_os("FP_REPORT_DUMP").and_then(|p| std::fs::File::create(p).ok());
    let ctx = Context::fixture();
    for file in ["tldr.jsonl", "nl2bash.jsonl"] {
        let path = dir.join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            println!(
                "{}: not found (this report reads ../shared/corpora); skipped",
                path.display()
            );
            continue;
        };
        let mut decisions: BTreeMap<&str, usize> = BTreeMap::new();
        let mut by_rule: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        let mut seen = std::collections::BTreeSet::new();
        let mut total = 0;
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
            let a = analyze(cmd, &ctx);
            let decision = decide_default(&a);
            *decisions.entry(decision.as_str()).or_default() += 1;
            let mut rules: Vec<(String, String)> = a
                .findings
                .iter()
                .map(|f| (f.rule.to_string(), f.name.to_string()))
                .collect();
            rules.sort();
            rules.dedup();
            if let Some(f) = dump.as_mut() {
                use std::io::Write;
                let codes: Vec<&str> = rules.iter().map(|(c, _)| c.as_str()).collect();
                let _ = writeln!(
                    f,
                    "{file}\t{}\t{}\t{}",
                    decision.as_str(),
                    codes.join(","),
                    cmd.replace('\n', "\\n")
                );
            }
            for (code, name) in rules {
                *counts.entry(code.clone()).or_default() += 1;
                let e = by_rule.entry(code).or_insert_with(|| (name, Vec::new()));
                if e.1.len() < samples {
                    e.1.push(cmd.to_string());
                }
            }
        }
        println!("== {file}: {total} unique shell commands (keypress records skipped)");
        println!("decisions: {decisions:?}");
        let allowed = decisions.get("allow").copied().unwrap_or(0);
        println!(
            "allow rate: {:.2}% ({allowed}/{total})",
            100.0 * allowed as f64 / total.max(1) as f64
        );
        let mut ranked: Vec<(&String, &usize)> = counts.iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        for (code, n) in ranked {
            let (name, ex) = &by_rule[code];
            println!("{code} {name}: {n}");
            for e in ex {
                println!("    {}", e.replace('\n', "\\n"));
            }
        }
    }
}
