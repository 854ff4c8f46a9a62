//! The documents against the code: every relative link of the Markdown pages leads somewhere,
//! and every documented command still parses.
//!
//! 1. Links. In `README.md`, the other Markdown files at the top, the crates' and `docs/`'s
//!    (every `*.md` of the repository outside `target/` and hidden folders), every relative link
//!    `[text](path#anchor)` (images and reference definitions too; not inside code) must name an
//!    existing file or folder, and a `#anchor` must be a heading of the Markdown file it names
//!    (GitHub's slugs: lower case, punctuation other than `-` and `_` dropped, spaces to `-`,
//!    `-1`, `-2`, ... for repeated headings).
//! 2. Commands. In `README.md` and `docs/**/*.md`, every line of a code block tagged `sh` that
//!    starts with `fanorona ` or `cargo run --release -- ` (cargo options such as
//!    `--no-default-features` allowed before the `--`, but not `-p` or `--example`) is run with
//!    `--help` appended: clap must accept the whole line (exit 0: the subcommands, every option
//!    and value it checks while parsing), and every long option on the line must appear in that
//!    subcommand's `--help`. A trailing `# comment` is dropped and `\` continues a line; a line
//!    with shell syntax (a pipe, a redirection, `$`, `;` or `&` outside quotes) is not checked.
//!
//! A failure names the file, the line and the command or link. When a documented command no
//! longer parses, fix the document.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `*.md` under `dir`, skipping `target/` and hidden folders, sorted.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        if p.is_dir() {
            markdown_files(&p, out);
        } else if name.ends_with(".md") {
            out.push(p);
        }
    }
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// A Markdown file's lines, each marked with the info string of the fenced code block it is
/// in (`Some("sh")`; fence lines count as code), `None` for prose.
struct Doc {
    lines: Vec<String>,
    fence: Vec<Option<String>>,
}

fn read_doc(path: &Path) -> Doc {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", rel(path)));
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let mut fence = Vec::with_capacity(lines.len());
    // (fence character, fence length, info string) of the open block
    let mut open: Option<(char, usize, String)> = None;
    for line in &lines {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let c = t.chars().next().unwrap_or(' ');
        let run = if c == '`' || c == '~' { t.chars().take_while(|&x| x == c).count() } else { 0 };
        match &open {
            None if run >= 3 && indent <= 3 => {
                let info = t[run..].split_whitespace().next().unwrap_or("").to_owned();
                fence.push(Some(info.clone()));
                open = Some((c, run, info));
            }
            None => fence.push(None),
            Some((oc, olen, info)) => {
                fence.push(Some(info.clone()));
                if c == *oc && run >= *olen && t[run..].trim().is_empty() {
                    open = None;
                }
            }
        }
    }
    Doc { lines, fence }
}

/// The line without its inline code spans.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '`' {
            let n = chars[i..].iter().take_while(|&&c| c == '`').count();
            // find a closing run of exactly n backticks
            let mut j = i + n;
            let mut close = None;
            while j < chars.len() {
                if chars[j] == '`' {
                    let m = chars[j..].iter().take_while(|&&c| c == '`').count();
                    if m == n {
                        close = Some(j + m);
                        break;
                    }
                    j += m;
                } else {
                    j += 1;
                }
            }
            match close {
                Some(end) => {
                    out.push(' ');
                    i = end;
                }
                None => {
                    out.extend(&chars[i..i + n]);
                    i += n;
                }
            }
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The targets of the inline links and images of a prose line, and of a reference definition.
fn link_targets(line: &str) -> Vec<String> {
    let s = without_code_spans(line);
    let mut out = Vec::new();
    let t = s.trim_start();
    if t.starts_with('[')
        && let Some(k) = t.find("]: ")
        && !t[..k].contains('(')
    {
        out.push(t[k + 3..].split_whitespace().next().unwrap_or("").to_owned());
        return out;
    }
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(k) = s[i..].find("](") {
        let start = i + k + 2;
        let mut depth = 1;
        let mut j = start;
        while j < b.len() {
            match b[j] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let inner = s[start..j.min(s.len())].trim();
        let target = if let Some(rest) = inner.strip_prefix('<') {
            rest.split('>').next().unwrap_or("")
        } else {
            inner.split_whitespace().next().unwrap_or("")
        };
        out.push(target.to_owned());
        i = j.min(s.len());
    }
    out
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    // [text](url) reads as text
    let mut text = String::new();
    let mut rest = heading;
    while let Some(k) = rest.find("](") {
        text.push_str(&rest[..k]);
        let after = &rest[k + 2..];
        rest = after.find(')').map_or("", |e| &after[e + 1..]);
    }
    text.push_str(rest);
    let mut s = String::new();
    for c in text.trim().to_lowercase().chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            s.push(c);
        } else if c == ' ' {
            s.push('-');
        }
    }
    s
}

