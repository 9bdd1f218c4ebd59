//! `shellgate check`: one command, or a JSONL batch, to decisions.

use std::io::{BufRead, Write};

use clap::Args;
use serde::Serialize;

use super::{EXIT_DENY, EXIT_INTERNAL, EXIT_USAGE, decision_exit, read_command};
use crate::{Analysis, Context, Decision, analyze};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The command to check, or `-` to read it from stdin.
    #[arg(required_unless_present = "jsonl")]
    command: Option<String>,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Batch mode: read `{"cmd": ...}` lines from FILE (or `-`) and write one result per line.
    #[arg(long, value_name = "FILE", conflicts_with = "command")]
    jsonl: Option<String>,
    /// Threads for `--jsonl` (default: every core); output stays in input order.
    #[arg(long, value_name = "N", requires = "jsonl")]
    jobs: Option<usize>,
    /// Working directory the command will run in (default: the current directory).
    #[arg(long)]
    cwd: Option<String>,
    /// Home directory of the user running it (default: $HOME).
    #[arg(long)]
    home: Option<String>,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    rule: &'a str,
    name: &'a str,
    severity: crate::Severity,
    message: &'a str,
    span: [usize; 2],
}

#[derive(Serialize)]
struct JsonResult<'a> {
    cmd: &'a str,
    decision: Decision,
    findings: Vec<JsonFinding<'a>>,
}

fn result(a: &Analysis) -> JsonResult<'_> {
    JsonResult {
        cmd: &a.command,
        decision: a.decision,
        findings: a
            .findings
            .iter()
            .map(|f| JsonFinding {
                rule: f.rule,
                name: f.name,
                severity: f.severity,
                message: &f.message,
                span: [f.span.start, f.span.end],
            })
            .collect(),
    }
}

fn context(args: &CheckArgs) -> Context {
    super::context_from(args.cwd.as_deref(), args.home.as_deref())
}

pub fn run(args: CheckArgs) -> i32 {
    let ctx = context(&args);
    if let Some(path) = &args.jsonl {
        return run_jsonl(path, &ctx, jobs(args.jobs));
    }
    let Some(arg) = &args.command else {
        eprintln!("shellgate: no command given; pass COMMAND, `-` for stdin, or --jsonl FILE");
        return EXIT_USAGE;
    };
    let cmd = match read_command(arg) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("shellgate: {e}");
            // Unreadable input is never allowed: the exit code is a usage error, and the
            // decision printed (if JSON was asked for) is deny.
            if args.json {
                println!(
                    "{{\"decision\":\"deny\",\"error\":{}}}",
                    serde_json::to_string(&e).unwrap_or_default()
                );
            }
            return EXIT_USAGE;
        }
    };
    let a = analyze(&cmd, &ctx);
    let mut out = std::io::stdout().lock();
    if args.json {
        match serde_json::to_string(&result(&a)) {
            Ok(s) => {
                let _ = writeln!(out, "{s}");
            }
            Err(e) => {
                eprintln!(
                    "shellgate: could not encode the result: {e}; please report this as a bug"
                );
                return EXIT_INTERNAL;
            }
        }
    } else {
        let _ = write!(out, "{}", super::render::check(&a));
    }
    decision_exit(a.decision)
}

/// One error line for input that could not be analysed: decision deny, never allow.
fn error_line(cmd: Option<&str>, msg: &str) -> String {
    serde_json::json!({
        "cmd": cmd,
        "decision": "deny",
        "findings": [],
        "error": msg,
    })
    .to_string()
}

/// Lines read and judged together: big enough that waiting for a chunk's slowest line
/// costs little, small enough that memory stays bounded whatever the input's length.
const CHUNK_LINES: usize = 4096;

