//! Networks (SPEC §2): linear arrays, rings, meshes and tori of any
//! dimension, hypercubes, butterflies and shuffle-exchange graphs. Only this module knows neighbour
//! arithmetic; the engine and every algorithm go through [`Network`].
//!
//! Links are addressed by `(node, port)`; the directed link id is
//! `node * ports() + port`. Ports that lead nowhere (a mesh border) have no
//! neighbour.

mod butterfly;
mod grid;
mod hypercube;
mod se_butterflies;
mod shape;
mod shuffle_exchange;

pub use butterfly::Butterfly;
pub use butterfly::MAX_BUTTERFLY_DIM;
pub(crate) use grid::direction as line_direction;
pub use grid::{instance_locality, packet_locality, Grid};
pub use hypercube::Hypercube;
pub use se_butterflies::{ButterflyNode, Hops, SeButterflies};
pub use shape::Shape;
pub use shuffle_exchange::{Necklaces, ShuffleExchange};

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// The largest number of nodes a topology may have (checked arithmetic).
pub const MAX_NODES: u64 = 1 << 26;

/// The most sides (dimensions) a grid may have.
pub const MAX_SIDES: usize = 16;

/// One hop of a route: the port to leave by, and how far the packet still
/// has to go along that port's dimension (the key of `farthest-first`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hop {
    /// Outgoing port at the current node.
    pub port: u32,
    /// Remaining distance to the target along this port's dimension, this hop included.
    pub remaining_in_dim: u32,
    /// The node this hop leads to.
    pub next: u32,
}

/// The order in which a dimension-order route corrects dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RouteOrder {
    /// SPEC §5: on grids the last coordinate first (X then Y on a 2-D mesh);
    /// on hypercubes the most significant bit first.
    #[default]
    Standard,
    /// The reverse order (Y then X; least significant bit first).
    Reversed,
}

/// What the engine and algorithms need to know about a network.
pub trait Network {
    /// Number of nodes.
    fn nodes(&self) -> u32;
    /// Ports per node (some may lead nowhere).
    fn ports(&self) -> u32;
    /// The node at the other end of `port`, if that link exists.
    fn neighbor(&self, node: u32, port: u32) -> Option<u32>;
    /// The dimension a port moves along (for the per-dimension policies).
    fn port_dim(&self, port: u32) -> u32;
    /// Shortest-path hop count.
    fn distance(&self, a: u32, b: u32) -> u32;
    /// Largest distance between two nodes.
    fn diameter(&self) -> u32;
    /// Undirected links crossing a minimum bisection.
    fn bisection_width(&self) -> u64;
    /// The next hop of the canonical shortest route from `cur` to `target`
    /// (dimension order, SPEC §5), or `None` when `cur == target`. `packet`
    /// breaks torus ties (SPEC §2: even ids go the positive way).
    fn next_hop(&self, cur: u32, target: u32, packet: u32, order: RouteOrder) -> Option<Hop>;
    /// Distance travelled along dimension `dim` from `from` to `to`
    /// (the key of `farthest-origin`).
    fn dim_distance(&self, from: u32, to: u32, dim: u32) -> u32;

    /// The distance from `a` to `b` if it is more than `floor`, else `None`
    /// (the distance bound's maximum, where a network's distance is costly).
    fn distance_above(&self, a: u32, b: u32, floor: u32) -> Option<u32> {
        Some(self.distance(a, b)).filter(|&d| d > floor)
    }

    /// Number of existing ports at `node` (its degree).
    fn degree(&self, node: u32) -> u32 {
        (0..self.ports()).filter(|&p| self.neighbor(node, p).is_some()).count() as u32
    }
    /// The port of `a` whose link leads to `b`, if they are neighbours.
    fn port_to(&self, a: u32, b: u32) -> Option<u32> {
        (0..self.ports()).find(|&p| self.neighbor(a, p) == Some(b))
    }
    /// Number of directed links.
    fn directed_links(&self) -> u64 {
        (0..self.nodes()).map(|v| self.degree(v) as u64).sum()
    }
}

/// The kinds of network of SPEC §2, as the names users type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `linear:N`
    Linear,
    /// `ring:N`
    Ring,
    /// `mesh:RxC` or `mesh:AxBxC…`
    Mesh,
    /// `torus:RxC` or `torus:AxBxC…`
    Torus,
    /// `hypercube:D`
    Hypercube,
    /// `butterfly:D`
    Butterfly,
    /// `shuffle-exchange:D`
    ShuffleExchange,
}

