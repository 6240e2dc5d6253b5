//! What a form said after one submission: every channel of feedback read, each message
//! attached to the field it is about (or to the form as a whole), and the submission
//! judged a success, a failure, or unclear.
//!
//! FormNexus diffs the DOM before and after submitting and keeps changed text that holds a
//! feedback keyword (substring match). Here the keyword lists match whole words (so
//! "valid" is not found in "invalid"), and keywords are one signal among several:
//!
//! - native validation (`validationMessage`, never in the DOM): the browser blocked the
//!   submission, a failure;
//! - fields marked `aria-invalid`, with the text their `aria-describedby` names;
//! - texts that appeared (in the page after, not before, or added and removed again
//!   meanwhile, a toast), in live regions or not;
//! - JavaScript dialogs;
//! - HTTP statuses: 4xx and 5xx are failures, each with its own message;
//! - where the page went, whether the form was cleared or replaced.
//!
//! A new text beside a field that was not there before, after a submission that stayed on
//! the page, is an error message about that field even without a keyword ("Hmm, that
//! doesn't look like an email"). Leaving for another page with no error signal, clearing
//! the form, replacing it, or a success word ("Thanks", "saved") is a success.
//!
//! [`Feedback::signature`] names the Form Submission State: outcome, where the page went,
//! and the sorted (field, normalised message) pairs.

use curio_page::{Form, Rect};
use serde::{Deserialize, Serialize};

use crate::testing::{FieldState, Observation, SeenText};

#[cfg(test)]
mod tests;

/// How a submission ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Accepted: no error signal, and the page moved on, the form was cleared or
    /// replaced, or it said so.
    Success,
    /// Refused: an error signal on any channel.
    Failure,
    /// Neither could be told (nothing visible happened, or the submission could not be
    /// observed).
    Unknown,
}

impl Outcome {
    /// `success`, `failure` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Success => "success",
            Outcome::Failure => "failure",
            Outcome::Unknown => "unknown",
        }
    }
}

/// Where a message was seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// The browser's `validationMessage` of a field (the text is that message).
    Native,
    /// A text that appeared in the page.
    Inline,
    /// A text that appeared in a live region (`role=alert`, `role=status`, `aria-live`)
    /// and reads as an error.
    Alert,
    /// Any other text that appeared in a live region.
    Live,
    /// A JavaScript dialog (`alert()`, `confirm()`).
    Dialog,
    /// A text added while the submission settled and removed again since.
    Toast,
    /// An HTTP status >= 400 of a document or request answered meanwhile.
    Http(u16),
}

/// One piece of feedback.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// As seen, whitespace collapsed.
    pub text: String,
    /// The field (index into `form.fields`) it is about; `None` for the form as a whole.
    pub field: Option<usize>,
    pub channel: Channel,
    /// The text normalised for signatures: lowercase, whitespace collapsed, runs of
    /// digits as `N`, values typed into the form as `V`.
    #[serde(default)]
    pub key: String,
}

impl Message {
    /// A message with its key computed from `text` alone.
    pub fn new(text: impl Into<String>, field: Option<usize>, channel: Channel) -> Message {
        let text = collapse(&text.into());
        let key = match channel {
            Channel::Http(status) => format!("http {status}"),
            _ => normalize(&text),
        };
        Message {
            text,
            field,
            channel,
            key,
        }
    }

    /// [`Message::key`], or the normalised text when the key was left empty.
    pub fn normalized(&self) -> String {
        match self.channel {
            Channel::Http(status) => format!("http {status}"),
            _ if self.key.is_empty() => normalize(&self.text),
            _ => self.key.clone(),
        }
    }
}

/// Everything one submission said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Feedback {
    pub outcome: Outcome,
    /// In the order: native messages by field, texts in document order, toasts,
    /// dialogs, HTTP statuses. No two with the same field and key.
    pub messages: Vec<Message>,
    /// Fields marked `aria-invalid` without any message of their own.
    #[serde(default)]
    pub invalid: Vec<usize>,
    /// The path (digits as `N`) of the page the submission led to, when it left the
    /// form's page for another path.
    #[serde(default)]
    pub moved_to: Option<String>,
    /// Whether this came from an observed submission; `false` for
    /// [`Feedback::unknown`], which stands for a submission that could not be made or read.
    #[serde(default)]
    pub observed: bool,
}

