//! The browser front end: a thin `#[wasm_bindgen]` wrapper around
//! [`crate::Simulation`]. Everything here converts — a JS config object into
//! a [`SimConfig`] and an [`Instance`], core state into typed arrays, core
//! errors into JS `Error`s carrying the core's message. No simulation logic
//! lives here.
//!
//! Per-frame state (packet positions, classes, queue sizes, lit links) goes
//! out as typed-array copies, never as one JS object per packet; serde is
//! used only for configs, bounds and reports.

use crate::algorithms::ALGORITHMS;
use crate::engine::Policy;
use crate::error::Error;
use crate::simulation::{self, SimConfig, Status};
use crate::topology::{Kind, Network, Topology};
use crate::workload::{self, Instance, Limits, Workload, WorkloadSpec};
use js_sys::{Array, Object, Reflect, Uint32Array, Uint8Array};
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The size limits the browser enforces on loaded instances (and on topologies).
pub const LIMITS: Limits = Limits::BROWSER;

/// Tighter limits for generated workloads, so that a mistyped size cannot
/// freeze the tab: at most 2^18 nodes (a 512×512 mesh) and 2^20 packets.
pub const GENERATED_LIMITS: Limits = Limits {
    max_nodes: 1 << 18,
    max_packets: 1 << 20,
    max_bytes: LIMITS.max_bytes,
};

/// Installs the panic hook, so that a panic (a bug) still shows its message
/// in the console instead of "unreachable executed".
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The configuration the page passes to `new Simulation(config)`: a plain JS
/// object with these keys (all but `topology`/`instance` and
/// `workload`/`instance` optional).
#[derive(Debug, Default, Deserialize)]
struct JsConfig {
    topology: Option<String>,
    algorithm: Option<String>,
    policy: Option<String>,
    workload: Option<String>,
    /// Instance JSON text (SPEC §3), instead of `topology` + `workload`.
    instance: Option<String>,
    l: Option<u32>,
    k: Option<u32>,
    locality: Option<u32>,
    hotspot: Option<u32>,
    seed: Option<u64>,
    queue_cap: Option<u32>,
    edge_queues: Option<bool>,
    pipeline: Option<bool>,
    reverse_order: Option<bool>,
    max_steps: Option<u32>,
}

fn js_error(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Running => "running",
        Status::Finished => "finished",
        Status::Stalled => "stalled",
        Status::StepLimit => "step-limit",
    }
}

impl JsConfig {
    fn sim_config(&self) -> Result<SimConfig, Error> {
        let defaults = SimConfig::default();
        Ok(SimConfig {
            algorithm: self.algorithm.clone().unwrap_or(defaults.algorithm),
            policy: match &self.policy {
                Some(p) => p.parse::<Policy>()?,
                None => defaults.policy,
            },
            seed: self.seed.unwrap_or(defaults.seed),
            queue_cap: self.queue_cap,
            edge_queues: self.edge_queues.unwrap_or(false),
            pipeline: self.pipeline.unwrap_or(false),
            reverse_order: self.reverse_order.unwrap_or(false),
            max_steps: self.max_steps.unwrap_or(simulation::DEFAULT_MAX_STEPS),
            check_invariants: false,
            record_series: true,
            resort_interval: crate::engine::RESORT_INTERVAL,
        })
    }

    fn instance(&self) -> Result<Instance, Error> {
        match (&self.instance, &self.workload) {
            (Some(_), Some(w)) => Err(Error::invalid(
                "workload",
                w,
                "give either a workload or an instance, not both",
            )),
            (Some(text), None) => Instance::from_json_with_limits(text, &LIMITS),
            (None, workload) => {
                let topo_text = self
                    .topology
                    .as_deref()
                    .ok_or_else(|| Error::invalid("topology", "", "missing"))?;
                let topology = parse_topology(topo_text)?;
                let workload: Workload = workload.as_deref().unwrap_or("random-permutation").parse()?;
                let spec = WorkloadSpec {
                    workload,
                    l: self.l,
                    k: self.k,
                    seed: self.seed.unwrap_or(1),
                    locality: self.locality,
                    hotspot: self.hotspot,
                };
                GENERATED_LIMITS.check_workload(&topology, &spec)?;
                let instance = workload::generate(&topology, &spec)?;
                GENERATED_LIMITS.check_packets(instance.packets.len() as u64)?;
                Ok(instance)
            }
        }
    }
}

