//! Values of components by the mex recurrence on run vectors, memoised in a hash map.
//!
//! This is the component recurrence of the engine without its dense state index: correct for
//! any strip, limited by memory rather than by `2^n`. The dense, level-by-level engine (issue 3)
//! replaces the map with ranked tables; its values must equal these.

use std::collections::HashMap;

use super::board::Board;
use super::components::{RunVector, canonical, components, options};

/// Memoised component values for one `k`.
pub struct ComponentValues {
    k: usize,
    memo: HashMap<RunVector, u8>,
}

impl ComponentValues {
    /// # Panics
    /// Unless `k >= 2`.
    pub fn new(k: usize) -> Self {
        assert!(k >= 2, "k = {k}");
        ComponentValues {
            k,
            memo: HashMap::new(),
        }
    }

    /// `G` of one component: the mex over its live cells of the XOR of what filling it leaves.
    pub fn value(&mut self, v: &[u8]) -> u8 {
        let key = canonical(v.to_vec());
        if let Some(&g) = self.memo.get(&key) {
            return g;
        }
        let e = key.len() - 1;
        let mut seen = 0u64;
        for i in 1..=e {
            let g = options(&key, self.k, i)
                .iter()
                .fold(0, |acc, part| acc ^ self.value(part));
            // OK since values stay below 64 here: a component with E cells has value <= E, and
            // E <= 63 is checked below before it could matter.
            seen |= 1 << g.min(63);
        }
        let g = (!seen).trailing_zeros() as u8;
        assert!(g < 63, "a component value of {g} does not fit the bit set");
        self.memo.insert(key, g);
        g
    }

    /// `G` of a strip position: the XOR of its components.
    pub fn strip_value(&mut self, board: &Board) -> u8 {
        assert!(!board.circular, "rings need cyclic components");
        components(board, self.k)
            .iter()
            .fold(0, |acc, c| acc ^ self.value(c))
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::*;
    use crate::kcross::reference;

    /// Every strip of up to 12 cells with any placement of X's (no run of k), k = 2..6, against
    /// the raw rules; then random positions on longer strips with a fresh seed.
    #[test]
    fn agrees_with_the_raw_rules() {
        for k in 2..=6 {
            let mut engine = ComponentValues::new(k);
            for n in 0..=12 {
                // One raw-rules memo per board size serves every position on it.
                let mut raw = reference::Reference::new(k, n, false);
                for mask in 0u64..1 << n {
                    let board = Board {
                        cells: (0..n).map(|i| mask >> i & 1 == 1).collect(),
                        circular: false,
                    };
                    if board.check(k).is_err() {
                        continue;
                    }
                    assert_eq!(
                        engine.strip_value(&board),
                        raw.value(mask),
                        "{board} k = {k}"
                    );
                }
            }
        }
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64;
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..60 {
            let k = rng.random_range(2..=8);
            let n = rng.random_range(13..=20);
            let board = Board {
                cells: (0..n).map(|_| rng.random_bool(0.25)).collect(),
                circular: false,
            };
            if board.check(k).is_err() {
                continue;
            }
            let want = reference::solve(&board, k).0;
            let got = ComponentValues::new(k).strip_value(&board);
            assert_eq!(got, want, "{board} k = {k} (seed {seed})");
        }
    }

    /// k = 2: A002187 for n <= 51 (one state per size); k = 3: Theorem 1.1 for n <= 26 (6e4
    /// components; n = 50 would take 8e8, the dense engine's job).
    #[test]
    fn published_sequences() {
        let a002187 = [
            0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0,
            4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
        ];
        let mut k2 = ComponentValues::new(2);
        let mut k3 = ComponentValues::new(3);
        for (n, &want) in a002187.iter().enumerate() {
            assert_eq!(k2.strip_value(&Board::strip(n)), want, "k = 2, [{n}]");
        }
        for n in 0..=26 {
            let zero = [0, 2, 3, 6, 9].contains(&(n % 10));
            assert_eq!(
                k3.strip_value(&Board::strip(n)),
                u8::from(!zero),
                "k = 3, [{n}]"
            );
        }
    }
}
