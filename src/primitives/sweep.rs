//! Control messages walking along paths of neighbouring nodes: the
//! communication pattern of the prefix sums and broadcasts of
//! Pietracaprina–Pucci's "standard primitives" (§3). (The pipelined counters
//! of the proof of Theorem 5, §4, carry their values: see
//! [`super::ranking`].)
//!
//! A sweep moves `width` counters along every path, pipelined: counter i
//! crosses hop h (from node h−1 to node h) in step i + h of the sweep, so a
//! directed link carries one counter per step (SPEC §1) and a sweep over
//! paths of L nodes takes L − 1 + width − 1 steps. The counters' values are
//! computed by the caller with [`carry`] over the same paths.

use super::geometry::Mesh;
use super::Task;
use crate::engine::Engine;
use crate::topology::Network;

/// Paths of neighbouring nodes, stored flat.
#[derive(Debug, Clone, Default)]
pub struct Paths {
    nodes: Vec<u32>,
    starts: Vec<usize>,
}

impl Paths {
    /// No paths.
    pub fn new() -> Paths {
        Paths {
            nodes: Vec::new(),
            starts: vec![0],
        }
    }
    /// Appends a path.
    pub fn push(&mut self, path: impl IntoIterator<Item = u32>) {
        self.nodes.extend(path);
        self.starts.push(self.nodes.len());
    }
    /// Appends every path of `other`, in order.
    pub fn append(&mut self, other: &Paths) {
        for i in 0..other.len() {
            self.push(other.path(i).iter().copied());
        }
    }
    /// Appends the straight path of `len` nodes from (r, c) along (dr, dc).
    pub fn push_line(&mut self, mesh: Mesh, (r, c): (u32, u32), (dr, dc): (i32, i32), len: u32) {
        self.push((0..len as i32).map(|i| mesh.node((r as i32 + dr * i) as u32, (c as i32 + dc * i) as u32)));
    }
    /// Number of paths.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }
    /// Whether there is no path.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Path `i`.
    pub fn path(&self, i: usize) -> &[u32] {
        &self.nodes[self.starts[i]..self.starts[i + 1]]
    }
    /// The longest path's node count.
    pub fn max_len(&self) -> u32 {
        (0..self.len()).map(|i| self.path(i).len() as u32).max().unwrap_or(0)
    }
}

/// Carries a value along every path: the value starts as `first(node 0)`;
/// each later node receives the value (stored in `recv`) and passes on
/// `op(value, contrib(node))`. Returns the value each path ends with.
pub fn carry(
    paths: &Paths,
    op: impl Fn(u64, u64) -> u64,
    first: impl Fn(u32) -> u64,
    contrib: impl Fn(u32) -> u64,
    recv: &mut [u64],
) -> Vec<u64> {
    let mut ends = Vec::with_capacity(paths.len());
    for i in 0..paths.len() {
        let p = paths.path(i);
        let mut acc = first(p[0]);
        for &v in &p[1..] {
            recv[v as usize] = acc;
            acc = op(acc, contrib(v));
        }
        ends.push(acc);
    }
    ends
}

/// Plays sweeps one after another on the engine: a [`Task`].
#[derive(Debug, Clone)]
pub struct Sweeps {
    /// The square mesh whose port arithmetic the paths use, or `None` to
    /// look the ports up in the engine's network (any topology).
    mesh: Option<Mesh>,
    sweeps: Vec<(Paths, u32)>,
    current: usize,
    t: u32,
}

impl Sweeps {
    /// Sweeps over `sweeps` (paths, width of the pipeline), in order.
    pub fn new(mesh: Mesh, sweeps: Vec<(Paths, u32)>) -> Sweeps {
        Sweeps {
            mesh: Some(mesh),
            sweeps,
            current: 0,
            t: 0,
        }
    }

    /// Sweeps over paths of any network (the ports looked up in the
    /// engine's topology), in order.
    pub fn on_network(sweeps: Vec<(Paths, u32)>) -> Sweeps {
        Sweeps {
            mesh: None,
            sweeps,
            current: 0,
            t: 0,
        }
    }

    /// Steps the sweeps take.
    pub fn duration(&self) -> u32 {
        self.sweeps.iter().map(|(p, w)| Self::length(p, *w)).sum()
    }

    fn length(paths: &Paths, width: u32) -> u32 {
        let l = paths.max_len();
        if l <= 1 || width == 0 {
            0
        } else {
            l - 1 + width - 1
        }
    }
}

impl Task for Sweeps {
    fn poll(&mut self, e: &mut Engine) -> bool {
        loop {
            let Some((paths, width)) = self.sweeps.get(self.current) else {
                return false;
            };
            if self.t >= Self::length(paths, *width) {
                self.current += 1;
                self.t = 0;
                continue;
            }
            if e.worms_crossing() {
                // Cut-through worms (`--flits F`) hold the links their
                // flits still cross: the counters wait at their nodes
                // until the links are free, one step at a time.
                return true;
            }
            self.t += 1;
            let t = self.t;
            for i in 0..paths.len() {
                let p = paths.path(i);
                let hi = t.min(p.len() as u32 - 1);
                let lo = (t + 1).saturating_sub(*width).max(1);
                for h in lo..=hi {
                    let (a, b) = (p[h as usize - 1], p[h as usize]);
                    let port = match self.mesh {
                        Some(mesh) => mesh.port(a, b),
                        None => e.topology().port_to(a, b).expect("sweep paths join neighbours"),
                    };
                    // Never taken: the sweeps' links are disjoint and the
                    // counters wait for worms (above); a lost counter would
                    // make every count after it a fiction, so this is checked
                    // in every build.
                    let ok = e.send_control(a, port);
                    assert!(ok, "sweep link {a}->{b} already taken");
                }
            }
            e.note_control_queue((*width).min(2));
            return true;
        }
    }
}

/// Flooding inside every aligned m×m region: in each of 2(m − 1) steps
/// every node sends a control message to each of its neighbours in the
/// region (the largest value it has seen so far). After the last step every
/// node knows the region's maximum (or any other associative, idempotent
/// combination): a value needs at most the region's diameter to reach every
/// node. The caller computes the result itself; the task plays the messages.
#[derive(Debug, Clone)]
pub struct Flood {
    mesh: Mesh,
    m: u32,
    t: u32,
}

impl Flood {
    /// A flood in every aligned m×m region.
    pub fn new(mesh: Mesh, m: u32) -> Flood {
        assert!(m >= 1 && mesh.side().is_multiple_of(m));
        Flood { mesh, m, t: 0 }
    }

    /// Steps the flood takes: the region's diameter.
    pub fn duration(&self) -> u32 {
        2 * (self.m - 1)
    }
}

impl Task for Flood {
    fn poll(&mut self, e: &mut Engine) -> bool {
        if self.t >= self.duration() {
            return false;
        }
        self.t += 1;
        let (side, m) = (self.mesh.side(), self.m);
        for r in 0..side {
            for c in 0..side {
                let v = self.mesh.node(r, c);
                // Ports 0–3: down, up, right, left (SPEC §2), inside the region.
                let inside = [(r + 1) % m != 0, r % m != 0, (c + 1) % m != 0, c % m != 0];
                for (port, ok) in inside.into_iter().enumerate() {
                    if ok {
                        let sent = e.send_control(v, port as u32);
                        debug_assert!(sent, "flood link {v}:{port} already taken");
                    }
                }
            }
        }
        e.note_control_queue(4.min(self.t));
        true
    }
}
