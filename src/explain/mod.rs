//! Every run explained (the page's `data-role="explain"` panel, from the
//! core): what the algorithm does, in the registry's words; each claim of
//! its paper evaluated as a number for this instance ("≤ 2n − 2 = 30
//! steps") with the verdict so far (pending, met, not met, or a measured
//! constant for O() claims); what the current phase does; what ℓ, k, the
//! policy and the packet classes mean; for two runs side by side, the
//! one-line verdict; for a lesson, its live check (and, for a lesson with
//! a load curve, [`load_lesson`] on the curve).
//!
//! Nothing here simulates: it reads a [`Simulation`]'s instance, bounds,
//! counters and phases.

use crate::algorithms::claim::{Measure, Strength};
use crate::algorithms::lookup;
use crate::claims::Bound;
use crate::engine::PhaseSteps;
use crate::lessons::{Lesson, Relation};
use crate::simulation::{Simulation, Status};
use serde::Serialize;

mod judge;
mod load;
mod words;

pub use load::{load_lesson, LoadLessonStatus};

use judge::claim_status;
use words::{classes, destination_key, phase_text, terms};

/// What the phase called `name` (as the report names it, with colour,
/// round or pass) does, in the words of `entry`'s phase texts: the text the
/// explain panel shows for it (empty when the entry has none).
pub fn phase_words(entry: &crate::algorithms::Entry, name: &str) -> String {
    phase_text(entry, name)
}

/// Where a run stands against a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Not decided yet.
    Pending,
    /// The run meets the claim.
    Met,
    /// The run does not (or can no longer) meet it.
    NotMet,
    /// An O()/Ω()/o() claim: the run measured its constant.
    Measured,
    /// The claim is stated for other networks, instances or policies.
    NotApplicable,
}

impl Verdict {
    fn mark(self) -> &'static str {
        match self {
            Verdict::Met => " ✓",
            Verdict::NotMet => " ✗",
            _ => "",
        }
    }

    /// The verdict of several checks: not met if one is not met, pending if one is pending.
    fn all(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
        let mut out = Verdict::Met;
        for v in verdicts {
            match v {
                Verdict::NotMet => return Verdict::NotMet,
                Verdict::Pending => out = Verdict::Pending,
                _ => {}
            }
        }
        out
    }
}

/// One claim on this run.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimStatus {
    /// Its short name ("Lemma 2").
    pub name: &'static str,
    /// The claim in the paper's words.
    pub text: &'static str,
    /// What it bounds.
    pub measure: Measure,
    /// How.
    pub strength: Strength,
    /// The bound evaluated on this instance (absent where it does not apply).
    pub bound: Option<Bound>,
    /// The bound for this instance in one phrase: "≤ 2n − 2 = 30 steps (n = 16)".
    pub headline: String,
    /// The run's value of the measure so far.
    pub measured: Option<f64>,
    /// Where the run stands.
    pub verdict: Verdict,
    /// Where the run stands, in words: "step 12: 200 / 256 delivered; the claim allows ≤ 30 — not yet decided".
    pub line: String,
    /// The claim checked, in one line: "Lemma 2: T = … = 33 for this instance; measured 33 ✓".
    pub check: String,
}

/// The current phase.
#[derive(Debug, Clone, Serialize)]
pub struct PhaseNow {
    /// As the report names it.
    pub name: String,
    /// What it does.
    pub text: String,
}

/// A term of the view and what it means here.
#[derive(Debug, Clone, Serialize)]
pub struct Term {
    /// The term ("ℓ, k", "policy").
    pub term: String,
    /// Its meaning, with this run's values.
    pub text: String,
}

/// A packet class and its name.
#[derive(Debug, Clone, Serialize)]
pub struct ClassName {
    /// The class (the page draws class c in its palette's colour c mod 8).
    pub class: u32,
    /// What it is.
    pub name: String,
}

/// One run explained.
#[derive(Debug, Clone, Serialize)]
pub struct Explanation {
    /// The algorithm's SPEC name.
    pub algorithm: &'static str,
    /// Its one-line summary.
    pub summary: &'static str,
    /// What it does, in plain words.
    pub description: &'static str,
    /// Its paper.
    pub paper: &'static str,
    /// Where in the paper.
    pub section: &'static str,
    /// "step 12: 200 / 256 delivered".
    pub progress: String,
    /// Its claims, evaluated on this instance.
    pub claims: Vec<ClaimStatus>,
    /// The current phase (the last one once the run is over).
    pub phase: Option<PhaseNow>,
    /// What ℓ, k, the policy, the lower bound … mean here.
    pub terms: Vec<Term>,
    /// The packet classes, for the legend when packets are coloured by class.
    pub classes: Vec<ClassName>,
    /// The key when packets are coloured by destination.
    pub destination_key: String,
}

