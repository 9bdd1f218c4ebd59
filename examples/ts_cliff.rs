//! The bare tree-sitter-bash parse time of one command, repeated N times with one parser:
//! shows the grammar's pipeline cliff (`a | b` ≈ 5 µs, `a | b | c` ≈ 130 µs) with nothing of
//! shellgate around it. `cargo run --release --example ts_cliff -- 'ps aux | grep x | head' 2000`
//! (docs/PERFORMANCE.md explains the cause).
#![expect(
    clippy::print_stderr,
    clippy::print_stdout,
    reason = "a measurement tool: it prints its report"
)]

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let src = args
        .first()
        .cloned()
        .unwrap_or_else(|| "ps aux | grep x | head".into());
    let n: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1000);
    let mut p = tree_sitter::Parser::new();
    if p.set_language(&tree_sitter_bash::LANGUAGE.into()).is_err() {
        eprintln!("ts_cliff: the bash grammar did not load");
        std::process::exit(70);
    }
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(p.parse(&src, None));
    }
    println!(
        "{:.2} µs per parse of {src:?}",
        t.elapsed().as_secs_f64() * 1e6 / n.max(1) as f64
    );
}
