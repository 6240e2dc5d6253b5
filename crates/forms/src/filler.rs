//! The form macro action: values for every field of a form at once, either all valid (so
//! the submission gets past the browser and the server's validation to the code behind)
//! or valid but for one field (servers that mishandle bad input are a main source of
//! 500s). [`FormFiller`] is the interface; [`HeuristicFiller`] its first implementation,
//! reading meaning from labels; a constraint engine is to follow behind the same trait.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use curio_page::{ElementKey, Field, Form, FormId};
use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};

use crate::constraints::{accepts, bounds_and_grid, is_text_like};
use crate::dictionary::Dictionary;
use crate::pattern::Pattern;
use crate::realistic::{Persona, long_text, pick};
use crate::scalar::{
    Bounds, DAY, Grid, Scale, Want, civil_from_days, days_from_civil, days_in_month, decimals_of,
    month_civil, month_ordinal, parse_number, week_of_day,
};
use crate::semantic::{RangeRole, Semantic, When, classify_with, mentions, range_role_with, when};
use crate::words::Texts;

/// Which kind of values a fill carries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// Every field passes HTML constraints and looks real.
    #[default]
    Valid,
    /// One field left empty (unchecked, placeholder option).
    Empty,
    /// One text field far longer than anyone would type (300+ characters).
    TooLong,
    /// One field holding the wrong kind of text ("abc" for a quantity).
    WrongType,
    /// One number or date at or past an edge (min-1, max+1, 0, -1, 99999999, year 1900).
    Boundary,
}

impl Variant {
    pub const ALL: [Variant; 5] = [
        Variant::Valid,
        Variant::Empty,
        Variant::TooLong,
        Variant::WrongType,
        Variant::Boundary,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Variant::Valid => "valid",
            Variant::Empty => "empty",
            Variant::TooLong => "too_long",
            Variant::WrongType => "wrong_type",
            Variant::Boundary => "boundary",
        }
    }

    /// Whether the variant breaks a field.
    pub fn is_invalid(self) -> bool {
        self != Variant::Valid
    }
}

/// What to do with one field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldValue {
    /// Type this text (after clearing the field); `""` leaves it empty.
    Text(String),
    /// Choose the option (of a select) or radio (of a radio group) with this `value`;
    /// `""` on a radio group chooses none.
    Select(String),
    /// Check or uncheck a checkbox (or a lone radio).
    Check(bool),
}

