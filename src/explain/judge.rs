//! A claim judged on a run: its bound in one phrase, and where the run
//! stands against it (whether it applies at all: [`super::scope`]).

use super::phases::{self, Named};
use super::scope::not_applicable;
use super::words::constant_name;
use super::{count_steps, noun, num, ClaimStatus, Progress, Verdict};
use crate::algorithms::claim::{Claim, Measure, Strength};
use crate::claims::{self, Bound};
use crate::simulation::{Simulation, Status};

/// Why the per-phase `claim` does not apply to the finished run `p`: none
/// of its phases ran (e.g. the phases were coalesced into one).
fn no_phase(claim: &Claim, p: &Progress) -> Option<String> {
    let patterns = claim.measure.phase_patterns()?;
    if !p.over() || !Named::of(claim.measure, p).is_empty() {
        return None;
    }
    let ran: Vec<&str> = p.phases.iter().map(|ph| ph.name.as_str()).collect();
    Some(format!(
        "stated for the phases {}; this run has none of them (its phases: {})",
        phases::pattern_phrase(patterns),
        ran.join(", ")
    ))
}

/// The bound in one phrase, without and with the instance's parameters
/// (`phases`: a per-phase claim's phases, in words).
fn headline(claim: &Claim, b: &Bound, phases: &str) -> (String, String) {
    let v = num(b.value);
    let eq = if b.formula == v {
        v.clone()
    } else {
        format!("{} = {v}", b.formula)
    };
    let f = &b.formula;
    let c = constant_name(f);
    let steps = noun(&v, "step");
    let core = match (claim.measure, claim.strength) {
        (Measure::Steps, Strength::Exact) => format!("T = {eq}"),
        (Measure::Steps, Strength::AtMost | Strength::AtMostWhp) => format!("≤ {eq} {steps}"),
        (Measure::Steps, Strength::Order) => format!("O({f}) steps = {c}·{v}"),
        (Measure::Steps, Strength::Omega) => format!("Ω({f}) steps = {c}·{v}"),
        (Measure::Steps, Strength::PlusLowerOrder) => format!("{f} + o({f}) steps, {eq}"),
        (Measure::Steps, Strength::PlusConstant) => format!("{eq} {steps} + O(1)"),
        (Measure::Steps, Strength::PlusSqrtKnLogN) => {
            let unit = b.unit.as_ref().map_or("√(k·n·ln n)", |(name, _)| name.as_str());
            format!("{eq} {steps} + O({unit})")
        }
        (Measure::StepsAfter(phase), _) => format!("after {phase}: ≤ {eq} {steps}"),
        (Measure::MaxQueue, Strength::Exact) => format!("largest queue = {eq}"),
        (Measure::MaxQueue, Strength::Order) => format!("queues O({f}) = {c}·{v}"),
        (Measure::MaxQueue, _) => format!("queues ≤ {eq}"),
        (Measure::MaxEdgeQueue, Strength::Exact) => format!("largest edge queue = {eq}"),
        (Measure::MaxEdgeQueue, Strength::Order) => format!("edge queues O({f}) = {c}·{v}"),
        (Measure::MaxEdgeQueue, _) => format!("edge queues ≤ {eq}"),
        (Measure::MaxBarrierLoad, _) => format!("packets at a node when a phase opens ≤ {f} + O(1)"),
        (Measure::MaxDelay, _) => format!("every packet waits ≤ {eq} {steps}"),
        (Measure::PacketDelay, Strength::Order) => format!("every packet within its distance + O({f}) = {c}·{v} steps"),
        (Measure::PacketDelay, _) => format!("every packet's delay ≤ its {f}"),
        (Measure::PhaseSteps(_), Strength::AtMost | Strength::AtMostWhp) => format!("each of {phases}: ≤ {eq} {steps}"),
        (Measure::PhaseSteps(_), Strength::Exact) => format!("each of {phases}: {eq} {steps}"),
        (Measure::PhaseSteps(_), Strength::PlusSqrtKnLogN) => {
            let unit = b.unit.as_ref().map_or("√(k·n·ln n)", |(name, _)| name.as_str());
            format!("each of {phases}: {eq} {steps} + O({unit})")
        }
        (Measure::PhaseSteps(_), _) => format!("each of {phases}: O({f}) steps = {c}·{v}"),
        (Measure::PhaseLinkLoad(_), Strength::PlusSqrtKnLogN) => {
            let unit = b.unit.as_ref().map_or("√(k·n·ln n)", |(name, _)| name.as_str());
            format!("packets over one link in each of {phases}: {eq} + O({unit})")
        }
        (Measure::PhaseLinkLoad(_), _) => format!("packets over one link in each of {phases}: ≤ {eq}"),
    };
    let mut full = core.clone();
    if !b.parameters.is_empty() {
        full += &format!(" ({})", b.parameters);
    }
    match claim.strength {
        Strength::AtMostWhp => full += ", with high probability",
        Strength::PlusSqrtKnLogN | Strength::PlusConstant => full += ", with very high probability",
        Strength::Omega => full += ", on the worst permutations",
        _ => {}
    }
    if !b.detail.is_empty() {
        full += &format!("; {}", b.detail);
    }
    (core, full)
}

