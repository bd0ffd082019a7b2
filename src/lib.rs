//! # routesim
//!
//! A packet-routing simulator for fixed-connection networks in the
//! synchronous store-and-forward model (SPEC §1): time runs in steps, every
//! directed link carries at most one message per step, what arrives in step t
//! leaves in step t+1 at the earliest, and every reported step is a simulated
//! step. Contention for a link is settled by a named policy; queues may be
//! bounded.
//!
//! Map of the modules:
//! - [`topology`]: networks and their neighbour arithmetic (SPEC §2).
//! - [`engine`]: the step, the policies, the statistics and invariant checks.
//! - [`algorithms`]: routing algorithms by SPEC name, one file per family.
//! - [`workload`]: workload generators and the instance format (SPEC §3, §5).
//! - [`bounds`]: instance lower bounds (SPEC §4); [`claims`]: the papers'
//!   bounds for their algorithms as numbers for an instance (Lemma 2, 2n − 2, …).
//! - [`explain`]: a run explained — claims evaluated, verdicts, phases, terms;
//!   [`lessons`]: the page's lessons (SPEC §7), declared once.
//! - [`request`]: the run request every front end builds ([`RunSpec`]), and its one `build`.
//! - [`sweep`]: grids of runs from lists and ranges, their rows and the experiment charts.
//! - [`load`]: open-loop traffic (SPEC §6): injection, patterns, windows,
//!   latency, ideal throughput, saturation.
//! - [`memory`]: a run's bytes, estimated before anything is allocated, and the limits.
//! - [`simulation`]: one run = instance + algorithm + engine.
//! - [`timeline`]: a run that can go back to any step (checkpoints and replay).
//! - [`report`]: the JSON report shared by the CLI and the browser.
//! - [`rng`]: the portable seeded generator.
//! - [`palette`]: the packet classes' colours, words and shapes (one palette for canvas, legend and texts).
//! - `cli` (native) and `wasm` (browser): thin front ends.

pub mod algorithms;
pub mod bounds;
pub mod catalogue;
pub mod claims;
pub mod engine;
pub mod error;
pub mod explain;
pub mod lessons;
pub mod load;
pub mod memory;
pub mod options;
pub mod palette;
pub mod primitives;
pub mod report;
pub mod request;
pub mod rng;
pub mod simulation;
pub mod sweep;
pub mod timeline;
pub mod topology;
pub mod workload;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use error::{Error, Result};
pub use options::{AlgorithmOptions, Field};
pub use request::RunSpec;
pub use simulation::{SimConfig, Simulation, Status};
pub use timeline::Timeline;