impl Kind {
    /// All kinds, in the order `routesim list` shows them.
    pub const ALL: [Kind; 7] = [
        Kind::Linear,
        Kind::Ring,
        Kind::Mesh,
        Kind::Torus,
        Kind::Hypercube,
        Kind::Butterfly,
        Kind::ShuffleExchange,
    ];

    /// The SPEC name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Linear => "linear",
            Kind::Ring => "ring",
            Kind::Mesh => "mesh",
            Kind::Torus => "torus",
            Kind::Hypercube => "hypercube",
            Kind::Butterfly => "butterfly",
            Kind::ShuffleExchange => "shuffle-exchange",
        }
    }

    /// The kind as a noun in words ("linear array", "mesh").
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Linear => "linear array",
            Kind::ShuffleExchange => "shuffle-exchange graph",
            other => other.name(),
        }
    }

    /// The parameter syntax, for `routesim list`.
    pub fn syntax(self) -> &'static str {
        match self {
            Kind::Linear => "linear:N",
            Kind::Ring => "ring:N (N >= 3)",
            Kind::Mesh => "mesh:RxC or mesh:AxBxC...",
            Kind::Torus => "torus:RxC or torus:AxBxC... (sides >= 3)",
            Kind::Hypercube => "hypercube:D",
            Kind::Butterfly => "butterfly:D",
            Kind::ShuffleExchange => "shuffle-exchange:D (1 <= D <= 26)",
        }
    }

    /// The size the page starts from when the user picks this kind (its
    /// parameter, e.g. `16x16`): a network the page draws and runs at once.
    pub fn default_size(self) -> &'static str {
        match self {
            Kind::Linear | Kind::Ring => "32",
            Kind::Mesh | Kind::Torus => "16x16",
            Kind::Hypercube => "6",
            Kind::Butterfly => "4",
            Kind::ShuffleExchange => "6",
        }
    }

    /// The network of this kind at [`Kind::default_size`] (`mesh:16x16`).
    pub fn default_topology(self) -> Option<Topology> {
        format!("{}:{}", self.name(), self.default_size()).parse().ok()
    }

    /// The sizes the page's experiment sweeps by default for this kind (a
    /// side, or the dimension D), within the page's limits.
    pub fn sweep_sizes(self) -> &'static str {
        match self {
            Kind::Linear | Kind::Ring => "16,32,64,128",
            Kind::Mesh => "8,16,32,64",
            Kind::Torus => "8,12,16,24,32",
            Kind::Hypercube => "3,4,5,6,7,8",
            Kind::Butterfly => "2,3,4,5,6",
            Kind::ShuffleExchange => "4,6,8,10,12",
        }
    }
}

/// A concrete network. An enum rather than a trait object so the engine's
/// inner loop dispatches statically.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Topology {
    /// Linear arrays, rings, meshes and tori of any dimension.
    Grid(Grid),
    /// The binary hypercube.
    Hypercube(Hypercube),
    /// The (unwrapped) butterfly with levels 0..D.
    Butterfly(Butterfly),
    /// The shuffle-exchange graph.
    ShuffleExchange(ShuffleExchange),
}

macro_rules! dispatch {
    ($self:ident, $t:ident => $e:expr) => {
        match $self {
            Topology::Grid($t) => $e,
            Topology::Hypercube($t) => $e,
            Topology::Butterfly($t) => $e,
            Topology::ShuffleExchange($t) => $e,
        }
    };
}

impl Network for Topology {
    #[inline]
    fn nodes(&self) -> u32 {
        dispatch!(self, t => t.nodes())
    }
    #[inline]
    fn ports(&self) -> u32 {
        dispatch!(self, t => t.ports())
    }
    #[inline]
    fn neighbor(&self, node: u32, port: u32) -> Option<u32> {
        dispatch!(self, t => t.neighbor(node, port))
    }
    #[inline]
    fn port_dim(&self, port: u32) -> u32 {
        dispatch!(self, t => t.port_dim(port))
    }
    #[inline]
    fn distance(&self, a: u32, b: u32) -> u32 {
        dispatch!(self, t => t.distance(a, b))
    }
    #[inline]
    fn distance_above(&self, a: u32, b: u32, floor: u32) -> Option<u32> {
        dispatch!(self, t => t.distance_above(a, b, floor))
    }
    fn diameter(&self) -> u32 {
        dispatch!(self, t => t.diameter())
    }
    fn bisection_width(&self) -> u64 {
        dispatch!(self, t => t.bisection_width())
    }
    #[inline]
    fn next_hop(&self, cur: u32, target: u32, packet: u32, order: RouteOrder) -> Option<Hop> {
        dispatch!(self, t => t.next_hop(cur, target, packet, order))
    }
    #[inline]
    fn dim_distance(&self, from: u32, to: u32, dim: u32) -> u32 {
        dispatch!(self, t => t.dim_distance(from, to, dim))
    }
    fn degree(&self, node: u32) -> u32 {
        dispatch!(self, t => t.degree(node))
    }
    fn directed_links(&self) -> u64 {
        dispatch!(self, t => t.directed_links())
    }
}

