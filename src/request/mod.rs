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

use crate::algorithms::{registry, AlgorithmOptions, Entry};
use crate::engine::{Policy, RESORT_INTERVAL};
use crate::error::{Error, Result};
use crate::options::{parse_bool, parse_u32, shown_or};
pub use crate::options::{parse_number, Field, Phases, UNKNOWN_LOCALITY};
use crate::simulation::{check_flits, SimConfig, Simulation, DEFAULT_MAX_STEPS};
use crate::topology::Topology;
use crate::workload::{self, Instance, Limits, Param, Workload, WorkloadSpec};

mod blame;
mod memory;
mod menus;
mod query;

pub use blame::{blame_query, Blame};
pub use menus::{Choice, Menus, EXPERIMENT_PRESET};
pub use query::query_pairs;

/// The workload a browser run routes when it is given neither a workload nor an instance.
pub const BROWSER_DEFAULT_WORKLOAD: Workload = Workload::RandomPermutation;

/// The words a queue capacity takes for "unbounded" (besides an empty
/// value), wherever one is read: a request's field and a sweep's list.
pub const UNBOUNDED_WORDS: [&str; 3] = ["unbounded", "none", "inf"];

/// A run named with the values it uses ([`RunSpec::label`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RunLabel {
    /// Algorithm(s) · network · workload.
    pub run: String,
    /// ℓ, k, seed, queue capacity, policy and the options set.
    pub values: String,
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
    /// The algorithms' options, as the user set them (`locality` is also
    /// the workloads' L); `seed` and `queue_cap` are this request's.
    pub options: AlgorithmOptions,
    /// Stop after this many steps.
    pub max_steps: u32,
    /// Check the engine's invariants after every step (slow).
    pub check_invariants: bool,
    /// Record per-step series (the page's run chart).
    pub record_series: bool,
    /// The browser's size limits instead of the native ones.
    pub browser: bool,
    /// Refuse, before anything is generated or allocated, a run whose
    /// memory estimate is above this limit (`None`: no check; the page:
    /// its budget; the CLI: `--memory-limit` or the system's limits).
    pub memory_limit: Option<crate::memory::Limit>,
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
            hotspot: None,
            algorithm: registry::default_entry(),
            policy: Policy::FarthestFirst,
            seed: 1,
            queue_cap: None,
            edge_queues: false,
            options: AlgorithmOptions::default(),
            max_steps: DEFAULT_MAX_STEPS,
            check_invariants: false,
            record_series: false,
            browser: false,
            memory_limit: None,
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
            memory_limit: Some(crate::memory::Limit::page()),
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
            Field::Hotspot => self.hotspot = Some(parse_number(name, text, 0, 100)? as u32),
            Field::Seed => self.seed = crate::options::parse_seed(name, text, self.browser)?,
            Field::QueueCap => {
                self.queue_cap = if value.is_empty() || UNBOUNDED_WORDS.contains(&value) {
                    None
                } else {
                    Some(parse_u32(name, text, 1)?)
                }
            }
            Field::EdgeQueues => self.edge_queues = parse_bool(name, text)?,
            Field::MaxSteps => self.max_steps = parse_u32(name, text, 0)?,
            Field::CheckInvariants => self.check_invariants = parse_bool(name, text)?,
            // The algorithms' options: parsed by their rows of the table.
            option => {
                let access = option.info().access.expect("a field of AlgorithmOptions");
                (access.set)(&mut self.options, name, text)?
            }
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
    /// unknown keys are refused. The request is [`RunSpec::validate`]d.
    pub fn from_json(base: RunSpec, config: &serde_json::Value) -> Result<RunSpec> {
        let fields = json_fields(config, false)?;
        base.apply(fields.iter().map(|(f, k, t)| (*f, *k, t.as_str())))
    }

    /// Reads a JSON config object as [`RunSpec::from_json`] does, leniently:
    /// the request is not validated (its algorithm or workload may not fit
    /// its network yet: what the page's menus and [`RunSpec::reconcile`]
    /// start from), and a workload named beside an instance is kept; an
    /// instance without one drops the default workload.
    pub fn from_json_lenient(base: RunSpec, config: &serde_json::Value) -> Result<RunSpec> {
        let mut spec = base;
        let mut workload_given = false;
        for (field, key, text) in json_fields(config, true)? {
            workload_given |= field == Field::Workload;
            spec.set(field, key, &text)?;
        }
        if spec.instance.is_some() && !workload_given {
            spec.workload = None;
        }
        Ok(spec)
    }

    /// Sets an algorithm option back to its default; whether it was set
    /// (other fields are left alone: false).
    pub(crate) fn reset_option(&mut self, field: Field) -> bool {
        // `locality` is also the workloads' parameter: its row keeps it.
        field.info().access.is_some_and(|a| (a.reset)(&mut self.options))
    }

    /// The current value of a field, as text.
    pub fn value_of(&self, field: Field) -> String {
        if let Some(access) = field.info().access {
            return (access.show)(&self.options);
        }
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
            Field::L => shown_or(self.l, 1),
            Field::K => shown_or(self.k, 1),
            Field::Hotspot => shown_or(self.hotspot, workload::DEFAULT_HOT_PERCENT),
            Field::Seed => self.seed.to_string(),
            Field::QueueCap => self.queue_cap.map_or_else(|| "unbounded".into(), |q| q.to_string()),
            Field::EdgeQueues => self.edge_queues.to_string(),
            Field::MaxSteps => self.max_steps.to_string(),
            Field::CheckInvariants => self.check_invariants.to_string(),
            // Held by the options (above).
            _ => String::new(),
        }
    }

    /// The run with the values it uses, for the page's title over the
    /// canvas: `run` = algorithm (and `beside`, the one drawn next to it) ·
    /// network · workload (`greedy · mesh:16x16 · greedy-worst`), `values`
    /// = ℓ and k (as the instance has them), seed, queue capacity, policy
    /// and the options set (`ℓ = 1, k = 1 · seed 1 · q unbounded ·
    /// farthest-first`). An algorithm that bounds queues of its own
    /// (`lmrr`'s edge queues) is labelled with their capacity (`edge queues
    /// q = 2`): the node queues are then not what q bounds. A policy the
    /// run cannot use reads `farthest-first (not used by lmrr)`.
    pub fn label(&self, sim: &Simulation, beside: Option<&str>) -> RunLabel {
        let instance = sim.instance();
        let algorithm = match beside {
            Some(other) => format!("{} vs {other}", self.algorithm.name),
            None => self.algorithm.name.to_string(),
        };
        let source = match (&self.instance, self.workload) {
            (Some(_), _) => "loaded instance".to_string(),
            (None, Some(w)) => w.name().to_string(),
            (None, None) => instance.name.clone().unwrap_or_else(|| "instance".into()),
        };
        let (l, k) = instance.lk();
        let q = match sim.own_queue_cap() {
            Some(q) => format!("edge queues q = {q}"),
            None => match (self.queue_cap, self.edge_queues) {
                (None, _) => "q unbounded".into(),
                // `edge-queues` (SPEC §1): q bounds each incoming link's queue.
                (Some(q), true) => format!("edge queues q = {q}"),
                (Some(q), false) => format!("q = {q}"),
            },
        };
        let run = [algorithm, instance.topology.to_string(), source].join(" · ");
        // A policy the run cannot use is named as such (it may still
        // decide the run beside it).
        let policy = if sim.uses_policy() {
            self.policy.to_string()
        } else {
            format!("{} (not used by {})", self.policy, self.algorithm.name)
        };
        // The instance's ℓ and k (the most a node sends and receives), said
        // so where the workload's own k (1 unless given) means something
        // else (random-destinations: the packets each node sends, k = 2
        // giving k = 7; a hotspot's many packets to one node).
        let asked = self.k.unwrap_or(1);
        let lk = match self.workload.filter(|_| self.instance.is_none() && asked != k) {
            Some(_) => format!("ℓ = {l}, k = {k} (most sent, most received by a node)"),
            None => format!("ℓ = {l}, k = {k}"),
        };
        let mut parts = vec![lk, format!("seed {}", self.seed), q, policy];
        for field in self.algorithm.options {
            if let Some(access) = field.info().access {
                if (access.json)(&self.options).is_some() {
                    parts.push(format!("{} {}", field.cli(), (access.show)(&self.options)));
                }
            }
        }
        RunLabel {
            run,
            values: parts.join(" · "),
        }
    }

    /// The network: the instance's, else the topology field's.
    pub fn topology(&self) -> Option<&Topology> {
        self.instance.as_ref().map(|i| &i.topology).or(self.topology.as_ref())
    }

    /// Checks the request as a whole (each field was checked when set).
    pub fn validate(&self) -> Result<()> {
        self.validate_source()?;
        self.algorithm.check_policy(self.policy)?;
        self.algorithm.check_options(&self.algorithm_options())?;
        // Edge queues need a capacity, unless the algorithm keeps its own
        // queues with a default one (lmrr's q = 2, SPEC §5).
        if self.edge_queues
            && self.queue_cap.is_none()
            && self.algorithm.create(&self.algorithm_options()).queue_cap().is_none()
        {
            return Err(Error::invalid("edge-queues", "true", "needs a queue capacity"));
        }
        let flits = self.options.flits();
        check_flits(flits, self.queue_cap)?;
        self.algorithm.check_flits(flits)?;
        if let Some(topology) = self.topology() {
            self.algorithm.check_topology(topology)?;
            if let Some(check) = self.algorithm.size_check {
                check(topology)?;
            }
            // Only where the algorithm reads it: an option another
            // algorithm takes is named and the run goes on (docs/cli.md).
            if let (Some(epsilon), true) = (self.options.epsilon, self.algorithm.options.contains(&Field::Epsilon)) {
                crate::algorithms::check_epsilon(epsilon, topology)?;
            }
        }
        Ok(())
    }

    /// Checks what is to be routed: a workload on a topology, or an instance.
    pub fn validate_source(&self) -> Result<()> {
        if let Some(instance) = &self.instance {
            // An algorithm that reads the locality (ks-local) takes it with an instance too.
            let reads_locality = self.algorithm.options.contains(&Field::Locality);
            for field in [Field::L, Field::K, Field::Locality, Field::Hotspot] {
                if field == Field::Locality && reads_locality {
                    continue;
                }
                let value = match field {
                    Field::L => self.l,
                    Field::K => self.k,
                    Field::Locality => self.options.locality,
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
            if let (Some(l), true) = (self.options.locality, self.options.locality_unknown) {
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
            locality: self.options.locality,
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
        let algorithm_reads_locality = self.algorithm.options.contains(&Field::Locality);
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

    /// The options the algorithm takes but that change nothing on this
    /// network, as (field, value, why) — `--reverse-order` on a butterfly
    /// or a linear array ([`Field::idle_on`]). Kept, and named by each
    /// front end as [`RunSpec::unread_fields`] are.
    pub fn idle_options(&self) -> Vec<(Field, String, &'static str)> {
        let Some(topology) = self.topology() else {
            return Vec::new();
        };
        self.algorithm
            .options
            .iter()
            .filter_map(|&f| Some((f, self.option_given(f)?, f.idle_on(topology)?)))
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

    /// The algorithm's options, with this request's seed and queue
    /// capacity (as given: the algorithm refuses some it does not take).
    pub fn algorithm_options(&self) -> AlgorithmOptions {
        AlgorithmOptions {
            seed: self.seed,
            queue_cap: self.queue_cap,
            ..self.options.clone()
        }
    }

    /// [`RunSpec::algorithm_options`] with the options the algorithm does
    /// not take at their defaults, for the run: the CLI notes those as
    /// having no effect ([`RunSpec::unread_options`]), and so they have
    /// none (`--pipeline` once coalesced a ks-* run's phases, which read
    /// the same flag as `--phases coalesced`).
    fn run_options(&self) -> AlgorithmOptions {
        let mut options = self.algorithm_options();
        for (field, ..) in self.unread_options() {
            if let Some(access) = field.info().access {
                (access.reset)(&mut options);
            }
        }
        options
    }

    /// The simulation's configuration (the engine's own knobs at their defaults).
    pub fn sim_config(&self) -> SimConfig {
        SimConfig {
            algorithm: self.algorithm.name.to_string(),
            policy: self.policy,
            seed: self.seed,
            queue_cap: self.queue_cap,
            edge_queues: self.edge_queues,
            options: self.run_options(),
            max_steps: self.max_steps,
            check_invariants: self.check_invariants,
            record_series: self.record_series,
            resort_interval: RESORT_INTERVAL,
            ..SimConfig::default()
        }
    }

    /// The running simulation, at step 0. A run whose memory estimate is
    /// above [`RunSpec::memory_limit`] is refused first, before its
    /// workload is generated.
    pub fn build(&self) -> Result<Simulation> {
        self.build_threads(1, crate::engine::PARALLEL_MIN)
    }

    /// As [`RunSpec::build`], a step running on `threads` threads when at
    /// least `parallel_min` packets are in flight (speed only: every result
    /// is the same; neither is a field of the request).
    pub fn build_threads(&self, threads: usize, parallel_min: usize) -> Result<Simulation> {
        self.validate()?;
        self.check_memory()?;
        let config = SimConfig {
            threads,
            parallel_min,
            ..self.sim_config()
        };
        Simulation::new(self.instance()?, config)
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
            hotspot: None,
            options: AlgorithmOptions {
                locality: None,
                ..self.options.clone()
            },
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
        if spec.algorithm.check_flits(spec.options.flits()).is_err() {
            spec.options.flits = None;
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

/// A config number as JavaScript writes it: a whole double as its digits
/// (a JS number of 2^53 or more reaches the core as a double, and was
/// named "9007199254740992.0", so a seed past the page's limit was not
/// recognised as one: the determinism audit of 2026-12-01), any other
/// number as serde_json writes it.
fn number_text(n: &serde_json::Number) -> String {
    match n.as_f64() {
        Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e21 => format!("{f}"),
        _ => n.to_string(),
    }
}

/// The fields of a JSON config object (keys as [`Field::json`]) as
/// `(field, key, text)`: strings, numbers and booleans as their text,
/// `null` left out; an unknown key is refused, and another value unless
/// `lenient` (then read as its JSON text).
fn json_fields(config: &serde_json::Value, lenient: bool) -> Result<Vec<(Field, &str, String)>> {
    let object = match config {
        serde_json::Value::Object(o) => o,
        serde_json::Value::Null => return Ok(Vec::new()),
        _ if lenient => return Ok(Vec::new()),
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
            serde_json::Value::Number(n) => number_text(n),
            other if lenient => other.to_string(),
            other => return Err(Error::invalid(key, other, "expected a string, number or boolean")),
        };
        fields.push((field, key.as_str(), text));
    }
    Ok(fields)
}
