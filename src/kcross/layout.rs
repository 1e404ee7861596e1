//! A dense index of every run vector that fits a board of `n` cells (docs/kcross.md, "Why a
//! table of components works"), so that component values live in a flat table instead of a hash
//! map.
//!
//! Vectors are grouped in blocks by level `E` (live cells, `len - 1`) and sum `S` (X's), in the
//! order `(E, S)`; inside a block they are ranked in colex order (the last entry decides first).
//! Colex is what makes the pieces cheap to rank: the rank of a vector is a sum of terms
//! `contrib(j, v_j, P_j)` where `P_j = v_0 + ... + v_j`, each depending on its prefix only. So
//! the rank of any prefix is a partial sum, and a suffix is a prefix of the reversal (which has
//! the same value). Every option of a component is ranked in O(1) from a few running sums.
//!
//! Values take 4 bits (8 once some value passes 15, which k = 3 does near 50 cells); the states
//! of a block share `u32` words, each block starting on a fresh word, so a word belongs to one
//! block and can be computed by one worker (CPU task or GPU invocation).
//! Word 0 is left at zero: state index 0 stands for "no piece" (value 0), so an option's pieces
//! are looked up without branching.

/// Largest board the dense index supports: runs and indices of a vector fit in a `u8`, and the
/// GPU shader keeps a vector in fixed private arrays.
pub const MAX_N: usize = 63;

/// Bits per value: the narrow width first, the wide one when a value does not fit.
pub const NARROW: u32 = 4;
pub const WIDE: u32 = 8;

/// The counting tables and block positions of all run vectors with `E + S <= n`, for one `k`.
#[derive(Clone, Debug)]
pub struct Layout {
    pub k: usize,
    pub n: usize,
    /// Bits per value: [`NARROW`] or [`WIDE`].
    pub bits: u32,
    /// `log2(bits)` and `log2(32 / bits)`: slots are found by shifts (widths are powers of 2).
    bits_log2: u32,
    per_word_log2: u32,
    /// `k - 2`: the longest run inside a component.
    top: usize,
    /// `f(i, c, s)`: sequences of `i` runs (each `<= top`, neighbours summing to `<= top`) with
    /// sum `s` whose last run is `<= c`. Saturating: past `u64` the layout is over any budget.
    counts: Vec<u64>,
    /// `contrib(j, x, p) = sum over y < x of f(j, top - y, p - y)`: how many vectors of a block
    /// precede one with `v_j = x` and prefix sum `p` at position `j`, all later runs equal.
    /// Padded to a power of two (see [`Layout::contrib`]).
    contrib: Vec<u64>,
    /// The largest sum `f(i, c, .)` counts (at most `n`), at `i * (top + 1) + c`: the sums that
    /// fit are exactly `0..=max_sum`.
    max_sum: Vec<usize>,
    /// First word of block `(E, S)` at `E * (n + 1) + S`, then one past the last word.
    starts: Vec<u64>,
    /// The same in states.
    state_starts: Vec<u64>,
}

impl Layout {
    /// The narrow layout.
    ///
    /// # Panics
    /// Unless `k >= 2` and `n <= MAX_N`.
    pub fn new(k: usize, n: usize) -> Self {
        Self::with_bits(k, n, NARROW)
    }

    /// The same vectors with [`WIDE`] values.
    pub fn widened(&self) -> Self {
        Self::with_bits(self.k, self.n, WIDE)
    }