/// A lesson's live check.
#[derive(Debug, Clone, Serialize)]
pub struct LessonStatus {
    /// The lesson.
    pub lesson: &'static Lesson,
    /// Each check in one line, with its verdict.
    pub checks: Vec<CheckLine>,
    /// All checks together.
    pub verdict: Verdict,
}

/// One checked line.
#[derive(Debug, Clone, Serialize)]
pub struct CheckLine {
    /// The line.
    pub text: String,
    /// Its verdict.
    pub verdict: Verdict,
}

/// What the page's explain panel shows.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The main run.
    pub main: Explanation,
    /// The run beside it, if any.
    pub compare: Option<Explanation>,
    /// With two runs, once both are over: "greedy: 162 steps, largest queue 15 · pp-rand: 7,901 steps, largest queue 5".
    pub verdict: Option<String>,
    /// The lesson's live check.
    pub lesson: Option<LessonStatus>,
}

/// The explain panel's content for a run, a second run beside it and a lesson.
pub fn explain(main: &Simulation, compare: Option<&Simulation>, lesson: Option<&'static Lesson>) -> View {
    View {
        main: explain_run(main),
        compare: compare.map(explain_run),
        verdict: compare.and_then(|other| verdict(main, other)),
        lesson: lesson.map(|l| lesson_status(l, main, compare)),
    }
}

/// Where a run is: its counters and phases.
pub(super) struct Progress {
    step: u32,
    status: Status,
    delivered: u32,
    packets: u32,
    max_queue: u32,
    /// The most packets in one of the algorithm's own edge queues (0 without).
    max_edge_queue: u32,
    /// SPEC §1 `steps`: the last delivery once finished, the step so far otherwise.
    steps: u32,
    phases: Vec<PhaseSteps>,
    /// A smeared Kaufmann–Sibeyn run: the most packets one node held when a
    /// phase opened so far (report field `max_barrier_load`).
    max_barrier_load: Option<u32>,
}

impl Progress {
    fn of(sim: &Simulation) -> Progress {
        let engine = sim.engine();
        let stats = engine.stats();
        let step = engine.step_count();
        let status = sim.status();
        Progress {
            step,
            status,
            delivered: engine.delivered(),
            packets: engine.packet_count(),
            max_queue: stats.max_queue,
            max_edge_queue: sim.report_extra().lmrr.map_or(0, |f| f.max_edge_queue),
            steps: sim.steps(),
            phases: stats.phases(step),
            max_barrier_load: sim.report_extra().max_barrier_load,
        }
    }

    fn over(&self) -> bool {
        self.status != Status::Running
    }

    fn failed(&self) -> bool {
        matches!(self.status, Status::Stalled | Status::StepLimit)
    }

    fn line(&self) -> String {
        format!("step {}: {} / {} delivered", self.step, self.delivered, self.packets)
    }

    fn failure(&self) -> String {
        let what = if self.status == Status::Stalled {
            "stalled"
        } else {
            "hit the step limit"
        };
        format!(
            "the run {what} at step {} with {} / {} delivered — not met ✗",
            self.step, self.delivered, self.packets
        )
    }

    /// Steps after the phase `name` ended, or `None` while it runs (or before it).
    fn after(&self, name: &str) -> Option<u32> {
        let i = self.phases.iter().position(|p| p.name == name)?;
        if i + 1 == self.phases.len() && !self.over() {
            return None;
        }
        let end: u32 = self.phases[..=i].iter().map(|p| p.steps).sum();
        Some(self.steps.saturating_sub(end))
    }
}

/// A number as the page prints it: whole numbers plainly, others to one decimal.
fn num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.1}")
    }
}

/// A whole number with thousands separators (7,901), as the page and the
/// lessons' texts print it.
pub fn thousands(v: u32) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One run explained.
pub fn explain_run(sim: &Simulation) -> Explanation {
    let entry = lookup(&sim.config().algorithm).expect("a running algorithm is registered");
    let p = Progress::of(sim);
    let status = match p.status {
        Status::Running => String::new(),
        other => format!(" — {}", other.name()),
    };
    Explanation {
        algorithm: entry.name,
        summary: entry.summary,
        description: entry.teaching.description,
        paper: entry.paper,
        section: entry.section,
        progress: format!("{}{status}", p.line()),
        claims: entry.teaching.claims.iter().map(|c| claim_status(c, sim, &p)).collect(),
        phase: p.phases.last().map(|ph| PhaseNow {
            name: ph.name.clone(),
            text: phase_text(entry, &ph.name),
        }),
        terms: terms(sim, entry),
        classes: classes(sim, entry),
        destination_key: destination_key(&sim.instance().topology),
    }
}

