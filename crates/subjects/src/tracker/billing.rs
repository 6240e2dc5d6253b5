//! Billing: the overview (plan, seats, usage, subscription), changing the plan (form,
//! review, confirm), invoices and the payment method.

use axum::body::Bytes;
use axum::extract::{Path, RawQuery, State};
use axum::response::{Html, IntoResponse, Redirect, Response};

use super::layout::{self, Nav, Problems, billing_nav, flash, page};
use super::model::{self, Billing, Cycle, MAX_SEATS, Plan, Tracker};
use super::scripts::with_fault;
use super::{
    FormData, T02_BROKEN_INVOICE_PDF, T05_500_NEGATIVE_SEATS, T09_CONSOLE_TIMER_BILLING,
    T14_500_BUSINESS_YEARLY, TrackerState,
};
use crate::html::escape;

const PROMO_CODES: [(&str, u64); 2] = [("LAUNCH20", 20), ("NONPROFIT", 50)];

/// The usage meter counts logged time only; a timer running in this tab has no rate
/// card, and the script logs a console error for it (the seeded fault).
pub(super) const OVERVIEW_SCRIPT: &str = r#"<script>
(function () {
  var note = document.getElementById('usage-note');
  var timer = trackerTimer.read();
  if (!timer) {
    note.textContent = 'No timer running in this tab.';
    return;
  }
  curioTruth('%FAULT%');
  console.error('billing usage: no rate card for live time, cannot meter the timer running on ' + timer.key);
  note.textContent = 'A timer is running on ' + timer.key + '; its time is billed once you stop it.';
})();
</script>"#;

fn overview_page(
    data: &Tracker,
    seats_value: &str,
    seats_problem: Option<&str>,
    toast: Option<&str>,
) -> Html<String> {
    let b = &data.billing;
    let today = model::today();
    let month_start = {
        let (y, m, _) = model::civil(today);
        model::from_civil(y, m, 1)
    };
    let month_minutes: u32 = data
        .tasks
        .iter()
        .flat_map(|t| &t.entries)
        .filter(|e| e.day >= month_start)
        .map(|e| e.minutes)
        .sum();
    let subscription = if b.cancelled {
        r#"<p class="notice">Your subscription is cancelled and ends with the current period.</p>
<form method="post" action="/billing/resume"><button type="submit" class="primary">Keep my subscription</button></form>"#
    } else {
        r#"<p>Your subscription renews automatically.</p>
<form method="post" action="/billing/cancel"><button type="submit" class="danger">Cancel subscription</button></form>"#
    };
    let seats_problem = seats_problem
        .map(|p| {
            format!(
                r#"<span class="field-error" role="alert">{}</span>"#,
                escape(p)
            )
        })
        .unwrap_or_default();
    let content = format!(
        r#"<h1>Billing</h1>
{nav}
<div class="grid">
<section class="card">
<h2>Plan</h2>
<p class="stat">{plan}</p>
<p>{cycle} · {seats} seats · {price} per period</p>
<p class="muted">{blurb}</p>
<p><a class="button" href="/billing/plans">Change plan</a></p>
</section>
<section class="card">
<h2>Seats</h2>
<p>{members} members use {seats} seats.</p>
<form method="post" action="/billing/seats">
<label for="seats">Seats</label>
<input id="seats" name="seats" type="text" inputmode="numeric" value="{seats_value}">{seats_problem}
<p><button type="submit">Update seats</button></p>
</form>
</section>
<section class="card">
<h2>Usage this month</h2>
<p class="stat">{usage}</p>
<p id="usage-note" class="muted"></p>
</section>
<section class="card">
<h2>Payment method</h2>
<p>{brand} ending in {last4}, expires {exp_month:02}/{exp_year}</p>
<p><a href="/billing/payment">Update payment method</a> · <a href="/billing/invoices">View invoices</a></p>
</section>
</div>
<section class="danger-zone">
<h2>Subscription</h2>
{subscription}
</section>"#,
        nav = billing_nav("/billing"),
        plan = b.plan.label(),
        cycle = b.cycle.label(),
        seats = b.seats,
        price = model::money(b.period_cents()),
        blurb = b.plan.blurb(),
        members = data.members.len(),
        seats_value = escape(seats_value),
        usage = model::hours(month_minutes),
        brand = b.card.brand,
        last4 = escape(&b.card.last4),
        exp_month = b.card.exp_month,
        exp_year = b.card.exp_year,
    );
    let script = with_fault(OVERVIEW_SCRIPT, T09_CONSOLE_TIMER_BILLING);
    page("Billing", Nav::Billing, &content, &script, toast)
}