    /// A layout with `bits` (2, 4 or 8) per value; tests start narrower than [`NARROW`] to
    /// exercise the widening.
    pub fn with_bits(k: usize, n: usize, bits: u32) -> Self {
        assert!(k >= 2 && n <= MAX_N, "layout for k = {k}, n = {n}");
        assert!(matches!(bits, 2 | 4 | 8), "{bits} bits per value");
        let top = k - 2;
        let mut layout = Layout {
            k,
            n,
            bits,
            bits_log2: bits.trailing_zeros(),
            per_word_log2: 5 - bits.trailing_zeros(),
            top,
            counts: vec![0; (n + 2) * (top + 1) * (n + 1)],
            contrib: vec![0; ((n + 2) * (top + 1) * (n + 1)).next_power_of_two()],
            max_sum: vec![0; (n + 2) * (top + 1)],
            starts: Vec::with_capacity((n + 1) * (n + 1) + 1),
            state_starts: Vec::new(),
        };
        for c in 0..=top {
            let at = layout.count_index(0, c, 0);
            layout.counts[at] = 1;
        }
        for i in 1..=n + 1 {
            for c in 0..=top {
                for s in 0..=n {
                    let f = (0..=c.min(s)).fold(0u64, |acc, x| {
                        acc.saturating_add(layout.count(i - 1, top - x, s - x))
                    });
                    let at = layout.count_index(i, c, s);
                    layout.counts[at] = f;
                }
            }
        }
        for i in 0..=n + 1 {
            for c in 0..=top {
                let fits = (0..=n).rev().find(|&s| layout.count(i, c, s) > 0);
                layout.max_sum[i * (top + 1) + c] = fits.expect("the empty sum fits");
            }
        }
        for j in 0..=n + 1 {
            for x in 0..=top {
                for p in x..=n {
                    let c = (0..x).fold(0u64, |acc, y| {
                        acc.saturating_add(layout.count(j, top - y, p - y))
                    });
                    let at = layout.count_index(j, x, p);
                    layout.contrib[at] = c;
                }
            }
        }
        // Word 0: the empty piece.
        let mut word = 1u64;
        for e in 0..=n {
            for s in 0..=n {
                layout.starts.push(word);
                word = word.saturating_add(layout.block_len(e, s).div_ceil(layout.per_word()));
            }
        }
        layout.starts.push(word);
        layout.state_starts = layout
            .starts
            .iter()
            .map(|w| w.saturating_mul(layout.per_word()))
            .collect();
        layout
    }

    /// States per `u32` word.
    #[inline]
    pub fn per_word(&self) -> u64 {
        1 << self.per_word_log2
    }

    /// Whether `i` runs with the last `<= c` can sum to `s`.
    #[inline]
    fn fits(&self, i: usize, c: usize, s: usize) -> bool {
        s <= self.max_sum[i * (self.top + 1) + c]
    }

    /// `k - 2`: the longest run inside a component.
    #[inline]
    pub fn top(&self) -> usize {
        self.top
    }

    /// The largest value a state holds.
    pub fn max_value(&self) -> u32 {
        (1 << self.bits) - 1
    }

    /// The word of state index `index` and the shift of its value in that word.
    #[inline]
    pub fn slot(&self, index: u64) -> (usize, u32) {
        let log2 = self.per_word_log2;
        (
            (index >> log2) as usize,
            ((index as u32) & ((1 << log2) - 1)) << self.bits_log2,
        )
    }

    /// The value at state index `index` of `word`'s table.
    #[inline]
    pub fn extract(&self, word: u32, shift: u32) -> u32 {
        word >> shift & self.max_value()
    }

    fn count_index(&self, i: usize, c: usize, s: usize) -> usize {
        (i * (self.top + 1) + c) * (self.n + 1) + s
    }

    fn count(&self, i: usize, c: usize, s: usize) -> u64 {
        self.counts[self.count_index(i, c, s)]
    }

    /// The rank term of run `x` at position `j` with prefix sum `p` (including `x`).
    #[inline]
    pub fn contrib(&self, j: usize, x: u8, p: usize) -> u64 {
        let i = self.count_index(j, usize::from(x), p);
        debug_assert!(j <= self.n + 1 && usize::from(x) <= self.top && p <= self.n);
        // The refresh of every walked vector reads this a few times: a mask into a table whose
        // length is a power of two costs less than a bounds check (4% of the build's
        // instructions, callgrind), and a valid (j, x, p) is below the unpadded size anyway.
        // SAFETY: `i & (len - 1) < len` for a power-of-two `len`.
        unsafe { *self.contrib.get_unchecked(i & (self.contrib.len() - 1)) }
    }

