//! The options of one run vector, as table indices kept up to date while a block is walked
//! (the CPU twin of the loop in `shaders/kcross.wgsl`; tests hold the two to the same tables).
//!
//! Filling live cell `i` merges `v_(i-1)`, the X and `v_i` into `m`; the cell beside `m` dies if
//! `m` and the run beyond it leave no room. What remains is at most two pieces, each a prefix of
//! `v` (ranked by a partial sum), a prefix of the reversal (the same for the suffix), either of
//! them with `m` appended, or, when no cell dies, `v` with `m` in place of three entries (ranked
//! from a suffix sum of shifted terms).
//!
//! Walking a block in colex order changes only a prefix `v_0..v_i` at each step. A prefix
//! piece's rank is the vector's rank less the terms after the prefix, which do not change; a
//! suffix piece's rank does not change at all. So each cell keeps an offset from the vector's
//! rank (the left or whole piece) and an absolute index (the right piece), and a step refreshes
//! only the cells next to the changed prefix. Valuing a vector is then two table reads per cell.

use super::layout::{Layout, MAX_N};

/// Room for the running sums of the longest vector.
const LEN: usize = MAX_N + 2;

/// Room for the per-cell pieces, a power of two: the option reads index them through a mask,
/// which needs no bounds check and costs one instruction (a `% LEN`, as first written, became
/// a real division in builds where the compiler did not see that the cell is in range).
const CELLS: usize = LEN.next_power_of_two();

/// Running sums and per-cell piece indices of one vector `v` (`e + 1` runs); sums use index
/// `j + 1` for position `j`, so that the empty prefix is index 0.
#[derive(Clone, Debug)]
pub struct Sums {
    e: usize,
    rank: u64,
    /// Positions `0..stale` changed since the last refresh.
    stale: usize,
    /// Where the block of the one-piece options (`e - 1` cells, one more X) starts.
    whole_base: u64,
    /// `p[j + 1] = v_0 + ... + v_j`.
    p: [usize; LEN],
    /// `d[j + 1]`: the rank terms of positions after `j`, so the prefix `v_0..v_j` ranks
    /// `rank - d[j + 1]` in its block.
    d: [u64; LEN],
    /// `rr[m]`: the rank of the reversal's prefix of `m` runs, `v_e..v_(e-m+1)`.
    rr: [u64; LEN],
    /// `t[j]`: the rank terms of `v_j..v_e` moved one place left with one more X before them.
    t: [u64; LEN],
    /// Cell `i`'s left (or only) piece sits at `(rank & mask[i]) + offset[i]` (wrapping): a
    /// mask of 0 with offset 0 is index 0, the empty piece.
    offset: [u64; CELLS],
    mask: [u64; CELLS],
    /// Cell `i`'s right piece index (0: none) and its value, read once when the cell is
    /// refreshed rather than once per vector.
    right: [u64; CELLS],
    right_value: [u32; CELLS],
    /// Whether filling cell `i` kills cell `i - 1`.
    left_dies: [bool; LEN],
}

impl Default for Sums {
    fn default() -> Self {
        Sums {
            e: 0,
            rank: 0,
            stale: 0,
            whole_base: 0,
            p: [0; LEN],
            d: [0; LEN],
            rr: [0; LEN],
            t: [0; LEN],
            offset: [0; CELLS],
            mask: [0; CELLS],
            right: [0; CELLS],
            right_value: [0; CELLS],
            left_dies: [false; LEN],
        }
    }
}

impl Sums {
    /// Loads `v` (at least two runs); call [`Sums::refresh`] before reading anything.
    pub fn load(&mut self, layout: &Layout, v: &[u8]) {
        let e = v.len() - 1;
        self.e = e;
        self.stale = e + 1;
        let s: usize = v.iter().map(|&x| usize::from(x)).sum();
        self.whole_base = if e >= 2 {
            layout.index(e - 1, s + 1, 0)
        } else {
            0
        };
        self.p[e + 1] = s;
        self.d[e + 1] = 0;
        self.t[e + 1] = 0;
    }

