//! Inverse k-cross (spec `kcross.md`): X's go on a strip or a ring; a move that makes `k` in a
//! row is illegal; the player without a move loses.
//!
//! * [`board`]: the paper's notation, `[3X4]`, `(21)`, parsed and printed.
//! * [`reference`]: the raw rules over whole boards, memoised: the oracle.
//! * [`components`]: a position as a sum of run vectors, and the options of a run vector.
//! * [`memo`]: component values by the mex recurrence, memoised in a hash map (tested against
//!   the reference on every strip position of up to 12 cells for k = 2..6).
//!
//! Still to come (issue 3): the dense engine (run vectors ranked by a counting table, level by
//! level on the CPU and the GPU), cyclic components for rings, and the sequence commands.

pub mod board;
pub mod components;
pub mod memo;
pub mod reference;
pub mod value;

pub use board::Board;