    /// Vectors with `e` live cells and sum `s` (0 outside `1 <= e`, `e + s <= n`).
    pub fn block_len(&self, e: usize, s: usize) -> u64 {
        if e == 0 || e + s > self.n {
            0
        } else {
            self.count(e + 1, self.top, s)
        }
    }

    /// First word of block `(e, s)`.
    #[inline]
    pub fn block_start(&self, e: usize, s: usize) -> u64 {
        self.starts[e * (self.n + 1) + s]
    }

    /// The state index of rank `rank` in block `(e, s)`: where its value sits in the table.
    #[inline]
    pub fn index(&self, e: usize, s: usize, rank: u64) -> u64 {
        self.state_starts[e * (self.n + 1) + s] + rank
    }

    /// The block `(e, s)` and rank of a state index (the inverse of [`Layout::index`]).
    pub fn locate(&self, index: u64) -> Option<(usize, usize, u64)> {
        let w = index / self.per_word();
        let at = self
            .starts
            .partition_point(|&start| start <= w)
            .checked_sub(1)?;
        let (e, s) = (at / (self.n + 1), at % (self.n + 1));
        let rank = index - self.state_starts[at];
        (e <= self.n && rank < self.block_len(e, s)).then_some((e, s, rank))
    }

    /// The words of level `e` (all its blocks, in order of `s`).
    pub fn level_words(&self, e: usize) -> std::ops::Range<u64> {
        self.starts[e * (self.n + 1)]..self.starts[(e + 1) * (self.n + 1)]
    }

    /// Words in the whole table.
    pub fn words(&self) -> u64 {
        *self.starts.last().expect("never empty")
    }

    /// States in the whole table (what the engine computes).
    pub fn states(&self) -> u64 {
        (1..=self.n)
            .flat_map(|e| (0..=self.n - e).map(move |s| (e, s)))
            .fold(0u64, |acc, (e, s)| acc.saturating_add(self.block_len(e, s)))
    }

    /// States in the levels below `e`.
    pub fn states_below(&self, e: usize) -> u64 {
        (1..e.min(self.n + 1))
            .flat_map(|e| (0..=self.n - e).map(move |s| (e, s)))
            .map(|(e, s)| self.block_len(e, s))
            .sum()
    }

    /// Bytes of the value table.
    pub fn bytes(&self) -> u64 {
        self.words().saturating_mul(4)
    }

    /// The largest block, in states: GPU ranks are 32-bit unless it passes them.
    pub fn largest_block(&self) -> u64 {
        (1..=self.n)
            .flat_map(|e| (0..=self.n - e).map(move |s| (e, s)))
            .map(|(e, s)| self.block_len(e, s))
            .max()
            .unwrap_or(0)
    }

    /// The block `(s)` of level `e` holding word `w`, with its first word.
    pub fn block_of_word(&self, e: usize, w: u64) -> usize {
        let row = &self.starts[e * (self.n + 1)..=(e + 1) * (self.n + 1)];
        // The last block starting at or before w; empty blocks share a start with the next.
        row.partition_point(|&start| start <= w) - 1
    }

    /// The counting tables and block starts as one array for the GPU, with the offsets of the
    /// contrib and starts sections.
    pub fn gpu_inputs(&self) -> (Vec<u64>, u32, u32) {
        let mut out = self.counts.clone();
        let contrib_at = out.len() as u32;
        out.extend(&self.contrib);
        let starts_at = out.len() as u32;
        out.extend(&self.starts);
        (out, contrib_at, starts_at)
    }

    /// Entries of [`Self::gpu_inputs`], without building them.
    pub fn gpu_inputs_len(&self) -> usize {
        self.counts.len() + self.contrib.len() + self.starts.len()
    }

