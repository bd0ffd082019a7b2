//! Step-by-step rules of NoWrapRoute and WrapRoute (`ks-nowrap`,
//! `ks-wrap`; Kaufmann–Sibeyn §2, §3, §7.1, §7.3, §8.1, §8.3; SPEC §1, §2),
//! watched from outside the algorithm, one simulated step at a time:
//!
//! - a lone packet moves in every step, one hop along the axis its colour
//!   moves along in the open phase (colour c, phase i: axis c + i with
//!   NoWrapRoute, d − 1 + c + i with WrapRoute, cyclic), the same way all
//!   phase long and the shorter way round a ring; each route phase ends at
//!   the destination's coordinate, and each randomizing phase at a
//!   coordinate uniform over the whole line (WrapRoute: after its d
//!   randomizing phases, at a uniformly random node, Lemma 24);
//! - on a torus, a move of exactly half a ring goes either way at random
//!   with `ks-wrap`, by the id's parity with `ks-nowrap` (SPEC §2);
//! - with many packets and separated phases, every packet's target lies on
//!   its line along its colour's axis of the open phase, and on every
//!   contested link the winner is the one with the largest remaining
//!   distance to its phase target along the link's dimension
//!   (`farthest-first`) or the largest distance travelled from where it
//!   began the phase (`farthest-origin`), the smaller id on a tie.

use routesim::engine::Policy;
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::{SimConfig, Simulation, Status};
use std::collections::{BTreeMap, HashMap};

/// The sides of a mesh or torus and whether it wraps; coordinates
/// row-major, the last fastest (SPEC §2).
struct Geo {
    sides: Vec<u32>,
    wrap: bool,
}

impl Geo {
    fn new(topo: &Topology) -> Geo {
        let g = topo.as_grid().expect("a grid");
        Geo {
            sides: g.dims().to_vec(),
            wrap: g.wraps(),
        }
    }
    fn d(&self) -> usize {
        self.sides.len()
    }
    fn coords(&self, mut node: u32) -> Vec<u32> {
        let mut c = vec![0; self.d()];
        for a in (0..self.d()).rev() {
            c[a] = node % self.sides[a];
            node /= self.sides[a];
        }
        c
    }
    /// Hops from `a` to `b` along `axis` (the shorter way round a ring).
    fn dist(&self, axis: usize, a: u32, b: u32) -> u32 {
        let fwd = (b + self.sides[axis] - a) % self.sides[axis];
        if self.wrap {
            fwd.min(self.sides[axis] - fwd)
        } else {
            a.abs_diff(b)
        }
    }
    /// The axes in which `a` and `b` differ.
    fn differ(&self, a: u32, b: u32) -> Vec<usize> {
        let (ca, cb) = (self.coords(a), self.coords(b));
        (0..self.d()).filter(|&i| ca[i] != cb[i]).collect()
    }
    /// The signed single hop from `a` to `b` along `axis` (±1), if it is one.
    fn hop(&self, axis: usize, a: u32, b: u32) -> Option<i32> {
        let (ca, cb) = (self.coords(a)[axis], self.coords(b)[axis]);
        let side = self.sides[axis];
        if self.wrap {
            if (ca + 1) % side == cb {
                return Some(1);
            }
            if (cb + 1) % side == ca {
                return Some(-1);
            }
            None
        } else if cb == ca + 1 {
            Some(1)
        } else if ca == cb + 1 {
            Some(-1)
        } else {
            None
        }
    }
}

/// The axis colour `c` moves along in phase `i` (0-based).
fn axis(algorithm: &str, d: usize, c: usize, i: usize) -> usize {
    let first = if algorithm == "ks-wrap" { d - 1 } else { 0 };
    (first + c + i) % d
}

fn randomizing(algorithm: &str, d: usize) -> usize {
    if algorithm == "ks-wrap" {
        d
    } else {
        d - 1
    }
}

