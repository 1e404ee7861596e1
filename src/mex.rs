//! The minimum excludant of a position's option values, shared by the fast solvers (the
//! raw-rules references keep their own plain search, so they stay independent oracles).

/// Values a [`MexSet`] holds without allocating.
const INLINE: usize = 512;

/// A set of option values: values below 512 in eight inline words (nearly always: long
/// nim-heap runs, spider legs, reach a few hundred), larger ones in a growable bitset, so no
/// value is ever dropped or wrapped.
#[derive(Clone, Debug, Default)]
pub struct MexSet {
    words: [u64; INLINE / 64],
    /// Bits for the values 512, 513, ...
    high: Vec<u64>,
}

impl MexSet {
    /// Adds the value `g`.
    #[inline]
    pub fn insert(&mut self, g: u32) {
        let g = g as usize;
        // The first word alone is the hot path of most games.
        if g < 64 {
            self.words[0] |= 1 << g;
        } else if g < INLINE {
            self.words[g / 64] |= 1 << (g % 64);
        } else {
            self.insert_high(g - INLINE);
        }
    }

    #[cold]
    #[inline(never)]
    fn insert_high(&mut self, bit: usize) {
        if bit / 64 >= self.high.len() {
            self.high.resize(bit / 64 + 1, 0);
        }
        self.high[bit / 64] |= 1 << (bit % 64);
    }

    /// The least value not in the set.
    #[inline]
    pub fn mex(&self) -> u32 {
        if self.words[0] != u64::MAX {
            return (!self.words[0]).trailing_zeros();
        }
        if let Some(i) = self.words.iter().position(|&w| w != u64::MAX) {
            return (i * 64) as u32 + (!self.words[i]).trailing_zeros();
        }
        let word = self.high.iter().position(|&w| w != u64::MAX);
        let bits = word.map_or(0, |i| self.high[i]);
        let word = word.unwrap_or(self.high.len());
        (INLINE + word * 64) as u32 + (!bits).trailing_zeros()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_missing_value_small_and_large() {
        let mut s = MexSet::default();
        assert_eq!(s.mex(), 0);
        for g in [0, 1, 2, 4, 700] {
            s.insert(g);
        }
        assert_eq!(s.mex(), 3);
        let mut s = MexSet::default();
        (0..300).for_each(|g| s.insert(g));
        assert_eq!(s.mex(), 300);
        (300..320).for_each(|g| s.insert(g));
        s.insert(321);
        assert_eq!(s.mex(), 320);
        let mut s = MexSet::default();
        (0..64).for_each(|g| s.insert(g));
        assert_eq!(s.mex(), 64);
        (64..128).for_each(|g| s.insert(g));
        assert_eq!(s.mex(), 128);
        // Across the inline words into the growable ones.
        (128..600).for_each(|g| s.insert(g));
        s.insert(700);
        assert_eq!(s.mex(), 600);
        (600..700).for_each(|g| s.insert(g));
        assert_eq!(s.mex(), 701);
    }
}