pub(crate) async fn overview(
    State(state): State<TrackerState>,
    RawQuery(query): RawQuery,
) -> Html<String> {
    let query = FormData::from_query(query.as_deref());
    let data = state.data();
    let seats = data.billing.seats.to_string();
    overview_page(&data, &seats, None, flash(&query))
}

/// Seat changes. A negative count reaches the proration code, which underflows (the
/// seeded fault); every other wrong value gets a message.
pub(crate) async fn update_seats(State(state): State<TrackerState>, body: Bytes) -> Response {
    let form = FormData::parse(&body);
    let raw = form.get("seats");
    let mut data = state.data();
    let members = data.members.len();
    let min = data.billing.plan.min_seats();
    let problem = match raw.parse::<i64>() {
        Err(_) => Some("Enter the number of seats as a whole number.".to_owned()),
        Ok(n) if n < 0 => {
            drop(data);
            return state.server_error(T05_500_NEGATIVE_SEATS);
        }
        Ok(0) => Some("A plan needs at least one seat.".to_owned()),
        Ok(n) if n > MAX_SEATS => Some("For more than 500 seats, please contact sales.".to_owned()),
        Ok(n) if n < i64::try_from(members).unwrap_or(i64::MAX) => Some(format!(
            "Your team has {members} members; remove some before going below {members} seats."
        )),
        Ok(n) if n < min => Some(format!(
            "The {} plan needs at least {min} seats.",
            data.billing.plan.label()
        )),
        Ok(_) => None,
    };
    if let Some(problem) = problem {
        return overview_page(&data, raw, Some(&problem), None).into_response();
    }
    let seats = raw.parse::<u32>().unwrap_or(data.billing.seats);
    data.billing.seats = seats;
    data.log(
        model::today(),
        format!("changed the plan to {seats} seats"),
        Some("/billing".to_owned()),
    );
    Redirect::to("/billing?done=seats").into_response()
}

pub(crate) async fn cancel(State(state): State<TrackerState>) -> Redirect {
    state.data().billing.cancelled = true;
    Redirect::to("/billing?done=cancelled")
}

pub(crate) async fn resume(State(state): State<TrackerState>) -> Redirect {
    state.data().billing.cancelled = false;
    Redirect::to("/billing?done=resumed")
}

#[derive(Debug, Default)]
struct PlanForm {
    plan: String,
    cycle: String,
    seats: String,
    promo: String,
}

impl PlanForm {
    fn from_form(form: &FormData) -> Self {
        Self {
            plan: form.get("plan").to_owned(),
            cycle: form.get("cycle").to_owned(),
            seats: form.get("seats").to_owned(),
            promo: form.get("promo").to_ascii_uppercase(),
        }
    }

    fn current(b: &Billing) -> Self {
        Self {
            plan: b.plan.slug().to_owned(),
            cycle: b.cycle.slug().to_owned(),
            seats: b.seats.to_string(),
            promo: String::new(),
        }
    }
}

/// A checked plan change: plan, cycle, seats and discount percent.
struct PlanChange {
    plan: Plan,
    cycle: Cycle,
    seats: u32,
    discount: u64,
}

impl PlanChange {
    fn price(&self) -> (u64, u64) {
        let full = self.plan.seat_cents() * u64::from(self.seats) * self.cycle.billed_months();
        (full, full * self.discount / 100)
    }
}

