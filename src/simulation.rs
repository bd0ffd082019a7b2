//! A run: an instance, an algorithm and the engine, stepped together. This
//! is what the CLI, the browser and the tests drive.

use crate::algorithms::{self, Algorithm, EdgeQueues, Mark};
use crate::bounds::{self, Bounds};
pub use crate::engine::check_flits;
use crate::engine::{Engine, EngineConfig, Policy, StepSummary};
use crate::error::{Error, Result};
use crate::options::{AlgorithmOptions, Field};
use crate::report::{Extra, Latency, Report};
use crate::topology::Network;
use crate::workload::Instance;
use std::sync::Arc;

/// Default step limit of a run.
pub const DEFAULT_MAX_STEPS: u32 = 10_000_000;

/// How to run an instance, as the simulation takes it. Front ends do not
/// fill this: they build a [`crate::request::RunSpec`], whose `build` does;
/// tests of the engine's internals set its knobs (`resort_interval`) here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimConfig {
    /// Algorithm, by SPEC name.
    pub algorithm: String,
    /// Contention policy.
    pub policy: Policy,
    /// Seed of every random choice of the run.
    pub seed: u64,
    /// Queue capacity q; `None` is unbounded.
    pub queue_cap: Option<u32>,
    /// LMRR's per-edge queues.
    pub edge_queues: bool,
    /// The algorithm's options (its `seed` and `queue_cap` are taken from
    /// this configuration's when the algorithm is created).
    pub options: AlgorithmOptions,
    /// Stop after this many steps.
    pub max_steps: u32,
    /// Check engine invariants every step.
    pub check_invariants: bool,
    /// Record per-step series.
    pub record_series: bool,
    /// Hops per packet in flight between the engine's re-sorts of packets by position (speed
    /// only; see [`crate::engine::RESORT_INTERVAL`]).
    pub resort_interval: u32,
    /// Threads of a step (speed only; see [`crate::engine::EngineConfig::threads`]).
    pub threads: usize,
    /// The fewest packets in flight for a parallel step (see
    /// [`crate::engine::EngineConfig::parallel_min`]; tests set 0).
    pub parallel_min: usize,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            algorithm: crate::algorithms::DEFAULT_ALGORITHM.into(),
            policy: Policy::FarthestFirst,
            seed: 1,
            queue_cap: None,
            edge_queues: false,
            options: AlgorithmOptions::default(),
            max_steps: DEFAULT_MAX_STEPS,
            check_invariants: cfg!(debug_assertions),
            record_series: true,
            resort_interval: crate::engine::RESORT_INTERVAL,
            threads: 1,
            parallel_min: crate::engine::PARALLEL_MIN,
        }
    }
}

/// Why a run is over (or not yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Packets remain and can move.
    Running,
    /// Every packet was delivered.
    Finished,
    /// A step moved nothing with packets left (SPEC §1).
    Stalled,
    /// The step limit was reached.
    StepLimit,
}

impl Status {
    /// The name SPEC §7 gives the status (`running`, `finished`, `stalled`,
    /// `step-limit`; the page adds `paused`).
    pub fn name(self) -> &'static str {
        match self {
            Status::Running => "running",
            Status::Finished => "finished",
            Status::Stalled => "stalled",
            Status::StepLimit => "step-limit",
        }
    }
}

/// The counters of a shown step, as the page's counters read them (the
/// batch run's and the load mode's alike).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Summary {
    /// The step shown.
    pub step: u32,
    /// Packets delivered.
    pub delivered: u64,
    /// Packets (the load mode: packet slots).
    pub packets: u32,
    /// Packets not yet delivered.
    pub in_flight: u64,
    /// The largest working queue so far.
    pub max_queue: u32,
    /// [`Status::name`] (the load mode: always `running`).
    pub status: &'static str,
    /// The current phase's name (empty without one).
    pub phase: String,
    /// A stalled run's wait-for cycle ([`Simulation::deadlock`]); empty otherwise.
    pub deadlock: Vec<u32>,
    /// Packets whose source is their destination (fixed points): delivered
    /// at step 0 without a move.
    pub fixed: u32,
    /// The fixed points in words for the delivered counter ("232 start at
    /// their destination"; empty without any).
    pub fixed_note: String,
}

