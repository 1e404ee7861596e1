//! The fast path of codes whose moves may leave three heaps (a hexadecimal digit of 8 or
//! more, as in 0.3F): the values every split of `k` in two offers, kept for every `k` as a
//! bitset, so that a split of `m` in three is one xor-shifted bitset a choice of the largest
//! heap (O(m) bitset operations a size) instead of every triple (O(m^2)).
//!
//! # Why it is exact
//! Let `P(k)` be the values `G(a) xor G(b)` over `a < b`, `a + b = k` (two unequal heaps);
//! two heaps of any sizes add `0` when `k` is even (the equal halves).
//! * Three heaps of any sizes: each triple has a largest part `c >= m / 3`, and for each such
//!   `c` every split of `m - c` in two is a triple (its parts may exceed `c`: still a move).
//!   So the options are `G(c) xor P2(m - c)` over `c` from `ceil(m / 3)` to `m - 2`, with
//!   `P2` the values of any two heaps.
//! * Three pairwise unequal heaps `a < b < c`: taking `c` the largest, the pair `a < b` sums
//!   to `k = m - c`. Where `k <= c`, every pair of `P(k)` has `b < k <= c`: all of `P(k)`.
//!   Where `k > c` (only for `c < m / 2`), the pairs with `b < c` are listed one by one:
//!   about `m^2 / 48` a size, the one part here that is not a bitset.
//!
//! A bitset `x`-shifted (each bit `v` moved to `v xor x`) is its words permuted by `x >> 6`
//! and each word's bits by `x & 63`: conditional swaps, eight words a step
//! ([`Kernel::shifted_clear`]).

use super::code::OctalCode;
use super::fast::TooLarge;
use super::lanes::{Kernel, clear};

/// The values of one code that may split a heap in three; extended on demand.
pub struct PairEngine {
    /// The code, for messages.
    code: String,
    /// `(i, digit, unequal)` for each non-zero digit.
    digits: Vec<(usize, u8, bool)>,
    g: Vec<u32>,
    max: u32,
    /// Words of a bitset: every value, and every xor of values, is below `64 * words`.
    words: usize,
    /// `pairs[k * words..][..words]`: `P(k)`, the values of two unequal heaps adding to `k`.
    pairs: Vec<u64>,
    /// The values not offered to the size being computed.
    open: Vec<u64>,
    /// The loops that clear a shifted bitset.
    kernel: Kernel,
}

impl PairEngine {
    /// The engine with the fastest kernel this CPU runs.
    pub fn new(code: &OctalCode) -> Self {
        Self::with_kernel(code, Kernel::detect())
    }

    /// The engine with the given kernel (benchmarks compare them).
    pub fn with_kernel(code: &OctalCode, kernel: Kernel) -> Self {
        let digits = code
            .digits()
            .iter()
            .enumerate()
            .filter(|&(_, &d)| d != 0)
            .map(|(i, &d)| (i, d, code.unequal(i)))
            .collect();
        PairEngine {
            code: code.to_string(),
            digits,
            g: Vec::new(),
            max: 0,
            words: 1,
            pairs: Vec::new(),
            open: Vec::new(),
            kernel,
        }
    }

    /// The values computed so far.
    pub fn values(&self) -> &[u32] {
        &self.g
    }

    /// The largest value computed so far.
    pub fn max(&self) -> u32 {
        self.max
    }

    /// Bytes the pair bitsets of `len` sizes take at the present width.
    pub fn table_bytes(&self, len: usize) -> u64 {
        (len as u64)
            .saturating_mul(self.words as u64)
            .saturating_mul(8)
    }

    /// Computes values up to `len`.
    pub fn extend(&mut self, len: usize) -> Result<(), TooLarge> {
        while self.g.len() < len {
            let n = self.g.len();
            if u32::try_from(n).is_err() {
                return Err(TooLarge {
                    code: self.code.clone(),
                    n,
                });
            }
            self.add_pairs();
            let v = self.next_value(n);
            self.push(v);
        }
        Ok(())
    }

