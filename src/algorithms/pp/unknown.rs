//! `--unknown-lk`: the nodes are not told ℓ and k (Pietracaprina–Pucci §3,
//! before §3.1). "ℓ can be precomputed via a standard prefix operation; as
//! for k, we run the algorithm for geometrically increasing guesses k_i of
//! k, aborting a run (by removing all packets in the working queues) when
//! either the time goes beyond an allotted number of steps proportional to
//! √(ℓ k_i n), or the queue capacity at a node is exceeded."
//!
//! Simulated step by step:
//! - `learn ℓ`: a scan of maxima (counters on the links, each node's count
//!   of the packets it sends) whose total reaches every node: ℓ.
//! - `guessI (k=K) …`: attempt I runs the algorithm for (ℓ, K), K = 1, 2,
//!   4, …, its phases named as without the option after the prefix. Its
//!   allowance is [`ALLOWANCE_C`]·√(ℓ·K·N) steps, which pays for the
//!   attempt, its abort and (attempt 1) `learn ℓ`: every node counts the
//!   steps, so all stop at once when the time is up.
//! - `abortI`: an attempt aborts when its time is up with packets
//!   undelivered (every node that still holds one starts the abort), when a
//!   node's working queue reaches [`QUEUE_BOUND`] (the capacity), or when a
//!   node holds more packets of a class than the attempt's bucket (its guess
//!   of k is too small). The abort is a broadcast: control messages flood
//!   from the aborting nodes along a shortest-path tree; a node that
//!   receives it drops the copies in its working queue, the sources keep
//!   theirs (so a packet reappears at its source: it did not move back),
//!   and a destination drops the copies the attempt delivered to it — the
//!   source cannot know of them and sends them again, so each packet is
//!   delivered once, by the attempt that completes. The message carries the
//!   abort's step, so every node starts the next attempt 2(n − 1) steps
//!   after it (the mesh's diameter: the flood has reached everyone). Until
//!   the flood reaches a node, the packets there stand still: in the paper
//!   they would go on moving and be dropped when it arrives, which ends in
//!   the same state.

use super::{Run, QUEUE_BOUND};
use crate::engine::Engine;
use crate::primitives::geometry::Mesh;
use crate::primitives::sweep::{carry, Paths, Sweeps};
use crate::primitives::Task;
use crate::report::Guess;

/// The c of the allowance c·√(ℓ·k_i·N) of each guess k_i, stated before
/// measuring: the known-(ℓ,k) algorithms measure up to 12.4 × √(ℓkN) on
/// the six (ℓ,k) of docs/algorithms/pp.md's figure, and up to 17.0 where
/// k/ℓ is 2 or 1/2 (the tessellation rounds k/ℓ up to a power of 4: twice
/// the rounds; pp-det, ℓ = 2, k = 4, side 64 — found by the pp audit of
/// 2026-12-01, after c was fixed), so 24 leaves room for that, for
/// `learn ℓ` and for the abort's 2(n − 1) steps.
pub const ALLOWANCE_C: u32 = 24;

/// The allowance c·√(ℓ·k·N) of a guess k, in whole steps.
pub fn allowance(l: u32, k: u32, nodes: u32) -> u32 {
    (ALLOWANCE_C as f64 * (l as f64 * k as f64 * nodes as f64).sqrt()).floor() as u32
}

/// The guesses k_i = 1, 2, 4, … up to the first k_i ≥ k, each with its
/// allowance: what the claim allows a run that learns ℓ and k.
pub fn guesses_up_to(l: u32, k: u32, nodes: u32) -> Vec<(u32, u32)> {
    let mut out = vec![(1, allowance(l, 1, nodes))];
    while out.last().unwrap().0 < k {
        let g = 2 * out.last().unwrap().0;
        out.push((g, allowance(l, g, nodes)));
    }
    out
}

