//! `shellgate check`: one command, or a JSONL batch, to decisions.

use super::{emit, flush, unwritten};
use std::io::BufRead;

use clap::Args;
use serde::Serialize;

use super::policy_args::{PolicyArgs, report_warnings};
use super::{EXIT_ALLOW, EXIT_DENY, EXIT_INTERNAL, EXIT_USAGE, decision_exit, read_command};
use shellgate::policy::{self, LoadedConfig, NoLedger, NullStore, Store, Verdict};
use shellgate::{Context, Decision};

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
    /// Threads for `--jsonl` (default: every core); output stays in input order. With
    /// `--record` or `--session` a batch runs on one thread, since the ledger and one-time
    /// approvals depend on order.
    #[arg(long, value_name = "N", requires = "jsonl")]
    jobs: Option<usize>,
    /// Working directory the command will run in (default: the current directory).
    #[arg(long)]
    cwd: Option<String>,
    /// Home directory of the user running it (default: $HOME).
    #[arg(long)]
    home: Option<String>,
    #[command(flatten)]
    policy: PolicyArgs,
    /// Append each decision to the ledger (by default `check` only inspects).
    #[arg(long, conflicts_with = "no_config")]
    record: bool,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    rule: &'a str,
    name: &'a str,
    severity: shellgate::Severity,
    message: &'a str,
    span: [usize; 2],
}

#[derive(Serialize)]
struct JsonResult<'a> {
    cmd: &'a str,
    decision: Decision,
    findings: Vec<JsonFinding<'a>>,
    /// What decided it (`rule`, `deny-glob`, `allowlist`, `ask`, ...).
    decided_by: &'a str,
    reason: &'a str,
}

