//! `shellgate checkpoints [list] [--json]` and `shellgate undo [ID] [--dry-run] [--force]`:
//! the checkpoints taken before destructive commands, and putting back what one of them
//! holds (the newest of the current project when no id is given).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use serde::Serialize;

use super::ledger::{StateArgs, fmt_time};
use super::{EXIT_INTERNAL, EXIT_USAGE, emit, unwritten};
use shellgate::checkpoint::manifest::Kind;
use shellgate::checkpoint::restore::{self, Done, State, UndoPlan};
use shellgate::checkpoint::{self, Shadow, human};
use shellgate::policy::CheckpointRecord;
use shellgate::render::display;

/// Exit code when `undo` left everything as it was because a file changed after the
/// command (it needs `--force`).
pub const EXIT_NEEDS_FORCE: i32 = 1;

/// How long `undo` may take.
const UNDO_TIME: Duration = Duration::from_secs(600);

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct CheckpointsArgs {
    #[command(subcommand)]
    cmd: Option<CheckpointsCmd>,
    #[command(flatten)]
    list: ListArgs,
}

#[derive(Subcommand, Debug)]
enum CheckpointsCmd {
    /// Every checkpoint kept, oldest first, and the size of each project's store.
    List(ListArgs),
}

#[derive(Args, Debug, Clone, Default)]
pub struct ListArgs {
    #[command(flatten)]
    state: StateArgs,
    /// One JSON object per checkpoint, one per line.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
pub struct UndoArgs {
    /// The checkpoint (see `shellgate checkpoints`); default: the newest of the project
    /// the current directory is in.
    #[arg(value_name = "ID")]
    id: Option<i64>,
    /// Show what would be restored, and restore nothing.
    #[arg(long)]
    dry_run: bool,
    /// Also overwrite files changed after the command ran, and move git refs that moved
    /// since.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    state: StateArgs,
}

#[derive(Serialize)]
struct ListJson<'a> {
    id: i64,
    time: i64,
    project: &'a str,
    cwd: Option<&'a str>,
    command: &'a str,
    files: u64,
    bytes: u64,
    summary: &'a str,
    harness: Option<&'a str>,
    session: Option<&'a str>,
    store: &'a str,
    undo: String,
}

pub fn run_checkpoints(a: CheckpointsArgs) -> i32 {
    let list = match a.cmd {
        Some(CheckpointsCmd::List(l)) => l,
        None => a.list,
    };
    let (_, mut store) = list.state.open();
    let all = match store.checkpoints(None) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("shellgate: {e}");
            return EXIT_INTERNAL;
        }
    };
    let mut out = std::io::stdout().lock();
    if list.json {
        for c in &all {
            let j = ListJson {
                id: c.id,
                time: c.time,
                project: &c.project,
                cwd: c.cwd.as_deref(),
                command: &c.command,
                files: c.files,
                bytes: c.bytes,
                summary: &c.summary,
                harness: c.harness.as_deref(),
                session: c.session.as_deref(),
                store: &c.store,
                undo: format!("shellgate undo {}", c.id),
            };
            let line = serde_json::to_string(&j).unwrap_or_default();
            if let Err(e) = emit(&mut out, format_args!("{line}\n")) {
                return unwritten(&e, 0);
            }
        }
        return 0;
    }
    if let Err(e) = emit(&mut out, format_args!("{}", list_text(&all))) {
        return unwritten(&e, 0);
    }
    0
}

fn list_text(all: &[CheckpointRecord]) -> String {
    if all.is_empty() {
        return "no checkpoints (one is taken before a destructive command that is let through)\n"
            .into();
    }
    let mut s = String::new();
    let mut stores: BTreeMap<&str, (&str, usize)> = BTreeMap::new();
    for c in all {
        s.push_str(&format!(
            "{:>5}  {}  {}\n       $ {}\n       {}\n",
            c.id,
            fmt_time(c.time),
            display(&c.project),
            display(&c.command),
            display(&c.summary)
        ));
        stores.entry(&c.store).or_insert((&c.project, 0)).1 += 1;
    }
    for (dir, (project, n)) in stores {
        let size = Shadow {
            dir: PathBuf::from(dir),
        }
        .size();
        s.push_str(&format!(
            "\n{}: {n} checkpoint{}, {} on disk ({})",
            display(project),
            if n == 1 { "" } else { "s" },
            human(size),
            display(dir)
        ));
    }
    s.push_str(
        "\n\nundo one with `shellgate undo ID` (`--dry-run` first shows what it restores)\n",
    );
    s
}

