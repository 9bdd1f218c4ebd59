//! The shadow store: one bare git repository per project under the checkpoints directory
//! (`$XDG_STATE_HOME/shellgate/checkpoints/NAME-HASH/`), which never touches the project
//! or its `.git`. A checkpoint is one commit on `refs/checkpoints/ID` written by
//! `git fast-import` in one process: each captured file is a blob at `files/<index>`, and
//! `manifest.json` says what each index was (path, kind, exact mode, time). The files are
//! read here, not by git, so the size caps, special files and exact modes are shellgate's
//! to decide, and a project needs no git of its own. Identical content is stored once
//! across checkpoints (fast-import skips objects the store has). A lock file serialises
//! writers and pruning.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::git::{self, GitError, Repo};
use super::manifest::{Entry, Kind, Manifest, Skipped, StoredPath, VERSION};
use super::resolve::Found;
use std::collections::BTreeMap;

/// One project's shadow repository.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shadow {
    pub dir: PathBuf,
}

/// A stable 64-bit FNV-1a hash: a project's store name must not change between runs.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Held while writing or pruning a store; released on drop.
struct Lock(File);

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

impl Shadow {
    /// The store of the project rooted at `project`, under `checkpoints`.
    pub fn for_project(checkpoints: &Path, project: &Path) -> Shadow {
        use std::os::unix::ffi::OsStrExt;
        let name: String = project
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "root".into())
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .take(40)
            .collect();
        let hash = fnv(project.as_os_str().as_bytes());
        Shadow {
            dir: checkpoints.join(format!("{name}-{hash:016x}")),
        }
    }

    fn git(&self, args: &[&str], deadline: Instant) -> Result<Vec<u8>, GitError> {
        let gd = format!("--git-dir={}", self.dir.display());
        let mut a = vec![gd.as_str()];
        a.extend_from_slice(args);
        git::run(Repo::Shadow, None, &a, None, deadline)
    }

    fn lock(&self, deadline: Instant) -> Result<Lock, String> {
        let f = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join("shellgate.lock"))
            .map_err(|e| format!("the store's lock cannot be opened: {e}"))?;
        loop {
            match f.try_lock() {
                Ok(()) => return Ok(Lock(f)),
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(e) => return Err(format!("the store is busy ({e})")),
            }
        }
    }

    /// Create the bare repository on first use (private to the user: it holds copies of
    /// their files).
    fn ensure(&self, project: &Path, deadline: Instant) -> Result<(), String> {
        if self.dir.join("HEAD").exists() {
            return Ok(());
        }
        let parent = self.dir.parent().unwrap_or(Path::new("/"));
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("{} cannot be created: {e}", parent.display()))?;
        let _ = std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o700));
        let dir = self.dir.to_string_lossy().into_owned();
        git::run(
            Repo::Shadow,
            None,
            &["init", "--bare", "-q", &dir],
            None,
            deadline,
        )
        .map_err(|e| e.to_string())?;
        for (k, v) in [
            ("core.logAllRefUpdates", "false"),
            ("gc.auto", "0"),
            ("core.compression", "1"),
            ("pack.compression", "1"),
        ] {
            self.git(&["config", k, v], deadline)
                .map_err(|e| e.to_string())?;
        }
        std::fs::write(
            self.dir.join("shellgate-project"),
            format!("{}\n", project.display()),
        )
        .map_err(|e| format!("the store cannot be written: {e}"))
    }

    /// Write checkpoint `id` for `plan`. Files are added until `soft` (what is left is
    /// recorded as skipped); the whole import must end by `hard` or nothing is kept.
    pub fn write(
        &self,
        mut manifest: Manifest,
        entries: BTreeMap<PathBuf, Found>,
        soft: Instant,
        hard: Instant,
    ) -> Result<(String, Manifest), String> {
        let project = PathBuf::from(&manifest.project);
        self.ensure(&project, hard)?;
        let _lock = self.lock(hard)?;
        let mut c = git::command(Repo::Shadow, None);
        c.arg(format!("--git-dir={}", self.dir.display()))
            .args(["fast-import", "--quiet", "--done", "--force"])
            .stdin(Stdio::piped());
        let mut child = git::spawn(&mut c).map_err(|e| e.to_string())?;
        let Some(stdin) = child.stdin.take() else {
            return Err("git fast-import has no input".into());
        };
        let id = manifest.id;
        let writer = std::thread::spawn(move || {
            let mut w = BufWriter::with_capacity(1 << 20, stdin);
            let r = stream(&mut w, &mut manifest, entries, soft).and_then(|_| w.flush());
            r.map(|_| manifest).map_err(|e| e.to_string())
        });
        let done = git::finish(child, hard);
        let manifest = match writer.join() {
            Ok(Ok(m)) => m,
            Ok(Err(e)) => return Err(format!("the files could not be streamed to git: {e}")),
            Err(_) => return Err("the checkpoint writer stopped".into()),
        };
        match done {
            Ok(_) => {}
            Err(GitError::Timeout) => {
                return Err("it did not finish in the time a checkpoint may take".into());
            }
            Err(e) => return Err(e.to_string()),
        }
        let sha = self
            .git(&["rev-parse", "--verify", "-q", &reference(id)], hard)
            .map(git::text)
            .map_err(|e| e.to_string())?;
        Ok((sha, manifest))
    }

    /// The manifest of checkpoint `id`.
    pub fn manifest(&self, id: i64, deadline: Instant) -> Result<Manifest, String> {
        let spec = format!("{}:manifest.json", reference(id));
        let out = self
            .git(&["cat-file", "blob", &spec], deadline)
            .map_err(|e| format!("checkpoint {id} is not in {}: {e}", self.dir.display()))?;
        let m: Manifest = serde_json::from_slice(&out)
            .map_err(|e| format!("checkpoint {id}'s manifest cannot be read: {e}"))?;
        if m.version != VERSION {
            return Err(format!(
                "checkpoint {id} was written by another shellgate (manifest version {})",
                m.version
            ));
        }
        Ok(m)
    }

    /// The blob ids of checkpoint `id`'s files, by index.
    pub fn blobs(&self, id: i64, deadline: Instant) -> Result<Vec<(usize, String)>, String> {
        let tree = format!("{}:files", reference(id));
        let out = match self.git(&["ls-tree", "-z", &tree], deadline) {
            Ok(o) => o,
            // A checkpoint of directories only has no `files` tree.
            Err(GitError::Failed(_)) => return Ok(Vec::new()),
            Err(e) => return Err(e.to_string()),
        };
        let mut v = Vec::new();
        for rec in out.split(|b| *b == 0).filter(|r| !r.is_empty()) {
            let rec = String::from_utf8_lossy(rec);
            let Some((meta, name)) = rec.split_once('\t') else {
                continue;
            };
            let (Some(sha), Ok(i)) = (meta.split(' ').nth(2), name.parse::<usize>()) else {
                continue;
            };
            v.push((i, sha.to_string()));
        }
        Ok(v)
    }

    /// Delete checkpoints `ids` from the store and drop what only they held.
    pub fn drop_checkpoints(&self, ids: &[i64], deadline: Instant) -> Result<(), String> {
        self.drop_then(ids, RECLAIM_EVERY, deadline)
    }

    /// Delete checkpoints `ids`, and reclaim their space once `every` checkpoints were
    /// dropped since the last time (a repack copies the whole store: amortised, it stays out
    /// of most hooks' way). A reclaim the deadline cuts short leaves the store as it was.
    pub fn drop_then(&self, ids: &[i64], every: usize, deadline: Instant) -> Result<(), String> {
        if ids.is_empty() || !self.dir.join("HEAD").exists() {
            return Ok(());
        }
        let _lock = self.lock(deadline)?;
        let input: String = ids
            .iter()
            .map(|i| format!("delete {}\n", reference(*i)))
            .collect();
        let gd = format!("--git-dir={}", self.dir.display());
        git::run(
            Repo::Shadow,
            None,
            &[&gd, "update-ref", "--stdin"],
            Some(input.as_bytes()),
            deadline,
        )
        .map_err(|e| e.to_string())?;
        let counter = self.dir.join("shellgate-dropped");
        let dropped = std::fs::read_to_string(&counter)
            .ok()
            .and_then(|s| s.trim().parse::<usize>().ok())
            .unwrap_or(0)
            + ids.len();
        if dropped < every {
            let _ = std::fs::write(&counter, format!("{dropped}\n"));
            return Ok(());
        }
        // No delta search (`--window=0`): the repack only copies what is still referenced.
        // Small imports are stored as loose objects (fast-import's unpack limit), which a
        // repack leaves behind: the lock keeps writers out while they are pruned.
        for args in [
            &["repack", "-a", "-d", "-q", "--window=0"][..],
            &["prune", "--expire=now"][..],
        ] {
            self.git(args, deadline).map_err(|e| e.to_string())?;
        }
        let _ = std::fs::write(&counter, "0\n");
        Ok(())
    }

    /// Bytes the store takes on disk.
    pub fn size(&self) -> u64 {
        let mut total = 0;
        let mut stack = vec![self.dir.clone()];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                match e.metadata() {
                    Ok(m) if m.is_dir() => stack.push(e.path()),
                    Ok(m) => total += m.len(),
                    Err(_) => {}
                }
            }
        }
        total
    }
}

