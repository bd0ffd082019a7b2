//! `lmrr` on d-dimensional meshes (Leighton–Maggs–Ranade–Rao §6): the
//! leveled network of 2d + 1 plateaus (`src/algorithms/lmrr/plateau.rs`).
//! With the invariant checks on, the scheduler asserts after every step
//! that every edge queue is sorted by (rank, destination) and holds at
//! most q, and that every node selects and every edge carries keys in
//! nondecreasing order; the engine refuses a directed link taken twice in
//! one real step (lmrr asserts every move it makes is accepted). The unit
//! tests beside the network (`plateau.rs`) check that every plateau edge
//! climbs one level on the link it claims.

use crate::common::{run_config, sim_of};
use routesim::algorithms::PathChoice;
use routesim::explain::{self, Verdict};
use routesim::report::Report;
use routesim::request::Field;
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::{SimConfig, Simulation, Status};

const DIRECT: PathChoice = PathChoice::Direct;
const VALIANT: PathChoice = PathChoice::Valiant;

/// A random permutation (k = None) or a random k-k instance.
fn instance(topology: &str, k: Option<u32>, seed: u64) -> Instance {
    let topo: Topology = topology.parse().unwrap();
    let workload = if k.is_some() {
        Workload::RandomKk
    } else {
        Workload::RandomPermutation
    };
    generate(
        &topo,
        &WorkloadSpec {
            k,
            ..WorkloadSpec::new(workload, seed)
        },
    )
    .unwrap()
}

use super::lmrr::config;

fn field(r: &Report, name: &str) -> u64 {
    let json = serde_json::to_value(r).unwrap();
    json[name]
        .as_u64()
        .unwrap_or_else(|| panic!("report has no {name}: {json}"))
}

/// steps / (c + L + log N), c on the leveled network (Theorem 2.9's).
fn ratio(r: &Report) -> f64 {
    let scale = field(r, "leveled_congestion") + field(r, "dilation") + field(r, "log_n");
    r.steps as f64 / scale as f64
}

/// The largest steps/(c + L + log N) measured on these cases (random
/// permutations and d-fold ones, q = 2 and 4, seeds 1–2): 3.6 with Valiant
/// paths (two real steps per logical step), 1.8 with direct ones; the
/// tests hold them to a generous 5 and 3.
const VALIANT_RATIO: f64 = 5.0;
const DIRECT_RATIO: f64 = 3.0;

/// §2's invariants (checked every step) on 3-D and 4-D arrays with q ∈
/// {2, 4}, direct and Valiant paths, on random permutations and on the
/// d-fold random permutations §6 routes (random-kk with k = d: d·N
/// packets): every packet delivered, `max_edge_queue` ≤ q, the phases'
/// steps adding up to the steps, and steps/(c + L + log N) bounded.
#[test]
fn invariants_hold_and_every_packet_arrives_on_arrays() {
    let cases: &[(&str, u32)] = &[
        ("mesh:8x8x8", 3),
        ("mesh:4x6x5", 3),
        ("mesh:4x4x4x4", 4),
        ("mesh:8x8x8x8", 4),
    ];
    for &(topology, d) in cases {
        for paths in [DIRECT, VALIANT] {
            for q in [2, 4] {
                // The 4,096-node array once per (paths, q), the others with two seeds.
                let seeds = if topology == "mesh:8x8x8x8" { 1..=1 } else { 1..=2 };
                for seed in seeds {
                    for k in [None, Some(d)] {
                        let what = format!("{topology} {paths:?} q={q} k={k:?} seed {seed}");
                        let inst = instance(topology, k, seed);
                        let packets = inst.packets.len() as u64;
                        let r = run_config(inst, config(q, paths, seed));
                        assert_eq!(r.delivered as u64, packets, "{what}");
                        assert!(!r.stalled, "{what}");
                        assert!(field(&r, "max_edge_queue") <= q as u64, "{what}");
                        assert_eq!(field(&r, "edge_queue_cap"), q as u64, "{what}");
                        assert!(r.steps >= r.bounds.best, "{what}");
                        let phases: u32 = r.phases.iter().map(|p| p.steps).sum();
                        assert_eq!(phases, r.steps, "{what}: phases {:?}", r.phases);
                        assert!(r.phases.iter().all(|p| p.name.starts_with("plateau ")), "{what}");
                        assert!(field(&r, "dilation") < field(&r, "levels"), "{what}");
                        let bound = if paths == VALIANT { VALIANT_RATIO } else { DIRECT_RATIO };
                        assert!(ratio(&r) <= bound, "{what}: {:.2}", ratio(&r));
                    }
                }
            }
        }
    }
}

