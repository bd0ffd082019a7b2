#!/usr/bin/env python3
"""Nothing of an old README was lost: every number and every command of
README.md at a git revision must appear in today's README.md or docs/**/*.md.

    python3 scripts/readme_facts.py [REV]      (default 75651db, the README before docs/)

A *number* is a numeric token: an integer (thousands separators allowed,
1,024 = 1024), a decimal, or numbers and names joined by – ^ · × x / ..
(6.4–10.6, 2^20, 4·side, 16x16, 1..3), compared after whitespace is collapsed
and thousands separators removed. A *command* is every non-empty line of a
fenced code block (it must appear as a line of a fenced block today) and every
inline code span that starts with `routesim `, `./build.sh`, `cargo `, `node `,
`python3 ` or `scripts/` (it must appear in today's text, whitespace
collapsed). Presence is checked, not counts. Prints what is missing and exits
1 if anything is, else prints one summary line and exits 0. Standard library
only.
"""

import pathlib
import re
import subprocess
import sys

DEFAULT_REV = "75651db"

# Facts of the old README that are no longer true, each with what replaced it
# (checked to be present) and why. They are reported, not counted as lost; a
# fact not listed here must still be found.
LAYOUT = "the layout block of docs/architecture.md (files moved by issue #24: lessons/, wasm/, one test binary, www split)"
SUPERSEDED = {
    '75–77': ('113.7 M', "the engine's speed re-measured on an idle machine, before and after issue #29 (docs/architecture.md, The engine's speed)"),
    '44–47': ('63.0 M', "the engine's speed re-measured on an idle machine, before and after issue #29 (docs/architecture.md, The engine's speed)"),
    '50–51': ('62.1 M', "the engine's speed re-measured on an idle machine, before and after issue #29 (docs/architecture.md, The engine's speed)"),
    '14.4': ('(12.9 s)', "the engine's speed re-measured on an idle machine, before and after issue #29 (docs/architecture.md, The engine's speed)"),
    '145': ('peaks\nat 142 MB', "the engine's speed re-measured on an idle machine, before and after issue #29 (docs/architecture.md, The engine's speed)"),
    "1.54": ("1.85·√(k·n·ln n)", "the claim example's measured constant; the measure became the run's own, and its example the ks-wrap-torus lesson's Theorem 7 (docs/algorithms/kaufmann-sibeyn.md)"),
    "137": ("step 135 of 143", "pp-rand's first delivery on the default view's workload, measured again (docs/page.md, the default view)"),
    "291": ("step 135 of 143", "as above: pp-rand's steps on mesh:16x16 greedy-worst"),
    "860": ('width="400" height="600"', "the embed got shorter; the 400 × 600 iframe is what the page tests and docs/page.md show"),
    'width="400" height="860" style="border:0" title="routesim: greedy routing of a transpose"></iframe>': (
        'width="400" height="600" style="border:0" title="routesim: greedy routing of a transpose"></iframe>',
        "the embed's height, as above",
    ),
    "addEventListener('message', ({ data: s }) => {": (
        "addEventListener('message', ({ source, data: s }) => {",
        "the narration snippet checks the message's source (docs/page.md)",
    ),
    "if (s?.type !== 'routesim:state' || s.phase === phase) return;": (
        "if (source !== sim.contentWindow || s?.type !== 'routesim:state' || s.phase === phase) return;",
        "as above",
    ),
    "[--seed S] [--queue-cap Q] [--flits F] [--max-steps M] [--json]": (
        "[--seed S] [--queue-cap Q] [--flits F] [--max-steps M] [--json] \\",
        "the usage continues with --delays and --delays-csv (issue #28 item 5; docs/cli.md)",
    ),
    "ranked phases, held barriers, smears); pp/ (Pietracaprina–Pucci); lmrr/ (the §2.2 rank scheduler with its own initial and": (
        "ranked phases, held barriers, smears, two-legged phases: ks_level/superior.rs; link_load.rs counts each phase's busiest link",
        "the layout line names issue #28's new files (docs/architecture.md)",
    ),
    # The saturation table measured again since (the load model's fixes,
    # docs/algorithms/load.md "Saturation"): the same rows, new figures.
    **{old: ('| mesh:8x8 | greedy | uniform | 0.4922 = 4·63/(8·64) | 0.5153 | 1.05 |',
             "the saturation table measured again (docs/algorithms/load.md); the rows are the same")
       for old in ('0.4614', '0.2374', '0.4591', '0.1211', '0.2305', '0.0677', '0.1339', '0.97')},
    # Valiant's λ* counts the packets delivered where their first leg
    # crosses their destination (2026-11-30): no longer 2/side.
    **{old: ('| mesh:16x16 | valiant | uniform | 0.1267 | 0.1228 | 0.97 |',
             "Valiant's λ* made exact: a packet whose first leg crosses its destination stops there (docs/algorithms/load.md)")
       for old in ('0.1250', '2/16')},
    '0.225': ("| tornado | 0.125 / 0.15 | 0.2 / 0.225 ¹ |",
              "the valiant-load lesson's tornado curve: open-loop ties by generation order (docs/algorithms/load.md, footnote ¹)"),
    '7–27': ("measured 3–27 % faster than separated",
             "coalesced phases measured again (docs/algorithms/kaufmann-sibeyn.md)"),
    "reuses delivered packets' slots and ids (memory ∝ packets in flight)": (
        "reuses delivered packets' slots and ids (memory ∝ packets in flight); ties go by each",
        "the layout line of load.rs goes on to say how open-loop ties go (docs/architecture.md)",
    ),
    '1.5–4': ("1.0–4.1 × log n / log log n, the ratio growing with D",
              "lmrr's Theorem 4.2 excess read again from its own figures: 1.0–1.5 at D = 4 (docs/algorithms/lmrr.md)"),
    "cargo test --release --test flits -- --nocapture": (
        "cargo test --release --test it flits:: -- --nocapture",
        "the native tests are one binary (issue #24 item 7)",
    ),
}
# The old layout lines: each names a file that moved; the new layout block
# (docs/architecture.md) is checked instead.
LAYOUT_PREFIXES = ("src/", "www/", "(name, summary", "Valiant paths, hypercube", "edge queues, ghosts", "flits: reservations", "load.rs: a lesson")
PREFIXES = ("routesim ", "./build.sh", "cargo ", "node ", "python3 ", "scripts/")

