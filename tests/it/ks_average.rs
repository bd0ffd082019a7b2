//! Kaufmann–Sibeyn's average cases (issue 28, item 4), each a claim on
//! the instances it speaks of — random k-permutations (`random-kk`), never
//! a worst-case instance — and NoWrapRoute on a torus, a worst-case bound:
//!
//! - §7.4: `ks-nowrap --no-randomize` (NoWrapRoute(d) without its
//!   randomizing phases) in kn/4 + O(d·√(kn log n)) on meshes;
//! - §7.4: NoWrapRoute(d) in kn/2 − kn/(4d) + O(d·√(kn log n));
//! - §8.1's closing remark: WrapRoute on the mesh in kn/2 + O(√(kn log n));
//! - §8's opening: NoWrapRoute on the n×n torus in 3kn/8 + O(√(kn log n)),
//!   any k-permutation.
//!
//! Each run is held to the main term plus C = 3 units (√(k·n·ln n), d
//! times it for the d-dimensional claims), over 20 seeds at three sizes;
//! the measured value is the run's steps. Wider sweeps:
//! scripts/ks-phase-lemmas.sh (docs/data/ks-phase-lemmas.csv).

use crate::common::{routesim, sim_of};
use routesim::explain::{explain_run, ClaimStatus, Verdict};
use routesim::request::Field;
use routesim::Status;

/// The stated multiple of the unit.
const C: f64 = 3.0;

fn claims(topology: &str, algorithm: &str, workload: &str, extra: &[(Field, &str)]) -> (u32, Vec<ClaimStatus>) {
    let mut s = sim_of(topology, algorithm, workload, extra);
    assert_eq!(s.run(), Status::Finished, "{algorithm} on {topology}");
    (s.report().steps, explain_run(&s).claims)
}

fn verdict(claims: &[ClaimStatus], name: &str) -> Verdict {
    claims
        .iter()
        .find(|c| c.name == name)
        .map(|c| c.verdict)
        .unwrap_or_else(|| panic!("no {name}"))
}

/// Holds `name` on 20 seeds at each of `topologies` to main + C·unit;
/// returns the largest constant.
fn sweep(
    algorithm: &str,
    name: &str,
    topologies: &[&str],
    workloads: &[&str],
    k: &str,
    extra: &[(Field, &str)],
) -> f64 {
    let mut worst = f64::MIN;
    for topology in topologies {
        for seed in 1..=20u64 {
            let workload = workloads[seed as usize % workloads.len()];
            let seed_text = seed.to_string();
            let mut fields = vec![(Field::K, k), (Field::Seed, seed_text.as_str())];
            fields.extend_from_slice(extra);
            let (steps, claims) = claims(topology, algorithm, workload, &fields);
            let c = claims
                .iter()
                .find(|c| c.name == name)
                .unwrap_or_else(|| panic!("no {name}"));
            let what = format!("{algorithm} {topology} {workload} seed {seed}");
            assert_eq!(c.verdict, Verdict::Measured, "{what}: {}", c.line);
            assert_eq!(c.measured, Some(steps as f64), "{what}");
            let b = c.bound.as_ref().expect("bound");
            let unit = b.unit.as_ref().expect("unit").1;
            let a = (steps as f64 - b.value) / unit;
            assert!(a <= C, "{what}: {steps} = {} + {a:.2} units > {C}: {}", b.value, c.line);
            worst = worst.max(a);
        }
    }
    eprintln!("{name} ({algorithm}): largest constant {worst:.2}");
    worst
}

const MESHES: [&str; 3] = ["mesh:12x12", "mesh:20x20", "mesh:28x28"];

