//! `shellgate check`: one command, or a JSONL batch, to decisions.

use super::{emit, flush, unwritten};
use std::io::BufRead;

use clap::Args;
use serde::Serialize;

use super::policy_args::{PolicyArgs, report_warnings};
use super::{EXIT_ALLOW, EXIT_DENY, EXIT_INTERNAL, EXIT_USAGE, decision_exit, read_command};
use shellgate::policy::{self, LoadedConfig, NoLedger, NullStore, Request, Store, Verdict};
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
    evaluate(args, &args.policy.request(cmd, ctx.clone()), cfg, store)
}

/// The policy's verdict on one request: the ledger is written only with `--record`.
fn evaluate(args: &CheckArgs, req: &Request, cfg: &LoadedConfig, store: &mut dyn Store) -> Verdict {
    if args.record {
        policy::evaluate(req, cfg, store)
    } else {
        policy::evaluate(req, cfg, &mut NoLedger(store))
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
            format_args!("{}", shellgate::render::check_verdict(&v)),
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

/// What one input line gives: the result line (without its newline), whether it is an
/// error, and the policy's warnings (printed in input order by the caller).
type Judged = (String, bool, Vec<String>);

/// A batch line read for its `cmd` alone; other fields are skipped unread.
#[derive(serde::Deserialize)]
struct CmdLine<'a> {
    #[serde(borrow)]
    cmd: std::borrow::Cow<'a, str>,
}

/// Everything a batch line is judged with.
struct Batch<'a> {
    args: &'a CheckArgs,
    ctx: &'a Context,
    cfg: &'a LoadedConfig,
}

impl Batch<'_> {
    /// The request a batch thread judges its lines with, the command replaced per line, so
    /// that a line costs no copy of the context.
    fn request(&self) -> Request {
        self.args.policy.request("", self.ctx.clone())
    }

    fn line(
        &self,
        req: &mut Request,
        lineno: usize,
        buf: &[u8],
        store: &mut dyn Store,
    ) -> Option<Judged> {
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
        // Straight to the one field, borrowed where it has no escapes; any line this does
        // not read (not an object, no or a non-string `cmd`, a repeated key) goes through
        // the general reading below, which says what is wrong or takes the last `cmd`.
        let fast = serde_json::from_str::<CmdLine>(line).ok();
        let general;
        let cmd: &str = match &fast {
            Some(l) => &l.cmd,
            None => {
                general = match serde_json::from_str::<serde_json::Value>(line) {
                    Ok(v) => v,
                    Err(e) => {
                        let msg = format!("line {lineno} is not JSON: {e}");
                        return Some((error_line(None, &msg), true, Vec::new()));
                    }
                };
                let Some(cmd) = general.get("cmd").and_then(|c| c.as_str()) else {
                    let msg = format!("line {lineno} has no string field \"cmd\"");
                    return Some((error_line(None, &msg), true, Vec::new()));
                };
                cmd
            }
        };
        req.command.clear();
        req.command.push_str(cmd);
        let v = evaluate(self.args, req, self.cfg, store);
        let warnings = v.warnings.clone();
        Some(match serde_json::to_string(&result(&v)) {
            Ok(s) => (s, false, warnings),
            Err(e) => {
                let msg = format!("could not encode the result: {e}");
                (error_line(Some(cmd), &msg), true, warnings)
            }
        })
    }

    /// One line on a judge thread: a panic anywhere in the policy or the encoding (analysis
    /// itself catches its own) answers deny for that line instead of leaving a gap the
    /// writer would wait for.
    fn line_caught(&self, req: &mut Request, lineno: usize, buf: &[u8]) -> Option<Judged> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.line(req, lineno, buf, &mut NullStore)
        }))
        .unwrap_or_else(|_| {
            let msg = format!("line {lineno} could not be analysed (internal error)");
            Some((error_line(None, &msg), true, Vec::new()))
        })
    }
}

/// What ended a batch's input: `None` at its end, else the line count and the read error.
type InputEnd = Option<(usize, std::io::Error)>;

/// Up to `max` lines with their numbers (counted on from `lineno`), and what ended the
/// input if it ended before `max`.
fn read_lines(
    reader: &mut dyn BufRead,
    lineno: &mut usize,
    max: usize,
) -> (Vec<(usize, Vec<u8>)>, Option<InputEnd>) {
    let mut lines = Vec::with_capacity(max.min(BLOCK_LINES));
    while lines.len() < max {
        let mut buf = Vec::new();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => return (lines, Some(None)),
            Ok(_) => {
                *lineno += 1;
                lines.push((*lineno, buf));
            }
            Err(e) => return (lines, Some(Some((*lineno, e)))),
        }
    }
    (lines, None)
}

/// The batch on this thread: the only form whose store may read approvals and write the
/// ledger, since both depend on order. It reads as far ahead as the parallel reader may
/// (`BLOCK_LINES * WINDOW_BLOCKS` lines) before judging and writing them, so a caller that
/// writes all its input before reading any output is not blocked on its own pipe sooner
/// than with more threads. Returns as [`judge_parallel`] does.
fn judge_serial(
    batch: &Batch<'_>,
    mut reader: Box<dyn BufRead + Send>,
    store: &mut dyn Store,
    mut write: impl FnMut(Judged) -> std::io::Result<()>,
) -> std::io::Result<InputEnd> {
    let mut lineno = 0usize;
    let mut req = batch.request();
    loop {
        let (chunk, ended) = read_lines(&mut reader, &mut lineno, BLOCK_LINES * WINDOW_BLOCKS);
        for (n, b) in &chunk {
            if let Some(j) = batch.line(&mut req, *n, b, store) {
                write(j)?;
            }
        }
        if let Some(ended) = ended {
            return Ok(ended);
        }
    }
}

