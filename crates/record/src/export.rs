//! The `record.json` export of a run: pretty JSON of a [`RunRecord`], written atomically
//! and read back only when its `schema_version` is the one this build knows.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use thiserror::Error;

use crate::model::{RunRecord, SCHEMA_VERSION};

/// Failure to write or read a `record.json`; every variant names the file.
#[derive(Debug, Error)]
pub enum ExportError {
    #[error("failed to write run record {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("failed to read run record {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("failed to parse run record {}: {source}", path.display())]
    Parse {
        path: PathBuf,
        source: serde_json::Error,
    },
    #[error("run record {} has no schema_version; is it a record.json?", path.display())]
    NoSchemaVersion { path: PathBuf },
    #[error(
        "run record {} has schema version {found}, this build reads version {expected}",
        path.display()
    )]
    SchemaVersion {
        path: PathBuf,
        found: u64,
        expected: u32,
    },
}

impl RunRecord {
    /// The `record.json` text.
    pub fn to_json_pretty(&self) -> String {
        // Cannot fail: the model has no maps with non-string keys and no fallible
        // `Serialize` impls, the only ways serde_json's serializer errs.
        serde_json::to_string_pretty(self).expect("a RunRecord always serializes to JSON")
    }

    /// Writes the record to `path` through a temporary file in the same directory,
    /// renamed over `path` once complete, so that a reader never sees half a file.
    pub fn write_json(&self, path: &Path) -> Result<(), ExportError> {
        let write_err = |source| ExportError::Write {
            path: path.to_owned(),
            source,
        };
        let tmp = temp_path(path).map_err(write_err)?;
        let result = write_file(&tmp, self.to_json_pretty().as_bytes())
            .and_then(|()| fs::rename(&tmp, path));
        if result.is_err() {
            // Best effort: the write error is what matters to the caller.
            let _ = fs::remove_file(&tmp);
        }
        result.map_err(write_err)
    }

    /// Reads a `record.json`, refusing a schema version other than [`SCHEMA_VERSION`].
    pub fn read_json(path: &Path) -> Result<RunRecord, ExportError> {
        let text = fs::read_to_string(path).map_err(|source| ExportError::Read {
            path: path.to_owned(),
            source,
        })?;
        let parse_err = |source| ExportError::Parse {
            path: path.to_owned(),
            source,
        };
        // The version is checked before the layout, so that a record from another version
        // is reported as such rather than as whatever field it happens to lack.
        let value: serde_json::Value = serde_json::from_str(&text).map_err(parse_err)?;
        let found = value
            .get("schema_version")
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| ExportError::NoSchemaVersion {
                path: path.to_owned(),
            })?;
        if found != u64::from(SCHEMA_VERSION) {
            return Err(ExportError::SchemaVersion {
                path: path.to_owned(),
                found,
                expected: SCHEMA_VERSION,
            });
        }
        serde_json::from_value(value).map_err(parse_err)
    }
}

/// A fresh name next to `path`: same directory, so the rename cannot cross file systems;
/// pid and counter, so concurrent writers of the same file do not share one.
fn temp_path(path: &Path) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path has no file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(
        ".{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    Ok(path.with_file_name(tmp_name))
}

fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file: File = OpenOptions::new().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    // Synced before the rename, so that after an OS crash the name does not point at a
    // file whose data never reached the disk.
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Coverage, RunId, RunMeta};

    fn record() -> RunRecord {
        RunRecord {
            schema_version: SCHEMA_VERSION,
            run_id: RunId(1),
            meta: RunMeta {
                tool_version: "0.1.0".to_owned(),
                start_url: "http://127.0.0.1/".to_owned(),
                strategy: "random".to_owned(),
                seed: 1,
                browser_version: "HeadlessChrome/140.0".to_owned(),
                started_at_ms: 0,
                config: serde_json::json!({}),
            },
            steps: Vec::new(),
            findings: Vec::new(),
            observations: Vec::new(),
            coverage: Coverage::default(),
            states: Vec::new(),
            transitions: Vec::new(),
            progress: Vec::new(),
            forms: Vec::new(),
            summary: None,
        }
    }

    #[test]
    fn round_trips_and_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        let mut record = record();
        record.write_json(&path).unwrap();
        record.meta.seed = 2;
        record.write_json(&path).unwrap();
        assert_eq!(RunRecord::read_json(&path).unwrap(), record);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn rejects_an_unknown_schema_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        let mut json: serde_json::Value = serde_json::to_value(record()).unwrap();
        json["schema_version"] = 999.into();
        // A future layout may differ anywhere; the version is still what is reported.
        json["steps"] = "changed".into();
        fs::write(&path, json.to_string()).unwrap();

        let err = RunRecord::read_json(&path).unwrap_err();
        assert!(
            matches!(
                err,
                ExportError::SchemaVersion {
                    found: 999,
                    expected: SCHEMA_VERSION,
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "run record {} has schema version 999, this build reads version {SCHEMA_VERSION}",
                path.display()
            )
        );
    }

    #[test]
    fn rejects_json_without_a_schema_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        fs::write(&path, r#"{"run_id": 1}"#).unwrap();
        let err = RunRecord::read_json(&path).unwrap_err();
        assert!(matches!(err, ExportError::NoSchemaVersion { .. }), "{err}");
    }

    #[test]
    fn write_into_a_missing_directory_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing/record.json");
        let err = record().write_json(&path).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("failed to write run record {}: ", path.display())),
            "{err}"
        );
    }
}
