//! The run store: runs' meta, steps, observations, findings, coverage and summaries in
//! one SQLite file, appended to while the run goes, so that a killed run keeps
//! everything up to its last append.
//!
//! Durability: the file is in WAL mode with `synchronous=NORMAL`, and every write is an
//! autocommit statement or a short transaction committed before the call returns. A
//! commit is then in the WAL file (in the OS page cache at least), so killing the
//! process loses nothing; only an OS crash or power loss can drop the last commits,
//! which is what `NORMAL` trades for not syncing on every step.
//!
//! Structured values no query looks into (the config, a finding's trace, the summary)
//! are JSON text; what queries select on (run, kind, signature, step index) are columns.
//! Enums are stored under their serde names, the spelling `record.json` uses.

use std::path::{Path, PathBuf};
use std::time::Duration;
use std::{fs, io};

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, ToSql, TransactionBehavior, params};
use serde::Serialize;
use serde::de::DeserializeOwned;
use thiserror::Error;

use crate::model::{
    BrokenLink, Coverage, Finding, FindingId, FormRecord, Observation, ObservationKind,
    ProgressPoint, RunId, RunMeta, RunRecord, RunSummary, SCHEMA_VERSION, ScriptCoverage, Severity,
    SourceLocation, StateRecord, Step, StepKind, StepRecord, TransitionRecord,
};

/// Layout of the SQLite file, kept in `PRAGMA user_version`; bump on any incompatible
/// change. Independent of [`SCHEMA_VERSION`], which versions `record.json`.
const STORE_VERSION: i64 = 5;

/// How long a statement waits for another connection's lock (a reader's checkpoint, a
/// second writer) before failing with `SQLITE_BUSY`.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS runs (
    -- AUTOINCREMENT so that a run id is never reused, even after deleting the last run.
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tool_version TEXT NOT NULL,
    start_url TEXT NOT NULL,
    strategy TEXT NOT NULL,
    -- Decimal text: a u64 seed does not fit SQLite's signed 64-bit INTEGER.
    seed TEXT NOT NULL,
    browser_version TEXT NOT NULL,
    started_at_ms INTEGER NOT NULL,
    config TEXT NOT NULL,         -- JSON
    summary TEXT                  -- JSON RunSummary; NULL while running or when killed
);

CREATE TABLE IF NOT EXISTS steps (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    step_index INTEGER NOT NULL,
    episode INTEGER NOT NULL,
    kind TEXT NOT NULL,
    locator TEXT NOT NULL,
    selector TEXT NOT NULL,
    value TEXT,
    href TEXT,
    page_url TEXT NOT NULL,
    result_url TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    js_click_fallback INTEGER NOT NULL,
    settle_timed_out INTEGER NOT NULL,
    PRIMARY KEY (run_id, step_index)
);

