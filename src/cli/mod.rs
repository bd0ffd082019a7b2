//! The native command line: `run`, `generate`, `sweep`, `list` (SPEC §4)
//! and `load` (SPEC §6).
//!
//! The CLI only parses and prints; every simulation decision is the
//! library's. Exit codes: 0 every packet delivered, 1 a run stalled or hit
//! `--max-steps`, 2 bad input (one line `routesim: <message>` on stderr and
//! nothing on stdout). A panic is a bug: it is reported as one line
//! `routesim: internal error: …` with exit code 101 (set `RUST_BACKTRACE`
//! to see the usual panic output).

mod list;
mod load;
mod run;
mod sweep;

use crate::request::{Field, RunSpec};
use clap::error::ErrorKind;
use clap::{ColorChoice, Parser, Subcommand};
use std::io::Write;

/// Engine and algorithm options shared by `run` and `sweep`. Numbers are
/// taken as text and parsed by the run request, so that a bad value (`-3`,
/// `x`) is refused by naming the option and the value.
#[derive(Debug, Clone, clap::Args)]
pub struct EngineFlags {
    /// One queue of capacity q per incoming link instead of per node (needs --queue-cap).
    #[arg(long)]
    pub edge_queues: bool,
    /// Pipeline the phases of phased algorithms (valiant, rand-interval, offline, sort-route) instead of barriers.
    #[arg(long)]
    pub pipeline: bool,
    /// Phases of the Kaufmann-Sibeyn algorithms (ks-*): separated by barriers (the default) or coalesced.
    #[arg(long, value_name = "separated|coalesced", allow_hyphen_values = true)]
    pub phases: Option<String>,
    /// Queue smearing of the Kaufmann-Sibeyn algorithms (ks-*, section 7.5): blocks of M nodes, or auto = k*log2(side).
    #[arg(long, value_name = "M|auto", allow_hyphen_values = true)]
    pub smear: Option<String>,
    /// Correct dimensions in the reverse order (Y before X; low bits first).
    #[arg(long)]
    pub reverse_order: bool,
    /// ks-level: the height of the strips packets are randomized in [default: ceil(side/8)].
    #[arg(long, value_name = "E", allow_hyphen_values = true)]
    pub epsilon: Option<String>,
    /// Cut-through: every packet is a worm of F flits (1-1024) that follow its head and hold each link it crossed (greedy, bit-fixing, valiant, rand-interval, ks-*).
    #[arg(long, value_name = "F", allow_hyphen_values = true)]
    pub flits: Option<String>,
    /// lmrr: draw ranks from [1, R] (default: the paper's R = c + L + log2 N).
    #[arg(long, value_name = "R", allow_hyphen_values = true)]
    pub ranks: Option<String>,
    /// lmrr on the butterfly and hypercube: direct paths (the default) or valiant (through a random row or node).
    #[arg(long, value_name = "direct|valiant", allow_hyphen_values = true)]
    pub paths: Option<String>,
    /// lmrr: packet combining (section 2.3.1): packets for one destination that meet are combined into one.
    #[arg(long)]
    pub combine: bool,
    /// Stop (every run) after this many steps; exit 1 if packets remain.
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub max_steps: Option<String>,
}

impl EngineFlags {
    /// The request's fields these flags set, as `(field, name, text)`.
    pub fn fields(&self) -> Vec<(Field, &'static str, String)> {
        let mut out = Vec::new();
        for (on, field) in [
            (self.edge_queues, Field::EdgeQueues),
            (self.pipeline, Field::Pipeline),
            (self.reverse_order, Field::ReverseOrder),
            (self.combine, Field::Combine),
        ] {
            if on {
                out.push((field, field.cli(), "true".to_string()));
            }
        }
        push(&mut out, Field::Phases, &self.phases);
        push(&mut out, Field::Epsilon, &self.epsilon);
        push(&mut out, Field::Smear, &self.smear);
        push(&mut out, Field::Flits, &self.flits);
        push(&mut out, Field::Ranks, &self.ranks);
        push(&mut out, Field::Paths, &self.paths);
        push(&mut out, Field::MaxSteps, &self.max_steps);
        out
    }
}

