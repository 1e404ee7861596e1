//! Misère play: the player who makes the last move loses (docs/misere.md).
//!
//! * [`genus`]: a game's genus from its options' genera, in CGSuite's notation.
//! * [`heaps`]: the misère values, P-positions and genera a report shows.
//! * [`position`]: a position of several heaps: its outcome and winning moves.
//! * [`quotient`]: misère quotients of the sums of a game's heaps.
//! * [`sums`]: genera of sums of heaps, for codes that split a heap.
//! * [`brute`]: the plain game-tree solver of sums that the genus arithmetic is checked
//!   against.

pub mod brute;
pub mod genus;
pub mod heaps;
pub mod position;
pub mod quotient;
pub mod sums;

pub use genus::{Genus, GenusTooLong, nim_heap_minus};
pub use heaps::MisereHeaps;
