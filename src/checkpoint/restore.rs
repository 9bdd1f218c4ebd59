//! `undo`: compare a checkpoint with what is on disk now, then put back what the command
//! destroyed or overwrote, byte for byte with modes and times, and the git refs and stash
//! entries with git's own commands.
//!
//! A file is restored without `--force` when it is missing, or when its content is what
//! the command left there (recorded after it ran, or, for what git discarded, the version
//! git put back). A file whose content differs from both the checkpoint and that is a
//! change made after the command, and is only overwritten with `--force`. A file the
//! command created is removed when it is still exactly what the command left; otherwise
//! it is kept and listed.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Instant, UNIX_EPOCH};

use super::git::{self, GitError, Repo};
use super::manifest::{Entry, GitRecovery, GitRef, Kind, Manifest};
use super::store::Shadow;

/// How an entry compares with the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    /// Nothing there: restored.
    Missing,
    /// Same content and mode: nothing to do.
    Same,
    /// Same content, other mode or time: the mode is restored.
    ModeOnly,
    /// Different content, as the command left it: restored.
    ChangedByCommand,
    /// Different content (or kind) from both the checkpoint and what the command left:
    /// restored only with `--force`.
    ChangedSince,
}

/// One entry and its state.
#[derive(Debug, Clone)]
pub struct Item {
    pub entry: Entry,
    pub state: State,
    /// The blob to restore from (files and symlinks).
    pub blob: Option<String>,
}

/// A git ref or stash entry to restore, and what is there now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitAction {
    /// A deleted branch: `git branch NAME SHA`. `now` is its tip if it exists again.
    Branch { r: GitRef, now: Option<String> },
    /// A dropped stash entry: `git stash store`. `present`: it is in the stash list.
    Stash { r: GitRef, present: bool },
    /// The branch HEAD was on moved: `git reset --keep SHA`. `forward`: the move back
    /// loses no commit (what is there now is an ancestor of the recorded tip).
    Head {
        r: GitRef,
        now: String,
        forward: bool,
    },
}

/// What `undo` would do.
#[derive(Debug, Clone)]
pub struct UndoPlan {
    pub manifest: Manifest,
    pub items: Vec<Item>,
    pub git: Vec<GitAction>,
    /// Paths that did not exist at the checkpoint and exist now, and whether each is just
    /// as the command left it (then undo removes it; otherwise it is kept and listed).
    pub created: Vec<(PathBuf, bool)>,
    /// Where git's recovery runs (the repository's top level).
    pub repo: Option<PathBuf>,
}

impl UndoPlan {
    /// Would anything be overwritten that changed after the command?
    pub fn needs_force(&self) -> bool {
        self.items.iter().any(|i| i.state == State::ChangedSince)
            || self.git.iter().any(|g| match g {
                GitAction::Branch { r, now } => now.as_ref().is_some_and(|n| *n != r.sha),
                GitAction::Head { forward, .. } => !forward,
                GitAction::Stash { .. } => false,
            })
    }

    /// Items in a state.
    pub fn count(&self, s: State) -> usize {
        self.items.iter().filter(|i| i.state == s).count()
    }
}

/// What kind of entry is on disk at a path (`None`: nothing, or a special file), and its mode.
struct Current {
    kind: Option<Kind>,
    mode: u32,
}

fn current(p: &Path) -> Current {
    use std::os::unix::fs::MetadataExt;
    match std::fs::symlink_metadata(p) {
        Ok(m) => {
            let t = m.file_type();
            let kind = if t.is_symlink() {
                Some(Kind::Symlink)
            } else if t.is_dir() {
                Some(Kind::Dir)
            } else if t.is_file() {
                Some(Kind::File)
            } else {
                None
            };
            Current {
                kind,
                mode: m.mode() & 0o7777,
            }
        }
        Err(_) => Current {
            kind: None,
            mode: 0,
        },
    }
}

