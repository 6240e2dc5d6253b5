//! Serving an app: bind a loopback port, run axum in a task, shut down on request.
//!
//! Apps are only ever bound to 127.0.0.1: they exist to be explored by a browser on the
//! same machine, and nothing else should reach them.

use std::fmt;
use std::net::{Ipv4Addr, SocketAddr};
use std::str::FromStr;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::ground_truth::{self, FaultSpec, FssSpec, GroundTruth};
use crate::{demo, gallery, testbed, tracker};

/// How long [`RunningSubject::shutdown`] waits for open connections to finish before it
/// abandons them. Stalling handlers watch the shutdown signal, so this is only a
/// backstop against a client that never reads.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Which app to serve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Subject {
    /// "Curio Shop": a small shop with five seeded faults.
    Demo,
    /// One page per browser behaviour, for the browser layer's tests; no faults.
    Testbed,
    /// "Curio Tracker": a project-tracker back office, wider and deeper than the shop,
    /// with fifteen seeded faults 2 to 11 steps from its dashboard.
    Tracker,
    /// "Curio Forms": a gallery of realistic forms in FormNexus' four categories, with
    /// every Form Submission State of each recorded by the app.
    Gallery,
}

impl Subject {
    pub const ALL: [Subject; 4] = [
        Subject::Demo,
        Subject::Testbed,
        Subject::Tracker,
        Subject::Gallery,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Subject::Demo => "demo",
            Subject::Testbed => "testbed",
            Subject::Tracker => "tracker",
            Subject::Gallery => "gallery",
        }
    }

    /// The app's seeded faults, without serving it.
    pub fn faults(&self) -> &'static [FaultSpec] {
        match self {
            Subject::Demo => &demo::FAULTS,
            Subject::Testbed => &[],
            Subject::Tracker => &tracker::FAULTS,
            Subject::Gallery => &[],
        }
    }

    /// The app's Form Submission States, without serving it (only the gallery has any).
    pub fn states(&self) -> &'static [FssSpec] {
        match self {
            Subject::Gallery => &gallery::STATES,
            _ => &[],
        }
    }
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown subject {0:?}: expected \"demo\", \"testbed\", \"tracker\" or \"gallery\"")]
pub struct UnknownSubject(pub String);

impl FromStr for Subject {
    type Err = UnknownSubject;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Subject::ALL
            .into_iter()
            .find(|subject| subject.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownSubject(s.to_owned()))
    }
}

/// Lets handlers that deliberately stall give up as soon as the app shuts down, so that
/// graceful shutdown does not wait minutes for them.
#[derive(Debug, Clone)]
pub(crate) struct Stop(watch::Receiver<bool>);

impl Stop {
    /// Sleeps for `duration`, or less if the app is shutting down.
    pub(crate) async fn sleep(&self, duration: Duration) {
        let mut rx = self.0.clone();
        tokio::select! {
            () = tokio::time::sleep(duration) => {}
            // An error means the sender is gone, which also means shutdown.
            _ = rx.wait_for(|stopping| *stopping) => {}
        }
    }
}

/// A served app. Dropping it also shuts the server down, but without waiting.
#[derive(Debug)]
pub struct RunningSubject {
    subject: Subject,
    addr: SocketAddr,
    truth: GroundTruth,
    stop: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
}

impl RunningSubject {
    pub fn subject(&self) -> Subject {
        self.subject
    }

    /// `http://127.0.0.1:PORT/`.
    pub fn base_url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn ground_truth(&self) -> &GroundTruth {
        &self.truth
    }

    /// An absolute URL for `path`, with or without its leading slash.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url(), path.trim_start_matches('/'))
    }

    /// Stops accepting connections, lets open ones finish (stalling handlers end at
    /// once) and waits for the server task, abandoning it after a few seconds.
    pub async fn shutdown(self) {
        let RunningSubject { stop, mut task, .. } = self;
        // No receiver left only means the server already stopped.
        let _ = stop.send(true);
        if tokio::time::timeout(SHUTDOWN_GRACE, &mut task)
            .await
            .is_err()
        {
            task.abort();
        }
    }
}

/// Serves `subject` on 127.0.0.1 with a port the OS picks.
pub async fn serve(subject: Subject) -> std::io::Result<RunningSubject> {
    serve_on_port(subject, 0).await
}

/// Serves `subject` on 127.0.0.1:`port` (0 lets the OS pick). Only the loopback address
/// is ever bound.
pub async fn serve_on_port(subject: Subject, port: u16) -> std::io::Result<RunningSubject> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
    let addr = listener.local_addr()?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let stop = Stop(stop_rx.clone());
    let truth = GroundTruth::with_states(subject.faults(), subject.states());

    let app: Router = match subject {
        Subject::Demo => demo::router(truth.clone()),
        Subject::Testbed => testbed::router(stop),
        Subject::Tracker => tracker::router(truth.clone()),
        Subject::Gallery => gallery::router(truth.clone()),
    }
    .merge(ground_truth::routes(subject.name(), truth.clone()));

    let mut shutdown_rx = stop_rx;
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                // Err: the handle was dropped, which means shutdown as well.
                let _ = shutdown_rx.wait_for(|stopping| *stopping).await;
            })
            .await
    });

    Ok(RunningSubject {
        subject,
        addr,
        truth,
        stop: stop_tx,
        task,
    })
}
