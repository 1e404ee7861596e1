//! The plain misère solver every fast misère path is checked against: the game tree of a sum,
//! searched from the rules with a memo, sharing nothing with the genus arithmetic.
//!
//! A position is a multiset of the game's heaps beside some nim heaps `*2` and `*1` (the
//! components a genus digit adds). A move changes one component: a game heap as the rules
//! allow (into any number of heaps), a `*2` into `*1` or `*0`, a `*1` into `*0`. Under misère
//! play the position with no move is a win for the player to move, so its misère value is 1;
//! every other value is the mex of its options' values.

use std::collections::HashMap;

use indicatif::ProgressBar;

/// Memoised misère values of sums, for a heap game given by its moves.
pub struct MisereBrute<F> {
    /// The heap lists one heap may become in one move.
    moves: F,
    memo: HashMap<(Vec<u32>, u32, u32), u32>,
}

impl<F: Fn(u32) -> Vec<Vec<u32>>> MisereBrute<F> {
    /// `moves(n)`: every list of heaps a heap of size `n` may be replaced by.
    pub fn new(moves: F) -> Self {
        MisereBrute {
            moves,
            memo: HashMap::new(),
        }
    }

    /// The heap lists a heap of `n` may become in one move.
    pub fn moves(&self, n: u32) -> Vec<Vec<u32>> {
        (self.moves)(n)
    }

    /// `G-(heaps + twos copies of *2 + ones copies of *1)`.
    pub fn value(&mut self, heaps: &[u32], twos: u32, ones: u32) -> u32 {
        let mut key: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        key.sort_unstable();
        self.value_of(key, twos, ones)
    }

    fn value_of(&mut self, heaps: Vec<u32>, twos: u32, ones: u32) -> u32 {
        if let Some(&v) = self.memo.get(&(heaps.clone(), twos, ones)) {
            return v;
        }
        let mut options: Vec<u32> = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue; // the same move as from the heap before
            }
            for after in (self.moves)(h) {
                let mut next: Vec<u32> = heaps[..i].to_vec();
                next.extend_from_slice(&heaps[i + 1..]);
                next.extend(after.into_iter().filter(|&h| h > 0));
                next.sort_unstable();
                let v = self.value_of(next, twos, ones);
                options.push(v);
            }
        }
        if twos > 0 {
            options.push(self.value_of(heaps.clone(), twos - 1, ones + 1));
            options.push(self.value_of(heaps.clone(), twos - 1, ones));
        }
        if ones > 0 {
            options.push(self.value_of(heaps.clone(), twos, ones - 1));
        }
        let v = if options.is_empty() {
            1
        } else {
            (0..).find(|v| !options.contains(v)).expect("a mex exists")
        };
        self.memo.insert((heaps, twos, ones), v);
        v
    }
}

/// Every sum of heaps `1..=heap_max` with a total of at most `total`: whether `is_p` (a
/// quotient's prediction, taken as a function so this solver imports no quotient code) gives
/// the outcome of the game tree of `moves`. Returns how many sums agree, or the first that
/// does not.
pub fn quotient_agrees<F: Fn(u32) -> Vec<Vec<u32>>>(
    is_p: impl Fn(&[u32]) -> bool,
    moves: F,
    heap_max: usize,
    total: usize,
    bar: &ProgressBar,
) -> Result<u64, Vec<u32>> {
    let mut tree = MisereBrute::new(moves);
    let mut sums = 0;
    // Each sum once: heaps in ascending order, the next at least the last.
    let mut stack: Vec<(Vec<u32>, usize, usize)> = vec![(Vec::new(), 1, 0)];
    while let Some((sum, least, size)) = stack.pop() {
        if is_p(&sum) != (tree.value(&sum, 0, 0) == 0) {
            return Err(sum);
        }
        sums += 1;
        bar.inc(1);
        for h in least..=heap_max.min(total - size) {
            let mut next = sum.clone();
            next.push(h as u32);
            stack.push((next, h, size + h));
        }
    }
    Ok(sums)
}

/// The moves of the subtraction game `set` from a heap of `n`: take `s` for every `s <= n`.
pub fn subtraction_moves(set: &[u32]) -> impl Fn(u32) -> Vec<Vec<u32>> + '_ {
    move |n| {
        set.iter()
            .filter(|&&s| s <= n)
            .map(|&s| vec![n - s])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misere_nim_by_hand() {
        // Nim heaps as a subtraction game with every move: *n has G- = n for n >= 2, *1 has 0,
        // *0 has 1; *1 + *1 has 1, *2 + *2 has 0 (Winning Ways, chapter 13).
        let all: Vec<u32> = (1..=8).collect();
        let mut b = MisereBrute::new(subtraction_moves(&all));
        assert_eq!(b.value(&[], 0, 0), 1);
        assert_eq!(b.value(&[1], 0, 0), 0);
        assert_eq!(b.value(&[5], 0, 0), 5);
        assert_eq!(b.value(&[1, 1], 0, 0), 1);
        assert_eq!(b.value(&[2], 1, 0), 0);
        assert_eq!(b.value(&[], 2, 0), 0);
        assert_eq!(b.value(&[], 1, 1), 3);
    }
}
