//! `nimseq kcross ...` as a user runs it.

use crate::common::{gpu, nimseq};

/// Runs nimseq, asserting success; returns (stdout, stderr).
fn run(args: &[&str]) -> (String, String) {
    let o = nimseq().args(args).output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(o.status.success(), "{args:?}: {err}");
    (out, err)
}

/// The values (last) column of a CSV of one series (`k,n,g` rows, or the matrix `n,k=..`).
fn column(csv: &str) -> Vec<u8> {
    csv.lines()
        .skip(1)
        .map(|l| l.split(',').next_back().unwrap().parse().unwrap())
        .collect()
}

/// A position with no legal move says so.
fn a_position_without_moves_says_the_player_to_move_loses() {
    let (text, _) = run(&["kcross", "value", "[X1X]", "--k", "3", "--backend", "cpu"]);
    assert!(text.contains("value        0"), "{text}");
    assert!(
        text.contains("winning      none: the player to move has no move, and loses"),
        "{text}"
    );
}

/// `WGPU_ADAPTER_NAME` naming no adapter is an error listing those found, under `auto` too.
fn an_adapter_name_that_matches_none_is_refused() {
    for backend in ["gpu", "auto"] {
        let mut refused = nimseq();
        refused
            .args("kcross seq --k 3 --n-max 5 --backend".split(' '))
            .arg(backend)
            .env("WGPU_ADAPTER_NAME", "no such adapter");
        crate::common::refused_by(
            refused,
            "WGPU_ADAPTER_NAME: no adapter named like 'no such adapter'; found: ",
        );
    }
}

