//! One home per algorithm family (docs/architecture.md, "One home per
//! family"): an algorithm's SPEC §5 name is spelled as a string literal in
//! at most three files of `src/` (its family's module, the registry table,
//! the lessons, every file of `src/lessons/`), outside comments and `#[cfg(test)]` code; a formula's
//! text is written in exactly one string literal (its `text()`), and an
//! entry's one-line claim is one of its claims.

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
        // The lessons are one home however many files they fill (src/lessons/).
        let mut files: Vec<&str> = sources
            .iter()
            .filter(|(_, code)| code.contains(&literal))
            .map(|(f, _)| {
                if f.starts_with("src/lessons/") {
                    "src/lessons/"
                } else {
                    f.as_str()
                }
            })
            .collect();
        files.dedup();
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

/// The string literals of `code` (as [`code_with_strings`] keeps them),
/// each with its line continuations (`\` + newline + indent) folded.
fn literals(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '"' {
            i += 1;
            continue;
        }
        let mut text = String::new();
        i += 1;
        while i < chars.len() && chars[i] != '"' {
            if chars[i] == '\\' && chars.get(i + 1) == Some(&'\n') {
                i += 2;
                while i < chars.len() && chars[i].is_whitespace() {
                    i += 1;
                }
                continue;
            }
            if chars[i] == '\\' {
                text.push(chars[i]);
                i += 1;
            }
            if i < chars.len() {
                text.push(chars[i]);
            }
            i += 1;
        }
        i += 1;
        out.push(text);
    }
    out
}

/// Formula texts that are notations — symbols and units used in prose
/// (n, k, √(ℓkN) as the unit steps are measured in), not claims — and so
/// written wherever they are used (docs/architecture.md).
const NOTATIONS: &[&str] = &["2n", "k", "n", "ε", "q", "log n", "log₂ n", "√(ℓkN)", "B"];

/// The formulas of the claim language that have one spelling.
fn formula_texts() -> Vec<&'static str> {
    use routesim::algorithms::claim::{Formula, KsLemma, KsTheorem, LineLemma};
    let mut formulas: Vec<Formula> = KsTheorem::ALL.into_iter().map(Formula::Ks).collect();
    formulas.extend(
        [
            KsLemma::NoWrapOuter,
            KsLemma::NoWrapMiddle,
            KsLemma::NoWrapOuterAny,
            KsLemma::NoWrapMiddleAny,
            KsLemma::PerDimension,
            KsLemma::NoWrapRouteFirst,
            KsLemma::LocalFirst,
            KsLemma::LocalLinkLoad,
            KsLemma::LocalSecond,
            KsLemma::LocalThird,
        ]
        .map(Formula::KsLemma),
    );
    formulas.extend(LineLemma::ALL.into_iter().map(Formula::Line));
    formulas.extend([
        Formula::Lemma2,
        Formula::MeshDiameter,
        Formula::ThreeLines,
        Formula::EightD,
        Formula::TwoSide,
        Formula::SqrtLkn,
        Formula::SqrtNOverD,
        Formula::SqrtNOverThree,
        Formula::LogSide,
        Formula::Side,
        Formula::GreedyWorstQueue,
        Formula::PacketsPerNode,
        Formula::QueueBound,
        Formula::CongestionDilationLogN,
        Formula::EdgeQueueCap,
        Formula::LogInputs,
        Formula::DimsTimesSide,
        Formula::LogNodes,
        Formula::LogNodesSquared,
        Formula::BitonicSteps,
        Formula::BitonicButterflySteps,
        Formula::BitonicShuffleExchangeSteps,
        Formula::GreedyBuffer,
        Formula::GreedyBufferCube,
        Formula::RoutesMet,
        Formula::UnknownLkAllowance,
    ]);
    formulas
        .into_iter()
        .filter_map(Formula::text)
        .filter(|t| !NOTATIONS.contains(t))
        .collect()
}

#[test]
fn a_formula_is_written_once() {
    let literals: Vec<(String, String)> = sources()
        .into_iter()
        .flat_map(|(file, code)| literals(&code).into_iter().map(move |l| (file.clone(), l)))
        .collect();
    let texts = formula_texts();
    assert!(texts.len() >= 19, "{texts:?}");
    let mut wrong = Vec::new();
    for text in texts {
        let places: Vec<&str> = literals
            .iter()
            .filter(|(_, l)| l.contains(text))
            .map(|(f, _)| f.as_str())
            .collect();
        if places.len() != 1 {
            wrong.push(format!("{text:?} in {} literals: {}", places.len(), places.join(", ")));
        }
    }
    assert!(
        wrong.is_empty(),
        "formula texts written other than once (use claim::join! with the formula's text()):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_entry_claims_its_headline() {
    for entry in REGISTRY {
        let headline = entry.teaching.claims.get(entry.teaching.headline);
        assert_eq!(headline.map(|c| c.text), Some(entry.claim()), "{}", entry.name);
    }
}

/// No file in src/ is over 700 lines (issue #24: split a file by concern
/// before it grows past that).
#[test]
fn no_source_file_is_over_700_lines() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let long: Vec<String> = rust_files(&src)
        .into_iter()
        .filter_map(|path| {
            let lines = std::fs::read_to_string(&path).unwrap().lines().count();
            (lines > 700).then(|| format!("{} ({lines} lines)", path.display()))
        })
        .collect();
    assert!(long.is_empty(), "over 700 lines: {long:?}");
}
