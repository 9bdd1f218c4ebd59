//! From what a command affects ([`crate::model::affected`]) to the entries a checkpoint
//! captures: globs expanded as bash would, `cp`/`mv` destinations looked up, `find`
//! selections walked, git asked what `git clean`/`checkout`/`reset --hard` would touch, and
//! every tree walked within the limits. Nothing is written here.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::Settings;
use super::git::{self, GitError, Repo};
use super::manifest::{GitRecovery, GitRef, Kind, Root, Skipped, StoredPath, human};
use crate::model::affected::{Affected, Change, FindFilter, GitAt, GitClean, Target};
use crate::model::paths::{fold, within};

/// Where a checkpoint may capture: the project, the home (not its temporary or shellgate's
/// own directories).
#[derive(Debug, Clone)]
pub struct Scope {
    pub project: PathBuf,
    pub home: Option<PathBuf>,
    /// Never captured: shellgate's state (the store itself) and temporary directories.
    pub shellgate: Option<PathBuf>,
    pub temp: Vec<PathBuf>,
}

impl Scope {
    /// Why `p` is not captured, or `None` when it is.
    fn refuses(&self, p: &Path) -> Option<String> {
        let s = p.to_string_lossy();
        if let Some(g) = &self.shellgate
            && within(&s, &g.to_string_lossy())
        {
            return Some("shellgate's own state".into());
        }
        if self.project != Path::new("/") && within(&s, &self.project.to_string_lossy()) {
            return None;
        }
        if self.temp.iter().any(|t| within(&s, &t.to_string_lossy())) {
            return Some("a temporary path".into());
        }
        match &self.home {
            Some(h)
                if within(&s, &h.to_string_lossy()) && fold(&s) != fold(&h.to_string_lossy()) =>
            {
                None
            }
            _ => Some("outside the workspace and home".into()),
        }
    }
}

/// One entry found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub kind: Kind,
    pub size: u64,
}

/// What a checkpoint would capture.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub roots: Vec<Root>,
    /// Every entry to capture, by path (a tree's parents before their children).
    pub entries: BTreeMap<PathBuf, Found>,
    pub absent: Vec<PathBuf>,
    pub skipped: Vec<Skipped>,
    pub notes: Vec<String>,
    pub git: Vec<GitRecovery>,
}

impl Plan {
    /// Files and symlinks to capture, and their bytes.
    pub fn size(&self) -> (usize, u64) {
        self.entries
            .values()
            .filter(|f| f.kind != Kind::Dir)
            .fold((0, 0), |(n, b), f| (n + 1, b + f.size))
    }

    /// Anything to write at all?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.git.iter().all(GitRecovery::is_empty)
    }
}

struct Resolver<'a> {
    settings: &'a Settings,
    scope: &'a Scope,
    deadline: Instant,
    plan: Plan,
    /// (path, recursive, change) to walk.
    roots: Vec<(PathBuf, bool, Change)>,
    /// Entries visited by the walks (the entry cap counts them).
    visited: usize,
}

/// Work out what to capture for `items`, by `deadline`.
pub fn plan(items: &[Affected], settings: &Settings, scope: &Scope, deadline: Instant) -> Plan {
    let mut r = Resolver {
        settings,
        scope,
        deadline,
        plan: Plan::default(),
        roots: Vec::new(),
        visited: 0,
    };
    for it in items {
        r.target(it);
    }
    let roots = std::mem::take(&mut r.roots);
    for (p, recursive, change) in roots {
        r.root(&p, recursive, change);
    }
    r.caps();
    r.plan.notes.dedup();
    r.plan
}

fn expired(deadline: Instant) -> bool {
    Instant::now() >= deadline
}