/// Git blob ids of `paths` (files read as they are; symlinks by their target text).
fn hash_paths(paths: &[&Path], deadline: Instant) -> Result<BTreeMap<PathBuf, String>, String> {
    let mut out = BTreeMap::new();
    let mut files = Vec::new();
    for p in paths {
        if std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()) {
            if let Ok(t) = std::fs::read_link(p) {
                let sha = git::run(
                    Repo::Shadow,
                    None,
                    &["hash-object", "--stdin"],
                    Some(t.as_os_str().as_bytes()),
                    deadline,
                )
                .map_err(|e| e.to_string())?;
                out.insert(p.to_path_buf(), git::text(sha));
            }
        } else {
            files.push(*p);
        }
    }
    if files.is_empty() {
        return Ok(out);
    }
    let mut input = Vec::new();
    for p in &files {
        input.extend_from_slice(p.as_os_str().as_bytes());
        input.push(b'\n');
    }
    let shas = git::run(
        Repo::Shadow,
        None,
        &["hash-object", "--no-filters", "--stdin-paths"],
        Some(&input),
        deadline,
    )
    .map_err(|e| e.to_string())?;
    for (p, sha) in files.iter().zip(String::from_utf8_lossy(&shas).lines()) {
        out.insert(p.to_path_buf(), sha.to_string());
    }
    Ok(out)
}

/// Blob ids git would put back for work-tree files of `repo` (its index and HEAD).
fn git_versions(repo: &Path, deadline: Instant) -> BTreeMap<PathBuf, BTreeSet<String>> {
    let mut out: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut add = |args: &[&str], sha_field: usize| {
        let Ok(o) = git::run(Repo::Project, Some(repo), args, None, deadline) else {
            return;
        };
        for rec in o.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            let Some(tab) = rec.iter().position(|b| *b == b'\t') else {
                continue;
            };
            let meta = String::from_utf8_lossy(&rec[..tab]);
            let Some(sha) = meta.split(' ').nth(sha_field) else {
                continue;
            };
            let p = repo.join(std::ffi::OsStr::from_bytes(&rec[tab + 1..]));
            out.entry(p).or_default().insert(sha.to_string());
        }
    };
    add(&["ls-files", "-s", "-z"], 1);
    add(&["ls-tree", "-r", "-z", "HEAD"], 2);
    out
}

/// What the command left at each path of `manifest` once it ran: the blob id of what is
/// there, by stored path (absent paths are left out). A front end records this right after
/// the command, so `undo` can tell the command's own changes from later ones.
pub fn after(manifest: &Manifest, deadline: Instant) -> Result<BTreeMap<String, String>, String> {
    let paths: Vec<(String, PathBuf)> = manifest
        .entries
        .iter()
        .filter(|e| e.kind != Kind::Dir)
        .map(|e| e.path.0.clone())
        .chain(manifest.absent.iter().map(|a| a.0.clone()))
        .map(|s| {
            let p = super::manifest::StoredPath(s.clone()).path();
            (s, p)
        })
        .filter(|(_, p)| {
            std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file() || m.file_type().is_symlink())
        })
        .collect();
    let refs: Vec<&Path> = paths.iter().map(|(_, p)| p.as_path()).collect();
    let shas = hash_paths(&refs, deadline)?;
    Ok(paths
        .into_iter()
        .filter_map(|(s, p)| shas.get(&p).map(|h| (s, h.clone())))
        .collect())
}

