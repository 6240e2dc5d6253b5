//! Time to embed form labels with all-MiniLM-L6-v2 on the CPU: one short label, and a
//! batch of 30 (about one form's worth). Every iteration embeds texts not seen before,
//! so the embedder's cache does not answer.
//!
//! Needs the model installed (scripts/fetch-minilm).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use curio_forms::TextEmbedder;
use curio_minilm::MiniLmEmbedder;

const LABELS: [&str; 30] = [
    "Email address",
    "Password",
    "Confirm password",
    "First name",
    "Last name",
    "Phone number",
    "Date of birth",
    "Street address",
    "City",
    "Postal code",
    "Country",
    "Departure date",
    "Return date",
    "From",
    "To",
    "Number of passengers",
    "Card number",
    "Expiry date",
    "Security code",
    "Name on card",
    "Company",
    "Job title",
    "Website",
    "Message",
    "Subject",
    "Username",
    "Search",
    "Quantity",
    "Coupon code",
    "I accept the terms and conditions",
];

fn bench(c: &mut Criterion) {
    let dir = MiniLmEmbedder::default_dir();
    let model = MiniLmEmbedder::load(&dir)
        .unwrap_or_else(|e| panic!("{e}\nRun scripts/fetch-minilm to install all-MiniLM-L6-v2."));
    let mut n = 0u64;
    let mut fresh = |label: &str| {
        n += 1;
        format!("{label} {n}")
    };

    c.bench_function("embed one short label", |b| {
        b.iter_batched(
            || fresh("Email address"),
            |text| black_box(model.embed(&text)),
            criterion::BatchSize::SmallInput,
        )
    });
    c.bench_function("embed_batch of 30 labels", |b| {
        b.iter_batched(
            || LABELS.map(&mut fresh),
            |texts| black_box(model.embed_batch(&texts.each_ref().map(String::as_str))),
            criterion::BatchSize::SmallInput,
        )
    });
    c.bench_function("embed one cached label", |b| {
        model.embed("Email address");
        b.iter(|| black_box(model.embed(black_box("Email address"))))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(100);
    targets = bench
}
criterion_main!(benches);
