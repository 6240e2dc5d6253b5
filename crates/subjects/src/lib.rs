//! Small axum web apps for Curio to explore: the "Curio Shop" demo with seeded faults
//! and ground truth of which ones fired, and a testbed with one page per browser
//! behaviour for the browser layer's tests.
//!
//! [`serve`] starts an app on a free loopback port and hands back a [`RunningSubject`].

mod demo;
mod ground_truth;
mod html;
mod serve;
mod testbed;

pub use ground_truth::{FaultHit, FaultKind, FaultSpec, GroundTruth};
pub use serve::{RunningSubject, Subject, UnknownSubject, serve, serve_on_port};
