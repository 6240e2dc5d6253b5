//! Tests from a saved run, as Playwright Test (TypeScript) or pytest + Selenium (Python):
//! for each form `curio forms` tested, a test per Form Submission State (its steps and
//! expected feedback, from the record's [`TestScript`]s); for an exploration, a test per
//! finding that takes the finding's steps and fails while the failure still happens, so
//! it passes once the bug is fixed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use curio_record::{
    Expectation, Finding, FormRecord, Locate, ObservationKind, RunRecord, StepKind, TestScript,
    TestStep,
};

use crate::ReportError;
use crate::view::kind_label;

/// The test frameworks tests are written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestFormat {
    /// Playwright Test, TypeScript: `*.spec.ts`.
    Playwright,
    /// pytest with Selenium WebDriver, Python: `test_*.py`.
    Selenium,
}

impl TestFormat {
    pub const ALL: [TestFormat; 2] = [TestFormat::Playwright, TestFormat::Selenium];

    pub fn name(self) -> &'static str {
        match self {
            TestFormat::Playwright => "playwright",
            TestFormat::Selenium => "selenium",
        }
    }

    pub fn from_name(name: &str) -> Option<TestFormat> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }

    /// A file of this format for tests named `slug`, under the format's folder.
    fn file(self, slug: &str) -> String {
        match self {
            TestFormat::Playwright => format!("playwright/{slug}.spec.ts"),
            TestFormat::Selenium => format!("selenium/test_{}.py", slug.replace('-', "_")),
        }
    }
}

/// The files a form's tests are written to, relative to the tests folder: Playwright
/// Test, then pytest.
pub fn form_test_files(form: &FormRecord) -> [String; 2] {
    let slug = slug(form);
    TestFormat::ALL.map(|f| f.file(&slug))
}

/// Writes the run's tests in `format` under `dir` (in its `playwright/` or `selenium/`
/// folder) and gives the files written.
pub fn write_tests(
    record: &RunRecord,
    format: TestFormat,
    dir: &Path,
) -> Result<Vec<PathBuf>, ReportError> {
    let mut files: Vec<(String, String)> = Vec::new();
    for form in &record.forms {
        let scripts: Vec<(&TestScript, bool)> = form
            .fss
            .iter()
            .filter_map(|s| s.script.as_ref().map(|t| (t, s.reproduced < s.replays)))
            .collect();
        if scripts.is_empty() {
            continue;
        }
        let header = format!(
            "Form \"{}\" on {}",
            one_line(&form.title),
            one_line(&form.page_url)
        );
        let text = match format {
            TestFormat::Playwright => playwright_form(&header, &form.page_url, &scripts),
            TestFormat::Selenium => selenium_form(&header, &form.page_url, &scripts),
        };
        files.push((format.file(&slug(form)), text));
    }
    if !record.findings.is_empty() {
        let text = match format {
            TestFormat::Playwright => playwright_findings(record),
            TestFormat::Selenium => selenium_findings(record),
        };
        files.push((format.file("findings"), text));
    }
    let mut written = Vec::new();
    for (rel, text) in files {
        let path = dir.join(rel);
        let write_err = |source| ReportError::Write {
            path: path.clone(),
            source,
        };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(write_err)?;
        }
        std::fs::write(&path, text).map_err(write_err)?;
        written.push(path);
    }
    Ok(written)
}

/// A file name for a form: its index and title, lowercase, dashes.
fn slug(form: &FormRecord) -> String {
    let mut s = String::new();
    for c in form.title.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    let s: String = s.trim_matches('-').chars().take(40).collect();
    format!("form-{}-{}", form.index + 1, s.trim_end_matches('-'))
}

fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

