//! The page's files, embedded in the binary: nothing is read from disk to serve them.

const HTML: &str = "text/html; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const JSON: &str = "application/json; charset=utf-8";

/// `(path, content type, text)` of every asset. The scripts are loaded in the order of
/// `index.html` and share one global scope.
const ASSETS: [(&str, &str, &str); 22] = [
    ("/", HTML, include_str!("../assets/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_str!("../assets/style.css")),
    ("/favicon.svg", "image/svg+xml", include_str!("../assets/favicon.svg")),
    ("/js/util.js", JS, include_str!("../assets/js/util.js")),
    ("/js/i18n.js", JS, include_str!("../assets/js/i18n.js")),
    ("/js/board.js", JS, include_str!("../assets/js/board.js")),
    ("/js/movelist.js", JS, include_str!("../assets/js/movelist.js")),
    ("/js/sound.js", JS, include_str!("../assets/js/sound.js")),
    ("/js/store.js", JS, include_str!("../assets/js/store.js")),
    ("/js/replay.js", JS, include_str!("../assets/js/replay.js")),
    ("/js/analyse.js", JS, include_str!("../assets/js/analyse.js")),
    ("/js/play.js", JS, include_str!("../assets/js/play.js")),
    ("/js/computer.js", JS, include_str!("../assets/js/computer.js")),
    ("/js/end.js", JS, include_str!("../assets/js/end.js")),
    ("/js/review.js", JS, include_str!("../assets/js/review.js")),
    ("/js/app.js", JS, include_str!("../assets/js/app.js")),
    ("/i18n/en.json", JSON, include_str!("../assets/i18n/en.json")),
    ("/i18n/mg.json", JSON, include_str!("../assets/i18n/mg.json")),
    ("/i18n/fr.json", JSON, include_str!("../assets/i18n/fr.json")),
    ("/i18n/fi.json", JSON, include_str!("../assets/i18n/fi.json")),
    ("/i18n/vi.json", JSON, include_str!("../assets/i18n/vi.json")),
    ("/i18n/ru.json", JSON, include_str!("../assets/i18n/ru.json")),
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

    #[test]
    fn every_script_of_the_page_is_served() {
        let (_, page) = super::find("/").unwrap();
        let scripts: Vec<&str> =
            page.split("<script src=\"").skip(1).filter_map(|s| s.split('"').next()).collect();
        assert_eq!(scripts.len(), super::ASSETS.iter().filter(|(p, _, _)| p.starts_with("/js/")).count());
        for s in scripts {
            assert!(super::find(s).is_some(), "{s} is loaded by the page but not served");
        }
    }
}
