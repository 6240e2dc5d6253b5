//! The words a field is described by: its labels, placeholder, `name` and `id`, split the
//! way people and frameworks write them (`firstName`, `first_name`, `E-mail`, `ZIPCode`,
//! `password2`), lowercased and with Latin accents folded, so one keyword list serves
//! markup written in many styles and a few languages.

use curio_page::{Field, LabelSource};

/// Where a text came from. Identifiers are often written as one run of letters
/// (`emailaddress`, `checkindate`), so only they are searched for keywords inside words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SourceKind {
    Label,
    Placeholder,
    Identifier,
}

/// One descriptive text of a field.
#[derive(Debug, Clone)]
pub(crate) struct Source {
    pub(crate) kind: SourceKind,
    /// The text as written, for shapes such as `you@example.com` or `dd/mm/yyyy`.
    pub(crate) raw: String,
    pub(crate) words: Vec<String>,
    /// The words joined without separators.
    pub(crate) compact: String,
}

impl Source {
    fn new(kind: SourceKind, raw: &str) -> Option<Self> {
        let words = words(raw);
        if words.is_empty() {
            return None;
        }
        Some(Self {
            kind,
            raw: raw.to_string(),
            compact: words.concat(),
            words,
        })
    }

    /// Whether `keyword` occurs. A keyword is a phrase of lowercase words; a leading `=`
    /// asks for whole words only, and a leading `^` for a word that opens or closes the
    /// text (`From`, `date_to`, but not "Add to cart"). Other keywords also match a single
    /// word spelling them without spaces (`Firstname`), and, in identifiers, a part of a
    /// word (`useremail`), when they are long enough not to match by accident. A leading
    /// `!` asks for the whole text (`YYYY` alone is a year; in `dd/mm/yyyy` it is not).
    pub(crate) fn has(&self, keyword: &str) -> bool {
        if let Some(whole) = keyword.strip_prefix('!') {
            return self.words.iter().map(String::as_str).eq(whole.split(' '));
        }
        if let Some(word) = keyword.strip_prefix('^') {
            return self.words.first().is_some_and(|w| w == word)
                || self.words.last().is_some_and(|w| w == word);
        }
        let (exact, keyword) = match keyword.strip_prefix('=') {
            Some(k) => (true, k),
            None => (false, keyword),
        };
        if !keyword.contains(' ') {
            // One word, the common case: no splitting.
            if self.words.iter().any(|w| w == keyword) {
                return true;
            }
            return !exact
                && self.kind == SourceKind::Identifier
                && keyword.len() >= 5
                && self.compact.contains(keyword);
        }
        let phrase = || keyword.split(' ').filter(|w| !w.is_empty());
        let n = phrase().count();
        if n == 0 {
            return false;
        }
        if self
            .words
            .windows(n)
            .any(|window| window.iter().map(String::as_str).eq(phrase()))
        {
            return true;
        }
        if exact {
            return false;
        }
        let compact = || keyword.chars().filter(|c| *c != ' ');
        if n > 1 && self.words.iter().any(|w| w.chars().eq(compact())) {
            return true;
        }
        if self.kind != SourceKind::Identifier || compact().count() < 5 {
            return false;
        }
        if n == 1 {
            self.compact.contains(keyword)
        } else {
            self.compact.contains(&compact().collect::<String>())
        }
    }
}

/// All descriptive texts of a field, labels first (best first), then the placeholder,
/// then `name` and `id`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Texts {
    pub(crate) sources: Vec<Source>,
}

impl Texts {
    pub(crate) fn of(field: &Field) -> Self {
        let mut sources = Vec::new();
        for label in &field.labels {
            let kind = if label.source == LabelSource::Placeholder {
                SourceKind::Placeholder
            } else {
                SourceKind::Label
            };
            sources.extend(Source::new(kind, &label.text));
        }
        if let Some(p) = &field.placeholder {
            sources.extend(Source::new(SourceKind::Placeholder, p));
        }
        for ident in [&field.name, &field.id].into_iter().flatten() {
            sources.extend(Source::new(SourceKind::Identifier, ident));
        }
        Self { sources }
    }

