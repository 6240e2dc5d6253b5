//! Serves the demo and the testbed and checks them over real HTTP: pages, seeded
//! server-side faults, ground truth recording and its endpoints, and the testbed's
//! special responses. The tracker has its own file, `tracker.rs`.

mod common;

use std::collections::{BTreeSet, VecDeque};
use std::net::Ipv4Addr;
use std::time::{Duration, Instant};

use common::{
    TIMEOUT, assert_truth_only_in_scripts, attr_values, get, post, request_bytes, without_scripts,
};
use curio_subjects::{FaultKind, Subject, serve};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test]
async fn serve_binds_loopback_on_a_free_port() {
    let demo = serve(Subject::Demo).await.unwrap();
    let testbed = serve(Subject::Testbed).await.unwrap();
    for app in [&demo, &testbed] {
        let addr = app.addr();
        assert_eq!(addr.ip(), Ipv4Addr::LOCALHOST);
        assert_ne!(addr.port(), 0);
        assert_eq!(app.base_url(), format!("http://127.0.0.1:{}/", addr.port()));
        assert_eq!(app.url("/cart"), format!("{}cart", app.base_url()));
        assert_eq!(app.url("cart"), app.url("/cart"));
        assert_eq!(get(app, "/").await.status, 200);
    }
    assert_ne!(demo.addr().port(), testbed.addr().port());
    assert_eq!(demo.subject(), Subject::Demo);
    demo.shutdown().await;
    testbed.shutdown().await;
}

#[test]
fn subject_names_round_trip() {
    for subject in Subject::ALL {
        assert_eq!(subject.name().parse::<Subject>().unwrap(), subject);
        assert_eq!(subject.to_string(), subject.name());
    }
    assert_eq!("Demo".parse::<Subject>().unwrap(), Subject::Demo);
    assert!("shop".parse::<Subject>().is_err());
    assert_eq!(Subject::Demo.faults().len(), 5);
    assert!(Subject::Testbed.faults().is_empty());
}