impl Feedback {
    /// Nothing known: the submission could not be made or read.
    pub fn unknown() -> Feedback {
        Feedback {
            outcome: Outcome::Unknown,
            messages: Vec::new(),
            invalid: Vec::new(),
            moved_to: None,
            observed: false,
        }
    }

    /// A stable key of the Form Submission State: the outcome, where the page went, and
    /// the sorted, deduplicated `ref: normalised message` pairs (`form` for form-level
    /// messages, `(invalid)` for a field marked invalid without a message), joined by
    /// ` | `. `refs` names fields as constraints do ([`crate::testing::field_refs`]).
    pub fn signature(&self, refs: &[String]) -> String {
        let name = |f: usize| refs.get(f).cloned().unwrap_or_else(|| format!("field-{f}"));
        let mut parts: Vec<String> = self
            .messages
            .iter()
            .map(|m| {
                let who = m.field.map_or_else(|| "form".to_string(), name);
                format!("{who}: {}", m.normalized())
            })
            .collect();
        for &f in &self.invalid {
            if !self.messages.iter().any(|m| m.field == Some(f)) {
                parts.push(format!("{}: (invalid)", name(f)));
            }
        }
        parts.sort();
        parts.dedup();
        let mut head = self.outcome.as_str().to_string();
        if let Some(path) = &self.moved_to {
            head.push_str(" -> ");
            head.push_str(path);
        }
        if parts.is_empty() {
            head
        } else {
            format!("{head} | {}", parts.join(" | "))
        }
    }

    /// [`Feedback::signature`] with `values` (those the submission typed: a page the
    /// form led to may quote them, "Thanks, Ada!") masked in the messages, so that
    /// submissions differing only in the values quoted back have the same key. Values
    /// shorter than 3 characters are left alone.
    pub fn signature_masking(&self, refs: &[String], values: &[String]) -> String {
        let trimmed: Vec<String> = values.iter().map(|v| v.trim().to_string()).collect();
        let long: Vec<String> = trimmed
            .iter()
            .filter(|v| v.chars().count() >= 3)
            .cloned()
            .collect();
        // A value of one or two characters is only masked where it is a whole word:
        // "Welcome, a!" quotes `a`, "Welcome, ada!" does not.
        let short: Vec<&String> = trimmed
            .iter()
            .filter(|v| (1..3).contains(&v.chars().count()))
            .collect();
        let mut masked = self.clone();
        for m in &mut masked.messages {
            if !matches!(m.channel, Channel::Http(_)) {
                let mut text = mask(&m.text, &long);
                for v in &short {
                    text = mask_word(&text, v);
                }
                m.key = normalize(&text);
            }
        }
        masked.signature(refs)
    }

    /// Whether a message is attached to `field`.
    pub fn about(&self, field: usize) -> bool {
        self.messages.iter().any(|m| m.field == Some(field)) || self.invalid.contains(&field)
    }
}

/// What a text says about a submission, from its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tone {
    /// An error: "invalid", "required", "must", "try again", ...
    Error,
    /// The form was accepted: "thank you", "saved", "created", "welcome", ...
    Done,
    /// A field is fine: "looks good", "valid", "available".
    Fine,
    /// None of these.
    Neutral,
}

