//! The SQLite store and ledger on a real database file: approvals round-trip, and many
//! processes writing decisions at once lose nothing and corrupt nothing.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use shellgate::policy::{
    self, Answer, AnswerSource, LoadedConfig, LogQuery, Request, SqliteStore, Store,
};
use shellgate::{Context, Decision};

const WRITERS: usize = 8;
const DECISIONS: usize = 200;

fn req(cmd: &str, session: &str) -> Request {
    let mut r = Request::new(cmd, Context::fixture());
    r.session = Some(session.into());
    r.harness = Some("test".into());
    r
}

/// Run as a child process by `concurrent_writers_lose_nothing`: write DECISIONS decisions.
#[test]
fn child_writer() {
    let (Ok(db), Ok(id)) = (std::env::var("SG_TEST_DB"), std::env::var("SG_TEST_WRITER")) else {
        return;
    };
    let cfg = LoadedConfig::defaults();
    let mut store = SqliteStore::new(&db);
    for i in 0..DECISIONS {
        // Alternate allow and ask decisions, and approvals, so readers and writers mix.
        let cmd = if i % 2 == 0 {
            format!("echo w{id}-{i}")
        } else {
            format!("git reset --hard # w{id}-{i}")
        };
        let r = req(&cmd, &format!("s{id}"));
        let v = policy::evaluate(&r, &cfg, &mut store);
        assert!(
            v.warnings.is_empty(),
            "writer {id} decision {i}: {:?}",
            v.warnings
        );
        assert!(v.ledger_id.is_some());
    }
}

#[test]
fn concurrent_writers_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state.db");
    let exe = std::env::current_exe().unwrap();
    let start = std::time::Instant::now();
    let children: Vec<_> = (0..WRITERS)
        .map(|w| {
            Command::new(&exe)
                .args(["--exact", "child_writer", "--test-threads", "1"])
                .env("SG_TEST_DB", &db)
                .env("SG_TEST_WRITER", w.to_string())
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success(), "a writer failed");
    }
    let took = start.elapsed();
    let mut store = SqliteStore::new(&db);
    let all = store.query(&LogQuery::default()).unwrap();
    assert_eq!(all.len(), WRITERS * DECISIONS);
    let tags: BTreeSet<String> = all
        .iter()
        .filter_map(|e| e.command.split_whitespace().last().map(str::to_string))
        .collect();
    assert_eq!(
        tags.len(),
        WRITERS * DECISIONS,
        "every decision exactly once"
    );
    for e in &all {
        let want = if e.command.starts_with("echo") {
            Decision::Allow
        } else {
            Decision::Ask
        };
        assert_eq!(e.decision, want, "{}", e.command);
        if want == Decision::Ask {
            assert_eq!(e.findings.len(), 1);
        }
    }
    let ids: BTreeSet<i64> = all.iter().map(|e| e.id).collect();
    assert_eq!(ids.len(), all.len());
    policy::sqlite::integrity_check(&db).unwrap();
    eprintln!(
        "{} decisions from {WRITERS} processes in {:.2?}",
        WRITERS * DECISIONS,
        took
    );
}

#[test]
fn approvals_round_trip_through_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("sub/dir/state.db");
    let cfg = LoadedConfig::defaults();
    let mut store = SqliteStore::new(&db);
    assert!(!db.exists(), "opened lazily");
    let r = req("git reset --hard", "s1");
    assert_eq!(
        policy::evaluate(&r, &cfg, &mut store).decision,
        Decision::Ask
    );
    let rec = policy::record_answer(&r, Answer::Session, AnswerSource::Prompt, &cfg, &mut store);
    assert_eq!(rec.approvals.len(), 1, "{:?}", rec.warnings);
    // A new process (a new connection) sees it.
    let mut other = SqliteStore::new(&db);
    assert_eq!(
        policy::evaluate(&r, &cfg, &mut other).decision,
        Decision::Allow
    );
    assert_eq!(
        policy::evaluate(&req("git reset --hard", "s2"), &cfg, &mut other).decision,
        Decision::Ask
    );
    let log = other
        .query(&LogQuery {
            session: Some("s1".into()),
            ..LogQuery::default()
        })
        .unwrap();
    let by: Vec<&str> = log.iter().map(|e| e.decided_by.as_str()).collect();
    assert_eq!(by, ["ask", "person", "session-approval"]);
    assert_eq!(log[1].answer, Some(Answer::Session));
    // Deferred once approvals are used up exactly once, across connections.
    let r2 = req("git clean -fdx", "s1");
    policy::record_answer(&r2, Answer::Once, AnswerSource::Deferred, &cfg, &mut store);
    assert_eq!(
        policy::evaluate(&r2, &cfg, &mut other).decision,
        Decision::Allow
    );
    assert_eq!(
        policy::evaluate(&r2, &cfg, &mut store).decision,
        Decision::Ask
    );
    assert_eq!(other.clear(None).unwrap(), 1);
    assert!(other.all_approvals(0).unwrap().is_empty());
}

