//! URL normalisation: one string per "same page", so that visits to `/product/1001?ref=a`
//! and `/product/1002?ref=b#reviews` count as visits to one kind of page.

use serde::{Deserialize, Serialize};
use url::Url;
use url::form_urlencoded;

/// How [`normalize_url`] generalises a URL.
///
/// Always: the fragment is dropped, scheme and host are lowercased, default ports and
/// credentials are dropped, query parameters are sorted by key. The default keeps query
/// keys but not their values (`?sort=price&page=2` becomes `?page&sort`), and turns
/// all-digit path segments into `{n}` (`/product/1001` becomes `/product/{n}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct UrlNormalization {
    /// Keep query values (`?page=2&sort=price`); otherwise only keys (`?page&sort`).
    pub keep_query_values: bool,
    /// Drop the query altogether; wins over `keep_query_values`.
    pub drop_query: bool,
    /// Replace all-digit path segments with `{n}`.
    pub generalize_numeric_segments: bool,
}

impl Default for UrlNormalization {
    fn default() -> Self {
        UrlNormalization {
            keep_query_values: false,
            drop_query: false,
            generalize_numeric_segments: true,
        }
    }
}

/// The normalised form of `url` (see [`UrlNormalization`]); an unparsable URL comes back
/// trimmed and otherwise unchanged.
pub fn normalize_url(url: &str, how: &UrlNormalization) -> String {
    let trimmed = url.trim();
    let Ok(mut parsed) = Url::parse(trimmed) else {
        return trimmed.to_string();
    };
    parsed.set_fragment(None);
    if parsed.cannot_be_a_base() {
        // mailto:, javascript:, data: ... have no path segments or hosts to generalise.
        return parsed.to_string();
    }

    let mut out = format!("{}:", parsed.scheme().to_ascii_lowercase());
    if let Some(host) = parsed.host_str() {
        out.push_str("//");
        out.push_str(&host.to_ascii_lowercase());
        // `port()` is already `None` for the scheme's default port.
        if let Some(port) = parsed.port() {
            out.push_str(&format!(":{port}"));
        }
    } else if trimmed
        .get(parsed.scheme().len()..)
        .is_some_and(|rest| rest.starts_with("://"))
    {
        out.push_str("//");
    }

    let path = parsed.path();
    if how.generalize_numeric_segments {
        let segments: Vec<&str> = path
            .split('/')
            .map(|s| {
                if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                    "{n}"
                } else {
                    s
                }
            })
            .collect();
        out.push_str(&segments.join("/"));
    } else {
        out.push_str(path);
    }

    if !how.drop_query {
        let mut pairs: Vec<(String, String)> = parsed
            .query_pairs()
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let mut query = form_urlencoded::Serializer::new(String::new());
        if how.keep_query_values {
            pairs.sort();
            for (k, v) in &pairs {
                query.append_pair(k, v);
            }
        } else {
            let mut keys: Vec<String> = pairs.into_iter().map(|(k, _)| k).collect();
            keys.sort();
            keys.dedup();
            for k in &keys {
                query.append_key_only(k);
            }
        }
        let query = query.finish();
        if !query.is_empty() {
            out.push('?');
            out.push_str(&query);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(url: &str) -> String {
        normalize_url(url, &UrlNormalization::default())
    }

    #[test]
    fn default_drops_values_fragment_and_numbers() {
        assert_eq!(
            norm("HTTP://Shop.Example.COM:80/product/1001?sort=price&page=2&sort=name#reviews"),
            "http://shop.example.com/product/{n}?page&sort"
        );
        assert_eq!(norm("https://example.com:443/"), "https://example.com/");
        assert_eq!(
            norm("http://127.0.0.1:8765/shop/products?"),
            "http://127.0.0.1:8765/shop/products"
        );
        assert_eq!(
            norm("https://user:pw@example.com/a/v2/12b/7"),
            "https://example.com/a/v2/12b/{n}"
        );
    }

    #[test]
    fn options_change_the_query_and_path() {
        let keep = UrlNormalization {
            keep_query_values: true,
            ..UrlNormalization::default()
        };
        assert_eq!(
            normalize_url("http://a.test/p/42?b=2&a=1&a=0", &keep),
            "http://a.test/p/{n}?a=0&a=1&b=2"
        );
        let drop = UrlNormalization {
            drop_query: true,
            keep_query_values: true,
            generalize_numeric_segments: false,
        };
        assert_eq!(
            normalize_url("http://a.test/p/42?b=2#x", &drop),
            "http://a.test/p/42"
        );
    }

    #[test]
    fn odd_inputs() {
        assert_eq!(norm("  not a url  "), "not a url");
        assert_eq!(norm(""), "");
        assert_eq!(
            norm("mailto:someone@example.com#x"),
            "mailto:someone@example.com"
        );
        assert_eq!(norm("file:///tmp/a/123.html"), "file:///tmp/a/123.html");
        assert_eq!(
            norm("http://a.test/search?q=a+b&x"),
            "http://a.test/search?q&x"
        );
    }
}
