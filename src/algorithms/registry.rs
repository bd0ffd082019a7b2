//! The registry: every algorithm declared once — name, summary, paper and
//! section, the claim it makes, what it accepts (as data a caller can test
//! before running), its options and its factory. `routesim list`, the CLI's
//! errors, the page's menus and the experiment's boxes all read this table;
//! [`crate::Simulation::new`] refuses what an entry does not accept, so no
//! algorithm runs where its entry says it cannot.

use super::teaching::{self, Teaching};
use super::{
    Algorithm, AlgorithmOptions, BitFixing, Greedy, Ks, KsLevel, KsLocal, Lmrr, Offline, Pp, RandInterval, SortRoute,
    Valiant,
};
use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::options::Field;
use crate::topology::{Kind, Network, Topology};
use crate::workload::Instance;
use serde::Serialize;

/// What shape of network an algorithm needs beyond its topology kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// Any size and dimension of the accepted kinds.
    Any,
    /// Exactly two dimensions (R×C).
    TwoD,
    /// A square 2-D network whose side is a power of two.
    SquarePowerOfTwo,
    /// Two or more dimensions, any sides.
    MultiD,
    /// Grids of exactly two dimensions; the other kinds any size.
    GridsTwoD,
}

/// What instances an algorithm routes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Packets {
    /// Any instance.
    Any,
    /// Every node the source of at most one packet and the destination of at most one.
    PartialPermutation,
    /// An even k: the most packets a node sends or receives is even
    /// (LevelRoute's k/2 levels).
    EvenK,
}

/// One algorithm, declared once.
#[derive(Clone, Copy, Serialize)]
pub struct Entry {
    /// The SPEC §5 name.
    pub name: &'static str,
    /// One line for `routesim list` and the page's menu.
    pub summary: &'static str,
    /// The paper (file in `shared/papers/`, or a title).
    pub paper: &'static str,
    /// Where in the paper.
    pub section: &'static str,
    /// What the paper claims for it, in words.
    pub claim: &'static str,
    /// The topology kinds it runs on.
    pub kinds: &'static [Kind],
    /// The network shape it needs within those kinds.
    pub shape: Shape,
    /// The instances it routes.
    pub packets: Packets,
    /// Whether it routes each packet on its own and so takes open-loop
    /// traffic (SPEC §6: greedy, bit-fixing, valiant, rand-interval).
    pub open_loop: bool,
    /// Policies it refuses (with the reason in `policy_note`).
    pub refused_policies: &'static [Policy],
    /// Why those policies are refused.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub policy_note: &'static str,
    /// The options it reads: rows of the option table
    /// ([`crate::options::FIELDS`]), listed with their names, help, control
    /// and keys.
    #[serde(serialize_with = "option_rows")]
    pub options: &'static [Field],
    /// What it does in plain words, its phases, its packet classes and its
    /// claims as data (flattened into `list --json`).
    #[serde(flatten)]
    pub teaching: &'static Teaching,
    /// Builds the algorithm.
    #[serde(skip)]
    pub factory: fn(&AlgorithmOptions) -> Box<dyn Algorithm>,
}

