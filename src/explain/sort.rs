//! A sort explained (SPEC §5 "Sorting"): the order its keys end in, in
//! words; the goal while it runs and, once it is over, its verdict from the
//! report's `sorted` (checked by the core from the packets' positions) and
//! `steps`; and the colour key when packets are coloured by key.

use super::Progress;
use crate::simulation::Simulation;
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
    /// The lowest and the highest key: the ends of the colour scale.
    pub low: u64,
    /// See `low`.
    pub high: u64,
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
    let (low, high) = (
        keys.iter().copied().min().unwrap_or(0),
        keys.iter().copied().max().unwrap_or(0),
    );
    let key = if low == high {
        format!("every key is {low}: one colour")
    } else {
        format!(
            "a packet's colour is its key: dark purple for the lowest ({low}), then blue, teal and green to \
             yellow for the highest ({high}); once sorted, the colours run from dark to light in {order_name}"
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
                before.low <= before.high && before.key.contains("colour is its key"),
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