#[tokio::test]
async fn demo_pages_render_their_elements() {
    let app = serve(Subject::Demo).await.unwrap();
    let nav = [
        r#"href="/""#,
        r#"href="/products""#,
        r#"href="/cart""#,
        r#"href="/contact""#,
        r#"href="/about""#,
        r#"id="newsletter-email""#,
        ">Subscribe</button>",
    ];
    let pages: [(&str, &[&str]); 10] = [
        (
            "/",
            &[
                "Featured",
                r#"href="/products/1""#,
                r#"href="/products/3""#,
                "disabled>Coming soon</button>",
            ],
        ),
        (
            "/products",
            &[
                r#"name="q""#,
                ">Search</button>",
                r#"href="/products?category=garden""#,
                "Pruning Shears",
            ],
        ),
        (
            "/products?category=garden",
            &["Herb Planter", "Garden products"],
        ),
        ("/products?q=mug", &["Enamel Coffee Mug", "1 result(s)"]),
        (
            "/products/3",
            &[
                "Herb Planter",
                r#"type="number""#,
                "Add to cart</button>",
                r#"id="add-wishlist""#,
                r#"id="share-wishlist" hidden"#,
                r#"id="load-reviews""#,
            ],
        ),
        (
            "/cart",
            &[
                "Your cart is empty",
                r#"id="coupon""#,
                "Apply coupon</button>",
            ],
        ),
        ("/checkout", &["Your cart is empty"]),
        (
            "/contact",
            &[
                r#"name="email""#,
                "<option>Order problem</option>",
                "<textarea",
                "Send</button>",
            ],
        ),
        ("/about", &[r#"<a href="/blog/our-story">Our story</a>"#]),
        (
            "/products?category=nope&q=%3Cb%3E",
            &["&lt;b&gt;", "No products match"],
        ),
    ];
    for (path, expected) in pages {
        let reply = get(&app, path).await;
        assert_eq!(reply.status, 200, "{path}");
        assert!(
            reply
                .header("content-type")
                .is_some_and(|ct| ct.starts_with("text/html")),
            "{path}"
        );
        for needle in nav.iter().chain(expected) {
            // The newsletter box is on the landing pages only.
            let landing = path == "/" || path == "/about";
            if !landing && (needle.contains("newsletter") || needle.contains("Subscribe")) {
                assert!(!reply.body.contains(needle), "{path} has {needle}");
                continue;
            }
            assert!(reply.body.contains(needle), "{path} lacks {needle}");
        }
        assert_truth_only_in_scripts(path, &reply.body);
    }
    assert_eq!(get(&app, "/products/99").await.status, 404);
    assert_eq!(get(&app, "/products/abc").await.status, 404);
    assert!(app.ground_truth().hits().is_empty());
    app.shutdown().await;
}

#[tokio::test]
async fn client_fault_scripts_beacon_their_ids() {
    let app = serve(Subject::Demo).await.unwrap();
    let garden = get(&app, "/products/3").await.body;
    assert!(garden.contains("var REVIEWS_FAULT = 'F5-rejection-reviews';"));
    assert!(garden.contains("curioTruth('F1-uncaught-wishlist')"));
    assert!(garden.contains("list.owner.shareId"));
    let kitchen = get(&app, "/products/1").await.body;
    assert!(kitchen.contains("var REVIEWS_FAULT = null;"));
    let cart = get(&app, "/cart").await.body;
    assert!(cart.contains("curioTruth('F2-console-coupon')"));
    assert!(cart.contains("console.error('coupon service: "));
    // Typed coupon codes and unsent contact drafts survive leaving the page.
    assert!(cart.contains("localStorage.setItem('curio-coupon'"));
    let contact = get(&app, "/contact").await.body;
    assert!(contact.contains("localStorage.setItem('curio-contact-draft'"));
    let sent = post(
        &app,
        "/contact",
        "email=ada%40example.com&subject=Returns&message=hi",
    )
    .await;
    assert!(
        sent.body
            .contains("localStorage.removeItem('curio-contact-draft')")
    );
    app.shutdown().await;
}

#[tokio::test]
async fn garden_reviews_are_malformed_json() {
    let app = serve(Subject::Demo).await.unwrap();
    for id in [3, 4, 8] {
        let reply = get(&app, &format!("/api/reviews/{id}")).await;
        assert_eq!(reply.status, 200);
        assert!(serde_json::from_str::<serde_json::Value>(&reply.body).is_err());
    }
    for id in [1, 2, 5, 6, 7] {
        let reply = get(&app, &format!("/api/reviews/{id}")).await;
        assert_eq!(reply.status, 200);
        let reviews: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
        assert_eq!(reviews.as_array().map(Vec::len), Some(2));
    }
    app.shutdown().await;
}

#[tokio::test]
async fn contact_answers_500_only_for_order_problems() {
    let app = serve(Subject::Demo).await.unwrap();
    let truth = app.ground_truth().clone();

    let bad_email = post(
        &app,
        "/contact",
        "name=Ada&email=ada.example.com&subject=Order+problem&message=Where+is+it",
    )
    .await;
    assert_eq!(bad_email.status, 200);
    assert!(
        bad_email
            .body
            .contains("Please enter a valid email address.")
    );
    assert!(bad_email.body.contains("ada.example.com"));

    let other = post(
        &app,
        "/contact",
        "name=Ada&email=ada%40example.com&subject=Product+question&message=Is+it+blue%3F",
    )
    .await;
    assert_eq!(other.status, 200);
    assert!(other.body.contains("Thanks, Ada!"));

    let with_order_number = post(
        &app,
        "/contact",
        "email=ada%40example.com&subject=Order+problem&message=Order+%231042+is+late",
    )
    .await;
    assert_eq!(with_order_number.status, 200);
    assert!(truth.hits().is_empty());

    let faulty = post(
        &app,
        "/contact",
        "name=&email=ada%40example.com&subject=Order+problem&message=Where+is+my+order%3F",
    )
    .await;
    assert_eq!(faulty.status, 500);
    assert!(faulty.body.contains("Internal Server Error"));
    let hits = truth.hits();
    assert_eq!(hits.len(), 1);
    assert_eq!((hits[0].id.as_str(), hits[0].count), ("F3-500-contact", 1));
    app.shutdown().await;
}

#[tokio::test]
async fn only_our_story_counts_as_the_broken_link() {
    let app = serve(Subject::Demo).await.unwrap();
    let other = get(&app, "/blog/other-story").await;
    assert_eq!(other.status, 404);
    assert!(app.ground_truth().hits().is_empty());

    let story = get(&app, "/blog/our-story").await;
    assert_eq!(story.status, 404);
    assert!(story.body.contains("Page not found"));
    assert!(story.body.contains(r#"href="/products""#));
    get(&app, "/blog/our-story").await;
    let hits = app.ground_truth().hits();
    assert_eq!(hits.len(), 1);
    assert_eq!((hits[0].id.as_str(), hits[0].count), ("F4-broken-link", 2));
    app.shutdown().await;
}

#[tokio::test]
async fn beacons_record_known_faults_and_truth_is_json() {
    let app = serve(Subject::Demo).await.unwrap();
    let known = post(&app, "/__truth/hit?f=F1-uncaught-wishlist", "").await;
    assert_eq!(known.status, 204);
    let unknown = post(&app, "/__truth/hit?f=F9-made-up", "").await;
    assert_eq!(unknown.status, 204);
    let missing = post(&app, "/__truth/hit", "").await;
    assert_eq!(missing.status, 204);
    post(&app, "/__truth/hit?f=F2-console-coupon", "").await;
    post(&app, "/__truth/hit?f=F2-console-coupon", "").await;

    let expected: BTreeSet<String> = ["F1-uncaught-wishlist", "F2-console-coupon"]
        .map(String::from)
        .into();
    assert_eq!(app.ground_truth().triggered_ids(), expected);

    let report = get(&app, "/__truth").await;
    assert_eq!(report.status, 200);
    assert!(
        report
            .header("content-type")
            .is_some_and(|ct| ct.starts_with("application/json"))
    );
    let json: serde_json::Value = serde_json::from_str(&report.body).unwrap();
    assert_eq!(json["subject"], "demo");
    let faults = json["faults"].as_array().unwrap();
    assert_eq!(faults.len(), 5);
    assert_eq!(faults[0]["id"], "F1-uncaught-wishlist");
    assert_eq!(faults[0]["kind"], "uncaught_exception");
    assert_eq!(faults[0]["depth_hint"], 3);
    let hits: Vec<curio_subjects::FaultHit> = serde_json::from_value(json["hits"].clone()).unwrap();
    assert_eq!(hits, app.ground_truth().hits());
    assert_eq!(hits[1].count, 2);

    let kinds: BTreeSet<FaultKind> = app.ground_truth().faults().iter().map(|f| f.kind).collect();
    assert_eq!(kinds.len(), 5, "one fault of each kind");
    app.shutdown().await;
}

#[tokio::test]
async fn cart_checkout_and_order() {
    let app = serve(Subject::Demo).await.unwrap();
    let added = post(&app, "/cart/add", "product_id=3&quantity=2").await;
    assert_eq!(added.status, 303);
    assert_eq!(added.header("location"), Some("/cart"));
    // Junk and huge quantities are clamped, unknown products ignored.
    post(&app, "/cart/add", "product_id=1&quantity=").await;
    post(&app, "/cart/add", "product_id=1&quantity=1000").await;
    let ignored = post(&app, "/cart/add", "product_id=42&quantity=1").await;
    assert_eq!(ignored.header("location"), Some("/products"));

    let cart = get(&app, "/cart").await.body;
    assert!(cart.contains("<td>Herb Planter</td><td>2</td><td>€49.00</td>"));
    assert!(cart.contains("<td>Enamel Coffee Mug</td><td>11</td>"));
    assert!(cart.contains(r#"aria-label="Remove Herb Planter""#));
    assert!(cart.contains(r#"<a href="/checkout">Checkout</a>"#));

    let checkout = get(&app, "/checkout").await.body;
    for field in [
        "name",
        "email",
        "address",
        "city",
        "postal_code",
        "country",
        "card_number",
    ] {
        assert!(checkout.contains(&format!(r#"name="{field}""#)), "{field}");
    }
    assert!(checkout.contains("Place order</button>"));

    let base = "name=Ada&email=ada%40example.com&address=Main+St+1&city=Berlin&postal_code=10115&country=Germany";
    let bad_card = post(&app, "/checkout", &format!("{base}&card_number=hello")).await;
    assert_eq!(bad_card.status, 200);
    assert!(bad_card.body.contains("Please check your card number."));
    assert!(bad_card.body.contains(r#"value="Berlin""#));

    let placed = post(
        &app,
        "/checkout",
        &format!("{base}&card_number=4111+1111+1111+1111"),
    )
    .await;
    assert_eq!(placed.status, 303);
    let location = placed.header("location").unwrap().to_owned();
    assert_eq!(location, "/orders/1001");
    let order = get(&app, &location).await;
    assert_eq!(order.status, 200);
    assert!(order.body.contains("Thank you, Ada!"));
    assert!(order.body.contains("#1001"));
    assert!(get(&app, "/cart").await.body.contains("Your cart is empty"));
    assert_eq!(get(&app, "/orders/999").await.status, 404);

    post(&app, "/cart/add", "product_id=5&quantity=1").await;
    post(&app, "/cart/remove", "product_id=5").await;
    assert!(get(&app, "/cart").await.body.contains("Your cart is empty"));
    assert!(app.ground_truth().hits().is_empty());
    app.shutdown().await;
}

#[tokio::test]
async fn newsletter_signup_works() {
    let app = serve(Subject::Demo).await.unwrap();
    let ok = post(&app, "/newsletter", "email=ada%40example.com").await;
    assert_eq!(ok.status, 200);
    assert!(ok.body.contains("Thanks for subscribing!"));
    let empty = post(&app, "/newsletter", "email=").await;
    assert_eq!(empty.status, 200);
    assert_eq!(get(&app, "/favicon.ico").await.status, 204);
    app.shutdown().await;
}

/// Follows every link and GET form a user can see, from the home page: all of them work
/// except the seeded broken link, and none leads to the truth endpoints.
#[tokio::test]
async fn every_visible_demo_link_works_except_the_seeded_one() {
    let app = serve(Subject::Demo).await.unwrap();
    // With something in the cart, the checkout link shows too.
    post(&app, "/cart/add", "product_id=2&quantity=1").await;
    let mut seen = BTreeSet::from(["/".to_owned()]);
    let mut queue = VecDeque::from(["/".to_owned()]);
    let mut broken = Vec::new();
    while let Some(path) = queue.pop_front() {
        let reply = get(&app, &path).await;
        if reply.status != 200 {
            broken.push((path, reply.status));
            continue;
        }
        assert_truth_only_in_scripts(&path, &reply.body);
        let markup = without_scripts(&reply.body);
        let mut next: Vec<String> = attr_values(&markup, "href")
            .into_iter()
            .filter(|href| href.starts_with('/'))
            .map(|href| href.replace("&amp;", "&"))
            .collect();
        // The search form, submitted with a plausible query.
        if markup.contains(r#"action="/products" method="get""#) {
            next.push("/products?q=lamp".to_owned());
        }
        for link in next {
            if seen.len() < 100 && seen.insert(link.clone()) {
                queue.push_back(link);
            }
        }
    }
    assert!(seen.contains("/checkout"), "{seen:?}");
    assert!(seen.contains("/products/8"), "{seen:?}");
    assert_eq!(broken, vec![("/blog/our-story".to_owned(), 404)]);
    assert_eq!(
        app.ground_truth().triggered_ids(),
        BTreeSet::from(["F4-broken-link".to_owned()])
    );
    app.shutdown().await;
}

#[tokio::test]
async fn testbed_index_links_every_page() {
    let app = serve(Subject::Testbed).await.unwrap();
    let index = get(&app, "/").await;
    assert_eq!(index.status, 200);
    let links = attr_values(&index.body, "href");
    let pages: [(&str, &[&str]); 19] = [
        ("/t/ok", &[r#"id="go""#, r#"id="result""#]),
        ("/t/link", &[r#"id="next" href="/t/ok""#]),
        (
            "/t/exception",
            &[r#"id="boom""#, "throw new Error('testbed boom')"],
        ),
        (
            "/t/console",
            &[r#"id="log""#, "console.error('testbed console error')"],
        ),
        (
            "/t/rejection",
            &[
                r#"id="reject""#,
                "Promise.reject(new Error('testbed rejection'))",
            ],
        ),
        (
            "/t/fetch-status/404",
            &[r#"id="fetch""#, "fetch('/t/status/404')"],
        ),
        ("/t/alert", &[r#"id="open""#, "alert("]),
        ("/t/confirm", &[r#"id="open""#, "confirm("]),
        ("/t/prompt", &[r#"id="open""#, "prompt("]),
        (
            "/t/beforeunload",
            &[r#"id="arm""#, r#"id="leave" href="/t/ok""#, "returnValue"],
        ),
        (
            "/t/popup",
            &[
                r#"id="popup""#,
                "window.open('/t/ok')",
                r#"target="_blank""#,
            ],
        ),
        ("/t/hang", &[r#"src="/t/slow-resource""#, r#"id="go""#]),
        (
            "/t/moving",
            &[
                r#"id="runaway""#,
                r#"id="covered""#,
                r#"id="overlay""#,
                "mouseover",
            ],
        ),
        ("/t/crash", &["Crash"]),
        (
            "/t/form",
            &[
                r#"type="email""#,
                r#"type="number" min="1" max="10""#,
                "<select",
                r#"type="checkbox""#,
                "<textarea",
            ],
        ),
        (
            "/t/third-party",
            &[
                "http://localhost:9/font.css",
                "http://127.0.0.1:9/widget.js",
                "http://127.0.0.1:9/pixel.png",
            ],
        ),
        ("/t/iframe", &[r#"<iframe id="frame" src="/t/ok""#]),
        ("/t/delayed", &[r#"id="load""#, "p.id = 'done'", "300"]),
        ("/t/slow-nav", &[r#"id="slow" href="/t/slow-page""#]),
    ];
    for (path, expected) in pages {
        assert!(links.contains(&path), "index lacks {path}");
        let reply = get(&app, path).await;
        assert_eq!(reply.status, 200, "{path}");
        for needle in expected {
            assert!(reply.body.contains(needle), "{path} lacks {needle}");
        }
        assert_truth_only_in_scripts(path, &reply.body);
    }
    for path in [
        "/t/never",
        "/t/redirect-loop",
        "/t/status/500",
        "/t/slow-page",
    ] {
        assert!(links.contains(&path), "index lacks {path}");
    }
    let truth = get(&app, "/__truth").await;
    let json: serde_json::Value = serde_json::from_str(&truth.body).unwrap();
    assert_eq!(json["subject"], "testbed");
    assert_eq!(json["faults"].as_array().map(Vec::len), Some(0));
    app.shutdown().await;
}

#[tokio::test]
async fn testbed_statuses_and_redirects() {
    let app = serve(Subject::Testbed).await.unwrap();
    for code in [200, 404, 418, 500, 503] {
        let reply = get(&app, &format!("/t/status/{code}")).await;
        assert_eq!(reply.status, code);
        assert!(reply.body.contains(&format!("Status {code}")));
    }
    assert_eq!(get(&app, "/t/status/204").await.status, 204);
    assert_eq!(get(&app, "/t/status/99").await.status, 400);
    assert_eq!(get(&app, "/t/status/abc").await.status, 400);

    let first = get(&app, "/t/redirect-loop").await;
    assert_eq!(first.status, 302);
    assert_eq!(first.header("location"), Some("/t/redirect-loop2"));
    let second = get(&app, "/t/redirect-loop2").await;
    assert_eq!(second.status, 302);
    assert_eq!(second.header("location"), Some("/t/redirect-loop"));

    let start = Instant::now();
    let slow = get(&app, "/t/slow-page").await;
    assert_eq!(slow.status, 200);
    assert!(start.elapsed() >= Duration::from_millis(450));
    app.shutdown().await;
}

#[tokio::test]
async fn testbed_form_echoes_fields() {
    let app = serve(Subject::Testbed).await.unwrap();
    let reply = post(
        &app,
        "/t/form",
        "name=Ada+Lovelace&email=ada%40example.com&qty=3&color=green&agree=yes&comment=a%3Cb%3E%0Aline",
    )
    .await;
    assert_eq!(reply.status, 200);
    assert!(reply.body.contains(
        "<pre id=\"echo\">name=Ada Lovelace\nemail=ada@example.com\nqty=3\ncolor=green\nagree=yes\ncomment=a&lt;b&gt;\nline\n</pre>"
    ));
    app.shutdown().await;
}

#[tokio::test]
async fn testbed_booking_fails_only_for_a_realistic_submission() {
    let app = serve(Subject::Testbed).await.unwrap();
    let good = "fullname=Ada+Lovelace&mail=ada%40example.com&checkin=2027-03-01&checkout=2027-03-04&guests=2&zip=94107";
    assert_eq!(post(&app, "/t/booking", good).await.status, 500);
    for bad in [
        "fullname=hello&mail=ada%40example.com&checkin=2027-03-01&checkout=2027-03-04&guests=2&zip=94107",
        "fullname=Ada+Lovelace&mail=hello&checkin=2027-03-01&checkout=2027-03-04&guests=2&zip=94107",
        "fullname=Ada+Lovelace&mail=ada%40example.com&checkin=2027-03-04&checkout=2027-03-01&guests=2&zip=94107",
        "fullname=Ada+Lovelace&mail=ada%40example.com&checkin=2027-03-01&checkout=2027-03-04&guests=20&zip=94107",
        "fullname=Ada+Lovelace&mail=ada%40example.com&checkin=2027-03-01&checkout=2027-03-04&guests=2&zip=hello",
        "",
    ] {
        let reply = post(&app, "/t/booking", bad).await;
        assert_eq!(reply.status, 200, "{bad}");
        assert!(reply.body.contains(r#"class="error""#), "{bad}");
    }
    app.shutdown().await;
}

/// `/t/never` sends part of a document and stalls, `/t/slow-resource` sends nothing;
/// shutdown still completes at once because both watch for it.
#[tokio::test]
async fn stalling_responses_stall_until_shutdown() {
    let app = serve(Subject::Testbed).await.unwrap();
    let addr = app.addr();

    let mut never = TcpStream::connect(addr).await.unwrap();
    never
        .write_all(&request_bytes(addr, "GET", "/t/never", None))
        .await
        .unwrap();
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    while !String::from_utf8_lossy(&received).contains("partial content") {
        let n = tokio::time::timeout(TIMEOUT, never.read(&mut buf))
            .await
            .expect("first part in time")
            .unwrap();
        assert_ne!(n, 0, "closed before the first part");
        received.extend_from_slice(&buf[..n]);
    }
    let head = String::from_utf8_lossy(&received).into_owned();
    assert!(head.starts_with("HTTP/1.1 200"));
    assert!(head.contains("text/html"));
    assert!(!head.contains("</html>"));
    let more = tokio::time::timeout(Duration::from_millis(300), never.read(&mut buf)).await;
    assert!(more.is_err(), "the document went on: {more:?}");

    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(&request_bytes(addr, "GET", "/t/slow-resource", None))
        .await
        .unwrap();
    let nothing = tokio::time::timeout(Duration::from_millis(300), slow.read(&mut buf)).await;
    assert!(nothing.is_err(), "slow resource answered: {nothing:?}");

    let start = Instant::now();
    app.shutdown().await;
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "shutdown took {:?}",
        start.elapsed()
    );
}