    /// The word and shift of component `v`'s value (at least two runs, fitting the layout).
    pub fn slot_of(&self, v: &[u8]) -> (usize, u32) {
        let e = v.len() - 1;
        let s: usize = v.iter().map(|&x| usize::from(x)).sum();
        assert!(e >= 1 && e + s <= self.n, "{v:?} is outside the table");
        self.slot(self.index(e, s, self.rank(v)))
    }

    /// The colex rank of `v` inside its block.
    pub fn rank(&self, v: &[u8]) -> u64 {
        let mut p = 0;
        v.iter()
            .enumerate()
            .map(|(j, &x)| {
                p += usize::from(x);
                self.contrib(j, x, p)
            })
            .sum()
    }

    /// The vector of rank `rank` in block `(e, s)`, written to `v[..=e]`.
    pub fn unrank(&self, e: usize, s: usize, mut rank: u64, v: &mut [u8]) {
        debug_assert!(rank < self.block_len(e, s));
        self.fill(e + 1, s, self.top, &mut rank, v);
    }

    /// Writes to `v[..len]` the vector of rank `rank` among sequences of `len` runs with sum `s`
    /// and last run `<= cap`, choosing the last run first (colex).
    fn fill(&self, len: usize, mut s: usize, mut cap: usize, rank: &mut u64, v: &mut [u8]) {
        for j in (0..len).rev() {
            let mut x = 0;
            loop {
                let here = self.count(j, self.top - x, s - x);
                if *rank < here {
                    break;
                }
                *rank -= here;
                x += 1;
                debug_assert!(x <= cap.min(s), "rank out of range");
            }
            v[j] = x as u8;
            s -= x;
            cap = self.top - x;
        }
    }

    /// Writes to `v[..len]` the first sequence in colex order of `len` runs with sum `s` (one
    /// that some sequence of them reaches, under whatever cap its last run has): each run from
    /// the last as small as the runs before it allow.
    ///
    /// `j` runs with adjacent pairs `<= top` and the last `<= c` hold at most `j/2 top` for even
    /// `j` (pairs) and `c + (j-1)/2 top` for odd `j`. So run `j`, with `j` runs before it that
    /// may hold `top - x` in their last when it takes `x`, takes all of `s` for `j = 0`, nothing
    /// for odd `j` (`x` cancels: any `x` fits if one does), and the excess over `j/2 top` for
    /// even `j`. No table lookups: the runs are a chain, each waiting on the one before.
    fn fill_first(&self, len: usize, mut s: usize, v: &mut [u8]) {
        for j in (0..len).rev() {
            let x = match j {
                0 => s,
                _ if j % 2 == 1 => 0,
                _ => s.saturating_sub(j / 2 * self.top),
            };
            v[j] = x as u8;
            s -= x;
        }
    }

    /// Steps `v[..=e]` to the next vector of its block in colex order, returning the last
    /// position that changed (only `v[..=i]` do); `None` after the last vector. Inline: it
    /// runs once per state of a table build, which is not always in this codegen unit.
    #[inline]
    pub fn advance(&self, v: &mut [u8], e: usize) -> Option<usize> {
        // The earliest run that can grow by one, with the runs before it refilled as the first
        // prefix of their sum less one. Most often that is v_1, taking one X from v_0 (which
        // then still fits: v_0 + v_1 <= top before the step).
        let cap1 = if e == 1 {
            self.top
        } else {
            self.top - usize::from(v[2])
        };
        if v[0] >= 1 && usize::from(v[1]) < cap1 {
            v[0] -= 1;
            v[1] += 1;
            return Some(1);
        }
        // Run 1 cannot grow: the next vector is the first with other runs from 2 on.
        self.skip_past(v, e, 2)
    }

