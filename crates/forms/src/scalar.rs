//! Numbers, dates, months, weeks, times and date-times as points on one line, so that
//! `min`, `max`, `step`, ranges and boundaries are handled once for all of them.
//!
//! Each scale maps values to an ordinal in the unit HTML counts its `step` in (days for
//! dates, months, weeks, seconds for times and date-times), with 0 at HTML's default step
//! base (1970-01-01, 1970-01, 1970-W01, 00:00), so a valid value is `base + k * step`.

use rand::{Rng, RngCore};

/// Seconds in a day.
pub(crate) const DAY: f64 = 86_400.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scale {
    Number,
    Date,
    Month,
    Week,
    Time,
    DateTime,
}

impl Scale {
    /// The scale an input type works on; `range` is a number.
    pub(crate) fn of_type(input_type: &str) -> Option<Scale> {
        Some(match input_type {
            "number" | "range" => Scale::Number,
            "date" => Scale::Date,
            "month" => Scale::Month,
            "week" => Scale::Week,
            "time" => Scale::Time,
            "datetime-local" => Scale::DateTime,
            _ => return None,
        })
    }

    pub(crate) fn default_step(self) -> f64 {
        match self {
            Scale::Time | Scale::DateTime => 60.0,
            _ => 1.0,
        }
    }

    /// Parses a value in the input type's own (ISO) syntax.
    pub(crate) fn parse(self, text: &str) -> Option<f64> {
        let v = match self {
            Scale::Number => parse_number(text)?,
            Scale::Date => parse_date(text)? as f64,
            Scale::Month => parse_month(text)? as f64,
            Scale::Week => parse_week(text)? as f64,
            Scale::Time => parse_time(text)?,
            Scale::DateTime => parse_datetime(text)?,
        };
        v.is_finite().then_some(v)
    }

    /// Writes an ordinal in the input type's own syntax, numbers with `decimals` digits
    /// after the point. `None` for ordinals no value of the type has (year 0, a time
    /// outside the day).
    pub(crate) fn format(self, v: f64, decimals: usize) -> Option<String> {
        if !v.is_finite() {
            return None;
        }
        match self {
            Scale::Number => Some(format_number(v, decimals)),
            Scale::Date => format_date(day_number(v)?),
            Scale::Month => format_month(day_number(v)?),
            Scale::Week => format_week(day_number(v)?),
            Scale::Time => format_time(v),
            Scale::DateTime => {
                let days = (v / DAY).floor();
                let date = format_date(day_number(days)?)?;
                let time = format_time(v - days * DAY)?;
                Some(format!("{date}T{time}"))
            }
        }
    }
}

/// HTML's "valid floating-point number": `-?(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?`.
pub(crate) fn parse_number(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    let int_start = i;
    while b.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    let int_digits = i - int_start;
    let mut frac_digits = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        frac_digits = i - start;
        if frac_digits == 0 {
            return None;
        }
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Fixed decimals, no `-0`.
pub(crate) fn format_number(v: f64, decimals: usize) -> String {
    let s = format!("{v:.decimals$}");
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        return s.trim_start_matches('-').to_string();
    }
    s
}

/// The fewest decimals (up to 8) that write `v` exactly enough.
pub(crate) fn decimals_of(v: f64) -> usize {
    if !v.is_finite() {
        return 0;
    }
    (0..=8)
        .find(|&d| {
            let scaled = v * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.abs().max(1.0)
        })
        .unwrap_or(8)
}

/// An ordinal as a whole number of days (months, weeks), when it is small enough for
/// calendar arithmetic not to overflow: HTML's years end at 275760 anyway.
pub(crate) fn day_number(v: f64) -> Option<i64> {
    (v.is_finite() && v.abs() <= 2e8).then(|| v.round() as i64)
}

// ---- The civil calendar (proleptic Gregorian), after Howard Hinnant's algorithms. ----

pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

pub(crate) fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => 0,
    }
}

/// Years HTML date inputs accept.
const MAX_YEAR: i64 = 275_760;

