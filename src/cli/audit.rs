//! `shellgate audit [PATH..]`: judge every shell command and file write in the transcripts
//! agents left, and say which ones shellgate would have denied or asked about that ran
//! anyway. Reading and judging are `shellgate::audit`; this module prints the table, JSON,
//! JSONL and (in `audit_html`) the HTML report.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use super::ledger::{fmt_time, parse_since};
use super::policy_args::ModeArg;
use super::{EXIT_ALLOW, EXIT_ASK, EXIT_INTERNAL, EXIT_USAGE, emit, unwritten};
use shellgate::Decision;
use shellgate::audit::{self, Ask, Audit, Judge, Judged, Ran};
use shellgate::policy::{self, LoadedConfig};
use shellgate::render::display;

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// Transcript files or directories (searched recursively). Default: every host's
    /// transcripts under the home directory (~/.claude/projects, ~/.codex/sessions,
    /// ~/.gemini/tmp, ~/.hermes/state.db, ~/.local/share/opencode/storage).
    paths: Vec<PathBuf>,
    /// Only calls since then: `30m`, `2h`, `7d`, `2w`, a date `2026-12-01`, a UTC time, or
    /// Unix seconds. Calls without a time are kept.
    #[arg(long)]
    since: Option<String>,
    /// Print the whole audit as one JSON object.
    #[arg(long, conflicts_with = "jsonl")]
    json: bool,
    /// Print one JSON object per judged call.
    #[arg(long)]
    jsonl: bool,
    /// Also write a self-contained HTML report (a timeline per session) to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// The home directory the transcripts' commands ran under (default: $HOME); also where
    /// transcripts are looked for when no PATH is given.
    #[arg(long)]
    home: Option<String>,
    /// Config to judge by (default: the user's, as `check` reads it).
    #[arg(long, value_name = "PATH")]
    config: Option<PathBuf>,
    /// Judge by the analyzer alone: no config (manual mode).
    #[arg(long, conflicts_with_all = ["config", "mode"])]
    no_config: bool,
    /// Judge under this mode instead of the configured one.
    #[arg(long, value_enum)]
    mode: Option<ModeArg>,
    /// Report progress on stderr (default: when stderr is a terminal).
    #[arg(long)]
    progress: bool,
}

/// Counts of calls by decision, and of those that ran.
#[derive(Debug, Default, Serialize, Clone)]
pub struct Tally {
    pub calls: usize,
    pub allow: usize,
    pub ask: usize,
    pub deny: usize,
    /// Denied or asked calls that ran anyway.
    pub ran_unsafe: usize,
}

impl Tally {
    fn add(&mut self, j: &Judged) {
        self.calls += 1;
        match j.decision {
            Decision::Allow => self.allow += 1,
            Decision::Ask => self.ask += 1,
            Decision::Deny => self.deny += 1,
        }
        if j.decision != Decision::Allow && j.call.ran == Ran::Ran {
            self.ran_unsafe += 1;
        }
    }
}

/// The tables of the report: by decision (the total), rule, session and project.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    pub files: BTreeMap<String, usize>,
    pub total: Tally,
    pub by_rule: BTreeMap<String, Tally>,
    /// Keyed `host session`.
    pub by_session: BTreeMap<String, Tally>,
    pub by_project: BTreeMap<String, Tally>,
    pub malformed: usize,
}

pub fn summary(a: &Audit) -> Summary {
    let mut s = Summary::default();
    for (host, _) in &a.files {
        *s.files.entry(host.clone()).or_default() += 1;
    }
    for j in &a.calls {
        s.total.add(j);
        let mut rules: Vec<String> = j
            .findings
            .iter()
            .map(|f| format!("{} {}", f.rule, f.name))
            .collect();
        if rules.is_empty() && j.decision != Decision::Allow {
            rules.push("file-write-guard".into());
        }
        rules.dedup();
        for r in rules {
            s.by_rule.entry(r).or_default().add(j);
        }
        s.by_session
            .entry(format!("{} {}", j.call.host, j.call.session))
            .or_default()
            .add(j);
        let project = j.call.project.clone().unwrap_or_else(|| "(unknown)".into());
        s.by_project.entry(project).or_default().add(j);
    }
    s.malformed = a.malformed.len();
    s
}

