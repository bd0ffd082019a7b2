//! One table of options: every field of a run request is one row of
//! [`FIELDS`] — its CLI flag, its JSON key, its URL key, its help, how the
//! page offers it and, for an algorithm's option, how it is parsed, shown,
//! reset and written to JSON. Every front end reads the rows: the CLI builds
//! its option flags from them ([`crate::cli`]), the wasm config and the
//! page's address are read through them ([`crate::request::RunSpec::set`]),
//! `list --json` and the page's options box show them
//! ([`crate::catalogue`]). A registry entry names the fields it reads.
//!
//! The options an algorithm reads are held by one value,
//! [`AlgorithmOptions`], which the run request nests and the simulation
//! takes whole. Adding an option is a row here, a field of
//! [`AlgorithmOptions`], and the family that reads it (its registry entry
//! lists the field); `docs/architecture.md` walks through it.
//!
//! This module sits below the algorithms (it knows none of them) and above
//! the engine and the workloads (the flits limit, the instance a smear block
//! is sized for).

use crate::engine::MAX_FLITS;
use crate::error::{Error, Result};
use serde::Serialize;

mod values;

use values::{locality_text, parse_locality, parse_smear};

pub use values::{
    max_seed, parse_bool, parse_number, parse_seed, parse_u32, AlgorithmOptions, Loading, PathChoice, Phases, Smear,
    PAGE_MAX_SEED,
};

/// A field of the run request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The network (SPEC §2 name).
    Topology,
    /// The algorithm (SPEC §5 name).
    Algorithm,
    /// The contention policy.
    Policy,
    /// The workload to generate.
    Workload,
    /// An instance (SPEC §3 JSON text) instead of a workload.
    Instance,
    /// ℓ.
    L,
    /// k.
    K,
    /// `locality`'s L.
    Locality,
    /// `hotspot`'s percentage.
    Hotspot,
    /// The seed of the workload and of every random choice.
    Seed,
    /// Queue capacity (`unbounded` for none).
    QueueCap,
    /// One queue per incoming link.
    EdgeQueues,
    /// Pipelined phases.
    Pipeline,
    /// The Kaufmann–Sibeyn family's phases: separated or coalesced.
    Phases,
    /// Queue smearing (Kaufmann–Sibeyn §7.5): a block length or `auto`.
    Smear,
    /// `ks-nowrap`: leave out the randomizing phases (§7.4's average case).
    NoRandomize,
    /// Reverse dimension order.
    ReverseOrder,
    /// `ks-level`'s strip height ε.
    Epsilon,
    /// `ks-level`: superior and inferior regions (§6.1.1).
    Superior,
    /// Cut-through worms of F flits.
    Flits,
    /// `lmrr`: ranks drawn from [1, R].
    Ranks,
    /// `lmrr`: direct or Valiant paths.
    Paths,
    /// `lmrr`: packet combining (§2.3.1).
    Combine,
    /// `flashsort`: the lightly loaded sort inside Columnsort, or one
    /// recursion of all keys (§8).
    Loading,
    /// Pietracaprina–Pucci: the nodes are not told ℓ and k (§3).
    UnknownLk,
    /// Step limit.
    MaxSteps,
    /// Invariant checks after every step.
    CheckInvariants,
}

/// How the page offers an algorithm's option (what it draws for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Control {
    /// On or off (`true` / `false`; a checkbox).
    Flag,
    /// One of these names, the first the default (a menu).
    Choice {
        /// The names.
        values: &'static [&'static str],
    },
    /// A whole number in `min..=max`; empty means the default, described by
    /// `unset`; the option may also take the forms in `words` (a text box).
    Number {
        /// The smallest value.
        min: u32,
        /// The largest value.
        max: u32,
        /// What an empty box means.
        unset: &'static str,
        /// Other values the option takes besides numbers (`[]`: none).
        words: &'static [&'static str],
    },
}

/// How a field held by [`AlgorithmOptions`] is read, shown, reset and
/// written: one function each, so no front end matches on the field.
#[derive(Clone, Copy)]
pub struct Access {
    /// Sets it from text; the name is the field as the user wrote it.
    pub set: fn(&mut AlgorithmOptions, &str, &str) -> Result<()>,
    /// Its value as text (for messages).
    pub show: fn(&AlgorithmOptions) -> String,
    /// Back to its default; whether it was set.
    pub reset: fn(&mut AlgorithmOptions) -> bool,
    /// Its JSON value, `None` at its default (left out of a config).
    pub json: fn(&AlgorithmOptions) -> Option<serde_json::Value>,
}

