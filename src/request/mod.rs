//! The run request: everything one run needs, in one value that every front
//! end produces — the CLI's `run` and `sweep`, the wasm `Simulation`, the
//! page's query string — and one [`RunSpec::build`] that yields the running
//! [`Simulation`]. Front ends never fill a [`SimConfig`] or generate a
//! workload themselves, and the engine's internal knobs (the re-sort
//! interval) are not theirs to set.
//!
//! Every field has one name per front end ([`Field`]): the CLI's option
//! (`queue-cap`), the page's URL key (`q`) and the JSON key of the wasm
//! config object (`queue_cap`). Values are parsed by one function per field
//! from text, whatever the front end, so a bad value gets the same message
//! everywhere: the field as the user wrote it and the value.

use crate::algorithms::{registry, AlgorithmOptions, Entry, PathChoice, Smear};
use crate::engine::{Policy, MAX_FLITS, RESORT_INTERVAL};
use crate::error::{Error, Result};
use crate::simulation::{check_flits, SimConfig, Simulation, DEFAULT_MAX_STEPS};
use crate::topology::Topology;
use crate::workload::{self, Instance, Limits, Param, Workload, WorkloadSpec};

mod menus;
mod query;

pub use menus::Choice;
pub use query::query_pairs;

/// The workload a browser run routes when it is given neither a workload nor an instance.
pub const BROWSER_DEFAULT_WORKLOAD: Workload = Workload::RandomPermutation;

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
    /// Reverse dimension order.
    ReverseOrder,
    /// `ks-level`'s strip height ε.
    Epsilon,
    /// Cut-through worms of F flits.
    Flits,
    /// `lmrr`: ranks drawn from [1, R].
    Ranks,
    /// `lmrr`: direct or Valiant paths.
    Paths,
    /// `lmrr`: packet combining (§2.3.1).
    Combine,
    /// Step limit.
    MaxSteps,
    /// Invariant checks after every step.
    CheckInvariants,
}

impl Field {
    /// Every field.
    pub const ALL: [Field; 23] = [
        Field::Topology,
        Field::Algorithm,
        Field::Policy,
        Field::Workload,
        Field::Instance,
        Field::L,
        Field::K,
        Field::Locality,
        Field::Hotspot,
        Field::Seed,
        Field::QueueCap,
        Field::EdgeQueues,
        Field::Pipeline,
        Field::Phases,
        Field::Smear,
        Field::ReverseOrder,
        Field::Epsilon,
        Field::Flits,
        Field::Ranks,
        Field::Paths,
        Field::Combine,
        Field::MaxSteps,
        Field::CheckInvariants,
    ];

    /// The CLI's option name (without dashes).
    pub fn cli(self) -> &'static str {
        match self {
            Field::Topology => "topology",
            Field::Algorithm => "algorithm",
            Field::Policy => "policy",
            Field::Workload => "workload",
            Field::Instance => "instance",
            Field::L => "l",
            Field::K => "k",
            Field::Locality => "locality",
            Field::Hotspot => "hotspot",
            Field::Seed => "seed",
            Field::QueueCap => "queue-cap",
            Field::EdgeQueues => "edge-queues",
            Field::Pipeline => "pipeline",
            Field::Phases => "phases",
            Field::Smear => registry::SMEAR_OPTION,
            Field::ReverseOrder => "reverse-order",
            Field::Epsilon => "epsilon",
            Field::Flits => "flits",
            Field::Ranks => "ranks",
            Field::Paths => "paths",
            Field::Combine => "combine",
            Field::MaxSteps => "max-steps",
            Field::CheckInvariants => "check-invariants",
        }
    }

    /// The key of the wasm config object (and of JSON configs).
    pub fn json(self) -> &'static str {
        match self {
            Field::QueueCap => "queue_cap",
            Field::EdgeQueues => "edge_queues",
            Field::ReverseOrder => "reverse_order",
            Field::MaxSteps => "max_steps",
            Field::CheckInvariants => "check_invariants",
            other => other.cli(),
        }
    }

    /// The page's URL parameter (SPEC §7), for the fields the page's address carries.
    pub fn query(self) -> Option<&'static str> {
        match self {
            Field::Topology
            | Field::Algorithm
            | Field::Policy
            | Field::Workload
            | Field::L
            | Field::K
            | Field::Locality
            | Field::Hotspot
            | Field::Seed => Some(self.cli()),
            Field::QueueCap => Some("q"),
            // Algorithm options (the registry's `options`), by their CLI names.
            Field::Pipeline
            | Field::Phases
            | Field::ReverseOrder
            | Field::Epsilon
            | Field::Smear
            | Field::Flits
            | Field::Ranks
            | Field::Paths
            | Field::Combine => Some(self.cli()),
            _ => None,
        }
    }

    /// The field whose JSON key is `key`.
    pub fn from_json(key: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.json() == key)
    }

    /// The field whose URL parameter is `key`.
    pub fn from_query(key: &str) -> Option<Field> {
        Field::ALL.into_iter().find(|f| f.query() == Some(key))
    }

    /// The JSON keys of every field, for messages.
    pub fn json_keys() -> Vec<&'static str> {
        Field::ALL.iter().map(|f| f.json()).collect()
    }
}