impl Resolver<'_> {
    fn note(&mut self, n: String) {
        if !self.plan.notes.contains(&n) {
            self.plan.notes.push(n);
        }
    }

    fn add(&mut self, p: PathBuf, recursive: bool, change: Change) {
        if !self
            .roots
            .iter()
            .any(|(q, r, _)| *q == p && *r == recursive)
        {
            self.roots.push((p, recursive, change));
        }
    }

    fn target(&mut self, it: &Affected) {
        let change = it.change;
        match &it.target {
            Target::Path { path, recursive } => self.add(PathBuf::from(path), *recursive, change),
            Target::Glob { pattern, recursive } => {
                for p in expand_glob(pattern) {
                    self.add(p, *recursive, change);
                }
            }
            Target::Into {
                dest,
                names,
                dir,
                recursive,
            } => {
                let d = PathBuf::from(dest);
                let is_dir = dir.unwrap_or_else(|| d.is_dir());
                if is_dir {
                    for n in names {
                        self.add(d.join(n), *recursive, change);
                    }
                } else {
                    self.add(d, *recursive, change);
                }
            }
            Target::Find { roots, filter } => self.find(roots, filter.as_ref(), change),
            Target::Unknown { what } => self.note(format!("not checkpointed: {what}")),
            Target::GitClean { at, clean } => self.git(at, |r, repo| r.git_clean(repo, at, clean)),
            Target::GitCheckout { at, source, paths } => self.git(at, |r, repo| {
                r.git_changed(repo, at, source.as_deref(), paths)?;
                r.uncommitted(repo)
            }),
            Target::GitUncommitted { at } => self.git(at, |r, repo| {
                r.git_changed(repo, at, Some("HEAD"), &[])?;
                r.uncommitted(repo)?;
                r.head(repo)
            }),
            Target::GitStashDrop { at, which } => {
                self.git(at, |r, repo| r.stashes(repo, which.as_deref()))
            }
            Target::GitBranchDelete { at, names } => {
                self.git(at, |r, repo| r.branches(repo, names))
            }
        }
    }

    /// Walk `roots` and add what `filter` selects (all of each root without one).
    fn find(&mut self, roots: &[String], filter: Option<&FindFilter>, change: Change) {
        let Some(f) = filter else {
            for r in roots {
                self.add(PathBuf::from(r), true, change);
            }
            return;
        };
        for r in roots {
            let mut stack = vec![(PathBuf::from(r), 0usize)];
            while let Some((p, depth)) = stack.pop() {
                self.visited += 1;
                if self.visited > self.settings.max_entries || expired(self.deadline) {
                    self.note(format!(
                        "not checkpointed: part of what `find` selects under {r} (more than {} entries, or out of time)",
                        self.settings.max_entries
                    ));
                    return;
                }
                let Ok(m) = std::fs::symlink_metadata(&p) else {
                    continue;
                };
                if selects(f, &p, &m, depth) {
                    self.add(p.clone(), false, change);
                }
                if m.is_dir() && f.maxdepth.is_none_or(|d| depth < d) {
                    let mut kids = children(&p);
                    kids.reverse();
                    stack.extend(kids.into_iter().map(|k| (k, depth + 1)));
                }
            }
        }
    }

    /// Run `f` with the repository `at` names; a directory that is no repository, or git
    /// missing or slow, is a note.
    fn git(
        &mut self,
        at: &GitAt,
        f: impl FnOnce(&mut Self, &mut GitRecovery) -> Result<(), GitError>,
    ) {
        if !Path::new(&at.dir).is_dir() {
            return self.note(format!("not checkpointed: {} does not exist", at.dir));
        }
        let info = match repo_info(at, self.deadline) {
            Ok(i) => i,
            Err(GitError::Failed(_)) => {
                return self.note(format!(
                    "not checkpointed: {} is not in a git repository",
                    at.dir
                ));
            }
            Err(e) => return self.note(format!("not checkpointed: {e}")),
        };
        let i = match self.plan.git.iter().position(|g| g.top == info.top) {
            Some(i) => i,
            None => {
                self.plan.git.push(info);
                self.plan.git.len() - 1
            }
        };
        let mut repo = std::mem::take(&mut self.plan.git[i]);
        if let Err(e) = f(self, &mut repo) {
            self.note(format!("not checkpointed: git's records ({e})"));
        }
        self.plan.git[i] = repo;
    }

    fn git_clean(&mut self, repo: &GitRecovery, at: &GitAt, c: &GitClean) -> Result<(), GitError> {
        let mut args: Vec<String> = at_args(at);
        args.extend(["clean".into(), "-n".into()]);
        if c.dirs {
            args.push("-d".into());
        }
        if let Some(x) = c.ignored {
            args.push(format!("-{x}"));
        }
        if c.force_twice {
            args.extend(["-f".into(), "-f".into()]);
        }
        for e in &c.excludes {
            args.extend(["-e".into(), e.clone()]);
        }
        args.push("--".into());
        args.extend(c.paths.iter().cloned());
        let out = run_in(at, &args, self.deadline)?;
        let _ = repo;
        for line in out.split(|b| *b == b'\n') {
            let Some(name) = line.strip_prefix(b"Would remove ") else {
                continue;
            };
            let rel = git::unquote(&String::from_utf8_lossy(name));
            let dir = rel.ends_with(b"/");
            let p = Path::new(&at.dir).join(std::ffi::OsStr::from_bytes(&rel));
            self.add(p, dir, Change::Delete);
        }
        Ok(())
    }

    /// Work-tree files that differ from `source` (the index when `None`) under `paths`.
    fn git_changed(
        &mut self,
        repo: &GitRecovery,
        at: &GitAt,
        source: Option<&str>,
        paths: &[String],
    ) -> Result<(), GitError> {
        let mut args = at_args(at);
        args.extend(
            [
                "diff",
                "--name-only",
                "-z",
                "--no-ext-diff",
                "--no-renames",
                "--no-relative",
            ]
            .map(String::from),
        );
        args.extend(source.map(String::from));
        args.push("--".into());
        args.extend(paths.iter().cloned());
        let out = match run_in(at, &args, self.deadline) {
            Ok(o) => o,
            // An unborn branch has no HEAD: everything in the index is uncommitted.
            Err(GitError::Failed(_)) if source == Some("HEAD") => {
                let mut a = at_args(at);
                a.extend(["ls-files", "-z"].map(String::from));
                run_in(at, &a, self.deadline)?
            }
            Err(e) => return Err(e),
        };
        for rel in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            let p = Path::new(&repo.top).join(std::ffi::OsStr::from_bytes(rel));
            self.add(p, false, Change::GitDiscard);
        }
        Ok(())
    }

    /// `git stash create` against a copy of the index: the uncommitted tracked changes as
    /// a commit, with the project's index, work tree and refs untouched.
    fn uncommitted(&mut self, repo: &mut GitRecovery) -> Result<(), GitError> {
        if repo.uncommitted.is_some() {
            return Ok(());
        }
        let index = Path::new(&repo.git_dir).join("index");
        let tmp = self.settings.dir.join("tmp");
        let _ = std::fs::create_dir_all(&tmp);
        let copy = tmp.join(format!("index-{}-{}", std::process::id(), self.visited));
        let have_index = index.exists();
        if have_index && std::fs::copy(&index, &copy).is_err() {
            return Err(GitError::Failed("the index could not be copied".into()));
        }
        let out = git::run_env(
            Repo::Project,
            Some(Path::new(&repo.top)),
            &["stash", "create", "shellgate checkpoint"],
            &[("GIT_INDEX_FILE", copy.as_os_str())],
            None,
            self.deadline,
        );
        let _ = std::fs::remove_file(&copy);
        let sha = git::text(out?);
        repo.uncommitted = (!sha.is_empty()).then_some(sha);
        Ok(())
    }

    fn head(&mut self, repo: &mut GitRecovery) -> Result<(), GitError> {
        let top = Path::new(&repo.top);
        let Ok(name) = git::run(
            Repo::Project,
            Some(top),
            &["symbolic-ref", "-q", "HEAD"],
            None,
            self.deadline,
        ) else {
            return Ok(());
        };
        let name = git::text(name);
        if let Ok(sha) = git::run(
            Repo::Project,
            Some(top),
            &["rev-parse", "--verify", "-q", "HEAD"],
            None,
            self.deadline,
        ) {
            repo.head = Some(GitRef {
                name,
                sha: git::text(sha),
            });
        }
        Ok(())
    }

    fn stashes(&mut self, repo: &mut GitRecovery, which: Option<&str>) -> Result<(), GitError> {
        let top = Path::new(&repo.top).to_path_buf();
        let Ok(out) = git::run(
            Repo::Project,
            Some(&top),
            &["log", "-g", "--format=%H%x09%gs", "refs/stash", "--"],
            None,
            self.deadline,
        ) else {
            return Ok(());
        };
        let list: Vec<GitRef> = git::text(out)
            .lines()
            .filter_map(|l| l.split_once('\t'))
            .map(|(sha, msg)| GitRef {
                name: msg.to_string(),
                sha: sha.to_string(),
            })
            .collect();
        let picked: Vec<GitRef> = match which {
            None => list,
            Some(w) => {
                let n = w
                    .strip_prefix("stash@{")
                    .and_then(|x| x.strip_suffix('}'))
                    .unwrap_or(w)
                    .parse::<usize>()
                    .ok();
                match n {
                    Some(n) => list.into_iter().nth(n).into_iter().collect(),
                    None => {
                        let sha = git::run(
                            Repo::Project,
                            Some(&top),
                            &["rev-parse", "--verify", "-q", w],
                            None,
                            self.deadline,
                        )
                        .map(git::text)
                        .unwrap_or_default();
                        list.into_iter().filter(|r| r.sha == sha).collect()
                    }
                }
            }
        };
        repo.stashes.extend(picked.into_iter().rev());
        Ok(())
    }

    fn branches(&mut self, repo: &mut GitRecovery, names: &[String]) -> Result<(), GitError> {
        for n in names {
            let r = format!("refs/heads/{n}");
            if let Ok(sha) = git::run(
                Repo::Project,
                Some(Path::new(&repo.top)),
                &["rev-parse", "--verify", "-q", &format!("{r}^{{commit}}")],
                None,
                self.deadline,
            ) {
                repo.branches.push(GitRef {
                    name: r,
                    sha: git::text(sha),
                });
            }
        }
        Ok(())
    }

    /// Capture `p` (all below it when `recursive`), within the scope and the limits.
    fn root(&mut self, p: &Path, recursive: bool, change: Change) {
        let shown = StoredPath::of(p);
        if let Some(why) = self.scope.refuses(p) {
            return self.note(format!("not checkpointed: {} ({why})", shown.shown()));
        }
        self.plan.roots.push(Root {
            path: shown,
            change: change.as_str().into(),
            recursive,
        });
        let Ok(m) = std::fs::symlink_metadata(p) else {
            if !self.plan.absent.iter().any(|a| a == p) {
                self.plan.absent.push(p.to_path_buf());
            }
            return;
        };
        // Writing through a symlink changes what it points to: capture that too.
        if m.file_type().is_symlink()
            && change != Change::Delete
            && let Ok(real) = std::fs::canonicalize(p)
            && real.is_file()
            && self.scope.refuses(&real).is_none()
        {
            self.walk(&real, false);
        }
        self.walk(p, recursive);
    }

    fn walk(&mut self, start: &Path, recursive: bool) {
        let mut stack = vec![start.to_path_buf()];
        while let Some(p) = stack.pop() {
            self.visited += 1;
            if self.visited > self.settings.max_entries || expired(self.deadline) {
                let why = if expired(self.deadline) {
                    format!("not captured: out of time after {} entries", self.visited)
                } else {
                    format!("over the {}-entry cap", self.settings.max_entries)
                };
                self.plan.skipped.push(Skipped {
                    path: StoredPath::of(&p),
                    bytes: 0,
                    why: format!("{why} (and what is left below {})", start.display()),
                });
                return;
            }
            if self.plan.entries.contains_key(&p) && p != start {
                continue;
            }
            if let Some(g) = &self.scope.shellgate
                && p.starts_with(g)
            {
                continue;
            }
            let Ok(m) = std::fs::symlink_metadata(&p) else {
                continue;
            };
            let t = m.file_type();
            let kind = if t.is_symlink() {
                Kind::Symlink
            } else if t.is_file() {
                Kind::File
            } else if t.is_dir() {
                Kind::Dir
            } else {
                let what = if t.is_fifo() {
                    "a FIFO"
                } else if t.is_socket() {
                    "a socket"
                } else {
                    "a device"
                };
                self.plan.skipped.push(Skipped {
                    path: StoredPath::of(&p),
                    bytes: 0,
                    why: format!("{what}, not a file"),
                });
                continue;
            };
            self.plan.entries.insert(
                p.clone(),
                Found {
                    kind,
                    size: if kind == Kind::Dir { 0 } else { m.size() },
                },
            );
            if kind == Kind::Dir && recursive {
                let mut kids = children(&p);
                kids.reverse();
                stack.extend(kids);
            }
        }
    }

    /// Apply the per-file and per-checkpoint size caps: the smallest files first, so one
    /// large file does not crowd out a directory of sources.
    fn caps(&mut self) {
        let mut files: Vec<(u64, PathBuf)> = self
            .plan
            .entries
            .iter()
            .filter(|(_, f)| f.kind == Kind::File)
            .map(|(p, f)| (f.size, p.clone()))
            .collect();
        files.sort();
        let mut total = 0u64;
        let (mut over_total, mut over_bytes) = (0usize, 0u64);
        for (size, p) in files {
            let why = if size > self.settings.max_file {
                Some(format!(
                    "over the {} per-file cap",
                    human(self.settings.max_file)
                ))
            } else if total + size > self.settings.max_total {
                over_total += 1;
                over_bytes += size;
                Some(format!("over the {} cap", human(self.settings.max_total)))
            } else {
                total += size;
                None
            };
            if let Some(why) = why {
                self.plan.entries.remove(&p);
                self.plan.skipped.push(Skipped {
                    path: StoredPath::of(&p),
                    bytes: size,
                    why,
                });
            }
        }
        if over_total > 0 {
            self.note(format!(
                "not checkpointed: {over_total} file{}, {} over the {} cap",
                if over_total == 1 { "" } else { "s" },
                human(over_bytes),
                human(self.settings.max_total)
            ));
        }
        let big: Vec<&Skipped> = self
            .plan
            .skipped
            .iter()
            .filter(|s| s.why.contains("per-file cap"))
            .collect();
        if let Some(first) = big.first() {
            let n = big.len();
            let bytes: u64 = big.iter().map(|s| s.bytes).sum();
            let msg = format!(
                "not checkpointed: {} ({}{}) over the {} per-file cap",
                first.path.shown(),
                human(bytes),
                if n > 1 {
                    format!(" with {} more", n - 1)
                } else {
                    String::new()
                },
                human(self.settings.max_file)
            );
            self.note(msg);
        }
    }
}

