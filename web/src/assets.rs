//! The page's files, embedded in the binary: nothing is read from disk to serve them.

/// `(path, content type, text)` of every asset.
const ASSETS: [(&str, &str, &str); 4] = [
    ("/", "text/html; charset=utf-8", include_str!("../assets/index.html")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("../assets/app.js")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../assets/style.css")),
    ("/favicon.svg", "image/svg+xml", include_str!("../assets/favicon.svg")),
];

/// The `Content-Security-Policy` of the page: its own scripts, styles and connections only
/// (images also as `data:` URLs), never framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; \
     script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/// The content type and text of the asset at `path` (`/index.html` is `/`).
pub fn find(path: &str) -> Option<(&'static str, &'static str)> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|(p, _, _)| *p == path).map(|(_, t, body)| (*t, *body))
}

#[cfg(test)]
mod tests {
    #[test]
    fn assets_are_found_by_path_only() {
        assert!(super::find("/").is_some_and(|(t, b)| t.starts_with("text/html") && b.contains("app.js")));
        assert!(super::find("/index.html").is_some());
        assert!(super::find("/../Cargo.toml").is_none());
        assert!(super::find("/etc/passwd").is_none());
    }
}
