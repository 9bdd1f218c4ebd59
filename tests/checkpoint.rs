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
    next: std::cell::Cell<i64>,
}

/// Two trees are equal; the difference named by path, not dumped.
fn same(
    now: &BTreeMap<PathBuf, (char, u32, Vec<u8>)>,
    want: &BTreeMap<PathBuf, (char, u32, Vec<u8>)>,
    cmd: &str,
) {
    let mut diff = Vec::new();
    for (p, v) in want {
        match now.get(p) {
            None => diff.push(format!("missing {}", p.display())),
            Some(n) if n != v => diff.push(format!(
                "differs {} (kind {}/{}, mode {:o}/{:o}, {} / {} bytes)",
                p.display(),
                n.0,
                v.0,
                n.1,
                v.1,
                n.2.len(),
                v.2.len()
            )),
            _ => {}
        }
    }
    for p in now.keys().filter(|p| !want.contains_key(*p)) {
        diff.push(format!("extra {}", p.display()));
    }
    assert!(diff.is_empty(), "`{cmd}` was not undone: {diff:?}");
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
        next: std::cell::Cell::new(0),
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
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
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
        assert!(
            out.status.success(),
            "{cmd}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
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
        let (shadow, _, m) =
            checkpoint::write(plan, &scope, meta, &self.settings, deadline).unwrap();
        (shadow, m)
    }

    /// Checkpoint, run the command for real, check it changed something, undo, and
    /// check the project is back byte for byte.
    fn round_trip(&self, cmd: &str) -> restore::UndoPlan {
        let before = tree(&self.project);
        let id = self.next.get() + 1;
        self.next.set(id);
        let (shadow, m) = self.checkpoint(cmd, id);
        let (shadow, m) = (shadow, m);
        self.sh(cmd);
        assert!(tree(&self.project) != before, "`{cmd}` changed nothing");
        let deadline = Instant::now() + Duration::from_secs(30);
        // What a front end records once the command has run.
        let after = restore::after(&m, deadline).unwrap();
        let plan = restore::inspect(&shadow, id, &after, deadline).unwrap();
        let done = restore::apply(&shadow, &plan, false, deadline);
        assert!(done.problems.is_empty(), "{cmd}: {:?}", done.problems);
        same(&tree(&self.project), &before, cmd);
        plan
    }
}

