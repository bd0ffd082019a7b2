//! NoLRoute (Kaufmann–Sibeyn, *Randomized multi-packet routing on meshes*,
//! §9.2 "Local information only", Theorem 15): k-k routing with locality L
//! when L is *not* known — each node knows only the destinations of its own
//! packets. It is `ks-local` run with `--locality unknown` (SPEC §5 fixes
//! the names; `ks_local.rs` dispatches here).
//!
//! The paper's steps, on an n×n torus (§9.2 assumes the wrap-around; a
//! mesh is refused, naming the option):
//!
//! - **1.a** Every node P computes L_P, the largest move along one axis of
//!   a packet it holds (ring distance), and sends an *information packet*
//!   with it in all four directions; a node receiving L′ ≥ 2·L_P takes L_P
//!   := L′ and sends L′ on in all four directions, else drops the packet.
//!   Information packets are control messages (SPEC §1): each uses its
//!   directed link for one step, and has priority over the packets (the
//!   link is reserved before the packets bid). One hop per step.
//! - **1.b**, coalesced with 1.a: every green packet moves along its column
//!   to row i + x_p, x_p uniform in {−⌊8n/k⌋, …, ⌊8n/k⌋} (the whole ring
//!   when that window covers it, as LocalRoute's `Spread::Window`); blue
//!   along its row, 90° out of phase (the plan of `ks.rs`).
//! - **1.c** after step n (n ≥ the torus's diameter 2⌊n/2⌋, so every value
//!   has reached every node by then; the flood stops): every node sets
//!   L′ := 2^⌊log₂ L_P⌋.
//! - **1.d** at a node with L′/2 > 8n/k (i.e. L′·k > 16n), every green
//!   packet p that started in row i′ moves on to row i′ + x_p·L′·k/(16n)
//!   (truncated towards 0): the randomization stretched from ±8n/k to
//!   ±L′/2, LocalRoute's window. Blue along its row.
//! - **2, 3** to the destination column, then row (blue: row, then column).
//!
//! **The doubling rule on powers of two.** Read literally (raw values, the
//! rounding 1.c at the end), the rule does not give the agreement the paper
//! states ("after step 1.c all PUs will have the same estimate L′
//! satisfying L/2 < L′ ≤ L"): a node holding 9 next to the one holding L =
//! 16 drops 16 (16 < 18) and ends with 2^⌊log 9⌋ = 8 = L/2. So the
//! information packets carry ⌊log₂ L_P⌋ — 1.c's rounding done first — and
//! the rule L′ ≥ 2·L_P compares powers of two: a node takes a value when it
//! is a larger power of two. Then each node sends every value it takes to
//! its four neighbours, so a neighbour ends with at least as large a value;
//! on a connected network all end with 2^⌊log₂ L⌋, the one power of two in
//! (L/2, L]. A node's values strictly increase among 2^0 … 2^⌊log₂⌊n/2⌋⌋,
//! so no connection carries more than ⌊log₂ n⌋ information packets (the
//! paper: "no more than log n"). A node none of whose packets moves has no
//! value and sends nothing until it hears one.
//!
//! **Phases** (separated by barriers, the family's default; `--phases
//! coalesced` is refused: 1.d needs L′, known only after step n):
//! `phase1ab-randomize` (1.a and 1.b, closed no earlier than after step n,
//! when 1.c runs), `phase1d-randomize` (only when L′·k > 16n; otherwise it
//! moves nothing and is not reported), `phase2-route`, `phase3-route`. The
//! report adds `locality_estimate`: the smallest L′ over the nodes (every
//! node's L′ lies between it and L; a power of two above L/2 is the only
//! one in (L/2, L], so then all agree).
//!
//! Theorem 15: max{n, kL/16} + kL + O(√((n + kL)·log n)) steps w.v.h.p.
//!
//! # Complexity
//! O(packets + N) set-up; the flood O(N) per step for its first n steps
//! (messages in flight only); O(packets) per phase change.

use super::ks::{on_line, sources, Plan, Spread, Variant};
use super::phased::{PhaseNo, PhasePlan, Phased};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::topology::{packet_locality, Grid, Network};
use crate::workload::Instance;

/// Step 1.a's information packets: each node's ⌊log₂ L_P⌋ and the packets
/// in transit.
#[derive(Debug, Clone)]
struct Flood {
    grid: Grid,
    /// Per node: ⌊log₂ L_P⌋ as it stands (`None`: no value yet).
    level: Vec<Option<u8>>,
    /// Information packets to send: (node, port, level), in order.
    outbox: Vec<(u32, u32, u8)>,
    /// Information packets crossing a link in the coming step: (to, level).
    sent: Vec<(u32, u8)>,
}

impl Flood {
    /// Every node's own value (1.a's first line) and its packets to all
    /// four neighbours.
    fn new(engine: &mut Engine, grid: &Grid) -> Flood {
        let nodes = grid.nodes() as usize;
        let mut own = vec![0u32; nodes];
        for p in 0..engine.packet_count() {
            let s = engine.source(p);
            let moves = packet_locality(grid, s, engine.destination(p));
            own[s as usize] = own[s as usize].max(moves);
        }
        let mut flood = Flood {
            grid: grid.clone(),
            level: vec![None; nodes],
            outbox: Vec::new(),
            sent: Vec::new(),
        };
        for (node, &l) in own.iter().enumerate() {
            if l > 0 {
                flood.take(engine, node as u32, l.ilog2() as u8);
            }
        }
        flood
    }

