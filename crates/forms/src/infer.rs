//! Constraints inferred without an LLM, before any submission: what the markup states
//! ([`infer_from_markup`]), what the hints around each field say ("at least 8
//! characters", "e.g. 94105"), what the field's meaning implies (an email has an `@`, a
//! birth date lies in the past, a confirmation repeats its field), and how related fields
//! bound each other (origin differs from destination, check-out follows check-in, the
//! maximum is not below the minimum).
//!
//! Everything comes out in the constraint language, so these rules, rules read later
//! from the form's feedback and an LLM's proposals are one list that negation checks.

use curio_page::Form;

use crate::ferg::Ferg;
use crate::lang::{Check, CmpOp, Constraint, Operand};
use crate::markup::infer_from_markup;
use crate::scalar::{days_from_civil, format_date};
use crate::semantic::{RangeRole, Semantic, When, classify, range_role_with, when};
use crate::session::rules_from_text;
use crate::testing::field_refs;
use crate::words::Texts;

/// Everything [`infer`] knows about a form: its markup, and the texts around each field
/// (from the FERG when there is one, else the field's own label, placeholder and title).
pub fn infer(form: &Form, ferg: Option<&Ferg>, today: (i32, u32, u32)) -> Vec<Constraint> {
    let refs = field_refs(form);
    let today =
        format_date(days_from_civil(i64::from(today.0), today.1, today.2)).unwrap_or_default();
    let sems: Vec<Semantic> = form.fields.iter().map(classify).collect();
    let roles: Vec<RangeRole> = form
        .fields
        .iter()
        .map(|f| range_role_with(&Texts::of(f)))
        .collect();
    let mut out = infer_from_markup(form);

    for (i, field) in form.fields.iter().enumerate() {
        if field.readonly || !fillable(&field.input_type) {
            continue;
        }
        let me = refs[i].as_str();
        // Hints: every text around the field but its name.
        for text in hints(form, ferg, i) {
            for c in hint_rules(form, &refs, i, &text, &today) {
                out.push(c);
            }
        }
        let texts = Texts::of(field);
        let date = matches!(field.input_type.as_str(), "date" | "datetime-local")
            || matches!(sems[i], Semantic::Date | Semantic::BirthDate);
        match sems[i] {
            Semantic::Email if field.input_type != "email" => {
                out.push(Constraint::new(me, Check::ToContainChar('@')));
            }
            Semantic::EmailConfirm => {
                if let Some(p) = before(&sems, i, &[Semantic::Email]) {
                    out.push(equal(me, &refs[p]));
                }
            }
            Semantic::PasswordConfirm => {
                if let Some(p) = before(&sems, i, &[Semantic::Password]) {
                    out.push(equal(me, &refs[p]));
                }
            }
            Semantic::Phone => out.push(Constraint::new(
                me,
                Check::ToHaveLengthCondition(CmpOp::Ge, 7),
            )),
            Semantic::Quantity if field.min.is_none() => out.push(Constraint::new(
                me,
                Check::ToHaveCompareCondition(CmpOp::Ge, Operand::Number(1.0)),
            )),
            Semantic::Price | Semantic::Age if field.min.is_none() => {
                out.push(Constraint::new(
                    me,
                    Check::ToHaveCompareCondition(CmpOp::Ge, Operand::Number(0.0)),
                ));
            }
            Semantic::Percentage => {
                if field.min.is_none() {
                    out.push(Constraint::new(
                        me,
                        Check::ToHaveCompareCondition(CmpOp::Ge, Operand::Number(0.0)),
                    ));
                }
                if field.max.is_none() {
                    out.push(Constraint::new(
                        me,
                        Check::ToHaveCompareCondition(CmpOp::Le, Operand::Number(100.0)),
                    ));
                }
            }
            _ => {}
        }
        if date && !today.is_empty() {
            match (sems[i], when(&texts)) {
                (Semantic::BirthDate, _) | (_, When::Past) if field.max.is_none() => {
                    out.push(Constraint::new(
                        me,
                        Check::ToHaveCompareCondition(CmpOp::Le, Operand::Str(today.clone())),
                    ));
                }
                (_, When::Future) if field.min.is_none() && roles[i] != RangeRole::End => {
                    out.push(Constraint::new(
                        me,
                        Check::ToHaveCompareCondition(CmpOp::Ge, Operand::Str(today.clone())),
                    ));
                }
                _ => {}
            }
        }
        // Two plain dates (issued, due): the later field is not before the earlier.
        let has_start =
            (0..i).any(|s| roles[s] == RangeRole::Start && same_scale(form, &sems, s, i));
        if field.input_type == "date"
            && roles[i] != RangeRole::Start
            && !has_start
            && sems[i] != Semantic::BirthDate
            && let Some(p) = (0..i).rev().find(|&p| {
                form.fields[p].input_type == "date"
                    && roles[p] == RangeRole::None
                    && sems[p] != Semantic::BirthDate
            })
        {
            out.push(Constraint::new(
                me,
                Check::ToHaveCompareCondition(CmpOp::Ge, Operand::Field(refs[p].clone())),
            ));
        }
        // The end of a range against its start: the nearest start before it of the
        // same kind; places differ, dates and numbers do not go backwards.
        if roles[i] == RangeRole::End
            && let Some(s) = (0..i)
                .rev()
                .find(|&s| roles[s] == RangeRole::Start && same_scale(form, &sems, s, i))
        {
            let start = refs[s].as_str();
            if place(sems[i]) || same_options(&form.fields[i], &form.fields[s]) {
                out.push(equal(me, start).negate());
            } else {
                out.push(Constraint::new(
                    me,
                    Check::ToHaveCompareCondition(CmpOp::Ge, Operand::Field(start.to_string())),
                ));
            }
        }
    }
    let mut unique: Vec<Constraint> = Vec::new();
    for c in out {
        if !unique.contains(&c) {
            unique.push(c);
        }
    }
    unique
}

