//! Values a real person would type, from small built-in lists. One [`Persona`] fills a
//! whole form, so the name, the e-mail, the address and the phone belong together
//! (`Alex Morgan`, `alex.morgan@example.com`, San Francisco, `94107`), as a server that
//! cross-checks them expects.

use rand::{Rng, RngCore};

use crate::semantic::Semantic;

pub(crate) const FIRST_NAMES: &[&str] = &[
    "Alex", "Maria", "James", "Sofia", "David", "Emma", "Lucas", "Olivia", "Daniel", "Chloe",
    "Noah", "Mia", "Ethan", "Hannah", "Leo", "Grace",
];

pub(crate) const LAST_NAMES: &[&str] = &[
    "Morgan", "Smith", "Garcia", "Chen", "Johnson", "Martin", "Brown", "Nguyen", "Lee", "Walker",
    "Patel", "Rossi", "Clark", "Lopez", "Wright", "Evans",
];

/// A postal address with what goes with it.
#[derive(Debug)]
pub(crate) struct Address {
    pub(crate) street: &'static str,
    pub(crate) line2: &'static str,
    pub(crate) city: &'static str,
    pub(crate) region: &'static str,
    pub(crate) region_code: &'static str,
    pub(crate) postal_code: &'static str,
    pub(crate) country: &'static str,
    /// Other ways selects name the country (ISO codes first).
    pub(crate) country_aliases: &'static [&'static str],
    pub(crate) phone: &'static str,
}

/// Mostly US addresses: five-digit ZIP codes and `+1` phones pass the most validators.
pub(crate) const ADDRESSES: &[Address] = &[
    Address {
        street: "350 Mission Street",
        line2: "Suite 210",
        city: "San Francisco",
        region: "California",
        region_code: "CA",
        postal_code: "94107",
        country: "United States",
        country_aliases: &["US", "USA", "United States of America", "U.S."],
        phone: "+1 555 010 2030",
    },
    Address {
        street: "20 West 34th Street",
        line2: "Apt 4B",
        city: "New York",
        region: "New York",
        region_code: "NY",
        postal_code: "10001",
        country: "United States",
        country_aliases: &["US", "USA", "United States of America", "U.S."],
        phone: "+1 555 010 4477",
    },
    Address {
        street: "233 South Wacker Drive",
        line2: "Floor 12",
        city: "Chicago",
        region: "Illinois",
        region_code: "IL",
        postal_code: "60606",
        country: "United States",
        country_aliases: &["US", "USA", "United States of America", "U.S."],
        phone: "+1 555 013 9921",
    },
    Address {
        street: "500 Congress Avenue",
        line2: "Unit 3",
        city: "Austin",
        region: "Texas",
        region_code: "TX",
        postal_code: "78701",
        country: "United States",
        country_aliases: &["US", "USA", "United States of America", "U.S."],
        phone: "+1 555 014 6612",
    },
    Address {
        street: "400 Broad Street",
        line2: "Apt 12",
        city: "Seattle",
        region: "Washington",
        region_code: "WA",
        postal_code: "98109",
        country: "United States",
        country_aliases: &["US", "USA", "United States of America", "U.S."],
        phone: "+1 555 016 3390",
    },
    Address {
        street: "100 King Street West",
        line2: "Suite 5600",
        city: "Toronto",
        region: "Ontario",
        region_code: "ON",
        postal_code: "M5X 1C9",
        country: "Canada",
        country_aliases: &["CA", "CAN"],
        phone: "+1 555 017 7788",
    },
    Address {
        street: "1 Oxford Street",
        line2: "Flat 2",
        city: "London",
        region: "Greater London",
        region_code: "LND",
        postal_code: "W1D 1BS",
        country: "United Kingdom",
        country_aliases: &["GB", "UK", "GBR", "Great Britain"],
        phone: "+44 20 7946 0958",
    },
    Address {
        street: "12 Rue de la Republique",
        line2: "Apt 3",
        city: "Lyon",
        region: "Auvergne-Rhone-Alpes",
        region_code: "ARA",
        postal_code: "69002",
        country: "France",
        country_aliases: &["FR", "FRA"],
        phone: "+33 1 99 00 12 34",
    },
    Address {
        street: "Friedrichstrasse 43",
        line2: "2. OG",
        city: "Berlin",
        region: "Berlin",
        region_code: "BE",
        postal_code: "10117",
        country: "Germany",
        country_aliases: &["DE", "DEU", "Deutschland"],
        phone: "+49 30 901820",
    },
];

