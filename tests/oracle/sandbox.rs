//! The sandbox bash runs in: bubblewrap with private mount, network, pid, ipc and uts
//! namespaces, an unprivileged user (so process limits hold), a root filesystem holding only
//! bash, its libraries, `/etc/passwd` and stub programs, and a throwaway home. Every external
//! command reaches `command_not_found_handle`, which appends its argv to a per-case log in one
//! write; builtins that matter are disabled so they are logged too.

use std::fmt::Write as _;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where the real bash lives inside the sandbox (not on any PATH).
const BASH: &str = "/opt/oracle/bash";
/// Builtins disabled in every case so that they reach `command_not_found_handle`.
pub(crate) const DISABLED: &[&str] = &[
    "echo", "printf", "true", "false", "pwd", "kill", "type", "hash", "times", "umask", "ulimit",
    "help", "history", "fc", "logout", "suspend", "disown", "jobs", "fg", "bg", "wait",
];
/// Disabled builtins the handler still runs (in its own forked child, so only their output and
/// exit status matter): command substitutions and conditions then behave as in real bash.
const RERUN: &[&str] = &[
    "echo", "printf", "true", "false", "pwd", "type", "hash", "times", "umask",
];
/// Seconds one case may run before its process group is killed.
const CASE_SECONDS: u32 = 4;

/// What bash did for one case.
#[derive(Debug, Clone, Default)]
pub(crate) struct Run {
    /// Every argv that reached the handler, in log order.
    pub argvs: Vec<Vec<String>>,
    /// The case was killed by the watchdog (it ran longer than `CASE_SECONDS`).
    pub timed_out: bool,
    /// A log record could not be read (a write split by a concurrent writer).
    pub corrupt: bool,
}

/// A prepared sandbox root, reusable by many batches.
pub(crate) struct Sandbox {
    root: tempfile::TempDir,
    /// Run bwrap as this unprivileged uid (when the test runs as root).
    drop_to: Option<u32>,
}

fn fail(msg: String) -> String {
    format!("the execution oracle's sandbox cannot start: {msg}")
}

/// Shared libraries bash needs, from `ldd`.
fn bash_libs(bash: &Path) -> Result<Vec<PathBuf>, String> {
    let out = Command::new("ldd")
        .arg(bash)
        .output()
        .map_err(|e| fail(format!("ldd: {e}")))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut libs = Vec::new();
    for line in text.lines() {
        for tok in line.split_whitespace() {
            if tok.starts_with('/') {
                libs.push(PathBuf::from(tok));
            }
        }
    }
    if libs.is_empty() {
        return Err(fail(format!(
            "ldd found no libraries for {}",
            bash.display()
        )));
    }
    Ok(libs)
}

/// The `BASH_ENV` file every case's bash reads first.
fn rc_file() -> String {
    let rerun = RERUN
        .iter()
        .map(|b| format!("'{b}'"))
        .collect::<Vec<_>>()
        .join("|");
    let disabled = DISABLED
        .iter()
        .map(|b| format!("'{b}'"))
        .collect::<Vec<_>>()
        .join(" ");
    format!(
        r#"command_not_found_handle() {{
  local __a __r="$#"
  for __a in "$@"; do __r+=" ${{#__a}}:$__a"; done
  enable printf echo true false pwd type hash times umask
  printf '%s\n' "$__r" >> "$OLOG"
  case "${{1##*/}}" in
    {rerun}) "${{1##*/}}" "${{@:2}}"; return ;;
    bash|sh) BASH_ENV=/opt/oracle/rc exec -a "${{1##*/}}" {BASH} "${{@:2}}" ;;
  esac
  return 0
}}
enable -n {disabled}
"#
    )
}

/// The driver: reads NUL-separated cases, runs each in its own bash with a watchdog.
fn driver() -> String {
    format!(
        r#"set -m
i=0
while IFS= read -r -d '' c; do
  l=/w/log/$i
  : > "$l"
  ( ulimit -t {CASE_SECONDS} -v 4000000 -f 20000 -u 200
    cd /home/user/project
    OLOG="$l" BASH_ENV=/opt/oracle/rc exec -a bash {BASH} --norc --noprofile -c "$c" ) </dev/null >/dev/null 2>/dev/null &
  p=$!
  ( read -t {CASE_SECONDS} <> <(:); kill -9 -$p 2>/dev/null && : > "$l.timeout" ) >/dev/null 2>&1 &
  w=$!
  wait $p 2>/dev/null
  kill -9 -$w -$p 2>/dev/null
  i=$((i+1))
done < /w/cases
"#
    )
}

