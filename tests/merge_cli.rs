//! `nimseq merge` and Parquet output as a user runs them: shards joined into the bytes one run
//! writes, every bad set of parts refused, Parquet rows equal to the CSV rows and resumable.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use rand::{Rng, SeedableRng, rngs::StdRng};

use crate::common::{SLOW_SCAN, fresh_seed, killed_after_chunks, nimseq, refused, refused_by};
use nimseq::output::resumable::{beside, seal_of};

/// Runs `nimseq ARGS`, which must succeed.
fn ok(args: &[&str]) -> Output {
    let o = nimseq().args(args).output().expect("nimseq runs");
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// The `checksum:` line of a run's stderr or stdout.
fn checksum_line(o: &Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let line = text.lines().find(|l| l.starts_with("checksum:"));
    line.expect("a checksum line").to_string()
}

/// Runs `args` as shards `1..=n` into `dir/NAME-i.EXT`, then whole into `dir/whole.EXT`;
/// returns the parts, and the whole run.
fn shards_and_whole(
    dir: &Path,
    args: &[&str],
    n: u64,
    ext: &str,
) -> (Vec<PathBuf>, PathBuf, Output) {
    let parts: Vec<PathBuf> = (1..=n)
        .map(|i| {
            let part = dir.join(format!("part-{i}.{ext}"));
            let shard = format!("{i}/{n}");
            ok(&[args, &["--shard", &shard, "--out", path(&part)]].concat());
            part
        })
        .collect();
    let whole = dir.join(format!("whole.{ext}"));
    let o = ok(&[args, &["--out", path(&whole)]].concat());
    (parts, whole, o)
}

/// Runs `nimseq merge PARTS --out OUT EXTRA`, which must succeed.
fn merge(parts: &[PathBuf], out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["merge"];
    args.extend(parts.iter().map(|p| path(p)));
    args.extend(["--out", path(out)]);
    args.extend(extra);
    ok(&args)
}

/// The files of a Parquet directory, name and bytes, in name order.
fn parquet_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

const SCAN: [&str; 8] = [
    "sub",
    "scan",
    "--c-max",
    "45",
    "--chunk-size",
    "1000",
    "--backend",
    "cpu",
];

/// Every code of two digits, in chunks of five.
const OCTAL: [&str; 8] = [
    "octal",
    "scan",
    "--digits",
    "2",
    "--n-max",
    "300",
    "--chunk-size",
    "5",
];

/// A finished result is never touched by a later run with other flags: the second shard of a
/// scan sent to the first one's Parquet directory is refused, and the first one's parts and
/// `.done` stay; a file nimseq did not write is refused, not emptied; the same command again
/// leaves its finished file as it is.
fn a_later_run_writes_over_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let all = dir.path().join("all.parquet");
    let args = [&SCAN[..], &["--out", path(&all)]].concat();
    ok(&[&args[..], &["--shard", "1/2"]].concat());
    let parts = parquet_files(&all);
    let done = fs::read(beside(&all, "done")).unwrap();
    let line = refused(
        &[&args[..], &["--shard", "2/2"]].concat(),
        "was written by another run: --shard 1/2 there, 2/2 here",
    );
    assert!(line.contains("name another --out"), "{line}");
    assert_eq!(parquet_files(&all), parts);
    assert_eq!(fs::read(beside(&all, "done")).unwrap(), done);
    // The same command again: finished, nothing written.
    let o = ok(&[&args[..], &["--shard", "1/2"]].concat());
    assert!(String::from_utf8_lossy(&o.stderr).contains("was finished before"));
    assert_eq!(parquet_files(&all), parts);
    // A file of the user's own.
    let mine = dir.path().join("mine.csv");
    fs::write(&mine, "my notes\n").unwrap();
    refused(
        &[&SCAN[..], &["--out", path(&mine)]].concat(),
        "exists and is no result of this scan",
    );
    assert_eq!(fs::read(&mine).unwrap(), b"my notes\n");
    // Outputs that are inputs or each other, refused before anything is written.
    let sv = dir.path().join("sv.csv");
    let survey = ["sub", "survey", "--c-max", "20", "--out", path(&sv)];
    refused(
        &[&survey[..], &["--json", path(&sv)]].concat(),
        "is what --out writes",
    );
    assert!(!sv.exists());
    let (parts, _, _) = shards_and_whole(dir.path(), &SCAN, 2, "csv");
    let before = fs::read(&parts[0]).unwrap();
    let merged = dir.path().join("merged.csv");
    let given = ["merge", path(&parts[0]), path(&parts[1])];
    refused(
        &[&given[..], &["--out", path(&parts[1])]].concat(),
        "is the input",
    );
    let json = ["--out", path(&merged), "--json", path(&parts[0])];
    refused(&[&given[..], &json[..]].concat(), "is the input");
    assert_eq!(fs::read(&parts[0]).unwrap(), before);
    assert!(!merged.exists());
}

