//! Subtraction games `S = {a, b, c, ...}`: `G(x) = mex{ G(x - s) : s in S, s <= x }`.
//!
//! * [`ruleset`]: the set, parsed and checked.
//! * [`reference`](mod@reference): the recurrence and period search as
//!   docs/subtraction.md (section 2) states them, slow and plain.
//! * [`moveset`]: the sets a scan visits (2 to 7 moves), and the triples of the theory.
//! * [`set_solver`]: one set of 2 to 7 moves at a time: binary planes, every candidate period
//!   compared with every word.
//! * [`row_math`]: the set solver's arithmetic on a row, portable or AVX-512.
//! * [`lanes`]: the fast path of a scan: many sets at once, a set a lane of [`lane_math`]
//!   (portable, AVX2, AVX-512), handing the rare hard set to [`set_solver`].
//! * [`planes`] and [`fast`]: the fast path for any set: one-hot planes, candidate periods.
//! * [`gpu`]: one invocation per set, lock-step, period detection on the GPU.
//! * [`seq`]: one ruleset in full, with its certificate.
//! * [`infinite`]: infinite sets (all-but, squares, powers, primes): values by counts, arithmetic
//!   periods observed; [`all_but_scan`] every all-but set of a size and bound.
//! * [`scan`]: the work list of sets, chunked, checkpointed, sharded; [`summary`] its totals.
//! * [`theory`]: closed forms from Manabe's paper.

pub mod all_but;
pub mod all_but_scan;
pub mod fast;
pub mod gpu;
pub mod infinite;
pub mod lane_math;
pub mod lanes;
pub mod misere;
pub mod misere_survey;
pub mod moveset;
pub mod planes;
pub mod plot;
pub mod reference;
pub mod row_math;
pub mod ruleset;
pub mod scan;
pub mod seq;
pub mod set_solver;
pub mod solution;
pub mod summary;
pub mod survey;
pub mod theory;

pub use moveset::{MoveSet, SetFilter, Triple};
pub use ruleset::Ruleset;
pub use solution::{NotCertified, Solution};