    /// Node `node` takes `level` and sends it in all four directions.
    fn take(&mut self, engine: &mut Engine, node: u32, level: u8) {
        self.level[node as usize] = Some(level);
        let mut held = 0;
        for port in 0..self.grid.ports() {
            if self.grid.neighbor(node, port).is_some() {
                self.outbox.push((node, port, level));
                held += 1;
            }
        }
        engine.note_control_queue(held);
    }

    /// Before a step: the information packets of the last step arrive (a
    /// larger power of two is taken and sent on, a smaller or equal one
    /// dropped); then the packets waiting are put on their links.
    fn step(&mut self, engine: &mut Engine) {
        self.receive(engine);
        let mut waiting = Vec::new();
        for (node, port, level) in std::mem::take(&mut self.outbox) {
            let to = self.grid.neighbor(node, port).expect("a link");
            // The link is free (one packet per link and step, nothing else
            // reserves links here); were it not, the packet would wait.
            if engine.send_control(node, port) {
                self.sent.push((to, level));
            } else {
                waiting.push((node, port, level));
            }
        }
        self.outbox = waiting;
    }

    /// The information packets of the last step arrive.
    fn receive(&mut self, engine: &mut Engine) {
        for (to, level) in std::mem::take(&mut self.sent) {
            // L′ ≥ 2·L_P on powers of two: a larger one (see the module doc).
            if Some(level) > self.level[to as usize] {
                self.take(engine, to, level);
            }
        }
    }

    /// Step 1.c: every node's L′ = 2^level (0 for a node without a value).
    fn estimates(&self) -> Vec<u32> {
        self.level.iter().map(|l| l.map_or(0, |l| 1u32 << l)).collect()
    }
}

/// NoLRoute's phases on top of NoWrapRoute's plan (colours, axes, 1.b's
/// draws and phases 2 and 3).
#[derive(Debug, Clone)]
pub(super) struct NolPlan {
    inner: Plan,
    grid: Grid,
    /// The side n and k (the most packets a node sends or receives).
    n: u32,
    k: u32,
    /// Each node's L′ after step 1.c (empty before).
    estimate: Vec<u32>,
}

const NAMES: [&str; 4] = [
    "phase1ab-randomize",
    "phase1d-randomize",
    "phase2-route",
    "phase3-route",
];

impl NolPlan {
    /// The row (green) or column (blue) of 1.d for `p`, now at `pos` on the
    /// line of its colour's first axis: i′ + x_p·L′·k/(16n) at a node whose
    /// L′·k > 16n, else where it is.
    fn stretched(&self, engine: &Engine, p: u32, pos: u32) -> u32 {
        let l = self.estimate[pos as usize];
        if (l as u64) * (self.k as u64) <= 16 * self.n as u64 {
            return pos;
        }
        let axis = self.inner.axis(self.inner.class(p, 0), 0);
        let n = self.n as i64;
        let from = self.grid.coord(engine.source(p), axis) as i64;
        let drawn = self.grid.coord(self.inner.target(engine, p, 0), axis) as i64;
        // x_p: the draw's offset from the packet's own row. L′·k > 16n means
        // ⌊8n/k⌋ < L′/2 ≤ n/4, so the window is narrower than half the ring
        // and the offset is the short way round.
        let mut x = (drawn - from).rem_euclid(n);
        if x > n / 2 {
            x -= n;
        }
        let y = x * (l as i64) * (self.k as i64) / (16 * n);
        on_line(&self.grid, pos, axis, (from + y).rem_euclid(n) as u32)
    }
}

impl PhasePlan for NolPlan {
    fn count(&self) -> PhaseNo {
        NAMES.len() as PhaseNo
    }

    fn name(&self, phase: PhaseNo) -> &str {
        NAMES[phase as usize]
    }

    fn pipelined_name(&self) -> &str {
        "coalesced"
    }

    fn target(&self, engine: &Engine, p: u32, phase: PhaseNo) -> u32 {
        match phase {
            0 => self.inner.target(engine, p, 0),
            1 => self.stretched(engine, p, engine.position(p)),
            _ => self.inner.target(engine, p, phase - 1),
        }
    }

    fn class(&self, p: u32, _phase: PhaseNo) -> u8 {
        self.inner.class(p, 0)
    }

    /// Phase 1 ends no earlier than step 1.c, after step n.
    fn hold(&self, phase: PhaseNo) -> bool {
        phase == 0 && self.estimate.is_empty()
    }
}

/// A NoLRoute run.
#[derive(Debug, Clone)]
pub(super) struct Nol {
    schedule: Phased<NolPlan>,
    flood: Flood,
}