fn digits(s: &str, len: usize) -> Option<u32> {
    (s.len() == len && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

fn year(s: &str) -> Option<i64> {
    if s.len() < 4 || s.len() > 6 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok().filter(|y| (1..=MAX_YEAR).contains(y))
}

pub(crate) fn parse_date(s: &str) -> Option<i64> {
    let mut parts = s.split('-');
    let y = year(parts.next()?)?;
    let m = digits(parts.next()?, 2)?;
    let d = digits(parts.next()?, 2)?;
    if parts.next().is_some() || !(1..=12).contains(&m) || d < 1 || d > days_in_month(y, m) {
        return None;
    }
    Some(days_from_civil(y, m, d))
}

pub(crate) fn format_date(days: i64) -> Option<String> {
    let (y, m, d) = civil_from_days(days);
    (1..=MAX_YEAR)
        .contains(&y)
        .then(|| format!("{y:04}-{m:02}-{d:02}"))
}

pub(crate) fn month_ordinal(y: i64, m: u32) -> i64 {
    (y - 1970) * 12 + i64::from(m) - 1
}

pub(crate) fn month_civil(ordinal: i64) -> (i64, u32) {
    (
        1970 + ordinal.div_euclid(12),
        (ordinal.rem_euclid(12) + 1) as u32,
    )
}

fn parse_month(s: &str) -> Option<i64> {
    let (y, m) = s.split_once('-')?;
    let y = year(y)?;
    let m = digits(m, 2)?;
    (1..=12).contains(&m).then(|| month_ordinal(y, m))
}

fn format_month(ordinal: i64) -> Option<String> {
    let (y, m) = month_civil(ordinal);
    (1..=MAX_YEAR)
        .contains(&y)
        .then(|| format!("{y:04}-{m:02}"))
}

/// Monday of ISO week 1 of year `y`: the week holding January 4th.
fn week_one_monday(y: i64) -> i64 {
    let jan4 = days_from_civil(y, 1, 4);
    jan4 - weekday(jan4)
}

/// Monday = 0; 1970-01-01 was a Thursday.
pub(crate) fn weekday(days: i64) -> i64 {
    (days + 3).rem_euclid(7)
}

/// Monday of 1970-W01, HTML's default step base for weeks.
fn week_base() -> i64 {
    week_one_monday(1970)
}

fn parse_week(s: &str) -> Option<i64> {
    let (y, w) = s.split_once("-W")?;
    let y = year(y)?;
    let w = i64::from(digits(w, 2)?);
    let weeks = (week_one_monday(y + 1) - week_one_monday(y)) / 7;
    if w < 1 || w > weeks {
        return None;
    }
    Some((week_one_monday(y) + (w - 1) * 7 - week_base()) / 7)
}

fn format_week(ordinal: i64) -> Option<String> {
    let monday = week_base() + ordinal * 7;
    let thursday = monday + 3;
    let (y, _, _) = civil_from_days(thursday);
    let w = (thursday - week_one_monday(y)) / 7 + 1;
    (1..=MAX_YEAR)
        .contains(&y)
        .then(|| format!("{y:04}-W{w:02}"))
}

/// The week ordinal of the week holding day `days`.
pub(crate) fn week_of_day(days: i64) -> i64 {
    (days - weekday(days) - week_base()).div_euclid(7)
}

fn parse_time(s: &str) -> Option<f64> {
    let mut parts = s.split(':');
    let h = digits(parts.next()?, 2)?;
    let m = digits(parts.next()?, 2)?;
    let sec = match parts.next() {
        None => 0.0,
        Some(sec) => {
            let (whole, frac) = match sec.split_once('.') {
                Some((w, f)) => (w, Some(f)),
                None => (sec, None),
            };
            let whole = digits(whole, 2)?;
            let frac = match frac {
                None => 0.0,
                Some(f) if (1..=3).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit()) => {
                    format!("0.{f}").parse::<f64>().ok()?
                }
                Some(_) => return None,
            };
            if whole > 59 {
                return None;
            }
            f64::from(whole) + frac
        }
    };
    if parts.next().is_some() || h > 23 || m > 59 {
        return None;
    }
    Some(f64::from(h) * 3600.0 + f64::from(m) * 60.0 + sec)
}

fn format_time(secs: f64) -> Option<String> {
    let secs = secs.round();
    if !(0.0..DAY).contains(&secs) {
        return None;
    }
    let s = secs as u32;
    let (h, m, sec) = (s / 3600, s / 60 % 60, s % 60);
    Some(if sec == 0 {
        format!("{h:02}:{m:02}")
    } else {
        format!("{h:02}:{m:02}:{sec:02}")
    })
}

fn parse_datetime(s: &str) -> Option<f64> {
    let (date, time) = s.split_once(['T', ' '])?;
    Some(parse_date(date)? as f64 * DAY + parse_time(time)?)
}

// ---- Picking a value on the grid. ----

/// `min`/`max` as ordinals.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Bounds {
    pub(crate) lo: Option<f64>,
    pub(crate) hi: Option<f64>,
}

