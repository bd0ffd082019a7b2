//! `offline`: off-line permutation routing via Hall's theorem (permutation
//! lecture, "Off-line permutation routing": (3n−3) steps with β = 0).
//!
//! Precomputation (off-line, not charged; reported as
//! `"offline_precompute": true`, SPEC §1): on an R×C mesh build the routing
//! bipartite **multigraph** G_π with the C source columns on one side, the
//! C destination columns on the other and one edge per packet. For a
//! permutation G_π is R-regular; a partial permutation is padded with dummy
//! edges (dummy packets that exist only in the matching and are never
//! simulated; packets whose source is their destination, delivered at step
//! 0, count as dummies too). G_π is decomposed into R perfect matchings, i.e.
//! properly edge-coloured with R colours, and the packet of colour k moves
//! to row k of its column. Each source column has every colour once, so the
//! column moves are permutations; each matching meets every destination
//! column once, so after them no row holds two packets for one column.
//!
//! Routing (simulated, three phases with barriers, see
//! [`super::three_phase`]): permute within the columns, route along the
//! rows, route along the columns.
//!
//! **Why max_queue ≤ 3 (no auxiliary buffers).** Every phase routes, in every
//! line, a partial permutation with one packet per node. Packets moving the
//! same way start at distinct nodes and all move every step (the link ahead
//! of each is wanted by no other packet), so they stay at distinct nodes and
//! never contend: with any policy a phase takes at most (line length − 1)
//! steps — R − 1, C − 1, R − 1, so 2R + C − 3, i.e. 3n − 3 on n×n — and at a
//! step end a node holds at most one packet passing rightwards (downwards),
//! one passing leftwards (upwards) and the one packet whose phase target it
//! is. No schedule beyond the barriers is needed. On a 2-D torus every line
//! is a ring and each packet goes the shorter way round (SPEC §2), so the
//! same argument gives ≤ ⌊L/2⌋ steps per phase and max_queue ≤ 3.
//!
//! Edge colouring: recursive Euler splitting (an even-degree regular
//! bipartite multigraph splits along alternate edges of closed trails into
//! two regular halves), and when the degree is odd one perfect matching by
//! Hopcroft–Karp is taken out first (a regular bipartite graph has one:
//! Hall's theorem, the lecture's Corollary). Deterministic.
//!
//! # Complexity
//! Precomputation O(E·√C·log R) for E = R·C edges; steps cost what the
//! engine's cost.

use super::claim::{Claim, Formula, Measure, Scope, Strength};
use super::papers::LECTURE;
use super::teaching::{Classes, PhaseText, Teaching};
use super::three_phase::ThreePhase;
use super::{require, Algorithm, AlgorithmOptions};
use super::{Entry, Packets, RoutingGraph, Shape};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::options::Field;
use crate::topology::{Kind, Network};
use crate::workload::Instance;

const NONE: u32 = u32::MAX;

/// Off-line three-phase routing from an R-colouring of the column multigraph
/// (permutation lecture, "Off-line permutation routing").
#[derive(Debug, Clone)]
pub struct Offline {
    pipeline: bool,
    schedule: Option<ThreePhase>,
}

impl Offline {
    /// Phases separated by barriers unless `options.pipelined()` (then the
    /// queue bound of the module notes no longer holds).
    pub fn new(options: &AlgorithmOptions) -> Self {
        Offline {
            pipeline: options.pipelined(),
            schedule: None,
        }
    }
}

impl Algorithm for Offline {
    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let topo = &instance.topology;
        let shape = topo
            .mesh2d()
            .filter(|_| matches!(topo.kind(), Kind::Mesh | Kind::Torus));
        require(self.name(), shape.is_some(), topo, "a 2-D mesh or torus (mesh:RxC)")?;
        let (rows, cols) = shape.expect("checked");
        check_partial_permutation(self.name(), topo.nodes(), &instance.packets)?;
        let colours = column_colouring(rows, cols, &instance.packets);
        let mut schedule = ThreePhase::three_phase(
            ["permute-columns", "route-row", "route-column"],
            colours,
            cols,
            self.pipeline,
        );
        schedule.start(engine);
        self.schedule = Some(schedule);
        Ok(())
    }

    fn before_step(&mut self, engine: &mut Engine) {
        if let Some(s) = self.schedule.as_mut() {
            s.before_step(engine);
        }
    }

    fn uses_policy(&self) -> bool {
        // With barriers no two packets ever want the same link (module notes).
        self.pipeline
    }

    fn offline_precompute(&self) -> bool {
        true
    }

    fn routing_graph(&self, instance: &Instance) -> Option<RoutingGraph> {
        let topo = &instance.topology;
        let (rows, cols) = topo
            .mesh2d()
            .filter(|_| matches!(topo.kind(), Kind::Mesh | Kind::Torus))?;
        Some(routing_graph(rows, cols, &instance.packets))
    }
}