impl FieldValue {
    /// The value as one string: the text, the option value, or `true`/`false`.
    pub fn as_string(&self) -> String {
        match self {
            FieldValue::Text(s) | FieldValue::Select(s) => s.clone(),
            FieldValue::Check(b) => b.to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filled {
    /// Index into `form.fields`.
    pub field: usize,
    pub value: FieldValue,
}

/// Values for a whole form, in document order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormFill {
    pub values: Vec<Filled>,
    /// For invalid variants: which field (index into `form.fields`) carries the bad value.
    pub broken: Option<usize>,
    /// The variant the fill was made for.
    #[serde(default)]
    pub variant: Variant,
}

impl FormFill {
    /// The value for field `field` (index into `form.fields`), if it is filled.
    pub fn value_of(&self, field: usize) -> Option<&FieldValue> {
        self.values
            .iter()
            .find(|f| f.field == field)
            .map(|f| &f.value)
    }
}

/// Chooses values for forms and fields.
pub trait FormFiller {
    /// Values for every fillable field of `form` (readonly fields and hidden, submit,
    /// button, reset, image and file inputs are skipped; selects get a real, non-placeholder
    /// option; radio groups one radio; checkboxes: required and consent ones checked,
    /// others random), for the `variant`. Choices a filler has seen used ([`Self::used`])
    /// rotate: the least-used option comes next.
    ///
    /// Valid: every field passes HTML constraints (type, required, min/max/step,
    /// minlength/maxlength, easy patterns) and looks real for its meaning, and related
    /// fields agree (end after start, confirmation equal to the password, max not below
    /// min, quantities positive). Invalid variants keep every field valid but one
    /// (`broken`, chosen by `rng` among the fields the variant applies to); a confirmation
    /// follows its broken original, so that one constraint is broken, not two. With the
    /// same `rng` state, an invalid fill holds the same values as the valid one for every
    /// other field.
    ///
    /// `None` when the variant applies to no field of the form (for Valid: when the form
    /// has no fillable field).
    fn fill(&mut self, form: &Form, variant: Variant, rng: &mut dyn RngCore) -> Option<FormFill>;

    /// A single valid value for one field on its own, for plain Fill actions: the text to
    /// type, the option value to choose, or `true`/`false` for a checkbox.
    fn value_for(&mut self, field: &Field, rng: &mut dyn RngCore) -> String;

    /// `value` was entered into `field` (a single action, or part of a submitted fill).
    fn used(&mut self, _field: &Field, _value: &FieldValue) {}

    /// `fill` was entered into `form` and submitted: every value counts as used.
    fn submitted(&mut self, _form: &Form, _fill: &FormFill) {}

    /// The server refused `fill`, submitted to `form` as valid: nothing was stored, so
    /// the choices it sent are still to be sent (alone and in pairs); the texts it typed
    /// are not, being what the server refused.
    fn refused(&mut self, _form: &Form, _fill: &FormFill) {}

    /// Valid fills of `form` begin at round `rounds` of its choices (for optional
    /// checkboxes: 0 as they are, 1 all cleared, 2 all ticked) when fewer were submitted.
    fn skip_rounds(&mut self, _form: &Form, _rounds: u32) {}

    /// Whether a choice (an option, a checkbox state) was never used in `field`; false
    /// for typed text and for fillers that do not count.
    fn fresh(&self, _field: &Field, _value: &FieldValue) -> bool {
        false
    }

    /// Whether the boundary value `value` was never submitted in `field` as the one bad
    /// value of a fill; false for fillers that do not count.
    fn fresh_boundary(&self, _field: &Field, _value: &str) -> bool {
        false
    }

    /// Whether a choice was never sent in a fill of a form (valid or not, other than as
    /// its broken value); what single edits entered does not count. False for typed text
    /// and for fillers that do not count.
    fn unsent(&self, _form: &Form, _field: &Field, _value: &FieldValue) -> bool {
        false
    }

    /// Whether two choices (of two fields of one form) were never submitted together in
    /// a valid fill; false for typed text and for fillers that do not count.
    fn fresh_pair(
        &self,
        _form: &Form,
        _a: (&Field, &FieldValue),
        _b: (&Field, &FieldValue),
    ) -> bool {
        false
    }
}

/// Reads each field's meaning from its labels and markup ([`crate::classify`]) and fills it
/// from, in order: the dictionary by field, a related field (confirmations), the dictionary
/// by semantic, realistic values for the semantic, a value built from the `pattern`, and a
/// W3C-valid value for the input type.
#[derive(Debug, Clone)]
pub struct HeuristicFiller {
    dictionary: Dictionary,
    /// Day number of "today" (days since 1970-01-01), injected so runs are reproducible.
    today: i64,
    /// How often each (field, value) was used, by single edits and in fills, so that the
    /// choices of single edits rotate.
    uses: HashMap<(String, String), u32>,
    /// How often each (field, value) was sent in a valid fill of a form, so that the
    /// choices of fills rotate on their own: a status picked on its own and never saved
    /// is still to be sent, and so is one sent beside a field left empty, which the
    /// server refused before storing anything.
    sent: HashMap<(String, String), u32>,
    /// How often each (field, typed text) was sent in a valid fill, so that realistic
    /// text is not sent twice: a key, a username or a title the app stored once is often
    /// refused as taken the second time.
    typed: HashMap<(String, String), u32>,
    /// How often each form (by key) was submitted with a valid fill.
    submissions: HashMap<String, u32>,
    /// How often each pair of choices ((field, value), (field, value), in order) was
    /// submitted together, so that combinations take turns too.
    pairs: HashMap<(String, String), u32>,
    /// The choices ([`choice_item`]) of each form's (by [`form_identity`]) latest
    /// submission when it was an invalid fill, other than its broken field's. Among the
    /// choices still due their turn, the next valid fill of the form makes these first,
    /// as a person told that the seats are missing fills them in and keeps the plan and
    /// the cycle they picked; a choice already sent more often still waits its turn.
    kept: HashMap<String, Vec<String>>,
}

impl HeuristicFiller {
    /// `today` is `(year, month, day)`; it anchors dates that must lie in the future
    /// (bookings, deadlines, card expiry) or the past (birth dates). Out-of-range parts
    /// are clamped.
    pub fn new(dictionary: Dictionary, today: (i32, u32, u32)) -> Self {
        let (y, m, d) = today;
        let y = i64::from(y.clamp(1, 9999));
        let m = m.clamp(1, 12);
        let d = d.clamp(1, days_in_month(y, m));
        Self {
            dictionary,
            today: days_from_civil(y, m, d),
            uses: HashMap::new(),
            sent: HashMap::new(),
            typed: HashMap::new(),
            submissions: HashMap::new(),
            pairs: HashMap::new(),
            kept: HashMap::new(),
        }
    }

    /// Counts (`step`: [`add_one`]) the choices a valid fill sent, each alone and every
    /// two together, and the form's round; or takes them back ([`take_one`]) when the
    /// server refused the fill: its combination is still to be sent.
    fn count_choices(&mut self, form: &Form, fill: &FormFill, step: fn(&mut u32)) {
        for f in &fill.values {
            if let (Some(field), Some(value)) = (form.fields.get(f.field), choice_value(&f.value)) {
                step(
                    self.sent
                        .entry((fill_identity(form, field), value))
                        .or_insert(0),
                );
            }
        }
        let choices = sent_choices(form, fill);
        for (i, a) in choices.iter().enumerate() {
            for b in &choices[i + 1..] {
                step(self.pairs.entry(ordered(a.clone(), b.clone())).or_insert(0));
            }
        }
        step(self.submissions.entry(form.key.0.clone()).or_insert(0));
    }

    fn uses_of(&self, field: &Field, value: &str) -> u32 {
        self.uses
            .get(&(field_identity(field), value.to_string()))
            .copied()
            .unwrap_or(0)
    }

    fn sent_of(&self, form: &Form, field: &Field, value: &str) -> u32 {
        self.sent
            .get(&(fill_identity(form, field), value.to_string()))
            .copied()
            .unwrap_or(0)
    }

    fn typed_of(&self, form: &Form, field: &Field, text: &str) -> u32 {
        self.typed
            .get(&(fill_identity(form, field), text.to_string()))
            .copied()
            .unwrap_or(0)
    }

    fn pair_uses(&self, a: String, b: String) -> u32 {
        self.pairs.get(&ordered(a, b)).copied().unwrap_or(0)
    }

    pub fn dictionary(&self) -> &Dictionary {
        &self.dictionary
    }
}

impl FormFiller for HeuristicFiller {
    fn fill(&mut self, form: &Form, variant: Variant, rng: &mut dyn RngCore) -> Option<FormFill> {
        let plan = Plan::new(form, false);
        if plan.slots.is_empty() {
            return None;
        }
        let persona = Persona::random(rng);
        let mut filling = Filling {
            filler: self,
            form,
            plan: &plan,
            persona,
            values: vec![None; plan.slots.len()],
            broken: None,
        };
        // The field to break is chosen first, the least often broken this way first (in
        // document order), so that every field gets its turn; the other fields' choices then rotate with it
        // as with each other (an empty message under every subject).
        let broken_pos = if variant == Variant::Valid {
            None
        } else {
            let applicable: Vec<usize> = filling.applicable(variant);
            let times = |&pos: &usize| self.uses_of(filling.field(pos), &broken_key(variant));
            let &pos = applicable.iter().min_by_key(|pos| times(pos))?;
            filling.broken = Some(choice_item(form, filling.field(pos), &broken_key(variant)));
            Some(pos)
        };
        // Originals before their confirmations, wherever these sit.
        let (copies, originals): (Vec<usize>, Vec<usize>) =
            (0..plan.slots.len()).partition(|&pos| plan.confirms[pos].is_some());
        for pos in originals.into_iter().chain(copies) {
            filling.values[pos] = filling.valid(pos, rng);
        }
        let broken = if let Some(pos) = broken_pos {
            let bad = filling.invalid(pos, variant, rng)?;
            filling.values[pos] = Some(bad);
            filling.follow(pos);
            Some(plan.slots[pos].index)
        } else {
            None
        };
        let values: Vec<Filled> = plan
            .slots
            .iter()
            .zip(filling.values)
            .filter_map(|(slot, generated)| {
                generated.map(|g| Filled {
                    field: slot.index,
                    value: g.value,
                })
            })
            .collect();
        if values.is_empty() {
            return None;
        }
        Some(FormFill {
            values,
            broken,
            variant,
        })
    }

    fn value_for(&mut self, field: &Field, rng: &mut dyn RngCore) -> String {
        let form = Form {
            id: FormId(0),
            key: ElementKey(String::new()),
            target: None,
            name: None,
            html_id: None,
            action: None,
            method: None,
            title: None,
            fields: vec![field.clone()],
            submit: None,
        };
        let plan = Plan::new(&form, true);
        if plan.slots.is_empty() {
            return String::new();
        }
        let mut filling = Filling {
            filler: self,
            form: &form,
            plan: &plan,
            persona: Persona::random(rng),
            values: vec![None],
            broken: None,
        };
        filling
            .valid(0, rng)
            .map(|g| g.value.as_string())
            .unwrap_or_default()
    }

    fn used(&mut self, field: &Field, value: &FieldValue) {
        if let Some(value) = choice_value(value) {
            *self.uses.entry((field_identity(field), value)).or_insert(0) += 1;
        }
    }

    fn fresh(&self, field: &Field, value: &FieldValue) -> bool {
        choice_value(value).is_some_and(|v| self.uses_of(field, &v) == 0)
    }

    fn submitted(&mut self, form: &Form, fill: &FormFill) {
        for f in &fill.values {
            if let Some(field) = form.fields.get(f.field) {
                self.used(field, &f.value);
            }
        }
        if fill.broken.is_some() {
            self.kept
                .insert(form_identity(form), sent_choices(form, fill));
        } else {
            self.kept.remove(&form_identity(form));
        }
        let Some(b) = fill.broken else {
            self.count_choices(form, fill, add_one);
            // Typed texts stay counted even when the server refuses them: a text it
            // refused is no better the next time.
            for f in &fill.values {
                if let (Some(field), FieldValue::Text(text)) = (form.fields.get(f.field), &f.value)
                    && !text.is_empty()
                {
                    add_one(
                        self.typed
                            .entry((fill_identity(form, field), text.clone()))
                            .or_insert(0),
                    );
                }
            }
            return;
        };
        // A fill meant to be refused did not try its combination: its choices pair with
        // the broken field only.
        let Some(broken) = form.fields.get(b) else {
            return;
        };
        let item = choice_item(form, broken, &broken_key(fill.variant));
        for choice in sent_choices(form, fill) {
            *self.pairs.entry(ordered(choice, item.clone())).or_insert(0) += 1;
        }
        let key = (field_identity(broken), broken_key(fill.variant));
        *self.uses.entry(key).or_insert(0) += 1;
        if let Some(FieldValue::Text(v)) = fill.value_of(b) {
            let key = (field_identity(broken), bad_key(v));
            *self.uses.entry(key).or_insert(0) += 1;
        }
    }

    fn refused(&mut self, form: &Form, fill: &FormFill) {
        if fill.broken.is_none() {
            self.count_choices(form, fill, take_one);
        }
    }

    fn skip_rounds(&mut self, form: &Form, rounds: u32) {
        let done = self.submissions.entry(form.key.0.clone()).or_insert(0);
        *done = (*done).max(rounds);
    }

    fn fresh_boundary(&self, field: &Field, value: &str) -> bool {
        self.uses_of(field, &bad_key(value)) == 0
    }

    fn unsent(&self, form: &Form, field: &Field, value: &FieldValue) -> bool {
        choice_value(value).is_some_and(|v| self.sent_of(form, field, &v) == 0)
    }

    fn fresh_pair(&self, form: &Form, a: (&Field, &FieldValue), b: (&Field, &FieldValue)) -> bool {
        let item = |(field, value): (&Field, &FieldValue)| {
            choice_value(value).map(|v| choice_item(form, field, &v))
        };
        match (item(a), item(b)) {
            (Some(a), Some(b)) => self.pair_uses(a, b) == 0,
            _ => false,
        }
    }
}

fn add_one(n: &mut u32) {
    *n += 1;
}

fn take_one(n: &mut u32) {
    *n = n.saturating_sub(1);
}

/// Variants of a sent text tried for one not sent yet.
const MAX_VARIANTS: u32 = 64;

/// The `n`-th variant (`n` ≥ 1) of `text`, of the same length and kinds of characters:
/// its last letters (before an `@`, so an email keeps its domain) moved on through the
/// alphabet, the last one by `n`, the one before by `n / 26`, and so on. `None` for a
/// text without letters there (a number is left as it is).
pub(crate) fn vary(text: &str, n: u32) -> Option<String> {
    let local = text.split('@').next().unwrap_or(text);
    let mut chars: Vec<char> = text.chars().collect();
    let letters: Vec<usize> = local
        .chars()
        .enumerate()
        .filter(|(_, c)| c.is_ascii_alphabetic())
        .map(|(i, _)| i)
        .collect();
    if letters.is_empty() {
        return None;
    }
    let mut k = n;
    for &i in letters.iter().rev() {
        if k == 0 {
            break;
        }
        let c = chars[i];
        let base = if c.is_ascii_lowercase() { b'a' } else { b'A' };
        let shift = u8::try_from(k % 26).unwrap_or(0);
        chars[i] = char::from((c as u8 - base + shift) % 26 + base);
        k /= 26;
    }
    Some(chars.into_iter().collect())
}

/// The key a bad value is counted under, apart from the choices of the same field.
fn bad_key(value: &str) -> String {
    format!("bad:{value}")
}

/// The count of a field broken by `variant`.
fn broken_key(variant: Variant) -> String {
    format!("broken:{}", variant.as_str())
}

/// The value a choice is counted under; typed text is generated afresh each time, so
/// there is nothing to rotate.
fn choice_value(value: &FieldValue) -> Option<String> {
    match value {
        FieldValue::Select(v) => Some(v.clone()),
        FieldValue::Check(on) => Some(on.to_string()),
        FieldValue::Text(_) => None,
    }
}

/// The choices of `fill` other than its broken field's, as counted in pairs.
fn sent_choices(form: &Form, fill: &FormFill) -> Vec<String> {
    fill.values
        .iter()
        .filter(|f| Some(f.field) != fill.broken)
        .filter_map(|f| {
            let field = form.fields.get(f.field)?;
            Some(choice_item(form, field, &choice_value(&f.value)?))
        })
        .collect()
}

/// A pair of choices in the order it is counted under.
fn ordered(a: String, b: String) -> (String, String) {
    if a <= b { (a, b) } else { (b, a) }
}

/// A choice as counted in pairs: the field's identity among its form's fills and the
/// value.
fn choice_item(form: &Form, field: &Field, value: &str) -> String {
    format!("{}={value}", fill_identity(form, field))
}

/// A field's identity among the fills of its form, for counting what was sent: the
/// form's fields, then the field, both without their options. A task's edit form and
/// its creation form share an Assignee select, not its turns (a member assigned in an
/// edit is still to be assigned a new task); a member joining the team, or made a viewer
/// and no longer offered, leaves the others' turns as they were.
fn fill_identity(form: &Form, field: &Field) -> String {
    format!("{}#{}", form_identity(form), field_base(field))
}

/// A form by the set of its fields ([`field_base`]): the same wherever the app shows it
/// (a plan form on its page and again, with its errors, on the page that refused it).
fn form_identity(form: &Form) -> String {
    let fields: std::collections::BTreeSet<String> = form.fields.iter().map(field_base).collect();
    fields.into_iter().collect::<Vec<_>>().join(",")
}

/// A field's identity across visits of its page, for counting the values used in it.
/// The options are part of it: a list's status filter and a form's status select
/// share a name and a label, not their statuses, and counted as one field the
/// filter's many uses of "archived" would keep the form from ever choosing it.
fn field_identity(field: &Field) -> String {
    if let Some(shape) = row_shape(field) {
        return shape;
    }
    let mut options = std::collections::hash_map::DefaultHasher::new();
    for option in &field.options {
        option.value.hash(&mut options);
    }
    format!("{}|{:x}", named(field), options.finish())
}

/// A field's identity without its options.
fn field_base(field: &Field) -> String {
    row_shape(field).unwrap_or_else(|| named(field))
}

/// A field by its type, name, id and what it is called: its locator, or for a radio
/// group its caption, since the group sits at its first radio, whose locator is that
/// option's label (which changes with a "current" badge when the app's plan changes).
fn named(field: &Field) -> String {
    let called = if field.input_type == "radio" {
        let captions: Vec<&str> = field.labels.iter().map(|l| l.text.as_str()).collect();
        captions.join(" ")
    } else {
        field.target.locator.clone()
    };
    format!(
        "{}|{}|{}|{}",
        field.input_type,
        field.name.as_deref().unwrap_or(""),
        field.id.as_deref().unwrap_or(""),
        called,
    )
}

/// A control without name or id in a repeated row (a role per team member) is one
/// field for rotation with its siblings in the other rows: once "admin" was tried in
/// one row it is not new in the next, so a long table does not drown the rest.
fn row_shape(field: &Field) -> Option<String> {
    if field.name.is_some() || field.id.is_some() {
        return None;
    }
    let selector = &field.target.selector;
    let shape = ROW_STEPS.iter().fold(selector.clone(), |s, row| {
        let mut out = String::with_capacity(s.len());
        let mut rest = s.as_str();
        while let Some(at) = rest.find(row) {
            let after = &rest[at + row.len()..];
            match after.find(')') {
                Some(end) => {
                    out.push_str(&rest[..at]);
                    out.push_str(&row[..row.len() - ":nth-of-type(".len()]);
                    rest = &after[end + 1..];
                }
                None => break,
            }
        }
        out.push_str(rest);
        out
    });
    (shape != *selector).then(|| format!("{}|rows|{shape}", field.input_type))
}

/// Selector steps of repeated rows, whose position is not part of a field's identity.
const ROW_STEPS: [&str; 2] = ["tr:nth-of-type(", "li:nth-of-type("];

/// How a field is operated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Typed text: text-likes, textareas, contenteditable.
    Text,
    /// A number, range, date, month, week, time or datetime-local input.
    Typed(Scale),
    Color,
    Select,
    Radio,
    Checkbox,
}

fn kind_of(field: &Field, ignore_readonly: bool) -> Option<Kind> {
    if field.readonly && !ignore_readonly {
        return None;
    }
    let ty = field.input_type.as_str();
    Some(match ty {
        "hidden" | "submit" | "button" | "reset" | "file" | "image" => return None,
        "checkbox" => Kind::Checkbox,
        "radio" => Kind::Radio,
        "select-one" | "select-multiple" => Kind::Select,
        "color" => Kind::Color,
        t => match Scale::of_type(t) {
            Some(scale) => Kind::Typed(scale),
            None => Kind::Text,
        },
    })
}

/// How a date-like value is written into a text input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    /// The input type's own syntax (ISO for dates).
    Native,
    /// `dd/mm/yyyy` with this separator, when the placeholder asks for it.
    Dmy(char),
    /// `mm/dd/yyyy` with this separator.
    Mdy(char),
    /// `YYYY-MM-DD HH:MM`.
    DateTimeSpace,
    /// `MM/YY`, or `MM/YYYY`.
    CardExpiry { long_year: bool },
}

