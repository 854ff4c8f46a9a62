//! The page's string catalogues (web/assets/i18n/LANG.json, English the reference): every
//! language has every key, with the same placeholders and the plural forms its language needs;
//! every key the page names (index.html's `data-i18n`, the scripts' keys) is in English, and
//! English has no key the page never names. The browser test (browser_look.rs) shows each
//! language in the page and finds no string missing there either.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use fanorona_core::CaptureKind;
use fanorona_data::Ending;
use fanorona_web::api::views::{kind_name, termination_slug};
use serde_json::Value;

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(assets().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The page's scripts, concatenated.
fn scripts() -> String {
    let mut names: Vec<PathBuf> =
        std::fs::read_dir(assets().join("js")).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    names.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect::<Vec<_>>().join("\n")
}

/// The languages the page offers (i18n.js's `LANGUAGES`), English first.
fn languages() -> Vec<String> {
    let js = read("js/i18n.js");
    let line = js.lines().find(|l| l.starts_with("const LANGUAGES")).unwrap();
    line.split("[\"").skip(1).map(|s| s[..2].to_string()).collect()
}

fn catalogue(lang: &str) -> BTreeMap<String, Value> {
    serde_json::from_str(&read(&format!("i18n/{lang}.json"))).unwrap_or_else(|e| panic!("{lang}.json: {e}"))
}

/// The plural categories of a language (CLDR, as `Intl.PluralRules` selects them for whole
/// numbers and fractions).
fn plural_forms(lang: &str) -> &'static [&'static str] {
    match lang {
        "en" | "fi" | "mg" => &["one", "other"],
        "fr" => &["one", "many", "other"],
        "ru" => &["one", "few", "many", "other"],
        "vi" => &["other"],
        _ => panic!("no plural rules for {lang}"),
    }
}

/// The `{name}` placeholders of a text.
fn placeholders(text: &str) -> BTreeSet<String> {
    text.split('{').skip(1).filter_map(|s| s.split_once('}')).map(|(name, _)| name.to_string()).collect()
}

#[test]
fn every_language_has_every_key_with_its_placeholders_and_plural_forms() {
    let langs = languages();
    assert_eq!(langs, ["en", "mg", "fr", "fi", "vi", "ru"]);
    let en = catalogue("en");
    for lang in &langs {
        let cat = catalogue(lang);
        let (have, want): (BTreeSet<_>, BTreeSet<_>) = (cat.keys().collect(), en.keys().collect());
        assert_eq!(
            have.difference(&want).collect::<Vec<_>>(),
            Vec::<&&String>::new(),
            "{lang}: keys English lacks"
        );
        assert_eq!(
            want.difference(&have).collect::<Vec<_>>(),
            Vec::<&&String>::new(),
            "{lang}: keys missing"
        );
        for (key, reference) in &en {
            check_value(lang, key, &cat[key], reference);
        }
    }
}

fn check_value(lang: &str, key: &str, value: &Value, reference: &Value) {
    match (value, reference) {
        (Value::String(s), Value::String(r)) => {
            assert_eq!(placeholders(s), placeholders(r), "{lang} {key}: {s:?} against {r:?}");
            assert_eq!(s.is_empty(), r.is_empty(), "{lang} {key}: empty or not as in English");
            assert_eq!(s.matches("**").count(), r.matches("**").count(), "{lang} {key}: bold marks");
        }
        (Value::Object(forms), Value::Object(r)) => {
            let names: Vec<&str> = forms.keys().map(String::as_str).collect();
            let mut need = plural_forms(lang).to_vec();
            need.sort_unstable();
            assert_eq!(names, need, "{lang} {key}: plural forms");
            let all: BTreeSet<String> = r.values().flat_map(|v| placeholders(v.as_str().unwrap())).collect();
            for (form, text) in forms {
                let text = text.as_str().unwrap_or_else(|| panic!("{lang} {key}.{form} is not text"));
                assert!(placeholders(text).is_subset(&all), "{lang} {key}.{form}: {text:?}");
                assert!(!text.is_empty(), "{lang} {key}.{form} is empty");
            }
            let other = placeholders(forms["other"].as_str().unwrap());
            assert_eq!(other, placeholders(r["other"].as_str().unwrap()), "{lang} {key}.other");
        }
        _ => panic!("{lang} {key}: a text where English has plural forms, or the other way round"),
    }
}

/// The keys index.html names: `data-i18n="key"` and `data-i18n-attr="attr:key;..."`.
fn html_keys() -> BTreeSet<String> {
    let page = read("index.html");
    let mut keys = BTreeSet::new();
    for part in page.split("data-i18n=\"").skip(1) {
        keys.insert(part.split('"').next().unwrap().to_string());
    }
    for part in page.split("data-i18n-attr=\"").skip(1) {
        for pair in part.split('"').next().unwrap().split(';') {
            keys.insert(pair.split_once(':').unwrap().1.to_string());
        }
    }
    keys
}

/// The string literals of the scripts that look like keys (`a.b`, not the storage keys).
fn script_keys(js: &str) -> BTreeSet<String> {
    js.split('"')
        .skip(1)
        .step_by(2)
        .filter(|s| {
            s.contains('.')
                && !s.starts_with("fanorona.")
                && s.split('.')
                    .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
                && s.starts_with(|c: char| c.is_ascii_lowercase())
        })
        .map(str::to_string)
        .collect()
}

/// The keys the scripts build from a closed list: sides, step kinds, endings, levels and the
/// kinds of a review's marks.
fn built_keys(js: &str) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    for side in ["white", "black"] {
        keys.insert(format!("side.{side}"));
        keys.insert(format!("color.{side}"));
    }
    for k in [CaptureKind::Paika, CaptureKind::Approach, CaptureKind::Withdrawal] {
        keys.insert(format!("kind.{}", kind_name(k)));
    }
    for e in Ending::ALL {
        keys.insert(format!("ending.{}", termination_slug(e)));
    }
    for l in fanorona_web::levels::levels().unwrap() {
        keys.insert(format!("level.{}.name", l.name));
        keys.insert(format!("level.{}.description", l.name));
    }
    let review = js.lines().find(|l| l.starts_with("const REVIEW_KINDS")).unwrap();
    for part in review.split("[\"").skip(1) {
        keys.insert(format!("review.kind.{}", part.split('"').next().unwrap()));
    }
    assert_eq!(keys.iter().filter(|k| k.starts_with("review.kind.")).count(), 3, "{review}");
    keys
}

/// Literals of the scripts shaped like keys that are not (file names, a selector).
const NOT_KEYS: [&str; 3] = ["fanorona-game.pgn", "fanorona-game.bin", "button.current"];

#[test]
fn every_key_the_page_names_is_in_english_and_english_has_no_other() {
    let en = catalogue("en");
    let js = scripts();
    let named: BTreeSet<String> =
        html_keys().into_iter().chain(script_keys(&js)).chain(built_keys(&js)).collect();
    let missing: Vec<&String> =
        named.iter().filter(|k| !en.contains_key(*k) && !NOT_KEYS.contains(&k.as_str())).collect();
    assert_eq!(missing, Vec::<&String>::new(), "keys the page names that English lacks");
    let unused: Vec<&String> = en.keys().filter(|k| !named.contains(*k)).collect();
    assert_eq!(unused, Vec::<&String>::new(), "keys of English the page never names");
}
