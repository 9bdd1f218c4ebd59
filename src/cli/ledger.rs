//! `shellgate log` (the decision ledger) and `shellgate approvals list|revoke|clear|suggest`.

use super::{emit, unwritten};
use std::io::Write;

use clap::{Args, Subcommand, ValueEnum};
use serde::Serialize;

use super::policy_args::PolicyArgs;
use super::{EXIT_INTERNAL, EXIT_USAGE};
use shellgate::Decision;
use shellgate::policy::{self, LoadedConfig, LogQuery, Store, suggest};
use shellgate::render::display;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DecisionArg {
    Allow,
    Ask,
    Deny,
}

impl From<DecisionArg> for Decision {
    fn from(d: DecisionArg) -> Decision {
        match d {
            DecisionArg::Allow => Decision::Allow,
            DecisionArg::Ask => Decision::Ask,
            DecisionArg::Deny => Decision::Deny,
        }
    }
}

/// Options for reading state: the config (for the database path) and nothing else.
#[derive(Args, Debug, Clone, Default)]
pub struct StateArgs {
    /// Config file (default: $SHELLGATE_CONFIG, else $XDG_CONFIG_HOME/shellgate/config.toml).
    #[arg(long, value_name = "PATH")]
    config: Option<std::path::PathBuf>,
}

impl StateArgs {
    pub(super) fn open(&self) -> (LoadedConfig, Box<dyn Store>) {
        let p = PolicyArgs {
            config: self.config.clone(),
            ..PolicyArgs::default()
        };
        let cwd = std::env::current_dir()
            .ok()
            .map(|d| d.to_string_lossy().into_owned());
        let cfg = p.load(cwd.as_deref());
        let store = policy::open_store(&cfg);
        (cfg, store)
    }
}

#[derive(Args, Debug)]
pub struct LogArgs {
    #[command(flatten)]
    state: StateArgs,
    /// Only entries since then: `30m`, `2h`, `7d`, `2w`, a date `2026-12-01`, a UTC time
    /// `2026-12-01T10:00:00`, or Unix seconds.
    #[arg(long, value_name = "WHEN")]
    since: Option<String>,
    #[arg(long, value_enum)]
    decision: Option<DecisionArg>,
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    #[arg(long, value_name = "NAME")]
    harness: Option<String>,
    /// Most recent entries shown (default 50 in the table, all with --json).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// One JSON object per line instead of the table.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct ApprovalsArgs {
    #[command(subcommand)]
    cmd: ApprovalsCmd,
}