/// Two runs side by side on one timeline (the page's compare view), as its
/// shared counters show them: the shown step is the later of the two runs'
/// steps (a run that has ended stays on its last), and the pair runs while
/// either run does; once both have ended it has the main run's status.
pub fn pair(main: &Simulation, other: &Simulation) -> (u32, Status) {
    let status = match other.status() {
        Status::Running => Status::Running,
        _ => main.status(),
    };
    (main.engine().step_count().max(other.engine().step_count()), status)
}

/// "232 start at their destination" (empty for 0), the delivered counter's note.
pub fn fixed_note(fixed: u32) -> String {
    match fixed {
        0 => String::new(),
        1 => "1 starts at its destination".into(),
        n => format!("{n} start at their destination"),
    }
}

/// One simulation run. Cloning copies the whole state (engine, algorithm,
/// status), so a copy steps on exactly as the original would; the instance
/// is shared. [`crate::Timeline`] keeps such copies as checkpoints.
#[derive(Clone)]
pub struct Simulation {
    instance: Arc<Instance>,
    config: SimConfig,
    engine: Engine,
    algorithm: Box<dyn Algorithm>,
    bounds: Bounds,
    status: Status,
    watched: Option<u32>,
    trail: Vec<u32>,
    /// The step at which each node of `trail` was reached.
    trail_steps: Vec<u32>,
    /// Once stalled: the wait-for cycle of the engine's state (SPEC §4).
    deadlock: Vec<u32>,
    /// The fixed points (packets delivered at step 0), counted once.
    fixed: u32,
    /// A figure per packet that depends only on the instance and the
    /// configuration, computed once by a layer above ([`Simulation::per_packet`]).
    per_packet: Arc<std::sync::OnceLock<Vec<u32>>>,
}

impl Simulation {
    /// Sets up a run; refuses bad configurations and unsupported algorithm/topology pairs.
    pub fn new(mut instance: Instance, config: SimConfig) -> Result<Simulation> {
        if config.queue_cap == Some(0) {
            return Err(Error::invalid("queue-cap", 0, "a queue must hold at least one packet"));
        }
        let options = AlgorithmOptions {
            seed: config.seed,
            queue_cap: config.queue_cap,
            ..config.options.clone()
        };
        let entry = algorithms::lookup(&config.algorithm)?;
        entry.check(&instance, config.policy)?;
        entry.check_options(&options)?;
        let flits = options.flits();
        check_flits(flits, config.queue_cap)?;
        entry.check_flits(flits)?;
        let mut algorithm = entry.create(&options);
        // An algorithm that keeps its own queues (lmrr's edge queues) bounds
        // them itself; the engine's node or edge queues are then not bounded.
        let own_queues = algorithm.queue_cap().is_some();
        // Edge queues need a capacity: `--queue-cap`, or the algorithm's own
        // default (lmrr's q = 2, SPEC §5).
        if config.edge_queues && config.queue_cap.is_none() && !own_queues {
            return Err(Error::invalid("edge-queues", "true", "needs a queue capacity"));
        }
        if config.edge_queues && !own_queues && !algorithm.keeps_edge_queues() {
            return Err(Error::unsupported(
                entry.name,
                "it moves packets by script (compare-exchanges, tours), keeping node queues, not link queues: \
                 use --queue-cap without --edge-queues",
            ));
        }
        let engine_config = EngineConfig {
            policy: config.policy,
            seed: config.seed,
            queue_cap: config.queue_cap.filter(|_| !own_queues),
            edge_queues: config.edge_queues && !own_queues,
            check_invariants: config.check_invariants,
            record_series: config.record_series,
            resort_interval: config.resort_interval,
            flits,
            threads: config.threads,
            parallel_min: config.parallel_min,
        };
        // A sort: every packet's destination is its rank's node in the
        // order the algorithm names (the mesh's snake, a butterfly's level
        // D), else in the topology's (SPEC §5) — set here, whatever order
        // the instance came in (a second run beside a snake sort took the
        // snake's destinations and aborted).
        if let Some(keys) = instance.keys.as_ref() {
            let order = algorithm
                .sort_order(&instance.topology)
                .unwrap_or_else(|| crate::workload::sort::Order::of(&instance.topology));
            let dest = crate::workload::sort::rank_destinations(keys);
            let topo = instance.topology.clone();
            for (packet, d) in instance.packets.iter_mut().zip(dest) {
                packet.1 = order.node(&topo, d);
            }
        }
        // A sort (SPEC §5) moves every key, even one that starts at its rank's node.
        // A failed allocation of the engine's columns is a message, not an abort.
        let mut engine = if instance.keys.is_some() {
            Engine::try_new_holding(instance.topology.clone(), &instance.packets, engine_config)?
        } else {
            Engine::try_new(instance.topology.clone(), &instance.packets, engine_config)?
        };
        algorithm.start(&instance, &mut engine)?;
        // Combined packets share messages: the counting bounds count one
        // packet per destination (see `bounds::compute_combining`).
        let combining = options.combine && entry.options.contains(&Field::Combine);
        // The bounds allocate their working memory in pieces: it is tried
        // in one block first, so that a run too large for the memory ends in
        // a message, not in the allocator's abort.
        let working = bounds::working_bytes(&instance.topology, instance.packets.len() as u64);
        crate::error::try_headroom(working, "the lower bounds' working memory", &instance.topology)?;
        let bounds = if combining {
            bounds::compute_combining(&instance)
        } else {
            bounds::compute(&instance)
        };
        let status = if engine.drained() {
            Status::Finished
        } else {
            Status::Running
        };
        // Fixed points are delivered when the engine is made: count them once, not per summary.
        let fixed = engine.delivery_steps().iter().filter(|&&at| at == 0).count() as u32;
        Ok(Simulation {
            fixed,
            instance: Arc::new(instance),
            config,
            engine,
            algorithm,
            bounds,
            status,
            watched: None,
            trail: Vec::new(),
            trail_steps: Vec::new(),
            deadlock: Vec::new(),
            per_packet: Arc::default(),
        })
    }

