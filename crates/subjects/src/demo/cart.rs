//! Cart, coupon, checkout and order confirmation, over one global server-side cart.

use std::collections::{HashMap, VecDeque};

use axum::Form;
use axum::extract::{Path, State};
use axum::response::{Html, IntoResponse, Redirect, Response};

use super::catalog::{self, Product};
use super::layout::{self, Nav, page};
use super::{DemoState, F2_CONSOLE_COUPON, field, looks_like_email};
use crate::html::escape;

/// Most units of one product a single "Add to cart" adds, as the quantity field says.
const MAX_ADD: u32 = 10;
/// Most units of one product in the cart; lines are one per product, so the cart is
/// bounded by the catalogue.
const MAX_LINE: u32 = 99;
/// Orders kept for their confirmation pages; older ones are forgotten.
const KEPT_ORDERS: usize = 20;
const FIRST_ORDER: u32 = 1001;

const COUNTRIES: [&str; 5] = [
    "Germany",
    "France",
    "Netherlands",
    "Austria",
    "United Kingdom",
];

#[derive(Debug, Clone, Copy)]
pub(crate) struct CartLine {
    product: &'static Product,
    quantity: u32,
}

#[derive(Debug, Clone)]
pub(crate) struct Order {
    number: u32,
    name: String,
    email: String,
    total_cents: u32,
}

#[derive(Debug, Default)]
pub(crate) struct Shop {
    cart: Vec<CartLine>,
    orders: VecDeque<Order>,
    placed: u32,
}

impl Shop {
    fn total_cents(&self) -> u32 {
        self.cart
            .iter()
            .map(|l| l.product.price_cents.saturating_mul(l.quantity))
            .fold(0, u32::saturating_add)
    }
}

/// The coupon box checks codes in the browser. Unknown codes hit the seeded console
/// error; an empty code only gets a validation message.
///
/// The typed code is remembered on this device, as shops do for codes from a newsletter,
/// so it is still there after a "Remove" reloads the cart or on the next visit. That
/// also keeps the fault within reach of a random walk that types a code and leaves.
pub(super) fn coupon_script() -> String {
    format!(
        r#"<script>
(function () {{
  var input = document.getElementById('coupon');
  try {{ input.value = localStorage.getItem('curio-coupon') || ''; }} catch (_) {{}}
  function remember() {{
    try {{ localStorage.setItem('curio-coupon', input.value); }} catch (_) {{}}
  }}
  input.addEventListener('input', remember);
  input.addEventListener('change', remember);
  window.addEventListener('pagehide', remember);
}})();
document.getElementById('coupon-form').addEventListener('submit', function (event) {{
  event.preventDefault();
  var code = document.getElementById('coupon').value.trim();
  var msg = document.getElementById('coupon-msg');
  msg.className = '';
  if (code === '') {{
    msg.textContent = 'Please enter a coupon code.';
    return;
  }}
  if (code === 'SAVE10') {{
    msg.className = 'ok';
    msg.textContent = 'SAVE10 applied: 10% off at checkout.';
    return;
  }}
  curioTruth('{F2_CONSOLE_COUPON}');
  console.error('coupon service: no such campaign for code ' + JSON.stringify(code));
  msg.className = 'error';
  msg.textContent = 'Sorry, this coupon cannot be applied.';
}});
</script>"#
    )
}

