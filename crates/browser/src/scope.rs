//! Which origins belong to the app under test. Failures from other origins (fonts,
//! analytics, widgets that a closed network or a blocker stops) are noise: recorded, but
//! never findings. So are the requests the browser makes by itself, for no user action
//! and no line of the app: the site's icon, touch icons, the web app manifest, source maps.

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

/// Whether a request for `url`, of CDP resource type `resource_type` (`Other`, `Image`,
/// `Manifest`, ...; empty when unknown), is one the browser makes by itself: the site's
/// icon (`/favicon.ico`), touch and tile icons, a web app manifest, a source map. Their
/// failures are noise: a page the app's own code or markup asked for (a document, a
/// script, a request of its code) is never that.
pub fn browser_own(url: &str, resource_type: &str) -> bool {
    if matches!(
        resource_type,
        "Document" | "XHR" | "Fetch" | "Script" | "Stylesheet" | "EventSource" | "WebSocket"
    ) {
        return false;
    }
    let Ok(u) = Url::parse(url) else {
        return false;
    };
    let name = u
        .path_segments()
        .and_then(|mut s| s.next_back())
        .unwrap_or_default()
        .to_ascii_lowercase();
    name == "favicon.ico"
        || name == "browserconfig.xml"
        || name == "site.webmanifest"
        || name == "manifest.webmanifest"
        || (name == "manifest.json" && resource_type == "Manifest")
        || (name.starts_with("apple-touch-icon") && name.ends_with(".png"))
        || name.ends_with(".js.map")
        || name.ends_with(".css.map")
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

    #[test]
    fn the_browsers_own_requests_are_told_apart() {
        assert!(browser_own("http://127.0.0.1:8/favicon.ico", "Other"));
        assert!(browser_own("http://127.0.0.1:8/favicon.ico", ""));
        assert!(browser_own(
            "http://127.0.0.1:8/apple-touch-icon-precomposed.png",
            "Other"
        ));
        assert!(browser_own("http://127.0.0.1:8/static/app.js.map", "Other"));
        assert!(browser_own("http://127.0.0.1:8/manifest.json", "Manifest"));
        // What the app's own code or markup asks for is the app's.
        assert!(!browser_own("http://127.0.0.1:8/favicon.ico", "Document"));
        assert!(!browser_own(
            "http://127.0.0.1:8/api/manifest.json",
            "Fetch"
        ));
        assert!(!browser_own("http://127.0.0.1:8/manifest.json", "Other"));
        assert!(!browser_own("http://127.0.0.1:8/logo.png", "Image"));
    }
}
