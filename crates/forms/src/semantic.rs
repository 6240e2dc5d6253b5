//! What a field is for. Markup says what a field accepts; the words around it say what a
//! person would type there, and a server that expects a city, a ZIP code or a date after
//! check-in turns away anything else long before it reaches the code worth testing.

use std::fmt;
use std::str::FromStr;

use curio_page::Field;
use serde::{Deserialize, Serialize};

use crate::words::{SourceKind, Texts};

macro_rules! semantics {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, )*) => {
        /// What a field is for, read from its labels, name, id, placeholder, autocomplete,
        /// type, inputmode and min/max.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Semantic {
            $( $(#[$doc])* $variant, )*
        }

        impl Semantic {
            /// Every semantic, in declaration order.
            pub const ALL: &'static [Semantic] = &[$(Semantic::$variant,)*];

            /// The stable snake_case name, as used in dictionaries and records.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Semantic::$variant => $name,)*
                }
            }
        }
    };
}

semantics! {
    Email => "email",
    /// "Confirm e-mail": must repeat the email field.
    EmailConfirm => "email_confirm",
    Phone => "phone",
    PostalCode => "postal_code",
    /// Any calendar date that is not a birth date.
    Date => "date",
    BirthDate => "birth_date",
    Time => "time",
    DateTime => "date_time",
    Month => "month",
    Week => "week",
    /// A full name ("Name", "Your name", "Cardholder").
    PersonName => "person_name",
    FirstName => "first_name",
    LastName => "last_name",
    Username => "username",
    Password => "password",
    /// "Confirm password": must repeat the password field.
    PasswordConfirm => "password_confirm",
    OneTimeCode => "one_time_code",
    /// A promo, coupon, voucher, discount, gift card or referral code: only the app
    /// knows valid ones, so an optional one stays empty unless a dictionary gives one.
    Coupon => "coupon",
    City => "city",
    /// State, province, region, county.
    Region => "region",
    Country => "country",
    StreetAddress => "street_address",
    /// Apartment, suite, unit: the second address line.
    AddressLine2 => "address_line2",
    Company => "company",
    JobTitle => "job_title",
    Url => "url",
    Search => "search",
    Quantity => "quantity",
    Price => "price",
    Percentage => "percentage",
    Hours => "hours",
    Age => "age",
    Year => "year",
    Integer => "integer",
    Decimal => "decimal",
    CardNumber => "card_number",
    /// Card expiry as one value (`12/30`, or a month input).
    CardExpiry => "card_expiry",
    CardExpiryMonth => "card_expiry_month",
    CardExpiryYear => "card_expiry_year",
    Cvv => "cvv",
    /// A subject, headline, or the name of a thing (product, project, event).
    Title => "title",
    /// Free text: message, comment, description, notes.
    Message => "message",
    Color => "color",
    /// A checkbox that accepts terms, a policy or consent.
    Consent => "consent",
    /// Any other checkbox.
    Toggle => "toggle",
    /// A select or radio group with no more specific meaning.
    Choice => "choice",
    /// Text with no more specific meaning.
    Text => "text",
}

impl fmt::Display for Semantic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of [`Semantic::as_str`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown semantic {name:?}")]
pub struct UnknownSemantic {
    pub name: String,
}

impl Semantic {
    /// Kinds whose values are numbers or dates on a scale (computed within min, max and
    /// step), not picked from lists of realistic words.
    pub fn is_scalar(self) -> bool {
        use Semantic as S;
        matches!(
            self,
            S::Date
                | S::BirthDate
                | S::Time
                | S::DateTime
                | S::Month
                | S::Week
                | S::Quantity
                | S::Price
                | S::Percentage
                | S::Hours
                | S::Age
                | S::Year
                | S::Integer
                | S::Decimal
                | S::CardExpiry
                | S::CardExpiryMonth
                | S::CardExpiryYear
        )
    }
}

impl FromStr for Semantic {
    type Err = UnknownSemantic;

    /// Accepts the snake_case name in any case, with `-` or spaces for `_`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase().replace(['-', ' '], "_");
        Semantic::ALL
            .iter()
            .copied()
            .find(|sem| sem.as_str() == wanted)
            .ok_or_else(|| UnknownSemantic {
                name: s.to_string(),
            })
    }
}

