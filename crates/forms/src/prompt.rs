//! What a language model is asked about a form, and how its answers join the rules.
//!
//! FormNexus asks a model, one field at a time, for the fewest constraints that field
//! must keep, in the constraint language: today's date, the form's context (its title
//! and the labels of its fields), the field's HTML and local context from the FERG, and
//! its related fields in order of relevance. Curio asks the same, and reads the answer
//! with the tolerant parser ([`crate::lang::parse_many`]). What the model proposes joins
//! the built-in rules; the negation step then keeps only what the form confirms, so a
//! wrong proposal costs a submission, never a wrong test.
//!
//! The value prompt asks, field after field, for a realistic value that keeps the
//! field's constraints, given the values already chosen for its related fields; the
//! answers become the solver's first guesses, which it still repairs against the rules.

use curio_page::{Field, Form};

use crate::ferg::Ferg;
use crate::lang::{Applies, CmpOp, Constraint, Param, Template, parse_many};
use crate::testing::field_refs;

/// The system message of the constraint prompt: the language and what to write.
pub const CONSTRAINT_SYSTEM: &str = "You infer the validation rules of one field of a web \
form. Answer with constraints only, one per line, in this language:
expect(field('ID')).TEMPLATE(ARGS) or expect(field('ID')).not.TEMPLATE(ARGS)
Templates: toBeEqual(value), toHaveLengthCondition('<'|'<='|'>'|'>='|'=='|'!=', n), \
toBeTruthy(), toHaveCompareCondition(op, value or field('OTHER_ID')), \
toContainSubString('text'), toContainChar('c'), toBeAlphabetical(), toBeNumerical(), \
toBeAlphaNumerical(), toContainUpperCaseChars(), toContainSpecialChars(), \
toContainWhiteSpace(), toStartWithString('text'), toEndWithString('text'), \
freeTextConstraint(\"rule in words\").
Dates are compared as 'YYYY-MM-DD'. Give the fewest constraints that a valid value of \
this field must keep, for this field only; refer to other fields with field('ID').";

/// The system message of the value prompt.
pub const VALUE_SYSTEM: &str = "You fill in one field of a web form with a realistic \
value that keeps every constraint given, as a careful person would. Answer with the value \
alone, on one line, without quotes or explanations. Dates are written YYYY-MM-DD.";

/// What the prompts give the model besides the field's HTML. Everything by default;
/// FormNexus' ablations take one part away at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptParts {
    /// Today's date.
    pub date: bool,
    /// The form's title and the labels of all its fields.
    pub form: bool,
    /// What the FERG knows: the field's local context and its related fields.
    pub ferg: bool,
}

impl Default for PromptParts {
    fn default() -> Self {
        PromptParts {
            date: true,
            form: true,
            ferg: true,
        }
    }
}

/// Longest HTML of the field, and of each related field, given to the model.
const MAX_HTML: usize = 400;
/// Related fields named in the prompt, most related first.
const MAX_RELATED: usize = 5;

/// The user message of the constraint prompt for field `index` of `form`.
pub fn constraint_prompt(
    form: &Form,
    ferg: &Ferg,
    index: usize,
    today: &str,
    parts: PromptParts,
) -> String {
    let refs = field_refs(form);
    let mut out = String::new();
    if parts.date {
        out.push_str(&format!("Today's date: {today}\n\n"));
    }
    if parts.form {
        out.push_str("Form context:\n");
        if let Some(title) = form.title.as_deref().or(form.name.as_deref()) {
            out.push_str(&format!("Title: {title}\n"));
        }
        let labels: Vec<String> = form
            .fields
            .iter()
            .zip(&refs)
            .map(|(f, r)| format!("{r} ({})", f.label().unwrap_or("no label")))
            .collect();
        out.push_str(&format!("Fields: {}\n\n", labels.join(", ")));
    }
    push_field(&mut out, form, ferg, &refs, index, parts.ferg);
    let related: Vec<usize> = if parts.ferg {
        ferg.related(index)
            .into_iter()
            .map(|(i, _)| i)
            .filter(|&i| i != index && i < form.fields.len())
            .take(MAX_RELATED)
            .collect()
    } else {
        Vec::new()
    };
    if !related.is_empty() {
        out.push_str("Related fields, most related first:\n");
        for i in related {
            out.push_str(&format!(
                "- '{}': {}\n",
                refs[i],
                field_html(&form.fields[i])
            ));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "Write the constraints of field '{}'.",
        refs[index]
    ));
    out
}

