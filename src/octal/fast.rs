//! The fast CPU path: the rare/common split (spec `octal.md` section 3; Flammenkamp's sparse
//! space, as in Beling's RC methods and Rogalski's solver; this is an implementation of our own).
//!
//! # Why it is exact
//! A mask `m` sorts values by the parity of `popcount(v & m)`. A heap size `s` is **rare** when
//! that parity is its rare parity: 0 for every size (the value split), or `(s + t) & 1` (the
//! position split, for codes whose only splitting digit is the last, `t`). The split is chosen
//! so that rare sizes are few, but any mask is exact: it only changes the speed.
//!
//! A split of a heap into `a + b` offers `G(a) xor G(b)`, whose parity is the xor of theirs. If
//! both `a` and `b` are common, that parity is always the rare parity of `n` (value split: 1 xor
//! 1 = 0; position split: `a + b = n - t`, so the parities add up to `(n + t) & 1`). So every
//! option of the other class comes from a move that leaves no heap, one heap, or a split with a
//! rare part, and those are few: listed in full. A value of the other class that no listed option
//! offers is `G(n)` if it is the least. Values of the rare class below it must each be offered by
//! some split: the common-common splits are scanned, taking in what they offer, until every one
//! of them is seen (usually after a few hundred splits); one that never is makes `n` rare.
//!
//! The mask is chosen again each time the length doubles, from the values' frequencies (the one
//! that makes the fewest sizes rare), and the rare list rebuilt.

use super::code::OctalCode;

/// Which split sorts the sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Split {
    /// A size is rare when `popcount(G & mask)` is even.
    Value,
    /// A size `s` is rare when `popcount(G & mask)` has the parity of `s + t`: codes whose only
    /// splitting digit is the last (0.007-like).
    Position,
}

/// Masks are chosen among the values' lowest bits: enough for every published game.
const MASK_BITS: u32 = 10;

/// The values of one code, computed by the rare/common split; extended on demand.
pub struct Engine {
    /// The code, for messages.
    code: String,
    t: usize,
    /// `(i, leaves nothing, leaves one heap)` for each digit with a 1- or 2-bit.
    takes: Vec<(usize, bool, bool)>,
    /// The indices of the digits with a 4-bit.
    splits: Vec<usize>,
    /// Whether the position split is exact for this code (its one splitting digit is `t`).
    position_allowed: bool,
    split: Split,
    mask: u32,
    g: Vec<u32>,
    /// Rare sizes, ascending, with their values.
    rare: Vec<(u32, u32)>,
    /// `seen[v] == stamp`: `v` is among the options of the size being computed.
    seen: Vec<u32>,
    stamp: u32,
    /// Size at which the mask is chosen again.
    next_split: usize,
    /// The largest value so far: every xor of two values is below its next power of two.
    max: u32,
    /// The rare-class values still to be found among the common-common splits, one bit each.
    want: Vec<u64>,
}

/// A value that does not fit `u32` (never for a published game): an error, never a wrap.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("heap sizes of {code} past {n} do not fit 32 bits")]
pub struct TooLarge {
    pub code: String,
    pub n: usize,
}

