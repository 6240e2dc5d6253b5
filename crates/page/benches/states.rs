//! State lookup in a large table: a page of about 3,000 tags among 2,000 known states
//! spread over 300 normalised URLs, Zipf-like (the busiest URL, an SPA root showing every
//! kind of view, holds about 300 states). Pages are generated from six page templates
//! (listing, table, article, form, dashboard, feed), each state a variation of one: how
//! many items, which optional blocks, small differences inside items, a few random edits.
//! The table is filled through `lookup` itself, so known states are as distinct as a real
//! run would make them.
//!
//! - `states_2000/lookup_existing`: a revisit (three tags changed) of a state of the
//!   busiest URL; `states_2000/lookup_new`: a fresh page there that matches none, so the
//!   new state is created (on a clone of the table, the clone not timed).
//! - `states_300_listings/lookup_new`: a harder case, 300 states of one template at one
//!   URL, so that every state passes the cheap bounds and is compared in full.
//! - `similarity_3000/*`: the pieces (indexing a known state, one full ratio, one
//!   quick_ratio, interning a page), to judge what is worth precomputing.
//!
//! Run: `cargo bench -p curio-page --bench states`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use curio_page::{IndexedSeq, Matcher, StateTable, StateTableConfig, TagInterner};

const STATES: usize = 2000;
const URLS: usize = 300;
const TARGET_TAGS: usize = 3000;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Emits tags in document order.
struct Page<'r> {
    tags: Vec<&'static str>,
    rng: &'r mut Rng,
}