/// The anchors of a Markdown file's headings, in GitHub's spelling.
fn anchors(doc: &Doc) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (line, fence) in doc.lines.iter().zip(&doc.fence) {
        if fence.is_some() {
            continue;
        }
        let t = line.trim_start();
        if line.len() - t.len() > 3 {
            continue;
        }
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let text = &t[hashes..];
        if !(text.is_empty() || text.starts_with(' ') || text.starts_with('\t')) {
            continue;
        }
        let text = text.trim().trim_end_matches('#').trim();
        let base = slug(text);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[test]
fn every_relative_link_resolves() {
    let root = root();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("README.md")), "no README.md found under {}", root.display());
    let mut cache: HashMap<PathBuf, Vec<String>> = HashMap::new();
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in &files {
        let doc = read_doc(file);
        let dir = file.parent().unwrap();
        for (n, (line, fence)) in doc.lines.iter().zip(&doc.fence).enumerate() {
            if fence.is_some() {
                continue;
            }
            for target in link_targets(line) {
                if target.is_empty()
                    || target.contains("://")
                    || target.starts_with("mailto:")
                    || target.starts_with("data:")
                {
                    continue;
                }
                checked += 1;
                let (path, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p, Some(a)),
                    None => (target.as_str(), None),
                };
                let resolved = if path.is_empty() {
                    file.clone()
                } else if let Some(abs) = path.strip_prefix('/') {
                    normalise(&root.join(abs))
                } else {
                    normalise(&dir.join(path))
                };
                let at = format!("{}:{}: link `{target}`", rel(file), n + 1);
                if !resolved.exists() {
                    problems.push(format!("{at}: no such file {}", rel(&resolved)));
                    continue;
                }
                let Some(anchor) = anchor else { continue };
                if resolved.extension().is_none_or(|e| e != "md") {
                    continue;
                }
                let list = cache.entry(resolved.clone()).or_insert_with(|| anchors(&read_doc(&resolved)));
                if !list.iter().any(|a| a == anchor) {
                    problems
                        .push(format!("{at}: no heading with the anchor #{anchor} in {}", rel(&resolved)));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} relative links found: is the link parser broken?");
    assert!(problems.is_empty(), "{} broken links:\n{}", problems.len(), problems.join("\n"));
}

/// A shell line's words (quotes and backslashes as a shell reads them), or `None` when the
/// line needs more of a shell than that: a pipe, redirection, expansion or list.
fn shell_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        x => word.push(x),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' => return None,
                        '\\' => {
                            let x = chars.next()?;
                            if !matches!(x, '"' | '\\' | '$' | '`') {
                                word.push('\\');
                            }
                            word.push(x);
                        }
                        x => word.push(x),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next()?);
            }
            '|' | '<' | '>' | '$' | ';' | '&' | '`' | '(' | ')' => return None,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// The line without a trailing `# comment` (a `#` after white space, outside quotes).
fn strip_comment(line: &str) -> &str {
    let (mut single, mut double, mut prev_space) = (false, false, true);
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && prev_space => return line[..i].trim_end(),
            _ => {}
        }
        prev_space = c.is_whitespace();
    }
    line.trim_end()
}

/// The arguments a documented line gives the `fanorona` binary, or `None` when the line is
/// not a `fanorona` command.
fn fanorona_args(words: &[String]) -> Option<Vec<String>> {
    match words.first().map(String::as_str) {
        Some("fanorona") => Some(words[1..].to_vec()),
        Some("cargo") if words.get(1).map(String::as_str) == Some("run") => {
            let dash = words.iter().position(|w| w == "--")?;
            let cargo_args = &words[2..dash];
            if cargo_args.iter().any(|w| {
                matches!(w.as_str(), "-p" | "--package" | "--example" | "--bin")
                    || w.starts_with("--package=")
                    || w.starts_with("--example=")
                    || w.starts_with("--bin=")
            }) {
                return None;
            }
            Some(words[dash + 1..].to_vec())
        }
        _ => None,
    }
}

/// Runs the binary; (exit status 0, standard output and error together).
fn run(args: &[String]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_fanorona")).args(args).output().expect("run fanorona");
    let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&o.stderr));
    (o.status.success(), text)
}

/// The subcommands a `--help` text lists.
fn subcommands(help: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_commands = false;
    for line in help.lines() {
        if line.trim_end() == "Commands:" {
            in_commands = true;
            continue;
        }
        if in_commands {
            if !line.starts_with(' ') {
                break;
            }
            if let Some(w) = line.split_whitespace().next() {
                out.push(w.to_owned());
            }
        }
    }
    out
}

/// Whether `help` lists the long option `opt` (`--name`), not only a longer one.
fn lists_option(help: &str, opt: &str) -> bool {
    help.match_indices(opt).any(|(i, _)| {
        let next = help[i + opt.len()..].chars().next();
        let prev = help[..i].chars().last();
        !next.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_')
            && !prev.is_some_and(|c| c.is_alphanumeric() || c == '-')
    })
}

