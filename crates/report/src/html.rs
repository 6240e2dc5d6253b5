//! The HTML report: one folder that opens from disk, `index.html` with everything inline
//! (styles, the state graph, the charts) and the screenshots and exported tests it links
//! to copied beside it.

use std::path::{Path, PathBuf};

use curio_record::RunRecord;
use minijinja::{Environment, context};

use crate::ReportError;
use crate::chart::progress_charts;
use crate::graph::{MAX_STATES, state_graph};
use crate::view::View;

const TEMPLATE: &str = include_str!("../templates/report.html");

/// Renders the report of `record` into `out_dir` (created if needed) and returns the
/// path of its `index.html`. Files the record names relative to its run (screenshots,
/// exported tests) are read from `run_dir` and copied into `out_dir`, so that the folder
/// stands alone; one that is missing is left out of the copy, its link then dangles.
pub fn write_html(
    record: &RunRecord,
    run_dir: &Path,
    out_dir: &Path,
) -> Result<PathBuf, ReportError> {
    let write_err = |path: &Path| {
        let path = path.to_owned();
        move |source| ReportError::Write { path, source }
    };
    std::fs::create_dir_all(out_dir).map_err(write_err(out_dir))?;
    let index = out_dir.join("index.html");
    let html = render(record).map_err(|source| ReportError::Render {
        path: index.clone(),
        source,
    })?;
    std::fs::write(&index, html).map_err(write_err(&index))?;
    for rel in linked_files(record) {
        let from = run_dir.join(&rel);
        let to = out_dir.join(&rel);
        if !from.is_file() || same_file(&from, &to) {
            continue;
        }
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).map_err(write_err(dir))?;
        }
        std::fs::copy(&from, &to).map_err(write_err(&to))?;
    }
    Ok(index)
}

/// The report's HTML text.
pub(crate) fn render(record: &RunRecord) -> Result<String, minijinja::Error> {
    let mut env = Environment::new();
    // The name's extension turns on HTML escaping of every value the template prints.
    env.add_template("report.html", TEMPLATE)?;
    env.get_template("report.html")?.render(context! {
        v => View::new(record),
        graph => state_graph(record),
        charts => progress_charts(&record.progress),
        max_graph => MAX_STATES,
    })
}

/// Files of the run the report links to, relative to the run's directory. Only plain
/// relative paths: a record edited to name `../../etc/passwd` copies nothing.
fn linked_files(record: &RunRecord) -> Vec<PathBuf> {
    let findings = record.findings.iter().filter_map(|f| f.screenshot.clone());
    let states = record.states.iter().filter_map(|s| s.screenshot.clone());
    let tests = record
        .forms
        .iter()
        .flat_map(|f| f.fss.iter().flat_map(|s| s.tests.iter().cloned()));
    findings
        .chain(states)
        .chain(tests)
        .map(PathBuf::from)
        .filter(|p| {
            p.components()
                .all(|c| matches!(c, std::path::Component::Normal(_)))
        })
        .collect()
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
