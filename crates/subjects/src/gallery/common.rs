//! The small helpers every form of the gallery shares: reading submitted fields, civil
//! dates without a date crate, URL encoding, email checks, server-side problems, the
//! `invalid` listener that records native validation messages and, for tests, HTTP by
//! hand.

use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::time::{SystemTime, UNIX_EPOCH};

use super::Gallery;
use crate::ground_truth::FssSpec;

/// A Form Submission State, in one line of a form's `STATES`.
pub(super) const fn fss(
    id: &'static str,
    form: &'static str,
    success: bool,
    description: &'static str,
) -> FssSpec {
    FssSpec {
        id,
        form,
        success,
        description,
    }
}

// ---------------------------------------------------------------------------------------
// Submitted fields.

/// Submitted fields in the order they came, repeated names included (checkboxes).
pub(super) type Fields = Vec<(String, String)>;

/// Submitted fields a handler reads by name: the pairs of [`Fields`] or a map.
pub(super) trait FieldSource {
    /// The value sent for `name` as sent: of pairs, the first one where the name
    /// repeats; a map holds one value a name.
    fn sent(&self, name: &str) -> Option<&str>;
}

impl FieldSource for [(String, String)] {
    fn sent(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl FieldSource for Vec<(String, String)> {
    fn sent(&self, name: &str) -> Option<&str> {
        self.as_slice().sent(name)
    }
}

impl FieldSource for HashMap<String, String> {
    fn sent(&self, name: &str) -> Option<&str> {
        self.get(name).map(String::as_str)
    }
}

/// The first value of field `name`, trimmed; empty when absent.
pub(super) fn value<'a, F: FieldSource + ?Sized>(fields: &'a F, name: &str) -> &'a str {
    fields.sent(name).map_or("", str::trim)
}

/// The first value of field `name` as sent, untrimmed (passwords); empty when absent.
pub(super) fn raw_value<'a, F: FieldSource + ?Sized>(fields: &'a F, name: &str) -> &'a str {
    fields.sent(name).unwrap_or("")
}

/// ` selected` when `on`, for an `<option>`.
pub(super) fn selected(on: bool) -> &'static str {
    if on { " selected" } else { "" }
}

// ---------------------------------------------------------------------------------------
// Civil dates, as days since 1970-01-01 (proleptic Gregorian, UTC).

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(super) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let (m, d) = (i64::from(m), i64::from(d));
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// After Howard Hinnant's `civil_from_days`: the (year, month, day) of a day count since
/// 1970-01-01; tuples compare in date order.
pub(super) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (
        y,
        u32::try_from(m).unwrap_or(1),
        u32::try_from(d).unwrap_or(1),
    )
}

/// Today (UTC, the server's clock) as days since 1970-01-01.
pub(super) fn today() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs() / 86_400).unwrap_or(0))
        .unwrap_or(0)
}

/// Parses `YYYY-MM-DD` (what `<input type=date>` sends) with a year of exactly four
/// digits, 1000 to 9999, into days since 1970-01-01.
pub(super) fn parse_date_four_digit_year(text: &str) -> Option<i64> {
    parse_date(text, 4..=4, 1000)
}

/// Parses `YYYY-MM-DD` (what `<input type=date>` sends) with a year of four to six
/// digits, 0001 to 999999 (a browser's date input takes years past 9999), into days
/// since 1970-01-01.
pub(super) fn parse_date_long_year(text: &str) -> Option<i64> {
    parse_date(text, 4..=6, 1)
}

/// `YYYY-MM-DD` with as many year digits as `year_digits` allows and a year of at least
/// `first_year`, as days since 1970-01-01; `None` for anything else, 2025-02-30 included.
fn parse_date(text: &str, year_digits: RangeInclusive<usize>, first_year: i64) -> Option<i64> {
    let mut parts = text.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if parts.next().is_some()
        || !year_digits.contains(&y.len())
        || m.len() != 2
        || d.len() != 2
        || ![y, m, d].into_iter().all(digits)
    {
        return None;
    }
    let (y, m, d): (i64, u32, u32) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    if y < first_year || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let days = days_from_civil(y, m, d);
    // 2025-02-30 would roll over into March: reject it.
    (civil_from_days(days) == (y, m, d)).then_some(days)
}

/// `YYYY-MM-DD` of a day count.
pub(super) fn iso_date(days: i64) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

/// "Tue 4 Mar 2025".
pub(super) fn pretty_date(days: i64) -> String {
    const WEEKDAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let (y, m, d) = civil_from_days(days);
    let weekday = WEEKDAYS[usize::try_from(days.rem_euclid(7)).unwrap_or(0)];
    let month = MONTHS[usize::try_from(m - 1).unwrap_or(0)];
    format!("{weekday} {d} {month} {y}")
}

