//! The browser front end: a thin `#[wasm_bindgen]` wrapper. Everything here
//! converts — a JS config object into a [`RunSpec`] (through the same
//! parser as every front end), core state into typed arrays, core values
//! into plain JS objects, core errors into JS `Error`s carrying the core's
//! message. No simulation logic, limit, default or name list lives here.
//!
//! Per-frame state (packet positions, classes, queue sizes, lit links) goes
//! out as typed-array copies, never as one JS object per packet; serde is
//! used only for configs, the catalogue, bounds, reports and chart points.

use crate::algorithms::EdgeQueues;
use crate::engine::Engine;
use crate::error::Error;
use crate::request::RunSpec;
use crate::simulation::Summary;
use crate::timeline::Pace;
use crate::topology::{Network, Topology};
use crate::workload::Instance;
use crate::{explain, lessons, Timeline};
use js_sys::{Array, Float64Array, Object, Uint32Array, Uint8Array};
use serde::Serialize;
use wasm_bindgen::prelude::*;

mod convert;
use convert::{count, from_js, js_error, optional_text, set, text, to_js};

/// Installs the panic hook, so that a panic (a bug) still shows its message
/// in the console instead of "unreachable executed".
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// A browser run request from a JS config object (keys as
/// [`crate::request::Field::json`]).
fn spec_of(config: JsValue) -> Result<RunSpec, JsError> {
    RunSpec::from_json(RunSpec::browser(), &from_js(config, "config")?).map_err(js_error)
}

/// One run, driven from JS. Construct with `new Simulation(config)`. The
/// run has a timeline ([`Timeline`]): `goto`, `step_back` and `step` move
/// the shown step; `summary`, `snapshot` and `report` describe the shown
/// step, `stats` and `phases` every step computed so far.
#[wasm_bindgen]
pub struct Simulation {
    spec: RunSpec,
    inner: Timeline,
}