impl Sandbox {
    /// Build the sandbox root. `stubs` are absolute program paths (`/bin/rm`) that must exist
    /// so that bash executes them (and the stub logs them) instead of failing.
    pub(crate) fn new(stubs: &[String]) -> Result<Sandbox, String> {
        which("bwrap").ok_or_else(|| {
            fail("`bwrap` (Debian package bubblewrap) is not installed; .ci/run installs it".into())
        })?;
        let host_bash = which("bash").ok_or_else(|| fail("bash is not installed".into()))?;
        let root = tempfile::Builder::new()
            .prefix("sg-oracle-")
            .tempdir()
            .map_err(|e| fail(format!("tempdir: {e}")))?;
        let r = root.path();
        let mk = |p: &str| std::fs::create_dir_all(r.join(p.trim_start_matches('/')));
        for d in [
            "opt/oracle",
            "etc",
            "home",
            "tmp",
            "proc",
            "dev",
            "w",
            "usr/bin",
            "usr/sbin",
            "usr/local/bin",
            "usr/local/sbin",
            "bin",
            "sbin",
        ] {
            mk(d).map_err(|e| fail(format!("mkdir {d}: {e}")))?;
        }
        let copy = |from: &Path, to: &str| -> Result<(), String> {
            let dest = r.join(to.trim_start_matches('/'));
            if let Some(p) = dest.parent() {
                std::fs::create_dir_all(p).map_err(|e| fail(format!("mkdir: {e}")))?;
            }
            std::fs::copy(from, &dest)
                .map(|_| ())
                .map_err(|e| fail(format!("copy {}: {e}", from.display())))
        };
        copy(&host_bash, BASH)?;
        for lib in bash_libs(&host_bash)? {
            copy(&lib, &lib.to_string_lossy())?;
        }
        let write = |to: &str, text: &str, mode: u32| -> Result<(), String> {
            let dest = r.join(to.trim_start_matches('/'));
            std::fs::write(&dest, text).map_err(|e| fail(format!("write {to}: {e}")))?;
            std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(mode))
                .map_err(|e| fail(format!("chmod {to}: {e}")))
        };
        write("/opt/oracle/rc", &rc_file(), 0o644)?;
        write("/opt/oracle/driver", &driver(), 0o644)?;
        write(
            "/opt/oracle/stub",
            &format!("#!{BASH}\ncommand_not_found_handle \"$0\" \"$@\"\n"),
            0o755,
        )?;
        write(
            "/etc/passwd",
            "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:user:/home/user:/bin/bash\n",
            0o644,
        )?;
        write("/etc/group", "root:x:0:\nuser:x:1000:\n", 0o644)?;
        for s in stubs.iter().map(String::as_str).chain(["/bin/rm"]) {
            let rel = s.trim_start_matches('/');
            if rel.is_empty() || rel.contains("..") || rel.starts_with("opt/oracle") {
                continue;
            }
            let dest = r.join(rel);
            if dest.exists() || dest.symlink_metadata().is_ok() {
                continue;
            }
            if let Some(p) = dest.parent()
                && std::fs::create_dir_all(p).is_err()
            {
                continue;
            }
            // A name that cannot be a stub (a directory on the way) is skipped: bash then
            // reports it missing, which the oracle sees as a command it never ran.
            let _ = symlink("/opt/oracle/stub", &dest);
        }
        let drop_to = if unsafe_euid_is_root() {
            Some(60_000)
        } else {
            None
        };
        let sb = Sandbox { root, drop_to };
        // Prove the sandbox starts and logs before any case relies on it.
        let probe = sb.run_batch(&["rm -rf / && /bin/rm -rf ~".to_string()], 0)?;
        let got = probe.first().map(|r| r.argvs.clone()).unwrap_or_default();
        let want = vec![
            vec!["rm".to_string(), "-rf".into(), "/".into()],
            vec!["/bin/rm".to_string(), "-rf".into(), "/home/user".into()],
        ];
        if got != want {
            return Err(fail(format!(
                "probe `rm -rf / && /bin/rm -rf ~` logged {got:?}, expected {want:?}"
            )));
        }
        Ok(sb)
    }

    /// Run `cases` in one bubblewrap, one bash per case; `worker` picks the uid.
    pub(crate) fn run_batch(&self, cases: &[String], worker: u32) -> Result<Vec<Run>, String> {
        let w = tempfile::Builder::new()
            .prefix("sg-oracle-w-")
            .tempdir()
            .map_err(|e| fail(format!("tempdir: {e}")))?;
        let wp = w.path();
        let home = wp.join("home");
        for d in ["log", "home/user/project"] {
            std::fs::create_dir_all(wp.join(d)).map_err(|e| fail(format!("mkdir: {e}")))?;
        }
        let mut buf = Vec::new();
        if let Some(c) = cases.iter().find(|c| c.contains('\0')) {
            return Err(fail(format!(
                "a case holds a NUL byte, which bash cannot receive: {c:?}"
            )));
        }
        for c in cases {
            buf.extend_from_slice(c.as_bytes());
            buf.push(0);
        }
        std::fs::write(wp.join("cases"), &buf).map_err(|e| fail(format!("write cases: {e}")))?;
        let uid = self.drop_to.map(|u| u + worker);
        if let Some(u) = uid {
            for p in [
                wp.to_path_buf(),
                wp.join("log"),
                home.clone(),
                home.join("user"),
                home.join("user/project"),
            ] {
                chown(&p, u)?;
            }
        }
        let r = self.root.path();
        let mut cmd = match uid {
            Some(u) => {
                let mut c = Command::new("setpriv");
                c.arg(format!("--reuid={u}"))
                    .arg(format!("--regid={u}"))
                    .arg("--clear-groups")
                    .arg("bwrap");
                c
            }
            None => Command::new("bwrap"),
        };
        cmd.arg("--unshare-all")
            .arg("--die-with-parent")
            .arg("--new-session")
            .arg("--clearenv")
            .args(["--setenv", "PATH", "/nonexistent"])
            .args(["--setenv", "HOME", "/home/user"])
            .args(["--setenv", "USER", "user"])
            .args(["--setenv", "LOGNAME", "user"])
            .args(["--setenv", "TMPDIR", "/tmp"])
            .args(["--setenv", "LC_ALL", "C"])
            .arg("--ro-bind")
            .arg(r)
            .arg("/")
            .args(["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"])
            .arg("--bind")
            .arg(wp)
            .arg("/w")
            .arg("--bind")
            .arg(&home)
            .arg("/home")
            .args(["--chdir", "/home/user/project"])
            .args([BASH, "--norc", "--noprofile", "/opt/oracle/driver"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .map_err(|e| fail(format!("cannot run bwrap: {e}")))?;
        // Every case has its own watchdog; this bound only catches a wedged driver.
        let limit = Duration::from_secs(60 + cases.len() as u64 * (CASE_SECONDS as u64 + 1));
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break s,
                Ok(None) if start.elapsed() > limit => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(fail(format!(
                        "a batch of {} cases did not finish",
                        cases.len()
                    )));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(e) => return Err(fail(format!("waiting for bwrap: {e}"))),
            }
        };
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            use std::io::Read as _;
            let _ = e.read_to_string(&mut err);
        }
        if !status.success() {
            return Err(fail(format!("bwrap exited with {status}: {}", err.trim())));
        }
        let mut runs = Vec::with_capacity(cases.len());
        for i in 0..cases.len() {
            let log = wp.join("log").join(i.to_string());
            let bytes = std::fs::read(&log).map_err(|e| {
                fail(format!(
                    "case {i} left no log ({e}); bwrap said: {}",
                    err.trim()
                ))
            })?;
            let mut run = parse_log(&bytes);
            run.timed_out = wp.join("log").join(format!("{i}.timeout")).exists();
            runs.push(run);
        }
        Ok(runs)
    }
}

