//! The arithmetic of [`super::lanes`]: one word of 64 positions of each of several sets side by
//! side, a set a 64-bit lane. [`PortableLanes`] holds 4 lanes in `u64`s (any CPU, and the
//! reference of the others' tests), [`Avx2Lanes`] 4 in a 256-bit register, [`Avx512Lanes`] 8 in
//! a 512-bit one, and [`Twice`] any of them in two registers. The mex is [`super::row_math::Offers`], the same for all of them; what differs
//! is how each lane shifts by its own count and how lanes are flagged.

use super::row_math::Logic;

/// Most lanes a math has (two 512-bit registers, [`Twice`]): arrays of per-lane values have
/// this length, of which the first [`LaneMath::LANES`] count.
pub const MAX_LANES: usize = 16;

/// One value per lane, as the engine keeps them between steps.
pub type PerLane = [u64; MAX_LANES];

/// What [`super::lanes`] needs beyond bit logic: the lanes' own shifts, flags and counters.
pub trait LaneMath: Logic + Send {
    /// Sets side by side: the 64-bit lanes of a word.
    const LANES: usize;
    /// Whether [`Self::mark`] gives the exact position (not the end of the word).
    const EXACT_MARK: bool;
    /// Per-lane shift counts, prepared once per refill.
    type Count: Copy;
    /// One flag per lane.
    type Mask: Copy;

    /// `x` in every lane.
    fn splat(self, x: u64) -> Self::W;
    /// `w` with lane `l` set to `x`.
    fn set_lane(self, w: Self::W, l: usize, x: u64) -> Self::W;
    /// `c` with lane `l`'s count set to `bits < 64`.
    fn set_count(self, c: Self::Count, l: usize, bits: u64) -> Self::Count;
    /// `m` with lane `l`'s flag set to `on`.
    fn set_flag(self, m: Self::Mask, l: usize, on: bool) -> Self::Mask;
    /// The first `LANES` values of `lanes`, one a lane.
    fn load_lanes(self, lanes: &PerLane) -> Self::W;
    /// Each lane's value (the rest 0).
    fn to_lanes(self, w: Self::W) -> PerLane;
    /// Shift counts, each `< 64`.
    fn count(self, bits: &PerLane) -> Self::Count;
    /// The lanes whose value is nonzero.
    fn mask(self, flags: &PerLane) -> Self::Mask;
    /// Bits `[b, b + 64)` of `hi:lo` in each lane, `b` its count (0 allowed).
    fn funnel(self, lo: Self::W, hi: Self::W, b: Self::Count) -> Self::W;
    /// `cur` moved up `s` positions in each lane, the lowest `s` from the top of `prev`
    /// (`0 < s < 64`).
    fn near(self, cur: Self::W, prev: Self::W, s: Self::Count) -> Self::W;
    /// `a` in the lanes of `m`, `b` in the others.
    fn select(self, m: Self::Mask, a: Self::W, b: Self::W) -> Self::W;
    /// Lane-wise sum.
    fn add(self, a: Self::W, b: Self::W) -> Self::W;
    /// In the lanes where `differ` is nonzero, the larger of `last` and `end` less the leading
    /// zeros of `differ` (or, where the CPU cannot count them in lanes, AVX2, `end` itself: an
    /// upper bound); `last` in the others.
    fn mark(self, differ: Self::W, end: Self::W, last: Self::W) -> Self::W;
    /// The lanes (bit `l` for lane `l`) whose value is at most `limit` (values below `2^63`).
    fn at_most(self, a: Self::W, limit: u64) -> u32;
    fn is_zero(self, w: Self::W) -> bool;
}

/// Four lanes in `u64`s: any CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct PortableLanes;

type Quad = [u64; 4];

impl Logic for PortableLanes {
    type W = Quad;

    #[inline(always)]
    fn and(self, a: Quad, b: Quad) -> Quad {
        std::array::from_fn(|l| a[l] & b[l])
    }

