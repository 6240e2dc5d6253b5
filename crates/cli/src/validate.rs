//! From raw arguments to a validated `RunConfig`, and the errors the binary knows, each
//! with its documented exit code.

use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use curio_browser::{BrowserConfig, Scope, Timeouts};
use curio_forms::Dictionary;
use curio_forms::session::SessionConfig;
use curio_page::UrlNormalization;
use curio_runner::{ActionGuard, Embedder, FormsConfig, RunConfig, RunError, StrategyKind};
use url::Url;

use crate::args::ModelArgs;
use crate::args::{BrowserArgs, FormsArgs, RunArgs};
use crate::config_file::Extras;

/// Why the binary stops without a result.
#[derive(Debug)]
pub(crate) enum Failure {
    /// Bad flags, URL or configuration: exit 2.
    Usage(String),
    /// The browser, the store or the network failed: exit 3.
    Infra(String),
}

impl Failure {
    pub(crate) fn exit_code(&self) -> u8 {
        match self {
            Failure::Usage(_) => 2,
            Failure::Infra(_) => 3,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Usage(m) | Failure::Infra(m) => f.write_str(m),
        }
    }
}

impl From<RunError> for Failure {
    fn from(e: RunError) -> Self {
        if let RunError::NoForms { .. } | RunError::Login { .. } | RunError::Selector { .. } = e {
            return Failure::Usage(e.to_string());
        }
        // One line: the chain of causes joined, as the user needs them.
        let mut message = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            let text = s.to_string();
            if !message.contains(&text) {
                message.push_str(": ");
                message.push_str(&text);
            }
            source = s.source();
        }
        Failure::Infra(message)
    }
}

/// Parses the start URL: absolute, http or https.
pub(crate) fn start_url(raw: &str) -> Result<Url, Failure> {
    let url = Url::parse(raw).map_err(|e| {
        Failure::Usage(format!(
            "invalid URL '{raw}': {e} (expected an absolute http:// or https:// URL)"
        ))
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Failure::Usage(format!(
            "invalid URL '{raw}': scheme '{}' is not supported (expected http:// or https://)",
            url.scheme()
        )));
    }
    Ok(url)
}

pub(crate) fn run_config(
    raw_url: &str,
    run: &RunArgs,
    browser: &BrowserArgs,
    default_time: Duration,
    extras: Extras,
) -> Result<RunConfig, Failure> {
    let start = start_url(raw_url)?;
    for origin in &run.origins {
        let ok = Url::parse(origin).is_ok_and(|u| matches!(u.scheme(), "http" | "https"));
        if !ok {
            return Err(Failure::Usage(format!(
                "invalid value '{origin}' for '--origin <URL>': expected an http:// or https:// origin"
            )));
        }
    }
    check_browser_ws(browser)?;
    let browser_config = browser_config(browser, Scope::new(&start, &run.origins))
        .coverage(!run.no_coverage)
        .build();
    let strategy = StrategyKind::from_name(&run.strategy).ok_or_else(|| {
        Failure::Usage(format!(
            "unknown strategy '{}' for '--strategy'",
            run.strategy
        ))
    })?;
    let mut features = strategy.default_features();
    for name in &run.enable {
        features.set(name, true);
    }
    for name in &run.disable {
        features.set(name, false);
    }
    // Chromium checks the selectors when the run starts; only an empty one is
    // refused here.
    if let Some(selector) = run.deny_selectors.iter().find(|s| s.trim().is_empty()) {
        return Err(Failure::Usage(format!(
            "invalid value '{selector}' for '--deny-selector <CSS>': an empty selector"
        )));
    }
    let guard = if run.no_default_deny {
        ActionGuard::only(&run.deny, &run.deny_selectors)
    } else {
        ActionGuard::with_defaults(&run.deny, &run.deny_selectors)
    };
    let dictionary = match (&run.inputs, &extras.inputs) {
        (None, Some(json)) => config_inputs(json)?,
        (path, _) => dictionary(path.as_deref())?,
    };
    let url_normalization = UrlNormalization {
        keep_query_values: run.keep_query_values,
        drop_query: run.drop_query,
        generalize_numeric_segments: !run.keep_numeric_segments,
    };
    let seed = run.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    Ok(RunConfig {
        start_url: start,
        time: run.time.unwrap_or(default_time),
        max_actions: run.max_actions,
        episode_steps: run
            .episode_steps
            .unwrap_or_else(|| strategy.default_episode_steps()),
        seed,
        strategy,
        features,
        stuck_after: run.stuck_after,
        tau: run.tau,
        guard,
        dictionary,
        url_normalization,
        verify_findings: !run.no_verify,
        out_dir: run.out.clone(),
        screenshots: !run.no_screenshots,
        login: extras.login,
        pages: extras.pages,
        llm: model_config(&run.model, None)?,
        browser: browser_config,
    })
}

