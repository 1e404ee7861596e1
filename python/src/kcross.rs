//! Inverse k-cross: `nimseq kcross seq` and `kcross value`.

use indicatif::MultiProgress;
use pyo3::prelude::*;

use super::{Bytes, budget, refuse, run};
use nimseq::backend::{BackendChoice, choose};
use nimseq::kcross::Board;
use nimseq::kcross::board::parse_k;
use nimseq::kcross::gpu::KcrossGpu;
use nimseq::kcross::sequences::{self, Backend, Boards, Solver};
use nimseq::memory::Budget;

const BACKENDS: [BackendChoice; 4] = [
    BackendChoice::Auto,
    BackendChoice::Reference,
    BackendChoice::Cpu,
    BackendChoice::Gpu,
];

/// A solver of `k` for boards of up to `n` cells on `choice`, sized and checked before an
/// adapter is probed, as the command line does.
fn with_solver<T>(
    k: u32,
    n: usize,
    choice: BackendChoice,
    budget: Budget,
    boards: Boards,
    work: impl FnOnce(&mut Solver) -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    sequences::check_size(k as usize, n, choice == BackendChoice::Reference, budget)?;
    let chosen = choose(choice)?.announce();
    let gpu = chosen.gpu().map(KcrossGpu::new).transpose()?;
    let backend = Backend::of(&chosen, gpu.as_ref());
    let bars = MultiProgress::new();
    let mut solver = Solver::new(k as usize, n, &backend, budget, &bars, boards, None)?;
    work(&mut solver)
}

fn k_of(k: u32) -> PyResult<u32> {
    parse_k(&k.to_string()).map_err(refuse)
}

/// `G([n])` for n = 0..=n_max: the values of `nimseq kcross seq`.
#[pyfunction]
#[pyo3(signature = (k, n_max=50, backend="auto", mem_budget=None))]
fn kcross_values<'py>(
    py: Python<'py>,
    k: u32,
    n_max: usize,
    backend: &str,
    mem_budget: Option<Bytes>,
) -> PyResult<Bound<'py, PyAny>> {
    let k = k_of(k)?;
    let choice = super::backend(backend, &BACKENDS)?;
    let budget = budget(mem_budget)?;
    let values = run(py, |_| {
        with_solver(k, n_max, choice, budget, Boards::EmptyStrips, |solver| {
            Ok(sequences::strips(solver, n_max)?)
        })
    })?;
    Ok(numpy::IntoPyArray::into_pyarray(values, py).into_any())
}

/// The value of one board in the paper's notation: `nimseq kcross value`.
#[pyfunction]
#[pyo3(signature = (board, k, backend="auto", mem_budget=None))]
fn kcross_value(
    py: Python<'_>,
    board: &str,
    k: u32,
    backend: &str,
    mem_budget: Option<Bytes>,
) -> PyResult<u8> {
    let k = k_of(k)?;
    let board: Board = board
        .parse()
        .map_err(|e: nimseq::kcross::board::BoardError| refuse(e.reason))?;
    board.check(k as usize).map_err(|e| refuse(e.to_string()))?;
    let choice = super::backend(backend, &BACKENDS)?;
    let budget = budget(mem_budget)?;
    let size = if choice == BackendChoice::Reference {
        board.cells.len()
    } else {
        nimseq::kcross::value::table_size(&board, k as usize)
    };
    run(py, |_| {
        with_solver(k, size, choice, budget, Boards::Any, |solver| {
            Ok(nimseq::kcross::value::describe(&board, k as usize, solver)?.value)
        })
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(kcross_values, m)?)?;
    m.add_function(wrap_pyfunction!(kcross_value, m)?)?;
    Ok(())
}
