//! `lmrr`: Leighton–Maggs–Ranade–Rao, *Randomized routing and sorting on
//! fixed-connection networks* (`leighton-maggs-ranade-rao-randomized-routing-sorting.txt`):
//! rank scheduling with ghost packets on a leveled network (§2.2), routing in
//! O(c + L + log N) steps with edge queues of constant size q, with high
//! probability (Theorem 2.9; c the congestion of the paths, L the depth of
//! the leveled network, N the number of packets).
//!
//! The real networks are routed as leveled networks with fixed paths:
//! - the 2-D mesh in four phases, up-right, up-left, down-right, down-left,
//!   each on the links pointing its way (§3, Theorem 3.1; [`mesh`]);
//! - the d-dimensional mesh (d ≥ 3, or 2-D with `--paths valiant`) on §6's
//!   leveled network of plateaus, one dimension corrected per plateau, to
//!   the destination (direct paths) or through a random intermediate node
//!   and on to the destination (`--paths valiant`), two real steps per
//!   logical step with both passes ([`plateau`]);
//! - the butterfly on its own levels with direct paths (§4, Theorem 4.2), or
//!   with `--paths valiant` on the logical network of 4·log n + 1 levels of
//!   Theorem 4.1 (Valiant paths through a random row), two real steps per
//!   logical step ([`butterfly`]);
//! - the hypercube through its emulation of the butterfly, direct (bit
//!   fixing) or Valiant paths ([`butterfly`]);
//! - the shuffle-exchange on its good labels through a random good
//!   necklace, bad labels' packets to and from good ones in phases of
//!   their own (§5; [`shuffle_exchange`]); there a packet takes part in
//!   several rounds, one after the other.
//!
//! The scheduler ([`scheduler`]) keeps its own initial and edge queues and
//! decides every move; the engine carries them out — packets by scripted
//! moves ([`Engine::force_move`]), ghosts and end-of-stream markers as
//! control messages ([`Engine::send_control_as`]), each taking its link for
//! the step (SPEC §1) — so the engine enforces one message per directed link
//! per step and counts the steps.
//!
//! Ranks are drawn uniformly from [1, R] with R = c + ℓ + ⌈log₂ N⌉, c the
//! congestion of the leveled network routed and ℓ its longest path
//! (`dilation`; each mesh phase its own), or R = `--ranks`. Theorem 2.9
//! needs R ≥ w = Θ(c + L + log N) with L the network's depth; ℓ = L on
//! the butterfly's and hypercube's routings, and ℓ < L only where paths
//! are short (local or partial workloads): a choice of the constant, kept
//! (the claim judged on the panel uses the depth, `claims.rs`). Edge queues hold q = `--queue-cap` messages (default 2), one
//! queue per leveled edge: where a real link carries two leveled edges
//! (Valiant paths) its receiving node holds two queues of q for it, the
//! paper's emulation of the logical network of Theorem 4.1.
//!
//! The report's `congestion` is SPEC §5's: the most paths over one directed
//! link of the real network, the whole run (`leveled_congestion` is
//! Theorem 2.9's c per leveled network).
//!
//! # Complexity
//! Building the leveled network and the paths is O(nodes · levels + total
//! path length); every logical step costs O(nodes + edges) of the leveled
//! network.

pub(crate) mod butterfly;
pub(crate) mod hop_leveled;
pub(crate) mod leveled;
mod mesh;
mod plateau;
pub(crate) mod round;
pub(crate) mod scheduler;
pub mod shuffle_exchange;
mod teaching;

pub use teaching::TEACHING;

use super::papers::LMRR;
use super::{Algorithm, AlgorithmOptions, EdgeQueues, Mark};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::options::Field;
use crate::report::{Extra, LmrrFields};
use crate::rng::{Rng, Stream};
use crate::topology::Kind;
use crate::topology::{Network, Topology};
use crate::workload::Instance;
use butterfly::{Layered, Net};
use leveled::{Description, NONE};
use plateau::Plateaus;
use scheduler::{Counts, Problem, Scheduler};
use std::sync::Arc;

/// Bytes of a run's paths per path node, at most (the memory check before
/// they are built; measured 10–15 on meshes).
const PATH_NODE_BYTES: u64 = 16;
/// Bytes per logical node of a round's leveled network, at most (measured
/// 90–150 on butterflies and hypercubes, D = 16).
const LOGICAL_NODE_BYTES: u64 = 160;

