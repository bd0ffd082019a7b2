//! The layer order of `src/` (declared in docs/architecture.md, "Layers")
//! holds: every `crate::…` and `super::…` path of the library — in `use`
//! lines and inline, outside comments and `#[cfg(test)]` modules — names a
//! module of a lower layer (or the file's own module), and the files do not
//! import each other in a cycle.

use crate::common::code_of;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The layers, lowest first: each a list of top-level modules (peers).
fn layers() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("docs/architecture.md")).expect("docs/architecture.md");
    let start = text
        .find("```layers")
        .expect("a ```layers block in docs/architecture.md");
    let body = &text[start + "```layers".len()..];
    let end = body.find("```").expect("the layers block closes");
    let mut out: Vec<Vec<String>> = body[..end]
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .filter(|l| !l.is_empty())
        .collect();
    out.reverse(); // written top first
    out
}

/// Every `.rs` file under `src/`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's module path (`src/algorithms/lmrr/mod.rs` → `algorithms::lmrr`).
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(Path::new(ROOT).join("src")).unwrap();
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// The paths a use tree or an inline path names, each as its segments
/// (`crate::{a::b, c}` → `[crate, a, b]`, `[crate, c]`).
fn paths_from(code: &str, start: usize) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut i = start;
    let mut prefix: Vec<String> = Vec::new();
    loop {
        let s = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
            i += 1;
        }
        if i > s {
            prefix.push(code[s..i].to_string());
        }
        let group = code[i..].starts_with('{');
        if group || code[i..].starts_with("::") {
            if !group {
                i += 2;
            }
            if code[i..].starts_with('{') {
                // A group: split at top-level commas and recurse.
                let (mut depth, mut j, mut item_start) = (0, i, i + 1);
                let mut out = Vec::new();
                while j < bytes.len() {
                    match bytes[j] {
                        b'{' => depth += 1,
                        b'}' | b',' if depth == 1 => {
                            let item = code[item_start..j].trim();
                            if !item.is_empty() && item != "self" {
                                for p in paths_from(item, 0) {
                                    let mut full = prefix.clone();
                                    full.extend(p);
                                    out.push(full);
                                }
                            } else {
                                out.push(prefix.clone());
                            }
                            if bytes[j] == b'}' {
                                return out;
                            }
                            item_start = j + 1;
                        }
                        b'}' => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                }
                return out;
            }
            continue;
        }
        return vec![prefix];
    }
}

/// The top-level names lib.rs re-exports (`Simulation` → `simulation`).
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let rest = rest.trim_end_matches(';');
        for p in paths_from(rest, 0) {
            if p.len() >= 2 {
                out.insert(p.last().unwrap().clone(), p[0].clone());
            }
        }
    }
    out
}

struct Graph {
    /// Top-level module of each file.
    top: BTreeMap<PathBuf, String>,
    /// file → (the module it names, where) for every path.
    uses: BTreeMap<PathBuf, Vec<(Vec<String>, String)>>,
}

fn graph() -> Graph {
    let src = Path::new(ROOT).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let names = reexports(&lib);
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut g = Graph {
        top: BTreeMap::new(),
        uses: BTreeMap::new(),
    };
    for file in files {
        let module = module_of(&file);
        if module.is_empty() {
            continue; // lib.rs and main.rs: the crate root
        }
        let code = code_of(&std::fs::read_to_string(&file).unwrap());
        let mut uses = Vec::new();
        for key in ["crate::", "super::"] {
            let mut from = 0;
            while let Some(at) = code[from..].find(key) {
                let at = from + at;
                from = at + key.len();
                let before = code[..at].chars().last().unwrap_or(' ');
                if before.is_alphanumeric() || before == '_' || (key == "super::" && code[..at].ends_with("::")) {
                    continue;
                }
                // Resolve the path's base to a module path from the crate root.
                let (base, start) = if key == "crate::" {
                    (Vec::new(), at + key.len())
                } else {
                    // In a file `a/b.rs` (module a::b), super is a; in `a/b/mod.rs` too.
                    let mut m = module.clone();
                    m.pop();
                    let mut start = at + key.len();
                    while code[start..].starts_with("super::") {
                        m.pop();
                        start += "super::".len();
                    }
                    (m, start)
                };
                for p in paths_from(&code, start) {
                    let mut full = base.clone();
                    full.extend(p);
                    if full.is_empty() {
                        continue;
                    }
                    if full.len() == 1 || !src.join(&full[0]).exists() && !src.join(format!("{}.rs", full[0])).exists()
                    {
                        // A name re-exported by lib.rs (crate::Simulation).
                        if let Some(m) = names.get(&full[0]) {
                            full = vec![m.clone(), full[0].clone()];
                        }
                    }
                    uses.push((
                        full,
                        code[at..(at + 60).min(code.len())]
                            .lines()
                            .next()
                            .unwrap_or("")
                            .to_string(),
                    ));
                }
            }
        }
        g.top.insert(file.clone(), module[0].clone());
        g.uses.insert(file, uses);
    }
    g
}

