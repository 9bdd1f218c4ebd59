//! `shellgate check`: one command, or a JSONL batch, to decisions.

use std::io::{BufRead, Write};

use clap::Args;
use serde::Serialize;

use super::policy_args::{PolicyArgs, report_warnings};
use super::{EXIT_DENY, EXIT_INTERNAL, EXIT_USAGE, decision_exit, read_command};
use crate::policy::{self, LoadedConfig, NoLedger, NullStore, Store, Verdict};
use crate::{Context, Decision};

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
    severity: crate::Severity,
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
    let req = args.policy.request(cmd, ctx.clone());
    let v = if args.record {
        policy::evaluate(&req, cfg, store)
    } else {
        policy::evaluate(&req, cfg, &mut NoLedger(store))
    };
    report_warnings(&v);
    v
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
        let _ = write!(out, "{}", super::render::check_verdict(&v));
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
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut bad = 0usize;
    let mut reader = reader;
    let mut buf = Vec::new();
    let mut lineno = 0usize;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                eprintln!("shellgate: read error after line {lineno}: {e}");
                let _ = out.flush();
                return EXIT_USAGE;
            }
        }
        lineno += 1;
        let line = match std::str::from_utf8(&buf) {
            Ok(l) => l.trim_end_matches(['\n', '\r']),
            Err(_) => {
                bad += 1;
                let _ = writeln!(
                    out,
                    "{}",
                    error_line(None, &format!("line {lineno} is not valid UTF-8"))
                );
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                bad += 1;
                let _ = writeln!(
                    out,
                    "{}",
                    error_line(None, &format!("line {lineno} is not JSON: {e}"))
                );
                continue;
            }
        };
        let Some(cmd) = v.get("cmd").and_then(|c| c.as_str()) else {
            bad += 1;
            let _ = writeln!(
                out,
                "{}",
                error_line(None, &format!("line {lineno} has no string field \"cmd\""))
            );
            continue;
        };
        let v = decide(args, cmd, ctx, cfg, store);
        match serde_json::to_string(&result(&v)) {
            Ok(s) => {
                let _ = writeln!(out, "{s}");
            }
            Err(e) => {
                bad += 1;
                let _ = writeln!(
                    out,
                    "{}",
                    error_line(Some(cmd), &format!("could not encode the result: {e}"))
                );
            }
        }
    }
    let _ = out.flush();
    if bad > 0 {
        eprintln!("shellgate: {bad} input line(s) could not be analysed (answered deny)");
        return EXIT_DENY.max(EXIT_USAGE);
    }
    0
}