impl Page<'_> {
    fn t(&mut self, tags: &[&'static str]) {
        self.tags.extend_from_slice(tags);
    }

    fn header(&mut self) {
        self.t(&["html", "body", "header", "div", "a", "img", "nav", "ul"]);
        for _ in 0..6 {
            self.t(&["li", "a"]);
        }
        self.t(&["div", "form", "input", "button", "span", "a", "span", "img"]);
        if self.rng.chance(30) {
            // An alert banner.
            self.t(&["div", "div", "span", "p", "a", "button", "span"]);
        }
        if self.rng.chance(40) {
            self.t(&["nav", "ol", "li", "a", "li", "a", "li", "span"]);
        }
    }

    fn footer(&mut self) {
        self.t(&["footer", "div"]);
        for _ in 0..3 {
            self.t(&["div", "h4", "ul"]);
            for _ in 0..5 {
                self.t(&["li", "a"]);
            }
        }
        self.t(&["div", "p", "span", "a", "a"]);
        if self.rng.chance(20) {
            // A cookie bar.
            self.t(&["div", "p", "a", "button", "button"]);
        }
        if self.rng.chance(15) {
            // A modal dialog left open.
            self.t(&["div", "div", "div", "h2", "button", "div", "p", "form"]);
            self.t(&["label", "input", "label", "input", "button"]);
        }
    }

    fn card(&mut self) {
        self.t(&["div", "a", "img"]);
        if self.rng.chance(25) {
            self.t(&["span"]); // badge
        }
        self.t(&["div", "h3", "a", "div", "span"]);
        if self.rng.chance(30) {
            self.t(&["del"]);
        }
        self.t(&["div"]);
        for _ in 0..5 {
            self.t(&["i"]);
        }
        self.t(&["span", "button", "span"]);
    }

    fn row(&mut self) {
        self.t(&["tr", "td", "input", "td", "a", "td", "span", "td", "span"]);
        let status = self.rng.pick(&["span", "strong", "em"]);
        self.t(&["td", status, "td", "img", "td", "button", "button"]);
        if self.rng.chance(20) {
            self.t(&["button"]);
        }
    }

    fn paragraph(&mut self) {
        self.t(&["p"]);
        for _ in 0..self.rng.below(4) {
            let inline = self.rng.pick(&["a", "span", "strong", "em", "code"]);
            self.t(&[inline]);
        }
    }

    fn field(&mut self) {
        self.t(&["div", "label"]);
        match self.rng.below(6) {
            0 => {
                self.t(&["select"]);
                for _ in 0..2 + self.rng.below(8) {
                    self.t(&["option"]);
                }
            }
            1 => self.t(&["textarea"]),
            2 => self.t(&["div", "input", "span", "input", "span"]),
            _ => self.t(&["input"]),
        }
        if self.rng.chance(30) {
            self.t(&["small"]);
        }
    }

    fn post(&mut self) {
        self.t(&["article", "header", "img", "div", "a", "span", "div"]);
        self.paragraph();
        if self.rng.chance(40) {
            self.paragraph();
        }
        if self.rng.chance(35) {
            self.t(&["div", "img"]);
        }
        self.t(&["footer", "button", "span", "button", "span", "button"]);
    }

    fn widget(&mut self) {
        self.t(&["div", "div", "h3", "span", "button", "div"]);
        match self.rng.below(3) {
            0 => self.t(&["canvas", "div", "span", "span", "span"]),
            1 => {
                self.t(&["ul"]);
                for _ in 0..3 + self.rng.below(6) {
                    self.t(&["li", "span", "a"]);
                }
            }
            _ => {
                self.t(&["table", "tbody"]);
                for _ in 0..3 + self.rng.below(4) {
                    self.t(&["tr", "td", "td", "td"]);
                }
            }
        }
    }

    /// The body of a template, repeating its item until the page has about `target` tags.
    fn body(&mut self, template: usize, target: usize) {
        match template {
            0 => {
                self.t(&["main", "aside", "form"]);
                for _ in 0..4 {
                    self.t(&["fieldset", "legend"]);
                    for _ in 0..6 {
                        self.t(&["label", "input", "span"]);
                    }
                }
                self.t(&["section", "div", "h1", "span", "select", "option", "option"]);
                self.t(&["div"]);
                while self.tags.len() < target {
                    self.card();
                }
                self.t(&["nav", "ul"]);
                for _ in 0..7 {
                    self.t(&["li", "a"]);
                }
            }
            1 => {
                self.t(&["main", "h1", "div", "form", "input", "select"]);
                self.t(&["option", "option", "option", "button", "a"]);
                self.t(&[
                    "table", "thead", "tr", "th", "th", "th", "th", "th", "th", "th",
                ]);
                self.t(&["tbody"]);
                while self.tags.len() < target {
                    self.row();
                }
                self.t(&["div", "span", "nav", "a", "a", "a", "a"]);
            }
            2 => {
                self.t(&["main", "article", "h1", "div", "span", "a", "span", "time"]);
                while self.tags.len() < target {
                    self.t(&["section", "h2"]);
                    for _ in 0..3 + self.rng.below(5) {
                        self.paragraph();
                    }
                    if self.rng.chance(50) {
                        self.t(&["figure", "img", "figcaption"]);
                    }
                    if self.rng.chance(30) {
                        self.t(&["blockquote", "p"]);
                    }
                }
                self.t(&["aside", "h3", "ul"]);
                for _ in 0..8 {
                    self.t(&["li", "a"]);
                }
            }
            3 => {
                self.t(&["main", "h1", "p", "form"]);
                while self.tags.len() < target {
                    self.t(&["fieldset", "legend"]);
                    for _ in 0..4 + self.rng.below(6) {
                        self.field();
                    }
                }
                self.t(&["div", "button", "button", "a"]);
            }
            4 => {
                self.t(&["main", "div", "h1", "div", "button", "button", "div"]);
                while self.tags.len() < target {
                    self.widget();
                }
            }
            _ => {
                self.t(&["main", "div", "form", "textarea", "button"]);
                while self.tags.len() < target {
                    self.post();
                }
                self.t(&["div", "button"]);
            }
        }
    }
}

