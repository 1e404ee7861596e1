//! Subtraction games `S = {a, b, c, ...}`: `G(x) = mex{ G(x - s) : s in S, s <= x }`.
//!
//! * [`ruleset`]: the set, parsed and checked.
//! * [`reference`]: the recurrence and period search as the spec states them, slow and plain.
//! * [`planes`] and [`fast`]: 64 positions per word operation, candidate periods, all cores.
//! * [`gpu`]: one invocation per triple, lock-step, period detection on the GPU.
//! * [`seq`]: one ruleset in full, with its certificate.
//! * [`scan`]: the work list of triples, chunked, checkpointed, sharded; [`summary`] its totals.
//! * [`theory`]: closed forms from Manabe's paper.

pub mod fast;
pub mod gpu;
pub mod planes;
pub mod plot;
pub mod reference;
pub mod ruleset;
pub mod scan;
pub mod seq;
pub mod solution;
pub mod summary;
pub mod survey;
pub mod theory;
pub mod triple;
pub mod triple_solver;

pub use ruleset::Ruleset;
pub use solution::{NotCertified, Solution};
pub use triple::{Triple, TripleFilter};
