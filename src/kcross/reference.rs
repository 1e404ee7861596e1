//! The raw rules on whole boards: a bitmask of X's, every placement checked literally, values
//! memoised. Exponential: the oracle for tests and small boards, not the engine.

use std::collections::HashMap;

use super::board::Board;

/// Largest board the reference solves.
pub const MAX_CELLS: usize = 40;

/// A memo for one board size, shape and `k`.
pub struct Reference {
    k: usize,
    n: usize,
    circular: bool,
    memo: HashMap<u64, u8>,
}

impl Reference {
    /// # Panics
    /// Unless `k >= 2` and `n <= MAX_CELLS`.
    pub fn new(k: usize, n: usize, circular: bool) -> Self {
        assert!(k >= 2 && n <= MAX_CELLS, "reference for k = {k}, n = {n}");
        Reference {
            k,
            n,
            circular,
            memo: HashMap::new(),
        }
    }

    fn x(&self, mask: u64, i: usize) -> bool {
        mask >> i & 1 == 1
    }

    /// Whether an X may go on cell `i` of `mask`: the cell is empty and the run through it
    /// stays below `k`.
    pub fn legal(&self, mask: u64, i: usize) -> bool {
        if self.x(mask, i) {
            return false;
        }
        let n = self.n;
        let full = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        if self.circular && mask | 1 << i == full {
            // The last empty cell of a ring: the result is one run of n X's.
            return n < self.k;
        }
        // X's directly right of i, then directly left, wrapping on a ring (not past i itself:
        // some cell of a ring is empty, checked above).
        let steps = |forward: bool| {
            let mut count = 0;
            let mut j = i;
            loop {
                j = match (forward, self.circular) {
                    (true, _) if j + 1 < n => j + 1,
                    (true, true) => 0,
                    (false, _) if j > 0 => j - 1,
                    (false, true) => n - 1,
                    _ => break,
                };
                if j == i || !self.x(mask, j) {
                    break;
                }
                count += 1;
            }
            count
        };
        let run = steps(false) + 1 + steps(true);
        run < self.k
    }

    /// Positions valued so far.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// `G` of the position `mask` (bit i set: an X on cell i).
    pub fn value(&mut self, mask: u64) -> u8 {
        if let Some(&v) = self.memo.get(&mask) {
            return v;
        }
        let moves: Vec<usize> = (0..self.n).filter(|&i| self.legal(mask, i)).collect();
        let options: Vec<u8> = moves
            .into_iter()
            .map(|i| self.value(mask | 1 << i))
            .collect();
        let v = (0..=u8::MAX)
            .find(|v| !options.contains(v))
            .expect("fewer than 256 options");
        self.memo.insert(mask, v);
        v
    }
}

/// The bitmask of a board's X's.
pub fn mask_of(board: &Board) -> u64 {
    board
        .cells
        .iter()
        .enumerate()
        .filter(|(_, x)| **x)
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// `G(board)` and its winning moves (the boards after each move to a position of value 0).
///
/// # Panics
/// Unless the board has at most `MAX_CELLS` cells and `k >= 2`.
pub fn solve(board: &Board, k: usize) -> (u8, Vec<Board>) {
    let mut reference = Reference::new(k, board.cells.len(), board.circular);
    let mask = mask_of(board);
    let value = reference.value(mask);
    let moves: Vec<usize> = (0..board.cells.len())
        .filter(|&i| reference.legal(mask, i))
        .collect();
    let winning = moves
        .into_iter()
        .filter(|&i| reference.value(mask | 1 << i) == 0)
        .map(|i| {
            let mut next = board.clone();
            next.cells[i] = true;
            next
        })
        .collect();
    (value, winning)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip_values(k: usize, n_max: usize) -> Vec<u8> {
        (0..=n_max).map(|n| solve(&Board::strip(n), k).0).collect()
    }

    /// k = 2 is Dawson's chess / Node-Kayles: OEIS A002187 (docs/kcross.md).
    #[test]
    fn k2_is_a002187() {
        let a002187 = [
            0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1,
        ];
        assert_eq!(strip_values(2, 22), a002187);
    }

    /// k = 3: Theorem 1.1 of the paper, G([n]) = 0 iff n mod 10 in {0,2,3,6,9}.
    #[test]
    fn k3_theorem_1_1() {
        for (n, v) in strip_values(3, 22).into_iter().enumerate() {
            let zero = [0, 2, 3, 6, 9].contains(&(n % 10));
            assert_eq!(v, u8::from(!zero), "[{n}]");
        }
    }

    /// k = 4: the paper's Table 5.2 column.
    #[test]
    fn k4_table_5_2() {
        let table = [
            0, 1, 0, 1, 1, 0, 2, 1, 0, 1, 2, 0, 1, 1, 0, 1, 0, 0, 1, 2, 0,
        ];
        assert_eq!(strip_values(4, 20), table);
    }

    /// Rings: the paper's G((11)) = 1 and G((21)) = 0 for k = 3; winning moves really win.
    #[test]
    fn rings_and_winning_moves() {
        assert_eq!(solve(&Board::ring(11), 3).0, 1);
        assert_eq!(solve(&Board::ring(21), 3).0, 0);
        let (v, wins) = solve(&"[1X3]".parse().unwrap(), 3);
        assert_eq!(v, 3); // Table 5.1
        assert!(!wins.is_empty());
        for w in wins {
            assert_eq!(solve(&w, 3).0, 0, "{w}");
        }
    }
}