/// The plateaus, in order, as the phases: 2d + 1 of them with Valiant
/// paths (plateau d also takes dimension 1 up, to the top), d + 1 with
/// direct ones; every reported step is a real step (two per logical step
/// with Valiant paths, whose links carry one edge of each pass).
#[test]
fn the_phases_are_the_plateaus() {
    let names = |r: &Report| r.phases.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
    let r = run_config(instance("mesh:6x6x6", None, 1), config(2, VALIANT, 1));
    assert_eq!(
        names(&r),
        [
            "plateau 0 (dim 1 down)",
            "plateau 1 (dim 1 up, dim 2 down)",
            "plateau 2 (dim 2 up, dim 3 down)",
            "plateau 3 (dim 3 up, dim 1 up)",
            "plateau 4 (dim 1 down, dim 2 up)",
            "plateau 5 (dim 2 down, dim 3 up)",
            "plateau 6 (dim 3 down)",
        ]
    );
    // Levels: the plateaus' bases climb by M_j at each transition; with
    // sides M the whole network spans 3·Σ(M_j − 1) + 2d + 1 levels, and a
    // random permutation uses nearly all.
    let all = 3 * 3 * 5 + 2 * 3 + 1;
    assert!(
        field(&r, "levels") <= all && field(&r, "levels") + 5 >= all,
        "{}",
        field(&r, "levels")
    );
    let r = run_config(instance("mesh:6x6x6", None, 1), config(2, DIRECT, 1));
    assert_eq!(names(&r).last().unwrap(), "plateau 3 (dim 3 up)");
    assert_eq!(r.phases.len(), 4);
}

/// A packet alone takes exactly its path: down to 0 in every dimension
/// and up to its destination (direct paths, one real step per edge, plus
/// one waiting step per transition); with Valiant paths two real steps per
/// logical step.
#[test]
fn a_lone_packet_takes_exactly_its_path() {
    let topo: Topology = "mesh:4x5x3".parse().unwrap();
    // (1, 2, 1) to (3, 0, 2): down 1 + 2 + 1, up 3 + 0 + 2, 3 transitions.
    let (src, dest) = (15 + 2 * 3 + 1, 3 * 15 + 2);
    let lone = Instance::new(topo, vec![(src, dest)]).unwrap();
    let r = run_config(lone.clone(), config(2, DIRECT, 1));
    assert_eq!((r.steps, r.packet_hops, field(&r, "dilation")), (12, 9, 12));
    let r = run_config(lone, config(2, VALIANT, 1));
    let edges = field(&r, "dilation") as u32;
    assert!(
        r.steps == 2 * edges || r.steps + 1 == 2 * edges,
        "{} for {edges}",
        r.steps
    );
}

/// The d-fold random permutations of §6 on every array the CI runs, with
/// q = 1 too (a node's ghost replaces the one that dies in its step): no
/// livelock, every packet delivered within the step limit.
#[test]
fn d_fold_permutations_finish_with_queues_of_one() {
    for (topology, d) in [("mesh:4x4x4", 3), ("mesh:3x4x2x3", 4), ("mesh:6x6", 2)] {
        for paths in [DIRECT, VALIANT] {
            for seed in 1..=2 {
                let what = format!("{topology} {paths:?} seed {seed}");
                let mut sim = Simulation::new(
                    instance(topology, Some(d), seed),
                    SimConfig {
                        max_steps: 20_000,
                        check_invariants: true,
                        ..config(1, paths, seed)
                    },
                )
                .unwrap();
                assert_eq!(sim.run(), Status::Finished, "{what}");
                assert!(field(&sim.report(), "max_edge_queue") <= 1, "{what}");
            }
        }
    }
}

