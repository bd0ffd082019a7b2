//! The parallel step (issue #29 item 1): every result at 2 and 4 threads,
//! with the parallel path forced (`parallel_min` 0), equals the sequential
//! step's — the report's JSON with series and invariant checks on, and the
//! links each step used, in their order.

use routesim::request::{Field, RunSpec};
use routesim::{Simulation, Status};

/// The simulation of the request with these CLI options at `threads`
/// threads, the parallel step forced on every instance size if `forced`.
fn sim(query: &[(&str, &str)], threads: usize, forced: bool) -> Simulation {
    let mut spec = RunSpec::default();
    for &(name, text) in query {
        let field = Field::ALL.into_iter().find(|f| f.cli() == name).expect(name);
        spec.set(field, name, text).unwrap_or_else(|e| panic!("{query:?}: {e}"));
    }
    let mut config = spec.sim_config();
    config.check_invariants = true;
    config.record_series = true;
    config.threads = threads;
    if forced {
        config.parallel_min = 0;
    }
    Simulation::new(spec.instance().expect("instance"), config).unwrap_or_else(|e| panic!("{query:?}: {e}"))
}

/// Runs `query` at 1, 2 and 4 threads step by step; asserts equal step
/// summaries, equal links used (in order) and equal report JSON.
fn same_at_every_thread_count(query: &[(&str, &str)]) -> [(u64, u64); 2] {
    let mut sims: Vec<Simulation> = [1, 2, 4].iter().map(|&t| sim(query, t, true)).collect();
    let mut steps = 0;
    while sims[0].status() == Status::Running {
        let summaries: Vec<_> = sims.iter_mut().map(|s| s.step()).collect();
        steps += 1;
        for (k, s) in sims.iter().enumerate().skip(1) {
            assert_eq!(summaries[k], summaries[0], "{query:?}: step {steps} summary");
            assert_eq!(
                s.engine().last_links(),
                sims[0].engine().last_links(),
                "{query:?}: step {steps} links"
            );
        }
        assert!(steps < 100_000, "{query:?}: no end");
    }
    let json = serde_json::to_string(&sims[0].report()).unwrap();
    for s in &sims[1..] {
        assert_eq!(s.status(), sims[0].status(), "{query:?}");
        assert_eq!(serde_json::to_string(&s.report()).unwrap(), json, "{query:?}: report");
    }
    assert_eq!(
        sims[0].engine().parallel_counts(),
        (0, 0),
        "{query:?}: one thread is sequential"
    );
    [sims[1].engine().parallel_counts(), sims[2].engine().parallel_counts()]
}

/// Sums of parallel steps and strays over runs.
fn add(total: &mut (u64, u64), counts: [(u64, u64); 2]) {
    for (steps, strays) in counts {
        total.0 += steps;
        total.1 += strays;
    }
}

#[test]
fn every_policy_on_every_topology_kind_is_the_same_at_1_2_and_4_threads() {
    let policies = [
        "farthest-first",
        "farthest-origin",
        "farthest-total",
        "fifo",
        "random",
        "rank",
        "nearest-first",
    ];
    let mut total = (0, 0);
    let mut check = |query: &[(&str, &str)]| {
        let counts = same_at_every_thread_count(query);
        assert!(counts.iter().all(|c| c.0 > 0), "{query:?}: no parallel step");
        add(&mut total, counts);
    };
    for p in policies {
        check(&[
            ("topology", "mesh:12x12"),
            ("workload", "random-kk"),
            ("k", "3"),
            ("policy", p),
            ("seed", "2"),
        ]);
        check(&[("topology", "torus:10x10"), ("workload", "transpose"), ("policy", p)]);
        check(&[
            ("topology", "hypercube:6"),
            ("algorithm", "valiant"),
            ("workload", "transpose"),
            ("policy", p),
            ("seed", "5"),
        ]);
        check(&[
            ("topology", "butterfly:4"),
            ("algorithm", "bit-fixing"),
            ("workload", "random-permutation"),
            ("policy", p),
        ]);
    }
    for t in ["linear:40", "ring:41", "mesh:4x4x4", "torus:4x5x6", "mesh:3x3x3x3"] {
        check(&[("topology", t), ("workload", "random-kk"), ("k", "2"), ("seed", "4")]);
    }
    check(&[
        ("topology", "shuffle-exchange:6"),
        ("algorithm", "bit-fixing"),
        ("workload", "random-permutation"),
    ]);
    // The merge of bids for another lane's links ran.
    assert!(total.1 > 0, "no stray bids: {total:?}");
}

