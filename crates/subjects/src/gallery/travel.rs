//! Travel forms: a multi-city flight search (server-side, inline errors), a hotel search
//! (HTML5 native validation plus page JavaScript), a car rental quote (server-side,
//! a banner of errors over a table layout) and a train ticket reservation (page
//! JavaScript, then a `fetch` to a JSON endpoint).

use axum::extract::{Query, State};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};

use super::common::{
    Fields, Problem, fss, iso_date, parse_date_four_digit_year, pretty_date, problem_for,
    query_string, record, today, value,
};
use super::{FormCategory, Gallery, GalleryForm, page};
use crate::ground_truth::FssSpec;
use crate::html::escape;

pub(super) const FORMS: &[GalleryForm] = &[
    GalleryForm {
        id: "flight",
        category: FormCategory::Travel,
        title: "Multi-city flights",
        path: "/forms/flight",
    },
    GalleryForm {
        id: "hotel",
        category: FormCategory::Travel,
        title: "Hotel search",
        path: "/forms/hotel",
    },
    GalleryForm {
        id: "car",
        category: FormCategory::Travel,
        title: "Car rental",
        path: "/forms/car",
    },
    GalleryForm {
        id: "train",
        category: FormCategory::Travel,
        title: "Train tickets",
        path: "/forms/train",
    },
];

pub(super) const STATES: &[FssSpec] = &[
    // flight: server-side, messages inline next to each field, values kept.
    fss(
        "flight.success",
        "flight",
        true,
        "Redirect to a list of flights for both legs. E.g. Flight 1 London to Paris in 10 days, \
         Flight 2 Paris to Rome in 14 days, 2 passengers (cities from the suggestions).",
    ),
    fss(
        "flight.from-missing",
        "flight",
        false,
        "\"Where are you flying from?\" next to a leg's From: it is empty or only spaces.",
    ),
    fss(
        "flight.to-missing",
        "flight",
        false,
        "\"Where would you like to go?\" next to a leg's To: it is empty or only spaces.",
    ),
    fss(
        "flight.unknown-city",
        "flight",
        false,
        "\"We couldn't find an airport for “X”. Pick a city from the suggestions.\" next to a \
         From or To that is not one of the suggested cities (case does not matter).",
    ),
    fss(
        "flight.same-city",
        "flight",
        false,
        "\"Departure and arrival cities are the same.\" next to a leg's To when it equals \
         that leg's From (either leg).",
    ),
    fss(
        "flight.same-origin",
        "flight",
        false,
        "\"You are already departing from X on Flight 1.\" next to Flight 2's From when it \
         equals Flight 1's From (consecutive trips cannot share the same origin).",
    ),
    fss(
        "flight.date-missing",
        "flight",
        false,
        "\"Please choose a departure date.\" next to a leg's date: empty or not a date.",
    ),
    fss(
        "flight.date-past",
        "flight",
        false,
        "\"This date is in the past. Choose today or a later day.\" next to a leg's date \
         before today.",
    ),
    fss(
        "flight.date-order",
        "flight",
        false,
        "\"Flight 2 can't leave before Flight 1.\" next to Flight 2's date when it is \
         before Flight 1's (same day is fine).",
    ),
    fss(
        "flight.passengers",
        "flight",
        false,
        "\"Choose between 1 and 9 passengers.\" next to Passengers: empty, not a whole \
         number, 0 or less, 10 or more.",
    ),
    // hotel: HTML5 native bubbles (recorded by an `invalid` listener) and page JS.
    fss(
        "hotel.success",
        "hotel",
        true,
        "A results page of hotels at the destination. E.g. Destination Lisbon, check-in in \
         10 days, check-out in 13 days, 1 room, 2 adults.",
    ),
    fss(
        "hotel.destination-missing",
        "hotel",
        false,
        "Native bubble (valueMissing) on Destination: empty or only spaces (spaces are \
         cleared as you type).",
    ),
    fss(
        "hotel.checkin-missing",
        "hotel",
        false,
        "Native bubble (valueMissing) on Check-in: empty.",
    ),
    fss(
        "hotel.checkin-past",
        "hotel",
        false,
        "Native bubble (rangeUnderflow, min is today) on Check-in: a date before today.",
    ),
    fss(
        "hotel.checkin-far",
        "hotel",
        false,
        "Native bubble (rangeOverflow, max is a year ahead) on Check-in: a date more than \
         365 days ahead (hint: bookable up to a year ahead).",
    ),
    fss(
        "hotel.checkout-missing",
        "hotel",
        false,
        "Native bubble (valueMissing) on Check-out: empty.",
    ),
    fss(
        "hotel.checkout-order",
        "hotel",
        false,
        "Page JS, inline under Check-out: \"Check-out must be after check-in.\" when \
         check-out is on or before check-in.",
    ),
    fss(
        "hotel.stay-too-long",
        "hotel",
        false,
        "Page JS, inline under Check-out: \"Stays are limited to 30 nights. For longer \
         stays, please contact us.\" when check-out is more than 30 nights after check-in.",
    ),
    fss(
        "hotel.adults-per-room",
        "hotel",
        false,
        "Page JS, inline under Adults: \"Each room needs at least one adult.\" when fewer \
         adults than rooms are chosen (e.g. 3 rooms, 1 adult).",
    ),
    // car: server-side, all errors in a banner list at the top, values kept.
    fss(
        "car.success",
        "car",
        true,
        "Redirect to a quote page. E.g. pick-up Dublin Airport, drop-off empty, pick-up in \
         5 days at 10:00, return in 9 days, driver age 35.",
    ),
    fss(
        "car.pickup-missing",
        "car",
        false,
        "Banner item \"Tell us where you'd like to pick up the car.\": pick-up location \
         empty or only spaces.",
    ),
    fss(
        "car.date-missing",
        "car",
        false,
        "Banner item \"Choose a pick-up date.\": pick-up date empty or not a date.",
    ),
    fss(
        "car.pickup-past",
        "car",
        false,
        "Banner item \"The pick-up date has already passed.\": pick-up date before today.",
    ),
    fss(
        "car.time-outside",
        "car",
        false,
        "Banner item \"Choose a pick-up time between 07:00 and 22:00.\": pick-up time empty \
         or outside desk hours (hint says 07:00–22:00; 07:00 and 22:00 are fine).",
    ),
    fss(
        "car.return-missing",
        "car",
        false,
        "Banner item \"When will you bring the car back? Enter a return date.\": return date \
         empty or not a date.",
    ),
    fss(
        "car.return-before",
        "car",
        false,
        "Banner item \"The return date can't be before the pick-up date.\" (same day is \
         fine).",
    ),
    fss(
        "car.too-long",
        "car",
        false,
        "Banner item \"Online bookings are limited to 30 days.\": return more than 30 days \
         after pick-up (hint: max. 30 days).",
    ),
    fss(
        "car.age-young",
        "car",
        false,
        "Banner item \"Drivers must be at least 21.\": driver age a whole number below 21.",
    ),
    fss(
        "car.age-invalid",
        "car",
        false,
        "Banner item \"Enter the main driver's age in years (21 to 99).\": driver age empty, \
         not a whole number, or above 99.",
    ),
    // train: page JS with inline messages next to fields, then fetch to a JSON endpoint.
    fss(
        "train.success",
        "train",
        true,
        "Inline \"Tickets reserved\" message with a booking reference, no navigation. E.g. \
         From London Euston, To Manchester Piccadilly, date in 7 days, railcard empty or \
         AB123456.",
    ),
    fss(
        "train.from-missing",
        "train",
        false,
        "Page JS, next to From: \"Select the station you're leaving from.\" when no From \
         station is chosen.",
    ),
    fss(
        "train.to-missing",
        "train",
        false,
        "Page JS, next to To: \"Where are you travelling to? Choose a station.\" when no To \
         station is chosen.",
    ),
    fss(
        "train.same-station",
        "train",
        false,
        "Page JS, next to To: \"From and To can't be the same station.\"",
    ),
    fss(
        "train.date-missing",
        "train",
        false,
        "Page JS, next to the date: \"Please choose a travel date.\" when it is empty.",
    ),
    fss(
        "train.date-past",
        "train",
        false,
        "Page JS, next to the date: \"That date has already gone. Pick today or later.\" \
         for a date before today.",
    ),
    fss(
        "train.date-far",
        "train",
        false,
        "Page JS, next to the date: \"We can only sell tickets up to 12 weeks ahead.\" for a \
         date more than 84 days ahead (the hint says so).",
    ),
    fss(
        "train.railcard-format",
        "train",
        false,
        "Page JS, next to Railcard: \"Railcard numbers are two letters and six digits, like \
         AB123456.\" when the optional railcard is filled in another shape.",
    ),
];