/// On 2-D meshes direct paths keep Theorem 3.1's four phases and valiant
/// paths take §6's five plateaus; on tori lmrr is refused with the reason.
#[test]
fn two_d_meshes_offer_both_views_and_tori_are_refused() {
    let r = run_config(instance("mesh:8x8", None, 1), config(2, DIRECT, 1));
    let names: Vec<&str> = r.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["up-right", "up-left", "down-right", "down-left"]);
    let r = run_config(instance("mesh:8x8", None, 1), config(2, VALIANT, 1));
    assert_eq!(r.phases.len(), 5);
    assert_eq!(r.phases[2].name, "plateau 2 (dim 2 up, dim 1 up)");
    assert!(field(&r, "max_edge_queue") <= 2);
    for torus in ["torus:4x4", "torus:4x4x4"] {
        for paths in [DIRECT, VALIANT] {
            match Simulation::new(instance(torus, None, 1), config(2, paths, 1)) {
                Ok(_) => panic!("{torus} accepted"),
                Err(e) => {
                    let text = e.to_string();
                    assert!(text.contains("lmrr") && text.contains(torus), "{text}");
                    assert!(text.contains("wrap links close a cycle"), "{text}");
                }
            }
        }
    }
}

/// Paths through a random node are drawn in packet order from the
/// algorithm's stream: one seed, one run; another seed, other paths.
#[test]
fn same_seed_same_run_other_seed_other_paths() {
    let run = |seed| {
        let r = run_config(instance("mesh:5x5x5", None, 1), config(2, VALIANT, seed));
        (r.steps, field(&r, "congestion"), field(&r, "ghosts"), r.phases)
    };
    assert_eq!(run(3), run(3));
    assert!((1..=3).any(|s| run(s).1 != run(3).1 || run(s).0 != run(3).0));
}

/// §6's claim, O(d·M), is measured (steps / (d·M)) where the run takes the
/// plateaus — meshes of 3 or more dimensions, 2-D ones with valiant paths
/// — and does not apply to the four phases.
#[test]
fn the_section_6_claim_is_measured_on_plateaus() {
    let claim_on = |topology: &str, workload: &str, extra: &[(Field, &str)]| {
        let mut s = sim_of(topology, "lmrr", workload, extra);
        assert_eq!(s.run(), Status::Finished);
        let steps = s.report().steps;
        let e = explain::explain_run(&s);
        let c = e
            .claims
            .into_iter()
            .find(|c| c.name == "§6 arrays")
            .expect("the §6 claim");
        (steps, c)
    };
    let claim = |topology: &str, extra: &[(Field, &str)]| claim_on(topology, "random-permutation", extra);
    let valiant = [(Field::Paths, "valiant")];
    for (topology, extra, dm) in [
        ("mesh:6x6x6", &[][..], 18.0),
        ("mesh:6x6x6", &valiant[..], 18.0),
        ("mesh:8x8", &valiant[..], 16.0),
        ("mesh:3x5x4x2", &[][..], 20.0),
    ] {
        let (steps, c) = claim(topology, extra);
        assert_eq!(c.verdict, Verdict::Measured, "{topology}: {}", c.line);
        let shown = format!("{steps} = {:.1}·d·M", steps as f64 / dm);
        assert!(c.check.contains(&shown), "{topology}: {} (want {shown})", c.check);
    }
    let (_, c) = claim("mesh:8x8", &[]);
    assert_eq!(c.verdict, Verdict::NotApplicable);
    assert!(c.line.contains("four phases of Theorem 3.1"), "{}", c.line);
    let (_, c) = claim("butterfly:3", &[]);
    assert_eq!(c.verdict, Verdict::NotApplicable);
    // §6 routes at most d packets out of and into each node (the claims
    // audit of 2026-11-30: its constant was measured on any load).
    let loaded = |k: &str| claim_on("mesh:4x4x4", "random-kk", &[(Field::K, k)]).1;
    assert_eq!(loaded("3").verdict, Verdict::Measured);
    let c = loaded("4");
    assert_eq!(c.verdict, Verdict::NotApplicable);
    assert!(
        c.line
            .contains("at most d = 3 packets sent and received per node; this run has ℓ = 4, k = 4"),
        "{}",
        c.line
    );
}

/// The plateaus' paths are bounded before any is built (path_bound): a
/// mesh whose paths through random nodes total more than MAX_PATH_NODES is
/// refused by size, not run out of memory.
#[test]
fn plateau_paths_too_long_in_total_are_refused_by_size() {
    let big = instance("mesh:512x512x8", None, 1);
    match Simulation::new(big, config(2, VALIANT, 1)) {
        Ok(_) => panic!("accepted"),
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.contains("lmrr on mesh:512x512x8") && text.contains("path length"),
                "{text}"
            );
            assert!(text.contains("exceeds the limit 1073741824"), "{text}");
        }
    }
}