CREATE TABLE IF NOT EXISTS observations (
    -- Insertion order: several observations share a step and keep the order seen.
    seq INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs (id),
    step_index INTEGER NOT NULL,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    url TEXT NOT NULL,
    source_url TEXT,
    source_line INTEGER,
    source_column INTEGER,
    status INTEGER,
    method TEXT,
    in_scope INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS observations_by_run ON observations (run_id, seq);

CREATE TABLE IF NOT EXISTS findings (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    id INTEGER NOT NULL,          -- FindingId, from 1 within the run
    signature TEXT NOT NULL,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    url TEXT NOT NULL,
    source_url TEXT,
    source_line INTEGER,
    source_column INTEGER,
    status INTEGER,
    first_step INTEGER NOT NULL,
    trace TEXT NOT NULL,          -- JSON array of Step
    occurrences INTEGER NOT NULL,
    screenshot TEXT,
    reproduced INTEGER,           -- NULL: not tried
    links TEXT NOT NULL DEFAULT '[]', -- JSON array of BrokenLink
    PRIMARY KEY (run_id, id),
    UNIQUE (run_id, signature)
);

CREATE TABLE IF NOT EXISTS coverage (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    -- Keyed by position, not URL: anonymous scripts (eval, inline) may share an empty URL.
    position INTEGER NOT NULL,
    url TEXT NOT NULL,
    covered_blocks INTEGER NOT NULL,
    total_blocks INTEGER NOT NULL,
    covered_bytes INTEGER NOT NULL,
    total_bytes INTEGER NOT NULL,
    PRIMARY KEY (run_id, position)
);

CREATE TABLE IF NOT EXISTS states (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    id INTEGER NOT NULL,
    url TEXT NOT NULL,
    first_step INTEGER NOT NULL,
    screenshot TEXT,
    PRIMARY KEY (run_id, id)
);

CREATE TABLE IF NOT EXISTS transitions (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    -- Order first taken; the runner numbers them.
    position INTEGER NOT NULL,
    from_state INTEGER NOT NULL,
    to_state INTEGER,             -- NULL: the move left the app
    action TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (run_id, position)
);

CREATE TABLE IF NOT EXISTS forms (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    seq INTEGER NOT NULL,
    form TEXT NOT NULL,           -- JSON FormRecord
    PRIMARY KEY (run_id, seq)
);

CREATE TABLE IF NOT EXISTS progress (
    run_id INTEGER NOT NULL REFERENCES runs (id),
    seq INTEGER NOT NULL,
    point TEXT NOT NULL,          -- JSON ProgressPoint
    PRIMARY KEY (run_id, seq)
);
";

/// Failure of a [`Store`] operation; every variant names the store file.
#[derive(Debug, Error)]
pub enum StoreError {
    #[error("failed to create directory {} for run store: {source}", dir.display())]
    CreateDir { dir: PathBuf, source: io::Error },
    #[error("failed to open run store {}: {source}", path.display())]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    /// WAL is what lets a reader follow a run while it is written; some file systems
    /// (network mounts) cannot do it.
    #[error("run store {} cannot use WAL journal mode (got {mode:?})", path.display())]
    NoWal { path: PathBuf, mode: String },
    #[error(
        "run store {} has schema version {found}, this build knows version {expected}",
        path.display()
    )]
    SchemaVersion {
        path: PathBuf,
        found: i64,
        expected: i64,
    },
    #[error("{} is an SQLite database but not a run store", path.display())]
    NotAStore { path: PathBuf },
    #[error("failed to {action} in run store {}: {source}", path.display())]
    Write {
        path: PathBuf,
        action: String,
        source: rusqlite::Error,
    },
    #[error("failed to {action} from run store {}: {source}", path.display())]
    Read {
        path: PathBuf,
        action: String,
        source: rusqlite::Error,
    },
    #[error("run store {} has no run {}", path.display(), run.0)]
    NoSuchRun { path: PathBuf, run: RunId },
    #[error("run store {} has no finding {} in run {}", path.display(), finding.0, run.0)]
    NoSuchFinding {
        path: PathBuf,
        run: RunId,
        finding: FindingId,
    },
}

