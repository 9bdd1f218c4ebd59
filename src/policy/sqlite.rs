//! The SQLite approvals store and ledger (`$XDG_STATE_HOME/shellgate/state.db`): WAL
//! journal, a busy timeout and one short transaction per call, so many hook processes can
//! write at once. The database is opened on first use, not when the store is made.

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OptionalExtension, params};

use super::store::{
    Answer, Approval, CheckpointRecord, FindingKey, LedgerEntry, LedgerFinding, LogQuery,
    NewApproval, Scope, Store, StoreError, in_force,
};
use crate::Decision;

/// How long a writer waits for another process's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(15);

/// WAL size in pages past which a write folds the WAL into the database and empties it.
///
/// Why not SQLite's auto-checkpoint: the first connection of a process (every hook call)
/// finds no live WAL index, so it rebuilds one by reading and checksumming every frame in
/// the `-wal` file, and a rebuilt index forgets what was already checkpointed. A passive
/// checkpoint therefore never lets the next process restart the WAL: it grew without bound
/// (4.7 MB after 500 hook calls, then a checkpoint on every call), and each hook read all of
/// it. A TRUNCATE checkpoint leaves an empty file, so the next start reads nothing.
///
/// A ledger append writes two or three pages, so this folds about once in 25 hook calls
/// (two fsyncs under `synchronous = NORMAL`, ≈ 0.5 ms here) and a start reads at most
/// about 64 frames.
pub const WAL_FOLD_PAGES: u64 = 64;

/// How long a fold waits for other processes' readers and writers before leaving the
/// WAL to the next write; a hook never waits long for housekeeping.
const FOLD_BUSY_TIMEOUT: Duration = Duration::from_millis(20);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS ledger (
    id INTEGER PRIMARY KEY,
    time INTEGER NOT NULL,
    harness TEXT,
    session TEXT,
    cwd TEXT,
    command TEXT NOT NULL,
    decision TEXT NOT NULL,
    findings TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    detail TEXT,
    answer TEXT,
    reason TEXT NOT NULL,
    checkpoint INTEGER
);
CREATE INDEX IF NOT EXISTS ledger_time ON ledger(time);
CREATE TABLE IF NOT EXISTS checkpoints (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    time INTEGER NOT NULL,
    project TEXT NOT NULL,
    store TEXT NOT NULL,
    cwd TEXT,
    session TEXT,
    harness TEXT,
    command TEXT NOT NULL,
    commit_id TEXT,
    files INTEGER NOT NULL,
    bytes INTEGER NOT NULL,
    summary TEXT NOT NULL,
    after TEXT
);
CREATE TABLE IF NOT EXISTS approvals (
    id INTEGER PRIMARY KEY,
    scope TEXT NOT NULL,
    session TEXT,
    keys TEXT NOT NULL,
    command TEXT NOT NULL,
    cwd TEXT,
    harness TEXT,
    created INTEGER NOT NULL,
    expires INTEGER
);
";

/// The store in an SQLite file.
#[derive(Debug)]
pub struct SqliteStore {
    path: PathBuf,
    conn: Option<Connection>,
}

fn e(what: &str, path: &Path, x: impl std::fmt::Display) -> StoreError {
    StoreError(format!("state database {}: {what}: {x}", path.display()))
}

impl SqliteStore {
    /// A store at `path`; nothing is opened or created until it is first used.
    pub fn new(path: impl Into<PathBuf>) -> SqliteStore {
        SqliteStore {
            path: path.into(),
            conn: None,
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn conn(&mut self) -> Result<&mut Connection, StoreError> {
        if self.conn.is_none() {
            let path = self.path.clone();
            if let Some(dir) = path.parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir)
                    .map_err(|x| e("cannot create its directory", &path, x))?;
            }
            let c = Connection::open(&path).map_err(|x| e("cannot be opened", &path, x))?;
            c.busy_timeout(BUSY_TIMEOUT)
                .map_err(|x| e("cannot set the busy timeout", &path, x))?;
            // WAL lets readers and one writer proceed together; switching needs a moment
            // with no other writer, so it is retried inside the busy timeout.
            c.pragma_update(None, "journal_mode", "WAL")
                .map_err(|x| e("cannot switch to WAL", &path, x))?;
            c.pragma_update(None, "synchronous", "NORMAL")
                .map_err(|x| e("cannot set synchronous", &path, x))?;
            // A hook process is usually the only connection, so closing it would checkpoint
            // the WAL, fsync four times and delete the -wal/-shm files, only for the next
            // call to create them again (most of a hook's wall time). The WAL stays instead.
            c.set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
                .map_err(|x| e("cannot keep the WAL on close", &path, x))?;
            // The kept WAL is bounded by `fold_wal` after each write.
            c.execute_batch(SCHEMA)
                .map_err(|x| e("cannot create the tables", &path, x))?;
            self.conn = Some(c);
        }
        match self.conn.as_mut() {
            Some(c) => Ok(c),
            None => Err(e("not open", &self.path, "unreachable")),
        }
    }