pub(crate) async fn cart(State(state): State<DemoState>) -> Html<String> {
    let shop = state.shop();
    let lines = if shop.cart.is_empty() {
        r#"<p class="notice">Your cart is empty.</p>"#.to_owned()
    } else {
        let rows: String = shop
            .cart
            .iter()
            .map(|l| {
                let name = escape(l.product.name);
                format!(
                    r#"<tr><td>{name}</td><td>{qty}</td><td>{price}</td>
<td><form method="post" action="/cart/remove"><input type="hidden" name="product_id" value="{id}"><button type="submit" aria-label="Remove {name}">Remove</button></form></td></tr>"#,
                    qty = l.quantity,
                    price = catalog::price(l.product.price_cents.saturating_mul(l.quantity)),
                    id = l.product.id,
                )
            })
            .collect();
        format!(
            r#"<table><tr><th>Product</th><th>Quantity</th><th>Price</th><th></th></tr>{rows}</table>
<p>Total: <span class="price">{total}</span></p>"#,
            total = catalog::price(shop.total_cents()),
        )
    };
    let checkout = if shop.cart.is_empty() {
        ""
    } else {
        r#"<p><a href="/checkout">Checkout</a></p>"#
    };
    drop(shop);
    let content = format!(
        r#"<h1>Your cart</h1>
{lines}
<form id="coupon-form">
<label for="coupon">Coupon code</label>
<input id="coupon" name="coupon" type="text" autocomplete="off">
<button type="submit">Apply coupon</button>
<span id="coupon-msg" role="status"></span>
</form>
{checkout}"#
    );
    page("Cart", Nav::Cart, &content, &coupon_script())
}

pub(crate) async fn add(
    State(state): State<DemoState>,
    Form(form): Form<HashMap<String, String>>,
) -> Redirect {
    let Some(product) = field(&form, "product_id")
        .parse()
        .ok()
        .and_then(catalog::product)
    else {
        return Redirect::to("/products");
    };
    // An unreadable quantity (the number field sends "" for junk) means one, as the
    // field's default says.
    let quantity = field(&form, "quantity")
        .parse::<u32>()
        .unwrap_or(1)
        .clamp(1, MAX_ADD);
    let mut shop = state.shop();
    match shop.cart.iter_mut().find(|l| l.product.id == product.id) {
        Some(line) => line.quantity = (line.quantity + quantity).min(MAX_LINE),
        None => shop.cart.push(CartLine { product, quantity }),
    }
    Redirect::to("/cart")
}

pub(crate) async fn remove(
    State(state): State<DemoState>,
    Form(form): Form<HashMap<String, String>>,
) -> Redirect {
    if let Ok(id) = field(&form, "product_id").parse::<u32>() {
        state.shop().cart.retain(|l| l.product.id != id);
    }
    Redirect::to("/cart")
}

#[derive(Debug, Default)]
struct Checkout {
    name: String,
    email: String,
    address: String,
    city: String,
    postal_code: String,
    country: String,
    card_number: String,
}

impl Checkout {
    fn from_form(form: &HashMap<String, String>) -> Self {
        Self {
            name: field(form, "name").to_owned(),
            email: field(form, "email").to_owned(),
            address: field(form, "address").to_owned(),
            city: field(form, "city").to_owned(),
            postal_code: field(form, "postal_code").to_owned(),
            country: field(form, "country").to_owned(),
            card_number: field(form, "card_number").to_owned(),
        }
    }

    /// The first problem with the submission, as the page tells the user.
    fn problem(&self) -> Option<&'static str> {
        if self.name.is_empty() {
            return Some("Please enter your name.");
        }
        if !looks_like_email(&self.email) {
            return Some("Please enter a valid email address.");
        }
        if self.address.is_empty() || self.city.is_empty() || self.postal_code.is_empty() {
            return Some("Please enter your full address.");
        }
        if !COUNTRIES.contains(&self.country.as_str()) {
            return Some("Sorry, we don't ship to that country.");
        }
        let digits: String = self
            .card_number
            .chars()
            .filter(|c| *c != ' ' && *c != '-')
            .collect();
        if !(12..=19).contains(&digits.len()) || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Some("Please check your card number.");
        }
        None
    }
}

