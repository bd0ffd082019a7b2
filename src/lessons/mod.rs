//! Lessons (SPEC §7 `lesson=<id>`): each declared once here — a title, a
//! few sentences, the paper and section it teaches, a preset (topology,
//! workload, ℓ, k, algorithm, a second algorithm to compare with, policy,
//! seed, pace, start step), the claim checked live on the run and, for some,
//! a number the student predicts before the run ([`Predict`]).
//! [`crate::explain`] evaluates the check; the page, `routesim list --json`
//! and the tests read this table. Later algorithm families add theirs here.
//!
//! A lesson may also preset a latency-against-offered-load curve
//! ([`LoadPreset`], SPEC §6): its network, algorithms, patterns, rates and
//! windows, and the claims about where each curve saturates
//! ([`LoadCheck`]), which [`crate::explain::load_lesson`] evaluates on the
//! curve as it is computed.

use crate::algorithms::claim::Claim;
use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::request::{Field, RunSpec};
use crate::simulation::{Simulation, Status};
use serde::Serialize;

mod ks;
mod ks_level;
mod lecture;
mod more;
mod pp;
mod table;

pub use table::{INTRO, LESSONS};
// The lessons of other files, for the table (through this module, so that
// no two files of src/lessons/ import each other).
use lecture::GREEDY_AVERAGE;

/// What a lesson opens: the run, a second algorithm beside it, and the page's pace.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Preset {
    /// The network (SPEC §2 name).
    pub topology: &'static str,
    /// The workload (SPEC §5 name).
    pub workload: &'static str,
    /// ℓ, for workloads that take it.
    pub l: Option<u32>,
    /// k, for workloads that take it.
    pub k: Option<u32>,
    /// The algorithm.
    pub algorithm: &'static str,
    /// The algorithm run beside it on the same instance, if any.
    pub compare: Option<&'static str>,
    /// The contention policy.
    #[serde(serialize_with = "policy_name")]
    pub policy: Policy,
    /// The seed.
    pub seed: u64,
    /// The pace: the page plays the run (the longer of the two beside each
    /// other) in about this many seconds unless the user sets a speed
    /// ([`crate::timeline::Pace`]).
    pub seconds: u32,
    /// The step the page opens at.
    pub step: u32,
    /// The algorithm's options (SPEC §5 names and values, e.g. `smear` =
    /// `auto`): part of the run's config, which the page reads.
    #[serde(skip)]
    pub options: &'static [(Field, &'static str)],
}

fn policy_name<S: serde::Serializer>(policy: &Policy, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(policy.name())
}

/// A relation between the two runs of a lesson that compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// The main run needs more steps than the second.
    MoreSteps,
    /// The main run needs fewer steps than the second.
    FewerSteps,
    /// The main run's largest queue is smaller than the second's.
    SmallerQueue,
    /// The time–space trade-off: the main run needs fewer steps, the second smaller queues.
    TradeOff,
    /// A race at this size: the second run finishes first (fewer steps).
    /// The line also gives each run's steps per its growth, D = log₂ N
    /// (N the packets; a sort's keys): the main run's steps / D^`main_power`
    /// and the second's / D^`other_power` (e.g. O(log N) against O(log² N)).
    SecondFirst {
        /// The power of D the main run's steps are divided by.
        main_power: u32,
        /// The power of D the second run's steps are divided by.
        other_power: u32,
    },
}

/// What a lesson checks on its run(s).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Check {
    /// The main algorithm's own registry claims that apply to the instance.
    pub own: bool,
    /// Further claims about the main run (e.g. greedy's worst-case queue).
    pub claims: &'static [Claim],
    /// The second algorithm's own registry claims that apply.
    pub compare_own: bool,
    /// How the two runs must compare.
    pub relation: Option<Relation>,
    /// The main run must stall on a wait-for cycle (SPEC §4 `deadlock`).
    pub stall: bool,
}

/// `algorithm` on `workload` on `topology`, seed 1, farthest-first, no ℓ,
/// k or options, nothing beside it, played in about `seconds` s from step
/// 0: the lessons' common preset, refined with the methods below. (Here,
/// not in `table.rs`, so that every lesson file may use it without two
/// files of src/lessons/ importing each other.)
pub(super) const fn preset(
    topology: &'static str,
    workload: &'static str,
    algorithm: &'static str,
    seconds: u32,
) -> Preset {
    Preset {
        topology,
        workload,
        l: None,
        k: None,
        algorithm,
        compare: None,
        policy: Policy::FarthestFirst,
        seed: 1,
        seconds,
        step: 0,
        options: &[],
    }
}

