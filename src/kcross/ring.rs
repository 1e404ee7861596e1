//! Rings (docs/kcross.md): until the first dead cell a ring position is one cyclic component;
//! after it, the ring is cut there into ordinary components, valued from the table.
//!
//! Cyclic positions are few (every empty cell must still be live), so they are memoised by
//! their canonical form under rotation and reflection, as bitmasks.

use std::collections::HashMap;

use super::board::Board;
use super::components::components;
use super::table::{TableError, ValueTable};
use crate::memory::Budget;
use crate::mex::MexSet;

/// Bytes a memo entry may take, key and value with the map's overhead.
const ENTRY_BYTES: u64 = 32;

/// Values of cyclic ring positions, memoised.
pub struct RingValues {
    /// Keyed by the ring size (high half) and the canonical mask of its X's.
    memo: HashMap<u128, u8>,
    max_entries: u64,
}

impl RingValues {
    /// `budget`: what the memo of cyclic positions may use.
    pub fn new(budget: Budget) -> Self {
        RingValues {
            memo: HashMap::new(),
            max_entries: budget.bytes() / ENTRY_BYTES,
        }
    }

    /// `G` of a ring position of at most the table's `n` cells.
    pub fn value(&mut self, table: &ValueTable, board: &Board) -> Result<u8, TableError> {
        debug_assert!(board.circular && board.cells.len() <= table.layout.n);
        let k = table.layout.k;
        let n = board.cells.len();
        if board.has_dead_cell(k) {
            return Ok(components(board, k)
                .iter()
                .fold(0, |acc, v| acc ^ table.value(v)));
        }
        let key = (n as u128) << 64 | u128::from(canonical_mask(&board.cells));
        if let Some(&g) = self.memo.get(&key) {
            return Ok(g);
        }
        let mut seen = MexSet::default();
        for i in (0..n).filter(|&i| !board.cells[i]) {
            let mut next = board.clone();
            next.cells[i] = true;
            seen.insert(u32::from(self.value(table, &next)?));
        }
        // At most n <= 63 options, so the mex fits.
        let g = seen.mex() as u8;
        if self.memo.len() as u64 >= self.max_entries {
            return Err(TableError::RingsOverBudget {
                k,
                l: n,
                entries: self.max_entries,
                budget: self.max_entries * ENTRY_BYTES,
            });
        }
        self.memo.insert(key, g);
        Ok(g)
    }
}

/// The least bitmask among the rotations and reflections of a ring's cells.
fn canonical_mask(cells: &[bool]) -> u64 {
    let n = cells.len();
    let mask = |order: &mut dyn Iterator<Item = usize>| {
        order
            .enumerate()
            .fold(0u64, |m, (bit, i)| m | u64::from(cells[i]) << bit)
    };
    (0..n)
        .flat_map(|r| {
            [
                mask(&mut (0..n).map(move |j| (r + j) % n)),
                mask(&mut (0..n).map(move |j| (r + n - j) % n)),
            ]
        })
        .min()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kcross::layout::Layout;
    use crate::kcross::reference;

    /// Every ring position of up to 11 cells, k = 2..6, against the raw rules on rings.
    #[test]
    fn agrees_with_the_raw_rules_on_rings() {
        for k in 2..=6 {
            let table = ValueTable::build_cpu(
                Layout::new(k, 11),
                Budget::UNLIMITED,
                &indicatif::ProgressBar::hidden(),
            )
            .unwrap();
            let mut rings = RingValues::new(Budget::new(1 << 30));
            for l in 1..=11 {
                let mut raw = reference::Reference::new(k, l, true);
                for mask in 0u64..1 << l {
                    let board = Board {
                        cells: (0..l).map(|i| mask >> i & 1 == 1).collect(),
                        circular: true,
                    };
                    if board.check(k).is_err() {
                        continue;
                    }
                    assert_eq!(
                        rings.value(&table, &board).unwrap(),
                        raw.value(mask),
                        "{board} k {k}"
                    );
                }
            }
        }
    }

    /// A memo over its share of the budget is an error naming the budget, not an OOM.
    #[test]
    fn ring_memo_respects_the_budget() {
        let table = ValueTable::build_cpu(
            Layout::new(4, 16),
            Budget::UNLIMITED,
            &indicatif::ProgressBar::hidden(),
        )
        .unwrap();
        let err = RingValues::new(Budget::new(10 * ENTRY_BYTES))
            .value(&table, &Board::ring(16))
            .unwrap_err();
        assert!(
            matches!(err, TableError::RingsOverBudget { l: 16, .. }),
            "{err}"
        );
    }

    /// The paper's G((11)) = 1 and G((21)) = 0 for k = 3.
    #[test]
    fn paper_rings() {
        let table = ValueTable::build_cpu(
            Layout::new(3, 21),
            Budget::UNLIMITED,
            &indicatif::ProgressBar::hidden(),
        )
        .unwrap();
        let mut rings = RingValues::new(Budget::new(1 << 30));
        assert_eq!(rings.value(&table, &Board::ring(11)).unwrap(), 1);
        assert_eq!(rings.value(&table, &Board::ring(21)).unwrap(), 0);
    }
}