#[derive(Subcommand, Debug)]
enum ApprovalsCmd {
    /// Approvals in force (session and once) and the config's `allow` list.
    List {
        #[command(flatten)]
        state: StateArgs,
        /// Only this session's approvals.
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        #[arg(long)]
        json: bool,
    },
    /// Remove approvals by id (see `approvals list`).
    Revoke {
        #[command(flatten)]
        state: StateArgs,
        #[arg(required = true, value_name = "ID")]
        ids: Vec<i64>,
    },
    /// Remove every approval, or one session's.
    Clear {
        #[command(flatten)]
        state: StateArgs,
        #[arg(long, value_name = "ID")]
        session: Option<String>,
    },
    /// Propose allowlist entries from what people approved (a dry run unless --apply).
    ///
    /// Destructive classes are never proposed, however often they were approved: deletes,
    /// disk and device writes, credential and system writes, code shellgate cannot see
    /// (pipe-to-shell, decoded payloads), SQL, process killing, power state, cloud and
    /// cluster destruction, the block tier, and anything run through sudo.
    Suggest {
        #[command(flatten)]
        state: StateArgs,
        /// How far back to look, in days.
        #[arg(long, default_value_t = 90, value_name = "N")]
        days: u32,
        /// Fewest approvals for a proposal.
        #[arg(long, default_value_t = 2, value_name = "N")]
        min_count: usize,
        /// Add these proposals (numbers from the dry run, `1,3`) to the config's `allow`.
        #[arg(long, value_name = "N,M", value_delimiter = ',')]
        apply: Vec<usize>,
        #[arg(long)]
        json: bool,
    },
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian (Howard Hinnant's
/// algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Unix seconds → `2026-12-01 10:00:00` (UTC).
pub fn fmt_time(t: i64) -> String {
    // Years 1..9999 only: the arithmetic below stays far from overflow.
    let t = t.clamp(-62_135_596_800, 253_402_300_799);
    let (y, m, d) = civil(t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// `--since`: a duration back from `now`, a date or UTC time, or Unix seconds.
pub fn parse_since(s: &str, now: i64) -> Result<i64, String> {
    let t = s.trim();
    let bad = || {
        format!(
            "--since `{s}`: expected 30m, 2h, 7d, 2w, a date 2026-12-01, 2026-12-01T10:00:00 (UTC) or Unix seconds"
        )
    };
    if let Some(unit) = t.chars().last().filter(|c| "smhdw".contains(*c))
        && let Ok(n) = t[..t.len() - 1].parse::<i64>()
    {
        let mult = match unit {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => 7 * 86_400,
        };
        return Ok(now.saturating_sub(n.saturating_mul(mult)));
    }
    if let Ok(n) = t.parse::<i64>() {
        return Ok(n);
    }
    let (date, time) = t.split_once(['T', ' ']).unwrap_or((t, "00:00:00"));
    let dp: Vec<&str> = date.split('-').collect();
    let tp: Vec<&str> = time.trim_end_matches('Z').split(':').collect();
    let ([y, m, d], [hh, mm, rest @ ..]) = (dp.as_slice(), tp.as_slice()) else {
        return Err(bad());
    };
    let num = |x: &str| x.parse::<i64>().map_err(|_| bad());
    let (y, m, d, hh, mm) = (num(y)?, num(m)?, num(d)?, num(hh)?, num(mm)?);
    let ss = match rest.first() {
        Some(x) => num(x)?,
        None => 0,
    };
    if !(1..=9999).contains(&y)
        || !(1..=12).contains(&m)
        || !(1..=31).contains(&d)
        || !(0..=23).contains(&hh)
        || !(0..=59).contains(&mm)
        || !(0..=60).contains(&ss)
    {
        return Err(bad());
    }
    Ok(days_from_civil(y, m as u32, d as u32) * 86_400 + hh * 3600 + mm * 60 + ss)
}

/// Cut `s` to `n` characters, marking the cut.
fn cut(s: &str, n: usize) -> String {
    let one_line = s.replace('\n', "⏎");
    if one_line.chars().count() <= n {
        one_line
    } else {
        let mut t: String = one_line.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Rows as an aligned table (every cell already display-safe).
fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    let mut w: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let n = cells.len();
        let mut s = String::new();
        for (i, c) in cells.into_iter().enumerate() {
            s.push_str(c);
            if i + 1 < n {
                s.push_str(&" ".repeat(w[i] - c.chars().count() + 2));
            }
        }
        s.push('\n');
        s
    };
    let mut out = line(head.to_vec());
    for r in rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out
}

/// Print `v` as pretty JSON; the exit code.
fn print_json(out: &mut impl Write, v: &impl Serialize, what: &str) -> i32 {
    match serde_json::to_string_pretty(v) {
        Ok(s) => {
            if let Err(e) = emit(out, format_args!("{s}\n")) {
                return unwritten(&e, 0);
            }
            0
        }
        Err(e) => {
            eprintln!("shellgate: could not encode {what}: {e}");
            EXIT_INTERNAL
        }
    }
}

pub fn run_log(args: LogArgs) -> i32 {
    let now = policy::now();
    let since = match args
        .since
        .as_deref()
        .map(|s| parse_since(s, now))
        .transpose()
    {
        Ok(s) => s,
        Err(e) => {
            eprintln!("shellgate: {e}");
            return EXIT_USAGE;
        }
    };
    let (_, mut store) = args.state.open();
    let q = LogQuery {
        since,
        decision: args.decision.map(Decision::from),
        session: args.session.clone(),
        harness: args.harness.clone(),
        approved_only: false,
        limit: args.limit.or(if args.json { None } else { Some(50) }),
    };
    let entries = match store.query(&q) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("shellgate: {e}");
            return EXIT_INTERNAL;
        }
    };
    let mut out = std::io::stdout().lock();
    if args.json {
        for e in &entries {
            match serde_json::to_string(e) {
                Ok(s) => {
                    if let Err(e) = emit(&mut out, format_args!("{s}\n")) {
                        return unwritten(&e, 0);
                    }
                }
                Err(e) => {
                    eprintln!("shellgate: could not encode a ledger entry: {e}");
                    return EXIT_INTERNAL;
                }
            }
        }
        return 0;
    }
    if entries.is_empty() {
        if let Err(e) = emit(
            &mut out,
            format_args!(
                "no decisions recorded{}\n",
                if since.is_some() { " in that time" } else { "" }
            ),
        ) {
            return unwritten(&e, 0);
        }
        return 0;
    }
    let rows: Vec<Vec<String>> = entries
        .iter()
        .map(|e| {
            vec![
                fmt_time(e.time),
                e.decision.as_str().to_string(),
                match e.answer {
                    Some(a) => format!("{} ({})", e.decided_by, a.as_str()),
                    None => e.decided_by.clone(),
                },
                e.findings
                    .iter()
                    .map(|f| f.rule.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
                display(e.harness.as_deref().unwrap_or("-")),
                cut(&display(e.session.as_deref().unwrap_or("-")), 14),
                cut(&display(&e.command), 60),
            ]
        })
        .collect();
    if let Err(e) = emit(
        &mut out,
        format_args!(
            "{}",
            table(
                &[
                    "TIME (UTC)",
                    "DECISION",
                    "BY",
                    "RULES",
                    "HARNESS",
                    "SESSION",
                    "COMMAND"
                ],
                &rows
            )
        ),
    ) {
        return unwritten(&e, 0);
    }
    let mut seen = Vec::new();
    for e in entries.iter().filter(|e| e.checkpoint.is_some()) {
        let Some(id) = e.checkpoint.filter(|id| !seen.contains(id)) else {
            continue;
        };
        seen.push(id);
        if let Err(x) = emit(
            &mut out,
            format_args!(
                "checkpoint {id}: undo with `shellgate undo {id}`  ({})\n",
                cut(&display(&e.command), 60)
            ),
        ) {
            return unwritten(&x, 0);
        }
    }
    0
}

#[derive(Serialize)]
struct ListJson<'a> {
    approvals: &'a [policy::Approval],
    allow: &'a [String],
    config: Option<String>,
}

pub fn run_approvals(args: ApprovalsArgs) -> i32 {
    match args.cmd {
        ApprovalsCmd::List {
            state,
            session,
            json,
        } => {
            let (cfg, mut store) = state.open();
            let now = policy::now();
            let mut all = match store.all_approvals(now) {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("shellgate: {e}");
                    return EXIT_INTERNAL;
                }
            };
            if let Some(s) = &session {
                all.retain(|a| a.session.as_ref() == Some(s));
            }
            let mut out = std::io::stdout().lock();
            let config = cfg.paths.config.as_ref().map(|p| p.display().to_string());
            if json {
                let j = ListJson {
                    approvals: &all,
                    allow: &cfg.config.allow,
                    config,
                };
                return print_json(&mut out, &j, "approvals");
            }
            if all.is_empty() {
                if let Err(e) = emit(
                    &mut out,
                    format_args!("no session or once approvals in force\n"),
                ) {
                    return unwritten(&e, 0);
                }
            } else {
                let rows: Vec<Vec<String>> = all
                    .iter()
                    .map(|a| {
                        let rules: Vec<&str> = a.keys.iter().map(|k| k.rule.as_str()).collect();
                        vec![
                            a.id.to_string(),
                            a.scope.as_str().to_string(),
                            cut(&display(a.session.as_deref().unwrap_or("-")), 14),
                            a.expires.map(fmt_time).unwrap_or_else(|| "-".into()),
                            rules.join(","),
                            cut(
                                &display(
                                    &a.keys
                                        .first()
                                        .map(|k| k.target.clone())
                                        .unwrap_or_else(|| a.command.clone()),
                                ),
                                60,
                            ),
                        ]
                    })
                    .collect();
                if let Err(e) = emit(
                    &mut out,
                    format_args!(
                        "{}",
                        table(
                            &["ID", "SCOPE", "SESSION", "EXPIRES (UTC)", "RULES", "TARGET"],
                            &rows
                        )
                    ),
                ) {
                    return unwritten(&e, 0);
                }
            }
            if let Err(e) = emit(
                &mut out,
                format_args!(
                    "\nallow list (\"always\") in {}:\n",
                    config.as_deref().unwrap_or("(no config path)")
                ),
            ) {
                return unwritten(&e, 0);
            }
            if cfg.config.allow.is_empty()
                && let Err(e) = emit(&mut out, format_args!("  (empty)\n"))
            {
                return unwritten(&e, 0);
            }
            for e in &cfg.config.allow {
                if let Err(e) = emit(&mut out, format_args!("  {}\n", display(e))) {
                    return unwritten(&e, 0);
                }
            }
            0
        }
        ApprovalsCmd::Revoke { state, ids } => {
            let (_, mut store) = state.open();
            let mut missing = 0;
            for id in ids {
                match store.revoke(id) {
                    Ok(true) => println!("revoked approval {id}"),
                    Ok(false) => {
                        eprintln!("shellgate: no approval {id} (see `shellgate approvals list`)");
                        missing += 1;
                    }
                    Err(e) => {
                        eprintln!("shellgate: {e}");
                        return EXIT_INTERNAL;
                    }
                }
            }
            if missing > 0 { EXIT_USAGE } else { 0 }
        }
        ApprovalsCmd::Clear { state, session } => {
            let (_, mut store) = state.open();
            match store.clear(session.as_deref()) {
                Ok(n) => {
                    println!("removed {n} approval(s)");
                    0
                }
                Err(e) => {
                    eprintln!("shellgate: {e}");
                    EXIT_INTERNAL
                }
            }
        }
        ApprovalsCmd::Suggest {
            state,
            days,
            min_count,
            apply,
            json,
        } => run_suggest(state, days, min_count, apply, json),
    }
}

fn run_suggest(
    state: StateArgs,
    days: u32,
    min_count: usize,
    apply: Vec<usize>,
    json: bool,
) -> i32 {
    let (cfg, mut store) = state.open();
    let q = LogQuery {
        since: Some(policy::now().saturating_sub(i64::from(days) * 86_400)),
        approved_only: true,
        ..LogQuery::default()
    };
    let approved = match store.query(&q) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("shellgate: {e}");
            return EXIT_INTERNAL;
        }
    };
    let props = suggest::suggest(&approved, min_count, &cfg.config.allow);
    let mut out = std::io::stdout().lock();
    if !apply.is_empty() {
        let mut chosen = Vec::new();
        for n in &apply {
            match props.get(n.wrapping_sub(1)) {
                Some(p) => chosen.push(p.entry.clone()),
                None => {
                    eprintln!(
                        "shellgate: there is no proposal {n} (the dry run lists 1..{})",
                        props.len()
                    );
                    return EXIT_USAGE;
                }
            }
        }
        if cfg.is_strict_fallback() {
            eprintln!(
                "shellgate: the config could not be loaded; fix it before applying proposals"
            );
            return EXIT_USAGE;
        }
        let Some(path) = &cfg.paths.config else {
            eprintln!("shellgate: no config path is known (set HOME or --config)");
            return EXIT_USAGE;
        };
        return match policy::add_allow_entries(path, &chosen) {
            Ok(added) => {
                for a in &added {
                    if let Err(e) = emit(
                        &mut out,
                        format_args!("added to allow in {}: {}\n", path.display(), display(a)),
                    ) {
                        return unwritten(&e, 0);
                    }
                }
                0
            }
            Err(e) => {
                eprintln!("shellgate: {e}");
                EXIT_INTERNAL
            }
        };
    }
    if json {
        return print_json(&mut out, &props, "proposals");
    }
    if props.is_empty() {
        if let Err(e) = emit(
            &mut out,
            format_args!(
                "no proposals: nothing approvable was approved at least {min_count} time(s) in the last {days} days\n"
            ),
        ) {
            return unwritten(&e, 0);
        }
        return 0;
    }
    if let Err(e) = emit(
        &mut out,
        format_args!(
            "Proposed allow entries (from approvals in the last {days} days; a dry run — add with --apply N[,M]):\n\n"
        ),
    ) {
        return unwritten(&e, 0);
    }
    for (i, p) in props.iter().enumerate() {
        if let Err(e) = emit(
            &mut out,
            format_args!(
                "  {}. {}    — approved {}x ({})\n",
                i + 1,
                display(&p.entry),
                p.count,
                p.name
            ),
        ) {
            return unwritten(&e, 0);
        }
        for e in &p.examples {
            if let Err(e) = emit(
                &mut out,
                format_args!("       e.g. {}\n", cut(&display(e), 70)),
            ) {
                return unwritten(&e, 0);
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_round_trip_and_durations_count_back() {
        assert_eq!(fmt_time(0), "1970-01-01 00:00:00");
        assert_eq!(fmt_time(1_764_583_200), "2025-12-01 10:00:00");
        assert_eq!(parse_since("2025-12-01T10:00:00", 0), Ok(1_764_583_200));
        assert_eq!(parse_since("2025-12-01", 0), Ok(1_764_547_200));
        assert_eq!(parse_since("2h", 10_000), Ok(2_800));
        assert_eq!(parse_since("1700000000", 0), Ok(1_700_000_000));
        assert!(parse_since("yesterday", 0).is_err());
        assert!(parse_since("99999999999-01-01", 0).is_err());
        assert!(parse_since("99999999999999999999w", 0).is_err());
        assert!(parse_since("999999999999999999w", 5).is_ok(), "no overflow");
        assert_eq!(fmt_time(i64::MAX), "9999-12-31 23:59:59");
    }
}