fn check_plan(data: &Tracker, values: &PlanForm, problems: &mut Problems) -> Option<PlanChange> {
    let plan = Plan::from_slug(&values.plan);
    if plan.is_none() {
        problems.add("plan", "Please choose a plan.");
    }
    let cycle = Cycle::from_slug(&values.cycle);
    if cycle.is_none() {
        problems.add("cycle", "Please choose how often you want to be billed.");
    }
    let members = i64::try_from(data.members.len()).unwrap_or(i64::MAX);
    let min = plan.map_or(1, Plan::min_seats).max(members);
    let seats = match values.seats.parse::<i64>() {
        Ok(n) if (min..=MAX_SEATS).contains(&n) => u32::try_from(n).ok(),
        Ok(_) => {
            problems.add(
                "seats",
                format!("Choose between {min} and {MAX_SEATS} seats for this plan and team."),
            );
            None
        }
        Err(_) => {
            problems.add("seats", "Enter the number of seats as a whole number.");
            None
        }
    };
    let discount = if values.promo.is_empty() {
        Some(0)
    } else {
        let found = PROMO_CODES
            .iter()
            .find(|(code, _)| *code == values.promo)
            .map(|(_, percent)| *percent);
        if found.is_none() {
            problems.add("promo", "That promo code is not valid.");
        }
        found
    };
    let change = PlanChange {
        plan: plan?,
        cycle: cycle?,
        seats: seats?,
        discount: discount?,
    };
    let b = &data.billing;
    if change.plan == b.plan && change.cycle == b.cycle && change.seats == b.seats {
        problems.add(
            "plan",
            "That is your current plan. Pick another plan, cycle or seat count.",
        );
        return None;
    }
    Some(change).filter(|_| problems.is_empty())
}

fn plans_page(data: &Tracker, values: &PlanForm, problems: &Problems) -> Html<String> {
    let cards: String = Plan::ALL
        .iter()
        .map(|p| {
            let current = if *p == data.billing.plan {
                r#" <span class="badge active">current</span>"#
            } else {
                ""
            };
            format!(
                r#"<label for="plan-{slug}"><input type="radio" id="plan-{slug}" name="plan" value="{slug}"{checked}> <strong>{label}</strong>{current}<br>{price} per seat and month<br><span class="muted">{blurb}</span></label>"#,
                slug = p.slug(),
                checked = layout::checked(values.plan == p.slug()),
                label = p.label(),
                price = model::money(p.seat_cents()),
                blurb = p.blurb(),
            )
        })
        .collect();
    let content = format!(
        r#"<h1>Billing</h1>
{nav}
{summary}
<form method="post" action="/billing/plans/review" class="card">
<h2>Choose a plan</h2>
<div class="plans">{cards}</div>{e_plan}
<label for="cycle">Billing cycle</label>
<select id="cycle" name="cycle">
<option value="monthly"{monthly}>Monthly</option>
<option value="yearly"{yearly}>Yearly (two months free)</option>
</select>{e_cycle}
<label for="plan-seats">Seats</label>
<input id="plan-seats" name="seats" type="text" inputmode="numeric" value="{seats}">{e_seats}
<label for="promo">Promo code <span class="muted">(optional)</span></label>
<input id="promo" name="promo" type="text" value="{promo}">{e_promo}
<p><button type="submit" class="primary">Review change</button></p>
</form>"#,
        nav = billing_nav("/billing/plans"),
        summary = problems.summary(),
        monthly = layout::selected("monthly", &values.cycle),
        yearly = layout::selected("yearly", &values.cycle),
        seats = escape(&values.seats),
        promo = escape(&values.promo),
        e_plan = problems.at("plan"),
        e_cycle = problems.at("cycle"),
        e_seats = problems.at("seats"),
        e_promo = problems.at("promo"),
    );
    page("Change plan", Nav::Billing, &content, "", None)
}

pub(crate) async fn plans(State(state): State<TrackerState>) -> Html<String> {
    let data = state.data();
    plans_page(
        &data,
        &PlanForm::current(&data.billing),
        &Problems::default(),
    )
}

