//! The phase patterns of a per-phase claim ([`super::Measure::PhaseSteps`],
//! [`super::Measure::PhaseLinkLoad`]): which of a report's phases they name.

/// Whether `name` is `pattern`, each `*` of the pattern standing for one
/// or more decimal digits ([`super::Measure::PhaseSteps`]).
fn glob_digits(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => {
            let digits = name.iter().take_while(|c| c.is_ascii_digit()).count();
            (1..=digits).any(|n| glob_digits(rest, &name[n..]))
        }
        Some((c, rest)) => name.first() == Some(c) && glob_digits(rest, &name[1..]),
    }
}

/// Which of `names` (the report's phases, in order) `patterns` name, by
/// index ([`super::Measure::PhaseSteps`]'s rules).
pub fn phases_named(patterns: &[&str], names: &[&str]) -> Vec<usize> {
    // The phases one pattern (without its `!`) matches.
    let matched = |pattern: &str| -> Vec<usize> {
        let (first, glob) = match pattern.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, pattern),
        };
        let all = names
            .iter()
            .enumerate()
            .filter(|(_, n)| glob_digits(glob.as_bytes(), n.as_bytes()))
            .map(|(i, _)| i);
        if first {
            all.take(1).collect()
        } else {
            all.collect()
        }
    };
    let mut named: Vec<usize> = Vec::new();
    let mut left_out: Vec<usize> = Vec::new();
    for pattern in patterns {
        match pattern.strip_prefix('!') {
            Some(rest) => left_out.extend(matched(rest)),
            None => named.extend(matched(pattern)),
        }
    }
    named.sort_unstable();
    named.dedup();
    named.retain(|i| !left_out.contains(i));
    named
}

/// Whether the phases `patterns` name are all known once each of its
/// patterns without `!` has matched a phase: every such pattern names one
/// phase (no `*`, or a leading `^`). Otherwise more may come until the run
/// is over.
pub fn names_single_phases(patterns: &[&str]) -> bool {
    patterns
        .iter()
        .filter(|p| !p.starts_with('!'))
        .all(|p| p.starts_with('^') || !p.contains('*'))
}

#[cfg(test)]
mod tests {
    use super::{names_single_phases, phases_named};

    #[test]
    fn phase_patterns_name_phases() {
        let names = [
            "phase1-randomize",
            "phase2-randomize",
            "phase3-route",
            "smear3",
            "phase4-route",
            "phase5-route",
        ];
        let named = |p: &[&str]| phases_named(p, &names);
        assert_eq!(named(&["phase3-route"]), [2]);
        assert_eq!(named(&["phase*-route"]), [2, 4, 5]);
        assert_eq!(named(&["^phase*-route"]), [2]);
        assert_eq!(
            named(&["phase*-randomize", "phase*-route", "!^phase*-route"]),
            [0, 1, 4, 5]
        );
        assert_eq!(named(&["phase*-route", "!phase5-route"]), [2, 4]);
        // `*` is one or more digits, nothing else.
        assert!(named(&["phase*"]).is_empty());
        assert!(named(&["phase-route"]).is_empty());
        assert_eq!(phases_named(&["pass*-a"], &["pass12-a", "passx-a", "pass-a"]), [0]);
        assert!(names_single_phases(&[
            "phase1-randomize",
            "^phase*-route",
            "!phase*-route"
        ]));
        assert!(!names_single_phases(&["phase*-route"]));
    }
}
