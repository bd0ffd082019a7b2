//! `routesim run` and `routesim generate`: flags into a [`RunSpec`], the
//! report out.

use super::{emit, push, request, Outcome, EXIT_INCOMPLETE, EXIT_OK};
use crate::memory::{shown, Limit};
use crate::report::Report;
use crate::request::{Field, RunSpec};
use crate::workload::{Instance, Limits, READ_BYTES_PER_TEXT_BYTE};
use crate::Status;
use clap::Args;

/// A workload by name and its parameters (shared by `run` and `generate`).
#[derive(Debug, Clone, Args)]
pub struct WorkloadArgs {
    /// Workload to generate (see `routesim list`), e.g. transpose.
    #[arg(long, value_name = "W", allow_hyphen_values = true)]
    pub workload: Option<String>,
    /// ℓ: packets sent per node, for workloads that take it (default 1).
    #[arg(long = "l", value_name = "L", allow_hyphen_values = true)]
    pub l: Option<String>,
    /// k: packets received per node, for workloads that take it (default 1).
    #[arg(long = "k", value_name = "K", allow_hyphen_values = true)]
    pub k: Option<String>,
    /// `locality`: the largest source–destination distance; `local-kk` and ks-local: the largest move along one axis (default 2). `unknown` or `unknown:L` (L for the workload): ks-local's nodes are not told L and estimate it (NoLRoute, §9.2, n×n torus).
    #[arg(long, value_name = "L", allow_hyphen_values = true)]
    pub locality: Option<String>,
    /// `hotspot` workload: the percentage of nodes that send to the hot node (default 10).
    #[arg(long, value_name = "PERCENT", allow_hyphen_values = true)]
    pub hotspot: Option<String>,
}

impl WorkloadArgs {
    /// The request's fields these flags set.
    fn fields(&self) -> Vec<(Field, &'static str, String)> {
        let mut out = Vec::new();
        push(&mut out, Field::Workload, &self.workload);
        push(&mut out, Field::L, &self.l);
        push(&mut out, Field::K, &self.k);
        push(&mut out, Field::Locality, &self.locality);
        push(&mut out, Field::Hotspot, &self.hotspot);
        out
    }
}

/// Flags of `routesim run`.
#[derive(Debug, Clone, Args)]
pub struct RunArgs {
    /// Network, e.g. mesh:16x16, torus:8x8x8, hypercube:10 (see `routesim list`).
    /// Optional with --instance (the file names its topology).
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub topology: Option<String>,
    /// Routing algorithm (see `routesim list`).
    #[arg(long, value_name = "A", default_value = crate::algorithms::DEFAULT_ALGORITHM, allow_hyphen_values = true)]
    pub algorithm: String,
    /// Contention policy (see `routesim list`) [default: farthest-first].
    #[arg(long, value_name = "P", allow_hyphen_values = true)]
    pub policy: Option<String>,
    /// What to route, generated from a workload name.
    #[command(flatten)]
    pub workload: WorkloadArgs,
    /// What to route, read from an instance file (SPEC §3 JSON); `-` reads stdin.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub instance: Option<std::path::PathBuf>,
    /// Seed of the workload and of every random choice of the run.
    #[arg(long, value_name = "S", default_value = "1", allow_hyphen_values = true)]
    pub seed: String,
    /// Queue capacity q per node (default unbounded).
    #[arg(long, value_name = "Q", allow_hyphen_values = true)]
    pub queue_cap: Option<String>,
    /// Options shared with `sweep`.
    #[command(flatten)]
    pub engine: super::EngineFlags,
    /// Check the engine's invariants after every step (slow).
    #[arg(long)]
    pub check_invariants: bool,
    /// The memory limit (`--memory-limit`).
    #[command(flatten)]
    pub memory: super::memory::MemoryFlag,
    /// Threads of each step [default: all cores]; every result is the same
    /// at any count (the wasm build runs one).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub threads: Option<String>,
    /// Print the report as one JSON object instead of a summary.
    #[arg(long)]
    pub json: bool,
    /// Add the delays of the packets (delivery step − distance) to the report: `delay_histogram` in the JSON, a line in the summary.
    #[arg(long)]
    pub delays: bool,
    /// Write the delay histogram as CSV (`delay,packets`, every delay from 0 to the largest) to FILE.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub delays_csv: Option<String>,
}

