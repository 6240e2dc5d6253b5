//! Untyped CDP calls with a deadline. Most calls go through here rather than through
//! the library's typed builders: we need only a few fields of each answer, and an untyped
//! call keeps working when a newer Chromium adds or renames fields.

use std::borrow::Cow;
use std::time::Duration;

use chromiumoxide::Page;
use chromiumoxide::types::{Command, Method, MethodId};
use serde::Serialize;
use serde_json::Value;

use crate::error::BrowserError;

/// A CDP method call with raw JSON parameters and a raw JSON answer.
#[derive(Debug, Clone)]
pub(crate) struct Raw {
    method: &'static str,
    params: Value,
}

impl Raw {
    pub(crate) fn new(method: &'static str, params: Value) -> Self {
        Raw { method, params }
    }
}

impl Serialize for Raw {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.params.serialize(s)
    }
}

impl Method for Raw {
    fn identifier(&self) -> MethodId {
        Cow::Borrowed(self.method)
    }
}

impl Command for Raw {
    type Response = Value;
}

/// Runs any typed command with a deadline.
pub(crate) async fn execute<C: Command>(
    page: &Page,
    cmd: C,
    deadline: Duration,
) -> Result<C::Response, BrowserError> {
    let method = cmd.identifier().into_owned();
    match tokio::time::timeout(deadline, page.execute(cmd)).await {
        Err(_) => Err(BrowserError::Timeout {
            method,
            after: deadline,
        }),
        Ok(Err(e)) => Err(BrowserError::Call {
            method,
            reason: e.to_string(),
        }),
        Ok(Ok(resp)) => Ok(resp.result),
    }
}

/// Calls `method` with `params` and returns the raw answer.
pub(crate) async fn call(
    page: &Page,
    method: &'static str,
    params: Value,
    deadline: Duration,
) -> Result<Value, BrowserError> {
    execute(page, Raw { method, params }, deadline).await
}
