//! `routesim list`: what this build knows, for people and for scripts. The
//! algorithms come from the registry, as the page's menus do.

use super::{emit, Outcome, EXIT_OK};
use crate::algorithms::REGISTRY;
use crate::engine::Policy;
use crate::topology::Kind;
use crate::workload::Workload;
use clap::Args;

/// Flags of `routesim list`.
#[derive(Debug, Clone, Args)]
pub struct ListArgs {
    /// Print one JSON object with `topologies`, `algorithms`, `policies` and `workloads`.
    #[arg(long)]
    pub json: bool,
}

/// `routesim list`.
pub(super) fn list(args: ListArgs) -> Outcome {
    let text = if args.json { as_json() } else { as_text() };
    emit(&text)?;
    Ok(EXIT_OK)
}

fn as_json() -> String {
    format!("{}\n", crate::catalogue::catalogue())
}

fn as_text() -> String {
    let mut out = String::new();
    let mut section = |title: &str, rows: Vec<(String, String)>, note: &str| {
        let width = rows.iter().map(|(n, _)| n.chars().count()).max().unwrap_or(0);
        out += title;
        out += ":\n";
        for (name, text) in rows {
            out += &format!("  {name:width$}  {text}\n");
        }
        out += note;
        out += "\n";
    };
    // The limits every network keeps (the CLI audit of 2026-12-01: `list`
    // named the shuffle-exchange's alone).
    let limits = format!(
        "  (every network: at most 2^{} = {} nodes, a grid at most {} sides; so hypercube:D up to D = {}, butterfly:D up to D = {})\n",
        crate::topology::MAX_NODES.ilog2(),
        crate::topology::MAX_NODES,
        crate::topology::MAX_SIDES,
        crate::topology::MAX_NODES.ilog2(),
        crate::topology::MAX_BUTTERFLY_DIM,
    );
    section(
        "Topologies",
        Kind::ALL
            .iter()
            .map(|k| (k.name().to_string(), k.syntax().to_string()))
            .collect(),
        &limits,
    );
    section(
        "Algorithms",
        REGISTRY
            .iter()
            .map(|a| (a.name.to_string(), format!("{} [{}]", a.summary, a.accepts())))
            .collect(),
        "",
    );
    section(
        "Policies",
        Policy::ALL
            .iter()
            .map(|p| (p.name().to_string(), p.describe().to_string()))
            .collect(),
        "",
    );
    section(
        "Workloads",
        Workload::ALL
            .iter()
            .map(|w| (w.name().to_string(), w.describe().to_string()))
            .collect(),
        "",
    );
    out.pop();
    out
}
