//! Query forms: a site search (page JavaScript for the empty query, the server for
//! the rest), a job search laid out in a table (server-side), and a library catalogue's
//! advanced search (native validation of the years, the server for the ISBN and the
//! year order). All three submit with GET, so their results have addresses.

use std::collections::HashMap;

use axum::Router;
use axum::extract::{Query, State};
use axum::response::Html;
use axum::routing::get;

use super::common::{
    civil_from_days, js_string, native_truth_script, raw_value, selected, today, value,
};
use super::{FormCategory, Gallery, GalleryForm, page};
use crate::ground_truth::FssSpec;
use crate::html::escape;

pub(super) const FORMS: &[GalleryForm] = &[
    GalleryForm {
        id: "search",
        category: FormCategory::Query,
        title: "Search articles",
        path: "/forms/search",
    },
    GalleryForm {
        id: "jobs",
        category: FormCategory::Query,
        title: "Find a job",
        path: "/forms/jobs",
    },
    GalleryForm {
        id: "library",
        category: FormCategory::Query,
        title: "Library catalogue: advanced search",
        path: "/forms/library",
    },
];

pub(super) const STATES: &[FssSpec] = &[
    FssSpec {
        id: "search.results",
        form: "search",
        success: true,
        description: "Results list \"N results for «x»\": a term of 2-100 characters that \
                      some article contains, e.g. bread, tomatoes, compost (all categories or \
                      the matching one).",
    },
    FssSpec {
        id: "search.no-results",
        form: "search",
        success: false,
        description: "\"No results for «x». Check the spelling or try a more general \
                      word.\": a valid term no article (of the chosen category) contains, e.g. \
                      qwerty, or bread under News.",
    },
    FssSpec {
        id: "search.empty",
        form: "search",
        success: false,
        description: "\"Please enter a search term\" (page JS, and the server for q= in the \
                      address): query empty or only spaces.",
    },
    FssSpec {
        id: "search.too-short",
        form: "search",
        success: false,
        description: "Server \"Search terms need at least 2 characters\": a 1-character query \
                      (after trimming).",
    },
    FssSpec {
        id: "search.too-long",
        form: "search",
        success: false,
        description: "Server \"That search is too long. Try fewer than 100 characters.\": a \
                      query over 100 characters.",
    },
    FssSpec {
        id: "jobs.results",
        form: "jobs",
        success: true,
        description: "Results page \"N jobs found\" with a table (N may be 0): keywords or a \
                      location or Remote only, salaries empty or whole numbers with min <= \
                      max, e.g. keywords engineer, location Austin, 80000 to 150000.",
    },
    FssSpec {
        id: "jobs.no-criteria",
        form: "jobs",
        success: false,
        description: "\"Enter a keyword or a location to start your search.\": keywords and \
                      location empty or only spaces and Remote only unchecked.",
    },
    FssSpec {
        id: "jobs.salary-format",
        form: "jobs",
        success: false,
        description: "Inline \"Use whole numbers for salaries, like 65000.\": a salary that \
                      is not a whole number (letters, decimals; commas and a leading $ are \
                      fine).",
    },
    FssSpec {
        id: "jobs.salary-negative",
        form: "jobs",
        success: false,
        description: "Inline \"Salary can't be negative.\": a negative minimum or maximum \
                      salary.",
    },
    FssSpec {
        id: "jobs.salary-range",
        form: "jobs",
        success: false,
        description: "Inline \"Minimum salary can't be more than maximum.\": both salaries \
                      valid and min > max.",
    },
    FssSpec {
        id: "library.results",
        form: "library",
        success: true,
        description: "Results \"Found N titles\" with a table (N may be 0): any of title, \
                      author, a valid ISBN or years 1450..this year with from <= to, e.g. \
                      author Austen, or title pride.",
    },
    FssSpec {
        id: "library.no-criteria",
        form: "library",
        success: false,
        description: "Server \"Fill in at least one field to search the catalogue.\": every \
                      field empty or only spaces.",
    },
    FssSpec {
        id: "library.isbn-invalid",
        form: "library",
        success: false,
        description: "Server inline \"ISBNs have 10 or 13 digits (hyphens are fine)...\": an \
                      ISBN that, without hyphens and spaces, is not 13 digits or 9 digits \
                      plus a digit or X.",
    },
    FssSpec {
        id: "library.years-reversed",
        form: "library",
        success: false,
        description: "Server inline \"The from year can't be later than the to year.\": \
                      year from > year to.",
    },
    FssSpec {
        id: "library.from-too-early",
        form: "library",
        success: false,
        description: "Native \"Value must be greater than or equal to 1450\" on From year: a \
                      year before 1450.",
    },
    FssSpec {
        id: "library.from-too-late",
        form: "library",
        success: false,
        description: "Native \"Value must be less than or equal to <this year>\" on From year: \
                      a future year.",
    },
    FssSpec {
        id: "library.from-not-whole",
        form: "library",
        success: false,
        description: "Native step message \"Please enter a valid value. The two nearest valid \
                      values are...\" on From year: a fractional year, e.g. 1999.5.",
    },
    FssSpec {
        id: "library.to-too-early",
        form: "library",
        success: false,
        description: "Native \"Value must be greater than or equal to 1450\" on To year: a \
                      year before 1450.",
    },
    FssSpec {
        id: "library.to-too-late",
        form: "library",
        success: false,
        description: "Native \"Value must be less than or equal to <this year>\" on To year: a \
                      future year.",
    },
    FssSpec {
        id: "library.to-not-whole",
        form: "library",
        success: false,
        description: "Native step message \"Please enter a valid value...\" on To year: a \
                      fractional year, e.g. 1999.5.",
    },
];