    /// Steps `v[..=e]` to the first vector in colex order after every vector that shares its
    /// runs `v_from..v_e`, returning the last position that changed; `None` if there is none.
    /// With `from = 0` this is the next vector.
    pub fn skip_past(&self, v: &mut [u8], e: usize, from: usize) -> Option<usize> {
        // Run i grows by one, taking the X from the runs before it, which are refilled as the
        // first prefix of their sum less one. Run 0 has nothing before it to take from.
        let v = &mut v[..=e];
        let from = from.max(1);
        let mut before: usize = v[..from.min(e + 1)].iter().map(|&x| usize::from(x)).sum();
        for i in from..=e {
            let x = usize::from(v[i]) + 1;
            let after = v.get(i + 1).map_or(0, |&y| usize::from(y));
            if before >= 1 && x + after <= self.top && self.fits(i, self.top - x, before - 1) {
                v[i] = x as u8;
                self.fill_first(i, before - 1, v);
                return Some(i);
            }
            before += usize::from(v[i]);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every valid vector, by brute force over all run tuples.
    fn all_vectors(k: usize, e: usize, s: usize) -> Vec<Vec<u8>> {
        let top = k - 2;
        let mut out = Vec::new();
        let mut v = vec![0u8; e + 1];
        loop {
            let valid = v.iter().map(|&x| usize::from(x)).sum::<usize>() == s
                && v.windows(2)
                    .all(|w| usize::from(w[0]) + usize::from(w[1]) <= top);
            if valid {
                out.push(v.clone());
            }
            // Odometer over [0, top]^(e+1).
            let Some(i) = v.iter().position(|&x| usize::from(x) < top) else {
                break;
            };
            v[i] += 1;
            v[..i].fill(0);
        }
        out
    }

    /// Rank, unrank, advance and skip agree with a brute-force colex listing of every block.
    #[test]
    fn ranks_are_colex_positions() {
        for k in 2..=6 {
            let n = 9;
            let layout = Layout::new(k, n);
            for e in 1..=n {
                for s in 0..=n - e {
                    let mut want = all_vectors(k, e, s);
                    // Colex: compare from the last run.
                    want.sort_by(|a, b| a.iter().rev().cmp(b.iter().rev()));
                    assert_eq!(
                        layout.block_len(e, s),
                        want.len() as u64,
                        "k {k} e {e} s {s}"
                    );
                    let mut v = vec![0u8; e + 1];
                    for (r, w) in want.iter().enumerate() {
                        assert_eq!(layout.rank(w), r as u64, "{w:?}");
                        layout.unrank(e, s, r as u64, &mut v);
                        assert_eq!(&v, w);
                    }
                    if let Some(first) = want.first() {
                        let mut v = first.clone();
                        for w in &want[1..] {
                            assert!(layout.advance(&mut v, e).is_some());
                            assert_eq!(&v, w);
                        }
                        assert!(layout.advance(&mut v, e).is_none());
                    }
                    // Skipping every vector that shares the runs from `from` on.
                    for (r, w) in want.iter().enumerate() {
                        for from in 0..=e {
                            let next = want[r + 1..].iter().find(|x| x[from..] != w[from..]);
                            let mut v = w.clone();
                            let changed = layout.skip_past(&mut v, e, from);
                            assert_eq!(changed.map(|_| &v), next, "{w:?} from {from}");
                            if let Some(i) = changed {
                                assert!(v[i] != w[i] && v[i + 1..] == w[i + 1..], "{w:?} {i}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The published state counts (docs/kcross.md): k = 3, n = 20 and 25; k = 4, n = 25; k = 13, n
    /// = 20.
    #[test]
    fn spec_sizes() {
        let states = |k, n| Layout::new(k, n).states() as f64;
        approx::assert_relative_eq!(states(3, 20), 8.6e3, max_relative = 0.01);
        approx::assert_relative_eq!(states(3, 25), 5.8e4, max_relative = 0.01);
        approx::assert_relative_eq!(states(4, 25), 2.2e6, max_relative = 0.03);
        approx::assert_relative_eq!(states(13, 20), 2.1e6, max_relative = 0.03);
    }
}
