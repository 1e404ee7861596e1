//! The Game of Arrows: the Game of Cycles on trees (spec `arrows.md`). A move orients one
//! unmarked edge; no vertex may become a sink or a source; the last legal move wins.
//!
//! * [`tree`]: trees as typed (edge lists, parent arrays, `path:`, `spider:`, `H:`), checked.
//! * [`reference`]: the raw rules, memoised: the oracle.
//! * [`forest`]: status-labelled forests, their normal form, and component values memoised by
//!   canonical form.
//! * [`value`]: one tree in full, as `nimseq arrows value` shows it.
//!
//! Still to come (issue 5): tree enumeration for censuses, the spider-state tables on the CPU
//! and the GPU.

pub mod forest;
pub mod reference;
pub mod tree;
pub mod value;

pub use tree::Tree;