pub(super) fn routes() -> Router<Gallery> {
    Router::new()
        .route("/forms/search", get(search))
        .route("/forms/jobs", get(jobs_form))
        .route("/forms/jobs/results", get(jobs_results))
        .route("/forms/library", get(library_form))
        .route("/forms/library/results", get(library_results))
}

fn checked(on: bool) -> &'static str {
    if on { " checked" } else { "" }
}

/// Whether every whitespace-separated term of `query` occurs in one of `texts`.
fn matches_all(query: &str, texts: &[&str]) -> bool {
    let haystack = texts.join(" ").to_lowercase();
    query
        .split_whitespace()
        .all(|term| haystack.contains(&term.to_lowercase()))
}

// ---------------------------------------------------------------------------------------
// Site search.

struct Article {
    title: &'static str,
    category: &'static str,
    summary: &'static str,
}

const ARTICLE_CATEGORIES: [(&str, &str); 3] = [
    ("guides", "Guides"),
    ("recipes", "Recipes"),
    ("news", "News"),
];

const ARTICLES: [Article; 12] = [
    Article {
        title: "Sourdough bread for beginners",
        category: "recipes",
        summary: "A forgiving starter, one loaf, no special tools.",
    },
    Article {
        title: "Quick flatbread in a frying pan",
        category: "recipes",
        summary: "Bread in twenty minutes with flour, yoghurt and salt.",
    },
    Article {
        title: "Roasted tomato soup",
        category: "recipes",
        summary: "Sweet late-summer tomatoes, garlic and a little basil.",
    },
    Article {
        title: "Lemon drizzle cake",
        category: "recipes",
        summary: "A weekend bake that keeps for days.",
    },
    Article {
        title: "Growing tomatoes on a balcony",
        category: "guides",
        summary: "Pots, sun and watering for a good crop in small spaces.",
    },
    Article {
        title: "Compost in ten minutes a week",
        category: "guides",
        summary: "Hot and cold compost, what goes in and what stays out.",
    },
    Article {
        title: "Pruning fruit trees in winter",
        category: "guides",
        summary: "When and where to cut apple and pear trees.",
    },
    Article {
        title: "Brewing better coffee at home",
        category: "guides",
        summary: "Grind size, water temperature and the pour-over method.",
    },
    Article {
        title: "Community garden opens its gates",
        category: "news",
        summary: "Forty new plots for the neighbourhood, with a shared tool shed.",
    },
    Article {
        title: "Bakery prize for our readers' bread",
        category: "news",
        summary: "Three readers won the regional home-baking contest.",
    },
    Article {
        title: "Farmers' market moves to Saturdays",
        category: "news",
        summary: "More stalls, more coffee, and an earlier start.",
    },
    Article {
        title: "Seed swap this spring",
        category: "news",
        summary: "Bring seeds from your garden, take home something new.",
    },
];