impl Preset {
    /// The same preset with `compare` run beside it.
    pub(super) const fn beside(self, compare: &'static str) -> Preset {
        Preset {
            compare: Some(compare),
            ..self
        }
    }

    /// The same preset with the workload's ℓ and k.
    pub(super) const fn lk(self, l: Option<u32>, k: Option<u32>) -> Preset {
        Preset { l, k, ..self }
    }

    /// The same preset with the algorithm's `options`.
    pub(super) const fn with(self, options: &'static [(Field, &'static str)]) -> Preset {
        Preset { options, ..self }
    }
}

/// The main algorithm's own claims, nothing else.
pub(super) const OWN: Check = Check {
    own: true,
    claims: &[],
    compare_own: false,
    relation: None,
    stall: false,
};

impl Check {
    /// The same check, and the two runs must compare by `relation`.
    pub(super) const fn and(self, relation: Relation) -> Check {
        Check {
            relation: Some(relation),
            ..self
        }
    }

    /// The same check, and the second run's own claims too.
    pub(super) const fn and_second_own(self) -> Check {
        Check {
            compare_own: true,
            ..self
        }
    }
}

/// A latency-against-offered-load curve a lesson opens (SPEC §6; the
/// page runs it in its worker through [`crate::load::Curve`], every
/// algorithm on every pattern).
#[derive(Debug, Clone, Copy, Serialize)]
pub struct LoadPreset {
    /// The network (SPEC §2 name).
    pub topology: &'static str,
    /// The algorithms (open-loop ones).
    pub algorithms: &'static [&'static str],
    /// The patterns (SPEC §6 names).
    pub patterns: &'static [&'static str],
    /// The rates, ascending.
    pub rates: &'static [f64],
    /// Each curve stops at its first saturated rate.
    pub up_to_saturation: bool,
    /// The seed.
    pub seed: u64,
    /// Warm-up steps W.
    pub warmup: u32,
    /// Measurement window M.
    pub measure: u32,
    /// Drain limit D.
    pub drain: u32,
    /// What the lesson claims about the curves.
    pub checks: &'static [LoadCheck],
}

/// A claim about where the curves of a [`LoadPreset`] saturate (the
/// saturation rate of SPEC §6: the largest rate that is not `saturated`,
/// here bracketed by the curve's rates).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum LoadCheck {
    /// On `pattern`, `algorithm`'s saturation rate is between `low` and
    /// `high` times `reference`'s.
    SaturationRatio {
        /// The pattern.
        pattern: &'static str,
        /// The algorithm compared.
        algorithm: &'static str,
        /// The algorithm it is compared with.
        reference: &'static str,
        /// Least ratio.
        low: f64,
        /// Largest ratio.
        high: f64,
        /// The ratio in words ("about half").
        words: &'static str,
    },
    /// On `pattern`, `algorithm` sustains a rate at which `reference`
    /// saturates: its saturation rate is above `reference`'s.
    Outlasts {
        /// The pattern.
        pattern: &'static str,
        /// The algorithm that lasts longer.
        algorithm: &'static str,
        /// The algorithm that saturates first.
        reference: &'static str,
    },
}

impl LoadPreset {
    /// The curve's request as the page's load form sends it (what
    /// [`crate::load::Curve::from_json`] reads): `topology`, `algorithms`
    /// and `patterns` comma-separated, `rates` a rate list, `seed`,
    /// `warmup`, `measure`, `drain`, `up_to_saturation`.
    pub fn config(&self) -> serde_json::Value {
        let rates: Vec<String> = self.rates.iter().map(|r| r.to_string()).collect();
        serde_json::json!({
            "topology": self.topology,
            "algorithms": self.algorithms.join(","),
            "patterns": self.patterns.join(","),
            "rates": rates.join(","),
            "seed": self.seed.to_string(),
            "warmup": self.warmup.to_string(),
            "measure": self.measure.to_string(),
            "drain": self.drain.to_string(),
            "up_to_saturation": self.up_to_saturation,
        })
    }

    /// The curve, planned under the browser's limits (nothing run yet).
    pub fn curve(&self) -> Result<crate::load::Curve> {
        crate::load::Curve::browser_from_json(&self.config())
    }
}

