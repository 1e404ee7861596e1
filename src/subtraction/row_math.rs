//! The arithmetic of [`super::triple_solver`]'s word loop on one row: both binary planes of 64
//! positions. [`Portable`] holds a row in two `u64`s; [`Avx512`] in one 128-bit register, where a
//! funnel shift of both planes and a three-input logic operation are one instruction each (about
//! half the instructions of a word).

/// The two planes of 64 consecutive positions: bit `x` of plane `j` is bit `j` of `G(x)`.
pub type Row = [u64; 2];

/// Value 3 everywhere: positions below 0.
pub const NONE: Row = [!0, !0];

/// The operations a word needs, on rows held in registers.
pub trait RowMath: Copy {
    /// A row in registers.
    type Reg: Copy;
    /// A shift count, prepared once per move or period.
    type Count: Copy;
    /// What the options of 64 positions offer, gathered move by move.
    type Offers: Copy;

    /// `bits < 64`.
    fn count(self, bits: u32) -> Self::Count;
    fn load(self, row: Row) -> Self::Reg;
    fn store(self, reg: Self::Reg) -> Row;
    /// Bits `[bit, bit + 64)` of the rows `lo, hi` (positions `[0, 128)`).
    fn funnel(self, lo: Self::Reg, hi: Self::Reg, bit: Self::Count) -> Self::Reg;
    /// What a move `s`, `0 < s < 64`, reads for the word `cur` while it fills: `cur` moved up
    /// `s` positions, the lowest `s` taken from the top of the word before, `prev`.
    fn near(self, cur: Self::Reg, prev: Self::Reg, s: Self::Count) -> Self::Reg;
    /// No option yet.
    fn nothing(self) -> Self::Offers;
    /// Takes in one option's values (3 offers nothing the mex can use).
    fn add(self, offers: &mut Self::Offers, option: Self::Reg);
    /// The mex in binary: 0 where 0 is not offered, 1 where 0 is but 1 is not, 2 where 0 and 1
    /// are but 2 is not, 3 where all are.
    fn mex(self, offers: Self::Offers) -> Self::Reg;
    /// Where two rows hold different values, one bit a position.
    fn differ(self, u: Self::Reg, v: Self::Reg) -> u64;
    fn same(self, u: Self::Reg, v: Self::Reg) -> bool {
        self.differ(u, v) == 0
    }
}

/// Rows as two `u64`s: any CPU.
#[derive(Clone, Copy, Debug, Default)]
pub struct Portable;

/// [`Portable`]'s offers, one word each.
#[derive(Clone, Copy)]
pub struct PortableOffers {
    /// Positions where no option has value 0.
    no_zero: u64,
    /// Positions where some option has value 1, and value 2.
    one: u64,
    two: u64,
}

impl RowMath for Portable {
    type Reg = Row;
    /// `(bits, 63 - bits)`: two shifts for the far side, so that 0 bits needs no branch.
    type Count = (u32, u32);
    type Offers = PortableOffers;

    #[inline(always)]
    fn count(self, bits: u32) -> (u32, u32) {
        debug_assert!(bits < 64);
        (bits, 63 - bits)
    }

    #[inline(always)]
    fn load(self, row: Row) -> Row {
        row
    }

    #[inline(always)]
    fn store(self, reg: Row) -> Row {
        reg
    }

    #[inline(always)]
    fn funnel(self, lo: Row, hi: Row, (bit, rest): (u32, u32)) -> Row {
        [0, 1].map(|j| (lo[j] >> bit) | ((hi[j] << 1) << rest))
    }

    #[inline(always)]
    fn near(self, cur: Row, prev: Row, (s, rest): (u32, u32)) -> Row {
        [0, 1].map(|j| (cur[j] << s) | ((prev[j] >> 1) >> rest))
    }

    #[inline(always)]
    fn nothing(self) -> PortableOffers {
        PortableOffers {
            no_zero: !0,
            one: 0,
            two: 0,
        }
    }

    #[inline(always)]
    fn add(self, offers: &mut PortableOffers, [low, high]: Row) {
        offers.no_zero &= low | high;
        offers.one |= low & !high;
        offers.two |= high & !low;
    }

    #[inline(always)]
    fn mex(self, o: PortableOffers) -> Row {
        [!(o.no_zero | (o.one & !o.two)), o.one & !o.no_zero]
    }

    #[inline(always)]
    fn differ(self, u: Row, v: Row) -> u64 {
        (u[0] ^ v[0]) | (u[1] ^ v[1])
    }
}

#[cfg(target_arch = "x86_64")]
pub use avx512::Avx512;

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::{Row, RowMath};

    /// Rows in one 128-bit register, plane 0 in the low lane: `vpshrdvq` is a funnel shift of
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
    // compiled for them (`TripleSolver::solve_avx512`).
    impl RowMath for Avx512 {
        type Reg = __m128i;
        type Count = __m128i;
        type Offers = Avx512Offers;

        #[inline(always)]
        fn count(self, bits: u32) -> __m128i {
            debug_assert!(bits < 64);
            unsafe { _mm_set1_epi64x(i64::from(bits)) }
        }

        #[inline(always)]
        fn load(self, row: Row) -> __m128i {
            // SAFETY: both are 16 bytes of plain integers.
            unsafe { std::mem::transmute::<Row, __m128i>(row) }
        }

        #[inline(always)]
        fn store(self, reg: __m128i) -> Row {
            // SAFETY: as in `load`.
            unsafe { std::mem::transmute::<__m128i, Row>(reg) }
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

    /// Each operation of every math this CPU has against the plain definitions, on random rows
    /// and every shift.
    fn agrees_with_definitions<M: RowMath>(m: M) {
        let mut rng = rand::rng();
        let value = |r: Row, x: u32| (r[0] >> x & 1 | (r[1] >> x & 1) << 1) as u8;
        for _ in 0..200 {
            let rows: [Row; 3] = std::array::from_fn(|_| [rng.random(), rng.random()]);
            let [lo, hi, third] = rows.map(|r| m.load(r));
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
            for option in [lo, hi, third] {
                m.add(&mut offers, option);
            }
            let mex = m.store(m.mex(offers));
            let differ = m.differ(lo, hi);
            for x in 0..64 {
                let offered: Vec<u8> = rows.iter().map(|&r| value(r, x)).collect();
                let want = (0..).find(|v| !offered.contains(v)).unwrap().min(3);
                // 3 offers nothing the mex uses: the mex of three options is at most 3.
                assert_eq!(value(mex, x), want, "{offered:?}");
                assert_eq!(differ >> x & 1 == 1, value(rows[0], x) != value(rows[1], x));
            }
            assert!(m.same(lo, lo) && !m.same(lo, hi));
        }
    }

    #[test]
    fn portable_agrees_with_definitions() {
        agrees_with_definitions(Portable);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn avx512_agrees_with_definitions() {
        match Avx512::detect() {
            Some(m) => agrees_with_definitions(m),
            None => eprintln!("no AVX-512 VBMI2 on this CPU: the portable math is the one used"),
        }
    }
}