impl Topology {
    /// Node `node` in the network's own terms, for a tooltip: a mesh's or
    /// torus's coordinates (`row r, col c` in 2-D, `(x, y, z)` otherwise),
    /// a hypercube node's binary label, a butterfly node's level and row, a
    /// linear array's or ring's position.
    pub fn describe_node(&self, node: u32) -> String {
        match self {
            Topology::Grid(g) if matches!(g.kind(), Kind::Mesh | Kind::Torus) => {
                let c = g.coords(node);
                match c.as_slice() {
                    [row, col] => format!("row {row}, col {col}"),
                    _ => format!("({})", c.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")),
                }
            }
            Topology::Hypercube(h) => format!("label {node:0width$b}", width = h.dim() as usize),
            Topology::ShuffleExchange(g) => format!("label {node:0width$b}", width = g.dim() as usize),
            Topology::Butterfly(b) => {
                let (level, row) = b.split(node);
                format!("level {level}, row {row}")
            }
            Topology::Grid(_) => format!("position {node}"),
        }
    }

    /// The kind of network.
    pub fn kind(&self) -> Kind {
        match self {
            Topology::Grid(g) => g.kind(),
            Topology::Hypercube(_) => Kind::Hypercube,
            Topology::Butterfly(_) => Kind::Butterfly,
            Topology::ShuffleExchange(_) => Kind::ShuffleExchange,
        }
    }

    /// The grid, if this is a linear array, ring, mesh or torus.
    pub fn as_grid(&self) -> Option<&Grid> {
        match self {
            Topology::Grid(g) => Some(g),
            _ => None,
        }
    }

    /// `(rows, cols)` if this is a 2-D mesh or torus.
    pub fn mesh2d(&self) -> Option<(u32, u32)> {
        match self {
            Topology::Grid(g) if g.dims().len() == 2 => Some((g.dims()[0], g.dims()[1])),
            _ => None,
        }
    }

    /// The side length when this is a square 2-D mesh or torus.
    pub fn square_side(&self) -> Option<u32> {
        self.mesh2d().filter(|(r, c)| r == c).map(|(r, _)| r)
    }

    /// The size parameters: a grid's sides, a hypercube's or butterfly's dimension.
    pub fn size_parameters(&self) -> Vec<u32> {
        match self {
            Topology::Grid(g) => g.dims().to_vec(),
            Topology::Hypercube(h) => vec![h.dim()],
            Topology::Butterfly(b) => vec![b.dim()],
            Topology::ShuffleExchange(g) => vec![g.dim()],
        }
    }

    /// Walks the route of a packet from `from` through the targets `via`
    /// in turn and on to `dest`, calling `link(node, port)` for every hop,
    /// and stops where it reaches `dest` (SPEC §1: a packet is delivered on
    /// arrival, even on its way to an earlier target). `packet` is the
    /// ring-tie parity (SPEC §2) and `order` the dimension order. Returns
    /// the hops made.
    pub fn walk_route(
        &self,
        from: u32,
        via: &[u32],
        dest: u32,
        packet: u32,
        order: RouteOrder,
        mut link: impl FnMut(u32, u32),
    ) -> u32 {
        let (mut at, mut hops) = (from, 0);
        for &target in via.iter().chain(std::iter::once(&dest)) {
            while at != dest {
                let Some(hop) = self.next_hop(at, target, packet, order) else {
                    break;
                };
                link(at, hop.port);
                at = hop.next;
                hops += 1;
            }
        }
        hops
    }

    /// `table[node * ports + port]` = the node at the other end of that
    /// directed link, 2³²−1 where there is none (what the page draws from).
    pub fn neighbor_table(&self) -> Vec<u32> {
        let ports = self.ports();
        let mut table = vec![u32::MAX; self.nodes() as usize * ports as usize];
        for v in 0..self.nodes() {
            for p in 0..ports {
                if let Some(w) = self.neighbor(v, p) {
                    table[(v * ports + p) as usize] = w;
                }
            }
        }
        table
    }
}

impl fmt::Display for Topology {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Topology::Grid(g) => {
                let sides: Vec<String> = g.dims().iter().map(|s| s.to_string()).collect();
                write!(f, "{}:{}", g.kind().name(), sides.join("x"))
            }
            Topology::Hypercube(h) => write!(f, "hypercube:{}", h.dim()),
            Topology::Butterfly(b) => write!(f, "butterfly:{}", b.dim()),
            Topology::ShuffleExchange(g) => write!(f, "shuffle-exchange:{}", g.dim()),
        }
    }
}

