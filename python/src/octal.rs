//! Octal games: `nimseq octal seq`, `stats` and `scan`.

use std::path::PathBuf;
use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::scan::{
    ScanResult, columns_within, fraction, in_range, scan_output, scan_result, scan_rows,
};
use super::{Bytes, budget, misere, narrow, position_json, refuse, run};
use nimseq::backend::{BackendChoice, choose};
use nimseq::misere::position as misere_position;
use nimseq::octal::OctalCode;
use nimseq::octal::misere as octal_misere;
use nimseq::octal::quotient::{self, DEFAULT_MAX_ORDER};
use nimseq::octal::scan::{
    Backend, MAX_DIGITS, N_MAX_RANGE, OctalScanSummary, ScanOptions, code_count, parse_base,
    parse_d0,
};
use nimseq::octal::seq::{Reach, describe_with_bar};
use nimseq::output::scan::{Scan, ScanJob};
use nimseq::position;

fn code(text: &str) -> PyResult<OctalCode> {
    text.parse::<OctalCode>().map_err(|e| refuse(e.reason))
}

/// `G(0..n)` of `code`, as the smallest unsigned type that holds them; `G-(0..n)` under misère
/// play (`play="misere"`), from every sum of heaps below `n`.
#[pyfunction]
#[pyo3(signature = (code, n, mem_budget=None, play="normal"))]
fn octal_values<'py>(
    py: Python<'py>,
    code: &str,
    n: usize,
    mem_budget: Option<Bytes>,
    play: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let code = self::code(code)?;
    let budget = budget(mem_budget)?;
    if misere(play)? {
        let values = run(py, |_| {
            Ok(octal_misere::describe(&code, n, n, budget)?
                .heaps
                .misere_values)
        })?;
        let max = values.iter().copied().max().unwrap_or(0);
        return Ok(narrow(py, values, max));
    }
    let report = run(py, |stop| {
        let reach = Reach {
            len: n,
            max_len: n,
            look_for_period: false,
            max_time: None,
            stop: Some(stop),
            saving: None,
            bounded: false,
        };
        Ok(describe_with_bar(&code, &reach, budget)?)
    })?;
    Ok(narrow(py, report.values, report.max_value))
}

/// The certified period of `code`, looked for as `octal seq` does, as a dict.
#[pyfunction]
#[pyo3(signature = (code, max_len=1 << 20, max_time=20.0, mem_budget=None))]
fn octal_period<'py>(
    py: Python<'py>,
    code: &str,
    max_len: usize,
    max_time: f64,
    mem_budget: Option<Bytes>,
) -> PyResult<Bound<'py, PyDict>> {
    let code = self::code(code)?;
    let budget = budget(mem_budget)?;
    if !(max_time >= 0.0 && max_time.is_finite()) {
        return Err(refuse(format!(
            "max_time: {max_time} is not a number of seconds >= 0"
        )));
    }
    let report = run(py, |stop| {
        let reach = Reach {
            len: 0,
            max_len,
            look_for_period: true,
            // Past what a Duration holds (1e300 s) is no limit at all.
            max_time: (max_time > 0.0)
                .then(|| Duration::try_from_secs_f64(max_time).ok())
                .flatten(),
            stop: Some(stop),
            saving: None,
            bounded: false,
        };
        Ok(describe_with_bar(&code, &reach, budget)?)
    })?;
    let d = PyDict::new(py);
    d.set_item("code", &report.code)?;
    d.set_item("certified", report.certified)?;
    match &report.certificate {
        Some(c) => {
            d.set_item("period", c.period)?;
            d.set_item("preperiod", c.preperiod)?;
            d.set_item("window", (c.from, c.to))?;
            d.set_item("window_kind", c.window)?;
        }
        None => {
            for key in ["period", "preperiod", "window", "window_kind"] {
                d.set_item(key, py.None())?;
            }
        }
    }
    let observed = report.observed.map(|a| (a.period, a.preperiod, a.saltus));
    d.set_item("observed", observed)?;
    d.set_item("computed", report.computed)?;
    d.set_item("timed_out", report.timed_out)?;
    d.set_item("max_value", report.max_value)?;
    d.set_item("rare_count", report.split.rare_count)?;
    d.set_item("checksum", &report.checksum)?;
    Ok(d)
}

