//! The `routesim` command line (SPEC §4).

fn main() {
    // The CLI is native only; on wasm32 this binary exists only so that
    // `cargo test --target wasm32-unknown-unknown` can build the test targets.
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(routesim::cli::main());
}
