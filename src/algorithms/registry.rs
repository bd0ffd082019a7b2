//! The registry: every algorithm declared once — name, summary, paper and
//! section, the claims it makes, what it accepts (as data a caller can test
//! before running), its options and its factory. Each family's module
//! declares its own [`Entry`]; [`REGISTRY`] lists them. `routesim list`, the CLI's
//! errors, the page's menus and the experiment's boxes all read this table;
//! [`crate::Simulation::new`] refuses what an entry does not accept, so no
//! algorithm runs where its entry says it cannot.

use super::teaching::Teaching;
use super::{
    bitonic, flashsort, greedy, hypercube, ks, ks_level, ks_local, lmrr, offline, pp, rand_interval, snake_sort,
    sort_route,
};
use super::{Algorithm, AlgorithmOptions};
use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::options::{Field, Phases};
use crate::topology::{Kind, Network, Topology};
use crate::workload::Instance;
use serde::Serialize;

/// What shape of network an algorithm needs beyond its topology kinds:
/// the one vocabulary of [`crate::topology::Shape`].
pub use crate::topology::Shape;

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
    /// Sorting instances only (SPEC §5 "Sorting": a `sort-*` workload or an
    /// instance with `keys`); every other kind routes, and refuses them.
    Sort,
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
    /// Networks a section of its paper covers that this implementation
    /// does not, each with why: a refusal on such a network says so.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub not_built: &'static [(Kind, &'static str)],
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
    /// The bytes its plans hold at their peak on a network beyond the
    /// generic per-node state ([`crate::memory`]), for an algorithm that
    /// keeps more (`flashsort`'s relays and leveled networks); `None` for
    /// the others.
    #[serde(skip)]
    pub state_bytes: Option<fn(&Topology) -> u64>,
    /// A size the algorithm refuses on a network it otherwise accepts,
    /// checked with the request, before anything is generated (lmrr's
    /// shuffle-exchange above D = 20 was refused only after its workload
    /// and engine were built: 35 s and 1.3 GB at D = 24; the memory audit
    /// of 2026-12-01).
    #[serde(skip)]
    pub size_check: Option<fn(&Topology) -> Result<()>>,
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

/// The algorithm a run uses when none is named (`greedy`).
pub const DEFAULT_ALGORITHM: &str = greedy::NAME;

/// The entry of [`DEFAULT_ALGORITHM`].
pub fn default_entry() -> &'static Entry {
    lookup(DEFAULT_ALGORITHM).expect("the default algorithm is registered")
}

/// Every algorithm this build implements, in the order menus show them.
pub const REGISTRY: &[Entry] = &[
    greedy::ENTRY,
    hypercube::BIT_FIXING,
    hypercube::VALIANT,
    rand_interval::ENTRY,
    offline::ENTRY,
    sort_route::ENTRY,
    pp::RAND,
    pp::DET,
    ks::NOWRAP,
    ks::WRAP,
    ks_level::ENTRY,
    ks_local::ENTRY,
    lmrr::ENTRY,
    bitonic::ENTRY,
    // Before flashsort: a sort on a mesh defaults to the mesh's own sort.
    snake_sort::ENTRY,
    flashsort::ENTRY,
];

/// The order in which the page's experiment ticks the algorithms that can
/// run (after the run's own), up to a few: the lecture's greedy and offline
/// routing on grids, bit fixing and Valiant on cubes, then the randomized
/// algorithms of the papers (lmrr last: on a grid it is one of many, on a
/// butterfly one of two); the rest follow in the registry's order.
pub const EXPERIMENT_ORDER: &[&Entry] = &[
    &greedy::ENTRY,
    &offline::ENTRY,
    &hypercube::BIT_FIXING,
    &hypercube::VALIANT,
    &ks::NOWRAP,
    &pp::RAND,
    &lmrr::ENTRY,
];

/// The algorithms that read the option `field`, in the registry's order.
pub fn takers(field: Field) -> Vec<&'static str> {
    REGISTRY
        .iter()
        .filter(|e| e.options.contains(&field))
        .map(|e| e.name)
        .collect()
}

/// The entry called `name`, or an error listing the names.
pub fn lookup(name: &str) -> Result<&'static Entry> {
    lookup_as("algorithm", name)
}

/// [`lookup`] for a field of another name (the page's `beside`: the
/// algorithm run beside this one), named in the error.
pub fn lookup_as(field: &str, name: &str) -> Result<&'static Entry> {
    REGISTRY.iter().find(|e| e.name == name).ok_or_else(|| {
        let names: Vec<&str> = REGISTRY.iter().map(|e| e.name).collect();
        Error::invalid(field, name, format!("expected one of {}", names.join(", ")))
    })
}