/// A refused submission, as the feedback prompt tells it.
#[derive(Debug, Clone, Copy)]
pub struct Refusal<'a> {
    /// The values tried, by field.
    pub tried: &'a [String],
    /// What the form said: about a field (by index), or about the form as a whole.
    pub feedback: &'a [(Option<usize>, String)],
    /// The constraints known so far.
    pub known: &'a [Constraint],
}

/// The constraint prompt after a refused submission: the values tried, what the form
/// said about this field (inline feedback) and about the form as a whole (global), and
/// the constraints already known for the field, so that the model adds what explains
/// the refusal.
pub fn feedback_prompt(
    form: &Form,
    ferg: &Ferg,
    index: usize,
    today: &str,
    refusal: Refusal<'_>,
    parts: PromptParts,
) -> String {
    let Refusal {
        tried,
        feedback,
        known,
    } = refusal;
    let refs = field_refs(form);
    let base = constraint_prompt(form, ferg, index, today, parts);
    let ask = base.rfind("Write the constraints").unwrap_or(base.len());
    let mut out = base[..ask].to_string();
    out.push_str("A submission was refused. Values tried:\n");
    for (r, v) in refs.iter().zip(tried) {
        out.push_str(&format!("- '{r}' = {v:?}\n"));
    }
    let inline: Vec<&String> = feedback
        .iter()
        .filter(|(f, _)| *f == Some(index))
        .map(|(_, t)| t)
        .collect();
    let global: Vec<&String> = feedback
        .iter()
        .filter(|(f, _)| f.is_none())
        .map(|(_, t)| t)
        .collect();
    if !inline.is_empty() {
        out.push_str(&format!("Feedback on field '{}':\n", refs[index]));
        for t in inline {
            out.push_str(&format!("- {t}\n"));
        }
    }
    if !global.is_empty() {
        out.push_str("Feedback on the form:\n");
        for t in global {
            out.push_str(&format!("- {t}\n"));
        }
    }
    // Which field a message is about is read from the layout, and may be wrong.
    let others: Vec<(usize, &String)> = feedback
        .iter()
        .filter_map(|(f, t)| f.filter(|&f| f != index && f < refs.len()).map(|f| (f, t)))
        .collect();
    if !others.is_empty() {
        out.push_str("Feedback on other fields:\n");
        for (f, t) in others {
            out.push_str(&format!("- '{}': {t}\n", refs[f]));
        }
    }
    let own: Vec<&Constraint> = known.iter().filter(|c| c.field == refs[index]).collect();
    if !own.is_empty() {
        out.push_str("Constraints known so far:\n");
        for c in own {
            out.push_str(&format!("- {c}\n"));
        }
    }
    out.push('\n');
    out.push_str(&format!(
        "Write the constraints of field '{}' that explain the refusal.",
        refs[index]
    ));
    out
}