/// A run store file, opened for writing ([`Store::open`]) or reading
/// ([`Store::open_read_only`]).
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens the store at `path` for writing, creating its parent directories, the file
    /// and the tables as needed.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(|source| StoreError::CreateDir {
                dir: dir.to_owned(),
                source,
            })?;
        }
        let open_err = |source| StoreError::Open {
            path: path.to_owned(),
            source,
        };
        let conn = Connection::open(path).map_err(open_err)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(open_err)?;
        let mode: String = conn
            .pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0))
            .map_err(open_err)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::NoWal {
                path: path.to_owned(),
                mode,
            });
        }
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(open_err)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(open_err)?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
        };
        store.init_schema()?;
        Ok(store)
    }

    /// Opens an existing store for reading only: one another process is writing (it sees
    /// each append once committed), or one a killed process left behind.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        let open_err = |source| StoreError::Open {
            path: path.to_owned(),
            source,
        };
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(open_err)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(open_err)?;
        let store = Store {
            conn,
            path: path.to_owned(),
        };
        match store.user_version().map_err(open_err)? {
            STORE_VERSION => Ok(store),
            // A fresh file a writer has not set up yet, or some other database.
            0 => Err(StoreError::NotAStore {
                path: path.to_owned(),
            }),
            found => Err(store.version_err(found)),
        }
    }

    /// The store's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts a run; its id is the next in the file.
    pub fn begin_run(&mut self, meta: &RunMeta) -> Result<RunId, StoreError> {
        self.conn
            .execute(
                "INSERT INTO runs (tool_version, start_url, strategy, seed, browser_version,
                                   started_at_ms, config)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    meta.tool_version,
                    meta.start_url,
                    meta.strategy,
                    meta.seed.to_string(),
                    meta.browser_version,
                    meta.started_at_ms,
                    Json(&meta.config),
                ],
            )
            .map_err(|source| self.write_err("begin a run".to_owned(), source))?;
        Ok(RunId(self.conn.last_insert_rowid()))
    }

    /// Appends a step; its index is unique within the run.
    pub fn append_step(&mut self, run: RunId, step: &StepRecord) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT INTO steps (run_id, step_index, episode, kind, locator, selector, value,
                                    href, page_url, result_url, duration_ms,
                                    js_click_fallback, settle_timed_out)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![
                    run.0,
                    step.index,
                    step.episode,
                    Name(step.step.kind),
                    step.step.locator,
                    step.step.selector,
                    step.step.value,
                    step.step.href,
                    step.page_url,
                    step.result_url,
                    step.duration_ms,
                    step.js_click_fallback,
                    step.settle_timed_out,
                ],
            )
            .map_err(|source| {
                self.write_err(
                    format!("append step {} to run {}", step.index, run.0),
                    source,
                )
            })?;
        Ok(())
    }

    /// Appends an observation; the run keeps them in the order appended.
    pub fn append_observation(
        &mut self,
        run: RunId,
        observation: &Observation,
    ) -> Result<(), StoreError> {
        let source = observation.source.as_ref();
        self.conn
            .execute(
                "INSERT INTO observations (run_id, step_index, kind, message, url, source_url,
                                           source_line, source_column, status, method, in_scope)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                params![
                    run.0,
                    observation.step,
                    Name(observation.kind),
                    observation.message,
                    observation.url,
                    source.map(|s| &s.url),
                    source.map(|s| s.line),
                    source.map(|s| s.column),
                    observation.status,
                    observation.method,
                    observation.in_scope,
                ],
            )
            .map_err(|source| {
                self.write_err(format!("append an observation to run {}", run.0), source)
            })?;
        Ok(())
    }

    /// Records one sighting of a finding and returns its id. A signature new to the run
    /// is inserted under the run's next id (from 1) with one occurrence; a known one
    /// only has its occurrences counted up, keeping its first sighting's details. The
    /// `id` and `occurrences` of `finding` are ignored: the store owns both.
    pub fn record_finding(
        &mut self,
        run: RunId,
        finding: &Finding,
    ) -> Result<FindingId, StoreError> {
        let source = finding.source.as_ref();
        // One statement, so that the id assignment and the count are atomic even with
        // another connection writing the same file.
        self.conn
            .query_row(
                "INSERT INTO findings (run_id, id, signature, kind, message, url, source_url,
                                       source_line, source_column, status, first_step, trace,
                                       occurrences, screenshot, reproduced)
                 VALUES (?1, (SELECT COALESCE(MAX(id), 0) + 1 FROM findings WHERE run_id = ?1),
                         ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 1, ?12, ?13)
                 ON CONFLICT (run_id, signature) DO UPDATE SET occurrences = occurrences + 1
                 RETURNING id",
                params![
                    run.0,
                    finding.signature,
                    Name(finding.kind),
                    finding.message,
                    finding.url,
                    source.map(|s| &s.url),
                    source.map(|s| s.line),
                    source.map(|s| s.column),
                    finding.status,
                    finding.first_step,
                    Json(&finding.trace),
                    finding.screenshot,
                    finding.reproduced,
                ],
                |row| row.get(0).map(FindingId),
            )
            .map_err(|source| self.write_err(format!("record a finding in run {}", run.0), source))
    }

    /// Sets the screenshot file of a finding, relative to the run's output directory.
    pub fn set_finding_screenshot(
        &mut self,
        run: RunId,
        finding: FindingId,
        screenshot: &str,
    ) -> Result<(), StoreError> {
        let updated = self
            .conn
            .execute(
                "UPDATE findings SET screenshot = ?3 WHERE run_id = ?1 AND id = ?2",
                params![run.0, finding.0, screenshot],
            )
            .map_err(|source| {
                let action = format!(
                    "set the screenshot of finding {} in run {}",
                    finding.0, run.0
                );
                self.write_err(action, source)
            })?;
        if updated == 0 {
            return Err(StoreError::NoSuchFinding {
                path: self.path.clone(),
                run,
                finding,
            });
        }
        Ok(())
    }

    /// Adds a broken link to a finding's list, unless the same link of the same page is
    /// in it already.
    pub fn add_broken_link(
        &mut self,
        run: RunId,
        finding: FindingId,
        link: &BrokenLink,
    ) -> Result<(), StoreError> {
        let action = || {
            format!(
                "add a broken link to finding {} in run {}",
                finding.0, run.0
            )
        };
        let links: Option<Json<Vec<BrokenLink>>> = self
            .conn
            .query_row(
                "SELECT links FROM findings WHERE run_id = ?1 AND id = ?2",
                params![run.0, finding.0],
                |row| row.get(0),
            )
            .optional()
            .map_err(|source| self.write_err(action(), source))?;
        let Some(Json(mut links)) = links else {
            return Err(StoreError::NoSuchFinding {
                path: self.path.clone(),
                run,
                finding,
            });
        };
        if links
            .iter()
            .any(|l| l.url == link.url && l.page == link.page)
        {
            return Ok(());
        }
        links.push(link.clone());
        self.conn
            .execute(
                "UPDATE findings SET links = ?3 WHERE run_id = ?1 AND id = ?2",
                params![run.0, finding.0, Json(&links)],
            )
            .map_err(|source| self.write_err(action(), source))?;
        Ok(())
    }

    /// Sets the trace of a finding and whether replaying it reproduced the finding.
    pub fn set_finding_trace(
        &mut self,
        run: RunId,
        finding: FindingId,
        trace: &[Step],
        reproduced: Option<bool>,
    ) -> Result<(), StoreError> {
        let updated = self
            .conn
            .execute(
                "UPDATE findings SET trace = ?3, reproduced = ?4 WHERE run_id = ?1 AND id = ?2",
                params![run.0, finding.0, Json(trace), reproduced],
            )
            .map_err(|source| {
                let action = format!("set the trace of finding {} in run {}", finding.0, run.0);
                self.write_err(action, source)
            })?;
        if updated == 0 {
            return Err(StoreError::NoSuchFinding {
                path: self.path.clone(),
                run,
                finding,
            });
        }
        Ok(())
    }

    /// Replaces the run's coverage with `coverage`, which is accumulated over the run.
    pub fn set_coverage(&mut self, run: RunId, coverage: &Coverage) -> Result<(), StoreError> {
        let path = &self.path;
        let write_err = |source| StoreError::Write {
            path: path.clone(),
            action: format!("set the coverage of run {}", run.0),
            source,
        };
        // One transaction, so that a reader or a kill never sees the rows half replaced.
        let tx = self.conn.transaction().map_err(write_err)?;
        if !run_exists(&tx, run).map_err(write_err)? {
            return Err(StoreError::NoSuchRun {
                path: path.clone(),
                run,
            });
        }
        tx.execute("DELETE FROM coverage WHERE run_id = ?1", [run.0])
            .map_err(write_err)?;
        {
            let mut insert = tx
                .prepare(
                    "INSERT INTO coverage (run_id, position, url, covered_blocks, total_blocks,
                                           covered_bytes, total_bytes)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .map_err(write_err)?;
            for (position, script) in coverage.scripts.iter().enumerate() {
                insert
                    .execute(params![
                        run.0,
                        position,
                        script.url,
                        script.covered_blocks,
                        script.total_blocks,
                        script.covered_bytes,
                        script.total_bytes,
                    ])
                    .map_err(write_err)?;
            }
        }
        tx.commit().map_err(write_err)
    }

    /// Records a new abstract state.
    pub fn add_state(&mut self, run: RunId, state: &StateRecord) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT INTO states (run_id, id, url, first_step, screenshot)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    run.0,
                    state.id,
                    state.url,
                    state.first_step,
                    state.screenshot
                ],
            )
            .map_err(|source| {
                self.write_err(format!("add state {} to run {}", state.id, run.0), source)
            })?;
        Ok(())
    }

    /// Records the transition numbered `position` (the order it was first taken), or
    /// updates its count.
    pub fn set_transition(
        &mut self,
        run: RunId,
        position: u32,
        transition: &TransitionRecord,
    ) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO transitions (run_id, position, from_state, to_state,
                                                     action, count)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    run.0,
                    position,
                    transition.from,
                    transition.to,
                    transition.action,
                    transition.count
                ],
            )
            .map_err(|source| {
                self.write_err(
                    format!("record transition {position} of run {}", run.0),
                    source,
                )
            })?;
        Ok(())
    }

    /// Appends a point of the run's progress over time.
    pub fn append_progress(&mut self, run: RunId, point: &ProgressPoint) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT INTO progress (run_id, seq, point)
                 VALUES (?1, (SELECT COUNT(*) FROM progress WHERE run_id = ?1), ?2)",
                params![run.0, Json(point)],
            )
            .map_err(|source| {
                self.write_err(format!("append progress to run {}", run.0), source)
            })?;
        Ok(())
    }

    /// Appends a tested form.
    pub fn add_form(&mut self, run: RunId, form: &FormRecord) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT INTO forms (run_id, seq, form)
                 VALUES (?1, (SELECT COUNT(*) FROM forms WHERE run_id = ?1), ?2)",
                params![run.0, Json(form)],
            )
            .map_err(|source| {
                self.write_err(format!("add form {} to run {}", form.title, run.0), source)
            })?;
        Ok(())
    }

    /// Marks the run finished. A run without a summary was killed or crashed.
    pub fn finish_run(&mut self, run: RunId, summary: &RunSummary) -> Result<(), StoreError> {
        let updated = self
            .conn
            .execute(
                "UPDATE runs SET summary = ?2 WHERE id = ?1",
                params![run.0, Json(summary)],
            )
            .map_err(|source| self.write_err(format!("finish run {}", run.0), source))?;
        if updated == 0 {
            return Err(self.no_such_run(run));
        }
        Ok(())
    }

    /// Every run in the file, oldest first.
    pub fn runs(&self) -> Result<Vec<(RunId, RunMeta, Option<RunSummary>)>, StoreError> {
        let read_err = |source| self.read_err("list runs".to_owned(), source);
        let mut select = self
            .conn
            .prepare(&format!("{SELECT_RUN} ORDER BY id"))
            .map_err(read_err)?;
        select
            .query_map([], run_from_row)
            .and_then(Iterator::collect)
            .map_err(read_err)
    }

    /// The run begun last, if any.
    pub fn latest_run(&self) -> Result<Option<RunId>, StoreError> {
        self.conn
            .query_row("SELECT MAX(id) FROM runs", [], |row| row.get(0))
            .map(|id: Option<i64>| id.map(RunId))
            .map_err(|source| self.read_err("find the latest run".to_owned(), source))
    }

    /// Everything recorded for `run`, each part in the order it was recorded; the
    /// summary is `None` when the run has not finished.
    pub fn load_run(&self, run: RunId) -> Result<RunRecord, StoreError> {
        let read_err = |source| self.read_err(format!("load run {}", run.0), source);
        // A read transaction, so that all parts come from one snapshot even while a
        // writer keeps appending; it is only read from, and dropping it ends it.
        let tx = self.conn.unchecked_transaction().map_err(read_err)?;
        let mut select = tx
            .prepare(&format!("{SELECT_RUN} WHERE id = ?1"))
            .map_err(read_err)?;
        let Some((run_id, meta, summary)) = select
            .query_map([run.0], run_from_row)
            .map_err(read_err)?
            .next()
            .transpose()
            .map_err(read_err)?
        else {
            return Err(self.no_such_run(run));
        };

        let steps = select_all(
            &tx,
            "SELECT step_index, episode, kind, locator, selector, value, page_url, result_url,
                    duration_ms, js_click_fallback, settle_timed_out, href
             FROM steps WHERE run_id = ?1 ORDER BY step_index",
            run,
            step_from_row,
        )
        .map_err(read_err)?;
        let observations = select_all(
            &tx,
            "SELECT step_index, kind, message, url, source_url, source_line, source_column,
                    status, method, in_scope
             FROM observations WHERE run_id = ?1 ORDER BY seq",
            run,
            observation_from_row,
        )
        .map_err(read_err)?;
        let findings = select_all(
            &tx,
            "SELECT id, signature, kind, message, url, source_url, source_line, source_column,
                    status, first_step, trace, occurrences, screenshot, reproduced, links
             FROM findings WHERE run_id = ?1 ORDER BY id",
            run,
            finding_from_row,
        )
        .map_err(read_err)?;
        let scripts = select_all(
            &tx,
            "SELECT url, covered_blocks, total_blocks, covered_bytes, total_bytes
             FROM coverage WHERE run_id = ?1 ORDER BY position",
            run,
            |row| {
                Ok(ScriptCoverage {
                    url: row.get(0)?,
                    covered_blocks: row.get(1)?,
                    total_blocks: row.get(2)?,
                    covered_bytes: row.get(3)?,
                    total_bytes: row.get(4)?,
                })
            },
        )
        .map_err(read_err)?;
        let states = select_all(
            &tx,
            "SELECT id, url, first_step, screenshot FROM states WHERE run_id = ?1 ORDER BY id",
            run,
            |row| {
                Ok(StateRecord {
                    id: row.get(0)?,
                    url: row.get(1)?,
                    first_step: row.get(2)?,
                    screenshot: row.get(3)?,
                })
            },
        )
        .map_err(read_err)?;
        let transitions = select_all(
            &tx,
            "SELECT from_state, to_state, action, count
             FROM transitions WHERE run_id = ?1 ORDER BY position",
            run,
            |row| {
                Ok(TransitionRecord {
                    from: row.get(0)?,
                    to: row.get(1)?,
                    action: row.get(2)?,
                    count: row.get(3)?,
                })
            },
        )
        .map_err(read_err)?;
        let progress = select_all(
            &tx,
            "SELECT point FROM progress WHERE run_id = ?1 ORDER BY seq",
            run,
            |row| row.get::<_, Json<ProgressPoint>>(0).map(|j| j.0),
        )
        .map_err(read_err)?;
        let forms = select_all(
            &tx,
            "SELECT form FROM forms WHERE run_id = ?1 ORDER BY seq",
            run,
            |row| row.get::<_, Json<FormRecord>>(0).map(|j| j.0),
        )
        .map_err(read_err)?;

        Ok(RunRecord {
            schema_version: SCHEMA_VERSION,
            run_id,
            meta,
            steps,
            findings,
            observations,
            coverage: Coverage { scripts },
            states,
            transitions,
            progress,
            forms,
            summary,
        })
    }

    /// Creates the tables in a fresh file, or checks the version of an existing one.
    fn init_schema(&mut self) -> Result<(), StoreError> {
        let path = &self.path;
        let open_err = |source| StoreError::Open {
            path: path.clone(),
            source,
        };
        // IMMEDIATE takes the write lock first, so that of two processes opening a fresh
        // file at once, the second sees the version the first one set.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(open_err)?;
        let found: i64 = tx
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(open_err)?;
        match found {
            0 => {
                // Refuse to add tables to somebody else's database.
                let tables: i64 = tx
                    .query_row("SELECT COUNT(*) FROM sqlite_schema", [], |row| row.get(0))
                    .map_err(open_err)?;
                if tables > 0 {
                    return Err(StoreError::NotAStore { path: path.clone() });
                }
                tx.execute_batch(SCHEMA).map_err(open_err)?;
                tx.pragma_update(None, "user_version", STORE_VERSION)
                    .map_err(open_err)?;
            }
            STORE_VERSION => {}
            // Version 4 lacked the findings' broken links.
            4 => {
                tx.execute_batch(
                    "ALTER TABLE findings ADD COLUMN links TEXT NOT NULL DEFAULT '[]'",
                )
                .map_err(open_err)?;
                tx.pragma_update(None, "user_version", STORE_VERSION)
                    .map_err(open_err)?;
            }
            found => {
                return Err(StoreError::SchemaVersion {
                    path: path.clone(),
                    found,
                    expected: STORE_VERSION,
                });
            }
        }
        tx.commit().map_err(open_err)
    }

    fn user_version(&self) -> rusqlite::Result<i64> {
        self.conn
            .pragma_query_value(None, "user_version", |row| row.get(0))
    }

    fn version_err(&self, found: i64) -> StoreError {
        StoreError::SchemaVersion {
            path: self.path.clone(),
            found,
            expected: STORE_VERSION,
        }
    }

    fn write_err(&self, action: String, source: rusqlite::Error) -> StoreError {
        StoreError::Write {
            path: self.path.clone(),
            action,
            source,
        }
    }

    fn read_err(&self, action: String, source: rusqlite::Error) -> StoreError {
        StoreError::Read {
            path: self.path.clone(),
            action,
            source,
        }
    }

    fn no_such_run(&self, run: RunId) -> StoreError {
        StoreError::NoSuchRun {
            path: self.path.clone(),
            run,
        }
    }
}