/// `--resume` checks the rows it keeps against its checkpoint before it goes on from them: a
/// row edited in place, a Parquet part deleted, a checkpoint edited by hand (its chunk count)
/// are each refused, and the unchanged cut-short run still resumes to the whole run's bytes.
fn resume_checks_the_rows_it_keeps() {
    let dir = tempfile::tempdir().unwrap();
    fn resume(out: &Path) -> Vec<&str> {
        [&SLOW_SCAN[..], &["--out", path(out), "--resume"]].concat()
    }
    // A CSV row edited in the kept part.
    let csv = dir.path().join("cut.csv");
    killed_after_chunks(&SLOW_SCAN, &csv, 3);
    let kept = fs::read(&csv).unwrap();
    let mut edited = kept.clone();
    let at = edited.iter().rposition(|&b| b == b'\n').unwrap() / 2;
    let digit = edited[at..].iter().position(u8::is_ascii_digit).unwrap() + at;
    edited[digit] = if edited[digit] == b'9' {
        b'8'
    } else {
        edited[digit] + 1
    };
    fs::write(&csv, &edited).unwrap();
    refused(
        &resume(&csv),
        "holds other rows than its checkpoint records",
    );
    // Put back, but the checkpoint's chunk count edited: its seal.
    fs::write(&csv, &kept).unwrap();
    let checkpoint = beside(&csv, "checkpoint");
    let text = fs::read_to_string(&checkpoint).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(&text).unwrap();
    record["next_chunk"] = serde_json::json!(1000);
    fs::write(&checkpoint, record.to_string()).unwrap();
    refused(&resume(&csv), "was edited by hand");
    // Put back: it resumes to the bytes of one uninterrupted run.
    fs::write(&checkpoint, text).unwrap();
    ok(&resume(&csv));
    let whole = dir.path().join("whole.csv");
    ok(&[&SLOW_SCAN[..], &["--out", path(&whole)]].concat());
    assert_eq!(fs::read(&csv).unwrap(), fs::read(&whole).unwrap());
    // A Parquet part below the checkpoint deleted.
    let pq = dir.path().join("cut.parquet");
    killed_after_chunks(&SLOW_SCAN, &pq, 3);
    let (_, first) = nimseq::output::parquet::parts(&pq).unwrap().remove(0);
    fs::remove_file(&first).unwrap();
    refused(&resume(&pq), "holds other rows than its checkpoint records");
}

/// A copy of the result `from` (a file, or a directory of Parquet parts) and its `.done`.
fn copy_result(from: &Path, to: &Path) {
    if from.is_dir() {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    } else {
        fs::copy(from, to).unwrap();
    }
    if beside(from, "done").exists() {
        fs::copy(beside(from, "done"), beside(to, "done")).unwrap();
    }
}

/// Every byte of a result: its file, or its part files in name order.
fn result_bytes(path: &Path) -> Vec<u8> {
    if path.is_dir() {
        parquet_files(path)
            .into_iter()
            .flat_map(|(_, b)| b)
            .collect()
    } else {
        fs::read(path).unwrap()
    }
}

