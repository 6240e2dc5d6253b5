//! Browsing pages: home, product list and detail (with wishlist and reviews), about,
//! the reviews API, the newsletter endpoint and the 404 page.

use std::collections::HashMap;

use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};

use super::catalog::{self, Category, FEATURED, PRODUCTS, Product};
use super::layout::{self, Nav, page};
use super::{DemoState, F1_UNCAUGHT_WISHLIST, F4_BROKEN_LINK, F5_REJECTION_REVIEWS};
use crate::html::escape;

/// The one missing page that a visible link points to.
pub(super) const OUR_STORY: &str = "/blog/our-story";

fn card(p: &Product) -> String {
    format!(
        r#"<div class="card"><div class="swatch" style="background:{colour}"></div>
<h3><a href="/products/{id}">{name}</a></h3>
<p class="price">{price}</p></div>"#,
        colour = p.colour,
        id = p.id,
        name = escape(p.name),
        price = catalog::price(p.price_cents),
    )
}

pub(crate) async fn home() -> Html<String> {
    let featured: String = FEATURED
        .iter()
        .filter_map(|id| catalog::product(*id))
        .map(card)
        .collect();
    let content = format!(
        r#"<h1>Small things, carefully chosen</h1>
<p>Kitchen, garden and desk essentials that last. Free shipping on orders over €50.</p>
<p><a href="/products">Browse all products</a></p>
<h2>Featured</h2>
<div class="grid">{featured}</div>
<h2>Gift cards</h2>
<p>Give someone the choice. Digital gift cards are on their way.</p>
<button type="button" disabled>Coming soon</button>"#
    );
    page("Home", Nav::Home, &content, "")
}