const SELECT_RUN: &str = "SELECT id, tool_version, start_url, strategy, seed, browser_version,
                                 started_at_ms, config, summary
                          FROM runs";

fn run_from_row(row: &Row<'_>) -> rusqlite::Result<(RunId, RunMeta, Option<RunSummary>)> {
    let seed: String = row.get(4)?;
    let seed = seed.parse().map_err(|err| {
        rusqlite::Error::FromSqlConversionFailure(4, rusqlite::types::Type::Text, Box::new(err))
    })?;
    let meta = RunMeta {
        tool_version: row.get(1)?,
        start_url: row.get(2)?,
        strategy: row.get(3)?,
        seed,
        browser_version: row.get(5)?,
        started_at_ms: row.get(6)?,
        config: row.get::<_, Json<_>>(7)?.0,
    };
    let summary = row.get::<_, Option<Json<_>>>(8)?.map(|json| json.0);
    Ok((RunId(row.get(0)?), meta, summary))
}

fn step_from_row(row: &Row<'_>) -> rusqlite::Result<StepRecord> {
    Ok(StepRecord {
        index: row.get(0)?,
        episode: row.get(1)?,
        step: Step {
            kind: row.get::<_, Name<StepKind>>(2)?.0,
            locator: row.get(3)?,
            selector: row.get(4)?,
            value: row.get(5)?,
            href: row.get(11)?,
        },
        page_url: row.get(6)?,
        result_url: row.get(7)?,
        duration_ms: row.get(8)?,
        js_click_fallback: row.get(9)?,
        settle_timed_out: row.get(10)?,
    })
}