fn parse_topology(text: &str) -> Result<Topology, Error> {
    let topology: Topology = text.parse()?;
    LIMITS.check_topology(&topology)?;
    Ok(topology)
}

/// The keys of [`JsConfig`]; serde-wasm-bindgen only looks up known keys,
/// so unknown ones (typos) are refused by hand.
const CONFIG_KEYS: [&str; 15] = [
    "topology",
    "algorithm",
    "policy",
    "workload",
    "instance",
    "l",
    "k",
    "locality",
    "hotspot",
    "seed",
    "queue_cap",
    "edge_queues",
    "pipeline",
    "reverse_order",
    "max_steps",
];

fn parse_config(config: JsValue) -> Result<JsConfig, JsError> {
    if let Some(obj) = config.dyn_ref::<Object>() {
        for key in Object::keys(obj).iter().filter_map(|k| k.as_string()) {
            if !CONFIG_KEYS.contains(&key.as_str()) {
                let reason = format!("unknown key; expected one of {}", CONFIG_KEYS.join(", "));
                return Err(js_error(Error::invalid("config key", key, reason)));
            }
        }
    }
    serde_wasm_bindgen::from_value(config).map_err(|e| JsError::new(&format!("invalid config: {e}")))
}

/// One run, driven from JS. Construct with `new Simulation(config)`.
#[wasm_bindgen]
pub struct Simulation {
    inner: simulation::Simulation,
}

