//! The fast path for any code: the rare/common split ([`Engine`]) where moves leave at most
//! two heaps, the pair bitsets ([`PairEngine`]) where they may leave three.

use super::code::OctalCode;
use super::fast::{Engine, EngineError, Split, best_split};
use super::pairs::PairEngine;

/// One code's values, computed by the engine that suits it (one a code: the size of the
/// larger variant does not matter).
#[allow(clippy::large_enum_variant)]
pub enum Solver {
    Split(Engine),
    Pairs(PairEngine),
}

impl Solver {
    pub fn new(code: &OctalCode) -> Self {
        if code.max_heaps() <= 2 {
            Solver::Split(Engine::new(code))
        } else {
            Solver::Pairs(PairEngine::new(code))
        }
    }

    /// Computes values up to `len`.
    pub fn extend(&mut self, len: usize) -> Result<(), EngineError> {
        match self {
            Solver::Split(e) => e.extend(len),
            Solver::Pairs(e) => Ok(e.extend(len)?),
        }
    }

    /// Takes in values computed before (a checkpoint's), as if computed here.
    pub fn adopt(&mut self, values: &[u32]) -> Result<(), EngineError> {
        match self {
            Solver::Split(e) => e.adopt(values),
            Solver::Pairs(e) => Ok(e.adopt(values)?),
        }
    }

    /// The values computed so far.
    pub fn values(&self) -> &[u32] {
        match self {
            Solver::Split(e) => e.values(),
            Solver::Pairs(e) => e.values(),
        }
    }

    /// The largest value computed so far.
    pub fn max(&self) -> u32 {
        match self {
            Solver::Split(e) => e.max(),
            Solver::Pairs(e) => e.max(),
        }
    }

    /// Rare sizes held (the split's list; none for the pair bitsets).
    pub fn rare_count(&self) -> usize {
        match self {
            Solver::Split(e) => e.split().2.len(),
            Solver::Pairs(_) => 0,
        }
    }

    /// Bytes past the values and rare lists that `len` values take: the pair bitsets.
    pub fn table_bytes(&self, len: usize) -> u64 {
        match self {
            Solver::Split(_) => 0,
            Solver::Pairs(e) => e.table_bytes(len),
        }
    }

    /// The split and its rare sizes: the engine's own, or for the pair bitsets the split
    /// with the fewest rare sizes of the values (a property of the values, as a scan's rows
    /// report it).
    pub fn split(&self, t: usize) -> (Split, u32, Vec<u32>) {
        match self {
            Solver::Split(e) => {
                let (split, mask, rare) = e.split();
                (split, mask, rare.to_vec())
            }
            Solver::Pairs(e) => {
                let g = e.values();
                let (split, mask, _) = best_split(g, t, false);
                let rare = super::fast::rare_sizes(g, split, mask, t);
                (split, mask, rare.map(|s| s as u32).collect())
            }
        }
    }
}