/// Checkpoints dropped between two reclaims of the store's space.
pub const RECLAIM_EVERY: usize = 5;

/// The ref of checkpoint `id`.
pub fn reference(id: i64) -> String {
    format!("refs/checkpoints/{id}")
}

/// Read one file to capture: content, mode and time, or why not. The path must still be a
/// regular file (not a FIFO or a link swapped in since the walk).
fn read_file(p: &Path) -> Result<(Vec<u8>, std::fs::Metadata), String> {
    let before = std::fs::symlink_metadata(p).map_err(|e| e.to_string())?;
    if !before.file_type().is_file() {
        return Err("it is no longer a regular file".into());
    }
    let mut f = File::open(p).map_err(|e| e.to_string())?;
    let m = f.metadata().map_err(|e| e.to_string())?;
    if m.ino() != before.ino() || m.dev() != before.dev() {
        return Err("it was replaced while being read".into());
    }
    let mut buf = Vec::with_capacity(m.len() as usize);
    std::io::Read::read_to_end(&mut f, &mut buf).map_err(|e| e.to_string())?;
    Ok((buf, m))
}

fn mtime_ns(m: &std::fs::Metadata) -> Option<i128> {
    Some(i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec()))
}

/// The fast-import stream: a blob per file or link, then one commit naming them all and
/// the manifest.
fn stream(
    w: &mut impl Write,
    manifest: &mut Manifest,
    entries: BTreeMap<PathBuf, Found>,
    soft: Instant,
) -> std::io::Result<()> {
    let mut tree: Vec<(u32, usize)> = Vec::new();
    let mut late = false;
    for (path, found) in entries {
        if !late && Instant::now() >= soft {
            late = true;
        }
        let stored = StoredPath::of(&path);
        if late && found.kind != Kind::Dir {
            manifest.skipped.push(Skipped {
                path: stored,
                bytes: found.size,
                why: "not captured: out of time".into(),
            });
            continue;
        }
        let (data, meta, git_mode) = match found.kind {
            Kind::Dir => {
                let Ok(m) = std::fs::symlink_metadata(&path) else {
                    continue;
                };
                manifest.entries.push(Entry {
                    path: stored,
                    kind: Kind::Dir,
                    mode: m.mode() & 0o7777,
                    mtime_ns: mtime_ns(&m),
                    size: 0,
                    blob: None,
                });
                continue;
            }
            Kind::Symlink => match (std::fs::read_link(&path), std::fs::symlink_metadata(&path)) {
                (Ok(t), Ok(m)) => {
                    use std::os::unix::ffi::OsStrExt;
                    (t.as_os_str().as_bytes().to_vec(), m, 0o120000)
                }
                _ => continue,
            },
            Kind::File => match read_file(&path) {
                Ok((d, m)) => (d, m, 0o100644),
                Err(why) => {
                    manifest.skipped.push(Skipped {
                        path: stored,
                        bytes: found.size,
                        why: format!("could not be read: {why}"),
                    });
                    continue;
                }
            },
        };
        let index = manifest.entries.len();
        let mark = tree.len() + 1;
        write!(w, "blob\nmark :{mark}\ndata {}\n", data.len())?;
        w.write_all(&data)?;
        w.write_all(b"\n")?;
        tree.push((git_mode, index));
        manifest.entries.push(Entry {
            path: stored,
            kind: found.kind,
            mode: meta.mode() & 0o7777,
            mtime_ns: mtime_ns(&meta),
            size: data.len() as u64,
            blob: Some(index),
        });
    }
    if late {
        manifest.notes.push(
            "not checkpointed: some files, which did not fit in the time a checkpoint may take"
                .into(),
        );
    }
    let json = serde_json::to_vec_pretty(&*manifest).map_err(std::io::Error::other)?;
    let msg = format!("checkpoint {}\n\n{}\n", manifest.id, manifest.command);
    write!(
        w,
        "commit {}\ncommitter shellgate <shellgate@localhost> {} +0000\ndata {}\n{msg}",
        reference(manifest.id),
        manifest.time.max(0),
        msg.len()
    )?;
    for (i, (mode, index)) in tree.iter().enumerate() {
        writeln!(w, "M {mode:o} :{} files/{index}", i + 1)?;
    }
    write!(w, "M 100644 inline manifest.json\ndata {}\n", json.len())?;
    w.write_all(&json)?;
    w.write_all(b"\n\ndone\n")?;
    Ok(())
}

/// A manifest for checkpoint `id` with nothing captured yet.
pub fn empty_manifest(
    id: i64,
    time: i64,
    project: &Path,
    cwd: Option<&str>,
    command: &str,
) -> Manifest {
    Manifest {
        version: VERSION,
        id,
        time,
        project: project.to_string_lossy().into_owned(),
        cwd: cwd.map(str::to_string),
        command: command.to_string(),
        roots: Vec::new(),
        entries: Vec::new(),
        absent: Vec::new(),
        skipped: Vec::new(),
        notes: Vec::new(),
        git: None,
    }
}