fn fillable(input_type: &str) -> bool {
    !matches!(
        input_type,
        "hidden" | "submit" | "button" | "reset" | "image" | "file" | "color"
    )
}

fn equal(me: &str, other: &str) -> Constraint {
    Constraint::new(me, Check::ToBeEqual(Operand::Field(other.to_string())))
}

/// The nearest field before `i` whose meaning is one of `wanted`.
fn before(sems: &[Semantic], i: usize, wanted: &[Semantic]) -> Option<usize> {
    (0..i).rev().find(|&p| wanted.contains(&sems[p]))
}

/// Meanings whose range is two places (from, to) rather than two points on a scale.
fn place(sem: Semantic) -> bool {
    matches!(
        sem,
        Semantic::City | Semantic::Country | Semantic::Region | Semantic::StreetAddress
    )
}

/// Two selects offering the same choices: two ends of a range picked from one list (from
/// and to stations) are different picks.
fn same_options(a: &curio_page::Field, b: &curio_page::Field) -> bool {
    fn values(f: &curio_page::Field) -> Vec<&str> {
        f.options
            .iter()
            .filter(|o| !o.value.is_empty())
            .map(|o| o.value.as_str())
            .collect()
    }
    a.input_type.starts_with("select")
        && a.input_type == b.input_type
        && values(a).len() >= 3
        && values(a) == values(b)
}

/// Whether fields `a` and `b` are two ends of one range: both places, both dates, both
/// numbers, or both picked from the same list.
fn same_scale(form: &Form, sems: &[Semantic], a: usize, b: usize) -> bool {
    if same_options(&form.fields[a], &form.fields[b]) {
        return true;
    }
    let scale = |i: usize| {
        let f = &form.fields[i];
        if place(sems[i]) {
            1
        } else if matches!(f.input_type.as_str(), "date" | "datetime-local" | "month")
            || matches!(
                sems[i],
                Semantic::Date | Semantic::BirthDate | Semantic::DateTime
            )
        {
            2
        } else if f.input_type == "time" || sems[i] == Semantic::Time {
            3
        } else if matches!(f.input_type.as_str(), "number" | "range") || sems[i].is_scalar() {
            4
        } else {
            0
        }
    };
    let s = scale(a);
    s != 0 && s == scale(b)
}

/// The texts around field `i` that may state its rules: its FERG context, else its own
/// labels and placeholder.
fn hints(form: &Form, ferg: Option<&Ferg>, i: usize) -> Vec<String> {
    let mut out: Vec<String> = match ferg {
        Some(g) => g.context(i),
        None => Vec::new(),
    };
    let field = &form.fields[i];
    for text in field
        .labels
        .iter()
        .map(|l| l.text.clone())
        .chain(field.placeholder.clone())
    {
        if !out.contains(&text) {
            out.push(text);
        }
    }
    out
}