/// One fillable field and what is known about it.
#[derive(Debug)]
struct Slot {
    /// Index in `form.fields`.
    index: usize,
    kind: Kind,
    sem: Semantic,
    role: RangeRole,
    when: When,
    /// The line its values lie on, for typed inputs and for text fields meaning a number
    /// or a date.
    scalar: Option<(Scale, Format)>,
    /// Whether values are computed before realistic candidates are tried.
    scalar_first: bool,
    /// Whether the words speak of a birth ("Year of birth"), for years and dates.
    birth: bool,
}

/// The fillable fields of a form and how they relate.
#[derive(Debug)]
struct Plan {
    slots: Vec<Slot>,
    /// For a confirmation, the slot it repeats.
    confirms: Vec<Option<usize>>,
    /// For the end of a range, the slot of its start.
    starts: Vec<Option<usize>>,
}

fn text_scale(sem: Semantic) -> Option<Scale> {
    use Semantic as S;
    Some(match sem {
        S::Date | S::BirthDate => Scale::Date,
        S::Time => Scale::Time,
        S::DateTime => Scale::DateTime,
        S::Month | S::CardExpiry => Scale::Month,
        S::Week => Scale::Week,
        S::Quantity
        | S::Price
        | S::Percentage
        | S::Hours
        | S::Age
        | S::Year
        | S::Integer
        | S::Decimal
        | S::CardExpiryMonth
        | S::CardExpiryYear => Scale::Number,
        _ => return None,
    })
}