/// Whether a field opens or closes a range (dates, times, numbers), so that values can
/// be ordered: check-out after check-in, maximum price not below minimum price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RangeRole {
    Start,
    End,
    None,
}

impl RangeRole {
    pub fn as_str(self) -> &'static str {
        match self {
            RangeRole::Start => "start",
            RangeRole::End => "end",
            RangeRole::None => "none",
        }
    }
}

/// Keyword lists, most specific meaning first: "Email address" is an email before it is an
/// address, "Company name" a company before it is a name, "Phone number" a phone before
/// it is a number. See [`crate::words::Source::has`] for the keyword syntax.
const RULES: &[(Semantic, &[&str])] = &[
    (
        Semantic::CardNumber,
        &[
            "card number",
            "cc number",
            "ccnum",
            "credit card",
            "debit card",
            "card no",
            "card num",
            "numero de carte",
            "kartennummer",
            "numero de tarjeta",
        ],
    ),
    (
        Semantic::Cvv,
        &[
            "=cvv",
            "=cvv2",
            "=cvc",
            "=cvc2",
            "=csc",
            "security code",
            "card code",
            "card verification",
            "=cryptogramme",
        ],
    ),
    (
        Semantic::CardExpiryMonth,
        &[
            "exp month",
            "expiry month",
            "expiration month",
            "cc month",
            "=exp mm",
            "expmonth",
        ],
    ),
    (
        Semantic::CardExpiryYear,
        &[
            "exp year",
            "expiry year",
            "expiration year",
            "cc year",
            "=exp yy",
            "=exp yyyy",
            "expyear",
        ],
    ),
    (
        Semantic::CardExpiry,
        &[
            "expiry",
            "expiration",
            "exp date",
            "expires",
            "valid thru",
            "valid through",
            "=cc exp",
            "=exp",
            "!mm yy",
            "!mm yyyy",
        ],
    ),
    (
        Semantic::Coupon,
        &[
            "promo",
            "promotion code",
            "coupon",
            "voucher",
            "discount code",
            "gift card",
            "gift code",
            "referral code",
        ],
    ),
    (
        Semantic::OneTimeCode,
        &[
            "one time code",
            "=otp",
            "verification code",
            "=2fa",
            "authentication code",
            "=sms code",
            "=security pin",
            "=pin",
            "=pin code",
        ],
    ),
    (
        Semantic::Email,
        &[
            "email",
            "e mail",
            "=mail",
            "mail address",
            "courriel",
            "correo",
        ],
    ),
    (
        Semantic::Password,
        &[
            "password",
            "passwort",
            "=pwd",
            "=pass",
            "passcode",
            "mot de passe",
        ],
    ),
    (
        Semantic::Phone,
        &[
            "phone",
            "telephone",
            "=tel",
            "mobile",
            "=cell",
            "cellphone",
            "=fax",
            "telefon",
            "telefono",
            "whatsapp",
            "contact number",
            "=portable",
        ],
    ),
    (
        Semantic::PostalCode,
        &[
            "postal",
            "postcode",
            "post code",
            "=zip",
            "zip code",
            "=plz",
            "postleitzahl",
            "pincode",
            "codigo postal",
        ],
    ),
    (
        Semantic::BirthDate,
        &[
            "birth",
            "birthday",
            "=dob",
            "birthdate",
            "naissance",
            "geburtsdatum",
            "=born",
        ],
    ),
    (
        Semantic::FirstName,
        &[
            "first name",
            "given name",
            "forename",
            "=fname",
            "prenom",
            "vorname",
        ],
    ),
    (
        Semantic::LastName,
        &[
            "last name",
            "surname",
            "family name",
            "=lname",
            "nachname",
            "apellido",
            "apellidos",
            "=nom",
        ],
    ),
    (
        Semantic::Username,
        &[
            "username",
            "user name",
            "=login",
            "=user id",
            "userid",
            "=handle",
            "nickname",
            "screen name",
            "display name",
            "account name",
            "=pseudo",
            "benutzername",
        ],
    ),
    (
        Semantic::Company,
        &[
            "company",
            "organisation",
            "organization",
            "=org",
            "employer",
            "business name",
            "=firm",
            "entreprise",
            "=societe",
            "=firma",
        ],
    ),
    (
        Semantic::JobTitle,
        &["job title", "=position", "occupation", "profession", "=job"],
    ),
    (Semantic::Country, &["country", "=pays", "=nation", "=land"]),
    (
        Semantic::Region,
        &[
            "=state",
            "province",
            "=region",
            "=county",
            "prefecture",
            "=departement",
            "=bundesland",
        ],
    ),
    (
        Semantic::City,
        &[
            "=city",
            "=town",
            "locality",
            "=ville",
            "=stadt",
            "=ciudad",
            "destination",
            "=airport",
            "=where to",
            "=where from",
            "=leaving from",
            "=going to",
            "=origin",
        ],
    ),
    (
        Semantic::AddressLine2,
        &[
            "address line 2",
            "=address 2",
            "=addr 2",
            "=line 2",
            "=apt",
            "apartment",
            "=suite",
            "=unit",
            "=floor",
        ],
    ),
    (
        Semantic::StreetAddress,
        &[
            "address",
            "street",
            "=addr",
            "adresse",
            "strasse",
            "direccion",
            "house number",
        ],
    ),
    (
        Semantic::Url,
        &[
            "website",
            "=url",
            "homepage",
            "home page",
            "=link",
            "=site",
            "web site",
            "portfolio",
            "linkedin",
        ],
    ),
    (
        Semantic::Message,
        &[
            "message",
            "comment",
            "comments",
            "description",
            "=notes",
            "=note",
            "feedback",
            "=bio",
            "about you",
            "about yourself",
            "=details",
            "=remarks",
            "=body",
            "=question",
            "inquiry",
            "enquiry",
            "=review",
            "=reason",
            "nachricht",
            "=summary",
            "instructions",
        ],
    ),
    (
        Semantic::Title,
        &[
            "=title",
            "subject",
            "headline",
            "=topic",
            "=heading",
            "betreff",
            "product name",
            "project name",
            "event name",
            "item name",
            "team name",
            "group name",
            "list name",
            "task name",
            "=item",
            "=product",
        ],
    ),
    (
        Semantic::Search,
        &[
            "=search",
            "=query",
            "=q",
            "=keyword",
            "=keywords",
            "=find",
            "=recherche",
            "=suche",
        ],
    ),
    (
        Semantic::Hours,
        &[
            "=hours",
            "=hour",
            "=hrs",
            "time spent",
            "hours spent",
            "hours worked",
            "=heures",
            "=stunden",
        ],
    ),
    (
        Semantic::Percentage,
        &[
            "percent",
            "percentage",
            "=pct",
            "tax rate",
            "interest rate",
            "discount rate",
            "=ratio",
            "=pourcentage",
        ],
    ),
    (
        Semantic::Price,
        &[
            "price", "=cost", "amount", "=budget", "salary", "=fee", "=total", "=payment",
            "=income", "=prix", "=preis", "=usd", "=eur", "=gbp",
        ],
    ),
    (
        Semantic::Quantity,
        &[
            "quantity",
            "=qty",
            "=guests",
            "=guest",
            "=adults",
            "=children",
            "=kids",
            "=people",
            "=persons",
            "=passengers",
            "=travellers",
            "=travelers",
            "=tickets",
            "=rooms",
            "=nights",
            "=seats",
            "=items",
            "=units",
            "=pieces",
            "=copies",
            "how many",
            "number of",
            "=count",
            "=menge",
            "=quantite",
        ],
    ),
    (Semantic::Age, &["=age", "years old"]),
    (
        Semantic::Year,
        &["=year", "=yr", "!yyyy", "=annee", "=jahr"],
    ),
    (
        Semantic::DateTime,
        &["date and time", "datetime", "date time", "date heure"],
    ),
    (
        Semantic::Time,
        &["=time", "=heure", "=uhrzeit", "=hora", "=hh mm"],
    ),
    (
        Semantic::Date,
        &[
            "=date",
            "=day",
            "=when",
            "check in",
            "check out",
            "=arrival",
            "=arrive",
            "=departure",
            "=depart",
            "=return",
            "=deadline",
            "=due",
            "=datum",
            "=fecha",
            "=dd mm yyyy",
            "=mm dd yyyy",
            "=yyyy mm dd",
            "=jj mm aaaa",
        ],
    ),
    (Semantic::Month, &["=month", "=mois", "=monat"]),
    (Semantic::Week, &["=week", "=semaine", "=woche"]),
    (Semantic::Color, &["color", "colour", "=farbe", "=couleur"]),
    (
        Semantic::PersonName,
        &[
            "=name",
            "full name",
            "your name",
            "contact person",
            "cardholder",
            "card holder",
            "name on card",
            "=nombre",
            "=recipient",
            "=author",
            "=cc name",
        ],
    ),
];