#[wasm_bindgen]
impl Simulation {
    /// Builds a run from a plain JS object: `{topology, algorithm, policy,
    /// workload, l, k, seed, queue_cap, …}` or `{instance: "<JSON>", …}`.
    /// Throws an `Error` with the core's message on any bad field.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<Simulation, JsError> {
        let spec = spec_of(config)?;
        let inner = Timeline::new(spec.build().map_err(js_error)?);
        Ok(Simulation { spec, inner })
    }

    /// Replaces the instance by SPEC §3 JSON, keeping algorithm, policy, seed
    /// and queue capacity, and restarts at step 0. On error nothing changes.
    pub fn load_instance(&mut self, json: JsValue) -> Result<(), JsError> {
        let json = text("instance", &json)?;
        let instance = Instance::from_json_with_limits(&json, &self.spec.instance_limits()).map_err(js_error)?;
        let spec = self.spec.with_instance(instance);
        self.inner = Timeline::new(spec.build().map_err(js_error)?);
        self.spec = spec;
        Ok(())
    }

    /// Goes up to `n` steps forward from the shown step (fewer if the run
    /// ends) and returns `{step, delivered, packets, in_flight, max_queue,
    /// status, phase}`.
    pub fn step(&mut self, n: JsValue) -> Result<Object, JsError> {
        self.inner.step(count("n", &n)?);
        Ok(self.summary())
    }

    /// Shows step `step` (computing on past the furthest step, stopping at
    /// the run's end) exactly as going forward showed it; returns the
    /// summary of the shown step.
    pub fn goto(&mut self, step: JsValue) -> Result<Object, JsError> {
        self.inner.goto(count("step", &step)?);
        Ok(self.summary())
    }

    /// Shows the step before the shown one (none before 0); returns the summary.
    pub fn step_back(&mut self) -> Object {
        self.inner.step_back();
        self.summary()
    }

    /// The last step computed so far (the run's length once it is over).
    pub fn furthest(&self) -> u32 {
        self.inner.furthest()
    }

    /// The phases computed so far, `[{name, label, start, steps}]`: a phase
    /// covers steps `start + 1 ..= start + steps` (for bands on a step axis);
    /// `label` is its name where room is short ([`crate::engine::PhaseSteps::label`]).
    pub fn phases(&self) -> Array {
        let out = Array::new();
        for phase in self.inner.phases() {
            let obj = Object::new();
            set(&obj, "name", phase.name.as_str());
            set(&obj, "label", phase.label());
            set(&obj, "start", phase.start());
            set(&obj, "steps", phase.steps);
            out.push(&obj);
        }
        out
    }

    /// Measures the run's length by up to `n` more steps of a copy, the
    /// shown and furthest steps unchanged ([`Timeline::measure`]); returns
    /// the length once known, else `undefined`.
    pub fn measure(&mut self, n: JsValue) -> Result<Option<u32>, JsError> {
        Ok(self.inner.measure(count("n", &n)?))
    }

    /// The step at which the next phase opens after the shown step, or
    /// `undefined` ([`Timeline::next_phase_step`]).
    pub fn next_phase_step(&self) -> Option<u32> {
        self.inner.next_phase_step()
    }

    /// The page's pace for this run under `lesson` (an id, or empty):
    /// `{steps, known, speed, seconds}` ([`crate::timeline::Pace`]).
    pub fn pace(&self, lesson: JsValue) -> Result<JsValue, JsError> {
        to_js(&Pace::of(
            &[&self.inner],
            lessons::seconds(lesson_of(&text("lesson", &lesson)?)?),
        ))
    }

    /// As [`Simulation::pace`], for this run with `other` beside it (the longer decides).
    pub fn pace_with(&self, other: &Simulation, lesson: JsValue) -> Result<JsValue, JsError> {
        to_js(&Pace::of(
            &[&self.inner, &other.inner],
            lessons::seconds(lesson_of(&text("lesson", &lesson)?)?),
        ))
    }

    /// `lesson`'s prediction `guess` beside this run's measure at the shown
    /// step ([`lessons::Predict::result`]); throws on a bad guess or a
    /// lesson without a prediction.
    pub fn predict_result(&self, lesson: JsValue, guess: JsValue) -> Result<JsValue, JsError> {
        let (lesson, guess) = (text("lesson", &lesson)?, text("guess", &guess)?);
        let guess = guess.as_str();
        let predict = lesson_of(&lesson)?
            .and_then(|l| l.predict)
            .ok_or_else(|| JsError::new(&format!("lesson '{lesson}' asks for no prediction")))?;
        to_js(&predict.result(guess, self.inner.current()).map_err(js_error)?)
    }

    /// Steps until the run is over or `max_steps` more steps were taken;
    /// returns the same summary as `step`.
    pub fn run_to_end(&mut self, max_steps: JsValue) -> Result<Object, JsError> {
        self.inner.run_steps(count("max_steps", &max_steps)?);
        Ok(self.summary())
    }

    /// `{step, delivered, packets, in_flight, max_queue, status, phase,
    /// deadlock}` without stepping (`deadlock`: Uint32Array, the stalled
    /// run's wait-for cycle, SPEC §4; empty unless the shown step stalled).
    pub fn summary(&self) -> Object {
        summary_object(&self.inner.current().summary())
    }

    /// Where the shown step stands against the instance's best lower bound:
    /// `{text, title}` ([`crate::bounds::Progress`]).
    pub fn progress(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.current().progress(None))
    }

    /// As [`Simulation::progress`], with `other` run beside this one on
    /// the same instance (the compare view): both runs in one line.
    pub fn progress_with(&self, other: &Simulation) -> Result<JsValue, JsError> {
        to_js(&self.inner.current().progress(Some(other.inner.current())))
    }

    /// The lower bounds of this run and `other` beside it (the compare
    /// view), `[{best, name, who}]`: one entry (names empty) when they are
    /// the same, else one per run, `name` its algorithm and `who` the run
    /// in a few words ("lmrr with combining") —
    /// the scrubber's ticks and the run chart's lines ([`crate::Simulation::bounds_beside`]).
    pub fn bounds_beside(&self, other: &Simulation) -> Array {
        let entries = self.inner.current().bounds_beside(Some(other.inner.current()));
        entries
            .into_iter()
            .map(|(best, name, who)| {
                let obj = Object::new();
                set(&obj, "best", best);
                set(&obj, "name", name);
                set(&obj, "who", who);
                JsValue::from(obj)
            })
            .collect()
    }

    /// The state to draw, as typed-array copies: `positions` (Uint32Array,
    /// one node id per packet), `classes` (Uint8Array, per packet),
    /// `delivered_at` (Uint32Array per packet, 2³²−1 while undelivered),
    /// `queues` (working-queue size per node), `waiting` (packets still at
    /// their source, per node), `links` (directed link ids used in the last
    /// step; the first `control_links` of them carried control messages,
    /// flits of worms included), `flits` (flits per worm, 1 without
    /// worms) and `worms` (Uint32Array: per worm stretched over more than
    /// one node, `packet, n` and its `n` nodes from the head back to the
    /// tail, see [`crate::engine::Engine::worm_trails`]; empty with F = 1),
    /// whose kinds are `control_kinds`: 0 a message, 1 a ghost, 2 an
    /// end-of-stream marker, as [`crate::engine::ControlKind`]),
    /// `edge_queues` (Uint32Array: packets in the algorithm's own edge
    /// queues per directed link id, empty when it keeps none, see
    /// [`crate::algorithms::Algorithm::edge_queues`]), `edge_queue_room`
    /// (Uint32Array: what each link's queues hold at most, q per logical
    /// edge it carries) and `edge_queue_cap` (their q, 0 without), plus the
    /// fields of `summary()`.
    pub fn snapshot(&self) -> Object {
        let obj = self.summary();
        engine_frame(&obj, self.inner.current().engine(), self.inner.current().edge_queues());
        obj
    }

    /// The marks the page draws for this run besides packets, lit links
    /// and node queues, by name (`ghost`, `end-of-stream`, `edge-queue`;
    /// see [`crate::algorithms::Mark`]): the legend shows an entry for each.
    pub fn marks(&self) -> Array {
        let out = Array::new();
        for mark in self.inner.current().marks() {
            out.push(&JsValue::from_str(mark.name()));
        }
        out
    }

    /// Per-step series and counters of every step computed so far (up to
    /// `furthest()`, also when an earlier step is shown): `in_flight`,
    /// `queue_series`, `links_used` (Uint32Array, index = step − 1),
    /// `deliveries` (Uint32Array, index = step, from step 0 up to the last
    /// step that delivered a packet, `last_delivery`: later steps delivered
    /// none), `max_queue`, `max_load`,
    /// `max_ctrl_queue`, `packet_hops`, `last_delivery`.
    pub fn stats(&self) -> Object {
        let stats = self.inner.furthest_state().engine().stats();
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
        to_js(self.inner.current().bounds())
    }

    /// The SPEC §4 report of the run up to the shown step (the object
    /// `routesim run --json` prints).
    pub fn report(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.current().report())
    }

    /// The run with the values it uses, `{run, values}` ([`RunSpec::label`]);
    /// `beside`: the algorithm drawn next to it, if any.
    pub fn label(&self, beside: JsValue) -> Result<JsValue, JsError> {
        let beside = optional_text("beside", &beside)?;
        // `beside` names the algorithm run beside this one (the compare
        // view): an unknown name is refused, not printed.
        if let Some(name) = &beside {
            crate::algorithms::registry::lookup_as("beside", name).map_err(js_error)?;
        }
        to_js(&self.spec.label(self.inner.current(), beside.as_deref()))
    }

    /// The run's request as a config object (what `new Simulation` reads back).
    pub fn config(&self) -> Result<JsValue, JsError> {
        to_js(&self.spec.to_json())
    }

    /// The explain panel's content (see [`crate::explain::explain`]): the
    /// algorithm in words, its claims evaluated on this instance with the
    /// verdict so far, the current phase, the terms, the packet classes and
    /// the destination key; with `lesson` (an id, or empty for none) the
    /// lesson's live check. Throws on an unknown lesson id.
    pub fn explain(&self, lesson: JsValue) -> Result<JsValue, JsError> {
        let mut view = explain::explain(self.inner.current(), None, lesson_of(&text("lesson", &lesson)?)?);
        self.lesson_changes(&mut view, None);
        to_js(&view)
    }

    /// As [`Simulation::explain`], with `other` run beside this one: its
    /// explanation too and, once both are over, the one-line verdict.
    pub fn explain_with(&self, other: &Simulation, lesson: JsValue) -> Result<JsValue, JsError> {
        let lesson = lesson_of(&text("lesson", &lesson)?)?;
        let mut view = explain::explain(self.inner.current(), Some(other.inner.current()), lesson);
        self.lesson_changes(&mut view, Some(other.spec.algorithm.name));
        to_js(&view)
    }

    /// With `other` beside this run on one timeline (the compare view):
    /// `{step, status}`, the pair's shown step and status
    /// ([`crate::simulation::pair`]).
    pub fn pair(&self, other: &Simulation) -> Object {
        let (step, status) = crate::simulation::pair(self.inner.current(), other.inner.current());
        let obj = Object::new();
        set(&obj, "step", step);
        set(&obj, "status", status.name());
        obj
    }

    /// A new run of `algorithm` on this run's instance (the page's
    /// `compare=`), at step 0; throws the core's message when it cannot
    /// route the instance.
    pub fn compare(&self, algorithm: JsValue) -> Result<Simulation, JsError> {
        let algorithm = text("compare", &algorithm)?;
        let spec = self
            .spec
            .beside(self.inner.current().instance(), &algorithm)
            .map_err(js_error)?;
        self.spec.check_memory_beside(&spec).map_err(js_error)?;
        let inner = Timeline::new(spec.build().map_err(js_error)?);
        Ok(Simulation { spec, inner })
    }

    /// The bipartite multigraph the algorithm planned this run with and its
    /// edge colouring (`offline`'s G_π, [`crate::algorithms::RoutingGraph`]):
    /// `{vertices, colours, left, right, colour_name, from, to, colour,
    /// dummy_from, dummy_to, dummy_colour, palette, caption}`, or `undefined`
    /// when the algorithm plans with none.
    pub fn routing_graph(&self) -> Result<JsValue, JsError> {
        match self.inner.current().routing_graph() {
            Some(graph) => to_js(&graph),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Source node of every packet.
    pub fn sources(&self) -> Uint32Array {
        let packets = &self.inner.current().instance().packets;
        Uint32Array::from(&packets.iter().map(|p| p.0).collect::<Vec<u32>>()[..])
    }

    /// A sort's key of every packet (SPEC §3 `keys`), as numbers; empty for
    /// a routing run. The page colours packets by them.
    pub fn keys(&self) -> Float64Array {
        let instance = self.inner.current().instance();
        let keys = instance.keys.as_deref().unwrap_or_default();
        let value = |&k: &u64| crate::workload::keys::value(k, instance.key_numbers);
        Float64Array::from(&keys.iter().map(value).collect::<Vec<f64>>()[..])
    }

    /// A sort's key of every packet as its place among the distinct keys
    /// (0 the lowest; equal keys one place), compared exactly as the sort
    /// compares them — `keys()` as numbers may round distinct keys near
    /// 2^64 to one. Empty for a routing run. The page shades packets by it.
    pub fn key_places(&self) -> Uint32Array {
        let keys = self.inner.current().instance().keys.as_deref().unwrap_or_default();
        Uint32Array::from(&crate::workload::keys::places(keys)[..])
    }

    /// Destination node of every packet.
    pub fn destinations(&self) -> Uint32Array {
        let packets = &self.inner.current().instance().packets;
        Uint32Array::from(&packets.iter().map(|p| p.1).collect::<Vec<u32>>()[..])
    }

    /// The instance as SPEC §3 JSON.
    pub fn instance_json(&self) -> String {
        self.inner.current().instance().to_json()
    }

    /// The network of this run; see [`topology`].
    pub fn topology(&self) -> Object {
        topology_object(&self.inner.current().instance().topology)
    }

    /// Follows packet `packet` (or none, with `undefined`) and returns its
    /// route so far; see [`Simulation::trail`].
    pub fn watch(&mut self, packet: JsValue) -> Result<Uint32Array, JsError> {
        let packet = match packet.is_undefined() || packet.is_null() {
            true => None,
            false => Some(count("packet", &packet)?),
        };
        self.inner.watch(packet).map_err(js_error)?;
        Ok(self.trail())
    }

    /// The watched packet's line for a claim on every packet's delay that
    /// applies to this run (bit fixing: its |S| and, once it has arrived,
    /// its delay against it; see [`crate::explain::packet_line`]); `None`
    /// when no packet is watched or no such claim applies.
    pub fn watch_note(&self) -> Option<String> {
        let run = self.inner.current();
        explain::packet_line(run, run.watched()?)
    }

    /// The nodes the watched packet has visited, source first.
    pub fn trail(&self) -> Uint32Array {
        Uint32Array::from(self.inner.current().trail())
    }
}

fn summary_object(summary: &Summary) -> Object {
    let obj = Object::new();
    set(&obj, "step", summary.step);
    set(&obj, "delivered", summary.delivered as f64);
    set(&obj, "packets", summary.packets);
    set(&obj, "in_flight", summary.in_flight as f64);
    set(&obj, "max_queue", summary.max_queue);
    set(&obj, "status", summary.status);
    set(&obj, "phase", summary.phase.as_str());
    set(&obj, "deadlock", Uint32Array::from(&summary.deadlock[..]));
    set(&obj, "fixed", summary.fixed);
    set(&obj, "fixed_note", summary.fixed_note.as_str());
    obj
}

/// The per-frame fields of a snapshot that come from the engine (see
/// [`Simulation::snapshot`]): shared by the batch run and the load mode.
fn engine_frame(obj: &Object, engine: &Engine, edge: Option<EdgeQueues>) {
    set(obj, "positions", Uint32Array::from(&engine.positions()[..]));
    set(obj, "classes", Uint8Array::from(engine.classes()));
    set(obj, "delivered_at", Uint32Array::from(engine.delivery_steps()));
    set(obj, "queues", Uint32Array::from(engine.working_queues()));
    set(obj, "waiting", Uint32Array::from(engine.waiting_at_source()));
    set(obj, "links", Uint32Array::from(engine.last_links()));
    set(obj, "control_links", engine.last_control_count() as u32);
    set(obj, "flits", engine.flits());
    set(obj, "worms", Uint32Array::from(&engine.worm_trails()[..]));
    let kinds: Vec<u8> = engine.last_control_kinds().iter().map(|&k| k as u8).collect();
    set(obj, "control_kinds", Uint8Array::from(&kinds[..]));
    let edge = edge.unwrap_or_else(|| EdgeQueues::empty(0, 0));
    set(obj, "edge_queues", Uint32Array::from(&edge.occupancy[..]));
    set(obj, "edge_queue_room", Uint32Array::from(&edge.room[..]));
    set(obj, "edge_queue_cap", edge.cap);
}

impl Simulation {
    /// The lesson check's note when this run is not the lesson's own (the
    /// core's [`crate::lessons::Lesson::changes`] on this run's request).
    fn lesson_changes(&self, view: &mut explain::View, beside: Option<&str>) {
        if let Some(status) = view.lesson.as_mut() {
            status.changed = status.lesson.changes(&self.spec, beside);
        }
    }
}

fn topology_object(topology: &Topology) -> Object {
    let obj = Object::new();
    set(&obj, "name", topology.to_string());
    set(&obj, "kind", topology.kind().name());
    set(&obj, "nodes", topology.nodes());
    set(&obj, "ports", topology.ports());
    let dims = Array::new();
    for d in topology.size_parameters() {
        dims.push(&JsValue::from(d));
    }
    set(&obj, "dims", dims);
    set(&obj, "wrap", topology.as_grid().is_some_and(|g| g.wraps()));
    set(&obj, "neighbors", Uint32Array::from(&topology.neighbor_table()[..]));
    if let Topology::ShuffleExchange(g) = topology {
        let n = g.necklaces();
        set(&obj, "necklace", Uint32Array::from(&n.necklace[..]));
        set(&obj, "position", Uint32Array::from(&n.position[..]));
        set(&obj, "weight", Uint32Array::from(&n.weight[..]));
    }
    obj
}

/// The kind of a topology name (`mesh` for `mesh:16x16`, SPEC §2), or
/// `undefined` when the text is not a topology name: the kind menu follows
/// the name without the page parsing it.
#[wasm_bindgen]
pub fn topology_kind(name: JsValue) -> Option<String> {
    name.as_string()?
        .parse::<Topology>()
        .ok()
        .map(|t| t.kind().name().to_string())
}

/// Parses a topology name (SPEC §2) under the browser limits and returns
/// `{name, kind, nodes, ports, dims, wrap, neighbors}`, where
/// `neighbors[node * ports + port]` is the node at the other end of that
/// directed link (2³²−1 where there is none); a shuffle-exchange graph adds
/// per node `necklace` (its necklace's index, necklaces numbered by
/// weight, then representative), `position` (its rotation in the
/// necklace) and `weight` (the 1s of its label), which the page draws
/// necklaces as rings from. Throws on a bad name.
#[wasm_bindgen]
pub fn topology(name: JsValue) -> Result<Object, JsError> {
    let name = text("topology", &name)?;
    let mut spec = RunSpec::browser();
    spec.set(crate::request::Field::Topology, "topology", &name)
        .map_err(js_error)?;
    Ok(topology_object(spec.topology.as_ref().expect("just set")))
}

/// Node `node` of the network `name` in the network's own terms
/// (coordinates, label, level and row; see [`Topology::describe_node`]).
#[wasm_bindgen]
pub fn describe_node(name: JsValue, node: JsValue) -> Result<String, JsError> {
    let name = text("topology", &name)?;
    let topology: Topology = name.parse().map_err(js_error)?;
    let node = count("node", &node)?;
    if node >= topology.nodes() {
        let why = format!("no such node: {name} has nodes 0 to {}", topology.nodes() - 1);
        return Err(js_error(Error::invalid("node", node, why)));
    }
    Ok(topology.describe_node(node))
}

/// Everything this build knows, as `routesim list --json` prints it:
/// `{topologies, algorithms, policies, workloads}`, each algorithm with its
/// summary, paper, section, claim, kinds, shape, accepted packets, options
/// and `accepts` in words.
#[wasm_bindgen]
pub fn catalogue() -> Result<JsValue, JsError> {
    to_js(&crate::catalogue::catalogue())
}

/// The page's palette ([`crate::palette`]): `classes` (per class slot, class
/// c drawn as slot c mod 8: `{word, colour, shape}`), `lit` (links used in
/// the shown step), `control` (links that carried a control message) and
/// `heat` (the queue fill's ends).
#[wasm_bindgen]
pub fn palette() -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct Palette {
        classes: &'static [crate::palette::ClassStyle],
        lit: &'static str,
        control: &'static str,
        heat: [&'static str; 2],
    }
    to_js(&Palette {
        classes: &crate::palette::CLASSES,
        lit: crate::palette::LIT,
        control: crate::palette::CONTROL,
        heat: crate::palette::HEAT,
    })
}

fn lesson_of(id: &str) -> Result<Option<&'static lessons::Lesson>, JsError> {
    if id.is_empty() {
        Ok(None)
    } else {
        lessons::lookup(id).map(Some).map_err(js_error)
    }
}