fn text_format(texts: &Texts, field: &Field, sem: Semantic, scale: Scale) -> Format {
    let hints: Vec<String> = texts
        .raw_lower()
        .chain(field.pattern.iter().map(|p| p.to_lowercase()))
        .collect();
    let has = |s: &str| hints.iter().any(|h| h.contains(s));
    match scale {
        Scale::Month if sem == Semantic::CardExpiry => Format::CardExpiry {
            long_year: has("yyyy") || has("aaaa"),
        },
        Scale::Date => {
            if has("dd/mm") || has("jj/mm") || has("tt/mm") {
                Format::Dmy('/')
            } else if has("dd.mm") || has("tt.mm") || has("jj.mm") {
                Format::Dmy('.')
            } else if has("dd-mm") || has("jj-mm") {
                Format::Dmy('-')
            } else if has("mm/dd") {
                Format::Mdy('/')
            } else if has("mm-dd-") {
                Format::Mdy('-')
            } else {
                Format::Native
            }
        }
        Scale::DateTime => Format::DateTimeSpace,
        _ => Format::Native,
    }
}

impl Plan {
    fn new(form: &Form, ignore_readonly: bool) -> Self {
        let mut slots = Vec::new();
        let mut texts_of = Vec::new();
        for (index, field) in form.fields.iter().enumerate() {
            let Some(kind) = kind_of(field, ignore_readonly) else {
                continue;
            };
            let texts = Texts::of(field);
            let sem = classify_with(field, &texts);
            let scalar = match kind {
                Kind::Typed(scale) => Some((scale, Format::Native)),
                Kind::Text => {
                    text_scale(sem).map(|scale| (scale, text_format(&texts, field, sem, scale)))
                }
                _ => None,
            };
            // Only values on a line can be ordered or placed in time.
            let ordered = scalar.is_some() || matches!(kind, Kind::Select | Kind::Radio);
            slots.push(Slot {
                index,
                kind,
                sem,
                role: if ordered {
                    range_role_with(&texts)
                } else {
                    RangeRole::None
                },
                when: if scalar.is_some() {
                    when(&texts)
                } else {
                    When::Near
                },
                birth: (scalar.is_some() || matches!(kind, Kind::Select | Kind::Radio))
                    && (sem == Semantic::BirthDate
                        || texts.any(&["birth", "birthday", "=born", "=dob"])),
                scalar,
                scalar_first: sem.is_scalar(),
            });
            texts_of.push(texts);
        }
        // Hotels ask for arrival, then departure: there departure closes the range.
        let mut arrived = false;
        for (slot, texts) in slots.iter_mut().zip(&texts_of) {
            if arrived
                && slot.role == RangeRole::Start
                && (mentions(texts, "=departure") || mentions(texts, "=depart"))
            {
                slot.role = RangeRole::End;
            }
            arrived |= mentions(texts, "=arrival") || mentions(texts, "=arrive");
        }
        let confirms = (0..slots.len())
            .map(|pos| {
                let original = match slots[pos].sem {
                    Semantic::PasswordConfirm => Semantic::Password,
                    Semantic::EmailConfirm => Semantic::Email,
                    _ => return None,
                };
                let before = (0..pos).rev().find(|&p| slots[p].sem == original);
                before.or_else(|| (pos + 1..slots.len()).find(|&p| slots[p].sem == original))
            })
            .collect();
        let starts = (0..slots.len())
            .map(|pos| {
                if slots[pos].role != RangeRole::End {
                    return None;
                }
                let line = order_line(&slots[pos], &form.fields[slots[pos].index])?;
                (0..pos).rev().find(|&p| {
                    slots[p].role == RangeRole::Start
                        && order_line(&slots[p], &form.fields[slots[p].index]) == Some(line)
                })
            })
            .collect();
        Plan {
            slots,
            confirms,
            starts,
        }
    }
}

/// The line on which a field's values can be ordered: its scale, or numbers for a
/// select whose options are all numbers (min/max price selects).
fn order_line(slot: &Slot, field: &Field) -> Option<Scale> {
    match slot.kind {
        Kind::Select | Kind::Radio => {
            let numbers = real_options(field);
            (!numbers.is_empty()
                && numbers
                    .iter()
                    .all(|&i| option_number(&field.options[i].value).is_some()))
            .then_some(Scale::Number)
        }
        _ => slot.scalar.map(|(scale, _)| scale),
    }
}

fn option_number(value: &str) -> Option<f64> {
    parse_number(value.trim())
}

/// Whether an option is a "please choose" prompt rather than a choice.
fn is_placeholder(option: &curio_page::SelectOption) -> bool {
    if option.value.trim().is_empty() {
        return true;
    }
    let text = option.text.trim().to_lowercase();
    let prompt = [
        "select", "choose", "please", "pick", "--", "- ", "—", "…", "...",
    ]
    .iter()
    .any(|p| text.starts_with(p));
    prompt
        && matches!(
            option.value.trim(),
            "0" | "-1" | "none" | "null" | "-" | "--"
        )
        || text.is_empty() && option.value.trim().is_empty()
        || prompt && option.value.trim().to_lowercase() == text
}

/// Indexes of the enabled, non-placeholder options.
fn real_options(field: &Field) -> Vec<usize> {
    field
        .options
        .iter()
        .enumerate()
        .filter(|(_, o)| !o.disabled && !is_placeholder(o))
        .map(|(i, _)| i)
        .collect()
}

/// A generated value, with its position on the field's line when it has one.
#[derive(Debug, Clone)]
struct Generated {
    value: FieldValue,
    ordinal: Option<f64>,
    /// Given by the dictionary for this very field: kept as is.
    pinned: bool,
}

impl Generated {
    fn text(value: String, ordinal: Option<f64>) -> Self {
        Self {
            value: FieldValue::Text(value),
            ordinal,
            pinned: false,
        }
    }
}

struct Filling<'a> {
    filler: &'a HeuristicFiller,
    form: &'a Form,
    plan: &'a Plan,
    persona: Persona,
    /// Per slot, once generated.
    values: Vec<Option<Generated>>,
    /// For an invalid fill, the broken field as a choice item (`field=broken:variant`),
    /// which the other choices pair with.
    broken: Option<String>,
}

fn choose_string(items: &[String], rng: &mut dyn RngCore) -> Option<String> {
    pick(items, rng).cloned()
}

