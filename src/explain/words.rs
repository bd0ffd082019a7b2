//! The words around a run: what its phase does, its network, workload,
//! ℓ and k, policy and bounds, its packet classes and the destination key.

use super::{num, ClassName, Term};
use crate::algorithms::pp;
use crate::algorithms::teaching::Classes;
use crate::algorithms::Entry;
use crate::palette;
use crate::simulation::Simulation;
use crate::topology::{Kind, Network, Shape, Topology};
use crate::workload::Workload;

/// The digits after `c` in `word` (`c12` → `12`), if that is all it is.
fn number(word: &str, c: char) -> Option<&str> {
    word.strip_prefix(c)
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What the phase called `name` does, from the entry's phase texts.
pub(super) fn phase_text(entry: &Entry, name: &str) -> String {
    let mut prefix = Vec::new();
    // Pietracaprina–Pucci `--unknown-lk`: `guess2 (k=4) c0 sort` is attempt
    // 2's `c0 sort`; `abort2` is its abort.
    let mut name = name;
    if let Some((head, rest)) = name.split_once(") ") {
        if let Some((attempt, k)) = head.strip_prefix("guess").and_then(|h| h.split_once(" (k=")) {
            prefix.push(format!("attempt {attempt}, k guessed as {k}"));
            name = rest;
        }
    }
    if name
        .strip_prefix("abort")
        .is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()))
    {
        name = "abort";
    }
    let mut words: Vec<&str> = name.split(' ').collect();
    if let Some(j) = words.first().and_then(|w| number(w, 'c')) {
        let word = j.parse::<u32>().map_or("", palette::word);
        prefix.push(format!("colour class {j} ({word})"));
        words.remove(0);
    }
    if let Some(i) = words.first().and_then(|w| number(w, 'r')) {
        prefix.push(format!("round {i}"));
        words.remove(0);
    }
    // LevelRoute's passes: `pass3-route` is pass 3's `route` (its text is
    // `pass-route` where the entry has one, so that a pass's phase is not
    // read as the same-named phase outside the passes).
    let mut pass_key = None;
    if let [one] = words.as_slice() {
        if let Some((head, rest)) = one.split_once('-') {
            if let Some(i) = head
                .strip_prefix("pass")
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            {
                prefix.push(format!("pass {i}"));
                pass_key = Some(rest);
            }
        }
    }
    if let Some(rest) = pass_key {
        words = vec![rest];
    }
    let key = words.join(" ");
    let find = |k: &str| entry.teaching.phases.iter().find(|p| p.name == k).map(|p| p.text);
    // A numbered phase (lmrr's `plateau 3 (dim 3 up, dim 4 down)`): its first word's text.
    let numbered = words.get(1).is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()));
    // A phase whose parentheses say where it works (flashsort's
    // `leaf-sort (sort 2 of 4, rows 32-63)`): the text of its head.
    let head = key.split_once(" (").map(|(h, _)| h);
    let text = match pass_key
        .and_then(|rest| find(&format!("pass-{rest}")))
        .or_else(|| find(&key))
        .or_else(|| numbered.then(|| find(words[0])).flatten())
        .or_else(|| head.and_then(find))
    {
        Some(t) => t.to_string(),
        None => match words.split_last() {
            Some((last, base)) if !base.is_empty() => match (find(&base.join(" ")), pp::cc_stage(last)) {
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
        Kind::Mesh if Shape::Square.holds(topo) => {
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
        Kind::ShuffleExchange => format!(
            "{topo}: N = 2^{} = {n} nodes with {}-bit labels; each is linked to its label's two rotations by one bit (shuffle) and to the label with the last bit flipped (exchange)",
            dims[0], dims[0]
        ),
    }
}

pub(super) fn terms(sim: &Simulation, entry: &Entry) -> Vec<Term> {
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
             √(ℓkN) = {}: {}",
            num(b.sqrt_lkn),
            match b.reference.sqrt_lkn_is_order {
                true =>
                    "on the worst (ℓ,k) instances of a two-dimensional mesh, steps of this order are needed \
                         (Sibeyn–Kaufmann, as Pietracaprina–Pucci cite it); this instance's own lower bound is below",
                false =>
                    "the reference figure of (ℓ,k)-routing on a two-dimensional mesh, printed with every run; \
                          on this network it is no bound (the lower bound is below)",
            }
        ),
    ));
    let policy = sim.config().policy;
    let mut text = if sim.uses_policy() {
        format!(
            "{policy}: when packets want the same link in the same step, the one with the {} crosses; ties go to \
             the smaller packet id",
            policy.describe()
        )
    } else {
        format!(
            "{policy} is not used: {} decides itself which packet crosses each link in each step, so no two \
             packets ever contest a link and the policy changes nothing",
            entry.name
        )
    };
    if entry.refused_policies.is_empty() && matches!(entry.teaching.classes, Classes::Colours) {
        text += ". Here most moves are sorts, scans and tours, where packets do not compete";
    }
    out.push(term("policy", text));
    if let Some(q) = sim.own_queue_cap() {
        out.push(term(
            "q",
            format!(
                "q = {q}: each incoming link has a queue of at most {q} packets (the algorithm's edge queues); a \
                 packet moves on only when the next queue has room. Node queues are not bounded"
            ),
        ));
    } else if let Some(q) = sim.config().queue_cap {
        out.push(term(
            "q",
            format!(
                "q = {q}: a node with {q} {} in its working queue accepts no more in transit; they wait",
                super::noun(&q.to_string(), "packet")
            ),
        ));
    }
    if let Some(f) = sim.config().options.flits.filter(|&f| f > 1) {
        out.push(term(
            "flits",
            format!(
                "F = {f}: cut-through — every packet is a worm of {f} flits; the links its head crossed stay \
                 reserved while the other {} flits follow, so a worm waits whole worms; the run ends when the \
                 last flit arrives (Kaufmann–Sibeyn §7.2, §8.2)",
                f - 1
            ),
        ));
    }
    out.push(term(
        "lower bound",
        format!(
            "best = {}: no algorithm can route this instance in fewer steps (the largest of distance {}, \
             bisection {}, sink {}{})",
            b.best,
            b.distance,
            b.bisection,
            b.sink,
            b.region_words()
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

/// A class of `sim` with its name, as the palette draws it.
fn class_name(class: u32, name: String) -> ClassName {
    let style = palette::class(class);
    ClassName {
        class,
        label: format!("{}: {name}", style.word),
        name,
        word: style.word,
        colour: style.colour,
        shape: style.shape,
    }
}

/// The classes drawn now: those of the undelivered packets (the page draws
/// class c as c mod 8), or once every packet is delivered those some
/// packet held during the run.
pub(super) fn classes(sim: &Simulation, entry: &Entry) -> Vec<ClassName> {
    let engine = sim.engine();
    let slots = palette::CLASSES.len() as u32;
    let mut drawn = [false; palette::CLASSES.len()];
    for (p, &c) in engine.classes().iter().enumerate() {
        if !engine.is_delivered(p as u32) {
            drawn[(u32::from(c) % slots) as usize] = true;
        }
    }
    let none = !drawn.contains(&true);
    let seen = |c: u32| (c..256).step_by(slots as usize).any(|k| engine.class_seen(k as u8));
    let keep = |c: u32| if none { seen(c) } else { drawn[(c % slots) as usize] };
    match entry.teaching.classes {
        Classes::Named(names) => names
            .iter()
            .enumerate()
            .filter(|&(i, _)| keep(i as u32))
            .map(|(i, n)| class_name(i as u32, n.to_string()))
            .collect(),
        Classes::Colours => {
            let colours = engine.classes().iter().max().map_or(1, |&c| c as u32 + 1);
            (0..colours.min(slots))
                .filter(|&j| keep(j))
                .map(|j| {
                    let name = if colours > slots {
                        format!("colour classes {j}, {}, …", j + slots)
                    } else {
                        format!("colour class {j}")
                    };
                    class_name(j, name)
                })
                .collect()
        }
    }
}

/// Whether `entry`'s packets fall into more than one class (its texts name
/// them by colour): coloured by destination, the page rims them by class.
pub(super) fn class_rims(entry: &Entry) -> bool {
    match entry.teaching.classes {
        Classes::Colours => true,
        Classes::Named(names) => names.len() > 1,
    }
}

pub(super) fn destination_key(topo: &Topology, rims: bool) -> String {
    let last = topo.nodes().saturating_sub(1);
    let order = match topo.kind() {
        Kind::Mesh | Kind::Torus => "row by row from the top left",
        Kind::Hypercube | Kind::ShuffleExchange => "by label",
        Kind::Butterfly => "by level, then row",
        _ => "from left to right",
    };
    let rim = if rims {
        "; its rim is its class's colour, as the legend lists the classes"
    } else {
        ""
    };
    format!(
        "a packet's colour is its destination, on the scale under the canvas: darkest for node 0, lightest for \
         node {last}, numbered {order}{rim}"
    )
}

/// The name of an O() claim's measured constant: c, or C where the
/// formula has a c of its own (LMRR's congestion in c + L + log N), so
/// that one letter never stands for two things on one line.
pub(super) fn constant_name(formula: &str) -> &'static str {
    if formula.split(|ch: char| !ch.is_alphanumeric()).any(|word| word == "c") {
        "C"
    } else {
        "c"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::lookup;

    #[test]
    fn pp_phase_names_are_explained() {
        let pp = lookup("pp-rand").unwrap();
        let t = phase_text(pp, "c0 r1 route columns");
        assert!(
            t.starts_with("colour class 0 (blue), round 1 — packets spread evenly"),
            "{t}"
        );
        assert!(t.contains("along the columns"), "{t}");
        assert!(phase_text(pp, "c3 sort").starts_with("colour class 3 (grey) — this colour's packets are sorted"));
        assert!(phase_text(pp, "c0 tour").contains("Hamiltonian"));
        assert!(phase_text(pp, "colouring").contains("colour"));
        let valiant = lookup("valiant").unwrap();
        assert!(phase_text(valiant, "phase1-random-intermediate").contains("random"));
    }

    #[test]
    fn flashsort_s_columnsort_phases_are_explained_by_their_heads() {
        let fs = lookup("flashsort").unwrap();
        for (name, word) in [
            ("leaf-sort (sort 2 of 4, rows 32-63)", "leaf"),
            ("place (sort 1 of 4, rows 0-31)", "Columnsort"),
            ("final-route", "rank"),
            (
                "slots 3 (sort 2 of 4, rows 32-63, recursion level 3: 1 subbutterfly of 64 inputs)",
                "slot",
            ),
            ("transpose", "rotated right"),
            ("untranspose", "rotated left"),
            ("compare-exchange", "odd–even transposition"),
        ] {
            let t = phase_text(fs, name);
            assert!(t.contains(word), "{name}: {t}");
        }
    }

    #[test]
    fn the_measured_constant_takes_a_letter_the_formula_does_not_use() {
        assert_eq!(constant_name("c + L + log N"), "C");
        assert_eq!(constant_name("√(ℓkN)"), "c");
        assert_eq!(constant_name("log₂ n"), "c");
        assert_eq!(constant_name("d·M"), "c");
    }
}
