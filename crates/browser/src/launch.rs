//! Finding, launching or attaching to Chromium.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use chromiumoxide::browser::BrowserConfig as CdpConfig;
use futures::StreamExt;
use tokio::task::JoinHandle;

use crate::error::{BrowserError, LaunchError};
use crate::scope::Scope;
use crate::tab::Tab;

/// Flags (the launcher adds the leading `--`) that keep a headless Chromium quiet on a
/// closed network; without the background-networking ones it keeps trying to reach its
/// update and sync services.
const CHROME_FLAGS: [&str; 7] = [
    "disable-gpu",
    "disable-quic",
    "no-first-run",
    "disable-background-networking",
    "disable-component-update",
    "disable-sync",
    "disable-dev-shm-usage",
];

const CANDIDATES: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

/// Hard limits on waiting for the browser and the page. Every wait has one, so a page
/// that never finishes loading never hangs a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Timeouts {
    /// One CDP call.
    pub command: Duration,
    /// A main-frame navigation, from start to the load event.
    pub navigation: Duration,
    /// How long to look for a navigation that an action may have started.
    pub navigation_grace: Duration,
    /// Quiet period for network and DOM before a page counts as settled.
    pub quiet: Duration,
    /// Longest wait, after loading, for network and DOM quiet and for short timers
    /// the page set (a debounced search, a delayed fetch) to fire.
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            command: Duration::from_secs(10),
            navigation: Duration::from_secs(15),
            navigation_grace: Duration::from_millis(60),
            quiet: Duration::from_millis(60),
            idle: Duration::from_secs(3),
        }
    }
}

/// How to get a browser: launch a local one or attach over `ws://`.
#[derive(Debug, Clone)]
pub struct BrowserConfig {
    pub chrome: Option<PathBuf>,
    pub ws_url: Option<String>,
    pub window: (u32, u32),
    pub timeouts: Timeouts,
    pub scope: Scope,
    pub coverage: bool,
}

impl BrowserConfig {
    pub fn builder() -> BrowserConfigBuilder {
        BrowserConfigBuilder {
            config: BrowserConfig {
                chrome: None,
                ws_url: None,
                window: (1280, 800),
                timeouts: Timeouts::default(),
                scope: Scope::default(),
                coverage: false,
            },
        }
    }
}

#[derive(Debug, Clone)]
pub struct BrowserConfigBuilder {
    config: BrowserConfig,
}

impl BrowserConfigBuilder {
    /// The Chromium binary; when unset, [`find_chrome`] decides.
    pub fn chrome(mut self, path: Option<PathBuf>) -> Self {
        self.config.chrome = path;
        self
    }
    /// Attach to a running browser's DevTools WebSocket instead of launching one.
    pub fn ws_url(mut self, url: Option<String>) -> Self {
        self.config.ws_url = url;
        self
    }
    pub fn window(mut self, width: u32, height: u32) -> Self {
        self.config.window = (width, height);
        self
    }
    pub fn timeouts(mut self, timeouts: Timeouts) -> Self {
        self.config.timeouts = timeouts;
        self
    }
    pub fn scope(mut self, scope: Scope) -> Self {
        self.config.scope = scope;
        self
    }
    /// Collect block-level JavaScript coverage in every tab.
    pub fn coverage(mut self, on: bool) -> Self {
        self.config.coverage = on;
        self
    }
    pub fn build(self) -> BrowserConfig {
        self.config
    }
}

/// Finds the browser: `explicit`, then `CURIO_CHROME`, then the usual names on `PATH`.
pub fn find_chrome(explicit: Option<&Path>) -> Result<PathBuf, LaunchError> {
    let env = std::env::var_os("CURIO_CHROME").filter(|v| !v.is_empty());
    if let Some(path) = explicit.map(Path::to_path_buf).or(env.map(PathBuf::from)) {
        return if is_executable(&path) {
            Ok(path)
        } else {
            Err(LaunchError::NotExecutable { path })
        };
    }
    let path_var = std::env::var_os("PATH").unwrap_or_default();
    for name in CANDIDATES {
        for dir in std::env::split_paths(&path_var) {
            let candidate = dir.join(name);
            if is_executable(&candidate) {
                return Ok(candidate);
            }
        }
    }
    Err(LaunchError::NotFound)
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// A running (or attached) browser. The CDP connection runs as a background task, so
/// callers never poll anything to make progress.
pub struct Browser {
    pub(crate) inner: Arc<chromiumoxide::Browser>,
    handler: JoinHandle<()>,
    version: String,
    pub(crate) config: BrowserConfig,
    launched: bool,
    _profile: Option<tempfile::TempDir>,
}

impl std::fmt::Debug for Browser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Browser")
            .field("version", &self.version)
            .field("launched", &self.launched)
            .finish()
    }
}