const SEARCH_EMPTY: &str = "Please enter a search term";

async fn search(
    State(state): State<Gallery>,
    Query(params): Query<HashMap<String, String>>,
) -> Html<String> {
    let raw = raw_value(&params, "q");
    let query = raw.trim();
    let category = raw_value(&params, "category");
    let mut message = String::new();
    let mut results = String::new();
    if params.contains_key("q") {
        let length = query.chars().count();
        if length == 0 {
            state.hit("search.empty");
            message = SEARCH_EMPTY.to_owned();
        } else if length < 2 {
            state.hit("search.too-short");
            message = "Search terms need at least 2 characters".to_owned();
        } else if length > 100 {
            state.hit("search.too-long");
            message = "That search is too long. Try fewer than 100 characters.".to_owned();
        } else {
            let found: Vec<&Article> = ARTICLES
                .iter()
                .filter(|a| category.is_empty() || a.category == category)
                .filter(|a| matches_all(query, &[a.title, a.summary]))
                .collect();
            if found.is_empty() {
                state.hit("search.no-results");
                results = format!(
                    r#"<p role="status">No results for «{}». Check the spelling or try a more general word.</p>"#,
                    escape(query)
                );
            } else {
                state.hit("search.results");
                let items: String = found
                    .iter()
                    .map(|a| {
                        let label = ARTICLE_CATEGORIES
                            .iter()
                            .find(|(id, _)| *id == a.category)
                            .map_or("", |(_, label)| *label);
                        format!(
                            "<li><strong>{}</strong> <small>({label})</small><br>{}</li>",
                            escape(a.title),
                            escape(a.summary)
                        )
                    })
                    .collect();
                let plural = if found.len() == 1 { "" } else { "s" };
                results = format!(
                    r#"<p role="status">{} result{plural} for «{}»</p><ul class="results">{items}</ul>"#,
                    found.len(),
                    escape(query)
                );
            }
        }
    }
    let options: String = ARTICLE_CATEGORIES
        .iter()
        .map(|(id, label)| {
            format!(
                r#"<option value="{id}"{}>{label}</option>"#,
                selected(*id == category)
            )
        })
        .collect();
    let body = format!(
        r#"<p>Recipes, gardening guides and news from the Curio kitchen garden.</p>
<form id="search-form" role="search" method="get" action="/forms/search">
<input type="search" name="q" aria-label="Search" placeholder="Search articles" size="30" value="{q}">
<select name="category" aria-label="Category"><option value="">All categories</option>{options}</select>
<button type="submit">Search</button>
<p class="error" id="search-error" role="alert">{message}</p>
</form>
{results}
<script>
(function () {{
  var form = document.getElementById('search-form');
  var error = document.getElementById('search-error');
  form.addEventListener('submit', function (e) {{
    if (form.elements['q'].value.trim() === '') {{
      e.preventDefault();
      curioTruth('search.empty');
      error.textContent = {empty};
    }}
  }});
}})();
</script>"#,
        q = escape(raw),
        message = escape(&message),
        empty = js_string(SEARCH_EMPTY),
    );
    page("Search articles", &body)
}

// ---------------------------------------------------------------------------------------
// Job search.

struct Job {
    title: &'static str,
    company: &'static str,
    location: &'static str,
    remote: bool,
    salary: (i64, i64),
}

