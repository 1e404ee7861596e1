//! What the scans share: their output flags checked as the command line checks them, and
//! their rows run into columns or to a file.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::columns::Columns;
use super::refuse;
use nimseq::memory::{Budget, OverBudget};
use nimseq::output::Format;
use nimseq::output::scan::{ScanJob, ScanOutput, Shard, SolveOn, Tally};

/// A whole number checked against a range of the command line, with clap's words, as the
/// type the range is of: a negative or huge one is a `ValueError` naming the argument, not
/// an `OverflowError`.
pub fn in_range<T: Copy + Into<i128> + TryFrom<i128> + std::fmt::Display>(
    name: &str,
    value: i128,
    range: std::ops::RangeInclusive<T>,
) -> PyResult<T> {
    let (lo, hi) = ((*range.start()).into(), (*range.end()).into());
    match T::try_from(value) {
        Ok(v) if (lo..=hi).contains(&value) => Ok(v),
        _ => Err(refuse(format!(
            "invalid value '{value}' for '{name}': {value} is not in {}..={}",
            range.start(),
            range.end()
        ))),
    }
}

/// A whole number that fits `u32`, else a `ValueError` naming the argument.
pub fn whole(name: &str, value: i128) -> PyResult<u32> {
    in_range(name, value, 0..=u32::MAX)
}

/// Columns for the rows a scan of `count` rows in chunks of `chunk` gives `shard`, refused
/// before anything is allocated if they may not fit `budget`; the solvers then get what is left
/// of it.
pub fn columns_within(
    header: &str,
    count: u64,
    shard: Shard,
    chunk: u64,
    budget: &mut Budget,
) -> Result<Columns, OverBudget> {
    // A shard holds its share of the chunks, at most one chunk more than its share of rows.
    let rows = count.min(count.div_ceil(shard.count).saturating_add(chunk));
    let needed = Columns::bytes(header, rows);
    budget.check(needed, || format!("the columns of {rows} rows"))?;
    *budget = budget.less(needed);
    Ok(Columns::new(header, rows))
}

/// Where a scan's rows go: its format, shard, chunks and file, checked as the command line
/// checks its flags.
pub fn scan_output(
    format: Option<&str>,
    shard: &str,
    chunk_size: u64,
    out: Option<PathBuf>,
    resume: bool,
) -> PyResult<ScanOutput> {
    use clap::ValueEnum;
    if chunk_size == 0 {
        return Err(refuse(
            "invalid value '0' for 'chunk_size': 0 is not in 1..",
        ));
    }
    if resume && out.is_none() {
        return Err(refuse("resume=True needs out= (the file to resume)"));
    }
    let format = match format {
        // As on the command line: from the extension of the file, else CSV.
        None => out.as_deref().map_or(Format::Csv, Format::of_path),
        Some(f) => Format::from_str(f, true).map_err(|_| {
            refuse(format!(
                "invalid format '{f}': expected 'csv', 'jsonl' or 'parquet'"
            ))
        })?,
    };
    if out.is_none() && format != Format::Csv {
        return Err(refuse(format!(
            "format='{}' needs out=: without a file the rows come back as columns",
            format
                .to_possible_value()
                .expect("no value is skipped")
                .get_name()
        )));
    }
    Ok(ScanOutput {
        format,
        shard: shard.parse().map_err(refuse)?,
        chunk_size,
        out,
        resume,
    })
}

/// A fraction between 0 and 1, as `--verify-sample` takes it.
pub fn fraction(f: Option<f64>) -> PyResult<Option<f64>> {
    match f {
        Some(f) if !(0.0..=1.0).contains(&f) => Err(refuse(format!(
            "invalid value '{f}' for 'verify_sample': {f} is not a fraction between 0 and 1"
        ))),
        f => Ok(f),
    }
}

/// Runs `job` on `backend`, its rows into `columns` if given (else to its file); the columns
/// and the scan's totals.
pub fn scan_rows<W, T, B>(
    job: ScanJob<'_, W, T>,
    backend: &B,
    mut columns: Option<Columns>,
) -> Result<(Option<Columns>, T), W::Error>
where
    W: SolveOn<B>,
    T: Tally<W::Item, W::Solved>,
    B: Sync,
{
    let tally = match &mut columns {
        Some(columns) => job.run_fields(backend, &mut |field| columns.push(field))?,
        None => job.run(backend, &mut std::io::sink())?,
    };
    Ok((columns, tally))
}

/// A scan's columns as a dict, and its totals as JSON and as text.
pub fn scan_result<'py>(
    py: Python<'py>,
    columns: Option<Columns>,
    summary: &(impl serde::Serialize + std::fmt::Display),
) -> PyResult<ScanResult<'py>> {
    let json = serde_json::to_string(summary).expect("a summary serialises");
    let columns = columns.map(|c| c.into_dict(py)).transpose()?;
    Ok((columns, json, summary.to_string()))
}

/// What a scan gives back: its columns (none when the rows went to a file), and its summary
/// as JSON and as the command line's text.
pub type ScanResult<'py> = (Option<Bound<'py, PyDict>>, String, String);