/// The 0-based index of a phase named `phase{i}-…`.
fn phase_index(name: &str) -> usize {
    let digits: String = name["phase".len()..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse::<usize>().expect("a numbered phase") - 1
}

fn sim(instance: Instance, algorithm: &str, policy: Policy, seed: u64) -> Simulation {
    let config = SimConfig {
        algorithm: algorithm.into(),
        policy,
        seed,
        check_invariants: true,
        ..Default::default()
    };
    Simulation::new(instance, config).expect("valid simulation")
}

/// What a lone packet did: its colour, its position at the end of each
/// phase (a phase that took no step ends where the one before ended), and
/// the moves of each phase (signed hops along the phase's axis).
struct Lone {
    colour: usize,
    ends: Vec<u32>,
    moves: Vec<Vec<i32>>,
    steps: u32,
}

/// Runs a lone packet `from` → `to`, checking every step against the
/// colour's axis of the open phase; returns what it did.
fn lone(name: &str, algorithm: &str, from: u32, to: u32, seed: u64) -> Lone {
    let topo: Topology = name.parse().unwrap();
    let geo = Geo::new(&topo);
    let d = geo.d();
    let count = d + randomizing(algorithm, d);
    let instance = Instance::new(topo, vec![(from, to)]).unwrap();
    let mut s = sim(instance, algorithm, Policy::FarthestFirst, seed);
    let colours = s.report_extra().colours.expect("colours");
    let colour = colours.iter().position(|&n| n == 1).expect("one coloured packet");
    let mut ends = vec![from; count];
    let mut moves = vec![Vec::new(); count];
    let mut last_phase = 0;
    let mut pos = from;
    while s.status() == Status::Running {
        s.step();
        let phase = phase_index(s.engine().stats().current_phase().expect("a phase"));
        assert!(phase >= last_phase, "{algorithm} seed {seed}: phases in order");
        for e in ends.iter_mut().take(phase).skip(last_phase) {
            *e = pos;
        }
        last_phase = phase;
        let now = s.engine().position(0);
        let a = axis(algorithm, d, colour, phase);
        let hop = geo.hop(a, pos, now);
        assert!(
            hop.is_some() && geo.differ(pos, now) == [a],
            "{algorithm} on {name} seed {seed}, colour {colour}, phase {}: {pos} -> {now} is not one hop along axis {a}",
            phase + 1
        );
        moves[phase].push(hop.unwrap());
        pos = now;
    }
    assert_eq!(s.status(), Status::Finished);
    for e in ends.iter_mut().skip(last_phase) {
        *e = pos;
    }
    Lone {
        colour,
        ends,
        moves,
        steps: s.engine().step_count(),
    }
}

/// Per-bin check of a histogram against the uniform distribution: every
/// bin within 4.5σ of its expectation.
fn assert_uniform(what: &str, counts: &[u32]) {
    let n: u32 = counts.iter().sum();
    let bins = counts.len() as f64;
    let expected = n as f64 / bins;
    let sigma = (n as f64 * (1.0 / bins) * (1.0 - 1.0 / bins)).sqrt();
    for (i, &c) in counts.iter().enumerate() {
        assert!(
            (c as f64 - expected).abs() <= 4.5 * sigma,
            "{what}: bin {i} has {c}, expected {expected:.1} ± {sigma:.1}: {counts:?}"
        );
    }
}

/// §7.1, §7.3, §8.1, §8.3: a lone packet takes its colour's phases, one hop
/// per step (it never waits), the same way all phase long and the shorter
/// way round; each route phase ends at the destination's coordinate along
/// its axis; each randomizing phase at a coordinate uniform over the whole
/// line, every colour; WrapRoute's randomizing phases end at a uniformly
/// random node (Lemma 24). Odd sides on tori: no ties here.
#[test]
fn a_lone_packet_takes_its_colour_s_phases_to_uniform_coordinates() {
    for (algorithm, name, seeds) in [
        ("ks-nowrap", "mesh:7x9", 1200),
        ("ks-wrap", "torus:7x9", 1600),
        ("ks-wrap", "mesh:7x9", 600),
        ("ks-nowrap", "torus:5x7", 400),
        ("ks-nowrap", "mesh:3x5x7", 900),
        ("ks-wrap", "torus:3x5x7", 900),
    ] {
        let topo: Topology = name.parse().unwrap();
        let geo = Geo::new(&topo);
        let d = geo.d();
        let r = randomizing(algorithm, d);
        let n: u32 = geo.sides.iter().product();
        // Away from the corners, so that both ways are open.
        let (from, to) = (n / 3, n - 2);
        let dest = geo.coords(to);
        // (colour, randomizing phase) -> histogram of where it ended.
        let mut drawn: BTreeMap<(usize, usize), Vec<u32>> = BTreeMap::new();
        let mut nodes = vec![0u32; n as usize];
        let mut per_colour = vec![0u32; d];
        for seed in 1..=seeds {
            let lone = lone(name, algorithm, from, to, seed);
            let c = lone.colour;
            per_colour[c] += 1;
            let mut start = from;
            let mut hops = 0;
            for (i, &end) in lone.ends.iter().enumerate() {
                let a = axis(algorithm, d, c, i);
                let moves = &lone.moves[i];
                let what = format!("{algorithm} on {name} seed {seed} colour {c} phase {}", i + 1);
                assert!(moves.windows(2).all(|w| w[0] == w[1]), "{what}: turned back {moves:?}");
                assert_eq!(
                    moves.len() as u32,
                    geo.dist(a, geo.coords(start)[a], geo.coords(end)[a]),
                    "{what}: not the shorter way"
                );
                assert!(geo.differ(start, end).len() <= 1, "{what}");
                if i >= r && end != to {
                    assert_eq!(
                        geo.coords(end)[a],
                        dest[a],
                        "{what}: not at the destination's coordinate"
                    );
                }
                // (A packet passing its destination while randomizing is
                // delivered there, SPEC §1: rare with these ends, and
                // counted where it stopped.)
                if i < r {
                    let side = geo.sides[a] as usize;
                    drawn.entry((c, i)).or_insert_with(|| vec![0; side])[geo.coords(end)[a] as usize] += 1;
                }
                hops += moves.len() as u32;
                start = end;
            }
            assert_eq!(lone.ends[lone.ends.len() - 1], to);
            assert_eq!(lone.steps, hops, "{algorithm} on {name} seed {seed}: an idle step");
            if algorithm == "ks-wrap" {
                nodes[lone.ends[r - 1] as usize] += 1;
            }
        }
        assert_uniform(&format!("{algorithm} on {name}: colours"), &per_colour);
        for ((c, i), counts) in &drawn {
            assert_uniform(
                &format!("{algorithm} on {name}: colour {c}, randomizing phase {}", i + 1),
                counts,
            );
        }
        assert_eq!(drawn.len(), d * r, "{algorithm} on {name}: every colour randomizes");
        if algorithm == "ks-wrap" && geo.wrap && d == 2 {
            assert!(
                nodes.iter().all(|&k| k > 0),
                "{algorithm} on {name}: Lemma 24 {nodes:?}"
            );
            assert_uniform(&format!("{algorithm} on {name}: nodes after randomizing"), &nodes);
        }
    }
}

/// SPEC §2: on torus:8x8 a move of exactly 4 along a ring goes either way
/// at random with `ks-wrap` (each phase drawn apart, the same packet id 0
/// every time), and the positive way for the even id 0 with `ks-nowrap`.
#[test]
fn a_half_ring_move_goes_a_random_way_with_ks_wrap_only() {
    let name = "torus:8x8";
    // From (1, 1) to (5, 5): the route phases of a packet still on its
    // source's coordinate are ties; randomizing draws make more.
    let (from, to) = (9, 45);
    for algorithm in ["ks-wrap", "ks-nowrap"] {
        let mut ways: HashMap<i32, u32> = HashMap::new();
        for seed in 1..=400 {
            let lone = lone(name, algorithm, from, to, seed);
            for moves in &lone.moves {
                if moves.len() == 4 {
                    *ways.entry(moves[0]).or_default() += 1;
                }
            }
        }
        let (pos, neg) = (ways.get(&1).copied().unwrap_or(0), ways.get(&-1).copied().unwrap_or(0));
        let ties = pos + neg;
        assert!(ties >= 100, "{algorithm}: {ties} ties");
        if algorithm == "ks-wrap" {
            let sigma = (ties as f64 / 4.0).sqrt();
            assert!(
                (pos as f64 - ties as f64 / 2.0).abs() <= 4.0 * sigma,
                "{algorithm}: {pos} positive of {ties}"
            );
        } else {
            assert_eq!(neg, 0, "{algorithm}: SPEC §2's parity rule for id 0");
        }
    }
}

/// Separated phases, many packets: in every step every undelivered
/// packet's target lies on its line along its colour's axis of the open
/// phase (its colour read off its first phase that moves it, then held to),
/// a route phase's target at the destination's coordinate; and on every
/// contested link exactly one packet crosses, the one with the largest key
/// of the run's policy (farthest-first: hops left to its phase target along
/// the link's dimension; farthest-origin: hops from where it began the
/// phase), the smaller id on a tie. Meshes and odd-sided tori (no ring ties,
/// so the way round is the shorter one).
#[test]
fn contention_goes_by_the_phase_s_distances_on_the_colour_s_axis() {
    for (algorithm, name, k) in [
        ("ks-nowrap", "mesh:9x9", 6),
        ("ks-wrap", "torus:9x9", 6),
        ("ks-wrap", "mesh:9x7", 4),
        ("ks-nowrap", "torus:7x9", 4),
        ("ks-nowrap", "mesh:5x5x5", 3),
        ("ks-wrap", "torus:5x5x5", 3),
    ] {
        for policy in [Policy::FarthestFirst, Policy::FarthestOrigin] {
            for (workload, seed) in [(Workload::RandomKk, 3), (Workload::PointReflection, 4)] {
                contention_run(algorithm, name, k, policy, workload, seed);
            }
        }
    }
}

/// A directed link: (node, axis, way ±1).
type Link = (u32, usize, i32);
/// A bid for a link: (policy key, packet id, whether it crossed).
type Bid = (u32, u32, bool);

fn contention_run(algorithm: &str, name: &str, k: u32, policy: Policy, workload: Workload, seed: u64) {
    let topo: Topology = name.parse().unwrap();
    let geo = Geo::new(&topo);
    let d = geo.d();
    let r = randomizing(algorithm, d);
    let spec = WorkloadSpec {
        k: Some(k),
        ..WorkloadSpec::new(workload, seed)
    };
    let instance = generate(&topo, &spec).unwrap();
    let packets = instance.packets.len();
    let mut s = sim(instance, algorithm, policy, seed);
    let e = s.engine();
    let mut pos: Vec<u32> = (0..packets as u32).map(|p| e.position(p)).collect();
    let mut target: Vec<Option<u32>> = vec![None; packets];
    let mut start: Vec<u32> = pos.clone();
    let mut colour: Vec<Option<usize>> = vec![None; packets];
    let mut contested = 0u32;
    while s.status() == Status::Running {
        let live: Vec<u32> = (0..packets as u32).filter(|&p| !s.engine().is_delivered(p)).collect();
        s.step();
        let e = s.engine();
        let phase = phase_index(e.stats().current_phase().expect("a phase"));
        let what = |p: u32| {
            format!(
                "{algorithm} on {name}, {policy}, {workload} seed {seed}, step {}, packet {p}",
                e.step_count()
            )
        };
        let mut links: BTreeMap<Link, Vec<Bid>> = BTreeMap::new();
        for &p in &live {
            let i = p as usize;
            let (at, t) = (pos[i], e.target(p));
            if target[i] != Some(t) {
                target[i] = Some(t);
                start[i] = at;
            }
            let now = e.position(p);
            let axes = geo.differ(at, t);
            assert!(axes.len() <= 1, "{}: target {t} off its line from {at}", what(p));
            if let Some(&a) = axes.first() {
                let c = (a + 3 * d - phase - if algorithm == "ks-wrap" { d - 1 } else { 0 }) % d;
                let c = *colour[i].get_or_insert(c);
                assert_eq!(
                    a,
                    axis(algorithm, d, c, phase),
                    "{}: colour {c} on the wrong axis",
                    what(p)
                );
                if phase >= r {
                    assert_eq!(
                        geo.coords(t)[a],
                        geo.coords(e.destination(p))[a],
                        "{}: route target",
                        what(p)
                    );
                }
                let (ca, ct) = (geo.coords(at)[a], geo.coords(t)[a]);
                let side = geo.sides[a];
                let way = if geo.wrap {
                    if (ct + side - ca) % side <= side / 2 {
                        1
                    } else {
                        -1
                    }
                } else if ct > ca {
                    1
                } else {
                    -1
                };
                let key = match policy {
                    Policy::FarthestFirst => geo.dist(a, ca, ct),
                    _ => geo.dist(a, geo.coords(start[i])[a], ca),
                };
                let crossed = now != at;
                if crossed {
                    assert_eq!(geo.hop(a, at, now), Some(way), "{}: {at} -> {now}", what(p));
                }
                links.entry((at, a, way)).or_default().push((key, p, crossed));
            } else {
                assert_eq!(now, at, "{}: moved while at its target", what(p));
            }
        }
        for (link, bidders) in &links {
            let crossed: Vec<u32> = bidders.iter().filter(|b| b.2).map(|b| b.1).collect();
            let best = bidders.iter().max_by_key(|b| (b.0, std::cmp::Reverse(b.1))).unwrap();
            assert_eq!(
                crossed,
                [best.1],
                "{}: link {link:?}, bidders (key, id, crossed) {bidders:?}",
                what(best.1)
            );
            contested += (bidders.len() > 1) as u32;
        }
        pos = (0..packets as u32).map(|p| e.position(p)).collect();
    }
    assert_eq!(s.status(), Status::Finished);
    assert!(
        contested > 100,
        "{algorithm} on {name}: only {contested} contested links"
    );
}

/// §3, coalescing phases: a packet starts its next phase as soon as it
/// finished one, so in no step does an undelivered packet sit at the
/// target of its phase (its last target is its destination); with the
/// default, separated phases, packets do wait at the barriers. Either way
/// a packet's target lies on one line through it.
#[test]
fn coalesced_phases_never_park_a_packet_and_separated_ones_do() {
    for (algorithm, name, k) in [
        ("ks-nowrap", "mesh:9x9", 4),
        ("ks-wrap", "torus:8x8", 4),
        ("ks-nowrap", "mesh:4x5x6", 3),
        ("ks-wrap", "torus:5x5x5", 3),
    ] {
        let topo: Topology = name.parse().unwrap();
        let geo = Geo::new(&topo);
        let spec = WorkloadSpec {
            k: Some(k),
            ..WorkloadSpec::new(Workload::RandomKk, 2)
        };
        let instance = generate(&topo, &spec).unwrap();
        let packets = instance.packets.len() as u32;
        for coalesced in [false, true] {
            let config = SimConfig {
                algorithm: algorithm.into(),
                seed: 2,
                check_invariants: true,
                options: AlgorithmOptions {
                    pipeline: coalesced,
                    ..Default::default()
                },
                ..Default::default()
            };
            let mut s = Simulation::new(instance.clone(), config).unwrap();
            let mut parked = 0u64;
            while s.status() == Status::Running {
                let before: Vec<(u32, u32)> = (0..packets)
                    .filter(|&p| !s.engine().is_delivered(p))
                    .map(|p| (p, s.engine().position(p)))
                    .collect();
                s.step();
                let e = s.engine();
                for &(p, at) in &before {
                    let t = e.target(p);
                    assert!(
                        geo.differ(at, t).len() <= 1,
                        "{algorithm} on {name}: {p} at {at}, target {t}"
                    );
                    parked += (t == at) as u64;
                }
            }
            assert_eq!(s.status(), Status::Finished);
            if coalesced {
                assert_eq!(
                    parked, 0,
                    "{algorithm} on {name}: coalesced, a packet waited at its target"
                );
            } else {
                assert!(
                    parked > 0,
                    "{algorithm} on {name}: separated, nobody waited at a barrier"
                );
            }
        }
    }
}
