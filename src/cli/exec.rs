//! `shellgate exec [--session ID] -- COMMAND`: an interactive gate in front of a shell.
//! Allow runs the command with bash and passes its exit status through; ask prompts on the
//! terminal (`[o]nce / [s]ession / [a]lways / [d]eny`, Enter and the timeout deny); deny
//! exits 126 with the reason on stderr and runs nothing.

use super::emit;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::time::Duration;

use clap::Args;

use super::policy_args::{PolicyArgs, report_warnings};
use super::{EXIT_INTERNAL, context_from};
use shellgate::Decision;
use shellgate::policy::{self, Answer, AnswerSource, Checkpoints, LoadedConfig, Store, Verdict};

/// Exit code when the gate refuses to run the command (as a shell does for "not executable").
pub const EXIT_REFUSED: i32 = 126;

#[derive(Args, Debug)]
pub struct ExecArgs {
    #[command(flatten)]
    policy: PolicyArgs,
    /// Working directory the command runs in (default: the current directory).
    #[arg(long)]
    cwd: Option<String>,
    /// The command: one argument is run as shell text, several are joined with spaces.
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        required = true,
        value_name = "COMMAND"
    )]
    command: Vec<String>,
}

/// The terminal a person answers on, when there is one.
fn terminal() -> Option<(File, File)> {
    let r = File::options().read(true).open("/dev/tty").ok()?;
    let w = File::options().write(true).open("/dev/tty").ok()?;
    Some((r, w))
}

pub fn run(mut args: ExecArgs) -> i32 {
    let command = if args.command.len() == 1 {
        args.command.remove(0)
    } else {
        args.command.join(" ")
    };
    let ctx = context_from(args.cwd.as_deref(), None);
    let cfg = args.policy.load(ctx.cwd.as_deref());
    let mut store = args.policy.store(&cfg);
    let mut req = args.policy.request(&command, ctx);
    if req.harness.is_none() {
        req.harness = Some("exec".into());
    }
    if req.session.is_none() {
        // The shell that runs the gate is the session, unless one is named.
        req.session = std::env::var("SHELLGATE_SESSION")
            .ok()
            .filter(|s| !s.is_empty())
            .or_else(|| Some(format!("ppid-{}", std::os::unix::process::parent_id())));
    }
    req.checkpoints = Checkpoints::Prompt;
    let tty = if req.unattended { None } else { terminal() };
    if tty.is_none() {
        // No person can answer here.
        req.unattended = true;
    }
    let v = policy::evaluate(&req, &cfg, &mut *store);
    report_warnings(&v);
    match v.decision {
        Decision::Allow => {
            let id = said(&v.checkpoint);
            ran(execute(&req), id, &cfg, &mut *store)
        }
        Decision::Deny => refuse(&v.reason),
        Decision::Ask => {
            let Some((r, mut w)) = tty else {
                return refuse(&v.reason);
            };
            let answer = prompt(&v, &cfg.config, r, &mut w);
            let rec = policy::record_answer(&req, answer, AnswerSource::Prompt, &cfg, &mut *store);
            // The person has answered; a terminal that cannot show these lines (emit
            // reports it on stderr) does not change the answer.
            for x in &rec.warnings {
                let _ = emit(&mut w, format_args!("shellgate: warning: {x}\n"));
            }
            if let Some(n) = &rec.checkpoint {
                let _ = emit(&mut w, format_args!("shellgate: {}\n", n.text));
            }
            if !rec.allow_entries.is_empty() {
                let file = cfg
                    .paths
                    .config
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                let _ = emit(
                    &mut w,
                    format_args!(
                        "shellgate: added to `allow` in {file}: {}\n",
                        rec.allow_entries.join(", ")
                    ),
                );
            }
            match answer.decision() {
                Decision::Allow => {
                    let id = rec.checkpoint.as_ref().and_then(|n| n.id);
                    ran(execute(&req), id, &cfg, &mut *store)
                }
                _ => refuse(match answer {
                    Answer::Timeout => "denied: nobody answered the prompt in time",
                    _ => "denied by a person at the prompt",
                }),
            }
        }
    }
}

/// Say on stderr what the checkpoint step did before an allowed command runs; its id.
fn said(n: &Option<policy::CheckpointNote>) -> Option<i64> {
    let n = n.as_ref()?;
    eprintln!("shellgate: {}", n.text);
    n.id
}

/// After the command ran: record what it left where the checkpoint was taken.
fn ran(code: i32, id: Option<i64>, cfg: &LoadedConfig, store: &mut dyn Store) -> i32 {
    if let Some(id) = id
        && let Err(e) = policy::checkpoint::record_after(cfg, store, id)
    {
        eprintln!("shellgate: warning: what the command changed was not recorded for undo: {e}");
    }
    code
}

fn refuse(reason: &str) -> i32 {
    eprintln!("shellgate: {reason}");
    EXIT_REFUSED
}

/// Show the command, the explanation and the choices; read one line within the timeout.
fn prompt(v: &Verdict, cfg: &policy::Config, tty: File, w: &mut File) -> Answer {
    let mut text = String::new();
    text.push_str("\nshellgate: this command needs your approval\n\n");
    text.push_str(&format!(
        "  $ {}\n\n",
        shellgate::render::display(&v.analysis.command)
    ));
    for f in &v.findings {
        text.push_str(&format!(
            "  {} {}: {}\n",
            f.rule,
            f.name,
            shellgate::render::display(&f.message)
        ));
    }
    if let Some(n) = &v.checkpoint {
        text.push_str(&format!("\n  {}\n", shellgate::render::display(&n.text)));
    }
    text.push_str(&format!(
        "\n  [o]nce / [s]ession / [a]lways / [d]eny  (Enter = deny; denied after {} s): ",
        cfg.timeout
    ));
    if w.write_all(text.as_bytes())
        .and_then(|_| w.flush())
        .is_err()
    {
        return Answer::Deny;
    }
    let (tx, rx) = mpsc::channel();
    // The reader may stay blocked after a timeout; the process exits soon after anyway.
    std::thread::spawn(move || {
        let mut line = String::new();
        let r = BufReader::new(tty).read_line(&mut line);
        let _ = tx.send(r.map(|_| line));
    });
    let answer = match rx.recv_timeout(Duration::from_secs(cfg.timeout)) {
        Ok(Ok(line)) => match line.trim().to_ascii_lowercase().as_str() {
            "o" | "once" => Answer::Once,
            "s" | "session" => Answer::Session,
            "a" | "always" => Answer::Always,
            _ => Answer::Deny,
        },
        Ok(Err(_)) => Answer::Deny,
        Err(_) => {
            // Denied whether or not the terminal can show why.
            let _ = emit(
                w,
                format_args!("\nshellgate: no answer in {} s; denied\n", cfg.timeout),
            );
            Answer::Timeout
        }
    };
    // The answer stands even if the terminal cannot echo it.
    let _ = emit(w, format_args!("shellgate: {}\n", answer.as_str()));
    answer
}

/// Run the command with bash and pass its exit status through (128 + N for signal N).
fn execute(req: &policy::Request) -> i32 {
    let mut c = std::process::Command::new("bash");
    c.arg("-c").arg(&req.command);
    if let Some(d) = &req.context.cwd {
        c.current_dir(d);
    }
    match c.status() {
        Ok(s) => {
            use std::os::unix::process::ExitStatusExt;
            s.code()
                .or_else(|| s.signal().map(|n| 128 + n))
                .unwrap_or(EXIT_INTERNAL)
        }
        Err(e) => {
            eprintln!("shellgate: cannot start bash: {e}; install bash or put it on PATH");
            127
        }
    }
}
