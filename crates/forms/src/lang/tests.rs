//! Behaviour of the constraint language: printing, strict and tolerant parsing, picking
//! constraints out of free text, and evaluation against field values.

use std::cmp::Ordering;
use std::collections::HashMap;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::*;

fn num(n: f64) -> Operand {
    Operand::Number(n)
}

fn field(id: &str) -> Operand {
    Operand::Field(id.to_owned())
}

fn string(s: &str) -> Operand {
    Operand::Str(s.to_owned())
}

fn not(field: &str, check: Check) -> Constraint {
    Constraint::new(field, check).negate()
}

fn tolerant(text: &str) -> Constraint {
    parse_tolerant(text).unwrap_or_else(|e| panic!("{text:?} should parse tolerantly: {e}"))
}

fn strict(text: &str) -> Constraint {
    parse(text).unwrap_or_else(|e| panic!("{text:?} should parse: {e}"))
}

fn tolerant_err(text: &str) -> ParseError {
    match parse_tolerant(text) {
        Ok(c) => panic!("{text:?} should not parse, got {c:?}"),
        Err(e) => e,
    }
}

/// Evaluates `c` where the fields in `pairs` have the given values and others have none.
fn eval(c: &Constraint, pairs: &[(&str, &str)]) -> Option<bool> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|&(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
    c.holds(&|id: &str| map.get(id).cloned())
}

/// Evaluates a check on field `f` holding `value`.
fn check_on(check: Check, value: &str) -> Option<bool> {
    eval(&Constraint::new("f", check), &[("f", value)])
}

/// One constraint per template, with awkward arguments.
fn one_of_each() -> Vec<Constraint> {
    vec![
        Constraint::new("confirm", Check::ToBeEqual(field("pass'word"))),
        Constraint::new("code", Check::ToBeEqual(string("it's \\ \"x\""))),
        Constraint::new("qty", Check::ToBeEqual(num(-2.5))),
        Constraint::new("password", Check::ToHaveLengthCondition(CmpOp::Ge, 8)),
        Constraint::new("email", Check::ToBeTruthy),
        Constraint::new(
            "return",
            Check::ToHaveCompareCondition(CmpOp::Gt, field("depart")),
        ),
        Constraint::new("age", Check::ToHaveCompareCondition(CmpOp::Lt, num(18.0))),
        Constraint::new(
            "from",
            Check::ToHaveCompareCondition(CmpOp::Le, string("2024-12-31")),
        ),
        Constraint::new("url", Check::ToContainSubString("://".into())),
        Constraint::new("email", Check::ToContainChar('@')),
        Constraint::new("quote", Check::ToContainChar('\'')),
        Constraint::new("name", Check::ToBeAlphabetical),
        Constraint::new("zip", Check::ToBeNumerical),
        Constraint::new("user", Check::ToBeAlphaNumerical),
        Constraint::new("password", Check::ToContainUpperCaseChars),
        Constraint::new("password", Check::ToContainSpecialChars),
        Constraint::new("full name", Check::ToContainWhiteSpace),
        Constraint::new("phone", Check::ToStartWithString("+33 ".into())),
        Constraint::new("file", Check::ToEndWithString("\\.pdf".into())),
        Constraint::new(
            "promo",
            Check::FreeText("must be a \"code\" printed on the voucher".into()),
        ),
        Constraint::new("city", Check::Dummy("country".into())),
    ]
}

#[test]
fn prints_the_canonical_text_form() {
    let cases = [
        (
            Constraint::new("email", Check::ToBeTruthy),
            "expect(field('email')).toBeTruthy()",
        ),
        (
            Constraint::new("email", Check::ToContainChar('@')),
            "expect(field('email')).toContainChar('@')",
        ),
        (
            Constraint::new("password", Check::ToHaveLengthCondition(CmpOp::Ge, 8)),
            "expect(field('password')).toHaveLengthCondition('>=', 8)",
        ),
        (
            Constraint::new("confirm", Check::ToBeEqual(field("password"))),
            "expect(field('confirm')).toBeEqual(field('password'))",
        ),
        (
            Constraint::new(
                "return",
                Check::ToHaveCompareCondition(CmpOp::Gt, field("depart")),
            ),
            "expect(field('return')).toHaveCompareCondition('>', field('depart'))",
        ),
        (
            not("age", Check::ToHaveCompareCondition(CmpOp::Lt, num(18.0))),
            "expect(field('age')).not.toHaveCompareCondition('<', 18)",
        ),
        (
            Constraint::new(
                "promo",
                Check::FreeText("must be a \"code\" on the voucher".into()),
            ),
            r#"expect(field('promo')).freeTextConstraint("must be a \"code\" on the voucher")"#,
        ),
        (
            Constraint::new("city", Check::Dummy("country".into())),
            "expect(field('city')).dummy(field('country'))",
        ),
        (
            Constraint::new("o'brien", Check::ToBeEqual(string("a\\b\n\t\u{1b}'\""))),
            r#"expect(field('o\'brien')).toBeEqual('a\\b\n\t\u{1b}\'"')"#,
        ),
        (
            Constraint::new("x", Check::ToBeEqual(num(0.5))),
            "expect(field('x')).toBeEqual(0.5)",
        ),
        (
            Constraint::new("x", Check::ToHaveCompareCondition(CmpOp::Ne, num(-2.0))),
            "expect(field('x')).toHaveCompareCondition('!=', -2)",
        ),
        (
            Constraint::new(
                "x",
                Check::ToHaveCompareCondition(CmpOp::Lt, num(f64::INFINITY)),
            ),
            "expect(field('x')).toHaveCompareCondition('<', Infinity)",
        ),
    ];
    for (constraint, text) in cases {
        assert_eq!(constraint.to_string(), text);
    }
}