    #[inline(always)]
    fn or(self, a: Quad, b: Quad) -> Quad {
        std::array::from_fn(|l| a[l] | b[l])
    }

    #[inline(always)]
    fn xor(self, a: Quad, b: Quad) -> Quad {
        std::array::from_fn(|l| a[l] ^ b[l])
    }

    #[inline(always)]
    fn and_not(self, a: Quad, b: Quad) -> Quad {
        std::array::from_fn(|l| a[l] & !b[l])
    }

    #[inline(always)]
    fn ones(self) -> Quad {
        [!0; 4]
    }

    #[inline(always)]
    fn zero(self) -> Quad {
        [0; 4]
    }
}

impl LaneMath for PortableLanes {
    const LANES: usize = 4;
    const EXACT_MARK: bool = true;
    /// `(b, 63 - b)` a lane: two shifts for the far side, so that 0 needs no branch.
    type Count = ([u32; 4], [u32; 4]);
    type Mask = Quad;

    #[inline(always)]
    fn splat(self, x: u64) -> Quad {
        [x; 4]
    }

    #[inline(always)]
    fn set_lane(self, mut w: Quad, l: usize, x: u64) -> Quad {
        w[l] = x;
        w
    }

    #[inline(always)]
    fn set_count(self, (mut b, mut rest): Self::Count, l: usize, bits: u64) -> Self::Count {
        debug_assert!(bits < 64);
        b[l] = bits as u32;
        rest[l] = 63 - bits as u32;
        (b, rest)
    }

    #[inline(always)]
    fn set_flag(self, m: Quad, l: usize, on: bool) -> Quad {
        self.set_lane(m, l, u64::from(on).wrapping_neg())
    }

    #[inline(always)]
    fn load_lanes(self, lanes: &PerLane) -> Quad {
        std::array::from_fn(|l| lanes[l])
    }

    #[inline(always)]
    fn to_lanes(self, w: Quad) -> PerLane {
        std::array::from_fn(|l| if l < 4 { w[l] } else { 0 })
    }

    #[inline(always)]
    fn count(self, bits: &PerLane) -> Self::Count {
        debug_assert!(bits.iter().all(|&b| b < 64));
        (
            std::array::from_fn(|l| bits[l] as u32),
            std::array::from_fn(|l| 63 - bits[l] as u32),
        )
    }

    #[inline(always)]
    fn mask(self, flags: &PerLane) -> Quad {
        std::array::from_fn(|l| u64::from(flags[l] != 0).wrapping_neg())
    }

    #[inline(always)]
    fn funnel(self, lo: Quad, hi: Quad, (b, rest): Self::Count) -> Quad {
        std::array::from_fn(|l| (lo[l] >> b[l]) | ((hi[l] << 1) << rest[l]))
    }

    #[inline(always)]
    fn near(self, cur: Quad, prev: Quad, (s, rest): Self::Count) -> Quad {
        std::array::from_fn(|l| (cur[l] << s[l]) | ((prev[l] >> 1) >> rest[l]))
    }

    #[inline(always)]
    fn select(self, m: Quad, a: Quad, b: Quad) -> Quad {
        std::array::from_fn(|l| (a[l] & m[l]) | (b[l] & !m[l]))
    }

    #[inline(always)]
    fn add(self, a: Quad, b: Quad) -> Quad {
        std::array::from_fn(|l| a[l].wrapping_add(b[l]))
    }

    #[inline(always)]
    fn mark(self, differ: Quad, end: Quad, last: Quad) -> Quad {
        std::array::from_fn(|l| match differ[l] {
            0 => last[l],
            d => last[l].max(end[l] - u64::from(d.leading_zeros())),
        })
    }

    #[inline(always)]
    fn at_most(self, a: Quad, limit: u64) -> u32 {
        (0..4).fold(0, |m, l| m | u32::from(a[l] <= limit) << l)
    }

    #[inline(always)]
    fn is_zero(self, w: Quad) -> bool {
        w.iter().fold(0, |o, &x| o | x) == 0
    }
}