/// The user message of the value prompt for field `index` of `form`: the form's
/// context, the field's HTML and local context, its constraints, and the values chosen
/// so far for its related fields (`chosen`, by field index).
pub fn value_prompt(
    form: &Form,
    ferg: &Ferg,
    index: usize,
    today: &str,
    constraints: &[Constraint],
    chosen: &[Option<String>],
    parts: PromptParts,
) -> String {
    let refs = field_refs(form);
    let mut out = String::new();
    if parts.date {
        out.push_str(&format!("Today's date: {today}\n\n"));
    }
    if parts.form
        && let Some(title) = form.title.as_deref().or(form.name.as_deref())
    {
        out.push_str(&format!("Form: {title}\n"));
    }
    push_field(&mut out, form, ferg, &refs, index, parts.ferg);
    let own: Vec<&Constraint> = constraints
        .iter()
        .filter(|c| c.field == refs[index])
        .collect();
    if !own.is_empty() {
        out.push_str("Constraints:\n");
        for c in own {
            out.push_str(&format!("- {c}\n"));
        }
        out.push('\n');
    }
    let related: Vec<(usize, &String)> = if parts.ferg {
        ferg.related(index)
            .into_iter()
            .map(|(i, _)| i)
            .filter(|&i| i != index)
            .filter_map(|i| chosen.get(i)?.as_ref().map(|v| (i, v)))
            .take(MAX_RELATED)
            .collect()
    } else {
        Vec::new()
    };
    if !related.is_empty() {
        out.push_str("Values chosen for related fields:\n");
        for (i, v) in related {
            out.push_str(&format!("- '{}' = {v:?}\n", refs[i]));
        }
        out.push('\n');
    }
    out.push_str(&format!("Write a value for field '{}'.", refs[index]));
    out
}

/// The value in a model's answer to the value prompt: its first line that says
/// something, without quotes, code marks or a `Value:` label; `None` when there is none.
pub fn value_from_answer(answer: &str) -> Option<String> {
    let line = answer
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("```"))?;
    let line = line
        .strip_prefix("Value:")
        .or_else(|| line.strip_prefix("value:"))
        .unwrap_or(line)
        .trim();
    let value = line.trim_matches(|c| matches!(c, '"' | '\'' | '`')).trim();
    (!value.is_empty() && value.chars().count() <= 200).then(|| value.to_string())
}

/// The field asked about: its HTML, and its local context from the FERG when `context`.
fn push_field(
    out: &mut String,
    form: &Form,
    ferg: &Ferg,
    refs: &[String],
    index: usize,
    context: bool,
) {
    out.push_str(&format!(
        "Input field '{}':\n{}\n\n",
        refs[index],
        field_html(&form.fields[index])
    ));
    let context = if context {
        ferg.context(index)
    } else {
        Vec::new()
    };
    if !context.is_empty() {
        out.push_str("Local context:\n");
        for text in context {
            out.push_str(&format!("- {text}\n"));
        }
        out.push('\n');
    }
}

/// The field as HTML: its tag and the attributes that carry rules.
fn field_html(field: &Field) -> String {
    let mut attrs: Vec<(String, String)> = Vec::new();
    let mut add = |name: &str, value: Option<&str>| {
        if let Some(v) = value.filter(|v| !v.is_empty()) {
            attrs.push((name.to_string(), v.to_string()));
        }
    };
    if field.tag == "input" {
        add("type", Some(&field.input_type));
    }
    add("id", field.id.as_deref());
    add("name", field.name.as_deref());
    add("placeholder", field.placeholder.as_deref());
    add("autocomplete", field.autocomplete.as_deref());
    add("min", field.min.as_deref());
    add("max", field.max.as_deref());
    add("step", field.step.as_deref());
    add("pattern", field.pattern.as_deref());
    add("inputmode", field.inputmode.as_deref());
    let minlength = field.minlength.map(|n| n.to_string());
    let maxlength = field.maxlength.map(|n| n.to_string());
    add("minlength", minlength.as_deref());
    add("maxlength", maxlength.as_deref());
    let mut html = format!("<{}", field.tag);
    for (name, value) in attrs {
        html.push_str(&format!(" {name}=\"{}\"", value.replace('"', "&quot;")));
    }
    if field.required {
        html.push_str(" required");
    }
    html.push('>');
    if !field.options.is_empty() {
        let options: Vec<String> = field
            .options
            .iter()
            .take(12)
            .map(|o| format!("<option value=\"{}\">{}</option>", o.value, o.text))
            .collect();
        html.push_str(&options.join(""));
    }
    let mut html: String = html.chars().take(MAX_HTML).collect();
    if field.tag == "select" || field.tag == "textarea" {
        html.push_str(&format!("</{}>", field.tag));
    }
    html
}