/// Flags of `routesim generate`.
#[derive(Debug, Clone, Args)]
pub struct GenerateArgs {
    /// Network, e.g. mesh:16x16.
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub topology: Option<String>,
    /// The workload and its parameters.
    #[command(flatten)]
    pub workload: WorkloadArgs,
    /// Seed of the workload.
    #[arg(long, value_name = "S", default_value = "1", allow_hyphen_values = true)]
    pub seed: String,
    /// Accepted for symmetry with run, sweep and load: the instance is
    /// always JSON (SPEC §3).
    #[arg(long)]
    pub json: bool,
}

/// Reads an instance file (`-` is stdin) with the core's parser: at most
/// the native limit of instance text, and no more than the memory limit
/// allows to read and parse (a file's size is checked before it is read,
/// stdin's as it comes).
fn load_instance(path: &std::path::Path, memory: Option<&Limit>) -> Result<(Instance, Vec<String>), String> {
    use std::io::Read;
    let stdin = path == std::path::Path::new("-");
    let shown_path = path.display().to_string();
    let label = if stdin { "stdin" } else { shown_path.as_str() };
    let bad = |why: String| format!("invalid instance '{shown_path}': {why}");
    let text_limit = Limits::NATIVE.max_bytes;
    let memory_text = memory.map_or(u64::MAX, |m| m.bytes / READ_BYTES_PER_TEXT_BYTE);
    let allowed = text_limit.min(memory_text);
    let too_long = |size: Option<u64>| {
        let (text, more) = match size {
            Some(b) => (format!("{b} bytes"), ""),
            None => (format!("more than {allowed} bytes"), "more than "),
        };
        match memory.filter(|_| memory_text < text_limit) {
            Some(m) => bad(format!(
                "{text} of instance text: reading and parsing may take {more}{} ({READ_BYTES_PER_TEXT_BYTE} bytes \
                 per byte of text), above {} of {}; {}",
                shown(size.unwrap_or(allowed).saturating_mul(READ_BYTES_PER_TEXT_BYTE)),
                m.source,
                shown(m.bytes),
                m.hint
            )),
            None => bad(format!(
                "{text} of instance text, above the limit of {text_limit} bytes"
            )),
        }
    };
    let mut bytes = Vec::new();
    let read = if stdin {
        std::io::stdin().take(allowed + 1).read_to_end(&mut bytes)
    } else {
        let file = std::fs::File::open(path).map_err(|e| bad(format!("cannot read the file: {e}")))?;
        let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        if size.is_some_and(|b| b > allowed) {
            return Err(too_long(size));
        }
        file.take(allowed + 1).read_to_end(&mut bytes)
    };
    read.map_err(|e| bad(format!("cannot read {}: {e}", if stdin { "stdin" } else { "the file" })))?;
    if bytes.len() as u64 > allowed {
        return Err(too_long(None));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        bad(format!(
            "the text is not valid UTF-8 (at byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    let (instance, unknown) =
        Instance::from_json_noting_unknown(&text).map_err(|e| format!("instance file '{label}': {e}"))?;
    let notes = unknown
        .into_iter()
        .map(|field| {
            format!(
                "routesim: instance file '{label}': field '{field}' ignored (the instance's fields are {}; SPEC §3, §5)",
                crate::workload::KNOWN_FIELDS.join(", ")
            )
        })
        .collect();
    Ok((instance, notes))
}

/// The run request of `routesim run`.
/// With it, the notes on the instance file (its fields ignored), for
/// stderr once the run is built: a refusal stays SPEC §4's one line.
pub(super) fn spec_of(args: &RunArgs) -> Result<(RunSpec, Vec<String>), String> {
    match (&args.instance, &args.workload.workload, &args.topology) {
        (None, None, _) => {
            return Err(
                "missing --workload or --instance: say what to route, e.g. --workload transpose or --instance FILE"
                    .into(),
            )
        }
        (None, Some(_), None) => {
            return Err("missing --topology: --workload needs a network, e.g. --topology mesh:16x16".into())
        }
        _ => {}
    }
    let mut fields = Vec::new();
    push(&mut fields, Field::Topology, &args.topology);
    fields.push((Field::Algorithm, "algorithm", args.algorithm.clone()));
    let policy = args
        .policy
        .as_deref()
        .unwrap_or(crate::engine::Policy::default().name());
    fields.push((Field::Policy, "policy", policy.to_string()));
    fields.push((Field::Seed, "seed", args.seed.clone()));
    push(&mut fields, Field::QueueCap, &args.queue_cap);
    fields.extend(args.engine.fields());
    if args.check_invariants {
        fields.push((Field::CheckInvariants, "check-invariants", "true".into()));
    }
    fields.extend(args.workload.fields());
    let mut base = RunSpec {
        memory_limit: args.memory.limit()?,
        ..RunSpec::default()
    };
    if let Some(path) = &args.instance {
        // Every value is checked before a (possibly large) file is read.
        let mut probe = RunSpec::default();
        for (field, name, text) in &fields {
            probe.set(*field, name, text).map_err(|e| e.to_string())?;
        }
        let (instance, notes) = load_instance(path, base.memory_limit.as_ref())?;
        base.instance = Some(instance);
        return Ok((request(base, &fields)?, notes));
    }
    Ok((request(base, &fields)?, Vec::new()))
}

/// `routesim run`.
pub(super) fn run(args: RunArgs) -> Outcome {
    let threads = super::threads(&args.threads, super::cores())?;
    let (spec, notes) = spec_of(&args)?;
    let mut sim = spec
        .build_threads(threads, super::parallel_min())
        .map_err(|e| e.to_string())?;
    for note in notes {
        eprintln!("{note}");
    }
    note_unread(&spec);
    // A policy given to an algorithm that schedules every move itself.
    if let (Some(policy), false) = (&args.policy, sim.uses_policy()) {
        eprintln!(
            "routesim: note: --policy {policy} has no effect: {} schedules every move itself",
            spec.algorithm.name
        );
    }
    let status = super::progress::run(&mut sim);
    let mut report = sim.report();
    if args.delays || args.delays_csv.is_some() {
        let counts = sim.delay_counts();
        if let Some(path) = &args.delays_csv {
            let mut csv = String::from("delay,packets\n");
            for (z, c) in counts.iter().enumerate() {
                csv += &format!("{z},{c}\n");
            }
            std::fs::write(path, csv)
                .map_err(|e| format!("invalid delays-csv '{path}': cannot write the file: {e}"))?;
        }
        if args.delays {
            report = report.with_delays(&counts);
        }
    }
    let text = if args.json {
        let mut json = serde_json::to_string(&report).map_err(|e| format!("cannot encode the report: {e}"))?;
        json.push('\n');
        json
    } else {
        let mut text = summary(&report, status);
        // A stall of a script that a node had no room for, in its words.
        if let (Status::Stalled, Some(r)) = (status, sim.engine().script_refused()) {
            text += &format!(
                "the schedule cannot wait: step {} would move {} packet(s) into node {}, which held {} (room for {} under --queue-cap)\n",
                r.step, r.arrivals, r.node, r.held, r.room
            );
        }
        text
    };
    emit(&text)?;
    Ok(if status == Status::Finished {
        EXIT_OK
    } else {
        EXIT_INCOMPLETE
    })
}

/// Names on stderr each workload flag that changes nothing (e.g. `--l` of a
/// k-k workload); the run goes on. Only once the run is built, so that a
/// refusal stays the one line SPEC §4 asks for.
fn note_unread(spec: &RunSpec) {
    for (field, value, why) in spec.unread_fields() {
        eprintln!("routesim: note: --{} {value} has no effect: {why}", field.cli());
    }
    // An option as given: a flag alone, else with its value.
    let flag = |field: Field, value: &str| match value {
        "true" => format!("--{}", field.cli()),
        _ => format!("--{} {value}", field.cli()),
    };
    // Each option that changes nothing on this network.
    for (field, value, why) in spec.idle_options() {
        eprintln!("routesim: note: {} has no effect: {why}", flag(field, &value));
    }
    // And each algorithm option the algorithm does not take (a sweep, whose
    // grid sets them for other algorithms, does not note them).
    for (field, value, takers) in spec.unread_options() {
        let flag = flag(field, &value);
        eprintln!(
            "routesim: note: {flag} has no effect: {} takes no such option (it applies to {takers})",
            spec.algorithm.name
        );
    }
}

/// A stall's wait-for cycle (SPEC §4 `deadlock`) in the human summary.
fn deadlock_words(cycle: &[u32]) -> String {
    match cycle.first() {
        Some(first) => {
            let path: Vec<String> = cycle.iter().map(u32::to_string).collect();
            format!("deadlock: nodes {} -> {first}", path.join(" -> "))
        }
        None => "no wait-for cycle (deadlock [])".to_string(),
    }
}

/// The human summary of a run.
fn summary(r: &Report, status: Status) -> String {
    // An instance's name is the file's text: printed with its control characters escaped.
    let workload = r
        .workload
        .as_deref()
        .map(|w| format!(" {}", crate::error::printable(w)))
        .unwrap_or_default();
    let per_link = if r.extra.edge_queues == Some(true) {
        " per link"
    } else {
        ""
    };
    let cap = r.queue_cap.map(|q| format!(" q={q}{per_link}")).unwrap_or_default()
        + &r.extra.flits.map(|f| format!(" flits={f}")).unwrap_or_default();
    let outcome = match status {
        Status::Finished => format!("delivered {}/{} in {} steps", r.delivered, r.packets, r.steps),
        Status::Stalled => format!(
            "STALLED at step {}: delivered {}/{}; {}",
            r.steps,
            r.delivered,
            r.packets,
            deadlock_words(r.deadlock.as_deref().unwrap_or_default())
        ),
        // A worm counts as delivered when its head arrives; its last flits
        // may still be on their way (the model audit of 2026-12-01).
        Status::StepLimit => format!(
            "stopped at --max-steps {}: delivered {}/{}{}",
            r.steps,
            r.delivered,
            r.packets,
            if r.extra.flits.is_some_and(|f| f > 1) {
                " (worms by their heads; flits still in flight)"
            } else {
                ""
            }
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
    if let (Some(sorted), Some(order)) = (r.extra.sorted, r.extra.order) {
        let verdict = if sorted { "yes" } else { "NO" };
        out += &format!("sorted: {verdict} (order {order}, checked from the final positions)\n");
    }
    if r.offline_precompute {
        out += "note: part of the work was precomputed off-line and not charged\n";
    }
    if let Some(h) = &r.delay_histogram {
        let bins: Vec<String> = h.iter().map(|[z, c]| format!("{z}:{c}")).collect();
        out += &format!("delays (delay:packets): {}\n", bins.join(" "));
    }
    out
}

/// `routesim generate`.
pub(super) fn generate(args: GenerateArgs) -> Outcome {
    if args.topology.is_none() {
        return Err("missing --topology, e.g. --topology mesh:16x16".into());
    }
    if args.workload.workload.is_none() {
        return Err("missing --workload, e.g. --workload transpose".into());
    }
    let mut fields = Vec::new();
    push(&mut fields, Field::Topology, &args.topology);
    fields.push((Field::Seed, "seed", args.seed.clone()));
    fields.extend(args.workload.fields());
    let mut spec = RunSpec::default();
    for (field, name, text) in &fields {
        spec.set(*field, name, text).map_err(|e| e.to_string())?;
    }
    let instance = spec.instance().map_err(|e| e.to_string())?;
    note_unread(&spec);
    let mut text = instance.to_json();
    text.push('\n');
    emit(&text)?;
    Ok(EXIT_OK)
}
