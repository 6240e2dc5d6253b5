//! `curio.toml`: every flag has a key (named as the flag, grouped in tables), and a flag
//! given on the command line (or by its environment variable) wins over the file. Keys
//! the file does not know are errors that name the key and its line. Besides flags, the
//! file holds what is too long for a command line: login steps, the pages to explore or
//! avoid, input dictionaries.

use std::path::{Path, PathBuf};

use clap::ArgMatches;
use clap::parser::ValueSource;
use curio_record::{Step, StepKind};
use curio_runner::{Credentials, Login, PageFilter, SavedSession};
use regex::Regex;
use serde::Deserialize;
use url::Url;

use crate::args::{BrowserArgs, FormsArgs, ModelArgs, ReportArgs, RunArgs, parse_duration};
use crate::validate::Failure;

/// The file read when `--config` is not given, if it exists.
pub(crate) const DEFAULT_FILE: &str = "curio.toml";

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct ConfigFile {
    /// The folder of the file, which relative paths in it start from.
    #[serde(skip)]
    pub dir: Option<PathBuf>,
    /// Start URL of `curio explore`, page of `curio forms`.
    pub url: Option<String>,
    pub seed: Option<u64>,
    pub out: Option<PathBuf>,
    #[serde(default)]
    pub budget: Budget,
    #[serde(default)]
    pub explore: Explore,
    #[serde(default)]
    pub scope: ScopeKeys,
    #[serde(default)]
    pub deny: Deny,
    /// Values to type: `fields` by field name, `semantics` by kind of field.
    pub inputs: Option<toml::Table>,
    pub login: Option<LoginKeys>,
    #[serde(default)]
    pub forms: FormsKeys,
    #[serde(default)]
    pub llm: LlmKeys,
    #[serde(default)]
    pub browser: BrowserKeys,
    #[serde(default)]
    pub report: ReportKeys,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Budget {
    pub time: Option<String>,
    pub max_actions: Option<u32>,
    pub episode_steps: Option<u32>,
    pub stuck_after: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Explore {
    pub strategy: Option<String>,
    pub tau: Option<f64>,
    pub disable: Option<Vec<String>>,
    pub enable: Option<Vec<String>>,
    pub verify: Option<bool>,
    pub screenshots: Option<bool>,
    pub coverage: Option<bool>,
    pub keep_query_values: Option<bool>,
    pub drop_query: Option<bool>,
    pub keep_numeric_segments: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct ScopeKeys {
    /// More origins that belong to the app.
    pub origins: Option<Vec<String>>,
    /// Regular expressions over URLs: only pages that match one are explored.
    #[serde(default)]
    pub include: Vec<String>,
    /// Regular expressions over URLs: pages that match one are never explored.
    #[serde(default)]
    pub exclude: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Deny {
    pub text: Option<Vec<String>>,
    pub selectors: Option<Vec<String>>,
    /// Keep the built-in phrases (log out, delete, reset, ...).
    pub defaults: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct LoginKeys {
    /// The two-line login: the page with the login form (relative to `url`), the user
    /// name, and the environment variable holding the password. Curio finds the form.
    pub url: Option<String>,
    pub username: Option<String>,
    pub username_env: Option<String>,
    pub password_env: Option<String>,
    #[serde(default)]
    pub steps: Vec<LoginStep>,
    /// A selector that matches on every page while logged in.
    pub check: Option<String>,
    /// A Playwright `storageState` file (cookies, local storage) of a logged-in browser,
    /// put in place before the steps; relative to the config file's folder.
    pub storage_state: Option<PathBuf>,
}

/// One login step: exactly one of `goto`, `click`, `fill`, `select`, `check`; `fill`
/// and `select` take `value`, or `value-env`, the environment variable holding it (so
/// that passwords stay out of the file).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct LoginStep {
    pub goto: Option<String>,
    pub click: Option<String>,
    pub fill: Option<String>,
    pub select: Option<String>,
    pub check: Option<String>,
    pub value: Option<String>,
    pub value_env: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct FormsKeys {
    pub out: Option<PathBuf>,
    pub max_submissions: Option<u32>,
    pub replays: Option<u32>,
    pub embedder: Option<String>,
    pub only: Option<Vec<u32>>,
    pub disable: Option<Vec<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct LlmKeys {
    pub url: Option<String>,
    pub model: Option<String>,
    pub embed_model: Option<String>,
    pub local: Option<PathBuf>,
    pub threads: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct BrowserKeys {
    pub chrome: Option<PathBuf>,
    pub ws: Option<String>,
    pub nav_timeout: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct ReportKeys {
    pub html: Option<PathBuf>,
    pub junit: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub fail_on: Option<String>,
}

/// What only the file can say, checked, for the runner.
#[derive(Debug, Default)]
pub(crate) struct Extras {
    pub login: Option<Login>,
    pub pages: PageFilter,
    /// The `[inputs]` table as the JSON `--inputs` files hold.
    pub inputs: Option<String>,
}

impl ConfigFile {
    /// The file of `--config`, else `curio.toml` here if there is one, else no file.
    pub fn load(explicit: Option<&Path>) -> Result<(ConfigFile, Option<PathBuf>), Failure> {
        let path = match explicit {
            Some(p) => p.to_path_buf(),
            None if Path::new(DEFAULT_FILE).is_file() => PathBuf::from(DEFAULT_FILE),
            None => return Ok((ConfigFile::default(), None)),
        };
        let text = std::fs::read_to_string(&path).map_err(|e| {
            Failure::Usage(format!("cannot read config file {}: {e}", path.display()))
        })?;
        let mut file = ConfigFile::parse(&text)
            .map_err(|e| Failure::Usage(format!("invalid config file {}: {e}", path.display())))?;
        file.dir = path.parent().map(Path::to_path_buf);
        Ok((file, Some(path)))
    }

    pub fn parse(text: &str) -> Result<ConfigFile, String> {
        toml::from_str(text).map_err(|e| e.to_string().trim_end().to_string())
    }

    /// The start URL: the command line's, else the file's.
    pub fn url(&self, given: Option<String>, command: &str) -> Result<String, Failure> {
        given.or_else(|| self.url.clone()).ok_or_else(|| {
            Failure::Usage(format!(
                "curio {command}: no URL: give one, or set `url` in {DEFAULT_FILE}"
            ))
        })
    }

    /// Fills the run flags not given on the command line from the file.
    pub fn apply_run(&self, run: &mut RunArgs, m: &ArgMatches) -> Result<(), Failure> {
        let g = |id: &str| given(m, id);
        if !g("time")
            && let Some(t) = &self.budget.time
        {
            run.time = Some(parse_duration(t).map_err(|e| key_err("budget.time", t, &e))?);
        }
        set(
            &mut run.max_actions,
            g("max_actions"),
            self.budget.max_actions,
        );
        set(
            &mut run.episode_steps,
            g("episode_steps"),
            self.budget.episode_steps,
        );
        set(
            &mut run.stuck_after,
            g("stuck_after"),
            self.budget.stuck_after,
        );
        if !g("tau")
            && let Some(t) = self.explore.tau
        {
            let t = crate::args::parse_tau(&t.to_string())
                .map_err(|e| key_err("explore.tau", &t.to_string(), &e))?;
            run.tau = Some(t);
        }
        set(&mut run.seed, g("seed"), self.seed);
        set_value(&mut run.strategy, g("strategy"), &self.explore.strategy);
        set_value(&mut run.disable, g("disable"), &self.explore.disable);
        set_value(&mut run.enable, g("enable"), &self.explore.enable);
        set_value(&mut run.out, g("out"), &self.out);
        set_value(&mut run.origins, g("origins"), &self.scope.origins);
        set_value(&mut run.deny, g("deny"), &self.deny.text);
        set_value(
            &mut run.deny_selectors,
            g("deny_selectors"),
            &self.deny.selectors,
        );
        let off = |slot: &mut bool, id: &str, on: Option<bool>| {
            if !given(m, id)
                && let Some(on) = on
            {
                *slot = !on;
            }
        };
        self.apply_model(&mut run.model, m);
        off(
            &mut run.no_default_deny,
            "no_default_deny",
            self.deny.defaults,
        );
        off(&mut run.no_verify, "no_verify", self.explore.verify);
        off(
            &mut run.no_screenshots,
            "no_screenshots",
            self.explore.screenshots,
        );
        off(&mut run.no_coverage, "no_coverage", self.explore.coverage);
        let on = |slot: &mut bool, id: &str, on: Option<bool>| {
            if !given(m, id)
                && let Some(on) = on
            {
                *slot = on;
            }
        };
        on(
            &mut run.keep_query_values,
            "keep_query_values",
            self.explore.keep_query_values,
        );
        on(&mut run.drop_query, "drop_query", self.explore.drop_query);
        on(
            &mut run.keep_numeric_segments,
            "keep_numeric_segments",
            self.explore.keep_numeric_segments,
        );
        for (key, names) in [
            ("explore.disable", &run.disable),
            ("explore.enable", &run.enable),
        ] {
            if let Some(bad) = names
                .iter()
                .find(|n| !crate::args::FEATURES.contains(&n.as_str()))
            {
                return Err(key_err(
                    key,
                    bad,
                    &format!("expected one of {}", crate::args::FEATURES.join(", ")),
                ));
            }
        }
        Ok(())
    }

    /// Fills the `curio forms` flags not given on the command line from the file.
    pub fn apply_forms(&self, forms: &mut FormsArgs, m: &ArgMatches) {
        let g = |id: &str| given(m, id);
        set_value(&mut forms.out, g("out"), &self.forms.out);
        set_value(
            &mut forms.max_submissions,
            g("max_submissions"),
            &self.forms.max_submissions,
        );
        set_value(&mut forms.replays, g("replays"), &self.forms.replays);
        set_value(&mut forms.embedder, g("embedder"), &self.forms.embedder);
        set_value(&mut forms.only, g("only"), &self.forms.only);
        set_value(&mut forms.disable, g("disable"), &self.forms.disable);
        set_value(&mut forms.seed, g("seed"), &self.seed);
        self.apply_model(&mut forms.model, m);
        set(
            &mut forms.llm_embed_model,
            g("llm_embed_model"),
            self.llm.embed_model.clone(),
        );
    }

    /// Fills the model flags not given on the command line from the file.
    fn apply_model(&self, model: &mut ModelArgs, m: &ArgMatches) {
        set(
            &mut model.llm_url,
            given(m, "llm_url"),
            self.llm.url.clone(),
        );
        set(
            &mut model.llm_model,
            given(m, "llm_model"),
            self.llm.model.clone(),
        );
        set(
            &mut model.llm_local,
            given(m, "llm_local"),
            self.llm.local.clone(),
        );
        set_value(
            &mut model.llm_threads,
            given(m, "llm_threads"),
            &self.llm.threads,
        );
    }

    /// Fills the browser flags not given on the command line from the file.
    pub fn apply_browser(&self, browser: &mut BrowserArgs, m: &ArgMatches) -> Result<(), Failure> {
        set(
            &mut browser.chrome,
            given(m, "chrome"),
            self.browser.chrome.clone(),
        );
        set(
            &mut browser.browser_ws,
            given(m, "browser_ws"),
            self.browser.ws.clone(),
        );
        if !given(m, "nav_timeout")
            && let Some(t) = &self.browser.nav_timeout
        {
            browser.nav_timeout =
                parse_duration(t).map_err(|e| key_err("browser.nav-timeout", t, &e))?;
        }
        Ok(())
    }

    /// Fills the report flags not given on the command line from the file.
    pub fn apply_reports(&self, reports: &mut ReportArgs, m: &ArgMatches) -> Result<(), Failure> {
        set(
            &mut reports.report_html,
            given(m, "report_html"),
            self.report.html.clone(),
        );
        set(
            &mut reports.report_junit,
            given(m, "report_junit"),
            self.report.junit.clone(),
        );
        set(
            &mut reports.report_json,
            given(m, "report_json"),
            self.report.json.clone(),
        );
        if !given(m, "fail_on")
            && let Some(level) = &self.report.fail_on
        {
            reports.fail_on = Some(
                crate::args::parse_fail_on(level)
                    .map_err(|e| key_err("report.fail-on", level, &e))?,
            );
        }
        Ok(())
    }

    /// Login steps, page filter and inputs, checked; relative URLs are resolved against
    /// `start`.
    pub fn extras(&self, start: &Url) -> Result<Extras, Failure> {
        let patterns = |key: &str, list: &[String]| -> Result<Vec<Regex>, Failure> {
            list.iter()
                .map(|p| Regex::new(p).map_err(|e| key_err(key, p, &e.to_string())))
                .collect()
        };
        let pages = PageFilter {
            include: patterns("scope.include", &self.scope.include)?,
            exclude: patterns("scope.exclude", &self.scope.exclude)?,
        };
        let login = match &self.login {
            Some(login)
                if !login.steps.is_empty()
                    || login.check.is_some()
                    || login.storage_state.is_some()
                    || login.url.is_some() =>
            {
                Some(login_steps(login, start, self.dir.as_deref())?)
            }
            _ => None,
        };
        let inputs = self
            .inputs
            .as_ref()
            .map(|t| serde_json::to_string(t).unwrap_or_default());
        Ok(Extras {
            login,
            pages,
            inputs,
        })
    }
}

fn login_steps(keys: &LoginKeys, start: &Url, dir: Option<&Path>) -> Result<Login, Failure> {
    let session = match &keys.storage_state {
        Some(file) => {
            let path = match dir {
                Some(dir) if file.is_relative() => dir.join(file),
                _ => file.clone(),
            };
            let text = std::fs::read_to_string(&path).map_err(|e| {
                key_err(
                    "login.storage-state",
                    &path.display().to_string(),
                    &e.to_string(),
                )
            })?;
            Some(
                SavedSession::from_playwright(&path, &text)
                    .map_err(|e| key_err("login.storage-state", &path.display().to_string(), &e))?,
            )
        }
        None => None,
    };
    let mut steps = Vec::new();
    for (i, s) in keys.steps.iter().enumerate() {
        let key = format!("login.steps[{}]", i + 1);
        let actions: Vec<(StepKind, &String)> = [
            (StepKind::Goto, &s.goto),
            (StepKind::Click, &s.click),
            (StepKind::Fill, &s.fill),
            (StepKind::Select, &s.select),
            (StepKind::Check, &s.check),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| (k, v)))
        .collect();
        let [(kind, target)] = actions[..] else {
            return Err(Failure::Usage(format!(
                "{key}: give exactly one of goto, click, fill, select, check"
            )));
        };
        let value = match (&s.value, &s.value_env) {
            (Some(v), None) => Some(v.clone()),
            (None, Some(var)) => Some(std::env::var(var).map_err(|_| {
                Failure::Usage(format!("{key}: environment variable {var} is not set"))
            })?),
            (None, None) => None,
            (Some(_), Some(_)) => {
                return Err(Failure::Usage(format!(
                    "{key}: give value or value-env, not both"
                )));
            }
        };
        let needs_value = matches!(kind, StepKind::Fill | StepKind::Select);
        if needs_value != value.is_some() {
            let what = if needs_value { "needs" } else { "takes no" };
            return Err(Failure::Usage(format!(
                "{key}: {} {what} value",
                kind.as_str()
            )));
        }
        let step = if kind == StepKind::Goto {
            let url = start
                .join(target)
                .map_err(|e| key_err(&format!("{key}.goto"), target, &e.to_string()))?;
            Step {
                kind,
                locator: String::new(),
                selector: String::new(),
                value: Some(url.to_string()),
                href: None,
            }
        } else {
            if target.trim().is_empty() {
                return Err(key_err(
                    &format!("{key}.{}", kind.as_str()),
                    target,
                    "an empty selector",
                ));
            }
            Step {
                kind,
                locator: String::new(),
                selector: target.clone(),
                value,
                href: None,
            }
        };
        steps.push(step);
    }
    if let Some(check) = &keys.check
        && check.trim().is_empty()
    {
        return Err(key_err("login.check", check, "an empty selector"));
    }
    let credentials = login_form(keys, start)?;
    Ok(Login {
        session,
        steps,
        check: keys.check.clone(),
        credentials,
    })
}

/// The two-line login of `[login]`: `url`, `username` (or `username-env`) and
/// `password-env`, all or none.
fn login_form(keys: &LoginKeys, start: &Url) -> Result<Option<Credentials>, Failure> {
    let env = |key: &str, var: &str| {
        std::env::var(var).map_err(|_| {
            Failure::Usage(format!(
                "login.{key}: environment variable {var} is not set"
            ))
        })
    };
    let username = match (&keys.username, &keys.username_env) {
        (Some(_), Some(_)) => {
            return Err(Failure::Usage(
                "login: give username or username-env, not both".to_string(),
            ));
        }
        (Some(name), None) => Some(name.clone()),
        (None, Some(var)) => Some(env("username-env", var)?),
        (None, None) => None,
    };
    let password = keys
        .password_env
        .as_ref()
        .map(|var| env("password-env", var))
        .transpose()?;
    match (&keys.url, username, password) {
        (None, None, None) => Ok(None),
        (Some(url), Some(username), Some(password)) => {
            let url = start
                .join(url)
                .map_err(|e| key_err("login.url", url, &e.to_string()))?;
            Ok(Some(Credentials {
                url: url.to_string(),
                username,
                password,
            }))
        }
        _ => Err(Failure::Usage(
            "login: the two-line login needs url, username (or username-env) and password-env"
                .to_string(),
        )),
    }
}

/// Whether the flag `id` was given on the command line or by its environment variable.
fn given(m: &ArgMatches, id: &str) -> bool {
    m.try_contains_id(id).unwrap_or(false)
        && matches!(
            m.value_source(id),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        )
}

fn set<T>(slot: &mut Option<T>, given: bool, value: Option<T>) {
    if !given && value.is_some() {
        *slot = value;
    }
}

fn set_value<T: Clone>(slot: &mut T, given: bool, value: &Option<T>) {
    if !given && let Some(v) = value {
        *slot = v.clone();
    }
}

fn key_err(key: &str, value: &str, why: &str) -> Failure {
    Failure::Usage(format!(
        "invalid value {value:?} for {key} in the config file: {why}"
    ))
}

/// A commented starter file, what `curio init` writes: every table, most keys
/// commented out with their defaults.
pub(crate) const STARTER: &str = include_str!("../curio.example.toml");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_file_is_valid() {
        let file = ConfigFile::parse(STARTER).unwrap();
        let start = Url::parse("http://127.0.0.1:8080/").unwrap();
        let extras = file.extras(&start).unwrap();
        // Everything but the URL is commented out.
        assert!(extras.login.is_none() && extras.inputs.is_some());
        assert_eq!(file.url.as_deref(), Some("http://localhost:8080/"));
    }

    #[test]
    fn unknown_keys_are_named_with_their_line() {
        let err =
            ConfigFile::parse("url = \"http://x/\"\n\n[budget]\ntiem = \"5m\"\n").unwrap_err();
        assert!(err.contains("line 4"), "{err}");
        assert!(err.contains("tiem"), "{err}");
        let err = ConfigFile::parse("[logn]\nsteps = []\n").unwrap_err();
        assert!(err.contains("line 1") && err.contains("logn"), "{err}");
    }

    #[test]
    fn login_steps_are_checked() {
        let start = Url::parse("http://127.0.0.1:8080/app/").unwrap();
        let file = ConfigFile::parse(
            r##"
[login]
steps = [{ goto = "/login" }, { fill = "#user", value = "ann" }, { click = "#go" }]
check = "#logout"
"##,
        )
        .unwrap();
        let login = file.extras(&start).unwrap().login.unwrap();
        assert_eq!(
            login.steps[0].value.as_deref(),
            Some("http://127.0.0.1:8080/login")
        );
        assert_eq!(login.steps[1].selector, "#user");
        for bad in [
            r##"steps = [{ goto = "/a", click = "#b" }]"##,
            r##"steps = [{ fill = "#a" }]"##,
            r##"steps = [{ click = "#a", value = "x" }]"##,
            r##"steps = [{ fill = "#a", value-env = "CURIO_TEST_SURELY_UNSET" }]"##,
        ] {
            let file = ConfigFile::parse(&format!("[login]\n{bad}\n")).unwrap();
            let err = file.extras(&start).unwrap_err().to_string();
            assert!(err.contains("login.steps[1]"), "{bad}: {err}");
        }
    }
}
