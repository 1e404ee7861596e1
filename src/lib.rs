//! nimseq: exact Sprague-Grundy values of impartial games in bulk, on the GPU and the CPU.
//!
//! # Brief overview
//! Each game family has a module holding its reference solver (the raw rules, slow and plain),
//! a fast CPU path, GPU host code (WGSL in `shaders/`) and its theory. Shared pieces:
//! [`period`] (certified periods), [`gpu`] (wgpu plumbing), [`output`] (rows and resumable files).
//!
//! # Example
//! The subtraction game `{3, 8, 13}` is purely periodic with period 16 (docs/subtraction.md,
//! section 6):
//! ```
//! use nimseq::subtraction::{fast::FastSolver, Ruleset};
//! let set: Ruleset = "3,8,13".parse().unwrap();
//! let s = FastSolver::default().solve(&set, 1 << 20).unwrap();
//! assert_eq!((s.period, s.preperiod), (16, 0));
//! ```

pub mod arrows;
pub mod backend;
pub mod bench;
pub mod gpu;
pub mod kcross;
pub mod memory;
pub mod mex;
pub mod misere;
pub mod octal;
pub mod output;
pub mod period;
pub mod position;
pub mod refusal;
pub mod subtraction;

/// A fresh seed for each run of a unit test's random cases (`NIMSEQ_SEED` replays one); the
/// tests print it with any failure.
#[cfg(test)]
pub(crate) fn test_seed() -> u64 {
    std::env::var("NIMSEQ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(rand::random::<u64>)
}

/// The crate's version, which the Python package reports as `nimseq.__version__`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A request nimseq refuses as the user's to fix (exit code 2 at the command line): one line
/// naming what is wrong and, where there is one, what to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);
