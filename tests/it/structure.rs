//! One home per algorithm family (docs/architecture.md, "One home per
//! family"): an algorithm's SPEC §5 name is spelled as a string literal in
//! at most three files of `src/` (its family's module, the registry table,
//! the lessons), outside comments and `#[cfg(test)]` code.

use crate::common::{code_with_strings, rust_files};
use routesim::algorithms::REGISTRY;
use std::path::Path;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Each file of `src/` with its code (comments and test items removed,
/// string literals kept), by path relative to the crate.
fn sources() -> Vec<(String, String)> {
    rust_files(&Path::new(ROOT).join("src"))
        .into_iter()
        .map(|f| {
            let code = code_with_strings(&std::fs::read_to_string(&f).unwrap());
            (f.strip_prefix(ROOT).unwrap().display().to_string(), code)
        })
        .collect()
}

#[test]
fn an_algorithm_name_is_spelled_in_at_most_three_files() {
    let sources = sources();
    let mut wrong = Vec::new();
    for entry in REGISTRY {
        let literal = format!("\"{}\"", entry.name);
        let files: Vec<&str> = sources
            .iter()
            .filter(|(_, code)| code.contains(&literal))
            .map(|(f, _)| f.as_str())
            .collect();
        if files.len() > 3 {
            wrong.push(format!("{literal} in {} files: {}", files.len(), files.join(", ")));
        }
    }
    assert!(
        wrong.is_empty(),
        "names spelled in too many files:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_stripper_keeps_strings_and_drops_comments_and_tests() {
    let code = code_with_strings(
        "let a = \"ks-wrap\"; // \"greedy\"\nlet b = r#\"lmrr\"#;\n#[cfg(test)]\nmod tests { \"valiant\"; }\n",
    );
    assert!(code.contains("\"ks-wrap\"") && code.contains("\"lmrr\""), "{code}");
    assert!(!code.contains("greedy") && !code.contains("valiant"), "{code}");
}