/// Error keywords: the FormNexus list (bare "valid" left out, as it is praise on its own:
/// "a valid", "not valid", "invalid" are here) and more wording of validation messages.
/// Words match whole; a trailing `*` matches any ending.
const ERROR_WORDS: &[&str] = &[
    // FormNexus
    "invalid",
    "required",
    "error*",
    "not possible",
    "missing",
    "failed",
    "incorrect",
    "retry",
    "verify",
    "exceed*",
    "denied",
    "please enter",
    "please select",
    "format",
    "does not match",
    "try again",
    "unavailable",
    "warning",
    "out of range",
    "unable",
    "not recognized",
    "not allowed",
    "incomplete",
    "cannot process",
    "duplicate*",
    "too short",
    "too long",
    "doesn't exist",
    "does not exist",
    "already exist*",
    "authentication failed",
    "expired",
    "update failed",
    "connection",
    "server error",
    "system error",
    "not valid",
    "timed out",
    "access denied",
    "please confirm",
    "not acceptable",
    "submission failed",
    "unexpected",
    "conflict*",
    "not applicable",
    "not active",
    "not found",
    "not secure",
    "forbidden",
    "disconnect*",
    "prohibited",
    "cannot",
    "can't",
    // more
    "a valid",
    "an valid",
    "be valid",
    "enter valid",
    "fail",
    "fails",
    "failure",
    "wrong",
    "oops",
    "sorry",
    "problem",
    "must",
    "should be",
    "should contain",
    "should have",
    "should include",
    "should not",
    "shouldn't",
    "needs to",
    "need to",
    "mismatch*",
    "do not match",
    "don't match",
    "doesn't match",
    "didn't match",
    "not match",
    "no match",
    "not the same",
    "taken",
    "already in use",
    "already registered",
    "already used",
    "blank",
    "empty",
    "at least",
    "at most",
    "no more than",
    "no less than",
    "please fill",
    "please choose",
    "please provide",
    "please include",
    "please lengthen",
    "please shorten",
    "please match",
    "please check",
    "please use",
    "please accept",
    "please agree",
    "isn't",
    "is not a",
    "is not an",
    "doesn't look",
    "does not look",
    "don't look",
    "not recognised",
    "unrecognized",
    "unrecognised",
    "rejected",
    "declined",
    "too weak",
    "too many",
    "too few",
    "too large",
    "too small",
    "too big",
    "too early",
    "too late",
    "too high",
    "too low",
    "too soon",
    "weak",
    "could not",
    "couldn't",
    "did not",
    "didn't",
    "unknown",
    "locked",
    "blocked",
    "suspended",
    "enter a",
    "enter an",
    "enter your",
    "select a",
    "select an",
    "choose a",
    "choose an",
    "unsupported",
    "not supported",
    "illegal",
    "malformed",
    "bad request",
];

/// Error words that a success message may also hold ("Thanks! Please verify your email").
const SOFT_ERROR_WORDS: &[&str] = &[
    "verify",
    "please confirm",
    "please check",
    "check your",
    "need to",
    "needs to",
    "must",
];

/// Words of an accepted submission.
const DONE_WORDS: &[&str] = &[
    "thank*",
    "success*",
    "saved",
    "created",
    "submitted",
    "sent",
    "received",
    "welcome",
    "confirmed",
    "booked",
    "registered",
    "subscribed",
    "updated",
    "completed",
    "done",
    "results",
    "result",
    "found",
    "accepted",
    "approved",
    "added",
    "posted",
    "published",
    "signed up",
    "logged in",
    "signed in",
    "you're in",
    "all set",
    "congratulations",
    "congrats",
    "order placed",
    "be in touch",
    "has been",
    "have been",
    "got it",
    "reserved",
    "scheduled",
    "uploaded",
];

/// Words of a field that passed.
const FINE_WORDS: &[&str] = &[
    "valid",
    "looks good",
    "look good",
    "available",
    "ok",
    "okay",
    "great",
    "strong",
    "correct",
    "perfect",
    "good",
    "nice",
];

/// Words of a submission still in progress ("Submitting…"), never feedback.
const BUSY_WORDS: &[&str] = &[
    "loading",
    "submitting",
    "sending",
    "saving",
    "processing",
    "please wait",
    "uploading",
    "signing in",
    "logging in",
    "validating",
    "checking",
    "redirecting",
];

