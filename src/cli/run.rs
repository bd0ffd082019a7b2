//! `routesim run` and `routesim generate`.

use super::{emit, parse, Outcome, EXIT_INCOMPLETE, EXIT_OK};
use crate::algorithms::{self, AlgorithmOptions};
use crate::engine::Policy;
use crate::report::Report;
use crate::simulation::DEFAULT_MAX_STEPS;
use crate::topology::Topology;
use crate::workload::{self, Instance, Workload, WorkloadSpec};
use crate::{SimConfig, Simulation, Status};
use clap::Args;

/// A workload by name and its parameters (shared by `run` and `generate`).
#[derive(Debug, Clone, Args)]
pub struct WorkloadArgs {
    /// Workload to generate (see `routesim list`), e.g. transpose.
    #[arg(long, value_name = "W")]
    pub workload: Option<String>,
    /// ℓ: packets sent per node, for workloads that take it (default 1).
    #[arg(long = "l", value_name = "L", value_parser = clap::value_parser!(u32).range(1..))]
    pub l: Option<u32>,
    /// k: packets received per node, for workloads that take it (default 1).
    #[arg(long = "k", value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub k: Option<u32>,
    /// `locality` workload: the largest source–destination distance (default 2).
    #[arg(long, value_name = "L")]
    pub locality: Option<u32>,
    /// `hotspot` workload: the percentage of nodes that send to the hot node (default 10).
    #[arg(long, value_name = "PERCENT")]
    pub hotspot: Option<u32>,
}

impl WorkloadArgs {
    /// Whether any parameter besides the name was given.
    fn has_parameters(&self) -> bool {
        self.l.is_some() || self.k.is_some() || self.locality.is_some() || self.hotspot.is_some()
    }
}

/// Flags of `routesim run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Network, e.g. mesh:16x16, torus:8x8x8, hypercube:10 (see `routesim list`).
    /// Optional with --instance (the file names its topology).
    #[arg(long, value_name = "T")]
    pub topology: Option<String>,
    /// Routing algorithm (see `routesim list`).
    #[arg(long, value_name = "A", default_value = "greedy")]
    pub algorithm: String,
    /// Contention policy (see `routesim list`).
    #[arg(long, value_name = "P", default_value = "farthest-first")]
    pub policy: String,
    /// What to route, generated from a workload name.
    #[command(flatten)]
    pub workload: WorkloadArgs,
    /// What to route, read from an instance file (SPEC §3 JSON); `-` reads stdin.
    #[arg(long, value_name = "FILE", conflicts_with = "workload")]
    pub instance: Option<String>,
    /// Seed of the workload and of every random choice of the run.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Queue capacity q per node (default unbounded).
    #[arg(long, value_name = "Q")]
    pub queue_cap: Option<u32>,
    /// Options shared with `sweep`.
    #[command(flatten)]
    pub engine: super::EngineFlags,
    /// Check the engine's invariants after every step (slow).
    #[arg(long)]
    pub check_invariants: bool,
    /// Print the report as one JSON object instead of a summary.
    #[arg(long)]
    pub json: bool,
}

/// Flags of `routesim generate`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// Network, e.g. mesh:16x16.
    #[arg(long, value_name = "T")]
    pub topology: Option<String>,
    /// The workload and its parameters.
    #[command(flatten)]
    pub workload: WorkloadArgs,
    /// Seed of the workload.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
}

/// Generates the instance of a named workload.
pub(super) fn generate_instance(
    topology: &str,
    args: &WorkloadArgs,
    workload: &str,
    seed: u64,
) -> Result<Instance, String> {
    let topo: Topology = parse(topology)?;
    let workload: Workload = parse(workload)?;
    let spec = WorkloadSpec {
        workload,
        l: args.l,
        k: args.k,
        seed,
        locality: args.locality,
        hotspot: args.hotspot,
    };
    workload::generate(&topo, &spec).map_err(|e| e.to_string())
}

/// Reads an instance file (`-` is stdin).
fn load_instance(path: &str) -> Result<Instance, String> {
    let (label, text) = if path == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .map_err(|e| format!("invalid instance '-': cannot read stdin: {e}"))?;
        ("stdin".to_string(), text)
    } else {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("invalid instance '{path}': cannot read the file: {e}"))?;
        (path.to_string(), text)
    };
    Instance::from_json(&text).map_err(|e| format!("instance file '{label}': {e}"))
}

