//! The guide's tests: `README.md` and every page of `docs/` stay true.
//!
//! - Every relative link and image resolves to a file of the repository, and every
//!   `#fragment` names a heading of its target by GitHub's anchor rules.
//! - Every fenced `console` block runs with trycmd: each `$ koth ...` line runs the `koth` of
//!   this build in a temporary copy of the reader's setup (docs/README.md, "Running the
//!   examples"), and its output must be what the page shows.
//! - A block that starts with `koth` is one of those, or is marked `console,ignore` and runs a
//!   command allowed to be shown untested ([`UNTESTED`]).
//!
//! `TRYCMD=overwrite cargo test --release -p koth-tests --test docs` writes the actual output
//! back into the pages (review the diff); `-- every_console_block trycmd=NAME` runs only the
//! pages whose path contains NAME.

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// `koth` subcommands a page may show in a `console,ignore` block, with the reason.
const UNTESTED: &[(&str, &str)] = &[
    (
        "bench",
        "its output is timings; the figures are on docs/benchmarks.md, written by scripts/bench",
    ),
    (
        "serve",
        "a server, it runs until stopped; tests/serve.rs starts it on a loopback port and tests it over HTTP",
    ),
    (
        "setup",
        "it downloads the interpreter from PyPI; tests/setup_python.rs (runner) tests it against a local server",
    ),
];

/// The repository's root.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the repository")
        .to_path_buf()
}

/// README.md and every Markdown page under docs/, relative to the root, sorted.
fn pages() -> Vec<PathBuf> {
    let root = repo();
    let mut out = vec![PathBuf::from("README.md")];
    let mut stack = vec![root.join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a docs folder") {
            let path = entry.expect("a docs entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(
                    path.strip_prefix(&root)
                        .expect("under the root")
                        .to_path_buf(),
                );
            }
        }
    }
    out.sort();
    out
}

fn read(page: &Path) -> String {
    std::fs::read_to_string(repo().join(page))
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", page.display()))
}

/// GitHub's Markdown, as far as the guide uses it.
fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(
        text,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_FOOTNOTES,
    )
}

/// A heading's anchor as GitHub makes it: lowercase; letters, digits, `-`, `_` and spaces
/// kept, everything else dropped; each space a hyphen.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a page: its headings' slugs, a repeated one numbered `-1`, `-2`, ...
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    let mut heading: Option<String> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().unwrap_or_default());
                let n = seen.entry(base.clone()).or_insert(0);
                out.insert(if *n == 0 {
                    base.clone()
                } else {
                    format!("{base}-{n}")
                });
                *n += 1;
            }
            _ => {}
        }
    }
    out
}

/// Every link and image destination of a page.
fn links(text: &str) -> Vec<String> {
    parser(text)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. })
            | Event::Start(Tag::Image { dest_url, .. }) => Some(dest_url.into_string()),
            _ => None,
        })
        .collect()
}