const VOCAB: [&str; 14] = [
    "div", "span", "a", "li", "td", "tr", "p", "img", "button", "input", "ul", "i", "label", "em",
];

/// A page of `template`: chrome, body, footer, then a few random edits (a script-inserted
/// element, a missing icon, a changed wrapper).
fn generate(rng: &mut Rng, template: usize) -> Vec<String> {
    let target = TARGET_TAGS * (80 + rng.below(41)) / 100 - 60;
    let mut page = Page {
        tags: Vec::with_capacity(target + 200),
        rng,
    };
    page.header();
    page.body(template, target);
    page.footer();
    let mut tags = page.tags;
    for _ in 0..rng.below(6) {
        let at = rng.below(tags.len());
        let tag = VOCAB[rng.below(VOCAB.len())];
        match rng.below(3) {
            0 => {
                tags.remove(at);
            }
            1 => tags[at] = tag,
            _ => tags.insert(at, tag),
        }
    }
    tags.into_iter().map(str::to_string).collect()
}

/// A few local edits of a page, as a revisit of the same state would show.
fn revisit(rng: &mut Rng, page: &[String], edits: usize) -> Vec<String> {
    let mut out = page.to_vec();
    for _ in 0..edits {
        let at = rng.below(out.len());
        out[at] = VOCAB[rng.below(VOCAB.len())].to_string();
    }
    out
}

struct Fixture {
    table: StateTable,
    /// Pages that made the states of the busiest URL.
    busiest: Vec<Vec<String>>,
    busiest_url: String,
}

/// Zipf-like: URL `k` is chosen with weight 1 / (k + 1).
fn zipf(rng: &mut Rng, weights: &[f64], total: f64) -> usize {
    let mut x = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (k, w) in weights.iter().enumerate() {
        if x < *w {
            return k;
        }
        x -= w;
    }
    weights.len() - 1
}

fn fixture() -> Fixture {
    let mut rng = Rng(2024);
    let weights: Vec<f64> = (0..URLS).map(|k| 1.0 / (k as f64 + 1.0)).collect();
    let total: f64 = weights.iter().sum();
    let url = |k: usize| match k {
        0 => "http://app.test/app".to_string(),
        k => format!("http://app.test/section{}/page{k}", k % 7),
    };
    let mut table = StateTable::new(StateTableConfig::default());
    let mut busiest = Vec::new();
    let mut lookups = 0;
    while table.len() < STATES {
        let k = zipf(&mut rng, &weights, total);
        // The SPA root shows every kind of view; other URLs mostly their own template.
        let template = if k == 0 || rng.chance(10) {
            rng.below(6)
        } else {
            k % 6
        };
        let page = generate(&mut rng, template);
        lookups += 1;
        let m = table.lookup(&url(k), &page);
        if m.is_new && k == 0 {
            busiest.push(page);
        }
    }
    let per_url: Vec<usize> = (0..URLS).map(|k| table.states_of(&url(k)).len()).collect();
    let used = per_url.iter().filter(|&&n| n > 0).count();
    let tags: usize = (0..table.len() as u32)
        .filter_map(|id| table.tag_ids_of(curio_page::StateId(id)))
        .map(<[u32]>::len)
        .sum();
    eprintln!(
        "table: {} states from {lookups} lookups, {used} URLs, busiest URL {} states, \
         then {:?}...; {:.1} MB heap, of which {:.1} MB the tag sequences",
        table.len(),
        per_url[0],
        &per_url[1..6],
        table.heap_bytes() as f64 / 1e6,
        (tags * 4) as f64 / 1e6
    );
    Fixture {
        table,
        busiest,
        busiest_url: url(0),
    }
}