/// The file a module path lands in: its longest prefix that is a file.
fn file_of(module: &[String]) -> Option<PathBuf> {
    let src = Path::new(ROOT).join("src");
    for n in (1..=module.len()).rev() {
        let rel: PathBuf = module[..n].iter().collect();
        let as_file = src.join(&rel).with_extension("rs");
        if as_file.exists() {
            return Some(as_file);
        }
        let as_mod = src.join(&rel).join("mod.rs");
        if as_mod.exists() {
            return Some(as_mod);
        }
    }
    None
}

#[test]
fn every_path_points_down_the_declared_layers() {
    let layers = layers();
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.iter().map(move |m| (m.as_str(), i)))
        .collect();
    // Every top-level module is in exactly one layer.
    let lib = std::fs::read_to_string(Path::new(ROOT).join("src/lib.rs")).unwrap();
    let declared: BTreeSet<String> = lib
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("pub mod ")
                .or_else(|| l.trim().strip_prefix("mod "))
        })
        .map(|l| l.trim_end_matches(';').to_string())
        .collect();
    let listed: BTreeSet<String> = layer_of.keys().map(|s| s.to_string()).collect();
    assert_eq!(
        declared, listed,
        "docs/architecture.md's layers list exactly src/lib.rs's modules"
    );
    let g = graph();
    let mut wrong = Vec::new();
    for (file, uses) in &g.uses {
        let from = &g.top[file];
        for (path, text) in uses {
            let to = &path[0];
            if to == from {
                continue;
            }
            let (Some(&a), Some(&b)) = (layer_of.get(from.as_str()), layer_of.get(to.as_str())) else {
                wrong.push(format!(
                    "{}: `{text}` names {to}, not a module of a layer",
                    file.display()
                ));
                continue;
            };
            if b >= a {
                wrong.push(format!(
                    "{}: `{}` — {from} (layer {a}) may not use {to} (layer {b})",
                    file.strip_prefix(ROOT).unwrap().display(),
                    text.trim()
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "paths up or across the layers:\n{}", wrong.join("\n"));
}

#[test]
fn no_two_files_import_each_other_in_a_cycle() {
    let g = graph();
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (file, uses) in &g.uses {
        for (path, _) in uses {
            if let Some(to) = file_of(path) {
                // A child naming its parent module (`super::Algorithm`) is
                // not an edge back: the parent declares the child.
                let parent_of_file = to.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs")
                    && file.starts_with(to.parent().unwrap());
                if to != *file && !parent_of_file {
                    edges.entry(file.clone()).or_default().insert(to);
                }
            }
        }
    }
    // Depth-first search for a back edge.
    fn visit(
        node: &PathBuf,
        edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        state: &mut BTreeMap<PathBuf, u8>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        state.insert(node.clone(), 1);
        stack.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            match state.get(next) {
                Some(1) => {
                    let at = stack.iter().position(|n| n == next).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, edges, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys() {
        if !state.contains_key(node) {
            if let Some(cycle) = visit(node, &edges, &mut state, &mut Vec::new()) {
                let names: Vec<String> = cycle
                    .iter()
                    .map(|p| p.strip_prefix(ROOT).unwrap().display().to_string())
                    .collect();
                panic!("files import each other in a cycle: {}", names.join(" → "));
            }
        }
    }
}

#[test]
fn the_resolver_reads_groups_and_skips_comments_and_tests() {
    let code = code_of(
        "use crate::{a::{b, c}, d}; // crate::z\nfn f() { \"crate::y\"; }\n#[cfg(test)]\nmod tests { use crate::w; }\n",
    );
    let at = code.find("crate::").unwrap() + "crate::".len();
    let paths = paths_from(&code, at);
    assert_eq!(
        paths,
        vec![
            vec!["a".to_string(), "b".to_string()],
            vec!["a".to_string(), "c".to_string()],
            vec!["d".to_string()]
        ]
    );
    assert!(!code.contains("crate::z") && !code.contains("crate::y") && !code.contains("crate::w"));
}