/// Adds `(field, name, text)` when the option was given.
fn push(out: &mut Vec<(Field, &'static str, String)>, field: Field, value: &Option<String>) {
    if let Some(v) = value {
        out.push((field, field.cli(), v.clone()));
    }
}

/// Applies `(field, name, text)` triples to a request (see [`RunSpec::apply`]).
fn request(base: RunSpec, fields: &[(Field, &'static str, String)]) -> Result<RunSpec, String> {
    base.apply(fields.iter().map(|(f, n, t)| (*f, *n, t.as_str())))
        .map_err(|e| e.to_string())
}

/// Exit code: every packet delivered.
pub const EXIT_OK: i32 = 0;
/// Exit code: a run stalled or hit `--max-steps`.
pub const EXIT_INCOMPLETE: i32 = 1;
/// Exit code: bad input.
pub const EXIT_BAD_INPUT: i32 = 2;
/// Exit code: an internal error (a panic, i.e. a bug in routesim).
pub const EXIT_INTERNAL: i32 = 101;

/// What a command returns: an exit code, or a one-line bad-input message.
type Outcome = Result<i32, String>;

#[derive(Debug, Parser)]
#[command(
    name = "routesim",
    version,
    about = "Packet-routing simulator for fixed-connection networks (synchronous store-and-forward model)",
    color = ColorChoice::Never,
    after_help = "Exit codes: 0 all packets delivered, 1 stalled or --max-steps reached, 2 bad input."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Route one instance and report steps, queues and lower bounds.
    Run(run::RunArgs),
    /// Print a workload's instance as JSON (SPEC §3).
    Generate(run::GenerateArgs),
    /// Run a grid of configurations in parallel; CSV or JSON lines.
    Sweep(sweep::SweepArgs),
    /// List topologies, algorithms, policies and workloads.
    List(list::ListArgs),
    /// Open-loop traffic (SPEC §6): latency and throughput against the injection rate.
    Load(load::LoadArgs),
}

/// Runs the CLI with the process arguments and returns the exit code.
pub fn main() -> i32 {
    main_with_args(std::env::args_os())
}

/// Runs the CLI with the given arguments (the first is the program name) and
/// returns the exit code. Output goes to the process's stdout and stderr.
pub fn main_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    if std::env::var_os("RUST_BACKTRACE").is_none() {
        // Panics are caught below and reported on one line.
        std::panic::set_hook(Box::new(|_| {}));
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match cli.command {
        Command::Run(a) => run::run(a),
        Command::Generate(a) => run::generate(a),
        Command::Sweep(a) => sweep::sweep(a),
        Command::List(a) => list::list(a),
        Command::Load(a) => load::load(a),
    }));
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(message)) => {
            eprintln!("routesim: {}", one_line(&message));
            EXIT_BAD_INPUT
        }
        Err(payload) => {
            eprintln!("routesim: internal error: {}", panic_message(payload.as_ref()));
            EXIT_INTERNAL
        }
    }
}

/// Handles a clap error: help and version go to stdout with exit 0; every
/// usage error becomes one line on stderr with exit 2.
fn clap_error(e: clap::Error) -> i32 {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            EXIT_OK
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("routesim: missing command; expected run, generate, sweep, list or load (see `routesim --help`)");
            EXIT_BAD_INPUT
        }
        _ => {
            let text = e.to_string();
            let mut message = String::new();
            for line in text.lines().map(str::trim) {
                if line.starts_with("Usage:") || line.starts_with("For more information") {
                    break;
                }
                if line.starts_with("tip:") {
                    message += "; ";
                } else if !message.is_empty() && !line.is_empty() {
                    message += " ";
                }
                message += line.strip_prefix("error:").unwrap_or(line).trim();
            }
            eprintln!("routesim: {} (see --help)", message.trim());
            EXIT_BAD_INPUT
        }
    }
}

/// Collapses a message onto one line.
fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        one_line(s)
    } else if let Some(s) = payload.downcast_ref::<String>() {
        one_line(s)
    } else {
        "panic".to_string()
    }
}

/// Writes `text` to stdout and flushes. A closed pipe (`routesim … | head`)
/// is not an error: the reader has what it wanted.
fn emit(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write to stdout: {e}")),
        _ => Ok(()),
    }
}