fn value_and_winning_moves() {
    let (text, _) = run(&["kcross", "value", "[1X3]", "--k", "3", "--backend", "cpu"]);
    // The paper's Table 5.1: G([1X3]) = 3.
    assert!(text.contains("value        3"), "{text}");
    assert!(text.contains("winning      [XX3] [1X1X1]"), "{text}");
    assert!(text.contains("components   (0,1,0,0,0) = 3"), "{text}");
    // The raw rules say the same.
    let (raw, _) = run(&[
        "kcross",
        "value",
        "[1X3]",
        "--k",
        "3",
        "--backend",
        "reference",
    ]);
    assert_eq!(raw, text);
    let (text, _) = run(&["kcross", "value", "(21)", "--k", "3", "--backend", "cpu"]);
    assert!(text.contains("value        0"), "{text}");
    // Past the raw rules' 40 cells; the dead cells cut it into parts the table holds.
    let (text, _) = run(&[
        "kcross",
        "value",
        "[20X20XX30]",
        "--k",
        "3",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["board"], "[20X20XX30]");
    assert_eq!(json["components"].as_array().unwrap().len(), 2, "{text}");
}

fn seq_matches_theorem_1_1_and_a002187() {
    // n <= 50 takes a minute on two cores: BENCHMARKS.md has it.
    let (csv, err) = run(&[
        "kcross",
        "seq",
        "--k",
        "3",
        "--n-max",
        "40",
        "--backend",
        "cpu",
    ]);
    assert!(csv.starts_with("k,n,g\n3,0,0\n3,1,1\n"), "{csv}");
    let want: Vec<u8> = (0..=40)
        .map(|n| u8::from(![0, 2, 3, 6, 9].contains(&(n % 10))))
        .collect();
    assert_eq!(column(&csv), want);
    assert!(
        err.contains("period 10 from n = 0 observed for n <= 40 (4.1 repeats, not proven)"),
        "{err}"
    );
    // One sequence as a b-file: the same values as lines "n g".
    let (bfile, _) = run(&[
        "kcross", "seq", "--k", "3", "--n-max", "40", "--format", "bfile",
    ]);
    let lines: Vec<String> = want
        .iter()
        .enumerate()
        .map(|(n, g)| format!("{n} {g}"))
        .collect();
    assert_eq!(bfile, lines.join("\n") + "\n");
    // Five zeros after twenty irregular values are no period: G((25)) = 1.
    let (_, err) = run(&["kcross", "ring", "--k", "3", "--l-max", "24"]);
    assert!(
        err.contains("G((l)) k=3: no period observed for l <= 24 (not proven)"),
        "{err}"
    );
    let (json, _) = run(&[
        "kcross", "seq", "--k", "2", "--n-max", "51", "--format", "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let a002187: Vec<u64> = vec![
        0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
        5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
    ];
    // Long rows by default: [k, n, g].
    assert_eq!(json["columns"], serde_json::json!(["k", "n", "g"]));
    let got: Vec<u64> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| row[2].as_u64().unwrap())
        .collect();
    assert_eq!(got, a002187);
    assert!(json["note"].as_str().unwrap().contains("not proven"));
    // The matrix layout: each series with its values.
    let (json, _) = run(&[
        "kcross", "seq", "--k", "2", "--n-max", "51", "--format", "json", "--layout", "table",
    ]);
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    let got: Vec<u64> = json["series"][0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(got, a002187);
}

fn single_ring_and_table_layouts() {
    let single = [
        "kcross", "single", "--k", "3", "--a-max", "1", "--b-max", "15",
    ];
    let (long, _) = run(&single);
    assert!(long.starts_with("k,a,b,g\n3,0,0,0\n3,0,1,1\n"), "{long}");
    assert!(long.ends_with("\n3,1,15,2\n"), "{long}");
    let (csv, _) = run(&[&single[..], &["--layout", "table"]].concat());
    assert_eq!(
        csv,
        "a,b=0,b=1,b=2,b=3,b=4,b=5,b=6,b=7,b=8,b=9,b=10,b=11,b=12,b=13,b=14,b=15\n\
         0,0,1,1,0,3,1,0,0,1,2,0,1,1,0,3,1\n\
         1,1,1,2,3,1,2,3,3,2,3,3,2,2,3,2,2\n"
    );
    let (rings, _) = run(&["kcross", "ring", "--k", "3", "--l-max", "21"]);
    let rings = column(&rings);
    assert_eq!(
        (rings[11], rings[21]),
        (1, 0),
        "the paper's G((11)), G((21))"
    );
    let (raw, _) = run(&[
        "kcross",
        "ring",
        "--k",
        "3",
        "--l-max",
        "14",
        "--backend",
        "reference",
    ]);
    assert_eq!(column(&raw), rings[..=14]);
    let (table, _) = run(&[
        "kcross", "table", "--k-min", "3", "--k-max", "4", "--n-max", "25", "--layout", "table",
    ]);
    assert!(table.starts_with("n,k=3,k=4\n"), "{table}");
    let k4: Vec<u8> = table
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        k4,
        [
            0, 1, 0, 1, 1, 0, 2, 1, 0, 1, 2, 0, 1, 1, 0, 1, 0, 0, 1, 2, 0, 1, 0, 3, 1, 2
        ],
        "Table 5.2, k = 4"
    );
}

/// Tables of several k built side by side (where all of them fit the budget) or one after the
/// other (where only one at a time does) give the same values.
fn tables_side_by_side_match_one_at_a_time() {
    let args = [
        "kcross",
        "table",
        "--k-min",
        "3",
        "--k-max",
        "6",
        "--n-max",
        "16",
        "--backend",
        "cpu",
    ];
    let (together, err) = run(&args);
    assert!(
        err.contains("tables of k = 3..6 built side by side"),
        "{err}"
    );
    // 145 KiB for the four tables at 8 bits, 78 KiB for the largest alone.
    let (apart, err) = run(&[&args[..], &["--mem-budget", "100K"]].concat());
    assert!(!err.contains("side by side"), "{err}");
    assert_eq!(together, apart);
    assert!(together.starts_with("k,n,g\n3,0,0\n"), "{together}");
    assert_eq!(together.lines().count(), 1 + 4 * 17);
}

/// The GPU backend prints what the CPU backend prints.
fn gpu_backend_matches_cpu() {
    if gpu().is_none() {
        return;
    }
    for args in [
        &[
            "kcross", "table", "--k-min", "2", "--k-max", "6", "--n-max", "16",
        ][..],
        &["kcross", "ring", "--k", "4", "--l-max", "16"],
    ] {
        let (cpu, _) = run(&[args, &["--backend", "cpu"]].concat());
        let (gpu, err) = run(&[args, &["--backend", "gpu"]].concat());
        assert!(err.contains("backend: gpu"), "{err}");
        assert_eq!(gpu, cpu, "{args:?}");
    }
}

/// NIMSEQ_GPU_MAX_BINDING spreads a table over many bindings, said on stderr, with the same
/// output; a table over what the lowered bindings hold is refused in one line, exit code 2,
/// naming the largest n that fits.
fn lowered_bindings_split_or_refuse_tables() {
    if gpu().is_none() {
        return;
    }
    let args = ["kcross", "seq", "--k", "3", "--n-max", "30", "--backend"];
    let (cpu, _) = run(&[&args[..], &["cpu"]].concat());
    let o = nimseq()
        .args([&args[..], &["gpu"]].concat())
        .env("NIMSEQ_GPU_MAX_BINDING", "16K")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("table in 13 bindings of 16.0 KiB"), "{err}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), cpu);
    let mut refused = nimseq();
    refused
        .args([
            "kcross",
            "seq",
            "--k",
            "8",
            "--n-max",
            "20",
            "--backend",
            "gpu",
        ])
        .env("NIMSEQ_GPU_MAX_BINDING", "1K");
    // The binding count is the adapter's.
    let error = crate::common::refused_by(refused, "storage bindings");
    assert!(
        error.starts_with("error: the k-cross table for k = 8, n <= 20 at 4 bits needs")
            && error.contains(" storage bindings of 1.0 KiB); n <= ")
            && error.ends_with(" fits; use --backend cpu"),
        "{error}"
    );
}

/// `bench kcross` in rounds: one row per backend, the same values from both (k = 4 is the
/// Table 5.2's column (docs/kcross.md)).
fn bench_keeps_the_fastest_of_its_rounds() {
    let (out, _) = run(&[
        "bench",
        "kcross",
        "--k",
        "4",
        "--n-max",
        "12",
        "--reference",
        "--no-gpu",
        "--repeat",
        "2",
    ]);
    assert_eq!(out.lines().filter(|l| l.starts_with("cpu (")).count(), 1);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("reference")).count(),
        1
    );
    assert!(!out.contains("DIFFERS"), "{out}");
    assert!(
        out.contains("checksum line: k=4 G([0..=12])=0,1,0,1,1,0,2,1,0,1,2,0,1"),
        "{out}"
    );
}