fn checkout_page(shop: &Shop, values: &Checkout, problem: Option<&str>) -> Html<String> {
    if shop.cart.is_empty() {
        let content = r#"<h1>Checkout</h1>
<p class="notice">Your cart is empty.</p>
<p><a href="/products">Browse products</a></p>"#;
        return page("Checkout", Nav::Cart, content, "");
    }
    let items: u32 = shop.cart.iter().map(|l| l.quantity).sum();
    let problem = problem
        .map(|p| format!(r#"<p class="error" role="alert">{}</p>"#, escape(p)))
        .unwrap_or_default();
    let countries: String = COUNTRIES
        .iter()
        .map(|c| {
            let selected = if *c == values.country {
                " selected"
            } else {
                ""
            };
            format!(r#"<option{selected}>{c}</option>"#)
        })
        .collect();
    let content = format!(
        r#"<h1>Checkout</h1>
<p>{items} item(s), total <span class="price">{total}</span></p>
{problem}
<form method="post" action="/checkout">
<label for="name">Full name</label>
<input id="name" name="name" type="text" autocomplete="name" required value="{name}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="{email}">
<label for="address">Address</label>
<input id="address" name="address" type="text" autocomplete="street-address" required value="{address}">
<label for="city">City</label>
<input id="city" name="city" type="text" autocomplete="address-level2" required value="{city}">
<label for="postal_code">Postal code</label>
<input id="postal_code" name="postal_code" type="text" autocomplete="postal-code" required value="{postal_code}">
<label for="country">Country</label>
<select id="country" name="country" autocomplete="country-name">{countries}</select>
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" required value="{card_number}">
<p><button type="submit" class="primary">Place order</button></p>
</form>"#,
        total = catalog::price(shop.total_cents()),
        name = escape(&values.name),
        email = escape(&values.email),
        address = escape(&values.address),
        city = escape(&values.city),
        postal_code = escape(&values.postal_code),
        card_number = escape(&values.card_number),
    );
    page("Checkout", Nav::Cart, &content, "")
}

pub(crate) async fn checkout(State(state): State<DemoState>) -> Html<String> {
    checkout_page(&state.shop(), &Checkout::default(), None)
}

pub(crate) async fn place_order(
    State(state): State<DemoState>,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let values = Checkout::from_form(&form);
    let mut shop = state.shop();
    if shop.cart.is_empty() {
        return Redirect::to("/cart").into_response();
    }
    if let Some(problem) = values.problem() {
        return checkout_page(&shop, &values, Some(problem)).into_response();
    }
    let number = FIRST_ORDER.saturating_add(shop.placed);
    shop.placed = shop.placed.saturating_add(1);
    let order = Order {
        number,
        name: values.name,
        email: values.email,
        total_cents: shop.total_cents(),
    };
    shop.orders.push_back(order);
    while shop.orders.len() > KEPT_ORDERS {
        shop.orders.pop_front();
    }
    shop.cart.clear();
    Redirect::to(&format!("/orders/{number}")).into_response()
}

pub(crate) async fn order(State(state): State<DemoState>, Path(number): Path<String>) -> Response {
    let found = number
        .parse::<u32>()
        .ok()
        .and_then(|n| state.shop().orders.iter().find(|o| o.number == n).cloned());
    let Some(order) = found else {
        return layout::not_found();
    };
    let content = format!(
        r#"<h1>Thank you, {name}!</h1>
<p class="ok">Your order <strong>#{number}</strong> is confirmed.</p>
<p>Total paid: <span class="price">{total}</span>. A confirmation is on its way to {email}.</p>
<p><a href="/products">Continue shopping</a></p>"#,
        name = escape(&order.name),
        number = order.number,
        total = catalog::price(order.total_cents),
        email = escape(&order.email),
    );
    page("Order confirmed", Nav::None, &content, "").into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid() -> Checkout {
        Checkout {
            name: "Ada".into(),
            email: "ada@example.com".into(),
            address: "Main St 1".into(),
            city: "Berlin".into(),
            postal_code: "10115".into(),
            country: "Germany".into(),
            card_number: "4111 1111 1111 1111".into(),
        }
    }

    #[test]
    fn checkout_validation() {
        assert_eq!(valid().problem(), None);
        let mut c = valid();
        c.email = "ada".into();
        assert!(c.problem().is_some());
        let mut c = valid();
        c.card_number = "hello".into();
        assert!(c.problem().is_some());
        let mut c = valid();
        c.country = "Atlantis".into();
        assert!(c.problem().is_some());
    }
}