/// The entries of a directory, sorted by name.
fn children(dir: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.sort();
    v
}

/// Does `find`'s conjunction of tests select `p`?
fn selects(f: &FindFilter, p: &Path, m: &std::fs::Metadata, depth: usize) -> bool {
    if f.mindepth.is_some_and(|d| depth < d) || f.maxdepth.is_some_and(|d| depth > d) {
        return false;
    }
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.to_string_lossy().into_owned());
    let t = m.file_type();
    let letter = if t.is_symlink() {
        'l'
    } else if t.is_dir() {
        'd'
    } else if t.is_file() {
        'f'
    } else {
        '?'
    };
    (f.types.is_empty() || f.types.contains(&letter))
        && f.names.iter().all(|g| crate::glob::matches(g, &name))
        && f.inames
            .iter()
            .all(|g| crate::glob::matches_ignore_case(g, &name))
}

/// The paths an absolute glob matches now, component by component as bash's pathname
/// expansion does: `*`/`?`/`[..]` within a component, and a leading `.` matched only by a
/// component that starts with `.`.
pub fn expand_glob(pattern: &str) -> Vec<PathBuf> {
    let mut found = vec![PathBuf::from("/")];
    for comp in pattern.split('/').filter(|c| !c.is_empty()) {
        let mut next = Vec::new();
        let literal = !comp.contains(['*', '?', '[']);
        for base in &found {
            if literal {
                let p = base.join(unescape(comp));
                if std::fs::symlink_metadata(&p).is_ok() {
                    next.push(p);
                }
                continue;
            }
            for child in children(base) {
                let Some(name) = child.file_name().map(|n| n.to_string_lossy().into_owned()) else {
                    continue;
                };
                if name.starts_with('.') && !comp.starts_with('.') {
                    continue;
                }
                if crate::glob::matches(comp, &name) {
                    next.push(child);
                }
            }
        }
        found = next;
        if found.is_empty() {
            break;
        }
    }
    found
}

