//! What one checkpoint holds, as stored beside its files in the shadow store
//! (`manifest.json` in the checkpoint's commit): every captured entry with its exact mode
//! and time, what was left out and why, the paths that did not exist, and the recovery
//! refs git gave. Blob contents live in the same commit's tree, at `files/<index>`.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use base64::Engine;
use serde::{Deserialize, Serialize};

/// The manifest format; a reader refuses another.
pub const VERSION: u32 = 1;

/// A path as stored: the text when it is UTF-8, else `b64:` and its bytes in base64
/// (stored paths are absolute, so no real one starts with `b64:`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StoredPath(pub String);

impl StoredPath {
    pub fn of(p: &Path) -> StoredPath {
        match p.to_str() {
            Some(s) => StoredPath(s.to_string()),
            None => StoredPath(format!(
                "b64:{}",
                base64::engine::general_purpose::STANDARD.encode(p.as_os_str().as_bytes())
            )),
        }
    }

    pub fn path(&self) -> PathBuf {
        match self.0.strip_prefix("b64:") {
            Some(b) => match base64::engine::general_purpose::STANDARD.decode(b) {
                Ok(bytes) => PathBuf::from(OsStr::from_bytes(&bytes)),
                Err(_) => PathBuf::from(&self.0),
            },
            None => PathBuf::from(&self.0),
        }
    }

    /// For people: the path, with bytes that are not UTF-8 replaced.
    pub fn shown(&self) -> String {
        self.path().to_string_lossy().into_owned()
    }
}

/// What an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    File,
    Dir,
    Symlink,
}

/// One captured file, directory or symlink.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub path: StoredPath,
    pub kind: Kind,
    /// Permission bits (`st_mode & 0o7777`).
    pub mode: u32,
    /// Modification time, nanoseconds since the epoch.
    pub mtime_ns: Option<i128>,
    /// Bytes of content (the link target for a symlink).
    pub size: u64,
    /// Index of its blob in the commit's tree (`files/<index>`); none for directories.
    pub blob: Option<usize>,
}

/// Something that was not captured, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub path: StoredPath,
    pub bytes: u64,
    pub why: String,
}

/// A path the command names as affected, as the checkpoint saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    pub path: StoredPath,
    /// `deleted`, `overwritten`, ... (`model::affected::Change::as_str`).
    pub change: String,
    pub recursive: bool,
}

/// A branch tip or stash entry git can restore.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GitRef {
    /// `refs/heads/NAME`, or the stash entry's message for a stash.
    pub name: String,
    pub sha: String,
}

/// What git itself can give back, recorded without touching the project's work tree,
/// index or refs.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct GitRecovery {
    /// The repository's top-level directory.
    pub top: String,
    pub git_dir: String,
    /// The branch HEAD is on and its tip (`None` when detached or unborn).
    pub head: Option<GitRef>,
    /// `git stash create`: the uncommitted tracked changes (index and work tree) as a
    /// stash commit in the project's object store; `git stash apply --index SHA`.
    pub uncommitted: Option<String>,
    /// Branch tips about to be deleted.
    pub branches: Vec<GitRef>,
    /// Stash entries about to be dropped, oldest first.
    pub stashes: Vec<GitRef>,
}

impl GitRecovery {
    pub fn is_empty(&self) -> bool {
        self.head.is_none()
            && self.uncommitted.is_none()
            && self.branches.is_empty()
            && self.stashes.is_empty()
    }
}

/// One checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub id: i64,
    /// Unix seconds.
    pub time: i64,
    pub project: String,
    pub cwd: Option<String>,
    pub command: String,
    pub roots: Vec<Root>,
    pub entries: Vec<Entry>,
    /// Paths the command will write that did not exist (created by it).
    pub absent: Vec<StoredPath>,
    pub skipped: Vec<Skipped>,
    /// What could not be checkpointed at all (run-time paths, paths outside the workspace
    /// and home), for the person.
    pub notes: Vec<String>,
    pub git: Option<GitRecovery>,
}

impl Manifest {
    /// Bytes of file content captured.
    pub fn bytes(&self) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.kind != Kind::Dir)
            .map(|e| e.size)
            .sum()
    }

    pub fn files(&self) -> usize {
        self.entries.iter().filter(|e| e.kind != Kind::Dir).count()
    }
}

/// `1234567` → `1.2 MB` (decimal units, as `du -h --si` and file managers show sizes).
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "kB", "MB", "GB", "TB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    if u == 0 {
        format!("{bytes} B")
    } else if v < 10.0 {
        format!("{v:.1} {}", UNITS[u])
    } else {
        format!("{v:.0} {}", UNITS[u])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_are_not_utf8_round_trip() {
        let raw = PathBuf::from(OsStr::from_bytes(b"/p/caf\xe9"));
        let s = StoredPath::of(&raw);
        assert!(s.0.starts_with("b64:"));
        assert_eq!(s.path(), raw);
        let plain = StoredPath::of(Path::new("/p/b64:x"));
        assert_eq!(plain.path(), Path::new("/p/b64:x"));
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human(999), "999 B");
        assert_eq!(human(2_100_000_000), "2.1 GB");
        assert_eq!(human(200_000_000), "200 MB");
        assert_eq!(human(52_428_800), "52 MB");
    }
}