/// What a lesson asks the student to predict before the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Guess {
    /// The main run's length (the report's `steps`).
    Steps,
    /// The main run's largest queue (the report's `max_queue`).
    MaxQueue,
}

impl Guess {
    /// The unit, as the result says it ("steps", "packets").
    pub fn unit(self) -> &'static str {
        match self {
            Guess::Steps => "steps",
            Guess::MaxQueue => "packets",
        }
    }

    /// The measure on `run` at its shown step.
    pub fn measure(self, run: &Simulation) -> u32 {
        let summary = run.summary();
        match self {
            Guess::Steps => summary.step,
            Guess::MaxQueue => summary.max_queue,
        }
    }
}

/// "Predict, then watch" (SPEC §7 `predict`): the number a lesson asks
/// for before its run.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Predict {
    /// What is predicted, measured on the main run.
    pub measure: Guess,
    /// The question, as the page asks it.
    pub question: &'static str,
}

/// A guess set beside the run's measure ([`Predict::result`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PredictResult {
    /// What was predicted.
    pub measure: Guess,
    /// The guess.
    pub guess: f64,
    /// The measure on the run at its shown step.
    pub measured: u32,
    /// Whether the run is over (else `measured` is the value so far).
    pub over: bool,
    /// guess − measured.
    pub difference: f64,
    /// guess ÷ measured (`None` when the measure is 0).
    pub ratio: Option<f64>,
    /// The comparison in words, e.g. "your guess 20 · measured 15 steps: 5
    /// too high (guess ÷ measured = 1.33)".
    pub text: String,
}

/// A number as the result writes it: whole numbers without decimals, else two.
fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

impl Predict {
    /// Reads the guess `text` (a number ≥ 0) and sets it beside the
    /// measure on `run`: the difference and the ratio. Bad input is an
    /// error naming the field `predict` and the text.
    pub fn result(&self, text: &str, run: &Simulation) -> Result<PredictResult> {
        let trimmed = text.trim();
        let guess = trimmed
            .parse::<f64>()
            .ok()
            .filter(|g| g.is_finite() && *g >= 0.0)
            .ok_or_else(|| {
                Error::invalid(
                    "predict",
                    trimmed,
                    format!("expected a number of {} (0 or more), e.g. 20", self.measure.unit()),
                )
            })?;
        let measured = self.measure.measure(run);
        let over = run.status() != Status::Running;
        let difference = guess - f64::from(measured);
        let ratio = (measured > 0).then(|| guess / f64::from(measured));
        let off = if difference == 0.0 {
            "exactly right".to_string()
        } else {
            let side = if difference > 0.0 { "too high" } else { "too low" };
            format!("{} {side}", number(difference.abs()))
        };
        let ratio_text = ratio.map_or(String::new(), |r| format!(" (guess ÷ measured = {r:.2})"));
        let so_far = if over { "" } else { " so far" };
        let text = format!(
            "your guess {} · measured{so_far} {measured} {}: {off}{ratio_text}",
            number(guess),
            self.measure.unit()
        );
        Ok(PredictResult {
            measure: self.measure,
            guess,
            measured,
            over,
            difference,
            ratio,
            text,
        })
    }
}

/// The pace of the page for `lesson` (or none): the seconds a run plays in
/// unless the user sets a speed.
pub fn seconds(lesson: Option<&Lesson>) -> u32 {
    lesson.map_or(crate::timeline::PLAY_SECONDS, |l| l.preset.seconds)
}

/// One lesson.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Lesson {
    /// The SPEC §7 id.
    pub id: &'static str,
    /// Its title.
    pub title: &'static str,
    /// A few sentences: what to watch and why it matters.
    pub text: &'static str,
    /// The paper (file in `shared/papers/` and title).
    pub paper: &'static str,
    /// Where in the paper.
    pub section: &'static str,
    /// What it opens.
    pub preset: Preset,
    /// What it checks live.
    pub check: Check,
    /// The load curve it opens, if any, with its claims.
    pub load: Option<LoadPreset>,
    /// The number the student is asked to predict before the run, if any.
    pub predict: Option<Predict>,
}

/// The lesson called `id` (or the default view, `intro`), or an error listing the ids.
pub fn lookup(id: &str) -> Result<&'static Lesson> {
    LESSONS.iter().chain([&INTRO]).find(|l| l.id == id).ok_or_else(|| {
        let ids: Vec<&str> = LESSONS.iter().map(|l| l.id).collect();
        Error::invalid(
            "lesson",
            id,
            format!("unknown lesson; expected one of {}", ids.join(", ")),
        )
    })
}