#[wasm_bindgen]
impl Simulation {
    /// Builds a run from a plain JS object: `{topology, algorithm, policy,
    /// workload, l, k, seed, queue_cap, …}` or `{instance: "<JSON>", …}`.
    /// Throws an `Error` with the core's message on any bad field.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<Simulation, JsError> {
        let config = parse_config(config)?;
        let instance = config.instance().map_err(js_error)?;
        let sim_config = config.sim_config().map_err(js_error)?;
        let inner = simulation::Simulation::new(instance, sim_config).map_err(js_error)?;
        Ok(Simulation { inner })
    }

    /// Replaces the instance by SPEC §3 JSON, keeping algorithm, policy, seed
    /// and queue capacity, and restarts at step 0. On error nothing changes.
    pub fn load_instance(&mut self, json: &str) -> Result<(), JsError> {
        let instance = Instance::from_json_with_limits(json, &LIMITS).map_err(js_error)?;
        let inner = simulation::Simulation::new(instance, self.inner.config().clone()).map_err(js_error)?;
        self.inner = inner;
        Ok(())
    }

    /// Simulates up to `n` steps (fewer if the run ends) and returns
    /// `{step, delivered, packets, in_flight, max_queue, status}`.
    pub fn step(&mut self, n: u32) -> Object {
        self.inner.run_steps(n);
        self.summary()
    }

    /// Steps until the run is over or `max_steps` more steps were taken;
    /// returns the same summary as `step`.
    pub fn run_to_end(&mut self, max_steps: u32) -> Object {
        self.inner.run_steps(max_steps);
        self.summary()
    }

    /// `{step, delivered, packets, in_flight, max_queue, status, phase}` without stepping.
    pub fn summary(&self) -> Object {
        let engine = self.inner.engine();
        let obj = Object::new();
        set(&obj, "step", engine.step_count());
        set(&obj, "delivered", engine.delivered());
        set(&obj, "packets", engine.packet_count());
        set(&obj, "in_flight", engine.in_flight());
        set(&obj, "max_queue", engine.stats().max_queue);
        set(&obj, "status", status_name(self.inner.status()));
        set(&obj, "phase", engine.stats().current_phase().unwrap_or(""));
        obj
    }

    /// The state to draw, as typed-array copies: `positions` (Uint32Array,
    /// one node id per packet), `classes` (Uint8Array, per packet),
    /// `delivered_at` (Uint32Array per packet, 2³²−1 while undelivered),
    /// `queues` (working-queue size per node), `waiting` (packets still at
    /// their source, per node), `links` (directed link ids used in the last
    /// step; the first `control_links` of them carried control messages),
    /// plus the fields of `summary()`.
    pub fn snapshot(&self) -> Object {
        let engine = self.inner.engine();
        let obj = self.summary();
        set(&obj, "positions", Uint32Array::from(&engine.positions()[..]));
        set(&obj, "classes", Uint8Array::from(engine.classes()));
        set(&obj, "delivered_at", Uint32Array::from(engine.delivery_steps()));
        set(&obj, "queues", Uint32Array::from(engine.working_queues()));
        set(&obj, "waiting", Uint32Array::from(engine.waiting_at_source()));
        set(&obj, "links", Uint32Array::from(engine.last_links()));
        set(&obj, "control_links", engine.last_control_count() as u32);
        obj
    }

    /// Per-step series and counters: `in_flight`, `queue_series`,
    /// `links_used` (Uint32Array, index = step − 1), `deliveries`
    /// (Uint32Array, index = step), `max_queue`, `max_load`,
    /// `max_ctrl_queue`, `packet_hops`, `last_delivery`.
    pub fn stats(&self) -> Object {
        let stats = self.inner.engine().stats();
        let obj = Object::new();
        set(&obj, "in_flight", Uint32Array::from(&stats.in_flight[..]));
        set(&obj, "queue_series", Uint32Array::from(&stats.queue_series[..]));
        set(&obj, "links_used", Uint32Array::from(&stats.links_used[..]));
        set(&obj, "deliveries", Uint32Array::from(&stats.deliveries[..]));
        set(&obj, "max_queue", stats.max_queue);
        set(&obj, "max_load", stats.max_load);
        set(&obj, "max_ctrl_queue", stats.max_ctrl_queue);
        set(&obj, "packet_hops", stats.packet_hops as f64);
        set(&obj, "last_delivery", stats.last_delivery);
        obj
    }

    /// The instance's lower bounds (SPEC §4 `bounds`).
    pub fn bounds(&self) -> Result<JsValue, JsError> {
        to_js(self.inner.bounds())
    }

    /// The SPEC §4 report of the run so far (the object `routesim run --json` prints).
    pub fn report(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.report())
    }

    /// Source node of every packet.
    pub fn sources(&self) -> Uint32Array {
        let packets = &self.inner.instance().packets;
        Uint32Array::from(&packets.iter().map(|p| p.0).collect::<Vec<u32>>()[..])
    }

    /// Destination node of every packet.
    pub fn destinations(&self) -> Uint32Array {
        let packets = &self.inner.instance().packets;
        Uint32Array::from(&packets.iter().map(|p| p.1).collect::<Vec<u32>>()[..])
    }

    /// The instance as SPEC §3 JSON.
    pub fn instance_json(&self) -> String {
        self.inner.instance().to_json()
    }

    /// The network of this run; see [`topology`].
    pub fn topology(&self) -> Object {
        topology_object(&self.inner.instance().topology)
    }

    /// Follows packet `packet` (or none, with `undefined`) and returns its
    /// route so far; see [`Simulation::trail`].
    pub fn watch(&mut self, packet: Option<u32>) -> Result<Uint32Array, JsError> {
        self.inner.watch(packet).map_err(js_error)?;
        Ok(self.trail())
    }

    /// The nodes the watched packet has visited, source first.
    pub fn trail(&self) -> Uint32Array {
        Uint32Array::from(self.inner.trail())
    }
}