/// Bad input: exit code 2, the problem named, no panic, in seconds and little memory.
fn bad_input_gets_one_line_and_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["kcross", "value", "[3X", "--k", "3"], "ends with ']'"),
        (&["kcross", "value", "[2Y4]", "--k", "3"], "unexpected 'Y'"),
        (&["kcross", "value", "[X-1]", "--k", "3"], "unexpected '-'"),
        (&["kcross", "value", "[XXX2]", "--k", "3"], "run of 3"),
        (&["kcross", "value", "[5]", "--k", "1"], "k must be"),
        (&["kcross", "value", "[3X4]"], "--k <K>"),
        (&["kcross", "seq", "--k", "1"], "k must be"),
        (
            &["bench", "kcross", "--k", "4", "--repeat", "0"],
            "--repeat",
        ),
        (
            &["kcross", "value", "[70]", "--k", "3"],
            "limit of the component table (backends cpu and gpu): 63 cells",
        ),
        // A long board is refused at once (valuing it is quadratic in its length).
        (
            &["kcross", "value", "[80000]", "--k", "3"],
            "more than 4096 cells",
        ),
        (
            &["kcross", "value", "[4096]", "--k", "3"],
            "limit of the component table (backends cpu and gpu): 63 cells",
        ),
        (
            &[
                "kcross",
                "value",
                "[41]",
                "--k",
                "3",
                "--backend",
                "reference",
            ],
            "limit of the raw rules (backend reference): 40 cells",
        ),
        (
            &[
                "kcross",
                "seq",
                "--k",
                "13",
                "--n-max",
                "40",
                "--mem-budget",
                "1G",
            ],
            "the table of k = 13 up to n = 40",
        ),
        (
            &["kcross", "seq", "--k", "3", "--mem-budget", "12Q"],
            "size",
        ),
        (
            &["kcross", "table", "--k-min", "5", "--k-max", "3"],
            "above --k-max",
        ),
        (
            &["kcross", "seq", "--k", "3", "--layout", "wide"],
            "possible values: long, table",
        ),
        (
            &[
                "kcross",
                "seq",
                "--k",
                "3",
                "--checkpoint",
                "x",
                "--backend",
                "gpu",
            ],
            "--checkpoint is written by the CPU path",
        ),
        (&["kcross", "seq", "--k", "3", "--resume"], "--checkpoint"),
    ];
    for (args, naming) in cases {
        crate::common::refused(args, naming);
    }
}

/// A table killed partway (SIGKILL) and resumed from its checkpoint prints what an
/// uninterrupted run prints, byte for byte; a checkpoint of another table is refused in words.
fn killed_table_resumes_byte_identical() {
    let args = [
        "kcross",
        "seq",
        "--k",
        "3",
        "--n-max",
        "42",
        "--backend",
        "cpu",
    ];
    let (whole, _) = run(&args);
    // 2 MB of the table's 19 MB: the last levels, the largest, are still to come.
    let resumed = crate::common::killed_then_resumed(&args, &[2 << 20]);
    assert_eq!(String::from_utf8(resumed).unwrap(), whole);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k3.ckpt");
    let file = file.to_str().unwrap();
    let small = [
        "kcross",
        "seq",
        "--k",
        "3",
        "--n-max",
        "12",
        "--checkpoint",
        file,
    ];
    // An interrupted run leaves the file; a fresh start over it is refused.
    let o = nimseq().args(small).arg("--resume").output().unwrap();
    assert!(o.status.success());
    std::fs::write(file, b"NIMSEQTC").unwrap();
    crate::common::refused(&small, "add --resume to continue it");
    crate::common::refused(
        &[&small[..], &["--resume"]].concat(),
        "not a nimseq table checkpoint",
    );
}

/// A loop of the k-cross kernel forced past llvmpipe's limit (the loop-spin hook): an error
/// naming the adapter, never a value.
fn a_cut_loop_is_an_error_never_a_row() {
    crate::common::forced_cut(
        &["kcross", "seq", "--k", "3", "--n-max", "20"],
        "kcross",
        None,
    );
}

trials!(
    a_cut_loop_is_an_error_never_a_row,
    a_position_without_moves_says_the_player_to_move_loses,
    an_adapter_name_that_matches_none_is_refused,
    killed_table_resumes_byte_identical,
    value_and_winning_moves,
    seq_matches_theorem_1_1_and_a002187,
    single_ring_and_table_layouts,
    tables_side_by_side_match_one_at_a_time,
    gpu_backend_matches_cpu,
    lowered_bindings_split_or_refuse_tables,
    bench_keeps_the_fastest_of_its_rounds,
    bad_input_gets_one_line_and_exit_code_2,
);