#[test]
fn every_documented_command_parses() {
    let root = root();
    let mut files = vec![root.join("README.md")];
    markdown_files(&root.join("docs"), &mut files);
    let mut helps: HashMap<Vec<String>, (bool, String)> = HashMap::new();
    let mut help_of = |path: &[String]| -> (bool, String) {
        helps
            .entry(path.to_vec())
            .or_insert_with(|| {
                let mut args = path.to_vec();
                args.push("--help".into());
                run(&args)
            })
            .clone()
    };
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in &files {
        let doc = read_doc(file);
        let mut n = 0;
        while n < doc.lines.len() {
            let first = n;
            if doc.fence[n].as_deref() != Some("sh") {
                n += 1;
                continue;
            }
            // a logical line: `\` at the end continues it
            let mut line = String::new();
            loop {
                let l = doc.lines[n].trim_end();
                n += 1;
                match l.strip_suffix('\\') {
                    Some(head) if n < doc.lines.len() && doc.fence[n].as_deref() == Some("sh") => {
                        line.push_str(head);
                        line.push(' ');
                    }
                    _ => {
                        line.push_str(l);
                        break;
                    }
                }
            }
            let command = strip_comment(line.trim());
            if !(command.starts_with("fanorona ") || command.starts_with("cargo run")) {
                continue;
            }
            let Some(words) = shell_words(command) else { continue };
            let Some(args) = fanorona_args(&words) else { continue };
            let at = format!("{}:{}: `{command}`", rel(file), first + 1);
            if !cfg!(feature = "train") && matches!(args.first().map(String::as_str), Some("train" | "loop"))
            {
                continue;
            }
            checked += 1;
            // the subcommand path: the leading words the help texts list as subcommands
            let mut path: Vec<String> = Vec::new();
            let (ok, mut help) = help_of(&path);
            assert!(ok, "`fanorona --help` failed:\n{help}");
            for w in &args {
                if w.starts_with('-') || !subcommands(&help).contains(w) {
                    break;
                }
                path.push(w.clone());
                let (ok, h) = help_of(&path);
                if !ok {
                    problems.push(format!("{at}: `fanorona {} --help` failed:\n{h}", path.join(" ")));
                    break;
                }
                help = h;
            }
            if path.is_empty() {
                problems.push(format!(
                    "{at}: `{}` is not a subcommand of fanorona",
                    args.first().map_or("", String::as_str)
                ));
                continue;
            }
            let mut full = args.clone();
            full.push("--help".into());
            let (ok, out) = run(&full);
            if !ok {
                problems.push(format!("{at}: does not parse (ran it with --help):\n{}", out.trim_end()));
            }
            for w in &args {
                if let Some(name) = w.strip_prefix("--").filter(|n| !n.is_empty()) {
                    let opt = format!("--{}", name.split('=').next().unwrap_or(name));
                    if !lists_option(&help, &opt) {
                        problems
                            .push(format!("{at}: `fanorona {} --help` does not list {opt}", path.join(" ")));
                    }
                }
            }
        }
    }
    assert!(checked > 30, "only {checked} documented commands found: is the parser broken?");
    assert!(
        problems.is_empty(),
        "{} documented commands do not parse:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("The main job: `fanorona loop`"), "the-main-job-fanorona-loop");
    assert_eq!(
        slug("Where perft 7 goes, what was tried on the generator, and `perft --hash`"),
        "where-perft-7-goes-what-was-tried-on-the-generator-and-perft---hash"
    );
    assert_eq!(slug("The web board's levels (2026-12-06)"), "the-web-boards-levels-2026-12-06");
    assert_eq!(
        slug("Training samples for numpy, PyTorch, JAX: `--format npz`"),
        "training-samples-for-numpy-pytorch-jax---format-npz"
    );
    let doc = Doc {
        lines: vec!["# A".into(), "```".into(), "# not a heading".into(), "```".into(), "## A".into()],
        fence: vec![None, Some(String::new()), Some(String::new()), Some(String::new()), None],
    };
    assert_eq!(anchors(&doc), ["a", "a-1"]);
    assert_eq!(link_targets("see [x](a.md#b) and `[y](no.md)` and ![i](p.png \"t\")"), ["a.md#b", "p.png"]);
    assert_eq!(
        shell_words(r#"fanorona eval -e "cmd:./a b;x" 'q r' c\ d"#).unwrap(),
        ["fanorona", "eval", "-e", "cmd:./a b;x", "q r", "c d"]
    );
    assert!(shell_words("fanorona data export x > y").is_none());
    assert_eq!(strip_comment("fanorona perft --depth 6   # ... nodes"), "fanorona perft --depth 6");
}
