//! A per-phase claim ([`Measure::PhaseSteps`], [`Measure::PhaseLinkLoad`])
//! judged on a run: the phases its patterns name, the most steps one of
//! them took (or the most packets over one link in one of them), and
//! whether every named phase is over.

use super::{num, Progress, Verdict};
use crate::algorithms::claim::{names_single_phases, phases_named, Claim, Measure, Strength};
use crate::claims::Bound;
use crate::simulation::Status;

/// The phases a per-phase claim names, as the run stands.
pub(super) struct Named {
    /// Each named phase: its report name, its value so far (steps, or
    /// packets over one link), and whether it is over (a later phase
    /// opened, or the run finished).
    phases: Vec<(String, u32, bool)>,
    /// Whether no more named phases can come and every one is over.
    decided: bool,
}

impl Named {
    /// The phases `measure`'s patterns name on the run `p`, with their
    /// steps counted as the report counts them (up to SPEC §1 `steps`), or
    /// their link loads (`phase_link_load`; 0 for a phase without a step).
    pub(super) fn of(measure: Measure, p: &Progress) -> Named {
        let patterns = measure.phase_patterns().unwrap_or_default();
        let names: Vec<&str> = p.phases.iter().map(|ph| ph.name.as_str()).collect();
        let count = names.len();
        // A phase is over once the next opened; the last once the run finished.
        let over = |i: usize| i + 1 < count || p.status == Status::Finished;
        let value = |i: usize| match measure {
            Measure::PhaseLinkLoad(_) => {
                let loads = p.phase_link_load.as_deref().unwrap_or_default();
                loads.get(i).copied().unwrap_or(0)
            }
            _ => {
                let end = p.phases.get(i + 1).map_or(p.steps, |next| next.start().min(p.steps));
                end.saturating_sub(p.phases[i].start())
            }
        };
        let phases = phases_named(patterns, &names)
            .into_iter()
            .map(|i| (names[i].to_string(), value(i), over(i)))
            .collect();
        // Once every pattern that names one phase has named a finished
        // one, no later phase can be named.
        let known = names_single_phases(patterns)
            && patterns
                .iter()
                .filter(|pat| !pat.starts_with('!'))
                .all(|pat| phases_named(&[*pat], &names).first().is_some_and(|&i| over(i)));
        Named {
            phases,
            decided: p.over() || known,
        }
    }

    /// The named phase with the most steps (the first of several), if any.
    fn most(&self) -> Option<&(String, u32, bool)> {
        self.phases
            .iter()
            .fold(None, |best: Option<&(String, u32, bool)>, ph| match best {
                Some(b) if b.1 >= ph.1 => Some(b),
                _ => Some(ph),
            })
    }

    /// Whether the run named no phase (once over: the claim does not apply).
    pub(super) fn is_empty(&self) -> bool {
        self.phases.is_empty()
    }

    /// The named phases as a list ("phase1-randomize, phase3-route").
    fn list(&self) -> String {
        let names: Vec<&str> = self.phases.iter().map(|ph| ph.0.as_str()).collect();
        names.join(", ")
    }
}

/// The phases `patterns` name, in words, before the run shows them:
/// `*` read as "…", `^x` as "the first x", `!x` as "but x".
pub(super) fn pattern_phrase(patterns: &[&str]) -> String {
    let one = |pat: &str| {
        let (first, rest) = match pat.strip_prefix('^') {
            Some(rest) => ("the first ", rest),
            None => ("", pat),
        };
        format!("{first}{}", rest.replace('*', "…"))
    };
    let named: Vec<String> = patterns
        .iter()
        .filter(|p| !p.starts_with('!'))
        .map(|p| one(p))
        .collect();
    let left_out: Vec<String> = patterns.iter().filter_map(|p| p.strip_prefix('!')).map(one).collect();
    let mut out = named.join(", ");
    if !left_out.is_empty() {
        out += &format!(" but {}", left_out.join(", "));
    }
    out
}

/// The phases of `claim` on this run in words: the named ones once the
/// run has shown some, else the patterns' phrase.
pub(super) fn phrase(claim: &Claim, p: &Progress) -> String {
    let Some(patterns) = claim.measure.phase_patterns() else {
        return String::new();
    };
    let named = Named::of(claim.measure, p);
    if named.is_empty() || !named.decided {
        pattern_phrase(patterns)
    } else {
        named.list()
    }
}