/// What a model answered about field `index`: the constraints it proposes that are new,
/// about that field, and refer only to fields of the form; and how many it wrote that
/// could not be used (unreadable, about another or an unknown field, repeats).
pub fn proposals(
    form: &Form,
    index: usize,
    answer: &str,
    known: &[Constraint],
) -> (Vec<Constraint>, usize) {
    let refs = field_refs(form);
    let (parsed, errors) = parse_many(answer);
    let mut rejected = errors.len();
    let mut out: Vec<Constraint> = Vec::new();
    for c in parsed {
        let usable = c.field == refs[index]
            && c.related_fields()
                .iter()
                .all(|f| refs.iter().any(|r| r == f))
            && c.template() != Template::Dummy
            && !known.contains(&c)
            && !out.contains(&c);
        if usable {
            out.push(c);
        } else {
            rejected += 1;
        }
    }
    (out, rejected)
}

/// Constraints a grammar-held answer may hold: a small model tends to repeat itself
/// until it runs out of tokens otherwise.
const MAX_GRAMMAR_LINES: usize = 4;

/// The shape of a usable answer to the constraint prompt about field `index`, in GBNF
/// (llama.cpp's grammar format): one to four constraints on that field, one per line, each
/// with a template that suits the field and that the negation step can test (neither
/// prose nor `dummy`), referring only to the form's fields. A local model is held to it;
/// a model server is not sent it, and its answers are read with the tolerant parser.
pub fn constraint_grammar(form: &Form, index: usize) -> String {
    let refs = field_refs(form);
    let kind = field_kind(&form.fields[index]);
    let calls: Vec<String> = Template::ALL
        .into_iter()
        .filter(|t| !matches!(t, Template::FreeText | Template::Dummy))
        .filter(|t| match t.applies_to() {
            Applies::Any => true,
            applies => Some(applies) == kind,
        })
        .map(|t| {
            let args: Vec<&str> = t
                .params()
                .iter()
                .map(|p| match p {
                    Param::Value => "value",
                    Param::Operator => "op",
                    Param::Length => "length",
                    Param::Comparable => "comparable",
                    Param::Text => "text",
                    Param::Char => "char",
                    Param::Prose => "prose",
                    Param::FieldRef => "fieldref",
                })
                .collect();
            let args = if args.is_empty() {
                String::new()
            } else {
                format!(" {} ", args.join(" \", \" "))
            };
            format!("\"{}(\"{args}\")\"", t.name())
        })
        .collect();
    let others: Vec<String> = refs
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .map(|(_, r)| gbnf_literal(r))
        .collect();
    let ops: Vec<String> = CmpOp::ALL
        .iter()
        .map(|op| gbnf_literal(&format!("'{}'", op.as_str())))
        .collect();
    let mut g = String::new();
    g.push_str(&format!(
        "root ::= line (\"\\n\" line){{0,{}}}\n",
        MAX_GRAMMAR_LINES - 1
    ));
    g.push_str(&format!(
        "line ::= \"expect(field('\" {} \"')).\" (\"not.\")? call\n",
        gbnf_literal(&refs[index])
    ));
    g.push_str(&format!("call ::= {}\n", calls.join(" | ")));
    g.push_str(&format!("op ::= {}\n", ops.join(" | ")));
    g.push_str("length ::= [0-9] | [1-9] [0-9] | [1-9] [0-9] [0-9]\n");
    g.push_str("number ::= \"-\"? [0-9]{1,9} (\".\" [0-9]{1,4})?\n");
    g.push_str("text ::= \"'\" [^'\\\\\\n]{1,30} \"'\"\n");
    g.push_str("char ::= \"'\" [^'\\\\\\n] \"'\"\n");
    g.push_str("prose ::= \"\\\"\" [^\"\\\\\\n]{1,80} \"\\\"\"\n");
    // Literals of the field's own type: a date compares to dates, a list equals one of
    // its options.
    let field = &form.fields[index];
    let literal = match (field.tag.as_str(), field.input_type.as_str()) {
        ("select", _) if !field.options.is_empty() => field
            .options
            .iter()
            .map(|o| gbnf_literal(&format!("'{}'", o.value.replace(['\'', '\\'], ""))))
            .collect::<Vec<_>>()
            .join(" | "),
        ("input", "number" | "range") => "number".to_string(),
        ("input", "date") => format!("\"'\" {DATE} \"'\""),
        ("input", "time") => format!("\"'\" {TIME} \"'\""),
        ("input", "datetime-local" | "month" | "week") => "\"'\" [0-9:TW-]{4,19} \"'\"".to_string(),
        _ => "text | number".to_string(),
    };
    let or_field = if others.is_empty() { "" } else { " | fieldref" };
    g.push_str(&format!("value ::= {literal}{or_field}\n"));
    g.push_str(&format!("comparable ::= {literal}{or_field}\n"));
    if !others.is_empty() {
        g.push_str(&format!(
            "fieldref ::= \"field('\" ({}) \"')\"\n",
            others.join(" | ")
        ));
    }
    g
}