    fn err(&self, what: &str, x: impl std::fmt::Display) -> StoreError {
        e(what, &self.path, x)
    }

    /// After a committed write: when the `-wal` file holds more than [`WAL_FOLD_PAGES`]
    /// pages, checkpoint it into the database and truncate it. The write is already
    /// durable in the WAL, so a fold that cannot run now (another process reading or
    /// writing, `SQLITE_BUSY` after a short wait) or fails is left to a later write; a
    /// checkpoint never leaves the database inconsistent.
    fn fold_wal(&mut self) {
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        // Each frame is a page plus a 24-byte header; the file has a 32-byte header.
        let limit = WAL_FOLD_PAGES * (4096 + 24) + 32;
        if std::fs::metadata(&wal).map_or(true, |m| m.len() <= limit) {
            return;
        }
        let Some(c) = self.conn.as_ref() else {
            return;
        };
        if c.busy_timeout(FOLD_BUSY_TIMEOUT).is_ok() {
            // The row is (busy, frames in the WAL, frames checkpointed); busy or an error
            // both mean "later".
            let _ = c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                r.get::<_, i64>(0)
            });
        }
        // Restoring the long wait matters for the next statement on this connection; if
        // even that fails, drop the connection so the next use opens (and sets) it anew.
        if c.busy_timeout(BUSY_TIMEOUT).is_err() {
            self.conn = None;
        }
    }
}

fn row_approval(r: &rusqlite::Row) -> rusqlite::Result<(Approval, String)> {
    let scope: String = r.get(1)?;
    let keys: String = r.get(3)?;
    Ok((
        Approval {
            id: r.get(0)?,
            scope: Scope::parse(&scope).unwrap_or(Scope::Once),
            session: r.get(2)?,
            keys: Vec::new(),
            command: r.get(4)?,
            cwd: r.get(5)?,
            harness: r.get(6)?,
            created: r.get(7)?,
            expires: r.get(8)?,
        },
        keys,
    ))
}

fn decision_of(s: &str) -> Decision {
    match s {
        "allow" => Decision::Allow,
        "ask" => Decision::Ask,
        _ => Decision::Deny,
    }
}

impl SqliteStore {
    fn load_approvals(&mut self, now: i64) -> Result<Vec<Approval>, StoreError> {
        let c = self.conn()?;
        let mut st = c
            .prepare(
                "SELECT id, scope, session, keys, command, cwd, harness, created, expires
                 FROM approvals WHERE expires IS NULL OR expires > ?1 ORDER BY id",
            )
            .map_err(|x| StoreError(format!("cannot read approvals: {x}")))?;
        let rows = st
            .query_map(params![now], row_approval)
            .map_err(|x| StoreError(format!("cannot read approvals: {x}")))?;
        let mut out = Vec::new();
        for r in rows {
            let (mut a, keys) = r.map_err(|x| StoreError(format!("cannot read approvals: {x}")))?;
            // A row whose keys cannot be read covers nothing (never everything).
            a.keys = serde_json::from_str::<Vec<FindingKey>>(&keys).unwrap_or_default();
            out.push(a);
        }
        Ok(out)
    }
}

impl Store for SqliteStore {
    fn approvals(&mut self, session: Option<&str>, now: i64) -> Result<Vec<Approval>, StoreError> {
        Ok(self
            .load_approvals(now)?
            .into_iter()
            .filter(|a| in_force(a, session, now))
            .collect())
    }

    fn all_approvals(&mut self, now: i64) -> Result<Vec<Approval>, StoreError> {
        self.load_approvals(now)
    }

