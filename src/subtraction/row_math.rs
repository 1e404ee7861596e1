//! The arithmetic of [`super::set_solver`]'s word loop on one row: the `P` binary planes of 64
//! positions, for a set of `K` moves (values at most `K < 2^P`). [`Portable`] holds a row in `P`
//! `u64`s, for any `P` and `K`; [`Avx512`], for three moves, in one 128-bit register, where a
//! funnel shift of both planes and a three-input logic operation are one instruction each
//! (about half the instructions of a word).

/// The `P` planes of 64 consecutive positions: bit `x` of plane `j` is bit `j` of `G(x)`.
pub type Row<const P: usize> = [u64; P];

/// The largest value `P` planes hold, everywhere: positions below 0. A `K`-move game has values
/// at most `K <= 2^P - 1`, and the mex of `K` options is at most `K`, so an option there offers
/// nothing the mex uses, just as an illegal move offers nothing.
pub const fn none<const P: usize>() -> Row<P> {
    [!0; P]
}

/// The planes a `K`-move game's values need: `ceil(log2(K + 1))`.
pub const fn planes_for(k: usize) -> usize {
    (usize::BITS - k.leading_zeros()) as usize
}

/// The operations a word needs, on rows of `P` planes held in registers.
pub trait RowMath<const P: usize>: Copy {
    /// A row as memory holds it.
    type Row: Copy;
    /// A row in registers.
    type Reg: Copy;
    /// A shift count, prepared once per move or period.
    type Count: Copy;
    /// What the options of 64 positions offer, gathered move by move.
    type Offers: Copy;

    /// `bits < 64`.
    fn count(self, bits: u32) -> Self::Count;
    fn load(self, row: Self::Row) -> Self::Reg;
    fn store(self, reg: Self::Reg) -> Self::Row;
    /// Bits `[bit, bit + 64)` of the rows `lo, hi` (positions `[0, 128)`).
    fn funnel(self, lo: Self::Reg, hi: Self::Reg, bit: Self::Count) -> Self::Reg;
    /// What a move `s`, `0 < s < 64`, reads for the word `cur` while it fills: `cur` moved up
    /// `s` positions, the lowest `s` taken from the top of the word before, `prev`.
    fn near(self, cur: Self::Reg, prev: Self::Reg, s: Self::Count) -> Self::Reg;
    /// No option yet.
    fn nothing(self) -> Self::Offers;
    /// Takes in one option's values (`K` or more offer nothing the mex can use).
    fn add(self, offers: &mut Self::Offers, option: Self::Reg);
    /// The mex in binary: the least value not offered, `K` where `0..K` all are.
    fn mex(self, offers: Self::Offers) -> Self::Reg;
    /// Where two rows hold different values, one bit a position.
    fn differ(self, u: Self::Reg, v: Self::Reg) -> u64;
    fn same(self, u: Self::Reg, v: Self::Reg) -> bool {
        self.differ(u, v) == 0
    }
}

/// Bitwise logic on words of 64 positions, one or several at once (one per lane of
/// [`super::lane_math`]): what the mex of [`Offers`] is made of. A token type, so that the
/// instructions of a CPU feature only run where a value of it proves the feature.
pub trait Logic: Copy {
    type W: Copy;
    fn and(self, a: Self::W, b: Self::W) -> Self::W;
    fn or(self, a: Self::W, b: Self::W) -> Self::W;
    fn xor(self, a: Self::W, b: Self::W) -> Self::W;
    /// `a & !b`.
    fn and_not(self, a: Self::W, b: Self::W) -> Self::W;
    fn ones(self) -> Self::W;
    fn zero(self) -> Self::W;
}

/// What `K` options offer at each position, gathered option by option: for each value
/// `0 < v < K` the positions where some option has it, and for 0 where none has (an AND of each
/// option's nonzero planes: one operation less an option than the OR of its zeros). One mex for
/// every word width: the portable row math and every lane math.
#[derive(Clone, Copy)]
pub struct Offers<W, const K: usize> {
    no_zero: W,
    offered: [W; K],
}

impl<W: Copy, const K: usize> Offers<W, K> {
    /// No option yet.
    #[inline(always)]
    pub fn nothing<L: Logic<W = W>>(l: L) -> Self {
        Offers {
            no_zero: l.ones(),
            offered: [l.zero(); K],
        }
    }