/// Compare checkpoint `id` of `shadow` with the disk. `after`: blob ids the command left
/// (recorded when it ran), by path.
pub fn inspect(
    shadow: &Shadow,
    id: i64,
    after: &BTreeMap<String, String>,
    deadline: Instant,
) -> Result<UndoPlan, String> {
    let manifest = shadow.manifest(id, deadline)?;
    let blobs: BTreeMap<usize, String> = shadow.blobs(id, deadline)?.into_iter().collect();
    let paths: Vec<PathBuf> = manifest.entries.iter().map(|e| e.path.path()).collect();
    let present: Vec<&Path> = paths
        .iter()
        .zip(&manifest.entries)
        .filter(|(p, e)| e.kind != Kind::Dir && current(p).kind == Some(e.kind))
        .map(|(p, _)| p.as_path())
        .collect();
    let now = hash_paths(&present, deadline)?;
    let repo = manifest.git.as_ref().map(|g| PathBuf::from(&g.top));
    let discarded = match &repo {
        Some(r) => git_versions(r, deadline),
        None => BTreeMap::new(),
    };
    let mut items = Vec::new();
    for (e, p) in manifest.entries.iter().zip(&paths) {
        let blob = e.blob.and_then(|i| blobs.get(&i).cloned());
        let cur = current(p);
        let state = match (cur.kind, e.kind) {
            (None, _) => State::Missing,
            (Some(Kind::Dir), Kind::Dir) if cur.mode == e.mode => State::Same,
            (Some(Kind::Dir), Kind::Dir) => State::ModeOnly,
            (Some(k), want) if k != want => State::ChangedSince,
            _ => {
                let sha = now.get(p);
                if sha.is_some() && sha == blob.as_ref() {
                    if cur.mode == e.mode || e.kind == Kind::Symlink {
                        State::Same
                    } else {
                        State::ModeOnly
                    }
                } else if sha.is_some_and(|s| {
                    after.get(&e.path.0) == Some(s)
                        || discarded.get(p).is_some_and(|v| v.contains(s))
                }) {
                    State::ChangedByCommand
                } else {
                    State::ChangedSince
                }
            }
        };
        items.push(Item {
            entry: e.clone(),
            state,
            blob,
        });
    }
    let made: Vec<PathBuf> = manifest
        .absent
        .iter()
        .map(|a| a.path())
        .filter(|p| {
            std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file() || m.file_type().is_symlink())
        })
        .collect();
    let made_now = hash_paths(
        &made.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
        deadline,
    )?;
    let created = manifest
        .absent
        .iter()
        .filter_map(|a| {
            let p = a.path();
            std::fs::symlink_metadata(&p).ok()?;
            let as_left = made_now.get(&p).is_some_and(|s| after.get(&a.0) == Some(s));
            Some((p, as_left))
        })
        .collect();
    let git = match &manifest.git {
        Some(g) => git_actions(g, deadline),
        None => Vec::new(),
    };
    Ok(UndoPlan {
        manifest,
        items,
        git,
        created,
        repo,
    })
}

fn rev(repo: &Path, spec: &str, deadline: Instant) -> Option<String> {
    git::run(
        Repo::Project,
        Some(repo),
        &["rev-parse", "--verify", "-q", spec],
        None,
        deadline,
    )
    .ok()
    .map(git::text)
    .filter(|s| !s.is_empty())
}

fn git_actions(g: &GitRecovery, deadline: Instant) -> Vec<GitAction> {
    let top = Path::new(&g.top);
    let mut out = Vec::new();
    if let Some(h) = &g.head {
        let on = git::run(
            Repo::Project,
            Some(top),
            &["symbolic-ref", "-q", "HEAD"],
            None,
            deadline,
        )
        .map(git::text)
        .ok();
        if on.as_deref() == Some(h.name.as_str())
            && let Some(now) = rev(top, "HEAD", deadline)
            && now != h.sha
        {
            let forward = git::run(
                Repo::Project,
                Some(top),
                &["merge-base", "--is-ancestor", &now, &h.sha],
                None,
                deadline,
            )
            .is_ok();
            out.push(GitAction::Head {
                r: h.clone(),
                now,
                forward,
            });
        }
    }
    for b in &g.branches {
        let now = rev(top, &format!("{}^{{commit}}", b.name), deadline);
        if now.as_deref() != Some(b.sha.as_str()) {
            out.push(GitAction::Branch { r: b.clone(), now });
        }
    }
    let listed = git::run(
        Repo::Project,
        Some(top),
        &["log", "-g", "--format=%H", "refs/stash", "--"],
        None,
        deadline,
    )
    .map(git::text)
    .unwrap_or_default();
    for s in &g.stashes {
        let present = listed.lines().any(|l| l == s.sha);
        out.push(GitAction::Stash {
            r: s.clone(),
            present,
        });
    }
    out
}