pub(super) fn routes() -> Router<Gallery> {
    Router::new()
        .route("/forms/flight", get(flight_form).post(flight_submit))
        .route("/forms/flight/results", get(flight_results))
        .route("/forms/hotel", get(hotel_form))
        .route("/forms/hotel/results", get(hotel_results))
        .route("/forms/car", get(car_form).post(car_submit))
        .route("/forms/car/quote", get(car_quote))
        .route("/forms/train", get(train_form))
        .route("/forms/train/reserve", post(train_reserve))
}

/// `<option>`s of `choices`, with `selected` chosen.
fn options(choices: &[&str], selected: &str) -> String {
    choices
        .iter()
        .map(|c| {
            let sel = if *c == selected { " selected" } else { "" };
            format!("<option{sel}>{}</option>", escape(c))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// flight

const CITIES: &[&str] = &[
    "Amsterdam",
    "Athens",
    "Barcelona",
    "Berlin",
    "Boston",
    "Chicago",
    "Dublin",
    "Lisbon",
    "London",
    "Los Angeles",
    "Madrid",
    "New York",
    "Paris",
    "Rome",
    "San Francisco",
    "Tokyo",
    "Toronto",
    "Vienna",
];

fn known_city(text: &str) -> Option<&'static str> {
    CITIES
        .iter()
        .find(|c| c.eq_ignore_ascii_case(text.trim()))
        .copied()
}

fn check_flight(fields: &[(String, String)], today: i64) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut origins = [None, None];
    let mut dates = [None, None];
    for leg in 0..2 {
        let [from_f, to_f, date_f] = if leg == 0 {
            ["from1", "to1", "date1"]
        } else {
            ["from2", "to2", "date2"]
        };
        let city = |problems: &mut Vec<Problem>, field, missing_state, missing: &str| {
            let text = value(fields, field);
            if text.is_empty() {
                problems.push(Problem::new(field, missing_state, missing));
                return None;
            }
            let found = known_city(text);
            if found.is_none() {
                problems.push(Problem::new(
                    field,
                    "flight.unknown-city",
                    format!(
                        "We couldn't find an airport for “{text}”. Pick a city from the suggestions."
                    ),
                ));
            }
            found
        };
        let from = city(
            &mut problems,
            from_f,
            "flight.from-missing",
            "Where are you flying from?",
        );
        let to = city(
            &mut problems,
            to_f,
            "flight.to-missing",
            "Where would you like to go?",
        );
        if from.is_some() && from == to {
            problems.push(Problem::new(
                to_f,
                "flight.same-city",
                "Departure and arrival cities are the same.",
            ));
        }
        origins[leg] = from;
        match parse_date_four_digit_year(value(fields, date_f)) {
            None => problems.push(Problem::new(
                date_f,
                "flight.date-missing",
                "Please choose a departure date.",
            )),
            Some(d) if d < today => problems.push(Problem::new(
                date_f,
                "flight.date-past",
                "This date is in the past. Choose today or a later day.",
            )),
            Some(d) => dates[leg] = Some(d),
        }
    }
    if let [Some(first), Some(second)] = origins
        && first == second
    {
        problems.push(Problem::new(
            "from2",
            "flight.same-origin",
            format!("You are already departing from {first} on Flight 1."),
        ));
    }
    if let [Some(first), Some(second)] = dates
        && second < first
    {
        problems.push(Problem::new(
            "date2",
            "flight.date-order",
            "Flight 2 can't leave before Flight 1.",
        ));
    }
    if !value(fields, "passengers")
        .parse::<u32>()
        .is_ok_and(|n| (1..=9).contains(&n))
    {
        problems.push(Problem::new(
            "passengers",
            "flight.passengers",
            "Choose between 1 and 9 passengers.",
        ));
    }
    problems
}

fn flight_page(fields: &[(String, String)], problems: &[Problem]) -> Html<String> {
    let today = iso_date(today());
    let input = |name: &'static str, label: &str, kind: &str, extra: &str| {
        let v = value(fields, name);
        let v = if v.is_empty() && name == "passengers" && problems.is_empty() {
            "1"
        } else {
            v
        };
        let err = problem_for(problems, name)
            .map(|p| {
                format!(
                    r#" <span class="error" id="{name}-error">{}</span>"#,
                    escape(&p.message)
                )
            })
            .unwrap_or_default();
        format!(
            r#"<div class="row"><label for="{name}">{label}</label> <input id="{name}" name="{name}" type="{kind}" value="{v}"{extra}>{err}</div>"#,
            v = escape(v)
        )
    };
    let city_attrs = r#" list="cities" autocomplete="off" placeholder="City, e.g. Lisbon""#;
    let date_attrs = format!(r#" min="{today}""#);
    let cities: String = CITIES
        .iter()
        .map(|c| format!(r#"<option value="{c}">"#))
        .collect();
    let summary = if problems.is_empty() {
        String::new()
    } else {
        r#"<p class="error">Please check the highlighted fields.</p>"#.to_owned()
    };
    let body = format!(
        r#"<p>Book up to two flights in one trip. Start typing a city and pick it from the suggestions.</p>
{summary}
<form method="post" action="/forms/flight" novalidate>
<datalist id="cities">{cities}</datalist>
<fieldset><legend>Flight 1</legend>
{f1}{t1}{d1}
</fieldset>
<fieldset><legend>Flight 2</legend>
{f2}{t2}{d2}
</fieldset>
{pax}
<p><button type="submit">Search flights</button></p>
</form>"#,
        f1 = input("from1", "From", "text", city_attrs),
        t1 = input("to1", "To", "text", city_attrs),
        d1 = input("date1", "Departure date", "date", &date_attrs),
        f2 = input("from2", "From", "text", city_attrs),
        t2 = input("to2", "To", "text", city_attrs),
        d2 = input("date2", "Departure date", "date", &date_attrs),
        pax = input(
            "passengers",
            "Passengers",
            "number",
            r#" min="1" max="9" step="1""#
        ),
    );
    page("Multi-city flights", &body)
}

async fn flight_form() -> Html<String> {
    flight_page(&[], &[])
}

async fn flight_submit(State(state): State<Gallery>, Form(fields): Form<Fields>) -> Response {
    let problems = check_flight(&fields, today());
    if !problems.is_empty() {
        record(&state, &problems);
        return flight_page(&fields, &problems).into_response();
    }
    state.hit("flight.success");
    let pairs: Vec<(&str, &str)> = [
        "from1",
        "to1",
        "date1",
        "from2",
        "to2",
        "date2",
        "passengers",
    ]
    .into_iter()
    .map(|n| {
        let v = value(&fields, n);
        // Cities as the airline spells them, whatever case was typed.
        (n, known_city(v).unwrap_or(v))
    })
    .collect();
    Redirect::to(&format!("/forms/flight/results?{}", query_string(&pairs))).into_response()
}

/// A made-up but stable schedule: three flights a day for a route.
fn schedule(from: &str, to: &str) -> Vec<(String, String, u32)> {
    let seed = from
        .bytes()
        .chain(to.bytes())
        .fold(7u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)));
    (0..3u32)
        .map(|i| {
            let dep = 6 * 60 + (seed % 90) + i * 250;
            let dur = 80 + (seed % 300);
            let arr = (dep + dur) % (24 * 60);
            let price = 59 + (seed / 7 + i * 37) % 280;
            (
                format!("{:02}:{:02}", dep / 60, dep % 60),
                format!("{:02}:{:02}", arr / 60, arr % 60),
                price,
            )
        })
        .collect()
}

async fn flight_results(Query(q): Query<Fields>) -> Html<String> {
    let mut body = String::from(r#"<p class="ok">We found these flights for your trip.</p>"#);
    for (n, (from, to, date)) in [("from1", "to1", "date1"), ("from2", "to2", "date2")]
        .into_iter()
        .enumerate()
    {
        let (from, to) = (value(&q, from), value(&q, to));
        let date = parse_date_four_digit_year(value(&q, date))
            .map(pretty_date)
            .unwrap_or_default();
        body.push_str(&format!(
            "<h2>Flight {}: {} → {}, {}</h2><ul>",
            n + 1,
            escape(from),
            escape(to),
            escape(&date)
        ));
        for (dep, arr, price) in schedule(from, to) {
            body.push_str(&format!(
                "<li>{dep} – {arr} · from €{price} per person <button type=\"button\">Select</button></li>"
            ));
        }
        body.push_str("</ul>");
    }
    body.push_str(&format!(
        r#"<p>Passengers: {}</p><p><a href="/forms/flight">Change search</a></p>"#,
        escape(value(&q, "passengers"))
    ));
    page("Your flights", &body)
}

// ---------------------------------------------------------------------------------------
// hotel

/// How far ahead check-in may be.
const HOTEL_MAX_AHEAD: i64 = 365;

async fn hotel_form() -> Html<String> {
    let today = today();
    let body = format!(
        r#"<p>Find a place to stay. Bookable up to a year ahead, stays of up to 30 nights.</p>
<form id="hotel-search" method="get" action="/forms/hotel/results">
<div class="row"><label>Destination <input name="destination" type="text" required autocomplete="off" placeholder="City, region or hotel name"></label></div>
<div class="row"><label>Check-in <input name="checkin" type="date" required min="{min}" max="{max}"></label></div>
<div class="row"><label>Check-out <input name="checkout" type="date" required></label>
<span class="error" id="checkout-msg" hidden></span></div>
<div class="row"><label>Rooms <select name="rooms">{rooms}</select></label></div>
<div class="row"><label>Adults <select name="adults">{adults}</select></label>
<small>At least one adult per room.</small>
<span class="error" id="adults-msg" hidden></span></div>
<p><button type="submit">Search hotels</button></p>
</form>
{HOTEL_SCRIPT}"#,
        min = iso_date(today),
        max = iso_date(today + HOTEL_MAX_AHEAD),
        rooms = options(&["1", "2", "3", "4"], "1"),
        adults = options(&["1", "2", "3", "4", "5", "6", "7", "8"], "2"),
    );
    page("Hotel search", &body)
}

/// Records the first native bubble of each submit attempt, clears spaces-only
/// destinations, and checks the dates and the room occupancy before the search.
const HOTEL_SCRIPT: &str = r#"<script>
(function () {
  var form = document.getElementById('hotel-search');
  var NATIVE = {
    'destination valueMissing': 'hotel.destination-missing',
    'checkin valueMissing': 'hotel.checkin-missing',
    'checkin rangeUnderflow': 'hotel.checkin-past',
    'checkin rangeOverflow': 'hotel.checkin-far',
    'checkout valueMissing': 'hotel.checkout-missing'
  };
  // The order in which Chromium picks the message it shows.
  var FLAGS = ['badInput', 'valueMissing', 'typeMismatch', 'patternMismatch', 'tooLong',
    'tooShort', 'rangeUnderflow', 'rangeOverflow', 'stepMismatch'];
  var reported = false;
  form.addEventListener('invalid', function (e) {
    if (reported) return;
    reported = true;
    setTimeout(function () { reported = false; }, 0);
    var el = e.target;
    for (var i = 0; i < FLAGS.length; i++) {
      if (el.validity[FLAGS[i]]) {
        var id = NATIVE[el.name + ' ' + FLAGS[i]];
        if (id) curioTruth(id);
        return;
      }
    }
  }, true);
  var dest = form.elements.destination;
  dest.addEventListener('input', function () {
    if (dest.value.trim() === '') dest.value = '';
  });
  function show(name, text) {
    var el = document.getElementById(name + '-msg');
    el.textContent = text;
    el.hidden = false;
  }
  form.addEventListener('submit', function (e) {
    ['checkout', 'adults'].forEach(function (name) {
      var el = document.getElementById(name + '-msg');
      el.hidden = true;
      el.textContent = '';
    });
    var ok = true;
    var checkin = form.elements.checkin.value;
    var checkout = form.elements.checkout.value;
    var nights = (Date.parse(checkout) - Date.parse(checkin)) / 86400000;
    if (checkout <= checkin) {
      curioTruth('hotel.checkout-order');
      show('checkout', 'Check-out must be after check-in.');
      ok = false;
    } else if (nights > 30) {
      curioTruth('hotel.stay-too-long');
      show('checkout', 'Stays are limited to 30 nights. For longer stays, please contact us.');
      ok = false;
    }
    if (Number(form.elements.adults.value) < Number(form.elements.rooms.value)) {
      curioTruth('hotel.adults-per-room');
      show('adults', 'Each room needs at least one adult.');
      ok = false;
    }
    if (!ok) e.preventDefault();
  });
})();
</script>"#;

/// Whether a search is one the form lets through; `None` if not.
fn hotel_search(q: &[(String, String)], today: i64) -> Option<(String, i64, i64, u32, u32)> {
    let destination = value(q, "destination");
    let checkin = parse_date_four_digit_year(value(q, "checkin"))?;
    let checkout = parse_date_four_digit_year(value(q, "checkout"))?;
    let rooms: u32 = value(q, "rooms").parse().ok()?;
    let adults: u32 = value(q, "adults").parse().ok()?;
    let ok = !destination.is_empty()
        && (today..=today + HOTEL_MAX_AHEAD).contains(&checkin)
        && (1..=30).contains(&(checkout - checkin))
        && (1..=4).contains(&rooms)
        && (1..=8).contains(&adults)
        && adults >= rooms;
    ok.then(|| (destination.to_owned(), checkin, checkout, rooms, adults))
}

async fn hotel_results(State(state): State<Gallery>, Query(q): Query<Fields>) -> Response {
    // Only the form's own checks stand before this page; a hand-made URL that would not
    // get through them is sent back to the form.
    let Some((destination, checkin, checkout, rooms, adults)) = hotel_search(&q, today()) else {
        return Redirect::to("/forms/hotel").into_response();
    };
    state.hit("hotel.success");
    let nights = checkout - checkin;
    let dest = escape(&destination);
    let hotels = [
        ("Grand Hotel", 4, 189),
        ("Riverside Inn", 3, 112),
        ("City Hostel & Suites", 2, 64),
    ];
    let mut body = format!(
        r#"<p class="ok">3 properties in {dest} · {} to {} · {nights} night(s) · {rooms} room(s), {adults} adult(s)</p><ul>"#,
        pretty_date(checkin),
        pretty_date(checkout),
    );
    for (name, stars, price) in hotels {
        body.push_str(&format!(
            "<li><strong>{name} {dest}</strong> · {stars}★ · €{price} per night · €{} total</li>",
            i64::from(price) * nights * i64::from(rooms)
        ));
    }
    body.push_str(r#"</ul><p><a href="/forms/hotel">New search</a></p>"#);
    page("Hotels", &body).into_response()
}

// ---------------------------------------------------------------------------------------
// car

fn minutes(text: &str) -> Option<u32> {
    let mut parts = text.split(':');
    let h: u32 = parts.next()?.parse().ok()?;
    let m: u32 = parts.next()?.parse().ok()?;
    (h < 24 && m < 60).then_some(h * 60 + m)
}

fn check_car(fields: &[(String, String)], today: i64) -> Vec<Problem> {
    let mut problems = Vec::new();
    if value(fields, "f_37").is_empty() {
        problems.push(Problem::new(
            "f_37",
            "car.pickup-missing",
            "Tell us where you'd like to pick up the car.",
        ));
    }
    let pickup = match parse_date_four_digit_year(value(fields, "pickup_date")) {
        None => {
            problems.push(Problem::new(
                "pickup_date",
                "car.date-missing",
                "Choose a pick-up date.",
            ));
            None
        }
        Some(d) if d < today => {
            problems.push(Problem::new(
                "pickup_date",
                "car.pickup-past",
                "The pick-up date has already passed.",
            ));
            None
        }
        Some(d) => Some(d),
    };
    if !minutes(value(fields, "pickup_time")).is_some_and(|t| (7 * 60..=22 * 60).contains(&t)) {
        problems.push(Problem::new(
            "pickup_time",
            "car.time-outside",
            "Choose a pick-up time between 07:00 and 22:00.",
        ));
    }
    match (
        pickup,
        parse_date_four_digit_year(value(fields, "return_date")),
    ) {
        (_, None) => problems.push(Problem::new(
            "return_date",
            "car.return-missing",
            "When will you bring the car back? Enter a return date.",
        )),
        (Some(p), Some(r)) if r < p => problems.push(Problem::new(
            "return_date",
            "car.return-before",
            "The return date can't be before the pick-up date.",
        )),
        (Some(p), Some(r)) if r - p > 30 => problems.push(Problem::new(
            "return_date",
            "car.too-long",
            "Online bookings are limited to 30 days.",
        )),
        _ => {}
    }
    match value(fields, "driver_age").parse::<i64>() {
        Ok(age) if age < 21 => problems.push(Problem::new(
            "driver_age",
            "car.age-young",
            "Drivers must be at least 21.",
        )),
        Ok(age) if age <= 99 => {}
        _ => problems.push(Problem::new(
            "driver_age",
            "car.age-invalid",
            "Enter the main driver's age in years (21 to 99).",
        )),
    }
    problems
}

fn car_page(fields: &[(String, String)], problems: &[Problem]) -> Html<String> {
    let v = |name: &str| escape(value(fields, name));
    let banner = if problems.is_empty() {
        String::new()
    } else {
        let items: String = problems
            .iter()
            .map(|p| format!("<li>{}</li>", escape(&p.message)))
            .collect();
        format!(
            r#"<div class="banner" role="alert"><p>We couldn't get you a quote yet:</p><ul>{items}</ul></div>"#
        )
    };
    let time = if fields.is_empty() {
        "10:00".to_owned()
    } else {
        v("pickup_time")
    };
    let body = format!(
        r#"<p>Compare rental cars from all major brands. No credit card fees.</p>
{banner}
<form method="post" action="/forms/car" novalidate>
<table>
<tr><td>Pick-up location</td><td><input name="f_37" type="text" autocomplete="off" placeholder="Airport, city or station" value="{pickup}"></td></tr>
<tr><td>Drop-off location</td><td><input name="f_38" type="text" autocomplete="off" placeholder="Same as pick-up" value="{dropoff}"><br><small>Leave empty to return the car where you picked it up.</small></td></tr>
<tr><td>Pick-up date &amp; time</td><td><input name="pickup_date" type="date" value="{pdate}"> <input name="pickup_time" type="time" aria-label="Pick-up time" value="{time}"><br><small>Desks are open 07:00–22:00.</small></td></tr>
<tr><td>Return date</td><td><input name="return_date" type="date" value="{rdate}"><br><small>Max. 30 days.</small></td></tr>
<tr><td>Driver's age</td><td><input name="driver_age" type="number" min="21" max="99" inputmode="numeric" value="{age}"></td></tr>
</table>
<p><button type="submit">Get a quote</button></p>
</form>"#,
        pickup = v("f_37"),
        dropoff = v("f_38"),
        pdate = v("pickup_date"),
        rdate = v("return_date"),
        age = v("driver_age"),
    );
    page("Car rental", &body)
}

async fn car_form() -> Html<String> {
    car_page(&[], &[])
}

async fn car_submit(State(state): State<Gallery>, Form(fields): Form<Fields>) -> Response {
    let problems = check_car(&fields, today());
    if !problems.is_empty() {
        record(&state, &problems);
        return car_page(&fields, &problems).into_response();
    }
    state.hit("car.success");
    let pickup = value(&fields, "f_37");
    let dropoff = match value(&fields, "f_38") {
        "" => pickup,
        d => d,
    };
    let pairs = [
        ("pickup", pickup),
        ("dropoff", dropoff),
        ("from", value(&fields, "pickup_date")),
        ("at", value(&fields, "pickup_time")),
        ("until", value(&fields, "return_date")),
    ];
    Redirect::to(&format!("/forms/car/quote?{}", query_string(&pairs))).into_response()
}

async fn car_quote(Query(q): Query<Fields>) -> Html<String> {
    let from = parse_date_four_digit_year(value(&q, "from"));
    let until = parse_date_four_digit_year(value(&q, "until"));
    let days = match (from, until) {
        (Some(a), Some(b)) => (b - a).max(1),
        _ => 1,
    };
    let cars = [
        ("Compact (VW Polo or similar)", 34),
        ("SUV (Nissan Qashqai or similar)", 58),
    ];
    let items: String = cars
        .iter()
        .map(|(name, per_day)| {
            format!(
                "<li>{name}: €{per_day}/day, €{} for {days} day(s) <button type=\"button\">Reserve</button></li>",
                per_day * days
            )
        })
        .collect();
    let body = format!(
        r#"<p class="ok">Your quote is ready: pick-up at {} on {} at {}, return to {} on {}.</p><ul>{items}</ul><p><a href="/forms/car">Change details</a></p>"#,
        escape(value(&q, "pickup")),
        escape(&from.map(pretty_date).unwrap_or_default()),
        escape(value(&q, "at")),
        escape(value(&q, "dropoff")),
        escape(&until.map(pretty_date).unwrap_or_default()),
    );
    page("Your car rental quote", &body)
}

// ---------------------------------------------------------------------------------------
// train

const STATIONS: &[&str] = &[
    "Birmingham New Street",
    "Bristol Temple Meads",
    "Edinburgh Waverley",
    "Glasgow Central",
    "Leeds",
    "London Euston",
    "London King's Cross",
    "Manchester Piccadilly",
    "York",
];

/// Tickets go on sale this many days ahead.
const TRAIN_MAX_AHEAD: i64 = 84;

fn check_train(fields: &[(String, String)], today: i64) -> Vec<Problem> {
    let mut problems = Vec::new();
    let station = |name| {
        let v = value(fields, name);
        STATIONS.iter().find(|s| **s == v).copied()
    };
    let from = station("from");
    let to = station("to");
    if from.is_none() {
        problems.push(Problem::new(
            "from",
            "train.from-missing",
            "Select the station you're leaving from.",
        ));
    }
    if to.is_none() {
        problems.push(Problem::new(
            "to",
            "train.to-missing",
            "Where are you travelling to? Choose a station.",
        ));
    } else if from == to {
        problems.push(Problem::new(
            "to",
            "train.same-station",
            "From and To can't be the same station.",
        ));
    }
    match parse_date_four_digit_year(value(fields, "date")) {
        None => problems.push(Problem::new(
            "date",
            "train.date-missing",
            "Please choose a travel date.",
        )),
        Some(d) if d < today => problems.push(Problem::new(
            "date",
            "train.date-past",
            "That date has already gone. Pick today or later.",
        )),
        Some(d) if d > today + TRAIN_MAX_AHEAD => problems.push(Problem::new(
            "date",
            "train.date-far",
            "We can only sell tickets up to 12 weeks ahead.",
        )),
        Some(_) => {}
    }
    if !railcard_ok(value(fields, "railcard")) {
        problems.push(Problem::new(
            "railcard",
            "train.railcard-format",
            "Railcard numbers are two letters and six digits, like AB123456.",
        ));
    }
    problems
}

/// Empty, or two letters and six digits.
fn railcard_ok(text: &str) -> bool {
    let b = text.as_bytes();
    b.is_empty()
        || (b.len() == 8
            && b[..2].iter().all(u8::is_ascii_alphabetic)
            && b[2..].iter().all(u8::is_ascii_digit))
}

async fn train_form() -> Html<String> {
    let today = today();
    let stations: String = STATIONS
        .iter()
        .map(|s| format!(r#"<option value="{s}">{s}</option>"#, s = escape(s)))
        .collect();
    let body = format!(
        r#"<p>Book advance tickets for trains across Britain. Tickets go on sale up to 12 weeks before travel.</p>
<form id="train-form" method="post" action="/forms/train/reserve" novalidate data-today="{min}" data-last="{max}">
<div class="row"><label for="from">From</label> <select id="from" name="from"><option value="">Choose a station</option>{stations}</select> <span class="error" id="from-msg"></span></div>
<div class="row"><label for="to">To</label> <select id="to" name="to"><option value="">Choose a station</option>{stations}</select> <span class="error" id="to-msg"></span></div>
<div class="row"><label>Date of travel <input name="date" type="date" min="{min}" max="{max}"></label> <span class="error" id="date-msg"></span></div>
<div class="row"><label for="when">Leaving</label> <select id="when" name="when"><option>Any time</option><option>Morning</option><option>Afternoon</option><option>Evening</option></select></div>
<div class="row"><label for="railcard">Railcard number</label> <input id="railcard" name="railcard" type="text" autocomplete="off" maxlength="12" placeholder="Optional"> <small>e.g. AB123456</small> <span class="error" id="railcard-msg"></span></div>
<p><button type="submit">Reserve tickets</button></p>
</form>
<div id="train-result" role="status"></div>
{TRAIN_SCRIPT}"#,
        min = iso_date(today),
        max = iso_date(today + TRAIN_MAX_AHEAD),
    );
    page("Train tickets", &body)
}

/// Checks the form in the page, shows messages next to the fields, then reserves with
/// a `fetch`; the server checks again and its messages go to the same places.
const TRAIN_SCRIPT: &str = r#"<script>
(function () {
  var form = document.getElementById('train-form');
  var result = document.getElementById('train-result');
  function clear() {
    ['from', 'to', 'date', 'railcard'].forEach(function (n) {
      document.getElementById(n + '-msg').textContent = '';
    });
    result.textContent = '';
  }
  function show(field, text) {
    document.getElementById(field + '-msg').textContent = text;
  }
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    clear();
    var from = form.elements.from.value;
    var to = form.elements.to.value;
    var date = form.elements.date.value;
    var railcard = form.elements.railcard.value.trim();
    var ok = true;
    function fail(state, field, text) {
      curioTruth(state);
      show(field, text);
      ok = false;
    }
    if (!from) fail('train.from-missing', 'from', "Select the station you're leaving from.");
    if (!to) fail('train.to-missing', 'to', 'Where are you travelling to? Choose a station.');
    else if (from === to) fail('train.same-station', 'to', "From and To can't be the same station.");
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) fail('train.date-missing', 'date', 'Please choose a travel date.');
    else if (date < form.dataset.today) fail('train.date-past', 'date', 'That date has already gone. Pick today or later.');
    else if (date > form.dataset.last) fail('train.date-far', 'date', 'We can only sell tickets up to 12 weeks ahead.');
    if (railcard && !/^[A-Za-z]{2}[0-9]{6}$/.test(railcard)) {
      fail('train.railcard-format', 'railcard', 'Railcard numbers are two letters and six digits, like AB123456.');
    }
    if (!ok) return;
    fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)) })
      .then(function (r) { return r.json(); })
      .then(function (answer) {
        if (answer.ok) {
          result.innerHTML = '';
          var p = document.createElement('p');
          p.className = 'ok';
          p.textContent = answer.message;
          result.appendChild(p);
        } else {
          answer.errors.forEach(function (err) { show(err.field, err.message); });
        }
      })
      .catch(function () { result.textContent = 'Something went wrong. Please try again.'; });
  });
})();
</script>"#;