    /// Moves to `v`, a later vector of the block than the loaded one, where only `v_0..v_i`
    /// changed (as [`Layout::advance`] and [`Layout::skip_past`] report). Call
    /// [`Sums::refresh`] before reading options or the rank.
    #[inline]
    pub fn step(&mut self, i: usize) {
        self.stale = self.stale.max(i + 1);
    }

    /// Brings every sum and piece index up to date with `v`.
    #[inline]
    pub fn refresh(&mut self, layout: &Layout, v: &[u8], value: impl Fn(u64) -> u32 + Copy) {
        // Bounds the compiler can see, so that no index below needs a check: e <= MAX_N (as
        // every layout's n), a stale count is at most e + 1, and v has e + 1 runs. The checks
        // they replace were 8% of the build's instructions (callgrind).
        debug_assert!(self.e <= MAX_N && self.stale <= self.e + 1);
        let e = self.e.min(MAX_N);
        let stale = self.stale.min(e + 1);
        let v = &v[..=e];
        if stale == 0 {
            return;
        }
        // One pass down the changed runs, every sum in a register (through the arrays, each
        // step would wait for the store of the one before). The prefix sum through the changed
        // runs is what it was (a step only moves X's among them), so the pass starts from it:
        // with `through` = p[j + 1],
        //   d[j] = d[j + 1] + term(j)                       (d[0] is the rank),
        //   t[j] = t[j + 1] + term of v_j one place left with one more X before it,
        //   rr[e - j + 1] = rr[e - j] + the reversal's term of v_j (its prefixes that reach
        //   into the changed runs).
        let total = self.p[e + 1];
        let (mut d, mut t, mut rr) = (self.d[stale], self.t[stale], self.rr[e + 1 - stale]);
        let mut through = self.p[stale];
        for j in (0..stale).rev() {
            let x = v[j];
            let before = through - usize::from(x);
            d += layout.contrib(j, x, through);
            rr += layout.contrib(e - j, x, total - before);
            self.p[j + 1] = through;
            self.d[j] = d;
            self.rr[e - j + 1] = rr;
            if j > 0 {
                t += layout.contrib(j - 1, x, through + 1);
                self.t[j] = t;
            }
            through = before;
        }
        // Cells whose pieces involve a changed run (cell i reads v_(i-2)..v_(i+1)). The last
        // of them reads only v_(i-2) of the changed runs, and only to see whether cell i - 1
        // dies: its pieces sit where they did unless that changed.
        self.rank = self.d[0];
        for i in 1..=(stale + 1).min(e) {
            self.refresh_cell(layout, v, i, i == stale + 1, value);
        }
        self.stale = 0;
    }

    /// The piece indices of cell `i` from fresh sums. Most often no cell dies and one piece
    /// remains: that case is kept short here, the others are [`Sums::refresh_split_cell`].
    #[inline]
    fn refresh_cell(
        &mut self,
        layout: &Layout,
        v: &[u8],
        i: usize,
        only_left_changed: bool,
        value: impl Fn(u64) -> u32 + Copy,
    ) {
        // `v` has e + 1 runs (its length says so to the compiler: no bounds checks below).
        let e = v.len() - 1;
        debug_assert_eq!(e, self.e);
        // A cell dies when the runs on its sides and its own X reach k: a + b > k - 2.
        let top = layout.top() as u8;
        let m = v[i - 1] + 1 + v[i];
        let left_dies = i >= 2 && v[i - 2] + m > top;
        if only_left_changed && left_dies == self.left_dies[i] {
            return;
        }
        self.left_dies[i] = left_dies;
        let right_dies = i < e && m + v[i + 1] > top;
        if left_dies || right_dies {
            self.refresh_split_cell(layout, i, m, [left_dies, right_dies], value);
        } else if e >= 2 {
            // One piece: e - 1 cells, one more X in all, at `rank - d[i - 1]` plus this.
            let whole = self.whole_base + layout.contrib(i - 1, m, self.p[i + 1] + 1);
            self.offset[i] = (whole + self.t[i + 1]).wrapping_sub(self.d[i - 1]);
            self.mask[i] = u64::MAX;
            self.right[i] = 0;
            self.right_value[i] = 0;
        } else {
            // The last cell: nothing live remains.
            (self.offset[i], self.mask[i], self.right[i]) = (0, 0, 0);
            self.right_value[i] = 0;
        }
    }