#[test]
fn nowrap_route_without_randomizing_on_random_k_permutations() {
    let bare = [(Field::NoRandomize, "true")];
    sweep(
        "ks-nowrap",
        "§7.4 without randomizing",
        &MESHES,
        &["random-kk"],
        "8",
        &bare,
    );
    sweep(
        "ks-nowrap",
        "§7.4 without randomizing",
        &["mesh:6x6x6"],
        &["random-kk"],
        "12",
        &bare,
    );
    // The randomizing algorithm's claims do not judge it, and it judges no
    // worst-case instance.
    let (_, c) = claims("mesh:12x12", "ks-nowrap", "random-kk", &[(Field::K, "8"), bare[0]]);
    for other in ["Theorem 2", "Lemma 16", "§7.4 on average"] {
        assert_eq!(verdict(&c, other), Verdict::NotApplicable, "{other}");
    }
    let (_, c) = claims(
        "mesh:12x12",
        "ks-nowrap",
        "point-reflection",
        &[(Field::K, "8"), bare[0]],
    );
    assert_eq!(verdict(&c, "§7.4 without randomizing"), Verdict::NotApplicable);
    // "For sufficiently large k": not where the main term is below the
    // diameter (k = 1: n/4 = 3 against 22 on mesh:12x12).
    let (_, c) = claims("mesh:12x12", "ks-nowrap", "random-kk", &[(Field::K, "1"), bare[0]]);
    let why = c.iter().find(|x| x.name == "§7.4 without randomizing").unwrap();
    assert_eq!(why.verdict, Verdict::NotApplicable);
    assert!(
        why.line.contains("main term 3 is below the diameter 22"),
        "{}",
        why.line
    );
    let (_, c) = claims("mesh:12x12", "ks-nowrap", "random-kk", &[(Field::K, "1")]);
    assert_eq!(verdict(&c, "§7.4 on average"), Verdict::NotApplicable);
    // ... and without the option it does not apply.
    let (_, c) = claims("mesh:12x12", "ks-nowrap", "random-kk", &[(Field::K, "8")]);
    assert_eq!(verdict(&c, "§7.4 without randomizing"), Verdict::NotApplicable);
    assert_eq!(verdict(&c, "Theorem 2"), Verdict::Measured);
}

#[test]
fn nowrap_and_wrap_route_on_average() {
    sweep("ks-nowrap", "§7.4 on average", &MESHES, &["random-kk"], "8", &[]);
    sweep("ks-wrap", "§8.1 on average", &MESHES, &["random-kk"], "8", &[]);
    // A worst-case instance is not an average.
    let (_, c) = claims("mesh:12x12", "ks-wrap", "large-shift", &[(Field::K, "8")]);
    assert_eq!(verdict(&c, "§8.1 on average"), Verdict::NotApplicable);
    // WrapRoute's average case is the mesh's (§8.1); on a torus Theorem 7.
    let (_, c) = claims("torus:12x12", "ks-wrap", "random-kk", &[(Field::K, "8")]);
    assert_eq!(verdict(&c, "§8.1 on average"), Verdict::NotApplicable);
}

#[test]
fn nowrap_route_on_a_torus_any_k_permutation() {
    let tori = ["torus:12x12", "torus:20x20", "torus:28x28"];
    let kinds = ["random-kk", "point-reflection", "large-shift"];
    sweep("ks-nowrap", "§8 on the torus", &tori, &kinds, "8", &[]);
}

#[test]
fn the_option_is_listed_read_and_refused_where_it_has_no_meaning() {
    assert_eq!(Field::NoRandomize.query(), Some("no-randomize"));
    assert_eq!(Field::from_query("no-randomize"), Some(Field::NoRandomize));
    let out = routesim(&["list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let nowrap = list["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "ks-nowrap")
        .unwrap();
    let options: Vec<&str> = nowrap["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert!(options.contains(&"no-randomize"), "{options:?}");
    let out = routesim(&[
        "run",
        "--json",
        "--topology",
        "mesh:8x8",
        "--algorithm",
        "ks-nowrap",
        "--workload",
        "random-kk",
        "--no-randomize",
    ]);
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let phases: Vec<&str> = r["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(phases, ["phase1-route", "phase2-route"]);
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:8x8",
        "--algorithm",
        "ks-wrap",
        "--workload",
        "random-kk",
        "--no-randomize",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-randomize") && err.contains("only ks-nowrap"), "{err}");
}