/// The lessons of the menu (SPEC §7), as [`lessons::Shipped`]: `[{id,
/// title, text, paper, section, preset: {…, compare, seconds, step}, check,
/// load, config, load_config}]`.
#[wasm_bindgen]
pub fn lessons() -> Result<JsValue, JsError> {
    let list = lessons::LESSONS
        .iter()
        .map(lessons::Lesson::shipped)
        .collect::<Result<Vec<_>, _>>()
        .map_err(js_error)?;
    to_js(&list)
}

/// The lesson `id` (or the default view, `intro`), as in [`lessons`];
/// throws the core's message naming an unknown id.
#[wasm_bindgen]
pub fn lesson(id: JsValue) -> Result<JsValue, JsError> {
    to_js(
        &lessons::lookup(&text("lesson", &id)?)
            .and_then(lessons::Lesson::shipped)
            .map_err(js_error)?,
    )
}

/// The menus for a config ([`crate::request::Menus`]): `{algorithms,
/// policies, workloads}`, each `[{name, ok, reason}]` — which algorithms
/// accept its network, which policies its algorithm takes, which workloads
/// can be generated there and routed by its algorithm.
#[wasm_bindgen]
pub fn choices(config: JsValue) -> Result<JsValue, JsError> {
    to_js(&lenient_spec(config)?.menus())
}