/// The tone of a text, from its words (whole words, case-insensitive). An error word
/// wins, unless the only error words are soft ones ("verify", "please confirm") beside a
/// success word.
pub fn tone(text: &str) -> Tone {
    let w = words(text);
    let errors: Vec<&str> = ERROR_WORDS
        .iter()
        .copied()
        .filter(|p| has_phrase(&w, p))
        .collect();
    let done = DONE_WORDS.iter().any(|p| has_phrase(&w, p));
    // Soft error words beside a success word do not make an error.
    let excused = done && errors.iter().all(|e| SOFT_ERROR_WORDS.contains(e));
    if !errors.is_empty() && !excused {
        return Tone::Error;
    }
    if done {
        return Tone::Done;
    }
    if FINE_WORDS.iter().any(|p| has_phrase(&w, p)) {
        return Tone::Fine;
    }
    Tone::Neutral
}

/// Lowercase words of `text`: runs of letters, digits and inner apostrophes (curly ones
/// made straight).
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        let c = if matches!(c, '\u{2019}' | '\u{2018}' | '`') {
            '\''
        } else {
            c
        };
        if c.is_alphanumeric() || (c == '\'' && !current.is_empty()) {
            current.push(c);
        } else if !current.is_empty() {
            out.push(current.trim_end_matches('\'').to_string());
            current.clear();
        }
    }
    if !current.is_empty() {
        out.push(current.trim_end_matches('\'').to_string());
    }
    out
}

/// Whether the words hold the phrase (words separated by one space; a word ending in `*`
/// matches any word it starts).
pub(crate) fn has_phrase(words: &[String], phrase: &str) -> bool {
    let parts: Vec<&str> = phrase.split(' ').collect();
    if parts.is_empty() || parts.len() > words.len() {
        return false;
    }
    words.windows(parts.len()).any(|window| {
        window
            .iter()
            .zip(&parts)
            .all(|(w, p)| match p.strip_suffix('*') {
                Some(stem) => w.starts_with(stem),
                None => w == p,
            })
    })
}

/// Whitespace collapsed and trimmed.
pub(crate) fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A text as signatures compare it: lowercase, whitespace collapsed, each run of digits
/// as `N`.
pub fn normalize(text: &str) -> String {
    let mut out = String::new();
    let mut in_digits = false;
    for c in collapse(text).chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
        } else {
            in_digits = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// The path of a URL, without scheme, host, query and fragment, trailing `/` dropped; a
/// fragment route (`#/thanks`, `#!/thanks`) is part of the path.
fn path_of(url: &str) -> String {
    let rest = match url.find("://") {
        Some(i) => {
            let after = &url[i + 3..];
            after.find('/').map_or("", |j| &after[j..])
        }
        None => url,
    };
    let (main, fragment) = rest.split_once('#').unwrap_or((rest, ""));
    let main = main.split('?').next().unwrap_or("").trim_end_matches('/');
    let mut path = if main.is_empty() {
        "/".to_string()
    } else {
        main.to_string()
    };
    let route = fragment.strip_prefix('!').unwrap_or(fragment);
    if route.starts_with('/') {
        let route = route.split('?').next().unwrap_or("").trim_end_matches('/');
        path.push('#');
        path.push_str(route);
    }
    path
}

/// Path with runs of digits as `N`, case kept.
fn generalize_path(path: &str) -> String {
    let mut out = String::new();
    let mut in_digits = false;
    for c in path.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('N');
            }
            in_digits = true;
        } else {
            in_digits = false;
            out.push(c);
        }
    }
    out
}

/// Input types a person types text into (values worth masking, fields that a cleared
/// form empties).
fn is_typed(input_type: &str) -> bool {
    !matches!(
        input_type,
        "checkbox"
            | "radio"
            | "select-one"
            | "select-multiple"
            | "hidden"
            | "submit"
            | "button"
            | "reset"
            | "image"
            | "file"
            | "range"
            | "color"
    )
}

/// Most texts of a page left for another kept as feedback, per tone.
const MAX_LEFT_PAGE_TEXTS: usize = 3;