fn topology_object(topology: &Topology) -> Object {
    let obj = Object::new();
    set(&obj, "name", topology.to_string());
    set(&obj, "kind", topology.kind().name());
    set(&obj, "nodes", topology.nodes());
    set(&obj, "ports", topology.ports());
    let dims = Array::new();
    match topology {
        Topology::Grid(g) => g.dims().iter().for_each(|&d| {
            dims.push(&JsValue::from(d));
        }),
        Topology::Hypercube(h) => {
            dims.push(&JsValue::from(h.dim()));
        }
        Topology::Butterfly(b) => {
            dims.push(&JsValue::from(b.dim()));
        }
    }
    set(&obj, "dims", dims);
    set(&obj, "wrap", topology.as_grid().is_some_and(|g| g.wraps()));
    let ports = topology.ports();
    let mut neighbors = vec![u32::MAX; topology.nodes() as usize * ports as usize];
    for v in 0..topology.nodes() {
        for p in 0..ports {
            if let Some(w) = topology.neighbor(v, p) {
                neighbors[(v * ports + p) as usize] = w;
            }
        }
    }
    set(&obj, "neighbors", Uint32Array::from(&neighbors[..]));
    obj
}

/// Parses a topology name (SPEC §2) under the browser limits and returns
/// `{name, kind, nodes, ports, dims, wrap, neighbors}`, where
/// `neighbors[node * ports + port]` is the node at the other end of that
/// directed link (2³²−1 where there is none). Throws on a bad name.
#[wasm_bindgen]
pub fn topology(name: &str) -> Result<Object, JsError> {
    let topology = parse_topology(name).map_err(js_error)?;
    Ok(topology_object(&topology))
}

#[derive(Serialize)]
struct Named {
    name: &'static str,
    description: &'static str,
}

/// Topology kinds: `[{name, description}]` with the parameter syntax as description.
#[wasm_bindgen]
pub fn topology_kinds() -> Result<JsValue, JsError> {
    to_js(
        &Kind::ALL
            .iter()
            .map(|k| Named {
                name: k.name(),
                description: k.syntax(),
            })
            .collect::<Vec<_>>(),
    )
}

/// Algorithms this build implements: `[{name, description, topologies}]`.
#[wasm_bindgen]
pub fn algorithms() -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Info {
        name: &'static str,
        description: &'static str,
        topologies: &'static str,
    }
    to_js(
        &ALGORITHMS
            .iter()
            .map(|a| Info {
                name: a.name,
                description: a.summary,
                topologies: a.topologies,
            })
            .collect::<Vec<_>>(),
    )
}

/// Contention policies: `[{name, description}]`.
#[wasm_bindgen]
pub fn policies() -> Result<JsValue, JsError> {
    to_js(
        &Policy::ALL
            .iter()
            .map(|p| Named {
                name: p.name(),
                description: p.describe(),
            })
            .collect::<Vec<_>>(),
    )
}

/// Workloads: `[{name, description}]`.
#[wasm_bindgen]
pub fn workloads() -> Result<JsValue, JsError> {
    to_js(
        &Workload::ALL
            .iter()
            .map(|w| Named {
                name: w.name(),
                description: w.describe(),
            })
            .collect::<Vec<_>>(),
    )
}

/// The browser limits: `{max_nodes, max_packets, max_bytes}` for loaded
/// instances and `{generated_max_nodes, generated_max_packets}` for generated workloads.
#[wasm_bindgen]
pub fn limits() -> Object {
    let obj = Object::new();
    set(&obj, "max_nodes", LIMITS.max_nodes as f64);
    set(&obj, "max_packets", LIMITS.max_packets as f64);
    set(&obj, "max_bytes", LIMITS.max_bytes as f64);
    set(&obj, "generated_max_nodes", GENERATED_LIMITS.max_nodes as f64);
    set(&obj, "generated_max_packets", GENERATED_LIMITS.max_packets as f64);
    obj
}
