//! Snapshot and page model of a generated page of 5,000 elements, measured apart so the
//! model's share of a step is visible. Run: `cargo bench -p curio-browser --bench snapshot`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use curio_browser::{Browser, BrowserConfig};
use curio_page::Page;

/// A page of `n` elements in the mix a real app has: sections of headings, text,
/// links, buttons, forms with labelled inputs, and table rows.
fn generated_page(n: usize) -> String {
    let mut body = String::new();
    let mut count = 0;
    let mut i = 0;
    while count < n {
        body.push_str(&format!(
            "<section><h2>Section {i}</h2><p>Some text for item {i} with <a href=\"/item/{i}\">a link</a>.</p>\
             <form><label for=\"f{i}\">Field {i}</label><input id=\"f{i}\" name=\"f{i}\" type=\"text\">\
             <select name=\"s{i}\"><option>A</option><option>B</option></select>\
             <button type=\"submit\">Save {i}</button></form>\
             <table><tr><td>Row {i}</td><td><button onclick=\"void 0\">Edit</button></td></tr></table></section>"
        ));
        count += 15; // elements per section, counted from the markup above
        i += 1;
    }
    body
}

fn bench(c: &mut Criterion) {
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let browser = rt
        .block_on(Browser::start(BrowserConfig::builder().build()))
        .expect("launch chromium");
    let tab = rt.block_on(browser.new_tab()).expect("tab");
    let html = generated_page(5000);
    let js = format!(
        "document.body.innerHTML = {}; document.querySelectorAll('*').length",
        serde_json::to_string(&html).expect("json")
    );
    let elements = rt.block_on(tab.evaluate(&js)).expect("render");
    eprintln!("generated page: {elements} elements");

    let mut group = c.benchmark_group("page_5000_elements");
    group.sample_size(30);
    group.bench_function("snapshot", |b| {
        b.iter(|| black_box(rt.block_on(tab.snapshot()).expect("snapshot")))
    });
    let capture = rt.block_on(tab.snapshot()).expect("snapshot");
    group.bench_function("model", |b| {
        b.iter(|| black_box(Page::from_snapshot(black_box(&capture.snapshot))))
    });
    group.finish();
    let page = Page::from_snapshot(&capture.snapshot);
    eprintln!(
        "model: {} actions, {} forms, {} texts",
        page.actions.len(),
        page.forms.len(),
        page.texts.len()
    );
    rt.block_on(tab.close());
    rt.block_on(browser.close());
}

criterion_group!(benches, bench);
criterion_main!(benches);
