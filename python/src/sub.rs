//! Subtraction games: `nimseq sub seq` and `sub scan`.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::scan::{
    ScanResult, columns_within, fraction, in_range, scan_output, scan_result, scan_rows, whole,
};
use super::{Bytes, budget, misere, narrow, position_json, refuse, run};
use nimseq::backend::{BackendChoice, choose};
use nimseq::misere::position as misere_position;
use nimseq::output::scan::{Scan, ScanJob};
use nimseq::period::Arithmetic;
use nimseq::position;
use nimseq::subtraction::infinite::{self, InfiniteSet, SetError};
use nimseq::subtraction::misere::{self, Genera};
use nimseq::subtraction::planes::Planes;
use nimseq::subtraction::scan::{
    Backend, C_MAX_RANGE, DEFAULT_CHUNK_SIZE, ScanOptions, check_theory,
};
use nimseq::subtraction::seq;
use nimseq::subtraction::summary::ScanSummary;
use nimseq::subtraction::{Ruleset, SetFilter};

/// The set as the command line reads it ("1,4,7"), refused with its message.
fn ruleset(moves: &str) -> PyResult<Ruleset> {
    moves
        .parse::<Ruleset>()
        .map_err(|e| refuse(e.kind.to_string()))
}

/// `G(0..n)` of `moves`, as the smallest unsigned type that holds them: a finite set
/// ("1,4,7"), or an infinite one by name ("squares", "primes", "powers:2", "all-but:2,3,7").
/// Under misère play (`play="misere"`), `G-(0..n)` of a finite set.
#[pyfunction]
#[pyo3(signature = (moves, n, mem_budget=None, play="normal"))]
fn sub_values<'py>(
    py: Python<'py>,
    moves: &str,
    n: usize,
    mem_budget: Option<Bytes>,
    play: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let budget = budget(mem_budget)?;
    let infinite = moves
        .trim_start()
        .starts_with(|c: char| c.is_ascii_alphabetic());
    if misere(play)? && infinite {
        let set: InfiniteSet = moves.parse().map_err(|e: SetError| refuse(e.0))?;
        let values = run(py, |_| {
            Ok(infinite::describe_misere(&set, n, n, budget)?
                .heaps
                .misere_values)
        })?;
        let max = values.iter().copied().max().unwrap_or(0);
        return Ok(narrow(py, values, max));
    }
    if misere(play)? {
        let set = ruleset(moves)?;
        let values = run(py, |_| {
            budget.check(misere::memory(n, n), || format!("{n} genera of {set}"))?;
            let mut genera = Genera::new(&set);
            Ok(genera
                .extend(n)?
                .iter()
                .map(|g| g.minus())
                .collect::<Vec<u32>>())
        })?;
        // A misère value is a mex of at most |S| values, or 1.
        return Ok(narrow(py, values, set.max_value().max(1) as u32));
    }
    if infinite {
        let set: InfiniteSet = moves.parse().map_err(|e: SetError| refuse(e.0))?;
        let values = run(py, |_| Ok(infinite::values(&set, n, budget)?))?;
        let max = values.iter().copied().max().unwrap_or(0);
        return Ok(narrow(py, values, max));
    }
    let set = ruleset(moves)?;
    let values = run(py, |_| {
        budget.check(seq::memory(&set, n, n), || format!("{n} values of {set}"))?;
        let mut planes = Planes::default();
        planes.reset(set.moves());
        planes.extend(n);
        Ok((0..n).map(|x| planes.value(x)).collect::<Vec<u32>>())
    })?;
    // A value is at most the number of moves.
    Ok(narrow(py, values, set.max_value() as u32))
}