pub(crate) async fn products(Query(query): Query<HashMap<String, String>>) -> Html<String> {
    let category = query
        .get("category")
        .and_then(|slug| Category::from_slug(slug));
    let search = query.get("q").map(|q| q.trim()).unwrap_or_default();
    let needle = search.to_lowercase();
    let shown: Vec<&Product> = PRODUCTS
        .iter()
        .filter(|p| category.is_none_or(|c| p.category == c))
        .filter(|p| {
            needle.is_empty()
                || p.name.to_lowercase().contains(&needle)
                || p.description.to_lowercase().contains(&needle)
        })
        .collect();

    let mut filters = String::from(r#"<p class="filters">Categories: "#);
    let all_current = if category.is_none() {
        r#" aria-current="page""#
    } else {
        ""
    };
    filters.push_str(&format!(r#"<a href="/products"{all_current}>All</a>"#));
    for c in Category::ALL {
        let current = if category == Some(c) {
            r#" aria-current="page""#
        } else {
            ""
        };
        filters.push_str(&format!(
            r#"<a href="/products?category={}"{current}>{}</a>"#,
            c.slug(),
            c.label()
        ));
    }
    filters.push_str("</p>");

    let heading = match category {
        Some(c) => format!("{} products", c.label()),
        None => "All products".to_owned(),
    };
    let summary = if search.is_empty() {
        String::new()
    } else {
        format!(
            r#"<p role="status">{} result(s) for “{}”</p>"#,
            shown.len(),
            escape(search)
        )
    };
    let grid = if shown.is_empty() {
        r#"<p class="notice">No products match your search.</p>"#.to_owned()
    } else {
        format!(
            r#"<div class="grid">{}</div>"#,
            shown.iter().map(|p| card(p)).collect::<String>()
        )
    };
    let content = format!(
        r#"<h1>{heading}</h1>
<form role="search" action="/products" method="get">
<label for="q">Search products</label>
<input id="q" name="q" type="search" value="{q}" placeholder="e.g. mug">
<button type="submit">Search</button>
</form>
{filters}
{summary}
{grid}"#,
        q = escape(search),
    );
    page("Products", Nav::Products, &content, "")
}

/// The product page's script. The wishlist lives in `localStorage`, so once it holds
/// something "Share wishlist" shows on every product page; that keeps the wishlist
/// fault within reach of a random walk that left the page in between.
pub(super) fn product_script(p: &Product) -> String {
    // Only the server knows which reviews are broken; it tells the page so that the
    // beacon goes out before the request whose answer will make the promise reject.
    let reviews_fault = if p.category == Category::Garden {
        format!("'{F5_REJECTION_REVIEWS}'")
    } else {
        "null".to_owned()
    };
    format!(
        r#"<script>
var PRODUCT_ID = {id};
var REVIEWS_FAULT = {reviews_fault};

function loadWishlist() {{
  try {{
    var list = JSON.parse(localStorage.getItem('curio-wishlist') || '[]');
    return Array.isArray(list) ? list : [];
  }} catch (_) {{
    return [];
  }}
}}

function showWishlist(list) {{
  if (list.length === 0) return;
  document.getElementById('wishlist-status').textContent =
    'Your wishlist: ' + list.length + (list.length === 1 ? ' item' : ' items');
  document.getElementById('share-wishlist').hidden = false;
}}

document.getElementById('add-wishlist').addEventListener('click', function () {{
  var list = loadWishlist();
  if (list.indexOf(PRODUCT_ID) < 0) list.push(PRODUCT_ID);
  try {{ localStorage.setItem('curio-wishlist', JSON.stringify(list)); }} catch (_) {{}}
  showWishlist(list);
}});

document.getElementById('share-wishlist').addEventListener('click', function () {{
  var list = loadWishlist();
  curioTruth('{F1_UNCAUGHT_WISHLIST}');
  var link = location.origin + '/wishlists/' + list.owner.shareId;
  document.getElementById('wishlist-status').textContent = 'Share this link: ' + link;
}});

document.getElementById('load-reviews').addEventListener('click', function () {{
  var box = document.getElementById('reviews');
  box.textContent = 'Loading reviews…';
  if (REVIEWS_FAULT) curioTruth(REVIEWS_FAULT);
  fetch('/api/reviews/' + PRODUCT_ID)
    .then(function (r) {{ return r.json(); }})
    .then(function (reviews) {{
      box.textContent = '';
      if (reviews.length === 0) {{ box.textContent = 'No reviews yet.'; return; }}
      reviews.forEach(function (review) {{
        var p = document.createElement('p');
        p.textContent = '★'.repeat(review.rating) + ' ' + review.text + ' — ' + review.author;
        box.appendChild(p);
      }});
    }});
}});

showWishlist(loadWishlist());
</script>"#,
        id = p.id,
    )
}

pub(crate) async fn product(Path(id): Path<String>) -> Response {
    let Some(p) = id.parse().ok().and_then(catalog::product) else {
        return layout::not_found();
    };
    // No "back to products" link: the nav has one, and every extra way off the page
    // makes the wishlist and reviews faults rarer for a random walk.
    let content = format!(
        r#"<div class="card">
<div class="swatch" style="background:{colour}"></div>
<h1>{name}</h1>
<p class="price">{price}</p>
<p>{description}</p>
<p>Category: {category}</p>
<form method="post" action="/cart/add">
<input type="hidden" name="product_id" value="{id}">
<label for="quantity">Quantity</label>
<input id="quantity" name="quantity" type="number" min="1" max="10" value="1" required>
<button type="submit" class="primary">Add to cart</button>
</form>
<p>
<button type="button" id="add-wishlist">Add to wishlist</button>
<button type="button" id="share-wishlist" hidden>Share wishlist</button>
<span id="wishlist-status" role="status"></span>
</p>
</div>
<h2>Reviews</h2>
<button type="button" id="load-reviews">Load reviews</button>
<div id="reviews" aria-live="polite"></div>"#,
        colour = p.colour,
        name = escape(p.name),
        price = catalog::price(p.price_cents),
        description = escape(p.description),
        category = p.category.label(),
        id = p.id,
    );
    page(p.name, Nav::Products, &content, &product_script(p)).into_response()
}

const REVIEWERS: [(&str, u32, &str); 4] = [
    ("Sam", 5, "Exactly as described, and it arrived quickly."),
    ("Ines", 4, "Good quality for the price."),
    ("Jonas", 5, "Bought a second one as a present."),
    ("Mara", 3, "Nice, but smaller than I expected."),
];

/// Reviews as JSON. The garden category's reviews come from a backend that cuts its
/// answers short: a 200 with truncated JSON, which makes the page's `r.json()` reject.
pub(crate) async fn reviews(Path(id): Path<String>) -> Response {
    let Some(p) = id.parse().ok().and_then(catalog::product) else {
        return (
            StatusCode::NOT_FOUND,
            axum::Json(serde_json::json!({ "error": "unknown product" })),
        )
            .into_response();
    };
    if p.category == Category::Garden {
        return (
            [(header::CONTENT_TYPE, "application/json")],
            r#"[{"author":"Sam","rating":5,"text":"Great for the balc"#,
        )
            .into_response();
    }
    // Two reviews per product, picked by id so that they stay the same across runs.
    let first = usize::try_from(p.id).unwrap_or(0) % REVIEWERS.len();
    let picked: Vec<serde_json::Value> = (0..2)
        .map(|i| {
            let (author, rating, text) = REVIEWERS[(first + i) % REVIEWERS.len()];
            serde_json::json!({ "author": author, "rating": rating, "text": text })
        })
        .collect();
    axum::Json(picked).into_response()
}

pub(crate) async fn about() -> Html<String> {
    let content = format!(
        r#"<h1>About Curio Shop</h1>
<p>We are a two-person shop selling kitchen, garden and desk things that we use ourselves.
Everything ships from our small warehouse within two working days.</p>
<p>Want to know how it started? Read <a href="{OUR_STORY}">Our story</a>.</p>"#
    );
    page("About", Nav::About, &content, "")
}

/// Newsletter signups: the footer's script posts here and ignores the body; without
/// script the form lands on this page.
pub(crate) async fn newsletter(Form(form): Form<HashMap<String, String>>) -> Html<String> {
    let email = form.get("email").map(|e| e.trim()).unwrap_or_default();
    let content = if email.contains('@') {
        format!(
            r#"<h1>Thanks for subscribing!</h1><p class="ok">We'll write to {} about once a month.</p>"#,
            escape(email)
        )
    } else {
        r#"<h1>Newsletter</h1><p class="error">Please enter your email address.</p>"#.to_owned()
    };
    page("Newsletter", Nav::None, &content, "")
}

/// Pages link an empty data: icon, but a browser may still ask; a 404 here would be
/// an unseeded failure in every run.
pub(crate) async fn favicon() -> StatusCode {
    StatusCode::NO_CONTENT
}

/// Unknown paths are plain 404s; only the "Our story" link's target counts as the
/// seeded broken link.
pub(crate) async fn not_found(State(state): State<DemoState>, uri: Uri) -> Response {
    if uri.path() == OUR_STORY {
        state.truth.record(F4_BROKEN_LINK);
    }
    layout::not_found()
}