// ---------------------------------------------------------------------------------------
// URLs and emails.

/// Percent-encodes a query-string value.
pub(super) fn url_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A query string from name/value pairs.
pub(super) fn query_string(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(n, v)| format!("{n}={}", url_encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Roughly what sign-up forms accept: `local@domain.tld`, no spaces, and no `..` in the
/// domain (`ada@example..com` is refused).
pub(super) fn looks_like_email_without_double_dots(text: &str) -> bool {
    looks_like_email_allowing_double_dots(text)
        && text
            .split_once('@')
            .is_some_and(|(_, domain)| !domain.contains(".."))
}

/// `local@domain.tld`, no spaces; the domain may have `..` after its first dot
/// (`ada@example..com` passes).
pub(super) fn looks_like_email_allowing_double_dots(text: &str) -> bool {
    let Some((local, domain)) = text.split_once('@') else {
        return false;
    };
    !local.is_empty()
        && !text.contains(char::is_whitespace)
        && !domain.contains('@')
        && domain
            .split_once('.')
            .is_some_and(|(host, tld)| !host.is_empty() && !tld.is_empty())
        && !domain.ends_with('.')
}

// ---------------------------------------------------------------------------------------
// Server-side problems.

/// One message a server-side check gives: the field it belongs to, its state and text.
#[derive(Debug, Clone)]
pub(super) struct Problem {
    pub(super) field: &'static str,
    pub(super) state: &'static str,
    pub(super) message: String,
}

impl Problem {
    pub(super) fn new(
        field: &'static str,
        state: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            field,
            state,
            message: message.into(),
        }
    }
}

/// Records every state among `problems` (once each).
pub(super) fn record(state: &Gallery, problems: &[Problem]) {
    let mut seen: Vec<&str> = Vec::new();
    for p in problems {
        if !seen.contains(&p.state) {
            seen.push(p.state);
            state.hit(p.state);
        }
    }
}

/// The message for `field`, if any.
pub(super) fn problem_for<'a>(problems: &'a [Problem], field: &str) -> Option<&'a Problem> {
    problems.iter().find(|p| p.field == field)
}

// ---------------------------------------------------------------------------------------
// Page scripts.

/// `text` as a JavaScript string literal.
pub(super) fn js_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// An inline script recording the native validation message the browser shows for a
/// submit attempt of form `form_id`: that of the first invalid control (the one with
/// the bubble), looked up by (control name, validity flag) in `states`. Flags are
/// checked in the order Chromium picks its message.
pub(super) fn native_truth_script(form_id: &str, states: &[(&str, &str, &str)]) -> String {
    let map: serde_json::Map<String, serde_json::Value> = states
        .iter()
        .map(|(name, flag, id)| (format!("{name} {flag}"), (*id).into()))
        .collect();
    NATIVE_TRUTH_SCRIPT
        .replace("FORM_ID", &js_string(form_id))
        .replace("STATE_MAP", &serde_json::Value::Object(map).to_string())
}

const NATIVE_TRUTH_SCRIPT: &str = r#"<script>
(function () {
  var form = document.getElementById(FORM_ID);
  var states = STATE_MAP;
  var flags = ['badInput', 'valueMissing', 'typeMismatch', 'patternMismatch', 'tooLong',
               'tooShort', 'rangeUnderflow', 'rangeOverflow', 'stepMismatch'];
  var reported = false;
  form.addEventListener('invalid', function (e) {
    if (reported) return;
    reported = true;
    setTimeout(function () { reported = false; }, 0);
    var v = e.target.validity;
    for (var i = 0; i < flags.length; i++) {
      if (v[flags[i]]) {
        var id = states[e.target.name + ' ' + flags[i]];
        if (id) curioTruth(id);
        return;
      }
    }
  }, true);
})();
</script>"#;

/// HTTP/1.1 by hand, just enough for the gallery's unit tests.
#[cfg(test)]
pub(super) mod http {
    use std::collections::BTreeSet;
    use std::time::Duration;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    use crate::RunningSubject;

    #[derive(Debug)]
    pub(crate) struct Reply {
        pub(crate) status: u16,
        pub(crate) head: String,
        pub(crate) body: String,
    }

    impl Reply {
        pub(crate) fn location(&self) -> Option<&str> {
            self.head.lines().find_map(|l| {
                l.split_once(':')
                    .filter(|(n, _)| n.eq_ignore_ascii_case("location"))
                    .map(|(_, v)| v.trim())
            })
        }
    }