fn observation_from_row(row: &Row<'_>) -> rusqlite::Result<Observation> {
    Ok(Observation {
        step: row.get(0)?,
        kind: row.get::<_, Name<ObservationKind>>(1)?.0,
        message: row.get(2)?,
        url: row.get(3)?,
        source: source_from_row(row, 4)?,
        status: row.get(7)?,
        method: row.get(8)?,
        in_scope: row.get(9)?,
    })
}

fn finding_from_row(row: &Row<'_>) -> rusqlite::Result<Finding> {
    Ok(Finding {
        id: FindingId(row.get(0)?),
        signature: row.get(1)?,
        kind: row.get::<_, Name<ObservationKind>>(2)?.0,
        message: row.get(3)?,
        url: row.get(4)?,
        source: source_from_row(row, 5)?,
        status: row.get(8)?,
        first_step: row.get(9)?,
        trace: row.get::<_, Json<_>>(10)?.0,
        occurrences: row.get(11)?,
        screenshot: row.get(12)?,
        reproduced: row.get(13)?,
        links: row.get::<_, Json<_>>(14)?.0,
        severity: Severity::Warning,
    })
    .map(|mut f: Finding| {
        f.severity = Severity::of(f.kind, f.status);
        f
    })
}

/// Reads the source location kept in three columns from `first` on (url, line, column).
fn source_from_row(row: &Row<'_>, first: usize) -> rusqlite::Result<Option<SourceLocation>> {
    let url: Option<String> = row.get(first)?;
    url.map(|url| {
        Ok(SourceLocation {
            url,
            line: row.get(first + 1)?,
            column: row.get(first + 2)?,
        })
    })
    .transpose()
}

