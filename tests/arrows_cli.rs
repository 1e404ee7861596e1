//! `nimseq arrows ...` as a user runs it.

use crate::common::nimseq;

fn value_of_the_papers_counterexample() {
    let o = nimseq()
        .args(["arrows", "value", "spider:1,3,7"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    // Theorem 7.1(b): g(S(1,3,7)) = 0 with m = 11, a parity-conjecture violator.
    assert!(text.contains("markable     11"), "{text}");
    assert!(text.contains("value        0"), "{text}");
    assert!(text.contains("parity conj. FAILS"), "{text}");
    // docs/arrows.md, published values: the Z7 moves (the last markable edge of the longest leg)
    // have value 8.
    assert!(text.contains("12->13=8 13->12=8"), "{text}");
    let o = nimseq()
        .args(["arrows", "value", "H:3,1/3/4,1", "--format", "json"])
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (json["g"].as_u64(), json["m"].as_u64()),
        (Some(2), Some(12))
    );
}

/// Bad trees and flags: exit code 2, the problem named, no panic, in seconds and little memory
/// (no edge list is built for a tree over the vertex limit).
fn bad_trees_get_one_line_and_exit_code_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["0-1,1-2,2-0"], "closes a cycle"),
        (&["0-1,2-3"], "not connected"),
        (&["0-1,0-1"], "appears twice"),
        (&["0-x"], "not a vertex number"),
        (&["spider:1,0,2"], "at least 1 markable edge"),
        (&["path:18446744073709551615"], "more than 65536 vertices"),
        (&["path:100000000000"], "more than 65536 vertices"),
        (&["spider:1,1,3000000000"], "more than 65536 vertices"),
        (
            &["spider:1,1,18446744073709551615"],
            "more than 65536 vertices",
        ),
        (
            &["H:1,1/18446744073709551615/1,1"],
            "more than 65536 vertices",
        ),
        (&["0-18446744073709551615"], "more than 65536 vertices"),
        (
            &["path:5", "--backend", "gpu"],
            "possible values: auto, reference, cpu",
        ),
        (&[], "<TREE>"),
    ];
    for (args, naming) in cases {
        let mut all = vec!["arrows", "value"];
        all.extend_from_slice(args);
        crate::common::refused(&all, naming);
    }
    crate::common::refused(&["arrows", "census", "--backend", "gpu"], "possible values");
}