    /// A figure per packet that depends only on the instance and the
    /// configuration (the explain panel's |S| under bit fixing), computed by
    /// `compute` on the first call and kept for the run and its copies.
    pub fn per_packet(&self, compute: impl FnOnce(&Simulation) -> Vec<u32>) -> &[u32] {
        self.per_packet.get_or_init(|| compute(self))
    }

    /// Simulates one step, unless the run is over.
    pub fn step(&mut self) -> StepSummary {
        if self.status != Status::Running {
            return StepSummary::default();
        }
        // Once every packet is delivered only worms' flits are left to
        // arrive: the algorithm has nothing more to do (never with F = 1).
        if !self.engine.finished() {
            // At the step limit the next step's preparation is not run: it
            // counts what it schedules (lmrr's ghosts, a sort's key
            // messages) for a step never taken. Only a hand-over of the
            // last packets where they stand is tried, on a copy.
            if self.engine.step_count() >= self.config.max_steps {
                if self.engine.all_home() {
                    let mut next = self.clone();
                    if next.prepare() {
                        *self = next;
                        return StepSummary::default();
                    }
                }
                self.status = Status::StepLimit;
                return StepSummary::default();
            }
            if self.prepare() {
                return StepSummary::default();
            }
        }
        if self.engine.step_count() >= self.config.max_steps {
            self.status = Status::StepLimit;
            return StepSummary::default();
        }
        let summary = self.engine.step();
        self.algorithm.after_step(&self.engine);
        // A scripted phase's last step hands over what it left home (counted in the step's end).
        let delivered = self.engine.delivered();
        self.algorithm.hand_over(&mut self.engine);
        if self.engine.delivered() != delivered {
            self.engine.restate_step_end();
        }
        if let Some(p) = self.watched {
            let node = self.engine.position(p);
            if self.trail.last() != Some(&node) {
                self.trail.push(node);
                self.trail_steps.push(self.engine.step_count());
            }
        }
        if self.engine.drained() {
            self.status = Status::Finished;
        } else if summary.packet_moves == 0 && summary.control_messages == 0 && summary.flit_moves == 0 && !summary.busy
        {
            self.status = Status::Stalled;
            self.deadlock = self.engine.wait_for_cycle();
        }
        summary
    }

    /// The algorithm's part of the next step's start; true when it handed
    /// the last packets over where they stood (home since an earlier step):
    /// the run ended with the step before, and no empty step is simulated
    /// after it — the run ends at its `steps`, also under a step limit equal to them.
    fn prepare(&mut self) -> bool {
        self.algorithm.before_step(&mut self.engine);
        let ended = self.engine.drained() && self.engine.stats().last_delivery <= self.engine.step_count();
        if ended {
            self.engine.restate_step_end();
            self.status = Status::Finished;
        }
        ended
    }