/// Words that make a text a rule rather than a name.
const RULE_WORDS: &[&str] = &[
    "at least",
    "at most",
    "between",
    "minimum",
    "maximum",
    "min",
    "max",
    "must",
    "only",
    "characters",
    "character",
    "digits",
    "letters",
    "no more than",
    "up to",
    "or more",
    "or fewer",
    "or less",
    "exactly",
];

/// Rules a hint states, and the shape of an example it gives ("e.g. AB123456").
fn hint_rules(form: &Form, refs: &[String], i: usize, text: &str, today: &str) -> Vec<Constraint> {
    let lower = text.to_lowercase();
    let words = crate::feedback::words(&lower);
    let joined = format!(" {} ", words.join(" "));
    let mut out = Vec::new();
    if RULE_WORDS
        .iter()
        .any(|w| joined.contains(&format!(" {w} ")))
    {
        // A hint may be about the form rather than the field ("up to two flights"):
        // a length needs a unit, a bound a field that holds numbers or dates.
        let unit = [
            "character",
            "characters",
            "chars",
            "letters",
            "digits",
            "long",
        ]
        .iter()
        .any(|u| joined.contains(&format!(" {u} ")));
        let field = &form.fields[i];
        let scalar = matches!(
            field.input_type.as_str(),
            "number" | "range" | "date" | "datetime-local" | "month" | "week" | "time"
        ) || classify(field).is_scalar();
        let today = Some(today).filter(|t| !t.is_empty());
        out.extend(
            rules_from_text(form, refs, i, text, "", today)
                .into_iter()
                .filter(|c| match &c.check {
                    Check::ToBeTruthy => false,
                    Check::FreeText(t) => mentions_digit(t),
                    Check::ToHaveLengthCondition(..) => unit,
                    Check::ToHaveCompareCondition(..) => scalar,
                    _ => true,
                }),
        );
    }
    // "At least one adult per room": this field's count is at least the other's.
    if let Some(pos) = lower.find(" per ") {
        let after = &text[pos + 5..];
        let field = &form.fields[i];
        let counted = matches!(field.input_type.as_str(), "number" | "select-one")
            || classify(field) == Semantic::Quantity;
        if counted
            && (lower.contains("at least") || lower.contains("minimum"))
            && let Some(other) = named_after(form, after, i)
        {
            out.push(Constraint::new(
                refs[i].clone(),
                Check::ToHaveCompareCondition(CmpOp::Ge, Operand::Field(refs[other].clone())),
            ));
        }
    }
    if let Some(example) = example_in(text) {
        let me = refs[i].as_str();
        let field = &form.fields[i];
        let text_like = matches!(field.input_type.as_str(), "text" | "search" | "tel" | "");
        if text_like && example.chars().count() >= 4 {
            if example.chars().all(|c| c.is_ascii_digit()) {
                out.push(Constraint::new(me, Check::ToBeNumerical));
            } else if example.chars().all(|c| c.is_ascii_alphanumeric())
                && example.chars().any(|c| c.is_ascii_digit())
                && example.chars().any(|c| c.is_ascii_alphabetic())
            {
                out.push(Constraint::new(me, Check::ToBeAlphaNumerical));
                out.push(Constraint::new(
                    me,
                    Check::ToHaveLengthCondition(CmpOp::Eq, example.chars().count()),
                ));
            }
        }
    }
    out
}

/// Values the page itself offers for each field (by index): the examples its hints give
/// ("e.g. 94105"), and for a search box the words of the texts around it (a search for
/// what the site talks about finds something). Best first.
pub fn examples(form: &Form, ferg: Option<&Ferg>) -> Vec<Vec<String>> {
    form.fields
        .iter()
        .enumerate()
        .map(|(i, field)| {
            let texts = hints(form, ferg, i);
            let mut out: Vec<String> = texts.iter().filter_map(|t| example_in(t)).collect();
            if classify(field) == Semantic::Search {
                // The words that name the box ("Search"), not the texts near it.
                let label: Vec<String> = field
                    .label()
                    .map(crate::feedback::words)
                    .unwrap_or_default();
                // Sentences about the site first, then shorter texts (titles, headings).
                let mut sources: Vec<&String> = texts.iter().collect();
                sources.sort_by_key(|t| std::cmp::Reverse(t.split_whitespace().count() >= 4));
                for w in sources.iter().flat_map(|t| crate::feedback::words(t)) {
                    let content = w.chars().count() >= 5
                        && w.chars().all(char::is_alphabetic)
                        && !label.contains(&w)
                        && !SEARCH_NOISE.contains(&w.as_str());
                    if content && !out.contains(&w) {
                        out.push(w);
                    }
                }
            }
            out
        })
        .collect()
}