/// A whole number within `min..=max`, or an error naming the field and value.
pub fn parse_number(field: &str, text: &str, min: u64, max: u64) -> Result<u64> {
    let value = text.trim();
    let why = || {
        if max == u64::MAX {
            format!("expected a whole number of at least {min}")
        } else {
            format!("expected a whole number from {min} to {max}")
        }
    };
    match value.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) && !value.starts_with('+') => Ok(v),
        _ => Err(Error::invalid(field, text, why())),
    }
}

fn parse_u32(field: &str, text: &str, min: u32) -> Result<u32> {
    Ok(parse_number(field, text, min as u64, u32::MAX as u64)? as u32)
}

fn parse_bool(field: &str, text: &str) -> Result<bool> {
    match text.trim() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(Error::invalid(field, text, "expected true or false")),
    }
}

/// The word of `locality` that keeps L from ks-local's nodes (NoLRoute, §9.2).
pub const UNKNOWN_LOCALITY: &str = "unknown";

/// `locality`'s value: L (the workload's, and ks-local's nodes know it),
/// `unknown` (ks-local estimates it: NoLRoute; a workload's L at its
/// default) or `unknown:L` (the workload's L, not told to the nodes).
fn parse_locality(field: &str, text: &str) -> Result<(Option<u32>, bool)> {
    let value = text.trim();
    let bad = || {
        Error::invalid(
            field,
            text,
            format!(
                "expected a whole number of at least 1 (L, known to ks-local's nodes), {UNKNOWN_LOCALITY} \
                 (ks-local estimates L: NoLRoute) or {UNKNOWN_LOCALITY}:L (the workload's L, not told to the nodes)"
            ),
        )
    };
    match value.strip_prefix(UNKNOWN_LOCALITY) {
        Some("") => Ok((None, true)),
        Some(rest) => {
            let l = rest.strip_prefix(':').ok_or_else(bad)?;
            Ok((Some(parse_u32(field, l, 1).map_err(|_| bad())?), true))
        }
        None => Ok((Some(parse_u32(field, text, 1).map_err(|_| bad())?), false)),
    }
}

/// `locality`'s value as the user writes it (`None`: not given).
fn locality_text(l: Option<u32>, unknown: bool) -> Option<String> {
    match (l, unknown) {
        (None, false) => None,
        (Some(l), false) => Some(l.to_string()),
        (None, true) => Some(UNKNOWN_LOCALITY.to_string()),
        (Some(l), true) => Some(format!("{UNKNOWN_LOCALITY}:{l}")),
    }
}

/// How the phases of a Kaufmann–Sibeyn algorithm follow each other
/// (SPEC §5 `--phases`; the paper's §3 "Coalescing phases").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Phases {
    /// A barrier between phases (the analysis's setting).
    #[default]
    Separated,
    /// A packet starts its next phase as soon as it finished one: what the
    /// other phased algorithms call `pipeline`.
    Coalesced,
}

impl Phases {
    /// The SPEC name.
    pub fn name(self) -> &'static str {
        match self {
            Phases::Separated => "separated",
            Phases::Coalesced => "coalesced",
        }
    }

    fn parse(field: &str, text: &str) -> Result<Phases> {
        [Phases::Separated, Phases::Coalesced]
            .into_iter()
            .find(|p| p.name() == text.trim())
            .ok_or_else(|| Error::invalid(field, text, "expected separated or coalesced"))
    }
}

