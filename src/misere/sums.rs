//! Genera of sums of heaps, for games whose moves split a heap (Kayles, Grundy's game): under
//! misère play a sum's genus is not a function of its parts' genera, so each position reached
//! (a multiset of heaps) gets its own, from its options' genera ([`Genus::from_options`]),
//! memoised. Exhaustive, so bounded: the positions below a heap of `n` are the partitions of
//! the numbers up to `n`, and [`positions_below`] counts them before any work.

use std::collections::HashMap;

use super::genus::{Genus, GenusTooLong};
use crate::memory::Budget;
use crate::octal::OctalCode;

/// Bytes one memoised sum may take: its genus, its heap list and the map's share.
pub const POSITION_BYTES: u64 = 160;

/// Sums below a heap, at most, searched for that heap's own genus where an answer does not
/// need every heap's (the outcomes come from the quotient): about a second's work, every heap
/// up to 40.
pub const SINGLE_HEAP_POSITIONS: u64 = 1 << 18;

/// Whether the genus of a heap of `n` alone is searched where it is optional: its sums number
/// at most [`SINGLE_HEAP_POSITIONS`] and fit `budget`.
pub fn few_sums_below(n: usize, budget: Budget) -> bool {
    let positions = positions_below(n);
    positions <= SINGLE_HEAP_POSITIONS && budget.fits(positions.saturating_mul(POSITION_BYTES))
}

/// Memoised genera of the positions of a heap game.
pub struct SumGenera<F> {
    /// The heap lists one heap may become in one move.
    moves: F,
    memo: HashMap<Vec<u32>, Genus>,
}

impl<F: Fn(u32) -> Vec<Vec<u32>>> SumGenera<F> {
    pub fn new(moves: F) -> Self {
        SumGenera {
            moves,
            memo: HashMap::new(),
        }
    }

    /// The genus of the sum of `heaps` (empty heaps ignored).
    pub fn genus(&mut self, heaps: &[u32]) -> Result<Genus, GenusTooLong> {
        let mut key: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        self.of(key)
    }

    fn of(&mut self, position: Vec<u32>) -> Result<Genus, GenusTooLong> {
        if let Some(&g) = self.memo.get(&position) {
            return Ok(g);
        }
        let mut options = Vec::new();
        for (i, &h) in position.iter().enumerate() {
            if i > 0 && position[i - 1] == h {
                continue;
            }
            for after in (self.moves)(h) {
                let mut next: Vec<u32> = position
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, &h)| h)
                    .chain(after.into_iter().filter(|&h| h > 0))
                    .collect();
                next.sort_unstable();
                options.push(self.of(next)?);
            }
        }
        let genus = Genus::from_options(&options)?;
        self.memo.insert(position, genus);
        Ok(genus)
    }

    /// Positions whose genus is known.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }
}

/// The moves of a take-and-break code from a heap of `n`, as the heap lists it leaves.
pub fn code_moves(code: &OctalCode) -> impl Fn(u32) -> Vec<Vec<u32>> + '_ {
    move |n| {
        let mut out = Vec::new();
        code.options(n as usize, &mut |heaps: &[usize]| {
            out.push(heaps.iter().map(|&h| h as u32).collect());
        });
        out
    }
}

/// How many positions (multisets of heaps) have a total of at most `n`: the partition numbers
/// `p(0) + ... + p(n)`, saturating.
pub fn positions_below(n: usize) -> u64 {
    // p(k) by the coin-change recurrence over part sizes.
    let mut p = vec![0u64; n + 1];
    p[0] = 1;
    for part in 1..=n {
        for k in part..=n {
            p[k] = p[k].saturating_add(p[k - part]);
        }
    }
    p.iter().fold(0u64, |s, &x| s.saturating_add(x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::brute::MisereBrute;

    /// Kayles (0.77): remove one or two adjacent pins, from the end or the middle.
    fn kayles(n: u32) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for take in 1..=2.min(n) {
            for left in 0..=(n - take) / 2 {
                out.push(vec![left, n - take - left]);
            }
        }
        out
    }

    #[test]
    fn partition_counts() {
        // p(0..=5) = 1, 1, 2, 3, 5, 7.
        assert_eq!(positions_below(5), 19);
        assert_eq!(positions_below(0), 1);
    }

    /// Every genus digit of every Kayles sum with total up to 9 equals the game tree's
    /// `G-(sum + k copies of *2)`.
    #[test]
    fn kayles_sums_equal_the_brute_force() {
        let mut sums = SumGenera::new(kayles);
        let mut brute = MisereBrute::new(kayles);
        let mut checked = 0;
        for total in 0..=9u32 {
            for position in partitions(total, total) {
                let genus = sums.genus(&position).unwrap();
                for k in 0..genus.superscript().len() + 2 {
                    assert_eq!(
                        u32::from(genus.digit(k)),
                        brute.value(&position, k as u32, 0),
                        "{position:?}, digit {k}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 300, "{checked}");
    }

    /// The partitions of `n` into parts of at most `most`.
    fn partitions(n: u32, most: u32) -> Vec<Vec<u32>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for first in (1..=most.min(n)).rev() {
            for mut rest in partitions(n - first, first) {
                rest.push(first);
                out.push(rest);
            }
        }
        out
    }
}
