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
mod memory;
mod progress;
mod run;
mod sweep;

use crate::error::{one_line, panic_message};
use crate::options::{Control, Field, FieldInfo};
use crate::request::RunSpec;
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
    /// The algorithms' options: one flag per row of the option table.
    #[command(flatten)]
    pub options: OptionFlags,
    /// Stop (every run) after this many steps; exit 1 if packets remain.
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub max_steps: Option<String>,
}

impl EngineFlags {
    /// The request's fields these flags set, as `(field, name, text)`.
    pub fn fields(&self) -> Vec<(Field, &'static str, String)> {
        let mut out = Vec::new();
        if self.edge_queues {
            out.push((Field::EdgeQueues, Field::EdgeQueues.cli(), "true".to_string()));
        }
        out.extend(self.options.0.iter().map(|(f, text)| (*f, f.cli(), text.clone())));
        push(&mut out, Field::MaxSteps, &self.max_steps);
        out
    }
}

/// `--threads N` of `run` and `sweep`: a whole number from 1, `default` if absent.
pub(super) fn threads(text: &Option<String>, default: usize) -> Result<usize, String> {
    match text {
        Some(text) => crate::request::parse_number("threads", text, 1, 1024)
            .map(|n| n as usize)
            .map_err(|e| e.to_string()),
        None => Ok(default),
    }
}

/// The fewest packets in flight for a parallel step: the engine's
/// default, or `ROUTESIM_PARALLEL_MIN` (for tests: 0 forces the parallel
/// step on the corpus's small instances; results never depend on it).
pub(super) fn parallel_min() -> usize {
    std::env::var("ROUTESIM_PARALLEL_MIN")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(crate::engine::PARALLEL_MIN)
}

/// The cores this process may use (`--threads` of `run` and `--jobs` of
/// `sweep` default to it).
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The algorithms' options as given on the command line: a flag for every
/// row of [`crate::options::FIELDS`] that some algorithm reads (but
/// `locality`, which is also the workloads' and is declared with them),
/// built from the row — so a new option needs no change here.
#[derive(Debug, Clone, Default)]
pub struct OptionFlags(Vec<(Field, String)>);

/// The option rows offered as flags.
fn option_rows() -> impl Iterator<Item = &'static FieldInfo> {
    crate::options::FIELDS
        .iter()
        .filter(|row| row.access.is_some() && row.field != Field::Locality)
}

impl clap::FromArgMatches for OptionFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for row in option_rows() {
            if row.control == Some(Control::Flag) {
                if matches.get_flag(row.cli) {
                    given.push((row.field, "true".to_string()));
                }
            } else if let Some(text) = matches.get_one::<String>(row.cli) {
                given.push((row.field, text.clone()));
            }
        }
        Ok(OptionFlags(given))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for OptionFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        option_rows().fold(cmd, |cmd, row| {
            let takers = crate::algorithms::registry::takers(row.field);
            let arg = clap::Arg::new(row.cli)
                .long(row.cli)
                .help(format!("{} ({})", row.help, takers.join(", ")));
            cmd.arg(if row.control == Some(Control::Flag) {
                arg.action(clap::ArgAction::SetTrue)
            } else if let Some(bare) = row.bare {
                // A value is optional: the next word is taken unless it is
                // another option (a negative number is still a value, and
                // refused by name).
                arg.value_name(row.value_name)
                    .num_args(0..=1)
                    .default_missing_value(bare)
                    .allow_negative_numbers(true)
            } else {
                arg.value_name(row.value_name).allow_hyphen_values(true)
            })
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// Adds `(field, name, text)` when the option was given.
fn push(out: &mut Vec<(Field, &'static str, String)>, field: Field, value: &Option<String>) {
    if let Some(v) = value {
        out.push((field, field.cli(), v.clone()));
    }
}

/// Applies `(field, name, text)` triples to a request (see [`RunSpec::apply`]).
/// An empty `--queue-cap` is refused here: the core reads an empty
/// capacity as unbounded (the page's empty field, the address's `q=`), but
/// on a command line it is a value left out (`--queue-cap "$Q"` with `Q`
/// unset), named like every other bad value.
fn request(base: RunSpec, fields: &[(Field, &'static str, String)]) -> Result<RunSpec, String> {
    if let Some((_, name, text)) = fields
        .iter()
        .find(|(f, _, t)| *f == Field::QueueCap && t.trim().is_empty())
    {
        return Err(format!(
            "invalid {name} '{text}': expected a whole number of at least 1, or unbounded"
        ));
    }
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

/// Writes `text` to stdout and flushes. A closed pipe (`routesim … | head`)
/// is not an error: the reader has what it wanted.
fn emit(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write to stdout: {e}")),
        _ => Ok(()),
    }
}