/// The `--unknown-lk` state machine.
#[derive(Clone)]
pub(super) struct Unknown {
    mesh: Mesh,
    det: bool,
    seed: u64,
    /// ℓ once learned (0 before).
    l: u32,
    /// `learn ℓ` in progress, with the total every node will hold.
    learn: Option<(Box<dyn Task>, u32)>,
    /// The attempt in progress (none during an abort).
    run: Option<Run>,
    /// The current attempt's guess of k and the step its time is up.
    k: u32,
    deadline: u32,
    abort: Option<Abort>,
    guesses: Vec<Guess>,
}

/// An abort in progress.
#[derive(Clone)]
struct Abort {
    /// The step after which it began.
    start: u32,
    /// Per node: its distance from the nearest aborting node (the step of
    /// the abort at which the flood reaches it).
    dist: Vec<u32>,
    /// Per node: the neighbour it learns the abort from (itself at 0).
    parent: Vec<u32>,
    /// Per distance: the packets to drop there (their copy in transit, or
    /// the copy delivered in the attempt).
    recall: Vec<Vec<u32>>,
}

impl Unknown {
    /// Begins `learn ℓ` (every packet held back, delivery off: done by `Pp::start`).
    pub(super) fn start(mesh: Mesh, det: bool, seed: u64, e: &mut Engine) -> Unknown {
        let mut count = vec![0u64; mesh.nodes() as usize];
        for p in 0..e.packet_count() {
            count[e.source(p) as usize] += 1;
        }
        // Prefix maxima along every row, both ways at once (opposite
        // links), then along every column the same way: each line's two
        // counters end with its maximum at both ends, and every node has
        // seen both, so after the columns every node holds ℓ. The values
        // are those the counters carry ([`carry`]).
        let side = mesh.side();
        let max = |a: u64, b: u64| a.max(b);
        let (mut rows, mut cols) = (Paths::new(), Paths::new());
        for i in 0..side {
            rows.push_line(mesh, (i, 0), (0, 1), side);
            rows.push_line(mesh, (i, side - 1), (0, -1), side);
            cols.push_line(mesh, (0, i), (1, 0), side);
            cols.push_line(mesh, (side - 1, i), (-1, 0), side);
        }
        let mut row_max = vec![0u64; count.len()];
        // A node's row maximum: what came from both sides and its own count.
        let mut from_west = vec![0u64; count.len()];
        let mut west = Paths::new();
        for i in 0..side {
            west.push_line(mesh, (i, 0), (0, 1), side);
        }
        carry(&west, max, |v| count[v as usize], |v| count[v as usize], &mut from_west);
        let mut from_east = vec![0u64; count.len()];
        let mut east = Paths::new();
        for i in 0..side {
            east.push_line(mesh, (i, side - 1), (0, -1), side);
        }
        carry(&east, max, |v| count[v as usize], |v| count[v as usize], &mut from_east);
        for v in 0..mesh.nodes() as usize {
            row_max[v] = from_west[v].max(from_east[v]).max(count[v]);
        }
        let mut from_north = vec![0u64; count.len()];
        let mut from_south = vec![0u64; count.len()];
        let (mut south, mut north) = (Paths::new(), Paths::new());
        for i in 0..side {
            south.push_line(mesh, (0, i), (1, 0), side);
            north.push_line(mesh, (side - 1, i), (-1, 0), side);
        }
        carry(
            &south,
            max,
            |v| row_max[v as usize],
            |v| row_max[v as usize],
            &mut from_north,
        );
        carry(
            &north,
            max,
            |v| row_max[v as usize],
            |v| row_max[v as usize],
            &mut from_south,
        );
        let learned: Vec<u64> = (0..mesh.nodes() as usize)
            .map(|v| from_north[v].max(from_south[v]).max(row_max[v]))
            .collect();
        let l = learned[0] as u32;
        debug_assert!(learned.iter().all(|&x| x as u32 == l), "every node learns ℓ");
        let task = Sweeps::new(mesh, vec![(rows, 1), (cols, 1)]);
        e.begin_phase("learn ℓ");
        Unknown {
            mesh,
            det,
            seed,
            l: 0,
            learn: Some((Box::new(task), l)),
            run: None,
            k: 0,
            deadline: 0,
            abort: None,
            guesses: Vec::new(),
        }
    }