pub(crate) async fn review(State(state): State<TrackerState>, body: Bytes) -> Html<String> {
    let values = PlanForm::from_form(&FormData::parse(&body));
    let data = state.data();
    let mut problems = Problems::default();
    let Some(change) = check_plan(&data, &values, &mut problems) else {
        return plans_page(&data, &values, &problems);
    };
    let (full, discount) = change.price();
    let discount_row = if discount > 0 {
        format!(
            "<tr><th>Promo {}</th><td>−{}</td></tr>",
            escape(&values.promo),
            model::money(discount)
        )
    } else {
        String::new()
    };
    let content = format!(
        r#"<h1>Billing</h1>
{nav}
<section class="card">
<h2>Review your change</h2>
<table style="width:auto">
<tr><th>Plan</th><td>{from_plan} → {plan}</td></tr>
<tr><th>Billing cycle</th><td>{cycle}</td></tr>
<tr><th>Seats</th><td>{seats}</td></tr>
<tr><th>Price per period</th><td>{full}</td></tr>
{discount_row}
<tr><th>Due today</th><td><strong>{total}</strong></td></tr>
</table>
<form method="post" action="/billing/plans/confirm">
<input type="hidden" name="plan" value="{plan_slug}">
<input type="hidden" name="cycle" value="{cycle_slug}">
<input type="hidden" name="seats" value="{seats}">
<input type="hidden" name="promo" value="{promo}">
<p><button type="submit" class="primary">Confirm change</button> <a href="/billing/plans">Back to plans</a></p>
</form>
</section>"#,
        nav = billing_nav("/billing/plans"),
        from_plan = data.billing.plan.label(),
        plan = change.plan.label(),
        cycle = change.cycle.label(),
        seats = change.seats,
        full = model::money(full),
        total = model::money(full - discount),
        plan_slug = change.plan.slug(),
        cycle_slug = change.cycle.slug(),
        promo = escape(&values.promo),
    );
    page("Review plan change", Nav::Billing, &content, "", None)
}

/// Applies a reviewed plan change. Yearly Business invoices need a tax rule that was
/// never configured, and the handler fails (the seeded fault).
pub(crate) async fn confirm(State(state): State<TrackerState>, body: Bytes) -> Response {
    let values = PlanForm::from_form(&FormData::parse(&body));
    let mut data = state.data();
    let mut problems = Problems::default();
    let Some(change) = check_plan(&data, &values, &mut problems) else {
        return plans_page(&data, &values, &problems).into_response();
    };
    if change.plan == Plan::Business && change.cycle == Cycle::Yearly {
        drop(data);
        return state.server_error(T14_500_BUSINESS_YEARLY);
    }
    let (full, discount) = change.price();
    let today = model::today();
    let mut label = format!(
        "{} plan, {} seats, {}",
        change.plan.label(),
        change.seats,
        change.cycle.label().to_lowercase()
    );
    if discount > 0 {
        label.push_str(&format!(" (promo {}, -{}%)", values.promo, change.discount));
    }
    let lines = vec![(label, full - discount), ("Sales tax (0%)".to_owned(), 0)];
    let b = &mut data.billing;
    b.plan = change.plan;
    b.cycle = change.cycle;
    b.seats = change.seats;
    b.add_invoice(today, lines);
    data.log(
        today,
        format!("switched to the {} plan", change.plan.label()),
        Some("/billing".to_owned()),
    );
    Redirect::to("/billing?done=plan").into_response()
}

pub(crate) async fn invoices(State(state): State<TrackerState>) -> Html<String> {
    let data = state.data();
    let rows: String = data
        .billing
        .invoices
        .iter()
        .rev()
        .map(|i| {
            format!(
                r#"<tr><td><a href="/billing/invoices/{n}">{n}</a></td><td>{day}</td><td>{total}</td><td><span class="badge done">Paid</span></td></tr>"#,
                n = escape(&i.number),
                day = model::pretty(i.day),
                total = model::money(i.total()),
            )
        })
        .collect();
    let content = format!(
        r#"<h1>Billing</h1>
{nav}
<table><tr><th>Invoice</th><th>Date</th><th>Total</th><th>Status</th></tr>{rows}</table>"#,
        nav = billing_nav("/billing/invoices"),
    );
    page("Invoices", Nav::Billing, &content, "", None)
}