/// Every code of `digits` digits to `n_max`: the rows of `nimseq octal scan`.
#[pyfunction]
#[pyo3(signature = (
    digits=3, n_max=1 << 16, backend="auto", out=None, resume=false, format=None,
    shard="1/1", chunk_size=16, verify_sample=None, mem_budget=None, base=8, d0=0,
))]
#[allow(clippy::too_many_arguments)]
fn octal_scan<'py>(
    py: Python<'py>,
    digits: i128,
    n_max: i128,
    backend: &str,
    out: Option<PathBuf>,
    resume: bool,
    format: Option<&str>,
    shard: &str,
    chunk_size: u64,
    verify_sample: Option<f64>,
    mem_budget: Option<Bytes>,
    base: i128,
    d0: i128,
) -> PyResult<ScanResult<'py>> {
    use BackendChoice::*;
    let digits = in_range("digits", digits, 1..=MAX_DIGITS as u64)?;
    let base = parse_base(&base.to_string())
        .map_err(|why| refuse(format!("invalid value '{base}' for 'base': {why}")))?;
    let d0 = parse_d0(&d0.to_string())
        .map_err(|why| refuse(format!("invalid value '{d0}' for 'd0': {why}")))?;
    let n_max = in_range("n_max", n_max, N_MAX_RANGE)?;
    let choice = super::backend(backend, &[Auto, Reference, Cpu, Gpu])?;
    let to_columns = out.is_none();
    let mut opts = ScanOptions {
        digits: digits as usize,
        base,
        d0,
        n_max: n_max as usize,
        output: scan_output(format, shard, chunk_size, out, resume)?,
        verify_sample: fraction(verify_sample)?,
        budget: budget(mem_budget)?,
    };
    // Checked against the budget before anything is allocated, as for subtraction scans.
    let columns = to_columns
        .then(|| {
            let (header, count) = (opts.header(), code_count(opts.digits, opts.base));
            columns_within(
                header,
                count,
                opts.output.shard,
                chunk_size,
                &mut opts.budget,
            )
        })
        .transpose()
        .map_err(|e| refuse(e.to_string()))?;
    let (columns, summary) = run(py, |stop| {
        // Opened before a backend is chosen: a bad path fails before any work.
        let job = ScanJob::<_, OctalScanSummary>::open(&opts)?.stop_on(stop);
        let chosen = choose(choice)?;
        let backend = Backend::chosen(&chosen, &opts)?;
        Ok(scan_rows(job, &backend, columns)?)
    })?;
    scan_result(py, columns, &summary)
}

/// A position of several heaps, as `nimseq octal value --format json` prints it (with
/// `--play misere` under misère play).
#[pyfunction]
#[pyo3(signature = (code, heaps, mem_budget=None, play="normal"))]
fn octal_value(
    py: Python<'_>,
    code: &str,
    heaps: &str,
    mem_budget: Option<Bytes>,
    play: &str,
) -> PyResult<String> {
    let code = self::code(code)?;
    if misere(play)? {
        return position_json(py, heaps, mem_budget, |heaps, budget| {
            misere_position::octal(&code, heaps, budget)
        });
    }
    position_json(py, heaps, mem_budget, |heaps, budget| {
        position::octal(&code, heaps, budget)
    })
}

/// The misère quotient of the heaps up to `heap_max`, as `nimseq octal quotient --format json`
/// prints it.
#[pyfunction]
#[pyo3(signature = (code, heap_max, max_order=DEFAULT_MAX_ORDER, check_total=None, mem_budget=None))]
fn octal_quotient(
    py: Python<'_>,
    code: &str,
    heap_max: usize,
    max_order: u64,
    check_total: Option<usize>,
    mem_budget: Option<Bytes>,
) -> PyResult<String> {
    let code = self::code(code)?;
    if max_order == 0 {
        return Err(refuse("max_order must be 1 or more"));
    }
    if check_total == Some(0) {
        return Err(refuse("check_total must be 1 or more"));
    }
    let budget = budget(mem_budget)?;
    let report = run(py, |_| {
        Ok(quotient::describe(
            &code,
            heap_max,
            max_order,
            check_total,
            budget,
        )?)
    })?;
    Ok(serde_json::to_string(&report).expect("a report serialises"))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(octal_quotient, m)?)?;
    m.add_function(wrap_pyfunction!(octal_values, m)?)?;
    m.add_function(wrap_pyfunction!(octal_value, m)?)?;
    m.add_function(wrap_pyfunction!(octal_period, m)?)?;
    m.add_function(wrap_pyfunction!(octal_scan, m)?)?;
    Ok(())
}