#[test]
fn queue_caps_and_scripted_algorithms_are_the_same_at_1_2_and_4_threads() {
    for q in ["1", "2", "3"] {
        let kk = [
            ("topology", "mesh:12x12"),
            ("workload", "random-kk"),
            ("k", "3"),
            ("queue-cap", q),
        ];
        let counts = same_at_every_thread_count(&kk);
        assert!(counts.iter().all(|c| c.0 > 0), "q={q}: no parallel step");
        let mut edge = kk.to_vec();
        edge.push(("edge-queues", "true"));
        // Edge queues keep every step sequential.
        assert_eq!(same_at_every_thread_count(&edge), [(0, 0); 2]);
        same_at_every_thread_count(&[
            ("topology", "torus:9x9"),
            ("workload", "random-permutation"),
            ("queue-cap", q),
            ("policy", "fifo"),
        ]);
    }
    let runs: &[&[(&str, &str)]] = &[
        &[
            ("topology", "mesh:16x16"),
            ("workload", "transpose"),
            ("reverse-order", "true"),
        ],
        &[
            ("topology", "mesh:16x16"),
            ("algorithm", "valiant"),
            ("workload", "transpose"),
            ("pipeline", "true"),
        ],
        &[
            ("topology", "mesh:16x16"),
            ("algorithm", "rand-interval"),
            ("workload", "random-permutation"),
        ],
        &[
            ("topology", "mesh:16x16"),
            ("algorithm", "sort-route"),
            ("workload", "bit-reversal"),
        ],
        &[
            ("topology", "mesh:16x16"),
            ("algorithm", "offline"),
            ("workload", "random-permutation"),
        ],
        &[
            ("topology", "mesh:8x8"),
            ("algorithm", "pp-rand"),
            ("workload", "random-kk"),
            ("l", "2"),
            ("k", "2"),
        ],
        &[
            ("topology", "torus:8x8"),
            ("algorithm", "ks-wrap"),
            ("workload", "random-permutation"),
        ],
        &[
            ("topology", "mesh:8x8"),
            ("algorithm", "lmrr"),
            ("workload", "random-permutation"),
            ("queue-cap", "2"),
        ],
    ];
    let mut total = (0, 0);
    for run in runs {
        add(&mut total, same_at_every_thread_count(run));
    }
    assert!(total.0 > 0, "no parallel step: {total:?}");
}

#[test]
fn a_large_run_is_the_same_at_1_and_2_threads_without_forcing() {
    let query = [
        ("topology", "mesh:160x160"),
        ("workload", "random-permutation"),
        ("seed", "7"),
    ];
    let json: Vec<String> = [1, 2]
        .iter()
        .map(|&t| {
            let mut s = sim(&query, t, false);
            assert_eq!(s.run(), Status::Finished);
            assert_eq!(s.engine().parallel_counts().0 > 0, t > 1, "{t} threads");
            serde_json::to_string(&s.report()).unwrap()
        })
        .collect();
    assert_eq!(json[0], json[1]);
}

/// The CLI at `args`: (exit code, stdout, stderr).
fn routesim(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args(args)
        .output()
        .expect("the routesim binary runs");
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).expect("UTF-8");
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn run_and_sweep_threads_change_no_output_and_bad_values_exit_2() {
    // 16,900 packets: above the default threshold, so 2 and 4 threads step in parallel.
    let run = |threads: &str| {
        routesim(&[
            "run",
            "--json",
            "--topology",
            "mesh:130x130",
            "--workload",
            "random-permutation",
            "--threads",
            threads,
        ])
    };
    let one = run("1");
    assert_eq!(one.0, Some(0), "{}", one.2);
    assert!(one.1.contains("\"steps\""), "{}", one.1);
    assert!(!one.1.contains("threads"), "--threads is not part of the report");
    for t in ["2", "4"] {
        assert_eq!(run(t), one, "--threads {t}");
    }
    for bad in ["0", "x", "-1"] {
        let (code, out, err) = run(bad);
        assert_eq!(code, Some(2), "--threads {bad}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("threads") && err.contains(&format!("'{bad}'")), "{err}");
    }
    let sweep = |threads: &str| {
        routesim(&[
            "sweep",
            "--topology",
            "mesh:8x8,mesh:12x12",
            "--workload",
            "random-permutation",
            "--seeds",
            "1..3",
            "--jobs",
            "1",
            "--threads",
            threads,
        ])
    };
    let one = sweep("1");
    assert_eq!(one.0, Some(0), "{}", one.2);
    let two = sweep("2");
    assert_eq!((two.0, &two.1), (Some(0), &one.1));
    let (code, _, err) = sweep("0");
    assert_eq!(code, Some(2));
    assert!(err.contains("threads") && err.contains("'0'"), "{err}");
    // More threads than cores: one line of warning on stderr, same output.
    let (code, out, err) = sweep("1024");
    assert_eq!((code, &out), (Some(0), &one.1));
    assert_eq!(
        err.lines()
            .filter(|l| l.contains("warning") && l.contains("--threads 1024"))
            .count(),
        1,
        "{err}"
    );
}

/// Link tables of 2^18 entries and more, where the bid loops (sequential
/// and each lane's) prefetch the entry of the bid 64 slots on: the same
/// run at 1, 2 and 4 threads, every step's links and the reports equal.
#[test]
fn runs_on_link_tables_the_bid_loops_prefetch_are_the_same_at_1_2_and_4_threads() {
    use routesim::topology::{Network, Topology};
    for query in [
        &[
            ("topology", "mesh:256x256"),
            ("workload", "random-permutation"),
            ("seed", "3"),
        ][..],
        &[
            ("topology", "hypercube:15"),
            ("algorithm", "valiant"),
            ("workload", "random-permutation"),
            ("policy", "random"),
        ][..],
    ] {
        let topo: Topology = query[0].1.parse().unwrap();
        assert!(topo.nodes() as usize * topo.ports() as usize >= 1 << 18, "{query:?}");
        let counts = same_at_every_thread_count(query);
        assert!(counts.iter().all(|c| c.0 > 0), "{query:?}: no parallel step");
    }
}