fn check_browser_ws(browser: &BrowserArgs) -> Result<(), Failure> {
    if let Some(ws) = &browser.browser_ws {
        let ok = Url::parse(ws).is_ok_and(|u| matches!(u.scheme(), "ws" | "wss"));
        if !ok {
            return Err(Failure::Usage(format!(
                "invalid value '{ws}' for '--browser-ws <WS_URL>': expected a ws:// or wss:// DevTools URL"
            )));
        }
    }
    Ok(())
}

fn browser_config(browser: &BrowserArgs, scope: Scope) -> curio_browser::BrowserConfigBuilder {
    let timeouts = Timeouts {
        navigation: browser.nav_timeout,
        ..Timeouts::default()
    };
    BrowserConfig::builder()
        .chrome(browser.chrome.clone())
        .ws_url(browser.browser_ws.clone())
        .timeouts(timeouts)
        .scope(scope)
}

/// The input values of the config file's `[inputs]` table (as JSON).
fn config_inputs(json: &str) -> Result<Dictionary, Failure> {
    Dictionary::from_json(json)
        .map_err(|e| Failure::Usage(format!("invalid [inputs] in the config file: {e}")))
}

/// The input values of an `--inputs` file; none without one.
fn dictionary(path: Option<&Path>) -> Result<Dictionary, Failure> {
    let Some(path) = path else {
        return Ok(Dictionary::empty());
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::Usage(format!("cannot read --inputs file {}: {e}", path.display()))
    })?;
    Dictionary::from_json(&text)
        .map_err(|e| Failure::Usage(format!("invalid --inputs file {}: {e}", path.display())))
}

/// `curio forms` arguments, checked.
pub(crate) fn forms_config(
    raw_url: &str,
    forms: &FormsArgs,
    browser: &BrowserArgs,
    extras: Extras,
) -> Result<FormsConfig, Failure> {
    let url = start_url(raw_url)?;
    check_browser_ws(browser)?;
    let browser_config = browser_config(browser, Scope::new(&url, &[]))
        .coverage(false)
        .build();
    let off = |part: &str| forms.disable.iter().any(|d| d == part);
    let llm = model_config(&forms.model, forms.llm_embed_model.as_deref())?;
    if off("rules") && llm.is_none() {
        return Err(Failure::Usage(
            "--disable rules leaves the model's constraints alone, and needs a model (--llm-url and --llm-model, or --llm-local)".to_string(),
        ));
    }
    let session = SessionConfig {
        max_submissions: forms.max_submissions as usize,
        refine: !off("feedback"),
        negate: !off("negation"),
        probe: !off("probes"),
        ..SessionConfig::default()
    };
    Ok(FormsConfig {
        url: url.to_string(),
        browser: browser_config,
        seed: forms.seed,
        dictionary: match (&forms.inputs, &extras.inputs) {
            (None, Some(json)) => config_inputs(json)?,
            (path, _) => dictionary(path.as_deref())?,
        },
        session,
        replays: forms.replays,
        only: forms.only.iter().map(|n| *n as usize - 1).collect(),
        out_dir: forms.out.clone(),
        use_ferg: !off("ferg"),
        embedder: match forms.embedder.as_str() {
            "minilm" => Embedder::MiniLm,
            "llm" => match (&forms.model.llm_url, &forms.llm_embed_model) {
                (Some(url), Some(model)) => Embedder::Endpoint(curio_llm::LlmConfig::from_env_key(
                    checked_llm_url(url)?,
                    model.clone(),
                )),
                _ => {
                    return Err(Failure::Usage(
                        "--embedder llm needs --llm-url and --llm-embed-model".to_string(),
                    ));
                }
            },
            _ => Embedder::Lexical,
        },
        llm,
        prompt: curio_forms::prompt::PromptParts {
            date: !off("prompt-date"),
            form: !off("prompt-form"),
            ferg: !off("prompt-ferg"),
        },
        rules: !off("rules"),
        login: extras.login,
    })
}

