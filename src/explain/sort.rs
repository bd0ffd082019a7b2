//! A sort explained (SPEC §5 "Sorting"): the order its keys end in, in
//! words; the goal while it runs and, once it is over, its verdict from the
//! report's `sorted` (checked by the core from the packets' positions) and
//! `steps`; the colour key when packets are coloured by key; and the race
//! of two runs beside each other ([`race`]: which finished first, and each
//! one's steps per its growth).

use super::{num, CheckLine, Progress, Verdict};
use crate::simulation::{Simulation, Status};
use crate::workload::sort::Order;
use serde::Serialize;

/// A sort's goal and verdict, for the page's line under the counters.
#[derive(Debug, Clone, Serialize)]
pub struct SortStatus {
    /// The order's SPEC §5 name, as the report's `order` (`label`, `snake`, …).
    pub order: &'static str,
    /// The order in a few words: "label order", "snake order", "level-0 rows".
    pub order_name: &'static str,
    /// The report's `sorted` once the run is over; `None` while it runs.
    pub sorted: Option<bool>,
    /// The line the page shows: the goal while the run goes on; "sorted ✓
    /// in 16 steps — label order: …" or "not sorted ✗ — …" once it is over.
    pub line: String,
    /// The lowest and the highest key as the instance writes them
    /// (`3`, `-2`, `0.5`): the ends of the colour scale.
    pub low: String,
    /// See `low`.
    pub high: String,
    /// What a packet's colour means when packets are coloured by key.
    pub key: String,
}

/// The order in a few words, and where rank r ends in it.
fn order_words(order: Order) -> (&'static str, &'static str) {
    match order {
        Order::RowMajor => (
            "row-major order",
            "node r, counted row by row from the top left, holds the key of rank r",
        ),
        Order::Snake => (
            "snake order",
            "the r-th node along the snake (row 0 left to right, row 1 right to left, …) holds the key of rank r",
        ),
        Order::Label => ("label order", "node r (labelled r in binary) holds the key of rank r"),
        Order::Level0Row => ("level-0 rows", "the level-0 node of row r holds the key of rank r"),
        Order::LevelDRow => (
            "level-D rows",
            "the top-level (level D) node of row r holds the key of rank r",
        ),
    }
}

/// The sort's status, `None` for a routing run.
pub(super) fn status(sim: &Simulation, p: &Progress) -> Option<SortStatus> {
    let keys = sim.instance().keys.as_ref()?;
    let order = sim.sort_order()?;
    let (order_name, goal) = order_words(order);
    let sorted = if p.over() { sim.sorted() } else { None };
    let line = match sorted {
        None => format!(
            "Sorting {} keys into {order_name}: at the end {goal} (ties by packet id).",
            keys.len()
        ),
        Some(true) => format!("sorted ✓ in {} steps — {order_name}: {goal}.", p.steps),
        Some(false) => format!(
            "not sorted ✗ — after {} steps the keys are not in {order_name} (checked from where the packets are).",
            p.steps
        ),
    };
    let text = |code: u64| crate::workload::keys::text(code, sim.instance().key_numbers);
    let (low, high) = (
        text(keys.iter().copied().min().unwrap_or(0)),
        text(keys.iter().copied().max().unwrap_or(0)),
    );
    let key = if low == high {
        format!("every key is {low}: one colour")
    } else {
        format!(
            "a packet's colour is its key, on the scale under the canvas: darkest for the lowest ({low}), \
             lightest for the highest ({high}), the distinct keys evenly spaced in order and equal keys alike; \
             once sorted, the colours run from dark to light in {order_name}"
        )
    };
    Some(SortStatus {
        order: order.name(),
        order_name,
        sorted,
        line,
        low,
        high,
        key,
    })
}

/// D^power in words: "D", "D²", "D³", "D^p".
fn growth(power: u32) -> String {
    match power {
        0 => "1".to_string(),
        1 => "D".to_string(),
        2 => "D²".to_string(),
        3 => "D³".to_string(),
        p => format!("D^{p}"),
    }
}

/// A constant as the race prints it: two decimals below 10, one above.
fn constant(v: f64) -> String {
    if v < 10.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.1}")
    }
}