fn result(v: &Verdict) -> JsonResult<'_> {
    JsonResult {
        cmd: &v.analysis.command,
        decision: v.decision,
        decided_by: v.decided_by.as_str(),
        reason: &v.reason,
        findings: v
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

/// The config, and a store: none unless approvals can apply (`--session`) or decisions
/// are recorded (`--record`), so plain checks never touch the database.
fn policy_for(args: &CheckArgs, ctx: &Context) -> (LoadedConfig, Box<dyn Store>) {
    let cfg = args.policy.load(ctx.cwd.as_deref());
    let store: Box<dyn Store> = if args.record || args.policy.session.is_some() {
        args.policy.store(&cfg)
    } else {
        Box::new(NullStore)
    };
    (cfg, store)
}

/// Decide one command under the policy.
fn decide(
    args: &CheckArgs,
    cmd: &str,
    ctx: &Context,
    cfg: &LoadedConfig,
    store: &mut dyn Store,
) -> Verdict {
    let v = verdict(args, cmd, ctx, cfg, store);
    report_warnings(&v);
    v
}

/// The policy's verdict on one command, its warnings not yet reported.
fn verdict(
    args: &CheckArgs,
    cmd: &str,
    ctx: &Context,
    cfg: &LoadedConfig,
    store: &mut dyn Store,
) -> Verdict {
    let req = args.policy.request(cmd, ctx.clone());
    if args.record {
        policy::evaluate(&req, cfg, store)
    } else {
        policy::evaluate(&req, cfg, &mut NoLedger(store))
    }
}

pub fn run(args: CheckArgs) -> i32 {
    let ctx = context(&args);
    let (cfg, mut store) = policy_for(&args, &ctx);
    if let Some(path) = &args.jsonl {
        return run_jsonl(&args, path, &ctx, &cfg, &mut *store);
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
    let v = decide(&args, &cmd, &ctx, &cfg, &mut *store);
    let mut out = std::io::stdout().lock();
    if args.json {
        match serde_json::to_string(&result(&v)) {
            Ok(s) => {
                if let Err(e) = emit(&mut out, format_args!("{s}\n")) {
                    return unwritten(&e, decision_exit(v.decision));
                }
            }
            Err(e) => {
                eprintln!(
                    "shellgate: could not encode the result: {e}; please report this as a bug"
                );
                return EXIT_INTERNAL;
            }
        }
    } else {
        if let Err(e) = emit(
            &mut out,
            format_args!("{}", super::render::check_verdict(&v)),
        ) {
            return unwritten(&e, decision_exit(v.decision));
        }
    }
    decision_exit(v.decision)
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

/// What one input line gives: the result line (without its newline), whether it is an
/// error, and the policy's warnings (printed in input order by the caller).
type Judged = (String, bool, Vec<String>);

/// Everything a batch line is judged with.
struct Batch<'a> {
    args: &'a CheckArgs,
    ctx: &'a Context,
    cfg: &'a LoadedConfig,
}

impl Batch<'_> {
    fn line(&self, lineno: usize, buf: &[u8], store: &mut dyn Store) -> Option<Judged> {
        let line = match std::str::from_utf8(buf) {
            Ok(l) => l.trim_end_matches(['\n', '\r']),
            Err(_) => {
                let msg = format!("line {lineno} is not valid UTF-8");
                return Some((error_line(None, &msg), true, Vec::new()));
            }
        };
        if line.trim().is_empty() {
            return None;
        }
        let v: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                let msg = format!("line {lineno} is not JSON: {e}");
                return Some((error_line(None, &msg), true, Vec::new()));
            }
        };
        let Some(cmd) = v.get("cmd").and_then(|c| c.as_str()) else {
            let msg = format!("line {lineno} has no string field \"cmd\"");
            return Some((error_line(None, &msg), true, Vec::new()));
        };
        let v = verdict(self.args, cmd, self.ctx, self.cfg, store);
        let warnings = v.warnings.clone();
        Some(match serde_json::to_string(&result(&v)) {
            Ok(s) => (s, false, warnings),
            Err(e) => {
                let msg = format!("could not encode the result: {e}");
                (error_line(Some(cmd), &msg), true, warnings)
            }
        })
    }

    /// Judge one chunk; results come back in input order. With more than one job, threads
    /// take the next unjudged line as they finish one (so a slow command holds up only
    /// itself), each with a store that neither reads approvals nor writes the ledger.
    fn chunk(
        &self,
        lines: &[(usize, Vec<u8>)],
        jobs: usize,
        store: &mut dyn Store,
    ) -> Vec<Option<Judged>> {
        if jobs <= 1 || lines.len() < 2 {
            return lines.iter().map(|(n, b)| self.line(*n, b, store)).collect();
        }
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || {
            let mut done = Vec::new();
            loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((n, b)) = lines.get(i) else {
                    return done;
                };
                done.push((i, self.line(*n, b, &mut NullStore)));
            }
        };
        let mut slots: Vec<Option<Judged>> = vec![None; lines.len()];
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..jobs.min(lines.len())).map(|_| s.spawn(work)).collect();
            let mut all = work();
            // A worker that died leaves its lines unjudged; they are judged again below
            // rather than dropped (analyze itself never panics).
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
                    slots[i] = self.line(*n, b, &mut NullStore);
                }
            }
        });
        slots
    }
}

/// Worker threads for a batch: `--jobs`, else every core; one when the store is in use.
fn jobs(args: &CheckArgs) -> usize {
    if args.record || args.policy.session.is_some() {
        return 1;
    }
    args.jobs
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

fn run_jsonl(
    args: &CheckArgs,
    path: &str,
    ctx: &Context,
    cfg: &LoadedConfig,
    store: &mut dyn Store,
) -> i32 {
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
    let batch = Batch { args, ctx, cfg };
    let jobs = jobs(args);
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
        for (line, is_bad, warnings) in batch.chunk(&chunk, jobs, store).into_iter().flatten() {
            for w in warnings {
                eprintln!("shellgate: warning: {w}");
            }
            bad += usize::from(is_bad);
            if let Err(e) = emit(&mut out, format_args!("{line}\n")) {
                return unwritten(&e, if bad > 0 { EXIT_USAGE } else { EXIT_ALLOW });
            }
        }
        if let Some(e) = read_error {
            eprintln!("shellgate: read error after line {lineno}: {e}");
            return match flush(&mut out) {
                Ok(()) => EXIT_USAGE,
                Err(e) => unwritten(&e, EXIT_USAGE),
            };
        }
        if chunk.len() < CHUNK_LINES {
            break;
        }
    }
    let code = if bad > 0 {
        eprintln!("shellgate: {bad} input line(s) could not be analysed (answered deny)");
        EXIT_DENY.max(EXIT_USAGE)
    } else {
        EXIT_ALLOW
    };
    match flush(&mut out) {
        Ok(()) => code,
        Err(e) => unwritten(&e, code),
    }
}
