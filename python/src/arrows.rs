//! The Game of Arrows: `nimseq arrows value`.

use pyo3::prelude::*;

use super::{Bytes, budget, refuse, run};
use nimseq::arrows::Tree;
use nimseq::arrows::value::{Solver, describe_with_bar};
use nimseq::backend::BackendChoice;

/// The value of one tree, in any of the command line's notations.
#[pyfunction]
#[pyo3(signature = (tree, backend="auto", mem_budget=None))]
fn arrows_value(
    py: Python<'_>,
    tree: &str,
    backend: &str,
    mem_budget: Option<Bytes>,
) -> PyResult<u32> {
    let tree: Tree = tree
        .parse()
        .map_err(|e: nimseq::arrows::tree::TreeError| refuse(e.reason))?;
    // No GPU path: the CPU's fills are the tool for one tree.
    let choice = super::backend(
        backend,
        &[
            BackendChoice::Auto,
            BackendChoice::Reference,
            BackendChoice::Cpu,
        ],
    )?;
    let budget = budget(mem_budget)?;
    run(py, |stop| {
        let solver = Solver::for_tree(&tree, choice == BackendChoice::Reference, budget)?;
        Ok(describe_with_bar(&tree, solver, Some(stop))?.g)
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arrows_value, m)?)?;
    Ok(())
}