/// Words around a search box that say nothing of what the site holds.
const SEARCH_NOISE: &[&str] = &[
    "search", "about", "their", "there", "these", "those", "which", "where", "while", "other",
    "every", "enter", "words", "results", "find", "looking", "please", "terms", "query",
];

/// The field other than `me` whose label's first word the start of `text` names, singular
/// or plural ("per room" names "Rooms").
fn named_after(form: &Form, text: &str, me: usize) -> Option<usize> {
    let word = crate::feedback::words(text).into_iter().next()?;
    form.fields.iter().enumerate().position(|(j, f)| {
        j != me
            && f.label()
                .and_then(|l| crate::feedback::words(l).into_iter().next())
                .is_some_and(|l| l.len() >= 3 && (l.starts_with(&word) || word.starts_with(&l)))
    })
}

/// Whether a free-text rule asks for a digit ("must contain a number").
pub(crate) fn mentions_digit(text: &str) -> bool {
    let w = crate::feedback::words(&text.to_lowercase());
    w.iter().any(|w| {
        matches!(
            w.as_str(),
            "digit" | "digits" | "number" | "numbers" | "numeral"
        )
    })
}

/// The example value a hint gives: the token after "e.g.", "for example", "such as" or
/// "like", without quotes and trailing punctuation.
pub(crate) fn example_in(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let at = ["e.g.", "e.g", "for example", "such as", "example:", "like"]
        .iter()
        .find_map(|k| {
            lower.match_indices(k).find_map(|(p, _)| {
                let before = lower[..p].chars().next_back();
                let after = lower[p + k.len()..].chars().next();
                let starts = before.is_none_or(|c| !c.is_alphanumeric());
                let ends = k.ends_with(['.', ':']) || after.is_none_or(|c| !c.is_alphanumeric());
                (starts && ends).then_some(p + k.len())
            })
        })?;
    let rest = text.get(at..)?.trim_start_matches([' ', ':', ',']);
    // Up to the end of the phrase: a comma, a bracket, or a full stop that ends it.
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        let next = rest[i + c.len_utf8()..].chars().next();
        if matches!(c, ',' | ';' | ')' | '(' | '\n')
            || (c == '.' && next.is_none_or(char::is_whitespace))
        {
            end = i;
            break;
        }
    }
    let token = rest[..end]
        .trim()
        .trim_matches(|c: char| "\"'«»“”‘’[]".contains(c))
        .trim();
    (!token.is_empty() && token.chars().count() <= 40).then(|| token.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{Build, form, input};

    fn field(id: &str, ty: &str, label: &str) -> curio_page::Field {
        input(ty).name(id).label(label)
    }

    const TODAY: (i32, u32, u32) = (2026, 12, 4);

    fn texts(cs: &[Constraint]) -> Vec<String> {
        cs.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn confirmation_fields_repeat_their_field() {
        let form = form(vec![
            field("email", "email", "Email"),
            field("email2", "email", "Confirm email"),
            field("pw", "password", "Password"),
            field("pw2", "password", "Repeat password"),
        ]);
        let got = texts(&infer(&form, None, TODAY));
        assert!(
            got.contains(&"expect(field('email2')).toBeEqual(field('email'))".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(&"expect(field('pw2')).toBeEqual(field('pw'))".to_string()),
            "{got:?}"
        );
    }

    #[test]
    fn ranges_order_their_ends_and_places_differ() {
        let form = form(vec![
            field("from", "text", "From (city)"),
            field("to", "text", "To (city)"),
            field("in", "date", "Check-in"),
            field("out", "date", "Check-out"),
            field("lo", "number", "Minimum salary"),
            field("hi", "number", "Maximum salary"),
        ]);
        let got = texts(&infer(&form, None, TODAY));
        assert!(
            got.contains(&"expect(field('to')).not.toBeEqual(field('from'))".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(
                &"expect(field('out')).toHaveCompareCondition('>=', field('in'))".to_string()
            ),
            "{got:?}"
        );
        assert!(
            got.contains(
                &"expect(field('hi')).toHaveCompareCondition('>=', field('lo'))".to_string()
            ),
            "{got:?}"
        );
        assert!(
            got.contains(
                &"expect(field('in')).toHaveCompareCondition('>=', '2026-12-04')".to_string()
            ),
            "{got:?}"
        );
    }

    #[test]
    fn counts_per_other_field_and_picks_from_one_list() {
        let stations = [("a", "Leeds"), ("b", "York"), ("c", "Hull")];
        let adults =
            field("adults", "number", "Adults").placeholder("At least one adult per room.");
        let got = texts(&infer(
            &form(vec![
                field("from", "select-one", "From").options(&stations),
                field("to", "select-one", "To").options(&stations),
                field("rooms", "number", "Rooms"),
                adults,
            ]),
            None,
            TODAY,
        ));
        assert!(
            got.contains(
                &"expect(field('adults')).toHaveCompareCondition('>=', field('rooms'))".to_string()
            ),
            "{got:?}"
        );
        assert!(
            got.contains(&"expect(field('to')).not.toBeEqual(field('from'))".to_string()),
            "{got:?}"
        );
    }

    #[test]
    fn plain_dates_keep_their_order() {
        let got = texts(&infer(
            &form(vec![
                field("issued", "date", "Issue date"),
                field("due", "date", "Due date"),
            ]),
            None,
            TODAY,
        ));
        assert!(
            got.contains(
                &"expect(field('due')).toHaveCompareCondition('>=', field('issued'))".to_string()
            ),
            "{got:?}"
        );
    }

    #[test]
    fn birth_dates_lie_in_the_past() {
        let form = form(vec![field("dob", "date", "Date of birth")]);
        let got = texts(&infer(&form, None, TODAY));
        assert!(
            got.contains(
                &"expect(field('dob')).toHaveCompareCondition('<=', '2026-12-04')".to_string()
            ),
            "{got:?}"
        );
    }

    #[test]
    fn hints_about_the_form_give_no_field_rules() {
        let from = field("from", "text", "From")
            .placeholder("Book up to two flights in one trip. Start typing a city.");
        let got = texts(&infer(&form(vec![from]), None, TODAY));
        assert!(got.is_empty(), "{got:?}");
    }

    #[test]
    fn hints_give_lengths_and_example_shapes() {
        let user = field("user", "text", "Username").placeholder("3-16 letters or digits");
        let card = field("card", "text", "Railcard number").placeholder("e.g. AB123456");
        let pw =
            field("pw", "password", "Password").placeholder("At least 8 characters, with a number");
        let form = form(vec![user, card, pw]);
        let got = texts(&infer(&form, None, TODAY));
        assert!(
            got.contains(&"expect(field('card')).toBeAlphaNumerical()".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(&"expect(field('card')).toHaveLengthCondition('==', 8)".to_string()),
            "{got:?}"
        );
        assert!(
            got.contains(&"expect(field('pw')).toHaveLengthCondition('>=', 8)".to_string()),
            "{got:?}"
        );
        assert!(
            got.iter()
                .any(|c| c.starts_with("expect(field('pw')).freeTextConstraint(")),
            "{got:?}"
        );
    }

    #[test]
    fn the_page_offers_examples_and_words_to_search_for() {
        let salary = field("min", "text", "Salary from").placeholder("e.g. 60000");
        let mut search = field("q", "search", "Search")
            .placeholder("Recipes, gardening guides and news from the kitchen garden");
        search.labels.push(curio_page::Label {
            text: "Recipes, gardening guides and news from the kitchen garden".into(),
            source: curio_page::LabelSource::NearestText,
        });
        let got = examples(&form(vec![salary, search]), None);
        assert_eq!(got[0], ["60000"]);
        assert_eq!(got[1][..3], ["recipes", "gardening", "guides"]);
    }

    #[test]
    fn examples_are_read_after_their_marker() {
        assert_eq!(example_in("e.g. 94105").as_deref(), Some("94105"));
        assert_eq!(
            example_in("For example: \"AB123456\".").as_deref(),
            Some("AB123456")
        );
        assert_eq!(example_in("Your city"), None);
        assert_eq!(
            example_in("Enter 10 to 15 digits, like +1 555 123 4567.").as_deref(),
            Some("+1 555 123 4567")
        );
        assert_eq!(example_in("Most likely a city"), None);
        assert_eq!(
            example_in("ZIP code (e.g. 94105)").as_deref(),
            Some("94105")
        );
    }
}