/// `--smear`'s value: a block length of at least 1, or `auto`; `off`,
/// `none` or nothing for no smearing.
fn parse_smear(field: &str, text: &str) -> Result<Option<Smear>> {
    match text.trim() {
        "" | "off" | "none" => Ok(None),
        "auto" => Ok(Some(Smear::Auto)),
        value => match value.parse::<u32>() {
            Ok(m) if m >= 1 && !value.starts_with('+') => Ok(Some(Smear::Block(m))),
            _ => Err(Error::invalid(
                field,
                text,
                "expected a block length (a whole number of at least 1) or auto",
            )),
        },
    }
}

/// Everything one run needs.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// The network; with an instance, that instance's (checked to agree if both are given).
    pub topology: Option<Topology>,
    /// The workload to generate (with `l`, `k`, `locality`, `hotspot`, `seed`).
    pub workload: Option<Workload>,
    /// An instance to route instead of a workload.
    pub instance: Option<Instance>,
    /// ℓ for workloads that take it.
    pub l: Option<u32>,
    /// k for workloads that take it.
    pub k: Option<u32>,
    /// `locality`'s L (the workloads' L, and ks-local's unless unknown).
    pub locality: Option<u32>,
    /// `locality` `unknown` or `unknown:L`: ks-local's nodes are not told L
    /// (NoLRoute, Kaufmann–Sibeyn §9.2); `locality` is then the workload's
    /// L only.
    pub locality_unknown: bool,
    /// `hotspot`'s percentage.
    pub hotspot: Option<u32>,
    /// The algorithm's registry entry.
    pub algorithm: &'static Entry,
    /// The contention policy.
    pub policy: Policy,
    /// Seed of the workload and of every random choice of the run.
    pub seed: u64,
    /// Queue capacity; `None` is unbounded.
    pub queue_cap: Option<u32>,
    /// One queue of capacity `queue_cap` per incoming directed link.
    pub edge_queues: bool,
    /// Pipelined phases (algorithms that read it).
    pub pipeline: bool,
    /// The Kaufmann–Sibeyn family's phases; coalesced is pipelined.
    pub phases: Phases,
    /// Queue smearing (ks-*); `None`: off.
    pub smear: Option<Smear>,
    /// Reverse dimension order (algorithms that read it).
    pub reverse_order: bool,
    /// `ks-level`'s strip height ε (`None`: ⌈side/8⌉).
    pub epsilon: Option<u32>,
    /// Cut-through worms of this many flits (SPEC §5 `--flits`); `None`
    /// is store-and-forward.
    pub flits: Option<u32>,
    /// `lmrr`: ranks drawn from [1, R] (`None`: the paper's R).
    pub ranks: Option<u32>,
    /// `lmrr`: direct or Valiant paths.
    pub paths: PathChoice,
    /// `lmrr`: packet combining (§2.3.1).
    pub combine: bool,
    /// Stop after this many steps.
    pub max_steps: u32,
    /// Check the engine's invariants after every step (slow).
    pub check_invariants: bool,
    /// Record per-step series (the page's run chart).
    pub record_series: bool,
    /// The browser's size limits instead of the native ones.
    pub browser: bool,
}

impl Default for RunSpec {
    /// The CLI's defaults: greedy, farthest-first, seed 1, no workload yet.
    fn default() -> Self {
        RunSpec {
            topology: None,
            workload: None,
            instance: None,
            l: None,
            k: None,
            locality: None,
            locality_unknown: false,
            hotspot: None,
            algorithm: &registry::REGISTRY[0],
            policy: Policy::FarthestFirst,
            seed: 1,
            queue_cap: None,
            edge_queues: false,
            pipeline: false,
            phases: Phases::Separated,
            smear: None,
            reverse_order: false,
            epsilon: None,
            flits: None,
            ranks: None,
            paths: PathChoice::Direct,
            combine: false,
            max_steps: DEFAULT_MAX_STEPS,
            check_invariants: false,
            record_series: false,
            browser: false,
        }
    }
}

impl RunSpec {
    /// A browser run: browser limits, per-step series, and
    /// [`BROWSER_DEFAULT_WORKLOAD`] until a workload or an instance is set.
    pub fn browser() -> RunSpec {
        RunSpec {
            workload: Some(BROWSER_DEFAULT_WORKLOAD),
            record_series: true,
            browser: true,
            ..RunSpec::default()
        }
    }

