//! The Game of Arrows: the Game of Cycles on trees (docs/arrows.md). A move orients one
//! unmarked edge; no vertex may become a sink or a source; the last legal move wins.
//!
//! * [`tree`]: trees as typed (edge lists, parent arrays, `path:`, `spider:`, `H:`), checked.
//! * [`reference`](mod@reference): the raw rules, memoised: the oracle.
//! * [`forest`]: status-labelled forests, their normal form, and component values memoised by
//!   canonical form.
//! * [`census`]: every unlabelled tree of a size (the Wright-Richmond-Odlyzko-McKay generator),
//!   valued on all cores with one shared memo.
//! * [`spider`]: spider states (Proposition 6.1) in one dense memo for all legs up to a bound,
//!   filled by wavefronts on all cores or by recursion.
//! * [`spider_gpu`]: the same wavefronts, one dispatch each (`shaders/arrows.wgsl`).
//! * [`one_spider`]: one spider's value and first moves, bottom-up over its reachable states.
//! * [`value`]: one tree in full, as `nimseq arrows value` shows it.

pub mod census;
pub mod forest;
pub mod one_spider;
pub mod reference;
pub mod spider;
pub mod spider_gpu;
pub mod tree;
pub mod value;

pub use tree::Tree;