/// A lesson as every front end ships it (`routesim list --json`'s
/// `lessons`, the page's `lessons()` and `lesson(id)`): the lesson's fields,
/// `config` (its run's browser config object, what the page's `new
/// Simulation` reads) and, for a lesson with a load curve, `load_config`
/// (what `new LoadCurve` reads).
#[derive(Debug, Clone, Serialize)]
pub struct Shipped {
    #[serde(flatten)]
    lesson: &'static Lesson,
    config: serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    load_config: Option<serde_json::Value>,
}

impl Lesson {
    /// The lesson as front ends ship it ([`Shipped`]).
    pub fn shipped(&'static self) -> Result<Shipped> {
        Ok(Shipped {
            lesson: self,
            config: self.spec(RunSpec::browser())?.to_json(),
            load_config: self.load.as_ref().map(LoadPreset::config),
        })
    }

    /// What the run `spec` (with `beside` run next to it) changes of the
    /// lesson's own run, in one sentence, or `None` when it is the lesson's:
    /// the lesson's text describes its own run, so a run opened with other
    /// values (an address's `topology=`, a changed seed) is told so beside
    /// it. Compared: every field of the two requests' config objects
    /// ([`RunSpec::to_json`]) but the step limit, ℓ, k, L and the hotspot
    /// only where the workload reads them, and the run beside.
    pub fn changes(&self, spec: &RunSpec, beside: Option<&str>) -> Option<String> {
        use crate::workload::Param;
        let base = if spec.browser {
            RunSpec::browser()
        } else {
            RunSpec::default()
        };
        let own = self.spec(base).ok()?;
        let (mine, theirs) = (own.to_json(), spec.to_json());
        let read = |param: Param| {
            spec.workload.is_some_and(|w| w.reads(param)) || own.workload.is_some_and(|w| w.reads(param))
        };
        let loaded = spec.instance.is_some();
        let skip = |field: Field| match field {
            Field::MaxSteps => true,
            // A loaded instance is said as such (below), not as a network and a workload.
            Field::Topology | Field::Workload => loaded,
            Field::L => !read(Param::L),
            Field::K => !read(Param::K),
            Field::Locality => !read(Param::Locality) && !spec.algorithm.options.contains(&Field::Locality),
            Field::Hotspot => !read(Param::Hotspot),
            _ => false,
        };
        let mut parts: Vec<String> = Field::ALL
            .iter()
            .filter(|&&f| !skip(f) && mine.get(f.json()) != theirs.get(f.json()))
            .map(|&f| {
                // Named as the address names it (`q`, `seed`), valued as the page shows it ("unbounded").
                let name = f.query().unwrap_or(f.cli());
                format!("{name} {} (the lesson's: {})", spec.value_of(f), own.value_of(f))
            })
            .collect();
        if spec.instance.is_some() {
            parts.push(format!("a loaded instance (the lesson's: {})", self.preset.workload));
        }
        if beside != self.preset.compare {
            let name = |b: Option<&str>| b.map_or_else(|| "none".to_string(), String::from);
            parts.push(format!(
                "run beside {} (the lesson's: {})",
                name(beside),
                name(self.preset.compare)
            ));
        }
        (!parts.is_empty()).then(|| {
            format!(
                "This run is not the lesson's own: {}. The lesson's text describes its own run; the check is this \
                 one's.",
                parts.join(", ")
            )
        })
    }

    /// The lesson's run request over `base` (the browser's or the CLI's):
    /// its topology, workload, ℓ, k, algorithm, policy and seed.
    pub fn spec(&self, base: RunSpec) -> Result<RunSpec> {
        let p = &self.preset;
        let (l, k, seed) = (
            p.l.map(|v| v.to_string()),
            p.k.map(|v| v.to_string()),
            p.seed.to_string(),
        );
        let mut fields = vec![
            (Field::Topology, "topology", p.topology),
            (Field::Workload, "workload", p.workload),
            (Field::Algorithm, "algorithm", p.algorithm),
            (Field::Policy, "policy", p.policy.name()),
            (Field::Seed, "seed", seed.as_str()),
        ];
        if let Some(l) = &l {
            fields.push((Field::L, "l", l));
        }
        if let Some(k) = &k {
            fields.push((Field::K, "k", k));
        }
        fields.extend(p.options.iter().map(|&(f, v)| (f, f.cli(), v)));
        base.apply(fields)
    }
}