/// The live check of [`crate::lessons::Relation::SecondFirst`]: the second
/// run `b` finishes first (in fewer steps than the main run `a`). Decided
/// as soon as one run finished while the other, shown at least as far,
/// has not; otherwise once both are over. The line gives the steps of
/// each and each one's steps per its growth, D = log₂ N (N the packets, a
/// sort's keys): `a`'s per D^`main_power`, `b`'s per D^`other_power`.
pub(super) fn race(a: &Simulation, b: &Simulation, main_power: u32, other_power: u32) -> CheckLine {
    let (pa, pb) = (Progress::of(a), Progress::of(b));
    let (na, nb) = (&a.config().algorithm, &b.config().algorithm);
    let n = a.instance().packets.len();
    let d = (n.max(2) as f64).log2();
    let per = |steps: u32, power: u32| {
        format!(
            "{steps} = {}·{}",
            constant(f64::from(steps) / d.powi(power as i32)),
            growth(power)
        )
    };
    let of = |name: &str, p: &Progress, power: u32| format!("{name} {}", per(p.steps, power));
    let d_is = format!("D = log₂ {n} = {}", num(d));
    let both = format!("{}, {} ({d_is})", of(nb, &pb, other_power), of(na, &pa, main_power));
    let finished = |p: &Progress| p.status == Status::Finished;
    // One run finished; the other, shown at least as far, has not (still
    // running, or stopped without finishing): the first one won.
    let ahead = |winner: &Progress, loser: &Progress| {
        finished(winner) && !finished(loser) && (loser.over() || loser.step >= winner.steps)
    };
    let left = |name: &str, p: &Progress| {
        if p.over() {
            format!("{name} {}", p.stopped().replacen("the run ", "", 1))
        } else {
            format!("{name} is still running at step {}", p.step)
        }
    };
    let (verdict, text) = if finished(&pa) && finished(&pb) {
        let head = if pb.steps < pa.steps {
            format!("{nb} finished first: {} steps against {na}'s {}", pb.steps, pa.steps)
        } else if pa.steps < pb.steps {
            format!("{na} finished first: {} steps against {nb}'s {}", pa.steps, pb.steps)
        } else {
            format!("neither finished first: {na} and {nb} both took {} steps", pa.steps)
        };
        let verdict = if pb.steps < pa.steps {
            Verdict::Met
        } else {
            Verdict::NotMet
        };
        (verdict, format!("{head}{} — {both}", verdict.mark()))
    } else if ahead(&pb, &pa) {
        let text = format!(
            "{nb} finished first, in {} steps; {} ✓ — {} ({d_is})",
            pb.steps,
            left(na, &pa),
            of(nb, &pb, other_power)
        );
        (Verdict::Met, text)
    } else if ahead(&pa, &pb) {
        let text = format!(
            "{na} finished first, in {} steps; {} ✗ — {} ({d_is})",
            pa.steps,
            left(nb, &pb),
            of(na, &pa, main_power)
        );
        (Verdict::NotMet, text)
    } else if pa.over() && pb.over() {
        let text = format!("neither finished: {}; {} ✗", left(na, &pa), left(nb, &pb));
        (Verdict::NotMet, text)
    } else {
        let text = format!(
            "{nb} finishes first (fewer steps than {na}): so far {na} {} steps, {nb} {} steps — not yet decided",
            pa.steps, pb.steps
        );
        (Verdict::Pending, text)
    };
    CheckLine {
        short: String::new(),
        text,
        verdict,
        what: format!(
            "which finishes first, {nb} or {na}, and each one's steps per {} and per {}",
            growth(other_power),
            growth(main_power)
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::options::Field;
    use crate::request::RunSpec;

    fn run(topology: &str, algorithm: &str, workload: &str) -> crate::simulation::Simulation {
        let mut spec = RunSpec::default();
        spec.set(Field::Topology, "topology", topology).unwrap();
        spec.set(Field::Algorithm, "algorithm", algorithm).unwrap();
        spec.set(Field::Workload, "workload", workload).unwrap();
        spec.build().unwrap()
    }

    #[test]
    fn a_sort_says_its_goal_then_the_report_s_verdict() {
        for (topology, algorithm, order) in [
            ("hypercube:3", "bitonic", "label order"),
            ("mesh:4x4", "snake-sort", "snake order"),
        ] {
            let mut sim = run(topology, algorithm, "sort-few");
            let before = super::super::explain_run(&sim).sort.expect("a sort");
            assert_eq!(before.sorted, None);
            assert!(
                before
                    .line
                    .starts_with(&format!("Sorting {} keys into {order}", sim.instance().packets.len())),
                "{}",
                before.line
            );
            assert!(
                before.low.parse::<f64>().unwrap() <= before.high.parse::<f64>().unwrap()
                    && before.key.contains("colour is its key"),
                "{}",
                before.key
            );
            sim.run();
            let report = sim.report();
            let after = super::super::explain_run(&sim).sort.expect("a sort");
            assert_eq!(
                (after.sorted, Some(after.order)),
                (report.extra.sorted, report.extra.order)
            );
            assert_eq!(after.sorted, Some(true));
            assert!(
                after
                    .line
                    .starts_with(&format!("sorted ✓ in {} steps — {order}", report.steps)),
                "{}",
                after.line
            );
        }
        let routing = run("mesh:4x4", "greedy", "random-permutation");
        assert!(super::super::explain_run(&routing).sort.is_none());
    }
}