/// The default capacity of an edge queue (SPEC §5).
pub const DEFAULT_QUEUE_CAP: u32 = 2;
/// The largest edge-queue capacity accepted.
pub const MAX_QUEUE_CAP: u32 = 64;
pub use crate::options::{PathChoice, MAX_RANKS};
/// The most path nodes, summed over the packets, that lmrr stores: its
/// paths are explicit, 10–15 bytes per node, so the total path length
/// (not the node count) bounds its memory. On a side × side mesh a
/// permutation's paths total about N·(2/3)·side nodes: side 1024 fits,
/// side 2048 (tens of GB) is refused instead of exhausting memory.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_PATH_NODES: u64 = 1 << 30;
/// The browser's bound on the total path length (see the native one):
/// 2^24 path nodes keep one run near 150 MB (mesh:256x256, about 11 M path
/// nodes, takes 135 MB natively), and the page's timeline keeps at least
/// two more copies of it; mesh:512x512 (89 M, 950 MB a copy) is refused.
#[cfg(target_arch = "wasm32")]
pub const MAX_PATH_NODES: u64 = 1 << 24;

/// The most logical nodes lmrr's leveled networks may have, summed over
/// its rounds: natively the path bound and the memory check are the
/// limits; in the browser each copy of the run's schedulers (the timeline
/// keeps at least five) holds their edge queues, so 2^22 (hypercube:17
/// with direct paths, 2.4 M logical nodes, peaked at 0.75 GiB of wasm
/// memory; hypercube:18, 5.0 M, at 1.5 GiB, past the page's budget).
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_LOGICAL_NODES: u64 = 1 << 32;
/// The browser's bound (see the native one).
#[cfg(target_arch = "wasm32")]
pub const MAX_LOGICAL_NODES: u64 = 1 << 22;

/// `lmrr`: the §2.2 scheduler on leveled views of the mesh, the butterfly
/// and the hypercube.
#[derive(Clone)]
pub struct Lmrr {
    seed: u64,
    q: u32,
    ranks: Option<u32>,
    paths: PathChoice,
    combine: bool,
    rounds: Vec<Scheduler>,
    /// R of each round.
    round_ranks: Vec<u32>,
    current: usize,
    /// The round whose ranks the packets' classes show.
    classed: usize,
    substep: u8,
    progress: bool,
    phase: &'static str,
    fields: LmrrFields,
    /// Ports per node of the real network (for link ids).
    ports: u32,
    /// Directed links of the real network (nodes · ports).
    links: u32,
}

impl Lmrr {
    /// Reads the seed, `queue_cap` (q), `ranks` (R), `paths` and `combine`.
    pub fn new(options: &AlgorithmOptions) -> Self {
        Lmrr {
            seed: options.seed,
            q: options.queue_cap.unwrap_or(DEFAULT_QUEUE_CAP),
            ranks: options.ranks,
            paths: options.paths,
            combine: options.combine,
            rounds: Vec::new(),
            round_ranks: Vec::new(),
            current: 0,
            classed: 0,
            substep: 0,
            progress: false,
            phase: "",
            fields: LmrrFields::default(),
            ports: 0,
            links: 0,
        }
    }

    /// The scheduler of the round in progress, if any.
    fn round(&mut self) -> Option<&mut Scheduler> {
        self.rounds.get_mut(self.current)
    }

