//! Answers kept in the run store, so that asking again (in this run or a later one) costs
//! no request and gives the same answer.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, params};

use crate::LlmError;

/// The cache's one table. The file is Curio's run store (`runs.db`), which holds other
/// tables: the cache creates only this one, if missing, and touches nothing else.
const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS llm_cache (
    model TEXT NOT NULL,
    kind TEXT NOT NULL,
    request TEXT NOT NULL,
    answer TEXT NOT NULL,
    PRIMARY KEY (model, kind, request)
)";

/// How long to wait for the run store's own writer before giving up on a cache access.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// A SQLite table of answers keyed by model, kind (`chat` or `embed`) and the exact JSON
/// body of the request. The body holds no secret (the key travels as a header), so the
/// table never does either.
///
/// Cloning shares the one connection, behind a mutex.
#[derive(Clone)]
pub struct ResponseCache {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    conn: Mutex<Connection>,
}

impl ResponseCache {
    /// Opens (or creates) the SQLite file at `path` and the `llm_cache` table in it.
    pub fn open(path: &Path) -> Result<ResponseCache, LlmError> {
        let error = |e: rusqlite::Error| LlmError::Cache {
            path: path.to_owned(),
            reason: e.to_string(),
        };
        let conn = Connection::open(path).map_err(error)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(error)?;
        conn.execute_batch(CREATE_TABLE).map_err(error)?;
        Ok(ResponseCache {
            inner: Arc::new(Inner {
                path: path.to_owned(),
                conn: Mutex::new(conn),
            }),
        })
    }

    /// The file the cache lives in.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// How many answers are stored.
    pub fn entries(&self) -> Result<u64, LlmError> {
        self.conn()
            .query_row("SELECT COUNT(*) FROM llm_cache", [], |row| row.get(0))
            .map_err(|e| self.error(e))
    }

    /// The stored answer to this request, if any.
    pub(crate) fn get(
        &self,
        model: &str,
        kind: &str,
        request: &str,
    ) -> Result<Option<String>, LlmError> {
        self.conn()
            .query_row(
                "SELECT answer FROM llm_cache WHERE model = ?1 AND kind = ?2 AND request = ?3",
                params![model, kind, request],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Stores (or replaces) the answer to this request.
    pub(crate) fn put(
        &self,
        model: &str,
        kind: &str,
        request: &str,
        answer: &str,
    ) -> Result<(), LlmError> {
        self.conn()
            .execute(
                "INSERT OR REPLACE INTO llm_cache (model, kind, request, answer) \
                 VALUES (?1, ?2, ?3, ?4)",
                params![model, kind, request, answer],
            )
            .map(drop)
            .map_err(|e| self.error(e))
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves the connection itself usable.
        self.inner
            .conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn error(&self, e: rusqlite::Error) -> LlmError {
        LlmError::Cache {
            path: self.inner.path.clone(),
            reason: e.to_string(),
        }
    }
}

impl fmt::Debug for ResponseCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResponseCache")
            .field("path", &self.inner.path)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_model_kind_and_request() {
        let dir = tempfile::tempdir().unwrap();
        let cache = ResponseCache::open(&dir.path().join("runs.db")).unwrap();
        cache.put("m", "chat", "{}", "one").unwrap();
        cache.put("m", "embed", "{}", "two").unwrap();
        cache.put("n", "chat", "{}", "three").unwrap();
        cache.put("m", "chat", "{}", "four").unwrap();
        assert_eq!(
            cache.get("m", "chat", "{}").unwrap().as_deref(),
            Some("four")
        );
        assert_eq!(
            cache.get("m", "embed", "{}").unwrap().as_deref(),
            Some("two")
        );
        assert_eq!(
            cache.get("n", "chat", "{}").unwrap().as_deref(),
            Some("three")
        );
        assert_eq!(cache.get("m", "chat", "{ }").unwrap(), None);
        assert_eq!(cache.entries().unwrap(), 3);
    }

    #[test]
    fn leaves_the_run_store_tables_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE runs (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO runs (name) VALUES ('first');")
                .unwrap();
        }
        let cache = ResponseCache::open(&path).unwrap();
        cache.put("m", "chat", "{}", "a").unwrap();
        drop(cache);
        // Opening again finds the table and its answer.
        let cache = ResponseCache::open(&path).unwrap();
        assert_eq!(cache.get("m", "chat", "{}").unwrap().as_deref(), Some("a"));
        let conn = Connection::open(&path).unwrap();
        let name: String = conn
            .query_row("SELECT name FROM runs", [], |row| row.get(0))
            .unwrap();
        assert_eq!(name, "first");
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(tables, ["llm_cache", "runs"]);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_a_cache_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("runs.db");
        std::fs::write(&path, vec![b'x'; 4096]).unwrap();
        let error = ResponseCache::open(&path).unwrap_err();
        assert!(matches!(error, LlmError::Cache { .. }), "{error:?}");
        assert!(error.to_string().contains("runs.db"), "{error}");
    }
}