/// Cities and countries a placeholder may give as an example (`e.g. Paris`).
pub(crate) const CITY_NAMES: &[&str] = &[
    "Paris",
    "London",
    "Berlin",
    "Lyon",
    "Madrid",
    "Rome",
    "Tokyo",
    "Toronto",
    "Chicago",
    "Boston",
    "Seattle",
    "Austin",
    "Amsterdam",
    "Sydney",
    "Springfield",
    "Dublin",
];

pub(crate) const COUNTRY_NAMES: &[&str] = &[
    "France",
    "Germany",
    "Spain",
    "Italy",
    "Canada",
    "Japan",
    "Australia",
    "Netherlands",
    "Ireland",
    "Mexico",
    "Brazil",
];

const COMPANIES: &[&str] = &[
    "Northwind Traders",
    "Acme Corporation",
    "Blue Harbor Labs",
    "Contoso Ltd",
    "Fabrikam Inc",
];

const JOB_TITLES: &[&str] = &[
    "Product Manager",
    "Software Engineer",
    "Office Manager",
    "Sales Director",
    "Nurse",
];

/// Passwords that pass common strength rules (upper, lower, digit, symbol, 12+ chars).
const PASSWORDS: &[&str] = &["Blue-Harbor-2931!", "Maple#Stone77x", "Quiet-River-58%"];

const SEARCHES: &[&str] = &[
    "running shoes",
    "coffee",
    "gift card",
    "blue shirt",
    "laptop bag",
];

const TITLES: &[&str] = &[
    "Question about my order",
    "Weekly team update",
    "Spring catalogue",
    "Meeting notes",
];

const MESSAGES: &[&str] = &[
    "Hello, I would like more information about your services. Thank you!",
    "Great service, I will come back soon.",
    "Please call me back tomorrow morning if possible.",
];

const TEXTS: &[&str] = &["Hello there", "Sample answer", "Green"];

/// Who is filling the form.
#[derive(Debug)]
pub(crate) struct Persona {
    pub(crate) first: &'static str,
    pub(crate) last: &'static str,
    pub(crate) address: &'static Address,
    pub(crate) email: String,
    pub(crate) username: String,
    pub(crate) password: &'static str,
    pub(crate) company: &'static str,
    pub(crate) job_title: &'static str,
}

pub(crate) fn pick<'a, T>(items: &'a [T], rng: &mut dyn RngCore) -> Option<&'a T> {
    if items.is_empty() {
        None
    } else {
        items.get(rng.random_range(0..items.len()))
    }
}

