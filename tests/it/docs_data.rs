//! The committed data under `docs/data/` are what the commands beside them
//! print today. Each script (or the command docs/ gives) is run at its
//! smallest sizes into a directory of its own with this build's CLI
//! (`ROUTESIM`), and every row it writes must stand, to the letter, in the
//! committed CSV, header included. A change that alters a documented figure
//! — even a column no figure plots — fails here until the data are made
//! again with their command. (An audit found seven CSVs whose
//! `latency_mean` predated a change of that column's definition.)

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A command (`OUT` stands for its output directory) and the files it
/// writes there, each with the committed CSV it must be a part of.
struct Case {
    command: &'static [&'static str],
    outputs: &'static [(&'static str, &'static str)],
}

const BIN: &str = "BIN";

const CASES: &[Case] = &[
    Case {
        command: &["bash", "scripts/ks_level_sweep.sh", "OUT", "16", "1..2"],
        outputs: &[("ks-level.csv", "ks-level.csv"), ("ks-local.csv", "ks-local.csv")],
    },
    Case {
        command: &["bash", "scripts/ks_nol_sweep.sh", "OUT", "16", "1..2"],
        outputs: &[("ks-nol.csv", "ks-nol.csv")],
    },
    Case {
        command: &["bash", "scripts/smear_table.sh", "OUT", "16", "2,4", "1..2"],
        outputs: &[
            ("smear-off.csv", "smear-off.csv"),
            ("smear-1.csv", "smear-1.csv"),
            ("smear-auto.csv", "smear-auto.csv"),
        ],
    },
    Case {
        command: &["bash", "scripts/pp_sweep.sh", "OUT/pp-routing.csv", "16"],
        outputs: &[("pp-routing.csv", "pp-routing.csv")],
    },
    Case {
        command: &["bash", "scripts/lmrr_sweep.sh", "OUT/lmrr.csv", "8", "4", "1"],
        outputs: &[("lmrr.csv", "lmrr.csv")],
    },
    Case {
        command: &["bash", "scripts/ks_linear_sweep.sh", "OUT", "32", "1..2"],
        outputs: &[
            ("ks-linear.csv", "ks-linear.csv"),
            ("ks-linear-worms.csv", "ks-linear-worms.csv"),
        ],
    },
    Case {
        command: &["bash", "scripts/load_sweep.sh", "OUT/load.csv", "0.05,0.3"],
        outputs: &[("load.csv", "load.csv")],
    },
    // docs/algorithms/permutation-routing.md's command, at its smallest side.
    Case {
        command: &[
            BIN,
            "sweep",
            "--topology",
            "mesh:{n}x{n}",
            "--n",
            "8",
            "--algorithm",
            "greedy,rand-interval,sort-route,offline,valiant",
            "--workload",
            "random-permutation,transpose,bit-reversal,point-reflection",
            "--seeds",
            "1..3",
            "--out",
            "OUT/permutation-routing.csv",
        ],
        outputs: &[("permutation-routing.csv", "permutation-routing.csv")],
    },
];

/// The 2-D part of `scripts/ks_sweep.sh` at side 16 (its 3-D part has
/// fixed sides 8, 12 and 16, too slow for a test: checked by the script).
const KS_SWEEP: &[(&str, &str)] = &[("mesh", "ks-mesh.csv"), ("torus", "ks-torus.csv")];

fn out_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("routesim-docs-data-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(command: &[&str], out: &Path) {
    let bin = env!("CARGO_BIN_EXE_routesim");
    let args: Vec<String> = command
        .iter()
        .map(|a| match *a {
            BIN => bin.to_string(),
            a => a.replace("OUT", out.to_str().unwrap()),
        })
        .collect();
    let output = Command::new(&args[0])
        .args(&args[1..])
        .current_dir(ROOT)
        .env("ROUTESIM", bin)
        .output()
        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    assert!(
        output.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every line of `made` (at least one row) stands in `committed`, whose
/// header it shares.
fn assert_part_of(made: &Path, committed: &str) {
    let made_text = std::fs::read_to_string(made).unwrap_or_else(|e| panic!("{}: {e}", made.display()));
    let path = Path::new(ROOT).join("docs/data").join(committed);
    let committed_text = std::fs::read_to_string(&path).unwrap();
    let mut made_lines = made_text.lines();
    let header = made_lines.next().expect("a header");
    assert_eq!(
        committed_text.lines().next(),
        Some(header),
        "docs/data/{committed}: the header differs from what its command writes"
    );
    let rows: HashSet<&str> = committed_text.lines().skip(1).collect();
    let mut checked = 0;
    let mut stale = Vec::new();
    for line in made_lines {
        checked += 1;
        if !rows.contains(line) {
            stale.push(line);
        }
    }
    assert!(checked > 0, "{}: no rows", made.display());
    assert!(
        stale.is_empty(),
        "docs/data/{committed}: {} of {checked} rows its command writes today are not in it \
         (make it again with the command beside it in docs/); the first:\n{}",
        stale.len(),
        stale[0]
    );
}

#[test]
fn the_committed_sweeps_are_what_their_commands_write_today() {
    for (i, case) in CASES.iter().enumerate() {
        let out = out_dir(&i.to_string());
        run(case.command, &out);
        for (made, committed) in case.outputs {
            assert_part_of(&out.join(made), committed);
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

#[test]
fn the_committed_kaufmann_sibeyn_tables_are_what_their_sweep_writes_today() {
    // scripts/ks_sweep.sh's 2-D sweeps, as it writes them, at side 16.
    let script = std::fs::read_to_string(Path::new(ROOT).join("scripts/ks_sweep.sh")).unwrap();
    assert!(
        script.contains("--algorithm ks-nowrap,ks-wrap,greedy")
            && script.contains("--workload random-kk,large-shift,point-reflection --k 2,4,8,16"),
        "scripts/ks_sweep.sh changed: change this test with it"
    );
    let out = out_dir("ks");
    for (kind, committed) in KS_SWEEP {
        let file = format!("OUT/{committed}");
        let topology = format!("{kind}:{{n}}x{{n}}");
        let command = [
            BIN,
            "sweep",
            "--topology",
            &topology,
            "--n",
            "16",
            "--algorithm",
            "ks-nowrap,ks-wrap,greedy",
            "--workload",
            "random-kk,large-shift,point-reflection",
            "--k",
            "2,4,8,16",
            "--seeds",
            "1..2",
            "--out",
            &file,
        ];
        run(&command, &out);
        assert_part_of(&out.join(committed), committed);
    }
    let _ = std::fs::remove_dir_all(&out);
}