    /// [`Sums::refresh_cell`] where a neighbour of cell `i` dies, leaving up to two pieces.
    #[inline(never)]
    fn refresh_split_cell(
        &mut self,
        layout: &Layout,
        i: usize,
        m: u8,
        [left_dies, right_dies]: [bool; 2],
        value: impl Fn(u64) -> u32,
    ) {
        let e = self.e;
        // Prefix v_0..v_(i-2): sum p[i - 1], rank `rank - d[i - 1]`. With m appended: sum
        // p[i + 1] + 1 (one more X).
        let (pl, pm) = (self.p[i - 1], self.p[i + 1] + 1);
        let offset = if left_dies {
            // v_0..v_(i-2): i - 2 cells.
            (i >= 3).then(|| layout.index(i - 2, pl, 0))
        } else {
            // v_0..v_(i-2), m: i - 1 cells.
            (i >= 2).then(|| layout.index(i - 1, pm, 0) + layout.contrib(i - 1, m, pm))
        };
        // Suffix v_(i+1)..v_e reversed: e - i runs.
        let (qr, rrr) = (self.p[e + 1] - self.p[i + 1], self.rr[e - i]);
        let right = if right_dies {
            // v_(i+1)..v_e: e - i - 1 cells.
            if e >= i + 2 {
                layout.index(e - i - 1, qr, rrr)
            } else {
                0
            }
        } else if e > i {
            // m, v_(i+1)..v_e, reversed: e - i cells.
            let s = qr + usize::from(m);
            layout.index(e - i, s, rrr + layout.contrib(e - i, m, s))
        } else {
            0
        };
        (self.offset[i], self.mask[i]) = match offset {
            Some(o) => (o.wrapping_sub(self.d[i - 1]), u64::MAX),
            None => (0, 0),
        };
        self.right[i] = right;
        self.right_value[i] = if right == 0 { 0 } else { value(right) };
    }

    /// Whether `v` is the one of `v` and its reversal that the table build values: runs are
    /// compared in pairs `(v_a, v_(e-a))` from the centre out, and the first unequal pair must
    /// be smaller on the left (a palindrome values itself). `Err(from)` for a vector that is
    /// not: then neither is any later vector in colex order sharing its runs `v_from..v_e`
    /// (their run `a = from - 1` is no smaller, and the runs between the pair are the same).
    ///
    /// From the centre out, not from the ends in: colex order walks the low runs fastest, so
    /// the vectors that are valued come in long stretches and the sums change little between
    /// them (a test from the ends would alternate every few vectors). Smaller on the left, so
    /// that one skip passes every refused vector of a stretch.
    #[inline]
    pub fn valued_of_its_pair(v: &[u8]) -> Result<(), usize> {
        let len = v.len();
        for a in (0..len / 2).rev() {
            let b = len - 1 - a;
            if v[a] != v[b] {
                return if v[a] < v[b] { Ok(()) } else { Err(a + 1) };
            }
        }
        Ok(())
    }

    /// The rank of `v`; needs a refresh after a step.
    pub fn rank(&self) -> u64 {
        debug_assert_eq!(self.stale, 0);
        self.rank
    }

    /// The rank of the reversal of `v` (same block); needs a refresh after a step.
    pub fn reversed_rank(&self) -> u64 {
        debug_assert_eq!(self.stale, 0);
        self.rr[self.e + 1]
    }

    /// The table indices of the pieces left by filling live cell `i` (1-based), `[left,
    /// right]`; 0 (a state of value 0) where no piece with a live cell remains. Needs a refresh
    /// after a step.
    #[inline]
    pub fn option(&self, i: usize) -> [u64; 2] {
        [self.left(i), self.right[i & (CELLS - 1)]]
    }

