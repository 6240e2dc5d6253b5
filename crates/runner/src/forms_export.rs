//! Tests from Form Submission States: one test per state, as Playwright Test (TypeScript)
//! and as pytest + Selenium (Python). Fields are found by stable locators (label, id,
//! name, placeholder) before CSS paths; each test fills the values that reached the
//! state, submits, and asserts the feedback (or the page a success leads to).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use curio_forms::FieldValue;
use curio_forms::feedback::{Channel, Message, Outcome};
use curio_page::{Field, Form, LabelSource, Target};

use crate::explore::RunError;
use crate::forms::{FormResult, FormsOutcome, FssTest};

/// How a test finds an element, in the order of preference.
#[derive(Debug, Clone, PartialEq)]
enum Locate {
    Label(String),
    Role(String, String),
    Css(String),
    Placeholder(String),
}

/// The stable way to find `field`: its label when no other field of the form has the
/// same one, else its id, its name (unique in the form), its placeholder, its CSS path.
fn field_locator(form: &Form, index: usize) -> Locate {
    let field = &form.fields[index];
    let labelled = |f: &Field| {
        f.labels
            .iter()
            .find(|l| {
                matches!(
                    l.source,
                    LabelSource::For
                        | LabelSource::Wrapping
                        | LabelSource::AriaLabel
                        | LabelSource::AriaLabelledBy
                )
            })
            .map(|l| l.text.clone())
    };
    if field.input_type != "radio"
        && let Some(label) = labelled(field).filter(|l| !l.is_empty())
        && form
            .fields
            .iter()
            .filter(|f| labelled(f).as_deref() == Some(label.as_str()))
            .count()
            == 1
    {
        return Locate::Label(label);
    }
    if let Some(id) = field.id.as_deref().filter(|s| !s.is_empty()) {
        return Locate::Css(format!("[id={}]", css_string(id)));
    }
    if let Some(name) = field.name.as_deref().filter(|s| !s.is_empty())
        && (field.input_type == "radio"
            || form
                .fields
                .iter()
                .filter(|f| f.name.as_deref() == Some(name))
                .count()
                == 1)
    {
        return Locate::Css(format!("[name={}]", css_string(name)));
    }
    if let Some(p) = field.placeholder.as_deref().filter(|s| !s.is_empty()) {
        return Locate::Placeholder(p.to_string());
    }
    Locate::Css(field.target.selector.clone())
}