    /// Takes in one option's values in `P` planes (`K` or more offer nothing the mex can use).
    /// (Loops, not closures: a closure would not inherit the target features of the function
    /// it is inlined into, and the lane maths' instructions would become calls.)
    #[inline(always)]
    pub fn add<L: Logic<W = W>, const P: usize>(&mut self, l: L, option: [W; P]) {
        let mut any = option[0];
        for &plane in &option[1..] {
            any = l.or(any, plane);
        }
        self.no_zero = l.and(self.no_zero, any);
        for v in 1..K {
            // The positions where the option is v: each plane as v's bit says.
            let mut is_v = l.ones();
            for (j, &plane) in option.iter().enumerate() {
                is_v = if v >> j & 1 == 1 {
                    l.and(is_v, plane)
                } else {
                    l.and_not(is_v, plane)
                };
            }
            self.offered[v] = l.or(self.offered[v], is_v);
        }
    }

    /// The mex in binary: the least value not offered, `K` where `0..K` all are.
    #[inline(always)]
    pub fn mex<L: Logic<W = W>, const P: usize>(self, l: L) -> [W; P] {
        const { assert!(K < 1 << P, "K moves need more planes") };
        // `below`: positions whose options hold every value below v.
        let mut below = l.and_not(l.ones(), self.no_zero);
        let mut planes = [l.zero(); P];
        for (v, &offered) in self.offered.iter().enumerate().skip(1) {
            let is_v = l.and_not(below, offered);
            for (j, plane) in planes.iter_mut().enumerate() {
                if v >> j & 1 == 1 {
                    *plane = l.or(*plane, is_v);
                }
            }
            below = l.and(below, offered);
        }
        for (j, plane) in planes.iter_mut().enumerate() {
            if K >> j & 1 == 1 {
                *plane = l.or(*plane, below);
            }
        }
        planes
    }
}

/// Rows as `P` `u64`s, for sets of `K` moves: any CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable<const K: usize>;

impl<const K: usize> Logic for Portable<K> {
    type W = u64;

    #[inline(always)]
    fn and(self, a: u64, b: u64) -> u64 {
        a & b
    }

    #[inline(always)]
    fn or(self, a: u64, b: u64) -> u64 {
        a | b
    }

    #[inline(always)]
    fn xor(self, a: u64, b: u64) -> u64 {
        a ^ b
    }

    #[inline(always)]
    fn and_not(self, a: u64, b: u64) -> u64 {
        a & !b
    }

    #[inline(always)]
    fn ones(self) -> u64 {
        !0
    }

    #[inline(always)]
    fn zero(self) -> u64 {
        0
    }
}

impl<const P: usize, const K: usize> RowMath<P> for Portable<K> {
    type Row = Row<P>;
    type Reg = Row<P>;
    /// `(bits, 63 - bits)`: two shifts for the far side, so that 0 bits needs no branch.
    type Count = (u32, u32);
    type Offers = Offers<u64, K>;

    #[inline(always)]
    fn count(self, bits: u32) -> (u32, u32) {
        debug_assert!(bits < 64);
        (bits, 63 - bits)
    }

    #[inline(always)]
    fn load(self, row: Row<P>) -> Row<P> {
        row
    }

    #[inline(always)]
    fn store(self, reg: Row<P>) -> Row<P> {
        reg
    }

    #[inline(always)]
    fn funnel(self, lo: Row<P>, hi: Row<P>, (bit, rest): (u32, u32)) -> Row<P> {
        std::array::from_fn(|j| (lo[j] >> bit) | ((hi[j] << 1) << rest))
    }

    #[inline(always)]
    fn near(self, cur: Row<P>, prev: Row<P>, (s, rest): (u32, u32)) -> Row<P> {
        std::array::from_fn(|j| (cur[j] << s) | ((prev[j] >> 1) >> rest))
    }

    #[inline(always)]
    fn nothing(self) -> Offers<u64, K> {
        Offers::nothing(self)
    }

    #[inline(always)]
    fn add(self, offers: &mut Offers<u64, K>, option: Row<P>) {
        offers.add(self, option);
    }

    #[inline(always)]
    fn mex(self, offers: Offers<u64, K>) -> Row<P> {
        offers.mex(self)
    }