/// The instance a `run` routes: from --instance or from --workload.
fn instance_of(args: &RunArgs) -> Result<Instance, String> {
    match (&args.instance, &args.workload.workload) {
        (Some(path), _) => {
            if args.workload.has_parameters() {
                return Err("invalid --l/--k/--locality/--hotspot with --instance: they apply only to --workload (an instance file declares its own l and k)".into());
            }
            let wanted: Option<Topology> = args.topology.as_deref().map(parse).transpose()?;
            let instance = load_instance(path)?;
            if let Some(topo) = wanted {
                if topo != instance.topology {
                    return Err(format!(
                        "invalid topology '{topo}': the instance file '{path}' is for {}; drop --topology or make them agree",
                        instance.topology
                    ));
                }
            }
            Ok(instance)
        }
        (None, Some(workload)) => {
            let topology = args
                .topology
                .as_deref()
                .ok_or("missing --topology: --workload needs a network, e.g. --topology mesh:16x16")?;
            generate_instance(topology, &args.workload, workload, args.seed)
        }
        (None, None) => Err(
            "missing --workload or --instance: say what to route, e.g. --workload transpose or --instance FILE".into(),
        ),
    }
}

/// `routesim run`.
pub(super) fn run(args: RunArgs) -> Outcome {
    // Cheap checks first, so a typo is reported before a large instance is built.
    if let Some(t) = &args.topology {
        parse::<Topology>(t)?;
    }
    let policy: Policy = parse(&args.policy)?;
    algorithms::create(&args.algorithm, &AlgorithmOptions::default()).map_err(|e| e.to_string())?;
    let instance = instance_of(&args)?;
    let config = SimConfig {
        algorithm: args.algorithm.clone(),
        policy,
        seed: args.seed,
        queue_cap: args.queue_cap,
        edge_queues: args.engine.edge_queues,
        pipeline: args.engine.pipeline,
        reverse_order: args.engine.reverse_order,
        max_steps: args.engine.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
        check_invariants: args.check_invariants,
        record_series: false,
        resort_interval: crate::engine::RESORT_INTERVAL,
    };
    let mut sim = Simulation::new(instance, config).map_err(|e| e.to_string())?;
    let status = sim.run();
    let report = sim.report();
    let text = if args.json {
        let mut json = serde_json::to_string(&report).map_err(|e| format!("cannot encode the report: {e}"))?;
        json.push('\n');
        json
    } else {
        summary(&report, status)
    };
    emit(&text)?;
    Ok(if status == Status::Finished {
        EXIT_OK
    } else {
        EXIT_INCOMPLETE
    })
}

/// The human summary of a run.
fn summary(r: &Report, status: Status) -> String {
    let workload = r.workload.as_deref().map(|w| format!(" {w}")).unwrap_or_default();
    let cap = r.queue_cap.map(|q| format!(" q={q}")).unwrap_or_default();
    let outcome = match status {
        Status::Finished => format!("delivered {}/{} in {} steps", r.delivered, r.packets, r.steps),
        Status::Stalled => format!("STALLED at step {}: delivered {}/{}", r.steps, r.delivered, r.packets),
        Status::StepLimit => format!(
            "stopped at --max-steps {}: delivered {}/{}",
            r.steps, r.delivered, r.packets
        ),
        Status::Running => format!("running at step {}: delivered {}/{}", r.steps, r.delivered, r.packets),
    };
    let b = &r.bounds;
    let ratio = if b.sqrt_lkn > 0.0 {
        format!(" (steps/sqrt_lkn {:.3})", r.steps as f64 / b.sqrt_lkn)
    } else {
        String::new()
    };
    let phases: Vec<String> = r.phases.iter().map(|p| format!("{} {}", p.name, p.steps)).collect();
    let mut out = format!(
        "{} {} {}{}{} seed {}: {}\n",
        r.topology, r.algorithm, r.policy, workload, cap, r.seed, outcome
    );
    out += &format!(
        "max_queue {}  max_load {}  max_ctrl_queue {}  l {}  k {}\n",
        r.max_queue, r.max_load, r.max_ctrl_queue, r.l, r.k
    );
    out += &format!(
        "bounds.best {} (distance {}, bisection {}, sink {}, region {})  sqrt_lkn {:.2}{}\n",
        b.best, b.distance, b.bisection, b.sink, b.region, b.sqrt_lkn, ratio
    );
    out += &format!(
        "phases: {}\n",
        if phases.is_empty() {
            "none".to_string()
        } else {
            phases.join(", ")
        }
    );
    if r.offline_precompute {
        out += "note: part of the work was precomputed off-line and not charged\n";
    }
    out
}

/// `routesim generate`.
pub(super) fn generate(args: GenerateArgs) -> Outcome {
    let topology = args
        .topology
        .as_deref()
        .ok_or("missing --topology, e.g. --topology mesh:16x16")?;
    let workload = args
        .workload
        .workload
        .as_deref()
        .ok_or("missing --workload, e.g. --workload transpose")?;
    let instance = generate_instance(topology, &args.workload, workload, args.seed)?;
    let mut text = instance.to_json();
    text.push('\n');
    emit(&text)?;
    Ok(EXIT_OK)
}