/// The experiment's algorithm menu for a config, `[{name, ok, reason}]`
/// ([`RunSpec::experiment_choices`]).
#[wasm_bindgen]
pub fn experiment_choices(config: JsValue) -> Result<JsValue, JsError> {
    to_js(&lenient_spec(config)?.experiment_choices())
}

/// Reads a config whose algorithm or workload may not fit its network yet
/// ([`RunSpec::from_json_lenient`]).
fn lenient_spec(config: JsValue) -> Result<RunSpec, JsError> {
    RunSpec::from_json_lenient(RunSpec::browser(), &from_js(config, "config")?).map_err(js_error)
}

/// Makes a config runnable after a change (see [`RunSpec::reconcile`]):
/// returns `{config, messages}`, the config with the algorithm, policy or
/// workload switched where they cannot run, and one line per switch.
/// `changed`: the field just changed, if the page knows it; `"workload"`
/// makes the algorithm follow a workload of the other problem (sorting or
/// routing, [`RunSpec::reconcile_to_workload`]); `"algorithm"` makes the
/// network and the workload follow the algorithm
/// ([`RunSpec::reconcile_to_algorithm`]).
#[wasm_bindgen]
pub fn reconcile(config: JsValue, changed: JsValue) -> Result<JsValue, JsError> {
    let changed = optional_text("changed", &changed)?;
    let mut spec = lenient_spec(config)?;
    let messages = match changed.as_deref() {
        Some("workload") => spec.reconcile_to_workload(),
        Some("algorithm") => spec.reconcile_to_algorithm(),
        None => spec.reconcile(),
        // The page says only which field led: the workload or the algorithm.
        Some(other) => {
            return Err(js_error(Error::invalid(
                "changed",
                other,
                "expected \"workload\", \"algorithm\" or nothing",
            )))
        }
    };
    to_js(&serde_json::json!({"config": spec.to_json(), "messages": messages}))
}