/// Refuses instances in which a node is the source or the destination of
/// more than one packet (the lecture's off-line lemma is for permutations).
pub(crate) fn check_partial_permutation(algorithm: &str, nodes: u32, packets: &[(u32, u32)]) -> Result<()> {
    let mut out = vec![0u32; nodes as usize];
    let mut inn = vec![0u32; nodes as usize];
    for &(s, d) in packets {
        out[s as usize] += 1;
        inn[d as usize] += 1;
    }
    for (what, counts) in [("source", &out), ("destination", &inn)] {
        if let Some(v) = counts.iter().position(|&c| c > 1) {
            return Err(Error::unsupported(
                algorithm,
                format!(
                    "needs a (partial) permutation, but node {v} is the {what} of {} packets",
                    counts[v]
                ),
            ));
        }
    }
    Ok(())
}

/// The precomputation of the lecture's Phase 1: the row (colour) each packet
/// moves to in its column, from an R-edge-colouring of the routing
/// multigraph of source columns × destination columns, padded to R-regular
/// with dummy edges. `packets` must be a partial permutation of an R×C mesh.
pub fn column_colouring(rows: u32, cols: u32, packets: &[(u32, u32)]) -> Vec<u32> {
    let (_, mut colours) = padded_colouring(rows, cols, packets);
    colours.truncate(packets.len());
    colours
}

/// The routing multigraph G_π of a partial permutation `packets` of an R×C
/// mesh — one edge (source column, destination column) per packet, then
/// the dummy edges that pad it to R-regular — and its R-edge-colouring.
fn padded_colouring(rows: u32, cols: u32, packets: &[(u32, u32)]) -> (Vec<(u32, u32)>, Vec<u32>) {
    let mut edges: Vec<(u32, u32)> = packets.iter().map(|&(s, d)| (s % cols, d % cols)).collect();
    let mut out_deg = vec![0u32; cols as usize];
    let mut in_deg = vec![0u32; cols as usize];
    for &(a, b) in &edges {
        out_deg[a as usize] += 1;
        in_deg[b as usize] += 1;
    }
    // Dummy edges: pair the missing source slots with the missing destination
    // slots in column order (any pairing keeps the multigraph R-regular).
    let missing_out = (0..cols).flat_map(|c| std::iter::repeat_n(c, (rows - out_deg[c as usize]) as usize));
    let missing_in = (0..cols).flat_map(|c| std::iter::repeat_n(c, (rows - in_deg[c as usize]) as usize));
    edges.extend(missing_out.zip(missing_in));
    debug_assert_eq!(edges.len() as u64, rows as u64 * cols as u64);
    let colours = colour_regular_bipartite(cols, rows, &edges);
    (edges, colours)
}

/// The lecture's routing graph G_π of a partial permutation `packets` of an
/// R×C mesh and the colouring `offline` plans with ([`column_colouring`]:
/// the same edges, the same colours), as the page draws it.
pub fn routing_graph(rows: u32, cols: u32, packets: &[(u32, u32)]) -> RoutingGraph {
    let (edges, colours) = padded_colouring(rows, cols, packets);
    let p = packets.len();
    let (real, dummy) = edges.split_at(p);
    let dummies = match dummy.len() {
        0 => String::new(),
        1 => ", and 1 dashed dummy edge that pads the partial permutation".to_string(),
        d => format!(", and {d} dashed dummy edges that pad the partial permutation"),
    };
    let caption = format!(
        "G_π: the {cols} source columns s0 … s{} (left) and the {cols} destination columns d0 … d{} (right), \
         one edge per packet ({p}){dummies}. Every vertex has {rows} edges, so by Hall's theorem G_π has a \
         perfect matching; taking matchings out one by one splits it into {rows} perfect matchings, one colour \
         each: every vertex meets each colour once. The packets of the colour of row i move to row i in \
         permute-columns, so no row then holds two packets for the same column. Choose a row's colour to see its \
         matching alone and its packets ringed in that colour on the network.",
        cols - 1,
        cols - 1
    );
    RoutingGraph {
        vertices: cols,
        colours: rows,
        left: "source column",
        right: "destination column",
        colour_name: "row",
        from: real.iter().map(|e| e.0).collect(),
        to: real.iter().map(|e| e.1).collect(),
        colour: colours[..p].to_vec(),
        dummy_from: dummy.iter().map(|e| e.0).collect(),
        dummy_to: dummy.iter().map(|e| e.1).collect(),
        dummy_colour: colours[p..].to_vec(),
        palette: (0..rows).map(|i| crate::palette::matching_colour(i, rows)).collect(),
        caption,
    }
}