/// One random edit of a finished result or of a cut-short run's kept rows and checkpoint: a
/// byte of a row, a row taken out, two rows swapped, a part file taken out or one of its bytes
/// changed, a field of the record (`.done` or `.checkpoint`) changed. Says what it did.
fn edit(rng: &mut StdRng, path: &Path, record: &Path) -> String {
    let field = |rng: &mut StdRng| {
        let mut json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(record).unwrap()).unwrap();
        let key = ["rows", "bytes", "next_chunk", "chunks", "crc", "state"][rng.random_range(0..6)];
        // A field absent or null (a Parquet record's length) would be no edit.
        if json.get(key).is_none_or(serde_json::Value::is_null) {
            return None;
        }
        json[key] = match &json[key] {
            serde_json::Value::Number(n) => serde_json::json!(n.as_u64().unwrap() + 1),
            serde_json::Value::Array(_) => serde_json::json!([0, 1]),
            _ => serde_json::json!(null),
        };
        fs::write(record, json.to_string()).unwrap();
        Some(format!("{} of {} changed", key, record.display()))
    };
    loop {
        let what = match (path.is_dir(), rng.random_range(0..4)) {
            (_, 3) => field(rng),
            (true, k) => {
                let files = nimseq::output::parquet::parts(path).unwrap();
                let (_, part) = &files[rng.random_range(0..files.len())];
                if k == 0 {
                    fs::remove_file(part).unwrap();
                    Some(format!("{} taken out", part.display()))
                } else {
                    let mut bytes = fs::read(part).unwrap();
                    let at = rng.random_range(0..bytes.len());
                    bytes[at] ^= 1 << rng.random_range(0..8);
                    fs::write(part, bytes).unwrap();
                    Some(format!("byte {at} of {} changed", part.display()))
                }
            }
            (false, k) => {
                let text = fs::read_to_string(path).unwrap();
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                let (a, b) = (
                    rng.random_range(0..lines.len()),
                    rng.random_range(0..lines.len()),
                );
                let what = match k {
                    0 => {
                        let digits: Vec<usize> = lines[a]
                            .char_indices()
                            .filter(|(_, c)| c.is_ascii_digit())
                            .map(|(i, _)| i)
                            .collect();
                        let Some(&i) = digits.get(rng.random_range(0..digits.len().max(1))) else {
                            continue;
                        };
                        let old = lines[a].as_bytes()[i];
                        let new = if old == b'9' { b'0' } else { old + 1 };
                        lines[a].replace_range(i..=i, &char::from(new).to_string());
                        format!("a digit of line {} changed", a + 1)
                    }
                    1 => {
                        lines.remove(a);
                        format!("line {} taken out", a + 1)
                    }
                    _ if lines[a] != lines[b] => {
                        lines.swap(a, b);
                        format!("lines {} and {} swapped", a + 1, b + 1)
                    }
                    _ => continue,
                };
                let mut joined = lines.join("\n");
                if !joined.is_empty() {
                    joined.push('\n');
                }
                fs::write(path, joined).unwrap();
                Some(what)
            }
        };
        if let Some(what) = what {
            return what;
        }
    }
}

