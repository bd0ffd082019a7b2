//! The command line's contract (SPEC §4): exit codes, one-line errors,
//! JSON and CSV output, determinism. Runs the built binary.

use routesim::RunSpec;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn routesim(args: &[&str]) -> Output {
    routesim_stdin(args, None)
}

fn routesim_stdin(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the routesim binary runs");
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// A scratch file unique to this test process.
fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("routesim-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn json_of(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", text(&out.stdout)))
}

#[test]
fn bad_input_exits_2_with_one_line_naming_field_and_value() {
    let bad_json = scratch("bad.json", "{\"topology\": \"mesh:4x4\", \"packets\": [[0, 1],");
    let out_of_range = scratch(
        "range.json",
        r#"{"topology": "mesh:4x4", "packets": [[0, 1], [2, 16]]}"#,
    );
    let good = scratch("good.json", r#"{"topology": "mesh:4x4", "packets": [[0, 15]]}"#);
    let missing = std::env::temp_dir().join("routesim-cli-test-no-such-file.json");
    let (bad_json, out_of_range, good, missing) = (
        bad_json.to_str().unwrap(),
        out_of_range.to_str().unwrap(),
        good.to_str().unwrap(),
        missing.to_str().unwrap(),
    );
    let run = |rest: &[&str]| -> Vec<String> {
        let mut v = vec!["run".to_string()];
        v.extend(rest.iter().map(|s| s.to_string()));
        v
    };
    let t16 = ["--topology", "mesh:16x16", "--workload", "transpose"];
    let with = |extra: &[&str]| -> Vec<String> {
        let mut v = run(&t16);
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let sweep = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = ["sweep", "--topology", "mesh:4x4", "--workload", "transpose"]
            .map(String::from)
            .to_vec();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (run(&["--topology", "blob:3", "--workload", "transpose"]), "blob:3"),
        (run(&["--topology", "mesh:0x4", "--workload", "transpose"]), "mesh:0x4"),
        (with(&["--algorithm", "teleport"]), "algorithm 'teleport'"),
        (with(&["--policy", "loudest-first"]), "policy 'loudest-first'"),
        (
            run(&["--topology", "mesh:4x4", "--workload", "scatter"]),
            "workload 'scatter'",
        ),
        (with(&["--seed", "abc"]), "seed 'abc'"),
        // Negative and malformed numbers are named with the option (SPEC §4).
        (
            run(&["--topology", "mesh:4x4", "--workload", "random-lk", "--l", "-3"]),
            "invalid l '-3'",
        ),
        (
            run(&["--topology", "mesh:4x4", "--workload", "random-lk", "--k", "-1"]),
            "invalid k '-1'",
        ),
        (
            run(&["--topology", "mesh:4x4", "--workload", "random-lk", "--k", "2.5"]),
            "invalid k '2.5'",
        ),
        (with(&["--seed", "-1"]), "invalid seed '-1'"),
        (with(&["--queue-cap", "-2"]), "invalid queue-cap '-2'"),
        (with(&["--max-steps", "-5"]), "invalid max-steps '-5'"),
        (
            run(&["--topology", "mesh:4x4", "--workload", "locality", "--locality", "-2"]),
            "invalid locality '-2'",
        ),
        (
            run(&["--topology", "mesh:4x4", "--workload", "hotspot", "--hotspot", "150"]),
            "invalid hotspot '150'",
        ),
        (
            vec![
                "generate",
                "--topology",
                "mesh:4x4",
                "--workload",
                "random-lk",
                "--l",
                "-3",
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            "invalid l '-3'",
        ),
        (sweep(&["--l", "-3"]), "invalid l '-3'"),
        // A text value that starts with '-' is named too (it read as an
        // unknown option: "unexpected argument '-1' found"; fuzz audit).
        (with(&["--algorithm", "-1"]), "invalid algorithm '-1'"),
        (with(&["--policy", "-fifo"]), "invalid policy '-fifo'"),
        (
            run(&["--topology", "-x", "--workload", "transpose"]),
            "invalid topology '-x'",
        ),
        (
            run(&["--topology", "mesh:4x4", "--workload", "-w"]),
            "invalid workload '-w'",
        ),
        (sweep(&["--policy", "-p"]), "policy '-p'"),
        (sweep(&["--lk", "1,-2"]), "lk '1,-2'"),
        (sweep(&["--seeds", "-1"]), "seeds '-1'"),
        (sweep(&["--queue-cap", "-4"]), "queue-cap '-4'"),
        (sweep(&["--jobs", "-1"]), "invalid jobs '-1'"),
        (sweep(&["--lk", "2", "--l", "1"]), "lk '2'"),
        (with(&["--queue-cap", "0"]), "queue-cap '0'"),
        // An empty value (an unset shell variable) is refused, not read as
        // unbounded as the page's empty field is.
        (with(&["--queue-cap", ""]), "invalid queue-cap ''"),
        (with(&["--queue-cap", " "]), "invalid queue-cap ' '"),
        (sweep(&["--queue-cap", ""]), "queue-cap ''"),
        (run(&["--topology", "mesh:4x4"]), "--workload or --instance"),
        (run(&["--workload", "transpose"]), "--topology"),
        (run(&["--instance", missing]), missing),
        (run(&["--instance", bad_json]), "not valid JSON"),
        (run(&["--instance", out_of_range]), "packets[1][1] '16'"),
        (
            run(&["--instance", good, "--topology", "mesh:8x8"]),
            "topology 'mesh:8x8'",
        ),
        (
            run(&["--instance", good, "--k", "2"]),
            "k '2': applies only to a workload, not with an instance",
        ),
        (
            run(&[
                "--topology",
                "mesh:4x4",
                "--algorithm",
                "bit-fixing",
                "--workload",
                "transpose",
            ]),
            "bit-fixing",
        ),
        (run(&["--topology", "mesh:4x6", "--workload", "transpose"]), "transpose"),
        (with(&["--bogus"]), "--bogus"),
        (with(&["--k", "0"]), "k '0'"),
        (vec![], "missing command"),
        (vec!["fly".into()], "fly"),
        (
            vec!["generate".into(), "--topology".into(), "mesh:4x4".into()],
            "--workload",
        ),
        (sweep(&["--k", "1,,2"]), "k '1,,2'"),
        (sweep(&["--seeds", "5..1"]), "seeds '5..1'"),
        (sweep(&["--seeds", "1..x"]), "'x'"),
        (sweep(&["--algorithm", "greedy,teleport"]), "algorithm 'teleport'"),
        (sweep(&["--policy", "fifo,loudest"]), "policy 'loudest'"),
        (sweep(&["--n", "4,8"]), "n '4,8'"),
        (
            vec![
                "sweep".into(),
                "--topology".into(),
                "mesh:{n}x{n}".into(),
                "--workload".into(),
                "transpose".into(),
            ],
            "{n}",
        ),
    ];
    for (args, want) in cases {
        let out = routesim(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            out.stdout.is_empty(),
            "{args:?} printed on stdout: {}",
            text(&out.stdout)
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: not one line: {err}");
        assert!(err.starts_with("routesim: "), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err:?} lacks {want:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn run_json_on_16x16_transpose() {
    let args = [
        "run",
        "--topology",
        "mesh:16x16",
        "--algorithm",
        "greedy",
        "--policy",
        "farthest-first",
        "--workload",
        "transpose",
        "--json",
    ];
    let out = routesim(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r = json_of(&out);
    assert_eq!(r["topology"], "mesh:16x16");
    assert_eq!(r["algorithm"], "greedy");
    assert_eq!(r["policy"], "farthest-first");
    assert_eq!(r["seed"], 1);
    assert_eq!(r["steps"], 30);
    assert_eq!(r["packets"], 256);
    assert_eq!(r["delivered"], 256);
    assert_eq!(r["stalled"], false);
    assert_eq!(r["phases"][0]["name"], "route");
    assert!(r["bounds"]["best"].as_u64().unwrap() <= 30);
    assert_eq!(r["bounds"]["sqrt_lkn"].as_f64(), Some(16.0));
    assert_eq!(text(&out.stdout).lines().count(), 1, "exactly one JSON object");
    // The same seed twice gives the same bytes.
    assert_eq!(routesim(&args).stdout, out.stdout);
}

#[test]
fn same_seed_same_json_for_random_workloads() {
    let args = [
        "run",
        "--topology",
        "mesh:12x12",
        "--algorithm",
        "valiant",
        "--policy",
        "random",
        "--workload",
        "random-permutation",
        "--seed",
        "7",
        "--json",
    ];
    let (a, b) = (routesim(&args), routesim(&args));
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let other = routesim(&[
        "run",
        "--topology",
        "mesh:12x12",
        "--algorithm",
        "valiant",
        "--policy",
        "random",
        "--workload",
        "random-permutation",
        "--seed",
        "8",
        "--json",
    ]);
    assert_ne!(a.stdout, other.stdout, "another seed, another run");
}

#[test]
fn human_summary_names_the_key_figures() {
    let out = routesim(&["run", "--topology", "mesh:16x16", "--workload", "transpose"]);
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    for want in [
        "256/256",
        "30 steps",
        "max_queue 2",
        "bounds.best",
        "sqrt_lkn 16.00",
        "phases: route 30",
    ] {
        assert!(s.contains(want), "{want:?} missing from {s}");
    }
}

#[test]
fn generated_instance_runs_like_the_workload() {
    let args = [
        "generate",
        "--topology",
        "mesh:10x10",
        "--workload",
        "random-permutation",
        "--seed",
        "3",
    ];
    let gen = routesim(&args);
    assert_eq!(gen.status.code(), Some(0), "{}", text(&gen.stderr));
    // `--json`, as run, sweep and load take it, changes nothing: the instance is JSON.
    let with_json = routesim(&[&args[..], &["--json"]].concat());
    assert_eq!((with_json.status.code(), &with_json.stdout), (Some(0), &gen.stdout));
    let instance: Value = serde_json::from_slice(&gen.stdout).unwrap();
    assert_eq!(instance["topology"], "mesh:10x10");
    assert_eq!(instance["packets"].as_array().unwrap().len(), 100);
    let path = scratch("generated.json", &text(&gen.stdout));
    let from_file = json_of(&routesim(&[
        "run",
        "--instance",
        path.to_str().unwrap(),
        "--seed",
        "3",
        "--json",
    ]));
    let direct = json_of(&routesim(&[
        "run",
        "--topology",
        "mesh:10x10",
        "--workload",
        "random-permutation",
        "--seed",
        "3",
        "--json",
    ]));
    assert_eq!(from_file["steps"], direct["steps"]);
    assert_eq!(from_file["max_queue"], direct["max_queue"]);
    assert_eq!(from_file["delivered"], 100);
    // The same instance from stdin, with an agreeing --topology.
    let piped = routesim_stdin(
        &[
            "run",
            "--instance",
            "-",
            "--topology",
            "mesh:10x10",
            "--seed",
            "3",
            "--json",
        ],
        Some(&text(&gen.stdout)),
    );
    assert_eq!(piped.status.code(), Some(0), "{}", text(&piped.stderr));
    assert_eq!(json_of(&piped)["steps"], direct["steps"]);
}

#[test]
fn max_steps_exits_1_and_still_prints_the_report() {
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:16x16",
        "--workload",
        "transpose",
        "--max-steps",
        "3",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let r = json_of(&out);
    assert!(r["delivered"].as_u64().unwrap() < r["packets"].as_u64().unwrap());
    assert_eq!(r["packets"], 256);
    assert_eq!(r["hit_max_steps"], true);
    let human = routesim(&[
        "run",
        "--topology",
        "mesh:16x16",
        "--workload",
        "transpose",
        "--max-steps",
        "3",
    ]);
    assert_eq!(human.status.code(), Some(1));
    assert!(text(&human.stdout).contains("max-steps"));
}

#[test]
fn sweep_csv_has_every_grid_point_in_order_and_is_deterministic() {
    let args = [
        "sweep",
        "--topology",
        "mesh:{n}x{n},mesh:4x6",
        "--n",
        "4,6",
        "--algorithm",
        "greedy,valiant",
        "--policy",
        "farthest-first,random",
        "--workload",
        "random-permutation,transpose",
        "--seeds",
        "1..3",
    ];
    let mut one_thread = args.to_vec();
    one_thread.extend(["--jobs", "1"]);
    let (a, b) = (routesim(&args), routesim(&one_thread));
    // SPEC §4: some grid points (transpose on mesh:4x6) could not run: exit 1.
    assert_eq!(a.status.code(), Some(1), "{}", text(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "rows depend on thread scheduling");
    let csv = text(&a.stdout);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 3 * 2 * 2 * 2 * 3, "header + one row per grid point");
    let header: Vec<&str> = lines[0].split(',').collect();
    for col in [
        "topology",
        "nodes",
        "side",
        "algorithm",
        "policy",
        "workload",
        "l",
        "k",
        "seed",
        "queue_cap",
        "packets",
        "delivered",
        "stalled",
        "steps",
        "max_queue",
        "max_load",
        "max_ctrl_queue",
        "bound_distance",
        "bound_bisection",
        "bound_sink",
        "bound_region",
        "bound_best",
        "sqrt_lkn",
        "steps_over_sqrt_lkn",
        "latency_mean",
        "latency_max",
        "phases",
        "error",
    ] {
        assert!(header.contains(&col), "column {col} missing");
    }
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    // Grid order: the seed varies fastest, the topology slowest.
    let first: Vec<&str> = lines[1].split(',').collect();
    assert_eq!((first[col("topology")], first[col("seed")]), ("mesh:4x4", "1"));
    assert_eq!(lines[2].split(',').nth(col("seed")), Some("2"));
    assert!(lines
        .last()
        .unwrap()
        .starts_with("mesh:4x6,24,,valiant,random,transpose,"));
    // transpose on mesh:4x6 is an error row, not an abort; the others ran.
    let errors = lines[1..].iter().filter(|l| l.contains("needs a square")).count();
    assert_eq!(errors, 2 * 2 * 3);
    assert!(text(&a.stderr).contains("failed"));
    for line in lines[1..].iter().filter(|l| !l.contains("needs a square")) {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len(), "{line}");
        assert_eq!(cells[col("packets")], cells[col("delivered")], "{line}");
        let steps: u32 = cells[col("steps")].parse().unwrap();
        let best: u32 = cells[col("bound_best")].parse().unwrap();
        assert!(best <= steps, "{line}");
        assert!(cells[col("error")].is_empty());
    }
}

#[test]
fn sweep_jsonl_to_a_file() {
    let path = std::env::temp_dir().join(format!("routesim-cli-test-{}-sweep.jsonl", std::process::id()));
    let out = routesim(&[
        "sweep",
        "--topology",
        "mesh:8x8",
        "--workload",
        "transpose",
        "--queue-cap",
        "1,2,unbounded",
        "--format",
        "jsonl",
        "--out",
        path.to_str().unwrap(),
    ]);
    // q = 1 deadlocks greedy transpose on 8x8: the sweep completes, exit 1.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("stalled"));
    assert!(out.stdout.is_empty());
    let rows: Vec<Value> = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["queue_cap"], 1);
    assert_eq!(rows[2]["queue_cap"], Value::Null);
    assert_eq!(rows[2]["steps"], 14);
    assert_eq!(rows[2]["phases"][0]["name"], "route");
    assert_eq!(rows[0]["stalled"], true);
    assert!(rows[1..].iter().all(|r| r["delivered"] == 64 && r["stalled"] == false));
    assert!(rows.iter().all(|r| r["error"].is_null()));
}

/// A routing algorithm refuses a sorting instance (and the other way
/// round) in one sentence, naming the instance when it has a name.
#[test]
fn the_problem_refusal_reads_as_a_sentence() {
    let dir = std::env::temp_dir().join(format!("routesim-cli-problem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let keyed = dir.join("keyed.json");
    std::fs::write(
        &keyed,
        r#"{"topology":"mesh:2x2","packets":[[0,3],[1,2],[2,1],[3,0]],"keys":[3,2,1,0]}"#,
    )
    .unwrap();
    let out = routesim(&["run", "--instance", keyed.to_str().unwrap(), "--algorithm", "greedy"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("refuses the sorting instance: sort with"), "{err}");
    let named = dir.join("named.json");
    std::fs::write(&named, r#"{"name":"mine","topology":"mesh:2x2","packets":[[0,3]]}"#).unwrap();
    let out = routesim(&[
        "run",
        "--instance",
        named.to_str().unwrap(),
        "--algorithm",
        "snake-sort",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("refuses the routing instance mine: give it"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--queue-cap` takes inclusive ranges like the other numeric lists (its
/// help says so): `1..3,unbounded` is four grid points, in that order.
#[test]
fn sweep_queue_cap_takes_ranges() {
    let out = routesim(&[
        "sweep",
        "--topology",
        "mesh:4x4",
        "--workload",
        "random-permutation",
        "--queue-cap",
        "1..3,unbounded",
        "--json",
    ]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", text(&out.stderr));
    let caps: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["queue_cap"].clone())
        .collect();
    assert_eq!(caps, [json!(1), json!(2), json!(3), Value::Null]);
    // A range's bad end is named like a bad number.
    let bad = routesim(&[
        "sweep",
        "--topology",
        "mesh:4x4",
        "--workload",
        "transpose",
        "--queue-cap",
        "0..2",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("queue-cap '0..2'"), "{}", text(&bad.stderr));
}

#[test]
fn sweep_json_is_json_lines_like_run_json() {
    let args = [
        "sweep",
        "--topology",
        "mesh:8x8",
        "--workload",
        "transpose",
        "--seeds",
        "1,2",
    ];
    let json = routesim(&[&args[..], &["--json"]].concat());
    assert_eq!(json.status.code(), Some(0), "{}", text(&json.stderr));
    let jsonl = routesim(&[&args[..], &["--format", "jsonl"]].concat());
    assert_eq!(text(&json.stdout), text(&jsonl.stdout));
    let rows: Vec<Value> = text(&json.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r["steps"] == 14 && r["delivered"] == 64));
    let both = routesim(&[&args[..], &["--json", "--format", "csv"]].concat());
    assert_eq!(both.status.code(), Some(2));
    assert!(both.stdout.is_empty());
    assert!(text(&both.stderr).contains("--format"), "{}", text(&both.stderr));
}

/// `list` states the limits every network keeps, and each is the one the
/// parser holds to (the CLI audit of 2026-12-01: only the shuffle-exchange's
/// range was listed; `ring:0` was told "at least 1", the ring's minimum is 3).
#[test]
fn list_states_the_size_limits_the_parser_keeps() {
    let listed = text(&routesim(&["list"]).stdout);
    assert!(
        listed.contains("at most 2^26 = 67108864 nodes, a grid at most 16 sides; so hypercube:D up to D = 26, butterfly:D up to D = 21"),
        "{listed}"
    );
    let run = |topology: &str| routesim(&["generate", "--topology", topology, "--workload", "random-permutation"]);
    for (ok, algorithm) in [
        ("hypercube:26", "bit-fixing"),
        ("butterfly:21", "bit-fixing"),
        ("mesh:8192x8192", "greedy"),
    ] {
        // Generating 2^26 packets is heavy: the parse is what is checked.
        let out = routesim(&[
            "run",
            "--topology",
            ok,
            "--algorithm",
            algorithm,
            "--workload",
            "random-permutation",
            "--memory-limit",
            "1K",
        ]);
        let err = text(&out.stderr);
        assert!(
            err.contains("memory") && !err.contains("invalid topology"),
            "{ok}: {err}"
        );
    }
    for (bad, why) in [
        ("hypercube:27", "invalid topology"),
        ("butterfly:22", "between 0 and 21"),
        ("mesh:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2", "between 1 and 16 sides"),
        ("mesh:8193x8192", "more than 67108864 nodes"),
        ("ring:0", "sides of at least 3"),
        ("torus:0x4", "sides of at least 3"),
        ("torus:4x4x0", "sides of at least 3"),
        ("mesh:0x4", "at least 1"),
    ] {
        let out = run(bad);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(err.contains(why) && err.contains(bad), "{bad}: {err}");
    }
}

#[test]
fn list_mentions_every_name() {
    let out = routesim(&["list"]);
    assert_eq!(out.status.code(), Some(0));
    let s = text(&out.stdout);
    let policies = [
        "farthest-first",
        "farthest-origin",
        "farthest-total",
        "fifo",
        "random",
        "rank",
        "nearest-first",
    ];
    let workloads = [
        "random-permutation",
        "transpose",
        "bit-reversal",
        "bit-complement",
        "shuffle",
        "tornado",
        "large-shift",
        "point-reflection",
        "random-kk",
        "random-lk",
        "worst-lk",
        "locality",
        "local-kk",
        "hotspot",
        "random-destinations",
        "greedy-worst",
        "sort-random",
        "sort-reversed",
        "sort-few",
        "sort-sorted",
    ];
    for name in policies.iter().chain(&workloads).chain(&[
        "greedy",
        "bit-fixing",
        "valiant",
        "rand-interval",
        "offline",
        "ks-level",
        "ks-local",
        "mesh",
        "torus",
        "hypercube",
        "butterfly",
        "shuffle-exchange",
    ]) {
        assert!(s.contains(name), "{name} missing from list");
    }
    let json = json_of(&routesim(&["list", "--json"]));
    let names = |key: &str| -> Vec<String> {
        json[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(names("policies"), policies);
    assert_eq!(names("workloads"), workloads);
    assert!(names("algorithms").contains(&"greedy".to_string()));
    assert_eq!(names("topologies").len(), 7);
}

#[test]
fn help_and_version_exit_0() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["sweep", "--help"],
        &["run", "--help"],
    ] {
        let out = routesim(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty());
    }
}

#[test]
fn sweep_lk_pairs_l_with_k() {
    let out = routesim(&[
        "sweep",
        "--topology",
        "mesh:8x8",
        "--workload",
        "random-lk",
        "--lk",
        "1,2..3",
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rows: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let pairs: Vec<(u64, u64)> = rows
        .iter()
        .map(|r| (r["instance_l"].as_u64().unwrap(), r["instance_k"].as_u64().unwrap()))
        .collect();
    assert_eq!(pairs, [(1, 1), (2, 2), (3, 3)]);
}

/// An instance file with fields SPEC §3 does not name (its own metadata)
/// runs as the file without them; each such field is noted on stderr.
#[test]
fn instance_fields_spec_does_not_name_are_noted_and_ignored() {
    let plain = scratch(
        "plain-instance.json",
        r#"{"topology":"mesh:4x4","packets":[[0,15],[3,12],[5,10]],"name":"three"}"#,
    );
    let extra = scratch(
        "extra-instance.json",
        r#"{"topology":"mesh:4x4","packets":[[0,15],[3,12],[5,10]],"name":"three","generator":"course","seed":7}"#,
    );
    let run = |p: &PathBuf| routesim(&["run", "--instance", p.to_str().unwrap(), "--json"]);
    let (a, b) = (run(&plain), run(&extra));
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    assert_eq!(b.status.code(), Some(0), "{}", text(&b.stderr));
    assert_eq!(json_of(&a), json_of(&b));
    assert_eq!(text(&a.stderr), "");
    let note = text(&b.stderr);
    assert_eq!(note.lines().count(), 2, "{note}");
    assert!(
        note.contains("field 'generator' ignored") && note.contains("field 'seed' ignored"),
        "{note}"
    );
    // The note lists every field an instance has, a sort's keys included.
    assert!(
        note.contains("the instance's fields are topology, packets, name, l, k, keys"),
        "{note}"
    );
    // A refused run says only why (SPEC §4: one line): the notes come once
    // the run is built.
    for args in [&["--algorithm", "bit-fixing"][..], &["--max-steps", "-1"]] {
        let out = routesim(&[&["run", "--instance", extra.to_str().unwrap()][..], args].concat());
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("ignored") && out.stdout.is_empty(), "{args:?}: {err}");
    }
}

/// SPEC §4: a sweep whose grid points could not run writes their rows with
/// the error column; it exits 2 when none of them could, 1 when some could.
#[test]
fn a_sweep_whose_points_all_fail_writes_their_rows_and_exits_2() {
    let out = routesim(&[
        "sweep",
        "--topology",
        "mesh:4x4",
        "--algorithm",
        "bit-fixing",
        "--workload",
        "transpose",
        "--seeds",
        "1..2",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[0].ends_with(",error"), "{}", lines[0]);
    for line in &lines[1..] {
        assert!(line.starts_with("mesh:4x4,16,4,bit-fixing,"), "{line}");
        assert!(
            line.contains("cannot run here: needs a hypercube, butterfly or shuffle-exchange graph"),
            "{line}"
        );
    }
    let err = text(&out.stderr);
    assert!(err.contains("2 of 2 grid points failed"), "{err}");
    // One point, a workload the topology cannot take: its row, exit 2.
    let out = routesim(&["sweep", "--topology", "mesh:4x6", "--workload", "transpose"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    assert_eq!(csv.lines().count(), 2, "{csv}");
    assert!(
        csv.lines().nth(1).unwrap().contains("invalid workload 'transpose'"),
        "{csv}"
    );
    // Beside a point that runs, the same point makes the sweep exit 1.
    let out = routesim(&["sweep", "--topology", "mesh:4x6,mesh:4x4", "--workload", "transpose"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 3);
    // A shard whose only point cannot run exits 2; the shard with the point
    // that runs exits 0, and an empty shard writes nothing and exits 0.
    let shard = |i: &str| {
        routesim(&[
            "sweep",
            "--topology",
            "mesh:4x6,mesh:4x4",
            "--workload",
            "transpose",
            "--shard",
            i,
        ])
    };
    assert_eq!(shard("1/2").status.code(), Some(2));
    assert_eq!(shard("2/2").status.code(), Some(0));
    let empty = shard("3/3");
    assert_eq!(empty.status.code(), Some(0));
    assert!(empty.stdout.is_empty());
}

/// A workload flag that changes nothing is named on stderr and the run goes
/// on (`--l` of a k-k workload: ℓ = k); a consistent one is not named.
#[test]
fn unread_workload_flags_are_noted_on_stderr() {
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:4x4",
        "--workload",
        "random-kk",
        "--l",
        "2",
        "--k",
        "3",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("note: --l 2 has no effect") && err.contains("ℓ = k = 3"),
        "{err}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report["l"].as_u64(), report["k"].as_u64()), (Some(3), Some(3)));
    let out = routesim(&[
        "generate",
        "--topology",
        "mesh:4x4",
        "--workload",
        "transpose",
        "--k",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("note: --k 2 has no effect: transpose is a permutation"));
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:4x4",
        "--workload",
        "random-kk",
        "--l",
        "3",
        "--k",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
    // An algorithm option the algorithm does not take is noted the same way,
    // and the report is the one without it.
    let plain = routesim(&["run", "--topology", "mesh:4x4", "--workload", "transpose", "--json"]);
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:4x4",
        "--workload",
        "transpose",
        "--ranks",
        "8",
        "--pipeline",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("note: --ranks 8 has no effect: greedy takes no such option (it applies to lmrr")
            && err.contains("note: --pipeline has no effect: greedy takes no such option"),
        "{err}"
    );
    assert_eq!(out.stdout, plain.stdout);
    // `--pipeline` and `--phases coalesced` are two algorithms' options
    // (the pipelined ones', the ks-* ones'): noted as no effect on the
    // others, the run is the one without them (ks-nowrap once ran
    // coalesced with --pipeline, and valiant pipelined with --phases).
    for (algorithm, workload, extra) in [
        ("ks-nowrap", "random-kk", &["--pipeline"][..]),
        ("ks-nowrap", "random-kk", &["--pipeline", "--smear", "auto"][..]),
        ("valiant", "random-permutation", &["--phases", "coalesced"][..]),
    ] {
        let base = [
            "run",
            "--topology",
            "mesh:8x8",
            "--algorithm",
            algorithm,
            "--workload",
            workload,
            "--k",
            "2",
        ];
        let smear: &[&str] = if extra.contains(&"--smear") {
            &["--smear", "auto"]
        } else {
            &[]
        };
        let plain = routesim(&[&base[..], smear, &["--json"]].concat());
        let out = routesim(&[&base[..], extra, &["--json"]].concat());
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{algorithm} {extra:?}: {err}");
        assert!(
            err.contains(&format!("has no effect: {algorithm} takes no such option")),
            "{err}"
        );
        assert_eq!(out.stdout, plain.stdout, "{algorithm} {extra:?}");
    }
    // A policy given to an algorithm that schedules every move itself
    // (lmrr by ranks, the sorts by their schedules) is noted the same way;
    // the default one, not given, is not.
    for (topology, algorithm, workload) in [
        ("butterfly:4", "lmrr", "random-permutation"),
        ("hypercube:4", "bitonic", "sort-random"),
        ("mesh:4x4", "snake-sort", "sort-random"),
    ] {
        let base = [
            "run",
            "--topology",
            topology,
            "--algorithm",
            algorithm,
            "--workload",
            workload,
            "--json",
        ];
        let plain = routesim(&base);
        assert!(text(&plain.stderr).is_empty(), "{}", text(&plain.stderr));
        let out = routesim(&[&base[..], &["--policy", "fifo"]].concat());
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!(
                "note: --policy fifo has no effect: {algorithm} schedules every move itself"
            )),
            "{err}"
        );
        let strip =
            |o: &std::process::Output| text(&o.stdout).replace("\"policy\":\"fifo\"", "\"policy\":\"farthest-first\"");
        assert_eq!(strip(&out), strip(&plain), "{algorithm}: the same run");
    }
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:4x4",
        "--workload",
        "transpose",
        "--policy",
        "fifo",
        "--json",
    ]);
    assert!(
        text(&out.stderr).is_empty(),
        "greedy uses its policy: {}",
        text(&out.stderr)
    );
    // Taken: no note.
    let out = routesim(&[
        "run",
        "--topology",
        "butterfly:3",
        "--workload",
        "random-permutation",
        "--algorithm",
        "lmrr",
        "--ranks",
        "8",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stderr).is_empty(), "{}", text(&out.stderr));
}

/// An option the algorithm takes that cannot change the run on this
/// network is named, and the run is the one without it: the route order
/// on a butterfly (its levels fix the bits in one order) and on networks
/// of one dimension (an audit found `--reverse-order` silently ignored on
/// butterfly:3). On a hypercube or a 2-D mesh it is taken, with no note.
#[test]
fn an_option_that_changes_nothing_on_this_network_is_named() {
    for (topology, algorithm, why) in [
        (
            "butterfly:3",
            "bit-fixing",
            "a butterfly's levels fix the bits in one order",
        ),
        ("linear:8", "greedy", "one dimension"),
        ("ring:7", "valiant", "one dimension"),
        ("mesh:1x8", "greedy", "one dimension"),
    ] {
        let args = [
            "run",
            "--topology",
            topology,
            "--algorithm",
            algorithm,
            "--workload",
            "random-permutation",
        ];
        let plain = routesim(&[&args[..], &["--json"]].concat());
        let out = routesim(&[&args[..], &["--reverse-order", "--json"]].concat());
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let err = text(&out.stderr);
        assert!(
            err.contains("note: --reverse-order has no effect: ") && err.contains(why),
            "{topology}: {err}"
        );
        let mut with = json_of(&out);
        with.as_object_mut().unwrap().remove("reverse_order");
        assert_eq!(with, json_of(&plain), "{topology}");
    }
    for (topology, algorithm) in [("hypercube:3", "bit-fixing"), ("mesh:4x4", "greedy")] {
        let out = routesim(&[
            "run",
            "--topology",
            topology,
            "--algorithm",
            algorithm,
            "--workload",
            "random-permutation",
            "--reverse-order",
        ]);
        assert_eq!(out.status.code(), Some(0));
        assert!(text(&out.stderr).is_empty(), "{topology}: {}", text(&out.stderr));
    }
    // An option another algorithm takes is checked only where it is read:
    // `--epsilon 99` (beyond the side) was refused for greedy.
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:4x4",
        "--workload",
        "transpose",
        "--epsilon",
        "99",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("note: --epsilon 99 has no effect: greedy takes no such option"));
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:4x4",
        "--workload",
        "random-kk",
        "--k",
        "2",
        "--algorithm",
        "ks-level",
        "--epsilon",
        "99",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("invalid epsilon '99'"),
        "{}",
        text(&out.stderr)
    );
    let base = RunSpec::browser();
    let (_, messages) = RunSpec::from_query(
        base,
        [
            ("topology", "butterfly:3"),
            ("algorithm", "bit-fixing"),
            ("reverse-order", "true"),
        ],
    );
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("URL parameter reverse-order=true has no effect: a butterfly")),
        "{messages:?}"
    );
}

/// SPEC §4: `sweep --shard i/N` and `load --shard i/N` run the i-th of N
/// contiguous slices of the grid; only shard 1 writes the CSV header, an
/// empty shard writes nothing and exits 0, and the shards' outputs
/// concatenated in order equal the unsharded output byte for byte.
#[test]
fn shards_concatenated_equal_the_whole_sweep_and_load() {
    let sweep = [
        "sweep",
        "--topology",
        "mesh:6x6,torus:5x5",
        "--workload",
        "transpose,random-permutation",
        "--seeds",
        "1..3",
        "--algorithm",
        "greedy,valiant",
    ];
    let load = [
        "load",
        "--topology",
        "mesh:6x6",
        "--algorithm",
        "greedy,valiant",
        "--pattern",
        "uniform,transpose",
        "--rate",
        "0.05,0.2",
        "--warmup",
        "10",
        "--measure",
        "30",
        "--drain",
        "30",
    ];
    let cases: [(&[&str], &[&str]); 3] = [(&sweep, &[]), (&sweep, &["--json"]), (&load, &["--json"])];
    for (base, extra) in cases {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let whole = routesim(&args);
        assert_eq!(
            whole.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&whole.stderr)
        );
        assert!(!whole.stdout.is_empty());
        // 24 sweep points and 8 load points: 30 shards leave some empty.
        for n in [1u32, 3, 7, 30] {
            let mut joined = Vec::new();
            for i in 1..=n {
                let shard = format!("{i}/{n}");
                let mut a = args.clone();
                a.extend(["--shard", shard.as_str()]);
                let out = routesim(&a);
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{shard}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                if i > 1 && !extra.contains(&"--json") {
                    let text = String::from_utf8_lossy(&out.stdout);
                    assert!(!text.starts_with("topology,"), "{shard} wrote a header");
                }
                joined.extend(out.stdout);
            }
            assert!(joined == whole.stdout, "{} in {n} shards differs", args.join(" "));
        }
    }
    // The CSV header comes once, from shard 1, in files (`--out`) too; an
    // empty shard's file is emptied, so that a file left by an earlier run
    // does not join the concatenation (the CLI audit of 2026-11-30: sweep
    // left it as it was).
    let dir = std::env::temp_dir().join(format!("routesim-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, grid, n) in [
        ("load", &load[..], 3),
        ("load", &load[..], 12),
        ("sweep", &sweep[..], 30),
    ] {
        let whole = dir.join("whole.csv");
        let mut args: Vec<&str> = grid.to_vec();
        let w = whole.display().to_string();
        args.extend(["--out", w.as_str()]);
        assert_eq!(routesim(&args).status.code(), Some(0));
        let mut joined = Vec::new();
        for i in 1..=n {
            let part = dir.join(format!("part{i}.csv")).display().to_string();
            std::fs::write(&part, "stale\n").unwrap();
            let shard = format!("{i}/{n}");
            let mut a: Vec<&str> = grid.to_vec();
            a.extend(["--shard", shard.as_str(), "--out", part.as_str()]);
            assert_eq!(routesim(&a).status.code(), Some(0));
            joined.extend(std::fs::read(&part).unwrap());
        }
        assert!(joined == std::fs::read(&whole).unwrap(), "{name} in {n} shard files");
    }
    std::fs::remove_dir_all(&dir).unwrap();
    // Bad shards are named, with exit 2 and nothing on stdout.
    for bad in ["0/4", "5/4", "1/0", "x", "2"] {
        let mut a = sweep.to_vec();
        a.extend(["--shard", bad]);
        let out = routesim(&a);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("shard") && err.contains(bad), "{bad}: {err}");
    }
}

/// Runs `routesim ARGS > out` with stderr on a terminal (util-linux
/// `script`'s pty, CI unset) and returns what the terminal showed.
fn on_a_terminal(args: &str, out: &std::path::Path, tty: &std::path::Path) -> String {
    let command = format!("{} {args} > {}", env!("CARGO_BIN_EXE_routesim"), out.display());
    let status = Command::new("script")
        .args(["-qec", &command, &tty.display().to_string()])
        .env_remove("CI")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("util-linux script runs");
    assert!(status.success(), "{command}");
    String::from_utf8_lossy(&std::fs::read(tty).unwrap()).into_owned()
}

/// Issue #29 item 5: `run` draws a progress bar (packets delivered, the
/// step, packet-hops per second) on stderr when stderr is a terminal and the
/// run takes more than about a second — nothing on stdout, whose report is
/// the same byte for byte; a short run draws nothing, and without a
/// terminal nothing is drawn. The terminal is util-linux `script`'s pty.
#[test]
fn run_draws_progress_only_on_a_terminal_on_stderr_and_after_a_second() {
    let dir = std::env::temp_dir().join(format!("routesim-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let on_terminal = |args: &str| -> (String, Vec<u8>) {
        let (out, tty) = (dir.join("out.json"), dir.join("tty.txt"));
        let drawn = on_a_terminal(&format!("run {args} --json"), &out, &tty);
        (drawn, std::fs::read(&out).unwrap())
    };
    // mesh:640x640: about 200 M packet-hops, seconds of work.
    let long = "--topology mesh:640x640 --workload random-permutation --seed 1";
    let (tty, stdout) = on_terminal(long);
    assert!(
        tty.contains("delivered, step") && tty.contains("M hops/s"),
        "no bar: {tty:?}"
    );
    let args: Vec<&str> = ["run"].into_iter().chain(long.split(' ')).chain(["--json"]).collect();
    let plain = routesim(&args);
    assert!(plain.stderr.is_empty(), "{}", String::from_utf8_lossy(&plain.stderr));
    assert_eq!(stdout, plain.stdout, "the report differs with a bar");
    let (tty, _) = on_terminal("--topology mesh:16x16 --workload transpose");
    assert!(!tty.contains("delivered, step"), "a short run drew a bar: {tty:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `load --saturation` draws its bar too (it drew none: only the rate
/// grid's runs told the bar; 2026-12-01): runs at most 1 + bisect per
/// algorithm and pattern, the rate under way named, stdout unchanged.
#[test]
fn load_saturation_draws_progress_on_a_terminal() {
    let dir = std::env::temp_dir().join(format!("routesim-saturation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, tty) = (dir.join("out.json"), dir.join("tty.txt"));
    let args = "load --topology mesh:20x20 --saturation --bisect 2";
    let drawn = on_a_terminal(args, &out, &tty);
    assert!(
        drawn.contains("/3 runs at most, greedy uniform at rate "),
        "no bar: {drawn:?}"
    );
    let plain = routesim(&args.split(' ').collect::<Vec<_>>());
    assert!(plain.stderr.is_empty(), "{}", text(&plain.stderr));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        plain.stdout,
        "the result differs with a bar"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Values echoed from an instance file keep to one visible line: control
/// characters (a terminal's escape sequences, a newline, a NUL) are printed
/// escaped, in messages and in the human summary (the CLI audit of
/// 2026-11-30: a name could forge lines of output and colour the terminal).
#[test]
fn echoed_values_have_their_control_characters_escaped() {
    let bad = "{\"topology\":\"linear:3\\u0000\",\"packets\":[]}";
    let out = routesim_stdin(&["run", "--instance", "-"], Some(bad));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("'linear:3\\u{0}'") && !err.contains('\0'), "{err:?}");
    let escape = "{\"topology\":\"\\u001b[31mRED\\nx\",\"packets\":[]}";
    let out = routesim_stdin(&["run", "--instance", "-"], Some(escape));
    let err = text(&out.stderr);
    assert!(!err.contains('\u{1b}') && err.contains("\\u{1b}[31mRED\\nx"), "{err:?}");
    assert_eq!(err.lines().count(), 1, "{err:?}");
    let named = "{\"topology\":\"linear:3\",\"name\":\"x\\ndelivered 999/999\\u001b[31m\",\"packets\":[[0,2]]}";
    let out = routesim_stdin(&["run", "--instance", "-"], Some(named));
    let summary = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        !summary.contains('\u{1b}') && !summary.contains("\ndelivered 999"),
        "{summary:?}"
    );
    assert!(summary.contains("x\\ndelivered 999/999\\u{1b}[31m"), "{summary:?}");
}

/// Smaller refusals of the CLI audit of 2026-11-30 (session 33): an
/// instance path that is not UTF-8 is read like any other (clap refused
/// it without naming `--instance`); a message states the range it checks
/// (`--measure 0` and `--measure 99999999999` named different ones); a size
/// in plain bytes is a whole number up to 2^64 − 1 (`1.5` was read as 1,
/// 18446744073709551615 refused).
#[test]
fn paths_ranges_and_sizes_are_read_as_their_messages_say() {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::env::temp_dir().join(format!("routesim-cli-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(std::ffi::OsStr::from_bytes(b"\xff.json"));
    std::fs::write(&path, r#"{"topology":"mesh:2x2","packets":[[0,3]]}"#).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args(["run", "--json", "--instance"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("\"delivered\":1"));
    std::fs::remove_dir_all(&dir).unwrap();
    for value in ["0", "99999999999"] {
        let out = routesim(&["load", "--topology", "mesh:4x4", "--rate", "0.1", "--measure", value]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!(
                "invalid measure '{value}': expected a whole number from 1 to 4294967295"
            )),
            "{err}"
        );
    }
    let run = [
        "run",
        "--topology",
        "mesh:4x4",
        "--workload",
        "transpose",
        "--memory-limit",
    ];
    let out = routesim(&[&run[..], &["1.5"]].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("invalid memory-limit '1.5'"));
    assert_eq!(
        routesim(&[&run[..], &["18446744073709551615"]].concat()).status.code(),
        Some(0)
    );
}
