//! The inner loops of the fast paths, over bitsets of values (bit `v` of word `v / 64`): for
//! the rare/common split, the splits with a rare part and the scan of all splits for the values
//! still wanted; for codes that split in three, the shifted clear of a pair bitset. Each has a
//! plain loop, an AVX2 one and an AVX-512 one, chosen at run time; all clear exactly the same
//! bits.
//!
//! The rare loop marks a batch's offers as words or bytes ([`Offers`]), one plain store each,
//! the 16 lanes' indices made in one vector operation by the AVX2 and AVX-512 clones. A bitset
//! tested first by a gather (16 lanes) spared stores, but the gather and the clears of the
//! lanes that hit cost more (in Officers, a third of that loop's time went to the clears).
//!
//! The AVX-512 scan takes 16 splits a step and tests their xors against the bitset (held in
//! registers when it fits, else read by a gather). The AVX2 scan reads the bitset by gathers,
//! 8 splits a step, while more than eight values are wanted; then (most of the scan: the
//! last values wanted are the rarest) it compares each lane with them, 16 splits a step on
//! the values' 16-bit copy where every value fits 16 bits, else 8.

/// Sizes computed together by [`Kernel::offer_rare`].
pub const BATCH: usize = 16;

/// Which loops run: the plain ones everywhere, the AVX2 or AVX-512 ones where the CPU has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Plain,
    Avx2,
    Avx512,
}

impl Kernel {
    /// The fastest this CPU runs.
    pub fn detect() -> Self {
        *Self::available()
            .last()
            .expect("the plain kernel runs anywhere")
    }

    /// Every kernel this CPU runs, plainest first (the tests compare them all).
    pub fn available() -> Vec<Kernel> {
        let mut kernels = vec![Kernel::Plain];
        if has_avx2() {
            kernels.push(Kernel::Avx2);
        }
        if has_avx512() {
            kernels.push(Kernel::Avx512);
        }
        kernels
    }

    /// For a batch of sizes `n0 + l`, `l` in `0..16`, whose `left` (the size minus the split's
    /// take) is `base + l`: marks in `offers` lane `l`'s value `val[k] xor g[base + l - pos[k]]`
    /// offered, for each `k` with `pos[k] < base + l`. Every partner lies within `g` (the
    /// callers pass rare parts of 16 or more, or 32 or more when `g` ends a batch earlier),
    /// and every value below the span `offers` was reset to.
    pub fn offer_rare(self, offers: &mut Offers, g: &[u32], pos: &[u32], val: &[u32], base: usize) {
        debug_assert_eq!(pos.len(), val.len());
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512 (asked again: anyone may name `Avx512`).
            Kernel::Avx512 if has_avx512() => unsafe {
                offer_rare_avx512(offers, g, pos, val, base)
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2.
            Kernel::Avx2 if has_avx2() => unsafe { offer_rare_avx2(offers, g, pos, val, base) },
            _ => offers.offer_rare_marks(g, pos, val, base),
        }
    }

    /// Clears in `want` the bit of `g[a] xor g[left - a]` for `a` in `parts` (up to `left / 2`:
    /// the splits of `left` in two, or those of two unequal heaps) until the `wanted` bits set
    /// are all clear; returns how many are left. `narrow`, where given, is `g` in 16 bits (every
    /// value below 2^16), which the AVX2 scan reads 16 splits a step.
    pub fn offer_common(
        self,
        want: &mut [u64],
        g: &[u32],
        narrow: Option<&[u16]>,
        left: usize,
        parts: std::ops::RangeInclusive<usize>,
        wanted: u32,
    ) -> u32 {
        let (first, last) = parts.into_inner();
        debug_assert!(first >= 1 && last <= left / 2);
        debug_assert!(narrow.is_none_or(|n| n.len() == g.len()));
        let (mut wanted, from) = match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512 (asked again: anyone may name `Avx512`), and the
            // gathers' indices fit, by `fits_gather`.
            Kernel::Avx512 if has_avx512() && fits_gather(want, g) => unsafe {
                avx512::offer_common(want, g, left, first, last, wanted)
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, for AVX2.
            Kernel::Avx2 if has_avx2() && fits_gather(want, g) => unsafe {
                avx2::offer_common(want, g, narrow, left, first, last, wanted)
            },
            _ => (wanted, first),
        };
        for a in from..=last {
            if wanted == 0 {
                break;
            }
            wanted -= u32::from(clear(want, g[a] ^ g[left - a]));
        }
        wanted
    }