/// Reads every channel of `obs` and judges the submission; `attach` names the field a
/// text that appeared is about (`None`: the form as a whole), e.g. [`attach_by_layout`].
pub fn classify(
    form: &Form,
    obs: &Observation,
    attach: &dyn Fn(&str, Rect) -> Option<usize>,
) -> Feedback {
    let n = form.fields.len();
    let fields_known = n > 0 && obs.fields.len() == n;
    let present = |i: usize| fields_known && obs.fields[i].rect.has_area();
    let form_present = if fields_known {
        (0..n).any(present)
    } else {
        !obs.navigated
    };
    let path_before = path_of(&obs.url_before);
    let path_after = path_of(&obs.url_after);
    let moved =
        !obs.url_after.is_empty() && !obs.url_before.is_empty() && path_before != path_after;
    // A form that comes back at another address (a server that re-renders it from its
    // POST handler) is the page staying, as far as texts beside its fields go.
    let rerendered = moved && obs.navigated && form_present && fields_known;
    let left = (moved && !rerendered) || (obs.navigated && !form_present);

    let echoes = echoes(form, obs);
    let now: Vec<&str> = if fields_known && !obs.navigated {
        form.fields
            .iter()
            .zip(&obs.fields)
            .filter(|(f, _)| is_typed(&f.input_type))
            .map(|(_, s)| s.value.as_str())
            .collect()
    } else {
        Vec::new()
    };
    let values: Vec<String> = now
        .into_iter()
        .chain(obs.sent.iter().map(String::as_str))
        .map(|v| v.trim().to_string())
        .filter(|v| v.chars().count() >= 3)
        .collect();
    let key_of = |text: &str| normalize(&mask(text, &values));

    let mut messages: Vec<Message> = Vec::new();
    let push =
        |messages: &mut Vec<Message>, text: String, field: Option<usize>, channel: Channel| {
            let key = match channel {
                Channel::Http(status) => format!("http {status}"),
                _ => key_of(&text),
            };
            if messages.iter().any(|m| m.field == field && m.key == key) {
                return false;
            }
            messages.push(Message {
                text,
                field,
                channel,
                key,
            });
            true
        };
    // Errors no success text can outweigh, errors read in a page left for another, and
    // success signs.
    let mut refused = false;
    let mut page_errors = false;
    let mut done = false;
    // A dialog saying neither: an error when nothing else tells success.
    let mut bare_dialog = false;

    // Native validation: the browser blocked the submission.
    if fields_known && !obs.navigated {
        for (i, state) in obs.fields.iter().enumerate() {
            let text = collapse(&state.validation_message);
            if !text.is_empty() {
                push(&mut messages, text, Some(i), Channel::Native);
                refused = true;
            }
        }
    }

    // Texts that appeared, then texts that came and went.
    let mut candidates: Vec<(&SeenText, bool)> = fresh(&obs.texts_before, &obs.texts_after)
        .into_iter()
        .map(|t| (t, false))
        .collect();
    let before: Vec<String> = obs.texts_before.iter().map(|t| collapse(&t.text)).collect();
    let after: Vec<String> = obs.texts_after.iter().map(|t| collapse(&t.text)).collect();
    for t in &obs.added_texts {
        let text = collapse(&t.text);
        if !before.contains(&text) && !after.contains(&text) {
            candidates.push((t, true));
        }
    }
    let described: Vec<String> = if fields_known {
        obs.fields
            .iter()
            .map(|s| collapse(&s.described_by).to_lowercase())
            .collect()
    } else {
        Vec::new()
    };
    let echo = |text: &str| {
        let lower = text.to_lowercase();
        let bare = lower.trim_end_matches([':', '*', ' ']);
        !text.chars().any(char::is_alphabetic)
            || echoes.contains(&lower)
            || echoes.iter().any(|e| e == bare)
    };
    // A success said outright: the new entry it shows (an author, a date) is no message
    // about a field, though it may sit beside one; nor is the success itself.
    let announced = candidates.iter().any(|(seen, _)| {
        let text = collapse(&seen.text);
        !echo(&text) && tone(&text) == Tone::Done
    });
    let (mut left_done, mut left_errors) = (0, 0);
    for (seen, toast) in candidates {
        let text = collapse(&seen.text);
        if echo(&text) {
            continue;
        }
        let lower = text.to_lowercase();
        let tone = match tone(&text) {
            // Shown in red or as an error, on the page the form is on.
            Tone::Neutral if seen.alarm && !left => Tone::Error,
            tone => tone,
        };
        if tone == Tone::Neutral && BUSY_WORDS.iter().any(|b| has_phrase(&words(&text), b)) {
            continue;
        }
        let by_layout = match tone {
            Tone::Neutral => !announced,
            Tone::Done => false,
            Tone::Error | Tone::Fine => true,
        };
        let field = if form_present {
            described_field(&described, &lower, &obs.fields).or_else(|| {
                by_layout
                    .then(|| attach(&text, seen.rect).filter(|&f| f < n))
                    .flatten()
            })
        } else {
            None
        };
        let keep = if left {
            match tone {
                Tone::Error if left_errors < MAX_LEFT_PAGE_TEXTS || seen.live || toast => {
                    left_errors += 1;
                    true
                }
                Tone::Done if left_done < MAX_LEFT_PAGE_TEXTS => {
                    left_done += 1;
                    true
                }
                Tone::Error | Tone::Done => false,
                Tone::Fine | Tone::Neutral => seen.live,
            }
        } else {
            tone != Tone::Neutral || seen.live || toast || field.is_some()
        };
        if !keep {
            continue;
        }
        let channel = if toast {
            Channel::Toast
        } else if seen.live && tone == Tone::Error {
            Channel::Alert
        } else if seen.live {
            Channel::Live
        } else {
            Channel::Inline
        };
        match tone {
            Tone::Error if left && !seen.live && !toast && field.is_none() => page_errors = true,
            Tone::Error => refused = true,
            // A new text beside a field, on a page that stayed: an error message.
            Tone::Neutral if field.is_some() && !left => refused = true,
            Tone::Done => done = true,
            Tone::Fine | Tone::Neutral => {}
        }
        push(&mut messages, text, field, channel);
    }

    // Fields marked invalid.
    let mut invalid = Vec::new();
    if fields_known && form_present {
        for (i, state) in obs.fields.iter().enumerate() {
            if !state.aria_invalid || !present(i) {
                continue;
            }
            refused = true;
            if messages.iter().any(|m| m.field == Some(i)) {
                continue;
            }
            let text = collapse(&state.described_by);
            if text.chars().any(char::is_alphabetic) && !echoes.contains(&text.to_lowercase()) {
                push(&mut messages, text, Some(i), Channel::Inline);
            } else {
                invalid.push(i);
            }
        }
    }

    // Dialogs.
    for dialog in &obs.dialogs {
        let text = collapse(dialog);
        if text.is_empty() {
            continue;
        }
        match tone(&text) {
            Tone::Error => refused = true,
            Tone::Done => done = true,
            Tone::Fine | Tone::Neutral => bare_dialog = true,
        }
        push(&mut messages, text, None, Channel::Dialog);
    }

    // HTTP statuses.
    for &status in &obs.statuses {
        if status >= 400 {
            push(
                &mut messages,
                format!("HTTP {status}"),
                None,
                Channel::Http(status),
            );
            refused = true;
        }
    }

    let typed: Vec<usize> = (0..n)
        .filter(|&i| is_typed(&form.fields[i].input_type) && present(i))
        .collect();
    // Emptied fields count when the page visibly changed too: a form that does nothing
    // with empty values is no success.
    let changed = !obs.added_texts.is_empty()
        || !fresh(&obs.texts_before, &obs.texts_after).is_empty()
        || !fresh(&obs.texts_after, &obs.texts_before).is_empty();
    let cleared = !obs.navigated
        && changed
        && !typed.is_empty()
        && typed.iter().all(|&i| obs.fields[i].value.is_empty());
    let replaced = !obs.navigated && fields_known && !form_present;
    let accepted = done || moved || cleared || replaced;
    let outcome = if refused || (page_errors && !done) || (bare_dialog && !left && !accepted) {
        Outcome::Failure
    } else if accepted {
        Outcome::Success
    } else {
        Outcome::Unknown
    };
    Feedback {
        outcome,
        messages,
        invalid,
        moved_to: moved.then(|| generalize_path(&path_after)),
        observed: true,
    }
}