/// A normal-form memo past `--mem-budget` stops the run with one line and exit code 2; the same
/// tree within the default budget is valued.
fn value_over_the_memory_budget() {
    let run = |extra: &[&str]| {
        nimseq()
            .args(["arrows", "value", "H:2,3/4/3,4"])
            .args(extra)
            .output()
            .unwrap()
    };
    let o = run(&["--mem-budget", "1K"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("passed the memory budget of 1.0 KiB"), "{err}");
    let o = run(&[]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("value        0"));
}

/// The fast solvers (spider states for the spider, the normal form for the other tree) and the
/// raw rules print the same value and first moves, and say which solver ran.
fn fast_solvers_match_the_raw_rules() {
    for tree in ["spider:1,4,6", "0-1,1-2,2-3,2-4,4-5,5-6,1-7,7-8,8-9"] {
        let run = |backend: &str| {
            let o = nimseq()
                .args(["arrows", "value", tree, "--backend", backend])
                .args(["--format", "json"])
                .output()
                .unwrap();
            assert!(o.status.success(), "{tree} {backend}");
            let mut json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            let fields = json.as_object_mut().unwrap();
            fields.remove("pieces");
            let solver = fields.remove("solver").unwrap();
            (json, solver)
        };
        let (fast, solver) = run("cpu");
        let (raw, raw_solver) = run("reference");
        assert_eq!(fast, raw, "{tree}");
        let want = if tree.starts_with("spider") {
            "spider states"
        } else {
            "normal form"
        };
        assert_eq!(
            (solver.as_str(), raw_solver.as_str()),
            (Some(want), Some("raw rules"))
        );
    }
}

/// Census rows of docs/arrows.md, published values (A000055 counts, values, violators) through the
/// CLI.
fn census_rows() {
    let o = nimseq()
        .args(["arrows", "census", "--n-max", "15", "--list-violators"])
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = json["rows"].as_array().unwrap();
    let trees: Vec<u64> = rows.iter().map(|r| r["trees"].as_u64().unwrap()).collect();
    assert_eq!(
        trees,
        [
            1, 1, 1, 2, 3, 6, 11, 23, 47, 106, 235, 551, 1301, 3159, 7741
        ]
    );
    let n15 = &rows[14];
    assert_eq!(n15["by_value"]["0"], 3887);
    assert_eq!(n15["by_value"]["1"], 3854);
    assert_eq!(n15["violator_trees"].as_array().unwrap().len(), 2);
    // Both violators have g = 0 (and m = 11).
    assert_eq!(n15["violators"], 2);
    assert_eq!(n15["violators_by_value"]["0"], 2);
    let o = nimseq()
        .args(["arrows", "census", "--n-max", "12"])
        .output()
        .unwrap();
    // Long rows: n, a value that occurs, its trees, the violators among them.
    let csv = String::from_utf8_lossy(&o.stdout);
    assert!(csv.starts_with("n,g,trees,violators\n1,0,1,0\n"), "{csv}");
    assert!(csv.contains("\n12,0,273,0\n12,1,278,0\n"), "{csv}");
    assert!(csv.ends_with("\n12,1,278,0\n"), "{csv}");
    let table = nimseq()
        .args(["arrows", "census", "--n-max", "12", "--layout", "table"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(table.starts_with("n,trees,g=0,g=1,violators\n"), "{table}");
    assert!(table.contains("\n12,551,273,278,0\n"), "{table}");
    // The raw rules on every tree give the same rows.
    let raw = nimseq()
        .args([
            "arrows",
            "census",
            "--n-max",
            "12",
            "--backend",
            "reference",
        ])
        .output()
        .unwrap();
    assert!(raw.status.success());
    assert_eq!(raw.stdout, o.stdout);
    // Over the budget: one line, exit code 2.
    let o = nimseq()
        .args(["arrows", "census", "--n-max", "30", "--mem-budget", "1M"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("over the memory budget"));
}

/// All 3-leg spiders with legs <= 9: rows, and the summary's smallest spider per value; the
/// same rows from every backend (the GPU's only where an adapter exists).
fn spiders_rows_and_summary() {
    let rows = |backend: &str| {
        let o = nimseq()
            .args(["arrows", "spiders", "--leg-max", "9", "--backend", backend])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        o
    };
    let o = rows("cpu");
    assert_eq!(rows("reference").stdout, o.stdout);
    if crate::common::gpu().is_some() {
        assert_eq!(rows("gpu").stdout, o.stdout);
    }
    let csv = String::from_utf8_lossy(&o.stdout);
    assert!(csv.starts_with("x1,x2,x3,g\n1,1,1,1\n"), "{csv}");
    assert_eq!(csv.lines().count(), 1 + 165);
    assert!(
        csv.contains("\n1,3,7,0\n") && csv.contains("\n3,4,7,2\n"),
        "{csv}"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("smallest S(2,3,9)"), "{err}");
    // One spider is a spider: S(2,3,9) is the only one of value 3 with legs <= 9.
    assert!(
        err.contains("g = 3           1 spider, smallest S(2,3,9)"),
        "{err}"
    );
    let o = nimseq()
        .args([
            "arrows",
            "spiders",
            "--leg-max",
            "500",
            "--mem-budget",
            "1M",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// NIMSEQ_GPU_MAX_BINDING spreads the spider table over many bindings, said on stderr, with
/// the CPU's rows; a table over what the lowered bindings hold is refused in one line, exit 2.
fn lowered_bindings_split_or_refuse_spider_tables() {
    if crate::common::gpu_binding(32).is_none() {
        return;
    }
    let spiders = |backend: &str, binding: &str| {
        nimseq()
            .args(["arrows", "spiders", "--leg-max", "20", "--backend", backend])
            .env("NIMSEQ_GPU_MAX_BINDING", binding)
            .output()
            .unwrap()
    };
    let cpu = spiders("cpu", "5K");
    let gpu = spiders("gpu", "5K");
    let err = String::from_utf8_lossy(&gpu.stderr);
    assert!(gpu.status.success(), "{err}");
    assert!(err.contains("table in 27 bindings of 5.0 KiB"), "{err}");
    assert_eq!(gpu.stdout, cpu.stdout);
    let mut refused = nimseq();
    refused
        .args(["arrows", "spiders", "--leg-max", "20", "--backend", "gpu"])
        .env("NIMSEQ_GPU_MAX_BINDING", "256");
    let error = crate::common::refused_by(refused, "storage bindings");
    assert!(
        error.starts_with("error: the table of 3-leg spiders with legs <= 20 at 8 bits needs")
            && error.contains(" storage bindings of 256.0 B); legs <= ")
            && error.ends_with(" fit; use --backend cpu"),
        "{error}"
    );
}

/// S(2,3,z): the published first values and Theorem 8.1's z mod 2 from z = 14, labelled observed.
fn family_of_spiders() {
    let o = nimseq()
        .args(["arrows", "family", "--x", "2", "--y", "3", "--z-max", "60"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let values: Vec<u16> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        values[..20],
        [0, 1, 0, 1, 0, 1, 0, 0, 3, 2, 2, 1, 0, 0, 1, 0, 1, 0, 1, 0]
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("g = z mod 2 from z = 14 observed for z <= 60 (not proven)"),
        "{err}"
    ); // Legs past 10,000 would not fit the 16-bit states: refused, not wrapped.
    let o = nimseq()
        .args([
            "arrows", "family", "--x", "2", "--y", "3", "--z-max", "20000",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// `bench arrows` in rounds: one row per backend, the same table from both.
fn bench_keeps_the_fastest_of_its_rounds() {
    let o = nimseq()
        .args([
            "bench",
            "arrows",
            "--leg-max",
            "8",
            "--reference",
            "--no-gpu",
            "--repeat",
            "2",
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(out.lines().filter(|l| l.starts_with("cpu (")).count(), 1);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("reference")).count(),
        1
    );
    assert!(!out.contains("DIFFERS"), "{out}");
    assert!(out.contains("checksum line: spiders=120 "), "{out}");
}

/// A spider table killed partway (SIGKILL) and resumed from its checkpoint prints what an
/// uninterrupted run prints, byte for byte.
fn killed_spider_table_resumes_byte_identical() {
    let args = ["arrows", "spiders", "--leg-max", "80", "--backend", "cpu"];
    let whole = nimseq().args(args).output().unwrap();
    assert!(whole.status.success());
    let resumed = crate::common::killed_then_resumed(&args, &[1 << 20]);
    assert_eq!(resumed, whole.stdout);
}

/// A tree with no markable edge has no move: the player to move loses, and says so.
fn a_tree_without_moves_says_the_player_to_move_loses() {
    let o = nimseq()
        .args(["arrows", "value", "path:2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    assert!(
        text.contains("winning      none: the player to move has no move, and loses"),
        "{text}"
    );
}

/// A loop of the spider kernel forced past llvmpipe's limit (the loop-spin hook): an error
/// naming the adapter, never a row.
fn a_cut_loop_is_an_error_never_a_row() {
    crate::common::forced_cut(&["arrows", "spiders", "--leg-max", "8"], "arrows", None);
}

/// A spider's work is said before it starts, as the closed form counts it: S(1,1,1) by hand
/// (centre n with legs 3,3,3; i and o with one leg detached), and S(1000,1000,1), a minute or
/// more of work, names its 24 billion option values at once (then is killed).
fn a_spiders_work_is_said_up_front() {
    let o = nimseq()
        .args(["arrows", "value", "spider:1,1,1"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let said = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        said.trim(),
        "spider states: 7 states, 30 option values to read"
    );
    let start = std::time::Instant::now();
    let mut long = nimseq()
        .args(["arrows", "value", "spider:1000,1000,1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let read = std::io::BufRead::read_line(
        &mut std::io::BufReader::new(long.stderr.take().unwrap()),
        &mut line,
    );
    let waited = start.elapsed();
    long.kill().unwrap();
    long.wait().unwrap();
    read.unwrap();
    assert_eq!(
        line.trim(),
        "spider states: 11995999 states, 23980035990 option values to read"
    );
    assert!(waited.as_secs_f64() < 5.0, "said after {waited:?}");
}

trials!(
    a_spiders_work_is_said_up_front,
    a_cut_loop_is_an_error_never_a_row,
    a_tree_without_moves_says_the_player_to_move_loses,
    killed_spider_table_resumes_byte_identical,
    value_of_the_papers_counterexample,
    bad_trees_get_one_line_and_exit_code_2,
    value_over_the_memory_budget,
    fast_solvers_match_the_raw_rules,
    census_rows,
    spiders_rows_and_summary,
    lowered_bindings_split_or_refuse_spider_tables,
    family_of_spiders,
    bench_keeps_the_fastest_of_its_rounds,
);