impl Filling<'_> {
    fn field(&self, pos: usize) -> &Field {
        &self.form.fields[self.plan.slots[pos].index]
    }

    fn today(&self) -> i64 {
        self.filler.today
    }

    /// The ordinal of this slot's range start, once generated.
    fn start_ordinal(&self, pos: usize) -> Option<f64> {
        let start = self.plan.starts.get(pos).copied().flatten()?;
        self.values.get(start)?.as_ref()?.ordinal
    }

    fn valid(&mut self, pos: usize, rng: &mut dyn RngCore) -> Option<Generated> {
        match self.plan.slots[pos].kind {
            Kind::Text | Kind::Typed(_) | Kind::Color => Some(self.valid_typed(pos, rng)),
            Kind::Select | Kind::Radio => self.valid_choice(pos, rng),
            Kind::Checkbox => Some(self.valid_check(pos, rng)),
        }
    }

    fn valid_typed(&mut self, pos: usize, rng: &mut dyn RngCore) -> Generated {
        let slot = &self.plan.slots[pos];
        let field = self.field(pos);
        let dictionary = &self.filler.dictionary;

        if let Some(values) = dictionary.for_field(field) {
            let accepted: Vec<String> = values
                .iter()
                .filter(|v| accepts(field, v))
                .cloned()
                .collect();
            let pool = if accepted.is_empty() {
                values
            } else {
                &accepted
            };
            if let Some(v) = choose_string(pool, rng) {
                let ordinal = self.parse_ordinal(pos, &v);
                return Generated {
                    value: FieldValue::Text(v),
                    ordinal,
                    pinned: true,
                };
            }
        }
        if let Some(original) = self.plan.confirms[pos]
            && let Some(Some(generated)) = self.values.get(original)
            && let FieldValue::Text(v) = &generated.value
        {
            return Generated::text(v.clone(), None);
        }
        if let Some(values) = dictionary.for_semantic(slot.sem) {
            let accepted: Vec<String> = values
                .iter()
                .filter(|v| accepts(field, v))
                .cloned()
                .collect();
            if let Some(v) = choose_string(&accepted, rng) {
                let ordinal = self.parse_ordinal(pos, &v);
                return Generated::text(v, ordinal);
            }
        }
        // A guessed code is a wrong code; people without one leave the field empty.
        if slot.sem == Semantic::Coupon && !field.required {
            return Generated::text(String::new(), None);
        }
        if slot.scalar_first
            && let Some(generated) = self.scalar_value(pos, rng)
        {
            return generated;
        }
        // Realistic values the field takes as they are, then cut to fit; one not sent
        // in a valid fill yet first, else a variant of the first that was not.
        let candidates = self.persona.candidates(slot.sem, rng);
        let fitting: Vec<(String, bool)> = candidates
            .iter()
            .filter(|c| accepts(field, c))
            .map(|c| (c.clone(), true))
            .chain(
                candidates
                    .iter()
                    .map(|c| fit(field, slot.sem, c))
                    .filter(|c| accepts(field, c))
                    .map(|c| (c, false)),
            )
            .collect();
        let unsent = |text: &str| self.filler.typed_of(self.form, field, text) == 0;
        let chosen = fitting
            .iter()
            .find(|(c, _)| unsent(c))
            .cloned()
            .or_else(|| {
                let (first, whole) = fitting.first()?;
                (1..=MAX_VARIANTS)
                    .filter_map(|n| vary(first, n))
                    .find(|v| accepts(field, v) && unsent(v))
                    .map(|v| (v, *whole))
                    .or_else(|| Some((first.clone(), *whole)))
            });
        if let Some((v, whole)) = chosen {
            let ordinal = if whole {
                self.parse_ordinal(pos, &v)
            } else {
                None
            };
            return Generated::text(v, ordinal);
        }
        if !slot.scalar_first
            && let Some(generated) = self.scalar_value(pos, rng)
        {
            return generated;
        }
        if let Some(v) = from_pattern(field, rng) {
            return Generated::text(v, None);
        }
        Generated::text(w3c_value(field, rng), None)
    }

    /// The position of a typed value on the slot's line, for ordering related fields.
    fn parse_ordinal(&self, pos: usize, value: &str) -> Option<f64> {
        let (scale, format) = self.plan.slots[pos].scalar?;
        parse_formatted(scale, format, value)
    }

    /// A number or date inside the field's bounds and grid, where the semantic expects it
    /// and after the start of its range. `None` when it fails the field's other constraints
    /// (a text pattern, a length).
    fn scalar_value(&self, pos: usize, rng: &mut dyn RngCore) -> Option<Generated> {
        let slot = &self.plan.slots[pos];
        let field = self.field(pos);
        let (scale, format) = slot.scalar?;
        let (mut bounds, grid) = self.bounds_and_grid(pos);
        let start = self.start_ordinal(pos);
        if let Some(start) = start {
            let lo = start + gap(scale, grid);
            if bounds.hi.is_none_or(|hi| lo <= hi) {
                bounds.lo = Some(bounds.lo.map_or(lo, |b| b.max(lo)));
            }
        }
        if scale == Scale::Time {
            // Times end with the day; a wrapping range (22:00 to 06:00) is used from its
            // start.
            let last = DAY - 1.0;
            bounds.hi = match (bounds.lo, bounds.hi) {
                (Some(lo), Some(hi)) if lo > hi => Some(last),
                (_, hi) => Some(hi.map_or(last, |h| h.min(last))),
            };
        }
        let wants = self.wants(pos, scale, start, rng);
        let v = crate::scalar::pick(bounds, grid, &wants, rng);
        let text = write_formatted(scale, format, v, slot.sem)?;
        if accepts(field, &text) {
            return Some(Generated::text(text, Some(v)));
        }
        if scale == Scale::Date && slot.kind == Kind::Text {
            // A pattern such as `\d{2}/\d{2}/\d{4}` says more than the words did.
            let others = [
                Format::Native,
                Format::Dmy('/'),
                Format::Mdy('/'),
                Format::Dmy('.'),
                Format::Dmy('-'),
            ];
            return others.into_iter().find_map(|other| {
                let text = write_formatted(scale, other, v, slot.sem)?;
                accepts(field, &text).then(|| Generated::text(text, Some(v)))
            });
        }
        if slot.sem == Semantic::CardExpiryYear {
            // `maxlength=2` or a two-digit pattern: the year as printed on cards.
            let short = format!("{:02}", (v.round() as i64).rem_euclid(100));
            return accepts(field, &short).then(|| Generated::text(short, Some(v)));
        }
        None
    }

    /// Bounds and grid: the attributes' for typed inputs; for text fields the attributes
    /// when they parse (some scripts read them), else none, with whole days and minutes.
    fn bounds_and_grid(&self, pos: usize) -> (Bounds, Grid) {
        let slot = &self.plan.slots[pos];
        let field = self.field(pos);
        let Some((scale, format)) = slot.scalar else {
            return (
                Bounds::default(),
                Grid {
                    base: 0.0,
                    step: None,
                },
            );
        };
        match slot.kind {
            Kind::Typed(_) => bounds_and_grid(field, scale),
            _ => {
                let parse = |v: &Option<String>| {
                    v.as_deref()
                        .and_then(|s| parse_formatted(scale, format, s.trim()))
                };
                let bounds = Bounds {
                    lo: parse(&field.min),
                    hi: parse(&field.max),
                };
                let step = match scale {
                    Scale::Number => None,
                    other => Some(other.default_step()),
                };
                (bounds, Grid { base: 0.0, step })
            }
        }
    }

    /// Where a person would put the value, most specific first.
    fn wants(
        &self,
        pos: usize,
        scale: Scale,
        start: Option<f64>,
        rng: &mut dyn RngCore,
    ) -> Vec<Want> {
        let slot = &self.plan.slots[pos];
        let want = |lo: f64, hi: f64, nice: f64| Want { lo, hi, nice };
        let mut wants = Vec::new();
        match scale {
            Scale::Number => {
                let (y, _, _) = civil_from_days(self.today());
                let y = y as f64;
                let base = match slot.sem {
                    Semantic::Quantity => want(1.0, 5.0, 1.0),
                    Semantic::Price => want(5.0, 200.0, 0.01),
                    Semantic::Percentage => want(5.0, 95.0, 5.0),
                    Semantic::Hours => want(1.0, 8.0, 1.0),
                    Semantic::Age => want(18.0, 70.0, 1.0),
                    Semantic::Year if slot.birth => want(y - 60.0, y - 20.0, 1.0),
                    Semantic::Year => want(y - 40.0, y, 1.0),
                    Semantic::CardExpiryMonth => want(1.0, 12.0, 1.0),
                    Semantic::CardExpiryYear => want(y + 1.0, y + 6.0, 1.0),
                    Semantic::Decimal => want(1.0, 100.0, 0.5),
                    _ => want(1.0, 10.0, 1.0),
                };
                if let Some(s) = start {
                    let span = (base.hi - base.lo).max(base.nice * 10.0);
                    wants.push(want(s + base.nice, s + span, base.nice));
                }
                wants.push(base);
                if slot.sem == Semantic::Quantity {
                    // Quantities stay positive even when the bounds exclude 1-5.
                    wants.push(want(1.0, f64::MAX, 1.0));
                }
            }
            Scale::Date => {
                if let Some(s) = start {
                    wants.push(want(s + 1.0, s + 14.0, 1.0));
                }
                wants.push(self.date_want(slot));
            }
            Scale::Month => {
                let (y, m, _) = civil_from_days(self.today());
                let tm = month_ordinal(y, m) as f64;
                if let Some(s) = start {
                    wants.push(want(s + 1.0, s + 12.0, 1.0));
                }
                wants.push(match (slot.sem, slot.when) {
                    (Semantic::CardExpiry, _) | (_, When::Future) => want(tm + 1.0, tm + 48.0, 1.0),
                    (_, When::Past) => want(tm - 24.0, tm - 1.0, 1.0),
                    _ => want(tm - 3.0, tm + 3.0, 1.0),
                });
            }
            Scale::Week => {
                let tw = week_of_day(self.today()) as f64;
                if let Some(s) = start {
                    wants.push(want(s + 1.0, s + 4.0, 1.0));
                }
                wants.push(match slot.when {
                    When::Future => want(tw + 1.0, tw + 8.0, 1.0),
                    When::Past => want(tw - 12.0, tw - 1.0, 1.0),
                    When::Near => want(tw - 2.0, tw + 4.0, 1.0),
                });
            }
            Scale::Time => {
                if let Some(s) = start {
                    wants.push(want(s + 900.0, s + 4.0 * 3600.0, 900.0));
                }
                wants.push(want(9.0 * 3600.0, 17.0 * 3600.0, 900.0));
            }
            Scale::DateTime => {
                if let Some(s) = start {
                    wants.push(want(s + 3600.0, s + 3.0 * DAY, 900.0));
                }
                let days = self.date_want(slot);
                let first = days.lo.min(days.hi).clamp(-1e9, 1e9) as i64;
                let last = days.hi.max(days.lo).clamp(-1e9, 1e9) as i64;
                let day = rng.random_range(first..=last) as f64;
                wants.push(want(
                    day * DAY + 9.0 * 3600.0,
                    day * DAY + 17.0 * 3600.0,
                    900.0,
                ));
                wants.push(want(days.lo * DAY, days.hi * DAY + DAY - 60.0, 900.0));
            }
        }
        wants
    }

    /// Days where a date of this slot would lie.
    fn date_want(&self, slot: &Slot) -> Want {
        let t = self.today() as f64;
        let (lo, hi) = if slot.sem == Semantic::BirthDate {
            (t - 60.0 * 365.0, t - 20.0 * 365.0)
        } else {
            match slot.when {
                When::Future => (t + 7.0, t + 45.0),
                When::Past => (t - 365.0, t - 1.0),
                When::Near => (t - 14.0, t + 14.0),
            }
        };
        Want { lo, hi, nice: 1.0 }
    }

    fn valid_choice(&mut self, pos: usize, rng: &mut dyn RngCore) -> Option<Generated> {
        let slot = &self.plan.slots[pos];
        let field = self.field(pos);
        if field.options.is_empty() {
            // A radio without a name is a group of one.
            let on = field.required || rng.random_bool(0.5);
            return Some(Generated {
                value: FieldValue::Check(on),
                ordinal: None,
                pinned: false,
            });
        }
        let mut pool = real_options(field);
        if pool.is_empty() {
            pool = (0..field.options.len())
                .filter(|&i| !field.options[i].disabled)
                .collect();
        }
        if pool.is_empty() {
            return None;
        }
        let option_is = |i: usize, text: &str| {
            let o = &field.options[i];
            let text = text.trim();
            o.value.trim().eq_ignore_ascii_case(text) || o.text.trim().eq_ignore_ascii_case(text)
        };
        let dictionary = &self.filler.dictionary;
        for (values, pinned) in [
            (dictionary.for_field(field), true),
            (dictionary.for_semantic(slot.sem), false),
        ] {
            let Some(values) = values else { continue };
            let matching: Vec<usize> = pool
                .iter()
                .copied()
                .filter(|&i| values.iter().any(|v| option_is(i, v)))
                .collect();
            if let Some(&i) = pick(&matching, rng) {
                return Some(self.choice(field, i, pinned));
            }
        }
        let persona: Vec<usize> = self
            .persona
            .option_matches(slot.sem)
            .into_iter()
            .find_map(|name| pool.iter().copied().find(|&i| option_is(i, name)))
            .into_iter()
            .collect();
        if let Some(&i) = persona.first() {
            return Some(self.choice(field, i, false));
        }
        let (y, _, _) = civil_from_days(self.today());
        let preferred: Vec<usize> = match slot.sem {
            Semantic::Year if slot.birth => numbered(field, &pool, |n| {
                (y as f64 - 60.0..=y as f64 - 20.0).contains(&n)
            }),
            Semantic::Quantity => numbered(field, &pool, |n| (1.0..=5.0).contains(&n)),
            Semantic::CardExpiryYear => numbered(field, &pool, |n| {
                let year = if n < 100.0 { 2000.0 + n } else { n };
                year > y as f64
            }),
            _ => Vec::new(),
        };
        let mut pool = if preferred.is_empty() {
            pool
        } else {
            preferred
        };
        if let Some(start) = self.start_ordinal(pos) {
            let after = numbered(field, &pool, |n| n > start);
            let from = numbered(field, &pool, |n| n >= start);
            if !after.is_empty() {
                pool = after;
            } else if !from.is_empty() {
                pool = from;
            }
        }
        // Choices rotate: the options least often sent together with the choices this
        // fill already made come first, so that combinations take turns (Pro billed
        // yearly, not always monthly), then the least-sent ones, so that every status,
        // plan or assignee gets its turn (a single edit, with no form, rotates on every
        // use of the option), then the ones the form's refused invalid fill made (see
        // `kept`), then the least-used of them. Among those, people often
        // leave a preselected choice as it is (the default subject of a contact form, the
        // current status of a task), so it goes first.
        let single = self.form.key.0.is_empty();
        let earlier: Vec<String> = self
            .values
            .iter()
            .enumerate()
            .filter(|&(p, _)| p != pos)
            .filter_map(|(p, g)| {
                let value = choice_value(&g.as_ref()?.value)?;
                Some(choice_item(self.form, self.field(p), &value))
            })
            .chain(self.broken.clone())
            .collect();
        let kept = self.filler.kept.get(&form_identity(self.form));
        let uses: Vec<(u32, u32, bool, u32)> = pool
            .iter()
            .map(|&i| {
                let value = &field.options[i].value;
                let item = choice_item(self.form, field, value);
                let unkept =
                    !single && self.broken.is_none() && !kept.is_some_and(|k| k.contains(&item));
                let together: u32 = earlier
                    .iter()
                    .map(|e| self.filler.pair_uses(e.clone(), item.clone()))
                    .sum();
                let used = self.filler.uses_of(field, value);
                let turns = if single {
                    used
                } else {
                    self.filler.sent_of(self.form, field, value)
                };
                (together, turns, unkept, used)
            })
            .collect();
        let fewest = uses.iter().copied().min()?;
        let pool: Vec<usize> = pool
            .iter()
            .zip(&uses)
            .filter(|&(_, &n)| n == fewest)
            .map(|(&i, _)| i)
            .collect();
        let preselected = pool
            .iter()
            .copied()
            .find(|&i| field.options[i].selected && !field.options[i].value.is_empty());
        if let Some(i) = preselected {
            return Some(self.choice(field, i, false));
        }
        let &i = pick(&pool, rng)?;
        Some(self.choice(field, i, false))
    }

    fn choice(&self, field: &Field, option: usize, pinned: bool) -> Generated {
        let value = field.options[option].value.clone();
        Generated {
            ordinal: option_number(&value),
            value: FieldValue::Select(value),
            pinned,
        }
    }

    fn valid_check(&mut self, pos: usize, rng: &mut dyn RngCore) -> Generated {
        let slot = &self.plan.slots[pos];
        let field = self.field(pos);
        let from_dictionary = self
            .filler
            .dictionary
            .for_field(field)
            .and_then(|values| values.iter().find_map(|v| parse_bool(v)));
        // Optional checkboxes go through the set's edges first: as they are, then all
        // cleared, then all ticked (an empty set of channels or tags is a classic gap),
        // then at random.
        let round = self
            .filler
            .submissions
            .get(&self.form.key.0)
            .copied()
            .unwrap_or(0);
        let (on, pinned) = match from_dictionary {
            Some(on) => (on, true),
            None if field.required || slot.sem == Semantic::Consent => (true, false),
            None if self.form.key.0.is_empty() => (rng.random_bool(0.5), false),
            None => match round {
                0 => (field.checked, false),
                1 => (false, false),
                2 => (true, false),
                _ => (rng.random_bool(0.5), false),
            },
        };
        Generated {
            value: FieldValue::Check(on),
            ordinal: None,
            pinned,
        }
    }

    /// The slots an invalid variant can break. Too-long text prefers fields without
    /// `maxlength`, since the browser cuts typed text at it.
    fn applicable(&self, variant: Variant) -> Vec<usize> {
        let all: Vec<usize> = (0..self.plan.slots.len())
            .filter(|&pos| self.applies(pos, variant))
            .collect();
        if variant == Variant::TooLong {
            let unlimited: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&pos| self.field(pos).maxlength.is_none())
                .collect();
            if !unlimited.is_empty() {
                return unlimited;
            }
        }
        all
    }

    fn applies(&self, pos: usize, variant: Variant) -> bool {
        let slot = &self.plan.slots[pos];
        let field = self.field(pos);
        match variant {
            Variant::Valid => true,
            Variant::Empty => match slot.kind {
                Kind::Text => true,
                Kind::Typed(_) => field.input_type != "range",
                Kind::Color => false,
                Kind::Select => placeholder_option(field).is_some(),
                Kind::Radio => !field.checked,
                Kind::Checkbox => field.required || slot.sem == Semantic::Consent,
            },
            Variant::TooLong => {
                slot.kind == Kind::Text && field.maxlength.is_none_or(|m| m <= 1000)
            }
            Variant::WrongType => {
                slot.kind == Kind::Text
                    && is_text_like(&field.input_type)
                    && wrong_type_value(slot).is_some()
            }
            Variant::Boundary => match slot.kind {
                Kind::Typed(_) => field.input_type != "range",
                Kind::Text => slot.scalar.is_some(),
                _ => false,
            },
        }
    }

    fn invalid(&self, pos: usize, variant: Variant, rng: &mut dyn RngCore) -> Option<Generated> {
        let slot = &self.plan.slots[pos];
        let field = self.field(pos);
        let text = |s: String| Some(Generated::text(s, None));
        match variant {
            Variant::Valid => None,
            Variant::Empty => match slot.kind {
                Kind::Select => {
                    let i = placeholder_option(field)?;
                    Some(self.choice(field, i, false))
                }
                Kind::Radio if field.options.is_empty() => Some(Generated {
                    value: FieldValue::Check(false),
                    ordinal: None,
                    pinned: false,
                }),
                Kind::Radio => Some(Generated {
                    value: FieldValue::Select(String::new()),
                    ordinal: None,
                    pinned: false,
                }),
                Kind::Checkbox => Some(Generated {
                    value: FieldValue::Check(false),
                    ordinal: None,
                    pinned: false,
                }),
                _ => text(String::new()),
            },
            Variant::TooLong => {
                let len = field.maxlength.map_or(320, |m| (m as usize + 1).max(300));
                let valid = match self.values.get(pos) {
                    Some(Some(Generated {
                        value: FieldValue::Text(v),
                        ..
                    })) => v.clone(),
                    _ => String::new(),
                };
                text(too_long_value(slot.sem, &field.input_type, &valid, len))
            }
            Variant::WrongType => text(wrong_type_value(slot)?.to_string()),
            Variant::Boundary => {
                let (scale, format) = slot.scalar?;
                let candidates = self.boundary_ordinals(pos, scale);
                // The valid value may sit on an edge already; the broken one must differ.
                let valid = self.values.get(pos).cloned().flatten().map(|g| g.value);
                let mut written: Vec<String> = Vec::new();
                for v in candidates {
                    if let Some(s) = write_formatted(scale, format, v, slot.sem)
                        && !written.contains(&s)
                        && valid.as_ref() != Some(&FieldValue::Text(s.clone()))
                    {
                        written.push(s);
                    }
                }
                // The least sent first, so that every edge gets its turn.
                let uses = |s: &String| self.filler.uses_of(field, &bad_key(s));
                let fewest = written.iter().map(uses).min()?;
                let least: Vec<String> =
                    written.into_iter().filter(|s| uses(s) == fewest).collect();
                text(pick(&least, rng)?.clone())
            }
        }
    }

    /// Edges of the slot's line: just past and at `min`/`max`, and the values servers
    /// forget: 0, -1, a huge number; year 1900 and 2999; yesterday for what must be in the
    /// future; the day before the range's start.
    fn boundary_ordinals(&self, pos: usize, scale: Scale) -> Vec<f64> {
        let slot = &self.plan.slots[pos];
        let (bounds, grid) = self.bounds_and_grid(pos);
        let step = grid.step.unwrap_or(match scale {
            Scale::Number => 1.0,
            other => other.default_step(),
        });
        let mut out = Vec::new();
        if let Some(lo) = bounds.lo {
            out.extend([lo - step, lo]);
        }
        if let Some(hi) = bounds.hi {
            out.extend([hi + step, hi]);
        }
        let t = self.today();
        let start = self.start_ordinal(pos);
        let future = slot.when == When::Future || slot.sem == Semantic::CardExpiry;
        match scale {
            Scale::Number => out.extend([0.0, -1.0, 99_999_999.0]),
            Scale::Date => {
                out.extend([
                    days_from_civil(1900, 1, 1) as f64,
                    days_from_civil(2999, 12, 31) as f64,
                ]);
                if future {
                    out.push((t - 1) as f64);
                }
                if slot.sem == Semantic::BirthDate {
                    out.push((t + 1) as f64);
                }
            }
            Scale::Month => {
                out.extend([
                    month_ordinal(1900, 1) as f64,
                    month_ordinal(2999, 12) as f64,
                ]);
                if future {
                    let (y, m, _) = civil_from_days(t);
                    out.push((month_ordinal(y, m) - 1) as f64);
                }
            }
            Scale::Week => {
                out.extend([
                    week_of_day(days_from_civil(1900, 1, 1)) as f64,
                    week_of_day(days_from_civil(2999, 12, 31)) as f64,
                ]);
                if future {
                    out.push((week_of_day(t) - 1) as f64);
                }
            }
            Scale::Time => out.extend([0.0, DAY - 60.0]),
            Scale::DateTime => {
                out.extend([
                    days_from_civil(1900, 1, 1) as f64 * DAY,
                    days_from_civil(2999, 12, 31) as f64 * DAY + DAY - 60.0,
                ]);
                if future {
                    out.push((t - 1) as f64 * DAY + 12.0 * 3600.0);
                }
            }
        }
        if let Some(s) = start {
            out.push(s - step.max(gap(scale, grid)));
        }
        out
    }

    /// After slot `pos` was broken, confirmations of it repeat the broken value.
    fn follow(&mut self, pos: usize) {
        let Some(Some(broken)) = self.values.get(pos).cloned() else {
            return;
        };
        for other in 0..self.plan.slots.len() {
            if self.plan.confirms[other] == Some(pos)
                && let Some(Some(generated)) = self.values.get_mut(other)
                && !generated.pinned
            {
                generated.value = broken.value.clone();
            }
        }
    }
}

