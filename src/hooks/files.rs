//! The file-write guard: where a file tool (Claude `Write`/`Edit`, Gemini `write_file`,
//! Codex `apply_patch`, Hermes `write_file`/`patch`, ...) is about to write, resolved as the
//! kernel will resolve it (`~`, the working directory, `..`, symlinks that exist), and
//! whether that place is protected (credentials, system config, shell startup files,
//! `.env*`, harness configs and hook settings, shellgate's own config, state and binary) or
//! outside the configured `write_roots`.

use std::path::{Path, PathBuf};

use super::Verdict;
use crate::Decision;
use crate::model::paths::catalog::{PathClass, Roots, classify};
use crate::model::paths::{fold, within};

/// Where the writes happen and what confines them.
#[derive(Debug, Clone, Default)]
pub struct WriteScope {
    pub cwd: Option<String>,
    pub home: Option<String>,
    pub hermes_home: Option<String>,
    /// When non-empty, every write must land inside one of these directories.
    pub write_roots: Vec<String>,
    /// shellgate's own executable: overwriting it switches the guard off.
    pub own_binary: Option<String>,
    /// The user's `protected_paths` (globs; a directory protects everything below it).
    pub protected: Vec<String>,
    /// Where this shellgate's own config and state are (the environment may move them).
    pub guard_paths: Vec<String>,
}

/// The one place the write guard classifies a path: the shared path catalog, plus
/// shellgate's own executable, config and state wherever they are (overwriting them
/// switches the guard off) and the user's `protected_paths`. `None` when the path may be
/// written without a person; otherwise what the path is, for the reason.
pub fn protection(path: &str, scope: &WriteScope) -> Option<&'static str> {
    let p = fold(path);
    let hits = |list: &[String]| {
        list.iter()
            .filter_map(|g| absolute(g, scope.cwd.as_deref(), scope.home.as_deref()))
            .any(|g| within(&p, &fold(&g)) || crate::glob::matches_ignore_case(&g, &p))
    };
    if scope.own_binary.as_deref().map(fold).as_deref() == Some(p.as_str())
        || hits(&scope.guard_paths)
    {
        return Some(PathClass::Guard.describe());
    }
    let roots = Roots {
        home: scope.home.as_deref(),
        hermes: scope.hermes_home.as_deref(),
        cwd: scope.cwd.as_deref(),
    };
    let class = classify(&p, roots).class;
    if class.is_protected() {
        return Some(class.describe());
    }
    hits(&scope.protected).then_some("a path protected by the config (protected_paths)")
}

/// `~`, `~/x` and `~user/x` expanded; a relative path joined to `cwd`. Not folded.
pub fn absolute(raw: &str, cwd: Option<&str>, home: Option<&str>) -> Option<String> {
    let expanded = if raw == "~" {
        home?.to_string()
    } else if let Some(rest) = raw.strip_prefix("~/") {
        format!("{}/{rest}", home?.trim_end_matches('/'))
    } else if let Some(rest) = raw.strip_prefix('~') {
        let (user, tail) = rest.split_once('/').unwrap_or((rest, ""));
        let dir = if user == "root" {
            "/root".to_string()
        } else {
            format!("/home/{user}")
        };
        format!("{dir}/{tail}")
    } else {
        raw.to_string()
    };
    if expanded.starts_with('/') {
        Some(expanded)
    } else {
        Some(format!("{}/{expanded}", cwd?.trim_end_matches('/')))
    }
}

/// Resolve symlinks that exist along `path` (absolute), with `..` taken after each link as
/// the kernel does. `None` when the links loop or nest too deep.
pub fn resolve_links(path: &str) -> Option<String> {
    let mut pending: Vec<String> = path
        .split('/')
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .rev()
        .collect();
    let mut out = PathBuf::from("/");
    let mut links = 0;
    while let Some(c) = pending.pop() {
        match c.as_str() {
            "." => continue,
            ".." => {
                out.pop();
                continue;
            }
            _ => {}
        }
        let next = out.join(&c);
        let is_link = std::fs::symlink_metadata(&next)
            .map(|m| m.file_type().is_symlink())
            .unwrap_or(false);
        if !is_link {
            out = next;
            continue;
        }
        links += 1;
        if links > 40 {
            return None;
        }
        let target = std::fs::read_link(&next).ok()?;
        let t = target.to_string_lossy().into_owned();
        if Path::new(&t).is_absolute() {
            out = PathBuf::from("/");
        }
        for part in t.split('/').filter(|p| !p.is_empty()).rev() {
            pending.push(part.to_string());
        }
    }
    Some(out.to_string_lossy().into_owned())
}

/// One written path, as given and as resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub given: String,
    /// `~`, cwd and `..` resolved without looking at the disk.
    pub lexical: Option<String>,
    /// Symlinks followed as well.
    pub real: Option<String>,
}

pub fn target(raw: &str, scope: &WriteScope) -> Target {
    let abs = absolute(raw, scope.cwd.as_deref(), scope.home.as_deref());
    Target {
        given: raw.to_string(),
        lexical: abs.as_deref().map(fold),
        real: abs.as_deref().and_then(resolve_links),
    }
}