impl Nol {
    /// Sets up steps 1.a and 1.b on `grid` (an n×n torus, else refused,
    /// naming `--locality unknown`); `coalesced` is refused too.
    pub(super) fn start(
        grid: &Grid,
        instance: &Instance,
        engine: &mut Engine,
        seed: u64,
        coalesced: bool,
    ) -> Result<Nol> {
        let dims = grid.dims();
        if !grid.wraps() || dims.len() != 2 || dims[0] != dims[1] {
            return Err(Error::invalid(
                "locality",
                "unknown",
                format!(
                    "NoLRoute (§9.2, L unknown) runs on an n×n torus, as the paper assumes, not on {}; give \
                     --locality L for LocalRoute (Theorems 13 and 14)",
                    instance.topology
                ),
            ));
        }
        if coalesced {
            return Err(Error::invalid(
                "phases",
                "coalesced",
                "NoLRoute (--locality unknown) separates its phases: step 1.d needs the estimate of L, which \
                 the nodes have only after step n (§9.2)",
            ));
        }
        let n = dims[0];
        let k = instance.most_per_node().max(1);
        // 1.b: x_p ∈ {−⌊8n/k⌋, …, ⌊8n/k⌋}.
        let half = (8 * n as u64 / k as u64).min(u32::MAX as u64 / 2) as u32;
        let inner = Plan::with_spread(Variant::NoWrap, grid, &sources(engine), seed, Spread::Window(2 * half));
        let plan = NolPlan {
            inner,
            grid: grid.clone(),
            n,
            k,
            estimate: Vec::new(),
        };
        let flood = Flood::new(engine, grid);
        let mut schedule = Phased::new(plan, false);
        schedule.start(engine);
        Ok(Nol { schedule, flood })
    }

    /// Before a step: the flood while step n is not over (the step belongs
    /// to the protocol even if nothing moves), then 1.c once; the barriers.
    pub(super) fn before_step(&mut self, engine: &mut Engine) {
        let plan = self.schedule.plan();
        if plan.estimate.is_empty() {
            if engine.step_count() < plan.n {
                self.flood.step(engine);
                engine.mark_busy();
            } else {
                self.flood.receive(engine);
                self.flood.outbox.clear();
                self.schedule.plan_mut().estimate = self.flood.estimates();
            }
        }
        self.schedule.before_step(engine);
    }

    /// Packets per colour.
    pub(super) fn colours(&self) -> &[u32] {
        self.schedule.plan().inner.colours()
    }

    /// The smallest L′ over the nodes, once step 1.c ran.
    pub(super) fn estimate(&self) -> Option<u32> {
        self.schedule.plan().estimate.iter().copied().min()
    }

    /// Every node's L′, once step 1.c ran (empty before).
    #[cfg(test)]
    fn estimates(&self) -> &[u32] {
        &self.schedule.plan().estimate
    }
}

#[cfg(test)]
mod tests {
    use super::Nol;
    use crate::engine::{Engine, EngineConfig};
    use crate::topology::instance_locality;
    use crate::topology::Topology;
    use crate::workload::Instance;

    /// NoLRoute on `packets`, k declared; with the instance's locality.
    fn run(topo: &str, packets: Vec<(u32, u32)>, k: u32) -> (Nol, Engine, u32) {
        let topo: Topology = topo.parse().unwrap();
        let l = instance_locality(topo.as_grid().unwrap(), &packets);
        let config = EngineConfig {
            check_invariants: true,
            ..Default::default()
        };
        let mut engine = Engine::new(topo.clone(), &packets, config);
        let mut inst = Instance::new(topo.clone(), packets).unwrap();
        (inst.l, inst.k) = (Some(k), Some(k));
        let mut nol = Nol::start(topo.as_grid().unwrap(), &inst, &mut engine, 1, false).unwrap();
        while !engine.finished() {
            nol.before_step(&mut engine);
            engine.step();
            assert!(engine.step_count() < 10_000);
        }
        (nol, engine, l)
    }

    /// The literal rule's counter-example (see the module doc): one node
    /// with a move of 16, its neighbour 9, the rest 5: every node ends
    /// with 16, the one power of two in (8, 16].
    #[test]
    fn every_node_agrees_on_the_power_of_two_in_half_l_to_l() {
        let n = 40;
        let at = |r: u32, c: u32| r * n + c;
        let mut packets = vec![(at(0, 0), at(0, 16)), (at(0, 1), at(9, 1))];
        for v in 2..n * n {
            packets.push((v, (v + 5) % n + v / n * n));
        }
        let (nol, _, l) = run("torus:40x40", packets, 1);
        assert_eq!(l, 16);
        assert!(nol.estimates().iter().all(|&e| e == 16), "{:?}", nol.estimates());
    }

    /// A single moving packet: its value floods the whole torus; nodes
    /// without packets adopt it too.
    #[test]
    fn one_value_reaches_every_node_by_step_n() {
        let (nol, engine, l) = run("torus:9x9", vec![(40, 43)], 1);
        assert_eq!(l, 3);
        assert_eq!(nol.estimates(), vec![2; 81]);
        assert!(engine.step_count() >= 9);
        assert_eq!(nol.estimate(), Some(2));
    }
}
