//! The `routesim` command line (SPEC §4).

fn main() {
    std::process::exit(routesim::cli::main());
}