async fn train_reserve(
    State(state): State<Gallery>,
    Form(fields): Form<Fields>,
) -> Json<serde_json::Value> {
    let problems = check_train(&fields, today());
    if !problems.is_empty() {
        record(&state, &problems);
        let errors: Vec<serde_json::Value> = problems
            .iter()
            .map(|p| serde_json::json!({"field": p.field, "message": p.message}))
            .collect();
        return Json(serde_json::json!({"ok": false, "errors": errors}));
    }
    state.hit("train.success");
    let date = parse_date_four_digit_year(value(&fields, "date")).unwrap_or_default();
    let reference = format!("TR{:06}", (date * 7919 + 12_345) % 1_000_000);
    Json(serde_json::json!({
        "ok": true,
        "reference": reference,
        "message": format!(
            "Tickets reserved: {} to {} on {}. Your booking reference is {reference}.",
            value(&fields, "from"),
            value(&fields, "to"),
            pretty_date(date),
        ),
    }))
}

#[cfg(test)]
mod tests {
    use super::super::common::http::{get, hits, in_days, post};
    use super::*;
    use crate::{Subject, serve};

    #[test]
    fn every_state_of_this_file_is_well_formed() {
        for s in STATES {
            assert!(FORMS.iter().any(|f| f.id == s.form), "{}", s.id);
            assert!(s.id.starts_with(&format!("{}.", s.form)), "{}", s.id);
        }
        for f in FORMS {
            let n = STATES.iter().filter(|s| s.form == f.id).count();
            assert!((3..=10).contains(&n), "{}: {n} states", f.id);
        }
    }