const JOBS: [Job; 12] = [
    Job {
        title: "Senior Software Engineer",
        company: "Brightline Health",
        location: "Austin, TX",
        remote: false,
        salary: (140_000, 175_000),
    },
    Job {
        title: "Software Engineer, Payments",
        company: "Ledgerly",
        location: "New York, NY",
        remote: true,
        salary: (120_000, 150_000),
    },
    Job {
        title: "Frontend Engineer",
        company: "Paperkite",
        location: "Remote",
        remote: true,
        salary: (95_000, 125_000),
    },
    Job {
        title: "Data Analyst",
        company: "Northwind Foods",
        location: "Chicago, IL",
        remote: false,
        salary: (70_000, 85_000),
    },
    Job {
        title: "Product Designer",
        company: "Paperkite",
        location: "San Francisco, CA",
        remote: true,
        salary: (110_000, 140_000),
    },
    Job {
        title: "Customer Support Specialist",
        company: "Ledgerly",
        location: "Austin, TX",
        remote: true,
        salary: (45_000, 55_000),
    },
    Job {
        title: "Registered Nurse",
        company: "St. Anne's Hospital",
        location: "Boston, MA",
        remote: false,
        salary: (80_000, 98_000),
    },
    Job {
        title: "Warehouse Team Lead",
        company: "Northwind Foods",
        location: "Columbus, OH",
        remote: false,
        salary: (52_000, 60_000),
    },
    Job {
        title: "Marketing Manager",
        company: "Greenfield Outdoors",
        location: "Denver, CO",
        remote: false,
        salary: (85_000, 105_000),
    },
    Job {
        title: "DevOps Engineer",
        company: "Cloudberry",
        location: "Seattle, WA",
        remote: true,
        salary: (130_000, 160_000),
    },
    Job {
        title: "Junior Accountant",
        company: "Hale & Moss LLP",
        location: "Chicago, IL",
        remote: false,
        salary: (55_000, 65_000),
    },
    Job {
        title: "Elementary School Teacher",
        company: "Maple Grove Schools",
        location: "Austin, TX",
        remote: false,
        salary: (48_000, 62_000),
    },
];

const SALARY_FORMAT: &str = "Use whole numbers for salaries, like 65000.";
const SALARY_NEGATIVE: &str = "Salary can't be negative.";

/// A salary field: `Ok(None)` when empty; commas, spaces and a leading `$` are allowed.
fn parse_salary(text: &str) -> Result<Option<i64>, (&'static str, &'static str)> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, text),
    };
    let digits: String = rest
        .strip_prefix('$')
        .unwrap_or(rest)
        .chars()
        .filter(|c| *c != ',' && *c != ' ')
        .collect();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(("jobs.salary-format", SALARY_FORMAT));
    }
    let value: i64 = digits
        .parse()
        .map_err(|_| ("jobs.salary-format", SALARY_FORMAT))?;
    if negative && value > 0 {
        return Err(("jobs.salary-negative", SALARY_NEGATIVE));
    }
    Ok(Some(value))
}