/// A CSS string literal.
fn css_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A JavaScript / Python single-quoted string literal.
fn quoted(s: &str) -> String {
    let mut out = String::from("'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// An XPath string literal (XPath 1.0 has no escapes: concat() around quotes).
fn xpath_string(s: &str) -> String {
    if !s.contains('"') {
        return format!("\"{s}\"");
    }
    let parts: Vec<String> = s.split('"').map(|p| format!("\"{p}\"")).collect();
    format!("concat({})", parts.join(", '\"', "))
}

fn radio_css(name: &str, value: &str) -> String {
    format!(
        "input[type=radio][name={}][value={}]",
        css_string(name),
        css_string(value)
    )
}

fn playwright_locator(l: &Locate) -> String {
    match l {
        Locate::Label(t) => format!("page.getByLabel({}, {{ exact: true }})", quoted(t)),
        Locate::Role { role, name } => format!(
            "page.getByRole({}, {{ name: {}, exact: true }})",
            quoted(role),
            quoted(name)
        ),
        Locate::Css(c) => format!("page.locator({})", quoted(c)),
        Locate::Placeholder(p) => {
            format!("page.getByPlaceholder({}, {{ exact: true }})", quoted(p))
        }
    }
}

/// Selenium has no label locator: a label becomes an XPath to the control it names.
fn selenium_locator(l: &Locate) -> String {
    match l {
        Locate::Label(t) => format!(
            "(By.XPATH, {})",
            quoted(&format!(
                "//*[@id=//label[normalize-space()={x}]/@for] | //label[normalize-space()={x}]//*[self::input or self::select or self::textarea] | //*[@aria-label={x}]",
                x = xpath_string(t)
            ))
        ),
        Locate::Role { name, .. } => format!(
            "(By.XPATH, {})",
            quoted(&format!(
                "//button[normalize-space()={x}] | //input[(@type='submit' or @type='button') and @value={x}]",
                x = xpath_string(name)
            ))
        ),
        Locate::Css(c) => format!("(By.CSS_SELECTOR, {})", quoted(c)),
        Locate::Placeholder(p) => format!(
            "(By.CSS_SELECTOR, {})",
            quoted(&format!("[placeholder={}]", css_string(p)))
        ),
    }
}

fn playwright_form(header: &str, url: &str, scripts: &[(&TestScript, bool)]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "// {header}");
    let _ = writeln!(
        out,
        "// Written by curio forms: one test per form submission state."
    );
    let _ = writeln!(out, "import {{ test, expect }} from '@playwright/test';\n");
    let _ = writeln!(out, "const URL = {};\n", quoted(url));
    for (script, flaky) in scripts {
        let call = if *flaky { "test.fixme" } else { "test" };
        if *flaky {
            let _ = writeln!(out, "// Flaky: its replays did not all reach this state.");
        }
        let _ = writeln!(
            out,
            "{call}({}, async ({{ page }}) => {{",
            quoted(&script.name)
        );
        if script
            .expect
            .iter()
            .any(|e| matches!(e, Expectation::Dialog(_)))
        {
            let _ = writeln!(out, "  const dialogs: string[] = [];");
            let _ = writeln!(
                out,
                "  page.on('dialog', (d) => {{ dialogs.push(d.message()); d.dismiss().catch(() => {{}}); }});"
            );
        }
        let _ = writeln!(out, "  await page.goto(URL);");
        for step in &script.steps {
            let _ = writeln!(out, "  {}", playwright_step(step));
        }
        // Texts are matched as parts of an element's text: a message may share its
        // element with a link or another sentence.
        for e in &script.expect {
            let line = match e {
                Expectation::Url(u) => format!("await expect(page).toHaveURL({});", quoted(u)),
                Expectation::Validation { at, text } => format!(
                    "await expect({}).toHaveJSProperty('validationMessage', {});",
                    playwright_locator(at),
                    quoted(text)
                ),
                Expectation::Dialog(t) => {
                    format!("await expect.poll(() => dialogs).toContain({});", quoted(t))
                }
                Expectation::Toast(t) => format!(
                    "await expect(page.getByText({}).first()).toBeAttached();",
                    quoted(t)
                ),
                Expectation::Text(t) => format!(
                    "await expect(page.getByText({}).first()).toBeVisible();",
                    quoted(t)
                ),
            };
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out, "}});\n");
    }
    out
}

fn playwright_step(step: &TestStep) -> String {
    match step {
        TestStep::Fill { at, value } => {
            format!("await {}.fill({});", playwright_locator(at), quoted(value))
        }
        TestStep::Select { at, value } => format!(
            "await {}.selectOption({});",
            playwright_locator(at),
            quoted(value)
        ),
        TestStep::Radio { name, value } => format!(
            "await page.locator({}).check();",
            quoted(&radio_css(name, value))
        ),
        TestStep::Check { at, on } => format!("await {}.setChecked({on});", playwright_locator(at)),
        TestStep::Click { at } => format!("await {}.click();", playwright_locator(at)),
    }
}

const SELENIUM_PRELUDE: &str = r#"@pytest.fixture
def driver():
    options = webdriver.ChromeOptions()
    for arg in ('--headless', '--no-sandbox', '--disable-gpu'):
        options.add_argument(arg)
    options.set_capability('goog:loggingPrefs', {'browser': 'ALL'})
    d = webdriver.Chrome(options=options)
    yield d
    d.quit()


def set_value(el, value):
    el.clear()
    if el.get_attribute('type') in ('date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'):
        el.parent.execute_script("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true})); arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", el, value)
    else:
        el.send_keys(value)


def text_appears(driver, text):
    WebDriverWait(driver, 5).until(lambda d: text in d.find_element(By.TAG_NAME, 'body').get_attribute('textContent'))


"#;

fn selenium_header(out: &mut String, header: &str, what: &str) {
    let _ = writeln!(out, "# {header}");
    let _ = writeln!(out, "# Written by curio: {what}.");
    let _ = writeln!(out, "import time\n");
    let _ = writeln!(out, "import pytest");
    let _ = writeln!(out, "from selenium import webdriver");
    let _ = writeln!(out, "from selenium.webdriver.common.by import By");
    let _ = writeln!(
        out,
        "from selenium.webdriver.support.ui import Select, WebDriverWait\n\n"
    );
    out.push_str(SELENIUM_PRELUDE);
}

fn selenium_form(header: &str, url: &str, scripts: &[(&TestScript, bool)]) -> String {
    let mut out = String::new();
    selenium_header(&mut out, header, "one test per form submission state");
    let _ = writeln!(out, "URL = {}\n\n", quoted(url));
    for (n, (script, flaky)) in scripts.iter().enumerate() {
        if *flaky {
            let _ = writeln!(
                out,
                "@pytest.mark.skip(reason='flaky: its replays did not all reach this state')"
            );
        }
        let _ = writeln!(out, "def test_state_{}(driver):", n + 1);
        let _ = writeln!(out, "    \"\"\"{}\"\"\"", script.name.replace('"', "'"));
        let _ = writeln!(out, "    driver.get(URL)");
        for step in &script.steps {
            let _ = writeln!(out, "    {}", selenium_step(step));
        }
        for e in &script.expect {
            let line = match e {
                Expectation::Url(u) => format!(
                    "WebDriverWait(driver, 5).until(lambda d: d.current_url == {})",
                    quoted(u)
                ),
                Expectation::Validation { at, text } => format!(
                    "assert driver.find_element(*{}).get_property('validationMessage') == {}",
                    selenium_locator(at),
                    quoted(text)
                ),
                Expectation::Dialog(t) => format!(
                    "alert = WebDriverWait(driver, 5).until(lambda d: d.switch_to.alert)\n    assert alert.text == {}\n    alert.dismiss()",
                    quoted(t)
                ),
                Expectation::Toast(t) | Expectation::Text(t) => {
                    format!("text_appears(driver, {})", quoted(t))
                }
            };
            let _ = writeln!(out, "    {line}");
        }
        let _ = writeln!(out, "\n");
    }
    out
}

fn selenium_step(step: &TestStep) -> String {
    match step {
        TestStep::Fill { at, value } => format!(
            "set_value(driver.find_element(*{}), {})",
            selenium_locator(at),
            quoted(value)
        ),
        TestStep::Select { at, value } => format!(
            "Select(driver.find_element(*{})).select_by_value({})",
            selenium_locator(at),
            quoted(value)
        ),
        TestStep::Radio { name, value } => format!(
            "driver.find_element(By.CSS_SELECTOR, {}).click()",
            quoted(&radio_css(name, value))
        ),
        TestStep::Check { at, on } => format!(
            "el = driver.find_element(*{})\n    if el.is_selected() != {}:\n        el.click()",
            selenium_locator(at),
            if *on { "True" } else { "False" }
        ),
        TestStep::Click { at } => format!("driver.find_element(*{}).click()", selenium_locator(at)),
    }
}

/// What a finding's test looks for among the failures it collects: the message's first
/// line for script failures, the status and path for HTTP ones.
fn needle(f: &Finding) -> String {
    match f.kind {
        ObservationKind::HttpClientError | ObservationKind::HttpServerError => {
            let path = url::Url::parse(&f.url)
                .map(|u| u.path().to_string())
                .unwrap_or_else(|_| f.url.clone());
            format!("{} {path}", f.status.unwrap_or_default())
        }
        _ => f.message.lines().next().unwrap_or_default().to_string(),
    }
}

/// The finding's steps, each as a line of code in the framework.
fn finding_steps(f: &Finding, format: TestFormat) -> Vec<String> {
    f.trace
        .iter()
        .map(|s| {
            let value = s.value.clone().unwrap_or_default();
            let at = Locate::Css(s.selector.clone());
            let step = match s.kind {
                StepKind::Goto => {
                    return match format {
                        TestFormat::Playwright => format!("await page.goto({});", quoted(&value)),
                        TestFormat::Selenium => format!("driver.get({})", quoted(&value)),
                    };
                }
                StepKind::Check if matches!(value.as_str(), "on" | "off") => TestStep::Check {
                    at,
                    on: value == "on",
                },
                StepKind::Click | StepKind::Check => TestStep::Click { at },
                StepKind::Fill => TestStep::Fill { at, value },
                StepKind::Select => TestStep::Select { at, value },
            };
            match format {
                TestFormat::Playwright => playwright_step(&step),
                TestFormat::Selenium => selenium_step(&step),
            }
        })
        .collect()
}

fn finding_name(f: &Finding) -> String {
    let message = f.message.lines().next().unwrap_or_default();
    let message: String = message.chars().take(100).collect();
    format!("finding #{}: {}: {message}", f.id.0, kind_label(f.kind))
}

fn playwright_findings(record: &RunRecord) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Findings of curio's exploration of {}",
        one_line(&record.meta.start_url)
    );
    let _ = writeln!(
        out,
        "// Each test takes a finding's steps and fails while the failure still happens."
    );
    let _ = writeln!(
        out,
        "import {{ test, expect, Page }} from '@playwright/test';\n"
    );
    let _ = writeln!(
        out,
        "/** Every failure the page shows: exceptions, console errors, HTTP errors. */
function failures(page: Page): string[] {{
  const seen: string[] = [];
  page.on('pageerror', (e) => seen.push(e.message));
  page.on('console', (m) => {{ if (m.type() === 'error') seen.push(m.text()); }});
  page.on('response', (r) => {{
    if (r.status() >= 400) seen.push(`${{r.status()}} ${{new URL(r.url()).pathname}}`);
  }});
  page.on('dialog', (d) => d.dismiss().catch(() => {{}}));
  return seen;
}}
"
    );
    for f in &record.findings {
        let _ = writeln!(
            out,
            "test({}, async ({{ page }}) => {{",
            quoted(&finding_name(f))
        );
        let _ = writeln!(out, "  const seen = failures(page);");
        for line in finding_steps(f, TestFormat::Playwright) {
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out, "  await page.waitForLoadState('networkidle');");
        let _ = writeln!(
            out,
            "  expect(seen.filter((s) => s.includes({}))).toEqual([]);",
            quoted(&needle(f))
        );
        let _ = writeln!(out, "}});\n");
    }
    out
}