/// Options among `pool` whose value is a number satisfying `keep`.
fn numbered(field: &Field, pool: &[usize], keep: impl Fn(f64) -> bool) -> Vec<usize> {
    pool.iter()
        .copied()
        .filter(|&i| option_number(&field.options[i].value).is_some_and(&keep))
        .collect()
}

fn placeholder_option(field: &Field) -> Option<usize> {
    field
        .options
        .iter()
        .position(|o| !o.disabled && is_placeholder(o))
}

fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "checked" | "1" => Some(true),
        "false" | "off" | "no" | "unchecked" | "0" | "" => Some(false),
        _ => None,
    }
}

/// How far after its start a range's end must be: a day (a unit) for dates, a step for
/// times, nothing for numbers (max may equal min).
fn gap(scale: Scale, grid: Grid) -> f64 {
    match scale {
        Scale::Number => 0.0,
        Scale::Date | Scale::Month | Scale::Week => grid.step.unwrap_or(1.0).max(1.0),
        Scale::Time | Scale::DateTime => grid.step.unwrap_or(60.0).max(60.0),
    }
}

fn write_formatted(scale: Scale, format: Format, v: f64, sem: Semantic) -> Option<String> {
    match (scale, format) {
        (Scale::Number, _) if sem == Semantic::CardExpiryMonth && (1.0..=12.0).contains(&v) => {
            // Months as cards print them.
            Some(format!("{:02}", v.round() as i64))
        }
        (Scale::Number, _) => {
            let mut decimals = decimals_of(v);
            if sem == Semantic::Price && decimals == 1 {
                decimals = 2;
            }
            scale.format(v, decimals)
        }
        (Scale::Date, Format::Dmy(sep) | Format::Mdy(sep)) => {
            let (y, m, d) = civil_from_days(crate::scalar::day_number(v)?);
            if !(1..=9999).contains(&y) {
                return None;
            }
            Some(match format {
                Format::Dmy(_) => format!("{d:02}{sep}{m:02}{sep}{y:04}"),
                _ => format!("{m:02}{sep}{d:02}{sep}{y:04}"),
            })
        }
        (Scale::Month, Format::CardExpiry { long_year }) => {
            let (y, m) = month_civil(v.round() as i64);
            if !(1..=9999).contains(&y) {
                return None;
            }
            Some(if long_year {
                format!("{m:02}/{y:04}")
            } else {
                format!("{m:02}/{:02}", y.rem_euclid(100))
            })
        }
        (Scale::DateTime, Format::DateTimeSpace) => {
            scale.format(v, 0).map(|s| s.replacen('T', " ", 1))
        }
        _ => scale.format(v, 0),
    }
}