    /// Takes in values computed before (a checkpoint's) as if computed here.
    pub fn adopt(&mut self, values: &[u32]) -> Result<(), TooLarge> {
        for &v in values {
            self.add_pairs();
            self.push(v);
        }
        Ok(())
    }

    /// `P(k)`.
    fn pairs_of(&self, k: usize) -> &[u64] {
        &self.pairs[k * self.words..][..self.words]
    }

    /// `G(n)`, the values below `n` known.
    fn next_value(&mut self, n: usize) -> u32 {
        let words = self.words;
        let mut open = std::mem::take(&mut self.open);
        open.clear();
        open.resize(words, !0);
        for &(i, d, unequal) in &self.digits {
            if i > n {
                break;
            }
            let left = n - i;
            if d & 1 != 0 && i >= 1 && left == 0 {
                clear(&mut open, 0);
            }
            if d & 2 != 0 && i >= 1 && left >= 1 {
                clear(&mut open, self.g[left]);
            }
            if d & 4 != 0 && left >= 2 {
                for (o, p) in open.iter_mut().zip(self.pairs_of(left)) {
                    *o &= !p;
                }
                if !unequal && left.is_multiple_of(2) {
                    clear(&mut open, 0);
                }
            }
            if d & 8 != 0 && left >= 3 {
                self.offer_three(&mut open, left, unequal);
            }
        }
        let mex = (0..words)
            .find(|&w| open[w] != 0)
            .map_or(64 * words as u32, |w| {
                64 * w as u32 + open[w].trailing_zeros()
            });
        self.open = open;
        mex
    }

    /// Clears in `open` the values of the splits of `m` in three heaps (pairwise unequal
    /// when `unequal`).
    fn offer_three(&self, open: &mut [u64], m: usize, unequal: bool) {
        let g = &self.g;
        for c in m.div_ceil(3)..=m - 2 {
            let k = m - c;
            if !unequal {
                self.kernel.shifted_clear(open, self.pairs_of(k), g[c]);
                if k.is_multiple_of(2) {
                    clear(open, g[c]);
                }
            } else if k <= c {
                self.kernel.shifted_clear(open, self.pairs_of(k), g[c]);
            } else {
                for b in k / 2 + 1..c.min(k) {
                    clear(open, g[c] ^ g[b] ^ g[k - b]);
                }
            }
        }
    }

    /// `P(n)` for the next size `n`, from the values below it (a digit 0 of 4 or 8 splits `n`
    /// itself).
    fn add_pairs(&mut self) {
        let n = self.g.len();
        self.pairs.resize((n + 1) * self.words, 0);
        let row = &mut self.pairs[n * self.words..];
        for a in 1..n.div_ceil(2) {
            let x = self.g[a] ^ self.g[n - a];
            row[x as usize / 64] |= 1 << (x % 64);
        }
    }

    /// Takes in `G(n) = v` for the next `n`, the bitsets widened if `v` needs it.
    fn push(&mut self, v: u32) {
        self.g.push(v);
        self.max = self.max.max(v);
        let need = (self.max as usize + 1).next_power_of_two().div_ceil(64);
        if need > self.words {
            let rows = self.pairs.len() / self.words;
            let mut wider = vec![0u64; rows * need];
            for k in 0..rows {
                wider[k * need..][..self.words].copy_from_slice(self.pairs_of(k));
            }
            (self.pairs, self.words) = (wider, need);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Codes that split in three, with and without `!`, equal the reference.
    #[test]
    fn three_heap_codes_equal_the_reference() {
        for code in [
            "0.3F", "0.8", "0.8!", "8.0", "8!.0", "C!.0", "0.F", "0.1F!", "4.08!",
        ] {
            let code: OctalCode = code.parse().unwrap();
            let want = crate::octal::reference::values(&code, 400);
            let mut engine = PairEngine::new(&code);
            engine.extend(400).unwrap();
            assert_eq!(engine.values(), &want[..], "{code}");
        }
    }
}
