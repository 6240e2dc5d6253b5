//! Tiny HTML helpers shared by the apps: escaping and the inline beacon script.

/// Escapes text for use in element content and in double-quoted attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Defines `curioTruth(id)`, which reports a client-side fault just before it happens.
/// A beacon survives the page throwing or navigating away right after, which a `fetch`
/// would not. The endpoint appears here only, never in a link.
pub(crate) const BEACON_SCRIPT: &str = r#"<script>
function curioTruth(id) {
  try { navigator.sendBeacon('/__truth/hit?f=' + encodeURIComponent(id)); } catch (_) {}
}
</script>"#;

/// Stops Chromium from asking for `/favicon.ico`, whose 404 would be noise in every run.
pub(crate) const NO_FAVICON: &str = r#"<link rel="icon" href="data:,">"#;

/// The value of the field `name` of a posted form (empty when it was not sent).
pub(crate) fn form_value<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
    fields
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
        .unwrap_or_default()
}

/// Whether the request's cookies hold `pair` (`name=value`).
pub(crate) fn has_cookie(headers: &axum::http::HeaderMap, pair: &str) -> bool {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|c| c.split(';').any(|kv| kv.trim() == pair))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
        assert_eq!(escape("plain"), "plain");
    }
}