/// Checkbox texts that accept something the form may insist on.
const CONSENT: &[&str] = &[
    "agree",
    "accept",
    "=terms",
    "consent",
    "privacy",
    "conditions",
    "=policy",
    "=gdpr",
    "i have read",
    "acknowledge",
    "=confirm",
    "=tos",
];

/// Words that make an email or password field the repetition of another one.
const CONFIRM: &[&str] = &[
    "confirm",
    "confirmation",
    "=repeat",
    "=again",
    "retype",
    "re type",
    "re enter",
    "reenter",
    "=verify",
    "=verification",
    "=2",
];

const START: &[&str] = &[
    "=start",
    "=starts",
    "=starting",
    "^from",
    "=begin",
    "=beginning",
    "check in",
    "=departure",
    "=depart",
    "=departing",
    "=outbound",
    "=arrival",
    "=arrive",
    "=since",
    "=min",
    "=minimum",
    "=lowest",
    "=earliest",
    "=pickup",
    "pick up",
    "=opening",
    "=at least",
    "first day",
    "valid from",
    "=von",
    "=debut",
];

const END: &[&str] = &[
    "=end",
    "=ends",
    "=ending",
    "^to",
    "=until",
    "=till",
    "=due",
    "check out",
    "=return",
    "=returning",
    "=inbound",
    "=expiry",
    "=expires",
    "=expiration",
    "=deadline",
    "=finish",
    "=max",
    "=maximum",
    "=highest",
    "=latest",
    "=dropoff",
    "drop off",
    "=closing",
    "=up to",
    "=at most",
    "last day",
    "valid until",
    "=bis",
    "=fin",
];

