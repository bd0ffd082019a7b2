//! The documentation's links hold: every relative link and image in
//! README.md and docs/**/*.md names a file or folder of the repository, every
//! `#anchor` names a heading of its target under GitHub's slug rule, and the
//! README stays a door (at most 15,000 bytes; STYLE point 17).
//!
//! Skipped: `http:`, `https:`, `mailto:` links, links inside fenced code
//! blocks or inline code, and links that leave the repository (such as
//! `../shared/SPEC.md`, the contract beside the repository).

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

const README_LIMIT: usize = 15_000;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every `*.md` under docs/, recursively, in a stable order.
fn markdown_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut files = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut files);
    files
}

/// GitHub's heading slug: lowercase; keep letters (Unicode ones too, such as
/// ℓ), digits, spaces, hyphens and underscores; spaces become hyphens.
/// Markdown emphasis and code marks are removed first; a link in a
/// heading counts by its text.
fn slug(heading: &str) -> String {
    let text = strip_links(heading);
    text.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `[text](target)` → `text` (for headings that hold links).
fn strip_links(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after
            .find("](")
            .and_then(|close| after[close + 2..].find(')').map(|end| (close, close + 2 + end)))
        {
            Some((close, end)) => {
                out.push_str(&after[..close]);
                rest = &after[end + 1..];
            }
            None => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The lines of a Markdown text outside fenced code blocks, with their
/// 1-based line numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<(char, usize)> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        if let Some(c) = marker {
            let run = trimmed.chars().take_while(|x| *x == c).count();
            if run >= 3 {
                match fence {
                    None => {
                        fence = Some((c, run));
                        continue;
                    }
                    Some((fc, fr)) if fc == c && run >= fr && trimmed[run..].trim().is_empty() => {
                        fence = None;
                        continue;
                    }
                    _ => {}
                }
            }
        }
        if fence.is_none() {
            out.push((i + 1, line));
        }
    }
    out
}

/// The anchors of a Markdown file: its ATX headings' slugs, duplicates
/// numbered -1, -2, … as GitHub does.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, line) in prose_lines(text) {
        let trimmed = line.trim_start();
        let hashes = trimmed.chars().take_while(|c| *c == '#').count();
        if hashes == 0 || hashes > 6 {
            continue;
        }
        let rest = &trimmed[hashes..];
        if !(rest.is_empty() || rest.starts_with(' ')) {
            continue;
        }
        let title = rest.trim().trim_end_matches('#').trim_end();
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

/// Removes inline code spans (`…`, ``…``) so that links shown as code are
/// not read as links.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|c| *c == '`').count();
        let after = &rest[start + ticks..];
        let fence = "`".repeat(ticks);
        match after.find(&fence) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                out.push_str(&rest[start..start + ticks]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every inline link or image target `[…](target)` / `![…](target)` of a
/// line (the part before a space, so `(path "title")` gives `path`).
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = line[from..].find("](") {
        let start = from + pos + 2;
        let mut depth = 1;
        let mut end = None;
        for (i, c) in line[start..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(start + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let target = line[start..end].trim();
        let target = target.trim_start_matches('<');
        let target = target.split_whitespace().next().unwrap_or("");
        out.push(target.trim_end_matches('>').to_string());
        from = end + 1;
    }
    out
}

/// `a/./b/../c` → `a/c`; None when the path climbs above its start.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            _ => return None,
        }
    }
    Some(out)
}

