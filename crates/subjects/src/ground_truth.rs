//! Ground truth: which seeded faults an app has, and which of them actually fired.
//!
//! Benchmarks compare what Curio reports with what really happened, so the apps record
//! a fault at the moment it occurs: server-side faults in the handler that produces
//! them, client-side faults through a beacon the page sends just before it throws,
//! logs or rejects. Only the app's own seeded faults count; anything else is ignored,
//! so a stray or forged beacon cannot inflate the numbers.
//!
//! The HTTP side lives here too: `POST /__truth/hit?f=ID` (the beacon) and
//! `GET /__truth` (a JSON report). Neither is ever linked from a page: only inline JS
//! knows them, so an explorer never wanders into its own scoring.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use serde::{Deserialize, Serialize};

/// What kind of failure a seeded fault produces, in the terms Curio reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    UncaughtException,
    UnhandledRejection,
    ConsoleError,
    /// An HTTP 5xx answer to a request the app itself makes or invites.
    ServerError,
    /// A visible link that leads to a 4xx page.
    BrokenLink,
}

/// One seeded fault of an app.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FaultSpec {
    pub id: &'static str,
    pub kind: FaultKind,
    /// What a user does to trigger it and what goes wrong.
    pub description: &'static str,
    /// The minimum number of user steps (clicks, fills, selects) from the home page.
    pub depth_hint: u32,
    /// A piece of text that Curio's finding for this fault carries in its message, its URL
    /// or its script location, and no other failure of the app does; the benchmark counts
    /// the fault as reported when a finding contains it.
    pub marker: &'static str,
}

/// One Form Submission State of a gallery form (FormNexus' definition): a distinct
/// answer the form gives to a submission, from the values that provoke it. Coverage
/// counts the states the app saw itself give.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FssSpec {
    pub id: &'static str,
    /// The id of the form it belongs to.
    pub form: &'static str,
    /// Whether it is the form's success (the form accepted the submission).
    pub success: bool,
    /// The feedback and what provokes it.
    pub description: &'static str,
}

/// How often a fault fired, and when first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultHit {
    pub id: String,
    pub count: u32,
    /// Unix time in milliseconds, like the timestamps of Curio's run records.
    pub first_at_ms: u64,
}

/// A cloneable handle on one served app's fault list and hit counts.
#[derive(Debug, Clone)]
pub struct GroundTruth {
    faults: &'static [FaultSpec],
    states: &'static [FssSpec],
    hits: Arc<Mutex<BTreeMap<String, FaultHit>>>,
}

impl GroundTruth {
    pub fn new(faults: &'static [FaultSpec]) -> Self {
        Self::with_states(faults, &[])
    }

    /// Ground truth that also records the Form Submission States of `states`.
    pub fn with_states(faults: &'static [FaultSpec], states: &'static [FssSpec]) -> Self {
        Self {
            faults,
            states,
            hits: Arc::default(),
        }
    }

    /// The app's Form Submission States, in the order the app declares them.
    pub fn states(&self) -> &[FssSpec] {
        self.states
    }

    /// The app's seeded faults, in the order the app declares them.
    pub fn faults(&self) -> &[FaultSpec] {
        self.faults
    }

    pub fn spec(&self, id: &str) -> Option<&FaultSpec> {
        self.faults.iter().find(|f| f.id == id)
    }

    /// Hits so far, ordered by fault id.
    pub fn hits(&self) -> Vec<FaultHit> {
        self.lock().values().cloned().collect()
    }

    /// Ids of the faults that fired at least once.
    pub fn triggered_ids(&self) -> BTreeSet<String> {
        self.lock().keys().cloned().collect()
    }