/// Parse `argc len:bytes len:bytes ...\n` records.
pub(crate) fn parse_log(bytes: &[u8]) -> Run {
    let mut run = Run::default();
    let mut i = 0;
    let num = |i: &mut usize, end: u8| -> Option<usize> {
        let s = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == s || bytes.get(*i) != Some(&end) {
            return None;
        }
        let n = std::str::from_utf8(&bytes[s..*i]).ok()?.parse().ok()?;
        *i += 1;
        Some(n)
    };
    while i < bytes.len() {
        let rec = (|| {
            let argc = {
                let s = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                std::str::from_utf8(&bytes[s..i])
                    .ok()?
                    .parse::<usize>()
                    .ok()?
            };
            let mut argv = Vec::with_capacity(argc);
            for _ in 0..argc {
                if bytes.get(i) != Some(&b' ') {
                    return None;
                }
                i += 1;
                let len = num(&mut i, b':')?;
                let a = bytes.get(i..i + len)?;
                argv.push(String::from_utf8_lossy(a).into_owned());
                i += len;
            }
            if bytes.get(i) != Some(&b'\n') {
                return None;
            }
            i += 1;
            Some(argv)
        })();
        match rec {
            Some(a) => run.argvs.push(a),
            None => {
                run.corrupt = true;
                break;
            }
        }
    }
    run
}

fn which(prog: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(prog))
        .find(|p| p.is_file())
}

fn unsafe_euid_is_root() -> bool {
    // No libc dependency: /proc/self/status carries the effective uid.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

fn chown(p: &Path, uid: u32) -> Result<(), String> {
    std::os::unix::fs::chown(p, Some(uid), Some(uid))
        .map_err(|e| fail(format!("chown {}: {e}", p.display())))
}

/// Render an argv for messages.
pub(crate) fn show(argv: &[String]) -> String {
    let mut s = String::new();
    for (i, a) in argv.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+~".contains(c))
        {
            s.push_str(a);
        } else {
            let _ = write!(s, "{a:?}");
        }
    }
    s
}