fn parse_number(spec: &str, text: &str, what: &str) -> Result<u32> {
    let t = text.trim();
    let whole = !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    // Digits only: Rust's parse would take a leading '+' ("mesh:+3x3").
    t.parse::<u32>().ok().filter(|_| whole).ok_or_else(|| {
        let why = if whole {
            format!("{what} '{text}' is too large (at most {})", u32::MAX)
        } else {
            format!("{what} '{text}' is not a non-negative integer")
        };
        Error::invalid("topology", spec, why)
    })
}

impl FromStr for Topology {
    type Err = Error;

    /// Parses the SPEC §2 names, e.g. `mesh:16x16`, `torus:4x4x4`, `hypercube:8`.
    fn from_str(spec: &str) -> Result<Self> {
        let bad = |reason: &str| Error::invalid("topology", spec, reason.to_string());
        let (kind, params) = spec
            .split_once(':')
            .ok_or_else(|| bad("expected KIND:SIZE, e.g. mesh:16x16 (see `routesim list`)"))?;
        let kind = match kind.trim() {
            "linear" => Kind::Linear,
            "ring" => Kind::Ring,
            "mesh" => Kind::Mesh,
            "torus" => Kind::Torus,
            "hypercube" => Kind::Hypercube,
            "butterfly" => Kind::Butterfly,
            "shuffle-exchange" => Kind::ShuffleExchange,
            _ => {
                return Err(bad(
                    "unknown kind; expected linear, ring, mesh, torus, hypercube, butterfly or shuffle-exchange",
                ))
            }
        };
        match kind {
            Kind::Hypercube | Kind::Butterfly | Kind::ShuffleExchange => {
                let d = parse_number(spec, params, "dimension")?;
                match kind {
                    Kind::Hypercube => Ok(Topology::Hypercube(Hypercube::new(d).map_err(|r| bad(&r))?)),
                    Kind::Butterfly => Ok(Topology::Butterfly(Butterfly::new(d).map_err(|r| bad(&r))?)),
                    _ => Ok(Topology::ShuffleExchange(ShuffleExchange::new(d).map_err(|r| bad(&r))?)),
                }
            }
            _ => {
                let sides = params
                    .split('x')
                    .map(|s| parse_number(spec, s, "side"))
                    .collect::<Result<Vec<u32>>>()?;
                if matches!(kind, Kind::Linear | Kind::Ring) && sides.len() != 1 {
                    return Err(bad("linear and ring take one size, e.g. ring:16"));
                }
                Ok(Topology::Grid(Grid::new(kind, sides).map_err(|r| bad(&r))?))
            }
        }
    }
}

impl serde::Serialize for Kind {
    /// A kind serializes as its SPEC name.
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nodes_described_in_their_networks_terms() {
        let name = |t: &str, v| t.parse::<super::Topology>().unwrap().describe_node(v);
        assert_eq!(name("mesh:4x5", 7), "row 1, col 2");
        assert_eq!(name("torus:3x3x3", 5), "(0, 1, 2)");
        assert_eq!(name("hypercube:4", 5), "label 0101");
        assert_eq!(name("butterfly:3", 13), "level 1, row 5");
        assert_eq!(name("ring:8", 6), "position 6");
    }

    use super::*;

    fn t(s: &str) -> Topology {
        s.parse().unwrap()
    }

