//! Memory by bytes, never an abort (issue #29 item 4): the estimate made
//! before anything is allocated (`routesim::memory`), `--memory-limit` and
//! its default, and refusals by name — natively (exit 2, one line, no
//! abort) and per grid point in a sweep.

use routesim::memory::{self, Limit};
use routesim::request::{Field, RunSpec};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_routesim");

/// The CLI under `sh -c 'ulimit -v KB; exec routesim ARGS'`, timed.
fn under_ulimit(kb: u64, args: &[&str]) -> (Output, Duration) {
    let script = format!("ulimit -v {kb}; exec \"$0\" \"$@\"");
    let start = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(BIN)
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("sh runs");
    (out, start.elapsed())
}

/// `out` is the CLI's refusal of a run on `topology` under
/// `--memory-limit 1M`: exit 2, nothing on stdout, the message.
fn refused_by_one_mib(out: &Output, topology: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    let head = format!("routesim: topology {topology}: the run needs an estimated ");
    assert!(err.starts_with(&head), "{err}");
    assert!(err.contains("above --memory-limit of 1.0 MiB"), "{err}");
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The request of `run --topology T --workload W [--l --k] --algorithm A`, as the CLI builds it.
fn spec(topology: &str, algorithm: &str, workload: &str, extra: &[(Field, &str)]) -> RunSpec {
    let mut fields = vec![
        (Field::Topology, "topology", topology),
        (Field::Algorithm, "algorithm", algorithm),
        (Field::Workload, "workload", workload),
    ];
    fields.extend(extra.iter().map(|(f, t)| (*f, f.cli(), *t)));
    RunSpec::default().apply(fields).unwrap()
}

/// Issue #29's acceptance: under a 4 GB address-space limit, a run whose
/// estimate does not fit is refused with exit 2 within 2 s, one line on
/// stderr naming the topology, the estimate and the limit, nothing on
/// stdout, no abort or backtrace.
#[test]
fn a_run_too_large_for_the_address_space_is_refused_by_name_within_two_seconds() {
    for topology in ["mesh:6000x6000", "mesh:3x3x3x3x3x3x3x3x3x3x3x3x3x3x3x3"] {
        let args = [
            "run",
            "--topology",
            topology,
            "--workload",
            "random-permutation",
            "--algorithm",
            "greedy",
        ];
        let (out, took) = under_ulimit(4_000_000, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{topology}: {err}");
        assert!(out.stdout.is_empty(), "{topology}: nothing on stdout");
        assert!(took < Duration::from_secs(2), "{topology}: refused after {took:?}");
        assert_eq!(err.lines().count(), 1, "{topology}: one line: {err}");
        assert!(err.starts_with(&format!("routesim: topology {topology}: ")), "{err}");
        assert!(
            err.contains("the run needs an estimated ") && err.contains(" GiB"),
            "{err}"
        );
        assert!(err.contains("address space") && err.contains("--memory-limit"), "{err}");
        assert!(
            !err.contains("memory allocation") && !err.contains("backtrace"),
            "{err}"
        );
        let estimate = spec(topology, "greedy", "random-permutation", &[])
            .memory_estimate()
            .unwrap();
        assert!(err.contains(&memory::shown(estimate.total())), "{err}");
    }
}

/// Flashsort's plans (its relays and leveled networks) are in the
/// estimate: on mesh:1024x1024 under a 1.5 GB address-space limit the run
/// is refused by name before it starts, where it used to abort in its
/// planning (exit 134, "memory allocation of … bytes failed").
#[test]
fn flashsort_too_large_for_the_address_space_is_refused_not_aborted() {
    for (topology, loading) in [
        ("mesh:1024x1024", "light"),
        ("mesh:1024x1024", "full"),
        ("butterfly:20", "light"),
    ] {
        let args = [
            "run",
            "--topology",
            topology,
            "--workload",
            "sort-random",
            "--algorithm",
            "flashsort",
            "--loading",
            loading,
        ];
        let (out, took) = under_ulimit(1_500_000, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{topology} {loading}: {err}");
        assert!(out.stdout.is_empty());
        assert!(took < Duration::from_secs(2), "{topology}: refused after {took:?}");
        assert!(
            err.starts_with(&format!("routesim: topology {topology}: the run needs an estimated ")),
            "{err}"
        );
        let estimate = spec(topology, "flashsort", "sort-random", &[(Field::Loading, loading)])
            .memory_estimate()
            .unwrap();
        assert!(err.contains(&memory::shown(estimate.total())), "{err}");
        assert!(
            estimate.algorithm > estimate.engine,
            "{topology}: the plans outweigh the engine"
        );
    }
}

/// With the estimate overruled (`--memory-limit 100G`) the allocations
/// themselves fail under the address-space limit: still a message, exit 2,
/// not the allocator's abort (exit 134).
#[test]
fn a_failed_allocation_is_a_message_not_an_abort() {
    // The workload's packets (3^16 nodes under 500 MB), the engine's link
    // table (4000 × 4000 under 1 GB), lmrr's paths (not in the estimate:
    // 512 × 512 under 400 MB; on the shuffle-exchange, D = 20 under 1.5
    // GB, where the run used to abort, exit 134; on a hypercube its
    // leveled network counted too, D = 18 under 800 MB).
    let cases = [
        (
            "mesh:3x3x3x3x3x3x3x3x3x3x3x3x3x3x3x3",
            500_000,
            "the workload's packets",
            "greedy",
        ),
        ("mesh:4000x4000", 1_000_000, "the engine's link table", "greedy"),
        ("mesh:512x512", 400_000, "lmrr's paths", "lmrr"),
        ("shuffle-exchange:20", 1_500_000, "lmrr's paths", "lmrr"),
        ("hypercube:18", 800_000, "lmrr's paths", "lmrr"),
    ];
    for (topology, kb, what, algorithm) in cases {
        let args = [
            "run",
            "--topology",
            topology,
            "--workload",
            "random-permutation",
            "--algorithm",
            algorithm,
            "--memory-limit",
            "100G",
        ];
        let (out, _) = under_ulimit(kb, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{topology}: {err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("routesim: topology {topology}: cannot allocate ")),
            "{err}"
        );
        assert!(err.contains(&format!("for {what}: out of memory")), "{err}");
    }
}

const OPEN_LOOP_SWEEP: &[&str] = &[
    "sweep",
    "--topology",
    "mesh:{N}x{N}",
    "--n",
    "64,128",
    "--pattern",
    "uniform",
    "--rate",
    "0.1,0.4",
    "--warmup",
    "100",
    "--measure",
    "100",
    "--drain",
    "100",
];

/// Allocations outside the fallible columns end in a message too (the
/// memory audit of 2026-12-01 found exit 134, "memory allocation of N
/// bytes failed": small lmrr runs, whose paths the estimate does not all
/// count, between the estimate and their need; a sweep with two jobs whose
/// worker's first allocation met the address-space limit; two-thread runs
/// just above the admitted limit). Never exit 134 or 101; a refusal or the
/// allocator's one line, exit 2.
#[test]
fn no_allocation_under_an_address_space_limit_aborts() {
    let cases: &[(u64, &[&str])] = &[
        (
            30_000,
            &[
                "run",
                "--algorithm",
                "lmrr",
                "--topology",
                "mesh:128x128",
                "--workload",
                "random-permutation",
            ],
        ),
        (
            30_000,
            &[
                "run",
                "--algorithm",
                "lmrr",
                "--topology",
                "hypercube:13",
                "--workload",
                "random-kk",
                "--k",
                "2",
            ],
        ),
        (
            100_000,
            &[
                "sweep",
                "--topology",
                "mesh:{N}x{N}",
                "--n",
                "64,256",
                "--algorithm",
                "greedy,pp-rand,lmrr",
                "--workload",
                "random-permutation",
                "--jobs",
                "2",
            ],
        ),
        (
            121_000,
            &[
                "run",
                "--algorithm",
                "bit-fixing",
                "--topology",
                "hypercube:18",
                "--workload",
                "transpose",
                "--threads",
                "2",
            ],
        ),
        // Too little address space to start the sweep's threads: a message
        // (it was a panic in rayon's global pool or in the thread spawn,
        // exit 101).
        (9_500, OPEN_LOOP_SWEEP),
        (11_000, OPEN_LOOP_SWEEP),
        (13_000, OPEN_LOOP_SWEEP),
    ];
    for &(kb, args) in cases {
        let (out, _) = under_ulimit(kb, args);
        let err = stderr(&out);
        let code = out.status.code();
        assert!(matches!(code, Some(0..=2)), "{args:?} under {kb} KB: {code:?} {err}");
        assert!(
            !err.contains("memory allocation of") && !err.contains("panicked"),
            "{args:?}: {err}"
        );
        if code == Some(2) {
            assert!(err.starts_with("routesim: "), "{args:?}: {err}");
        }
    }
    // The allocator's line, where nothing else caught it.
    let (out, _) = under_ulimit(30_000, cases[0].1);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("routesim: out of memory: an allocation of ") || err.contains("the run needs an estimated"),
        "{err}"
    );
}

#[test]
fn memory_limit_refuses_and_allows_by_its_value() {
    let base = [
        "run",
        "--topology",
        "mesh:64x64",
        "--workload",
        "random-permutation",
        "--algorithm",
        "greedy",
    ];
    let with = |limit: &str| {
        let mut args = base.to_vec();
        args.extend(["--memory-limit", limit]);
        Command::new(BIN).args(&args).output().unwrap()
    };
    let refused = with("1M");
    refused_by_one_mib(&refused, "mesh:64x64");
    for allowed in ["1G", "1.5G", "512M", "4096000000"] {
        let out = with(allowed);
        assert_eq!(out.status.code(), Some(0), "{allowed}: {}", stderr(&out));
        assert!(String::from_utf8_lossy(&out.stdout).contains("delivered 4096/4096"));
    }
    for bad in ["-1", "0", "lots", "4X", "1.2.3G", ""] {
        let out = with(bad);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(out.stdout.is_empty());
        assert!(err.contains(&format!("invalid memory-limit '{bad}'")), "{bad}: {err}");
    }
}

/// A sweep checks each grid point: the one over the limit is an error row
/// (exit 1, SPEC §4), the others run.
#[test]
fn a_sweep_writes_an_error_row_for_a_point_over_the_limit() {
    let out = Command::new(BIN)
        .args([
            "sweep",
            "--topology",
            "mesh:{n}x{n}",
            "--n",
            "8,256",
            "--workload",
            "random-permutation",
            "--algorithm",
            "greedy",
            "--memory-limit",
            "20M",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(
        rows[1].starts_with("mesh:8x8,") && !rows[1].contains("estimated"),
        "{}",
        rows[1]
    );
    assert!(rows[2].starts_with("mesh:256x256,"), "{}", rows[2]);
    assert!(
        rows[2].contains("topology mesh:256x256: the run needs an estimated"),
        "{}",
        rows[2]
    );
    assert!(rows[2].contains("above --memory-limit of 20.0 MiB"), "{}", rows[2]);
}

/// Points side by side (`--jobs 2`) whose estimates do not fit the limit
/// together run one after the other: every point runs, none is refused,
/// and the rows are those of `--jobs 1`.
#[test]
fn parallel_points_share_the_memory_limit() {
    let one = spec("mesh:128x128", "greedy", "random-permutation", &[])
        .memory_estimate()
        .unwrap()
        .total();
    let limit = format!("{}", one * 3 / 2);
    same_rows_side_by_side(
        &[
            "--topology",
            "mesh:128x128",
            "--workload",
            "random-permutation",
            "--algorithm",
            "greedy",
            "--seeds",
            "1..4",
        ],
        &limit,
        4,
    );
}

/// Open-loop points (`sweep --pattern`) share the limit the same way: the
/// rows of `--jobs 2` under a limit 1.5 times the largest point's estimate
/// are those of `--jobs 1`.
#[test]
fn parallel_open_loop_points_share_the_memory_limit() {
    let mut spec = routesim::load::LoadSpec::new(
        "torus:64x64".parse().unwrap(),
        "greedy",
        routesim::load::Pattern::Uniform,
    );
    (spec.warmup, spec.measure, spec.drain) = (50, 50, 50);
    let one = spec.memory_estimate(0.2).unwrap();
    let limit = format!("{}", one * 3 / 2);
    same_rows_side_by_side(
        &[
            "--topology",
            "torus:64x64",
            "--pattern",
            "uniform",
            "--rate",
            "0.05,0.1,0.15,0.2",
            "--warmup",
            "50",
            "--measure",
            "50",
            "--drain",
            "50",
        ],
        &limit,
        4,
    );
}

/// `sweep ARGS --memory-limit LIMIT` with `--jobs 2` exits 0 with the rows
/// of `--jobs 1`: a header and `points` rows.
fn same_rows_side_by_side(args: &[&str], limit: &str, points: usize) {
    let sweep = |jobs: &str| {
        Command::new(BIN)
            .arg("sweep")
            .args(args)
            .args(["--jobs", jobs, "--memory-limit", limit])
            .output()
            .unwrap()
    };
    let (apart, side_by_side) = (sweep("1"), sweep("2"));
    assert_eq!(side_by_side.status.code(), Some(0), "{}", stderr(&side_by_side));
    assert_eq!(apart.stdout, side_by_side.stdout);
    assert_eq!(String::from_utf8_lossy(&apart.stdout).lines().count(), points + 1);
}

/// The page's budget refuses by the same estimate, naming the budget; the
/// requests the page runs today pass it.
#[test]
fn the_page_budget_refuses_before_allocating() {
    let page = |topology: &str, workload: &str, k: Option<&str>| {
        let mut spec = RunSpec::browser();
        spec.set(Field::Topology, "topology", topology).unwrap();
        spec.set(Field::Workload, "workload", workload).unwrap();
        if let Some(k) = k {
            spec.set(Field::K, "k", k).unwrap();
        }
        spec
    };
    // The largest generated browser run (2^18 nodes, 2^20 packets) fits.
    let largest = page("mesh:512x512", "random-kk", Some("4"));
    assert!(largest.check_memory().is_ok(), "{:?}", largest.memory_estimate());
    assert!(page("mesh:64x64", "random-permutation", None).build().is_ok());
    // Worms on the largest generated hypercube with k = 4 pass it (the
    // page's e2e test, tests/e2e/errors.test.mjs, edits this run); without worms it fits.
    let mut worms = page("hypercube:18", "random-kk", Some("4"));
    worms.set(Field::Algorithm, "algorithm", "bit-fixing").unwrap();
    worms.set(Field::Flits, "flits", "2").unwrap();
    let e = worms.check_memory().expect_err("over the budget").to_string();
    assert!(
        e.starts_with("topology hypercube:18: the run needs an estimated "),
        "{e}"
    );
    assert!(e.contains("above the page's memory budget of 1.0 GiB"), "{e}");
    worms.set(Field::Flits, "flits", "1").unwrap();
    assert!(worms.check_memory().is_ok(), "{:?}", worms.memory_estimate());
    // Flashsort's plans are in the estimate: its page sizes (the lesson's
    // largest butterfly, the light mesh sort's largest measured page run)
    // fit, four times the mesh does not.
    for (topology, fits) in [("butterfly:14", true), ("mesh:128x128", true), ("mesh:512x512", false)] {
        let mut sort = page(topology, "sort-random", None);
        sort.set(Field::Algorithm, "algorithm", "flashsort").unwrap();
        assert_eq!(
            sort.check_memory().is_ok(),
            fits,
            "{topology}: {:?}",
            sort.memory_estimate()
        );
    }
    // A budget refusal names the topology, the estimate and the budget.
    let mut small = page("mesh:64x64", "random-permutation", None);
    small.memory_limit = Some(Limit {
        bytes: 1 << 20,
        ..Limit::page()
    });
    let e = small.build().err().expect("refused").to_string();
    assert!(e.starts_with("topology mesh:64x64: the run needs an estimated "), "{e}");
    assert!(e.contains("above the page's memory budget of 1.0 MiB"), "{e}");
}

/// A workload's packet bound (from its parameters, nothing generated) is
/// at least the packets it generates.
#[test]
fn workload_packet_bounds_hold() {
    use routesim::workload::{generate, Workload, WorkloadSpec};
    for topology in ["mesh:12x12", "torus:8x8", "hypercube:6", "butterfly:4", "linear:20"] {
        let topo: routesim::topology::Topology = topology.parse().unwrap();
        for workload in Workload::ALL {
            for (l, k) in [
                (None, None),
                (Some(3), Some(2)),
                (Some(1), Some(4)),
                (Some(2), Some(4)),
                (Some(8), Some(2)),
            ] {
                let spec = WorkloadSpec {
                    l,
                    k,
                    ..WorkloadSpec::new(workload, 7)
                };
                if let Ok(instance) = generate(&topo, &spec) {
                    let bound = spec.max_packets(&topo);
                    assert!(
                        instance.packets.len() as u64 <= bound,
                        "{workload} {l:?} {k:?} on {topology}"
                    );
                    // Exact for random-lk: min(ℓ, k) a node (it was
                    // max(ℓ, k), twice the packets at (2, 4)).
                    if workload == Workload::RandomLk && l.is_some() && topology != "butterfly:4" {
                        assert_eq!(instance.packets.len() as u64, bound, "{l:?} {k:?} on {topology}");
                    }
                }
            }
        }
    }
}

/// A run: topology, algorithm, workload and its other flags.
type Run = (
    &'static str,
    &'static str,
    &'static str,
    &'static [(Field, &'static str)],
);

/// The peak resident memory (KB) of a CLI run, by GNU time, or `None` where it is missing.
fn peak_kb(args: &[&str]) -> Option<u64> {
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg(BIN)
        .args(args)
        .output()
        .ok()?;
    assert!(out.status.code().is_some_and(|c| c <= 1), "{args:?}: {}", stderr(&out));
    stderr(&out).lines().last()?.trim().parse().ok()
}

/// The estimate is an upper bound of the measured peak of the whole CLI
/// process, and within a sane factor of it.
fn compare(topology: &str, algorithm: &str, workload: &str, extra: &[(Field, &str)]) -> Option<(u64, u64)> {
    let mut args: Vec<String> = [
        "run",
        "--topology",
        topology,
        "--algorithm",
        algorithm,
        "--workload",
        workload,
    ]
    .map(String::from)
    .to_vec();
    for (f, t) in extra {
        args.extend([format!("--{}", f.cli()), t.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let measured = peak_kb(&args)? * 1024;
    let estimate = spec(topology, algorithm, workload, extra).memory_estimate().unwrap();
    eprintln!(
        "{topology} {algorithm} {workload} {extra:?}: estimate {} (engine {}), measured peak {}",
        memory::shown(estimate.total()),
        memory::shown(estimate.engine),
        memory::shown(measured)
    );
    Some((estimate.total(), measured))
}

#[test]
fn the_estimate_bounds_the_measured_peak_within_a_sane_factor() {
    let runs: [Run; 8] = [
        ("mesh:256x256", "greedy", "random-permutation", &[]),
        ("torus:128x128", "greedy", "random-kk", &[(Field::K, "8")]),
        ("mesh:128x128", "pp-rand", "random-permutation", &[]),
        ("hypercube:14", "valiant", "random-permutation", &[]),
        ("mesh:64x64", "flashsort", "sort-random", &[]),
        ("mesh:16x16x16", "flashsort", "sort-random", &[(Field::Loading, "full")]),
        ("mesh:8x8x8x8", "flashsort", "sort-random", &[]),
        ("butterfly:12", "flashsort", "sort-random", &[]),
    ];
    for (topology, algorithm, workload, extra) in runs {
        let Some((estimate, measured)) = compare(topology, algorithm, workload, extra) else {
            eprintln!("no /usr/bin/time: the peak is not measured");
            return;
        };
        assert!(
            estimate >= measured,
            "{topology} {algorithm}: estimate {estimate} below the peak {measured}"
        );
        assert!(
            estimate <= 4 * measured,
            "{topology} {algorithm}: estimate {estimate} above 4 × the peak {measured}"
        );
    }
}

/// Figures for docs/architecture.md (`cargo test --release --test it memory::figures -- --ignored --nocapture`).
#[test]
#[ignore]
fn figures() {
    let runs: [Run; 14] = [
        ("mesh:256x256", "flashsort", "sort-random", &[]),
        ("mesh:32x32x32", "flashsort", "sort-random", &[]),
        ("hypercube:14", "flashsort", "sort-random", &[]),
        ("butterfly:16", "flashsort", "sort-random", &[]),
        ("mesh:512x512", "greedy", "random-permutation", &[]),
        ("mesh:1024x1024", "greedy", "random-permutation", &[]),
        ("torus:512x512", "greedy", "random-kk", &[(Field::K, "4")]),
        (
            "mesh:128x128",
            "pp-rand",
            "worst-lk",
            &[(Field::L, "4"), (Field::K, "4")],
        ),
        ("mesh:256x256", "pp-rand", "random-permutation", &[]),
        ("torus:256x256", "ks-wrap", "random-kk", &[(Field::K, "4")]),
        ("hypercube:18", "valiant", "random-permutation", &[]),
        ("mesh:256x256", "snake-sort", "sort-random", &[]),
        ("mesh:256x256", "greedy", "random-permutation", &[(Field::Flits, "4")]),
        ("mesh:128x128", "lmrr", "random-permutation", &[]),
    ];
    for (topology, algorithm, workload, extra) in runs {
        compare(topology, algorithm, workload, extra);
    }
}

/// Open-loop traffic: `load` refuses a rate over the limit (exit 2, by
/// name); an open-loop sweep writes an error row for it.
#[test]
fn load_and_open_loop_sweeps_check_every_rate() {
    let load = |limit: &str| {
        Command::new(BIN)
            .args([
                "load",
                "--topology",
                "torus:16x16",
                "--rate",
                "0.05",
                "--memory-limit",
                limit,
            ])
            .output()
            .unwrap()
    };
    let refused = load("1M");
    refused_by_one_mib(&refused, "torus:16x16");
    assert_eq!(load("1G").status.code(), Some(0));
    assert!(stderr(&load("12 parsecs")).contains("invalid memory-limit '12 parsecs'"));
    let out = Command::new(BIN)
        .args([
            "sweep",
            "--topology",
            "torus:8x8,torus:256x256",
            "--pattern",
            "uniform",
            "--rate",
            "0.05",
            "--warmup",
            "20",
            "--measure",
            "20",
            "--drain",
            "20",
            "--memory-limit",
            "30M",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert!(
        rows[1].starts_with("torus:8x8,") && rows[1].ends_with(','),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].contains("topology torus:256x256: the run needs an estimated"),
        "{}",
        rows[2]
    );
}

/// A sweep's lists are kept as typed (src/sweep/values.rs): a shard of a
/// 10^8-seed grid, batch or open-loop, runs its points under a 300 MB
/// address-space limit (the open-loop grid once held a λ* slot for every
/// series, 3.9 GB; the batch grid every seed, 0.8 GB), and a `{n}` list
/// past 10^6 topologies is refused by name at once (2·10^7 values aborted
/// on 3 GB of parsed topologies).
#[test]
fn a_sweep_of_long_lists_holds_no_value_of_them() {
    let batch = ["--workload", "random-permutation", "--algorithm", "greedy"];
    let open = ["--pattern", "uniform", "--rate", "0.1", "--measure", "50"];
    for extra in [&batch[..], &open[..]] {
        let mut args = vec![
            "sweep",
            "--topology",
            "mesh:4x4",
            "--seeds",
            "0..99999999",
            "--shard",
            "7/1000000",
        ];
        args.extend(extra);
        let (out, took) = under_ulimit(300_000, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        let rows = String::from_utf8_lossy(&out.stdout);
        // Shard 7 of 10^6 holds seeds 600..=699, one row each, no header.
        assert_eq!(rows.lines().count(), 100, "{args:?}: {rows}");
        assert!(rows.lines().all(|r| r.starts_with("mesh:4x4,")), "{rows}");
        assert!(took < Duration::from_secs(20), "{args:?}: {took:?}");
    }
    let args = [
        "sweep",
        "--topology",
        "mesh:{n}x4",
        "--n",
        "1..20000000",
        "--workload",
        "random-permutation",
    ];
    let (out, took) = under_ulimit(300_000, &args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(took < Duration::from_secs(2), "refused after {took:?}");
    assert_eq!(
        err.trim(),
        "routesim: invalid n '1..20000000': 'mesh:{n}x4' would make more than 1000000 topologies (each a \
         network of its own); give fewer values of n"
    );
}

/// `load` (and an open-loop sweep) refuse a run over the memory limit
/// before building its pattern (SPEC §4: "before generating anything"):
/// `load --topology mesh:8192x8192` took 68 s and 2.9 GB to refuse,
/// building every node's destination first; now within 2 s under a 300 MB
/// address space, with and without a bisection.
#[test]
fn load_refuses_an_over_limit_run_before_building_its_pattern() {
    let base = ["--topology", "mesh:8192x8192", "--memory-limit", "1G"];
    let cases: [&[&str]; 4] = [
        &["load", "--rate", "1"],
        &["load", "--pattern", "transpose", "--rate", "0.1"],
        &["load", "--rate", "0.5", "--saturation"],
        &["sweep", "--pattern", "uniform", "--rate", "0.1"],
    ];
    for case in cases {
        let args: Vec<&str> = case.iter().chain(&base).copied().collect();
        let (out, took) = under_ulimit(300_000, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(took < Duration::from_secs(2), "{args:?}: refused after {took:?}");
        assert!(
            err.contains("topology mesh:8192x8192: the run needs an estimated ")
                && err.contains("above --memory-limit of 1.0 GiB"),
            "{args:?}: {err}"
        );
    }
}

/// An instance file is read within the limits (the CLI audit of
/// 2026-11-30): its packets are kept as pairs while they are parsed, not as
/// a JSON tree (4 M packets took 783 MB to parse, 12 times a 64 MB limit,
/// and aborted under `ulimit -v 600000`, exit 134); text the memory limit
/// cannot read and parse is refused before it is read — a file by its
/// size, an endless one (`/dev/zero`) as it comes.
#[test]
fn an_instance_file_is_read_within_the_memory_limit() {
    let dir = std::env::temp_dir().join(format!("routesim-big-instance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.json");
    let n = 1 << 22;
    let mut text = String::with_capacity(6 * n + 64);
    text.push_str(r#"{"topology":"linear:1","packets":["#);
    for i in 0..n {
        text.push_str(if i == 0 { "[0,0]" } else { ",[0,0]" });
    }
    text.push_str("]}");
    std::fs::write(&path, &text).unwrap();
    let file = path.to_str().unwrap();
    // Parsed within the address space, then refused by the run's estimate.
    let (out, _) = under_ulimit(600_000, &["run", "--instance", file, "--json"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("routesim: topology linear:1: the run needs an estimated "),
        "{err}"
    );
    // Refused by its size before it is read.
    let (out, took) = under_ulimit(4_000_000, &["run", "--instance", file, "--memory-limit", "100M"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(&format!(
            "routesim: invalid instance '{file}': {} bytes of instance text: reading and parsing may take ",
            text.len()
        )) && err.contains("above --memory-limit of 100.0 MiB"),
        "{err}"
    );
    assert!(took < Duration::from_secs(2), "{took:?}");
    std::fs::remove_dir_all(&dir).unwrap();
    let (out, took) = under_ulimit(4_000_000, &["run", "--instance", "/dev/zero", "--memory-limit", "64M"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("routesim: invalid instance '/dev/zero': more than ") && err.contains("above --memory-limit"),
        "{err}"
    );
    assert!(took < Duration::from_secs(2), "{took:?}");
}

/// A sort's `keys` are read item by item too, each as a 16-byte number
/// where a JSON tree took 32 (2^24 keys in 32 MB of text: peak RSS 693 MB
/// before, 300 MB now), and a growing list takes a quarter more room, not
/// twice as much: 2^24 + 1 keys under 450 MB of address space aborted
/// while the list doubled (a 512 MB block). The list is read and its count
/// refused by name; where even that memory is missing (200 MB, the memory
/// limit set above it by hand), the reading ends in a message, not an abort.
#[test]
fn a_long_key_list_is_read_within_the_memory_limit() {
    let dir = std::env::temp_dir().join(format!("routesim-big-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("keys.json");
    let n = (1 << 24) + 1;
    let mut text = String::with_capacity(2 * n + 64);
    text.push_str(r#"{"topology":"linear:1","packets":[[0,0]],"keys":[0"#);
    for _ in 1..n {
        text.push_str(",0");
    }
    text.push_str("]}");
    std::fs::write(&path, &text).unwrap();
    let file = path.to_str().unwrap();
    // 450 MB for the reading, and 66 MiB a core for the threads' stacks and
    // malloc arenas, which the default limit leaves aside.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let (out, _) = under_ulimit(
        450_000 + cores * 66 * 1024,
        &["run", "--instance", file, "--algorithm", "bitonic"],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim_end(),
        format!("routesim: instance file '{file}': invalid keys '{n} keys': expected one key per packet (1 packets)")
    );
    let (out, _) = under_ulimit(
        200_000,
        &[
            "run",
            "--instance",
            file,
            "--algorithm",
            "bitonic",
            "--memory-limit",
            "10G",
        ],
    );
    let err = stderr(&out);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "routesim: instance file '{file}': instance JSON: out of memory reading keys: "
        )),
        "{err}"
    );
}

/// The page holds a run and the one beside it (`compare=`) at once: the
/// pair is refused when the two estimates together pass the page's
/// budget, though each alone fits (an audit watched such a pair grow past
/// 800 MB). A small pair is not.
#[test]
fn two_runs_side_by_side_share_the_page_budget() {
    use routesim::memory::Limit;
    use routesim::RunSpec;
    let budget = Limit::page().bytes;
    let spec = |k: u32| {
        RunSpec::from_json(
            RunSpec::browser(),
            &serde_json::json!({"topology": "mesh:512x512", "algorithm": "greedy", "workload": "random-kk", "k": k}),
        )
        .unwrap()
    };
    // The largest k whose run fits alone.
    // (The page generates at most 2^20 packets: k ≤ 4 here.)
    let k = (1..=4)
        .take_while(|&k| spec(k).memory_estimate().unwrap().total() <= budget)
        .last()
        .expect("k = 1 fits");
    let main = spec(k);
    let single = main.memory_estimate().unwrap().total();
    assert!(single <= budget && 2 * single > budget, "k = {k}: {single} of {budget}");
    main.check_memory().unwrap();
    let instance = main.instance().unwrap();
    let beside = main.beside(&instance, "valiant").unwrap();
    let why = main.check_memory_beside(&beside).unwrap_err().to_string();
    assert!(
        why.contains("side by side") && why.contains("greedy") && why.contains("valiant"),
        "{why}"
    );
    // A small pair fits.
    let small = RunSpec::from_json(
        RunSpec::browser(),
        &serde_json::json!({"topology": "mesh:16x16", "algorithm": "greedy", "workload": "transpose"}),
    )
    .unwrap();
    let beside = small.beside(&small.instance().unwrap(), "offline").unwrap();
    small.check_memory_beside(&beside).unwrap();
}
