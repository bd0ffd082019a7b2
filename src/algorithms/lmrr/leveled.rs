//! Leveled networks (Leighton–Maggs–Ranade–Rao §2.1) laid over a real
//! network, and packet paths through them.
//!
//! A leveled network of depth L has its nodes on levels 0..L, every edge
//! leading from level i to level i + 1. Here every *logical* node is hosted
//! by a node of the real network, and every logical edge is either one
//! directed link of the real network (`port`) or *internal* (both ends on
//! the same real node: the hypercube's emulation of the butterfly's straight
//! edges). When several logical edges share one directed link (the
//! butterfly's logical network of Theorem 4.1), the edges are split into
//! *substeps*: one logical step is simulated as `substeps` real steps, and
//! in each real step only the edges of one substep send, so that no link
//! carries two messages in one step (SPEC §1).
//!
//! # Complexity
//! Building takes O(nodes + edges) time and memory; a path of length ℓ is
//! turned into edges in O(ℓ · out-degree).

/// "None" for node ids and ports.
pub const NONE: u32 = u32::MAX;

/// One edge out of a logical node, as a network description gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutEdge {
    /// The logical node it leads to (a full id, see [`Leveled::build`]).
    pub head: u32,
    /// The real link's port at the host of the tail, or [`NONE`] if internal.
    pub port: u32,
    /// The substep (0-based) of the logical step in which it sends.
    pub substep: u8,
}

/// A leveled network over a real network, kept as compact adjacency
/// arrays (CSR) over the nodes of a range of levels.
#[derive(Debug, Clone)]
pub struct Leveled {
    /// Host (real node) of each logical node.
    pub host: Vec<u32>,
    /// Level of each logical node.
    pub level: Vec<u32>,
    out_start: Vec<u32>,
    in_start: Vec<u32>,
    in_edges: Vec<u32>,
    /// Tail of each edge.
    pub tail: Vec<u32>,
    /// Head of each edge.
    pub head: Vec<u32>,
    /// Real port of each edge at its tail's host ([`NONE`]: internal).
    pub port: Vec<u32>,
    /// Substep of each edge.
    pub substep: Vec<u8>,
    /// Real steps per logical step.
    pub substeps: u8,
    /// The key the report's stages are bounded on, per node, where it is
    /// not the level ([`Description::stage_key`]).
    stage_key: Option<Vec<u32>>,
    /// Full id → compact id ([`NONE`] for nodes outside the levels kept).
    compact: Vec<u32>,
}

/// A description of a whole leveled network: `count` logical nodes with
/// full ids 0..count, each with its level, host and out-edges.
pub trait Description {
    /// Number of logical nodes (full ids).
    fn count(&self) -> u32;
    /// Level of logical node `v`.
    fn level(&self, v: u32) -> u32;
    /// Real node hosting `v`.
    fn host(&self, v: u32) -> u32;
    /// The edges out of `v`, appended to `out`.
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>);
    /// Real steps per logical step (1 unless edges share links).
    fn substeps(&self) -> u8 {
        1
    }
    /// The key the report's stages are bounded on, if not the level (the
    /// plateau of §6's network): nondecreasing along every edge.
    fn stage_key(&self, _v: u32) -> Option<u32> {
        None
    }
}

impl Leveled {
    /// The part of the network `net` on levels `lo..=hi` (a leveled network
    /// again: nodes below `lo` carry nothing when no packet starts there,
    /// nodes above `hi` when no packet ends there).
    pub fn build(net: &dyn Description, lo: u32, hi: u32) -> Leveled {
        let count = net.count();
        let mut compact = vec![NONE; count as usize];
        let (mut host, mut level) = (Vec::new(), Vec::new());
        let mut stage_key = net.stage_key(0).map(|_| Vec::new());
        for v in 0..count {
            let l = net.level(v);
            if (lo..=hi).contains(&l) {
                compact[v as usize] = host.len() as u32;
                host.push(net.host(v));
                level.push(l);
                if let Some(keys) = &mut stage_key {
                    keys.push(net.stage_key(v).unwrap_or(l));
                }
            }
        }
        let nodes = host.len();
        let (mut out_start, mut tail, mut head, mut port, mut substep) = (
            Vec::with_capacity(nodes + 1),
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        );
        let mut scratch = Vec::new();
        out_start.push(0);
        for v in 0..count {
            let cv = compact[v as usize];
            if cv == NONE {
                continue;
            }
            scratch.clear();
            net.out_edges(v, &mut scratch);
            for e in &scratch {
                let ch = compact[e.head as usize];
                if ch == NONE {
                    continue;
                }
                debug_assert_eq!(level[ch as usize], level[cv as usize] + 1, "edges go up one level");
                tail.push(cv);
                head.push(ch);
                port.push(e.port);
                substep.push(e.substep);
            }
            out_start.push(tail.len() as u32);
        }
        // In-edges by counting sort on the head.
        let mut in_start = vec![0u32; nodes + 1];
        for &h in &head {
            in_start[h as usize + 1] += 1;
        }
        for i in 0..nodes {
            in_start[i + 1] += in_start[i];
        }
        let mut fill = in_start.clone();
        let mut in_edges = vec![0u32; head.len()];
        for (e, &h) in head.iter().enumerate() {
            in_edges[fill[h as usize] as usize] = e as u32;
            fill[h as usize] += 1;
        }
        Leveled {
            host,
            level,
            out_start,
            in_start,
            in_edges,
            tail,
            head,
            port,
            substep,
            substeps: net.substeps(),
            stage_key,
            compact,
        }
    }

