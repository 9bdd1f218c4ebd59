//! What checkpoints cost: the time to plan and write a checkpoint of a 50 MB `build/`
//! directory (cold store, then again with the same content already stored), of a
//! repository's uncommitted changes before `git reset --hard`, and the store's size on disk
//! after a session's worth of checkpoints of a real project (this repository's own
//! sources, copied into a git repository, edited between checkpoints). Each figure is the
//! median of RUNS runs; the shadow store uses the system `git`.
//!
//! ```text
//! cargo run --release --example checkpoint_cost -- [RUNS]
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use shellgate::checkpoint::{self, Settings, human};
use shellgate::model::affected::affected;
use shellgate::{Context, analyze};

fn noise(seed: u64, n: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect()
}

/// Text-like content: compresses as object files and logs do, unlike `noise`.
fn text(seed: u64, n: usize) -> Vec<u8> {
    let words = [
        "fn ", "let ", "mov ", "0x1f ", "call ", "ret\n", "push ", "data ",
    ];
    let mut out = Vec::with_capacity(n);
    let mut i = seed as usize;
    while out.len() < n {
        out.extend_from_slice(words[i % words.len()].as_bytes());
        i = i.wrapping_mul(31).wrapping_add(7);
    }
    out.truncate(n);
    out
}

fn sh(dir: &Path, script: &str) {
    let ok = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "{script}");
}

/// Plan and write one checkpoint of what `cmd` affects; (plan time, write time, bytes).
fn take(
    project: &Path,
    home: &Path,
    settings: &Settings,
    cmd: &str,
    id: i64,
) -> (Duration, Duration, u64) {
    let ctx = Context::new(
        Some(project.to_string_lossy().into_owned()),
        Some(home.to_string_lossy().into_owned()),
        Some("user".into()),
    );
    let t = Instant::now();
    let a = analyze(cmd, &ctx);
    let items = affected(&a.script, ctx.home.as_deref());
    let scope = checkpoint::scope(project, ctx.home.as_deref(), None, settings);
    let deadline = Instant::now() + Duration::from_secs(120);
    let plan = checkpoint::plan(&items, &scope, settings, deadline);
    let planned = t.elapsed();
    let t = Instant::now();
    let meta = checkpoint::Meta {
        id,
        time: 0,
        cwd: ctx.cwd.as_deref(),
        command: cmd,
    };
    let (_, _, m) = checkpoint::write(plan, &scope, meta, settings, deadline)
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
    (planned, t.elapsed(), m.bytes())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.0} ms", d.as_secs_f64() * 1000.0)
}

fn fresh() -> (tempfile::TempDir, PathBuf, PathBuf, Settings) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = home.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let settings = Settings::new(home.join(".local/state/shellgate/checkpoints"));
    (tmp, home, project, settings)
}

fn build_dir(project: &Path) -> u64 {
    let mut total = 0;
    for i in 0..400u64 {
        let p = project.join(format!("build/obj/m{}/f{i}.o", i % 20));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        let n = 131_072;
        let data = if i % 2 == 0 { noise(i, n) } else { text(i, n) };
        std::fs::write(p, data).unwrap();
        total += n as u64;
    }
    total
}

fn bench_build(runs: usize) {
    let (mut cold_plan, mut cold, mut warm) = (Vec::new(), Vec::new(), Vec::new());
    let mut size = 0;
    for _ in 0..runs {
        let (_t, home, project, settings) = fresh();
        let total = build_dir(&project);
        let (p, w, bytes) = take(&project, &home, &settings, "rm -rf ./build", 1);
        assert_eq!(bytes, total);
        cold_plan.push(p);
        cold.push(p + w);
        let (p2, w2, _) = take(&project, &home, &settings, "rm -rf ./build", 2);
        warm.push(p2 + w2);
        size = checkpoint::Shadow::for_project(&settings.dir, &project).size();
    }
    println!(
        "50 MB build/ (400 files, half incompressible): plan {}, checkpoint {} (cold store), {} (content already stored); store {}",
        ms(median(cold_plan)),
        ms(median(cold)),
        ms(median(warm)),
        human(size)
    );
}

fn bench_uncommitted(runs: usize) {
    let mut times = Vec::new();
    let mut captured = 0;
    for _ in 0..runs {
        let (_t, home, project, settings) = fresh();
        for i in 0..2000u64 {
            let p = project.join(format!("src/m{}/f{i}.rs", i % 40));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text(i, 6000)).unwrap();
        }
        sh(
            &project,
            "git init -q -b main . && git -c user.email=b@e -c user.name=b add -A && git -c user.email=b@e -c user.name=b commit -qm base",
        );
        for i in (0..2000u64).step_by(20) {
            let p = project.join(format!("src/m{}/f{i}.rs", i % 40));
            std::fs::write(p, text(i + 1, 6500)).unwrap();
        }
        let (p, w, bytes) = take(&project, &home, &settings, "git reset --hard", 1);
        times.push(p + w);
        captured = bytes;
    }
    println!(
        "uncommitted changes of a 2,000-file repository (100 files modified) before `git reset --hard`: {} ({} captured, plus git stash create and the branch tip)",
        ms(median(times)),
        human(captured)
    );
}

/// This repository's own sources (no `target/`), as a project to checkpoint.
fn copy_sources(to: &Path) -> u64 {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut total = 0;
    for top in ["src", "tests", "corpus", "docs", "benches", "examples"] {
        let mut stack = vec![src.join(top)];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Ok(rel) = p.strip_prefix(src) {
                    let dest = to.join(rel);
                    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
                    total += std::fs::copy(&p, &dest).unwrap_or(0);
                }
            }
        }
    }
    total
}

fn bench_store() {
    let (_t, home, project, settings) = fresh();
    let raw = copy_sources(&project);
    sh(
        &project,
        "git init -q -b main . && git -c user.email=b@e -c user.name=b add -A && git -c user.email=b@e -c user.name=b commit -qm base",
    );
    let mut t = Vec::new();
    let mut captured = 0;
    // A session: the agent edits files between destructive commands.
    for id in 1..=20 {
        let edit = project.join(format!("src/edit{}.rs", id % 5));
        std::fs::write(&edit, text(id as u64, 4000)).unwrap();
        let cmd = if id % 2 == 0 {
            "rm -rf src tests"
        } else {
            "rm -rf corpus docs src"
        };
        let (p, w, bytes) = take(&project, &home, &settings, cmd, id);
        t.push(p + w);
        captured += bytes;
    }
    let size = checkpoint::Shadow::for_project(&settings.dir, &project).size();
    println!(
        "this repository's sources ({} in the project): 20 checkpoints of `rm -rf src tests` and the like, {} captured in all, median {} each; the store takes {} on disk",
        human(raw),
        human(captured),
        ms(median(t)),
        human(size)
    );
}

fn main() {
    let runs = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3usize)
        .max(1);
    println!(
        "git: {}",
        checkpoint::git_version(Instant::now() + Duration::from_secs(5)).unwrap_or_default()
    );
    bench_build(runs);
    bench_uncommitted(runs);
    bench_store();
}
