//! Octal games (take-and-break, docs/octal.md): `d0.d1d2...dt`, the general family that
//! subtraction games belong to.
//!
//! * [`code`]: codes as typed, checked: octal, hexadecimal, with `!` (Grundy's game, `4!.0`).
//! * [`canonical`]: the least code that is the same game, whose row a scan copies.
//! * [`reference`](mod@reference): the rule with every option listed, O(n^2): the oracle.
//! * [`fast`]: the rare/common split, exact for any split and fast for a good one.
//! * [`gpu`]: the scan's codes in lock-step on the GPU, one workgroup each.
//! * [`held`]: the values as the engine holds them: all, or a bounded run's two ends.
//! * [`lanes`]: its two inner loops, plain and AVX-512.
//! * [`quotient`]: the misère quotient of a code's heaps, as a report.
//! * [`pairs`]: the fast path of codes that split a heap in three (hexadecimal digits past 7).
//! * [`snapshot`]: a bounded run's checkpoint: its state, rewritten whole now and then.
//! * [`solver`]: whichever of the two suits a code.
//! * [`tally`]: what a run counts over its values as they come (checksums, frequencies).
//! * [`row`]: one code's row of a scan, from whichever solver's values.
//! * [`scan`]: every code of k digits, one row each, resumable.
//! * [`seq`]: one code in full: values, P-positions, the certified period (Guy-Smith window),
//!   the ogsolve-compatible checksum, the split's figures.

pub mod canonical;
pub mod code;
pub mod fast;
pub mod gpu;
pub mod held;
pub mod lanes;
pub mod misere;
pub mod pairs;
pub mod quotient;
pub mod reference;
pub mod row;
pub mod scan;
pub mod seq;
pub mod snapshot;
pub mod solver;
pub mod tally;

pub use code::OctalCode;