# A number core: 1024, 1,024, 0.9843750000000027, 6.4
CORE = r"\d+(?:,\d{3})*(?:\.\d+)?"
# Joined forms: 6.4–10.6, 2^20, 2^(−1.5D), 16x16, 1..3, 63/64 (numbers, spaces
# allowed around the operator) and 4·side, 2·side/3 (a name, no spaces)
NUM_ATOM = rf"(?:\([−-]?{CORE}[A-Za-zℓ]*\)|{CORE})"
NUMBER = re.compile(rf"{CORE}(?:(?:\s?[–^·×/]\s?|x|\.\.){NUM_ATOM}|[–^·×/][A-Za-zℓ]+)*")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
SPAN = re.compile(r"(`+)(.+?)\1", re.S)


def collapse(text):
    return re.sub(r"\s+", " ", text)


def normalise_number(token):
    token = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", token)  # 1,024 → 1024
    return re.sub(r"\s+", "", token)


def split_fenced(text):
    """(prose, fenced lines): the text outside fenced code blocks, and the
    lines inside them."""
    prose, fenced, fence = [], [], None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if m and (fence is None or (m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence))):
            if fence is None:
                fence = m.group(1)
                continue
            if not line.strip()[len(m.group(1)):].strip():
                fence = None
                continue
        (fenced if fence is not None else prose).append(line)
    return "\n".join(prose), fenced


def numbers(text):
    return {normalise_number(m.group(0)) for m in NUMBER.finditer(collapse(text))}


def commands(text):
    prose, fenced = split_fenced(text)
    lines = {line.rstrip() for line in fenced if line.strip()}
    spans = {collapse(m.group(2)).strip() for m in SPAN.finditer(prose)}
    spans = {s for s in spans if s.startswith(PREFIXES)}
    return lines, spans


def main():
    rev = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_REV
    root = pathlib.Path(
        subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
    )
    old = subprocess.run(
        ["git", "show", f"{rev}:README.md"], cwd=root, capture_output=True, text=True, check=True
    ).stdout

    files = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    texts = [f.read_text(encoding="utf-8") for f in files if f.exists()]
    new = "\n\n".join(texts)

    new_numbers = numbers(new)
    new_fenced = set()
    for t in texts:
        new_fenced |= {line.rstrip() for line in split_fenced(t)[1]}
    new_collapsed = collapse(new)

    old_numbers = numbers(old)
    old_lines, old_spans = commands(old)

    missing_numbers = sorted(old_numbers - new_numbers)
    missing_lines = sorted(line for line in old_lines if line not in new_fenced)
    missing_spans = sorted(s for s in old_spans if s not in new_collapsed)

    def superseded(fact):
        """The replacement and reason of a fact no longer true, if listed
        (the replacement must be present), or of an old layout line."""
        key = fact.strip()
        if key in SUPERSEDED:
            replacement, why = SUPERSEDED[key]
            if collapse(replacement) in new_collapsed:
                return why
            return None
        if key.startswith(LAYOUT_PREFIXES) and "```layers" in new:
            return LAYOUT
        return None

    replaced = []
    for group in (missing_numbers, missing_lines, missing_spans):
        for fact in list(group):
            why = superseded(fact)
            if why:
                group.remove(fact)
                replaced.append((fact, why))
    for fact, why in replaced:
        print(f"superseded: {fact.strip()} — {why}")

    for n in missing_numbers:
        print(f"missing number: {n}")
    for line in missing_lines:
        print(f"missing code line: {line}")
    for s in missing_spans:
        print(f"missing command: `{s}`")
    lost = len(missing_numbers) + len(missing_lines) + len(missing_spans)
    where = f"README.md and {len(files) - 1} docs files"
    if lost:
        print(f"readme_facts: {lost} of {rev}:README.md's facts missing from {where}")
        return 1
    print(
        f"readme_facts: all {len(old_numbers)} numbers, {len(old_lines)} code lines and "
        f"{len(old_spans)} commands of {rev}:README.md are in {where}, "
        f"{len(replaced)} of them superseded by what replaced them (listed above)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
