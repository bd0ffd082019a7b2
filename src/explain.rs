//! Every run explained (the page's `data-role="explain"` panel, from the
//! core): what the algorithm does, in the registry's words; each claim of
//! its paper evaluated as a number for this instance ("≤ 2n − 2 = 30
//! steps") with the verdict so far (pending, met, not met, or a measured
//! constant for O() claims); what the current phase does; what ℓ, k, the
//! policy and the packet classes mean; for two runs side by side, the
//! one-line verdict; for a lesson, its live check.
//!
//! Nothing here simulates: it reads a [`Simulation`]'s instance, bounds,
//! counters and phases.

use crate::algorithms::teaching::{self, Claim, Classes, Measure, Scope, Strength};
use crate::algorithms::{lookup, Entry};
use crate::claims::{self, Bound};
use crate::engine::PhaseSteps;
use crate::lessons::{Lesson, Relation};
use crate::simulation::{Simulation, Status};
use crate::topology::{Kind, Network, Topology};
use crate::workload::Workload;
use serde::Serialize;

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
struct Progress {
    step: u32,
    status: Status,
    delivered: u32,
    packets: u32,
    max_queue: u32,
    /// SPEC §1 `steps`: the last delivery once finished, the step so far otherwise.
    steps: u32,
    phases: Vec<PhaseSteps>,
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
            steps: match status {
                Status::Finished => stats.last_delivery,
                Status::Stalled => step.saturating_sub(1),
                _ => step,
            },
            phases: stats.phases(step),
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

/// A whole number with thousands separators (7,901).
fn thousands(v: u32) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Why `claim` does not apply to `sim`, if it does not.
fn not_applicable(claim: &Claim, sim: &Simulation) -> Option<String> {
    let topo = &sim.instance().topology;
    let kind = topo.kind();
    let (scope_ok, scope) = match claim.scope {
        Scope::Any => (true, ""),
        Scope::LinearArray => (kind == Kind::Linear, "a linear array"),
        Scope::SquareMesh => (kind == Kind::Mesh && topo.square_side().is_some(), "an n × n mesh"),
        Scope::Mesh2d => (kind == Kind::Mesh && topo.mesh2d().is_some(), "a 2-D mesh"),
        Scope::Hypercube => (kind == Kind::Hypercube, "a hypercube"),
    };
    if !scope_ok {
        return Some(format!("stated for {scope}; this is {topo}"));
    }
    if claim.permutation {
        let (l, k) = sim.instance().measured_lk();
        if l > 1 || k > 1 {
            return Some(format!(
                "stated for permutations; here a node sends up to {l} and receives up to {k} packets"
            ));
        }
    }
    if let Some(policy) = claim.policy {
        if sim.config().policy != policy {
            return Some(format!("stated for {policy}; this run uses {}", sim.config().policy));
        }
    }
    if let Some(q) = sim.config().queue_cap {
        return Some(format!("stated for unbounded queues; this run has q = {q}"));
    }
    None
}

/// The bound in one phrase, without and with the instance's parameters.
fn headline(claim: &Claim, b: &Bound) -> (String, String) {
    let v = num(b.value);
    let eq = if b.formula == v {
        v.clone()
    } else {
        format!("{} = {v}", b.formula)
    };
    let f = &b.formula;
    let core = match (claim.measure, claim.strength) {
        (Measure::Steps, Strength::Exact) => format!("T = {eq}"),
        (Measure::Steps, Strength::AtMost | Strength::AtMostWhp) => format!("≤ {eq} steps"),
        (Measure::Steps, Strength::Order) => format!("O({f}) steps = c·{v}"),
        (Measure::Steps, Strength::Omega) => format!("Ω({f}) steps = c·{v}"),
        (Measure::Steps, Strength::PlusLowerOrder) => format!("{f} + o({f}) steps, {eq}"),
        (Measure::StepsAfter(phase), _) => format!("after {phase}: ≤ {eq} steps"),
        (Measure::MaxQueue, Strength::Exact) => format!("largest queue = {eq}"),
        (Measure::MaxQueue, Strength::Order) => format!("queues O({f}) = c·{v}"),
        (Measure::MaxQueue, _) => format!("queues ≤ {eq}"),
    };
    let mut full = core.clone();
    if !b.parameters.is_empty() {
        full += &format!(" ({})", b.parameters);
    }
    match claim.strength {
        Strength::AtMostWhp => full += ", with high probability",
        Strength::Omega => full += ", on the worst permutations",
        _ => {}
    }
    if !b.detail.is_empty() {
        full += &format!("; {}", b.detail);
    }
    (core, full)
}

/// Judges `claim` with bound `b` on the run so far: (verdict, measured value, live line, short result).
fn judge(claim: &Claim, b: &Bound, p: &Progress) -> (Verdict, Option<f64>, String, String) {
    let v = b.value;
    let vs = num(v);
    let f = &b.formula;
    match claim.measure {
        Measure::Steps | Measure::StepsAfter(_) => {
            let (m, label) = match claim.measure {
                Measure::StepsAfter(phase) => match p.after(phase) {
                    Some(m) => (m, " after it".to_string()),
                    None => {
                        let line = format!("{}; still in {phase} — not yet decided", p.line());
                        return (Verdict::Pending, None, line, "not yet decided".into());
                    }
                },
                _ => (p.steps, String::new()),
            };
            let measured = Some(m as f64);
            if p.failed() {
                return (
                    Verdict::NotMet,
                    measured,
                    p.failure(),
                    "the run did not finish ✗".into(),
                );
            }
            let finished = p.status == Status::Finished;
            match claim.strength {
                Strength::AtMost | Strength::AtMostWhp => {
                    if finished && (m as f64) <= v {
                        let line = format!("finished in {m} steps{label} ≤ {vs} — met ✓");
                        (Verdict::Met, measured, line, format!("measured {m} ✓"))
                    } else if finished {
                        let line = format!("finished in {m} steps{label} > {vs} — exceeded ✗");
                        (Verdict::NotMet, measured, line, format!("measured {m} ✗"))
                    } else if m as f64 >= v {
                        let line = format!("{}; already {m} steps{label}, more than {vs} — exceeded ✗", p.line());
                        (Verdict::NotMet, measured, line, format!("already {m} ✗"))
                    } else {
                        let line = format!("{}; the claim allows ≤ {vs} — not yet decided", p.line());
                        (
                            Verdict::Pending,
                            measured,
                            line,
                            format!("so far {m} — not yet decided"),
                        )
                    }
                }
                Strength::Exact => {
                    if finished && m as f64 == v {
                        let line = format!("finished in {m} steps = {vs} — met ✓");
                        (Verdict::Met, measured, line, format!("measured {m} ✓"))
                    } else if finished || m as f64 >= v {
                        let line = format!("{m} steps, not {vs} — not met ✗");
                        (Verdict::NotMet, measured, line, format!("measured {m} ✗"))
                    } else {
                        let line = format!("{}; the claim says exactly {vs} — not yet decided", p.line());
                        (
                            Verdict::Pending,
                            measured,
                            line,
                            format!("so far {m} — not yet decided"),
                        )
                    }
                }
                Strength::Order | Strength::Omega => {
                    let c = if v > 0.0 { m as f64 / v } else { 0.0 };
                    if finished {
                        let line = format!("finished in {m} steps = {c:.1}·{f}: the measured constant is c = {c:.1}");
                        (Verdict::Measured, measured, line, format!("measured {m} = {c:.1}·{f}"))
                    } else {
                        let line = format!("{}; so far {m} steps = {c:.1}·{f} — not yet decided", p.line());
                        (Verdict::Pending, measured, line, format!("so far {m} = {c:.1}·{f}"))
                    }
                }
                Strength::PlusLowerOrder => {
                    let extra = m as i64 - v as i64;
                    let sign = if extra < 0 { "−" } else { "+" };
                    let shown = format!("{f} {sign} {}", extra.unsigned_abs());
                    if finished {
                        let line = format!("finished in {m} steps = {shown} (the o({f}) term)");
                        (Verdict::Measured, measured, line, format!("measured {m} = {shown}"))
                    } else {
                        let line = format!("{}; so far {m} steps — not yet decided", p.line());
                        (Verdict::Pending, measured, line, format!("so far {m}"))
                    }
                }
            }
        }
        Measure::MaxQueue => {
            let q = p.max_queue;
            let measured = Some(q as f64);
            let over_bound = q as f64 > v;
            match claim.strength {
                Strength::Order | Strength::Omega | Strength::PlusLowerOrder => {
                    let c = if v > 0.0 { q as f64 / v } else { 0.0 };
                    if p.over() {
                        let line = format!("largest queue {q} = {c:.1}·{f}: the measured constant is c = {c:.1}");
                        (Verdict::Measured, measured, line, format!("largest {q} = {c:.1}·{f}"))
                    } else {
                        let line = format!("largest queue so far {q} = {c:.1}·{f} — not yet decided");
                        (Verdict::Pending, measured, line, format!("so far {q}"))
                    }
                }
                _ if over_bound => {
                    let line = format!("largest queue {q} > {vs} — exceeded ✗");
                    (Verdict::NotMet, measured, line, format!("largest {q} ✗"))
                }
                _ if p.failed() => (
                    Verdict::NotMet,
                    measured,
                    p.failure(),
                    "the run did not finish ✗".into(),
                ),
                Strength::Exact if p.over() && q as f64 != v => {
                    let line = format!("largest queue {q}, not {vs} — not met ✗");
                    (Verdict::NotMet, measured, line, format!("largest {q} ✗"))
                }
                Strength::Exact if p.over() => {
                    let line = format!("largest queue {q} = {vs} — met ✓");
                    (Verdict::Met, measured, line, format!("largest {q} ✓"))
                }
                Strength::Exact => {
                    let line = format!("largest queue so far {q} (the claim: {vs}) — not yet decided");
                    (
                        Verdict::Pending,
                        measured,
                        line,
                        format!("so far {q} — not yet decided"),
                    )
                }
                _ if p.over() => {
                    let line = format!("largest queue {q} ≤ {vs} — met ✓");
                    (Verdict::Met, measured, line, format!("largest {q} ✓"))
                }
                _ => {
                    let line = format!("largest queue so far {q} ≤ {vs} — not yet decided");
                    (
                        Verdict::Pending,
                        measured,
                        line,
                        format!("so far {q} — not yet decided"),
                    )
                }
            }
        }
    }
}

/// `claim` on `sim`.
fn claim_status(claim: &'static Claim, sim: &Simulation, p: &Progress) -> ClaimStatus {
    let bound = claims::evaluate(claim.formula, sim.instance());
    let reason = not_applicable(claim, sim).or_else(|| bound.is_none().then(|| "not defined here".to_string()));
    let base = ClaimStatus {
        name: claim.name,
        text: claim.text,
        measure: claim.measure,
        strength: claim.strength,
        bound: None,
        headline: String::new(),
        measured: None,
        verdict: Verdict::NotApplicable,
        line: String::new(),
        check: String::new(),
    };
    match (reason, bound) {
        (None, Some(b)) => {
            let (core, full) = headline(claim, &b);
            let (verdict, measured, line, short) = judge(claim, &b, p);
            ClaimStatus {
                headline: full,
                measured,
                verdict,
                line,
                check: format!("{}: {core} for this instance; {short}", claim.name),
                bound: Some(b),
                ..base
            }
        }
        (reason, _) => {
            let why = reason.unwrap_or_default();
            ClaimStatus {
                line: format!("does not apply: {why}"),
                check: format!("{}: does not apply ({why})", claim.name),
                ..base
            }
        }
    }
}

/// The digits after `c` in `word` (`c12` → `12`), if that is all it is.
fn number(word: &str, c: char) -> Option<&str> {
    word.strip_prefix(c)
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What the phase called `name` does, from the entry's phase texts.
fn phase_text(entry: &Entry, name: &str) -> String {
    let mut words: Vec<&str> = name.split(' ').collect();
    let mut prefix = Vec::new();
    if let Some(j) = words.first().and_then(|w| number(w, 'c')) {
        prefix.push(format!("colour class {j}"));
        words.remove(0);
    }
    if let Some(i) = words.first().and_then(|w| number(w, 'r')) {
        prefix.push(format!("round {i}"));
        words.remove(0);
    }
    let key = words.join(" ");
    let find = |k: &str| entry.teaching.phases.iter().find(|p| p.name == k).map(|p| p.text);
    let text = match find(&key) {
        Some(t) => t.to_string(),
        None => match words.split_last() {
            Some((last, base)) if !base.is_empty() => match (find(&base.join(" ")), teaching::cc_stage(last)) {
                (Some(a), Some(b)) => format!("{a}: {b}"),
                (Some(a), None) => a.to_string(),
                (None, Some(b)) => b.to_string(),
                (None, None) => String::new(),
            },
            _ => String::new(),
        },
    };
    if prefix.is_empty() {
        text
    } else {
        format!("{} — {text}", prefix.join(", "))
    }
}

fn network_words(topo: &Topology) -> String {
    let n = topo.nodes();
    let dims = topo.size_parameters();
    let sides = dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" × ");
    match topo.kind() {
        Kind::Linear => format!("{topo}: {n} nodes in a row"),
        Kind::Ring => format!("{topo}: {n} nodes in a ring"),
        Kind::Mesh if dims.len() == 2 && dims[0] == dims[1] => {
            format!("{topo}: a {sides} mesh, N = {n} nodes, n = {} per side", dims[0])
        }
        Kind::Mesh => format!("{topo}: a {sides} mesh, N = {n} nodes"),
        Kind::Torus => format!("{topo}: a {sides} torus (a mesh with wrap-around links), N = {n} nodes"),
        Kind::Hypercube => format!(
            "{topo}: N = 2^{} = {n} nodes, each linked to the {} whose labels differ in one bit",
            dims[0], dims[0]
        ),
        Kind::Butterfly => format!(
            "{topo}: {} levels of {} rows, N = {n} nodes; packets go from level 0 to level {}",
            dims[0] + 1,
            1u64 << dims[0],
            dims[0]
        ),
    }
}

fn terms(sim: &Simulation, entry: &Entry) -> Vec<Term> {
    let inst = sim.instance();
    let topo = &inst.topology;
    let term = |t: &str, text: String| Term { term: t.into(), text };
    let mut out = vec![term("network", network_words(topo))];
    let workload = inst.name.as_deref().and_then(|n| n.parse::<Workload>().ok());
    out.push(term(
        "workload",
        match workload {
            Some(w) => format!("{w}: {}", w.describe()),
            None => format!("a loaded instance of {} packets", inst.packets.len()),
        },
    ));
    let (l, k) = inst.lk();
    let how = if inst.l.is_some() || inst.k.is_some() {
        "declared"
    } else {
        "measured"
    };
    let b = sim.bounds();
    out.push(term(
        "ℓ, k",
        format!(
            "ℓ = {l}: the most packets one node sends; k = {k}: the most one node receives ({how}). \
             √(ℓkN) = {}: on the worst (ℓ,k) instances about this many steps are needed",
            num(b.sqrt_lkn)
        ),
    ));
    let policy = sim.config().policy;
    let mut text = format!(
        "{policy}: when packets want the same link in the same step, the one with the {} crosses; ties go to \
         the smaller packet id",
        policy.describe()
    );
    if entry.refused_policies.is_empty() && matches!(entry.teaching.classes, Classes::Colours) {
        text += ". Here most moves are sorts, scans and tours, where packets do not compete";
    }
    out.push(term("policy", text));
    if let Some(q) = sim.config().queue_cap {
        out.push(term(
            "q",
            format!("q = {q}: a node with {q} packets in its working queue accepts no more in transit; they wait"),
        ));
    }
    out.push(term(
        "lower bound",
        format!(
            "best = {}: no algorithm can route this instance in fewer steps (the largest of distance {}, \
             bisection {}, sink {}, region {})",
            b.best, b.distance, b.bisection, b.sink, b.region
        ),
    ));
    out.push(term(
        "max queue",
        "the most packets in transit at one node at the end of a step (its working queue); packets still at \
         their source are not counted"
            .into(),
    ));
    out
}

fn classes(sim: &Simulation, entry: &Entry) -> Vec<ClassName> {
    match entry.teaching.classes {
        Classes::Named(names) => names
            .iter()
            .enumerate()
            .map(|(i, n)| ClassName {
                class: i as u32,
                name: n.to_string(),
            })
            .collect(),
        Classes::Colours => {
            let colours = sim.engine().classes().iter().max().map_or(1, |&c| c as u32 + 1);
            (0..colours.min(8))
                .map(|j| ClassName {
                    class: j,
                    name: if colours > 8 {
                        format!("colours {j}, {}, …", j + 8)
                    } else {
                        format!("colour {j}")
                    },
                })
                .collect()
        }
    }
}

fn destination_key(topo: &Topology) -> String {
    let last = topo.nodes().saturating_sub(1);
    let order = match topo.kind() {
        Kind::Mesh | Kind::Torus => "row by row from the top left",
        Kind::Hypercube => "by label",
        Kind::Butterfly => "by level, then row",
        _ => "from left to right",
    };
    format!(
        "a packet's colour is its destination: red for node 0, then yellow, green, blue and magenta for node \
         {last}, numbered {order}"
    )
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
    };
    let verdict = match (over, holds) {
        (false, _) => Verdict::Pending,
        (true, true) => Verdict::Met,
        (true, false) => Verdict::NotMet,
    };
    let tail = if over { "" } else { " so far — not yet decided" };
    CheckLine {
        text: format!("{text}{tail}{}", verdict.mark()),
        verdict,
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

    #[test]
    fn pp_phase_names_are_explained() {
        let pp = lookup("pp-rand").unwrap();
        let t = phase_text(pp, "c0 r1 route columns");
        assert!(t.starts_with("colour class 0, round 1 — packets spread evenly"), "{t}");
        assert!(t.contains("along the columns"), "{t}");
        assert!(phase_text(pp, "c3 sort").starts_with("colour class 3 — this colour's packets are sorted"));
        assert!(phase_text(pp, "c0 tour").contains("Hamiltonian"));
        assert!(phase_text(pp, "colouring").contains("colour"));
        let valiant = lookup("valiant").unwrap();
        assert!(phase_text(valiant, "phase1-random-intermediate").contains("random"));
    }
}