    /// Steps until the run is over or `max_steps` more steps were taken.
    pub fn run_steps(&mut self, max_steps: u32) -> Status {
        for _ in 0..max_steps {
            if self.status != Status::Running {
                break;
            }
            self.step();
        }
        self.status
    }

    /// Steps until the run is over.
    pub fn run(&mut self) -> Status {
        while self.status == Status::Running {
            self.step();
        }
        self.status
    }

    /// Where the run stands.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The shown step's counters.
    pub fn summary(&self) -> Summary {
        let engine = &self.engine;
        let fixed = self.fixed;
        Summary {
            step: engine.step_count(),
            delivered: engine.delivered().into(),
            packets: engine.packet_count(),
            in_flight: engine.in_flight().into(),
            max_queue: engine.stats().max_queue,
            status: self.status().name(),
            phase: engine.stats().current_phase().unwrap_or("").to_string(),
            deadlock: self.deadlock.clone(),
            fixed,
            fixed_note: fixed_note(fixed),
        }
    }

    /// How far this run, and `beside` run beside it on the same instance
    /// (the compare view), stand against the instance's best lower bound
    /// ([`Bounds::progress`]).
    pub fn progress(&self, beside: Option<&Simulation>) -> bounds::Progress {
        fn at(s: &Simulation) -> bounds::RunAt<'_> {
            bounds::RunAt {
                name: &s.config.algorithm,
                step: s.engine.step_count(),
                finished: s.status() == Status::Finished,
                stalled: s.status() == Status::Stalled,
            }
        }
        let runs: Vec<bounds::RunAt> = std::iter::once(self).chain(beside).map(at).collect();
        let mut progress = match self.bound_apart(beside) {
            None => self.bounds().progress(&runs),
            Some((other, [mine, theirs], why)) => {
                let runs = [
                    bounds::OwnBound {
                        at: at(self),
                        bounds: self.bounds(),
                        who: mine,
                    },
                    bounds::OwnBound {
                        at: at(other),
                        bounds: other.bounds(),
                        who: theirs,
                    },
                ];
                bounds::Progress::apart(&runs, why)
            }
        };
        // SPEC §4's bounds count one flit a packet: with worms they hold
        // but are loose, and the tooltip says by how much.
        let flits = self.config.options.flits();
        if flits > 1 {
            progress.title += &format!(
                " These bounds count one flit a packet: a worm of {flits} flits needs its distance + {} steps, and \
                 a link carries one flit a step.",
                flits - 1
            );
        }
        progress
    }

    /// The lower bounds of this run and `beside` it, `(best, algorithm,
    /// who)` each: one entry (names empty) when they are the same, else one
    /// per run with its algorithm and the run in a few words (the
    /// scrubber's ticks and the run chart's lines say whose is whose).
    pub fn bounds_beside(&self, beside: Option<&Simulation>) -> Vec<(u32, String, String)> {
        match self.bound_apart(beside) {
            None => vec![(self.bounds().best, String::new(), String::new())],
            Some((other, [mine, theirs], _)) => {
                vec![
                    (self.bounds().best, self.config.algorithm.clone(), mine),
                    (other.bounds().best, other.config.algorithm.clone(), theirs),
                ]
            }
        }
    }

    /// The run `beside` this one when its lower bound differs, with each
    /// run in a few words and why they differ ([`bounds::names_apart`]);
    /// `None` for one run or one bound.
    fn bound_apart<'a>(&self, beside: Option<&'a Simulation>) -> Option<(&'a Simulation, [String; 2], &'static str)> {
        let other = beside.filter(|b| b.bounds().best != self.bounds().best)?;
        let (a, b) = (&self.config, &other.config);
        let runs = [
            (a.algorithm.as_str(), a.options.combine),
            (b.algorithm.as_str(), b.options.combine),
        ];
        let (who, why) = bounds::names_apart(runs, self.instance.keys.is_some());
        Some((other, who, why))
    }

    /// SPEC §4 `deadlock`: once the run stalled, the node ids of its
    /// wait-for cycle (full nodes whose waiting packets each want the next;
    /// see `engine/deadlock.rs` for the canonical choice), empty when the
    /// stall has none; `None` unless the run stalled.
    pub fn deadlock(&self) -> Option<&[u32]> {
        (self.status == Status::Stalled).then_some(self.deadlock.as_slice())
    }

    /// The engine (positions, queues, series).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }
    /// The heap bytes a clone of the algorithm's state copies ([`Algorithm::copy_bytes`]).
    pub fn algorithm_copy_bytes(&self) -> usize {
        self.algorithm.copy_bytes()
    }
    /// Whether the coming steps record their packets' links
    /// ([`Engine::set_record_links`]; the timeline turns them off for the
    /// steps it does not show).
    pub fn set_record_links(&mut self, on: bool) {
        self.engine.set_record_links(on);
    }
    /// The instance.
    pub fn instance(&self) -> &Instance {
        &self.instance
    }
    /// The configuration.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }
    /// The instance's lower bounds.
    pub fn bounds(&self) -> &Bounds {
        &self.bounds
    }

    /// Follows one packet (or none): [`Simulation::trail`] then lists the
    /// nodes it has visited, from its source. The route so far is recovered
    /// by replaying the run from step 0 (runs are deterministic), so this
    /// costs one replay up to the current step.
    pub fn watch(&mut self, packet: Option<u32>) -> Result<()> {
        self.watched = None;
        self.trail.clear();
        self.trail_steps.clear();
        let Some(p) = packet else { return Ok(()) };
        if p >= self.engine.packet_count() {
            return Err(Error::invalid(
                "packet",
                p,
                format!("no such packet; the instance has {}", self.engine.packet_count()),
            ));
        }
        let mut replay = Simulation::new((*self.instance).clone(), self.config.clone())?;
        replay.watched = Some(p);
        replay.trail.push(self.engine.source(p));
        replay.trail_steps.push(0);
        while replay.status == Status::Running && replay.engine.step_count() < self.engine.step_count() {
            replay.step();
        }
        self.watched = Some(p);
        self.trail = replay.trail;
        self.trail_steps = replay.trail_steps;
        Ok(())
    }

    /// The watched packet, if any.
    pub fn watched(&self) -> Option<u32> {
        self.watched
    }

    /// Takes over `from`'s watched packet and its trail as far as this
    /// run's step (`from` may be ahead of this run or behind it, but not
    /// behind the last node of the trail at this run's step); stepping this
    /// run then extends the trail as watching from the start would have.
    /// Used when a checkpoint becomes the shown state.
    pub(crate) fn copy_watch(&mut self, from: &Simulation) {
        let keep = from.trail_steps.partition_point(|&s| s <= self.engine.step_count());
        self.watched = from.watched;
        self.trail = from.trail[..keep].to_vec();
        self.trail_steps = from.trail_steps[..keep].to_vec();
    }

    /// The nodes the watched packet has visited so far, source first
    /// (empty when no packet is watched).
    pub fn trail(&self) -> &[u32] {
        &self.trail
    }

    /// The marks the page draws for this run's algorithm besides packets
    /// (see [`crate::algorithms::Algorithm::marks`]).
    pub fn marks(&self) -> &'static [Mark] {
        self.algorithm.marks()
    }

    /// The algorithm's own edge queues, per directed link, if it keeps any
    /// (see [`crate::algorithms::Algorithm::edge_queues`]).
    pub fn edge_queues(&self) -> Option<EdgeQueues> {
        self.algorithm.edge_queues()
    }

    /// The bipartite multigraph the algorithm planned this instance with,
    /// and its edge colouring, if it plans with one (`offline`'s G_π; see
    /// [`crate::algorithms::Algorithm::routing_graph`]).
    pub fn routing_graph(&self) -> Option<crate::algorithms::RoutingGraph> {
        self.algorithm.routing_graph(&self.instance)
    }

    /// The algorithm's own report fields so far (SPEC §5; the `extra`
    /// part of [`Simulation::report`]), without the rest of the report.
    pub fn report_extra(&self) -> Extra {
        self.algorithm.report_extra()
    }

    /// The capacity of the queues the algorithm keeps and bounds itself
    /// (`lmrr`'s edge queues), if any; the engine's queues are then unbounded.
    pub fn own_queue_cap(&self) -> Option<u32> {
        self.algorithm.queue_cap()
    }

    /// Whether the contention policy can change this run (false where the
    /// algorithm schedules every move itself: `lmrr`'s ranks, the sorts'
    /// compare-exchanges, `offline` and `sort-route` with barriers).
    pub fn uses_policy(&self) -> bool {
        self.algorithm.uses_policy()
    }

    /// SPEC §1 `steps` so far: once finished, the step of the last delivery
    /// (with worms, of the last flit's arrival); a stalled run's last step
    /// moved nothing and is not counted; otherwise the steps simulated.
    pub fn steps(&self) -> u32 {
        let stats = self.engine.stats();
        match self.status {
            Status::Finished => stats.last_delivery.max(stats.last_flit),
            Status::Stalled => self.engine.step_count().saturating_sub(1),
            Status::Running | Status::StepLimit => self.engine.step_count(),
        }
    }

    /// For a sort (SPEC §5): whether the keys are in order now, checked from
    /// the packets' positions (not from what the algorithm says); `None`
    /// for a routing run.
    pub fn sorted(&self) -> Option<bool> {
        let keys = self.instance.keys.as_ref()?;
        let positions: Vec<u32> = (0..keys.len() as u32).map(|p| self.engine.position(p)).collect();
        let order = self.sort_order()?;
        Some(crate::workload::sort::is_sorted(
            &self.instance.topology,
            order,
            keys,
            &positions,
        ))
    }

    /// For a sort: the order its keys end in (the algorithm's, or the
    /// topology's own, SPEC §5); `None` for a routing run.
    pub fn sort_order(&self) -> Option<crate::workload::sort::Order> {
        self.instance.keys.as_ref()?;
        Some(
            self.algorithm
                .sort_order(&self.instance.topology)
                .unwrap_or_else(|| crate::workload::sort::Order::of(&self.instance.topology)),
        )
    }

    /// Every packet's delay so far, by id: its delivery step minus the
    /// distance from its source to its destination — the steps it spent
    /// waiting on a shortest route (the lectures' delay); `None` while it
    /// is undelivered. Read from the engine's delivery steps, O(P).
    pub fn packet_delays(&self) -> Vec<Option<u32>> {
        let topo = &self.instance.topology;
        let at = self.engine.delivery_steps();
        self.instance
            .packets
            .iter()
            .enumerate()
            .map(|(p, &(s, d))| {
                let step = *at.get(p)?;
                (step != u32::MAX).then(|| step.saturating_sub(topo.distance(s, d)))
            })
            .collect()
    }

    /// The delays of the packets delivered so far as a histogram:
    /// `counts[z]` = packets delayed exactly z steps ([`Simulation::packet_delays`]).
    pub fn delay_counts(&self) -> Vec<u32> {
        let mut counts: Vec<u32> = Vec::new();
        for z in self.packet_delays().into_iter().flatten() {
            if counts.len() <= z as usize {
                counts.resize(z as usize + 1, 0);
            }
            counts[z as usize] += 1;
        }
        counts
    }

    /// The SPEC §4 report of the run so far.
    pub fn report(&self) -> Report {
        let stats = self.engine.stats();
        let (l, k) = self.instance.lk();
        let steps = self.steps();
        Report {
            topology: self.instance.topology.to_string(),
            algorithm: self.algorithm.name().to_string(),
            policy: self.config.policy.to_string(),
            workload: self.instance.name.clone(),
            seed: self.config.seed,
            l,
            k,
            queue_cap: self.algorithm.queue_cap().or(self.config.queue_cap),
            packets: self.instance.packets.len() as u32,
            delivered: self.engine.delivered(),
            stalled: self.status == Status::Stalled,
            hit_max_steps: self.status == Status::StepLimit,
            steps,
            max_queue: stats.max_queue,
            max_load: stats.max_load,
            max_ctrl_queue: stats.max_ctrl_queue,
            packet_hops: stats.packet_hops,
            // Up to `steps`: a stalled run's last step moved nothing and is not counted.
            phases: stats.phases(steps),
            extra: Extra {
                flits: self.config.options.flits,
                edge_queues: self.config.edge_queues.then_some(true),
                sorted: self.sorted(),
                order: self.sort_order().map(|o| o.name()),
                ..self.algorithm.report_extra()
            },
            offline_precompute: self.algorithm.offline_precompute(),
            bounds: self.bounds.clone(),
            latency: Latency::from_deliveries(&stats.deliveries),
            deadlock: self.deadlock().map(<[u32]>::to_vec),
            delay_histogram: None,
        }
    }
}