    #[inline(always)]
    fn differ(self, u: Row<P>, v: Row<P>) -> u64 {
        (0..P).fold(0, |d, j| d | (u[j] ^ v[j]))
    }
}

#[cfg(target_arch = "x86_64")]
pub use avx512::Avx512;

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{Row, RowMath};

    type Row2 = Row<2>;

    /// Rows of two planes (three moves) in one 128-bit register, plane 0 in the low lane:
    /// `vpshrdvq` is a funnel shift of
    /// both planes, `vpternlogq` any function of three rows. Exists only where the CPU has
    /// AVX-512 F, VL and VBMI2 (and BMI1, BMI2, LZCNT: [`Self::detect`]).
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512(());

    /// [`Avx512`]'s offers, arranged so that the mex is one instruction for both planes:
    /// `no_zero` in both lanes, `[one, !0]` and `[two, one]` (see [`Avx512::mex`]).
    #[derive(Clone, Copy)]
    pub struct Avx512Offers {
        no_zero: __m128i,
        one_all: __m128i,
        two_one: __m128i,
    }

    impl Avx512 {
        /// `Some` on a CPU that has the instructions (and BMI1, BMI2 and LZCNT, which the
        /// loop built for it uses too; every AVX-512 CPU has them, but a VM may hide some).
        pub fn detect() -> Option<Self> {
            (is_x86_feature_detected!("avx512f")
                && is_x86_feature_detected!("avx512vl")
                && is_x86_feature_detected!("avx512vbmi2")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("lzcnt"))
            .then_some(Avx512(()))
        }
    }

    /// Truth tables of `vpternlogq` operands `a, b, c`.
    const A: i32 = 0xF0;
    const B: i32 = 0xCC;
    const C: i32 = 0xAA;

    /// Exchanges the planes.
    macro_rules! swap {
        ($v:expr) => {
            _mm_shuffle_epi32::<0x4E>($v)
        };
    }

    // SAFETY (every `unsafe` block below): an `Avx512` exists only on a CPU with the
    // instructions (`detect`), so its methods only run there. They are inlined into a caller
    // compiled for them (`SetSolver::solve_avx512`).
    impl RowMath<2> for Avx512 {
        type Row = Row2;
        type Reg = __m128i;
        type Count = __m128i;
        type Offers = Avx512Offers;

        #[inline(always)]
        fn count(self, bits: u32) -> __m128i {
            debug_assert!(bits < 64);
            unsafe { _mm_set1_epi64x(i64::from(bits)) }
        }

        #[inline(always)]
        fn load(self, row: Row2) -> __m128i {
            // SAFETY: both are 16 bytes of plain integers.
            unsafe { std::mem::transmute::<Row2, __m128i>(row) }
        }

        #[inline(always)]
        fn store(self, reg: __m128i) -> Row2 {
            // SAFETY: as in `load`.
            unsafe { std::mem::transmute::<__m128i, Row2>(reg) }
        }

        #[inline(always)]
        fn funnel(self, lo: __m128i, hi: __m128i, bit: __m128i) -> __m128i {
            unsafe { _mm_shrdv_epi64(lo, hi, bit) }
        }

        #[inline(always)]
        fn near(self, cur: __m128i, prev: __m128i, s: __m128i) -> __m128i {
            unsafe { _mm_shldv_epi64(cur, prev, s) }
        }

        #[inline(always)]
        fn nothing(self) -> Avx512Offers {
            unsafe {
                Avx512Offers {
                    no_zero: _mm_set1_epi64x(-1),
                    one_all: _mm_set_epi64x(-1, 0),
                    two_one: _mm_setzero_si128(),
                }
            }
        }

        #[inline(always)]
        fn add(self, offers: &mut Avx512Offers, option: __m128i) {
            unsafe {
                // option = [low, high], swapped = [high, low]: low | high in both lanes,
                // low & !high in the low lane (the high lane stays all ones), and high & !low,
                // low & !high side by side. Three independent instructions.
                let swapped = swap!(option);
                offers.no_zero =
                    _mm_ternarylogic_epi64::<{ A & (B | C) }>(offers.no_zero, option, swapped);
                offers.one_all =
                    _mm_ternarylogic_epi64::<{ A | (B & !C) }>(offers.one_all, option, swapped);
                offers.two_one =
                    _mm_ternarylogic_epi64::<{ A | (C & !B) }>(offers.two_one, option, swapped);
            }
        }

        #[inline(always)]
        fn mex(self, o: Avx512Offers) -> __m128i {
            // !no_zero & (!x | y): plane 0 with (x, y) = (one, two) is
            // !(no_zero | (one & !two)), plane 1 with (!0, one) is !no_zero & one.
            unsafe {
                _mm_ternarylogic_epi64::<{ !A & (!B | C) & 0xFF }>(o.no_zero, o.one_all, o.two_one)
            }
        }

        #[inline(always)]
        fn differ(self, u: __m128i, v: __m128i) -> u64 {
            unsafe {
                let x = _mm_xor_si128(u, v);
                _mm_cvtsi128_si64(_mm_or_si128(x, swap!(x))) as u64
            }
        }

        #[inline(always)]
        fn same(self, u: __m128i, v: __m128i) -> bool {
            unsafe { _mm_cmpeq_epi64_mask(u, v) == 0b11 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// Each operation of a math against the plain definitions, on random rows of values up to
    /// `K` (and the filler `2^P - 1`) and every shift.
    fn agrees_with_definitions<const P: usize, const K: usize, M: RowMath<P, Row = Row<P>>>(m: M) {
        let mut rng = rand::rng();
        let value = |r: Row<P>, x: u32| (0..P).fold(0, |v, j| v | (r[j] >> x & 1) << j) as usize;
        // Rows of values in 0..=K or the filler, as a game's rows hold.
        let mut random_row = || {
            let mut r = [0u64; P];
            for x in 0..64 {
                let v = match rng.random_range(0..=K + 1) {
                    v if v <= K => v,
                    _ => (1 << P) - 1,
                };
                for (j, plane) in r.iter_mut().enumerate() {
                    *plane |= ((v >> j & 1) as u64) << x;
                }
            }
            r
        };
        for _ in 0..200 {
            let rows: Vec<Row<P>> = (0..K.max(2)).map(|_| random_row()).collect();
            let (lo, hi) = (m.load(rows[0]), m.load(rows[1]));
            for bit in 0..64 {
                let got = m.store(m.funnel(lo, hi, m.count(bit)));
                for x in 0..64 {
                    let y = x + bit;
                    let want = if y < 64 {
                        value(rows[0], y)
                    } else {
                        value(rows[1], y - 64)
                    };
                    assert_eq!(value(got, x), want);
                }
                if bit > 0 {
                    let got = m.store(m.near(hi, lo, m.count(bit)));
                    for x in 0..64 {
                        let want = if x >= bit {
                            value(rows[1], x - bit)
                        } else {
                            value(rows[0], 64 + x - bit)
                        };
                        assert_eq!(value(got, x), want);
                    }
                }
            }
            let mut offers = m.nothing();
            for &option in &rows[..K] {
                m.add(&mut offers, m.load(option));
            }
            let mex = m.store(m.mex(offers));
            let differ = m.differ(lo, hi);
            for x in 0..64 {
                let offered: Vec<usize> = rows[..K].iter().map(|&r| value(r, x)).collect();
                let want = (0..).find(|v| !offered.contains(v)).unwrap();
                assert_eq!(value(mex, x), want, "{offered:?}");
                assert_eq!(differ >> x & 1 == 1, value(rows[0], x) != value(rows[1], x));
            }
            assert!(m.same(lo, lo) && !m.same(lo, hi));
        }
    }

    #[test]
    fn portable_agrees_with_definitions_for_every_move_count() {
        agrees_with_definitions::<2, 2, _>(Portable::<2>);
        agrees_with_definitions::<2, 3, _>(Portable::<3>);
        agrees_with_definitions::<3, 4, _>(Portable::<4>);
        agrees_with_definitions::<3, 5, _>(Portable::<5>);
        agrees_with_definitions::<3, 6, _>(Portable::<6>);
        agrees_with_definitions::<3, 7, _>(Portable::<7>);
        assert_eq!([2, 3, 4, 7, 8].map(planes_for), [2, 2, 3, 3, 4]);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_agrees_with_definitions() {
        match Avx512::detect() {
            Some(m) => agrees_with_definitions::<2, 3, _>(m),
            None => eprintln!("no AVX-512 VBMI2 on this CPU: the portable math is the one used"),
        }
    }
}