/// Two registers of a math side by side, twice its lanes. Where the moves below 64 make a word
/// take several passes, each waiting on the one before, two independent registers keep the
/// CPU busy while each waits (sets of far moves gain nothing: their words are not a chain).
#[derive(Clone, Copy, Debug)]
pub struct Twice<M>(pub M);

impl<M: LaneMath> Twice<M> {
    /// The lanes of the second register, from `M::LANES` on, moved to the front.
    #[inline(always)]
    fn upper(lanes: &PerLane) -> PerLane {
        std::array::from_fn(|l| lanes.get(l + M::LANES).copied().unwrap_or(0))
    }
}

impl<M: LaneMath> Logic for Twice<M> {
    type W = [M::W; 2];

    #[inline(always)]
    fn and(self, a: Self::W, b: Self::W) -> Self::W {
        [self.0.and(a[0], b[0]), self.0.and(a[1], b[1])]
    }

    #[inline(always)]
    fn or(self, a: Self::W, b: Self::W) -> Self::W {
        [self.0.or(a[0], b[0]), self.0.or(a[1], b[1])]
    }

    #[inline(always)]
    fn xor(self, a: Self::W, b: Self::W) -> Self::W {
        [self.0.xor(a[0], b[0]), self.0.xor(a[1], b[1])]
    }

    #[inline(always)]
    fn and_not(self, a: Self::W, b: Self::W) -> Self::W {
        [self.0.and_not(a[0], b[0]), self.0.and_not(a[1], b[1])]
    }

    #[inline(always)]
    fn ones(self) -> Self::W {
        [self.0.ones(); 2]
    }

    #[inline(always)]
    fn zero(self) -> Self::W {
        [self.0.zero(); 2]
    }
}

impl<M: LaneMath> LaneMath for Twice<M> {
    const LANES: usize = 2 * M::LANES;
    const EXACT_MARK: bool = M::EXACT_MARK;
    type Count = [M::Count; 2];
    type Mask = [M::Mask; 2];

    #[inline(always)]
    fn splat(self, x: u64) -> Self::W {
        [self.0.splat(x); 2]
    }

    #[inline(always)]
    fn set_lane(self, [lo, hi]: Self::W, l: usize, x: u64) -> Self::W {
        match l.checked_sub(M::LANES) {
            None => [self.0.set_lane(lo, l, x), hi],
            Some(l) => [lo, self.0.set_lane(hi, l, x)],
        }
    }

    #[inline(always)]
    fn set_count(self, [lo, hi]: Self::Count, l: usize, bits: u64) -> Self::Count {
        match l.checked_sub(M::LANES) {
            None => [self.0.set_count(lo, l, bits), hi],
            Some(l) => [lo, self.0.set_count(hi, l, bits)],
        }
    }

    #[inline(always)]
    fn set_flag(self, [lo, hi]: Self::Mask, l: usize, on: bool) -> Self::Mask {
        match l.checked_sub(M::LANES) {
            None => [self.0.set_flag(lo, l, on), hi],
            Some(l) => [lo, self.0.set_flag(hi, l, on)],
        }
    }

    #[inline(always)]
    fn load_lanes(self, lanes: &PerLane) -> Self::W {
        [
            self.0.load_lanes(lanes),
            self.0.load_lanes(&Self::upper(lanes)),
        ]
    }

    #[inline(always)]
    fn to_lanes(self, [lo, hi]: Self::W) -> PerLane {
        let (lo, hi) = (self.0.to_lanes(lo), self.0.to_lanes(hi));
        std::array::from_fn(|l| match l.checked_sub(M::LANES) {
            None => lo[l],
            Some(l) => hi.get(l).copied().unwrap_or(0),
        })
    }

    #[inline(always)]
    fn count(self, bits: &PerLane) -> Self::Count {
        [self.0.count(bits), self.0.count(&Self::upper(bits))]
    }