/// Lines a judge takes at a time in a parallel batch: enough that the hand-offs between
/// threads cost little per line, few enough that the two judges stay evenly loaded.
const BLOCK_LINES: usize = 128;

/// Blocks the reader of a parallel batch may run ahead of the writer: memory stays bounded
/// whatever the input's length, and one slow line holds up only the output behind it.
const WINDOW_BLOCKS: usize = 32;

/// A block handed to the judges: its place in the output, then each line's number and bytes.
type Work = (usize, Vec<(usize, Vec<u8>)>);

/// The batch on `jobs` judge threads, with one reader thread and the calling thread writing
/// results in input order, so that reading, judging and writing overlap instead of taking
/// turns chunk by chunk (which left one core idle a fifth of the time on tldr). Returns the
/// read error that ended the input early, if any, with the number of lines read before it;
/// a failed `write` stops the batch and is returned.
fn judge_parallel(
    batch: &Batch<'_>,
    mut reader: Box<dyn BufRead + Send>,
    jobs: usize,
    mut write: impl FnMut(Judged) -> std::io::Result<()>,
) -> std::io::Result<InputEnd> {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Condvar, Mutex, mpsc};

    // How many blocks the writer has taken, for the reader's window.
    let taken = (Mutex::new(0usize), Condvar::new());
    // Set when the writer gives up: the reader stops and the judges only drain.
    let stop = AtomicBool::new(false);
    let (work_tx, work_rx) = mpsc::sync_channel::<Work>(jobs * 2);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::channel::<(usize, Vec<Option<Judged>>)>();
    std::thread::scope(|s| {
        let (taken, stop, work_rx) = (&taken, &stop, &work_rx);
        let read = s.spawn(move || -> InputEnd {
            let mut seq = 0usize;
            let mut lineno = 0usize;
            loop {
                let (m, cv) = taken;
                let Ok(mut t) = m.lock() else {
                    return None;
                };
                while seq >= *t + WINDOW_BLOCKS && !stop.load(Ordering::Relaxed) {
                    t = match cv.wait(t) {
                        Ok(t) => t,
                        Err(_) => return None,
                    };
                }
                drop(t);
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let (block, ended) = read_lines(&mut reader, &mut lineno, BLOCK_LINES);
                // Lines read before a read error are still judged and written.
                if !block.is_empty() && work_tx.send((seq, block)).is_err() {
                    return None;
                }
                seq += 1;
                if let Some(ended) = ended {
                    return ended;
                }
            }
        });
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            s.spawn(move || {
                let mut req = batch.request();
                loop {
                    let next = match work_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok((seq, block)) = next else {
                        return;
                    };
                    if stop.load(Ordering::Relaxed) {
                        continue;
                    }
                    let judged = block
                        .iter()
                        .map(|(n, b)| batch.line_caught(&mut req, *n, b))
                        .collect();
                    // A send fails only once the writer is gone; keep draining so the
                    // reader is never left blocked on a full queue.
                    let _ = done_tx.send((seq, judged));
                }
            });
        }
        drop(done_tx);
        let mut pending = std::collections::BTreeMap::new();
        let mut next = 0usize;
        let mut failed = None;
        'results: for (seq, judged) in &done_rx {
            pending.insert(seq, judged);
            while let Some(judged) = pending.remove(&next) {
                next += 1;
                for j in judged.into_iter().flatten() {
                    if let Err(e) = write(j) {
                        failed = Some(e);
                        break 'results;
                    }
                }
            }
            let (m, cv) = taken;
            if let Ok(mut t) = m.lock() {
                *t = next;
            }
            cv.notify_all();
        }
        if failed.is_some() {
            stop.store(true, Ordering::Relaxed);
            taken.1.notify_all();
        }
        drop(done_rx);
        let read_error = read.join().unwrap_or(None);
        match failed {
            Some(e) => Err(e),
            None => Ok(read_error),
        }
    })
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
    let reader: Box<dyn BufRead + Send> = if path == "-" {
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
    let ended = {
        let mut put = |(line, is_bad, warnings): Judged| -> std::io::Result<()> {
            for w in warnings {
                eprintln!("shellgate: warning: {w}");
            }
            bad += usize::from(is_bad);
            emit(&mut out, format_args!("{line}\n"))
        };
        if jobs > 1 {
            judge_parallel(&batch, reader, jobs, &mut put)
        } else {
            judge_serial(&batch, reader, store, &mut put)
        }
    };
    match ended {
        Err(e) => return unwritten(&e, if bad > 0 { EXIT_USAGE } else { EXIT_ALLOW }),
        Ok(Some((lineno, e))) => {
            eprintln!("shellgate: read error after line {lineno}: {e}");
            return match flush(&mut out) {
                Ok(()) => EXIT_USAGE,
                Err(e) => unwritten(&e, EXIT_USAGE),
            };
        }
        Ok(None) => {}
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
