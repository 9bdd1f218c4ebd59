//! `shellgate install|uninstall HARNESS [--user|--project] [--dry-run]`: add or remove
//! shellgate's hook in a harness's settings file. Keeps a backup, writes atomically,
//! prints a diff for `--dry-run`, and never overwrites a file it cannot parse.

use std::path::{Path, PathBuf};

use clap::Args;

use super::hook::HarnessArg;
use super::{EXIT_ALLOW, EXIT_INTERNAL, EXIT_USAGE};
use shellgate::hooks::Harness;
use shellgate::hooks::install::{
    Scope, default_scope, hook_command, install, settings_path, uninstall,
};

#[derive(Args, Debug)]
pub(super) struct InstallArgs {
    /// The harness to hook: claude, codex, gemini, copilot, hermes, qwen, crush, opencode, pi,
    /// amp or cursor.
    #[arg(value_enum)]
    harness: HarnessArg,
    /// Edit the user's own settings (the default, except for Copilot).
    #[arg(long, conflicts_with = "project")]
    user: bool,
    /// Edit the project's settings in --dir (the default for Copilot).
    #[arg(long)]
    project: bool,
    /// The project directory for --project (default: the current directory).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Print the change as a diff and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// The shellgate binary the hook runs (default: this one, by absolute path).
    #[arg(long, value_name = "PATH")]
    binary: Option<PathBuf>,
}

struct Target {
    harness: Harness,
    path: PathBuf,
    before: Option<String>,
}

fn target(a: &InstallArgs) -> Result<Target, String> {
    let harness = a.harness.harness();
    let scope = if a.project {
        Scope::Project
    } else if a.user {
        Scope::User
    } else {
        default_scope(harness)
    };
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let hermes_home = std::env::var_os("HERMES_HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let project = match &a.dir {
        Some(d) => d.clone(),
        None => std::env::current_dir()
            .map_err(|e| format!("cannot read the current directory: {e}"))?,
    };
    let path = settings_path(
        harness,
        scope,
        home.as_deref(),
        &project,
        hermes_home.as_deref(),
    )?;
    let before = match std::fs::read(&path) {
        Ok(bytes) => Some(
            String::from_utf8(bytes)
                .map_err(|_| format!("{} is not UTF-8 text; it was not changed", path.display()))?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    Ok(Target {
        harness,
        path,
        before,
    })
}

fn binary(a: &InstallArgs) -> Result<String, String> {
    let p = match &a.binary {
        Some(b) => b.clone(),
        None => {
            std::env::current_exe().map_err(|e| format!("cannot find the shellgate binary: {e}"))?
        }
    };
    let abs = std::fs::canonicalize(&p)
        .map_err(|e| format!("the shellgate binary {} is not usable: {e}", p.display()))?;
    Ok(abs.to_string_lossy().into_owned())
}

fn diff(path: &Path, before: &str, after: &str) -> String {
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .header(
            &format!("{} (now)", path.display()),
            &format!("{} (after)", path.display()),
        )
        .to_string()
}

/// Write `text` to `path` atomically, after copying the old file to `<path>.shellgate.bak`.
fn write(path: &Path, before: Option<&str>, text: Option<&str>) -> Result<Option<PathBuf>, String> {
    let backup = match before {
        Some(b) => {
            let mut name = path.as_os_str().to_owned();
            name.push(".shellgate.bak");
            let bak = PathBuf::from(name);
            std::fs::write(&bak, b)
                .map_err(|e| format!("cannot write the backup {}: {e}", bak.display()))?;
            Some(bak)
        }
        None => None,
    };
    match text {
        None => std::fs::remove_file(path)
            .map_err(|e| format!("cannot remove {}: {e}", path.display()))?,
        Some(t) => {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            let mut tmp = path.as_os_str().to_owned();
            tmp.push(format!(".shellgate-tmp-{}", std::process::id()));
            let tmp = PathBuf::from(tmp);
            std::fs::write(&tmp, t).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
            if let Ok(meta) = std::fs::metadata(path) {
                let _ = std::fs::set_permissions(&tmp, meta.permissions());
            }
            std::fs::rename(&tmp, path)
                .map_err(|e| format!("cannot replace {}: {e}", path.display()))?;
        }
    }
    Ok(backup)
}

fn finish(t: &Target, after: Option<String>, dry_run: bool, verb: &str) -> Result<(), String> {
    let before = t.before.as_deref().unwrap_or("");
    if after.as_deref() == t.before.as_deref() {
        println!(
            "shellgate: the hook is already {verb} for {} ({}); nothing changed",
            t.harness.name(),
            t.path.display()
        );
        return Ok(());
    }
    if dry_run {
        print!("{}", diff(&t.path, before, after.as_deref().unwrap_or("")));
        if after.is_none() {
            println!("(the file would be removed)");
        }
        return Ok(());
    }
    let backup = write(&t.path, t.before.as_deref(), after.as_deref())?;
    let what = if after.is_none() {
        "removed"
    } else {
        "updated"
    };
    match backup {
        Some(b) => println!(
            "shellgate: {verb} the hook for {}: {what} {} (backup: {})",
            t.harness.name(),
            t.path.display(),
            b.display()
        ),
        None => println!(
            "shellgate: {verb} the hook for {}: created {}",
            t.harness.name(),
            t.path.display()
        ),
    }
    Ok(())
}

fn report(r: Result<(), (i32, String)>) -> i32 {
    match r {
        Ok(()) => EXIT_ALLOW,
        Err((code, msg)) => {
            eprintln!("shellgate: {msg}");
            code
        }
    }
}

pub(super) fn run_install(a: InstallArgs) -> i32 {
    report((|| {
        let t = target(&a).map_err(|e| (EXIT_USAGE, e))?;
        let cmd = hook_command(&binary(&a).map_err(|e| (EXIT_USAGE, e))?, t.harness);
        let after = install(t.harness, t.before.as_deref(), &cmd).map_err(|e| {
            (
                EXIT_USAGE,
                format!(
                    "{} was not changed: {e}; fix the file by hand, then run install again",
                    t.path.display()
                ),
            )
        })?;
        finish(&t, Some(after), a.dry_run, "installed").map_err(|e| (EXIT_INTERNAL, e))
    })())
}

pub(super) fn run_uninstall(a: InstallArgs) -> i32 {
    report((|| {
        let t = target(&a).map_err(|e| (EXIT_USAGE, e))?;
        let Some(before) = t.before.as_deref() else {
            println!(
                "shellgate: {} does not exist; nothing to uninstall",
                t.path.display()
            );
            return Ok(());
        };
        let after = uninstall(t.harness, before).map_err(|e| {
            (
                EXIT_USAGE,
                format!("{} was not changed: {e}", t.path.display()),
            )
        })?;
        finish(&t, after, a.dry_run, "uninstalled").map_err(|e| (EXIT_INTERNAL, e))
    })())
}