    /// Clears in `open` each bit `v xor x` for `v` set in `bits` (both of the same width, a
    /// power of two words, `x` below it): the options a heap of value `x` adds to each pair of
    /// a bitset (the three-heap splits of `super::pairs`). The AVX2 and AVX-512 clones run the
    /// same loop, eight words a step.
    pub fn shifted_clear(self, open: &mut [u64], bits: &[u64], x: u32) {
        debug_assert!(open.len() == bits.len() && open.len().is_power_of_two());
        debug_assert!((x as usize) < 64 * open.len());
        match self {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512 F, BW and VBMI and GFNI (checked).
            Kernel::Avx512 if has_avx512() && has_vbmi_gfni() && open.len() >= BLOCK => unsafe {
                shifted_clear_vbmi(open, bits, x)
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX-512 F (checked).
            Kernel::Avx512 if has_avx512() => unsafe { shifted_clear_avx512(open, bits, x) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2 (checked).
            Kernel::Avx2 if has_avx2() => unsafe { shifted_clear_avx2(open, bits, x) },
            _ => shifted_clear_blocks(open, bits, x),
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn shifted_clear_avx512(open: &mut [u64], bits: &[u64], x: u32) {
    shifted_clear_blocks(open, bits, x);
}

/// Whether this CPU permutes bytes (AVX-512 VBMI) and bits within bytes (GFNI) in one step each.
#[cfg(target_arch = "x86_64")]
fn has_vbmi_gfni() -> bool {
    std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vbmi")
        && std::arch::is_x86_feature_detected!("gfni")
}

/// [`Kernel::shifted_clear`] at least a block wide, in two instructions a block: one byte
/// permutation for the words' order and their bytes' (`vpermb`), one affine map for the bits
/// within each byte (`gf2p8affineqb`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
fn shifted_clear_vbmi(open: &mut [u64], bits: &[u64], x: u32) {
    use std::arch::x86_64::*;
    let (far, near) = ((x >> 6) as usize, (x & 63) as usize);
    let (blocks, lanes) = (far / BLOCK, far % BLOCK);
    // Output byte `p` (word `p / 8`, byte `p % 8`) comes from word `p / 8 ^ lanes`, byte
    // `p % 8 ^ near / 8`; output bit `i` of a byte from bit `i ^ near % 8`, row `7 - i` of the
    // affine map's matrix.
    let order: [u8; 64] =
        std::array::from_fn(|p| (((p / 8) ^ lanes) * 8 + ((p % 8) ^ (near / 8))) as u8);
    let matrix = (0..8).fold(0u64, |m, i| m | 1 << (i ^ (near % 8)) << (8 * (7 - i)));
    // SAFETY: `order` holds 64 bytes.
    let order = unsafe { _mm512_loadu_si512(order.as_ptr().cast()) };
    let matrix = _mm512_set1_epi64(matrix as i64);
    for (j, out) in open.chunks_exact_mut(BLOCK).enumerate() {
        let from = &bits[(j ^ blocks) * BLOCK..][..BLOCK];
        // SAFETY: `from` and `out` hold a block of 8 words each.
        unsafe {
            let moved = _mm512_permutexvar_epi8(order, _mm512_loadu_si512(from.as_ptr().cast()));
            let moved = _mm512_gf2p8affine_epi64_epi8::<0>(moved, matrix);
            let kept = _mm512_andnot_si512(moved, _mm512_loadu_si512(out.as_ptr().cast()));
            _mm512_storeu_si512(out.as_mut_ptr().cast(), kept);
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn shifted_clear_avx2(open: &mut [u64], bits: &[u64], x: u32) {
    shifted_clear_blocks(open, bits, x);
}

/// Words [`shifted_clear_blocks`] moves at once: one 512-bit register.
const BLOCK: usize = 8;

/// [`Kernel::shifted_clear`]: the bits of `v xor x` are those of `v` with the words permuted by
/// `x >> 6` and each word's bits by `x & 63`. Both are conditional swaps (of bit blocks within
/// a word, of words within a block of eight, of blocks), the same for every word of a call: the
/// loop over a block's words is one vector operation a swap, and the test of each swap's bit of
/// `x` is outside it.
#[inline(always)]
fn shifted_clear_blocks(open: &mut [u64], bits: &[u64], x: u32) {
    let (far, near) = ((x >> 6) as usize, x & 63);
    if open.len() < BLOCK {
        // One short block: fewer words than a register, gathered one by one.
        let mut block = [0u64; BLOCK];
        for (w, word) in block.iter_mut().enumerate().take(open.len()) {
            *word = bits[w ^ far];
        }
        swap_bits(&mut block, near);
        for (o, word) in open.iter_mut().zip(block) {
            *o &= !word;
        }
        return;
    }
    let (blocks, lanes) = (far / BLOCK, far % BLOCK);
    for (j, out) in open.chunks_exact_mut(BLOCK).enumerate() {
        let mut block: [u64; BLOCK] = bits[(j ^ blocks) * BLOCK..][..BLOCK]
            .try_into()
            .expect("a block");
        for k in 0..3 {
            let step = 1 << k;
            if lanes & step != 0 {
                block = std::array::from_fn(|l| block[l ^ step]);
            }
        }
        swap_bits(&mut block, near);
        for (o, word) in out.iter_mut().zip(block) {
            *o &= !word;
        }
    }
}

/// Moves each bit `j` of every word of `block` to `j xor s` (`s < 64`).
#[inline(always)]
fn swap_bits(block: &mut [u64; BLOCK], s: u32) {
    const LOW: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff,
    ];
    for (k, low) in LOW.iter().enumerate() {
        if s >> k & 1 != 0 {
            let w = 1 << k;
            for word in block.iter_mut() {
                *word = (*word & low) << w | (*word >> w) & low;
            }
        }
    }
}

/// A batch's options from the splits with a rare part: a mark for each value of each of its
/// [`BATCH`] sizes, open until the value is offered. While a batch's marks fit in 32 KiB (a
/// core's L1 on Zen 3), an offer is a plain store, which waits on nothing: a bit's clear reads
/// its word first, and the clears of one word (most of them, where values are few) wait for
/// each other. The marks are packed into bitsets once the batch is done. A mark is a 32-bit
/// word up to [`Offers::WORD_SPAN`], a byte up to [`Offers::BYTE_SPAN`]; then, up to
/// [`Offers::LANE_SPAN`], one 16-bit word per value holds the 16 lanes' marks (an offer sets
/// its lane's bit), 8 KiB at a span of 4,096 where bytes took 64 KiB; past it (games whose
/// values grow) the lanes are bitsets from the start.
///
/// Why words first: on Zen 3 a random store of a byte costs more than one of a 32-bit word
/// (0.61 ns against 0.49 ns, 2026-12-07, a C model storing within 8 KiB and 32 KiB), and
/// with words Officers (span 512) ran about 9% faster, Grundy's game (256) 8%; at 0.007's span
/// of 2,048 they (128 KiB a set, past the core's L1) made it 5% slower than bytes. Why the
/// lanes' words past 2,048 (Zen 3, 2026-12-07): 0.1325 to 2^19 (span 4,096) took 10-25% less
/// CPU than with bytes (58.0 and 59.0 s against 76.8 and 66.7 s, alternating in one run; more
/// runs in BENCHMARKS.md); at 2,048, where bytes still fit in L1, they gained nothing clear
/// (0.007 to 2^20: 30.9 and 31.0 s against 29.4 and 35.6 s, 0.004 to 2^17 the same), and at
/// 512 (Officers) they lost 4 to 18%.
#[derive(Default)]
pub struct Offers {
    /// Lane `l`'s word of value `v` at `l * span + v`, within the word span.
    words: Vec<u32>,
    /// Lane `l`'s byte of value `v` at `l * span + v`, within the byte span.
    bytes: Vec<u8>,
    /// Lane `l`'s mark of value `v` at bit `l` of `lanes[v]`, set once offered, within the
    /// lane span.
    lanes: Vec<u16>,
    /// Lane `l`'s bit of value `v` at bit `l * span + v`, past it.
    bits: Vec<u64>,
    span: usize,
}

// A lane's mark is one bit of a value's 16-bit word.
const _: () = assert!(BATCH == u16::BITS as usize);

/// How [`Offers`] holds its marks, by the span.
#[derive(Clone, Copy)]
enum Tier {
    Words,
    Bytes,
    Lanes,
    Bits,
}

/// A value's mark in [`Offers`]: [`Mark::OPEN`] until offered. A byte or a word marks one
/// lane's value (each lane has its own span of marks); a 16-bit word marks one value in every
/// lane, a bit each.
trait Mark: Copy + PartialEq {
    /// Nothing offered.
    const OPEN: Self;
    /// Whether each lane has its own span of marks.
    const PER_LANE: bool;

    /// Records lane `lane`'s offer.
    fn offer(&mut self, lane: usize);

    /// Whether lane `lane`'s offer is recorded.
    fn offered(self, lane: usize) -> bool;

    /// [`Offers::clear_offered`] from these marks, a vector of them a step.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    unsafe fn clear_offered_avx2(marks: &[Self], open: &mut [u64]);
}

/// A mark of one lane's value: [`Mark::OPEN`] until offered, then zero; packed by `$avx2`.
macro_rules! lane_value_mark {
    ($t:ty, $avx2:ident) => {
        impl Mark for $t {
            const OPEN: Self = 1;
            const PER_LANE: bool = true;

            #[inline(always)]
            fn offer(&mut self, _lane: usize) {
                *self = 0;
            }

            fn offered(self, _lane: usize) -> bool {
                self != Self::OPEN
            }

            #[cfg(target_arch = "x86_64")]
            unsafe fn clear_offered_avx2(marks: &[Self], open: &mut [u64]) {
                // SAFETY: by the caller's guarantee.
                unsafe { $avx2(marks, open) }
            }
        }
    };
}

lane_value_mark!(u8, clear_offered_bytes_avx2);
lane_value_mark!(u32, clear_offered_words_avx2);

impl Mark for u16 {
    const OPEN: Self = 0;
    const PER_LANE: bool = false;

    #[inline(always)]
    fn offer(&mut self, lane: usize) {
        *self |= 1 << lane;
    }

    fn offered(self, lane: usize) -> bool {
        self >> lane & 1 != 0
    }

    #[cfg(target_arch = "x86_64")]
    unsafe fn clear_offered_avx2(marks: &[Self], open: &mut [u64]) {
        // SAFETY: by the caller's guarantee.
        unsafe { clear_offered_lanes_avx2(marks, open) }
    }
}

/// How many marks of type `T` a batch holds at `span`.
fn marks_len<T: Mark>(span: usize) -> usize {
    if T::PER_LANE { BATCH * span } else { span }
}

impl Offers {
    /// The widest span held in words: 32 KiB for the batch.
    pub const WORD_SPAN: usize = 1 << 9;
    /// The widest span held in bytes: 32 KiB for the batch.
    pub const BYTE_SPAN: usize = 1 << 11;
    /// The widest span held in the lanes' words: 128 KiB for the batch.
    pub const LANE_SPAN: usize = 1 << 16;

    /// How the marks are held at this span.
    fn tier(&self) -> Tier {
        match self.span {
            span if span <= Self::WORD_SPAN => Tier::Words,
            span if span <= Self::BYTE_SPAN => Tier::Bytes,
            span if span <= Self::LANE_SPAN => Tier::Lanes,
            _ => Tier::Bits,
        }
    }

    /// Every value below `span` (a power of two, at least 64) open in every lane.
    pub fn reset(&mut self, span: usize) {
        debug_assert!(span.is_power_of_two() && span >= 64);
        self.span = span;
        self.words.clear();
        self.bytes.clear();
        self.bits.clear();
        self.lanes.clear();
        match self.tier() {
            Tier::Words => self.words.resize(marks_len::<u32>(span), u32::OPEN),
            Tier::Bytes => self.bytes.resize(marks_len::<u8>(span), u8::OPEN),
            Tier::Lanes => self.lanes.resize(marks_len::<u16>(span), u16::OPEN),
            Tier::Bits => self.bits.resize(BATCH * span / 64, !0),
        }
    }

    /// The lanes' bitsets (`span / 64` words each) of the values not offered, into `open`.
    pub fn open_bitsets(&self, open: &mut Vec<u64>) {
        open.clear();
        open.resize(BATCH * self.span / 64, !0);
        self.clear_offered(open);
    }

    /// Clears in `open` (the lanes' bitsets, `span / 64` words each) every value offered.
    pub fn clear_offered(&self, open: &mut [u64]) {
        assert_eq!(open.len(), BATCH * self.span / 64);
        match self.tier() {
            Tier::Words => clear_offered_marks(&self.words, open),
            Tier::Bytes => clear_offered_marks(&self.bytes, open),
            Tier::Lanes => clear_offered_marks(&self.lanes, open),
            Tier::Bits => {
                for (word, bits) in open.iter_mut().zip(&self.bits) {
                    *word &= bits;
                }
            }
        }
    }

    /// [`Kernel::offer_rare`] into the marks or the bits, whichever the span holds.
    #[inline(always)]
    fn offer_rare_marks(&mut self, g: &[u32], pos: &[u32], val: &[u32], base: usize) {
        let span = self.span;
        match self.tier() {
            Tier::Words => offer_rare_into(&mut self.words, span, g, pos, val, base),
            Tier::Bytes => offer_rare_into(&mut self.bytes, span, g, pos, val, base),
            Tier::Lanes => offer_rare_into(&mut self.lanes, span, g, pos, val, base),
            Tier::Bits => {
                let words = span / 64;
                for (&s, &v) in pos.iter().zip(val) {
                    let s = s as usize;
                    for l in (s + 1).saturating_sub(base).min(BATCH)..BATCH {
                        clear(&mut self.bits[l * words..], v ^ g[base + l - s]);
                    }
                }
            }
        }
    }
}

/// [`Offers::clear_offered`] from marks: a vector of them a step where the CPU has AVX2.
fn clear_offered_marks<T: Mark>(marks: &[T], open: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2.
        return unsafe { T::clear_offered_avx2(marks, open) };
    }
    clear_offered_plain(marks, open);
}

/// [`Offers::clear_offered`] from marks, one at a time.
fn clear_offered_plain<T: Mark>(marks: &[T], open: &mut [u64]) {
    let words = open.len() / BATCH;
    for (i, word) in open.iter_mut().enumerate() {
        let lane = i / words;
        // Lane `lane`'s values `64 * (i % words)..` and on: word `i` of the lanes' marks laid
        // one after the other, or word `i % words` of the marks every lane shares.
        let at = if T::PER_LANE { i } else { i % words };
        let offered = marks[64 * at..][..64]
            .iter()
            .enumerate()
            .fold(0, |offered, (k, &m)| {
                offered | u64::from(m.offered(lane)) << k
            });
        *word &= !offered;
    }
}

/// [`Offers::clear_offered`] from bytes, 32 a step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clear_offered_bytes_avx2(bytes: &[u8], open: &mut [u64]) {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    for (word, bytes) in open.iter_mut().zip(bytes.chunks_exact(64)) {
        // SAFETY: `bytes` holds 64 bytes.
        let offered = unsafe {
            let low = _mm256_loadu_si256(bytes.as_ptr().cast());
            let high = _mm256_loadu_si256(bytes.as_ptr().add(32).cast());
            let low = _mm256_movemask_epi8(_mm256_cmpeq_epi8(low, zero)) as u32;
            let high = _mm256_movemask_epi8(_mm256_cmpeq_epi8(high, zero)) as u32;
            u64::from(high) << 32 | u64::from(low)
        };
        *word &= !offered;
    }
}

/// [`Offers::clear_offered`] from words, 8 a step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clear_offered_words_avx2(words: &[u32], open: &mut [u64]) {
    use std::arch::x86_64::*;
    let zero = _mm256_setzero_si256();
    for (word, words) in open.iter_mut().zip(words.chunks_exact(64)) {
        let offered = words
            .chunks_exact(8)
            .enumerate()
            .fold(0, |offered, (k, eight)| {
                // SAFETY: `eight` holds 8 words.
                let eight = unsafe { _mm256_loadu_si256(eight.as_ptr().cast()) };
                let zeros =
                    _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(eight, zero)));
                offered | u64::from(zeros as u8) << (8 * k)
            });
        *word &= !offered;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn offer_rare_avx512(offers: &mut Offers, g: &[u32], pos: &[u32], val: &[u32], base: usize) {
    offers.offer_rare_marks(g, pos, val, base);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn offer_rare_avx2(offers: &mut Offers, g: &[u32], pos: &[u32], val: &[u32], base: usize) {
    offers.offer_rare_marks(g, pos, val, base);
}

/// [`Kernel::offer_rare`] into `marks` (lane `l`'s value `v` at `l * span + v`, or at `v` where
/// a mark holds every lane's): for a rare part whose 16 partners all lie within `g`, the lanes'
/// indices in one vector operation each (the AVX2 and AVX-512 clones), then 16 stores.
#[inline(always)]
fn offer_rare_into<T: Mark>(
    marks: &mut [T],
    span: usize,
    g: &[u32],
    pos: &[u32],
    val: &[u32],
    base: usize,
) {
    // Indices fit 32 bits: a batch holds `BATCH * BYTE_SPAN` (or `LANE_SPAN`) marks at most.
    let low = span as u32 - 1;
    let marks = &mut marks[..marks_len::<T>(span)];
    let lane_at: [u32; BATCH] =
        std::array::from_fn(|l| if T::PER_LANE { l * span } else { 0 } as u32);
    for (&s, &v) in pos.iter().zip(val) {
        let s = s as usize;
        // Lanes whose partner `base + l - s` is at least 1.
        let from = (s + 1).saturating_sub(base);
        if from >= BATCH {
            // The rare parts ascend: no lane has a split with this one or any after it.
            break;
        }
        if from > 0 {
            for l in from..BATCH {
                marks[lane_at[l] as usize + ((v ^ g[base + l - s]) & low) as usize].offer(l);
            }
            continue;
        }
        let partners: &[u32; BATCH] = g[base - s..][..BATCH].try_into().expect("a batch");
        let at: [u32; BATCH] = std::array::from_fn(|l| lane_at[l] + ((v ^ partners[l]) & low));
        for (l, i) in at.into_iter().enumerate() {
            // SAFETY: `i < marks_len(span)`, within `marks`: the value is masked below `span`.
            unsafe { marks.get_unchecked_mut(i as usize).offer(l) };
        }
    }
}

/// [`Offers::clear_offered`] from the lanes' words: 32 of them split into their low bytes
/// (lanes 0 to 7) and high bytes, each lane's bit moved to the top of each byte and gathered
/// by a byte mask.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clear_offered_lanes_avx2(marks: &[u16], open: &mut [u64]) {
    use std::arch::x86_64::*;
    let words = marks.len() / 64;
    let low_bytes = _mm256_set1_epi16(0xff);
    for (w, chunk) in marks.chunks_exact(64).enumerate() {
        let mut offered = [0u64; BATCH];
        for half in 0..2 {
            // SAFETY: `chunk` holds 64 marks.
            let (a, b) = unsafe {
                (
                    _mm256_loadu_si256(chunk.as_ptr().add(32 * half).cast()),
                    _mm256_loadu_si256(chunk.as_ptr().add(32 * half + 16).cast()),
                )
            };
            // The packs interleave the two registers' halves; the permutes put them in order.
            let lo = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(
                _mm256_and_si256(a, low_bytes),
                _mm256_and_si256(b, low_bytes),
            ));
            let hi = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packus_epi16(
                _mm256_srli_epi16::<8>(a),
                _mm256_srli_epi16::<8>(b),
            ));
            for l in 0..8 {
                let shift = _mm_cvtsi32_si128(7 - l as i32);
                let low = _mm256_movemask_epi8(_mm256_sll_epi16(lo, shift)) as u32;
                let high = _mm256_movemask_epi8(_mm256_sll_epi16(hi, shift)) as u32;
                offered[l] |= u64::from(low) << (32 * half);
                offered[l + 8] |= u64::from(high) << (32 * half);
            }
        }
        for (l, offered) in offered.into_iter().enumerate() {
            open[l * words + w] &= !offered;
        }
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

/// Whether this CPU runs the AVX2 loops.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    {
        return true;
    }
    false
}

/// The gathers index with signed 32-bit offsets, and the lanes hold bit indices in 32 bits:
/// sizes must stay below 2^31 and bitsets below 2^32 bits.
fn fits_gather(bits: &[u64], g: &[u32]) -> bool {
    g.len() < 1 << 31 && bits.len() < 1 << 26
}

/// Clears in `want` the bits `xs[l]` of the lanes `l` set in `lanes`, lowest first, counting
/// down `wanted` for each bit that was set; says whether none is left wanted (it then stops).
#[cfg(target_arch = "x86_64")]
fn clear_hits(want: &mut [u64], xs: &[u32], mut lanes: u32, wanted: &mut u32) -> bool {
    while lanes != 0 {
        let l = lanes.trailing_zeros() as usize;
        lanes &= lanes - 1;
        if clear(want, xs[l]) {
            *wanted -= 1;
            if *wanted == 0 {
                return true;
            }
        }
    }
    false
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use super::clear_hits;

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

    /// `Kernel::offer_common` for whole steps of 16 from `a = first`; returns the wanted values left
    /// and the first `a` not done. A bitset of up to 4096 bits is held in registers, a larger
    /// one read by gathers.
    #[target_feature(enable = "avx512f,popcnt")]
    pub(super) unsafe fn offer_common(
        want: &mut [u64],
        g: &[u32],
        left: usize,
        first: usize,
        last: usize,
        wanted: u32,
    ) -> (u32, usize) {
        // SAFETY: as for the callee.
        unsafe {
            match want.len() {
                0..=16 => offer_common_with::<Held<1>>(want, g, left, first, last, wanted),
                17..=32 => offer_common_with::<Held<2>>(want, g, left, first, last, wanted),
                33..=64 => offer_common_with::<Held<4>>(want, g, left, first, last, wanted),
                _ => offer_common_with::<Gathered>(want, g, left, first, last, wanted),
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
        first: usize,
        last: usize,
        mut wanted: u32,
    ) -> (u32, usize) {
        let reverse = _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        // SAFETY: the table is loaded again after each change to `want`.
        let mut table = unsafe { L::load(want) };
        let mut a = first;
        while wanted != 0 && a + LANES - 1 <= last {
            // SAFETY: lanes `a..a + 16` and `left - a - 15..=left - a` are within `g`, as
            // `a + 15 <= last < left < g.len() + 1`; `table` holds `want`.
            let (x, lanes) = unsafe {
                let low = _mm512_loadu_si512(g.as_ptr().add(a).cast());
                let high = _mm512_loadu_si512(g.as_ptr().add(left - a - (LANES - 1)).cast());
                let x = _mm512_xor_si512(low, _mm512_permutexvar_epi32(reverse, high));
                (x, table.hits(x))
            };
            if lanes != 0 {
                if clear_hits(want, &spill(x), u32::from(lanes), &mut wanted) {
                    return (0, a + LANES);
                }
                table = unsafe { L::load(want) };
            }
            a += LANES;
        }
        (wanted, a)
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::clear_hits;

    /// 32-bit lanes a register holds.
    const LANES: usize = 8;

    /// The lanes of `x` whose bit is set in the bitset at `words` (32-bit words), as a mask of
    /// 8 bits.
    ///
    /// # Safety
    /// Every lane of `x` is below the bitset's length in bits.
    #[inline]
    #[target_feature(enable = "avx2,popcnt")]
    unsafe fn hits(words: *const i32, x: __m256i) -> u32 {
        // SAFETY: by the caller's bound, each lane's word is within the bitset.
        let word = unsafe { _mm256_i32gather_epi32::<4>(words, _mm256_srli_epi32::<5>(x)) };
        let one = _mm256_set1_epi32(1);
        let bit = _mm256_srlv_epi32(word, _mm256_and_si256(x, _mm256_set1_epi32(31)));
        let hit = _mm256_cmpeq_epi32(_mm256_and_si256(bit, one), one);
        _mm256_movemask_ps(_mm256_castsi256_ps(hit)) as u32
    }

    /// Wanted values few enough to compare each lane with, instead of reading the bitset.
    const LISTED: usize = 8;

    /// The wanted values when there are at most [`LISTED`] of them, each also in all 8 lanes of
    /// a register (for 32-bit lanes); unused entries repeat a wanted value (there is at least
    /// one), so they add no hit.
    #[derive(Clone, Copy)]
    struct Listed {
        values: [u32; LISTED],
        lanes: [__m256i; LISTED],
    }

    /// The wanted values as [`Listed`], if few enough.
    #[target_feature(enable = "avx2,popcnt")]
    fn listed(want: &[u64], wanted: u32) -> Option<Listed> {
        if wanted as usize > LISTED {
            return None;
        }
        let mut values = [u32::MAX; LISTED];
        let mut k = 0;
        for (w, &word) in want.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                values[k] = 64 * w as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                k += 1;
            }
        }
        for i in k..LISTED {
            values[i] = values[0];
        }
        Some(Listed {
            values,
            lanes: values.map(|v| _mm256_set1_epi32(v as i32)),
        })
    }

    /// For 16-bit lanes: the bytes of each 128-bit half in reverse order of their 16-bit
    /// words.
    const REVERSE_WORDS: [i8; 32] = [
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, //
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
    ];

    /// The scan on 16-bit values, 16 splits a step, from `a` while the step fits in
    /// `1..=last`, until a lane's xor equals one of `values` (each in all 16 lanes):
    /// returns the next `a`, and the hit lanes (a mask of 16 bits) with their xors, if any.
    /// The first `K` values are compared (the others repeat the first): most of a scan's
    /// steps look for one or two values, and a compare is a third of a step's work.
    #[target_feature(enable = "avx2,popcnt")]
    fn listed_narrow<const K: usize>(
        g16: &[u16],
        mut a: usize,
        left: usize,
        last: usize,
        values: [u32; LISTED],
    ) -> (usize, Option<(u32, [u32; 2 * LANES])>) {
        let values: [__m256i; K] =
            std::array::from_fn(|k| _mm256_set1_epi16(values[k] as u16 as i16));
        // SAFETY: the table holds 32 bytes.
        let reverse = unsafe { _mm256_loadu_si256(REVERSE_WORDS.as_ptr().cast()) };
        while a + 2 * LANES - 1 <= last {
            // SAFETY: lanes `a..a + 16` and `left - a - 15..=left - a` are within `g16`, as
            // `a + 15 <= last < left < g16.len() + 1`.
            let (low, high) = unsafe {
                (
                    _mm256_loadu_si256(g16.as_ptr().add(a).cast()),
                    _mm256_loadu_si256(g16.as_ptr().add(left - a - (2 * LANES - 1)).cast()),
                )
            };
            let high = _mm256_permute4x64_epi64::<0x4e>(_mm256_shuffle_epi8(high, reverse));
            let x = _mm256_xor_si256(low, high);
            let hit = values.iter().fold(_mm256_setzero_si256(), |hit, &v| {
                _mm256_or_si256(hit, _mm256_cmpeq_epi16(x, v))
            });
            // Two bits a lane.
            let bytes = _mm256_movemask_epi8(hit) as u32;
            if bytes != 0 {
                let mut words = [0u16; 2 * LANES];
                // SAFETY: `words` holds 16 lanes.
                unsafe { _mm256_storeu_si256(words.as_mut_ptr().cast(), x) };
                let lanes = (0..2 * LANES)
                    .filter(|l| bytes >> (2 * l) & 1 != 0)
                    .fold(0, |m, l| m | 1 << l);
                return (a + 2 * LANES, Some((lanes, words.map(u32::from))));
            }
            a += 2 * LANES;
        }
        (a, None)
    }

    /// `Kernel::offer_common` for whole steps of 8 (or 16) from `a = first`; returns the wanted
    /// values left and the first `a` not done. While at most [`LISTED`] values are wanted
    /// (the usual case), each lane is compared with them, 16 lanes of 16 bits a step where
    /// `narrow` is given; otherwise the bitset is read by gathers.
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn offer_common(
        want: &mut [u64],
        g: &[u32],
        narrow: Option<&[u16]>,
        left: usize,
        first: usize,
        last: usize,
        mut wanted: u32,
    ) -> (u32, usize) {
        let reverse = _mm256_set_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        let mut list = listed(want, wanted);
        let mut a = first;
        while wanted != 0 {
            if let (Some(Listed { values, .. }), Some(g16)) = (list, narrow) {
                let (next, hit) = match wanted {
                    1 => listed_narrow::<1>(g16, a, left, last, values),
                    2 => listed_narrow::<2>(g16, a, left, last, values),
                    3 | 4 => listed_narrow::<4>(g16, a, left, last, values),
                    _ => listed_narrow::<LISTED>(g16, a, left, last, values),
                };
                a = next;
                if let Some((lanes, xs)) = hit {
                    if clear_hits(want, &xs, lanes, &mut wanted) {
                        return (0, a);
                    }
                    list = listed(want, wanted);
                    continue;
                }
            }
            if a + LANES - 1 > last {
                break;
            }
            // SAFETY: lanes `a..a + 8` and `left - a - 7..=left - a` are within `g`, as
            // `a + 7 <= last < left < g.len() + 1`; every xor of two values is below the
            // bitset's length in bits.
            let (x, lanes) = unsafe {
                let low = _mm256_loadu_si256(g.as_ptr().add(a).cast());
                let high = _mm256_loadu_si256(g.as_ptr().add(left - a - (LANES - 1)).cast());
                let x = _mm256_xor_si256(low, _mm256_permutevar8x32_epi32(high, reverse));
                let lanes = match list {
                    Some(Listed { lanes: values, .. }) => {
                        let hit = values.iter().fold(_mm256_setzero_si256(), |hit, &v| {
                            _mm256_or_si256(hit, _mm256_cmpeq_epi32(x, v))
                        });
                        _mm256_movemask_ps(_mm256_castsi256_ps(hit)) as u32
                    }
                    None => hits(want.as_ptr().cast(), x),
                };
                (x, lanes)
            };
            if lanes != 0 {
                let mut xs = [0u32; LANES];
                // SAFETY: `xs` holds 8 lanes.
                unsafe { _mm256_storeu_si256(xs.as_mut_ptr().cast(), x) };
                if clear_hits(want, &xs, lanes, &mut wanted) {
                    return (0, a + LANES);
                }
                list = listed(want, wanted);
            }
            a += LANES;
        }
        (wanted, a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    /// The packers of the marks into bitsets, the AVX2 ones (where the CPU has it) and the
    /// plain one, against the marks' definition, on random marks of each kind: the kernels'
    /// tests reach the plain one only on CPUs without AVX2.
    #[test]
    fn marks_pack_alike() {
        fn check<T: Mark>(marks: &[T], open: &[u64]) {
            // Each mark by its definition: lane `l`'s offer of value `v` clears its bit.
            let words = open.len() / BATCH;
            let mut defined = open.to_vec();
            for (i, &m) in marks.iter().enumerate() {
                if T::PER_LANE {
                    // The lanes' marks one after the other, as their bitsets.
                    if m.offered(0) {
                        defined[i / 64] &= !(1 << (i % 64));
                    }
                    continue;
                }
                for l in (0..BATCH).filter(|&l| m.offered(l)) {
                    defined[l * words + i / 64] &= !(1 << (i % 64));
                }
            }
            let mut plain = open.to_vec();
            clear_offered_plain(marks, &mut plain);
            assert_eq!(plain, defined);
            let mut fast = open.to_vec();
            clear_offered_marks(marks, &mut fast);
            assert_eq!(fast, defined);
        }
        let mut rng = rand::rng();
        for _ in 0..100 {
            let words = rng.random_range(1..20);
            let open: Vec<u64> = (0..BATCH * words).map(|_| rng.random()).collect();
            let offered = rng.random_range(0.0..1.0);
            let marks: Vec<u32> = (0..BATCH * 64 * words)
                .map(|_| {
                    if rng.random_bool(offered) {
                        0
                    } else {
                        u32::OPEN
                    }
                })
                .collect();
            let bytes: Vec<u8> = marks.iter().map(|&m| m as u8).collect();
            let lanes: Vec<u16> = (0..64 * words)
                .map(|_| (0..BATCH).fold(0, |m, l| m | u16::from(rng.random_bool(offered)) << l))
                .collect();
            check(&marks, &open);
            check(&bytes, &open);
            check(&lanes, &open);
        }
    }
}