    /// Builds every round's leveled network, paths, ranks and scheduler
    /// (rounds run one after the other; a packet may take part in several,
    /// each path starting where the last ended).
    fn schedule(
        &mut self,
        rounds: Vec<Round>,
        engine: &mut Engine,
        topo: &Topology,
        rng: &mut Rng,
        active: &[u32],
    ) -> Result<()> {
        let n = active.len().max(1) as u32;
        let log_n = n.next_power_of_two().trailing_zeros();
        let check = engine.config().check_invariants;
        let mut classed = vec![false; engine.packet_count() as usize];
        let mut fields = LmrrFields {
            log_n,
            edge_queue_cap: self.q,
            good_fraction: self.fields.good_fraction,
            ..LmrrFields::default()
        };
        for round in rounds {
            if round.packets.is_empty() {
                continue;
            }
            let Some(laid) = round::lay_out(round.desc, &round.packets, engine) else {
                continue;
            };
            let round::Laid {
                net,
                paths,
                ids,
                dest,
                lo,
                hi,
            } = laid;
            // With combining, packets for one destination count once on an
            // edge (§2.3.1's congestion), and the rank is a hash of the
            // destination, so that such packets have one rank.
            let c = if self.combine {
                paths.congestion_by_destination(net.edges(), &dest)
            } else {
                paths.congestion(net.edges())
            };
            let l = paths.dilation();
            let r = self.ranks.unwrap_or(c + l + log_n).max(1);
            let rank: Vec<u32> = if self.combine {
                let hash = RankHash::new(topo.nodes(), log_n.max(1), r, rng);
                dest.iter().map(|&d| 1 + hash.rank(d)).collect()
            } else {
                (0..ids.len()).map(|_| 1 + rng.below(r)).collect()
            };
            // Rank as colour: the quarter of [1, R] it falls in (of the
            // first round a packet takes part in; set again as each round
            // begins, `before_step`).
            for (&p, &k) in ids.iter().zip(&rank) {
                if !classed[p as usize] {
                    classed[p as usize] = true;
                    engine.set_class(p, quarter(k, r));
                }
            }
            self.round_ranks.push(r);
            fields.leveled_congestion = fields.leveled_congestion.max(c);
            fields.dilation = fields.dilation.max(l);
            fields.levels = fields.levels.max(hi - lo + 1);
            fields.ranks = fields.ranks.max(r);
            let problem = Problem {
                net: Arc::new(net),
                paths: Arc::new(paths),
                ids,
                rank,
                dest,
                stages: round.stages.clone(),
            };
            self.rounds.push(Scheduler::new(problem, self.q, self.combine, check));
        }
        self.ports = topo.ports();
        self.links = topo.nodes() * topo.ports();
        fields.congestion = self.link_congestion();
        self.fields = fields;
        for &p in active {
            engine.set_eligible(p, false);
        }
        // The first phase is named from step 0 on (the page shows it before
        // the first step).
        if let Some(round) = self.rounds.first() {
            self.phase = round.stage();
            engine.begin_phase(self.phase);
        }
        Ok(())
    }

    /// SPEC §5's `congestion`: the most paths that use one directed link
    /// of the real network, over the whole run — the mesh's four phases
    /// together (an up link serves the up-right and the up-left phase), both
    /// leveled edges of a link that carries two (Valiant paths), and no
    /// internal edge of the hypercube's emulation (it uses no link). With
    /// combining, packets for one destination count once on a link
    /// (§2.3.1's congestion). Theorem 2.9's c, per leveled network, is
    /// `leveled_congestion`; it is what sets R.
    fn link_congestion(&self) -> u32 {
        let mut load = vec![0u32; self.links as usize];
        // (destination, round, packet), in destination order when
        // combining, so that a link counts each destination once.
        let mut order: Vec<(u32, u32, u32)> = Vec::new();
        for (k, round) in self.rounds.iter().enumerate() {
            let dest = &round.problem().dest;
            order.extend(dest.iter().enumerate().map(|(i, &d)| (d, k as u32, i as u32)));
        }
        if self.combine {
            order.sort_unstable();
        }
        let mut last = vec![NONE; if self.combine { self.links as usize } else { 0 }];
        for (d, k, i) in order {
            let problem = self.rounds[k as usize].problem();
            let net = &problem.net;
            for &e in problem.paths.of(i as usize) {
                let port = net.port[e as usize];
                if port == NONE {
                    continue;
                }
                let link = (net.host[net.tail[e as usize] as usize] * self.ports + port) as usize;
                if self.combine {
                    if last[link] == d {
                        continue;
                    }
                    last[link] = d;
                }
                load[link] += 1;
            }
        }
        load.into_iter().max().unwrap_or(0)
    }
}

/// One round to set up: a leveled network and the packets (engine ids) it routes.
struct Round<'a> {
    desc: &'a dyn Description,
    /// (engine id, node path as full logical ids).
    packets: Vec<(u32, Vec<u32>)>,
    stages: Vec<(&'static str, u32)>,
}

