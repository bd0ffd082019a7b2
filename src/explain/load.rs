//! A lesson's load curve checked live (SPEC §6, [`crate::lessons::LoadPreset`]):
//! each [`LoadCheck`] read from the curve's rows as they come in — where
//! each series saturated, bracketed by the curve's rates: it *sustains*
//! the largest rate run before its first saturated one, and *saturates
//! at* that one. Nothing here simulates: it reads [`Curve::saturation`].

use super::{CheckLine, Verdict};
use crate::lessons::{Lesson, LoadCheck};
use crate::load::curve::SeriesSaturation;
use crate::load::{Curve, Pattern};
use serde::Serialize;

/// The live check of a lesson's load curve.
#[derive(Debug, Clone, Serialize)]
pub struct LoadLessonStatus {
    /// Each claim in one line, with its verdict.
    pub checks: Vec<CheckLine>,
    /// All claims together: not met if one is not met, else pending if one
    /// is pending, else not applicable if one cannot be decided, else met.
    pub verdict: Verdict,
    /// Runs done so far.
    pub runs: usize,
    /// Runs planned (fewer once a series stops at its saturation).
    pub planned: usize,
}

/// The live check of `lesson`'s load claims on `curve` (`None` when the
/// lesson has no load preset).
pub fn load_lesson(lesson: &Lesson, curve: &Curve) -> Option<LoadLessonStatus> {
    let preset = lesson.load.as_ref()?;
    let checks: Vec<CheckLine> = preset.checks.iter().map(|c| check(c, curve)).collect();
    let has = |v: Verdict| checks.iter().any(|c| c.verdict == v);
    let verdict = if has(Verdict::NotMet) {
        Verdict::NotMet
    } else if has(Verdict::Pending) {
        Verdict::Pending
    } else if has(Verdict::NotApplicable) || checks.is_empty() {
        Verdict::NotApplicable
    } else {
        Verdict::Met
    };
    Some(LoadLessonStatus {
        checks,
        verdict,
        runs: curve.rows().count(),
        planned: curve.len(),
    })
}

/// A series' state in words: "greedy saturates at 0.475 (sustains 0.45)".
fn state(name: &str, s: &SeriesSaturation) -> String {
    match (s.sustained, s.saturated_at) {
        (Some(x), Some(t)) => format!("{name} saturates at {t} (sustains {x})"),
        (None, Some(t)) => format!("{name} saturates already at {t}, the lowest rate"),
        (Some(x), None) if s.complete => format!("{name} sustains every rate up to {x}"),
        (Some(x), None) => format!("{name} sustains {x} so far"),
        (None, None) => format!("{name}: not run yet"),
    }
}

fn line(verdict: Verdict, text: String) -> CheckLine {
    CheckLine {
        short: String::new(),
        text: format!("{text}{}", verdict.mark()),
        verdict,
        what: text,
    }
}

fn check(c: &LoadCheck, curve: &Curve) -> CheckLine {
    let (pattern_name, algorithm, reference) = match *c {
        LoadCheck::SaturationRatio {
            pattern,
            algorithm,
            reference,
            ..
        }
        | LoadCheck::Outlasts {
            pattern,
            algorithm,
            reference,
        } => (pattern, algorithm, reference),
    };
    let series = pattern_name
        .parse::<Pattern>()
        .ok()
        .and_then(|p| Some((curve.saturation(algorithm, p)?, curve.saturation(reference, p)?)));
    let Some((a, r)) = series else {
        return line(
            Verdict::NotApplicable,
            format!("on {pattern_name}: needs {algorithm} and {reference} on {pattern_name} in the curve"),
        );
    };
    let both = format!("on {pattern_name}: {}; {}", state(algorithm, &a), state(reference, &r));
    match *c {
        LoadCheck::SaturationRatio { low, high, words, .. } => {
            if !(a.complete && r.complete) {
                return line(Verdict::Pending, format!("{both} — not yet decided"));
            }
            match (a.sustained, a.saturated_at, r.sustained, r.saturated_at) {
                (Some(x), Some(_), Some(y), Some(_)) => {
                    let ratio = x / y;
                    let verdict = if (low..=high).contains(&ratio) {
                        Verdict::Met
                    } else {
                        Verdict::NotMet
                    };
                    line(
                        verdict,
                        format!("{both}: {x} / {y} = {ratio:.2}, {words} ({low}–{high})"),
                    )
                }
                _ => line(
                    Verdict::NotApplicable,
                    format!("{both}: a saturation rate outside the curve's rates, the ratio cannot be told"),
                ),
            }
        }
        LoadCheck::Outlasts { .. } => {
            // Decided as soon as the algorithm has sustained a rate at which the reference saturated.
            let lasted = |s: &SeriesSaturation, t: f64| s.sustained.is_some_and(|x| x >= t);
            match r.saturated_at {
                Some(t) if lasted(&a, t) || (a.complete && a.saturated_at.is_none()) => line(
                    Verdict::Met,
                    format!(
                        "{both}: {algorithm} outlasts {reference}, sustaining {} ≥ {t}",
                        a.sustained.unwrap_or(t)
                    ),
                ),
                _ if !(a.complete && r.complete) => line(Verdict::Pending, format!("{both} — not yet decided")),
                None if a.saturated_at.is_none() => line(
                    Verdict::NotApplicable,
                    format!("{both}: neither saturates up to {}, cannot tell", r.top),
                ),
                _ => line(
                    Verdict::NotMet,
                    format!("{both}: {algorithm} does not outlast {reference}"),
                ),
            }
        }
    }
}