/// One field, declared once.
#[derive(Clone, Copy)]
pub struct FieldInfo {
    /// The field.
    pub field: Field,
    /// The CLI's option name, without dashes (`queue-cap`).
    pub cli: &'static str,
    /// The key of the wasm config object and of JSON configs (`queue_cap`).
    pub json: &'static str,
    /// The page's URL parameter (SPEC §7), for the fields its address carries.
    pub query: Option<&'static str>,
    /// What it does (the CLI's help, `list --json`'s summary of an option).
    pub help: &'static str,
    /// The value's name in the CLI's help (`M|auto`); empty for a switch.
    pub value_name: &'static str,
    /// The value the CLI's option takes when it is given with no value
    /// (`None`: a value is required). SPEC §5 writes queue smearing as a
    /// bare `--smear`: Theorem 6's block, `auto`.
    pub bare: Option<&'static str>,
    /// How the page offers it, for the fields that are algorithms' options.
    pub control: Option<Control>,
    /// For the fields [`AlgorithmOptions`] holds: how they are read and
    /// written. The request's own fields (network, workload, seed, queues,
    /// limits) are read by [`crate::request::RunSpec::set`].
    pub access: Option<Access>,
}

impl std::fmt::Debug for FieldInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FieldInfo")
            .field("field", &self.field)
            .finish_non_exhaustive()
    }
}

/// The word of `locality` that keeps L from ks-local's nodes (NoLRoute, §9.2).
pub const UNKNOWN_LOCALITY: &str = "unknown";

/// The largest R of `--ranks` (ranks are drawn from [1, R]).
pub const MAX_RANKS: u32 = 1 << 30;

/// A request field that is not an algorithm's option.
const fn plain(
    field: Field,
    cli: &'static str,
    json: &'static str,
    query: Option<&'static str>,
    help: &'static str,
) -> FieldInfo {
    FieldInfo {
        field,
        cli,
        json,
        query,
        help,
        value_name: "",
        bare: None,
        control: None,
        access: None,
    }
}