fn bench(c: &mut Criterion) {
    let Fixture {
        table,
        busiest,
        busiest_url,
    } = fixture();
    let mut rng = Rng(7);

    // A revisit of a state of the busiest URL: a known state, not identical.
    let existing = (0..200)
        .find_map(|i| {
            let page = revisit(&mut rng, &busiest[busiest.len() / 2 + i % 50], 3);
            let m = table.clone().lookup(&busiest_url, &page);
            (!m.is_new).then_some((page, m))
        })
        .expect("a revisit that matches");
    // A fresh page of the busiest URL that matches no state.
    let fresh = (0..200)
        .find_map(|_| {
            let template = rng.below(6);
            let page = generate(&mut rng, template);
            let m = table.clone().lookup(&busiest_url, &page);
            m.is_new.then_some(page)
        })
        .expect("a new page");
    eprintln!(
        "existing: {} tags, state {:?} at ratio {:.3}; new: {} tags",
        existing.0.len(),
        existing.1.id,
        existing.1.similarity,
        fresh.len()
    );

    // How much of the busiest URL the cheap bounds leave for a full comparison.
    let mut ids = Vec::new();
    table.interner().clone().intern_all(&fresh, &mut ids);
    let matcher = Matcher::with_a(&ids);
    let candidates = table.states_of(&busiest_url);
    let compared = candidates
        .iter()
        .filter_map(|&id| table.tag_ids_of(id))
        .filter(|seq| {
            let seq = IndexedSeq::new(seq.to_vec());
            matcher.real_quick_ratio(&seq) >= 0.8 && matcher.quick_ratio(&seq) >= 0.8
        })
        .count();
    eprintln!(
        "new page: {compared} of {} states pass real_quick_ratio and quick_ratio",
        candidates.len()
    );

    let mut group = c.benchmark_group("states_2000");
    group.sample_size(50);
    let mut known = table.clone();
    group.bench_function("lookup_existing", |b| {
        b.iter(|| black_box(known.lookup(&busiest_url, black_box(&existing.0))))
    });
    group.bench_function("lookup_new", |b| {
        b.iter_batched(
            || table.clone(),
            |mut t| {
                let m = t.lookup(&busiest_url, black_box(&fresh));
                // Returned, so that dropping the table is not timed.
                (t, black_box(m))
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();

    // A harder case: one URL whose 300 states are all listings, like the new page, so
    // that every state passes the cheap bounds and is compared in full.
    let mut rng = Rng(99);
    let mut listings = StateTable::default();
    while listings.len() < 300 {
        let page = generate(&mut rng, 0);
        listings.lookup("http://app.test/products", &page);
    }
    let listing = (0..200)
        .map(|_| generate(&mut rng, 0))
        .find(|page| {
            listings
                .clone()
                .lookup("http://app.test/products", page)
                .is_new
        })
        .expect("a new listing");
    let mut group = c.benchmark_group("states_300_listings");
    group.sample_size(50);
    group.bench_function("lookup_new", |b| {
        b.iter_batched(
            || listings.clone(),
            |mut t| {
                let m = t.lookup("http://app.test/products", black_box(&listing));
                (t, black_box(m))
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();

    // What the pieces cost, to judge what is worth precomputing.
    let mut interner = TagInterner::new();
    let mut a = Vec::new();
    let mut b_ids = Vec::new();
    interner.intern_all(&existing.0, &mut a);
    interner.intern_all(&busiest[busiest.len() / 2], &mut b_ids);
    let indexed = IndexedSeq::new(b_ids.clone());
    let mut matcher = Matcher::with_a(&a);
    let mut group = c.benchmark_group("similarity_3000");
    group.bench_function("index_b", |b| {
        b.iter(|| black_box(IndexedSeq::new(black_box(b_ids.clone()))))
    });
    group.bench_function("ratio", |b| {
        b.iter(|| black_box(matcher.ratio(black_box(&indexed))))
    });
    group.bench_function("quick_ratio", |b| {
        b.iter(|| black_box(matcher.quick_ratio(black_box(&indexed))))
    });
    group.bench_function("intern", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(existing.0.len());
            interner.intern_all(black_box(&existing.0), &mut out);
            black_box(out)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