impl Engine {
    pub fn new(code: &OctalCode) -> Self {
        let digits = code.digits();
        let t = code.t();
        let takes = (1..digits.len())
            .filter(|&i| digits[i] & 3 != 0)
            .map(|i| (i, digits[i] & 1 != 0, digits[i] & 2 != 0))
            .collect();
        let splits = code.split_indices();
        let position_allowed = splits == [t] && t >= 1;
        Engine {
            code: code.to_string(),
            t,
            takes,
            splits,
            position_allowed,
            split: Split::Value,
            // Any non-zero mask is exact (a zero one would leave the value split no common
            // class); the first choice from frequencies comes at 64 values.
            mask: 1,
            g: Vec::new(),
            rare: Vec::new(),
            seen: vec![0; 64],
            stamp: 0,
            next_split: 64,
            max: 0,
            want: Vec::new(),
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

    /// The split in use: its kind, mask, and the rare sizes.
    pub fn split(&self) -> (Split, u32, &[(u32, u32)]) {
        (self.split, self.mask, &self.rare)
    }

    /// The rare parity of size `s`.
    #[inline(always)]
    fn rare_parity(&self, s: usize) -> u32 {
        match self.split {
            Split::Value => 0,
            Split::Position => ((s + self.t) & 1) as u32,
        }
    }

    #[inline(always)]
    fn parity(&self, v: u32) -> u32 {
        (v & self.mask).count_ones() & 1
    }

    /// Computes values up to `len` (at least).
    pub fn extend(&mut self, len: usize) -> Result<(), TooLarge> {
        self.g.reserve(len.saturating_sub(self.g.len()));
        while self.g.len() < len {
            let n = self.g.len();
            if n == self.next_split {
                self.choose_split();
                self.next_split *= 2;
            }
            // Sizes are kept as u32 beside their values in the rare list.
            if u32::try_from(n).is_err() {
                return Err(TooLarge {
                    code: self.code.clone(),
                    n,
                });
            }
            let v = self.next_value(n);
            if self.parity(v) == self.rare_parity(n) {
                self.rare.push((n as u32, v));
            }
            self.max = self.max.max(v);
            self.g.push(v);
        }
        Ok(())
    }

    /// Marks `v` seen for this size, growing the table as values grow.
    #[inline(always)]
    fn mark(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.seen.len() {
            self.seen.resize((2 * v).max(64), 0);
        }
        self.seen[v] = self.stamp;
    }

    #[inline(always)]
    fn is_seen(&self, v: u32) -> bool {
        self.seen.get(v as usize) == Some(&self.stamp)
    }

    /// `G(n)`, the values below `n` known.
    fn next_value(&mut self, n: usize) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            // A stamp repeats after 2^32 sizes: start the table again.
            self.seen.fill(0);
            self.stamp = 1;
        }
        for k in 0..self.takes.len() {
            let (i, nothing, one) = self.takes[k];
            if i > n {
                break;
            }
            if nothing && i == n {
                self.mark(0);
            }
            if one && i < n {
                self.mark(self.g[n - i]);
            }
        }
        // Splits with a rare part: every option of the common class for n comes from these.
        for k in 0..self.splits.len() {
            let i = self.splits[k];
            if n < i + 2 {
                continue;
            }
            let left = n - i;
            for r in 0..self.rare.len() {
                let (s, gs) = self.rare[r];
                let s = s as usize;
                if s == 0 {
                    continue;
                }
                if s >= left {
                    break;
                }
                self.mark(gs ^ self.g[left - s]);
            }
        }
        // The least value of n's common class not offered.
        let rare_parity = self.rare_parity(n);
        let mut common = 0u32;
        while self.is_seen(common) || self.parity(common) == rare_parity {
            common += 1;
        }
        // The rare-class values below it that no listed option offers, one bit each over every
        // xor two values can make: each must come from a split of two common parts, or it is
        // G(n). The scan tests one bit a split, without a branch on the values it passes.
        let span = (self.max.max(common) as usize + 1).next_power_of_two();
        self.want.clear();
        self.want.resize(span / 64 + 1, 0);
        let mut wanted = 0;
        for v in 0..common {
            if self.parity(v) == rare_parity && !self.is_seen(v) {
                self.want[v as usize >> 6] |= 1 << (v & 63);
                wanted += 1;
            }
        }
        if wanted == 0 {
            return common;
        }
        for k in 0..self.splits.len() {
            let i = self.splits[k];
            if n < i + 2 {
                continue;
            }
            let left = n - i;
            let (g, want) = (&self.g, &mut self.want);
            for a in 1..=left / 2 {
                let x = (g[a] ^ g[left - a]) as usize;
                let word = want[x >> 6];
                if word >> (x & 63) & 1 != 0 {
                    want[x >> 6] = word & !(1 << (x & 63));
                    wanted -= 1;
                    if wanted == 0 {
                        return common;
                    }
                }
            }
        }
        // The least value never offered.
        let (w, word) = self
            .want
            .iter()
            .enumerate()
            .find(|&(_, &word)| word != 0)
            .expect("a wanted value is left");
        (64 * w) as u32 + word.trailing_zeros()
    }

    /// Chooses the split and mask that make the fewest sizes rare, from the values' frequencies
    /// (by the parity of the size, for the position split, which only codes whose one splitting
    /// digit is the last may use), and rebuilds the rare list.
    fn choose_split(&mut self) {
        let bits = (32 - self.max.leading_zeros()).clamp(1, MASK_BITS);
        let values = 1usize << bits;
        let mut count = vec![[0u64; 2]; values];
        for (s, &v) in self.g.iter().enumerate() {
            count[v as usize & (values - 1)][(s + self.t) & 1] += 1;
        }
        let rare_for = |split: Split, mask: u32| -> u64 {
            (0..values)
                .map(|v| {
                    let parity = (v as u32 & mask).count_ones() & 1;
                    match split {
                        Split::Value if parity == 0 => count[v][0] + count[v][1],
                        Split::Value => 0,
                        // Rare where the parity equals (s + t) & 1.
                        Split::Position => count[v][parity as usize],
                    }
                })
                .sum()
        };
        let splits: &[Split] = if self.position_allowed {
            &[Split::Value, Split::Position]
        } else {
            &[Split::Value]
        };
        let (split, mask) = splits
            .iter()
            .flat_map(|&split| (1..values as u32).map(move |mask| (split, mask)))
            .min_by_key(|&(split, mask)| rare_for(split, mask))
            .expect("some mask");
        if (split, mask) != (self.split, self.mask) {
            self.split = split;
            self.mask = mask;
            let rare = (0..self.g.len())
                .filter(|&s| self.parity(self.g[s]) == self.rare_parity(s))
                .map(|s| (s as u32, self.g[s]))
                .collect();
            self.rare = rare;
        }
    }
}