/// The semantic of `field`. Explicit markup wins over words, words over shapes: an
/// `autocomplete` token, then keywords in labels, placeholder, name and id, then the shape
/// of the placeholder (`you@example.com`, `dd/mm/yyyy`, `e.g. Paris`), then `inputmode`,
/// then hints in `min`/`max`/`step`, then the input type. Every candidate must suit the
/// input type (a number input labelled "Phone" stays a number, a `type=email` labelled
/// "Contact" is an email).
pub fn classify(field: &Field) -> Semantic {
    classify_with(field, &Texts::of(field))
}

pub(crate) fn classify_with(field: &Field, texts: &Texts) -> Semantic {
    let ty = field.input_type.as_str();
    let base = base_semantic(field, texts, ty);
    let confirm = texts.any(CONFIRM)
        || texts
            .sources
            .iter()
            .any(|s| s.kind == SourceKind::Identifier && s.compact.starts_with("cpass"));
    match base {
        Semantic::Password if confirm => Semantic::PasswordConfirm,
        Semantic::Email if confirm => Semantic::EmailConfirm,
        other => other,
    }
}

fn base_semantic(field: &Field, texts: &Texts, ty: &str) -> Semantic {
    match ty {
        "checkbox" => {
            return if texts.any(CONSENT) {
                Semantic::Consent
            } else {
                Semantic::Toggle
            };
        }
        "color" => return Semantic::Color,
        _ => {}
    }
    let keyword = RULES
        .iter()
        .filter(|(_, keywords)| texts.any(keywords))
        .map(|(sem, _)| *sem);
    autocomplete(field)
        .into_iter()
        .chain(keyword)
        .chain(placeholder_shape(texts))
        .chain(symbols(texts))
        .chain(inputmode(field))
        .chain(number_hints(field))
        .find(|sem| suits(*sem, ty))
        .unwrap_or_else(|| default_for_type(field, ty))
}