/// Every field, in [`Field::ALL`]'s order.
pub const FIELDS: [FieldInfo; 27] = [
    plain(Field::Topology, "topology", "topology", Some("topology"), "the network (SPEC §2 name)"),
    plain(Field::Algorithm, "algorithm", "algorithm", Some("algorithm"), "the algorithm (SPEC §5 name)"),
    plain(Field::Policy, "policy", "policy", Some("policy"), "the contention policy"),
    plain(Field::Workload, "workload", "workload", Some("workload"), "the workload to generate"),
    plain(Field::Instance, "instance", "instance", None, "an instance (SPEC §3) instead of a workload"),
    plain(Field::L, "l", "l", Some("l"), "ℓ: the most packets a node sends"),
    plain(Field::K, "k", "k", Some("k"), "k: the most packets a node receives"),
    FieldInfo {
        field: Field::Locality,
        cli: "locality",
        json: "locality",
        query: Some("locality"),
        help: "L, the largest move of a packet along one axis, known to all nodes (default: the instance's own); unknown (unknown:L for the workload's L): the nodes estimate it (NoLRoute, §9.2, n×n torus)",
        value_name: "L|unknown|unknown:L",
        bare: None,
        control: Some(Control::Number {
            min: 1,
            max: 4096,
            unset: "the instance's",
            words: &["unknown", "unknown:L"],
        }),
        access: Some(Access {
            set: |o, name, text| {
                (o.locality, o.locality_unknown) = parse_locality(name, text)?;
                Ok(())
            },
            show: |o| locality_text(o.locality, o.locality_unknown).unwrap_or_else(|| "the default".into()),
            // `locality` is also the workloads' parameter: kept.
            reset: |_| false,
            json: |o| match o.locality_unknown {
                false => o.locality.map(|v| serde_json::json!(v)),
                true => locality_text(o.locality, true).map(serde_json::Value::from),
            },
        }),
    },
    plain(Field::Hotspot, "hotspot", "hotspot", Some("hotspot"), "hotspot's percentage"),
    plain(Field::Seed, "seed", "seed", Some("seed"), "the seed of the workload and of every random choice"),
    plain(Field::QueueCap, "queue-cap", "queue_cap", Some("q"), "queue capacity (unbounded for none)"),
    plain(Field::EdgeQueues, "edge-queues", "edge_queues", Some("edge-queues"), "one queue per incoming link"),
    FieldInfo {
        field: Field::Pipeline,
        cli: "pipeline",
        json: "pipeline",
        query: Some("pipeline"),
        help: "start a packet's next phase as soon as it can instead of at a barrier",
        value_name: "",
        bare: None,
        control: Some(Control::Flag),
        access: Some(Access {
            set: |o, name, text| {
                o.pipeline = parse_bool(name, text)?;
                Ok(())
            },
            show: |o| o.pipeline.to_string(),
            reset: |o| std::mem::take(&mut o.pipeline),
            json: |o| o.pipeline.then_some(serde_json::json!(true)),
        }),
    },
    FieldInfo {
        field: Field::Phases,
        cli: "phases",
        json: "phases",
        query: Some("phases"),
        help: "separated (a barrier between phases, the default) or coalesced (a packet starts its next phase when done)",
        value_name: "separated|coalesced",
        bare: None,
        control: Some(Control::Choice {
            values: &["separated", "coalesced"],
        }),
        access: Some(Access {
            set: |o, name, text| {
                o.phases = Phases::parse(name, text)?;
                Ok(())
            },
            show: |o| o.phases.name().into(),
            reset: |o| std::mem::take(&mut o.phases) != Phases::default(),
            json: |o| (o.phases != Phases::default()).then(|| serde_json::json!(o.phases.name())),
        }),
    },
    FieldInfo {
        field: Field::Smear,
        cli: "smear",
        json: "smear",
        query: Some("smear"),
        help: "queue smearing (§7.5): before every phase but the first, spread the packets of m adjacent nodes of a line (m or auto = k·log2 side) over them; off (or an empty value) for none",
        value_name: "M|auto|off",
        bare: Some("auto"),
        control: Some(Control::Choice {
            values: &["off", "auto", "1", "2", "4", "8", "16", "32", "64"],
        }),
        access: Some(Access {
            set: |o, name, text| {
                o.smear = parse_smear(name, text)?;
                Ok(())
            },
            show: |o| o.smear.map_or_else(|| "off".into(), Smear::name),
            reset: |o| o.smear.take().is_some(),
            json: |o| o.smear.map(|m| serde_json::json!(m.name())),
        }),
    },
    FieldInfo {
        field: Field::NoRandomize,
        cli: "no-randomize",
        json: "no_randomize",
        query: Some("no-randomize"),
        help: "leave out NoWrapRoute's randomizing phases: route to the destination along each axis in turn (§7.4's average case, for random k-permutations)",
        value_name: "",
        bare: None,
        control: Some(Control::Flag),
        access: Some(Access {
            set: |o, name, text| {
                o.no_randomize = parse_bool(name, text)?;
                Ok(())
            },
            show: |o| o.no_randomize.to_string(),
            reset: |o| std::mem::take(&mut o.no_randomize),
            json: |o| o.no_randomize.then_some(serde_json::json!(true)),
        }),
    },
    FieldInfo {
        field: Field::ReverseOrder,
        cli: "reverse-order",
        json: "reverse_order",
        query: Some("reverse-order"),
        help: "correct dimensions in the reverse order (Y before X; low bits first)",
        value_name: "",
        bare: None,
        control: Some(Control::Flag),
        access: Some(Access {
            set: |o, name, text| {
                o.reverse_order = parse_bool(name, text)?;
                Ok(())
            },
            show: |o| o.reverse_order.to_string(),
            reset: |o| std::mem::take(&mut o.reverse_order),
            json: |o| o.reverse_order.then_some(serde_json::json!(true)),
        }),
    },
    FieldInfo {
        field: Field::Epsilon,
        cli: "epsilon",
        json: "epsilon",
        query: Some("epsilon"),
        help: "the height of the strips packets are randomized in (default ceil(side/8))",
        value_name: "E",
        bare: None,
        control: Some(Control::Number {
            min: 1,
            max: 4096,
            unset: "⌈side/8⌉",
            words: &[],
        }),
        access: Some(Access {
            set: |o, name, text| {
                o.epsilon = Some(parse_u32(name, text, 1)?);
                Ok(())
            },
            show: |o| shown(o.epsilon),
            reset: |o| o.epsilon.take().is_some(),
            json: |o| o.epsilon.map(|v| serde_json::json!(v)),
        }),
    },
    FieldInfo {
        field: Field::Superior,
        cli: "superior",
        json: "superior",
        query: Some("superior"),
        help: "superior and inferior regions (§6.1.1): packets starting in the four epsilon x epsilon corner squares randomize towards the centre, and each pass randomizes and routes in one phase",
        value_name: "",
        bare: None,
        control: Some(Control::Flag),
        access: Some(Access {
            set: |o, name, text| {
                o.superior = parse_bool(name, text)?;
                Ok(())
            },
            show: |o| o.superior.to_string(),
            reset: |o| std::mem::take(&mut o.superior),
            json: |o| o.superior.then_some(serde_json::json!(true)),
        }),
    },
    FieldInfo {
        field: Field::Flits,
        cli: "flits",
        json: "flits",
        query: Some("flits"),
        help: "cut-through: every packet is a worm of F flits that follow its head and hold each link it crossed (1 to 1024)",
        value_name: "F",
        bare: None,
        control: Some(Control::Number {
            min: 1,
            max: 1024,
            unset: "1 (store-and-forward)",
            words: &[],
        }),
        access: Some(Access {
            set: |o, name, text| {
                o.flits = Some(parse_number(name, text, 1, MAX_FLITS as u64)? as u32);
                Ok(())
            },
            show: |o| o.flits.map_or_else(|| "1 (store-and-forward)".into(), |f| f.to_string()),
            reset: |o| o.flits.take().is_some(),
            json: |o| o.flits.map(|v| serde_json::json!(v)),
        }),
    },
    FieldInfo {
        field: Field::Ranks,
        cli: "ranks",
        json: "ranks",
        query: Some("ranks"),
        help: "draw ranks from [1, R] (empty: the paper's R = c + L + log2 N)",
        value_name: "R",
        bare: None,
        control: Some(Control::Number {
            min: 1,
            max: MAX_RANKS,
            unset: "c + L + log2 N",
            words: &[],
        }),
        access: Some(Access {
            set: |o, name, text| {
                o.ranks = match text.trim() {
                    "" => None,
                    _ => Some(parse_number(name, text, 1, MAX_RANKS as u64)? as u32),
                };
                Ok(())
            },
            show: |o| shown(o.ranks),
            reset: |o| o.ranks.take().is_some(),
            json: |o| o.ranks.map(|v| serde_json::json!(v)),
        }),
    },
    FieldInfo {
        field: Field::Paths,
        cli: "paths",
        json: "paths",
        query: Some("paths"),
        help: "direct paths (butterfly: Theorem 4.2; 2-D mesh: four phases; d-D mesh: §6's plateaus) or valiant, through a random row or node (Theorem 4.1; meshes: §6's plateaus)",
        value_name: "direct|valiant",
        bare: None,
        control: Some(Control::Choice {
            values: PathChoice::NAMES,
        }),
        access: Some(Access {
            set: |o, name, text| {
                o.paths = PathChoice::parse(text.trim())
                    .ok_or_else(|| Error::invalid(name, text, "expected direct or valiant"))?;
                Ok(())
            },
            show: |o| o.paths.name().into(),
            reset: |o| std::mem::take(&mut o.paths) != PathChoice::default(),
            json: |o| (o.paths != PathChoice::default()).then(|| serde_json::json!(o.paths.name())),
        }),
    },
    FieldInfo {
        field: Field::Combine,
        cli: "combine",
        json: "combine",
        query: Some("combine"),
        help: "packet combining (§2.3.1): packets for one destination get one rank (a hash of it) and are combined into one where they meet",
        value_name: "",
        bare: None,
        control: Some(Control::Flag),
        access: Some(Access {
            set: |o, name, text| {
                o.combine = parse_bool(name, text)?;
                Ok(())
            },
            show: |o| o.combine.to_string(),
            reset: |o| std::mem::take(&mut o.combine),
            json: |o| o.combine.then_some(serde_json::json!(true)),
        }),
    },
    FieldInfo {
        field: Field::Loading,
        cli: "loading",
        json: "loading",
        query: Some("loading"),
        help: "flashsort: light (the default; §8's lightly loaded sort of N/2 keys at a time, each key to an input of its own — on a mesh a node of its own, §10 — inside Columnsort's four sorts, two permutations and one round of odd–even transposition: node queues stay constant) or full (every key through one recursion: about a sixth of the steps on a butterfly, a tenth on a mesh, node queues grow)",
        value_name: "light|full",
        bare: None,
        control: Some(Control::Choice { values: Loading::NAMES }),
        access: Some(Access {
            set: |o, name, text| {
                let loading = Loading::parse(text.trim())
                    .ok_or_else(|| Error::invalid(name, text, "expected light or full"))?;
                o.loading = Some(loading);
                Ok(())
            },
            show: |o| o.loading.map_or("light", Loading::name).into(),
            reset: |o| o.loading.take().is_some(),
            json: |o| o.loading.map(|l| serde_json::json!(l.name())),
        }),
    },
    FieldInfo {
        field: Field::UnknownLk,
        cli: "unknown-lk",
        json: "unknown_lk",
        query: Some("unknown-lk"),
        help: "the nodes are not told l and k (§3): l learned by prefix maxima, k by doubling guesses whose attempts abort past their allowance 24·sqrt(l·k_i·N), on a full queue or an overfull class",
        value_name: "",
        bare: None,
        control: Some(Control::Flag),
        access: Some(Access {
            set: |o, name, text| {
                o.unknown_lk = parse_bool(name, text)?;
                Ok(())
            },
            show: |o| o.unknown_lk.to_string(),
            reset: |o| std::mem::take(&mut o.unknown_lk),
            json: |o| o.unknown_lk.then_some(serde_json::json!(true)),
        }),
    },
    plain(Field::MaxSteps, "max-steps", "max_steps", None, "stop after this many steps"),
    plain(Field::CheckInvariants, "check-invariants", "check_invariants", None, "check the engine's invariants after every step (slow)"),
];

