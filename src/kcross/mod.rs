//! Inverse k-cross (spec `kcross.md`): X's go on a strip or a ring; a move that makes `k` in a
//! row is illegal; the player without a move loses.
//!
//! * [`board`]: the paper's notation, `[3X4]`, `(21)`, parsed and printed.
//! * [`reference`]: the raw rules over whole boards, memoised: the oracle.
//!
//! The component engine (run vectors ranked densely, level by level on the CPU and the GPU) is
//! still to come (issue 3); until then values come from the reference, for small boards.

pub mod board;
pub mod reference;

pub use board::Board;