/// `path` with `.` and `..` resolved lexically, or `None` if it climbs above its start.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let root = repo();
    let pages = pages();
    assert!(
        pages.len() > 10,
        "the guide has pages under docs/: {pages:?}"
    );
    let mut anchor_cache: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut broken = Vec::new();
    for page in &pages {
        let text = read(page);
        for dest in links(&text) {
            if dest.contains("://") || dest.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = match dest.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (dest.as_str(), None),
            };
            let target = if path.is_empty() {
                Some(page.clone())
            } else {
                let dir = page.parent().unwrap_or(Path::new(""));
                normalise(&dir.join(path))
            };
            let Some(target) = target else {
                broken.push(format!(
                    "{}: `{dest}` leads outside the repository",
                    page.display()
                ));
                continue;
            };
            if !root.join(&target).exists() {
                broken.push(format!(
                    "{}: `{dest}`: {} does not exist",
                    page.display(),
                    target.display()
                ));
                continue;
            }
            let Some(fragment) = fragment else { continue };
            if target.extension().is_none_or(|e| e != "md") {
                broken.push(format!(
                    "{}: `{dest}`: an anchor into a file that is not Markdown",
                    page.display()
                ));
                continue;
            }
            let known = anchor_cache
                .entry(target.clone())
                .or_insert_with(|| anchors(&read(&target)));
            if !known.contains(fragment) {
                broken.push(format!(
                    "{}: `{dest}`: {} has no heading with the anchor `#{fragment}` (it has: {})",
                    page.display(),
                    target.display(),
                    known.iter().cloned().collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// A fenced or indented code block: its info string (empty for an indented one) and text.
struct Block {
    info: String,
    text: String,
}

fn code_blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.into_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                current = Some(Block {
                    info,
                    text: String::new(),
                });
            }
            Event::Text(t) => {
                if let Some(b) = current.as_mut() {
                    b.text.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => out.extend(current.take()),
            _ => {}
        }
    }
    out
}

/// The `koth` subcommand a block starts with, if it starts with `koth` or `$ koth`.
fn starts_with_koth(block: &Block) -> Option<String> {
    let first = block.text.lines().find(|l| !l.trim().is_empty())?.trim();
    let command = first.strip_prefix("$ ").unwrap_or(first);
    let mut words = command.split_whitespace();
    (words.next() == Some("koth")).then(|| words.next().unwrap_or_default().to_string())
}

fn is_console(block: &Block) -> bool {
    block.info.split(',').next() == Some("console")
}

fn is_ignored(block: &Block) -> bool {
    block.info.split(',').skip(1).any(|a| a.trim() == "ignore")
}

#[test]
fn every_block_that_starts_with_koth_is_run_or_allowed_untested() {
    let mut wrong = Vec::new();
    let mut untested = Vec::new();
    for page in pages() {
        for block in code_blocks(&read(&page)) {
            let Some(sub) = starts_with_koth(&block) else {
                // A console block must be commands only: trycmd would refuse anything else.
                if is_console(&block) && !is_ignored(&block) {
                    wrong.push(format!(
                        "{}: a console block that does not start with `$ koth`:\n{}",
                        page.display(),
                        block.text
                    ));
                }
                continue;
            };
            if !is_console(&block) {
                wrong.push(format!(
                    "{}: a block starting with `koth {sub}` is not a `console` block, so it is not run (mark it ```console and give its output):\n{}",
                    page.display(),
                    block.text
                ));
            } else if is_ignored(&block) {
                match UNTESTED.iter().find(|(s, _)| *s == sub) {
                    Some((_, why)) => untested.push(format!(
                        "{}: koth {sub}: {why}",
                        page.display()
                    )),
                    None => wrong.push(format!(
                        "{}: `koth {sub}` is marked console,ignore, but only {:?} may be shown untested:\n{}",
                        page.display(),
                        UNTESTED.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
                        block.text
                    )),
                }
            }
        }
    }
    // Say what is shown without running, so it is never silent.
    for line in &untested {
        eprintln!("UNTESTED: {line}");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// Why a page's examples cannot run on this machine, if a toolchain `scripts/setup` could not
/// install left out a bot it uses.
fn missing_toolchain(text: &str) -> Option<String> {
    let commands: Vec<String> = code_blocks(text)
        .into_iter()
        .filter(|b| is_console(b) && !is_ignored(b))
        .flat_map(|b| {
            b.text
                .lines()
                .filter(|l| l.starts_with("$ ") || l.starts_with("> "))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    for word in commands.iter().flat_map(|c| c.split_whitespace()) {
        if word.ends_with(".py") {
            if let Some(why) = koth_tests::PYTHON_SKIPPED {
                return Some(format!("python: {why}"));
            }
        }
        let Some(name) = word
            .strip_prefix("bots/")
            .and_then(|w| w.strip_suffix(".wasm"))
        else {
            continue;
        };
        let skipped = koth_tests::SKIPPED_LANGUAGE_BOTS
            .iter()
            .chain(koth_tests::SKIPPED_LANGUAGE_COMPONENT_BOTS)
            .find(|(bot, _)| *bot == name);
        if let Some((bot, why)) = skipped {
            return Some(format!("{bot}: {why}"));
        }
        // Otherwise the bot (or Rust referee) must be one tests/build.rs builds.
        let built = koth_tests::EXAMPLE_BOTS
            .iter()
            .chain(koth_tests::TEST_BOTS)
            .chain(koth_tests::C_BOTS)
            .chain(koth_tests::LANGUAGE_BOTS)
            .chain(koth_tests::COMPONENT_BOTS)
            .chain(koth_tests::LANGUAGE_COMPONENT_BOTS)
            .chain(koth_tests::REFEREES)
            .any(|b| *b == name);
        assert!(
            built
                && koth_tests::bots_dir()
                    .join(format!("{name}.wasm"))
                    .is_file(),
            "a page runs bots/{name}.wasm, which tests/build.rs does not build"
        );
    }
    None
}

/// Copy a folder's tree (files and folders only).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create a folder of the copy");
    for entry in std::fs::read_dir(from).expect("read a folder to copy") {
        let path = entry.expect("an entry").path();
        let dest = to.join(path.file_name().expect("a name"));
        if path.is_dir() {
            copy_tree(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).expect("copy a file");
        }
    }
}

#[test]
fn every_console_block_runs_as_documented() {
    let root = repo();
    let work = tempfile::Builder::new()
        .prefix("koth-docs-")
        .tempdir()
        .expect("a temporary folder");
    let cases = trycmd::TestCases::new();
    cases.register_bin("koth", koth_tests::koth_bin());
    let mut copies = Vec::new();
    for page in pages() {
        let text = read(&page);
        let runs = code_blocks(&text)
            .iter()
            .any(|b| is_console(b) && !is_ignored(b));
        if !runs {
            continue;
        }
        if let Some(why) = missing_toolchain(&text) {
            eprintln!("SKIPPED: {}: {why}", page.display());
            continue;
        }
        // trycmd runs a page's commands in `<page>.in/`, beside it: the reader's setup.
        let copy = work.path().join(&page);
        std::fs::create_dir_all(copy.parent().expect("a folder"))
            .expect("create the copy's folder");
        std::fs::copy(root.join(&page), &copy).expect("copy the page");
        let cwd = copy.with_extension("in");
        std::fs::create_dir_all(&cwd).expect("create the page's folder");
        std::os::unix::fs::symlink(koth_tests::bots_dir(), cwd.join("bots")).expect("link bots/");
        std::os::unix::fs::symlink(root.join("example-bots"), cwd.join("example-bots"))
            .expect("link example-bots/");
        // Copies: `koth invoke --dir` writes back into its folder.
        copy_tree(&root.join("docs/examples"), &cwd.join("docs/examples"));
        copy_tree(&root.join("docs/examples/coup"), &cwd.join("game"));
        cases.case(&copy);
        copies.push((copy, page));
    }
    assert!(!copies.is_empty(), "no page has a console block to run");
    eprintln!(
        "running the console blocks of {} pages (copied into {})",
        copies.len(),
        work.path().display()
    );
    cases.run();
    // TRYCMD=overwrite rewrote the copies: carry the new output back into the pages.
    if std::env::var_os("TRYCMD").is_some_and(|v| v == "overwrite") {
        for (copy, page) in &copies {
            std::fs::copy(copy, root.join(page)).expect("write the page back");
        }
    }
}