/// The command or the written paths of a call, as one line.
pub fn what(j: &Judged) -> String {
    match &j.call.ask {
        Ask::Shell { command } => command.clone(),
        Ask::Write { paths } => format!("write {}", paths.join(", ")),
    }
}

pub fn when(j: &Judged) -> String {
    j.call
        .time
        .map(|t| fmt_time(t.div_euclid(1000)))
        .unwrap_or_else(|| "-".into())
}

fn tally_row(out: &mut String, name: &str, t: &Tally) {
    out.push_str(&format!(
        "  {:>6} {:>6} {:>6} {:>6} {:>8}  {}\n",
        t.calls,
        t.allow,
        t.ask,
        t.deny,
        t.ran_unsafe,
        display(name)
    ));
}

fn table(out: &mut String, title: &str, rows: &BTreeMap<String, Tally>) {
    out.push_str(&format!(
        "\n{title}\n  {:>6} {:>6} {:>6} {:>6} {:>8}\n",
        "calls", "allow", "ask", "deny", "ran-unsafe"
    ));
    let mut rows: Vec<_> = rows.iter().collect();
    rows.sort_by(|a, b| {
        (b.1.ran_unsafe, b.1.deny + b.1.ask, b.1.calls).cmp(&(
            a.1.ran_unsafe,
            a.1.deny + a.1.ask,
            a.1.calls,
        ))
    });
    for (k, t) in rows {
        tally_row(out, k, t);
    }
}

/// The text report: the headline (what ran that should not have), then the tables.
pub fn text_report(a: &Audit, s: &Summary) -> String {
    let mut out = String::new();
    let files: Vec<String> = s.files.iter().map(|(h, n)| format!("{h} {n}")).collect();
    out.push_str(&format!(
        "shellgate audit: {} transcript file{} ({}), {} call{} judged; {} malformed line{}\n",
        a.files.len(),
        if a.files.len() == 1 { "" } else { "s" },
        if files.is_empty() {
            "none found".into()
        } else {
            files.join(", ")
        },
        s.total.calls,
        if s.total.calls == 1 { "" } else { "s" },
        s.malformed,
        if s.malformed == 1 { "" } else { "s" },
    ));
    let unsafe_ran: Vec<&Judged> = a.ran_unsafe().collect();
    out.push_str(&format!(
        "\nRan although shellgate would deny or ask: {}\n",
        unsafe_ran.len()
    ));
    for j in unsafe_ran {
        let rules: Vec<String> = j
            .findings
            .iter()
            .map(|f| format!("{} {}", f.rule, f.name))
            .collect();
        out.push_str(&format!(
            "  {:<5} {:<8} {}  session {}  {}\n        {}\n        {}\n",
            j.decision.as_str().to_uppercase(),
            j.call.host,
            when(j),
            display(&j.call.session),
            display(j.call.project.as_deref().unwrap_or("")),
            display(&what(j)),
            if rules.is_empty() {
                display(&j.reason)
            } else {
                rules.join(", ")
            },
        ));
    }
    out.push_str(&format!(
        "\nBy decision: allow {}, ask {}, deny {} (of which ran: {})\n",
        s.total.allow, s.total.ask, s.total.deny, s.total.ran_unsafe
    ));
    table(&mut out, "By rule", &s.by_rule);
    table(&mut out, "By session", &s.by_session);
    table(&mut out, "By project", &s.by_project);
    if !a.malformed.is_empty() {
        out.push_str(&format!("\nMalformed ({}):\n", a.malformed.len()));
        for (f, line, why) in a.malformed.iter().take(20) {
            out.push_str(&format!("  {}:{line}: {}\n", f.display(), display(why)));
        }
        if a.malformed.len() > 20 {
            out.push_str(&format!(
                "  ... and {} more (--json lists all)\n",
                a.malformed.len() - 20
            ));
        }
    }
    out
}