    /// Counts one occurrence of fault or state `id`; ids that are not this app's are
    /// ignored, so the truth holds only real faults and states.
    pub fn record(&self, id: &str) {
        let Some(known) = self
            .spec(id)
            .map(|f| f.id)
            .or_else(|| self.states.iter().find(|s| s.id == id).map(|s| s.id))
        else {
            return;
        };
        let now = unix_ms();
        let mut hits = self.lock();
        let hit = hits.entry(known.to_owned()).or_insert_with(|| FaultHit {
            id: known.to_owned(),
            count: 0,
            first_at_ms: now,
        });
        hit.count = hit.count.saturating_add(1);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, FaultHit>> {
        // A panic while holding the lock cannot leave the map half-updated in a way
        // that matters (one counter), so keep serving rather than cascade the panic.
        self.hits.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn unix_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

#[derive(Clone)]
struct TruthState {
    subject: &'static str,
    truth: GroundTruth,
}

/// The beacon and report endpoints, merged into every app.
pub(crate) fn routes(subject: &'static str, truth: GroundTruth) -> Router {
    Router::new()
        .route("/__truth", get(report))
        .route("/__truth/hit", post(hit))
        .with_state(TruthState { subject, truth })
}

/// `navigator.sendBeacon` always POSTs; the answer is 204 even for unknown ids so
/// that the beacon itself never shows up as a failed request.
async fn hit(
    State(state): State<TruthState>,
    Query(q): Query<HashMap<String, String>>,
) -> StatusCode {
    if let Some(id) = q.get("f") {
        state.truth.record(id);
    }
    StatusCode::NO_CONTENT
}

async fn report(State(state): State<TruthState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "subject": state.subject,
        "faults": state.truth.faults(),
        "states": state.truth.states(),
        "hits": state.truth.hits(),
    }))
}

/// Checks that each example finding `(fault id, message, url)`, worded as Curio words
/// it, carries the marker of its own fault and of no other, and that every fault has an
/// example.
#[cfg(test)]
pub(crate) fn assert_markers_tell_findings_apart(
    faults: &[FaultSpec],
    findings: &[(&str, &str, &str)],
) {
    for (id, message, url) in findings {
        for f in faults {
            let carried = message.contains(f.marker) || url.contains(f.marker);
            assert_eq!(
                carried,
                f.id == *id,
                "marker of {} in a finding of {id}",
                f.id
            );
        }
    }
    assert!(
        faults
            .iter()
            .all(|f| findings.iter().any(|(id, ..)| *id == f.id))
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    static FAULTS: [FaultSpec; 2] = [
        FaultSpec {
            id: "A",
            kind: FaultKind::ConsoleError,
            description: "a",
            depth_hint: 1,
            marker: "a failed",
        },
        FaultSpec {
            id: "B",
            kind: FaultKind::BrokenLink,
            description: "b",
            depth_hint: 2,
            marker: "/b",
        },
    ];

    #[test]
    fn records_known_ids_only() {
        let truth = GroundTruth::new(&FAULTS);
        truth.record("B");
        truth.record("nope");
        truth.record("B");
        let clone = truth.clone();
        clone.record("A");
        let hits = truth.hits();
        assert_eq!(hits.len(), 2);
        assert_eq!((hits[0].id.as_str(), hits[0].count), ("A", 1));
        assert_eq!((hits[1].id.as_str(), hits[1].count), ("B", 2));
        assert!(hits.iter().all(|h| h.first_at_ms > 0));
        assert_eq!(
            truth.triggered_ids(),
            BTreeSet::from(["A".to_owned(), "B".to_owned()])
        );
    }

    static STATES: [FssSpec; 1] = [FssSpec {
        id: "form.ok",
        form: "form",
        success: true,
        description: "accepted",
    }];

    #[test]
    fn records_states_beside_faults() {
        let truth = GroundTruth::with_states(&FAULTS, &STATES);
        truth.record("form.ok");
        truth.record("form.nope");
        truth.record("A");
        assert_eq!(
            truth.triggered_ids(),
            BTreeSet::from(["A".to_owned(), "form.ok".to_owned()])
        );
        assert_eq!(truth.states().len(), 1);
    }

    #[test]
    fn first_hit_time_is_kept() {
        let truth = GroundTruth::new(&FAULTS);
        truth.record("A");
        let first = truth.hits()[0].first_at_ms;
        std::thread::sleep(std::time::Duration::from_millis(5));
        truth.record("A");
        assert_eq!(truth.hits()[0].first_at_ms, first);
    }

    #[test]
    fn kinds_serialize_snake_case() {
        let json = serde_json::to_string(&FaultKind::UnhandledRejection).unwrap();
        assert_eq!(json, "\"unhandled_rejection\"");
    }
}