    /// [`Sums::option`] with the right piece's value in place of its index: what valuing
    /// needs (the value was read at the refresh with the reader it was given).
    #[inline]
    pub fn left_and_right_value(&self, i: usize) -> (u64, u32) {
        (self.left(i), self.right_value[i & (CELLS - 1)])
    }

    /// The table index of the left (or only) piece of cell `i`.
    #[inline]
    fn left(&self, i: usize) -> u64 {
        debug_assert_eq!(self.stale, 0);
        let i = i & (CELLS - 1);
        (self.rank & self.mask[i]).wrapping_add(self.offset[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kcross::components::{canonical, options};

    /// Of a vector and its reversal exactly one is valued (both if they are equal), and a
    /// refusal holds for every later vector sharing the runs it names.
    #[test]
    fn one_of_each_pair_is_valued() {
        let layout = Layout::new(5, 10);
        for e in 1..=10 {
            for s in 0..=10 - e {
                let mut v = vec![0u8; e + 1];
                let all: Vec<Vec<u8>> = (0..layout.block_len(e, s))
                    .map(|rank| {
                        layout.unrank(e, s, rank, &mut v);
                        v.clone()
                    })
                    .collect();
                for (r, v) in all.iter().enumerate() {
                    let rev: Vec<u8> = v.iter().rev().copied().collect();
                    let valued = Sums::valued_of_its_pair(v).is_ok();
                    if rev == *v {
                        assert!(valued, "{v:?}");
                    } else {
                        assert_ne!(valued, Sums::valued_of_its_pair(&rev).is_ok(), "{v:?}");
                    }
                    if let Err(from) = Sums::valued_of_its_pair(v) {
                        for w in all[r..].iter().filter(|w| w[from..] == v[from..]) {
                            assert!(Sums::valued_of_its_pair(w).is_err(), "{v:?} {w:?}");
                        }
                    }
                }
            }
        }
    }

    /// Every option of every vector with `E + S <= 9`, k = 2..6, against the plain vector
    /// surgery of `components::options` ranked from scratch.
    #[test]
    fn pieces_match_plain_options() {
        for k in 2..=6 {
            let n = 9;
            let layout = Layout::new(k, n);
            let mut sums = Sums::default();
            for e in 1..=n {
                for s in 0..=n - e {
                    let len = layout.block_len(e, s);
                    if len == 0 {
                        continue;
                    }
                    let mut v = vec![0u8; e + 1];
                    layout.unrank(e, s, 0, &mut v);
                    sums.load(&layout, &v);
                    sums.refresh(&layout, &v, |_| 0);
                    for r in 0..len {
                        // Stepped sums, checked against the vector itself.
                        if r > 0 {
                            let i = layout.advance(&mut v, e).unwrap();
                            sums.step(i);
                            sums.refresh(&layout, &v, |_| 0);
                        }
                        assert_eq!(sums.rank(), r);
                        assert_eq!(layout.rank(&v), r);
                        let rev: Vec<u8> = v.iter().rev().copied().collect();
                        assert_eq!(sums.reversed_rank(), layout.rank(&rev));
                        for i in 1..=e {
                            // Compare the pieces as vectors, up to reversal.
                            let mut got: Vec<Vec<u8>> = sums
                                .option(i)
                                .into_iter()
                                .filter(|&index| index != 0)
                                .map(|index| {
                                    let (e, s, rank) = layout.locate(index).unwrap();
                                    let mut w = vec![0u8; e + 1];
                                    layout.unrank(e, s, rank, &mut w);
                                    canonical(w)
                                })
                                .collect();
                            let mut want: Vec<Vec<u8>> =
                                options(&v, k, i).into_iter().map(canonical).collect();
                            got.sort();
                            want.sort();
                            assert_eq!(got, want, "k {k} v {v:?} cell {i}");
                        }
                    }
                }
            }
        }
    }
}