fn ran_listing(a: &Audit) -> Vec<&Judged> {
    a.ran_unsafe().collect()
}

fn json_report(a: &Audit, s: &Summary) -> serde_json::Result<String> {
    let malformed: Vec<_> = a
        .malformed
        .iter()
        .map(|(f, line, why)| serde_json::json!({"file": f, "line": line, "why": why}))
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({
        "summary": s,
        "ran_unsafe": ran_listing(a),
        "calls": a.calls,
        "malformed": malformed,
    }))
}

fn load_config(args: &AuditArgs) -> LoadedConfig {
    if args.no_config {
        return LoadedConfig::defaults();
    }
    let cwd = std::env::current_dir().ok();
    let mut cfg = LoadedConfig::load(args.config.as_deref(), cwd.as_deref());
    for p in cfg.problems() {
        eprintln!("shellgate: {p}");
    }
    if let Some(m) = args.mode
        && !cfg.is_strict_fallback()
    {
        cfg.config.mode = policy::Mode::from(m);
    }
    cfg
}

pub fn run(args: AuditArgs) -> i32 {
    let since = match args.since.as_deref().map(|s| parse_since(s, policy::now())) {
        None => None,
        Some(Ok(t)) => Some(t.saturating_mul(1000)),
        Some(Err(e)) => {
            eprintln!("shellgate: {e}");
            return EXIT_USAGE;
        }
    };
    let home = args
        .home
        .clone()
        .or_else(|| std::env::var("HOME").ok().filter(|h| !h.is_empty()));
    for p in &args.paths {
        if !p.exists() {
            eprintln!(
                "shellgate: {}: no such file or directory; pass transcript files or directories",
                p.display()
            );
            return EXIT_USAGE;
        }
    }
    let files = audit::discover(&args.paths, home.as_deref().map(std::path::Path::new));
    let judge = Judge::new(load_config(&args), home);
    let show = args.progress || std::io::stderr().is_terminal();
    let mut progress = |done: usize, all: usize| {
        if show && (done.is_multiple_of(50) || done == all) {
            eprint!("\rshellgate audit: {done}/{all} transcript files read");
            if done == all {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
        }
    };
    let a = audit::audit(&files, &judge, since, &mut progress);
    let s = summary(&a);
    if let Some(path) = &args.html {
        let page = super::audit_html::page(&a, &s);
        if let Err(e) = std::fs::write(path, page) {
            eprintln!("shellgate: could not write {}: {e}", path.display());
            return EXIT_INTERNAL;
        }
    }
    let code = if s.total.ran_unsafe > 0 {
        EXIT_ASK
    } else {
        EXIT_ALLOW
    };
    let mut out = std::io::stdout().lock();
    let written = if args.json {
        match json_report(&a, &s) {
            Ok(j) => emit(&mut out, format_args!("{j}\n")),
            Err(e) => {
                eprintln!(
                    "shellgate: could not encode the audit: {e}; please report this as a bug"
                );
                return EXIT_INTERNAL;
            }
        }
    } else if args.jsonl {
        (|| {
            for j in &a.calls {
                let line = serde_json::to_string(j).map_err(std::io::Error::other)?;
                emit(&mut out, format_args!("{line}\n"))?;
            }
            Ok(())
        })()
    } else {
        emit(&mut out, format_args!("{}", text_report(&a, &s)))
    };
    if let Err(e) = written {
        return unwritten(&e, code);
    }
    if !a.malformed.is_empty() && (args.json || args.jsonl) {
        eprintln!(
            "shellgate: {} malformed line{} skipped (listed in --json)",
            a.malformed.len(),
            if a.malformed.len() == 1 { "" } else { "s" }
        );
    }
    code
}