impl Algorithm for Lmrr {
    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        if !(1..=MAX_QUEUE_CAP).contains(&self.q) {
            return Err(Error::invalid(
                "queue-cap",
                self.q,
                format!("lmrr's edge queues hold 1 to {MAX_QUEUE_CAP} packets"),
            ));
        }
        let active = engine.active();
        let mut rng = Rng::new(self.seed, Stream::Algorithm);
        let topo = instance.topology.clone();
        let (descs, rounds_of): (Vec<Box<dyn DescriptionPaths>>, Vec<usize>) = match &topo {
            Topology::Grid(g) => {
                // Meshes of 2 or more dimensions (the registry's refusal of
                // the others, tori with their reason).
                ENTRY.check_topology(&topo)?;
                match topo.mesh2d() {
                    Some((rows, cols)) if self.paths == PathChoice::Direct => {
                        let descs: Vec<Box<dyn DescriptionPaths>> = (0..4)
                            .map(|k| Box::new(mesh::MeshPhase::new(rows, cols, k)) as Box<dyn DescriptionPaths>)
                            .collect();
                        let rounds_of = active
                            .iter()
                            .map(|&p| mesh::phase_of(cols, engine.source(p), engine.destination(p)))
                            .collect();
                        (descs, rounds_of)
                    }
                    // §6's plateaus: direct paths in 3 or more dimensions,
                    // Valiant paths in any.
                    _ => {
                        let net = Plateaus::new(g.dims(), self.paths == PathChoice::Valiant);
                        (vec![Box::new(net) as Box<dyn DescriptionPaths>], vec![0; active.len()])
                    }
                }
            }
            Topology::Butterfly(b) => {
                let net = if self.paths == PathChoice::Valiant {
                    Net::ButterflyValiant
                } else {
                    Net::ButterflyDirect
                };
                (
                    vec![Box::new(Layered::new(net, b.dim())) as Box<dyn DescriptionPaths>],
                    vec![0; active.len()],
                )
            }
            Topology::ShuffleExchange(g) => {
                let packets: Vec<_> = active
                    .iter()
                    .map(|&p| (p, engine.source(p), engine.destination(p)))
                    .collect();
                let mut plan = shuffle_exchange::start(g, self, &packets, &mut rng)?;
                self.fields.good_fraction = Some(plan.good_fraction);
                return self.schedule(plan.rounds(), engine, &topo, &mut rng, &active);
            }
            Topology::Hypercube(h) => {
                let net = if self.paths == PathChoice::Valiant {
                    Net::HypercubeValiant
                } else {
                    Net::HypercubeDirect
                };
                (
                    vec![Box::new(Layered::new(net, h.dim())) as Box<dyn DescriptionPaths>],
                    vec![0; active.len()],
                )
            }
        };
        // The paths' total length, bounded before any is built.
        let path_nodes: u64 = active
            .iter()
            .zip(&rounds_of)
            .map(|(&p, &k)| descs[k].path_bound(engine.source(p), engine.destination(p)))
            .sum();
        if path_nodes > MAX_PATH_NODES {
            return Err(Error::TooLarge {
                field: format!(
                    "lmrr on {topo}: total path length of the {} packets (nodes)",
                    active.len()
                ),
                value: path_nodes,
                limit: MAX_PATH_NODES,
            });
        }
        // The paths and the leveled networks are the run's largest
        // allocations and are not in the estimate made before the workload
        // exists (src/memory.rs): their bytes are tried in one block now,
        // so that a machine without them gives a message, not an abort.
        // Measured as whole-process peaks less the engine (random
        // permutations): 10–15 bytes per path node on meshes (the node, its
        // share of the per-packet vectors and the schedule's; 2-D direct
        // and 3-D plateaus, sides 16–256), and on butterflies and
        // hypercubes, whose networks are built level by level, 90–150 bytes
        // per logical node (D = 16, direct and Valiant paths). Before the
        // networks were counted, lmrr on butterfly:17 with Valiant paths
        // under a 800 MB limit aborted.
        let logical: u64 = descs.iter().map(|d| u64::from(d.description().count())).sum();
        if logical > MAX_LOGICAL_NODES {
            return Err(Error::TooLarge {
                field: format!("lmrr on {topo}: logical nodes of its leveled networks"),
                value: logical,
                limit: MAX_LOGICAL_NODES,
            });
        }
        let bytes = path_nodes
            .saturating_mul(PATH_NODE_BYTES)
            .saturating_add(logical.saturating_mul(LOGICAL_NODE_BYTES));
        crate::error::try_headroom(bytes, "lmrr's paths", &topo)?;
        let rows = match &topo {
            Topology::Butterfly(b) => b.rows(),
            Topology::Hypercube(h) => 1 << h.dim(),
            Topology::Grid(_) => topo.nodes(),
            Topology::ShuffleExchange(_) => 1,
        };
        // Paths (random intermediates — a row, a node — drawn in packet order), cut where the
        // packet reaches its destination.
        let mut rounds: Vec<Round> = descs
            .iter()
            .map(|d| Round {
                desc: d.description(),
                packets: Vec::new(),
                stages: d.stages(),
            })
            .collect();
        for (&p, &k) in active.iter().zip(&rounds_of) {
            let via = if self.paths == PathChoice::Valiant {
                rng.below(rows)
            } else {
                0
            };
            let (src, dest) = (engine.source(p), engine.destination(p));
            let mut nodes = Vec::new();
            descs[k].path(src, dest, via, &mut nodes);
            let desc = rounds[k].desc;
            match nodes.iter().position(|&v| desc.host(v) == dest) {
                Some(end) => nodes.truncate(end + 1),
                None => {
                    return Err(Error::unsupported(
                        self.name(),
                        format!("packet {p} from node {src} to node {dest} has no path through increasing levels of {topo} (direct paths go from a lower level to a higher one; try --paths valiant)"),
                    ))
                }
            }
            rounds[k].packets.push((p, nodes));
        }
        self.schedule(rounds, engine, &topo, &mut rng, &active)
    }

    fn before_step(&mut self, engine: &mut Engine) {
        if self.substep == 0 {
            while self.round().is_some_and(|r| r.remaining() == 0) {
                self.current += 1;
            }
            let Some(round) = self.rounds.get_mut(self.current) else {
                return;
            };
            if self.classed != self.current {
                self.classed = self.current;
                let (problem, r) = (round.problem(), self.round_ranks[self.current]);
                for (&p, &k) in problem.ids.iter().zip(&problem.rank) {
                    engine.set_class(p, quarter(k, r));
                }
            }
            let stage = round.stage();
            if stage != self.phase {
                engine.begin_phase(stage);
                self.phase = stage;
            }
            self.progress = round.step();
            engine.note_control_queue(round.counts().max_ctrl_queue);
            // Combined packets leave their queues when their carrier leaves.
            let ids = &round.problem().ids;
            for &(a, c) in round.absorbed() {
                engine.combine(ids[a as usize], ids[c as usize]);
            }
        }
        let Some(round) = self.rounds.get_mut(self.current) else {
            return;
        };
        round::carry_out(round, self.substep, engine);
        if self.progress {
            engine.mark_busy();
        }
        let substeps = round.problem().net.substeps;
        self.substep = (self.substep + 1) % substeps;
    }

    fn uses_policy(&self) -> bool {
        false
    }

    fn queue_cap(&self) -> Option<u32> {
        Some(self.q)
    }

    fn marks(&self) -> &'static [Mark] {
        &[Mark::Ghost, Mark::EndOfStream, Mark::EdgeQueue]
    }

    /// The edge queues, each leveled edge counted on the real link it uses
    /// (internal edges of the hypercube's emulation take none).
    /// The scheduler decides a logical step before its real steps, so with
    /// two real steps per logical step (Valiant paths) the second real
    /// step's arrivals show one step early.
    ///
    /// Only the round under way (the rounds run one after another: a 2-D
    /// mesh's four phases): a link two phases use holds q per leveled edge
    /// of the phase routing, not of both (an audit saw room for 2q drawn).
    /// Once every round is over, the last one's (empty) queues.
    fn edge_queues(&self) -> Option<EdgeQueues> {
        let mut queues = EdgeQueues::empty(self.q, self.links);
        if let Some(r) = self.rounds.get(self.current).or(self.rounds.last()) {
            round::add_edge_occupancy(r, self.ports, &mut queues);
        }
        Some(queues)
    }

    fn copy_bytes(&self) -> usize {
        self.rounds.iter().map(Scheduler::copy_bytes).sum()
    }

    fn report_extra(&self) -> Extra {
        let counts = self.rounds.iter().fold(Counts::default(), |a, r| {
            let b = r.counts();
            Counts {
                combined: a.combined + b.combined,
                ghosts: a.ghosts + b.ghosts,
                eos: a.eos + b.eos,
                max_edge_queue: a.max_edge_queue.max(b.max_edge_queue),
                max_ctrl_queue: a.max_ctrl_queue.max(b.max_ctrl_queue),
            }
        });
        Extra {
            lmrr: Some(LmrrFields {
                ghosts: counts.ghosts,
                eos: counts.eos,
                max_edge_queue: counts.max_edge_queue,
                combined: self.combine.then_some(counts.combined),
                ..self.fields.clone()
            }),
            ..Extra::default()
        }
    }
}