    /// Whether any source has any of `keywords` (see [`Source::has`]).
    pub(crate) fn any(&self, keywords: &[&str]) -> bool {
        self.sources
            .iter()
            .any(|s| keywords.iter().any(|k| s.has(k)))
    }

    /// The raw texts, lowercased, for shape tests.
    pub(crate) fn raw_lower(&self) -> impl Iterator<Item = String> + '_ {
        self.sources.iter().map(|s| s.raw.to_lowercase())
    }
}

/// Splits `text` into lowercase words at non-alphanumerics, letter/digit changes and
/// camelCase humps (`ZIPCode` gives `zip`, `code`).
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut chars = String::with_capacity(text.len());
    for c in text.chars() {
        fold(c, &mut chars);
    }
    let chars: Vec<char> = chars.chars().collect();
    let mut out = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            flush(&mut current, &mut out);
            continue;
        }
        if let Some(&prev) = i.checked_sub(1).and_then(|j| chars.get(j))
            && !current.is_empty()
        {
            let next = chars.get(i + 1).copied();
            let split = prev.is_alphabetic() != c.is_alphabetic()
                || (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase()
                    && c.is_uppercase()
                    && next.is_some_and(|n| n.is_lowercase()));
            if split {
                flush(&mut current, &mut out);
            }
        }
        current.extend(c.to_lowercase());
    }
    flush(&mut current, &mut out);
    out
}

fn flush(current: &mut String, out: &mut Vec<String>) {
    if !current.is_empty() {
        out.push(std::mem::take(current));
    }
}

/// Latin letters with accents become their base letter, so `Prénom` and `Téléphone` meet
/// the same keywords as `prenom` and `telephone`.
fn fold(c: char, out: &mut String) {
    let base = match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => 'A',
        'ç' => 'c',
        'Ç' => 'C',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'È' | 'É' | 'Ê' | 'Ë' => 'E',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'Ì' | 'Í' | 'Î' | 'Ï' => 'I',
        'ñ' => 'n',
        'Ñ' => 'N',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => 'o',
        'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' => 'O',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'Ù' | 'Ú' | 'Û' | 'Ü' => 'U',
        'ý' | 'ÿ' => 'y',
        'Ý' => 'Y',
        'ß' => {
            out.push_str("ss");
            return;
        }
        other => other,
    };
    out.push(base);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_every_style() {
        assert_eq!(words("firstName"), ["first", "name"]);
        assert_eq!(words("first_name"), ["first", "name"]);
        assert_eq!(words("ZIPCode"), ["zip", "code"]);
        assert_eq!(words("E-mail address:"), ["e", "mail", "address"]);
        assert_eq!(words("password2"), ["password", "2"]);
        assert_eq!(words("user[email]"), ["user", "email"]);
        assert_eq!(words("Prénom"), ["prenom"]);
        assert_eq!(words("Straße"), ["strasse"]);
        assert!(words(" -- ").is_empty());
    }

    #[test]
    fn keywords_match_phrases_and_identifier_runs() {
        let label = Source::new(SourceKind::Label, "Check-in date").unwrap();
        assert!(label.has("check in"));
        assert!(!label.has("in date now"));
        let one = Source::new(SourceKind::Label, "Firstname").unwrap();
        assert!(one.has("first name"));
        let ident = Source::new(SourceKind::Identifier, "useremail").unwrap();
        assert!(ident.has("email"));
        assert!(!ident.has("=email"));
        let cart = Source::new(SourceKind::Label, "Add to cart").unwrap();
        assert!(!cart.has("^to"));
        let to = Source::new(SourceKind::Identifier, "date_to").unwrap();
        assert!(to.has("^to"));
    }
}
