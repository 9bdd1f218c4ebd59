//! Checkpoints against real files and the real git: each source of affected paths, in a
//! directory with git and one without; the real command runs with bash, then `undo`
//! must bring back every byte, mode and link.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use shellgate::checkpoint::{self, Settings, restore};
use shellgate::model::affected::affected;
use shellgate::{Context, analyze};

/// A throwaway home with a project in it.
struct Fixture {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
    settings: Settings,
}

fn fixture(git: bool) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = home.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let settings = Settings::new(home.join(".local/state/shellgate/checkpoints"));
    let f = Fixture {
        _tmp: tmp,
        home,
        project,
        settings,
    };
    if git {
        f.sh("git init -q -b main . && git config user.email t@example.com && git config user.name t");
    }
    f
}

/// Every entry below `dir`: kind, mode and content (a link's target).
fn tree(dir: &Path) -> BTreeMap<PathBuf, (char, u32, Vec<u8>)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            let m = std::fs::symlink_metadata(&p).unwrap();
            let mode = m.permissions().mode() & 0o7777;
            let rel = p.strip_prefix(dir).unwrap().to_path_buf();
            if m.file_type().is_symlink() {
                use std::os::unix::ffi::OsStrExt;
                let t = std::fs::read_link(&p).unwrap();
                out.insert(rel, ('l', 0, t.as_os_str().as_bytes().to_vec()));
            } else if m.is_dir() {
                out.insert(rel, ('d', mode, Vec::new()));
                stack.push(p);
            } else {
                out.insert(rel, ('f', mode, std::fs::read(&p).unwrap()));
            }
        }
    }
    out
}

impl Fixture {
    fn sh(&self, cmd: &str) {
        let out = Command::new("bash")
            .arg("-c")
            .arg(cmd)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .output()
            .unwrap();
        assert!(out.status.success(), "{cmd}: {}", String::from_utf8_lossy(&out.stderr));
    }

    fn write(&self, rel: &str, content: &[u8], mode: u32) {
        let p = self.project.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, content).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    fn ctx(&self) -> Context {
        Context::new(
            Some(self.project.to_string_lossy().into_owned()),
            Some(self.home.to_string_lossy().into_owned()),
            Some("user".into()),
        )
    }

    /// Take checkpoint `id` of what `cmd` affects.
    fn checkpoint(&self, cmd: &str, id: i64) -> (checkpoint::Shadow, checkpoint::Manifest) {
        let ctx = self.ctx();
        let a = analyze(cmd, &ctx);
        let items = affected(&a.script, ctx.home.as_deref());
        let scope = checkpoint::scope(&self.project, ctx.home.as_deref(), None, &self.settings);
        let deadline = Instant::now() + Duration::from_secs(30);
        let plan = checkpoint::plan(&items, &scope, &self.settings, deadline);
        let meta = checkpoint::Meta {
            id,
            time: 0,
            cwd: ctx.cwd.as_deref(),
            command: cmd,
        };
        let (shadow, _, m) = checkpoint::write(plan, &scope, meta, &self.settings, deadline).unwrap();
        (shadow, m)
    }

    /// Checkpoint, run the command for real, check it changed something, undo, and
    /// check the project is back byte for byte.
    fn round_trip(&self, cmd: &str) -> restore::UndoPlan {
        let before = tree(&self.project);
        let (shadow, _) = self.checkpoint(cmd, 1);
        self.sh(cmd);
        assert_ne!(tree(&self.project), before, "`{cmd}` changed nothing");
        let deadline = Instant::now() + Duration::from_secs(30);
        let plan = restore::inspect(&shadow, 1, &BTreeMap::new(), deadline).unwrap();
        let done = restore::apply(&shadow, &plan, false, deadline);
        assert!(done.problems.is_empty(), "{cmd}: {:?}", done.problems);
        assert_eq!(tree(&self.project), before, "`{cmd}` was not undone");
        plan
    }
}

fn build_dir(f: &Fixture) {
    f.write("build/app.o", b"\x7fELF\x00binary\xff", 0o644);
    f.write("build/run.sh", b"#!/bin/sh\necho hi\n", 0o755);
    f.write("build/deep/x/y.txt", b"deep", 0o600);
    std::os::unix::fs::symlink("app.o", f.project.join("build/link")).unwrap();
    std::fs::create_dir_all(f.project.join("build/empty")).unwrap();
    std::fs::set_permissions(f.project.join("build/deep"), std::fs::Permissions::from_mode(0o750)).unwrap();
}

#[test]
fn recursive_delete_is_undone_byte_for_byte_without_git() {
    let f = fixture(false);
    build_dir(&f);
    f.round_trip("rm -rf ./build");
}

#[test]
fn recursive_delete_is_undone_byte_for_byte_in_a_repository() {
    let f = fixture(true);
    build_dir(&f);
    f.write("src/main.rs", b"fn main() {}\n", 0o644);
    f.sh("git add -A && git commit -qm init");
    f.round_trip("rm -rf ./build src");
}