/// A date, `YYYY-MM-DD`, in GBNF.
const DATE: &str = "[12] [0-9] [0-9] [0-9] \"-\" [01] [0-9] \"-\" [0-3] [0-9]";
/// A time, `HH:MM`, in GBNF.
const TIME: &str = "[0-2] [0-9] \":\" [0-5] [0-9]";

/// The shape of a usable answer to the value prompt for `field`, in GBNF: one line, in
/// the form its type takes (a date, a number, an address, …), at most `maxlength` long.
pub fn value_grammar(field: &Field) -> String {
    let most = field.maxlength.map_or(60, |n| (n as usize).clamp(1, 60));
    let body = match field.input_type.as_str() {
        _ if field.tag != "input" => format!("[^\\n]{{1,{most}}}"),
        "date" => DATE.to_string(),
        "time" => TIME.to_string(),
        "month" => "[12] [0-9] [0-9] [0-9] \"-\" [01] [0-9]".to_string(),
        "week" => "[12] [0-9] [0-9] [0-9] \"-W\" [0-5] [0-9]".to_string(),
        "datetime-local" => format!("{DATE} \"T\" {TIME}"),
        "number" | "range" => "\"-\"? [0-9]{1,9} (\".\" [0-9]{1,4})?".to_string(),
        "email" => "[a-z0-9._-]{1,20} \"@\" [a-z0-9-]{1,20} \".\" [a-z]{2,6}".to_string(),
        "url" => {
            "\"https://\" [a-z0-9-]{1,20} \".\" [a-z]{2,6} (\"/\" [a-z0-9-]{0,20})?".to_string()
        }
        "tel" => "\"+\"? [0-9 ()-]{6,18}".to_string(),
        _ => format!("[^\\n]{{1,{most}}}"),
    };
    format!("root ::= {body}\n")
}

/// Which [`Applies`] kind a field is, beyond `Any`: `None` for fields a person neither
/// types text into nor orders (checkboxes, radios, lists).
fn field_kind(field: &Field) -> Option<Applies> {
    match (field.tag.as_str(), field.input_type.as_str()) {
        ("textarea", _) => Some(Applies::Text),
        ("input", "number" | "range" | "date" | "time" | "datetime-local" | "month" | "week") => {
            Some(Applies::Ordered)
        }
        ("input", "text" | "" | "email" | "password" | "search" | "tel" | "url") => {
            Some(Applies::Text)
        }
        _ => None,
    }
}

