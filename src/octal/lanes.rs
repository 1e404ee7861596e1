//! The two inner loops of the rare/common split, over bitsets of values (bit `v` of word
//! `v / 64`): the splits with a rare part, and the scan of all splits for the values still
//! wanted. Each has a plain loop and an AVX-512 one, chosen at run time; both clear exactly the
//! same bits. The AVX-512 loops take 16 splits a step and test their xors against the bitset
//! (held in registers when it fits, else read by a gather); the lanes that hit a set bit are
//! cleared by plain code, from a log filled without branches in the rare loop.

/// Sizes computed together by [`Kernel::offer_rare`].
pub const BATCH: usize = 16;

/// Which loops run: the plain ones everywhere, the AVX-512 ones where the CPU has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Plain,
    Avx512,
}

impl Kernel {
    /// The fastest this CPU runs.
    pub fn detect() -> Self {
        if has_avx512() {
            Kernel::Avx512
        } else {
            Kernel::Plain
        }
    }

    /// For a batch of sizes `n0 + l`, `l` in `0..16`, whose `left` (the size minus the split's
    /// take) is `base + l`: clears in lane `l`'s bitset (`open[l * words..][..words]`) the bit
    /// of `val[k] xor g[base + l - pos[k]]` for each `k` with `pos[k] < base + l`. Every
    /// partner lies within `g` (the callers pass rare parts of 16 or more, or 32 or more when
    /// `g` ends a batch earlier).
    pub fn offer_rare(
        self,
        open: &mut [u64],
        words: usize,
        g: &[u32],
        pos: &[u32],
        val: &[u32],
        base: usize,
    ) {
        debug_assert_eq!(pos.len(), val.len());
        debug_assert_eq!(open.len(), BATCH * words);
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512 (asked again: anyone may name `Avx512`), and the
            // indices fit, by `fits_gather`.
            Kernel::Avx512 if has_avx512() && fits_gather(open, g) => unsafe {
                avx512::offer_rare(open, words, g, pos, val, base)
            },
            _ => {
                for (&s, &v) in pos.iter().zip(val) {
                    let s = s as usize;
                    for l in (s + 1).saturating_sub(base).min(BATCH)..BATCH {
                        clear(&mut open[l * words..], v ^ g[base + l - s]);
                    }
                }
            }
        }
    }

    /// Clears in `want` the bit of `g[a] xor g[left - a]` for `a` in `1..=left / 2` until the
    /// `wanted` bits set are all clear; returns how many are left.
    pub fn offer_common(self, want: &mut [u64], g: &[u32], left: usize, wanted: u32) -> u32 {
        let (mut wanted, from) = match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for `offer_rare`.
            Kernel::Avx512 if has_avx512() && fits_gather(want, g) => unsafe {
                avx512::offer_common(want, g, left, wanted)
            },
            _ => (wanted, 1),
        };
        for a in from..=left / 2 {
            if wanted == 0 {
                break;
            }
            wanted -= u32::from(clear(want, g[a] ^ g[left - a]));
        }
        wanted
    }
}

/// Clears bit `x`; says whether it was set.
#[inline(always)]
pub(crate) fn clear(bits: &mut [u64], x: u32) -> bool {
    let word = &mut bits[(x >> 6) as usize];
    let bit = 1u64 << (x & 63);
    let was = *word & bit != 0;
    *word &= !bit;
    was
}

/// Whether this CPU runs the AVX-512 loops (the answer is cached by the standard library).
fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("popcnt")
    {
        return true;
    }
    false
}