/// What `apply` did.
#[derive(Debug, Clone, Default)]
pub struct Done {
    pub restored: usize,
    pub bytes: u64,
    /// Files the command created, removed as it left them.
    pub removed: Vec<PathBuf>,
    pub git: Vec<String>,
    /// Items left as they are (changed since, and no `--force`), or that failed.
    pub problems: Vec<String>,
}

/// Restore what `plan` says; items changed since the command only with `force`.
pub fn apply(shadow: &Shadow, plan: &UndoPlan, force: bool, deadline: Instant) -> Done {
    let mut done = Done::default();
    // git first: moving a branch back changes work-tree files the checkpoint then
    // restores on top.
    if let Some(repo) = &plan.repo {
        for a in &plan.git {
            match git_apply(repo, a, force, deadline) {
                Ok(Some(what)) => done.git.push(what),
                Ok(None) => {}
                Err(e) => done.problems.push(e),
            }
        }
    }
    let wanted: Vec<&Item> = plan
        .items
        .iter()
        .filter(|i| match i.state {
            State::Same => false,
            State::ChangedSince => force,
            _ => true,
        })
        .collect();
    for i in plan
        .items
        .iter()
        .filter(|i| i.state == State::ChangedSince && !force)
    {
        done.problems.push(format!(
            "{} changed after the command; left as it is (use --force to overwrite it)",
            i.entry.path.shown()
        ));
    }
    // Directories first (parents before children: the manifest is in path order).
    for i in wanted.iter().filter(|i| i.entry.kind == Kind::Dir) {
        let p = i.entry.path.path();
        if i.state == State::Missing
            && let Err(e) = std::fs::create_dir_all(&p)
        {
            done.problems.push(format!("{}: {e}", p.display()));
        }
    }
    let blobs: Vec<(&Item, &str)> = wanted
        .iter()
        .filter(|i| i.entry.kind != Kind::Dir)
        .filter_map(|i| i.blob.as_deref().map(|b| (*i, b)))
        .collect();
    if let Err(e) = write_blobs(shadow, &blobs, &mut done, deadline) {
        done.problems.push(e);
    }
    for (p, as_left) in &plan.created {
        if *as_left {
            match std::fs::remove_file(p) {
                Ok(()) => done.removed.push(p.clone()),
                Err(e) => done.problems.push(format!("{}: {e}", p.display())),
            }
        }
    }
    // Directory modes and times last, deepest first: a read-only directory is filled
    // before its mode is set back.
    for i in wanted.iter().rev().filter(|i| i.entry.kind == Kind::Dir) {
        let p = i.entry.path.path();
        let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(i.entry.mode));
        set_mtime(&p, i.entry.mtime_ns);
    }
    done
}

fn set_mtime(p: &Path, ns: Option<i128>) {
    let Some(ns) = ns.filter(|n| *n >= 0) else {
        return;
    };
    let t = UNIX_EPOCH + std::time::Duration::from_nanos(u64::try_from(ns).unwrap_or(0));
    if let Ok(f) = File::options().read(true).open(p) {
        let _ = f.set_modified(t);
    } else if let Ok(f) = File::options().write(true).open(p) {
        let _ = f.set_modified(t);
    }
}

/// Stream the blobs out of the store (`git cat-file --batch`) onto their paths: each
/// written beside its path and renamed over it, with its mode and time.
fn write_blobs(
    shadow: &Shadow,
    blobs: &[(&Item, &str)],
    done: &mut Done,
    deadline: Instant,
) -> Result<(), String> {
    if blobs.is_empty() {
        return Ok(());
    }
    let mut c = git::command(Repo::Shadow, None);
    c.arg(format!("--git-dir={}", shadow.dir.display()))
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped());
    let mut child = git::spawn(&mut c).map_err(|e| e.to_string())?;
    let input: Vec<u8> = blobs
        .iter()
        .flat_map(|(_, b)| format!("{b}\n").into_bytes())
        .collect();
    let mut stdin = child.stdin.take().ok_or("git cat-file has no input")?;
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let stdout = child.stdout.take().ok_or("git cat-file has no output")?;
    let mut r = BufReader::with_capacity(1 << 20, stdout);
    for (n, (item, _)) in blobs.iter().enumerate() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            return Err("out of time while restoring".into());
        }
        let mut header = String::new();
        r.read_line(&mut header).map_err(|e| e.to_string())?;
        let size: usize = header
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| format!("the store is missing a blob ({})", header.trim()))?;
        let mut data = vec![0u8; size];
        r.read_exact(&mut data).map_err(|e| e.to_string())?;
        let mut nl = [0u8; 1];
        r.read_exact(&mut nl).map_err(|e| e.to_string())?;
        match put(&item.entry, &data, n) {
            Ok(()) => {
                done.restored += 1;
                done.bytes += size as u64;
            }
            Err(e) => done
                .problems
                .push(format!("{}: {e}", item.entry.path.shown())),
        }
    }
    drop(r);
    let _ = feeder.join();
    let _ = git::finish(child, deadline);
    Ok(())
}