/// `text` as a GBNF string literal.
fn gbnf_literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::parse;
    use crate::tests::{form, input};

    fn two_fields() -> Form {
        let mut from = input("date");
        from.id = Some("from".into());
        let mut to = input("date");
        to.id = Some("to".into());
        form(vec![from, to])
    }

    #[test]
    fn an_answer_gives_the_new_rules_of_its_field_only() {
        let form = two_fields();
        let known = vec![parse("expect(field('to')).toBeTruthy()").unwrap()];
        let answer = "Here you go:\n```\n\
            expect(field('to')).toBeTruthy()\n\
            expect(field('to')).toHaveCompareCondition('>', field('from'))\n\
            expect(field('to')).toHaveCompareCondition('>', field('from'))\n\
            expect(field('from')).toBeTruthy()\n\
            expect(field('to')).toHaveCompareCondition('<', field('return'))\n\
            expect(field('to')).toBeAwesome(\n```";
        let (new, rejected) = proposals(&form, 1, answer, &known);
        assert_eq!(
            new,
            vec![parse("expect(field('to')).toHaveCompareCondition('>', field('from'))").unwrap()]
        );
        // The known rule, the repeat, the other field's, the unknown field's, the unreadable.
        assert_eq!(rejected, 5);
    }

    #[test]
    fn each_prompt_part_can_be_left_out() {
        let mut form = two_fields();
        form.title = Some("Book a stay".into());
        let dom = curio_page::FormDom::default();
        let ferg = Ferg::build(&form, &dom, &crate::LexicalEmbedder, 1);
        let all = constraint_prompt(&form, &ferg, 1, "2026-12-04", PromptParts::default());
        assert!(all.contains("Today's date: 2026-12-04"), "{all}");
        assert!(all.contains("Title: Book a stay"), "{all}");
        assert!(all.contains("Related fields"), "{all}");
        let without = |parts: PromptParts| constraint_prompt(&form, &ferg, 1, "2026-12-04", parts);
        let no_date = without(PromptParts {
            date: false,
            ..PromptParts::default()
        });
        assert!(
            !no_date.contains("2026-12-04") && no_date.contains("Title:"),
            "{no_date}"
        );
        let no_form = without(PromptParts {
            form: false,
            ..PromptParts::default()
        });
        assert!(
            !no_form.contains("Book a stay") && no_form.contains("Today's"),
            "{no_form}"
        );
        let no_ferg = without(PromptParts {
            ferg: false,
            ..PromptParts::default()
        });
        assert!(
            !no_ferg.contains("Related fields") && !no_ferg.contains("Local context"),
            "{no_ferg}"
        );
        assert!(no_ferg.contains("Input field 'to'"), "{no_ferg}");
    }

    #[test]
    fn the_constraint_grammar_names_the_field_and_the_templates_that_suit_it() {
        let mut form = two_fields();
        let mut name = input("text");
        name.id = Some("guest".into());
        form.fields.push(name);
        let date = constraint_grammar(&form, 1);
        assert!(
            date.contains("\"expect(field('\" \"to\" \"')).\""),
            "{date}"
        );
        assert!(date.contains("toHaveCompareCondition"), "{date}");
        assert!(
            !date.contains("toContainChar"),
            "a date has no characters to ask for: {date}"
        );
        assert!(!date.contains("freeTextConstraint"), "{date}");
        // Other fields only, by their own names.
        assert!(
            date.contains("fieldref ::= \"field('\" (\"from\" | \"guest\") \"')\""),
            "{date}"
        );
        // A date compares to dates and the form's other fields, not to words.
        assert!(date.contains("value ::= \"'\" [12]"), "{date}");
        assert!(!date.contains("text | number"), "{date}");
        let text = constraint_grammar(&form, 2);
        assert!(text.contains("toContainChar") && !text.contains("toHaveCompareCondition"));
        assert!(value_grammar(&form.fields[0]).contains("\"-\""));
        let mut short = input("text");
        short.maxlength = Some(5);
        assert_eq!(value_grammar(&short), "root ::= [^\\n]{1,5}\n");
    }

    #[test]
    fn values_are_read_from_chatty_answers() {
        assert_eq!(value_from_answer("GIFT-2024"), Some("GIFT-2024".into()));
        assert_eq!(
            value_from_answer("\n```\nValue: \"Lyon\"\n```"),
            Some("Lyon".into())
        );
        assert_eq!(value_from_answer("  \n"), None);
    }

    #[test]
    fn the_value_prompt_gives_constraints_and_related_values() {
        let form = two_fields();
        let dom = curio_page::FormDom::default();
        let ferg = Ferg::build(&form, &dom, &crate::LexicalEmbedder, 1);
        let rule = parse("expect(field('to')).toHaveCompareCondition('>', field('from'))").unwrap();
        let other = parse("expect(field('from')).toBeTruthy()").unwrap();
        let prompt = value_prompt(
            &form,
            &ferg,
            1,
            "2026-12-04",
            &[rule.clone(), other],
            &[Some("2026-12-10".into()), None],
            PromptParts::default(),
        );
        assert!(prompt.contains("Today's date: 2026-12-04"), "{prompt}");
        assert!(prompt.contains(&format!("- {rule}")), "{prompt}");
        assert!(
            !prompt.contains("toBeTruthy"),
            "only the field's own: {prompt}"
        );
        assert!(prompt.contains("Write a value for field 'to'."), "{prompt}");
    }

    #[test]
    fn the_feedback_prompt_gives_values_tried_and_what_the_form_said() {
        let form = two_fields();
        let dom = curio_page::FormDom::default();
        let ferg = Ferg::build(&form, &dom, &crate::LexicalEmbedder, 1);
        let known = parse("expect(field('to')).toBeTruthy()").unwrap();
        let prompt = feedback_prompt(
            &form,
            &ferg,
            1,
            "2026-12-04",
            Refusal {
                tried: &["2026-12-10".into(), "2026-12-11".into()],
                feedback: &[
                    (Some(1), "Stays are at least 3 nights.".into()),
                    (Some(0), "Not on Sundays.".into()),
                    (None, "Please check the form.".into()),
                ],
                known: std::slice::from_ref(&known),
            },
            PromptParts::default(),
        );
        assert!(prompt.contains("- 'to' = \"2026-12-11\""), "{prompt}");
        assert!(
            prompt.contains("Feedback on field 'to':\n- Stays are at least 3 nights."),
            "{prompt}"
        );
        assert!(
            prompt.contains("Feedback on other fields:\n- 'from': Not on Sundays."),
            "{prompt}"
        );
        assert!(
            prompt.contains("Feedback on the form:\n- Please check the form."),
            "{prompt}"
        );
        assert!(prompt.contains(&format!("- {known}")), "{prompt}");
        assert!(prompt.ends_with("that explain the refusal."), "{prompt}");
    }

    #[test]
    fn misspelt_templates_are_read_as_the_nearest() {
        let form = two_fields();
        let (new, _) = proposals(&form, 0, "expect(field('from')).toBeTruthyy()", &[]);
        assert_eq!(
            new,
            vec![parse("expect(field('from')).toBeTruthy()").unwrap()]
        );
    }

    #[test]
    fn the_field_is_shown_as_html_with_its_rules() {
        let mut f = input("number");
        f.id = Some("seats".into());
        f.min = Some("1".into());
        f.required = true;
        assert_eq!(
            field_html(&f),
            r#"<input type="number" id="seats" min="1" required>"#
        );
    }
}