#[test]
fn every_template_round_trips_plain_and_negated() {
    let constraints = one_of_each();
    let mut covered: Vec<Template> = constraints.iter().map(Constraint::template).collect();
    covered.sort();
    covered.dedup();
    assert_eq!(
        covered,
        Template::ALL.to_vec(),
        "every template is exercised"
    );
    for constraint in constraints {
        for c in [constraint.clone(), constraint.negate()] {
            let text = c.to_string();
            assert_eq!(parse(&text), Ok(c.clone()), "strict: {text}");
            assert_eq!(parse_tolerant(&text), Ok(c.clone()), "tolerant: {text}");
            assert_eq!(text.parse::<Constraint>(), Ok(c.clone()), "FromStr: {text}");
            assert_eq!(text.contains(".not."), c.negated, "{text}");
        }
    }
}

#[test]
fn awkward_literals_round_trip_on_one_line() {
    let awkward = [
        "",
        "'",
        "\"",
        "`",
        "\\",
        "\\'",
        "it's a \"quote\"",
        "line\nbreak\r\n",
        "\t\u{0}\u{7}\u{1b}\u{7f}\u{85}",
        "\\u{41} is not an escape",
        "Zoë 中文 😀 e\u{301}",
        "expect(field('x')).toBeTruthy()",
        "a, b)",
    ];
    for s in awkward {
        let constraints = [
            Constraint::new(s, Check::ToBeTruthy),
            Constraint::new("f", Check::ToBeEqual(string(s))),
            Constraint::new("f", Check::ToBeEqual(field(s))),
            Constraint::new("f", Check::ToContainSubString(s.into())),
            Constraint::new("f", Check::ToStartWithString(s.into())),
            Constraint::new("f", Check::ToEndWithString(s.into())),
            Constraint::new("f", Check::FreeText(s.into())),
            Constraint::new("f", Check::Dummy(s.into())),
        ];
        for c in constraints {
            let text = c.to_string();
            assert!(!text.contains(['\n', '\r']), "one line: {text}");
            assert_eq!(parse(&text), Ok(c), "{text}");
        }
    }
    for ch in ['\'', '"', '\\', '\n', '\u{0}', 'é', '😀', ' '] {
        let c = Constraint::new("f", Check::ToContainChar(ch));
        assert_eq!(parse(&c.to_string()), Ok(c));
    }
}

#[test]
fn special_numbers_round_trip() {
    for n in [
        0.0,
        -0.0,
        0.1,
        -1234.5678,
        1e21,
        1e-7,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ] {
        let c = Constraint::new("n", Check::ToHaveCompareCondition(CmpOp::Gt, num(n)));
        let Ok(back) = parse(&c.to_string()) else {
            panic!("{c}")
        };
        let Check::ToHaveCompareCondition(_, Operand::Number(m)) = back.check else {
            panic!("{back:?}")
        };
        assert_eq!(m.to_bits(), n.to_bits(), "{c}");
    }
    let c = Constraint::new("n", Check::ToBeEqual(num(f64::NAN)));
    assert_eq!(c.to_string(), "expect(field('n')).toBeEqual(NaN)");
    let back = strict(&c.to_string());
    assert!(matches!(back.check, Check::ToBeEqual(Operand::Number(m)) if m.is_nan()));
}

/// An alphabet heavy in characters that need escaping or look like syntax.
const ALPHABET: &[char] = &[
    'a', 'Z', '0', '9', ' ', '\'', '"', '`', '\\', '\n', '\r', '\t', '\u{0}', '\u{1b}', '\u{7f}',
    '\u{85}', 'é', 'ß', '中', '😀', '\u{301}', '(', ')', ',', '.', ';', '$', '{', '}', 'u', 'x',
    '=', '<', '>', '!', '-', '+',
];

fn random_string(rng: &mut ChaCha8Rng) -> String {
    let len = rng.random_range(0..12);
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())])
        .collect()
}

fn random_char(rng: &mut ChaCha8Rng) -> char {
    if rng.random_bool(0.5) {
        ALPHABET[rng.random_range(0..ALPHABET.len())]
    } else {
        loop {
            if let Some(c) = char::from_u32(rng.random_range(0..0x11_0000)) {
                return c;
            }
        }
    }
}

fn random_number(rng: &mut ChaCha8Rng) -> f64 {
    match rng.random_range(0..4) {
        0 => f64::from(rng.random_range(-1000..1000)),
        1 => {
            let scale = 10f64.powi(rng.random_range(-8..8));
            (rng.random::<f64>() - 0.5) * scale
        }
        2 => loop {
            let n = f64::from_bits(rng.random::<u64>());
            if !n.is_nan() {
                return n;
            }
        },
        _ => {
            let special = [0.0, -0.0, f64::MAX, f64::MIN, f64::INFINITY, 1e21, 0.1];
            special[rng.random_range(0..special.len())]
        }
    }
}