/// Judge a set of writes: deny what leaves `write_roots`, ask for protected paths, allow
/// the rest. A path that cannot be resolved is asked about.
pub fn judge_writes(paths: &[String], scope: &WriteScope) -> Verdict {
    let mut deny: Vec<String> = Vec::new();
    let mut ask: Vec<String> = Vec::new();
    let roots: Vec<String> = scope
        .write_roots
        .iter()
        .filter_map(|r| absolute(r, scope.cwd.as_deref(), scope.home.as_deref()))
        .flat_map(|r| {
            let real = resolve_links(&r);
            [Some(fold(&r)), real].into_iter().flatten()
        })
        .collect();
    for raw in paths {
        let t = target(raw, scope);
        let (Some(lexical), Some(real)) = (&t.lexical, &t.real) else {
            ask.push(format!(
                "{raw} (its location could not be resolved: no working directory or home, or a symlink loop)"
            ));
            continue;
        };
        if !roots.is_empty() && !roots.iter().any(|r| within(real, r)) {
            deny.push(format!(
                "{raw} is outside write_roots ({})",
                scope.write_roots.join(", ")
            ));
            continue;
        }
        let found = protection(lexical, scope).or_else(|| protection(real, scope));
        if let Some(p) = found {
            let shown = if real != lexical {
                format!("{raw} (resolves to {real})")
            } else if raw != lexical {
                format!("{raw} ({lexical})")
            } else {
                raw.clone()
            };
            ask.push(format!("{shown} is {p}"));
        }
    }
    if !deny.is_empty() {
        return Verdict {
            decision: Decision::Deny,
            reason: super::clip(&format!("shellgate: deny — writing {}", deny.join("; "))),
        };
    }
    if !ask.is_empty() {
        return Verdict {
            decision: Decision::Ask,
            reason: super::clip(&format!("shellgate: ask — writing {}", ask.join("; "))),
        };
    }
    Verdict {
        decision: Decision::Allow,
        reason: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope() -> WriteScope {
        WriteScope {
            cwd: Some("/home/u/project".into()),
            home: Some("/home/u".into()),
            hermes_home: Some("/home/u/.hermes".into()),
            write_roots: Vec::new(),
            own_binary: Some("/usr/local/bin/shellgate".into()),
            protected: vec!["~/secrets".into(), "*.sqlite".into()],
            guard_paths: vec!["/srv/sg/config.toml".into()],
        }
    }

    fn decision(paths: &[&str], s: &WriteScope) -> Decision {
        let p: Vec<String> = paths.iter().map(|x| x.to_string()).collect();
        judge_writes(&p, s).decision
    }

    #[test]
    fn dot_dot_cannot_reach_a_private_key_unnoticed() {
        assert_eq!(
            decision(&["./../../../home/u/.ssh/id_rsa"], &scope()),
            Decision::Ask
        );
        assert_eq!(
            decision(&["~/.ssh/authorized_keys"], &scope()),
            Decision::Ask
        );
    }

    #[test]
    fn workspace_files_are_allowed() {
        assert_eq!(
            decision(&["src/main.rs", "/home/u/project/README.md"], &scope()),
            Decision::Allow
        );
    }

    #[test]
    fn harness_hook_settings_and_the_guard_itself_are_protected() {
        for p in [
            "~/.claude/settings.json",
            ".claude/settings.local.json",
            "/home/u/.codex/hooks.json",
            "/home/u/.gemini/settings.json",
            ".github/hooks/shellgate.json",
            "~/.hermes/config.yaml",
            "~/.config/shellgate/config.toml",
            "/usr/local/bin/shellgate",
            "/home/bob/.bashrc",
            "/root/.aws/credentials",
            ".env.local",
            "~/secrets/x",
            "data/app.sqlite",
            "/srv/sg/config.toml",
        ] {
            assert_eq!(decision(&[p], &scope()), Decision::Ask, "{p}");
        }
    }

    #[test]
    fn write_roots_confine_every_write() {
        let mut s = scope();
        s.write_roots = vec!["/home/u/project".into()];
        assert_eq!(decision(&["src/a.rs"], &s), Decision::Allow);
        assert_eq!(decision(&["/tmp/x"], &s), Decision::Deny);
        assert_eq!(decision(&["../other/x"], &s), Decision::Deny);
    }

    #[test]
    fn symlinks_are_followed_to_what_they_name() {
        let dir = std::env::temp_dir().join(format!("sg-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("proj")).ok();
        std::fs::create_dir_all(dir.join("home/.ssh")).ok();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("home/.ssh"), dir.join("proj/keys")).ok();
            std::os::unix::fs::symlink("../home/.bashrc", dir.join("proj/rc")).ok();
        }
        let d = dir.to_string_lossy().into_owned();
        let s = WriteScope {
            cwd: Some(format!("{d}/proj")),
            home: Some(format!("{d}/home")),
            ..WriteScope::default()
        };
        assert_eq!(decision(&["keys/id_ed25519"], &s), Decision::Ask);
        assert_eq!(decision(&["rc"], &s), Decision::Ask);
        assert_eq!(decision(&["notes.txt"], &s), Decision::Allow);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_symlink_loop_is_asked_about() {
        let dir = std::env::temp_dir().join(format!("sg-loop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).ok();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("a"), dir.join("a")).ok();
        let p = dir.join("a/x").to_string_lossy().into_owned();
        assert_eq!(decision(&[&p], &WriteScope::default()), Decision::Ask);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
