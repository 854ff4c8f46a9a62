//! ARCHITECTURE.md stays the map: its diagram names every workspace crate with exactly the
//! fanorona crates its Cargo.toml depends on, and its table has a row for each.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// `fanorona-x` -> its fanorona dependencies (short names), from each member's Cargo.toml.
fn manifests() -> BTreeMap<String, BTreeSet<String>> {
    let root: toml::Table = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml"))
        .expect("Cargo.toml")
        .parse()
        .expect("workspace manifest");
    let members = root["workspace"]["members"].as_array().expect("members");
    let mut crates = BTreeMap::new();
    for m in members {
        let dir = Path::new(ROOT).join(m.as_str().expect("member"));
        let manifest: toml::Table =
            std::fs::read_to_string(dir.join("Cargo.toml")).expect("member manifest").parse().expect("toml");
        let name = manifest["package"]["name"].as_str().expect("name").to_string();
        let deps = manifest
            .get("dependencies")
            .and_then(|d| d.as_table())
            .map(|d| {
                d.keys()
                    .filter_map(|k| k.strip_prefix("fanorona-").map(str::to_string))
                    .collect::<BTreeSet<_>>()
            })
            .unwrap_or_default();
        crates.insert(name, deps);
    }
    crates
}

/// The diagram's lines `fanorona-x -> a, b (comment)`.
fn diagram(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let start = text.find("```\nfanorona (the binary)").expect("the crate diagram");
    let end = start + 4 + text[start + 4..].find("```").expect("the diagram's end");
    let mut out = BTreeMap::new();
    for line in text[start..end].lines().filter(|l| l.starts_with("fanorona-")) {
        let name = line.split_whitespace().next().expect("name").to_string();
        let deps = line
            .split_once("->")
            .map(|(_, rest)| {
                without_parentheses(rest)
                    .split(',')
                    .map(|d| d.trim().to_string())
                    .filter(|d| !d.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        out.insert(name, deps);
    }
    out
}

/// `text` without its parenthesised remarks.
fn without_parentheses(text: &str) -> String {
    let mut depth = 0u32;
    text.chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => return depth == 0,
            }
            false
        })
        .collect()
}

#[test]
fn the_diagram_is_the_manifests() {
    let text = std::fs::read_to_string(Path::new(ROOT).join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let drawn = diagram(&text);
    let real = manifests();
    assert_eq!(drawn.keys().collect::<Vec<_>>(), real.keys().collect::<Vec<_>>(), "crates drawn");
    for (name, deps) in &real {
        assert_eq!(&drawn[name], deps, "{name}'s dependencies in ARCHITECTURE.md");
        assert!(text.contains(&format!("| `{name}` |")), "{name} has no row in the crates table");
    }
}