/// A proper edge colouring with `degree` colours of a `degree`-regular
/// bipartite multigraph with `n` vertices per side; edge (a, b) joins left
/// vertex a to right vertex b. Returns each edge's colour in 0..degree.
/// (The lecture's "decompose the edge set into m perfect matchings".)
pub fn colour_regular_bipartite(n: u32, degree: u32, edges: &[(u32, u32)]) -> Vec<u32> {
    let mut colour = vec![NONE; edges.len()];
    // Work list of (edge ids, their regular degree, first colour).
    let mut work: Vec<(Vec<u32>, u32, u32)> = vec![((0..edges.len() as u32).collect(), degree, 0)];
    while let Some((ids, d, base)) = work.pop() {
        match d {
            0 => {}
            1 => ids.iter().for_each(|&e| colour[e as usize] = base),
            _ if d % 2 == 1 => {
                let mut taken = vec![false; ids.len()];
                for i in perfect_matching(n, edges, &ids) {
                    colour[ids[i as usize] as usize] = base;
                    taken[i as usize] = true;
                }
                let rest: Vec<u32> = ids.iter().zip(&taken).filter(|(_, &t)| !t).map(|(&e, _)| e).collect();
                work.push((rest, d - 1, base + 1));
            }
            _ => {
                let (a, b) = euler_split(n, edges, &ids);
                work.push((a, d / 2, base));
                work.push((b, d / 2, base + d / 2));
            }
        }
    }
    colour
}

