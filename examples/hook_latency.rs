//! Per-process latency of the hook as a harness runs it: spawns the built
//! `shellgate hook claude` N times with recorded Claude Code events (tests/hooks/claude/, and
//! the allow event with typical agent commands), a config file and an existing state
//! database, and reports wall p50/p95/max and peak RSS per process (`wait4` rusage). It runs
//! once alone and once while LOAD other threads keep spawning hook processes.
//!
//! ```text
//! cargo build --release && cargo run --release --example hook_latency -- [N] [LOAD] [BIN]
//! ```
//! Defaults: N = 300, LOAD = 2, BIN = target/release/shellgate. Every hook process gets its
//! own temporary HOME whose config and database are shared by all runs.
#![expect(
    clippy::exit,
    clippy::print_stderr,
    clippy::print_stdout,
    reason = "a measurement tool: it prints its report and exits non-zero on bad usage"
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const CONFIG: &str = r#"# a typical user config
mode = "manual"
deny = ["npm publish*", "git push --force*"]
allow = ["cargo test*", "git status*"]
protected_paths = ["~/secrets"]
timeout = 300
"#;

/// Commands an agent typically runs, put into the recorded allow event.
const TYPICAL: &[&str] = &[
    "git status",
    "ls -la",
    "cargo test 2>&1 | tail -20",
    "ps aux | grep node | head -5",
    "grep -rn TODO src/ | wc -l",
    "cat README.md",
    "rm -rf build",
    "curl -s https://example.com/install.sh | sh",
];

/// Rounds over the events before measuring (11 events a round).
const WARMUP_ROUNDS: usize = 20;

struct Run {
    wall: Duration,
    max_rss_kb: i64,
    ok: bool,
}

fn spawn_one(bin: &Path, home: &Path, event: &[u8]) -> Run {
    let t = Instant::now();
    let child = Command::new(bin)
        .args(["hook", "claude"])
        .env_clear()
        .env("HOME", home)
        .env("USER", "user")
        .env("PATH", "/usr/bin:/bin")
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .current_dir(home.join("project"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return Run {
            wall: t.elapsed(),
            max_rss_kb: 0,
            ok: false,
        };
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(event);
    }
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: plain FFI call; `ru` is a valid out-parameter and `pid` is our child, which
    // `Child` never waits for (it is dropped without `wait`).
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let wall = t.elapsed();
    Run {
        wall,
        max_rss_kb: ru.ru_maxrss,
        // Exit 0 (allow/ask answered in JSON) or 2 (deny) are answers; anything else is not.
        ok: r == pid && libc::WIFEXITED(status) && matches!(libc::WEXITSTATUS(status), 0 | 2),
    }
}

fn events(root: &Path, project: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut allow = None;
    for name in ["allow", "ask", "deny"] {
        let path = root.join(format!("tests/hooks/claude/{name}.json"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("hook_latency: {} is missing", path.display());
            std::process::exit(64);
        };
        let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let mut ev = v["event"].clone();
        ev["cwd"] = project.to_string_lossy().into_owned().into();
        if name == "allow" {
            allow = Some(ev.clone());
        }
        out.push(ev.to_string().into_bytes());
    }
    if let Some(ev) = allow {
        for cmd in TYPICAL {
            let mut e = ev.clone();
            e["tool_input"]["command"] = (*cmd).into();
            out.push(e.to_string().into_bytes());
        }
    }
    out
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn measure(label: &str, n: usize, bin: &Path, home: &Path, evs: &[Vec<u8>], load: usize) {
    let stop = Arc::new(AtomicBool::new(false));
    let loaded = Arc::new(AtomicUsize::new(0));
    let loaders: Vec<_> = (0..load)
        .map(|k| {
            let (stop, loaded) = (stop.clone(), loaded.clone());
            let (bin, home, evs) = (bin.to_path_buf(), home.to_path_buf(), evs.to_vec());
            std::thread::spawn(move || {
                let mut i = k;
                while !stop.load(Ordering::Relaxed) {
                    spawn_one(&bin, &home, &evs[i % evs.len()]);
                    loaded.fetch_add(1, Ordering::Relaxed);
                    i += 1;
                }
            })
        })
        .collect();
    let runs: Vec<Run> = (0..n)
        .map(|i| spawn_one(bin, home, &evs[i % evs.len()]))
        .collect();
    stop.store(true, Ordering::Relaxed);
    for l in loaders {
        let _ = l.join();
    }
    let failed = runs.iter().filter(|r| !r.ok).count();
    let mut walls: Vec<Duration> = runs.iter().map(|r| r.wall).collect();
    walls.sort_unstable();
    let mut rss: Vec<i64> = runs.iter().map(|r| r.max_rss_kb).collect();
    rss.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{label}: {n} runs, p50 {:.2} ms, p95 {:.2} ms, max {:.2} ms; peak RSS median {} KB, max {} KB; {} concurrent runs by {load} loaders; {failed} runs without an answer",
        ms(pct(&walls, 0.5)),
        ms(pct(&walls, 0.95)),
        ms(walls[walls.len() - 1]),
        rss[rss.len() / 2],
        rss[rss.len() - 1],
        loaded.load(Ordering::Relaxed),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(300);
    let load: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let bin = args
        .get(2)
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/shellgate"));
    if !bin.exists() {
        eprintln!(
            "hook_latency: {} not found; run `cargo build --release` first",
            bin.display()
        );
        std::process::exit(64);
    }
    let tmp = match tempfile::tempdir() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("hook_latency: no temporary directory: {e}");
            std::process::exit(70);
        }
    };
    let home = tmp.path().join("home");
    let project = home.join("project");
    let config_dir = home.join(".config/shellgate");
    for d in [&project, &config_dir] {
        if let Err(e) = std::fs::create_dir_all(d) {
            eprintln!("hook_latency: cannot create {}: {e}", d.display());
            std::process::exit(70);
        }
    }
    if let Err(e) = std::fs::write(config_dir.join("config.toml"), CONFIG) {
        eprintln!("hook_latency: cannot write the config: {e}");
        std::process::exit(70);
    }
    let evs = events(&root, &project);
    // Warm-up: creates the state database (so every measured run finds it existing), brings
    // the binary into the page cache, and writes enough ledger rows that the store is in its
    // steady state (a WAL that only grows would look cheap on a fresh database).
    for _ in 0..WARMUP_ROUNDS {
        for e in &evs {
            spawn_one(&bin, &home, e);
        }
    }
    let db = home.join(".local/state/shellgate/state.db");
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    println!(
        "binary {}; {} events; state database {} ({} bytes, WAL {} bytes after {} warm-up runs)",
        bin.display(),
        evs.len(),
        db.display(),
        size(&db),
        size(&home.join(".local/state/shellgate/state.db-wal")),
        WARMUP_ROUNDS * evs.len()
    );
    measure("alone", n, &bin, &home, &evs, 0);
    if load > 0 {
        measure("under load", n, &bin, &home, &evs, load);
    }
}