impl Bounds {
    pub(crate) fn contains(&self, v: f64) -> bool {
        self.lo.is_none_or(|lo| v >= lo) && self.hi.is_none_or(|hi| v <= hi)
    }
}

/// Where valid values sit: `base + k * step`; no step for `step=any`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Grid {
    pub(crate) base: f64,
    pub(crate) step: Option<f64>,
}

impl Grid {
    pub(crate) fn on_grid(&self, v: f64) -> bool {
        let Some(step) = self.step else {
            return true;
        };
        let k = (v - self.base) / step;
        (k - k.round()).abs() < 1e-6
    }
}

/// A preferred interval and the granularity a person would use inside it (prices in
/// whole units, times on the quarter hour).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Want {
    pub(crate) lo: f64,
    pub(crate) hi: f64,
    pub(crate) nice: f64,
}

/// A valid point: inside `bounds`, on `grid`, and inside the first of `wants` that has
/// one (at its granularity if it can). Falls back to the valid point nearest the bounds.
pub(crate) fn pick(bounds: Bounds, grid: Grid, wants: &[Want], rng: &mut dyn RngCore) -> f64 {
    for want in wants {
        let lo = bounds.lo.map_or(want.lo, |b| b.max(want.lo));
        let hi = bounds.hi.map_or(want.hi, |b| b.min(want.hi));
        if lo.is_nan() || hi.is_nan() || lo > hi {
            continue;
        }
        let strides: Vec<(f64, f64)> = match grid.step {
            Some(step) => {
                let multiple = (want.nice / step).round().max(1.0);
                vec![(grid.base, step * multiple), (grid.base, step)]
            }
            None => vec![(0.0, want.nice), (lo, 0.0)],
        };
        for (anchor, stride) in strides {
            if stride == 0.0 {
                // `step=any` and nothing round inside: any point will do.
                return lo;
            }
            if let Some(v) = pick_on(lo, hi, anchor, stride, rng) {
                return v;
            }
        }
    }
    fallback(bounds, grid)
}

fn pick_on(lo: f64, hi: f64, anchor: f64, stride: f64, rng: &mut dyn RngCore) -> Option<f64> {
    if !(stride > 0.0 && stride.is_finite()) {
        return None;
    }
    let first = ((lo - anchor) / stride - 1e-9).ceil();
    let last = ((hi - anchor) / stride + 1e-9).floor();
    if !(first.is_finite() && last.is_finite()) || first > last {
        return None;
    }
    // Keep `k` within what an i64 and an f64 hold exactly; an interval wholly outside
    // that range has no point here and the caller falls back.
    let first = first.max(-1e15);
    let last = last.min(1e15);
    if first > last {
        return None;
    }
    let (first, last) = (first as i64, last as i64);
    let k = rng.random_range(first..=last);
    let v = anchor + k as f64 * stride;
    v.is_finite().then_some(v)
}

