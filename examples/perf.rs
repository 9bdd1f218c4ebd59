//! Performance probes that criterion cannot give: one pass of one stage over a corpus (so
//! `valgrind --tool=callgrind` can count its instructions), per-command percentiles, and
//! single runs of the scaling series. Reads `../shared/corpora` (or `$SHELLGATE_SHARED`);
//! says so and exits 0 when absent. See docs/PERFORMANCE.md for how each figure is taken.
//!
//! ```text
//! cargo run --release --example perf -- pass floor|parse|analyze|analyze-ts tldr.jsonl [N]
//! cargo run --release --example perf -- percentiles tldr.jsonl [ROUNDS]
//! cargo run --release --example perf -- scale [SHAPE [BYTES]]
//! ```

#[path = "../benches/support/mod.rs"]
mod support;

use std::hint::black_box;
use std::time::{Duration, Instant};

use shellgate::policy::decide_default;
use shellgate::{Context, analyze, syntax};

fn usage() -> ! {
    eprintln!(
        "usage: perf pass floor|parse|analyze|analyze-ts FILE [N] | perf percentiles FILE [ROUNDS] | perf scale [SHAPE [BYTES]]"
    );
    std::process::exit(64)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("pass") => pass(&args[1..]),
        Some("percentiles") => percentiles(&args[1..]),
        Some("scale") => scale(&args[1..]),
        _ => usage(),
    }
}

/// One pass of one stage over the first N commands of a corpus file.
fn pass(args: &[String]) {
    let (Some(stage), Some(file)) = (args.first(), args.get(1)) else {
        usage()
    };
    let n = args
        .get(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    let cmds = support::corpus(file, n);
    if cmds.is_empty() {
        return;
    }
    let ctx = Context::fixture();
    let t = Instant::now();
    let mut sink = 0usize;
    for c in &cmds {
        sink += match stage.as_str() {
            "floor" => syntax::parse_floor(c).unwrap_or(0),
            "parse" => syntax::parse(c).map(|t| t.nodes.len()).unwrap_or(0),
            "analyze" => analyze(c, &ctx).findings.len(),
            "analyze-ts" => {
                syntax::set_plain_lexer(false);
                analyze(c, &ctx).findings.len()
            }
            _ => usage(),
        };
    }
    black_box(sink);
    let el = t.elapsed();
    println!(
        "{stage} {file}: {} commands in {:.3} s ({:.0}/s)",
        cmds.len(),
        el.as_secs_f64(),
        cmds.len() as f64 / el.as_secs_f64()
    );
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Per-command time (the minimum over ROUNDS runs of each command, which drops most of the
/// noise other processes add), then its median, p99 and max over the corpus.
fn percentiles(args: &[String]) {
    let Some(file) = args.first() else { usage() };
    let rounds: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(5);
    let cmds = support::corpus(file, usize::MAX);
    if cmds.is_empty() {
        return;
    }
    let ctx = Context::fixture();
    let mut floor = vec![Duration::MAX; cmds.len()];
    let mut full = vec![Duration::MAX; cmds.len()];
    let mut full_ts = vec![Duration::MAX; cmds.len()];
    for _ in 0..rounds {
        for (i, c) in cmds.iter().enumerate() {
            let t = Instant::now();
            black_box(syntax::parse_floor(c).ok());
            floor[i] = floor[i].min(t.elapsed());
            let t = Instant::now();
            black_box(analyze(c, &ctx));
            full[i] = full[i].min(t.elapsed());
            syntax::set_plain_lexer(false);
            let t = Instant::now();
            black_box(analyze(c, &ctx));
            full_ts[i] = full_ts[i].min(t.elapsed());
            syntax::set_plain_lexer(true);
        }
    }
    let total = |v: &[Duration]| v.iter().sum::<Duration>();
    let (tf, ta, tt) = (total(&floor), total(&full), total(&full_ts));
    let mut worst: Vec<(Duration, usize)> = full.iter().copied().zip(0..).collect();
    worst.sort_unstable_by(|a, b| b.cmp(a));
    floor.sort_unstable();
    full.sort_unstable();
    full_ts.sort_unstable();
    for (name, v) in [
        ("bare parse", &floor),
        ("analyze", &full),
        ("analyze, tree-sitter only", &full_ts),
    ] {
        println!(
            "{name:>25}: median {:>7.1} µs  p99 {:>7.1} µs  max {:>8.1} µs",
            pct(v, 0.5).as_secs_f64() * 1e6,
            pct(v, 0.99).as_secs_f64() * 1e6,
            v[v.len() - 1].as_secs_f64() * 1e6,
        );
    }
    println!(
        "{} commands, best of {rounds}: sum bare parse {:.3} s, sum analyze {:.3} s (ratio {:.2}), \
         tree-sitter only {:.3} s (ratio {:.2})",
        cmds.len(),
        tf.as_secs_f64(),
        ta.as_secs_f64(),
        ta.as_secs_f64() / tf.as_secs_f64(),
        tt.as_secs_f64(),
        tt.as_secs_f64() / tf.as_secs_f64()
    );
    println!("slowest under analyze:");
    for (d, i) in worst.iter().take(5) {
        let c: String = cmds[*i].chars().take(100).collect();
        println!("  {:>8.1} µs  {c:?}", d.as_secs_f64() * 1e6);
    }
}

/// One analysis (and one bare parse) of each script of the scaling series.
fn scale(args: &[String]) {
    let shapes: Vec<&str> = match args.first() {
        Some(s) => vec![s.as_str()],
        None => support::SHAPES.to_vec(),
    };
    let sizes: Vec<(String, usize)> = match args.get(1).and_then(|b| b.parse().ok()) {
        Some(b) => vec![(format!("{b}B"), b)],
        None => support::SIZES
            .iter()
            .map(|(n, b)| (n.to_string(), *b))
            .collect(),
    };
    let ctx = Context::fixture();
    for shape in shapes {
        for (label, bytes) in &sizes {
            let s = support::script(shape, *bytes);
            let t = Instant::now();
            black_box(syntax::parse_floor(&s).ok());
            let tf = t.elapsed();
            let t = Instant::now();
            let a = analyze(&s, &ctx);
            let ta = t.elapsed();
            println!(
                "{shape:>9} {label:>6}: bare parse {:>9.2} ms  analyze {:>9.2} ms  ({} commands, {:?})",
                tf.as_secs_f64() * 1e3,
                ta.as_secs_f64() * 1e3,
                a.script.commands.len(),
                decide_default(&a),
            );
        }
    }
}
