//! The only crate that speaks CDP. It launches Chromium (or attaches to one over
//! `ws://`), opens tabs in their own browser contexts, performs user actions with real
//! mouse and key events, waits for the page to settle, and reports every outcome:
//! navigations, responses, console errors, exceptions, rejections, dialogs, popups and
//! crashes. None of the CDP library's types appear in this crate's public API.

mod cdp;
mod coverage;
mod error;
mod events;
mod input;
mod launch;
mod outcome;
mod scope;
mod settle;
mod tab;
mod upload;

pub use coverage::CoverageMap;
pub use error::{BrowserError, LaunchError};
pub use launch::{Browser, BrowserConfig, BrowserConfigBuilder, Timeouts, find_chrome};
pub use outcome::{Outcome, Response};
pub use scope::{Scope, browser_own};
pub use tab::{BUSY_IDLE, BUSY_STREAK, Capture, MAX_MATCHES, Tab, UserAction};