/// Judges the per-phase `claim` with bound `b` on the run so far:
/// (verdict, measured value, live line, short result). An upper bound is
/// not met as soon as one named phase takes more steps, met once every
/// named phase is over within it; an asymptotic one measures its constant
/// on the longest named phase.
pub(super) fn judge(claim: &Claim, b: &Bound, p: &Progress) -> (Verdict, Option<f64>, String, String) {
    let v = b.value;
    let vs = num(v);
    let patterns = claim.measure.phase_patterns().unwrap_or_default();
    let named = Named::of(claim.measure, p);
    // What is counted: a phase's steps, or the packets over its busiest link.
    let (unit, took, taken) = match claim.measure {
        Measure::PhaseLinkLoad(_) => ("packets over one link", "sent", "has already sent"),
        _ => ("steps", "took", "has already taken"),
    };
    let Some((longest, m, _)) = named.most().cloned() else {
        let line = format!(
            "{}; {} not yet begun — not yet decided",
            p.line(),
            pattern_phrase(patterns)
        );
        return (Verdict::Pending, None, line, "not yet decided".into());
    };
    let measured = Some(m as f64);
    let upper = matches!(claim.strength, Strength::AtMost | Strength::AtMostWhp);
    // The run stopped (stalled, step limit) inside a named phase.
    let cut = named.phases.iter().find(|ph| !ph.2 && p.ended_early());
    if upper {
        if let Some((name, s, over)) = named.phases.iter().find(|ph| ph.1 as f64 > v) {
            let took = if *over { took } else { taken };
            let line = format!("{name} {took} {s} {unit} > {vs} — exceeded ✗");
            return (Verdict::NotMet, Some(*s as f64), line, format!("{name}: {s} {unit} ✗"));
        }
    }
    if let Some((name, s, _)) = cut {
        let stopped = format!("{}, in {name} after {s} of its steps", p.stopped());
        if claim.strength.asymptotic() {
            let line = format!("{stopped}: its steps, and so the constant, are more than this run could measure");
            return (
                Verdict::Measured,
                measured,
                line,
                format!("{name} did not finish: more than {s} steps"),
            );
        }
        if p.failed() {
            return (
                Verdict::NotMet,
                measured,
                format!("{stopped} — not met ✗"),
                format!("{name} did not finish ✗"),
            );
        }
        // Cut off by the step limit: undecided below the bound (above it,
        // exceeded already, above).
    }
    let most = format!("{m} {unit} ({longest}, the most of {})", named.list());
    if !named.decided {
        let line = format!("{}; so far at most {most} — not yet decided", p.line());
        return (
            Verdict::Pending,
            measured,
            line,
            format!("so far {m} — not yet decided"),
        );
    }
    match claim.strength {
        Strength::AtMost | Strength::AtMostWhp => {
            let line = format!("each within {vs}: at most {most} — met ✓");
            (Verdict::Met, measured, line, format!("{longest}: {m} {unit} ✓"))
        }
        Strength::Exact if m as f64 == v && named.phases.iter().all(|ph| ph.1 == m) => {
            let line = format!("each: {vs} {unit} — met ✓");
            (Verdict::Met, measured, line, format!("measured {m} ✓"))
        }
        Strength::Exact => {
            let line = format!("at most {most}, not {vs} each — not met ✗");
            (Verdict::NotMet, measured, line, format!("measured {m} ✗"))
        }
        Strength::PlusSqrtKnLogN => {
            let (unit, u) = b.unit.clone().unwrap_or_else(|| ("√(k·n·ln n)".into(), 1.0));
            let a = (m as f64 - v) / u.max(1e-9);
            let sign = if a < 0.0 { "−" } else { "+" };
            let eq = format!("{m} = {vs} {sign} {:.2}·{unit}", a.abs());
            let line = format!(
                "the most, in {longest}: {eq} ({unit} = {}), the additive term's constant measured",
                num(u)
            );
            (Verdict::Measured, measured, line, format!("{longest}: {eq}"))
        }
        _ => {
            let c = if v > 0.0 { m as f64 / v } else { 0.0 };
            let line = format!(
                "the most, in {longest}: {m} {unit} = {c:.2}·{}: the constant measured",
                b.formula
            );
            (
                Verdict::Measured,
                measured,
                line,
                format!("{longest}: {m} = {c:.2}·{}", b.formula),
            )
        }
    }
}