    #[test]
    fn parse_and_display_round_trip() {
        for s in [
            "linear:7",
            "ring:5",
            "mesh:4x6",
            "torus:3x4x5",
            "hypercube:5",
            "butterfly:3",
            "mesh:2x3x4",
            "shuffle-exchange:5",
        ] {
            assert_eq!(t(s).to_string(), s);
        }
    }

    #[test]
    fn bad_names_are_refused_with_the_value() {
        for s in [
            "mesh",
            "blob:3",
            "mesh:0x4",
            "ring:2",
            "torus:2x4",
            "mesh:ax4",
            "hypercube:40",
            "mesh:100000x100000",
            "linear:3x3",
            "shuffle-exchange:0",
            "shuffle-exchange:27",
            "butterfly:22",
            "shuffle-exchange:3x3",
            "mesh:+3x3",
            "hypercube:+4",
            "mesh:3x-3",
        ] {
            let e = s.parse::<Topology>().unwrap_err().to_string();
            assert!(e.contains(s), "{e}");
        }
    }

    #[test]
    fn counts_and_diameters() {
        let m = t("mesh:4x6");
        assert_eq!(m.nodes(), 24);
        assert_eq!(m.diameter(), 3 + 5);
        assert_eq!(m.directed_links(), 2 * (4 * 5 + 3 * 6));
        assert_eq!(m.bisection_width(), 4);
        let tor = t("torus:4x6");
        assert_eq!(tor.diameter(), 2 + 3);
        assert_eq!(tor.directed_links(), 24 * 4);
        assert_eq!(tor.bisection_width(), 8);
        let h = t("hypercube:4");
        assert_eq!(
            (h.nodes(), h.diameter(), h.bisection_width(), h.directed_links()),
            (16, 4, 8, 64)
        );
        let b = t("butterfly:3");
        assert_eq!((b.nodes(), b.diameter(), b.bisection_width()), (32, 6, 8));
        assert_eq!(b.directed_links(), 2 * 3 * 8 * 2);
        assert_eq!(
            (
                t("linear:5").diameter(),
                t("ring:5").diameter(),
                t("ring:6").bisection_width()
            ),
            (4, 2, 2)
        );
    }

    /// BFS distances agree with the closed forms, and following `next_hop`
    /// takes exactly `distance` hops, on every kind of network.
    #[test]
    fn next_hop_follows_shortest_paths() {
        for s in [
            "linear:6",
            "ring:7",
            "ring:6",
            "mesh:3x5",
            "torus:4x5",
            "mesh:2x3x2",
            "torus:3x4x3",
            "hypercube:4",
            "butterfly:3",
            "shuffle-exchange:5",
            "shuffle-exchange:6",
        ] {
            let topo = t(s);
            let n = topo.nodes();
            for a in 0..n {
                let bfs = bfs(&topo, a);
                for b in 0..n {
                    assert_eq!(topo.distance(a, b), bfs[b as usize], "{s} {a}->{b}");
                    for order in [RouteOrder::Standard, RouteOrder::Reversed] {
                        for pid in 0..2 {
                            let mut cur = a;
                            let mut hops = 0;
                            while let Some(h) = topo.next_hop(cur, b, pid, order) {
                                assert!(h.remaining_in_dim >= 1);
                                cur = topo.neighbor(cur, h.port).expect("hop over a missing link");
                                assert_eq!(cur, h.next);
                                hops += 1;
                                assert!(hops <= n);
                            }
                            assert_eq!((cur, hops), (b, bfs[b as usize]), "{s} {a}->{b}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn neighbors_are_symmetric() {
        for s in ["ring:5", "torus:3x4", "mesh:3x3", "hypercube:3", "butterfly:2"] {
            let topo = t(s);
            for v in 0..topo.nodes() {
                for p in 0..topo.ports() {
                    if let Some(w) = topo.neighbor(v, p) {
                        assert!((0..topo.ports()).any(|q| topo.neighbor(w, q) == Some(v)), "{s}");
                    }
                }
            }
        }
    }

    fn bfs(topo: &Topology, a: u32) -> Vec<u32> {
        let mut dist = vec![u32::MAX; topo.nodes() as usize];
        dist[a as usize] = 0;
        let mut q = std::collections::VecDeque::from([a]);
        while let Some(v) = q.pop_front() {
            for p in 0..topo.ports() {
                if let Some(w) = topo.neighbor(v, p) {
                    if dist[w as usize] == u32::MAX {
                        dist[w as usize] = dist[v as usize] + 1;
                        q.push_back(w);
                    }
                }
            }
        }
        dist
    }
}
