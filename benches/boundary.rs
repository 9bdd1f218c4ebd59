//! Cost of the run-time boundary check (`shellgate::boundary`) against the parse it checks:
//! for each input, `syntax::parse` of the normalised text versus `boundary::disagreements`
//! (the independent scan plus the comparison with the lowered model). Inputs: fixed commands
//! of several shapes and, when `../shared/corpora/` is present, a batch of real commands.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shellgate::{Context, analyze, boundary, syntax};

mod support;

const FIXED: &[(&str, &str)] = &[
    ("simple", "ls -la /tmp"),
    (
        "pipeline3_then_line",
        "git status | grep x | head -3\nrm -rf ~ && cd s",
    ),
    (
        "script",
        "set -e\ncd /work && git pull\ncargo build --release 2>&1 | tail -5\nfor f in *.log; do gzip \"$f\"; done\necho done",
    ),
    (
        "heredoc",
        "cat <<'EOF' > NOTES.md\n# Notes\nuse `np.array(x)` and $(date); a | b\nEOF\ngit add NOTES.md && git commit -m notes",
    ),
];

fn bench(c: &mut Criterion) {
    let ctx = Context::fixture();
    let mut inputs: Vec<(String, Vec<String>)> = FIXED
        .iter()
        .map(|(n, c)| (n.to_string(), vec![c.to_string()]))
        .collect();
    let batch = support::corpus("tldr.jsonl", 1000);
    if !batch.is_empty() {
        inputs.push(("tldr_1000".into(), batch));
    }
    for (name, cmds) in inputs {
        let analysed: Vec<_> = cmds.iter().map(|c| analyze(c, &ctx)).collect();
        let mut g = c.benchmark_group(format!("boundary/{name}"));
        g.throughput(Throughput::Elements(cmds.len() as u64));
        g.bench_function("parse", |b| {
            b.iter(|| {
                for a in &analysed {
                    let _ = syntax::parse(std::hint::black_box(&a.normalized.text));
                }
            })
        });
        g.bench_function("check", |b| {
            b.iter(|| {
                for a in &analysed {
                    std::hint::black_box(boundary::disagreements(&a.normalized, &a.script));
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
