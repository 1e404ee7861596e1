//! `nimseq._nimseq`: the native half of the Python package. Each function checks its input
//! with the library's own parsers and checks (so a refusal reads as on the command line),
//! runs the work on a thread of its own with the GIL released, and hands back NumPy arrays
//! or plain Python values. The `nimseq` Python package wraps these with docstrings and types.

mod arrows;
mod columns;
mod kcross;
mod octal;
mod scan;
mod sub;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use numpy::{Element, IntoPyArray};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use nimseq::InputError;
use nimseq::backend::BackendChoice;
use nimseq::memory::Budget;
use nimseq::refusal::is_bad_input;

/// How often a running call looks for a Ctrl-C.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Stack of the worker thread: as large as a command-line main thread's and more, since the
/// tree solvers recurse.
const WORKER_STACK: usize = 64 << 20;

/// Runs `work` on a thread of its own with the GIL released, looking for signals meanwhile.
/// A Ctrl-C sets the flag `work` was given and waits for it to end (the scans and the octal
/// engine stop at their next step), then raises `KeyboardInterrupt`: no thread goes on
/// computing behind the user's back. Errors the user can fix become `ValueError` with the
/// command line's message; other errors and panics become `RuntimeError`.
fn run<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> anyhow::Result<T> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let (done, mut result) = mpsc::channel();
    std::thread::scope(|scope| {
        let stop = &stop;
        std::thread::Builder::new()
            .name("nimseq".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, move || {
                let _ = done.send(catch_unwind(AssertUnwindSafe(|| work(stop))));
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        let mut interrupt = None;
        let outcome = loop {
            // The receiver travels into the GIL-free closure and back (it is not `Sync`).
            let (got, back) = py.detach(move || (result.recv_timeout(SIGNAL_POLL), result));
            result = back;
            match got {
                Ok(outcome) => break outcome,
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "the worker thread ended without a result",
                    ));
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if interrupt.is_none()
                && let Err(e) = py.check_signals()
            {
                stop.store(true, Ordering::Relaxed);
                interrupt = Some(e);
            }
        };
        if let Some(e) = interrupt {
            return Err(e);
        }
        match outcome {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(to_py_error(&e)),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                Err(PyRuntimeError::new_err(format!("nimseq failed: {what}")))
            }
        }
    })
}

/// The command line's message (`error: ...` without the prefix), as `ValueError` where the
/// command line exits 2.
fn to_py_error(e: &anyhow::Error) -> PyErr {
    let message = python_names(&format!("{e:#}"));
    if is_bad_input(e) {
        PyValueError::new_err(message)
    } else {
        PyRuntimeError::new_err(message)
    }
}

/// `message` with each command-line flag named as the keyword argument it is in Python:
/// `--c-max 2 is below --moves 3` reads `c_max 2 is below moves 3`.
fn python_names(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let name = &rest[at + 2..];
        let end = name
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(name.len());
        if end > 0 && name.as_bytes()[0].is_ascii_lowercase() {
            out.push_str(&name[..end].replace('-', "_"));
        } else {
            out.push_str("--");
            out.push_str(&name[..end]);
        }
        rest = &name[end..];
    }
    out.push_str(rest);
    out
}

/// A position of several heaps (`"3,5,8"`), as `value --format json` prints it, from the
/// family's `solve`.
fn position_json<R: serde::Serialize + Send>(
    py: Python<'_>,
    heaps: &str,
    mem_budget: Option<Bytes>,
    solve: impl FnOnce(&[usize], Budget) -> anyhow::Result<R> + Send,
) -> PyResult<String> {
    let heaps = nimseq::position::parse_heaps(heaps).map_err(refuse)?;
    let budget = budget(mem_budget)?;
    let report = run(py, |_| solve(&heaps, budget))?;
    Ok(serde_json::to_string(&report).expect("a report serialises"))
}

/// An input refused before any work, as the command line words it.
fn refuse(message: impl Into<String>) -> PyErr {
    to_py_error(&InputError(message.into()).into())
}

/// `mem_budget=`: bytes as an int, or a size such as "16G"; `None` is half the machine's
/// memory, as on the command line.
#[derive(FromPyObject)]
enum Bytes {
    Count(u64),
    Text(String),
}

/// Whether `play` asks for misère play: "normal" or "misere" ("misère" too), else refused.
fn misere(play: &str) -> PyResult<bool> {
    match play {
        "normal" => Ok(false),
        "misere" | "misère" => Ok(true),
        _ => Err(refuse(format!(
            "play must be \"normal\" or \"misere\", not \"{play}\""
        ))),
    }
}

fn budget(flag: Option<Bytes>) -> PyResult<Budget> {
    let bytes = match flag {
        None => None,
        Some(Bytes::Count(n)) => Some(n),
        Some(Bytes::Text(s)) => Some(nimseq::memory::parse_bytes(&s).map_err(refuse)?),
    };
    Ok(Budget::from_flag(bytes))
}

/// `backend=` among `allowed` (the command's `--backend` values), named as on the command line.
fn backend(name: &str, allowed: &[BackendChoice]) -> PyResult<BackendChoice> {
    use clap::ValueEnum;
    let names = || {
        allowed
            .iter()
            .map(|b| format!("'{}'", b.to_possible_value().expect("named").get_name()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    BackendChoice::from_str(name, true)
        .ok()
        .filter(|b| allowed.contains(b))
        .ok_or_else(|| {
            refuse(format!(
                "invalid backend '{name}': expected one of {}",
                names()
            ))
        })
}

/// Values as the smallest unsigned NumPy type that holds `max`: uint8, uint16 or uint32.
fn narrow<'py>(py: Python<'py>, values: Vec<u32>, max: u32) -> Bound<'py, PyAny> {
    fn cast<'py, T: Element + TryFrom<u32>>(
        py: Python<'py>,
        values: Vec<u32>,
    ) -> Bound<'py, PyAny> {
        values
            .into_iter()
            .map(|v| {
                T::try_from(v)
                    .ok()
                    .expect("checked against the largest value")
            })
            .collect::<Vec<T>>()
            .into_pyarray(py)
            .into_any()
    }
    if max <= u32::from(u8::MAX) {
        cast::<u8>(py, values)
    } else if max <= u32::from(u16::MAX) {
        cast::<u16>(py, values)
    } else {
        values.into_pyarray(py).into_any()
    }
}

#[pymodule]
fn _nimseq(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // What the command line says on stderr (the backend chosen, ...) goes to Python's logging,
    // logger `nimseq` (`nimseq.backend`, ...): silent unless the user configures logging.
    // Levels are read at each record, not cached, so that logging configured later applies.
    pyo3_log::Logger::new(m.py(), pyo3_log::Caching::Nothing)?
        .install()
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    m.add("__version__", nimseq::VERSION)?;
    sub::register(m)?;
    octal::register(m)?;
    kcross::register(m)?;
    arrows::register(m)?;
    Ok(())
}