fn jobs_page(
    values: &HashMap<String, String>,
    errors: &HashMap<&str, &str>,
    results: &str,
) -> Html<String> {
    let v = |name: &str| escape(raw_value(values, name));
    let e = |name: &str| {
        errors
            .get(name)
            .map(|m| format!(r#"<span class="error">{}</span>"#, escape(m)))
            .unwrap_or_default()
    };
    let banner = errors
        .get("")
        .map(|m| format!(r#"<p class="error" role="alert">{}</p>"#, escape(m)))
        .unwrap_or_default();
    let body = format!(
        r#"<p>Search 12 open positions from employers across the US.</p>
{banner}<form method="get" action="/forms/jobs/results">
<table class="search">
<tr><td><label for="j-keywords">Keywords</label></td><td><input id="j-keywords" name="keywords" placeholder="Job title, skill or company" size="30" value="{keywords}"></td><td></td></tr>
<tr><td>Where</td><td><input name="location" placeholder="City or state" autocomplete="address-level2" value="{location}"></td><td></td></tr>
<tr><td>Salary from</td><td>$ <input name="min_salary" inputmode="numeric" placeholder="e.g. 60000" size="10" value="{min}"> per year</td><td>{min_error}</td></tr>
<tr><td>Salary up to</td><td>$ <input name="max_salary" inputmode="numeric" placeholder="e.g. 90000" size="10" value="{max}"> per year</td><td>{max_error}</td></tr>
<tr><td></td><td><label><input type="checkbox" name="remote" value="1"{remote}> Remote only</label></td><td></td></tr>
<tr><td></td><td><button type="submit">Search jobs</button></td><td></td></tr>
</table>
</form>
{results}"#,
        keywords = v("keywords"),
        location = v("location"),
        min = v("min_salary"),
        max = v("max_salary"),
        min_error = e("min_salary"),
        max_error = e("max_salary"),
        remote = checked(!raw_value(values, "remote").is_empty()),
    );
    page("Find a job", &body)
}

async fn jobs_form() -> Html<String> {
    jobs_page(&HashMap::new(), &HashMap::new(), "")
}

/// (field or "" for the whole form, state, message) of every problem of a job search.
type Problem = (&'static str, &'static str, &'static str);

fn job_problems(params: &HashMap<String, String>) -> (Vec<Problem>, Option<i64>, Option<i64>) {
    let mut problems = Vec::new();
    let keywords = value(params, "keywords");
    let location = value(params, "location");
    let remote = !raw_value(params, "remote").is_empty();
    if keywords.is_empty() && location.is_empty() && !remote {
        problems.push((
            "",
            "jobs.no-criteria",
            "Enter a keyword or a location to start your search.",
        ));
    }
    let mut salary = |name: &'static str| match parse_salary(raw_value(params, name)) {
        Ok(value) => value,
        Err((id, message)) => {
            problems.push((name, id, message));
            None
        }
    };
    let min = salary("min_salary");
    let max = salary("max_salary");
    if let (Some(lo), Some(hi)) = (min, max)
        && lo > hi
    {
        problems.push((
            "min_salary",
            "jobs.salary-range",
            "Minimum salary can't be more than maximum.",
        ));
    }
    (problems, min, max)
}

async fn jobs_results(
    State(state): State<Gallery>,
    Query(params): Query<HashMap<String, String>>,
) -> Html<String> {
    let (problems, min, max) = job_problems(&params);
    if !problems.is_empty() {
        let mut errors = HashMap::new();
        for (name, id, message) in problems {
            state.hit(id);
            errors.insert(name, message);
        }
        return jobs_page(&params, &errors, "");
    }
    state.hit("jobs.results");
    let keywords = value(&params, "keywords");
    let location = value(&params, "location").to_lowercase();
    let remote = !raw_value(&params, "remote").is_empty();
    let found: Vec<&Job> = JOBS
        .iter()
        .filter(|j| matches_all(keywords, &[j.title, j.company]))
        .filter(|j| j.location.to_lowercase().contains(&location))
        .filter(|j| !remote || j.remote)
        .filter(|j| min.is_none_or(|m| j.salary.1 >= m))
        .filter(|j| max.is_none_or(|m| j.salary.0 <= m))
        .collect();
    let rows: String = found
        .iter()
        .map(|j| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}{}</td><td>${} – ${}</td></tr>",
                escape(j.title),
                escape(j.company),
                escape(j.location),
                if j.remote { " (remote possible)" } else { "" },
                thousands(j.salary.0),
                thousands(j.salary.1),
            )
        })
        .collect();
    let count = match found.len() {
        1 => "1 job found".to_owned(),
        n => format!("{n} jobs found"),
    };
    let table = if found.is_empty() {
        "<p>Try fewer keywords or a wider salary range.</p>".to_owned()
    } else {
        format!(
            "<table class=\"results\"><tr><th>Job</th><th>Company</th><th>Location</th><th>Salary</th></tr>{rows}</table>"
        )
    };
    let results = format!(r#"<h2 role="status">{count}</h2>{table}"#);
    jobs_page(&params, &HashMap::new(), &results)
}

/// `65000` -> `65,000`.
fn thousands(n: i64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

// ---------------------------------------------------------------------------------------
// Library catalogue.

struct Book {
    title: &'static str,
    author: &'static str,
    /// Digits only.
    isbn13: &'static str,
    year: i64,
}

const BOOKS: [Book; 12] = [
    Book {
        title: "Pride and Prejudice",
        author: "Jane Austen",
        isbn13: "9780141439518",
        year: 1813,
    },
    Book {
        title: "Emma",
        author: "Jane Austen",
        isbn13: "9780141439587",
        year: 1815,
    },
    Book {
        title: "Frankenstein",
        author: "Mary Shelley",
        isbn13: "9780141439471",
        year: 1818,
    },
    Book {
        title: "Jane Eyre",
        author: "Charlotte Brontë",
        isbn13: "9780141441146",
        year: 1847,
    },
    Book {
        title: "Moby-Dick",
        author: "Herman Melville",
        isbn13: "9780142437247",
        year: 1851,
    },
    Book {
        title: "Middlemarch",
        author: "George Eliot",
        isbn13: "9780141439549",
        year: 1871,
    },
    Book {
        title: "The Adventures of Huckleberry Finn",
        author: "Mark Twain",
        isbn13: "9780143107323",
        year: 1884,
    },
    Book {
        title: "The Great Gatsby",
        author: "F. Scott Fitzgerald",
        isbn13: "9780743273565",
        year: 1925,
    },
    Book {
        title: "Mrs Dalloway",
        author: "Virginia Woolf",
        isbn13: "9780156628709",
        year: 1925,
    },
    Book {
        title: "Nineteen Eighty-Four",
        author: "George Orwell",
        isbn13: "9780452284234",
        year: 1949,
    },
    Book {
        title: "Things Fall Apart",
        author: "Chinua Achebe",
        isbn13: "9780385474542",
        year: 1958,
    },
    Book {
        title: "The Remains of the Day",
        author: "Kazuo Ishiguro",
        isbn13: "9780679731726",
        year: 1989,
    },
];

const FIRST_PRINTED_YEAR: i64 = 1450;

/// An ISBN with hyphens and spaces taken out, if it has the shape of one: 13 digits,
/// or 9 digits and a check digit or X.
fn normalize_isbn(text: &str) -> Option<String> {
    let isbn: String = text
        .chars()
        .filter(|c| *c != '-' && *c != ' ')
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let ok = match isbn.len() {
        13 => digits(&isbn),
        10 => digits(&isbn[..9]) && (digits(&isbn[9..]) || &isbn[9..] == "X"),
        _ => false,
    };
    ok.then_some(isbn)
}

fn isbn_matches(book: &Book, isbn: &str) -> bool {
    match isbn.len() {
        13 => book.isbn13 == isbn,
        _ => book.isbn13[3..12] == isbn[..9],
    }
}

/// A year field as the server takes it: the browser only lets whole years from 1450
/// to this year through; anything else (typed into the address) is ignored.
fn year(params: &HashMap<String, String>, name: &str, this_year: i64) -> Option<i64> {
    raw_value(params, name)
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|y| (FIRST_PRINTED_YEAR..=this_year).contains(y))
}

fn library_page(
    values: &HashMap<String, String>,
    errors: &HashMap<&str, &str>,
    results: &str,
) -> Html<String> {
    let this_year = civil_from_days(today()).0;
    let v = |name: &str| escape(raw_value(values, name));
    let e = |name: &str| {
        errors
            .get(name)
            .map(|m| format!(r#" <span class="error">{}</span>"#, escape(m)))
            .unwrap_or_default()
    };
    let banner = errors
        .get("")
        .map(|m| format!(r#"<p class="error" role="alert">{}</p>"#, escape(m)))
        .unwrap_or_default();
    let body = format!(
        r#"<p>Search the Curio City Library catalogue. Fill in any of the fields.</p>
{banner}<form id="library-form" method="get" action="/forms/library/results">
<div class="row"><label>Title <input name="title" size="40" value="{title}"></label></div>
<div class="row"><label for="l-author">Author</label> <input id="l-author" name="author" placeholder="e.g. Austen or Jane Austen" value="{author}"></div>
<div class="row"><label for="l-isbn">ISBN</label> <input id="l-isbn" name="isbn" placeholder="978-0-14-143951-8" value="{isbn}">{isbn_error}</div>
<fieldset><legend>Published</legend>
<label for="l-from">From year</label> <input id="l-from" type="number" name="year_from" min="{FIRST_PRINTED_YEAR}" max="{this_year}" value="{from}">
<label for="l-to">To year</label> <input id="l-to" type="number" name="year_to" min="{FIRST_PRINTED_YEAR}" max="{this_year}" value="{to}">{years_error}
<br><small>Years {FIRST_PRINTED_YEAR} to {this_year}.</small>
</fieldset>
<p><button type="submit">Search</button></p>
</form>
{results}{native}"#,
        title = v("title"),
        author = v("author"),
        isbn = v("isbn"),
        isbn_error = e("isbn"),
        from = v("year_from"),
        to = v("year_to"),
        years_error = e("year_to"),
        native = native_truth_script(
            "library-form",
            &[
                ("year_from", "rangeUnderflow", "library.from-too-early"),
                ("year_from", "rangeOverflow", "library.from-too-late"),
                ("year_from", "stepMismatch", "library.from-not-whole"),
                ("year_to", "rangeUnderflow", "library.to-too-early"),
                ("year_to", "rangeOverflow", "library.to-too-late"),
                ("year_to", "stepMismatch", "library.to-not-whole"),
            ],
        ),
    );
    page("Library catalogue: advanced search", &body)
}

async fn library_form() -> Html<String> {
    library_page(&HashMap::new(), &HashMap::new(), "")
}

async fn library_results(
    State(state): State<Gallery>,
    Query(params): Query<HashMap<String, String>>,
) -> Html<String> {
    let this_year = civil_from_days(today()).0;
    let mut errors: HashMap<&str, &str> = HashMap::new();
    let blank = |name: &str| value(&params, name).is_empty();
    if ["title", "author", "isbn", "year_from", "year_to"]
        .into_iter()
        .all(blank)
    {
        state.hit("library.no-criteria");
        errors.insert("", "Fill in at least one field to search the catalogue.");
    }
    let isbn_text = value(&params, "isbn");
    let isbn = normalize_isbn(isbn_text);
    if !isbn_text.is_empty() && isbn.is_none() {
        state.hit("library.isbn-invalid");
        errors.insert(
            "isbn",
            "ISBNs have 10 or 13 digits (hyphens are fine), e.g. 978-0-14-143951-8.",
        );
    }
    let from = year(&params, "year_from", this_year);
    let to = year(&params, "year_to", this_year);
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        state.hit("library.years-reversed");
        errors.insert(
            "year_to",
            "The “from” year can't be later than the “to” year.",
        );
    }
    if !errors.is_empty() {
        return library_page(&params, &errors, "");
    }
    state.hit("library.results");
    let title = value(&params, "title");
    let author = value(&params, "author");
    let found: Vec<&Book> = BOOKS
        .iter()
        .filter(|b| matches_all(title, &[b.title]))
        .filter(|b| matches_all(author, &[b.author]))
        .filter(|b| isbn.as_deref().is_none_or(|i| isbn_matches(b, i)))
        .filter(|b| from.is_none_or(|y| b.year >= y))
        .filter(|b| to.is_none_or(|y| b.year <= y))
        .collect();
    let rows: String = found
        .iter()
        .map(|b| {
            format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}-{}-{}</td></tr>",
                escape(b.title),
                escape(b.author),
                b.year,
                &b.isbn13[..3],
                &b.isbn13[3..12],
                &b.isbn13[12..],
            )
        })
        .collect();
    let count = match found.len() {
        1 => "Found 1 title".to_owned(),
        n => format!("Found {n} titles"),
    };
    let table = if found.is_empty() {
        "<p>Check the spelling, or search with fewer fields.</p>".to_owned()
    } else {
        format!(
            "<table class=\"results\"><tr><th>Title</th><th>Author</th><th>Year</th><th>ISBN</th></tr>{rows}</table>"
        )
    };
    let results = format!(r#"<h2 role="status">{count}</h2>{table}"#);
    library_page(&params, &HashMap::new(), &results)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::super::common::http::{get, hits};
    use super::*;
    use crate::{Subject, serve};

    fn set<const N: usize>(ids: [&str; N]) -> BTreeSet<String> {
        ids.map(String::from).into()
    }

    #[test]
    fn salaries_and_isbns_parse() {
        assert_eq!(parse_salary(""), Ok(None));
        assert_eq!(parse_salary("$65,000"), Ok(Some(65_000)));
        assert_eq!(parse_salary("-0"), Ok(Some(0)));
        assert_eq!(parse_salary("-5000").unwrap_err().0, "jobs.salary-negative");
        assert_eq!(parse_salary("65k").unwrap_err().0, "jobs.salary-format");
        assert_eq!(parse_salary("650.50").unwrap_err().0, "jobs.salary-format");
        assert!(normalize_isbn("978-0-14-143951-8").is_some());
        assert!(normalize_isbn("0-14-143951-X").is_some());
        assert!(normalize_isbn("978-0-14").is_none());
        assert!(isbn_matches(
            &BOOKS[0],
            &normalize_isbn("0141439513").unwrap()
        ));
        assert_eq!(thousands(175_000), "175,000");
    }

    #[tokio::test]
    async fn search_answers_each_state() {
        let app = serve(Subject::Gallery).await.unwrap();
        let form = get(&app, "/forms/search").await;
        assert_eq!(form.status, 200);
        assert!(form.body.contains(r#"aria-label="Search""#));
        assert!(form.body.contains("curioTruth('search.empty')"));
        assert!(hits(&app).is_empty());

        let found = get(&app, "/forms/search?q=bread&category=").await.body;
        assert!(found.contains("3 results for «bread»"), "{found}");
        assert_eq!(hits(&app), set(["search.results"]));

        let short = get(&app, "/forms/search?q=b&category=").await.body;
        assert!(short.contains("Search terms need at least 2 characters"));
        let none = get(&app, "/forms/search?q=bread&category=news").await.body;
        assert!(none.contains("1 result for"), "{none}");
        let none = get(&app, "/forms/search?q=qwerty").await.body;
        assert!(none.contains("No results for «qwerty»"));
        get(&app, "/forms/search?q=+++").await;
        assert_eq!(
            hits(&app),
            set([
                "search.results",
                "search.too-short",
                "search.no-results",
                "search.empty"
            ])
        );
        app.shutdown().await;
    }

    #[tokio::test]
    async fn jobs_lists_results_or_salary_problems() {
        let app = serve(Subject::Gallery).await.unwrap();
        assert!(get(&app, "/forms/jobs").await.body.contains("<table"));
        let found = get(
            &app,
            "/forms/jobs/results?keywords=engineer&location=austin&min_salary=80000&max_salary=150000",
        )
        .await
        .body;
        assert!(found.contains("1 job found"), "{found}");
        assert!(found.contains("Senior Software Engineer"));
        assert_eq!(hits(&app), set(["jobs.results"]));

        let reversed = get(
            &app,
            "/forms/jobs/results?keywords=engineer&location=&min_salary=90000&max_salary=50000&remote=1",
        )
        .await
        .body;
        assert!(reversed.contains("Minimum salary can&#39;t be more than maximum."));
        assert!(reversed.contains(r#"value="90000""#) && reversed.contains(" checked"));
        assert_eq!(hits(&app), set(["jobs.results", "jobs.salary-range"]));
        app.shutdown().await;
    }

    #[tokio::test]
    async fn library_finds_books_or_explains() {
        let app = serve(Subject::Gallery).await.unwrap();
        let form = get(&app, "/forms/library").await.body;
        assert!(form.contains(&format!(
            r#"min="1450" max="{}""#,
            civil_from_days(today()).0
        )));
        assert!(form.contains(r#""year_to rangeOverflow":"library.to-too-late""#));

        let found = get(
            &app,
            "/forms/library/results?title=&author=austen&isbn=&year_from=1800&year_to=1814",
        )
        .await
        .body;
        assert!(found.contains("Found 1 title"), "{found}");
        assert!(found.contains("Pride and Prejudice"));
        assert_eq!(hits(&app), set(["library.results"]));

        let bad = get(
            &app,
            "/forms/library/results?title=emma&author=&isbn=12345&year_from=&year_to=",
        )
        .await
        .body;
        assert!(bad.contains("ISBNs have 10 or 13 digits"));
        assert!(bad.contains(r#"value="emma""#));
        let reversed = get(
            &app,
            "/forms/library/results?title=emma&year_from=1900&year_to=1800",
        )
        .await;
        assert!(reversed.body.contains("can&#39;t be later"));
        assert_eq!(
            hits(&app),
            set([
                "library.results",
                "library.isbn-invalid",
                "library.years-reversed"
            ])
        );
        app.shutdown().await;
    }
}
