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

use crate::algorithms::claim::{Claim, Measure, Strength};
use crate::algorithms::lookup;
use crate::claims::Bound;
use crate::engine::PhaseSteps;
use crate::lessons::Lesson;
use crate::simulation::{Simulation, Status};
use crate::topology::Network;
use serde::Serialize;

mod delay;
mod judge;
mod load;
mod phases;
mod relate;
mod scope;
mod sort;
mod stall;
mod words;

pub use delay::{histogram, Delays};
pub use load::{load_lesson, LoadLessonStatus};
pub use sort::SortStatus;
pub use stall::Stall;

use judge::claim_status;
use relate::relate;
use words::{class_rims, classes, destination_key, phase_text, terms};

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

    /// The verdict of several checks: not met if one is not met, else
    /// pending if one is pending, else measured if one is measured (an
    /// asymptotic claim never makes a lesson "met"), else met if one is
    /// met; not applicable when none applies.
    fn all(verdicts: impl IntoIterator<Item = Verdict>) -> Verdict {
        let verdicts: Vec<Verdict> = verdicts.into_iter().collect();
        [Verdict::NotMet, Verdict::Pending, Verdict::Measured, Verdict::Met]
            .into_iter()
            .find(|v| verdicts.contains(v))
            .unwrap_or(Verdict::NotApplicable)
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
    /// Where the run stands, in a few words: "measured 33 ✓", "so far 12 —
    /// not yet decided" (an embed's one line per claim leads with it).
    pub outcome: String,
    /// The claim checked, in one line: "Lemma 2: T = … = 33 for this instance; measured 33 ✓".
    pub check: String,
    /// What the check checks, in words: "the steps stay within the 2n − 2
    /// bound's 2n − 2"; for an asymptotic claim, what it measures (empty
    /// where the claim does not apply).
    pub what: String,
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

/// A packet class as the page draws and names it.
#[derive(Debug, Clone, Serialize)]
pub struct ClassName {
    /// The class (the engine's `classes`; drawn as [`crate::palette::class`]).
    pub class: u32,
    /// What it is.
    pub name: String,
    /// Its colour in words ("blue"), as every text names it.
    pub word: &'static str,
    /// The colour the canvas draws it with, `#rrggbb`.
    pub colour: &'static str,
    /// Its mark's shape.
    pub shape: &'static str,
    /// The legend's text: "blue: colour class 0".
    pub label: String,
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
    /// The packet classes drawn at this step (those of the undelivered
    /// packets; once all are delivered, all the run's classes), for the
    /// legend when packets are coloured by class.
    pub classes: Vec<ClassName>,
    /// The key when packets are coloured by destination.
    pub destination_key: String,
    /// Whether the algorithm sorts its packets into classes its texts name
    /// by colour (Kaufmann–Sibeyn's colours, Pietracaprina–Pucci's colour
    /// classes, Valiant's two phases …): coloured by destination, the
    /// canvas then rims each packet in its class's colour and the legend
    /// still lists the classes, so a text's "blue packet" stays on screen
    /// (SPEC §7's colour words).
    pub class_rims: bool,
    /// When none of the claims applies to this run, why, in one sentence
    /// (e.g. no paper in the collection bounds the algorithm on this kind
    /// of network); `None` when one applies.
    pub unclaimed: Option<String>,
    /// Once the run stalled: its wait-for cycle and why it stalled, in words.
    pub stall: Option<Stall>,
    /// A sort's goal, colour key and, once over, verdict; `None` for routing.
    pub sort: Option<SortStatus>,
    /// The delivered packets' delays as a histogram, when a claim on every
    /// packet's delay applies (greedy on random destinations, bit fixing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delays: Option<Delays>,
}

/// A lesson's live check.
#[derive(Debug, Clone, Serialize)]
pub struct LessonStatus {
    /// The lesson.
    pub lesson: &'static Lesson,
    /// Each check in one line, with its verdict.
    pub checks: Vec<CheckLine>,
    /// All checks together ([`Verdict::all`]).
    pub verdict: Verdict,
    /// What is checked, in words: "Checked on this run: the steps against
    /// Theorem 7's max{2n, kn/4} as main term, plus a measured constant
    /// times √(k·n·ln n); …".
    pub title: String,
    /// The verdict in words: "met ✓", "measured: …", "2 met ✓, 1 measured …".
    pub verdict_text: String,
    /// When the run shown is not the lesson's own, what it changes
    /// ([`Lesson::changes`]; set by a front end that knows the request).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed: Option<String>,
}

/// One checked line.
#[derive(Debug, Clone, Serialize)]
pub struct CheckLine {
    /// The line.
    pub text: String,
    /// The line in a few words, its outcome first where it has one
    /// ("all 4096 within |S| ✓ · bit-fixing — the delay theorem"): an embed's
    /// one line per check, so that its ellipsis never hides the number;
    /// empty where `text` is short already.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub short: String,
    /// Its verdict.
    pub verdict: Verdict,
    /// What it checks, in words (the lesson's title joins them).
    pub what: String,
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

/// `claim` judged on `sim` as the explain panel judges a registry claim
/// (for claims a test or a lesson states itself, e.g. a per-phase lemma).
pub fn judge_claim(claim: &'static Claim, sim: &Simulation) -> ClaimStatus {
    claim_status(claim, sim, &Progress::of(sim))
}

/// Where a run is: its counters and phases.
#[derive(Clone)]
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
    /// Per phase, the most packets over one directed link (report field
    /// `phase_link_load`), where the algorithm reports it.
    phase_link_load: Option<Vec<u32>>,
    /// The most steps a delivered packet waited: its delivery step minus
    /// its distance (for Kaufmann–Sibeyn's Corollary 3); counted, O(P),
    /// only for a claim on it ([`Progress::with_max_delay`]).
    max_delay: Option<u32>,
}

/// The most steps a delivered packet of `sim` waited: its delivery step
/// minus its distance. O(P).
fn max_delay(sim: &Simulation) -> u32 {
    let engine = sim.engine();
    let topo = &sim.instance().topology;
    (0..engine.packet_count())
        .filter(|&p| engine.is_delivered(p))
        .map(|p| {
            let at = engine.delivery_steps()[p as usize];
            at.saturating_sub(topo.distance(engine.source(p), engine.destination(p)))
        })
        .max()
        .unwrap_or(0)
}

impl Progress {
    fn of(sim: &Simulation) -> Progress {
        let (engine, extra) = (sim.engine(), sim.report_extra());
        let (stats, step) = (engine.stats(), engine.step_count());
        Progress {
            step,
            status: sim.status(),
            delivered: engine.delivered(),
            packets: engine.packet_count(),
            max_queue: stats.max_queue,
            max_edge_queue: extra.lmrr.map_or(0, |f| f.max_edge_queue),
            steps: sim.steps(),
            phases: stats.phases(step),
            max_barrier_load: extra.max_barrier_load,
            max_delay: None,
            phase_link_load: extra.phase_link_load,
        }
    }

    /// This progress with [`Progress::max_delay`] counted on `sim`.
    fn with_max_delay(&self, sim: &Simulation) -> Progress {
        Progress {
            max_delay: Some(max_delay(sim)),
            ..self.clone()
        }
    }

    /// Finished or stalled; a run the step limit `cut` off is judged as one
    /// going on (the limit is the reader's; a stall `failed` the algorithm).
    fn over(&self) -> bool {
        matches!(self.status, Status::Finished | Status::Stalled)
    }
    fn failed(&self) -> bool {
        self.status == Status::Stalled
    }
    fn cut(&self) -> bool {
        self.status == Status::StepLimit
    }
    fn ended_early(&self) -> bool {
        matches!(self.status, Status::Stalled | Status::StepLimit)
    }
    fn line(&self) -> String {
        let (s, d, n) = (self.step, self.delivered, self.packets);
        let cut = if self.cut() { ", stopped by the step limit" } else { "" };
        format!("step {s}: {d} / {n} delivered{cut}")
    }

    /// "the run stalled at step 40 with 200 / 256 delivered".
    fn stopped(&self) -> String {
        let what = if self.status == Status::Stalled {
            "stalled"
        } else {
            "hit the step limit"
        };
        format!(
            "the run {what} at step {} with {} / {} delivered",
            self.step, self.delivered, self.packets
        )
    }

    fn failure(&self) -> String {
        format!("{} — not met ✗", self.stopped())
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

/// `noun` after the count `n` as printed ([`num`]): "step" after "1",
/// "steps" after "3" or "2.5".
fn noun(n: &str, noun: &'static str) -> std::borrow::Cow<'static, str> {
    if n == "1" {
        noun.into()
    } else {
        format!("{noun}s").into()
    }
}

/// "1 step", "3 steps", "2.5 steps" (`n` as [`num`] prints it).
fn count_steps(n: &str) -> String {
    format!("{n} {}", noun(n, "step"))
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
    let claims: Vec<ClaimStatus> = entry.teaching.claims.iter().map(|c| claim_status(c, sim, &p)).collect();
    let unclaimed = claims
        .iter()
        .all(|c| c.verdict == Verdict::NotApplicable)
        .then(|| unclaimed(entry.name, entry.teaching.claims, sim));
    let rims = class_rims(entry);
    Explanation {
        algorithm: entry.name,
        summary: entry.summary,
        description: entry.teaching.description,
        paper: entry.paper,
        section: entry.section,
        progress: format!("{}{status}", p.line()),
        unclaimed,
        phase: p.phases.last().map(|ph| PhaseNow {
            name: ph.name.clone(),
            text: phase_text(entry, &ph.name),
        }),
        terms: terms(sim, entry),
        classes: classes(sim, entry),
        destination_key: destination_key(&sim.instance().topology, rims),
        class_rims: rims,
        stall: stall::stall(sim),
        sort: sort::status(sim, &p),
        delays: delay::delays(sim, &claims),
        claims,
    }
}

/// The tracked packet `packet`'s line for a claim on every packet's delay
/// that applies to `sim` (bit fixing's delay ≤ |S|: its |S| and, once it
/// has arrived, its delay against it; greedy's average case: its delay);
/// `None` when no such claim applies (the page's `watch_note`).
pub fn packet_line(sim: &Simulation, packet: u32) -> Option<String> {
    let entry = lookup(&sim.config().algorithm).ok()?;
    let claim = entry
        .teaching
        .claims
        .iter()
        .find(|c| c.measure == Measure::PacketDelay && scope::not_applicable(c, sim).is_none())?;
    delay::packet_line(sim, packet, claim)
}

/// Why none of `claims` (all not applicable) judges `sim`, in one sentence.
fn unclaimed(algorithm: &str, claims: &[Claim], sim: &Simulation) -> String {
    let topo = &sim.instance().topology;
    let kind = topo.kind();
    let for_kind = claims.iter().any(|c| match c.scope.network() {
        None => true,
        Some((kinds, _)) => kinds.contains(&kind),
    });
    if for_kind {
        return format!(
            "None of the claims on {algorithm} applies to this run (each is stated for other runs); the run is measured \
             against the instance's lower bound."
        );
    }
    let mut stated: Vec<String> = Vec::new();
    for c in claims {
        if let Some((kinds, shape)) = c.scope.network() {
            let phrase = shape.phrase(kinds);
            if !stated.contains(&phrase) {
                stated.push(phrase);
            }
        }
    }
    let on = if stated.is_empty() {
        String::new()
    } else {
        format!(" (its claims are stated for {})", stated.join(", "))
    };
    format!(
        "No paper in this collection bounds {algorithm} on a {}{on}; the run is measured against the instance's \
         lower bound.",
        kind.noun()
    )
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
                short: format!("{} · {}", s.outcome, named(sim, s.name.to_string())),
                verdict: s.verdict,
                what: named(sim, s.what),
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
    if lesson.check.stall {
        checks.push(stall::stall_check(main));
    }
    if let Some(relation) = lesson.check.relation {
        checks.push(match compare {
            Some(other) => relate(relation, main, other),
            // Without the second run the relation cannot be decided, however
            // far this run goes: not applicable (not pending for ever).
            None => CheckLine {
                short: String::new(),
                text: format!(
                    "needs {} beside {} (compare={})",
                    lesson.preset.compare.unwrap_or("a second run"),
                    main.config().algorithm,
                    lesson.preset.compare.unwrap_or("…")
                ),
                verdict: Verdict::NotApplicable,
                what: "not the two runs side by side (there is no second run)".to_string(),
            },
        });
    }
    if checks.is_empty() {
        checks.push(CheckLine {
            short: String::new(),
            text: format!(
                "the lesson's claim does not apply to this run ({} on {})",
                main.config().algorithm,
                main.instance().topology
            ),
            verdict: Verdict::NotApplicable,
            what: "the lesson's claims, which do not apply to this run".to_string(),
        });
    }
    let verdict = Verdict::all(checks.iter().map(|c| c.verdict));
    let whats: Vec<&str> = checks.iter().map(|c| c.what.as_str()).collect();
    let title = format!("Checked on this run: {}", whats.join("; "));
    let count = |v: Verdict| checks.iter().filter(|c| c.verdict == v).count();
    let verdict_text = match verdict {
        Verdict::Met => "met ✓".to_string(),
        Verdict::NotMet => "not met ✗".to_string(),
        Verdict::Pending => "not yet decided".to_string(),
        Verdict::NotApplicable => "does not apply to this run".to_string(),
        Verdict::Measured => match count(Verdict::Met) {
            0 => "measured: asymptotic bounds, so a constant and no pass or fail".to_string(),
            met => format!(
                "{met} met ✓, {} measured (asymptotic: a constant, no pass or fail)",
                count(Verdict::Measured)
            ),
        },
    };
    LessonStatus {
        lesson,
        checks,
        verdict,
        title,
        verdict_text,
        changed: None,
    }
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