/// The checkpoint `id`, or the newest of the project the current directory is in.
fn find(all: Vec<CheckpointRecord>, id: Option<i64>) -> Result<CheckpointRecord, String> {
    if let Some(id) = id {
        return all.into_iter().find(|c| c.id == id).ok_or_else(|| {
            format!("there is no checkpoint {id}; `shellgate checkpoints` lists them")
        });
    }
    let cwd = std::env::current_dir().map_err(|e| format!("the current directory: {e}"))?;
    let project = checkpoint::project_root(&cwd);
    let p = project.to_string_lossy();
    all.into_iter()
        .rev()
        .find(|c| c.project == p)
        .ok_or_else(|| {
            format!(
                "no checkpoint of {} (the project of the current directory); `shellgate checkpoints` lists them all",
                project.display()
            )
        })
}

pub fn run_undo(a: UndoArgs) -> i32 {
    let (_, mut store) = a.state.open();
    let all = match store.checkpoints(None) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("shellgate: {e}");
            return EXIT_INTERNAL;
        }
    };
    let rec = match find(all, a.id) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("shellgate: {e}");
            return EXIT_USAGE;
        }
    };
    let deadline = Instant::now() + UNDO_TIME;
    let shadow = Shadow {
        dir: PathBuf::from(&rec.store),
    };
    let after = rec.after.clone().unwrap_or_default();
    let plan = match restore::inspect(&shadow, rec.id, &after, deadline) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("shellgate: checkpoint {} cannot be read: {e}", rec.id);
            return EXIT_INTERNAL;
        }
    };
    let mut out = std::io::stdout().lock();
    let head = plan_text(&rec, &plan);
    if let Err(e) = emit(&mut out, format_args!("{head}")) {
        return unwritten(&e, 0);
    }
    let (text, code) = if a.dry_run {
        ("dry run: nothing was restored\n".to_string(), 0)
    } else if plan.needs_force() && !a.force {
        (
            format!(
                "nothing was restored: what is marked `changed since` was changed after the command ran. Run `shellgate undo {} --force` to overwrite it too.\n",
                rec.id
            ),
            EXIT_NEEDS_FORCE,
        )
    } else {
        let done = restore::apply(&shadow, &plan, a.force, deadline);
        let code = if done.problems.is_empty() {
            0
        } else {
            EXIT_INTERNAL
        };
        (done_text(&done), code)
    };
    if let Err(e) = emit(&mut out, format_args!("{text}")) {
        return unwritten(&e, code);
    }
    code
}

/// The state of each item, as a word.
fn word(s: State) -> &'static str {
    match s {
        State::Missing => "restore",
        State::Same => "unchanged",
        State::ModeOnly => "restore mode",
        State::ChangedByCommand => "restore",
        State::ChangedSince => "changed since",
    }
}