    fn add_approval(&mut self, a: &NewApproval) -> Result<i64, StoreError> {
        let keys = serde_json::to_string(&a.keys).map_err(|x| self.err("cannot encode", x))?;
        let c = self.conn()?;
        let tx = c
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|x| StoreError(format!("cannot write an approval: {x}")))?;
        tx.execute(
            "DELETE FROM approvals WHERE expires IS NOT NULL AND expires <= ?1",
            params![a.created],
        )
        .map_err(|x| StoreError(format!("cannot write an approval: {x}")))?;
        tx.execute(
            "INSERT INTO approvals (scope, session, keys, command, cwd, harness, created, expires)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                a.scope.as_str(),
                a.session,
                keys,
                a.command,
                a.cwd,
                a.harness,
                a.created,
                a.expires
            ],
        )
        .map_err(|x| StoreError(format!("cannot write an approval: {x}")))?;
        let id = tx.last_insert_rowid();
        tx.commit()
            .map_err(|x| StoreError(format!("cannot write an approval: {x}")))?;
        self.fold_wal();
        Ok(id)
    }

    fn take_approval(&mut self, id: i64) -> Result<bool, StoreError> {
        // One DELETE is atomic: of two processes using the same once approval, one wins.
        self.revoke(id)
    }

    fn revoke(&mut self, id: i64) -> Result<bool, StoreError> {
        let n = self
            .conn()?
            .execute("DELETE FROM approvals WHERE id = ?1", params![id])
            .map_err(|x| StoreError(format!("cannot remove approval {id}: {x}")))?;
        Ok(n > 0)
    }

    fn clear(&mut self, session: Option<&str>) -> Result<usize, StoreError> {
        let c = self.conn()?;
        let n = match session {
            Some(s) => c.execute("DELETE FROM approvals WHERE session = ?1", params![s]),
            None => c.execute("DELETE FROM approvals", []),
        }
        .map_err(|x| StoreError(format!("cannot clear approvals: {x}")))?;
        Ok(n)
    }

    fn append(&mut self, en: &LedgerEntry) -> Result<i64, StoreError> {
        let findings =
            serde_json::to_string(&en.findings).map_err(|x| self.err("cannot encode", x))?;
        let insert = |c: &Connection| {
            c.execute(
                "INSERT INTO ledger (time, harness, session, cwd, command, decision, findings,
                                     decided_by, detail, answer, reason, checkpoint)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                params![
                    en.time,
                    en.harness,
                    en.session,
                    en.cwd,
                    en.command,
                    en.decision.as_str(),
                    findings,
                    en.decided_by,
                    en.detail,
                    en.answer.map(|a| a.as_str()),
                    en.reason,
                    en.checkpoint
                ],
            )
        };
        let first = insert(self.conn()?);
        if first.as_ref().is_err_and(no_checkpoint_column) {
            self.add_checkpoint_column()?;
            insert(self.conn()?)
        } else {
            first
        }
        .map_err(|x| StoreError(format!("cannot append to the ledger: {x}")))?;
        let id = self.conn()?.last_insert_rowid();
        self.fold_wal();
        Ok(id)
    }

    fn query(&mut self, q: &LogQuery) -> Result<Vec<LedgerEntry>, StoreError> {
        let first = read_ledger(self.conn()?, q);
        let rows = if first.as_ref().is_err_and(no_checkpoint_column) {
            self.add_checkpoint_column()?;
            read_ledger(self.conn()?, q)
        } else {
            first
        }
        .map_err(|x| StoreError(format!("cannot read the ledger: {x}")))?;
        let mut out: Vec<LedgerEntry> = rows.into_iter().filter(|e| q.accepts(e)).collect();
        if let Some(l) = q.limit
            && out.len() > l
        {
            out.drain(..out.len() - l);
        }
        Ok(out)
    }

    fn add_checkpoint(&mut self, k: &CheckpointRecord) -> Result<i64, StoreError> {
        let after = encode_after(k)?;
        let c = self.conn()?;
        c.execute(
            "INSERT INTO checkpoints (time, project, store, cwd, session, harness, command,
                                      commit_id, files, bytes, summary, after)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                k.time,
                k.project,
                k.store,
                k.cwd,
                k.session,
                k.harness,
                k.command,
                k.commit,
                k.files as i64,
                k.bytes as i64,
                k.summary,
                after
            ],
        )
        .map_err(|x| StoreError(format!("cannot add a checkpoint: {x}")))?;
        let id = c.last_insert_rowid();
        self.fold_wal();
        Ok(id)
    }

    fn update_checkpoint(&mut self, k: &CheckpointRecord) -> Result<(), StoreError> {
        let after = encode_after(k)?;
        let n = self
            .conn()?
            .execute(
                "UPDATE checkpoints SET commit_id = ?2, files = ?3, bytes = ?4, summary = ?5,
                                        after = ?6 WHERE id = ?1",
                params![
                    k.id,
                    k.commit,
                    k.files as i64,
                    k.bytes as i64,
                    k.summary,
                    after
                ],
            )
            .map_err(|x| StoreError(format!("cannot update checkpoint {}: {x}", k.id)))?;
        self.fold_wal();
        if n == 0 {
            return Err(StoreError(format!("there is no checkpoint {}", k.id)));
        }
        Ok(())
    }

    fn checkpoints(&mut self, project: Option<&str>) -> Result<Vec<CheckpointRecord>, StoreError> {
        let c = self.conn()?;
        let mut st = c
            .prepare(
                "SELECT id, time, project, store, cwd, session, harness, command, commit_id,
                        files, bytes, summary, after
                 FROM checkpoints WHERE ?1 IS NULL OR project = ?1 ORDER BY id",
            )
            .map_err(|x| StoreError(format!("cannot read checkpoints: {x}")))?;
        let rows = st
            .query_map(params![project], |r| {
                let after: Option<String> = r.get(12)?;
                Ok(CheckpointRecord {
                    id: r.get(0)?,
                    time: r.get(1)?,
                    project: r.get(2)?,
                    store: r.get(3)?,
                    cwd: r.get(4)?,
                    session: r.get(5)?,
                    harness: r.get(6)?,
                    command: r.get(7)?,
                    commit: r.get(8)?,
                    files: r.get::<_, i64>(9)?.max(0) as u64,
                    bytes: r.get::<_, i64>(10)?.max(0) as u64,
                    summary: r.get(11)?,
                    after: after.and_then(|a| serde_json::from_str(&a).ok()),
                })
            })
            .map_err(|x| StoreError(format!("cannot read checkpoints: {x}")))?;
        rows.collect::<Result<Vec<_>, _>>()
            .map_err(|x| StoreError(format!("cannot read checkpoints: {x}")))
    }

    fn remove_checkpoints(&mut self, ids: &[i64]) -> Result<(), StoreError> {
        let c = self.conn()?;
        for id in ids {
            c.execute("DELETE FROM checkpoints WHERE id = ?1", params![id])
                .map_err(|x| StoreError(format!("cannot remove checkpoint {id}: {x}")))?;
        }
        Ok(())
    }
}