/// The drawing class of rank `k` of [1, R]: the quarter it falls in.
fn quarter(k: u32, r: u32) -> u8 {
    ((k - 1) as u64 * 4 / r as u64) as u8
}

/// The universal hash of §2.3.1 that gives all packets for one
/// destination the same rank: rank(x) = ((Σ_{i<m} a_i·x^i) mod P) mod R,
/// P the smallest prime above the number of destinations (nodes), the a_i
/// drawn uniformly from [0, P): m-wise independent (m = ⌈log₂ N⌉ here, the
/// paper's "log N-wise independence is enough").
struct RankHash {
    p: u64,
    r: u64,
    a: Vec<u64>,
}

impl RankHash {
    fn new(nodes: u32, m: u32, r: u32, rng: &mut Rng) -> RankHash {
        let is_prime = |n: u64| n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d));
        let p = (nodes as u64 + 1..)
            .find(|&n| is_prime(n))
            .expect("primes are unbounded");
        let a = (0..m).map(|_| rng.below(p as u32) as u64).collect();
        RankHash { p, r: r as u64, a }
    }

    /// The rank (in [0, R)) of destination `x`, by Horner's rule mod P.
    fn rank(&self, x: u32) -> u32 {
        let x = x as u64 % self.p;
        let h = self.a.iter().rev().fold(0u64, |acc, &a| (acc * x + a) % self.p);
        (h % self.r) as u32
    }
}

