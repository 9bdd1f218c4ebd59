//! Inputs shared by the benchmarks and `examples/perf.rs`: the shared corpora (read from
//! `../shared/corpora`, or `$SHELLGATE_SHARED/corpora`; absent → empty, and callers skip) and
//! the generated scripts of the scaling series.
#![expect(
    clippy::print_stderr,
    reason = "it tells the person running a benchmark or test that the shared corpora are absent"
)]
#![allow(
    dead_code,
    reason = "shared by several crates (test files, benches, examples), each using a part; `expect` would fail in those that use it all"
)]

use std::path::PathBuf;

// Measure the library with the allocator the `shellgate` binary ships with (src/main.rs), so
// the in-process figures are those of the binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Where the shared corpora live: `$SHELLGATE_CORPORA`, else `$SHELLGATE_SHARED/corpora`,
/// else `../shared/corpora` next to the crate.
pub(crate) fn corpora_dir() -> PathBuf {
    if let Some(d) = std::env::var_os("SHELLGATE_CORPORA") {
        return PathBuf::from(d);
    }
    match std::env::var_os("SHELLGATE_SHARED") {
        Some(d) => PathBuf::from(d).join("corpora"),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"),
    }
}

/// The `cmd` of every line of a shared corpus file (at most `limit`); empty, with a note on
/// stderr, when the file is absent.
pub(crate) fn corpus(name: &str, limit: usize) -> Vec<String> {
    let path = corpora_dir().join(name);
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!(
            "{} not found; skipping what reads it (the shared corpora live in ../shared/corpora, \
             or set SHELLGATE_SHARED)",
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

/// The shapes of the scaling series.
pub(crate) const SHAPES: &[&str] = &["and_chain", "heredoc", "pipes", "nesting", "lines"];

/// Sizes of the scaling series, in bytes (decimal: 1 MB is under the 1 MiB parse limit).
pub(crate) const SIZES: &[(&str, usize)] = &[
    ("1KB", 1_000),
    ("10KB", 10_000),
    ("100KB", 100_000),
    ("1MB", 1_000_000),
    ("10MB", 10_000_000),
];

/// A script of `shape` about `bytes` long (never shorter):
/// - `and_chain`: `mkdir -p d0 && cd d0 && echo 0 && ...` — one list of simple commands;
/// - `heredoc`: one `cat > f <<'EOF'` whose body is `bytes` of text lines;
/// - `pipes`: one pipeline `cat f | grep a0 | sed s/a/b/ | ...`;
/// - `nesting`: `echo $(echo $(echo ... ))` nested as deep as the size allows (the parser cuts
///   what is deeper than its limit, and the rest must still stay linear);
/// - `lines`: `ps aux | grep x0 | head -n 1` per line, the common three-stage agent command.
pub(crate) fn script(shape: &str, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 64);
    let mut i = 0usize;
    match shape {
        "and_chain" => {
            while s.len() < bytes {
                if i > 0 {
                    s.push_str(" && ");
                }
                match i % 3 {
                    0 => s.push_str(&format!("mkdir -p d{i}")),
                    1 => s.push_str(&format!("cd d{}", i - 1)),
                    _ => s.push_str(&format!("echo {i} > f{i}.txt")),
                }
                i += 1;
            }
        }
        "heredoc" => {
            s.push_str("cat > notes.txt <<'EOF'\n");
            while s.len() < bytes {
                s.push_str(&format!("line {i}: the quick brown fox jumps over $HOME\n"));
                i += 1;
            }
            s.push_str("EOF\n");
        }
        "pipes" => {
            s.push_str("cat input.txt");
            while s.len() < bytes {
                match i % 3 {
                    0 => s.push_str(&format!(" | grep a{i}")),
                    1 => s.push_str(" | sed s/a/b/"),
                    _ => s.push_str(" | tr a-z A-Z"),
                }
                i += 1;
            }
        }
        "nesting" => {
            let depth = bytes.saturating_sub(4) / 10;
            for _ in 0..depth {
                s.push_str("echo \"$(");
            }
            s.push_str("true");
            for _ in 0..depth {
                s.push_str(")\"");
            }
            while s.len() < bytes {
                s.push(' ');
            }
        }
        _ => {
            while s.len() < bytes {
                s.push_str(&format!("ps aux | grep x{i} | head -n 1\n"));
                i += 1;
            }
        }
    }
    s
}