/// "greedy: 162 steps, largest queue 15 · pp-rand: 7,901 steps, largest queue 5", once both runs are over.
pub fn verdict(a: &Simulation, b: &Simulation) -> Option<String> {
    let one = |sim: &Simulation| {
        let p = Progress::of(sim);
        let name = &sim.config().algorithm;
        match p.status {
            Status::Running => None,
            Status::Finished => Some(format!(
                "{name}: {} steps, largest queue {}",
                thousands(p.steps),
                p.max_queue
            )),
            other => Some(format!(
                "{name}: {} at step {} with {} / {} delivered, largest queue {}",
                other.name(),
                thousands(p.step),
                p.delivered,
                p.packets,
                p.max_queue
            )),
        }
    };
    Some(format!("{} · {}", one(a)?, one(b)?))
}

fn lesson_status(lesson: &'static Lesson, main: &Simulation, compare: Option<&Simulation>) -> LessonStatus {
    let two = lesson.preset.compare.is_some();
    let named = |sim: &Simulation, text: String| {
        if two {
            format!("{} — {text}", sim.config().algorithm)
        } else {
            text
        }
    };
    let mut checks = Vec::new();
    let mut add = |sim: &Simulation, statuses: Vec<ClaimStatus>| {
        for s in statuses.into_iter().filter(|s| s.verdict != Verdict::NotApplicable) {
            checks.push(CheckLine {
                text: named(sim, s.check),
                verdict: s.verdict,
            });
        }
    };
    let p = Progress::of(main);
    if lesson.check.own {
        add(main, explain_run(main).claims);
    }
    add(
        main,
        lesson.check.claims.iter().map(|c| claim_status(c, main, &p)).collect(),
    );
    if let Some(other) = compare {
        if lesson.check.compare_own {
            add(other, explain_run(other).claims);
        }
    }
    if let Some(relation) = lesson.check.relation {
        checks.push(match compare {
            Some(other) => relate(relation, main, other),
            None => CheckLine {
                text: format!(
                    "needs {} beside {} (compare={})",
                    lesson.preset.compare.unwrap_or("a second run"),
                    main.config().algorithm,
                    lesson.preset.compare.unwrap_or("…")
                ),
                verdict: Verdict::Pending,
            },
        });
    }
    if checks.is_empty() {
        checks.push(CheckLine {
            text: format!(
                "the lesson's claim does not apply to this run ({} on {})",
                main.config().algorithm,
                main.instance().topology
            ),
            verdict: Verdict::NotApplicable,
        });
    }
    let verdict = Verdict::all(checks.iter().map(|c| c.verdict));
    LessonStatus {
        lesson,
        checks,
        verdict,
    }
}

fn relate(relation: Relation, a: &Simulation, b: &Simulation) -> CheckLine {
    let (pa, pb) = (Progress::of(a), Progress::of(b));
    let (na, nb) = (&a.config().algorithm, &b.config().algorithm);
    let over = pa.over() && pb.over();
    let (holds, text) = match relation {
        Relation::MoreSteps => (
            pa.steps > pb.steps,
            format!(
                "{na} needs more steps than {nb}: {} {} {}",
                pa.steps,
                if pa.steps > pb.steps { ">" } else { "≤" },
                pb.steps
            ),
        ),
        Relation::SmallerQueue => (
            pa.max_queue < pb.max_queue,
            format!(
                "{na}'s largest queue is smaller than {nb}'s: {} {} {}",
                pa.max_queue,
                if pa.max_queue < pb.max_queue { "<" } else { "≥" },
                pb.max_queue
            ),
        ),
        Relation::TradeOff => (
            pa.steps < pb.steps && pa.max_queue > pb.max_queue,
            format!(
                "{na} is faster ({} {} {} steps) but {nb} needs less room (largest queue {} {} {})",
                pa.steps,
                if pa.steps < pb.steps { "<" } else { "≥" },
                pb.steps,
                pb.max_queue,
                if pb.max_queue < pa.max_queue { "<" } else { "≥" },
                pa.max_queue
            ),
        ),
    };
    let verdict = match (over, holds) {
        (false, _) => Verdict::Pending,
        (true, true) => Verdict::Met,
        (true, false) => Verdict::NotMet,
    };
    let text = if over {
        format!("{text}{}", verdict.mark())
    } else {
        let claim = match relation {
            Relation::MoreSteps => format!("{na} needs more steps than {nb}"),
            Relation::SmallerQueue => format!("{na}'s largest queue is smaller than {nb}'s"),
            Relation::TradeOff => format!("{na} is faster but {nb} needs less room"),
        };
        format!(
            "{claim}: so far {na} {} steps, largest queue {}; {nb} {} steps, largest queue {} — not yet decided",
            pa.steps, pa.max_queue, pb.steps, pb.max_queue
        )
    };
    CheckLine { text, verdict }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_plainly() {
        assert_eq!(num(30.0), "30");
        assert_eq!(num(18.475), "18.5");
        assert_eq!(thousands(7901), "7,901");
        assert_eq!(thousands(162), "162");
        assert_eq!(thousands(1_000_000), "1,000,000");
    }
}