/// Random edits of finished results (CSV, JSON lines, Parquet) and of cut-short runs, fresh
/// each run (`NIMSEQ_SEED` replays one): every one is refused by `merge` and by `--resume`, or
/// repaired by `--resume` to the bytes of the run that was not edited; none is taken as
/// finished with other rows.
fn fuzzed_results_are_refused_or_repaired() {
    let seed = fresh_seed();
    eprintln!("seed {seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let dir = tempfile::tempdir().unwrap();
    for ext in ["csv", "jsonl", "parquet"] {
        let (parts, _, _) = shards_and_whole(dir.path(), &SCAN, 2, ext);
        let original = result_bytes(&parts[1]);
        for trial in 0..5 {
            let victim = dir.path().join(format!("victim-{trial}.{ext}"));
            copy_result(&parts[1], &victim);
            let what = edit(&mut rng, &victim, &beside(&victim, "done"));
            let merged = dir.path().join(format!("merged-{trial}.{ext}"));
            let o = nimseq()
                .args([
                    "merge",
                    path(&parts[0]),
                    path(&victim),
                    "--out",
                    path(&merged),
                ])
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2), "seed {seed}: merge took {what}");
            assert!(!merged.exists(), "seed {seed}: {what}");
            let resume = [
                &SCAN[..],
                &["--shard", "2/2", "--out", path(&victim), "--resume"],
            ];
            let o = nimseq().args(resume.concat()).output().unwrap();
            assert!(
                o.status.code() == Some(2)
                    || (o.status.success() && result_bytes(&victim) == original),
                "seed {seed}: --resume after {what}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    // A cut-short run: its kept rows or its checkpoint edited, then resumed.
    let whole = dir.path().join("whole-slow.csv");
    ok(&[&SLOW_SCAN[..], &["--out", path(&whole)]].concat());
    let cut = dir.path().join("cut.csv");
    killed_after_chunks(&SLOW_SCAN, &cut, 3);
    for trial in 0..3 {
        let victim = dir.path().join(format!("cut-{trial}.csv"));
        fs::copy(&cut, &victim).unwrap();
        fs::copy(beside(&cut, "checkpoint"), beside(&victim, "checkpoint")).unwrap();
        let what = edit(&mut rng, &victim, &beside(&victim, "checkpoint"));
        let resume = [&SLOW_SCAN[..], &["--out", path(&victim), "--resume"]].concat();
        let o = nimseq().args(resume).output().unwrap();
        assert!(
            o.status.code() == Some(2)
                || (o.status.success() && fs::read(&victim).unwrap() == fs::read(&whole).unwrap()),
            "seed {seed}: --resume after {what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Shards of `sub scan` in each format, given in any order, merge into the bytes of one run
/// with its checksum line; parts of one format merge into another.
fn shards_merge_into_one_run() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["csv", "jsonl", "parquet"] {
        let (mut parts, whole, one) = shards_and_whole(dir.path(), &SCAN, 5, ext);
        parts.reverse();
        let merged = dir.path().join(format!("merged.{ext}"));
        let o = merge(&parts, &merged, &[]);
        assert_eq!(checksum_line(&o), checksum_line(&one), "{ext}");
        if ext == "parquet" {
            assert_eq!(parquet_files(&merged), parquet_files(&whole));
            // Parquet parts into CSV: the CSV of one run.
            let csv = dir.path().join("from-parquet.csv");
            merge(&parts, &csv, &[]);
            let one_csv = dir.path().join("one.csv");
            ok(&[&SCAN[..], &["--out", path(&one_csv)]].concat());
            assert_eq!(fs::read(&csv).unwrap(), fs::read(&one_csv).unwrap());
        } else {
            assert_eq!(
                fs::read(&merged).unwrap(),
                fs::read(&whole).unwrap(),
                "{ext}"
            );
        }
        // The merged file is finished, as one run's is: it merges again, as one part.
        let again = dir.path().join(format!("again.{ext}"));
        merge(&[merged], &again, &[]);
    }
    // More shards than chunks: the empty shards still count, and one header opens the file.
    // (Files of their own: a scan with other flags writes over no other run's file.)
    let few = tempfile::tempdir().unwrap();
    let args = [&SCAN[..4], &["--chunk-size", "20000"]].concat();
    let (parts, whole, _) = shards_and_whole(few.path(), &args, 4, "csv");
    let merged = few.path().join("few-chunks.csv");
    merge(&parts, &merged, &[]);
    assert_eq!(fs::read(&merged).unwrap(), fs::read(&whole).unwrap());
}

/// A survey's shards merge into its report, text and JSON, and its rows; an octal scan's
/// shards into its rows and summary, but not with a part (or a resume of a file) of an older
/// build's columns.
fn surveys_and_octal_scans_merge() {
    let dir = tempfile::tempdir().unwrap();
    let survey = [
        "sub",
        "survey",
        "--c-max",
        "40",
        "--chunk-size",
        "2000",
        "--backend",
        "cpu",
    ];
    let json = dir.path().join("whole.json");
    let one_json = [&survey[..], &["--json", path(&json)]].concat();
    let (parts, whole, one) = shards_and_whole(dir.path(), &one_json, 3, "csv");
    let merged = dir.path().join("merged.csv");
    let merged_json = dir.path().join("merged.json");
    let o = merge(&parts, &merged, &["--json", path(&merged_json)]);
    assert_eq!(o.stdout, one.stdout);
    assert!(String::from_utf8_lossy(&o.stdout).contains("Theorem 32"));
    assert_eq!(fs::read(&merged).unwrap(), fs::read(&whole).unwrap());
    assert_eq!(fs::read(&merged_json).unwrap(), fs::read(&json).unwrap());

    let (parts, whole, one) = shards_and_whole(dir.path(), &OCTAL, 4, "jsonl");
    let merged = dir.path().join("octal.jsonl");
    let o = merge(&parts, &merged, &[]);
    assert_eq!(fs::read(&merged).unwrap(), fs::read(&whole).unwrap());
    let summary = |o: &Output| {
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .last()
            .map(str::to_string)
    };
    assert_eq!(summary(&o), summary(&one));
    assert!(
        summary(&o).unwrap().starts_with("56 codes: "),
        "{:?}",
        summary(&o)
    );

    // An octal scan written before its rows gained three columns (its record names no
    // columns) is neither resumed nor merged with new rows.
    let older = "its rows have other columns (an older build's): rerun it with this build";
    let forget_columns = |file: &Path| {
        let done = beside(file, "done");
        let mut record: serde_json::Value =
            serde_json::from_slice(&fs::read(&done).unwrap()).unwrap();
        record["job"].as_object_mut().unwrap().remove("columns");
        // Sealed, as the older build sealed it.
        record["seal"] = seal_of(&record).into();
        fs::write(&done, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    };
    forget_columns(&parts[0]);
    let mut merge_old = nimseq();
    merge_old.arg("merge").args(&parts).arg("--out");
    merge_old.arg(dir.path().join("mixed.jsonl"));
    refused_by(merge_old, older);
    forget_columns(&whole);
    refused(
        &[&OCTAL[..], &["--out", path(&whole), "--resume"]].concat(),
        older,
    );
}

/// A missing, doubled, unfinished, foreign or changed part is refused with exit code 2 and a
/// message naming it, and nothing is written.
fn bad_parts_are_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let (parts, _, _) = shards_and_whole(dir.path(), &SCAN, 4, "csv");
    let out = dir.path().join("merged.csv");
    let refuse = |given: &[&PathBuf], naming: &str| {
        let mut args = vec!["merge"];
        args.extend(given.iter().map(|p| path(p)));
        args.extend(["--out", path(&out)]);
        let line = refused(&args, naming);
        assert!(!out.exists(), "{line}: {} was written", out.display());
        assert!(!dir.path().join("merged.csv.done").exists(), "{line}");
        assert!(!dir.path().join("merged.csv.checkpoint").exists(), "{line}");
        line
    };
    refuse(&[&parts[0], &parts[1], &parts[3]], "shard 3/4 is missing");
    refuse(
        &[&parts[0], &parts[1], &parts[1], &parts[2], &parts[3]],
        "part-2.csv' are both shard 2/4",
    );

    // A shard of another job: another --c-max.
    let foreign = dir.path().join("foreign.csv");
    let other = [&SCAN[..2], &["--c-max", "44"], &SCAN[4..]].concat();
    ok(&[&other[..], &["--shard", "3/4", "--out", path(&foreign)]].concat());
    let line = refuse(
        &[&parts[0], &parts[1], &foreign, &parts[3]],
        "foreign.csv' is a shard of another job",
    );
    assert!(line.contains("--c-max 44 there, 45 here"), "{line}");
    // A shard of another split of the same job.
    let split = dir.path().join("split.csv");
    ok(&[&SCAN[..], &["--shard", "3/5", "--out", path(&split)]].concat());
    refuse(
        &[&parts[0], &parts[1], &split, &parts[3]],
        "split.csv' is shard 3/5",
    );

    // An unfinished shard: killed mid-way, its checkpoint still there.
    let cut = dir.path().join("cut.csv");
    let slow = [&SLOW_SCAN[..], &["--shard", "1/2"]].concat();
    killed_after_chunks(&slow, &cut, 2);
    let line = refuse(&[&cut], "cut.csv' is unfinished");
    assert!(line.contains("--resume"), "{line}");

    // A part changed since it was written: its last row cut, or a row edited.
    let changed = dir.path().join("changed.csv");
    fs::copy(&parts[2], &changed).unwrap();
    fs::copy(
        dir.path().join("part-3.csv.done"),
        dir.path().join("changed.csv.done"),
    )
    .unwrap();
    let mut bytes = fs::read(&changed).unwrap();
    bytes.pop();
    fs::write(&changed, &bytes).unwrap();
    refuse(
        &[&parts[0], &parts[1], &changed, &parts[3]],
        "changed.csv' is",
    );
    bytes.push(b'\n');
    // The same length, its first two rows swapped: the contents' checksum of its .done.
    let text = String::from_utf8(bytes).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(0, 1);
    fs::write(&changed, format!("{}\n", lines.join("\n"))).unwrap();
    refuse(
        &[&parts[0], &parts[1], &changed, &parts[3]],
        "changed.csv' holds other rows than its .done records",
    );
    // A .done edited by hand (its row count), or with its checksum taken out: its seal.
    let done_path = dir.path().join("changed.csv.done");
    let recorded: serde_json::Value =
        serde_json::from_slice(&fs::read(&done_path).unwrap()).unwrap();
    let mut edited = recorded.clone();
    edited["rows"] = serde_json::json!(7);
    fs::write(&done_path, edited.to_string()).unwrap();
    refuse(
        &[&parts[0], &parts[1], &changed, &parts[3]],
        "changed.csv' has a .done that was edited by hand",
    );
    // Past the checksum (a record of a build before it, without checksum and seal), the rows
    // themselves are checked as they are read: out of order, the first one at fault named.
    let mut legacy = recorded.clone();
    legacy.as_object_mut().unwrap().remove("crc");
    legacy.as_object_mut().unwrap().remove("seal");
    fs::write(&done_path, legacy.to_string()).unwrap();
    refuse(
        &[&parts[0], &parts[1], &changed, &parts[3]],
        "changed.csv', row 1: the row of",
    );
    // Rows 1 and 501 swapped instead: a chunk's rows are parsed on all cores, and the first
    // row at fault is still the one named, every time (an error taken as the threads find
    // them named row 501 in about one run in five).
    lines.swap(0, 1);
    lines.swap(0, 500);
    fs::write(&changed, format!("{}\n", lines.join("\n"))).unwrap();
    for _ in 0..5 {
        refuse(
            &[&parts[0], &parts[1], &changed, &parts[3]],
            "changed.csv', row 1: the row of",
        );
    }

    // One period changed by one, the length kept, every row in its place: a forged row. The
    // part's rows no longer give the totals its .done records.
    lines.swap(0, 500);
    let forged: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let mut cells: Vec<String> = line.split(',').map(str::to_string).collect();
            if i == 99 {
                let digit = cells[3].pop().unwrap().to_digit(10).unwrap();
                cells[3].push(char::from_digit((digit + 1) % 10, 10).unwrap());
            }
            cells.join(",")
        })
        .collect();
    fs::write(&changed, format!("{}\n", forged.join("\n"))).unwrap();
    assert_eq!(
        fs::metadata(&changed).unwrap().len(),
        fs::metadata(&parts[2]).unwrap().len()
    );
    let line = refuse(
        &[&parts[0], &parts[1], &changed, &parts[3]],
        "changed.csv': its rows are not what its .done records",
    );
    assert!(line.contains("fnv"), "{line}");

    // A file that no finished run wrote.
    let stray = dir.path().join("stray.csv");
    fs::write(&stray, "a,b,c\n").unwrap();
    refuse(
        &[&stray],
        "stray.csv.done': it is not a finished nimseq scan",
    );
    // An output that exists is kept.
    fs::write(&out, "keep").unwrap();
    refused(
        &[
            "merge",
            path(&parts[0]),
            path(&parts[1]),
            path(&parts[2]),
            path(&parts[3]),
            "--out",
            path(&out),
        ],
        "merged.csv' exists",
    );
    assert_eq!(fs::read(&out).unwrap(), b"keep");
}

/// The rows of a Parquet directory through the `parquet` crate, as CSV lines.
fn parquet_as_csv(dir: &Path) -> String {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut text = String::new();
    for file in files {
        let reader = SerializedFileReader::new(fs::File::open(&file).unwrap()).unwrap();
        for row in reader.get_row_iter(None).unwrap() {
            let row = row.unwrap();
            let fields: Vec<String> = row
                .get_column_iter()
                .map(|(_, f)| match f {
                    Field::Null => String::new(),
                    Field::UShort(n) => n.to_string(),
                    Field::UInt(n) => n.to_string(),
                    Field::ULong(n) => n.to_string(),
                    Field::Long(n) => n.to_string(),
                    Field::Bool(b) => b.to_string(),
                    Field::Str(s) => s.clone(),
                    other => panic!("an unexpected Parquet value {other:?}"),
                })
                .collect();
            text.push_str(&fields.join(","));
            text.push('\n');
        }
    }
    text
}

/// A scan written as Parquet holds the CSV rows, typed (read here by the `parquet` crate, not
/// by nimseq), with and without theory columns, and for octal codes with empty periods; a
/// killed Parquet scan resumes to the same files; a finished one resumed does nothing.
fn parquet_rows_are_the_csv_rows_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let theory = [&SCAN[..], &["--theory"]].concat();
    for args in [&SCAN[..], &theory[..], &OCTAL[..]] {
        let pq = dir.path().join("rows.parquet");
        let csv = dir.path().join("rows.csv");
        let _ = fs::remove_dir_all(&pq);
        let _ = fs::remove_file(&csv);
        ok(&[args, &["--out", path(&pq)]].concat());
        ok(&[args, &["--out", path(&csv)]].concat());
        let text = fs::read_to_string(&csv).unwrap();
        let (_, rows) = text.split_once('\n').unwrap();
        assert_eq!(parquet_as_csv(&pq), rows, "{args:?}");
    }
    let slow = SLOW_SCAN;
    let cut = dir.path().join("cut.parquet");
    killed_after_chunks(&slow, &cut, 3);
    let whole = dir.path().join("whole.parquet");
    let one = ok(&[&slow[..], &["--out", path(&whole)]].concat());
    let o = ok(&[&slow[..], &["--out", path(&cut), "--resume"]].concat());
    assert_eq!(parquet_files(&cut), parquet_files(&whole));
    assert_eq!(checksum_line(&o), checksum_line(&one));
    // Resumed again once finished (a requeued cluster task): nothing to do, the same totals.
    let o = ok(&[&slow[..], &["--out", path(&cut), "--resume"]].concat());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("was finished before"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(checksum_line(&o), checksum_line(&one));
    // Parquet rows need a file.
    refused(
        &["sub", "scan", "--c-max", "10", "--format", "parquet"],
        "--out NAME.parquet",
    );
}

trials!(
    fuzzed_results_are_refused_or_repaired,
    resume_checks_the_rows_it_keeps,
    a_later_run_writes_over_nothing,
    shards_merge_into_one_run,
    surveys_and_octal_scans_merge,
    bad_parts_are_refused_and_nothing_is_written,
    parquet_rows_are_the_csv_rows_and_resume,
);
