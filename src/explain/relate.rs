//! A lesson's relation between its two runs (fewer steps, a smaller
//! queue, a trade-off), decided once both are over.

use super::{sort, CheckLine, Progress, Verdict};
use crate::lessons::Relation;
use crate::simulation::Simulation;

pub(super) fn relate(relation: Relation, a: &Simulation, b: &Simulation) -> CheckLine {
    let (pa, pb) = (Progress::of(a), Progress::of(b));
    let (na, nb) = (&a.config().algorithm, &b.config().algorithm);
    let over = pa.over() && pb.over();
    let cmp = |yes: bool, op: [&'static str; 2]| op[usize::from(!yes)];
    // Each relation: whether it holds, its line once decided, its claim,
    // and its figures alone (an embed's line leads with them).
    let (holds, text, claim, figures) = match relation {
        Relation::MoreSteps | Relation::FewerSteps => {
            let more = relation == Relation::MoreSteps;
            let holds = if more { pa.steps > pb.steps } else { pa.steps < pb.steps };
            let op = cmp(holds, if more { [">", "≤"] } else { ["<", "≥"] });
            let claim = format!("{na} needs {} steps than {nb}", if more { "more" } else { "fewer" });
            let (x, y) = (pa.steps, pb.steps);
            (
                holds,
                format!("{claim}: {x} {op} {y}"),
                claim,
                format!("{x} {op} {y} steps"),
            )
        }
        Relation::SmallerQueue => {
            let holds = pa.max_queue < pb.max_queue;
            let op = cmp(holds, ["<", "≥"]);
            let claim = format!("{na}'s largest queue is smaller than {nb}'s");
            let (x, y) = (pa.max_queue, pb.max_queue);
            (
                holds,
                format!("{claim}: {x} {op} {y}"),
                claim,
                format!("largest queue {x} {op} {y}"),
            )
        }
        Relation::TradeOff => {
            let (faster, smaller) = (pa.steps < pb.steps, pb.max_queue < pa.max_queue);
            let steps = format!("{} {} {}", pa.steps, cmp(faster, ["<", "≥"]), pb.steps);
            let queues = format!("{} {} {}", pb.max_queue, cmp(smaller, ["<", "≥"]), pa.max_queue);
            (
                faster && smaller,
                format!("{na} is faster ({steps} steps) but {nb} needs less room (largest queue {queues})"),
                format!("{na} is faster but {nb} needs less room"),
                format!("{steps} steps, largest queue {queues}"),
            )
        }
        Relation::SecondFirst {
            main_power,
            other_power,
        } => return sort::race(a, b, main_power, other_power),
    };
    let verdict = match (over, holds) {
        (false, _) => Verdict::Pending,
        (true, true) => Verdict::Met,
        (true, false) => Verdict::NotMet,
    };
    // An embed's one line leads with the figures (its ellipsis cuts the claim).
    let (text, short) = if over {
        let mark = verdict.mark();
        (format!("{text}{mark}"), format!("{figures}{mark} · {claim}"))
    } else {
        (
            format!(
                "{claim}: so far {na} {} steps, largest queue {}; {nb} {} steps, largest queue {} — not yet decided",
                pa.steps, pa.max_queue, pb.steps, pb.max_queue
            ),
            format!(
                "so far {} and {} steps, largest queues {} and {} · {claim}",
                pa.steps, pb.steps, pa.max_queue, pb.max_queue
            ),
        )
    };
    CheckLine {
        short,
        text,
        verdict,
        what: claim,
    }
}
