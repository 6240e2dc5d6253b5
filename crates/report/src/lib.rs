//! Reports of a saved run, rendered from its [`RunRecord`] alone, so that every report can
//! be made again later (`curio report`): a self-contained HTML folder that opens from
//! disk, JUnit XML for CI, the JSON record, and tests (Playwright Test, pytest +
//! Selenium) for its findings and its forms' answers (`curio export`).
//!
//! Everything the app under test wrote (messages, URLs, labels, values) reaches the HTML
//! and XML escaped by the template engine, and the HTML forbids scripts outright, so a
//! report never runs the app's content.

mod chart;
mod export;
mod graph;
mod html;
mod junit;
mod view;

use std::io;
use std::path::{Path, PathBuf};

pub use export::{TestFormat, form_test_files, write_tests};
pub use html::write_html;
pub use junit::{junit_xml, write_junit};

use curio_record::{ExportError, RunRecord};

/// Failure to write a report; every variant names the file or folder.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("failed to write report {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("failed to render report {}: {source}", path.display())]
    Render {
        path: PathBuf,
        source: minijinja::Error,
    },
    #[error(transparent)]
    Json(#[from] ExportError),
}

/// Writes the run's JSON record (the versioned `record.json` layout) to `path`.
pub fn write_json(record: &RunRecord, path: &Path) -> Result<(), ReportError> {
    create_parent(path)?;
    record.write_json(path)?;
    Ok(())
}

fn create_parent(path: &Path) -> Result<(), ReportError> {
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|source| ReportError::Write {
            path: dir.to_owned(),
            source,
        }),
        None => Ok(()),
    }
}