/// The result line for one input line (without its newline), and whether it is an error.
fn jsonl_line(lineno: usize, buf: &[u8], ctx: &Context) -> Option<(String, bool)> {
    let line = match std::str::from_utf8(buf) {
        Ok(l) => l.trim_end_matches(['\n', '\r']),
        Err(_) => {
            return Some((
                error_line(None, &format!("line {lineno} is not valid UTF-8")),
                true,
            ));
        }
    };
    if line.trim().is_empty() {
        return None;
    }
    let v: serde_json::Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => {
            return Some((
                error_line(None, &format!("line {lineno} is not JSON: {e}")),
                true,
            ));
        }
    };
    let Some(cmd) = v.get("cmd").and_then(|c| c.as_str()) else {
        return Some((
            error_line(None, &format!("line {lineno} has no string field \"cmd\"")),
            true,
        ));
    };
    let a = analyze(cmd, ctx);
    Some(match serde_json::to_string(&result(&a)) {
        Ok(s) => (s, false),
        Err(e) => (
            error_line(Some(cmd), &format!("could not encode the result: {e}")),
            true,
        ),
    })
}

/// Worker threads for a batch: `--jobs`, else every core.
fn jobs(requested: Option<usize>) -> usize {
    requested
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Judge one chunk of lines on `jobs` threads; results come back in input order. Threads
/// take the next unjudged line as they finish one, so a slow command holds up only itself.
fn judge_chunk(
    lines: &[(usize, Vec<u8>)],
    ctx: &Context,
    jobs: usize,
) -> Vec<Option<(String, bool)>> {
    if jobs <= 1 || lines.len() < 2 {
        return lines.iter().map(|(n, b)| jsonl_line(*n, b, ctx)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some((n, b)) = lines.get(i) else {
                return done;
            };
            done.push((i, jsonl_line(*n, b, ctx)));
        }
    };
    let mut slots: Vec<Option<(String, bool)>> = vec![None; lines.len()];
    std::thread::scope(|s| {
        let helpers: Vec<_> = (1..jobs.min(lines.len())).map(|_| s.spawn(work)).collect();
        let mut all = work();
        // A worker that died leaves its lines unjudged; they are judged again below rather
        // than dropped (analyze itself never panics).
        for h in helpers {
            if let Ok(d) = h.join() {
                all.extend(d);
            }
        }
        let mut judged = vec![false; lines.len()];
        for (i, r) in all {
            judged[i] = true;
            slots[i] = r;
        }
        for (i, (n, b)) in lines.iter().enumerate() {
            if !judged[i] {
                slots[i] = jsonl_line(*n, b, ctx);
            }
        }
    });
    slots
}

fn run_jsonl(path: &str, ctx: &Context, jobs: usize) -> i32 {
    let reader: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                eprintln!("shellgate: cannot open {path}: {e}; pass a readable JSONL file or `-`");
                return EXIT_USAGE;
            }
        }
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut bad = 0usize;
    let mut reader = reader;
    let mut lineno = 0usize;
    let mut chunk: Vec<(usize, Vec<u8>)> = Vec::with_capacity(CHUNK_LINES);
    let mut read_error = None;
    loop {
        chunk.clear();
        while chunk.len() < CHUNK_LINES {
            let mut buf = Vec::new();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {
                    lineno += 1;
                    chunk.push((lineno, buf));
                }
                Err(e) => {
                    read_error = Some(e);
                    break;
                }
            }
        }
        if chunk.is_empty() && read_error.is_none() {
            break;
        }
        for (line, is_bad) in judge_chunk(&chunk, ctx, jobs).into_iter().flatten() {
            bad += usize::from(is_bad);
            let _ = writeln!(out, "{line}");
        }
        if let Some(e) = read_error {
            eprintln!("shellgate: read error after line {lineno}: {e}");
            let _ = out.flush();
            return EXIT_USAGE;
        }
        if chunk.len() < CHUNK_LINES {
            break;
        }
    }
    let _ = out.flush();
    if bad > 0 {
        eprintln!("shellgate: {bad} input line(s) could not be analysed (answered deny)");
        return EXIT_DENY.max(EXIT_USAGE);
    }
    0
}