impl Entry {
    /// What the paper claims for it, in one line: the text of its headline
    /// claim (one of its claims as data, so the two cannot disagree).
    pub fn claim(&self) -> &'static str {
        self.teaching.claims[self.teaching.headline].text
    }

    /// What the entry accepts, in words (e.g. "a square 2-D mesh whose side
    /// is a power of two; permutations only").
    pub fn accepts(&self) -> String {
        let mut text = self.shape.phrase_with_note(self.kinds);
        match self.packets {
            Packets::PartialPermutation => text += "; (partial) permutations only",
            Packets::EvenK => text += "; even k only (k = the most packets a node sends or receives)",
            Packets::Sort => text += "; sorting instances only (sort-* workloads, or an instance with keys)",
            Packets::Any => {}
        }
        text
    }

    /// Refuses a topology the entry does not accept, saying what it needs.
    pub fn check_topology(&self, topology: &Topology) -> Result<()> {
        if self.shape.holds_for(self.kinds, topology) {
            Ok(())
        } else {
            let why = self.shape.refusal(self.kinds, topology).map(|w| format!(" ({w})"));
            let unbuilt = self.not_built.iter().find(|(kind, _)| *kind == topology.kind());
            Err(Error::unsupported(
                self.name,
                format!(
                    "needs {}, got {topology}{}{}",
                    self.accepts(),
                    why.unwrap_or_default(),
                    unbuilt.map(|(_, note)| format!(": {note}")).unwrap_or_default()
                ),
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
        let takers = takers(Field::Flits);
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
        self.check_problem(instance)?;
        match self.packets {
            Packets::PartialPermutation => {
                super::offline::check_partial_permutation(self.name, instance.topology.nodes(), &instance.packets)?
            }
            Packets::EvenK => {
                super::ks_level::even_k(instance)?;
            }
            Packets::Any | Packets::Sort => {}
        }
        Ok(())
    }

    /// Refuses a sorting instance to a routing algorithm and a routing
    /// instance to a sorting one, naming both.
    pub fn check_problem(&self, instance: &Instance) -> Result<()> {
        // "the sorting instance sort-random", or of an unnamed one just "the sorting instance".
        let what = instance.name.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
        let sorts = self.packets == Packets::Sort;
        let sorting = instance.keys.is_some();
        if sorts && !sorting {
            let sorts: Vec<&str> = crate::workload::Workload::ALL
                .iter()
                .filter(|w| w.is_sort())
                .map(|w| w.name())
                .collect();
            return Err(Error::unsupported(
                self.name,
                format!(
                    "it sorts keys and refuses the routing instance{what}: give it a sorting instance ({}, or an instance with keys)",
                    sorts.join(", ")
                ),
            ));
        }
        if sorting && !sorts {
            let sorters: Vec<&str> = REGISTRY
                .iter()
                .filter(|e| e.packets == Packets::Sort)
                .map(|e| e.name)
                .collect();
            return Err(Error::unsupported(
                self.name,
                format!(
                    "it routes packets and refuses the sorting instance{what}: sort with {}",
                    sorters.join(" or ")
                ),
            ));
        }
        Ok(())
    }

    /// Refuses options the entry does not read: `unknown-lk` and `no-randomize` (only for
    /// the algorithms that list it), `smear` (only for the
    /// algorithms that list it, and only with separated phases: a smear
    /// runs at the barrier between two phases).
    pub fn check_options(&self, options: &AlgorithmOptions) -> Result<()> {
        if options.unknown_lk && !self.options.contains(&Field::UnknownLk) {
            return Err(Error::invalid(
                Field::UnknownLk.cli(),
                "true",
                format!(
                    "{} is told l and k; only {} learn them (Pietracaprina–Pucci §3)",
                    self.name,
                    takers(Field::UnknownLk).join(" and ")
                ),
            ));
        }
        if options.no_randomize && !self.options.contains(&Field::NoRandomize) {
            return Err(Error::invalid(
                Field::NoRandomize.cli(),
                "true",
                format!(
                    "{} has no randomizing phases to leave out; only {} does",
                    self.name,
                    takers(Field::NoRandomize).join(" and ")
                ),
            ));
        }
        let Some(smear) = options.smear else {
            return Ok(());
        };
        if !self.options.contains(&Field::Smear) {
            let takers = takers(Field::Smear);
            return Err(Error::invalid(
                Field::Smear.cli(),
                smear.name(),
                format!("{} does not smear queues; only {} do", self.name, takers.join(" and ")),
            ));
        }
        // The takers are ks-*, whose phases `--phases` coalesces (`--pipeline` is other algorithms').
        if options.phases == Phases::Coalesced {
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
