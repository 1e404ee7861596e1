//! Inverse k-cross (docs/kcross.md): X's go on a strip or a ring; a move that makes `k` in a
//! row is illegal; the player without a move loses.
//!
//! * [`board`]: the paper's notation, `[3X4]`, `(21)`, parsed and printed.
//! * [`reference`](mod@reference): the raw rules over whole boards, memoised: the oracle.
//! * [`components`]: a position as a sum of run vectors, and the options of a run vector.
//! * [`layout`]: the dense index of run vectors (counting tables, colex ranks, blocks).
//! * [`pieces`]: the options of a run vector ranked in O(1) each.
//! * [`table`]: every component value up to a board size, level by level on all cores.
//! * [`gpu`]: the same table from `shaders/kcross.wgsl`.
//! * [`ring`]: rings, whose positions are cyclic until the first dead cell.
//! * [`sequences`]: `G([n])`, `G([aXb])`, `G((l))` and Table 5.2 from a table.
//! * [`value`]: one position in full, with its winning moves.

pub mod board;
pub mod components;
pub mod gpu;
pub mod layout;
pub mod pieces;
pub mod reference;
pub mod ring;
pub mod sequences;
pub mod table;
pub mod value;

pub use board::Board;