/// Reads the page's URL parameters over a base config (SPEC §7): returns
/// `{config, messages, named, switches}`, a bad parameter named in a message
/// with the base's value kept, `named` the URL keys of the run fields taken
/// (a refused one is not), `switches` the messages that say a switch the
/// core made (also in `messages`); parameters that are not run fields are
/// left to the page.
#[wasm_bindgen]
pub fn parse_query(search: JsValue, base: JsValue) -> Result<JsValue, JsError> {
    let search = text("search", &search)?;
    let base = spec_of(base)?;
    let pairs = crate::request::query_pairs(&search);
    let (spec, messages, named, switches) =
        RunSpec::from_query_named(base, pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let named: Vec<&str> = named.iter().filter_map(|f| f.query()).collect();
    to_js(&serde_json::json!({"config": spec.to_json(), "messages": messages, "named": named, "switches": switches}))
}

/// The page's fall-back from an address whose run the core refuses
/// ([`crate::request::blame_query`] over the browser's limits): `config` the
/// run refused, `search` the address's query string, `defaults` the lesson's
/// (else the default run's) config. Returns `{key, config, warning,
/// messages}` — the URL parameter blamed (`null`: all were reset), the
/// config to run, the warning line and the reconcile's lines — or `null`
/// when the run builds or the address names no run field.
#[wasm_bindgen]
pub fn blame_query(config: JsValue, search: JsValue, defaults: JsValue) -> Result<JsValue, JsError> {
    let pairs = crate::request::query_pairs(&text("search", &search)?);
    let blame = crate::request::blame_query(
        &RunSpec::browser(),
        &from_js(config, "config")?,
        pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        &from_js(defaults, "defaults")?,
    )
    .map_err(js_error)?;
    to_js(&blame)
}

mod limits;

pub use limits::{check_instance_text, limits};

mod grids;

pub use grids::{load_choices, Experiment, LoadCurve, LoadSim};