/// The gathers index with signed 32-bit offsets, and the log holds bit indices in 32 bits:
/// sizes must stay below 2^31 and bitsets below 2^32 bits.
fn fits_gather(bits: &[u64], g: &[u32]) -> bool {
    g.len() < 1 << 31 && bits.len() < 1 << 26
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::clear;

    const LANES: usize = super::BATCH;

    /// The 16 lanes of `x`.
    #[inline]
    #[target_feature(enable = "avx512f,popcnt")]
    fn spill(x: __m512i) -> [u32; LANES] {
        let mut xs = [0u32; LANES];
        // SAFETY: `xs` holds 16 lanes.
        unsafe { _mm512_storeu_si512(xs.as_mut_ptr().cast(), x) };
        xs
    }

    /// `Kernel::offer_rare`: the 16 lanes are the batch's sizes, their partners contiguous.
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) unsafe fn offer_rare(
        open: &mut [u64],
        words: usize,
        g: &[u32],
        pos: &[u32],
        val: &[u32],
        base: usize,
    ) {
        let lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        // Lane l's bitset starts at word 2 * words * l, in 32-bit words.
        let bitset = _mm512_mullo_epi32(lane, _mm512_set1_epi32(2 * words as i32));
        let mut log = [0u32; LOG + LANES];
        let mut logged = 0;
        for (&s, &v) in pos.iter().zip(val) {
            let s = s as usize;
            // Lanes whose partner `base + l - s` is at least 1.
            let from = (s + 1).saturating_sub(base).min(LANES);
            let valid = (!0u32 << from) as u16;
            if valid == 0 {
                break;
            }
            // SAFETY: the valid lanes read `g[base + l - s]`, `1 <= base + l - s < g.len()`;
            // masked-off lanes read nothing.
            let x = unsafe {
                let partners = g.as_ptr().wrapping_add(base).wrapping_sub(s);
                let gp = _mm512_maskz_loadu_epi32(valid, partners.cast());
                _mm512_xor_si512(gp, _mm512_set1_epi32(v as i32))
            };
            let at = _mm512_add_epi32(bitset, _mm512_srli_epi32::<5>(x));
            // SAFETY: each valid lane's word is within its lane's bitset.
            let word = unsafe {
                _mm512_mask_i32gather_epi32::<4>(
                    _mm512_setzero_si512(),
                    valid,
                    at,
                    open.as_ptr().cast(),
                )
            };
            let bit = _mm512_srlv_epi32(word, _mm512_and_si512(x, _mm512_set1_epi32(31)));
            let lanes = _mm512_mask_test_epi32_mask(valid, bit, _mm512_set1_epi32(1));
            // The hits go to the log without a branch; the bitsets are cleared from it when it
            // fills. Tests meanwhile may hit a bit already logged: it is logged again, and
            // clearing a bit twice is clearing it.
            let at_bit = _mm512_add_epi32(_mm512_slli_epi32::<5>(bitset), x);
            // SAFETY: `logged <= LOG`, and the log has 16 words past `LOG`.
            unsafe {
                _mm512_storeu_si512(
                    log.as_mut_ptr().add(logged).cast(),
                    _mm512_maskz_compress_epi32(lanes, at_bit),
                )
            };
            logged += lanes.count_ones() as usize;
            if logged > LOG {
                apply(open, &log[..logged]);
                logged = 0;
            }
        }
        apply(open, &log[..logged]);
    }

    /// Hits logged before they are cleared, at most.
    const LOG: usize = 512;

    /// Clears each logged bit.
    fn apply(open: &mut [u64], log: &[u32]) {
        for &b in log {
            clear(open, b);
        }
    }

    /// `Kernel::offer_common` for whole steps of 16 from `a = 1`; returns the wanted values left
    /// and the first `a` not done. A bitset of up to 4096 bits is held in registers, a larger
    /// one read by gathers.
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) unsafe fn offer_common(
        want: &mut [u64],
        g: &[u32],
        left: usize,
        wanted: u32,
    ) -> (u32, usize) {
        // SAFETY: as for the callee.
        unsafe {
            match want.len() {
                0..=16 => offer_common_with::<Held<1>>(want, g, left, wanted),
                17..=32 => offer_common_with::<Held<2>>(want, g, left, wanted),
                33..=64 => offer_common_with::<Held<4>>(want, g, left, wanted),
                _ => offer_common_with::<Gathered>(want, g, left, wanted),
            }
        }
    }

    /// A bitset to test lanes against.
    trait Lookup {
        /// The bitset as it is now.
        unsafe fn load(bits: &[u64]) -> Self;
        /// The lanes of `x` whose bit is set.
        unsafe fn hits(&self, x: __m512i) -> u16;
    }

    /// A bitset in `2 * PAIRS` registers of 16 32-bit words each.
    struct Held<const PAIRS: usize>([[__m512i; 2]; PAIRS]);

    impl<const PAIRS: usize> Lookup for Held<PAIRS> {
        #[target_feature(enable = "avx512f,popcnt")]
        unsafe fn load(bits: &[u64]) -> Self {
            let mut words = [[0u64; 16]; PAIRS];
            for (k, &w) in bits.iter().enumerate() {
                words[k / 16][k % 16] = w;
            }
            // SAFETY: each pair of registers reads its 16 words.
            Held(words.map(|pair| unsafe {
                let p = pair.as_ptr();
                [
                    _mm512_loadu_si512(p.cast()),
                    _mm512_loadu_si512(p.add(8).cast()),
                ]
            }))
        }
        #[inline]
        #[target_feature(enable = "avx512f,popcnt")]
        unsafe fn hits(&self, x: __m512i) -> u16 {
            // Word `x >> 5`: its low 5 bits pick within a pair, the rest the pair.
            let at = _mm512_srli_epi32::<5>(x);
            let pair = _mm512_srli_epi32::<5>(at);
            let mut word = _mm512_permutex2var_epi32(self.0[0][0], at, self.0[0][1]);
            for (j, &[low, high]) in self.0.iter().enumerate().skip(1) {
                let here = _mm512_cmpeq_epi32_mask(pair, _mm512_set1_epi32(j as i32));
                let there = _mm512_permutex2var_epi32(low, at, high);
                word = _mm512_mask_mov_epi32(word, here, there);
            }
            let bit = _mm512_srlv_epi32(word, _mm512_and_si512(x, _mm512_set1_epi32(31)));
            _mm512_test_epi32_mask(bit, _mm512_set1_epi32(1))
        }
    }

    /// A bitset in memory, read by gathers.
    struct Gathered(*const u64);

    impl Lookup for Gathered {
        unsafe fn load(bits: &[u64]) -> Self {
            Gathered(bits.as_ptr())
        }

        #[inline]
        #[target_feature(enable = "avx512f,popcnt")]
        unsafe fn hits(&self, x: __m512i) -> u16 {
            let words = self.0.cast::<i32>();
            // SAFETY: every lane of `x` is a value below the bitset's length in bits.
            let word = unsafe { _mm512_i32gather_epi32::<4>(_mm512_srli_epi32::<5>(x), words) };
            let bit = _mm512_srlv_epi32(word, _mm512_and_si512(x, _mm512_set1_epi32(31)));
            _mm512_test_epi32_mask(bit, _mm512_set1_epi32(1))
        }
    }

    /// The scan, testing against the bitset as `load` holds it, reloaded after each change.
    #[target_feature(enable = "avx512f,popcnt")]
    unsafe fn offer_common_with<L: Lookup>(
        want: &mut [u64],
        g: &[u32],
        left: usize,
        mut wanted: u32,
    ) -> (u32, usize) {
        let reverse = _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        // SAFETY: the table is loaded again after each change to `want`.
        let mut table = unsafe { L::load(want) };
        let mut a = 1;
        while wanted != 0 && a + LANES - 1 <= left / 2 {
            // SAFETY: lanes `a..a + 16` and `left - a - 15..=left - a` are within `g`, as
            // `a + 15 <= left / 2 < left < g.len() + 1`; `table` holds `want`.
            let (x, lanes) = unsafe {
                let low = _mm512_loadu_si512(g.as_ptr().add(a).cast());
                let high = _mm512_loadu_si512(g.as_ptr().add(left - a - (LANES - 1)).cast());
                let x = _mm512_xor_si512(low, _mm512_permutexvar_epi32(reverse, high));
                (x, table.hits(x))
            };
            if lanes != 0 {
                let (xs, mut lanes) = (spill(x), lanes);
                while lanes != 0 {
                    let l = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    if clear(want, xs[l]) {
                        wanted -= 1;
                        if wanted == 0 {
                            return (0, a + LANES);
                        }
                    }
                }
                table = unsafe { L::load(want) };
            }
            a += LANES;
        }
        (wanted, a)
    }
}
