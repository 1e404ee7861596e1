//! `nimseq sub ...` as a user runs it: output, checksums, resume, shards, bad input.

use std::fs;
use std::process::{Command, Output};

use crate::common::{gpu, nimseq, refused, run_ok};

fn run(args: &[&str]) -> Output {
    nimseq().args(args).output().expect("nimseq runs")
}

/// Runs `nimseq ARGS EXTRA --out OUT`.
fn scan_into(args: &[&str], extra: &[&str], out: &std::path::Path) -> Output {
    nimseq()
        .args(args)
        .args(extra)
        .arg("--out")
        .arg(out)
        .output()
        .expect("nimseq runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The peer's line for `sub_scan_naive 60` (tests/data/sub_scan_naive.c, cc -O2).
const PEER_60: &str = "triples=34220 purely_periodic=22895 sum_p=2252026 sum_q=2057709 max_p=1615 max_q=1394 fnv=b2c7b85d385f0350";

fn seq_prints_period_and_certificate() {
    let text = run_ok(&["sub", "seq", "3,8,13", "--len", "20"]);
    assert!(
        text.contains("period       16, pre-period 0 (purely periodic)"),
        "{text}"
    );
    assert!(
        text.contains("one period   G(0..16) = 0001110021100211"),
        "{text}"
    );
    assert!(
        text.contains("P-positions  0 1 2 6 7 11 12 16 17 18 (below 20)"),
        "{text}"
    );
    assert!(text.contains("for x in [0, 13)"), "{text}");

    let o = run(&["sub", "seq", "3,8,12", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["set"], serde_json::json!([3, 8, 12]));
    assert_eq!(json["certified"], true);
    assert_eq!(json["certificate"]["period"], 5);
    assert_eq!(json["certificate"]["preperiod"], 16);
    assert_eq!(json["certificate"]["from"], 16);
}

/// Misère play (docs/misere.md): CGSuite's values for {2,3,7} in JSON, the genus period with its
/// window, a set that is no nim heap printed with superscripts; what it refuses, in one line.
fn seq_under_misere_play() {
    let o = run(&[
        "sub", "seq", "2,3,7", "--play", "misere", "--len", "21", "--format", "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["play"], "misere");
    assert_eq!(
        json["misere_values"],
        serde_json::json!([
            1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1, 1, 0, 0, 2, 1
        ])
    );
    assert_eq!(json["genus"][4], "2");
    assert_eq!(
        json["p_positions"],
        serde_json::json!([2, 3, 7, 8, 12, 13, 17, 18])
    );
    let c = &json["certificate"];
    assert_eq!(
        (c["period"].as_u64(), c["preperiod"].as_u64()),
        (Some(5), Some(0))
    );
    assert_eq!((c["from"].as_u64(), c["to"].as_u64()), (Some(0), Some(7)));
    assert_eq!(c["misere_word"], serde_json::json!([1, 1, 0, 0, 2]));

    let text = run_ok(&["sub", "seq", "4,5", "--play", "misere", "--len", "12"]);
    assert!(
        text.contains("values       G-(0..12) = 111100002111"),
        "{text}"
    );
    assert!(
        text.contains("period       9, pre-period 0 (genus; purely periodic)"),
        "{text}"
    );
    // A heap that is no nim heap has its superscript (Dawson's Kayles: heap 10 is 3^1431).
    let text = run_ok(&["octal", "seq", "0.07", "--play", "misere", "--len", "12"]);
    assert!(
        text.contains("genus        0 0 1 1 2 0 3 1 1 0 3^1431 3"),
        "{text}"
    );

    // The survey of both plays, as JSON.
    let o = run(&[
        "sub", "survey", "--play", "misere", "--c-max", "30", "--format", "json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["sets"], 4060);
    assert_eq!(json["unsettled"], 0);
    assert_eq!(json["nim_heaps"], 4060);
    assert_eq!(json["period_differs"], 0);
    refused(
        &["sub", "survey", "--play", "misere", "--theory"],
        "writes no rows and checks no theory",
    );

    refused(
        &["sub", "seq", "2,3", "--play", "sideways"],
        "possible values: normal, misere",
    );
    // An infinite set: CGSuite's misère values of all-but {2,3,7}.
    let o = run(&[
        "sub",
        "seq",
        "--all-but",
        "2,3,7",
        "--play",
        "misere",
        "--len",
        "12",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        json["misere_values"],
        serde_json::json!([1, 0, 1, 0, 2, 3, 2, 3, 4, 5, 4, 5])
    );
    // Its period follows from the normal one (docs/subtraction.md, section 7): from n = 4.
    assert_eq!(json["certified"], true);
    assert_eq!(
        json["certificate"],
        serde_json::json!({"period": 4, "preperiod": 4, "saltus": 2})
    );
    // Positions of several heaps: misère Nim on {2,3,7}'s values 2, 0, 2 (a P-position).
    let o = run(&[
        "sub", "value", "2,3,7", "4,5,9", "--play", "misere", "--format", "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["outcome"], "P");
    assert_eq!(json["misere_values"], serde_json::json!([2, 1, 2]));
    let o = run(&[
        "octal", "value", "0.77", "3,5,8", "--play", "misere", "--format", "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["outcome"], "N");
    assert_eq!(
        json["winning_moves"],
        serde_json::json!([{"index": 1, "from": 5, "to": [1, 3]}])
    );
    assert_eq!(
        json["method"],
        serde_json::json!({"name": "quotient", "heap_max": 8, "order": 12, "p_portion": 3})
    );
    // Past the sums' bound the quotient answers; with no room for it, one line and exit 2.
    let text = run_ok(&["octal", "value", "0.07", "20,25,30,14", "--play", "misere"]);
    assert!(
        text.contains("the misère quotient of the heaps up to 30 (order 360, P-portion 65)"),
        "{text}"
    );
    refused(
        &[
            "octal",
            "value",
            "0.77",
            "40,40",
            "--play",
            "misere",
            "--mem-budget",
            "64M",
        ],
        "no quotient: it may need 1.0 GiB",
    );
    // Past the sums, a single heap's outcome comes from the quotient (Kayles' misère
    // P-positions among single heaps: 1, 4, 9, 12, 20); where there is none, one line.
    let text = run_ok(&["octal", "seq", "0.77", "--play", "misere", "--len", "300"]);
    assert!(
        text.contains("P-positions  1 4 9 12 20 (below 300)"),
        "{text}"
    );
    assert!(
        text.contains("from the misère quotient of the heaps up to 299 (order 40, P-portion 9)"),
        "{text}"
    );
    refused(
        &[
            "octal",
            "seq",
            "0.77",
            "--play",
            "misere",
            "--len",
            "100",
            "--mem-budget",
            "64M",
        ],
        "no quotient for the outcomes past them: it may need 1.0 GiB",
    );
    refused(
        &[
            "sub",
            "seq",
            "2,3",
            "--play",
            "misere",
            "--max-len",
            "4000000000",
        ],
        "over the memory budget",
    );
}

/// Computed, nothing proved: the values, `none certified`, a line on stderr, exit code 0 (the
/// rule of every command, docs/output.md); JSON says `certified: false`, the set as a list.
fn seq_says_plainly_when_no_period_is_certified() {
    let args = ["sub", "seq", "143,148,292", "--max-len", "5000"];
    let o = run(&[&args[..], &["--len", "8"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("no period of {143,148,292} certified within the first 5056 values"),
        "{err}"
    );
    let out = stdout(&o);
    assert!(out.contains("values       G(0..8) = 00000000\n"), "{out}");
    assert!(
        out.ends_with("period       none certified within G(0..5056)\n"),
        "{out}"
    );
    let o = run(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(o.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(json["set"], serde_json::json!([143, 148, 292]));
    assert_eq!(json["certified"], false);
    assert_eq!(json["computed"], 5056);
    assert_eq!(json["certificate"], serde_json::Value::Null, "{json}");
}

/// A write that fails mid-run (a file size limit, a full disk) is a failure, exit code 1 (the
/// run may be retried), never bad input (2) and never a panic.
fn write_failures_exit_1() {
    let bin = env!("CARGO_BIN_EXE_nimseq");
    let dir = tempfile::tempdir().unwrap();
    for (command, says) in [
        // SIGXFSZ ignored, as a shell with `trap '' XFSZ` has it: the write returns EFBIG.
        (
            format!("trap '' XFSZ; ulimit -f 64; exec {bin} sub scan --c-max 100 --out rows.csv"),
            "File too large",
        ),
        (
            format!(
                "trap '' XFSZ; ulimit -f 8; exec {bin} kcross seq --k 3 --n-max 30 --checkpoint ck"
            ),
            "writing checkpoint",
        ),
        (
            format!("exec {bin} octal stats 0.007 --n-max 4096 > /dev/full"),
            "No space left",
        ),
        (
            format!("exec {bin} sub seq 3,8,15 > /dev/full"),
            "No space left",
        ),
        (
            format!("exec {bin} sub scan --c-max 30 > /dev/full"),
            "No space left",
        ),
    ] {
        let out = std::process::Command::new("sh")
            .args(["-c", &command])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}: {err}");
        assert!(
            err.contains(says) && !err.contains("panicked"),
            "{command}: {err}"
        );
    }
}

/// Result files as a user names them: `--out -` is refused (it would be a file named `-`), an
/// extension in capitals names the format as in small letters, and `--c-min 3`, the least
/// there is for triples, resumes a scan started without it (the same sets).
fn out_names_and_equal_bounds() {
    let dir = tempfile::tempdir().unwrap();
    refused(
        &["sub", "scan", "--c-max", "20", "--out", "-"],
        "'-' would be a file",
    );
    let at = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    let o = run(&["sub", "scan", "--c-max", "20", "--out", &at("rows.JSONL")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(at("rows.JSONL")).unwrap();
    assert!(text.starts_with("{\"a\":1,\"b\":2,\"c\":3,"), "{text}");
    let o = run(&["sub", "scan", "--c-max", "20", "--out", &at("rows.csv")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let args = [
        "sub", "scan", "--c-max", "20", "--c-min", "3", "--a-min", "0",
    ];
    let o = run(&[&args[..], &["--out", &at("rows.csv"), "--resume"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("was finished before"), "{}", stderr(&o));
    // A survey given a scan's finished file: another command's, said so.
    let survey = [
        "sub",
        "survey",
        "--c-max",
        "20",
        "--out",
        &at("rows.csv"),
        "--resume",
    ];
    refused(
        &survey,
        "it was written by nimseq sub scan, this is nimseq sub survey",
    );
    // A shard count near 2^64: the chunks of each shard in 128-bit arithmetic, no overflow.
    let huge = "9223372036854775808/9223372036854775808";
    let o = run(&[
        "sub",
        "scan",
        "--c-max",
        "20",
        "--shard",
        huge,
        "--out",
        &at("huge.csv"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let done: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(at("huge.csv.done")).unwrap()).unwrap();
    assert_eq!(
        (done["chunks"].clone(), done["rows"].clone()),
        (serde_json::json!([0, 1]), serde_json::json!(1140))
    );
    // A bound that changes the sets is another job, named as such.
    let o = run(&[
        "sub",
        "scan",
        "--c-max",
        "20",
        "--a-max",
        "5",
        "--out",
        &at("rows.csv"),
        "--resume",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--a-max unset there, 5 here"),
        "{}",
        stderr(&o)
    );
}

/// One sequence as CSV rows `n,g` and as an OEIS b-file, the values of the JSON report.
/// Infinite sets: all but {2,3,7} in JSON, its arithmetic period (4, 0, saltus 2) proved by
/// the all-but test, as text too; a set the values are too short for, observed only;
/// subtract-a-square's P-positions as OEIS A030193 begins, and to 100,000 as Wikipedia and
/// Eppstein describe them, and every value to 100,000 through Project Euler 310's answer.
fn seq_of_infinite_sets() {
    let json: serde_json::Value = serde_json::from_str(&run_ok(&[
        "sub",
        "seq",
        "--all-but",
        "2,3,7",
        "--len",
        "12",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(json["certified"], true);
    assert_eq!(
        json["certificate"],
        serde_json::json!({"period": 4, "preperiod": 0, "saltus": 2})
    );
    assert_eq!(json["observed"], serde_json::Value::Null);
    let text = run_ok(&["sub", "seq", "--all-but", "2,3,7", "--len", "4"]);
    assert!(
        text.contains("certificate  G(n + 4) = G(n) + 2 from n = 0, proved from G(0..65536) (docs/subtraction.md, Theorem 7.1)"),
        "{text}"
    );
    // {1,24,27,28}: q = 7742, p = 460; 2^14 values show the period, and prove it only later.
    let short: serde_json::Value = serde_json::from_str(&run_ok(&[
        "sub",
        "seq",
        "--all-but",
        "1,24,27,28",
        "--len",
        "0",
        "--max-len",
        "16384",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(
        (
            &short["certified"],
            &short["certificate"],
            &short["observed"]
        ),
        (
            &serde_json::json!(false),
            &serde_json::Value::Null,
            &serde_json::json!({"period": 460, "preperiod": 7742, "saltus": 154})
        )
    );
    assert_eq!(
        json["values"],
        serde_json::json!([0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5])
    );
    let text = run_ok(&["sub", "seq", "squares", "--len", "60", "--max-len", "1000"]);
    assert!(
        text.contains("P-positions  0 2 5 7 10 12 15 17 20 22 34 39 44 52 57 (below 60)"),
        "{text}"
    );
    // Wikipedia's "Subtract a square": of the cold positions (value 0) below 40 million, one
    // alone ends in 6, 11,356; so up to 100,000.
    let rows = run_ok(&[
        "sub", "seq", "squares", "--len", "100001", "--format", "csv",
    ]);
    let cold_six: Vec<&str> = rows
        .lines()
        .skip(1)
        .filter_map(|row| row.strip_suffix(",0"))
        .filter(|n| n.ends_with('6'))
        .collect();
    assert_eq!(cold_six, ["11356"]);
    assert_eq!(rows.lines().count(), 1 + 100_001);
    // Every value to 100,000, through the published answer of Project Euler problem 310
    // ("Nim Square"): the heap triples 0 <= a <= b <= c <= 100,000 of nim-sum 0 number
    // 2,586,528,661,783 (1,160 to 29, as its statement gives).
    let values: Vec<u32> = rows
        .lines()
        .skip(1)
        .map(|row| row.split_once(',').unwrap().1.parse().unwrap())
        .collect();
    assert_eq!(losing_triples(&values[..30]), 1160);
    assert_eq!(losing_triples(&values), 2_586_528_661_783);
    // Eppstein's table ("A better-behaved subtraction game", 2016): the P-positions up to
    // each of these, that position one of them.
    let table = [
        (22, 109),
        (39, 204),
        (66, 425),
        (99, 827),
        (158, 1625),
        (255, 3209),
        (419, 6414),
        (682, 12812),
        (1087, 25647),
        (1752, 51202),
    ];
    for (count, at) in table {
        assert_eq!(values[at], 0, "G({at})");
        let zeros = values[..=at].iter().filter(|&&v| v == 0).count();
        assert_eq!(zeros, count, "P-positions up to {at}");
    }
}

/// The triples of heaps `a <= b <= c` below `values.len()` whose values' nim-sum is 0, counted
/// plainly from how often each value occurs (Project Euler 310's count).
fn losing_triples(values: &[u32]) -> u64 {
    let mut count = std::collections::BTreeMap::<u32, u64>::new();
    for &v in values {
        *count.entry(v).or_default() += 1;
    }
    // Multisets of three values `x <= y <= z` with `x ^ y == z`, each with its number of
    // heap triples: the ways to pick a heap of each value, equal values unordered.
    let mut total = 0;
    for (&x, &nx) in &count {
        for (&y, &ny) in count.range(x..) {
            let z = x ^ y;
            let Some(&nz) = count.get(&z).filter(|_| z >= y) else {
                continue;
            };
            total += match (x == y, y == z) {
                (true, true) => nx * (nx + 1) * (nx + 2) / 6,
                (true, false) => nx * (nx + 1) / 2 * nz,
                (false, true) => nx * ny * (ny + 1) / 2,
                (false, false) => nx * ny * nz,
            };
        }
    }
    total
}

/// `sub all-but-scan`: one row per set of each size (8 + 28 + 56 sets of up to three moves
/// below 9), each row the period `sub seq --all-but` proves for the set, the counts per size on
/// stderr, and bad bounds refused with one line.
fn all_but_scan_rows_and_counts() {
    let args = [
        "sub",
        "all-but-scan",
        "--size-max",
        "3",
        "--x-max",
        "8",
        "--len",
        "4096",
    ];
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("excluded,size,period,preperiod,saltus,certified,computed")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 8 + 28 + 56);
    assert!(text.contains("\n2;3;7,3,4,0,2,true,4096\n"), "{text}");
    for row in rows.iter().step_by(9) {
        let set = row[0].replace(';', ",");
        let seq = ["sub", "seq", "--all-but", &set, "--len", "0"];
        let json = run_ok(&[&seq[..], &["--max-len", "4096", "--format", "json"]].concat());
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(row[5], json["certified"].to_string(), "{set}");
        let seen = &json["certificate"];
        let field = |key: &str| seen[key].as_u64().map_or(String::new(), |v| v.to_string());
        assert_eq!(
            row[2..5],
            [field("period"), field("preperiod"), field("saltus")],
            "{set}"
        );
    }
    let err = stderr(&o);
    for line in [
        "size 1: 8 sets, 8 show an arithmetic period (8 proved), 8 from n = 0",
        "size 3: 56 sets, 56 show an arithmetic period (56 proved), 56 from n = 0",
    ] {
        assert!(err.contains(line), "{err}");
    }
    refused(&["sub", "all-but-scan", "--size-max", "0"], "--size-max");
    refused(
        &[
            "sub",
            "all-but-scan",
            "--size-max",
            "16",
            "--x-max",
            "10000",
        ],
        "more than the 16777216 one scan holds",
    );
}

fn seq_as_csv_and_bfile() {
    let args = ["sub", "seq", "3,8,15", "--len", "30"];
    let json = run(&[&args[..], &["--format", "json"]].concat());
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let values: Vec<u64> = json["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(values.len(), 30);
    let rows = |sep: &str| -> String {
        values
            .iter()
            .enumerate()
            .map(|(n, g)| format!("{n}{sep}{g}\n"))
            .collect()
    };
    let csv = run(&[&args[..], &["--format", "csv"]].concat());
    assert_eq!(
        String::from_utf8_lossy(&csv.stdout),
        format!("n,g\n{}", rows(","))
    );
    let bfile = run(&[&args[..], &["--format", "bfile"]].concat());
    assert_eq!(String::from_utf8_lossy(&bfile.stdout), rows(" "));
}

fn seq_handles_many_moves() {
    let moves: Vec<String> = (1..=64).map(|i| (i * 3).to_string()).collect();
    let o = run(&["sub", "seq", &moves.join(",")]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Every move is a multiple of 3: G(x) = G'(x / 3) for S' = {1..64}, whose period is 65.
    assert!(
        stdout(&o).contains("period       195, pre-period 0"),
        "{}",
        stdout(&o)
    );
}

fn scan_line(backend: &str, c_max: &str) -> String {
    let o = run(&["sub", "scan", "--c-max", c_max, "--backend", backend]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let line = err
        .lines()
        .find_map(|l| l.strip_prefix("checksum:"))
        .unwrap_or_else(|| panic!("no checksum in: {err}"));
    line.trim().to_string()
}

fn scan_checksum_matches_the_peer() {
    assert_eq!(scan_line("cpu", "60"), PEER_60);
    assert_eq!(scan_line("reference", "60"), PEER_60);
}

/// `bench sub` in rounds: one table row per backend, the checksum line the peer's.
fn bench_keeps_the_fastest_of_its_rounds() {
    let out = run_ok(&["bench", "sub", "--c-max", "60", "--no-gpu", "--repeat", "2"]);
    let cpu_rows = out.lines().filter(|l| l.starts_with("cpu (")).count();
    assert_eq!(cpu_rows, 1, "{out}");
    assert!(!out.contains("DIFFERS"), "{out}");
    assert!(out.contains(&format!("checksum line: {PEER_60}")), "{out}");
}

fn scan_checksum_matches_the_peer_on_the_gpu() {
    if gpu().is_some() {
        assert_eq!(scan_line("gpu", "60"), PEER_60);
    }
}

/// Builds and runs the peer itself (`tests/data/sub_scan_naive.c`, a copy of the peer program, so
/// that the
/// test needs only a C compiler): ignored without `cc`, a failure then under
/// `NIMSEQ_REQUIRE_PEER=1` (CI).
fn scan_matches_the_live_peer() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sub_scan_naive.c");
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("peer");
    let built = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&bin)
        .arg(&src)
        .status()
        .is_ok_and(|s| s.success());
    if !built {
        crate::common::not_run(
            "no C compiler (cc) to build the peer",
            "NIMSEQ_REQUIRE_PEER",
        );
        return;
    }
    let peer = Command::new(&bin).arg("45").output().unwrap();
    let line = String::from_utf8_lossy(&peer.stdout).trim().to_string();
    assert_eq!(scan_line("cpu", "45"), line);
}

fn scan_rows_and_filters() {
    let text = run_ok(&[
        "sub",
        "scan",
        "--c-max",
        "9",
        "--c-min",
        "9",
        "--a-min",
        "3",
        "--primitive",
        "--backend",
        "cpu",
    ]);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("a,b,c,period,preperiod,outcome_period,outcome_preperiod")
    );
    let rows: Vec<&str> = lines.collect();
    // {3,b,9} has gcd 3 only for b = 6; {3,8,9} has p = 17 (docs/subtraction.md, section 6).
    assert!(rows.contains(&"3,8,9,17,0,17,0"), "{text}");
    assert!(!rows.iter().any(|r| r.starts_with("3,6,9,")), "{text}");
    assert!(rows.iter().all(|r| r.split(',').nth(2) == Some("9")));

    let o = run(&[
        "sub",
        "scan",
        "--c-max",
        "5",
        "--format",
        "jsonl",
        "--backend",
        "cpu",
    ]);
    let first: serde_json::Value =
        serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(first["a"], 1);
    assert_eq!(first["period"], 4);
}

/// `sub scan --play misere`: the same rows from every backend (the GPU's where there is one),
/// each misère column re-checked against the genera by --verify-sample 1, and a few rows set
/// beside the certificate `sub seq --play misere` proves from the genera.
fn misere_scan_rows() {
    let scan = |backend: &str| {
        run_ok(&[
            "sub",
            "scan",
            "--play",
            "misere",
            "--c-max",
            "24",
            "--verify-sample",
            "1",
            "--backend",
            backend,
        ])
    };
    let rows = scan("cpu");
    assert_eq!(rows, scan("reference"));
    if gpu().is_some() {
        assert_eq!(rows, scan("gpu"));
    }
    let mut lines = rows.lines();
    assert_eq!(
        lines.next(),
        Some(
            "a,b,c,period,preperiod,outcome_period,outcome_preperiod,misere_period,misere_preperiod,misere_outcome_period,misere_outcome_preperiod"
        )
    );
    assert_eq!(lines.count(), 2024);
    for set in ["2,7,8", "2,4,7", "3,8,9", "6,11,24"] {
        let seq = run_ok(&["sub", "seq", set, "--play", "misere", "--format", "json"]);
        let c: serde_json::Value = serde_json::from_str(&seq).unwrap();
        let c = &c["certificate"];
        let want = format!(
            "{set},{},{},{},{}",
            c["misere_period"], c["misere_preperiod"], c["outcome_period"], c["outcome_preperiod"]
        );
        let row = rows
            .lines()
            .find(|r| r.starts_with(&format!("{set},")))
            .unwrap();
        let fields: Vec<&str> = row.split(',').collect();
        let got = format!("{set},{}", fields[7..].join(","));
        assert_eq!(got, want, "{row}");
    }
    // A misère file is not resumed as a normal-play one; misère shards merge into the whole.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rows.csv");
    let args = ["sub", "scan", "--c-max", "12", "--backend", "cpu"];
    assert!(
        scan_into(&args, &["--play", "misere"], &out)
            .status
            .success()
    );
    let o = scan_into(&args, &["--resume"], &out);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("was written by another run"),
        "{}",
        stderr(&o)
    );
    let mut parts = vec!["merge".to_string()];
    for i in 1..=2 {
        let part = dir.path().join(format!("part{i}.csv"));
        let shard = format!("{i}/2");
        let extra = ["--play", "misere", "--chunk-size", "50", "--shard", &shard];
        assert!(scan_into(&args, &extra, &part).status.success());
        parts.push(part.display().to_string());
    }
    let merged = dir.path().join("merged.csv");
    parts.extend(["--out".to_string(), merged.display().to_string()]);
    run_ok(&parts.iter().map(String::as_str).collect::<Vec<_>>());
    let whole = dir.path().join("whole.csv");
    let extra = ["--play", "misere", "--chunk-size", "50"];
    assert!(scan_into(&args, &extra, &whole).status.success());
    assert_eq!(fs::read(&merged).unwrap(), fs::read(&whole).unwrap());
}

fn shards_concatenate_to_the_whole_scan() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.csv");
    let args = [
        "sub",
        "scan",
        "--c-max",
        "30",
        "--chunk-size",
        "300",
        "--backend",
        "cpu",
    ];
    let o = scan_into(&args, &[], &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        three_shards_joined(&args, dir.path()),
        fs::read(&whole).unwrap()
    );
}

/// The files of `args` run as shards 1/3, 2/3 and 3/3 into `dir`, concatenated.
fn three_shards_joined(args: &[&str], dir: &std::path::Path) -> Vec<u8> {
    let mut joined = Vec::new();
    for i in 1..=3 {
        let part = dir.join(format!("part{i}.csv"));
        let o = scan_into(args, &["--shard", &format!("{i}/3")], &part);
        assert!(o.status.success(), "{}", stderr(&o));
        joined.extend(fs::read(&part).unwrap());
    }
    joined
}

/// Kill a scan mid-way, resume it, and get the same bytes as an uninterrupted run.
fn resume_after_a_killed_run_is_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let args = crate::common::SLOW_SCAN;
    let whole = dir.path().join("whole.csv");
    let o = scan_into(&args, &[], &whole);
    assert!(o.status.success(), "{}", stderr(&o));

    let cut = dir.path().join("cut.csv");
    let checkpoint = dir.path().join("cut.csv.checkpoint");
    crate::common::killed_after_chunks(&args, &cut, 3);
    let partial = fs::read(&cut).unwrap();
    assert!(
        partial.len() < fs::read(&whole).unwrap().len(),
        "the run finished before the kill"
    );

    // Without --resume the unfinished file is protected.
    let o = scan_into(&args, &[], &cut);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("add --resume"));

    // Resuming with other flags is refused, in words.
    let mut other = args.to_vec();
    other[3] = "71";
    let o = scan_into(&other, &["--resume", "--theory"], &cut);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--c-max 70 there, 71 here; --theory false there, true here"),
        "{}",
        stderr(&o)
    );

    let o = scan_into(&args, &["--resume"], &cut);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read(&cut).unwrap(), fs::read(&whole).unwrap());
    // The resumed run's totals cover the whole file.
    assert!(
        stderr(&o).contains("rulesets:          54740"),
        "{}",
        stderr(&o)
    );
    // A finished scan keeps no checkpoint but a record of what it holds; resumed again (a
    // requeued cluster task), it has nothing left to do and says so, with the same totals.
    assert!(!checkpoint.exists());
    assert!(!dir.path().join("whole.csv.checkpoint").exists());
    assert!(dir.path().join("cut.csv.done").exists());
    let o = scan_into(&args, &["--resume"], &cut);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("was finished before"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("rulesets:          54740"),
        "{}",
        stderr(&o)
    );
    assert_eq!(fs::read(&cut).unwrap(), fs::read(&whole).unwrap());
    // Resumed with other flags, it is refused as an unfinished one is.
    let o = scan_into(&other, &["--resume"], &cut);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--c-max 70 there, 71 here"),
        "{}",
        stderr(&o)
    );
    // A finished file changed since (its last row cut) is not taken as finished.
    let mut bytes = fs::read(&cut).unwrap();
    bytes.pop();
    fs::write(&cut, &bytes).unwrap();
    let o = scan_into(&args, &["--resume"], &cut);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bytes, its .done says"),
        "{}",
        stderr(&o)
    );
}

fn scan_theory_columns() {
    let text = run_ok(&[
        "sub",
        "scan",
        "--c-max",
        "13",
        "--c-min",
        "13",
        "--a-min",
        "3",
        "--a-max",
        "3",
        "--theory",
        "--backend",
        "cpu",
    ]);
    assert!(text.starts_with("a,b,c,period,preperiod,outcome_period,outcome_preperiod,g,rho,K,T0,T1,T2,predicted_period,agrees\n"));
    // {3,8,13}: rho = 2 in Theta_{c+a} only, p = 16 as predicted (docs/subtraction.md, section 6).
    assert!(
        text.contains("\n3,8,13,16,0,16,0,1,2,1,false,true,false,16,true\n"),
        "{text}"
    );
    // {3,11,13}: uncovered, pre-periodic as Conjecture 50 says.
    assert!(text.contains(",-1,true\n"), "{text}");
    assert!(!text.contains(",false\n"), "{text}");
    // Outside the paper (a = 1): no claim, so `agrees` is empty.
    let text = run_ok(&[
        "sub",
        "scan",
        "--c-max",
        "4",
        "--theory",
        "--backend",
        "cpu",
    ]);
    assert!(
        text.contains("\n1,2,3,4,0,4,0,1,0,1,false,true,false,-2,\n"),
        "{text}"
    );
}

fn survey_reports_and_writes_json() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("survey.json");
    let o = nimseq()
        .args([
            "sub",
            "survey",
            "--c-max",
            "40",
            "--backend",
            "cpu",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("1  Theorem 32: covered => q = 0, p as predicted"));
    let report: serde_json::Value = serde_json::from_slice(&fs::read(&json).unwrap()).unwrap();
    assert!(report["theorem_32"]["applied"].as_u64().unwrap() > 1000);
    assert_eq!(report["theorem_32"]["failures"], serde_json::json!([]));
    // The checksum as the text has it: 16 hex digits, a string (a JSON number past 2^53
    // would be rounded by many readers).
    let fnv = report["summary"]["fnv"].as_str().unwrap();
    assert_eq!(fnv.len(), 16);
    assert!(stdout(&o).contains(&format!("fnv={fnv}")), "{}", stdout(&o));
}

fn ppos_closed_forms_beside_brute_force() {
    for set in ["3,8,13", "3,8,14", "3,8,15", "3,8,11", "6,16,26"] {
        let text = run_ok(&["sub", "ppos", set, "--count", "40"]);
        assert!(
            text.contains("closed form = brute force on every row"),
            "{set}: {text}"
        );
        assert!(text.contains("match G"), "{set}: {text}");
    }
    let text = stdout(&run(&["sub", "ppos", "3,8,12"]));
    assert!(text.contains("none: uncovered angle"), "{text}");
}

fn plots_write_pngs() {
    let dir = tempfile::tempdir().unwrap();
    for (view, name) in [("map", "map.png"), ("figure3", "fig3.png")] {
        let out = dir.path().join(name);
        let o = nimseq()
            .args([
                "sub", "plot", "--view", view, "--a", "3", "--c-max", "40", "--out",
            ])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(&fs::read(&out).unwrap()[..4], b"\x89PNG");
    }
    let circle = dir.path().join("circle.png");
    let o = nimseq()
        .args(["sub", "theta", "3,8", "--out"])
        .arg(&circle)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(&fs::read(&circle).unwrap()[..4], b"\x89PNG");
}

fn theta_prints_example_1() {
    let text = run_ok(&["sub", "theta", "3,8"]);
    for line in [
        "Z            {0,1,2,6,7} (N = 5)",
        "Theta_a+b    {3,8}",
        "Theta_c+a    {2,8}",
        "Theta_c+b    {3,4,5,9,10}",
        "  2  p = c+a, purely periodic",
        "  6  uncovered: pre-periodic by Conjecture 50",
    ] {
        assert!(text.contains(line), "{line} missing in {text}");
    }
}

/// Bad input of every kind: exit code 2, the problem named, no panic, in seconds and little
/// memory (clap's whole message for argument errors, one line for the rest).
fn bad_input_gets_one_line_and_exit_code_2() {
    let many_moves: String = (1..=255)
        .map(|s| s.to_string())
        .chain(["1073741824".to_string()])
        .collect::<Vec<_>>()
        .join(",");
    let cases: &[(&[&str], &str)] = &[
        (&["sub", "seq", "0,3"], "moves must be positive"),
        (&["sub", "seq", "3,3,5"], "move 3 appears more than once"),
        (&["sub", "seq", "5,x"], "'5,x'"),
        (&["sub", "seq", ""], "the set is empty"),
        (&["sub", "seq", "-4,2"], "'-4,2'"),
        // Numbers out of range say so in words, not as a parser's internals.
        (
            &["sub", "seq", "99999999999999999999"],
            "move 99999999999999999999 is larger than the limit 1073741824",
        ),
        (
            &["sub", "seq", "3,8", "--len", "-1"],
            "-1 is below 0: give a whole number, 0 or more",
        ),
        (
            &["sub", "scan", "--chunk-size", "0"],
            "0 is below 1: give a whole number, 1 or more",
        ),
        (
            &["octal", "scan", "--n-max", "-1"],
            "-1 is not in 1..=16777216",
        ),
        (&["sub", "value", "1,3,4", "7,-2"], "found '-2'"),
        (
            &["sub", "seq", "1,2,3", "--max-len", "99999999999999"],
            "memory budget",
        ),
        // A 256-move set with a move of 2^30: its front padding alone is 34 GiB.
        (&["sub", "seq", &many_moves], "over the memory budget"),
        (
            &["sub", "seq", "1,2", "--len", "100000000000"],
            "--len 100000000000",
        ),
        (&["sub", "seq"], "<SET>"),
        (&["sub", "seq", "cubes"], "'cubes' is not a set"),
        (&["sub", "seq", "powers:1"], "'1' is not a base of powers"),
        (
            &["sub", "seq", "--all-but", "0"],
            "0 is not a move to leave out",
        ),
        (
            &["sub", "seq", "--all-but", ""],
            "'' is not a positive integer",
        ),
        (
            &["sub", "seq", "--all-but", "2,2"],
            "a move is left out twice",
        ),
        (
            &["sub", "seq", "3,8", "--all-but", "2"],
            "cannot be used with",
        ),
        (
            &["sub", "seq", "squares", "--len", "100000000000"],
            "over the memory budget",
        ),
        // The proof of an all-but set's period is counted with its values.
        (
            &[
                "sub",
                "seq",
                "--all-but",
                "2,3,7",
                "--max-len",
                "100000000",
                "--mem-budget",
                "1G",
            ],
            "values of all-but:2,3,7 and their period may need 3.4 GiB",
        ),
        (
            &["sub", "seq", "1,2", "--lenn", "3"],
            "a similar argument exists: '--len'",
        ),
        (
            &["sub", "scan", "--c-max", "2"],
            "--c-max 2 is below --moves 3",
        ),
        (
            &["sub", "scan", "--moves", "1"],
            "invalid value '1' for '--moves <K>'",
        ),
        (&["sub", "scan", "--moves", "9"], "9 is not in 2..=7"),
        (
            &["sub", "scan", "--moves", "5", "--max-move", "4"],
            "--max-move 4 is below --moves 5",
        ),
        (
            &[
                "sub",
                "survey",
                "--moves",
                "4",
                "--max-move",
                "20",
                "--min-move",
                "30",
            ],
            "--min-move 30 is above --max-move 20",
        ),
        (
            &[
                "sub",
                "scan",
                "--moves",
                "4",
                "--max-move",
                "20",
                "--theory",
            ],
            "drop --theory with --moves 4",
        ),
        (
            &[
                "sub",
                "scan",
                "--moves",
                "2",
                "--max-move",
                "20",
                "--b-max",
                "5",
            ],
            "--b-min and --b-max bound the second smallest of three or more moves",
        ),
        (
            &[
                "bench",
                "sub",
                "--moves",
                "4",
                "--max-move",
                "20",
                "--peer",
                "x",
            ],
            "use it with --moves 3",
        ),
        (
            &["sub", "scan", "--backend", "foo"],
            "possible values: auto, reference, cpu, gpu",
        ),
        (
            &["sub", "scan", "--c-max", "20", "--shard", "3/2"],
            "--shard",
        ),
        (
            &["sub", "scan", "--c-max", "20", "--shard", "1/0"],
            "--shard",
        ),
        (
            &[
                "sub",
                "scan",
                "--c-max",
                "20",
                "--out",
                "/nonexistent/dir/rows.csv",
            ],
            "/nonexistent/dir/rows.csv",
        ),
        (
            &["sub", "scan", "--c-max", "20", "--c-min", "30"],
            "--c-min 30 is above --c-max 20",
        ),
        (
            &[
                "sub", "scan", "--c-max", "20", "--a-min", "5", "--a-max", "3",
            ],
            "--a-min 5 is above --a-max 3",
        ),
        (
            &[
                "sub", "scan", "--c-max", "20", "--b-min", "9", "--b-max", "4",
            ],
            "--b-min 9 is above --b-max 4",
        ),
        (
            &["sub", "scan", "--c-max", "20", "--a-min", "30"],
            "no set of 3 moves fits",
        ),
        // One triple of c = 100000 keeps up to c^2/2 values on each thread.
        (
            &[
                "sub",
                "scan",
                "--c-min",
                "100000",
                "--c-max",
                "100000",
                "--a-max",
                "1",
                "--b-max",
                "2",
                "--mem-budget",
                "256M",
            ],
            "over the memory budget of 256.0 MiB",
        ),
        (
            &["sub", "scan", "--c-max", "20", "--verify-sample", "2"],
            "invalid value '2' for '--verify-sample <VERIFY_SAMPLE>': 2 is not a fraction between 0 and 1",
        ),
        (&["sub", "scan", "--c-max", "20", "--resume"], "--out"),
        (
            &["bench", "sub", "--c-max", "20", "--repeat", "0"],
            "--repeat",
        ),
        (&["sub", "frobnicate"], "frobnicate"),
        (&["sub"], "Usage: nimseq sub <COMMAND>"),
        (&[], "Usage: nimseq <COMMAND>"),
        (&["sub", "theta", "8,3"], "1 <= a < b <= 10000"),
        (&["sub", "theta", "0,3"], "1 <= a < b"),
        (&["sub", "theta", "3"], "1 <= a < b"),
        // Work that grows as (a + b)^2: bounded.
        (&["sub", "theta", "49999,100000"], "b <= 10000"),
        (&["sub", "ppos", "3,8"], "three moves"),
        (
            &[
                "sub",
                "plot",
                "--out",
                "/nonexistent/dir/map.png",
                "--c-max",
                "10",
            ],
            "/nonexistent/dir/map.png",
        ),
        (
            &[
                "sub", "plot", "--a", "50", "--c-max", "20", "--out", "x.png",
            ],
            "--a 50",
        ),
        (
            &["sub", "ppos", "3,8,1000000000", "--count", "1000"],
            "--count 1000",
        ),
    ];
    for (args, naming) in cases {
        crate::common::refused(args, naming);
    }
    crate::common::refused(
        &[
            "sub",
            "ppos",
            "3,8,1000",
            "--count",
            "100000",
            "--mem-budget",
            "100M",
        ],
        "over the memory budget of 100.0 MiB",
    );
    // A pasted list of 100 KB with one bad entry: the error says which, and shows the list
    // by its ends, not whole again.
    let long: Vec<String> = (1..20_000).map(|i| i.to_string()).collect();
    let long = format!("{},x", long.join(","));
    let line = refused(&["sub", "seq", &long], "'x' is not a whole number");
    assert!(line.contains("(108889 characters)"), "{line}");
    assert!(line.len() < 1000, "{} bytes of error", line.len());
}

/// `--max-len` counts in whole words of 64 values, and says so.
fn max_len_is_rounded_to_words_and_says_so() {
    let o = run(&["sub", "seq", "1,40", "--max-len", "30"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("within the first 64 values (the length limit, in whole words of 64 values)"),
        "{err}"
    );
    assert!(err.contains("raise --max-len"), "{err}");
}

/// A loop of the subtraction kernel forced past llvmpipe's limit (the loop-spin hook): an error
/// naming the adapter, never a row.
fn a_cut_loop_is_an_error_never_a_row() {
    crate::common::forced_cut(
        &["sub", "scan", "--c-max", "30", "--verify-sample", "0"],
        "subtraction",
        Some("a,b,c,period,preperiod,outcome_period,outcome_preperiod"),
    );
    // The kernel written for five moves checks its loops as well.
    crate::common::forced_cut(
        &[
            "sub",
            "scan",
            "--moves",
            "5",
            "--max-move",
            "20",
            "--verify-sample",
            "0",
        ],
        "subtraction",
        Some("a,b,c,d,e,period,preperiod,outcome_period,outcome_preperiod"),
    );
}

/// FNV-1a over bytes: a fingerprint of a scan's output.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `--moves 3` is the scan of triples as it was before other move counts: byte for byte the
/// rows of every triple with c <= 200 that the build before `--moves` wrote (commit 5656e95:
/// 31,468,059 bytes, FNV-1a b8ada7f329b59575), and the same checksum line.
fn three_moves_are_the_scan_of_triples_as_before() {
    let o = run(&[
        "sub",
        "scan",
        "--moves",
        "3",
        "--c-max",
        "200",
        "--backend",
        "cpu",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        (o.stdout.len(), fnv1a(&o.stdout)),
        (31_468_059, 0xb8ad_a7f3_29b5_9575)
    );
    assert!(stderr(&o).contains(
        "checksum:          triples=1313400 purely_periodic=782354 sum_p=295318099 \
         sum_q=572432022 max_p=17995 max_q=17105 fnv=e56a39a67b4879fc"
    ));
}

/// A scan of four moves: its header, its order, and its rows equal `sub seq`'s certificates.
fn four_move_scans_write_their_moves_in_order() {
    let out = run_ok(&[
        "sub",
        "scan",
        "--moves",
        "4",
        "--max-move",
        "9",
        "--backend",
        "cpu",
    ]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("a,b,c,d,period,preperiod,outcome_period,outcome_preperiod")
    );
    let rows: Vec<Vec<u32>> = lines
        .map(|l| l.split(',').map(|f| f.parse().unwrap()).collect())
        .collect();
    // Every 4-subset of 1..=9 once, by largest move, then lexicographic.
    assert_eq!(rows.len(), 126);
    assert_eq!(rows[0][..4], [1, 2, 3, 4]);
    assert_eq!(rows[1][..4], [1, 2, 3, 5]);
    assert_eq!(rows[2][..4], [1, 2, 4, 5]);
    assert!(
        rows.windows(2)
            .all(|w| (w[0][3], &w[0][..3]) < (w[1][3], &w[1][..3]))
    );
    for row in rows.iter().step_by(7) {
        let set = format!("{},{},{},{}", row[0], row[1], row[2], row[3]);
        let seq = run_ok(&["sub", "seq", &set, "--format", "json"]);
        let s: serde_json::Value = serde_json::from_str(&seq).unwrap();
        assert_eq!(
            [
                s["certificate"]["period"].as_u64().unwrap(),
                s["certificate"]["preperiod"].as_u64().unwrap()
            ],
            [u64::from(row[4]), u64::from(row[5])],
            "{set}"
        );
    }
}

/// A four-move scan killed mid-way resumes to the bytes of one run, and its shards
/// concatenate to it.
fn four_move_scans_resume_and_shard() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "sub",
        "scan",
        "--moves",
        "4",
        "--max-move",
        "44",
        "--chunk-size",
        "3000",
        "--backend",
        "reference",
    ];
    let whole = dir.path().join("whole.csv");
    let o = scan_into(&args, &[], &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    let whole = fs::read(&whole).unwrap();
    let cut = dir.path().join("cut.csv");
    crate::common::killed_after_chunks(&args, &cut, 3);
    assert!(
        fs::read(&cut).unwrap().len() < whole.len(),
        "the run finished before the kill"
    );
    let o = scan_into(&args, &["--resume"], &cut);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read(&cut).unwrap(), whole);
    // C(44, 4) sets.
    assert!(
        stderr(&o).contains("rulesets:          135751"),
        "{}",
        stderr(&o)
    );
    assert_eq!(three_shards_joined(&args, dir.path()), whole);
}

/// The survey of five-move sets as JSON: the distributions and the longest period, and no
/// theory check (they are about triples).
fn five_move_surveys_report_as_json() {
    let survey = [
        "sub",
        "survey",
        "--moves",
        "5",
        "--max-move",
        "14",
        "--backend",
        "cpu",
    ];
    let out = run_ok(&[&survey[..], &["--format", "json"]].concat());
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let summary = &report["summary"];
    assert_eq!(summary["rulesets"], 2002);
    let periods = report["periods"].as_object().unwrap();
    let count: u64 = periods.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(count, 2002);
    let longest = summary["max_period"][0].as_u64().unwrap();
    assert_eq!(
        periods.keys().map(|p| p.parse::<u64>().unwrap()).max(),
        Some(longest)
    );
    assert_eq!(summary["max_period"][1].as_array().unwrap().len(), 5);
    assert_eq!(report["theorem_32"]["applied"], 0);
    let text = run_ok(&survey);
    assert!(text.contains("distinct periods:"), "{text}");
    assert!(!text.contains("Theorem 32"), "{text}");
    assert!(text.contains("checksum:          sets=2002"), "{text}");
}

trials!(
    seq_of_infinite_sets,
    all_but_scan_rows_and_counts,
    three_moves_are_the_scan_of_triples_as_before,
    four_move_scans_write_their_moves_in_order,
    four_move_scans_resume_and_shard,
    five_move_surveys_report_as_json,
    a_cut_loop_is_an_error_never_a_row,
    max_len_is_rounded_to_words_and_says_so,
    seq_prints_period_and_certificate,
    seq_under_misere_play,
    seq_says_plainly_when_no_period_is_certified,
    seq_as_csv_and_bfile,
    write_failures_exit_1,
    out_names_and_equal_bounds,
    seq_handles_many_moves,
    scan_checksum_matches_the_peer,
    bench_keeps_the_fastest_of_its_rounds,
    scan_checksum_matches_the_peer_on_the_gpu,
    scan_matches_the_live_peer,
    scan_rows_and_filters,
    misere_scan_rows,
    shards_concatenate_to_the_whole_scan,
    resume_after_a_killed_run_is_byte_identical,
    scan_theory_columns,
    survey_reports_and_writes_json,
    ppos_closed_forms_beside_brute_force,
    plots_write_pngs,
    theta_prints_example_1,
    bad_input_gets_one_line_and_exit_code_2,
);