/// Incidence lists of the edges `ids` (local indices into `ids`) for the
/// vertices 0..2n: left vertex a is a, right vertex b is n + b.
fn incidence(n: u32, edges: &[(u32, u32)], ids: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let vertices = 2 * n as usize;
    let mut start = vec![0u32; vertices + 1];
    for &e in ids {
        let (a, b) = edges[e as usize];
        start[a as usize + 1] += 1;
        start[(n + b) as usize + 1] += 1;
    }
    for v in 0..vertices {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut list = vec![0u32; 2 * ids.len()];
    for (i, &e) in ids.iter().enumerate() {
        let (a, b) = edges[e as usize];
        for v in [a as usize, (n + b) as usize] {
            list[fill[v] as usize] = i as u32;
            fill[v] += 1;
        }
    }
    (start, list)
}

/// Splits an even-degree regular bipartite multigraph into two halves of
/// half the degree: walk closed trails (with every degree even a trail can
/// only get stuck where it started; in a bipartite graph it has even length)
/// and put alternate edges into alternate halves, so every visit of a vertex
/// gives it one edge of each half.
fn euler_split(n: u32, edges: &[(u32, u32)], ids: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let (start, list) = incidence(n, edges, ids);
    let mut next = start[..start.len() - 1].to_vec();
    let mut used = vec![false; ids.len()];
    let (mut a, mut b) = (Vec::with_capacity(ids.len() / 2), Vec::with_capacity(ids.len() / 2));
    let end = |v: usize| start[v + 1];
    for origin in 0..2 * n as usize {
        loop {
            let mut v = origin;
            let mut odd = false;
            let mut moved = false;
            loop {
                while next[v] < end(v) && used[list[next[v] as usize] as usize] {
                    next[v] += 1;
                }
                if next[v] == end(v) {
                    break;
                }
                let i = list[next[v] as usize] as usize;
                used[i] = true;
                moved = true;
                let e = ids[i];
                (if odd { &mut b } else { &mut a }).push(e);
                odd = !odd;
                let (l, r) = edges[e as usize];
                v = if v == l as usize { (n + r) as usize } else { l as usize };
            }
            debug_assert!(v == origin && !odd, "an Euler trail must close with even length");
            if !moved {
                break;
            }
        }
    }
    (a, b)
}

/// A perfect matching of the regular bipartite multigraph formed by `ids`,
/// as one local index into `ids` per left vertex, by Hopcroft–Karp with
/// iterative depth-first searches.
fn perfect_matching(n: u32, edges: &[(u32, u32)], ids: &[u32]) -> Vec<u32> {
    let n = n as usize;
    // Left adjacency: (right vertex, local edge index).
    let mut start = vec![0usize; n + 1];
    for &e in ids {
        start[edges[e as usize].0 as usize + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    let mut fill = start.clone();
    let mut adj = vec![(0u32, 0u32); ids.len()];
    for (i, &e) in ids.iter().enumerate() {
        let (a, b) = edges[e as usize];
        adj[fill[a as usize]] = (b, i as u32);
        fill[a as usize] += 1;
    }
    let mut match_left = vec![NONE; n]; // local edge index
    let mut match_right = vec![NONE; n]; // left vertex
    let mut dist = vec![u32::MAX; n];
    let mut iter = vec![0usize; n];
    let mut queue = Vec::with_capacity(n);
    let mut stack: Vec<usize> = Vec::new();
    loop {
        // Breadth-first layering from the free left vertices.
        queue.clear();
        for u in 0..n {
            if match_left[u] == NONE {
                dist[u] = 0;
                queue.push(u);
            } else {
                dist[u] = u32::MAX;
            }
        }
        let mut found = false;
        let mut head = 0;
        while head < queue.len() {
            let u = queue[head];
            head += 1;
            for &(v, _) in &adj[start[u]..start[u + 1]] {
                let w = match_right[v as usize];
                if w == NONE {
                    found = true;
                } else if dist[w as usize] == u32::MAX {
                    dist[w as usize] = dist[u] + 1;
                    queue.push(w as usize);
                }
            }
        }
        if !found {
            break;
        }
        // Depth-first augmentation along the layers.
        iter.copy_from_slice(&start[..n]);
        for root in 0..n {
            if match_left[root] != NONE {
                continue;
            }
            stack.clear();
            stack.push(root);
            while let Some(&u) = stack.last() {
                if iter[u] == start[u + 1] {
                    dist[u] = u32::MAX;
                    stack.pop();
                    if let Some(&parent) = stack.last() {
                        iter[parent] += 1;
                    }
                    continue;
                }
                let (v, _) = adj[iter[u]];
                let w = match_right[v as usize];
                if w == NONE {
                    // Augment along the stack: each level takes its current edge.
                    for &x in &stack {
                        let (y, e) = adj[iter[x]];
                        match_left[x] = e;
                        match_right[y as usize] = x as u32;
                    }
                    break;
                } else if dist[w as usize] == dist[u] + 1 {
                    stack.push(w as usize);
                } else {
                    iter[u] += 1;
                }
            }
        }
    }
    debug_assert!(
        match_left.iter().all(|&e| e != NONE),
        "a regular bipartite graph has a perfect matching"
    );
    match_left
}

/// The SPEC §5 name.
pub const NAME: &str = "offline";

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "off-line column permutations from an edge colouring (Hall), then row, then column; <= 3n-3 steps",
    paper: LECTURE,
    section: "Off-line permutation routing (Lemma, Hall's theorem)",
    kinds: &[Kind::Mesh, Kind::Torus],
    shape: Shape::TwoD,
    packets: Packets::PartialPermutation,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Pipeline],
    teaching: &TEACHING,
    factory: |o| Box::new(Offline::new(o)),
    state_bytes: None,
    size_check: None,
};

/// offline.
pub const TEACHING: Teaching = Teaching {
    description: "The whole permutation is known in advance. Hall's matching theorem splits it so that after each \
                  column permutes its packets, no row holds two packets for the same column; then every row routes \
                  its packets to their columns and every column to their rows, each a conflict-free permutation of a \
                  line. The planning is done off-line and not charged.",
    phases: &[
        PhaseText {
            name: "permute-columns",
            text: "each column permutes its packets so that no row holds two packets for the same column \
                   (the permutation comes from a perfect matching)",
        },
        PhaseText {
            name: "route-row",
            text: "along the row to the destination column: no two packets of a row want the same column",
        },
        PhaseText {
            name: "route-column",
            text: "along the destination column to the destination row",
        },
        PhaseText {
            name: "pipelined",
            text: "no barriers: each packet starts its next phase as soon as it finishes the current one",
        },
    ],
    classes: Classes::Named(&[
        "phase 1: within the column",
        "phase 2: along the row",
        "phase 3: along the column",
    ]),
    headline: 0,
    claims: &[
        Claim {
            name: "the 3n − 3 bound",
            text: "any permutation of an n × n mesh in at most 3n − 3 steps (three line permutations)",
            scope: Scope::Mesh2d,
            permutation: true,
            instance: None,
            separated: true,
            policy: None,
            measure: Measure::Steps,
            strength: Strength::AtMost,
            formula: Formula::ThreeLines,
        },
        Claim {
            name: "the queue bound",
            text: "with no queue above 3 packets",
            scope: Scope::Mesh2d,
            permutation: true,
            instance: None,
            separated: true,
            policy: None,
            measure: Measure::MaxQueue,
            strength: Strength::AtMost,
            formula: Formula::Constant(3),
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng, Stream};

    fn assert_proper(n: u32, degree: u32, edges: &[(u32, u32)], colours: &[u32]) {
        let mut seen = vec![false; (2 * n * degree) as usize];
        for (&(a, b), &c) in edges.iter().zip(colours) {
            assert!(c < degree);
            for v in [a, n + b] {
                let slot = (v * degree + c) as usize;
                assert!(!seen[slot], "vertex {v} has colour {c} twice");
                seen[slot] = true;
            }
        }
    }

    /// A random `degree`-regular bipartite multigraph: the union of `degree`
    /// random perfect matchings.
    fn random_regular(n: u32, degree: u32, rng: &mut Rng) -> Vec<(u32, u32)> {
        let mut edges = Vec::new();
        for _ in 0..degree {
            let mut p: Vec<u32> = (0..n).collect();
            rng.shuffle(&mut p);
            edges.extend((0..n).map(|a| (a, p[a as usize])));
        }
        rng.shuffle(&mut edges);
        edges
    }

    #[test]
    fn colours_random_regular_multigraphs_properly() {
        let mut rng = Rng::new(5, Stream::Algorithm);
        for n in [1u32, 2, 3, 5, 8, 13, 32] {
            for degree in [1u32, 2, 3, 4, 5, 6, 7, 9, 16, 17, 31] {
                let edges = random_regular(n, degree, &mut rng);
                let colours = colour_regular_bipartite(n, degree, &edges);
                assert_proper(n, degree, &edges, &colours);
            }
        }
    }

    #[test]
    fn colours_the_complete_multigraph_of_one_column() {
        // Every packet of one source column bound for one destination column:
        // `degree` parallel edges between each pair (a, a).
        let edges: Vec<(u32, u32)> = (0..6).flat_map(|a| std::iter::repeat_n((a, a), 7)).collect();
        let colours = colour_regular_bipartite(6, 7, &edges);
        assert_proper(6, 7, &edges, &colours);
    }

    #[test]
    fn column_colouring_pads_partial_permutations() {
        // 3x4 mesh, only three packets.
        let packets = [(0u32, 11u32), (4, 7), (5, 3)];
        let colours = column_colouring(3, 4, &packets);
        assert_eq!(colours.len(), 3);
        // Packets 0 and 1 leave column 0, and all three end in column 3.
        assert_ne!(colours[0], colours[1]);
        assert_ne!(colours[1], colours[2]);
        assert_ne!(colours[0], colours[2]);
        assert!(colours.iter().all(|&c| c < 3));
    }

    #[test]
    fn refuses_non_permutations() {
        let e = check_partial_permutation("offline", 4, &[(0, 1), (2, 1)]).unwrap_err();
        assert!(e.to_string().contains("node 1 is the destination of 2 packets"), "{e}");
        let e = check_partial_permutation("offline", 4, &[(3, 1), (3, 2)]).unwrap_err();
        assert!(e.to_string().contains("node 3 is the source of 2 packets"), "{e}");
    }
}