fn build_dir(f: &Fixture) {
    f.write("build/app.o", b"\x7fELF\x00binary\xff", 0o644);
    f.write("build/run.sh", b"#!/bin/sh\necho hi\n", 0o755);
    f.write("build/deep/x/y.txt", b"deep", 0o600);
    std::os::unix::fs::symlink("app.o", f.project.join("build/link")).unwrap();
    std::fs::create_dir_all(f.project.join("build/empty")).unwrap();
    std::fs::set_permissions(
        f.project.join("build/deep"),
        std::fs::Permissions::from_mode(0o750),
    )
    .unwrap();
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

fn both(test: impl Fn(&Fixture)) {
    for git in [false, true] {
        let f = fixture(git);
        test(&f);
    }
}

#[test]
fn truncating_redirects_and_tee_are_undone() {
    both(|f| {
        f.write("notes.txt", b"keep me\n", 0o640);
        f.write("data.csv", b"a,b\n1,2\n", 0o644);
        f.round_trip("echo new > notes.txt && echo x | tee data.csv >/dev/null");
    });
}

#[test]
fn moves_copies_install_and_dd_are_undone() {
    both(|f| {
        f.write("a.txt", b"source a\n", 0o644);
        f.write("b.txt", b"target b\n", 0o600);
        f.write("docs/a.txt", b"old docs copy\n", 0o644);
        f.write("bin/tool", b"old tool\n", 0o755);
        f.write("disk.img", &[7u8; 1024], 0o644);
        f.round_trip("cp b.txt docs/ && mv a.txt b.txt");
        f.round_trip("install -m 700 docs/a.txt bin/tool");
        f.round_trip("dd if=/dev/zero of=disk.img bs=512 count=1 status=none");
    });
}

#[test]
fn in_place_edits_and_truncate_are_undone() {
    both(|f| {
        f.write("src/a.py", b"x = 1\n", 0o644);
        f.write("src/b.py", b"y = 1\n", 0o755);
        f.write("app.log", b"line\n".repeat(100).as_slice(), 0o644);
        f.round_trip("sed -i 's/1/2/' src/a.py && perl -pi -e 's/1/3/' src/b.py");
        f.round_trip("truncate -s 0 app.log");
    });
}

#[test]
fn globs_and_find_selections_are_undone() {
    both(|f| {
        f.write("out/a.o", b"a", 0o644);
        f.write("out/b.o", b"b", 0o644);
        f.write("out/keep.c", b"c", 0o644);
        f.write("py/x/__pycache__/m.pyc", b"pyc", 0o644);
        f.write("py/x/m.py", b"py", 0o644);
        f.round_trip("rm out/*.o");
        f.round_trip("find py -name '*.pyc' -delete");
        f.round_trip("find out -type f -exec rm -f {} +");
    });
}

#[test]
fn git_clean_is_undone() {
    let f = fixture(true);
    f.write("tracked.txt", b"t\n", 0o644);
    f.write(".gitignore", b"*.log\n", 0o644);
    f.sh("git add -A && git commit -qm init");
    f.write("scratch.txt", b"untracked\n", 0o600);
    f.write("tmp/dir/file", b"in an untracked dir\n", 0o644);
    f.write("debug.log", b"ignored\n", 0o644);
    let plan = f.round_trip("git clean -fdx");
    assert!(
        plan.items
            .iter()
            .any(|i| i.entry.path.shown().ends_with("debug.log"))
    );
}

#[test]
fn git_checkout_restore_and_reset_hard_are_undone() {
    let f = fixture(true);
    f.write("a.txt", b"committed a\n", 0o644);
    f.write("src/b.txt", b"committed b\n", 0o644);
    f.sh("git add -A && git commit -qm one");
    f.write("a.txt", b"uncommitted a\n", 0o644);
    f.write("src/b.txt", b"uncommitted b\n", 0o644);
    f.round_trip("git checkout -- a.txt");
    f.round_trip("git restore src");
    f.write("new.txt", b"staged new file\n", 0o644);
    f.sh("git add new.txt");
    f.round_trip("git reset --hard");
}

#[test]
fn reset_hard_to_an_older_commit_moves_the_branch_back() {
    let f = fixture(true);
    f.write("a.txt", b"one\n", 0o644);
    f.sh("git add -A && git commit -qm one");
    f.write("a.txt", b"two\n", 0o644);
    f.sh("git commit -qam two");
    f.write("a.txt", b"uncommitted\n", 0o644);
    let head = |f: &Fixture| {
        let o = Command::new("git")
            .args(["rev-parse", "HEAD"])
            .current_dir(&f.project)
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    let tip = head(&f);
    let plan = f.round_trip("git reset --hard HEAD~1");
    assert!(
        plan.git
            .iter()
            .any(|g| matches!(g, restore::GitAction::Head { .. }))
    );
    assert_eq!(head(&f), tip);
}

#[test]
fn dropped_stashes_and_deleted_branches_come_back() {
    let f = fixture(true);
    f.write("a.txt", b"base\n", 0o644);
    f.sh("git add -A && git commit -qm base");
    f.sh("git checkout -qb feature && echo f > f.txt && git add f.txt && git commit -qm feature && git checkout -q main");
    f.write("a.txt", b"first stash\n", 0o644);
    f.sh("git stash push -qm first");
    f.write("a.txt", b"second stash\n", 0o644);
    f.sh("git stash push -qm second");
    let list = |f: &Fixture| {
        let o = Command::new("git")
            .args(["stash", "list", "--format=%H %gs"])
            .current_dir(&f.project)
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    let stashes = list(&f);
    for cmd in ["git stash drop", "git stash clear"] {
        let (shadow, _) = f.checkpoint(cmd, 7);
        f.sh(cmd);
        assert!(list(&f) != stashes);
        let d = Instant::now() + Duration::from_secs(30);
        let plan = restore::inspect(&shadow, 7, &BTreeMap::new(), d).unwrap();
        let done = restore::apply(&shadow, &plan, false, d);
        assert!(done.problems.is_empty(), "{:?}", done.problems);
        assert_eq!(list(&f), stashes, "{cmd}");
    }
    let (shadow, _) = f.checkpoint("git branch -D feature", 8);
    f.sh("git branch -D feature");
    let d = Instant::now() + Duration::from_secs(30);
    let plan = restore::inspect(&shadow, 8, &BTreeMap::new(), d).unwrap();
    restore::apply(&shadow, &plan, false, d);
    f.sh("git rev-parse --verify -q refs/heads/feature && test -f f.txt || git show feature:f.txt");
}

#[test]
fn a_file_changed_after_the_command_needs_force() {
    let f = fixture(false);
    f.write("notes.txt", b"original\n", 0o644);
    let (shadow, m) = f.checkpoint("sed -i 's/original/edited/' notes.txt", 1);
    f.sh("sed -i 's/original/edited/' notes.txt");
    let d = Instant::now() + Duration::from_secs(30);
    let after = restore::after(&m, d).unwrap();
    f.write("notes.txt", b"the person's later work\n", 0o644);
    let plan = restore::inspect(&shadow, 1, &after, d).unwrap();
    assert!(plan.needs_force());
    let done = restore::apply(&shadow, &plan, false, d);
    assert_eq!(done.restored, 0);
    assert!(done.problems[0].contains("--force"), "{:?}", done.problems);
    assert_eq!(
        std::fs::read(f.project.join("notes.txt")).unwrap(),
        b"the person's later work\n"
    );
    let done = restore::apply(&shadow, &plan, true, d);
    assert!(done.problems.is_empty(), "{:?}", done.problems);
    assert_eq!(
        std::fs::read(f.project.join("notes.txt")).unwrap(),
        b"original\n"
    );
}

#[test]
fn a_created_file_changed_since_is_kept() {
    let f = fixture(false);
    f.write("a.txt", b"a\n", 0o644);
    let (shadow, m) = f.checkpoint("cp a.txt b.txt", 1);
    f.sh("cp a.txt b.txt");
    let d = Instant::now() + Duration::from_secs(30);
    let after = restore::after(&m, d).unwrap();
    f.write("b.txt", b"edited later\n", 0o644);
    let plan = restore::inspect(&shadow, 1, &after, d).unwrap();
    assert_eq!(plan.created, vec![(f.project.join("b.txt"), false)]);
    restore::apply(&shadow, &plan, false, d);
    assert!(f.project.join("b.txt").exists());
}

fn plan_of(f: &Fixture, cmd: &str) -> checkpoint::Plan {
    let ctx = f.ctx();
    let a = analyze(cmd, &ctx);
    let items = affected(&a.script, ctx.home.as_deref());
    let scope = checkpoint::scope(&f.project, ctx.home.as_deref(), None, &f.settings);
    checkpoint::plan(
        &items,
        &scope,
        &f.settings,
        Instant::now() + Duration::from_secs(30),
    )
}

#[test]
fn the_size_caps_leave_out_what_does_not_fit_and_say_so() {
    let mut f = fixture(false);
    f.settings.max_file = 1000;
    f.settings.max_total = 2500;
    f.write("build/big.bin", &[1u8; 5000], 0o644);
    for i in 0..4 {
        f.write(&format!("build/f{i}"), &[2u8; 800], 0o644);
    }
    f.write("build/small", b"s", 0o644);
    let plan = plan_of(&f, "rm -rf build");
    let (files, bytes) = plan.size();
    assert_eq!(
        (files, bytes),
        (4, 2401),
        "the small file and three of the 800-byte ones"
    );
    let why: Vec<&str> = plan.skipped.iter().map(|s| s.why.as_str()).collect();
    assert!(why.contains(&"over the 1.0 kB per-file cap"), "{why:?}");
    assert!(why.contains(&"over the 2.5 kB cap"), "{why:?}");
    assert!(
        plan.notes
            .iter()
            .any(|n| n == "not checkpointed: 1 file, 800 B over the 2.5 kB cap"),
        "{:?}",
        plan.notes
    );
    assert!(
        plan.notes
            .iter()
            .any(|n| n.contains("big.bin (5.0 kB) over the 1.0 kB per-file cap"))
    );
    // What was captured still comes back.
    let (shadow, m) = f.checkpoint("rm -rf build", 3);
    assert_eq!(m.skipped.len(), 2);
    f.sh("rm -rf build");
    let d = Instant::now() + Duration::from_secs(30);
    let plan = restore::inspect(&shadow, 3, &BTreeMap::new(), d).unwrap();
    restore::apply(&shadow, &plan, false, d);
    assert_eq!(std::fs::read(f.project.join("build/small")).unwrap(), b"s");
    assert!(!f.project.join("build/big.bin").exists());
}

#[test]
fn the_entry_cap_and_the_deadline_stop_a_walk() {
    let mut f = fixture(false);
    for i in 0..50 {
        f.write(&format!("many/{i:02}"), b"x", 0o644);
    }
    f.settings.max_entries = 10;
    let plan = plan_of(&f, "rm -rf many");
    assert!(plan.entries.len() <= 10);
    assert!(
        plan.skipped.iter().any(|s| s.why.contains("10-entry cap")),
        "{:?}",
        plan.skipped
    );
    f.settings.max_entries = 1000;
    let ctx = f.ctx();
    let a = analyze("rm -rf many", &ctx);
    let items = affected(&a.script, ctx.home.as_deref());
    let scope = checkpoint::scope(&f.project, ctx.home.as_deref(), None, &f.settings);
    let late = checkpoint::plan(&items, &scope, &f.settings, Instant::now());
    assert!(
        late.skipped.iter().any(|s| s.why.contains("out of time")),
        "{:?}",
        late.skipped
    );
    let meta = checkpoint::Meta {
        id: 1,
        time: 0,
        cwd: None,
        command: "rm -rf many",
    };
    let full = plan_of(&f, "rm -rf many");
    let r = checkpoint::write(full, &scope, meta, &f.settings, Instant::now());
    assert!(r.is_err(), "a checkpoint with no time left is not taken");
}

#[test]
fn special_files_unknown_paths_and_paths_outside_are_said_not_captured() {
    let f = fixture(false);
    f.write("d/file", b"f", 0o644);
    f.sh("mkfifo d/pipe");
    let plan = plan_of(&f, "rm -rf d");
    assert!(
        plan.skipped.iter().any(|s| s.why == "a FIFO, not a file"),
        "{:?}",
        plan.skipped
    );
    assert!(plan.entries.contains_key(&f.project.join("d/file")));
    let plan = plan_of(
        &f,
        "rm -rf \"$DIR\" /etc/hostname /var/tmp/x ~/.local/state/shellgate",
    );
    let notes = plan.notes.join("\n");
    assert!(
        notes.contains("`\"$DIR\"`, known only at run time"),
        "{notes}"
    );
    assert!(
        notes.contains("/etc/hostname (outside the workspace and home)"),
        "{notes}"
    );
    assert!(notes.contains("/var/tmp/x (a temporary path)"), "{notes}");
    assert!(notes.contains("(shellgate's own state)"), "{notes}");
    assert!(plan.is_empty());
    let plan = plan_of(&f, "git clean -fd");
    assert!(
        plan.notes.join("\n").contains("is not in a git repository"),
        "{:?}",
        plan.notes
    );
}

#[test]
fn retention_drops_old_checkpoints_and_their_data() {
    let f = fixture(false);
    let noise = |seed: u32| -> Vec<u8> {
        let mut x = seed;
        (0..200_000)
            .flat_map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x.to_le_bytes()
            })
            .collect()
    };
    f.write("blob.bin", &noise(7), 0o644);
    let (shadow, _) = f.checkpoint("rm blob.bin", 1);
    f.write("other.bin", &noise(11), 0o644);
    f.checkpoint("rm other.bin", 2);
    let d = Instant::now() + Duration::from_secs(30);
    let before = shadow.size();
    shadow.drop_then(&[1], 1, d).unwrap();
    assert!(shadow.manifest(1, d).is_err(), "checkpoint 1 is gone");
    assert!(shadow.manifest(2, d).is_ok(), "checkpoint 2 is kept");
    assert!(
        shadow.size() < before - 500_000,
        "{} -> {}",
        before,
        shadow.size()
    );
}

#[test]
fn the_shadow_store_never_touches_the_project() {
    let f = fixture(true);
    f.write("a.txt", b"one\n", 0o644);
    f.sh("git add -A && git commit -qm one && echo dirty > a.txt && echo staged > s.txt && git add s.txt");
    let snap = |f: &Fixture| {
        let o = Command::new("bash")
            .arg("-c")
            .arg("git for-each-ref; git stash list; sha1sum .git/index; git status --porcelain")
            .current_dir(&f.project)
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    let before = (snap(&f), tree(&f.project));
    f.checkpoint("git reset --hard; git stash clear; rm -rf .", 1);
    assert_eq!(snap(&f), before.0);
    same(&tree(&f.project), &before.1, "a checkpoint");
    assert!(!f.project.join(".git/refs/checkpoints").exists());
}
