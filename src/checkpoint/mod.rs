//! Checkpoints: before a destructive command that shellgate lets through runs, the files
//! it would destroy or overwrite are copied into a shadow git store that never touches the
//! project, and `shellgate undo` puts them back byte for byte.
//!
//! - What a command affects comes from the model ([`crate::model::affected`]);
//!   [`resolve`] turns that into entries on disk (globs, `find` selections, what git would
//!   clean or discard, trees walked within the limits) and git's own recovery refs.
//! - [`store`] writes a checkpoint into the project's shadow repository with the system
//!   `git` (one `fast-import`), and reads it back; [`restore`] compares and restores.
//! - The policy decides when (a decision that can let the command run, with findings) and
//!   keeps the index of checkpoints in the state database; the CLI prints.
//!
//! Bounds: a per-file and a per-checkpoint size cap, a cap on the entries walked, a time
//! budget inside the hook's deadline, and a number of checkpoints kept per project. What
//! is left out is recorded in the manifest and said. A checkpoint that cannot be taken (no
//! git, out of time, a store that cannot be written) is said, and never changes the
//! decision.

pub mod git;
pub mod manifest;
pub mod resolve;
pub mod restore;
pub mod store;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::model::affected::Affected;
use crate::model::paths::within;
pub use manifest::{Manifest, human};
pub use resolve::{Plan, Scope};
pub use store::Shadow;

/// Default per-file cap: larger files are recorded as not captured.
pub const DEFAULT_MAX_FILE: u64 = 50_000_000;
/// Default per-checkpoint cap on file bytes.
pub const DEFAULT_MAX_TOTAL: u64 = 200_000_000;
/// Default cap on entries walked for one checkpoint.
pub const DEFAULT_MAX_ENTRIES: usize = 100_000;
/// Default number of checkpoints kept per project.
pub const DEFAULT_KEEP: usize = 20;
/// Default seconds a checkpoint may take.
pub const DEFAULT_TIMEOUT: u64 = 10;

/// How checkpoints are taken and kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub enabled: bool,
    /// The checkpoints directory (`$XDG_STATE_HOME/shellgate/checkpoints`).
    pub dir: PathBuf,
    pub max_file: u64,
    pub max_total: u64,
    pub max_entries: usize,
    pub keep: usize,
    pub timeout: Duration,
}

impl Settings {
    /// The defaults, with the store in `dir`.
    pub fn new(dir: PathBuf) -> Settings {
        Settings {
            enabled: true,
            dir,
            max_file: DEFAULT_MAX_FILE,
            max_total: DEFAULT_MAX_TOTAL,
            max_entries: DEFAULT_MAX_ENTRIES,
            keep: DEFAULT_KEEP,
            timeout: Duration::from_secs(DEFAULT_TIMEOUT),
        }
    }
}

/// The project a directory belongs to: the nearest ancestor holding `.git` (a directory
/// or a worktree's file), else the directory itself.
pub fn project_root(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(cwd)
        .to_path_buf()
}

/// Where a command run in `cwd` by a user with `home` may be checkpointed.
pub fn scope(cwd: &Path, home: Option<&str>, tmpdir: Option<&str>, settings: &Settings) -> Scope {
    let project = project_root(cwd);
    let mut temp: Vec<PathBuf> = ["/tmp", "/var/tmp", "/dev/shm"]
        .iter()
        .map(PathBuf::from)
        .collect();
    temp.extend(tmpdir.map(PathBuf::from));
    // A home that is itself a temporary directory (a throwaway test home) stays in scope.
    let home = home.map(PathBuf::from);
    if let Some(h) = &home {
        temp.retain(|t| !within(&h.to_string_lossy(), &t.to_string_lossy()));
    }
    Scope {
        project,
        home,
        shellgate: settings.dir.parent().map(Path::to_path_buf),
        temp,
    }
}

/// What a checkpoint of `items` would hold, worked out by `deadline`.
pub fn plan(items: &[Affected], scope: &Scope, settings: &Settings, deadline: Instant) -> Plan {
    resolve::plan(items, settings, scope, deadline)
}

/// Who asked for a checkpoint, for its manifest.
#[derive(Debug, Clone, Copy)]
pub struct Meta<'a> {
    pub id: i64,
    pub time: i64,
    pub cwd: Option<&'a str>,
    pub command: &'a str,
}

/// Write checkpoint `meta.id` of `plan` into the project's shadow store, by `deadline`:
/// its commit and manifest.
pub fn write(
    plan: Plan,
    scope: &Scope,
    meta: Meta,
    settings: &Settings,
    deadline: Instant,
) -> Result<(Shadow, String, Manifest), String> {
    let shadow = Shadow::for_project(&settings.dir, &scope.project);
    let mut m = store::empty_manifest(meta.id, meta.time, &scope.project, meta.cwd, meta.command);
    m.roots = plan.roots;
    m.absent = plan
        .absent
        .iter()
        .map(|p| manifest::StoredPath::of(p))
        .collect();
    m.skipped = plan.skipped;
    m.notes = plan.notes;
    m.git = plan.git.into_iter().find(|g| !g.is_empty());
    // Stop adding files with a fifth of the budget left, for the commit and the index.
    let left = deadline.saturating_duration_since(Instant::now());
    let soft = Instant::now() + left.mul_f32(0.8);
    let (sha, m) = shadow.write(m, plan.entries, soft, deadline)?;
    Ok((shadow, sha, m))
}

/// One line for a person: what a checkpoint holds (or would hold).
pub fn summary(files: usize, bytes: u64, roots: &[manifest::Root], git: bool) -> String {
    let mut shown: Vec<String> = roots
        .iter()
        .take(3)
        .map(|r| {
            let p = r.path.shown();
            let name = Path::new(&p)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or(p);
            if r.recursive {
                format!("{name}/")
            } else {
                name
            }
        })
        .collect();
    if roots.len() > 3 {
        shown.push(format!("{} more", roots.len() - 3));
    }
    let mut parts = Vec::new();
    if files > 0 || roots.is_empty() {
        parts.push(format!(
            "{files} file{}, {}",
            if files == 1 { "" } else { "s" },
            human(bytes)
        ));
    }
    if git {
        parts.push("git refs".into());
    }
    if shown.is_empty() {
        parts.join(", ")
    } else {
        format!("{}: {}", shown.join(", "), parts.join(", "))
    }
}

/// Is git usable? Its version, or why not (said instead of a checkpoint).
pub fn git_version(deadline: Instant) -> Result<String, String> {
    git::version(deadline).map_err(|e| e.to_string())
}