fn decode_percent(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Some(Ok(b)) = s.get(i + 1..i + 3).map(|h| u8::from_str_radix(h, 16)) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every broken link of the documentation, one line each: file, line,
/// target, reason.
fn broken_links() -> Vec<String> {
    let root = root();
    let mut problems = Vec::new();
    let mut cache: HashMap<PathBuf, Vec<String>> = HashMap::new();
    let mut anchors_of = |file: &Path| -> Vec<String> {
        cache
            .entry(file.to_path_buf())
            .or_insert_with(|| anchors(&fs::read_to_string(file).unwrap_or_default()))
            .clone()
    };
    for file in markdown_files() {
        let text = fs::read_to_string(&file).expect("a Markdown file reads");
        let rel_file = file.strip_prefix(&root).unwrap().to_path_buf();
        let dir = rel_file.parent().unwrap_or(Path::new("")).to_path_buf();
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                let lower = target.to_ascii_lowercase();
                if target.is_empty()
                    || lower.starts_with("http:")
                    || lower.starts_with("https:")
                    || lower.starts_with("mailto:")
                {
                    continue;
                }
                let (path_part, anchor) = match target.split_once('#') {
                    Some((p, a)) => (p.to_string(), Some(decode_percent(a))),
                    None => (target.clone(), None),
                };
                let here = format!("{}:{number}: ({target})", rel_file.display());
                let resolved = if path_part.is_empty() {
                    rel_file.clone()
                } else {
                    let path_part = decode_percent(&path_part);
                    if path_part.starts_with('/') {
                        problems.push(format!("{here}: an absolute path; write it relative"));
                        continue;
                    }
                    match normalise(&dir.join(&path_part)) {
                        // Outside the repository (../shared/SPEC.md): not ours to check.
                        None => continue,
                        Some(p) => p,
                    }
                };
                let full = root.join(&resolved);
                if !full.exists() {
                    problems.push(format!("{here}: {} does not exist", resolved.display()));
                    continue;
                }
                if let Some(anchor) = anchor {
                    if full.is_dir() || full.extension().is_none_or(|e| e != "md") {
                        problems.push(format!(
                            "{here}: #{anchor} on {}, which is not a Markdown file",
                            resolved.display()
                        ));
                        continue;
                    }
                    let known = anchors_of(&full);
                    if !known.contains(&anchor) {
                        problems.push(format!(
                            "{here}: no heading of {} has the slug #{anchor}",
                            resolved.display()
                        ));
                    }
                }
            }
        }
    }
    problems
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let files = markdown_files();
    assert!(files.len() > 1, "no Markdown files under docs/");
    let problems = broken_links();
    assert!(
        problems.is_empty(),
        "{} broken link(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_readme_is_a_door() {
    let size = fs::metadata(root().join("README.md")).expect("README.md").len() as usize;
    assert!(
        size <= README_LIMIT,
        "README.md: {size} bytes, above the door's {README_LIMIT} (move the depth to docs/)"
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(
        slug("(ℓ,k)-routing: constant queues at a constant factor, measured"),
        "ℓk-routing-constant-queues-at-a-constant-factor-measured"
    );
    assert_eq!(
        slug("k-k routing: Theorem 2's table, measured"),
        "k-k-routing-theorem-2s-table-measured"
    );
    assert_eq!(
        slug("Dynamic load: latency against offered load (SPEC §6)"),
        "dynamic-load-latency-against-offered-load-spec-6"
    );
    assert_eq!(slug("`ks-level` and `ks_local`"), "ks-level-and-ks_local");
    assert_eq!(slug("Cut-through worms, `--flits F`"), "cut-through-worms---flits-f");
    assert_eq!(slug("See [the CLI](cli.md)"), "see-the-cli");
}

#[test]
fn duplicate_headings_are_numbered_and_code_is_not_read() {
    let text = "# A\n## Measured\n```sh\n# not a heading\n[x](nowhere.md)\n```\n## Measured\n### Measured\n";
    assert_eq!(anchors(text), vec!["a", "measured", "measured-1", "measured-2"]);
    let prose: Vec<_> = prose_lines(text).into_iter().map(|(_, l)| l).collect();
    assert!(!prose.iter().any(|l| l.contains("nowhere")));
    assert_eq!(
        link_targets("see ![a](../figures/x.png) and [b](cli.md#the-cli) but not `[c](d.md)`"),
        vec!["../figures/x.png", "cli.md#the-cli"]
    );
}
