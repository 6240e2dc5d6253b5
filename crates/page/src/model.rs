//! What a user sees and can do on a page: the output of [`Page::from_snapshot`].

use serde::{Deserialize, Serialize};

/// A rectangle in CSS pixels, in the coordinates of its own document.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    /// Whether it covers any area (an element laid out and shown).
    pub fn has_area(self) -> bool {
        self.width > 0.0 && self.height > 0.0
    }

    /// The same rectangle moved by `dx`, `dy`.
    pub fn shifted(self, dx: f64, dy: f64) -> Rect {
        Rect {
            x: self.x + dx,
            y: self.y + dy,
            ..self
        }
    }
}

/// How to find an element again: by node id while the same document is loaded, by
/// selector after a reload or in a replay, and by a locator a human can read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// `backendNodeId` in the snapshot this target was built from.
    pub backend_node_id: i64,
    /// Index of the document (frame) in the snapshot; 0 is the main frame.
    pub frame: usize,
    /// A CSS selector that matches exactly this element in its document.
    pub selector: String,
    /// Readable, Playwright-like: `button "Add to cart"`, `textbox "Email"`, `link "Home"`.
    pub locator: String,
    /// Layout box in document coordinates.
    pub rect: Rect,
}

/// A key for an element that stays the same across visits to the same page, built from
/// role, tag, id or name, text and structural path, so that learned values carry over.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ElementKey(pub String);

/// Index of a form in [`Page::forms`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FormId(pub usize);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// Links, buttons, anything clickable.
    Click,
    /// Type a value into a text-like input, a textarea or a contenteditable element.
    Fill,
    /// Choose an option of a `<select>`.
    Select,
    /// Toggle a checkbox or pick a radio button.
    Check,
}

/// One thing a user can do on the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Action {
    pub key: ElementKey,
    pub kind: ActionKind,
    pub target: Target,
    /// ARIA role, explicit or implied by the tag (`link`, `button`, `textbox`, ...).
    pub role: String,
    /// Lowercase tag name.
    pub tag: String,
    /// Accessible name or visible text, whitespace-collapsed.
    pub text: String,
    /// For `a` elements: the resolved `href`.
    pub href: Option<String>,
    /// The form the element belongs to, explicit or implicit.
    pub form: Option<FormId>,
    /// For Fill, Select and Check: the field being operated.
    pub field: Option<Field>,
}

/// Where a field's label came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabelSource {
    /// `<label for=id>`.
    For,
    /// `<label>` wrapping the field.
    Wrapping,
    AriaLabel,
    AriaLabelledBy,
    Placeholder,
    Title,
    /// The closest visible text to the left or above the field.
    NearestText,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Label {
    pub text: String,
    pub source: LabelSource,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SelectOption {
    pub value: String,
    pub text: String,
    pub selected: bool,
    pub disabled: bool,
}

/// A form control with everything its markup says about what it accepts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Field {
    pub target: Target,
    /// `input`, `textarea`, `select`, or the tag of a contenteditable element.
    pub tag: String,
    /// For inputs the (lowercased, defaulted) `type`: `text`, `email`, `number`, ...;
    /// `textarea`, `select-one`, `select-multiple` otherwise.
    pub input_type: String,
    pub name: Option<String>,
    pub id: Option<String>,
    /// All labels found, best first.
    pub labels: Vec<Label>,
    pub placeholder: Option<String>,
    pub autocomplete: Option<String>,
    pub required: bool,
    pub readonly: bool,
    pub min: Option<String>,
    pub max: Option<String>,
    pub step: Option<String>,
    pub minlength: Option<u32>,
    pub maxlength: Option<u32>,
    pub pattern: Option<String>,
    pub inputmode: Option<String>,
    /// For selects, and for radio groups (one entry per radio sharing the name); for a
    /// text input with a `list`, the suggestions of its `<datalist>` (none selected).
    pub options: Vec<SelectOption>,
    /// The current value as the snapshot saw it.
    pub value: String,
    pub checked: bool,
}

impl Field {
    /// The best label text, if any source gave one.
    pub fn label(&self) -> Option<&str> {
        self.labels.first().map(|l| l.text.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Form {
    pub id: FormId,
    pub key: ElementKey,
    /// The `<form>` element; `None` for an implicit form (fields and a submit-like button
    /// with no `<form>` around them).
    pub target: Option<Target>,
    pub name: Option<String>,
    pub html_id: Option<String>,
    pub action: Option<String>,
    pub method: Option<String>,
    /// A heading or legend that titles the form, if one is near.
    pub title: Option<String>,
    pub fields: Vec<Field>,
    /// The button (or input) that submits it.
    pub submit: Option<Target>,
}

/// A visible run of text and where it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TextNode {
    pub text: String,
    pub rect: Rect,
    pub frame: usize,
}

/// The model of one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page {
    pub url: String,
    /// See [`crate::normalize_url`].
    pub normalized_url: String,
    pub title: String,
    /// Visible, enabled, operable elements, in document order, keys unique.
    pub actions: Vec<Action>,
    pub forms: Vec<Form>,
    pub texts: Vec<TextNode>,
    /// Lowercase tag names of the main document's elements in document order
    /// (without `head` content, `script`, `style`, `noscript`, `template`).
    pub tag_sequence: Vec<String>,
    /// [`Page::tag_sequence`] with repeats folded: of consecutive sibling elements with
    /// the same (folded) subtree structure — 3 or 30 table rows, list items, cards — only
    /// the first is kept, with its subtree. A list of 3 and one of 30 give the same
    /// sequence, so the state abstraction can ignore how much data a page shows.
    #[serde(default)]
    pub merged_tag_sequence: Vec<String>,
}

impl Page {
    /// The tag sequence the state abstraction compares: [`Page::merged_tag_sequence`]
    /// with `merge_repeats`, [`Page::tag_sequence`] without.
    pub fn state_tags(&self, merge_repeats: bool) -> &[String] {
        if merge_repeats {
            &self.merged_tag_sequence
        } else {
            &self.tag_sequence
        }
    }
}
