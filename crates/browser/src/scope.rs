//! Which origins belong to the app under test. Failures from other origins (fonts,
//! analytics, widgets that a closed network or a blocker stops) are noise: recorded, but
//! never findings.

use url::Url;

/// The app's own origins, as `scheme://host:port` strings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scope {
    origins: Vec<String>,
}

impl Scope {
    /// A scope holding the origin of `start` plus `extra` origins (each a URL or origin).
    pub fn new(start: &Url, extra: &[String]) -> Self {
        let mut origins = vec![start.origin().ascii_serialization()];
        for e in extra {
            let origin = Url::parse(e)
                .map(|u| u.origin().ascii_serialization())
                .unwrap_or_else(|_| e.trim_end_matches('/').to_string());
            if !origins.contains(&origin) {
                origins.push(origin);
            }
        }
        Scope { origins }
    }

    pub fn origins(&self) -> &[String] {
        &self.origins
    }

    /// Whether `url` belongs to the app. `about:`, `data:` and `blob:` URLs created by
    /// the app's own pages count as the app's.
    pub fn contains(&self, url: &str) -> bool {
        if self.origins.is_empty() {
            return true;
        }
        match Url::parse(url) {
            Ok(u) if matches!(u.scheme(), "about" | "data" | "blob" | "javascript") => true,
            Ok(u) => self.origins.contains(&u.origin().ascii_serialization()),
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_port_and_scheme_matter() {
        let start = Url::parse("http://127.0.0.1:8080/shop?x=1").unwrap();
        let scope = Scope::new(&start, &["http://localhost:8080/".into()]);
        assert!(scope.contains("http://127.0.0.1:8080/cart"));
        assert!(scope.contains("http://localhost:8080/api"));
        assert!(!scope.contains("http://127.0.0.1:9/font.css"));
        assert!(!scope.contains("https://127.0.0.1:8080/"));
        assert!(scope.contains("about:blank"));
    }
}