/// An entry's options as `list --json` shows them: each row's CLI name,
/// help, control, JSON key and URL key.
fn option_rows<S: serde::Serializer>(options: &&'static [Field], s: S) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(options.len()))?;
    for field in options.iter() {
        let row = field.info();
        seq.serialize_element(&serde_json::json!({
            "name": row.cli,
            "summary": row.help,
            "control": row.control,
            "key": row.json,
            "query": row.query,
        }))?;
    }
    seq.end()
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

const GRIDS: &[Kind] = &[Kind::Linear, Kind::Ring, Kind::Mesh, Kind::Torus];
/// The permutation-routing lecture (file in `shared/papers/` and title).
pub const LECTURE: &str = "permutation-routing-mesh-lecture.txt (CS838, Permutation routing in mesh-based networks)";
/// The hypercube lecture.
pub const HYPERCUBE_LECTURE: &str =
    "hypercube-bit-fixing-valiant-lecture.txt (CS174 Lecture 11, Routing in a Parallel Computer)";
/// Pietracaprina–Pucci.
pub const PP: &str = "pietracaprina-pucci-many-to-one-routing-constant-queues.txt (Optimal many-to-one routing on the mesh with constant queues)";
/// Leighton–Maggs–Ranade–Rao.
pub const LMRR: &str = "leighton-maggs-ranade-rao-randomized-routing-sorting.txt (Leighton, Maggs, Ranade, Rao: Randomized routing and sorting on fixed-connection networks)";
/// Kaufmann–Sibeyn.
pub const KAUFMANN_SIBEYN: &str =
    "kaufmann-sibeyn-randomized-multipacket-routing-meshes.txt (Kaufmann, Sibeyn: Randomized multi-packet routing on meshes)";

/// Every algorithm this build implements, in the order menus show them.
pub const REGISTRY: &[Entry] = &[
    Entry {
        name: "greedy",
        summary: "dimension order, last coordinate first (X then Y); the policy settles contention",
        paper: LECTURE,
        section: "XY greedy permutation routing in 2-D mesh (Lemma); Kaufmann–Sibeyn §2",
        claim: "farthest-first routes any permutation of a side × side mesh in at most 2·side − 2 steps, with queues up to about 2·side/3",
        kinds: GRIDS,
        shape: Shape::Any,
        packets: Packets::Any,
        open_loop: true,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::ReverseOrder, Field::Flits],
        teaching: &teaching::GREEDY,
        factory: |o| Box::new(Greedy::new(o)),
    },
    Entry {
        name: "bit-fixing",
        summary: "corrects differing bits, most significant first (butterfly: level 0 to level D)",
        paper: HYPERCUBE_LECTURE,
        section: "Bit Fixing",
        claim: "a packet alone arrives in exactly its distance; some permutations (transpose) need Ω(√(N/D)) steps",
        kinds: &[Kind::Hypercube, Kind::Butterfly],
        shape: Shape::Any,
        packets: Packets::Any,
        open_loop: true,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::ReverseOrder, Field::Flits],
        teaching: &teaching::BIT_FIXING,
        factory: |o| Box::new(BitFixing::new(o)),
    },
    Entry {
        name: "valiant",
        summary: "to a uniformly random node, then to the destination (barrier, or --pipeline)",
        paper: HYPERCUBE_LECTURE,
        section: "Randomized Routing (Theorem: delay ≤ |S|; 4D per phase, 8D in all)",
        claim: "on the hypercube each phase ends within 4D steps with probability at least 1 − 2^(−1.5D): every packet arrives within 8D steps with high probability",
        kinds: &[Kind::Hypercube, Kind::Linear, Kind::Ring, Kind::Mesh, Kind::Torus],
        shape: Shape::Any,
        packets: Packets::Any,
        open_loop: true,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Pipeline, Field::ReverseOrder, Field::Flits],
        teaching: &teaching::VALIANT,
        factory: |o| Box::new(Valiant::new(o)),
    },
    Entry {
        name: "rand-interval",
        summary: "to a random row of its column interval (floor(log2 R) per column), then row, then column",
        paper: LECTURE,
        section: "Randomized permutation routing (Lemma: 2n + o(n) steps, β = O(log n))",
        claim: "farthest-first: 2·side + o(side) steps with O(log side) queues, with high probability",
        kinds: &[Kind::Mesh],
        shape: Shape::TwoD,
        packets: Packets::Any,
        open_loop: true,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Pipeline, Field::Flits],
        teaching: &teaching::RAND_INTERVAL,
        factory: |o| Box::new(RandInterval::new(o)),
    },
    Entry {
        name: "offline",
        summary: "off-line column permutations from an edge colouring (Hall), then row, then column; <= 3n-3 steps",
        paper: LECTURE,
        section: "Off-line permutation routing (Lemma, Hall's theorem)",
        claim: "at most 3·side − 3 steps with queues of at most 3 (the matching is computed off-line, not charged)",
        kinds: &[Kind::Mesh, Kind::Torus],
        shape: Shape::TwoD,
        packets: Packets::PartialPermutation,
        open_loop: false,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Pipeline],
        teaching: &teaching::OFFLINE,
        factory: |o| Box::new(Offline::new(o)),
    },
    Entry {
        name: "sort-route",
        summary: "sort by destination column (column-major snake), reverse odd columns, rows, columns; no buffers",
        paper: LECTURE,
        section: "Sorting-based permutation routing",
        claim: "the sort's time plus 3·side − 3 steps, with no queue above 3",
        kinds: &[Kind::Mesh],
        shape: Shape::SquarePowerOfTwo,
        packets: Packets::PartialPermutation,
        open_loop: false,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Pipeline],
        teaching: &teaching::SORT_ROUTE,
        factory: |o| Box::new(SortRoute::new(o)),
    },
    Entry {
        name: "pp-rand",
        summary: "Pietracaprina-Pucci randomized (l,k)-routing in O(sqrt(lkN)) steps with constant queues",
        paper: PP,
        section: "§3 (Theorem 2)",
        claim: "(ℓ,k)-routing in O(√(ℓkN)) steps with working queues of constant size, with high probability",
        kinds: &[Kind::Mesh],
        shape: Shape::SquarePowerOfTwo,
        packets: Packets::Any,
        open_loop: false,
        refused_policies: &[],
        policy_note: "",
        options: &[],
        teaching: &teaching::PP_RAND,
        factory: |o| Box::new(Pp::randomized(o)),
    },
    Entry {
        name: "pp-det",
        summary: "Pietracaprina-Pucci deterministic (l,k)-routing: pipelined prefix colouring, stripe balancing",
        paper: PP,
        section: "§4 (Theorem 5)",
        claim: "(ℓ,k)-routing in O(√(ℓkN)) steps with working queues of constant size, deterministically",
        kinds: &[Kind::Mesh],
        shape: Shape::SquarePowerOfTwo,
        packets: Packets::Any,
        open_loop: false,
        refused_policies: &[Policy::Random],
        policy_note: "it is deterministic: any other policy gives the same run for every seed",
        options: &[],
        teaching: &teaching::PP_DET,
        factory: |o| Box::new(Pp::deterministic(o)),
    },
    Entry {
        name: "ks-nowrap",
        summary: "random colour per axis; green: random row of its column, row, column; blue 90° out of phase",
        paper: KAUFMANN_SIBEYN,
        section: "§7.1 NoWrapRoute (Theorem 2); §7.3 NoWrapRoute(d) (Theorem 4)",
        claim: "k-permutations of an n×n mesh in max{3n, 2n + kn/4, kn/2} + O(√(kn log n)) steps (d dimensions: max{(2d−1)n, kn/2} + O(d·√(kn log n))), with very high probability",
        kinds: &[Kind::Mesh, Kind::Torus],
        shape: Shape::MultiD,
        packets: Packets::Any,
        open_loop: false,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Phases, Field::Smear, Field::Flits],
        teaching: &teaching::KS_NOWRAP,
        factory: |o| Box::new(Ks::nowrap(o)),
    },
    Entry {
        name: "ks-wrap",
        summary: "random colour per axis; green: random column, random row, to its column, to its row; blue 90° out of phase",
        paper: KAUFMANN_SIBEYN,
        section: "§8.1 WrapRoute (Theorems 7, 8); §8.3 WrapRoute(d) (Theorem 11)",
        claim: "k-permutations of an n×n torus in max{2n, kn/4} + O(√(kn log n)) steps (mesh: max{4n, kn/2}; d-dimensional torus: max{2dn, kn/4} + O(d·√(kn log n))), with very high probability",
        kinds: &[Kind::Mesh, Kind::Torus],
        shape: Shape::MultiD,
        packets: Packets::Any,
        open_loop: false,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Phases, Field::Smear, Field::Flits],
        teaching: &teaching::KS_WRAP,
        factory: |o| Box::new(Ks::wrap(o)),
    },
    Entry {
        name: "ks-level",
        summary: "k/2 random levels of two colours; per pass: randomize a level in strips of height epsilon, route it along the row while the previous level goes along the column",
        paper: KAUFMANN_SIBEYN,
        section: "§6 LevelRoute (Corollary 4; Theorem 1, the improved version, when k >= 4n/epsilon)",
        claim: "k-permutations (k even) of an n×n mesh in (k/2 + 1)·(n + ε + O(√(n log n))) steps (Corollary 4); for k ≥ 4n/ε, (k + 1)/2·n + k/8·ε + k·O(√(n log n)) (Theorem 1), with very high probability",
        kinds: &[Kind::Mesh, Kind::Torus],
        shape: Shape::TwoD,
        packets: Packets::EvenK,
        open_loop: false,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Epsilon, Field::Phases],
        teaching: &teaching::KS_LEVEL,
        factory: |o| Box::new(KsLevel::new(o)),
    },
    Entry {
        name: "ks-local",
        summary: "locality L: random colour; green to a random row within L/2 (mesh: its strip of L rows), along the row, along the column; blue 90° out of phase",
        paper: KAUFMANN_SIBEYN,
        section: "§9.1 LocalRoute (Theorem 13 on tori, Corollary 6; Theorem 14 on meshes, NoWrapRoute′ with ε = L); §9.2 NoLRoute with --locality unknown (Theorem 15)",
        claim: "k-k routing with locality L on an n×n torus in max{5L/2, kL} + max{L/2, kL/16} + O(√(kL log n)) steps (mesh: max{L, kL/8} + max{2L, kL} + O(√(kL log n))); with L unknown, max{n, kL/16} + kL + O(√((n + kL) log n)) on the torus, with very high probability",
        kinds: &[Kind::Mesh, Kind::Torus],
        shape: Shape::MultiD,
        packets: Packets::Any,
        open_loop: false,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Locality, Field::Phases],
        teaching: &teaching::KS_LOCAL,
        factory: |o| Box::new(KsLocal::new(o)),
    },
    Entry {
        name: "lmrr",
        summary: "random ranks, smallest first, with ghosts and end-of-stream on a leveled network; edge queues of q",
        paper: LMRR,
        section: "§2.2 (Theorem 2.9); §3 meshes (Theorem 3.1); §4 butterflies (Theorems 4.1, 4.2)",
        claim: "O(c + L + log N) steps with edge queues of constant size, with high probability: O(√N) on the mesh, O(log N) on the butterfly, log n + o(log n) for a random permutation on the butterfly",
        kinds: &[Kind::Mesh, Kind::Butterfly, Kind::Hypercube],
        shape: Shape::GridsTwoD,
        packets: Packets::Any,
        open_loop: false,
        refused_policies: &[],
        policy_note: "",
        options: &[Field::Ranks, Field::Paths, Field::Combine],
        teaching: &super::lmrr::TEACHING,
        factory: |o| Box::new(Lmrr::new(o)),
    },
];

