//! The native command line: `run`, `generate`, `sweep`, `list` (SPEC §4).
//! Exit codes: 0 all delivered, 1 stalled or step limit, 2 bad input.

/// Runs the CLI with the process arguments and returns the exit code.
pub fn main() -> i32 {
    eprintln!("routesim: CLI not built yet");
    2
}
