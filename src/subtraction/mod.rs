//! Subtraction games `S = {a, b, c, ...}`: `G(x) = mex{ G(x - s) : s in S, s <= x }`.
//!
//! * [`ruleset`]: the set, parsed and checked.
//! * [`reference`](mod@reference): the recurrence and period search as the spec states them, slow and plain.
//! * [`triple_solver`]: the fast path for triples, a scan's work: two binary planes, every
//!   candidate period compared with every word, all cores.
//! * [`row_math`]: the triple solver's arithmetic on a row, portable or AVX-512.
//! * [`planes`] and [`fast`]: the fast path for any set: one-hot planes, candidate periods.
//! * [`gpu`]: one invocation per triple, lock-step, period detection on the GPU.
//! * [`seq`]: one ruleset in full, with its certificate.
//! * [`scan`]: the work list of triples, chunked, checkpointed, sharded; [`summary`] its totals.
//! * [`theory`]: closed forms from Manabe's paper.

pub mod fast;
pub mod gpu;
pub mod planes;
pub mod plot;
pub mod reference;
pub mod row_math;
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