impl Browser {
    /// Launches Chromium, or attaches to `config.ws_url` when set.
    pub async fn start(config: BrowserConfig) -> Result<Browser, LaunchError> {
        match config.ws_url.clone() {
            Some(url) => Self::connect(url, config).await,
            None => Self::launch(config).await,
        }
    }

    async fn launch(config: BrowserConfig) -> Result<Browser, LaunchError> {
        let path = find_chrome(config.chrome.as_deref())?;
        let profile = tempfile::Builder::new()
            .prefix("curio-profile-")
            .tempdir()
            .map_err(LaunchError::Profile)?;
        let cdp_config = CdpConfig::builder()
            .chrome_executable(&path)
            .disable_default_args()
            .no_sandbox()
            .args(CHROME_FLAGS)
            .user_data_dir(profile.path())
            .window_size(config.window.0, config.window.1)
            .viewport(None)
            .launch_timeout(Duration::from_secs(30))
            .request_timeout(config.timeouts.command)
            .build()
            .map_err(|reason| LaunchError::Launch {
                path: path.clone(),
                reason,
            })?;
        let (inner, handler) = chromiumoxide::Browser::launch(cdp_config)
            .await
            .map_err(|e| LaunchError::Launch {
                path: path.clone(),
                reason: e.to_string(),
            })?;
        Self::finish(
            inner,
            handler,
            config,
            true,
            Some(profile),
            &path.display().to_string(),
        )
        .await
    }

    async fn connect(url: String, config: BrowserConfig) -> Result<Browser, LaunchError> {
        let attempt = tokio::time::timeout(
            Duration::from_secs(10),
            chromiumoxide::Browser::connect(url.clone()),
        )
        .await;
        let (inner, handler) = match attempt {
            Err(_) => {
                return Err(LaunchError::Connect {
                    url,
                    reason: "no answer within 10s".into(),
                });
            }
            Ok(Err(e)) => {
                return Err(LaunchError::Connect {
                    url,
                    reason: e.to_string(),
                });
            }
            Ok(Ok(pair)) => pair,
        };
        Self::finish(inner, handler, config, false, None, &url).await
    }

    async fn finish(
        inner: chromiumoxide::Browser,
        mut handler: chromiumoxide::Handler,
        config: BrowserConfig,
        launched: bool,
        profile: Option<tempfile::TempDir>,
        what: &str,
    ) -> Result<Browser, LaunchError> {
        // The handler drives the whole connection; an error in one message (a newer
        // Chromium's event the library cannot parse) must not stop it.
        let handler = tokio::spawn(async move { while handler.next().await.is_some() {} });
        let version = match tokio::time::timeout(config.timeouts.command, inner.version()).await {
            Ok(Ok(v)) => v.product,
            Ok(Err(e)) => {
                handler.abort();
                return Err(LaunchError::Connect {
                    url: what.to_string(),
                    reason: e.to_string(),
                });
            }
            Err(_) => {
                handler.abort();
                return Err(LaunchError::Connect {
                    url: what.to_string(),
                    reason: "the browser did not answer Browser.getVersion".into(),
                });
            }
        };
        Ok(Browser {
            inner: Arc::new(inner),
            handler,
            version,
            config,
            launched,
            _profile: profile,
        })
    }

    /// Product and version, e.g. `Chrome/156.0.8078.73`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The DevTools WebSocket URL, for attaching other clients.
    pub fn ws_url(&self) -> &str {
        self.inner.websocket_address()
    }

    pub fn config(&self) -> &BrowserConfig {
        &self.config
    }

    /// Opens a tab in a browser context of its own (own cookies, storage and cache).
    pub async fn new_tab(&self) -> Result<Tab, BrowserError> {
        Tab::open(self).await
    }

    /// Closes a launched browser (an attached one is left running) and stops the
    /// connection task.
    pub async fn close(self) {
        if self.launched
            && let Ok(mut inner) = Arc::try_unwrap(self.inner)
        {
            let _ = tokio::time::timeout(Duration::from_secs(5), inner.close()).await;
            let _ = tokio::time::timeout(Duration::from_secs(5), inner.wait()).await;
        }
        self.handler.abort();
    }
}