impl Field {
    /// Every field.
    pub const ALL: [Field; FIELDS.len()] = {
        let mut all = [Field::Topology; FIELDS.len()];
        let mut i = 0;
        while i < FIELDS.len() {
            all[i] = FIELDS[i].field;
            i += 1;
        }
        all
    };

    /// The field's row.
    pub fn info(self) -> &'static FieldInfo {
        &FIELDS[self as usize]
    }

    /// The CLI's option name (without dashes).
    pub fn cli(self) -> &'static str {
        self.info().cli
    }

    /// The key of the wasm config object (and of JSON configs).
    pub fn json(self) -> &'static str {
        self.info().json
    }

    /// The page's URL parameter (SPEC §7), for the fields the page's address carries.
    pub fn query(self) -> Option<&'static str> {
        self.info().query
    }

    /// The field whose JSON key is `key`.
    pub fn from_json(key: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.json() == key)
    }

    /// The field whose URL parameter is `key`.
    pub fn from_query(key: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.query() == Some(key))
    }

    /// Why this option, where an algorithm takes it, changes nothing on
    /// `topology`: the route order on a network with one dimension (a
    /// linear array, a ring) or on a butterfly (its levels fix the bits in
    /// one order, the only path). `None` where it may change the run.
    pub fn idle_on(self, topology: &crate::topology::Topology) -> Option<&'static str> {
        use crate::topology::Topology;
        let one_dimension = match topology {
            Topology::Grid(g) => g.dims().iter().filter(|&&side| side > 1).count() < 2,
            Topology::Hypercube(h) => h.dim() < 2,
            Topology::ShuffleExchange(g) => g.dim() < 2,
            Topology::Butterfly(_) => false,
        };
        match (self, topology) {
            (Field::ReverseOrder, Topology::Butterfly(_)) => {
                Some("a butterfly's levels fix the bits in one order (its only path)")
            }
            (Field::ReverseOrder, _) if one_dimension => Some("a network of one dimension has one order of dimensions"),
            _ => None,
        }
    }

    /// The JSON keys of every field, for messages.
    pub fn json_keys() -> Vec<&'static str> {
        Field::ALL.iter().map(|f| f.json()).collect()
    }
}

/// "the default" for an unset number, else the number (how a request's
/// unset numbers read in messages).
pub fn shown(v: Option<u32>) -> String {
    v.map_or_else(|| "the default".to_string(), |v| v.to_string())
}

/// As [`shown`], naming the default's value when it is one number.
pub fn shown_or(v: Option<u32>, default: u32) -> String {
    v.map_or_else(|| format!("the default, {default}"), |v| v.to_string())
}