/// The semantic an `autocomplete` attribute names, skipping section, address-group and
/// contact-kind tokens (`section-x shipping postal-code`, `work tel`).
fn autocomplete(field: &Field) -> Option<Semantic> {
    let value = field.autocomplete.as_deref()?.to_ascii_lowercase();
    let token = value.split_ascii_whitespace().find(|t| {
        !t.starts_with("section-")
            && !matches!(
                *t,
                "shipping" | "billing" | "home" | "work" | "mobile" | "fax" | "pager" | "webauthn"
            )
    })?;
    Some(match token {
        "name" | "cc-name" => Semantic::PersonName,
        "given-name" | "cc-given-name" => Semantic::FirstName,
        "family-name" | "cc-family-name" => Semantic::LastName,
        "nickname" | "username" => Semantic::Username,
        "new-password" | "current-password" => Semantic::Password,
        "one-time-code" => Semantic::OneTimeCode,
        "organization-title" => Semantic::JobTitle,
        "organization" => Semantic::Company,
        "street-address" | "address-line1" => Semantic::StreetAddress,
        "address-line2" | "address-line3" => Semantic::AddressLine2,
        "address-level1" => Semantic::Region,
        "address-level2" | "address-level3" | "address-level4" => Semantic::City,
        "country" | "country-name" => Semantic::Country,
        "postal-code" => Semantic::PostalCode,
        "cc-number" => Semantic::CardNumber,
        "cc-exp" => Semantic::CardExpiry,
        "cc-exp-month" => Semantic::CardExpiryMonth,
        "cc-exp-year" => Semantic::CardExpiryYear,
        "cc-csc" => Semantic::Cvv,
        "transaction-amount" => Semantic::Price,
        "bday" => Semantic::BirthDate,
        "bday-year" => Semantic::Year,
        "url" | "photo" | "impp" => Semantic::Url,
        "tel" | "tel-national" | "tel-local" => Semantic::Phone,
        "email" => Semantic::Email,
        _ => return None,
    })
}