fn pick_str(items: &[&'static str], rng: &mut dyn RngCore) -> &'static str {
    pick(items, rng).copied().unwrap_or("")
}

impl Persona {
    pub(crate) fn random(rng: &mut dyn RngCore) -> Self {
        let first = pick_str(FIRST_NAMES, rng);
        let last = pick_str(LAST_NAMES, rng);
        let address = pick(ADDRESSES, rng).unwrap_or(&ADDRESSES[0]);
        let domain = pick_str(&["example.com", "example.org", "example.net"], rng);
        let number = rng.random_range(10..100);
        Self {
            first,
            last,
            address,
            email: format!(
                "{}.{}@{domain}",
                first.to_ascii_lowercase(),
                last.to_ascii_lowercase()
            ),
            username: format!(
                "{}{}{number}",
                first.to_ascii_lowercase(),
                last.to_ascii_lowercase()
            ),
            password: pick_str(PASSWORDS, rng),
            company: pick_str(COMPANIES, rng),
            job_title: pick_str(JOB_TITLES, rng),
        }
    }

    /// Candidate values for a text field of `sem`, best first; the caller keeps the first
    /// the field's constraints accept. Later ones are plainer (digits only, shorter) for
    /// fields with strict patterns or lengths. Empty for semantics typed as numbers or
    /// dates, which are computed instead.
    pub(crate) fn candidates(&self, sem: Semantic, rng: &mut dyn RngCore) -> Vec<String> {
        use Semantic as S;
        let a = self.address;
        let owned = |items: &[&str]| items.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let shuffled = |items: &[&'static str], rng: &mut dyn RngCore| {
            let start = rng.random_range(0..items.len().max(1));
            items
                .iter()
                .cycle()
                .skip(start)
                .take(items.len())
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
        };
        match sem {
            S::Email | S::EmailConfirm => vec![self.email.clone(), "kim@example.net".into()],
            S::Phone => {
                let digits: String = a.phone.chars().filter(char::is_ascii_digit).collect();
                let national = digits.strip_prefix('1').unwrap_or(&digits).to_string();
                vec![
                    a.phone.to_string(),
                    "+1 555 010 2030".into(),
                    "555-010-2030".into(),
                    national,
                    "5550102030".into(),
                    "15550102030".into(),
                    "+15550102030".into(),
                ]
            }
            S::PostalCode => vec![a.postal_code.to_string(), "94107".into(), "10001".into()],
            S::PersonName => vec![
                format!("{} {}", self.first, self.last),
                self.first.to_string(),
            ],
            S::FirstName => vec![self.first.to_string()],
            S::LastName => vec![self.last.to_string()],
            S::Username => vec![
                self.username.clone(),
                self.first.to_ascii_lowercase(),
                "alex42".into(),
            ],
            S::Password | S::PasswordConfirm => vec![
                self.password.to_string(),
                "Curio-Pass-2024!".into(),
                "Abcd1234!".into(),
                "Passw0rd".into(),
            ],
            S::OneTimeCode => owned(&["123456", "1234"]),
            S::Coupon => owned(&["SAVE10", "WELCOME"]),
            S::City => vec![a.city.to_string(), "Springfield".into()],
            S::Region => vec![a.region.to_string(), a.region_code.to_string()],
            S::Country => {
                let mut v = vec![a.country.to_string()];
                v.extend(a.country_aliases.iter().map(|s| s.to_string()));
                v
            }
            S::StreetAddress => vec![a.street.to_string(), "1 Main Street".into()],
            S::AddressLine2 => vec![a.line2.to_string(), "Apt 4".into()],
            S::Company => vec![self.company.to_string(), "Acme".into()],
            S::JobTitle => vec![self.job_title.to_string(), "Manager".into()],
            S::Url => owned(&[
                "https://www.example.com/",
                "https://example.org/about",
                "http://example.com",
            ]),
            S::Search => shuffled(SEARCHES, rng),
            S::CardNumber => owned(&[
                "4242424242424242",
                "4242 4242 4242 4242",
                "4111111111111111",
            ]),
            S::Cvv => owned(&["123", "1234"]),
            S::Title => shuffled(TITLES, rng),
            S::Message => shuffled(MESSAGES, rng),
            S::Color => owned(&["#3366cc", "blue"]),
            S::Text | S::Choice | S::Toggle | S::Consent => shuffled(TEXTS, rng),
            // Numbers and dates are computed on their scale, not picked from lists.
            _ => {
                debug_assert!(sem.is_scalar());
                Vec::new()
            }
        }
    }

    /// Texts a select or radio option may carry for this persona (`United States`, `US`).
    pub(crate) fn option_matches(&self, sem: Semantic) -> Vec<&'static str> {
        let a = self.address;
        match sem {
            Semantic::Country => {
                let mut v = vec![a.country];
                v.extend(a.country_aliases.iter().copied());
                v
            }
            Semantic::Region => vec![a.region, a.region_code],
            Semantic::City => vec![a.city],
            _ => Vec::new(),
        }
    }
}

/// Free text of about `len` characters made of `seed` repeated, for too-long values that
/// still read like the field's content.
pub(crate) fn long_text(seed: &str, len: usize) -> String {
    let seed = if seed.trim().is_empty() {
        "Lorem ipsum dolor sit amet"
    } else {
        seed.trim()
    };
    let mut out: String = seed
        .chars()
        .chain(std::iter::once(' '))
        .cycle()
        .take(len)
        .collect();
    if out.ends_with(' ') {
        out.pop();
        out.push('x');
    }
    out
}