    /// Sends a request with an optional (content type, body).
    pub(crate) async fn send(
        app: &RunningSubject,
        method: &str,
        path: &str,
        body: Option<(&str, &str)>,
    ) -> Reply {
        let addr = app.addr();
        let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
        match body {
            Some((content_type, body)) => req.push_str(&format!(
                "Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )),
            None => req.push_str("\r\n"),
        }
        let exchange = async {
            let mut stream = TcpStream::connect(addr).await.expect("connect");
            stream.write_all(req.as_bytes()).await.expect("write");
            let mut raw = Vec::new();
            stream.read_to_end(&mut raw).await.expect("read");
            raw
        };
        let raw = tokio::time::timeout(Duration::from_secs(10), exchange)
            .await
            .expect("reply in time");
        let text = String::from_utf8(raw).expect("utf-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("end of headers");
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .expect("status");
        assert!(
            !head
                .to_ascii_lowercase()
                .contains("transfer-encoding: chunked"),
            "chunked replies are not decoded here"
        );
        Reply {
            status,
            head: head.to_owned(),
            body: body.to_owned(),
        }
    }

    pub(crate) async fn get(app: &RunningSubject, path: &str) -> Reply {
        send(app, "GET", path, None).await
    }

    /// Posts `form`, URL-encoded as a browser sends a form.
    pub(crate) async fn post(app: &RunningSubject, path: &str, form: &str) -> Reply {
        send(
            app,
            "POST",
            path,
            Some(("application/x-www-form-urlencoded", form)),
        )
        .await
    }

    /// The states recorded so far.
    pub(crate) fn hits(app: &RunningSubject) -> BTreeSet<String> {
        app.ground_truth().triggered_ids()
    }

    /// A date `n` days from today, as a form sends it.
    pub(crate) fn in_days(n: i64) -> String {
        super::iso_date(super::today() + n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_round_trip() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert!(today() > days_from_civil(2024, 1, 1));
        assert_eq!(iso_date(days_from_civil(2024, 2, 29)), "2024-02-29");
        assert_eq!(iso_date(days_from_civil(2025, 6, 5)), "2025-06-05");
        assert_eq!(pretty_date(days_from_civil(2025, 3, 4)), "Tue 4 Mar 2025");
        for d in [-800_000, -1, 0, 59, 10_000, 20_000, 800_000] {
            let (y, m, dd) = civil_from_days(d);
            assert_eq!(days_from_civil(y, m, dd), d);
        }
    }

    #[test]
    fn dates_parse_with_either_year_width() {
        for parse in [parse_date_four_digit_year, parse_date_long_year] {
            assert_eq!(parse("2024-02-29"), Some(days_from_civil(2024, 2, 29)));
            assert_eq!(parse("2023-02-29"), None);
            assert_eq!(parse("2025-02-30"), None);
            assert_eq!(parse("2023-13-01"), None);
            assert_eq!(parse("2023-00-01"), None);
            assert_eq!(parse("2023-01-00"), None);
            assert_eq!(parse("23-01-01"), None);
            assert_eq!(parse("2023-1-01"), None);
            assert_eq!(parse("+023-01-01"), None);
            assert_eq!(parse("2023-01-01-"), None);
            assert_eq!(parse(""), None);
        }
        assert_eq!(parse_date_four_digit_year("0999-01-01"), None);
        assert_eq!(parse_date_four_digit_year("10000-01-01"), None);
        assert_eq!(
            parse_date_long_year("0999-01-01"),
            Some(days_from_civil(999, 1, 1))
        );
        assert_eq!(
            parse_date_long_year("10000-01-01"),
            Some(days_from_civil(10_000, 1, 1))
        );
        assert_eq!(parse_date_long_year("0000-01-01"), None);
        assert_eq!(parse_date_long_year("1000000-01-01"), None);
    }

    #[test]
    fn urls_and_emails() {
        assert_eq!(url_encode("São Paulo & co"), "S%C3%A3o%20Paulo%20%26%20co");
        assert_eq!(query_string(&[("a", "x y"), ("b", "")]), "a=x%20y&b=");
        for check in [
            looks_like_email_without_double_dots,
            looks_like_email_allowing_double_dots,
        ] {
            assert!(check("ada@example.com"));
            for bad in [
                "ada@example",
                "ada@.example.com",
                "ada@example.com.",
                "@example.com",
                "ada@@example.com",
                "ada @example.com",
                "ada.example.com",
            ] {
                assert!(!check(bad), "{bad}");
            }
        }
        assert!(!looks_like_email_without_double_dots("ada@example..com"));
        assert!(looks_like_email_allowing_double_dots("ada@example..com"));
    }
}