fn parse_formatted(scale: Scale, format: Format, text: &str) -> Option<f64> {
    let text = text.trim();
    match (scale, format) {
        (Scale::Date, Format::Dmy(sep) | Format::Mdy(sep)) => {
            let parts: Vec<&str> = text.split(sep).collect();
            let [a, b, y] = parts.as_slice() else {
                return Scale::Date.parse(text);
            };
            let (d, m) = match format {
                Format::Dmy(_) => (a, b),
                _ => (b, a),
            };
            Scale::Date.parse(&format!("{y}-{m:0>2}-{d:0>2}"))
        }
        (Scale::Month, Format::CardExpiry { .. }) => {
            let (m, y) = text.split_once('/')?;
            let m: u32 = m.trim().parse().ok()?;
            let y: i64 = y.trim().parse().ok()?;
            let y = if y < 100 { 2000 + y } else { y };
            (1..=12).contains(&m).then(|| month_ordinal(y, m) as f64)
        }
        _ => scale.parse(text),
    }
}

/// Longer than this, nobody types a value: a `minlength` beyond it is not padded to.
const MAX_TYPED: usize = 5000;

/// A candidate stretched or cut to the field's length limits: emails grow in their local
/// part, free text repeats itself, and names or texts are cut at `maxlength`.
fn fit(field: &Field, sem: Semantic, value: &str) -> String {
    let len = value.chars().count();
    let mut out = value.to_string();
    if let Some(min) = field.minlength.map(|m| m as usize)
        && len < min
        && min <= MAX_TYPED
    {
        out = match value.split_once('@') {
            Some((local, domain)) => {
                let pad = "x".repeat(min - len);
                format!("{local}{pad}@{domain}")
            }
            None if matches!(sem, Semantic::Password | Semantic::PasswordConfirm) => {
                let mut p = value.to_string();
                p.extend("x9".chars().cycle().take(min - len));
                p
            }
            None => long_text(value, min),
        };
    }
    if let Some(max) = field.maxlength.map(|m| m as usize)
        && out.chars().count() > max
    {
        out = out
            .chars()
            .take(max)
            .collect::<String>()
            .trim_end()
            .to_string();
    }
    out
}