/// `[*]` → `*`: a component with no glob left is a literal name.
fn unescape(comp: &str) -> String {
    comp.replace("[*]", "*")
        .replace("[?]", "?")
        .replace("[[]", "[")
}

/// The global options that place a git command (`--git-dir`, `--work-tree`).
fn at_args(at: &GitAt) -> Vec<String> {
    let mut a = Vec::new();
    if let Some(d) = &at.git_dir {
        a.push(format!("--git-dir={d}"));
    }
    if let Some(w) = &at.work_tree {
        a.push(format!("--work-tree={w}"));
    }
    a
}

fn run_in(at: &GitAt, args: &[String], deadline: Instant) -> Result<Vec<u8>, GitError> {
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    git::run(Repo::Project, Some(Path::new(&at.dir)), &a, None, deadline)
}

/// The repository `at` names: its top level and git directory.
fn repo_info(at: &GitAt, deadline: Instant) -> Result<GitRecovery, GitError> {
    let mut args = at_args(at);
    args.extend(["rev-parse", "--show-toplevel", "--absolute-git-dir"].map(String::from));
    let out = git::text(run_in(at, &args, deadline)?);
    let mut lines = out.lines();
    let (Some(top), Some(git_dir)) = (lines.next(), lines.next()) else {
        return Err(GitError::Failed("no work tree".into()));
    };
    Ok(GitRecovery {
        top: top.to_string(),
        git_dir: git_dir.to_string(),
        ..GitRecovery::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_expand_per_component_and_skip_dotfiles() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        for f in ["a.o", "b.o", ".h.o", "c.txt", "sub/d.o"] {
            let p = root.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x").unwrap();
        }
        let got = expand_glob(&format!("{}/*.o", root.display()));
        assert_eq!(got, vec![root.join("a.o"), root.join("b.o")]);
        let got = expand_glob(&format!("{}/*/*.o", root.display()));
        assert_eq!(got, vec![root.join("sub/d.o")]);
        let got = expand_glob(&format!("{}/.*.o", root.display()));
        assert_eq!(got, vec![root.join(".h.o")]);
    }
}