/// The entry called `name`, or an error listing the names.
pub fn lookup(name: &str) -> Result<&'static Entry> {
    REGISTRY.iter().find(|e| e.name == name).ok_or_else(|| {
        let names: Vec<&str> = REGISTRY.iter().map(|e| e.name).collect();
        Error::invalid("algorithm", name, format!("expected one of {}", names.join(", ")))
    })
}

impl Entry {
    /// What the entry accepts, in words (e.g. "a square 2-D mesh whose side
    /// is a power of two; permutations only").
    pub fn accepts(&self) -> String {
        let kinds: Vec<&str> = self
            .kinds
            .iter()
            .map(|k| match k {
                Kind::Linear => "linear array",
                other => other.name(),
            })
            .collect();
        let kinds = match kinds.as_slice() {
            [one] => one.to_string(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
            [] => String::new(),
        };
        let mut text = match self.shape {
            Shape::Any => format!("a {kinds} (any size)"),
            Shape::TwoD => format!("a 2-D {kinds}"),
            Shape::SquarePowerOfTwo => format!("a square 2-D {kinds} whose side is a power of two"),
            Shape::MultiD => format!("a {kinds} of 2 or more dimensions (any sides)"),
            Shape::GridsTwoD => format!("a {kinds} (grids 2-D, any size)"),
        };
        match self.packets {
            Packets::PartialPermutation => text += "; (partial) permutations only",
            Packets::EvenK => text += "; even k only (k = the most packets a node sends or receives)",
            Packets::Any => {}
        }
        text
    }

    /// Refuses a topology the entry does not accept, saying what it needs.
    pub fn check_topology(&self, topology: &Topology) -> Result<()> {
        let kind_ok = self.kinds.contains(&topology.kind());
        let shape_ok = match self.shape {
            Shape::Any => true,
            Shape::TwoD => topology.mesh2d().is_some(),
            Shape::SquarePowerOfTwo => topology.square_side().is_some_and(u32::is_power_of_two),
            Shape::MultiD => topology.as_grid().is_some_and(|g| g.dims().len() >= 2),
            Shape::GridsTwoD => topology.as_grid().is_none() || topology.mesh2d().is_some(),
        };
        if kind_ok && shape_ok {
            Ok(())
        } else {
            Err(Error::unsupported(
                self.name,
                format!("needs {}, got {topology}", self.accepts()),
            ))
        }
    }

    /// Refuses a policy the entry does not accept.
    pub fn check_policy(&self, policy: Policy) -> Result<()> {
        if self.refused_policies.contains(&policy) {
            Err(Error::unsupported(
                self.name,
                format!("it refuses --policy {policy}: {}", self.policy_note),
            ))
        } else {
            Ok(())
        }
    }

    /// Refuses worms of `flits` > 1 flits unless the entry takes the
    /// `flits` option: algorithms that schedule their own moves (sorts of
    /// compare-exchanges, tours, precomputed matchings) rely on a schedule
    /// that worms holding links would break.
    pub fn check_flits(&self, flits: u32) -> Result<()> {
        if flits <= 1 || self.options.contains(&Field::Flits) {
            return Ok(());
        }
        let takers: Vec<&str> = REGISTRY
            .iter()
            .filter(|e| e.options.contains(&Field::Flits))
            .map(|e| e.name)
            .collect();
        Err(Error::unsupported(
            self.name,
            format!(
                "it refuses --flits {flits}: it schedules its own moves, and cut-through worms are for algorithms that route packets hop by hop under the engine's contention ({})",
                takers.join(", ")
            ),
        ))
    }

    /// Refuses an instance the entry does not accept (its topology and its packets).
    pub fn check_instance(&self, instance: &Instance) -> Result<()> {
        self.check_topology(&instance.topology)?;
        match self.packets {
            Packets::PartialPermutation => {
                super::offline::check_partial_permutation(self.name, instance.topology.nodes(), &instance.packets)?
            }
            Packets::EvenK => {
                super::ks_level::even_k(instance)?;
            }
            Packets::Any => {}
        }
        Ok(())
    }

    /// Refuses options the entry does not read: `smear` (only for the
    /// algorithms that list it, and only with separated phases: a smear
    /// runs at the barrier between two phases).
    pub fn check_options(&self, options: &AlgorithmOptions) -> Result<()> {
        let Some(smear) = options.smear else {
            return Ok(());
        };
        if !self.options.contains(&Field::Smear) {
            let takers: Vec<&str> = REGISTRY
                .iter()
                .filter(|e| e.options.contains(&Field::Smear))
                .map(|e| e.name)
                .collect();
            return Err(Error::invalid(
                Field::Smear.cli(),
                smear.name(),
                format!("{} does not smear queues; only {} do", self.name, takers.join(" and ")),
            ));
        }
        if options.pipelined() {
            return Err(Error::invalid(
                Field::Smear.cli(),
                smear.name(),
                "needs separated phases (a smear runs at the barrier between two phases), not coalesced",
            ));
        }
        Ok(())
    }

    /// Refuses what the entry does not accept: topology, packets, policy.
    pub fn check(&self, instance: &Instance, policy: Policy) -> Result<()> {
        self.check_instance(instance)?;
        self.check_policy(policy)
    }

    /// Builds the algorithm.
    pub fn create(&self, options: &AlgorithmOptions) -> Box<dyn Algorithm> {
        (self.factory)(options)
    }
}