/// The submit button: by role and name when its locator reads `button "Name"`.
fn button_locator(target: &Target) -> Locate {
    if let Some(rest) = target.locator.strip_prefix("button ")
        && let Some(name) = rest.strip_prefix('"').and_then(|r| r.strip_suffix('"'))
        && !name.is_empty()
    {
        return Locate::Role("button".into(), name.to_string());
    }
    Locate::Css(target.selector.clone())
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

fn playwright_locator(l: &Locate) -> String {
    match l {
        Locate::Label(t) => format!("page.getByLabel({}, {{ exact: true }})", quoted(t)),
        Locate::Role(r, n) => format!(
            "page.getByRole({}, {{ name: {}, exact: true }})",
            quoted(r),
            quoted(n)
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
        Locate::Role(_, n) => format!(
            "(By.XPATH, {})",
            quoted(&format!(
                "//button[normalize-space()={x}] | //input[(@type='submit' or @type='button') and @value={x}]",
                x = xpath_string(n)
            ))
        ),
        Locate::Css(c) => format!("(By.CSS_SELECTOR, {})", quoted(c)),
        Locate::Placeholder(p) => format!(
            "(By.CSS_SELECTOR, {})",
            quoted(&format!("[placeholder={}]", css_string(p)))
        ),
    }
}

/// An XPath string literal (XPath 1.0 has no escapes: concat() around quotes).
fn xpath_string(s: &str) -> String {
    if !s.contains('"') {
        return format!("\"{s}\"");
    }
    let parts: Vec<String> = s.split('"').map(|p| format!("\"{p}\"")).collect();
    format!("concat({})", parts.join(", '\"', "))
}

/// The messages a test can check in the page (HTTP statuses are not on the page).
fn checkable(messages: &[Message]) -> impl Iterator<Item = &Message> {
    messages
        .iter()
        .filter(|m| !matches!(m.channel, Channel::Http(_)))
}

fn test_name(form: &FormResult, test: &FssTest) -> String {
    let fss = &form.report.fss[test.fss];
    let what = match fss.outcome {
        Outcome::Success => "succeeds".to_string(),
        Outcome::Failure => {
            let fields: Vec<String> = fss
                .messages
                .iter()
                .map(|m| m.field.map_or("form".to_string(), |f| form.refs[f].clone()))
                .collect();
            format!("is refused ({})", dedup(fields).join(", "))
        }
        Outcome::Unknown => "gives no clear answer".to_string(),
    };
    format!("state {}: {} {what}", test.fss + 1, form.title)
}

fn dedup(mut v: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(s.clone()));
    v
}

/// The Playwright Test file for one form.
pub(crate) fn playwright(url: &str, form: &FormResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Form \"{}\" on {url}",
        form.title.replace('\n', " ")
    );
    let _ = writeln!(
        out,
        "// Written by curio forms: one test per form submission state."
    );
    let _ = writeln!(out, "import {{ test, expect }} from '@playwright/test';\n");
    let _ = writeln!(out, "const URL = {};\n", quoted(url));
    for test in &form.tests {
        let fss = &form.report.fss[test.fss];
        let flaky = test.reproduced < test.replays;
        let call = if flaky { "test.fixme" } else { "test" };
        if flaky {
            let _ = writeln!(
                out,
                "// Flaky: reproduced {} of {} replays.",
                test.reproduced, test.replays
            );
        }
        let _ = writeln!(
            out,
            "{call}({}, async ({{ page }}) => {{",
            quoted(&test_name(form, test))
        );
        let dialogs = fss.messages.iter().any(|m| m.channel == Channel::Dialog);
        if dialogs {
            let _ = writeln!(out, "  const dialogs: string[] = [];");
            let _ = writeln!(
                out,
                "  page.on('dialog', (d) => {{ dialogs.push(d.message()); d.dismiss().catch(() => {{}}); }});"
            );
        }
        let _ = writeln!(out, "  await page.goto(URL);");
        for fill in &test.fills {
            let field = &form.form.fields[fill.field];
            let loc = playwright_locator(&field_locator(&form.form, fill.field));
            let line = match &fill.value {
                FieldValue::Text(v) => format!("await {loc}.fill({});", quoted(v)),
                FieldValue::Select(v) if field.input_type == "radio" => {
                    let name = field.name.clone().unwrap_or_default();
                    format!(
                        "await page.locator({}).check();",
                        quoted(&format!(
                            "input[type=radio][name={}][value={}]",
                            css_string(&name),
                            css_string(v)
                        ))
                    )
                }
                FieldValue::Select(v) => format!("await {loc}.selectOption({});", quoted(v)),
                FieldValue::Check(on) => format!("await {loc}.setChecked({on});"),
            };
            let _ = writeln!(out, "  {line}");
        }
        if let Some(submit) = &form.form.submit {
            let _ = writeln!(
                out,
                "  await {}.click();",
                playwright_locator(&button_locator(submit))
            );
        }
        if fss.outcome == Outcome::Success && !test.url_after.is_empty() && test.url_after != url {
            let _ = writeln!(
                out,
                "  await expect(page).toHaveURL({});",
                quoted(&test.url_after)
            );
        }
        // Texts are matched as parts of an element's text: a message may share its
        // element with a link or another sentence.
        for m in checkable(&fss.messages) {
            let line = match (&m.channel, m.field) {
                (Channel::Native, Some(f)) => format!(
                    "await expect({}).toHaveJSProperty('validationMessage', {});",
                    playwright_locator(&field_locator(&form.form, f)),
                    quoted(&m.text)
                ),
                (Channel::Dialog, _) => format!(
                    "await expect.poll(() => dialogs).toContain({});",
                    quoted(&m.text)
                ),
                (Channel::Toast, _) => format!(
                    "await expect(page.getByText({}).first()).toBeAttached();",
                    quoted(&m.text)
                ),
                _ => format!(
                    "await expect(page.getByText({}).first()).toBeVisible();",
                    quoted(&m.text)
                ),
            };
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out, "}});\n");
    }
    out
}