/// The certified period of `moves` within `max_len` values, as a dict of the certificate's
/// fields (`certified` false, the rest `None`, when none was certified).
#[pyfunction]
#[pyo3(signature = (moves, max_len=1 << 26, mem_budget=None))]
fn sub_period<'py>(
    py: Python<'py>,
    moves: &str,
    max_len: usize,
    mem_budget: Option<Bytes>,
) -> PyResult<Bound<'py, PyDict>> {
    let set = ruleset(moves)?;
    let budget = budget(mem_budget)?;
    let report = run(py, |_| Ok(seq::describe(&set, 0, max_len, budget)?))?;
    let d = PyDict::new(py);
    d.set_item("set", report.set)?;
    d.set_item("certified", report.certified)?;
    match report.solution {
        Some(s) => {
            d.set_item("period", s.period)?;
            d.set_item("preperiod", s.preperiod)?;
            d.set_item("outcome_period", s.outcome_period)?;
            d.set_item("outcome_preperiod", s.outcome_preperiod)?;
            d.set_item("window", (s.certificate.from, s.certificate.to))?;
        }
        None => {
            for key in [
                "period",
                "preperiod",
                "outcome_period",
                "outcome_preperiod",
                "window",
            ] {
                d.set_item(key, py.None())?;
            }
        }
    }
    d.set_item("checked_len", report.computed)?;
    Ok(d)
}

/// The arithmetic period of an infinite set ("all-but:2,3,7", "squares", ...), as `sub seq`
/// finds it within `G(0..max_len)`: proved (all-but sets, Theorem 7.1) or observed; of the
/// misère values under `play="misere"`.
#[pyfunction]
#[pyo3(signature = (moves, max_len=1 << 16, mem_budget=None, play="normal"))]
fn sub_arithmetic<'py>(
    py: Python<'py>,
    moves: &str,
    max_len: usize,
    mem_budget: Option<Bytes>,
    play: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let set: InfiniteSet = moves.parse().map_err(|e: SetError| refuse(e.0))?;
    let budget = budget(mem_budget)?;
    let (certificate, observed, computed) = if misere(play)? {
        let r = run(py, |_| {
            Ok(infinite::describe_misere(&set, 0, max_len, budget)?)
        })?;
        (r.certificate, r.observed, r.computed)
    } else {
        let r = run(py, |_| Ok(infinite::describe(&set, 0, max_len, budget)?))?;
        (r.certificate, r.observed, r.computed)
    };
    let triple = |a: Option<Arithmetic>| a.map(|a| (a.period, a.preperiod, a.saltus));
    let d = PyDict::new(py);
    d.set_item("set", set.to_string())?;
    d.set_item("certified", certificate.is_some())?;
    let (period, preperiod, saltus) = match triple(certificate) {
        Some((p, q, s)) => (Some(p), Some(q), Some(s)),
        None => (None, None, None),
    };
    d.set_item("period", period)?;
    d.set_item("preperiod", preperiod)?;
    d.set_item("saltus", saltus)?;
    d.set_item("observed", triple(observed))?;
    d.set_item("checked_len", computed)?;
    Ok(d)
}

/// Rulesets per chunk of a scan into columns on the CPU, unless asked otherwise. Chunks of a
/// scan without a file only bound what is in flight: the command line's 262,144 (sized for a
/// GPU call) hold 2.5 times the columns' memory at c <= 200, these 1.5 times, as fast.
const COLUMNS_CHUNK_SIZE: u64 = 1 << 16;