/// Texts of `after` that `before` does not account for: each text of `before` accounts
/// for one text of `after` with the same words, at the same place first.
fn fresh<'a>(before: &[SeenText], after: &'a [SeenText]) -> Vec<&'a SeenText> {
    let b: Vec<String> = before.iter().map(|t| collapse(&t.text)).collect();
    let a: Vec<String> = after.iter().map(|t| collapse(&t.text)).collect();
    let mut used = vec![false; before.len()];
    let mut old = vec![false; after.len()];
    for (i, t) in after.iter().enumerate() {
        if let Some(j) =
            (0..before.len()).find(|&j| !used[j] && b[j] == a[i] && before[j].rect == t.rect)
        {
            used[j] = true;
            old[i] = true;
        }
    }
    for i in 0..after.len() {
        if old[i] {
            continue;
        }
        if let Some(j) = (0..before.len()).find(|&j| !used[j] && b[j] == a[i]) {
            used[j] = true;
            old[i] = true;
        }
    }
    after
        .iter()
        .zip(old)
        .filter(|(_, old)| !old)
        .map(|(t, _)| t)
        .collect()
}

/// Texts that only repeat the form itself: labels, placeholders, options, the title, the
/// submit button's name, the values in the fields; lowercase, whitespace collapsed.
fn echoes(form: &Form, obs: &Observation) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |s: &str| {
        let s = collapse(s).to_lowercase();
        let trimmed = s.trim_end_matches([':', '*', ' ']).to_string();
        if !trimmed.is_empty() {
            out.push(trimmed.clone());
        }
        if !s.is_empty() && s != trimmed {
            out.push(s);
        }
    };
    if let Some(t) = &form.title {
        add(t);
    }
    for f in &form.fields {
        for l in &f.labels {
            add(&l.text);
        }
        if let Some(p) = &f.placeholder {
            add(p);
        }
        for o in &f.options {
            add(&o.text);
        }
        if is_typed(&f.input_type) {
            add(&f.value);
        }
    }
    if let Some(submit) = &form.submit
        && let Some(name) = submit
            .locator
            .split_once('"')
            .and_then(|(_, rest)| rest.rsplit_once('"'))
            .map(|(name, _)| name)
    {
        add(name);
    }
    for (i, s) in obs.fields.iter().enumerate() {
        if form.fields.get(i).is_some_and(|f| is_typed(&f.input_type)) {
            add(&s.value);
        }
    }
    for sent in &obs.sent {
        add(sent);
    }
    out
}