    /// The attempt in progress.
    pub(super) fn run(&self) -> Option<&Run> {
        self.run.as_ref()
    }

    /// The guesses so far (the last one in progress or completed).
    pub(super) fn guesses(&self) -> Vec<Guess> {
        self.guesses.clone()
    }

    pub(super) fn before_step(&mut self, e: &mut Engine) {
        if let Some((task, l)) = self.learn.as_mut() {
            if task.poll(e) {
                return;
            }
            self.l = (*l).max(1);
            self.learn = None;
            self.begin_attempt(e, 1);
        }
        if self.abort.is_some() && self.abort_step(e) {
            return;
        }
        if e.finished() {
            return;
        }
        let now = e.step_count();
        if let Some((nodes, why)) = self.abort_cause(e) {
            return self.begin_abort(e, nodes, why);
        }
        let run = self.run.as_mut().expect("an attempt");
        if !run.advance(e) {
            // Every stage over and packets undelivered: wait for the time.
            e.mark_busy();
        }
        // The step under way is the attempt's, unless its last stage
        // delivered everything as it was built (then no step follows: the
        // pp audit of 2026-12-01 found the completing k = 1 attempts one
        // step long).
        let last = self.guesses.last_mut().expect("a guess");
        last.steps = now + u32::from(!e.finished()) - last.start;
    }

    /// Why the attempt in progress aborts as the next step opens, and the
    /// nodes that start the abort; `None` if it goes on.
    fn abort_cause(&self, e: &Engine) -> Option<(Vec<u32>, &'static str)> {
        let run = self.run.as_ref().expect("an attempt");
        if let Some(nodes) = &run.overflow {
            return Some((nodes.clone(), "a node holds more packets of a class than its bucket"));
        }
        let full: Vec<u32> = (0..self.mesh.nodes())
            .filter(|&v| e.working_queues()[v as usize] >= QUEUE_BOUND)
            .collect();
        if !full.is_empty() {
            return Some((full, "a working queue is full"));
        }
        if e.step_count() >= self.deadline {
            // Every node that still holds an undelivered packet (in its
            // working queue or not yet sent) knows the attempt failed.
            let mut holds = vec![false; self.mesh.nodes() as usize];
            for p in e.active() {
                holds[e.position(p) as usize] = true;
            }
            let nodes = (0..self.mesh.nodes()).filter(|&v| holds[v as usize]).collect();
            return Some((nodes, "time up"));
        }
        None
    }

    /// As a step ends: the attempt's hand-over before a tour
    /// (`Run::hand_over`), unless the attempt aborts as the next step
    /// opens (its tour then never runs) or is not under way.
    pub(super) fn hand_over(&self, e: &mut Engine) {
        if self.learn.is_some() || self.abort.is_some() {
            return;
        }
        let Some(run) = self.run.as_ref() else {
            return;
        };
        if let Some(j) = run.tour_next(e) {
            if self.abort_cause(e).is_none() {
                run.deliver_home(e, j);
            }
        }
    }

    /// Starts attempt `i` with the guess k = 2^(i−1), its allowance paying
    /// for `learn ℓ` (attempt 1) and for its abort.
    fn begin_attempt(&mut self, e: &mut Engine, i: u32) {
        let now = e.step_count();
        let n = self.mesh.nodes();
        self.k = 1 << (i - 1);
        let allowance = allowance(self.l, self.k, n);
        let spent = if i == 1 { now } else { 0 };
        self.deadline = now + allowance.saturating_sub(spent + self.abort_steps());
        let prefix = format!("guess{i} (k={}) ", self.k);
        // Fresh colours for every attempt.
        let seed = self.seed.wrapping_add(i as u64 - 1);
        self.guesses.push(Guess {
            k: self.k,
            allowance,
            start: now,
            steps: 0,
            aborted: None,
        });
        self.run = Some(Run::new(self.mesh, self.l, self.k, self.det, seed, prefix, e));
    }