/// The model of `--llm-url` and `--llm-model`, its key from the environment. A URL
/// without a chat model is allowed when it serves `embed_model` (`curio forms
/// --embedder llm`).
fn model_config(
    model: &ModelArgs,
    embed_model: Option<&str>,
) -> Result<Option<curio_llm::LlmConfig>, Failure> {
    if let Some(path) = &model.llm_local {
        if model.llm_model.is_some() {
            return Err(Failure::Usage(
                "--llm-local and --llm-model name two models; give one".to_string(),
            ));
        }
        if !curio_llm::LOCAL_AVAILABLE {
            return Err(Failure::Usage(format!(
                "--llm-local {}: {}",
                path.display(),
                curio_llm::LOCAL_UNAVAILABLE
            )));
        }
        if !path.is_file() {
            return Err(Failure::Usage(format!(
                "--llm-local {}: no such file (scripts/fetch-smollm2 installs SmolLM2-135M-Instruct)",
                path.display()
            )));
        }
        if let Some(url) = &model.llm_url {
            checked_llm_url(url)?;
        }
        return Ok(Some(curio_llm::LlmConfig {
            threads: model.llm_threads.max(1) as usize,
            ..curio_llm::LlmConfig::local(path)
        }));
    }
    match (&model.llm_url, &model.llm_model) {
        (Some(url), Some(name)) => Ok(Some(curio_llm::LlmConfig::from_env_key(
            checked_llm_url(url)?,
            name.clone(),
        ))),
        (Some(url), None) if embed_model.is_some() => checked_llm_url(url).map(|_| None),
        (Some(_), None) => Err(Failure::Usage(
            "--llm-url needs --llm-model (to ask for constraints and values) or, for curio forms, --llm-embed-model (with --embedder llm)".to_string(),
        )),
        (None, Some(_)) => Err(Failure::Usage("--llm-model needs --llm-url".to_string())),
        (None, None) => Ok(None),
    }
}

/// `--llm-url`, checked: an http(s) URL, without a trailing slash.
fn checked_llm_url(url: &str) -> Result<&str, Failure> {
    match url::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => Ok(url.trim_end_matches('/')),
        _ => Err(Failure::Usage(format!(
            "--llm-url {url:?} is not an http(s) URL"
        ))),
    }
}

/// The browser for `curio replay`: scoped like the run that is replayed.
pub(crate) fn replay_browser(
    browser: &BrowserArgs,
    scope: Scope,
) -> Result<BrowserConfig, Failure> {
    check_browser_ws(browser)?;
    Ok(browser_config(browser, scope).coverage(false).build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_must_be_absolute_http() {
        assert!(matches!(start_url("not-a-url"), Err(Failure::Usage(_))));
        assert!(matches!(start_url("ftp://x/"), Err(Failure::Usage(_))));
        assert!(start_url("http://127.0.0.1:9/").is_ok());
    }
}
