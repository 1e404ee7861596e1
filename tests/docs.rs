//! The README, `docs/` and the other pages against the repository and the program: every
//! relative link names a file a clone has, and every example marked as checked, in the README
//! and in `docs/`, prints what the page shows.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Markdown files a user reads: README.md, BENCHMARKS.md, every page of docs/ and the
/// README of each results/ folder.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md"), root.join("BENCHMARKS.md")];
    for entry in fs::read_dir(root.join("docs")).expect("docs/") {
        let path = entry.expect("a docs entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            pages.push(path);
        }
    }
    for entry in fs::read_dir(root.join("results")).expect("results/") {
        let readme = entry.expect("a results entry").path().join("README.md");
        if readme.exists() {
            pages.push(readme);
        }
    }
    pages
}

/// The targets of the Markdown links `[text](target)` and images `![alt](target)` in `text`.
fn link_targets(text: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        if let Some(end) = rest.find(')') {
            targets.push(&rest[..end]);
        }
    }
    targets
}

fn relative_links_name_files_of_the_repository() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let dir = page.parent().unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
                continue;
            }
            let file = target.split('#').next().unwrap();
            checked += 1;
            if !dir.join(file).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
        // The specs the project was built from are not in a clone: the pages must not send a
        // reader there.
        assert!(
            !text.contains("shared/"),
            "{} mentions a shared/ folder, which a clone does not have",
            page.display()
        );
    }
    assert!(
        broken.is_empty(),
        "links to missing files:\n{}",
        broken.join("\n")
    );
    assert!(
        checked >= 10,
        "only {checked} relative links found: is the parser right?"
    );
    assert_eq!(
        link_targets("see [a](b.md) and ![c](d/e.png)."),
        ["b.md", "d/e.png"]
    );
}

/// The marker an example carries on the line before its ```text block to be checked.
const CHECKED: &str = "<!-- checked: the tests run this example -->";

/// One checked example: its commands, each with the output the README shows for it.
struct Example {
    line: usize,
    steps: Vec<(String, Vec<String>)>,
}

fn examples(readme: &str) -> Vec<Example> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() != CHECKED {
            continue;
        }
        assert_eq!(
            lines[i + 1],
            "```text",
            "line {}: a checked block is ```text",
            i + 2
        );
        let mut example = Example {
            line: i + 2,
            steps: Vec::new(),
        };
        for body in lines[i + 2..].iter().take_while(|l| **l != "```") {
            match body.strip_prefix("$ ") {
                Some(command) => example.steps.push((command.to_string(), Vec::new())),
                None => {
                    let (_, shown) = example.steps.last_mut().expect("a block starts with $ ");
                    shown.push(body.to_string());
                }
            }
        }
        // Blank lines between a command's output and the next command are not output.
        for (_, shown) in &mut example.steps {
            while shown.last().is_some_and(|l| l.is_empty()) {
                shown.pop();
            }
        }
        found.push(example);
    }
    found
}

/// Whether `actual` is what `shown` shows: line for line, where a shown line `...` stands for
/// any number of lines and a shown line ending in `...` for any line that begins as it does.
fn matches(shown: &[String], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(line, more)| {
            let same = match first.strip_suffix("...") {
                Some(prefix) => line.starts_with(prefix),
                None => line == first,
            };
            same && matches(rest, more)
        }),
    }
}

/// Runs each checked example of the README and of `docs/` in a fresh directory, as a user types
/// it in a shell, with this build's `nimseq` first on PATH; stdout and stderr together must be
/// what the page shows (elisions aside).
fn checked_examples_match_the_cli() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut examples = Vec::new();
    for page in pages() {
        let text = fs::read_to_string(&page).unwrap();
        let name = page.strip_prefix(root).unwrap().display().to_string();
        examples.extend(self::examples(&text).into_iter().map(|e| (name.clone(), e)));
    }
    for page in [
        "README.md",
        "docs/subtraction.md",
        "docs/octal.md",
        "docs/kcross.md",
    ] {
        assert!(
            examples.iter().any(|(name, _)| name == page),
            "no checked example in {page}"
        );
    }
    assert!(
        examples.len() >= 18,
        "only {} checked examples",
        examples.len()
    );
    let bin = Path::new(env!("CARGO_BIN_EXE_nimseq")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut wrong = Vec::new();
    for (page, example) in &examples {
        let dir = tempfile::tempdir().unwrap();
        for (command, shown) in &example.steps {
            let out = Command::new("sh")
                // stderr joins stdout before the command's own redirections (`> file`).
                .args(["-c", &format!("exec 2>&1; {command}")])
                .current_dir(dir.path())
                .env("PATH", &path)
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            let actual: Vec<&str> = text.lines().collect();
            if !matches(shown, &actual) {
                wrong.push(format!(
                    "{page} line {}: `{command}` printed:\n{text}\nthe page shows:\n{}\n",
                    example.line,
                    shown.join("\n")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&lines("a\n...\nd..."), &["a", "b", "c", "dd"]));
    assert!(!matches(&lines("a\nb"), &["a", "c"]));
}

trials!(
    relative_links_name_files_of_the_repository,
    checked_examples_match_the_cli,
);