/// A hook process is usually the database's only connection. Closing it must not
/// checkpoint and delete the WAL (four fsyncs and two file creations per hook call); the
/// next process reads the rows straight from the kept WAL.
#[test]
fn closing_the_last_connection_keeps_the_wal_and_loses_no_row() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state.db");
    let wal = dir.path().join("state.db-wal");
    let cfg = LoadedConfig::defaults();
    for i in 0..3 {
        let mut store = SqliteStore::new(&db);
        policy::evaluate(
            &req(&format!("git reset --hard # {i}"), "s1"),
            &cfg,
            &mut store,
        );
        drop(store);
        assert!(
            wal.exists(),
            "the WAL was checkpointed away on close (call {i})"
        );
    }
    let log = session_log(&db, "s1");
    assert_eq!(log.len(), 3, "{log:?}");
    policy::sqlite::integrity_check(&db).unwrap();
}

/// The ledger rows of `session`, read by a new connection as the next process would.
fn session_log(db: &Path, session: &str) -> Vec<shellgate::policy::LedgerEntry> {
    SqliteStore::new(db)
        .query(&LogQuery {
            session: Some(session.into()),
            ..LogQuery::default()
        })
        .unwrap()
}

/// Every hook process rebuilds the WAL index from the whole `-wal` file, and a rebuilt
/// index forgets earlier checkpoints, so SQLite's passive auto-checkpoint never restarted
/// the WAL: it grew past 4 MB and each process read all of it. Writes now fold it (a
/// TRUNCATE checkpoint) once it holds `WAL_FOLD_PAGES` pages.
#[test]
fn the_kept_wal_stays_bounded_over_many_hook_processes() {
    const CALLS: usize = 400;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state.db");
    let wal = dir.path().join("state.db-wal");
    let cfg = LoadedConfig::defaults();
    // One transaction past the fold limit is the most the file can hold before a fold.
    let bound = (policy::sqlite::WAL_FOLD_PAGES + 8) * (4096 + 24) + 32;
    let mut largest = 0;
    for i in 0..CALLS {
        let mut store = SqliteStore::new(&db);
        policy::evaluate(&req(&format!("echo {i}"), "s1"), &cfg, &mut store);
        drop(store);
        largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
    }
    assert!(
        largest <= bound,
        "the WAL reached {largest} bytes (bound {bound})"
    );
    let log = session_log(&db, "s1");
    assert_eq!(log.len(), CALLS, "a folded WAL lost rows");
    policy::sqlite::integrity_check(&db).unwrap();
}

#[test]
fn unwritable_database_is_reported_and_decides_from_the_analysis() {
    let dir = tempfile::tempdir().unwrap();
    // A directory where the database file should be: it cannot be opened.
    let db = dir.path().join("state.db");
    std::fs::create_dir(&db).unwrap();
    let cfg = LoadedConfig::defaults();
    let mut store = SqliteStore::new(&db);
    let v = policy::evaluate(&req("git reset --hard", "s"), &cfg, &mut store);
    assert_eq!(v.decision, Decision::Ask);
    assert!(
        v.warnings
            .iter()
            .any(|w| w.contains(&db.display().to_string())),
        "{:?}",
        v.warnings
    );
    let v = policy::evaluate(&req("rm -rf /", "s"), &cfg, &mut store);
    assert_eq!(v.decision, Decision::Deny);
    assert!(!Path::new(&db).join("x").exists());
}

#[test]
fn a_ledger_made_before_checkpoints_gains_the_column_and_keeps_its_rows() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state.db");
    {
        // The ledger as it was created before decisions linked to checkpoints.
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute_batch(
            "CREATE TABLE ledger (id INTEGER PRIMARY KEY, time INTEGER NOT NULL, harness TEXT,
                session TEXT, cwd TEXT, command TEXT NOT NULL, decision TEXT NOT NULL,
                findings TEXT NOT NULL, decided_by TEXT NOT NULL, detail TEXT, answer TEXT,
                reason TEXT NOT NULL);
             INSERT INTO ledger (time, command, decision, findings, decided_by, reason)
                VALUES (1, 'ls', 'allow', '[]', 'no-findings', 'no risk found');",
        )
        .unwrap();
    }
    let mut store = SqliteStore::new(&db);
    let old = store.query(&LogQuery::default()).unwrap();
    assert_eq!(old.len(), 1);
    assert_eq!(old[0].checkpoint, None);
    let mut e = old[0].clone();
    e.command = "rm -rf build".into();
    e.checkpoint = Some(7);
    store.append(&e).unwrap();
    let all = store.query(&LogQuery::default()).unwrap();
    assert_eq!(
        all.iter().map(|e| e.checkpoint).collect::<Vec<_>>(),
        vec![None, Some(7)]
    );
    // The index of checkpoints: ids are never reused, records update in place.
    let mut k = policy::CheckpointRecord {
        id: 0,
        time: 5,
        project: "/p".into(),
        store: "/s".into(),
        cwd: Some("/p".into()),
        session: None,
        harness: None,
        command: "rm -rf build".into(),
        commit: None,
        files: 0,
        bytes: 0,
        summary: String::new(),
        after: None,
    };
    let a = store.add_checkpoint(&k).unwrap();
    store.remove_checkpoints(&[a]).unwrap();
    let b = store.add_checkpoint(&k).unwrap();
    assert!(b > a, "a removed id is not handed out again");
    k.id = b;
    k.files = 3;
    k.after = Some([("/p/a".to_string(), "abc".to_string())].into());
    store.update_checkpoint(&k).unwrap();
    assert_eq!(store.checkpoints(Some("/p")).unwrap(), vec![k]);
    assert!(store.checkpoints(Some("/q")).unwrap().is_empty());
}
