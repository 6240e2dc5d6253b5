//! Small axum web apps for Curio to explore, each a [`Subject`]:
//!
//! - `demo`, "Curio Shop": a small shop with five shallow seeded faults (2-4 steps), the
//!   app of Curio's demo.
//! - `tracker`, "Curio Tracker": a project-tracker back office (projects, tasks,
//!   comments, time, settings, billing; about 30 page kinds) with fifteen seeded faults
//!   2 to 11 steps deep, behind valid server-checked forms, particular orders of
//!   actions, invalid input and objects created during the run; with irreversible
//!   actions (delete, log out, reset, cancel subscription) for a guard to avoid.
//! - `gallery`, "Curio Forms": realistic forms in FormNexus' four categories (travel,
//!   registration, data entry, query) with every Form Submission State recorded.
//! - `testbed`: one page per browser behaviour, for the browser layer's tests, and pages
//!   in the shape of real apps' (popup pickers, a framework's admin login); no faults.
//!
//! The apps with faults keep ground truth of which ones fired, recorded at the moment
//! each fires (server-side in the handler, client-side by a beacon just before), and
//! report it at `GET /__truth`. [`serve`] starts an app on a free loopback port and
//! hands back a [`RunningSubject`].

mod demo;
mod gallery;
mod ground_truth;
mod html;
mod lookalike;
mod serve;
mod testbed;
mod tracker;

pub use gallery::{FORMS as GALLERY_FORMS, FormCategory, GalleryForm};
pub use ground_truth::{FaultHit, FaultKind, FaultSpec, FssSpec, GroundTruth};
pub use serve::{RunningSubject, Subject, UnknownSubject, serve, serve_on_port};