/// The pytest + Selenium file for one form.
pub(crate) fn selenium(url: &str, form: &FormResult) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# Form \"{}\" on {url}", form.title.replace('\n', " "));
    let _ = writeln!(
        out,
        "# Written by curio forms: one test per form submission state."
    );
    let _ = writeln!(out, "import pytest");
    let _ = writeln!(out, "from selenium import webdriver");
    let _ = writeln!(out, "from selenium.webdriver.common.by import By");
    let _ = writeln!(
        out,
        "from selenium.webdriver.support.ui import Select, WebDriverWait\n"
    );
    let _ = writeln!(out, "URL = {}\n\n", quoted(url));
    let _ = writeln!(out, "@pytest.fixture");
    let _ = writeln!(out, "def driver():");
    let _ = writeln!(out, "    options = webdriver.ChromeOptions()");
    let _ = writeln!(
        out,
        "    for arg in ('--headless', '--no-sandbox', '--disable-gpu'):\n        options.add_argument(arg)"
    );
    let _ = writeln!(out, "    d = webdriver.Chrome(options=options)");
    let _ = writeln!(out, "    yield d");
    let _ = writeln!(out, "    d.quit()\n\n");
    let _ = writeln!(out, "def set_value(el, value):");
    let _ = writeln!(out, "    el.clear()");
    let _ = writeln!(
        out,
        "    if el.get_attribute('type') in ('date', 'time', 'datetime-local', 'month', 'week', 'color', 'range'):"
    );
    let _ = writeln!(
        out,
        "        el.parent.execute_script(\"arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {{bubbles: true}})); arguments[0].dispatchEvent(new Event('change', {{bubbles: true}}));\", el, value)"
    );
    let _ = writeln!(out, "    else:\n        el.send_keys(value)\n\n");
    let _ = writeln!(out, "def text_appears(driver, text):");
    let _ = writeln!(
        out,
        "    WebDriverWait(driver, 5).until(lambda d: text in d.find_element(By.TAG_NAME, 'body').get_attribute('textContent'))\n\n"
    );
    for test in &form.tests {
        let fss = &form.report.fss[test.fss];
        let name = format!("test_state_{}", test.fss + 1);
        if test.reproduced < test.replays {
            let _ = writeln!(
                out,
                "@pytest.mark.skip(reason='flaky: reproduced {} of {} replays')",
                test.reproduced, test.replays
            );
        }
        let _ = writeln!(out, "def {name}(driver):");
        let _ = writeln!(
            out,
            "    \"\"\"{}\"\"\"",
            test_name(form, test).replace('"', "'")
        );
        let _ = writeln!(out, "    driver.get(URL)");
        for fill in &test.fills {
            let field = &form.form.fields[fill.field];
            let loc = selenium_locator(&field_locator(&form.form, fill.field));
            let line = match &fill.value {
                FieldValue::Text(v) => {
                    format!("set_value(driver.find_element(*{loc}), {})", quoted(v))
                }
                FieldValue::Select(v) if field.input_type == "radio" => {
                    let name = field.name.clone().unwrap_or_default();
                    format!(
                        "driver.find_element(By.CSS_SELECTOR, {}).click()",
                        quoted(&format!(
                            "input[type=radio][name={}][value={}]",
                            css_string(&name),
                            css_string(v)
                        ))
                    )
                }
                FieldValue::Select(v) => {
                    format!(
                        "Select(driver.find_element(*{loc})).select_by_value({})",
                        quoted(v)
                    )
                }
                FieldValue::Check(on) => format!(
                    "el = driver.find_element(*{loc})\n    if el.is_selected() != {}:\n        el.click()",
                    if *on { "True" } else { "False" }
                ),
            };
            let _ = writeln!(out, "    {line}");
        }
        if let Some(submit) = &form.form.submit {
            let _ = writeln!(
                out,
                "    driver.find_element(*{}).click()",
                selenium_locator(&button_locator(submit))
            );
        }
        if fss.outcome == Outcome::Success && !test.url_after.is_empty() && test.url_after != url {
            let _ = writeln!(
                out,
                "    WebDriverWait(driver, 5).until(lambda d: d.current_url == {})",
                quoted(&test.url_after)
            );
        }
        for m in checkable(&fss.messages) {
            let line = match (&m.channel, m.field) {
                (Channel::Native, Some(f)) => format!(
                    "assert driver.find_element(*{}).get_property('validationMessage') == {}",
                    selenium_locator(&field_locator(&form.form, f)),
                    quoted(&m.text)
                ),
                (Channel::Dialog, _) => format!(
                    "alert = WebDriverWait(driver, 5).until(lambda d: d.switch_to.alert)\n    assert alert.text == {}\n    alert.dismiss()",
                    quoted(&m.text)
                ),
                _ => format!("text_appears(driver, {})", quoted(&m.text)),
            };
            let _ = writeln!(out, "    {line}");
        }
        let _ = writeln!(out, "\n");
    }
    out
}

/// The files of a form's tests under the tests directory: Playwright Test, then pytest.
pub(crate) fn test_files(form: &FormResult) -> [String; 2] {
    let slug = slug(form);
    [
        format!("playwright/{slug}.spec.ts"),
        format!("selenium/test_{}.py", slug.replace('-', "_")),
    ]
}

/// A file name for a form: its index and title, lowercase, dashes.
fn slug(form: &FormResult) -> String {
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

/// Writes `playwright/<form>.spec.ts` and `selenium/test_<form>.py` under `dir` for every
/// form; answers the files written.
pub(crate) fn write_tests(dir: &Path, outcome: &FormsOutcome) -> Result<Vec<PathBuf>, RunError> {
    let mut written = Vec::new();
    for sub in ["playwright", "selenium"] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|source| RunError::Output {
            path: d.clone(),
            source,
        })?;
        for form in &outcome.forms {
            if form.tests.is_empty() {
                continue;
            }
            let [playwright_file, selenium_file] = test_files(form);
            let (path, text) = if sub == "playwright" {
                (dir.join(playwright_file), playwright(&outcome.url, form))
            } else {
                (dir.join(selenium_file), selenium(&outcome.url, form))
            };
            std::fs::write(&path, text).map_err(|source| RunError::Output {
                path: path.clone(),
                source,
            })?;
            written.push(path);
        }
    }
    Ok(written)
}