/// Every set of the bounds through one backend: the rows of `nimseq sub scan`.
#[pyfunction]
#[pyo3(signature = (
    moves=3, c_max=200, c_min=0, a_min=1, a_max=None, b_min=2, b_max=None, primitive=false,
    theory=false, backend="auto", out=None, resume=false, format=None, shard="1/1",
    chunk_size=None, verify_sample=None,
    mem_budget=None, play="normal",
))]
#[allow(clippy::too_many_arguments)]
fn sub_scan<'py>(
    py: Python<'py>,
    moves: i128,
    c_max: i128,
    c_min: i128,
    a_min: i128,
    a_max: Option<i128>,
    b_min: i128,
    b_max: Option<i128>,
    primitive: bool,
    theory: bool,
    backend: &str,
    out: Option<PathBuf>,
    resume: bool,
    format: Option<&str>,
    shard: &str,
    chunk_size: Option<u64>,
    verify_sample: Option<f64>,
    mem_budget: Option<Bytes>,
    play: &str,
) -> PyResult<ScanResult<'py>> {
    use BackendChoice::*;
    let filter = SetFilter {
        moves: in_range("moves", moves, 2..=7u8)?.into(),
        c_min: whole("c_min", c_min)?,
        // Within 2..=100000: the cast keeps the value.
        c_max: in_range("c_max", c_max, C_MAX_RANGE)? as u32,
        a_min: whole("a_min", a_min)?,
        a_max: a_max.map(|a| whole("a_max", a)).transpose()?,
        b_min: whole("b_min", b_min)?,
        b_max: b_max.map(|b| whole("b_max", b)).transpose()?,
        primitive,
    }
    .canonical();
    let choice = super::backend(backend, &[Auto, Reference, Cpu, Gpu])?;
    filter.check().map_err(|e| refuse(e.0))?;
    check_theory(&filter, theory).map_err(|e| refuse(e.0))?;
    let to_columns = out.is_none();
    let mut opts = ScanOptions {
        filter,
        output: scan_output(
            format,
            shard,
            chunk_size.unwrap_or(DEFAULT_CHUNK_SIZE),
            out,
            resume,
        )?,
        misere: misere(play)?,
        theory,
        verify_sample: fraction(verify_sample)?,
        budget: budget(mem_budget)?,
    };
    // The columns are checked against the budget before anything is allocated: their size is
    // known from the bounds alone (the chunk size bounds the one a shard may hold over its
    // share).
    let columns = to_columns
        .then(|| {
            let chunk = chunk_size.unwrap_or(DEFAULT_CHUNK_SIZE);
            let (header, count, shard) = (opts.header(), opts.count(), opts.output.shard);
            columns_within(header, count, shard, chunk, &mut opts.budget)
        })
        .transpose()
        .map_err(|e| refuse(e.to_string()))?;
    let (columns, summary) = run(py, move |stop| {
        let Some(columns) = columns else {
            // The file is opened before a backend is chosen, as on the command line: a bad
            // path fails before any work.
            let job = ScanJob::<_, ScanSummary>::open(&opts)?;
            let chosen = choose(choice)?;
            let backend = Backend::chosen(&chosen, &opts)?;
            return Ok(scan_rows(job.stop_on(stop), &backend, None)?);
        };
        let chosen = choose(choice)?;
        let backend = Backend::chosen(&chosen, &opts)?;
        if chunk_size.is_none() && !matches!(backend, Backend::Gpu(_)) {
            opts.output.chunk_size = COLUMNS_CHUNK_SIZE;
        }
        let job = ScanJob::<_, ScanSummary>::open(&opts)?.stop_on(stop);
        Ok(scan_rows(job, &backend, Some(columns))?)
    })?;
    scan_result(py, columns, &summary)
}

/// A position of several heaps, as `nimseq sub value --format json` prints it (with
/// `--play misere` under misère play).
#[pyfunction]
#[pyo3(signature = (moves, heaps, mem_budget=None, play="normal"))]
fn sub_value(
    py: Python<'_>,
    moves: &str,
    heaps: &str,
    mem_budget: Option<Bytes>,
    play: &str,
) -> PyResult<String> {
    let set = ruleset(moves)?;
    if misere(play)? {
        return position_json(py, heaps, mem_budget, |heaps, budget| {
            misere_position::subtraction(&set, heaps, budget)
        });
    }
    position_json(py, heaps, mem_budget, |heaps, budget| {
        position::subtraction(&set, heaps, budget)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(sub_values, m)?)?;
    m.add_function(wrap_pyfunction!(sub_value, m)?)?;
    m.add_function(wrap_pyfunction!(sub_period, m)?)?;
    m.add_function(wrap_pyfunction!(sub_arithmetic, m)?)?;
    m.add_function(wrap_pyfunction!(sub_scan, m)?)?;
    Ok(())
}