    #[inline(always)]
    fn mask(self, flags: &PerLane) -> Self::Mask {
        [self.0.mask(flags), self.0.mask(&Self::upper(flags))]
    }

    #[inline(always)]
    fn funnel(self, lo: Self::W, hi: Self::W, b: Self::Count) -> Self::W {
        [
            self.0.funnel(lo[0], hi[0], b[0]),
            self.0.funnel(lo[1], hi[1], b[1]),
        ]
    }

    #[inline(always)]
    fn near(self, cur: Self::W, prev: Self::W, s: Self::Count) -> Self::W {
        [
            self.0.near(cur[0], prev[0], s[0]),
            self.0.near(cur[1], prev[1], s[1]),
        ]
    }

    #[inline(always)]
    fn select(self, m: Self::Mask, a: Self::W, b: Self::W) -> Self::W {
        [
            self.0.select(m[0], a[0], b[0]),
            self.0.select(m[1], a[1], b[1]),
        ]
    }

    #[inline(always)]
    fn add(self, a: Self::W, b: Self::W) -> Self::W {
        [self.0.add(a[0], b[0]), self.0.add(a[1], b[1])]
    }

    #[inline(always)]
    fn mark(self, differ: Self::W, end: Self::W, last: Self::W) -> Self::W {
        [
            self.0.mark(differ[0], end[0], last[0]),
            self.0.mark(differ[1], end[1], last[1]),
        ]
    }

    #[inline(always)]
    fn at_most(self, a: Self::W, limit: u64) -> u32 {
        self.0.at_most(a[0], limit) | self.0.at_most(a[1], limit) << M::LANES
    }

    #[inline(always)]
    fn is_zero(self, w: Self::W) -> bool {
        self.0.is_zero(self.0.or(w[0], w[1]))
    }
}

#[cfg(target_arch = "x86_64")]
pub use x86::{Avx2Lanes, Avx512Lanes};