    #[tokio::test]
    async fn travel_pages_render() {
        let app = serve(Subject::Gallery).await.unwrap();
        for (path, needle) in [
            ("/forms/flight", "<legend>Flight 2</legend>"),
            ("/forms/hotel", "curioTruth('hotel.checkout-order')"),
            ("/forms/car", r#"name="f_37""#),
            ("/forms/train", "e.g. AB123456"),
        ] {
            let reply = get(&app, path).await;
            assert_eq!(reply.status, 200, "{path}");
            assert!(reply.body.contains(needle), "{path} lacks {needle}");
        }
        assert!(hits(&app).is_empty());
        app.shutdown().await;
    }

    fn flight_body(date1: &str, date2: &str, from2: &str, pax: &str) -> String {
        format!(
            "from1=London&to1=Paris&date1={date1}&from2={from2}&to2=Rome&date2={date2}&passengers={pax}"
        )
    }

    #[tokio::test]
    async fn flight_success_and_failures() {
        let app = serve(Subject::Gallery).await.unwrap();
        let ok = post(
            &app,
            "/forms/flight",
            &flight_body(&in_days(10), &in_days(14), "paris", "2"),
        )
        .await;
        assert_eq!(ok.status, 303);
        let location = ok.location().unwrap().to_owned();
        assert!(location.starts_with("/forms/flight/results?"), "{location}");
        let results = get(&app, &location).await;
        assert_eq!(results.status, 200);
        assert!(results.body.contains("Flight 2: Paris → Rome"));
        assert_eq!(hits(&app), ["flight.success".to_owned()].into());

        let app = serve(Subject::Gallery).await.unwrap();
        let same = post(
            &app,
            "/forms/flight",
            &flight_body(&in_days(10), &in_days(14), "London", "2"),
        )
        .await;
        assert_eq!(same.status, 200);
        assert!(
            same.body
                .contains("You are already departing from London on Flight 1.")
        );
        assert!(same.body.contains(r#"value="London""#));
        assert_eq!(hits(&app), ["flight.same-origin".to_owned()].into());

        let order = post(
            &app,
            "/forms/flight",
            &flight_body(&in_days(10), &in_days(9), "Paris", "10"),
        )
        .await;
        assert!(
            order
                .body
                .contains("Flight 2 can&#39;t leave before Flight 1.")
        );
        let all = hits(&app);
        assert!(all.contains("flight.date-order") && all.contains("flight.passengers"));
        let bad = post(
            &app,
            "/forms/flight",
            "from1=+&to1=Atlantis&date1=&from2=Rome&to2=rome&date2=2001-01-01&passengers=1",
        )
        .await;
        assert_eq!(bad.status, 200);
        let all = hits(&app);
        for s in [
            "flight.from-missing",
            "flight.unknown-city",
            "flight.date-missing",
            "flight.same-city",
            "flight.date-past",
        ] {
            assert!(all.contains(s), "{s} in {all:?}");
        }
        assert!(!all.contains("flight.success"));
        app.shutdown().await;
    }

    #[tokio::test]
    async fn hotel_results_only_for_valid_searches() {
        let app = serve(Subject::Gallery).await.unwrap();
        let bad = get(
            &app,
            &format!(
                "/forms/hotel/results?destination=Lisbon&checkin={}&checkout={}&rooms=1&adults=2",
                in_days(10),
                in_days(10)
            ),
        )
        .await;
        assert_eq!(bad.status, 303);
        assert!(hits(&app).is_empty());
        let ok = get(
            &app,
            &format!(
                "/forms/hotel/results?destination=Lisbon&checkin={}&checkout={}&rooms=1&adults=2",
                in_days(10),
                in_days(13)
            ),
        )
        .await;
        assert_eq!(ok.status, 200);
        assert!(ok.body.contains("3 night(s)"));
        assert_eq!(hits(&app), ["hotel.success".to_owned()].into());
        app.shutdown().await;
    }

    #[tokio::test]
    async fn car_success_and_failures() {
        let app = serve(Subject::Gallery).await.unwrap();
        let body = |age: &str, ret: &str| {
            format!(
                "f_37=Dublin+Airport&f_38=&pickup_date={}&pickup_time=10%3A00&return_date={ret}&driver_age={age}",
                in_days(5)
            )
        };
        let ok = post(&app, "/forms/car", &body("35", &in_days(9))).await;
        assert_eq!(ok.status, 303);
        let quote = get(&app, ok.location().unwrap()).await;
        assert!(quote.body.contains("return to Dublin Airport"));
        assert!(quote.body.contains("for 4 day(s)"));
        assert_eq!(hits(&app), ["car.success".to_owned()].into());

        let app = serve(Subject::Gallery).await.unwrap();
        let young = post(&app, "/forms/car", &body("19", &in_days(9))).await;
        assert_eq!(young.status, 200);
        assert!(young.body.contains(r#"role="alert""#));
        assert!(young.body.contains("Drivers must be at least 21."));
        assert!(young.body.contains(r#"value="Dublin Airport""#));
        assert_eq!(hits(&app), ["car.age-young".to_owned()].into());
        post(&app, "/forms/car", &body("x", &in_days(4))).await;
        post(&app, "/forms/car", &body("30", &in_days(60))).await;
        post(&app, "/forms/car", "f_37=&pickup_time=23%3A00&return_date=").await;
        let all = hits(&app);
        for s in [
            "car.age-invalid",
            "car.return-before",
            "car.too-long",
            "car.pickup-missing",
            "car.date-missing",
            "car.time-outside",
            "car.return-missing",
        ] {
            assert!(all.contains(s), "{s} in {all:?}");
        }
        assert!(!all.contains("car.success"));
        app.shutdown().await;
    }

    #[tokio::test]
    async fn train_reserves_by_json() {
        let app = serve(Subject::Gallery).await.unwrap();
        let ok = post(&app, "/forms/train/reserve", &format!("from=London+Euston&to=Manchester+Piccadilly&date={}&when=Any+time&railcard=ab123456", in_days(7))).await;
        assert_eq!(ok.status, 200);
        let json: serde_json::Value = serde_json::from_str(&ok.body).unwrap();
        assert_eq!(json["ok"], true);
        assert!(
            json["message"]
                .as_str()
                .unwrap()
                .starts_with("Tickets reserved")
        );
        assert_eq!(hits(&app), ["train.success".to_owned()].into());

        let app = serve(Subject::Gallery).await.unwrap();
        let same = post(
            &app,
            "/forms/train/reserve",
            &format!("from=York&to=York&date={}&railcard=1234", in_days(200)),
        )
        .await;
        let json: serde_json::Value = serde_json::from_str(&same.body).unwrap();
        assert_eq!(json["ok"], false);
        assert_eq!(json["errors"].as_array().map(Vec::len), Some(3));
        assert_eq!(
            hits(&app),
            [
                "train.date-far",
                "train.railcard-format",
                "train.same-station"
            ]
            .map(String::from)
            .into()
        );
        app.shutdown().await;
    }
}