/// What an example in the placeholder gives away: `you@example.com`, `https://`,
/// `dd/mm/yyyy`, `hh:mm`, `MM/YY`, a card-number-like run of digits, `+1 ...`, or a known
/// city, country or first name (`e.g. Paris`).
fn placeholder_shape(texts: &Texts) -> Option<Semantic> {
    for source in texts
        .sources
        .iter()
        .filter(|s| s.kind == SourceKind::Placeholder)
    {
        let raw = source.raw.trim().to_lowercase();
        let digits = raw.chars().filter(char::is_ascii_digit).count();
        if raw.contains('@') && raw.contains('.') {
            return Some(Semantic::Email);
        }
        if raw.starts_with("http") || raw.starts_with("www.") {
            return Some(Semantic::Url);
        }
        if ["mm/yy", "mm / yy", "mm/aa"]
            .iter()
            .any(|s| raw.contains(s))
            && !raw.contains("dd")
        {
            return Some(Semantic::CardExpiry);
        }
        if ["yyyy", "dd/mm", "mm/dd", "jj/mm", "tt.mm", "aaaa"]
            .iter()
            .any(|s| raw.contains(s))
        {
            return Some(Semantic::Date);
        }
        if raw.contains("hh:mm") {
            return Some(Semantic::Time);
        }
        if digits >= 13
            && raw
                .chars()
                .all(|c| c.is_ascii_digit() || c == ' ' || c == '-')
        {
            return Some(Semantic::CardNumber);
        }
        if (raw.starts_with('+') || raw.starts_with('(')) && digits >= 6 {
            return Some(Semantic::Phone);
        }
        let words = &source.words;
        let known = |list: &[&str]| {
            list.iter()
                .any(|name| words.iter().any(|w| w == &name.to_lowercase()))
        };
        if known(crate::realistic::CITY_NAMES) {
            return Some(Semantic::City);
        }
        if known(crate::realistic::COUNTRY_NAMES) {
            return Some(Semantic::Country);
        }
        if known(crate::realistic::FIRST_NAMES) {
            return Some(if words.len() >= 4 {
                Semantic::PersonName
            } else {
                Semantic::FirstName
            });
        }
    }
    None
}

/// A `%` or a currency sign beside a field says what its number is.
fn symbols(texts: &Texts) -> Option<Semantic> {
    let raws: Vec<String> = texts
        .sources
        .iter()
        .filter(|s| s.kind != SourceKind::Identifier)
        .map(|s| s.raw.clone())
        .collect();
    if raws.iter().any(|r| r.contains('%')) {
        Some(Semantic::Percentage)
    } else if raws.iter().any(|r| r.contains(['$', '€', '£', '¥'])) {
        Some(Semantic::Price)
    } else {
        None
    }
}

fn inputmode(field: &Field) -> Option<Semantic> {
    Some(
        match field
            .inputmode
            .as_deref()?
            .trim()
            .to_ascii_lowercase()
            .as_str()
        {
            "email" => Semantic::Email,
            "tel" => Semantic::Phone,
            "url" => Semantic::Url,
            "numeric" => Semantic::Integer,
            "decimal" => Semantic::Decimal,
            "search" => Semantic::Search,
            _ => return None,
        },
    )
}

/// A number input bounded within plausible years is a year.
fn number_hints(field: &Field) -> Option<Semantic> {
    let num = |v: &Option<String>| v.as_deref().and_then(|s| s.trim().parse::<f64>().ok());
    match (num(&field.min), num(&field.max)) {
        (Some(lo), Some(hi)) if lo >= 1900.0 && hi <= 2200.0 && lo <= hi => Some(Semantic::Year),
        _ => None,
    }
}

fn default_for_type(field: &Field, ty: &str) -> Semantic {
    match ty {
        "email" => Semantic::Email,
        "tel" => Semantic::Phone,
        "url" => Semantic::Url,
        "password" => Semantic::Password,
        "search" => Semantic::Search,
        "number" | "range" => {
            let decimal = field.step.as_deref().is_some_and(|s| {
                let s = s.trim();
                s.eq_ignore_ascii_case("any")
                    || s.parse::<f64>()
                        .is_ok_and(|v| v.is_finite() && v.fract() != 0.0)
            });
            if decimal {
                Semantic::Decimal
            } else {
                Semantic::Integer
            }
        }
        "date" => Semantic::Date,
        "time" => Semantic::Time,
        "datetime-local" => Semantic::DateTime,
        "month" => Semantic::Month,
        "week" => Semantic::Week,
        "textarea" | "contenteditable" => Semantic::Message,
        "select-one" | "select-multiple" | "radio" => Semantic::Choice,
        _ => Semantic::Text,
    }
}