    /// The limits on loaded instances.
    pub fn instance_limits(&self) -> Limits {
        if self.browser {
            Limits::BROWSER
        } else {
            Limits::NATIVE
        }
    }

    /// The limits on generated workloads.
    pub fn generated_limits(&self) -> Limits {
        if self.browser {
            Limits::BROWSER_GENERATED
        } else {
            Limits::NATIVE
        }
    }

    /// Sets one field from text; `name` is the field as the user wrote it
    /// (`--queue-cap`, `q`, `queue_cap`) and appears in the message of a bad value.
    pub fn set(&mut self, field: Field, name: &str, text: &str) -> Result<()> {
        let value = text.trim();
        match field {
            Field::Topology => {
                let topology: Topology = value.parse().map_err(|e| rename(e, name))?;
                // The topology field is only ever a generated workload's (an
                // instance names its own), so one limit and one message.
                self.generated_limits().check_topology(&topology)?;
                self.topology = Some(topology);
            }
            Field::Algorithm => self.algorithm = registry::lookup(value).map_err(|e| rename(e, name))?,
            Field::Policy => self.policy = value.parse().map_err(|e| rename(e, name))?,
            Field::Workload => {
                self.workload = Some(value.parse().map_err(|e| rename(e, name))?);
            }
            Field::Instance => {
                let instance = Instance::from_json_with_limits(text, &self.instance_limits())?;
                self.instance = Some(instance);
            }
            Field::L => self.l = Some(parse_u32(name, text, 1)?),
            Field::K => self.k = Some(parse_u32(name, text, 1)?),
            Field::Locality => (self.locality, self.locality_unknown) = parse_locality(name, text)?,
            Field::Hotspot => self.hotspot = Some(parse_number(name, text, 0, 100)? as u32),
            Field::Seed => self.seed = parse_number(name, text, 0, u64::MAX)?,
            Field::QueueCap => {
                self.queue_cap = match value {
                    "" | "unbounded" | "none" | "inf" => None,
                    _ => Some(parse_u32(name, text, 1)?),
                }
            }
            Field::EdgeQueues => self.edge_queues = parse_bool(name, text)?,
            Field::Pipeline => self.pipeline = parse_bool(name, text)?,
            Field::Phases => self.phases = Phases::parse(name, text)?,
            Field::Smear => self.smear = parse_smear(name, text)?,
            Field::ReverseOrder => self.reverse_order = parse_bool(name, text)?,
            Field::Combine => self.combine = parse_bool(name, text)?,
            Field::Epsilon => self.epsilon = Some(parse_u32(name, text, 1)?),
            Field::Flits => self.flits = Some(parse_number(name, text, 1, MAX_FLITS as u64)? as u32),
            Field::Ranks => {
                self.ranks = match value {
                    "" => None,
                    _ => Some(parse_number(name, text, 1, crate::algorithms::lmrr::MAX_RANKS as u64)? as u32),
                }
            }
            Field::Paths => {
                self.paths =
                    PathChoice::parse(value).ok_or_else(|| Error::invalid(name, text, "expected direct or valiant"))?
            }
            Field::MaxSteps => self.max_steps = parse_u32(name, text, 0)?,
            Field::CheckInvariants => self.check_invariants = parse_bool(name, text)?,
        }
        Ok(())
    }

