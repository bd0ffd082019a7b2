//! The catalogue: everything a front end offers, as one JSON object — the
//! topology kinds, the registry's algorithms with their options, the request
//! fields the page's address carries, the policies, the workloads, open-loop
//! patterns and the lessons. `routesim list --json` prints it (SPEC §4) and
//! the page builds its menus from it. It sits above the registry, the
//! lessons and the load patterns it lists, so none of them looks up.

use crate::algorithms::{AlgorithmOptions, REGISTRY};
use crate::engine::Policy;
use crate::options::Field;
use crate::topology::Kind;
use crate::workload::{Param, Workload};
use serde_json::json;

/// The registry and the enumerations as one JSON object.
pub fn catalogue() -> serde_json::Value {
    json!({
        // `default_size`: what the page applies when the kind is picked;
        // `sweep_sizes`: the experiment's sizes for it.
        "topologies": Kind::ALL
            .iter()
            .map(|k| json!({"name": k.name(), "syntax": k.syntax(), "default_size": k.default_size(), "sweep_sizes": k.sweep_sizes()}))
            .collect::<Vec<_>>(),
        "algorithms": REGISTRY.iter().map(|a| {
            let mut v = serde_json::to_value(a).unwrap_or_default();
            v["claim"] = json!(a.claim());
            v["accepts"] = json!(a.accepts());
            // The edge queues an algorithm keeps and bounds itself (lmrr's,
            // flashsort's): their capacity when q is not set, else null. The
            // page shows it in the q box, as the run's label does.
            v["own_queue_cap"] = json!((a.factory)(&AlgorithmOptions::default()).queue_cap());
            v
        }).collect::<Vec<_>>(),
        // The run request's fields a URL carries: (URL key, config key).
        "fields": Field::ALL.iter().filter_map(|f| f.query().map(|q| json!({"query": q, "key": f.json()}))).collect::<Vec<_>>(),
        "policies": Policy::ALL.iter().map(|p| json!({"name": p.name(), "description": p.describe()})).collect::<Vec<_>>(),
        // `reads`: the generator parameters the workload uses; `unread`: for
        // each other one, the value it implies (`= k`, `1` or `–`) and why
        // it has no effect (the page disables their boxes and shows these).
        "workloads": Workload::ALL
            .iter()
            .map(|w| {
                let reads: Vec<&str> = Param::ALL.into_iter().filter(|&p| w.reads(p)).map(Param::key).collect();
                let unread: serde_json::Map<String, serde_json::Value> = Param::ALL
                    .into_iter()
                    .filter_map(|p| {
                        let (implied, why) = w.unread_reason(p)?;
                        Some((p.key().to_string(), json!({"implied": implied.shown(), "why": why})))
                    })
                    .collect();
                json!({"name": w.name(), "description": w.describe(), "reads": reads, "unread": unread})
            })
            .collect::<Vec<_>>(),
        // Open-loop traffic's patterns (SPEC §6): `uniform` and the permutation workloads.
        "patterns": crate::load::Pattern::names(),
        // The load form's first selection (`load::curve::FORM_ALGORITHMS`).
        "load_form": {"algorithms": crate::load::curve::FORM_ALGORITHMS},
        // As the page's `lessons()` ships them (a lesson's preset always builds: tests/it/teach.rs).
        "lessons": crate::lessons::LESSONS.iter().filter_map(|l| l.shipped().ok()).collect::<Vec<_>>(),
    })
}