/// Whether a field of input type `ty` can hold values of `sem`: the type decides the
/// format, so meaning only refines it.
fn suits(sem: Semantic, ty: &str) -> bool {
    use Semantic as S;
    let numeric = matches!(
        sem,
        S::Quantity
            | S::Price
            | S::Percentage
            | S::Hours
            | S::Age
            | S::Year
            | S::Integer
            | S::Decimal
            | S::CardExpiryMonth
            | S::CardExpiryYear
    );
    let digits = matches!(
        sem,
        S::PostalCode | S::Phone | S::CardNumber | S::Cvv | S::OneTimeCode
    );
    match ty {
        "number" | "range" => numeric || (ty == "number" && digits),
        "date" => matches!(sem, S::Date | S::BirthDate),
        "time" => sem == S::Time,
        "datetime-local" => sem == S::DateTime,
        "month" => matches!(sem, S::Month | S::CardExpiry),
        "week" => sem == S::Week,
        "email" => matches!(sem, S::Email | S::EmailConfirm),
        "url" => sem == S::Url,
        "password" => matches!(
            sem,
            S::Password | S::PasswordConfirm | S::Cvv | S::OneTimeCode | S::CardNumber
        ),
        "tel" => numeric || digits || sem == S::CardExpiry,
        "select-one" | "select-multiple" | "radio" => !matches!(
            sem,
            S::Password | S::PasswordConfirm | S::Message | S::Search | S::OneTimeCode
        ),
        "search" => matches!(
            sem,
            S::Search | S::City | S::Country | S::PostalCode | S::Email | S::PersonName
        ),
        _ => !matches!(sem, S::Consent | S::Toggle | S::Choice),
    }
}

/// Whether `field` opens or closes a range. The first text (labels, then placeholder,
/// `name`, `id`) that speaks of only one end decides: start, from, begin, check-in,
/// departure, arrival, min open; end, to, until, due, check-out, return, expiry, max close.
/// "From" and "To" count only as the first or last word, so "Add to cart" is no end.
pub fn range_role(field: &Field) -> RangeRole {
    range_role_with(&Texts::of(field))
}

pub(crate) fn range_role_with(texts: &Texts) -> RangeRole {
    for source in &texts.sources {
        let start = START.iter().any(|k| source.has(k));
        let end = END.iter().any(|k| source.has(k));
        match (start, end) {
            (true, false) => return RangeRole::Start,
            (false, true) => return RangeRole::End,
            _ => {}
        }
    }
    RangeRole::None
}

/// When dates should lie, from the words around them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum When {
    Future,
    Past,
    Near,
}

const FUTURE: &[&str] = &[
    "book",
    "booking",
    "reservation",
    "=reserve",
    "=due",
    "deadline",
    "departure",
    "=depart",
    "arrival",
    "=arrive",
    "check in",
    "check out",
    "=expiry",
    "=expires",
    "expiration",
    "=valid until",
    "appointment",
    "delivery",
    "=event",
    "=travel",
    "=trip",
    "=flight",
    "=return",
    "pickup",
    "pick up",
    "=visit",
    "=schedule",
    "=until",
    "=meeting",
    "=preferred",
];

const PAST: &[&str] = &[
    "birth",
    "=dob",
    "=born",
    "purchase",
    "purchased",
    "incident",
    "=issued",
    "issue date",
    "=since",
    "=joined",
    "=hired",
    "=occurred",
    "=happened",
    "graduation",
    "=last visit",
];

pub(crate) fn when(texts: &Texts) -> When {
    if texts.any(PAST) {
        When::Past
    } else if texts.any(FUTURE) {
        When::Future
    } else {
        When::Near
    }
}

/// Whether the words around a field mention `keyword` (see [`crate::words::Source::has`]).
pub(crate) fn mentions(texts: &Texts, keyword: &str) -> bool {
    texts.any(&[keyword])
}