    /// Applies `(field, name as written, text)` triples in order, then
    /// [`RunSpec::validate`]s. A workload named together with an instance
    /// (given here or already set) is refused; an instance drops the default workload.
    pub fn apply<'a>(mut self, fields: impl IntoIterator<Item = (Field, &'a str, &'a str)>) -> Result<RunSpec> {
        let mut workload_named = None;
        let mut instance_given = self.instance.is_some();
        for (field, name, text) in fields {
            self.set(field, name, text)?;
            match field {
                Field::Workload => workload_named = Some((name, text)),
                Field::Instance => instance_given = true,
                _ => {}
            }
        }
        if instance_given {
            if let Some((name, text)) = workload_named {
                return Err(Error::invalid(
                    name,
                    text,
                    "give either a workload or an instance, not both",
                ));
            }
            self.workload = None;
        }
        self.validate()?;
        Ok(self)
    }

    /// Reads a JSON config object (the wasm config, keys as [`Field::json`]):
    /// strings, numbers and booleans as their text; `null` is absent;
    /// unknown keys are refused.
    pub fn from_json(base: RunSpec, config: &serde_json::Value) -> Result<RunSpec> {
        let object = match config {
            serde_json::Value::Object(o) => o,
            serde_json::Value::Null => return base.apply([]),
            other => return Err(Error::invalid("config", other, "expected an object")),
        };
        let mut fields = Vec::new();
        for (key, value) in object {
            let field = Field::from_json(key).ok_or_else(|| {
                Error::invalid(
                    "config key",
                    key,
                    format!("unknown key; expected one of {}", Field::json_keys().join(", ")),
                )
            })?;
            let text = match value {
                serde_json::Value::Null => continue,
                serde_json::Value::String(s) => s.clone(),
                serde_json::Value::Bool(b) => b.to_string(),
                serde_json::Value::Number(n) => n.to_string(),
                other => return Err(Error::invalid(key, other, "expected a string, number or boolean")),
            };
            fields.push((field, key.as_str(), text));
        }
        base.apply(fields.iter().map(|(f, k, t)| (*f, *k, t.as_str())))
    }

    /// Sets an algorithm option back to its default; whether it was set
    /// (other fields are left alone: false).
    pub(crate) fn reset_option(&mut self, field: Field) -> bool {
        let d = RunSpec::default();
        match field {
            Field::Pipeline => std::mem::replace(&mut self.pipeline, d.pipeline) != d.pipeline,
            Field::Phases => std::mem::replace(&mut self.phases, d.phases) != d.phases,
            Field::ReverseOrder => std::mem::replace(&mut self.reverse_order, d.reverse_order) != d.reverse_order,
            Field::Epsilon => std::mem::replace(&mut self.epsilon, d.epsilon) != d.epsilon,
            Field::Smear => std::mem::replace(&mut self.smear, d.smear) != d.smear,
            Field::Flits => std::mem::replace(&mut self.flits, d.flits) != d.flits,
            // `locality` is also the workloads' parameter: kept.
            Field::Ranks => std::mem::replace(&mut self.ranks, d.ranks) != d.ranks,
            Field::Paths => std::mem::replace(&mut self.paths, d.paths) != d.paths,
            Field::Combine => std::mem::replace(&mut self.combine, d.combine) != d.combine,
            Field::Topology
            | Field::Algorithm
            | Field::Policy
            | Field::Workload
            | Field::Instance
            | Field::L
            | Field::K
            | Field::Locality
            | Field::Hotspot
            | Field::Seed
            | Field::QueueCap
            | Field::EdgeQueues
            | Field::MaxSteps
            | Field::CheckInvariants => false,
        }
    }

    /// The current value of a field, as text.
    pub fn value_of(&self, field: Field) -> String {
        let opt = |v: Option<u32>| v.map_or_else(|| "the default".to_string(), |v| v.to_string());
        match field {
            Field::Topology => self.topology().map_or_else(|| "none".into(), |t| t.to_string()),
            Field::Algorithm => self.algorithm.name.into(),
            Field::Policy => self.policy.to_string(),
            Field::Workload => self.workload.map_or_else(|| "none".into(), |w| w.to_string()),
            Field::Instance => if self.instance.is_some() {
                "the loaded instance"
            } else {
                "none"
            }
            .into(),
            Field::L => opt(self.l),
            Field::K => opt(self.k),
            Field::Locality => locality_text(self.locality, self.locality_unknown).unwrap_or_else(|| opt(None)),
            Field::Hotspot => opt(self.hotspot),
            Field::Seed => self.seed.to_string(),
            Field::QueueCap => self.queue_cap.map_or_else(|| "unbounded".into(), |q| q.to_string()),
            Field::EdgeQueues => self.edge_queues.to_string(),
            Field::Pipeline => self.pipeline.to_string(),
            Field::Phases => self.phases.name().into(),
            Field::Smear => self.smear.map_or_else(|| "off".into(), Smear::name),
            Field::ReverseOrder => self.reverse_order.to_string(),
            Field::Epsilon => opt(self.epsilon),
            Field::Flits => self
                .flits
                .map_or_else(|| "1 (store-and-forward)".into(), |f| f.to_string()),
            Field::Ranks => opt(self.ranks),
            Field::Paths => self.paths.name().into(),
            Field::Combine => self.combine.to_string(),
            Field::MaxSteps => self.max_steps.to_string(),
            Field::CheckInvariants => self.check_invariants.to_string(),
        }
    }

    /// The network: the instance's, else the topology field's.
    pub fn topology(&self) -> Option<&Topology> {
        self.instance.as_ref().map(|i| &i.topology).or(self.topology.as_ref())
    }

    /// Checks the request as a whole (each field was checked when set).
    pub fn validate(&self) -> Result<()> {
        self.validate_source()?;
        if self.edge_queues && self.queue_cap.is_none() {
            return Err(Error::invalid("edge-queues", "true", "needs a queue capacity"));
        }
        self.algorithm.check_policy(self.policy)?;
        self.algorithm.check_options(&self.algorithm_options())?;
        let flits = self.flits.unwrap_or(1);
        check_flits(flits, self.queue_cap)?;
        self.algorithm.check_flits(flits)?;
        if let Some(topology) = self.topology() {
            self.algorithm.check_topology(topology)?;
            if let Some(epsilon) = self.epsilon {
                crate::algorithms::check_epsilon(epsilon, topology)?;
            }
        }
        Ok(())
    }

    /// Checks what is to be routed: a workload on a topology, or an instance.
    pub fn validate_source(&self) -> Result<()> {
        if let Some(instance) = &self.instance {
            // An algorithm that reads the locality (ks-local) takes it with an instance too.
            let reads_locality = self.algorithm.options.iter().any(|o| o.name == Field::Locality.cli());
            for field in [Field::L, Field::K, Field::Locality, Field::Hotspot] {
                if field == Field::Locality && reads_locality {
                    continue;
                }
                let value = match field {
                    Field::L => self.l,
                    Field::K => self.k,
                    Field::Locality => self.locality,
                    _ => self.hotspot,
                };
                if let Some(v) = value {
                    return Err(Error::invalid(
                        field.cli(),
                        v,
                        "applies only to a workload, not with an instance (an instance declares its own l and k)",
                    ));
                }
            }
            // `unknown:L`'s L is the workload's: nothing takes it here.
            if let (Some(l), true) = (self.locality, self.locality_unknown) {
                return Err(Error::invalid(
                    Field::Locality.cli(),
                    format!("{UNKNOWN_LOCALITY}:{l}"),
                    format!(
                        "with an instance the L of {UNKNOWN_LOCALITY}:L (a workload's) applies to nothing; write \
                         {UNKNOWN_LOCALITY}"
                    ),
                ));
            }
            if let Some(topology) = &self.topology {
                if *topology != instance.topology {
                    return Err(Error::invalid(
                        "topology",
                        topology,
                        format!(
                            "the instance is for {}; drop the topology or make them agree",
                            instance.topology
                        ),
                    ));
                }
            }
        } else {
            if self.workload.is_none() {
                return Err(Error::invalid(
                    "workload",
                    "",
                    "missing: say what to route, e.g. workload transpose, or give an instance",
                ));
            }
            if self.topology.is_none() {
                return Err(Error::invalid(
                    "topology",
                    "",
                    "missing: a workload needs a network, e.g. mesh:16x16",
                ));
            }
        }
        Ok(())
    }

    /// The workload's generator parameters.
    pub fn workload_spec(&self, workload: Workload) -> WorkloadSpec {
        WorkloadSpec {
            workload,
            l: self.l,
            k: self.k,
            seed: self.seed,
            locality: self.locality,
            hotspot: self.hotspot,
        }
    }

    /// The workload parameters given that change nothing, as (field, value,
    /// why): those the workload does not read ([`WorkloadSpec::unread`]),
    /// except the locality when the algorithm reads it (`ks-local`). Not an
    /// error — a sweep grid sets them for its other workloads — but each
    /// front end names them (stderr, the page's messages).
    pub fn unread_fields(&self) -> Vec<(Field, u32, String)> {
        let Some(workload) = self.workload.filter(|_| self.instance.is_none()) else {
            return Vec::new();
        };
        let algorithm_reads_locality = self.algorithm.options.iter().any(|o| o.name == Field::Locality.cli());
        self.workload_spec(workload)
            .unread()
            .into_iter()
            .filter_map(|(param, value, why)| {
                let field = match param {
                    Param::L => Field::L,
                    Param::K => Field::K,
                    Param::Locality if algorithm_reads_locality => return None,
                    Param::Locality => Field::Locality,
                    Param::Hotspot => Field::Hotspot,
                };
                Some((field, value, why))
            })
            .collect()
    }

    /// The instance this request routes: the given one, or the workload generated under the limits.
    pub fn instance(&self) -> Result<Instance> {
        self.validate_source()?;
        if let Some(instance) = &self.instance {
            return Ok(instance.clone());
        }
        let (Some(topology), Some(workload)) = (&self.topology, self.workload) else {
            unreachable!("validate() checked that a workload has a topology")
        };
        let limits = self.generated_limits();
        let spec = self.workload_spec(workload);
        limits.check_workload(topology, &spec)?;
        let instance = workload::generate(topology, &spec)?;
        limits.check_packets(instance.packets.len() as u64)?;
        Ok(instance)
    }

    /// Whether phases are pipelined: `pipeline`, or `phases` coalesced.
    fn pipelined(&self) -> bool {
        self.pipeline || self.phases == Phases::Coalesced
    }

    /// The algorithm's options.
    pub fn algorithm_options(&self) -> AlgorithmOptions {
        AlgorithmOptions {
            seed: self.seed,
            pipeline: self.pipelined(),
            reverse_order: self.reverse_order,
            epsilon: self.epsilon,
            locality: self.locality.filter(|_| !self.locality_unknown),
            locality_unknown: self.locality_unknown,
            smear: self.smear,
            queue_cap: self.queue_cap,
            ranks: self.ranks,
            paths: self.paths,
            combine: self.combine,
        }
    }

    /// The simulation's configuration (the engine's own knobs at their defaults).
    pub fn sim_config(&self) -> SimConfig {
        SimConfig {
            algorithm: self.algorithm.name.to_string(),
            policy: self.policy,
            seed: self.seed,
            queue_cap: self.queue_cap,
            edge_queues: self.edge_queues,
            pipeline: self.pipelined(),
            reverse_order: self.reverse_order,
            epsilon: self.epsilon,
            locality: self.locality.filter(|_| !self.locality_unknown),
            locality_unknown: self.locality_unknown,
            smear: self.smear,
            ranks: self.ranks,
            paths: self.paths,
            combine: self.combine,
            max_steps: self.max_steps,
            check_invariants: self.check_invariants,
            record_series: self.record_series,
            resort_interval: RESORT_INTERVAL,
            flits: self.flits,
        }
    }

    /// The running simulation, at step 0.
    pub fn build(&self) -> Result<Simulation> {
        self.validate()?;
        Simulation::new(self.instance()?, self.sim_config())
    }

    /// The same request routing `instance` instead (keeps algorithm, policy,
    /// seed, queues, limits): what loading an instance file does.
    pub fn with_instance(&self, instance: Instance) -> RunSpec {
        RunSpec {
            topology: None,
            workload: None,
            instance: Some(instance),
            l: None,
            k: None,
            locality: None,
            hotspot: None,
            ..self.clone()
        }
    }
}

impl RunSpec {
    /// The request that runs `algorithm` on `instance` beside this one (the
    /// page's `compare=`): the same instance, seed and queues; the policy
    /// and the worms' flits too, unless the algorithm refuses them (then
    /// `farthest-first`, store-and-forward).
    /// Refuses an algorithm that cannot route the instance, saying why.
    pub fn beside(&self, instance: &Instance, algorithm: &str) -> Result<RunSpec> {
        let mut spec = self.with_instance(instance.clone());
        spec.algorithm = registry::lookup(algorithm).map_err(|e| rename(e, "compare"))?;
        if spec.algorithm.check_policy(spec.policy).is_err() {
            spec.policy = Policy::FarthestFirst;
        }
        if spec.algorithm.check_flits(spec.flits.unwrap_or(1)).is_err() {
            spec.flits = None;
        }
        spec.validate()?;
        spec.algorithm.check_instance(instance)?;
        Ok(spec)
    }
}

/// Names the field as the user wrote it in a message about `field`.
fn rename(e: Error, name: &str) -> Error {
    match e {
        Error::Invalid { value, reason, .. } => Error::Invalid {
            field: name.to_string(),
            value,
            reason,
        },
        other => other,
    }
}