/// The field whose `aria-describedby` / `aria-errormessage` text holds `lower` (an
/// explicit association, beating layout); fields marked invalid first.
fn described_field(described: &[String], lower: &str, fields: &[FieldState]) -> Option<usize> {
    if lower.chars().count() < 2 {
        return None;
    }
    let holds = |i: usize| !described[i].is_empty() && described[i].contains(lower);
    (0..described.len())
        .find(|&i| holds(i) && fields[i].aria_invalid)
        .or_else(|| (0..described.len()).find(|&i| holds(i)))
}

/// `text` with every occurrence of the values (case-insensitive) replaced by `V`.
/// `text` with each whole-word occurrence of `value` (case-insensitive) replaced by `V`.
fn mask_word(text: &str, value: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let v: Vec<char> = value.to_lowercase().chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let end = i + v.len();
        let matches = end <= chars.len()
            && chars[i..end]
                .iter()
                .flat_map(|c| c.to_lowercase())
                .eq(v.iter().copied());
        let bounded = (i == 0 || !chars[i - 1].is_alphanumeric())
            && (end >= chars.len() || !chars[end].is_alphanumeric());
        if !v.is_empty() && matches && bounded {
            out.push('V');
            i = end;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

fn mask(text: &str, values: &[String]) -> String {
    let mut out = text.to_string();
    let mut sorted: Vec<&String> = values.iter().collect();
    sorted.sort_by_key(|v| std::cmp::Reverse(v.chars().count()));
    for v in sorted {
        let lower_out = out.to_lowercase();
        let lower_v = v.to_lowercase();
        // Lowercasing can change lengths outside ASCII: only mask where it does not.
        if lower_out.len() != out.len() || lower_v.is_empty() {
            continue;
        }
        let mut result = String::new();
        let mut rest = 0;
        let mut from = 0;
        while let Some(pos) = lower_out[from..].find(&lower_v) {
            let start = from + pos;
            if !out.is_char_boundary(start) || !out.is_char_boundary(start + lower_v.len()) {
                break;
            }
            result.push_str(&out[rest..start]);
            result.push('V');
            rest = start + lower_v.len();
            from = rest;
        }
        result.push_str(&out[rest..]);
        out = result;
    }
    out
}

/// How far below or right of a field a message may sit, in CSS pixels, to be about it.
const BELOW: f64 = 48.0;
const RIGHT: f64 = 64.0;
/// A message starting this far left of a field's left edge still sits below it.
const INDENT: f64 = 40.0;
/// Overlap tolerated between boxes that touch.
const SLACK: f64 = 4.0;

/// Attaches a message to the nearest field whose box is just above it or just left of
/// it (or under it, for a message drawn over the field), within a form row; `None` (the
/// form as a whole) when no field is that close or the message has no box. Field boxes
/// are those after the submission (`fields_now`, by field index); the form's own boxes
/// when `fields_now` does not list the fields.
pub fn attach_by_layout(
    form: &Form,
    fields_now: &[FieldState],
) -> impl Fn(&str, Rect) -> Option<usize> + use<> {
    let rects: Vec<Rect> = if !fields_now.is_empty() && fields_now.len() == form.fields.len() {
        fields_now.iter().map(|f| f.rect).collect()
    } else {
        form.fields.iter().map(|f| f.target.rect).collect()
    };
    move |_text: &str, message: Rect| {
        if !message.has_area() {
            return None;
        }
        let mut best: Option<(f64, usize)> = None;
        for (i, &field) in rects.iter().enumerate() {
            if !field.has_area() {
                continue;
            }
            if let Some(d) = layout_distance(field, message)
                && best.is_none_or(|(b, _)| d < b)
            {
                best = Some((d, i));
            }
        }
        best.map(|(_, i)| i)
    }
}

/// How far `message` sits from `field` when it is just below, just right of, or over it.
fn layout_distance(field: Rect, message: Rect) -> Option<f64> {
    let (f_right, f_bottom) = (field.x + field.width, field.y + field.height);
    let (m_right, m_bottom) = (message.x + message.width, message.y + message.height);
    let h_overlap = message.x < f_right && m_right > field.x;
    let v_overlap = message.y < f_bottom && m_bottom > field.y;
    let contains_field =
        message.x <= field.x && message.y <= field.y && m_right >= f_right && m_bottom >= f_bottom;
    if contains_field {
        // A container of the field (a form group, the form): not a message about it.
        return None;
    }
    let below = message.y - f_bottom;
    if h_overlap && v_overlap && below < -SLACK {
        return Some(0.0);
    }
    if (-SLACK..=BELOW).contains(&below) && (h_overlap || (message.x - field.x).abs() <= INDENT) {
        return Some(below.max(0.0) + 0.01 * (message.x - field.x).abs());
    }
    let right = message.x - f_right;
    if (-SLACK..=RIGHT).contains(&right) && v_overlap {
        return Some(right.max(0.0));
    }
    None
}