    /// 2(n − 1): the steps of an abort.
    fn abort_steps(&self) -> u32 {
        2 * (self.mesh.side() - 1)
    }

    /// Starts the abort from `nodes`: every packet held back, the flood's
    /// tree and the copies each node drops computed.
    fn begin_abort(&mut self, e: &mut Engine, nodes: Vec<u32>, why: &'static str) {
        let mesh = self.mesh;
        let n = mesh.nodes() as usize;
        let last = self.guesses.last_mut().expect("a guess");
        last.aborted = Some(why);
        last.steps = e.step_count() - last.start;
        let start = last.start;
        self.run = None;
        // An attempt may end in a tour, which delivers on arrival until it
        // finishes: the attempt dropped, the next one's phases must not
        // (the pp audit of 2026-12-01: a guess timed out in its tour, the
        // next attempt delivered packets in its shift and sort, and the
        // sort then moved a delivered packet: a panic).
        e.set_deliver_on_arrival(false);
        // Breadth-first from the aborting nodes.
        let mut dist = vec![u32::MAX; n];
        let mut parent = vec![u32::MAX; n];
        let mut frontier = nodes;
        for &v in &frontier {
            dist[v as usize] = 0;
            parent[v as usize] = v;
        }
        let mut d = 0;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &v in &frontier {
                let (r, c) = mesh.rc(v);
                let side = mesh.side();
                let around = [
                    (r > 0).then(|| mesh.node(r - 1, c)),
                    (c + 1 < side).then(|| mesh.node(r, c + 1)),
                    (r + 1 < side).then(|| mesh.node(r + 1, c)),
                    (c > 0).then(|| mesh.node(r, c - 1)),
                ];
                for u in around.into_iter().flatten() {
                    if dist[u as usize] == u32::MAX {
                        dist[u as usize] = d + 1;
                        parent[u as usize] = v;
                        next.push(u);
                    }
                }
            }
            frontier = next;
            d += 1;
        }
        let mut recall = vec![Vec::new(); d as usize + 1];
        for p in 0..e.packet_count() {
            e.set_eligible(p, false);
            let delivered_here = e.is_delivered(p) && e.delivery_steps()[p as usize] > start;
            if delivered_here || (!e.is_delivered(p) && e.position(p) != e.source(p)) {
                recall[dist[e.position(p) as usize] as usize].push(p);
            }
        }
        self.abort = Some(Abort {
            start: e.step_count(),
            dist,
            parent,
            recall,
        });
        e.begin_phase(&format!("abort{}", self.guesses.len()));
        let going_on = self.abort_step(e);
        debug_assert!(going_on, "an abort takes steps");
    }

    /// One step of the abort: the nodes the flood reached drop their
    /// copies and pass it on; at its end the next attempt begins (and
    /// false is returned: the attempt schedules the step).
    fn abort_step(&mut self, e: &mut Engine) -> bool {
        let total = self.abort_steps();
        let abort = self.abort.as_mut().expect("an abort");
        let r = e.step_count() - abort.start;
        if let Some(packets) = abort.recall.get_mut(r as usize) {
            for p in std::mem::take(packets) {
                e.recall(p);
            }
        }
        if r >= total {
            self.abort = None;
            let i = self.guesses.len() as u32 + 1;
            self.begin_attempt(e, i);
            return false;
        }
        for u in 0..self.mesh.nodes() {
            if abort.dist[u as usize] == r + 1 {
                let v = abort.parent[u as usize];
                let sent = e.send_control(v, self.mesh.port(v, u));
                debug_assert!(sent, "the abort's link is free");
            }
        }
        e.mark_busy();
        true
    }
}