/// The first valid point at or above `min`, else the last at or below `max`, else the base.
pub(crate) fn fallback(bounds: Bounds, grid: Grid) -> f64 {
    let step = grid.step.unwrap_or(0.0);
    let snap_up = |v: f64| {
        if step > 0.0 {
            grid.base + ((v - grid.base) / step - 1e-9).ceil() * step
        } else {
            v
        }
    };
    let snap_down = |v: f64| {
        if step > 0.0 {
            grid.base + ((v - grid.base) / step + 1e-9).floor() * step
        } else {
            v
        }
    };
    let v = match (bounds.lo, bounds.hi) {
        (Some(lo), Some(hi)) => {
            let v = snap_up(lo);
            if v <= hi { v } else { lo }
        }
        (Some(lo), None) => snap_up(lo),
        (None, Some(hi)) => snap_down(hi),
        (None, None) => grid.base,
    };
    if v.is_finite() { v } else { 0.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn numbers_follow_html_syntax() {
        assert_eq!(parse_number("12"), Some(12.0));
        assert_eq!(parse_number("-0.5"), Some(-0.5));
        assert_eq!(parse_number(".5"), Some(0.5));
        assert_eq!(parse_number("1e3"), Some(1000.0));
        for bad in ["", "+1", "1.", "abc", "1e", " 1", "1e999", "-"] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
        assert_eq!(format_number(-0.0, 0), "0");
        assert_eq!(format_number(19.99, 2), "19.99");
        assert_eq!(decimals_of(0.01), 2);
        assert_eq!(decimals_of(5.0), 0);
    }

    #[test]
    fn calendars_round_trip() {
        for s in ["1970-01-01", "2024-02-29", "2000-12-31", "0001-01-01"] {
            let d = Scale::Date.parse(s).unwrap();
            assert_eq!(Scale::Date.format(d, 0).as_deref(), Some(s));
        }
        assert_eq!(Scale::Date.parse("2023-02-29"), None);
        assert_eq!(Scale::Date.parse("1970-01-01"), Some(0.0));
        for s in ["1970-W01", "2020-W53", "2025-W01", "2024-W52"] {
            let w = Scale::Week.parse(s).unwrap();
            assert_eq!(Scale::Week.format(w, 0).as_deref(), Some(s));
        }
        assert_eq!(Scale::Week.parse("1970-W01"), Some(0.0));
        assert_eq!(Scale::Week.parse("2021-W53"), None);
        assert_eq!(Scale::Month.parse("1970-01"), Some(0.0));
        assert_eq!(Scale::Month.format(12.0, 0).as_deref(), Some("1971-01"));
        assert_eq!(Scale::Time.parse("10:30"), Some(37_800.0));
        assert_eq!(Scale::Time.format(37_815.0, 0).as_deref(), Some("10:30:15"));
        assert_eq!(Scale::Time.parse("24:00"), None);
        let dt = Scale::DateTime.parse("2025-06-15T10:30").unwrap();
        assert_eq!(
            Scale::DateTime.format(dt, 0).as_deref(),
            Some("2025-06-15T10:30")
        );
        assert_eq!(Scale::Date.format(-1e9, 0), None);
    }

    #[test]
    fn picks_stay_on_grid_and_in_bounds() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let bounds = Bounds {
            lo: Some(3.0),
            hi: Some(40.0),
        };
        let grid = Grid {
            base: 3.0,
            step: Some(4.0),
        };
        for _ in 0..200 {
            let v = pick(
                bounds,
                grid,
                &[Want {
                    lo: 1.0,
                    hi: 5.0,
                    nice: 1.0,
                }],
                &mut rng,
            );
            assert!(bounds.contains(v) && grid.on_grid(v), "{v}");
        }
        let v = pick(
            Bounds {
                lo: Some(10.0),
                hi: Some(5.0),
            },
            grid,
            &[],
            &mut rng,
        );
        assert!(v.is_finite());
    }
}
