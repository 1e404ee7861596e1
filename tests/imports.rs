//! No circle of imports among the modules of `src/`: each file is a module, and a path in it
//! (`use crate::a::b`, `super::c::D`, `nimseq::e`, inline or in a `use` tree) that names an
//! item of another file's module is an edge to that file. A circle means two modules that
//! cannot be read, tested or moved one without the other.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// A module: the crate (`lib` or `bin`) and its path in it (`["octal", "scan"]`).
type Module = (String, Vec<String>);

/// Every `.rs` file under `src/` as its module.
fn modules(root: &Path) -> BTreeMap<Module, String> {
    let mut found = BTreeMap::new();
    let mut stack = vec![root.join("src")];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(root.join("src")).unwrap();
            let mut parts: Vec<String> = rel
                .iter()
                .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            // The binary is main.rs and cli/; the rest is the library.
            let krate = if parts[0] == "main" || parts[0] == "cli" {
                "bin"
            } else {
                "lib"
            };
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            found.insert(
                (krate.to_string(), parts),
                fs::read_to_string(&path).unwrap(),
            );
        }
    }
    found
}

/// The text without comments (doc links name modules too, but import nothing).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every path in `code` that starts at `crate`, `super`, `self` or `nimseq`, with `use` trees
/// (`a::{b, c::d}`) expanded: each as its segments.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let word_start = at == 0
            || !(bytes[at - 1].is_ascii_alphanumeric()
                || bytes[at - 1] == b'_'
                || bytes[at - 1] == b':');
        let rest = &code[at..];
        let head = ["crate::", "super::", "self::", "nimseq::"]
            .into_iter()
            .find(|h| rest.starts_with(h));
        match head {
            Some(_) if word_start => {
                let (tree, used) = use_tree(rest);
                found.extend(tree);
                at += used.max(1);
            }
            _ => at += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    found
}

/// The paths a use tree (or a plain path) at the start of `text` names, and its length.
fn use_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let mut prefix = Vec::new();
    let mut at = 0;
    let bytes = text.as_bytes();
    loop {
        let start = at;
        while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
            at += 1;
        }
        if at > start {
            prefix.push(text[start..at].to_string());
        }
        if text[at..].starts_with("::{") {
            // A group: each member is a tree of its own under the prefix.
            at += 3;
            let mut all = Vec::new();
            loop {
                while at < bytes.len() && (bytes[at].is_ascii_whitespace() || bytes[at] == b',') {
                    at += 1;
                }
                if at >= bytes.len() || bytes[at] == b'}' {
                    at += 1;
                    break;
                }
                let (members, used) = use_tree(&text[at..]);
                for m in members {
                    all.push([prefix.clone(), m].concat());
                }
                at += used.max(1);
            }
            return (all, at);
        }
        if text[at..].starts_with("::")
            && text[at + 2..].starts_with(|c: char| c.is_alphabetic() || c == '_')
        {
            at += 2;
            continue;
        }
        return (vec![prefix], at);
    }
}

/// The module file a path from `from` lands in: the longest prefix that is a module.
fn resolve(from: &Module, path: &[String], known: &BTreeMap<Module, String>) -> Option<Module> {
    let (krate, here) = from;
    let (mut krate, mut base): (String, Vec<String>) = (krate.clone(), Vec::new());
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => rest = &path[1..],
        Some("nimseq") => {
            krate = "lib".to_string();
            rest = &path[1..];
        }
        Some("self") => {
            base = here.clone();
            rest = &path[1..];
        }
        Some("super") => {
            base = here.clone();
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    let mut best = None;
    let mut module = base;
    if known.contains_key(&(krate.clone(), module.clone())) {
        best = Some((krate.clone(), module.clone()));
    }
    for segment in rest {
        module.push(segment.clone());
        if known.contains_key(&(krate.clone(), module.clone())) {
            best = Some((krate.clone(), module.clone()));
        }
    }
    best
}

/// Tarjan's strongly connected components of more than one module.
fn circles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct State<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on_stack: BTreeSet<Module>,
        found: Vec<Vec<Module>>,
    }
    fn visit(s: &mut State<'_>, v: &Module) {
        let i = s.index.len();
        s.index.insert(v.clone(), i);
        s.low.insert(v.clone(), i);
        s.stack.push(v.clone());
        s.on_stack.insert(v.clone());
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v.clone(), low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v.clone(), low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on_stack.remove(&w);
                let done = &w == v;
                component.push(w);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

fn name(m: &Module) -> String {
    format!("{}::{}", m.0, m.1.join("::"))
}

fn no_import_circles_among_the_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let known = modules(root);
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, text) in &known {
        let code = code_of(text);
        // A file's inline `mod tests` is a module below it: its `super` is the file.
        let (own, tests) = code.split_at(code.find("\nmod tests {").unwrap_or(code.len()));
        let below = (
            module.0.clone(),
            [module.1.clone(), vec!["tests".into()]].concat(),
        );
        let targets = edges.entry(module.clone()).or_default();
        for (from, part) in [(module, own), (&below, tests)] {
            for path in paths(part) {
                if let Some(to) = resolve(from, &path, &known)
                    && &to != module
                {
                    targets.insert(to);
                }
            }
        }
    }
    let found: Vec<String> = circles(&edges)
        .iter()
        .map(|c| c.iter().map(name).collect::<Vec<_>>().join(" <-> "))
        .collect();
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
    // The checker sees what it must: a group, a nested group, super and nimseq.
    let p = paths("use super::{a::B, c::{d, e::F}}; let x = nimseq::g::h();");
    let p: Vec<String> = p.iter().map(|s| s.join("::")).collect();
    assert_eq!(
        p,
        [
            "super::a::B",
            "super::c::d",
            "super::c::e::F",
            "nimseq::g::h"
        ]
    );
    assert!(
        edges[&("lib".to_string(), vec!["octal".into(), "row".into()])]
            .contains(&("lib".to_string(), vec!["octal".into(), "fast".into()])),
        "octal::row imports octal::fast"
    );
    let mut demo = BTreeMap::new();
    let (a, b): (Module, Module) = (
        ("lib".into(), vec!["a".into()]),
        ("lib".into(), vec!["b".into()]),
    );
    demo.insert(a.clone(), BTreeSet::from([b.clone()]));
    demo.insert(b.clone(), BTreeSet::from([a.clone()]));
    assert_eq!(circles(&demo).len(), 1);
}

trials!(no_import_circles_among_the_modules);