/// A measured value as the formula plus or minus a whole number ("k + 2"),
/// against the bound's value `v` rounded down.
fn offset(f: &str, measured: u32, v: f64) -> String {
    let extra = measured as i64 - v as i64;
    let sign = if extra < 0 { "−" } else { "+" };
    format!("{f} {sign} {}", extra.unsigned_abs())
}

/// "step 10: 146 / 256 delivered, stopped by the step limit; " before an
/// undecided line of a run the limit cut off, else nothing.
fn cut_at(p: &Progress) -> String {
    match p.cut() {
        true => format!("{}; ", p.line()),
        false => String::new(),
    }
}

/// Judges `claim` with bound `b` on the run so far: (verdict, measured value, live line, short result).
fn judge(claim: &Claim, b: &Bound, p: &Progress) -> (Verdict, Option<f64>, String, String) {
    let v = b.value;
    let vs = num(v);
    // A sum is multiplied whole: c·(c + L + log N).
    let f = &if b.formula.contains(" + ") || b.formula.contains(" − ") {
        format!("({})", b.formula)
    } else {
        b.formula.clone()
    };
    match claim.measure {
        Measure::PhaseSteps(_) | Measure::PhaseLinkLoad(_) => phases::judge(claim, b, p),
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
            if p.ended_early() {
                if claim.strength.asymptotic() {
                    // No pass or fail for an asymptotic claim: the run that
                    // did not finish bounds its constant from below.
                    let line = format!(
                        "{}: the steps, and so the constant, are more than this run could measure",
                        p.stopped()
                    );
                    return (
                        Verdict::Measured,
                        measured,
                        line,
                        format!("did not finish: more than {m} steps"),
                    );
                }
                // A stall fails the claim; a run the step limit cut off is
                // judged as one still going (exceeded only past the bound).
                if p.failed() {
                    return (
                        Verdict::NotMet,
                        measured,
                        p.failure(),
                        "the run did not finish ✗".into(),
                    );
                }
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
                        let name = constant_name(f);
                        let line =
                            format!("finished in {m} steps = {c:.1}·{f}: the measured constant is {name} = {c:.1}");
                        (Verdict::Measured, measured, line, format!("measured {m} = {c:.1}·{f}"))
                    } else {
                        let line = format!("{}; so far {m} steps = {c:.1}·{f} — not yet decided", p.line());
                        (Verdict::Pending, measured, line, format!("so far {m} = {c:.1}·{f}"))
                    }
                }
                Strength::PlusSqrtKnLogN => {
                    let (unit, u) = b.unit.clone().unwrap_or_else(|| ("√(k·n·ln n)".into(), 1.0));
                    let a = (m as f64 - v) / u.max(1e-9);
                    if finished {
                        // The main term plus a constant times the unit: the
                        // constant is what the run measures, never a pass
                        // or fail (it may be negative at small n).
                        let sign = if a < 0.0 { "−" } else { "+" };
                        let eq = format!("{m} = {vs} {sign} {:.2}·{unit}", a.abs());
                        let above = m as f64 - v;
                        let how = if above >= 0.0 {
                            format!("{} above the main term {vs}", count_steps(&num(above)))
                        } else {
                            format!("{} below the main term {vs}", count_steps(&num(-above)))
                        };
                        let line = format!(
                            "finished in {m} steps, {how}: {eq} ({unit} = {}), the additive term's constant measured",
                            num(u)
                        );
                        (Verdict::Measured, measured, line, format!("measured {eq}, {how}"))
                    } else {
                        let line = format!("{}; the main term is {vs} — not yet decided", p.line());
                        (Verdict::Pending, measured, line, format!("so far {m}"))
                    }
                }
                Strength::PlusLowerOrder | Strength::PlusConstant => {
                    let shown = offset(f, m, v);
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
        Measure::MaxDelay => {
            // An upper bound (Corollary 3): over the packets delivered so far.
            let w = p.max_delay.expect("counted by claim_status for a claim on it");
            let measured = Some(w as f64);
            if w as f64 > v {
                let line = format!("a packet waited {w} steps > {vs} — exceeded ✗");
                (Verdict::NotMet, measured, line, format!("waited {w} ✗"))
            } else if p.failed() {
                (
                    Verdict::NotMet,
                    measured,
                    p.failure(),
                    "the run did not finish ✗".into(),
                )
            } else if p.over() {
                let line = format!("the longest wait of a packet: {w} steps ≤ {vs} — met ✓");
                (Verdict::Met, measured, line, format!("longest wait {w} ✓"))
            } else {
                let line = format!("{}; the longest wait so far {w} ≤ {vs} — not yet decided", p.line());
                (
                    Verdict::Pending,
                    measured,
                    line,
                    format!("so far {w} — not yet decided"),
                )
            }
        }
        // Judged packet by packet in `delay::judge` (claim_status).
        Measure::PacketDelay => (Verdict::Pending, None, p.line(), "not yet decided".into()),
        Measure::MaxBarrierLoad => {
            let Some(q) = p.max_barrier_load else {
                let line = format!("{}; no phase has opened yet — not yet decided", p.line());
                return (Verdict::Pending, None, line, "not yet decided".into());
            };
            let measured = Some(q as f64);
            let shown = offset(f, q, v);
            if p.ended_early() {
                let line = format!(
                    "{}; so far {q} = {shown} when a phase opened (the O(1) term, measured)",
                    p.stopped()
                );
                (Verdict::Measured, measured, line, format!("largest {q} = {shown}"))
            } else if p.over() {
                let line = format!(
                    "the most packets a node held when a phase opened: {q} = {shown} (the O(1) term, measured; \
                     max_load, which also counts packets queued in transit during a phase, is not this claim's)"
                );
                (Verdict::Measured, measured, line, format!("largest {q} = {shown}"))
            } else {
                let line = format!(
                    "{}; so far {q} = {shown} when a phase opened — not yet decided",
                    p.line()
                );
                (Verdict::Pending, measured, line, format!("so far {q}"))
            }
        }
        Measure::MaxQueue | Measure::MaxEdgeQueue => {
            let (q, largest) = match claim.measure {
                Measure::MaxEdgeQueue => (p.max_edge_queue, "largest edge queue"),
                _ => (p.max_queue, "largest queue"),
            };
            let measured = Some(q as f64);
            let over_bound = q as f64 > v;
            match claim.strength {
                Strength::Order | Strength::Omega | Strength::PlusLowerOrder => {
                    let c = if v > 0.0 { q as f64 / v } else { 0.0 };
                    if p.over() {
                        let name = constant_name(f);
                        let line = format!("{largest} {q} = {c:.1}·{f}: the measured constant is {name} = {c:.1}");
                        (Verdict::Measured, measured, line, format!("largest {q} = {c:.1}·{f}"))
                    } else {
                        let line = format!("{largest} so far {q} = {c:.1}·{f} — not yet decided");
                        (Verdict::Pending, measured, line, format!("so far {q}"))
                    }
                }
                _ if over_bound => {
                    let line = format!("{largest} {q} > {vs} — exceeded ✗");
                    (Verdict::NotMet, measured, line, format!("largest {q} ✗"))
                }
                _ if p.failed() => (
                    Verdict::NotMet,
                    measured,
                    p.failure(),
                    "the run did not finish ✗".into(),
                ),
                Strength::Exact if p.over() && q as f64 != v => {
                    let line = format!("{largest} {q}, not {vs} — not met ✗");
                    (Verdict::NotMet, measured, line, format!("largest {q} ✗"))
                }
                Strength::Exact if p.over() => {
                    let line = format!("{largest} {q} = {vs} — met ✓");
                    (Verdict::Met, measured, line, format!("largest {q} ✓"))
                }
                Strength::Exact => {
                    let line = format!("{}{largest} so far {q} (the claim: {vs}) — not yet decided", cut_at(p));
                    (
                        Verdict::Pending,
                        measured,
                        line,
                        format!("so far {q} — not yet decided"),
                    )
                }
                _ if p.over() => {
                    let line = format!("{largest} {q} ≤ {vs} — met ✓");
                    (Verdict::Met, measured, line, format!("largest {q} ✓"))
                }
                _ => {
                    let line = format!("{}{largest} so far {q} ≤ {vs} — not yet decided", cut_at(p));
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

/// What checking `claim` with bound `b` checks, in words ("the steps stay
/// within the 2n − 2 bound"; for an asymptotic claim, what is measured;
/// `phases`: a per-phase claim's phases, in words).
fn what(claim: &Claim, b: &Bound, phases: &str) -> String {
    // "Theorem 7's max{2n, kn/4}"; a phrase in parentheses: "2n − 2 (the 2n − 2 bound)", "B (constant queues)".
    let of = if claim.name.starts_with("the ") || claim.name.starts_with(|c: char| c.is_lowercase()) {
        format!("{} ({})", b.formula, claim.name)
    } else {
        format!("{}'s {}", claim.name, b.formula)
    };
    match (claim.measure, claim.strength) {
        (Measure::Steps, Strength::Exact) => format!("the run takes exactly {of} steps"),
        (Measure::Steps, Strength::AtMost | Strength::AtMostWhp) => format!("the steps stay within {of}"),
        (Measure::Steps, Strength::Order | Strength::Omega) => {
            format!("the steps, as a measured constant times {of}")
        }
        (Measure::Steps, Strength::PlusSqrtKnLogN) => {
            let unit = b.unit.as_ref().map_or("√(k·n·ln n)", |(name, _)| name.as_str());
            format!("the steps against {of} as main term, plus a measured constant times {unit}")
        }
        (Measure::Steps, _) => format!("the steps against {of}, the lower-order term measured"),
        (Measure::StepsAfter(phase), _) => format!("the steps after {phase} stay within {of}"),
        (Measure::MaxQueue | Measure::MaxEdgeQueue, strength) => {
            let q = if claim.measure == Measure::MaxQueue {
                "the largest queue"
            } else {
                "the largest edge queue"
            };
            match strength {
                Strength::Exact => format!("{q} is exactly {of}"),
                Strength::AtMost | Strength::AtMostWhp => format!("{q} stays within {of}"),
                _ => format!("{q}, as a measured constant times {of}"),
            }
        }
        (Measure::MaxBarrierLoad, _) => {
            format!("the packets a node holds when a phase opens, against {of} + O(1), the O(1) measured")
        }
        (Measure::MaxDelay, _) => {
            format!("no packet waits more than {of} steps (its delivery step minus its distance)")
        }
        (Measure::PacketDelay, Strength::Order) => {
            format!("the largest delay of a packet (arrival step − distance), as a measured constant times {of}")
        }
        (Measure::PacketDelay, _) => {
            format!("every packet's delay (arrival step − distance) stays within its own {of}, checked as it arrives")
        }
        (Measure::PhaseSteps(_), Strength::AtMost | Strength::AtMostWhp | Strength::Exact) => {
            format!("the steps of each of {phases} stay within {of}")
        }
        (Measure::PhaseSteps(_), Strength::PlusSqrtKnLogN) => {
            let unit = b.unit.as_ref().map_or("√(k·n·ln n)", |(name, _)| name.as_str());
            format!("the steps of each of {phases} against {of} as main term, plus a measured constant times {unit}")
        }
        (Measure::PhaseSteps(_), _) => format!("the steps of each of {phases}, as a measured constant times {of}"),
        (Measure::PhaseLinkLoad(_), Strength::PlusSqrtKnLogN) => {
            let unit = b.unit.as_ref().map_or("√(k·n·ln n)", |(name, _)| name.as_str());
            format!(
                "the most packets over one link in each of {phases} against {of} as main term, plus a measured \
                 constant times {unit}"
            )
        }
        (Measure::PhaseLinkLoad(_), _) => {
            format!("the most packets over one link in each of {phases} stay within {of}")
        }
    }
}

/// `claim` on `sim`.
pub(super) fn claim_status(claim: &'static Claim, sim: &Simulation, p: &Progress) -> ClaimStatus {
    let config = sim.config();
    let extra = sim.report_extra();
    let bound = claims::evaluate_run(
        claim.formula,
        sim.instance(),
        config.options.epsilon,
        config.options.known_locality(),
        config.options.flits,
        &extra,
    );
    let reason = not_applicable(claim, sim)
        .or_else(|| no_phase(claim, p))
        .or_else(|| bound.is_none().then(|| "not defined here".to_string()));
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
        outcome: String::new(),
        check: String::new(),
        what: String::new(),
    };
    match (reason, bound) {
        (None, Some(mut b)) => {
            let (verdict, measured, line, short) = match claim.measure {
                Measure::PacketDelay => super::delay::judge(claim, &mut b, sim, p),
                Measure::MaxDelay => judge(claim, &b, &p.with_max_delay(sim)),
                _ => judge(claim, &b, p),
            };
            let phases = phases::phrase(claim, p);
            let (core, full) = headline(claim, &b, &phases);
            ClaimStatus {
                headline: full,
                measured,
                verdict,
                line,
                check: format!("{}: {core} for this instance; {short}", claim.name),
                outcome: short,
                what: what(claim, &b, &phases),
                bound: Some(b),
                ..base
            }
        }
        (reason, _) => {
            let why = reason.unwrap_or_default();
            ClaimStatus {
                line: format!("does not apply: {why}"),
                outcome: "does not apply".into(),
                check: format!("{}: does not apply ({why})", claim.name),
                ..base
            }
        }
    }
}