fn run_exists(conn: &Connection, run: RunId) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM runs WHERE id = ?1)",
        [run.0],
        |row| row.get(0),
    )
}

fn select_all<T>(
    conn: &Connection,
    sql: &str,
    run: RunId,
    from_row: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> rusqlite::Result<Vec<T>> {
    conn.prepare(sql)?.query_map([run.0], from_row)?.collect()
}

/// A column holding a value's JSON text.
struct Json<T>(T);

impl<T: Serialize> ToSql for Json<T> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        let text = serde_json::to_string(&self.0)
            .map_err(|err| rusqlite::Error::ToSqlConversionFailure(Box::new(err)))?;
        Ok(ToSqlOutput::from(text))
    }
}

impl<T: DeserializeOwned> FromSql for Json<T> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        serde_json::from_str(value.as_str()?)
            .map(Json)
            .map_err(|err| FromSqlError::Other(Box::new(err)))
    }
}

/// A column holding a unit enum under its serde name (`"console_error"`), so that the
/// store and `record.json` spell kinds alike.
struct Name<T>(T);

impl<T: Serialize> ToSql for Name<T> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match serde_json::to_value(&self.0) {
            Ok(serde_json::Value::String(name)) => Ok(ToSqlOutput::from(name)),
            Ok(other) => Err(rusqlite::Error::ToSqlConversionFailure(
                format!("expected an enum name, got {other}").into(),
            )),
            Err(err) => Err(rusqlite::Error::ToSqlConversionFailure(Box::new(err))),
        }
    }
}

impl<T: DeserializeOwned> FromSql for Name<T> {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        let name = serde_json::Value::String(value.as_str()?.to_owned());
        serde_json::from_value(name)
            .map(Name)
            .map_err(|err| FromSqlError::Other(Box::new(err)))
    }
}