fn random_operand(rng: &mut ChaCha8Rng) -> Operand {
    match rng.random_range(0..3) {
        0 => Operand::Field(random_string(rng)),
        1 => Operand::Str(random_string(rng)),
        _ => Operand::Number(random_number(rng)),
    }
}

fn random_constraint(rng: &mut ChaCha8Rng) -> Constraint {
    let op = CmpOp::ALL[rng.random_range(0..CmpOp::ALL.len())];
    let check = match Template::ALL[rng.random_range(0..Template::ALL.len())] {
        Template::ToBeEqual => Check::ToBeEqual(random_operand(rng)),
        Template::ToHaveLengthCondition => {
            let n = if rng.random_bool(0.05) {
                usize::MAX
            } else {
                rng.random_range(0..10_000)
            };
            Check::ToHaveLengthCondition(op, n)
        }
        Template::ToBeTruthy => Check::ToBeTruthy,
        Template::ToHaveCompareCondition => Check::ToHaveCompareCondition(op, random_operand(rng)),
        Template::ToContainSubString => Check::ToContainSubString(random_string(rng)),
        Template::ToContainChar => Check::ToContainChar(random_char(rng)),
        Template::ToBeAlphabetical => Check::ToBeAlphabetical,
        Template::ToBeNumerical => Check::ToBeNumerical,
        Template::ToBeAlphaNumerical => Check::ToBeAlphaNumerical,
        Template::ToContainUpperCaseChars => Check::ToContainUpperCaseChars,
        Template::ToContainSpecialChars => Check::ToContainSpecialChars,
        Template::ToContainWhiteSpace => Check::ToContainWhiteSpace,
        Template::ToStartWithString => Check::ToStartWithString(random_string(rng)),
        Template::ToEndWithString => Check::ToEndWithString(random_string(rng)),
        Template::FreeText => Check::FreeText(random_string(rng)),
        Template::Dummy => Check::Dummy(random_string(rng)),
    };
    Constraint {
        field: random_string(rng),
        negated: rng.random_bool(0.5),
        check,
    }
}

#[test]
fn random_constraints_round_trip_through_text() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let mut answer = String::new();
    let mut expected = Vec::new();
    for _ in 0..3000 {
        let c = random_constraint(&mut rng);
        let text = c.to_string();
        assert!(!text.contains(['\n', '\r']), "one line: {text}");
        assert_eq!(parse(&text), Ok(c.clone()), "{text}");
        // Tolerant reading keeps every constraint except numeric strings compared as
        // numbers, which it reads as numbers.
        let numeric_string = matches!(
            &c.check,
            Check::ToHaveCompareCondition(_, Operand::Str(s)) if parse_number(s).is_some()
        );
        let read = tolerant(&text);
        if !numeric_string {
            assert_eq!(read, c, "{text}");
        }
        answer.push_str(&text);
        answer.push_str(if rng.random_bool(0.5) { ";\n" } else { "\n" });
        expected.push(read);
    }
    let (found, errors) = parse_many(&answer);
    assert_eq!(errors, vec![]);
    assert_eq!(found, expected);
}

#[test]
fn strict_parsing_refuses_what_only_tolerant_parsing_accepts() {
    let cases = [
        "expect(field('a')).toBe(1)",
        "expect(field('a')).tobetruthy()",
        "expect(field(\"a\")).toBeTruthy()",
        "expect(field('a')).toContainSubString(\"x\")",
        "expect(field('a')).freeTextConstraint('prose')",
        "expect(field('a')).toBeTruthy();",
        "  expect(field('a')).toBeTruthy()\n",
        "expect(field('a')).toBeTruthy",
        "expect(field('a')) .not .toBeTruthy()",
        "expect(field('a')).toHaveLengthCondition('>=', '8')",
        "expect(field('a')).toHaveLengthCondition('>=', 8.0)",
        "expect(field('a')).toHaveLengthCondition('=', 8)",
        "expect(field('a')).toHaveLengthCondition(>=, 8)",
        "expect(field('a')).dummy('b')",
        "expect('a').toBeTruthy()",
        "expect(field(a)).toBeTruthy()",
        "expect(field('a')).toContainChar(5)",
        "expect(field('a')).toStartWithString('a',)",
    ];
    for text in cases {
        assert!(parse(text).is_err(), "strict should refuse {text:?}");
        tolerant(text);
    }
    // Whitespace inside argument lists is ordinary syntax.
    assert_eq!(
        strict("expect( field( 'a' ) ).toHaveLengthCondition( '>=' ,\t8 )"),
        Constraint::new("a", Check::ToHaveLengthCondition(CmpOp::Ge, 8))
    );
}

#[test]
fn strict_parsing_suggests_the_canonical_name() {
    let e = parse("expect(field('a')).toBe(1)").unwrap_err();
    assert_eq!(
        e.kind(),
        &ParseErrorKind::UnknownTemplate {
            name: "toBe".into(),
            suggestion: Some(Template::ToBeEqual)
        }
    );
    assert!(e.to_string().contains("did you mean `toBeEqual`"), "{e}");
    let e = parse("expect(field('a')).toHaveLengthCondition('=', 8)").unwrap_err();
    assert_eq!(e.kind(), &ParseErrorKind::UnknownOperator("=".into()));
}