/// What undo would do: one line per path the command named, with counts, then every file
/// changed since and every file the command created.
fn plan_text(rec: &CheckpointRecord, plan: &UndoPlan) -> String {
    let m = &plan.manifest;
    let mut s = format!(
        "checkpoint {} ({} UTC, in {})\n  $ {}\n\n",
        rec.id,
        fmt_time(rec.time),
        display(m.cwd.as_deref().unwrap_or(&m.project)),
        display(&m.command)
    );
    for r in &m.roots {
        let root = r.path.path();
        let under: Vec<_> = plan
            .items
            .iter()
            .filter(|i| {
                let p = i.entry.path.path();
                p == root || (r.recursive && p.starts_with(&root))
            })
            .collect();
        let mut counts: BTreeMap<&str, (usize, usize, u64)> = BTreeMap::new();
        for i in &under {
            let c = counts.entry(word(i.state)).or_default();
            if i.entry.kind == Kind::Dir {
                c.1 += 1;
            } else {
                c.0 += 1;
                c.2 += i.entry.size;
            }
        }
        let parts: Vec<String> = counts
            .iter()
            .map(|(w, (files, dirs, bytes))| {
                let mut what = Vec::new();
                if *files > 0 {
                    what.push(format!(
                        "{files} file{} ({})",
                        plural(*files),
                        human(*bytes)
                    ));
                }
                if *dirs > 0 {
                    what.push(format!(
                        "{dirs} director{}",
                        if *dirs == 1 { "y" } else { "ies" }
                    ));
                }
                format!("{w} {}", what.join(", "))
            })
            .collect();
        let shown = display(&r.path.shown());
        let slash = if r.recursive && under.len() > 1 {
            "/"
        } else {
            ""
        };
        let what = if parts.is_empty() {
            "did not exist".to_string()
        } else {
            parts.join(", ")
        };
        s.push_str(&format!("  {shown}{slash}  [{}]  {what}\n", r.change));
    }
    let since: Vec<_> = plan
        .items
        .iter()
        .filter(|i| i.state == State::ChangedSince)
        .collect();
    if !since.is_empty() {
        s.push_str("\n  changed after the command ran (restored only with --force):\n");
        for i in since.iter().take(20) {
            s.push_str(&format!("    {}\n", display(&i.entry.path.shown())));
        }
        if since.len() > 20 {
            s.push_str(&format!("    and {} more\n", since.len() - 20));
        }
    }
    for (p, as_left) in &plan.created {
        let p = display(&p.to_string_lossy());
        if *as_left {
            s.push_str(&format!("  {p}  created by the command: removed\n"));
        } else {
            s.push_str(&format!(
                "  {p}  created by the command, changed since: kept\n"
            ));
        }
    }
    for g in &plan.git {
        s.push_str(&format!("  git: {}\n", git_line(g)));
    }
    if let Some(sha) = m.git.as_ref().and_then(|g| g.uncommitted.as_ref()) {
        s.push_str(&format!(
            "  git's own record of the uncommitted changes (index and work tree): `git stash apply --index {sha}`\n"
        ));
    }
    for n in &m.notes {
        s.push_str(&format!("  {}\n", display(n)));
    }
    s.push('\n');
    s
}

fn git_line(g: &restore::GitAction) -> String {
    match g {
        restore::GitAction::Branch { r, now: None } => {
            format!(
                "branch {} was deleted: recreate it at {}",
                short_ref(&r.name),
                short(&r.sha)
            )
        }
        restore::GitAction::Branch { r, now: Some(n) } => format!(
            "branch {} is at {} now, was {} (changed since: --force)",
            short_ref(&r.name),
            short(n),
            short(&r.sha)
        ),
        restore::GitAction::Stash { r, present: true } => {
            format!(
                "stash {} ({}) is still there",
                short(&r.sha),
                display(&r.name)
            )
        }
        restore::GitAction::Stash { r, present: false } => {
            format!(
                "stash {} ({}) was dropped: store it again",
                short(&r.sha),
                display(&r.name)
            )
        }
        restore::GitAction::Head { r, now, forward } => format!(
            "{} is at {} now, was {}: move it back with `git reset --keep`{}",
            short_ref(&r.name),
            short(now),
            short(&r.sha),
            if *forward {
                ""
            } else {
                " (commits made since: --force)"
            }
        ),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn short(s: &str) -> &str {
    s.get(..12).unwrap_or(s)
}

fn short_ref(s: &str) -> &str {
    s.strip_prefix("refs/heads/").unwrap_or(s)
}

fn done_text(d: &Done) -> String {
    let mut s = format!(
        "restored {} file{} ({})",
        d.restored,
        if d.restored == 1 { "" } else { "s" },
        human(d.bytes)
    );
    if !d.removed.is_empty() {
        s.push_str(&format!(
            ", removed {} the command created",
            d.removed.len()
        ));
    }
    s.push('\n');
    for g in &d.git {
        s.push_str(&format!("  {}\n", display(g)));
    }
    for p in &d.problems {
        s.push_str(&format!("shellgate: {}\n", display(p)));
    }
    s
}

/// Used by `explain`: the checkpoints kept of `command` run in `cwd`, newest first.
pub fn of_command<'a>(
    all: &'a [CheckpointRecord],
    command: &str,
    cwd: Option<&str>,
) -> Vec<&'a CheckpointRecord> {
    all.iter()
        .rev()
        .filter(|c| c.command == command && c.cwd.as_deref() == cwd)
        .collect()
}
