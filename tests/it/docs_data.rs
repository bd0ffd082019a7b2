//! The committed data under `docs/data/` are what the commands beside them
//! print today. Each script (or the command docs/ gives) is run at its
//! smallest sizes into a directory of its own with this build's CLI
//! (`ROUTESIM`), and every row it writes must stand, to the letter, in the
//! committed CSV, header included. A change that alters a documented figure
//! — even a column no figure plots — fails here until the data are made
//! again with their command. (An audit found eleven CSVs whose
//! `latency_mean` predated a change of that column's definition.)

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A command (`OUT` stands for its output directory, `BIN` for the CLI)
/// and the files it writes there, each named as the committed CSV it must
/// be a part of.
struct Case {
    command: &'static [&'static str],
    outputs: &'static [&'static str],
}

const BIN: &str = "BIN";

const CASES: &[Case] = &[
    Case {
        command: &["bash", "scripts/ks_level_sweep.sh", "OUT", "16", "1..2"],
        outputs: &["ks-level.csv", "ks-local.csv"],
    },
    Case {
        command: &["bash", "scripts/ks_nol_sweep.sh", "OUT", "16", "1..2"],
        outputs: &["ks-nol.csv"],
    },
    Case {
        command: &["bash", "scripts/smear_table.sh", "OUT", "16", "2,4", "1..2"],
        outputs: &["smear-off.csv", "smear-1.csv", "smear-auto.csv"],
    },
    Case {
        command: &["bash", "scripts/pp_sweep.sh", "OUT/pp-routing.csv", "16"],
        outputs: &["pp-routing.csv"],
    },
    Case {
        command: &["bash", "scripts/lmrr_sweep.sh", "OUT/lmrr.csv", "8", "4", "1"],
        outputs: &["lmrr.csv"],
    },
    Case {
        command: &["bash", "scripts/ks_linear_sweep.sh", "OUT", "32", "1..2"],
        outputs: &["ks-linear.csv", "ks-linear-worms.csv"],
    },
    Case {
        command: &["bash", "scripts/load_sweep.sh", "OUT/load.csv", "0.05,0.3"],
        outputs: &["load.csv"],
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
        outputs: &["permutation-routing.csv"],
    },
    // scripts/ks_sweep.sh's 2-D sweeps at side 16 (its 3-D part has fixed
    // sides 8, 12 and 16, too slow for a test); `KS_SWEEP_OPTIONS` ties
    // them to the script.
    Case {
        command: &[
            BIN,
            "sweep",
            "--topology",
            "mesh:{n}x{n}",
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
            "OUT/ks-mesh.csv",
        ],
        outputs: &["ks-mesh.csv"],
    },
    Case {
        command: &[
            BIN,
            "sweep",
            "--topology",
            "torus:{n}x{n}",
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
            "OUT/ks-torus.csv",
        ],
        outputs: &["ks-torus.csv"],
    },
];

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
        for file in case.outputs {
            assert_part_of(&out.join(file), file);
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// The options the ks_sweep.sh cases above copy, as the script writes them.
const KS_SWEEP_OPTIONS: &[&str] = &[
    "--algorithm ks-nowrap,ks-wrap,greedy",
    "--workload random-kk,large-shift,point-reflection --k 2,4,8,16",
];

#[test]
fn the_ks_sweep_cases_copy_the_script() {
    let script = std::fs::read_to_string(Path::new(ROOT).join("scripts/ks_sweep.sh")).unwrap();
    for options in KS_SWEEP_OPTIONS {
        assert!(
            script.contains(options),
            "scripts/ks_sweep.sh no longer has {options:?}: change CASES with it"
        );
    }
}