#[test]
fn tolerant_parsing_maps_aliases_to_templates() {
    let cases = [
        (
            "expect(field('a')).toBe(5)",
            Constraint::new("a", Check::ToBeEqual(num(5.0))),
        ),
        (
            "expect(field('a')).toEqual(field('b'))",
            Constraint::new("a", Check::ToBeEqual(field("b"))),
        ),
        (
            "expect(field('a')).toContainSubstr('ab')",
            Constraint::new("a", Check::ToContainSubString("ab".into())),
        ),
        (
            "expect(field('a')).toBeAlpha()",
            Constraint::new("a", Check::ToBeAlphabetical),
        ),
        (
            "expect(field('a')).toBeAlphanumeric()",
            Constraint::new("a", Check::ToBeAlphaNumerical),
        ),
        (
            "expect(field('a')).TOBETRUTHY()",
            Constraint::new("a", Check::ToBeTruthy),
        ),
        (
            "expect(field('a')).toStartWith('x')",
            Constraint::new("a", Check::ToStartWithString("x".into())),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(tolerant(text), expected, "{text}");
    }
}

#[test]
fn tolerant_parsing_maps_misspellings_to_the_nearest_template() {
    let cases = [
        ("toContainsChar('@')", Check::ToContainChar('@')),
        ("tobetruthy()", Check::ToBeTruthy),
        (
            "toHaveLenghtCondition('>=', 8)",
            Check::ToHaveLengthCondition(CmpOp::Ge, 8),
        ),
        ("toBeAlphaNumerica()", Check::ToBeAlphaNumerical),
        (
            "toStartsWithString('0')",
            Check::ToStartWithString("0".into()),
        ),
        (
            "toHaveCompairCondition('<', 3)",
            Check::ToHaveCompareCondition(CmpOp::Lt, num(3.0)),
        ),
    ];
    for (tail, check) in cases {
        let text = format!("expect(field('a')).{tail}");
        assert_eq!(tolerant(&text), Constraint::new("a", check), "{text}");
    }
    assert_eq!(
        Template::nearest("toContainsChar"),
        Some(Template::ToContainChar)
    );
    assert_eq!(Template::nearest("toBeEqual"), Some(Template::ToBeEqual));
}

#[test]
fn tolerant_parsing_rejects_names_far_from_every_template() {
    for name in ["toMatch", "toBeFalsy", "frobnicate", "toBeGreaterThan", "x"] {
        let text = format!("expect(field('a')).{name}(1)");
        let e = tolerant_err(&text);
        assert_eq!(
            e.kind(),
            &ParseErrorKind::UnknownTemplate {
                name: name.into(),
                suggestion: None
            },
            "{text}"
        );
        assert!(e.to_string().contains(&format!("`{name}`")), "{e}");
        assert_eq!(e.offset(), "expect(field('a')).".len());
        assert_eq!(Template::nearest(name), None);
    }
    // Equally close to `toContain` (an alias of toContainSubString) and `toContainChar`.
    let e = tolerant_err("expect(field('a')).toContainCh('x')");
    assert_eq!(
        e.kind(),
        &ParseErrorKind::AmbiguousTemplate {
            name: "toContainCh".into(),
            candidates: vec![Template::ToContainChar, Template::ToContainSubString],
        }
    );
    assert!(e.to_string().contains("toContainCh"), "{e}");
}

#[test]
fn tolerant_parsing_accepts_loose_syntax() {
    let cases = [
        (
            "expect(field(\"email\")).toContainChar(\"@\")",
            Constraint::new("email", Check::ToContainChar('@')),
        ),
        (
            "expect(field(`email`)).toEndWithString(`.org`)",
            Constraint::new("email", Check::ToEndWithString(".org".into())),
        ),
        (
            "  expect(field('a')).toBeTruthy() ;  \n",
            Constraint::new("a", Check::ToBeTruthy),
        ),
        (
            "expect(field('a')).not .toBe(field('b'))",
            not("a", Check::ToBeEqual(field("b"))),
        ),
        (
            "expect ( field ( 'a' ) ) . Not . toBeTruthy ( )",
            not("a", Check::ToBeTruthy),
        ),
        (
            "expect(field('a')).toBeTruthy",
            Constraint::new("a", Check::ToBeTruthy),
        ),
        (
            "expect(field('a')).not.toBeNumerical;",
            not("a", Check::ToBeNumerical),
        ),
        (
            "expect(field('p')).toHaveLengthCondition('>=', '8')",
            Constraint::new("p", Check::ToHaveLengthCondition(CmpOp::Ge, 8)),
        ),
        (
            "expect(field('p')).toHaveLengthCondition(\"<=\", 8.0)",
            Constraint::new("p", Check::ToHaveLengthCondition(CmpOp::Le, 8)),
        ),
        (
            "expect(field('p')).toHaveLengthCondition(>=, 8,)",
            Constraint::new("p", Check::ToHaveLengthCondition(CmpOp::Ge, 8)),
        ),
        (
            "expect(field('age')).toHaveCompareCondition('=', '18')",
            Constraint::new("age", Check::ToHaveCompareCondition(CmpOp::Eq, num(18.0))),
        ),
        (
            "expect(field('age')).toHaveCompareCondition('<>', ' 18.5 ')",
            Constraint::new("age", Check::ToHaveCompareCondition(CmpOp::Ne, num(18.5))),
        ),
        (
            "expect(field('d')).toHaveCompareCondition('!==', '2024-01-01')",
            Constraint::new(
                "d",
                Check::ToHaveCompareCondition(CmpOp::Ne, string("2024-01-01")),
            ),
        ),
        (
            "expect(field('a')).toBeEqual('8')",
            Constraint::new("a", Check::ToBeEqual(string("8"))),
        ),
        (
            "expect(field('zip')).toStartWithString(007)",
            Constraint::new("zip", Check::ToStartWithString("007".into())),
        ),
        (
            "expect(field('city')).dummy('country')",
            Constraint::new("city", Check::Dummy("country".into())),
        ),
        (
            "expect('email').toBeTruthy()",
            Constraint::new("email", Check::ToBeTruthy),
        ),
        (
            "expect(field(email)).toBeEqual(Field(\"other\"))",
            Constraint::new("email", Check::ToBeEqual(field("other"))),
        ),
        (
            "expect(field('a')).toContainChar('ab')",
            Constraint::new("a", Check::ToContainSubString("ab".into())),
        ),
        (
            "Expect(field('a')).freeTextConstraint('any quotes')",
            Constraint::new("a", Check::FreeText("any quotes".into())),
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(tolerant(text), expected, "{text}");
    }
}

#[test]
fn tolerant_parsing_still_rejects_malformed_constraints() {
    type IsExpected = fn(&ParseErrorKind) -> bool;
    let cases: [(&str, IsExpected); 12] = [
        ("expect(field('a')).toHaveLengthCondition(8)", |k| {
            matches!(
                k,
                ParseErrorKind::WrongArity {
                    template: Template::ToHaveLengthCondition,
                    expected: 2,
                    found: 1
                }
            )
        }),
        ("expect(field('a')).toBeTruthy(true)", |k| {
            matches!(k, ParseErrorKind::WrongArity { found: 1, .. })
        }),
        ("expect(field('a')).toContainChar", |k| {
            matches!(k, ParseErrorKind::Expected { .. })
        }),
        ("expect(field('a')).toContainChar('@)", |k| {
            *k == ParseErrorKind::UnterminatedString
        }),
        ("expect(field('a')).toContainChar('')", |k| {
            matches!(
                k,
                ParseErrorKind::BadArgument {
                    template: Template::ToContainChar,
                    ..
                }
            )
        }),
        ("expect(field('a')).toHaveLengthCondition('>=', -1)", |k| {
            matches!(k, ParseErrorKind::BadArgument { index: 1, .. })
        }),
        ("expect(field('a')).toHaveLengthCondition('>=', 2.5)", |k| {
            matches!(k, ParseErrorKind::BadArgument { index: 1, .. })
        }),
        (
            "expect(field('a')).toHaveLengthCondition('>=', 'eight')",
            |k| matches!(k, ParseErrorKind::BadArgument { index: 1, .. }),
        ),
        ("expect(field('a')).toHaveLengthCondition('=>', 8)", |k| {
            *k == ParseErrorKind::UnknownOperator("=>".into())
        }),
        ("expect(field('a')).toBeTruthy() and more", |k| {
            *k == ParseErrorKind::TrailingInput("and more".into())
        }),
        ("expect(field('a')).toBeEqual(field('b')", |k| {
            matches!(k, ParseErrorKind::Expected { .. })
        }),
        ("expect(field('a')).toBeEqual('\\u{110000}')", |k| {
            matches!(k, ParseErrorKind::InvalidEscape(_))
        }),
    ];
    for (text, is_expected) in cases {
        let e = tolerant_err(text);
        assert!(is_expected(e.kind()), "{text}: {e:?}");
        assert_eq!(e.text(), text);
    }
}

#[test]
fn errors_point_at_the_problem() {
    let text = "expect(field('a')).toBeTruthy(1)";
    let e = parse(text).unwrap_err();
    assert_eq!(
        e.kind(),
        &ParseErrorKind::WrongArity {
            template: Template::ToBeTruthy,
            expected: 0,
            found: 1
        }
    );
    assert_eq!(&text[e.offset()..], "(1)");
    // Columns count chars, not bytes.
    let e = parse("expect(field('é')).nope()").unwrap_err();
    assert_eq!(e.offset(), 20);
    let shown = e.to_string();
    assert!(shown.contains("unknown template `nope`"), "{shown}");
    assert!(shown.contains("column 20"), "{shown}");
    assert!(shown.contains("expect(field('é')).nope()"), "{shown}");
    let e = parse("expect(field('a')).toHaveLengthCondition('>=', 'x')").unwrap_err();
    assert!(
        e.to_string().starts_with(
            "argument 2 of `toHaveLengthCondition` must be a non-negative whole number, found 'x'"
        ),
        "{e}"
    );
}

#[test]
fn string_escapes_follow_javascript() {
    let c = strict(r"expect(field('a')).toBeEqual('\u0041\x42\u{1F600}\uD83D\uDE00\q\0')");
    assert_eq!(c.check, Check::ToBeEqual(string("AB😀😀q\0")));
    for bad in [r"'\uD800'", r"'\x4'", r"'\u{}'"] {
        let text = format!("expect(field('a')).toBeEqual({bad})");
        let e = parse(&text).unwrap_err();
        assert!(
            matches!(e.kind(), ParseErrorKind::InvalidEscape(_)),
            "{text}: {e}"
        );
    }
    let e = parse("expect(field('a')).toBeEqual('abc\\").unwrap_err();
    assert_eq!(e.kind(), &ParseErrorKind::UnterminatedString);
}

#[test]
fn number_literals_follow_javascript() {
    let cases = [
        ("1e3", 1000.0),
        ("-2.5E-1", -0.25),
        (".5", 0.5),
        ("7.", 7.0),
        ("+4", 4.0),
        ("-Infinity", f64::NEG_INFINITY),
    ];
    for (literal, value) in cases {
        let text = format!("expect(field('a')).toHaveCompareCondition('>', {literal})");
        assert_eq!(
            strict(&text).check,
            Check::ToHaveCompareCondition(CmpOp::Gt, num(value)),
            "{text}"
        );
    }
}

const LLM_ANSWER: &str = r#"Sure! Here are the constraints I inferred for the sign-up form:

1. expect(field('email')).toBeTruthy()
2. **expect(field('email')).toContainChar('@')**

```javascript
expect(field('password')).toHaveLengthCondition('>=', 8);
expect(field("confirm")).toBe(field('password'));
// the return date cannot precede the departure
expect(field('return'))
  .toHaveCompareCondition('>', field('depart'))
```

- `expect(field('age')).not.toHaveCompareCondition('<', 18)` because minors cannot register.
* expect(field('promo')).freeTextConstraint("must be a code printed on the voucher")
3. expect(field('zip')).toHaveLengthCondition('>=', 5
4. expect(field('city')).dummy(field('country')) and expect(field('phone')).toBeNumerical

Let me know if I should refine these. Note that no unexpected(...) helper is needed.
"#;

#[test]
fn parse_many_picks_constraints_out_of_an_answer() {
    let (found, errors) = parse_many(LLM_ANSWER);
    let expected = vec![
        Constraint::new("email", Check::ToBeTruthy),
        Constraint::new("email", Check::ToContainChar('@')),
        Constraint::new("password", Check::ToHaveLengthCondition(CmpOp::Ge, 8)),
        Constraint::new("confirm", Check::ToBeEqual(field("password"))),
        Constraint::new(
            "return",
            Check::ToHaveCompareCondition(CmpOp::Gt, field("depart")),
        ),
        not("age", Check::ToHaveCompareCondition(CmpOp::Lt, num(18.0))),
        Constraint::new(
            "promo",
            Check::FreeText("must be a code printed on the voucher".into()),
        ),
        Constraint::new("city", Check::Dummy("country".into())),
        Constraint::new("phone", Check::ToBeNumerical),
    ];
    assert_eq!(found, expected);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(
        errors[0].text(),
        "expect(field('zip')).toHaveLengthCondition('>=', 5"
    );
    assert!(
        matches!(errors[0].kind(), ParseErrorKind::Expected { .. }),
        "{:?}",
        errors[0]
    );
}

#[test]
fn parse_many_reports_every_failed_attempt_and_keeps_going() {
    let answer = "expect(field('a')).toBeAwesome()\n\
                  expect(field('b')).toBeTruthy\n\
                  (this line is prose)\n\
                  expect(field('c')).toHaveLengthCondition('>', 'ten')\r\n\
                  done: expect(field('d')).toBeAlpha();expect(field('e')).toBeTruthy()";
    let (found, errors) = parse_many(answer);
    assert_eq!(
        found,
        vec![
            Constraint::new("b", Check::ToBeTruthy),
            Constraint::new("d", Check::ToBeAlphabetical),
            Constraint::new("e", Check::ToBeTruthy),
        ]
    );
    let texts: Vec<&str> = errors.iter().map(ParseError::text).collect();
    assert_eq!(
        texts,
        vec![
            "expect(field('a')).toBeAwesome()",
            "expect(field('c')).toHaveLengthCondition('>', 'ten')",
        ]
    );
    assert!(errors[0].to_string().contains("toBeAwesome"));
    assert_eq!(parse_many("no constraints here"), (vec![], vec![]));
}

#[test]
fn truthy_means_non_blank() {
    assert_eq!(check_on(Check::ToBeTruthy, "x"), Some(true));
    assert_eq!(check_on(Check::ToBeTruthy, " \t"), Some(false));
    assert_eq!(check_on(Check::ToBeTruthy, ""), Some(false));
}

#[test]
fn equality_is_numeric_between_numbers_and_exact_otherwise() {
    let eq = |rhs: Operand, value: &str| check_on(Check::ToBeEqual(rhs), value);
    assert_eq!(eq(string("abc"), "abc"), Some(true));
    assert_eq!(eq(string("abc"), "abc "), Some(false));
    assert_eq!(eq(string("abc"), "ABC"), Some(false));
    assert_eq!(eq(num(8.0), "8.0"), Some(true));
    assert_eq!(eq(num(8.0), " 8 "), Some(true));
    assert_eq!(eq(num(8.0), "eight"), Some(false));
    assert_eq!(eq(string("08"), "8"), Some(true));
    assert_eq!(eq(string("8 apples"), "8"), Some(false));

    let same = Constraint::new("confirm", Check::ToBeEqual(field("password")));
    let pairs = |a, b| [("confirm", a), ("password", b)];
    assert_eq!(eval(&same, &pairs("s3cret", "s3cret")), Some(true));
    assert_eq!(eval(&same, &pairs("s3cret", "secret")), Some(false));
    assert_eq!(eval(&same, &[("confirm", "s3cret")]), None);
}

#[test]
fn length_counts_chars() {
    let len = |op, n, value| check_on(Check::ToHaveLengthCondition(op, n), value);
    assert_eq!(len(CmpOp::Eq, 5, "héllo"), Some(true));
    assert_eq!(len(CmpOp::Eq, 1, "😀"), Some(true));
    assert_eq!(len(CmpOp::Ge, 8, "short"), Some(false));
    assert_eq!(len(CmpOp::Ge, 8, "longenough"), Some(true));
    assert_eq!(len(CmpOp::Lt, 1, ""), Some(true));
}

#[test]
fn comparison_uses_numbers_then_dates_and_times() {
    let cmp = |op, rhs, value| check_on(Check::ToHaveCompareCondition(op, rhs), value);
    // Numerically 9 < 10, though "9" > "10" as text.
    assert_eq!(cmp(CmpOp::Lt, num(10.0), "9"), Some(true));
    assert_eq!(cmp(CmpOp::Lt, string("10"), "9"), Some(true));
    assert_eq!(cmp(CmpOp::Ge, num(18.0), "17.5"), Some(false));
    assert_eq!(cmp(CmpOp::Ge, num(-1.0), " -0.5 "), Some(true));
    assert_eq!(
        cmp(CmpOp::Lt, string("2024-02-01"), "2024-01-31"),
        Some(true)
    );
    assert_eq!(
        cmp(CmpOp::Gt, string("2024-02-01"), "2024-01-31"),
        Some(false)
    );
    assert_eq!(cmp(CmpOp::Lt, string("10:00"), "09:30"), Some(true));
    assert_eq!(
        cmp(CmpOp::Gt, string("2024-01-01T09:00"), "2024-01-01T18:45"),
        Some(true)
    );
    assert_eq!(cmp(CmpOp::Eq, string("2024-06"), "2024-06"), Some(true));
    // Different shapes, text, or a number against a date: no verdict.
    assert_eq!(cmp(CmpOp::Lt, string("2024-01-01"), "2024-1-5"), None);
    assert_eq!(cmp(CmpOp::Lt, string("10:00:00"), "09:30"), None);
    assert_eq!(cmp(CmpOp::Lt, string("abd"), "abc"), None);
    assert_eq!(cmp(CmpOp::Lt, num(5.0), "2024-01-01"), None);
    assert_eq!(cmp(CmpOp::Lt, num(f64::NAN), "3"), None);

    let after = Constraint::new(
        "return",
        Check::ToHaveCompareCondition(CmpOp::Gt, field("depart")),
    );
    let trip = |ret, dep| [("return", ret), ("depart", dep)];
    assert_eq!(eval(&after, &trip("2025-07-10", "2025-07-03")), Some(true));
    assert_eq!(eval(&after, &trip("2025-07-03", "2025-07-03")), Some(false));
    assert_eq!(eval(&after, &trip("12", "3")), Some(true));
    assert_eq!(eval(&after, &[("return", "2025-07-10")]), None);
}

#[test]
fn character_classes() {
    let cases = [
        (Check::ToBeNumerical, "-3.5", true),
        (Check::ToBeNumerical, " 42 ", true),
        (Check::ToBeNumerical, "+.5", true),
        (Check::ToBeNumerical, "7.", true),
        (Check::ToBeNumerical, "1e5", false),
        (Check::ToBeNumerical, "12a", false),
        (Check::ToBeNumerical, "1.2.3", false),
        (Check::ToBeNumerical, ".", false),
        (Check::ToBeNumerical, "-", false),
        (Check::ToBeNumerical, "", false),
        (Check::ToBeNumerical, "NaN", false),
        (Check::ToBeAlphabetical, "Zoë", true),
        (Check::ToBeAlphabetical, "Jean Luc", false),
        (Check::ToBeAlphabetical, "abc1", false),
        (Check::ToBeAlphabetical, "", false),
        (Check::ToBeAlphaNumerical, "abc123", true),
        (Check::ToBeAlphaNumerical, "abc 123", false),
        (Check::ToBeAlphaNumerical, "a-b", false),
        (Check::ToBeAlphaNumerical, "", false),
        (Check::ToContainUpperCaseChars, "abcD", true),
        (Check::ToContainUpperCaseChars, "École", true),
        (Check::ToContainUpperCaseChars, "abc1!", false),
        (Check::ToContainSpecialChars, "a!b", true),
        (Check::ToContainSpecialChars, "pass word", false),
        (Check::ToContainSpecialChars, "abc123", false),
        (Check::ToContainWhiteSpace, "a b", true),
        (Check::ToContainWhiteSpace, "a\tb", true),
        (Check::ToContainWhiteSpace, "ab", false),
    ];
    for (check, value, expected) in cases {
        assert_eq!(
            check_on(check.clone(), value),
            Some(expected),
            "{check:?} on {value:?}"
        );
    }
}

#[test]
fn text_tests_are_plain_and_case_sensitive() {
    let cases = [
        (Check::ToContainSubString("://".into()), "https://x", true),
        (Check::ToContainSubString("://".into()), "https:x", false),
        (Check::ToContainChar('@'), "a@b", true),
        (Check::ToContainChar('@'), "ab", false),
        (Check::ToStartWithString("He".into()), "Hello", true),
        (Check::ToStartWithString("he".into()), "Hello", false),
        (Check::ToEndWithString(".pdf".into()), "cv.pdf", true),
        (Check::ToEndWithString(".pdf".into()), "cv.PDF", false),
        (Check::ToEndWithString(String::new()), "", true),
    ];
    for (check, value, expected) in cases {
        assert_eq!(
            check_on(check.clone(), value),
            Some(expected),
            "{check:?} on {value:?}"
        );
    }
}

#[test]
fn holds_has_no_verdict_for_prose_dummies_and_missing_values() {
    let all = [("f", "value"), ("country", "FR")];
    assert_eq!(
        eval(&Constraint::new("f", Check::FreeText("x".into())), &all),
        None
    );
    assert_eq!(
        eval(&Constraint::new("f", Check::Dummy("country".into())), &all),
        None
    );
    assert_eq!(eval(&not("f", Check::Dummy("country".into())), &all), None);
    for c in one_of_each() {
        assert_eq!(eval(&c, &[]), None, "{c}");
    }
}

#[test]
fn not_inverts_every_verdict() {
    let values = [
        "",
        " ",
        "abc",
        "Abc1!",
        "42",
        "-3.5",
        "2024-01-01",
        "a b",
        "@",
        "héllo",
    ];
    let mut verdicts = 0;
    for c in one_of_each() {
        for value in values {
            let pairs = [
                (c.field.as_str(), value),
                ("pass'word", "abc"),
                ("depart", "10"),
            ];
            let plain = eval(&c, &pairs);
            assert_eq!(
                eval(&c.negate(), &pairs),
                plain.map(|b| !b),
                "{c} on {value:?}"
            );
            verdicts += usize::from(plain.is_some());
        }
    }
    assert!(verdicts > 100, "only {verdicts} verdicts");
}

#[test]
fn negating_twice_is_identity() {
    for c in one_of_each() {
        let once = c.negate();
        assert_ne!(once, c);
        assert_eq!(once.negated, !c.negated);
        assert_eq!(once.check, c.check);
        assert_eq!(once.negate(), c);
    }
}

#[test]
fn related_fields_are_the_field_references_in_arguments() {
    let cases = [
        (Check::ToBeEqual(field("password")), vec!["password"]),
        (
            Check::ToHaveCompareCondition(CmpOp::Gt, field("depart")),
            vec!["depart"],
        ),
        (Check::Dummy("country".into()), vec!["country"]),
        (Check::ToBeEqual(string("password")), vec![]),
        (Check::ToHaveCompareCondition(CmpOp::Gt, num(1.0)), vec![]),
        (Check::ToBeTruthy, vec![]),
    ];
    for (check, related) in cases {
        let c = not("subject", check);
        assert_eq!(c.related_fields(), related, "{c}");
    }
}

#[test]
fn template_names_and_shapes() {
    for t in Template::ALL {
        assert_eq!(Template::from_name(t.name()), Some(t));
        assert_eq!(Template::nearest(t.name()), Some(t));
        assert_eq!(Template::nearest(&t.name().to_uppercase()), Some(t));
        assert_eq!(t.to_string(), t.name());
        assert_eq!(t.arity(), t.params().len());
    }
    assert_eq!(Template::from_name("tobetruthy"), None);
    assert_eq!(Template::from_name("toBe"), None);
    assert_eq!(Template::FreeText.name(), "freeTextConstraint");
    assert_eq!(
        Template::ToHaveLengthCondition.params(),
        &[Param::Operator, Param::Length]
    );
    assert_eq!(Template::ToBeTruthy.arity(), 0);
    assert_eq!(
        Template::ToHaveCompareCondition.applies_to(),
        Applies::Ordered
    );
    assert_eq!(Template::ToContainChar.applies_to(), Applies::Text);
    assert_eq!(Template::ToBeNumerical.applies_to(), Applies::Any);
    // Printed argument counts match the declared arity.
    for c in one_of_each() {
        let text = c.to_string();
        let args = text[text.find(c.template().name()).unwrap()..].to_owned();
        let empty = args.ends_with("()");
        assert_eq!(empty, c.template().arity() == 0, "{text}");
    }
}

#[test]
fn operators_parse_negate_and_hold() {
    for op in CmpOp::ALL {
        assert_eq!(CmpOp::parse(op.as_str()), Some(op));
        assert_eq!(op.to_string(), op.as_str());
        assert_eq!(op.negate().negate(), op);
        for ordering in [Ordering::Less, Ordering::Equal, Ordering::Greater] {
            assert_eq!(op.negate().holds(ordering), !op.holds(ordering), "{op}");
        }
    }
    assert_eq!(CmpOp::parse("="), Some(CmpOp::Eq));
    assert_eq!(CmpOp::parse("==="), Some(CmpOp::Eq));
    assert_eq!(CmpOp::parse("!=="), Some(CmpOp::Ne));
    assert_eq!(CmpOp::parse("<>"), Some(CmpOp::Ne));
    assert_eq!(CmpOp::parse("=>"), None);
    assert!(CmpOp::Le.holds(Ordering::Equal));
    assert!(!CmpOp::Lt.holds(Ordering::Equal));
    assert!(CmpOp::Gt.holds(Ordering::Greater));
    assert!(CmpOp::Ne.holds(Ordering::Less));
}

#[test]
fn edit_distance_is_levenshtein() {
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("abc", ""), 3);
    assert_eq!(edit_distance("abc", "abc"), 0);
    assert_eq!(edit_distance("lenght", "length"), 2);
    assert_eq!(edit_distance("é", "e"), 1);
}
