//! Running the system `git`: every call under a deadline (killed when it passes), with the
//! caller's `GIT_*` environment removed so nothing points git at another repository. The
//! shadow store's git reads no system or user config (no hooks, signing or credential
//! helpers); git run in the project keeps the user's config (what is ignored, as the real
//! command sees it) but never runs a file-system monitor or hooks, and never refreshes the
//! project's index (`GIT_OPTIONAL_LOCKS=0`).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Why a git call gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitError {
    /// No `git` on `PATH` (or it could not be started).
    Missing(String),
    /// It did not finish before the deadline and was killed.
    Timeout,
    /// It exited with a failure; the first line of what it said.
    Failed(String),
}

impl std::fmt::Display for GitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GitError::Missing(e) => write!(f, "git could not be run ({e}); install git"),
            GitError::Timeout => write!(f, "git did not finish in time"),
            GitError::Failed(e) => write!(f, "git failed: {e}"),
        }
    }
}

/// Whose repository a call works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repo {
    /// The shadow store: no system or user config.
    Shadow,
    /// The person's project: their config, no fsmonitor, no hooks, no index refresh.
    Project,
}

/// The git binary: `SHELLGATE_GIT` (for tests), else `git` on `PATH`.
pub fn binary() -> PathBuf {
    std::env::var_os("SHELLGATE_GIT")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("git"))
}

/// A git command for `repo`, run in `dir`.
pub fn command(repo: Repo, dir: Option<&Path>) -> Command {
    let mut c = Command::new(binary());
    for (k, _) in std::env::vars_os() {
        if k.to_string_lossy().starts_with("GIT_") {
            c.env_remove(k);
        }
    }
    c.env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0");
    match repo {
        Repo::Shadow => {
            c.env("GIT_CONFIG_NOSYSTEM", "1")
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .args(["-c", "core.hooksPath=/dev/null"]);
        }
        Repo::Project => {
            c.args([
                "-c",
                "core.fsmonitor=false",
                "-c",
                "core.hooksPath=/dev/null",
                "-c",
                "core.quotePath=false",
            ]);
        }
    }
    if let Some(d) = dir {
        c.current_dir(d);
    }
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Start `c`.
pub fn spawn(c: &mut Command) -> Result<Child, GitError> {
    c.spawn().map_err(|e| GitError::Missing(e.to_string()))
}

/// Read a pipe to the end on a thread.
fn drain<R: Read + Send + 'static>(r: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut r) = r {
            let _ = r.read_to_end(&mut buf);
        }
        buf
    })
}

/// Wait for `child` until `deadline`, collecting stdout and stderr; kill it when the
/// deadline passes. stdin, if piped, must already be closed by the caller.
pub fn finish(mut child: Child, deadline: Instant) -> Result<Vec<u8>, GitError> {
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let mut pause = Duration::from_micros(200);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(GitError::Timeout);
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            Err(e) => return Err(GitError::Failed(e.to_string())),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    if status.success() {
        Ok(stdout)
    } else {
        let said = String::from_utf8_lossy(&stderr);
        let first = said
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no message")
            .trim()
            .to_string();
        Err(GitError::Failed(format!("{first} ({status})")))
    }
}

/// Run git with `args` for `repo` in `dir`, feeding `input` on stdin; its stdout.
pub fn run(
    repo: Repo,
    dir: Option<&Path>,
    args: &[&str],
    input: Option<&[u8]>,
    deadline: Instant,
) -> Result<Vec<u8>, GitError> {
    run_env(repo, dir, args, &[], input, deadline)
}

/// As [`run`], with extra environment variables.
pub fn run_env(
    repo: Repo,
    dir: Option<&Path>,
    args: &[&str],
    env: &[(&str, &std::ffi::OsStr)],
    input: Option<&[u8]>,
    deadline: Instant,
) -> Result<Vec<u8>, GitError> {
    if let Some(d) = dir
        && !d.is_dir()
    {
        return Err(GitError::Failed(format!(
            "{} is not a directory",
            d.display()
        )));
    }
    let mut c = command(repo, dir);
    c.args(args);
    for (k, v) in env {
        c.env(k, v);
    }
    if input.is_some() {
        c.stdin(Stdio::piped());
    }
    let mut child = spawn(&mut c)?;
    if let Some(data) = input
        && let Some(mut stdin) = child.stdin.take()
    {
        let data = data.to_vec();
        // A writer thread: a large input must not block while git fills its stdout.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }
    finish(child, deadline)
}

/// stdout as text, one trailing newline removed.
pub fn text(out: Vec<u8>) -> String {
    let mut s = String::from_utf8_lossy(&out).into_owned();
    if s.ends_with('\n') {
        s.pop();
    }
    s
}

/// The installed git's version line, or why git cannot be used.
pub fn version(deadline: Instant) -> Result<String, GitError> {
    run(Repo::Shadow, None, &["--version"], None, deadline).map(text)
}

/// Undo git's C-style quoting of a path (`"a\tb"`), as `git clean -n` prints names with
/// control characters, quotes or backslashes; other names are returned as they are.
pub fn unquote(s: &str) -> Vec<u8> {
    let Some(body) = s.strip_prefix('"').and_then(|b| b.strip_suffix('"')) else {
        return s.as_bytes().to_vec();
    };
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        i += 2;
        let plain = match c {
            b'a' => 7,
            b'b' => 8,
            b't' => b'\t',
            b'n' => b'\n',
            b'v' => 11,
            b'f' => 12,
            b'r' => b'\r',
            b'0'..=b'3'
                if b.get(i..i + 2)
                    .is_some_and(|d| d.iter().all(|x| (b'0'..=b'7').contains(x))) =>
            {
                let v = (c - b'0') * 64 + (b[i] - b'0') * 8 + (b[i + 1] - b'0');
                i += 2;
                v
            }
            other => other,
        };
        out.push(plain);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unquotes_c_style_names() {
        assert_eq!(unquote("plain name"), b"plain name");
        assert_eq!(unquote("\"a\\tb\""), b"a\tb");
        assert_eq!(unquote("\"q\\\"x\\\\\""), b"q\"x\\");
        assert_eq!(unquote("\"\\303\\251\""), "é".as_bytes());
    }
}