/// A value built from the field's `pattern`, when this crate can read it.
fn from_pattern(field: &Field, rng: &mut dyn RngCore) -> Option<String> {
    let pattern = Pattern::parse(field.pattern.as_deref()?)?;
    (0..40u32)
        .map(|attempt| pattern.generate(attempt / 4 * 4, rng))
        .find(|v| accepts(field, v))
}

/// Values valid by input type alone (the HTML standard's rules), for fields nothing else
/// could fill; lengths are padded or cut to fit.
fn w3c_value(field: &Field, rng: &mut dyn RngCore) -> String {
    let choose = |items: &[&str], rng: &mut dyn RngCore| {
        pick(items, rng).map(|s| s.to_string()).unwrap_or_default()
    };
    let value = match field.input_type.as_str() {
        "email" => choose(&["alex.morgan@example.com", "kim@example.net"], rng),
        "tel" => choose(&["+1 555 010 2030", "555-0100"], rng),
        "url" => choose(&["https://example.com/", "https://example.org/about"], rng),
        "password" => "Curio-Pass-2024!".to_string(),
        "search" => choose(&["shirt", "blue", "gift"], rng),
        "color" => "#3366cc".to_string(),
        "textarea" | "contenteditable" => "Hello, this is a test message.".to_string(),
        ty => match Scale::of_type(ty) {
            Some(scale) => {
                let (bounds, grid) = bounds_and_grid(field, scale);
                let v = crate::scalar::fallback(bounds, grid);
                scale
                    .format(v, decimals_of(v))
                    .unwrap_or_else(|| "1".to_string())
            }
            None => choose(&["hello", "Test value"], rng),
        },
    };
    if Scale::of_type(&field.input_type).is_some() || field.input_type == "color" {
        return value;
    }
    let mut value = value;
    if let Some(min) = field.minlength.map(|m| m as usize)
        && min <= MAX_TYPED
    {
        let missing = min.saturating_sub(value.chars().count());
        value.extend(std::iter::repeat_n('x', missing));
    }
    if let Some(max) = field.maxlength {
        value = value.chars().take(max as usize).collect();
    }
    value
}

/// A value of `len` characters that still has the field's shape, so only its length is
/// wrong: a long local part for emails, a long path for URLs, digits for numbers.
fn too_long_value(sem: Semantic, input_type: &str, valid: &str, len: usize) -> String {
    use Semantic as S;
    let digits = || "1234567890".chars().cycle().take(len).collect::<String>();
    if input_type == "email" || matches!(sem, S::Email | S::EmailConfirm) {
        let local_len = len.saturating_sub("@example.com".len()).max(1);
        let local: String = "alexmorgan".chars().cycle().take(local_len).collect();
        return format!("{local}@example.com");
    }
    if input_type == "url" || sem == S::Url {
        let path: String = "abcdefghij"
            .chars()
            .cycle()
            .take(len.saturating_sub(20).max(1))
            .collect();
        return format!("https://example.com/{path}");
    }
    if sem.is_scalar()
        || matches!(
            sem,
            S::Phone | S::PostalCode | S::CardNumber | S::Cvv | S::OneTimeCode
        )
    {
        return digits();
    }
    if matches!(sem, S::Password | S::PasswordConfirm | S::Username) && !valid.is_empty() {
        return valid.chars().cycle().take(len).collect();
    }
    long_text(valid, len)
}

/// Text of the wrong kind for the slot's meaning, or `None` when any text is right.
fn wrong_type_value(slot: &Slot) -> Option<&'static str> {
    use Semantic as S;
    Some(match slot.sem {
        S::Email | S::EmailConfirm => "not-an-email",
        S::Phone => "not-a-phone",
        S::PostalCode => "not-a-zip",
        S::Url => "not a url",
        S::Date | S::BirthDate | S::DateTime | S::Month | S::Week => "not-a-date",
        S::Time => "not-a-time",
        S::CardExpiry => "ab/cd",
        S::CardNumber => "abcd efgh ijkl mnop",
        S::Cvv => "abc",
        S::OneTimeCode => "abcdef",
        S::Quantity
        | S::Price
        | S::Percentage
        | S::Hours
        | S::Age
        | S::Year
        | S::Integer
        | S::Decimal
        | S::CardExpiryMonth
        | S::CardExpiryYear => "abc",
        S::PersonName | S::FirstName | S::LastName | S::City | S::Region | S::Country => "12345",
        S::Color => "not-a-color",
        _ => return None,
    })
}