/// A network description that also gives paths and stage names.
trait DescriptionPaths {
    fn description(&self) -> &dyn Description;
    fn path(&self, src: u32, dest: u32, via: u32, out: &mut Vec<u32>);
    /// At least the number of nodes [`DescriptionPaths::path`] pushes.
    fn path_bound(&self, src: u32, dest: u32) -> u64;
    fn stages(&self) -> Vec<(&'static str, u32)>;
}

impl DescriptionPaths for mesh::MeshPhase {
    fn description(&self) -> &dyn Description {
        self
    }
    fn path(&self, src: u32, dest: u32, _via: u32, out: &mut Vec<u32>) {
        mesh::MeshPhase::path(self, src, dest, out)
    }
    fn path_bound(&self, src: u32, dest: u32) -> u64 {
        mesh::MeshPhase::path_len(self, src, dest)
    }
    fn stages(&self) -> Vec<(&'static str, u32)> {
        vec![(self.name(), u32::MAX)]
    }
}

impl DescriptionPaths for Plateaus {
    fn description(&self) -> &dyn Description {
        self
    }
    fn path(&self, src: u32, dest: u32, via: u32, out: &mut Vec<u32>) {
        Plateaus::path(self, src, dest, via, out)
    }
    fn path_bound(&self, src: u32, dest: u32) -> u64 {
        self.path_len(src, dest)
    }
    fn stages(&self) -> Vec<(&'static str, u32)> {
        Plateaus::stages(self)
    }
}

impl DescriptionPaths for Layered {
    fn description(&self) -> &dyn Description {
        self
    }
    fn path(&self, src: u32, dest: u32, via: u32, out: &mut Vec<u32>) {
        Layered::path(self, src, dest, via, out)
    }
    fn path_bound(&self, _src: u32, _dest: u32) -> u64 {
        // A path climbs one level per node.
        self.levels() as u64
    }
    fn stages(&self) -> Vec<(&'static str, u32)> {
        Layered::stages(self)
    }
}

/// The SPEC §5 name.
pub const NAME: &str = "lmrr";

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "random ranks, smallest first, with ghosts and end-of-stream on a leveled network; edge queues of q",
    paper: LMRR,
    section: "§2.2 (the algorithm; Theorem 2.9 in §2.3); §3 meshes (Theorem 3.1); §4 butterflies (Theorems 4.1, 4.2); §5 shuffle-exchange; §6 d-dimensional meshes",
    kinds: &[Kind::Mesh, Kind::Butterfly, Kind::Hypercube, Kind::ShuffleExchange],
    shape: Shape::GridsMultiD,
    packets: Packets::Any,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Ranks, Field::Paths, Field::Combine],
    teaching: &TEACHING,
    factory: |o| Box::new(Lmrr::new(o)),
    state_bytes: None,
    size_check: Some(shuffle_exchange::check_size),
};
