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

/// Each command of the README's quick-start table, what it must print (stdout and stderr
/// together hold each of these), and whether it is too slow for the suite (then it is started
/// and must not be refused within a second; its figures are in BENCHMARKS.md).
const QUICK_START: &[(&str, &[&str], bool)] = &[
    (
        "nimseq sub seq 3,8,15",
        &["period       23, pre-period 0", "certificate"],
        false,
    ),
    (
        "nimseq sub value 1,3,4 7,10",
        &[
            "nim-sum      1",
            "outcome      N",
            "winning      7 -> 3, 10 -> 9, 10 -> 7",
        ],
        false,
    ),
    (
        "nimseq sub scan --out rows.csv",
        &["checksum:          triples=1313400 "],
        false,
    ),
    (
        "nimseq sub survey --c-max 200",
        &["Theorem 32: covered => q = 0, p as predicted"],
        false,
    ),
    (
        "nimseq octal seq 0.77",
        &["period       12, pre-period 71", "Guy-Smith window"],
        false,
    ),
    (
        "nimseq octal seq 0.77 --len 100 --format bfile",
        &["0 0\n1 1\n2 2\n3 3\n4 1\n", "98 2\n99 8\n"],
        false,
    ),
    ("nimseq octal stats '4!.0' --n-max 16777216", &[], true),
    (
        "nimseq sub seq 2,3,7 --play misere",
        &["period       5, pre-period 0 (genus", "certificate"],
        false,
    ),
    (
        "nimseq octal quotient 0.77 --heap-max 168",
        &["order        40 (P-portion 9)", "for every n >= 71: proved"],
        false,
    ),
    ("nimseq octal scan --digits 3", &[], true),
    (
        "nimseq octal scan --digits 2 --base 16 --n-max 4096",
        &[],
        true,
    ),
    (
        "nimseq kcross seq --k 3 --n-max 40",
        &["k,n,g\n", "period 10 from n = 0 observed"],
        false,
    ),
    (
        "nimseq kcross value '[X2XX5]' --k 3",
        &["value        0", "components"],
        false,
    ),
    (
        "nimseq arrows value spider:1,3,7",
        &["value        0", "parity conj."],
        false,
    ),
    (
        "nimseq arrows census --n-max 17",
        &["n,g,trees,violators\n", "g = 2 first at n = 17"],
        false,
    ),
    ("nimseq bench sub --c-max 300", &[], true),
];

/// The README's quick-start table, as a new user tries it: every command listed here (and
/// only these), each in a fresh directory with this build first on PATH, printing what
/// [`QUICK_START`] says; the slow ones started and not refused.
fn quick_start_commands_do_what_the_table_says() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let table = readme
        .split("## Quick start")
        .nth(1)
        .expect("a quick-start section")
        .split("\n## ")
        .next()
        .unwrap();
    let commands: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("| "))
        .filter_map(|l| l.split('|').nth(2)?.split('`').nth(1))
        .filter(|c| c.starts_with("nimseq "))
        .collect();
    let listed: Vec<&str> = QUICK_START.iter().map(|(c, _, _)| *c).collect();
    assert_eq!(commands, listed, "the README's quick-start commands");
    let bin = Path::new(env!("CARGO_BIN_EXE_nimseq")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for &(command, shows, slow) in QUICK_START {
        let dir = tempfile::tempdir().unwrap();
        let mut shell = Command::new("sh");
        // `exec` makes the shell the command itself, so that a kill reaches it.
        shell
            .args(["-c", &format!("exec 2>&1; exec {command}")])
            .current_dir(dir.path())
            .env("PATH", &path)
            .stdout(std::process::Stdio::piped());
        if slow {
            let mut child = shell.spawn().unwrap();
            let start = std::time::Instant::now();
            while start.elapsed().as_secs_f64() < 1.0 {
                if let Some(status) = child.try_wait().unwrap() {
                    assert!(status.success(), "`{command}` exited: {status}");
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            let _ = child.kill();
            child.wait().unwrap();
            continue;
        }
        let out = shell.output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "`{command}`: {text}");
        for shown in shows {
            assert!(
                text.contains(shown),
                "`{command}` does not print {shown:?}:\n{text}"
            );
        }
    }
}

trials!(
    relative_links_name_files_of_the_repository,
    checked_examples_match_the_cli,
    quick_start_commands_do_what_the_table_says,
);