/// BMI1, BMI2 and LZCNT: every CPU with AVX2 has them, but a VM may hide some.
#[cfg(target_arch = "x86_64")]
fn scalar_features() -> bool {
    is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("lzcnt")
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::{LaneMath, Logic, MAX_LANES, PerLane};

    /// Four lanes in a 256-bit register: a funnel shift is two variable shifts (a count of 64
    /// gives 0, so no lane needs a branch). Exists only where the CPU has AVX2.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx2Lanes(());

    /// Eight lanes in a 512-bit register: `vpshrdvq`/`vpshldvq` shift each lane by its own
    /// count, `vplzcntq` counts to a difference, flags are mask registers. Exists only where the
    /// CPU has AVX-512 F, CD and VBMI2.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512Lanes(());

    impl Avx2Lanes {
        /// `Some` on a CPU with AVX2 (and BMI1, BMI2 and LZCNT, which the engine's code around
        /// the lanes uses too).
        pub fn detect() -> Option<Self> {
            (is_x86_feature_detected!("avx2") && super::scalar_features()).then_some(Avx2Lanes(()))
        }
    }

    impl Avx512Lanes {
        /// `Some` on a CPU with AVX-512 F, CD and VBMI2 (and BMI1, BMI2 and LZCNT).
        pub fn detect() -> Option<Self> {
            (is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512cd")
                && is_x86_feature_detected!("avx512vbmi2")
                && super::scalar_features())
            .then_some(Avx512Lanes(()))
        }
    }

    // SAFETY (every `unsafe` block below): a value of either type exists only on a CPU with its
    // instructions (`detect`), so its methods only run there; they are inlined into the lane
    // engine's instances compiled for them (`super::super::lanes`).

    impl Logic for Avx2Lanes {
        type W = __m256i;

        #[inline(always)]
        fn and(self, a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_and_si256(a, b) }
        }

        #[inline(always)]
        fn or(self, a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_or_si256(a, b) }
        }

        #[inline(always)]
        fn xor(self, a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_xor_si256(a, b) }
        }

        #[inline(always)]
        fn and_not(self, a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_andnot_si256(b, a) }
        }

        #[inline(always)]
        fn ones(self) -> __m256i {
            unsafe { _mm256_set1_epi64x(-1) }
        }

        #[inline(always)]
        fn zero(self) -> __m256i {
            unsafe { _mm256_setzero_si256() }
        }
    }

    impl LaneMath for Avx2Lanes {
        const LANES: usize = 4;
        const EXACT_MARK: bool = false;
        /// `(b, 64 - b)` a lane.
        type Count = (__m256i, __m256i);
        type Mask = __m256i;

        #[inline(always)]
        fn splat(self, x: u64) -> __m256i {
            unsafe { _mm256_set1_epi64x(x as i64) }
        }

        #[inline(always)]
        fn set_lane(self, w: __m256i, l: usize, x: u64) -> __m256i {
            // A blend, not a store and a load: a wide load of narrow stores waits for them.
            unsafe {
                let lane =
                    _mm256_cmpeq_epi64(_mm256_set_epi64x(3, 2, 1, 0), _mm256_set1_epi64x(l as i64));
                _mm256_blendv_epi8(w, _mm256_set1_epi64x(x as i64), lane)
            }
        }

        #[inline(always)]
        fn set_count(self, (b, rest): Self::Count, l: usize, bits: u64) -> Self::Count {
            debug_assert!(bits < 64);
            (self.set_lane(b, l, bits), self.set_lane(rest, l, 64 - bits))
        }

        #[inline(always)]
        fn set_flag(self, m: __m256i, l: usize, on: bool) -> __m256i {
            self.set_lane(m, l, u64::from(on).wrapping_neg())
        }

        #[inline(always)]
        fn load_lanes(self, lanes: &PerLane) -> __m256i {
            unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) }
        }

        #[inline(always)]
        fn to_lanes(self, w: __m256i) -> PerLane {
            let mut out = [0; MAX_LANES];
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), w) };
            out
        }

        #[inline(always)]
        fn count(self, bits: &PerLane) -> Self::Count {
            debug_assert!(bits.iter().all(|&b| b < 64));
            let b = self.load_lanes(bits);
            (b, unsafe { _mm256_sub_epi64(_mm256_set1_epi64x(64), b) })
        }

        #[inline(always)]
        fn mask(self, flags: &PerLane) -> __m256i {
            let f = self.load_lanes(flags);
            unsafe { _mm256_xor_si256(_mm256_cmpeq_epi64(f, self.zero()), self.ones()) }
        }

        #[inline(always)]
        fn funnel(self, lo: __m256i, hi: __m256i, (b, rest): Self::Count) -> __m256i {
            unsafe { _mm256_or_si256(_mm256_srlv_epi64(lo, b), _mm256_sllv_epi64(hi, rest)) }
        }

        #[inline(always)]
        fn near(self, cur: __m256i, prev: __m256i, (s, rest): Self::Count) -> __m256i {
            unsafe { _mm256_or_si256(_mm256_sllv_epi64(cur, s), _mm256_srlv_epi64(prev, rest)) }
        }

        #[inline(always)]
        fn select(self, m: __m256i, a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_blendv_epi8(b, a, m) }
        }

        #[inline(always)]
        fn add(self, a: __m256i, b: __m256i) -> __m256i {
            unsafe { _mm256_add_epi64(a, b) }
        }

        #[inline(always)]
        fn mark(self, differ: __m256i, end: __m256i, last: __m256i) -> __m256i {
            // Values stay below 2^63: the signed comparison is the unsigned one.
            unsafe {
                let later = _mm256_andnot_si256(
                    _mm256_cmpeq_epi64(differ, self.zero()),
                    _mm256_cmpgt_epi64(end, last),
                );
                _mm256_blendv_epi8(last, end, later)
            }
        }

        #[inline(always)]
        fn at_most(self, a: __m256i, limit: u64) -> u32 {
            unsafe {
                let over = _mm256_cmpgt_epi64(a, _mm256_set1_epi64x(limit as i64));
                !(_mm256_movemask_pd(_mm256_castsi256_pd(over)) as u32) & 0xF
            }
        }

        #[inline(always)]
        fn is_zero(self, w: __m256i) -> bool {
            unsafe { _mm256_testz_si256(w, w) == 1 }
        }
    }

    impl Logic for Avx512Lanes {
        type W = __m512i;

        #[inline(always)]
        fn and(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_and_si512(a, b) }
        }

        #[inline(always)]
        fn or(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_or_si512(a, b) }
        }

        #[inline(always)]
        fn xor(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_xor_si512(a, b) }
        }

        #[inline(always)]
        fn and_not(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_andnot_si512(b, a) }
        }

        #[inline(always)]
        fn ones(self) -> __m512i {
            unsafe { _mm512_set1_epi64(-1) }
        }

        #[inline(always)]
        fn zero(self) -> __m512i {
            unsafe { _mm512_setzero_si512() }
        }
    }

    impl LaneMath for Avx512Lanes {
        const LANES: usize = 8;
        const EXACT_MARK: bool = true;
        type Count = __m512i;
        type Mask = __mmask8;

        #[inline(always)]
        fn splat(self, x: u64) -> __m512i {
            unsafe { _mm512_set1_epi64(x as i64) }
        }

        #[inline(always)]
        fn set_lane(self, w: __m512i, l: usize, x: u64) -> __m512i {
            unsafe { _mm512_mask_set1_epi64(w, 1 << l, x as i64) }
        }

        #[inline(always)]
        fn set_count(self, c: __m512i, l: usize, bits: u64) -> __m512i {
            debug_assert!(bits < 64);
            self.set_lane(c, l, bits)
        }

        #[inline(always)]
        fn set_flag(self, m: __mmask8, l: usize, on: bool) -> __mmask8 {
            (m & !(1 << l)) | (u8::from(on) << l)
        }

        #[inline(always)]
        fn load_lanes(self, lanes: &PerLane) -> __m512i {
            unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) }
        }

        #[inline(always)]
        fn to_lanes(self, w: __m512i) -> PerLane {
            let mut out = [0; MAX_LANES];
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), w) };
            out
        }

        #[inline(always)]
        fn count(self, bits: &PerLane) -> __m512i {
            debug_assert!(bits.iter().all(|&b| b < 64));
            self.load_lanes(bits)
        }

        #[inline(always)]
        fn mask(self, flags: &PerLane) -> __mmask8 {
            let f = self.load_lanes(flags);
            unsafe { _mm512_test_epi64_mask(f, f) }
        }

        #[inline(always)]
        fn funnel(self, lo: __m512i, hi: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_shrdv_epi64(lo, hi, b) }
        }

        #[inline(always)]
        fn near(self, cur: __m512i, prev: __m512i, s: __m512i) -> __m512i {
            unsafe { _mm512_shldv_epi64(cur, prev, s) }
        }

        #[inline(always)]
        fn select(self, m: __mmask8, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_mask_blend_epi64(m, b, a) }
        }

        #[inline(always)]
        fn add(self, a: __m512i, b: __m512i) -> __m512i {
            unsafe { _mm512_add_epi64(a, b) }
        }

        #[inline(always)]
        fn mark(self, differ: __m512i, end: __m512i, last: __m512i) -> __m512i {
            unsafe {
                let at = _mm512_sub_epi64(end, _mm512_lzcnt_epi64(differ));
                _mm512_mask_max_epu64(last, _mm512_test_epi64_mask(differ, differ), last, at)
            }
        }

        #[inline(always)]
        fn at_most(self, a: __m512i, limit: u64) -> u32 {
            unsafe { u32::from(_mm512_cmple_epu64_mask(a, _mm512_set1_epi64(limit as i64))) }
        }

        #[inline(always)]
        fn is_zero(self, w: __m512i) -> bool {
            unsafe { _mm512_test_epi64_mask(w, w) == 0 }
        }
    }
}