/// Put one file or symlink in place.
fn put(e: &Entry, data: &[u8], n: usize) -> Result<(), String> {
    let p = e.path.path();
    if let Some(dir) = p.parent() {
        std::fs::create_dir_all(dir).map_err(|x| x.to_string())?;
    }
    let name = p.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    let mut tmp_name =
        std::ffi::OsString::from(format!(".shellgate-undo-{}-{n}-", std::process::id()));
    tmp_name.push(&name);
    let tmp = p.with_file_name(tmp_name);
    let _ = std::fs::remove_file(&tmp);
    match e.kind {
        Kind::Symlink => {
            std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(data), &tmp)
                .map_err(|x| x.to_string())?;
        }
        _ => {
            let mut f = File::create(&tmp).map_err(|x| x.to_string())?;
            f.write_all(data).map_err(|x| x.to_string())?;
            f.set_permissions(std::fs::Permissions::from_mode(e.mode))
                .map_err(|x| x.to_string())?;
            if let Some(ns) = e.mtime_ns.filter(|n| *n >= 0) {
                let t =
                    UNIX_EPOCH + std::time::Duration::from_nanos(u64::try_from(ns).unwrap_or(0));
                let _ = f.set_modified(t);
            }
        }
    }
    // A directory where the file was (`--force` only): an empty one is removed first.
    if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir())
        && let Err(x) = std::fs::remove_dir(&p)
    {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!(
            "a directory is there now and it is not empty ({x})"
        ));
    }
    std::fs::rename(&tmp, &p).map_err(|x| {
        let _ = std::fs::remove_file(&tmp);
        x.to_string()
    })
}

fn git_apply(
    repo: &Path,
    a: &GitAction,
    force: bool,
    deadline: Instant,
) -> Result<Option<String>, String> {
    let run = |args: &[&str]| -> Result<(), String> {
        git::run(Repo::Project, Some(repo), args, None, deadline)
            .map(|_| ())
            .map_err(|e: GitError| format!("git {}: {e}", args.join(" ")))
    };
    match a {
        GitAction::Branch { r, now } => {
            let name = r.name.trim_start_matches("refs/heads/");
            match now {
                None => run(&["branch", name, &r.sha])?,
                Some(_) if force => run(&["branch", "-f", name, &r.sha])?,
                Some(_) => {
                    return Err(format!(
                        "branch {name} exists again at another commit; left as it is (use --force to move it back to {})",
                        short(&r.sha)
                    ));
                }
            }
            Ok(Some(format!("git branch {name} {}", short(&r.sha))))
        }
        GitAction::Stash { r, present } => {
            if *present {
                return Ok(None);
            }
            run(&["stash", "store", "-m", &r.name, &r.sha])?;
            Ok(Some(format!(
                "git stash store {} ({})",
                short(&r.sha),
                r.name
            )))
        }
        GitAction::Head { r, forward, .. } => {
            if !forward && !force {
                return Err(format!(
                    "{} has commits made after the checkpoint; left as it is (use --force to move it back to {})",
                    r.name,
                    short(&r.sha)
                ));
            }
            run(&["reset", "--keep", &r.sha])?;
            Ok(Some(format!("git reset --keep {}", short(&r.sha))))
        }
    }
}

fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}