fn encode_after(k: &CheckpointRecord) -> Result<Option<String>, StoreError> {
    k.after
        .as_ref()
        .map(serde_json::to_string)
        .transpose()
        .map_err(|x| StoreError(format!("cannot encode a checkpoint: {x}")))
}

/// A database made before the ledger linked decisions to checkpoints.
fn no_checkpoint_column(e: &rusqlite::Error) -> bool {
    let m = e.to_string();
    m.contains("no such column: checkpoint") || m.contains("has no column named checkpoint")
}

impl SqliteStore {
    /// Add the ledger's `checkpoint` column to a database made before it existed.
    fn add_checkpoint_column(&mut self) -> Result<(), StoreError> {
        match self
            .conn()?
            .execute("ALTER TABLE ledger ADD COLUMN checkpoint INTEGER", [])
        {
            Ok(_) => Ok(()),
            // Another process added it first.
            Err(x) if x.to_string().contains("duplicate column") => Ok(()),
            Err(x) => Err(StoreError(format!("cannot upgrade the ledger: {x}"))),
        }
    }
}

fn read_ledger(c: &Connection, q: &LogQuery) -> rusqlite::Result<Vec<LedgerEntry>> {
    let mut st = c.prepare(
        "SELECT id, time, harness, session, cwd, command, decision, findings,
                decided_by, detail, answer, reason, checkpoint
         FROM ledger WHERE time >= ?1 ORDER BY id",
    )?;
    let rows = st.query_map(params![q.since.unwrap_or(i64::MIN)], |r| {
        let decision: String = r.get(6)?;
        let findings: String = r.get(7)?;
        let answer: Option<String> = r.get(10)?;
        Ok(LedgerEntry {
            id: r.get(0)?,
            time: r.get(1)?,
            harness: r.get(2)?,
            session: r.get(3)?,
            cwd: r.get(4)?,
            command: r.get(5)?,
            decision: decision_of(&decision),
            findings: serde_json::from_str::<Vec<LedgerFinding>>(&findings).unwrap_or_default(),
            decided_by: r.get(8)?,
            detail: r.get(9)?,
            answer: answer.as_deref().and_then(Answer::parse),
            reason: r.get(11)?,
            checkpoint: r.get(12)?,
        })
    })?;
    rows.collect()
}

/// Check the database for corruption (`PRAGMA integrity_check`); `Ok` when it is sound.
pub fn integrity_check(path: &Path) -> Result<(), StoreError> {
    let c = Connection::open(path).map_err(|x| e("cannot be opened", path, x))?;
    let r: Option<String> = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .optional()
        .map_err(|x| e("integrity check failed", path, x))?;
    match r.as_deref() {
        Some("ok") => Ok(()),
        other => Err(e("is corrupt", path, other.unwrap_or("no answer"))),
    }
}