fn selenium_findings(record: &RunRecord) -> String {
    let mut out = String::new();
    let header = format!(
        "Findings of curio's exploration of {}",
        one_line(&record.meta.start_url)
    );
    selenium_header(
        &mut out,
        &header,
        "each test takes a finding's steps and fails while the failure still happens",
    );
    let _ = writeln!(
        out,
        "def failures(driver):\n    \"\"\"Console errors, exceptions and failed loads Chrome logged so far.\"\"\"\n    return [e['message'] for e in driver.get_log('browser') if e['level'] == 'SEVERE']\n\n"
    );
    for f in &record.findings {
        let _ = writeln!(out, "def test_finding_{}(driver):", f.id.0);
        let _ = writeln!(out, "    \"\"\"{}\"\"\"", finding_name(f).replace('"', "'"));
        for line in finding_steps(f, TestFormat::Selenium) {
            let _ = writeln!(out, "    {line}");
        }
        let needle = match f.kind {
            ObservationKind::HttpClientError | ObservationKind::HttpServerError => {
                format!("status of {}", f.status.unwrap_or_default())
            }
            _ => needle(f),
        };
        let _ = writeln!(out, "    time.sleep(1)");
        let _ = writeln!(
            out,
            "    assert [m for m in failures(driver) if {} in m] == []\n\n",
            quoted(&needle)
        );
    }
    out
}