    /// The key the report's stages are bounded on at node `v` (compact
    /// id): its level, or the description's own key.
    pub fn stage_key(&self, v: u32) -> u32 {
        match &self.stage_key {
            Some(keys) => keys[v as usize],
            None => self.level[v as usize],
        }
    }

    /// Number of logical nodes kept.
    pub fn nodes(&self) -> u32 {
        self.host.len() as u32
    }

    /// Number of edges.
    pub fn edges(&self) -> u32 {
        self.tail.len() as u32
    }

    /// The edges out of `v` (compact id), as edge ids.
    pub fn out(&self, v: u32) -> std::ops::Range<u32> {
        self.out_start[v as usize]..self.out_start[v as usize + 1]
    }

    /// The edges into `v` (compact id).
    pub fn ins(&self, v: u32) -> &[u32] {
        &self.in_edges[self.in_start[v as usize] as usize..self.in_start[v as usize + 1] as usize]
    }

    /// The compact id of full id `v`, if kept.
    pub fn compact(&self, v: u32) -> Option<u32> {
        self.compact.get(v as usize).copied().filter(|&c| c != NONE)
    }

    /// Turns a path given as full node ids into its start (compact id) and
    /// edges, cut at the first node hosted by `dest` (a packet is delivered
    /// when it reaches its destination, SPEC §1). `None` if a node is
    /// outside the kept levels or two consecutive nodes are not joined.
    pub fn path_edges(&self, nodes: &[u32], dest: u32, edges: &mut Vec<u32>) -> Option<u32> {
        let start = self.compact(*nodes.first()?)?;
        let mut at = start;
        for &next in &nodes[1..] {
            if self.host[at as usize] == dest {
                break;
            }
            let next = self.compact(next)?;
            let e = self.out(at).find(|&e| self.head[e as usize] == next)?;
            edges.push(e);
            at = next;
        }
        (self.host[at as usize] == dest).then_some(start)
    }
}

/// Packet paths through a leveled network, as edge lists (flat).
#[derive(Debug, Clone, Default)]
pub struct Paths {
    /// The logical node each packet starts at (compact id).
    pub start: Vec<u32>,
    offset: Vec<u32>,
    edges: Vec<u32>,
}

impl Paths {
    /// Adds the next packet's path.
    pub fn push(&mut self, start: u32, edges: &[u32]) {
        if self.offset.is_empty() {
            self.offset.push(0);
        }
        self.start.push(start);
        self.edges.extend_from_slice(edges);
        self.offset.push(self.edges.len() as u32);
    }

    /// The edges of path `i`.
    pub fn of(&self, i: usize) -> &[u32] {
        &self.edges[self.offset[i] as usize..self.offset[i + 1] as usize]
    }

    /// Number of paths.
    fn len(&self) -> usize {
        self.start.len()
    }

    /// c: the most paths using one edge (0 without edges).
    pub fn congestion(&self, edges: u32) -> u32 {
        let mut load = vec![0u32; edges as usize];
        for i in 0..self.len() {
            for &e in self.of(i) {
                load[e as usize] += 1;
            }
        }
        load.into_iter().max().unwrap_or(0)
    }

    /// c with packet combining (§2.3.1): the most *destinations* whose
    /// paths use one edge, `dest[i]` the destination of path i (several
    /// packets for one destination count once).
    pub fn congestion_by_destination(&self, edges: u32, dest: &[u32]) -> u32 {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.sort_unstable_by_key(|&i| dest[i]);
        let (mut load, mut last) = (vec![0u32; edges as usize], vec![u32::MAX; edges as usize]);
        for i in order {
            for &e in self.of(i) {
                if last[e as usize] != dest[i] {
                    last[e as usize] = dest[i];
                    load[e as usize] += 1;
                }
            }
        }
        load.into_iter().max().unwrap_or(0)
    }

    /// L: the longest path, in levels (edges).
    pub fn dilation(&self) -> u32 {
        (0..self.len()).map(|i| self.of(i).len() as u32).max().unwrap_or(0)
    }
}