const INVOICE_SCRIPT: &str = r#"<script>
document.getElementById('email-copy').addEventListener('click', function () {
  toast('A copy is on its way to your inbox.');
});
</script>"#;

pub(crate) async fn invoice(
    State(state): State<TrackerState>,
    Path(number): Path<String>,
) -> Response {
    let data = state.data();
    let Some(inv) = data.billing.invoices.iter().find(|i| i.number == number) else {
        return layout::not_found();
    };
    let lines: String = inv
        .lines
        .iter()
        .map(|(text, cents)| {
            format!(
                "<tr><td>{}</td><td>{}</td></tr>",
                escape(text),
                model::money(*cents)
            )
        })
        .collect();
    let content = format!(
        r#"<p class="crumbs"><a href="/billing/invoices">Invoices</a> › {n}</p>
<h1>Invoice {n}</h1>
<p>Issued {day} to Alex Rivera, Curio Tracker demo workspace.</p>
<table style="width:auto"><tr><th>Item</th><th>Amount</th></tr>{lines}
<tr><th>Total</th><th>{total}</th></tr></table>
<p class="toolbar"><a class="button" href="/billing/invoices/{n}/pdf">Download PDF</a>
<button type="button" id="email-copy">Email me a copy</button>
<a href="/billing/invoices">Back to invoices</a></p>"#,
        n = escape(&inv.number),
        day = model::pretty(inv.day),
        total = model::money(inv.total()),
    );
    page(
        &format!("Invoice {}", inv.number),
        Nav::Billing,
        &content,
        INVOICE_SCRIPT,
        None,
    )
    .into_response()
}

/// The PDF service was never deployed: every invoice's "Download PDF" is a 404 (the
/// seeded broken link). Unknown invoices are plain 404s.
pub(crate) async fn invoice_pdf(
    State(state): State<TrackerState>,
    Path(number): Path<String>,
) -> Response {
    let known = state
        .data()
        .billing
        .invoices
        .iter()
        .any(|i| i.number == number);
    if known {
        state.truth.record(T02_BROKEN_INVOICE_PDF);
    }
    layout::not_found()
}

#[derive(Debug, Default)]
struct CardForm {
    holder: String,
    number: String,
    expiry: String,
    cvc: String,
}

fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .chars()
        .rev()
        .filter_map(|c| c.to_digit(10))
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 1 {
                let d = d * 2;
                if d > 9 { d - 9 } else { d }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// `MM/YY` or `MM/YYYY` -> (month, full year).
fn parse_expiry(text: &str) -> Option<(u32, u32)> {
    let (m, y) = text.split_once('/')?;
    let month: u32 = m.trim().parse().ok().filter(|m| (1..=12).contains(m))?;
    let y = y.trim();
    let year: u32 = match y.len() {
        2 => 2000 + y.parse::<u32>().ok()?,
        4 => y.parse().ok()?,
        _ => return None,
    };
    Some((month, year))
}

fn payment_page(
    data: &Tracker,
    values: &CardForm,
    problems: &Problems,
    toast: Option<&str>,
) -> Html<String> {
    let card = &data.billing.card;
    let content = format!(
        r#"<h1>Billing</h1>
{nav}
<p>Current card: {brand} ending in {last4}, expires {exp_month:02}/{exp_year}, holder {holder}.</p>
<form method="post" action="/billing/payment" class="card">
<h2>Update payment method</h2>
{summary}
<label for="holder">Name on card</label>
<input id="holder" name="holder" type="text" autocomplete="cc-name" value="{v_holder}">{e_holder}
<label for="card-number">Card number</label>
<input id="card-number" name="number" type="text" inputmode="numeric" autocomplete="cc-number" value="{v_number}">{e_number}
<label for="expiry">Expiry (MM/YY)</label>
<input id="expiry" name="expiry" type="text" autocomplete="cc-exp" placeholder="MM/YY" value="{v_expiry}">{e_expiry}
<label for="cvc">Security code</label>
<input id="cvc" name="cvc" type="text" inputmode="numeric" autocomplete="cc-csc" value="{v_cvc}">{e_cvc}
<p><button type="submit" class="primary">Save card</button></p>
</form>"#,
        nav = billing_nav("/billing/payment"),
        brand = card.brand,
        last4 = escape(&card.last4),
        exp_month = card.exp_month,
        exp_year = card.exp_year,
        holder = escape(&card.holder),
        summary = problems.summary(),
        v_holder = escape(&values.holder),
        v_number = escape(&values.number),
        v_expiry = escape(&values.expiry),
        v_cvc = escape(&values.cvc),
        e_holder = problems.at("holder"),
        e_number = problems.at("number"),
        e_expiry = problems.at("expiry"),
        e_cvc = problems.at("cvc"),
    );
    page("Payment method", Nav::Billing, &content, "", toast)
}

pub(crate) async fn payment(
    State(state): State<TrackerState>,
    RawQuery(query): RawQuery,
) -> Html<String> {
    let query = FormData::from_query(query.as_deref());
    let data = state.data();
    payment_page(
        &data,
        &CardForm::default(),
        &Problems::default(),
        flash(&query),
    )
}

pub(crate) async fn save_payment(State(state): State<TrackerState>, body: Bytes) -> Response {
    let form = FormData::parse(&body);
    let values = CardForm {
        holder: form.get("holder").to_owned(),
        number: form.get("number").to_owned(),
        expiry: form.get("expiry").to_owned(),
        cvc: form.get("cvc").to_owned(),
    };
    let mut problems = Problems::default();
    if values.holder.is_empty() {
        problems.add("holder", "Please enter the name on the card.");
    } else if values.holder.chars().count() > 80 {
        problems.add("holder", "Names can be at most 80 characters.");
    }
    let digits: String = values
        .number
        .chars()
        .filter(|c| *c != ' ' && *c != '-')
        .collect();
    if !(12..=19).contains(&digits.len())
        || !digits.chars().all(|c| c.is_ascii_digit())
        || !luhn(&digits)
    {
        problems.add("number", "That card number doesn't look right.");
    }
    let today = model::civil(model::today());
    let expiry = parse_expiry(&values.expiry);
    match expiry {
        None => problems.add("expiry", "Please give the expiry as MM/YY."),
        Some((m, y)) if (i64::from(y), m) < (today.0, today.1) => {
            problems.add("expiry", "This card has expired.");
        }
        Some((_, y)) if i64::from(y) > today.0 + 20 => {
            problems.add("expiry", "Please check the expiry year.");
        }
        Some(_) => {}
    }
    if !(3..=4).contains(&values.cvc.len()) || !values.cvc.chars().all(|c| c.is_ascii_digit()) {
        problems.add(
            "cvc",
            "The security code is 3 or 4 digits on the back of the card.",
        );
    }
    let mut data = state.data();
    let Some((exp_month, exp_year)) = expiry.filter(|_| problems.is_empty()) else {
        return payment_page(&data, &values, &problems, None).into_response();
    };
    let brand = match digits.chars().next() {
        Some('4') => "Visa",
        Some('5') => "Mastercard",
        Some('3') => "American Express",
        _ => "Card",
    };
    let last4: String = digits
        .chars()
        .skip(digits.len().saturating_sub(4))
        .collect();
    data.billing.card = model::Card {
        holder: values.holder,
        brand,
        last4,
        exp_month,
        exp_year,
    };
    Redirect::to("/billing/payment?done=card").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_checks() {
        assert!(luhn("4242424242424242"));
        assert!(luhn("4111111111111111"));
        assert!(!luhn("4242424242424241"));
        assert_eq!(parse_expiry("08/29"), Some((8, 2029)));
        assert_eq!(parse_expiry("8/2031"), Some((8, 2031)));
        assert_eq!(parse_expiry("13/29"), None);
        assert_eq!(parse_expiry("0829"), None);
        assert_eq!(parse_expiry("08/2"), None);
    }
}
