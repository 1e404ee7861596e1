//! The fast CPU path for three-move sets, the work of a scan: values in two binary planes, every
//! candidate period compared with every new word, no branch that depends on the values.
//!
//! # Values
//! A triple's values are at most 3, so two planes hold them in binary (bit `x` of plane `j` is bit
//! `j` of `G(x)`): a window of 64 values is two words, against three in the one-hot planes of
//! [`super::planes`], and equal values are equal bits. Positions below 0 hold 3: a move there
//! offers 3, which never changes the mex of three options, just as an illegal move offers
//! nothing. The mex of 64 positions at once follows from what the options offer
//! ([`RowMath::add`], [`RowMath::mex`], portable or AVX-512); positions `[x, x + a)` depend only
//! on positions below `x`, so a word with moves below 64 is computed in passes, as in
//! [`super::planes`].
//!
//! # Periods
//! For each candidate `P` (the pair sums, where Ward's conjecture puts the nim period for every
//! `c <= 250`, and the period of Theorem 34 when `c = a + b`), each new word is compared with the
//! values `P` earlier, and `clean_from` stays one past the last position that differs. Once the
//! `c` values from there are computed, `P` is a proved eventual period ([`crate::period`]) and the
//! pre-period is `clean_from - P`. That costs one window (two words) a candidate a word, and no
//! branch a mismatch decides: in a pre-period the mismatches come at random, and the earlier
//! watch of one candidate at a time mispredicted 22.7 M branches in a `c <= 200` scan (8.2 M
//! here), about a sixth of its time. Candidates are hints only: the least period is
//! then the least matching divisor, and a full search runs from the envelope `c^2/2 + c + 64` on
//! (spec section 3.2), so a triple that breaks every hint is still solved exactly.
//!
//! Below `c` a triple's values are those of the game `{a, b}`: [`solve_triples`] computes those
//! words once for all the triples of a pair.

use rayon::prelude::*;

use super::planes::last_difference;
#[cfg(target_arch = "x86_64")]
use super::row_math::Avx512;
use super::row_math::{NONE, Portable, Row, RowMath};
use super::solution::{FullSearch, NotCertified, Settled, Solution};
use super::theory;
use super::triple::Triple;
use crate::memory::Budget;
use crate::period::{Period, ShiftCompare, least_period};

/// Where the window `shift` back from a word starts: `rows` rows back, at bit `bit`.
#[derive(Clone, Copy)]
struct Back<M: RowMath> {
    rows: usize,
    bit: M::Count,
}

impl<M: RowMath> Back<M> {
    fn new(m: M, shift: usize) -> Self {
        let rows = shift.div_ceil(64);
        Back {
            rows,
            bit: m.count((rows * 64 - shift) as u32),
        }
    }
}

/// The values of `row` shifted `at` back: bits `[x - shift, x - shift + 64)` for the word at `x`.
///
/// # Safety
/// `at.rows <= row < rows.len()`.
#[inline(always)]
unsafe fn window<M: RowMath>(m: M, rows: &[Row], row: usize, at: Back<M>) -> M::Reg {
    debug_assert!(at.rows <= row && row < rows.len());
    // SAFETY: row - at.rows and the row after it, at most `row`, exist (contract above).
    let (lo, hi) = unsafe {
        (
            *rows.get_unchecked(row - at.rows),
            *rows.get_unchecked(row - at.rows + 1),
        )
    };
    m.funnel(m.load(lo), m.load(hi), at.bit)
}

/// Passes a word takes without testing whether it is done (up to `a >= 8`): measured best.
const UNTESTED_PASSES: usize = 8;

/// A sorted set of `K` moves, `NEAR` of them below 64, as a word computation needs it.
struct Moves<M: RowMath, const K: usize> {
    /// Each move as a shift within a word (the near ones) and as a window (the others).
    near: [M::Count; K],
    backs: [Back<M>; K],
    /// Passes a word needs from an arbitrary start: each makes `min S` more positions final.
    passes: usize,
}

impl<M: RowMath, const K: usize> Moves<M, K> {
    fn new(m: M, moves: [u32; K]) -> Self {
        Moves {
            near: moves.map(|s| m.count(s % 64)),
            backs: moves.map(|s| Back::new(m, s as usize)),
            passes: 64usize.div_ceil(moves[0] as usize),
        }
    }

    /// Computes the word in row `row` from `start` and stores it.
    ///
    /// # Safety
    /// Rows from `row - backs[K - 1].rows` to `row` exist, the rows below `row` hold the
    /// values (or `NONE` below position 0), and `prev` is the one before it.
    #[inline(always)]
    unsafe fn push_word<const NEAR: usize>(
        &self,
        m: M,
        rows: &mut [Row],
        row: usize,
        prev: M::Reg,
        start: M::Reg,
    ) -> M::Reg {
        let mut fixed = m.nothing();
        for &back in &self.backs[NEAR..] {
            // The word before comes from a register: read back from memory, it would make
            // this word wait for its store.
            let option = match back.rows {
                1 => prev,
                // SAFETY: 2 <= row (contract).
                2 => m.funnel(
                    m.load(unsafe { *rows.get_unchecked(row - 2) }),
                    prev,
                    back.bit,
                ),
                // SAFETY: back.rows <= backs[K - 1].rows <= row (contract).
                _ => unsafe { window(m, rows, row, back) },
            };
            m.add(&mut fixed, option);
        }
        // What a near move reads from the previous word does not change while this one fills.
        let cur = if NEAR == 0 {
            // Every move reads finished words: one pass is exact.
            self.pass::<NEAR>(m, fixed, prev, start)
        } else {
            // Two passes without a test (whether the start was right is about as often yes as
            // no in a pre-period), then the rest: all of them if few (a test that ends the
            // passes early mispredicts its exit, which costs more than the passes it saves),
            // else until the word stops changing: the true word is the only one a pass leaves
            // unchanged.
            let once = self.pass::<NEAR>(m, fixed, prev, start);
            let mut cur = self.pass::<NEAR>(m, fixed, prev, once);
            if self.passes <= UNTESTED_PASSES {
                for _ in 2..self.passes {
                    cur = self.pass::<NEAR>(m, fixed, prev, cur);
                }
            } else {
                for _ in 2..self.passes {
                    let next = self.pass::<NEAR>(m, fixed, prev, cur);
                    if m.same(next, cur) {
                        break;
                    }
                    cur = next;
                }
            }
            cur
        };
        // SAFETY: row < rows.len() (contract).
        unsafe { *rows.get_unchecked_mut(row) = m.store(cur) };
        cur
    }

    /// The word `cur` after one pass of the mex, given what the far moves offer and the word
    /// before. (A method, not a closure: a closure would not inherit the target features of
    /// the function it is inlined into, and the math's instructions would become calls.)
    #[inline(always)]
    fn pass<const NEAR: usize>(&self, m: M, fixed: M::Offers, prev: M::Reg, cur: M::Reg) -> M::Reg {
        let mut offers = fixed;
        for &s in &self.near[..NEAR] {
            m.add(&mut offers, m.near(cur, prev, s));
        }
        m.mex(offers)
    }
}

/// A candidate period `p` under watch.
#[derive(Clone, Copy)]
struct Watch<M: RowMath> {
    p: usize,
    back: Back<M>,
    /// One past the last `y >= p` with `G(y) != G(y - p)` so far, `p` if none: the
    /// pre-period once `p` is proved.
    clean_from: usize,
}

impl<M: RowMath> Watch<M> {
    fn new(m: M, p: usize) -> Self {
        Watch {
            p,
            back: Back::new(m, p),
            clean_from: p,
        }
    }

    /// Takes in the word `cur` at position `x`, stored in row `row`.
    ///
    /// # Safety
    /// As [`window`] with `self.back`.
    #[inline(always)]
    unsafe fn compare(&mut self, m: M, rows: &[Row], row: usize, x: usize, cur: M::Reg) {
        // SAFETY: the caller's.
        let was = unsafe { window(m, rows, row, self.back) };
        let differ = m.differ(cur, was);
        // One past the last difference, 0 if none, without a branch: where the values differ
        // is random in a pre-period. Differences below `p` compare with positions below 0:
        // `clean_from` starts above them.
        let end =
            (x + 64 - differ.leading_zeros() as usize) & usize::from(differ != 0).wrapping_neg();
        self.clean_from = self.clean_from.max(end);
    }
}

/// A reusable workspace: one per thread.
pub struct TripleSolver {
    /// Pad rows, then the values of the last triple solved, then rows of no meaning.
    rows: Vec<Row>,
    /// Its number of pad rows and of values computed.
    pad: usize,
    len: usize,
    /// Most rows the buffer may hold (a share of the memory budget), and whether that, rather
    /// than the length limit, bounded the last solve.
    max_rows: usize,
    by_memory: bool,
    /// Values the rows past the pad hold room for (with the row after them).
    room: usize,
    /// The faster math, where the CPU has it.
    #[cfg(target_arch = "x86_64")]
    avx512: Option<Avx512>,
}

impl Default for TripleSolver {
    fn default() -> Self {
        TripleSolver {
            rows: Vec::new(),
            pad: 0,
            len: 0,
            max_rows: usize::MAX,
            by_memory: false,
            room: 0,
            #[cfg(target_arch = "x86_64")]
            avx512: Avx512::detect(),
        }
    }
}

impl TripleSolver {
    /// A solver whose values stay within `budget`: a triple that would need more is not
    /// certified, with the budget named.
    pub fn within(budget: Budget) -> Self {
        TripleSolver {
            max_rows: usize::try_from(budget.bytes() / size_of::<Row>() as u64)
                .unwrap_or(usize::MAX),
            ..TripleSolver::default()
        }
    }

    /// What a solver holds for a triple of largest move `c` at `len` values: its pad (at most
    /// `b + c < 2c`), the words and the row after them.
    pub fn bytes(c: usize, len: usize) -> u64 {
        let rows = (2 * c).div_ceil(64) + 1 + len.div_ceil(64) + 1;
        rows as u64 * size_of::<Row>() as u64
    }

    /// A solver that uses the portable math on any CPU, to test it where a faster one exists.
    #[cfg(test)]
    fn portable() -> Self {
        TripleSolver {
            #[cfg(target_arch = "x86_64")]
            avx512: None,
            ..TripleSolver::default()
        }
    }

    /// Solves `{a, b, c}`, looking at no more than about `max_len` values.
    pub fn solve(&mut self, t: Triple, max_len: usize) -> Result<Solution, NotCertified> {
        self.solve_after(t, &[], max_len)
    }

    /// [`Self::solve`] starting from `below`, the first words of the game `{a, b}` (at most
    /// `c / 64`: the move `c` is not legal there), which the caller vouches for.
    fn solve_after(
        &mut self,
        t: Triple,
        below: &[Row],
        max_len: usize,
    ) -> Result<Solution, NotCertified> {
        debug_assert!(below.len() <= t.c as usize / 64);
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(m) = self.avx512 {
                // SAFETY: an `Avx512` exists only where the CPU has AVX-512 F, VL and VBMI2,
                // BMI1, BMI2 and LZCNT (`Avx512::detect`).
                return unsafe { self.solve_avx512(m, t, below, max_len) };
            }
            if std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
            {
                // SAFETY: the CPU has BMI1, BMI2 and LZCNT, all the clone is compiled for,
                // checked just above.
                return unsafe { self.solve_bmi2(t, below, max_len) };
            }
        }
        self.solve_with(Portable, t, below, max_len)
    }

    /// [`Self::solve`] compiled for AVX-512: a row in one register ([`Avx512`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512vbmi2,bmi1,bmi2,lzcnt")]
    fn solve_avx512(
        &mut self,
        m: Avx512,
        t: Triple,
        below: &[Row],
        max_len: usize,
    ) -> Result<Solution, NotCertified> {
        self.solve_with(m, t, below, max_len)
    }

    /// [`Self::solve`] compiled for BMI2: the loops shift by variable amounts, one instruction
    /// with BMI2 and three without.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,lzcnt")]
    fn solve_bmi2(
        &mut self,
        t: Triple,
        below: &[Row],
        max_len: usize,
    ) -> Result<Solution, NotCertified> {
        self.solve_with(Portable, t, below, max_len)
    }

    #[inline(always)]
    fn solve_with<M: RowMath>(
        &mut self,
        m: M,
        t: Triple,
        below: &[Row],
        max_len: usize,
    ) -> Result<Solution, NotCertified> {
        // The count of moves below 64 fixed once per set, so that the word loops unroll.
        let solved = match [t.a, t.b, t.c].iter().filter(|&&s| s < 64).count() {
            0 => self.solve_near::<M, 0>(m, t, below, max_len),
            1 => self.solve_near::<M, 1>(m, t, below, max_len),
            2 => self.solve_near::<M, 2>(m, t, below, max_len),
            _ => self.solve_near::<M, 3>(m, t, below, max_len),
        };
        solved.ok_or_else(|| NotCertified {
            set: t.ruleset(),
            len: self.len,
            memory: self
                .by_memory
                .then_some(self.max_rows as u64 * size_of::<Row>() as u64),
        })
    }

    #[inline(always)]
    fn solve_near<M: RowMath, const NEAR: usize>(
        &mut self,
        m: M,
        t: Triple,
        below: &[Row],
        max_len: usize,
    ) -> Option<Solution> {
        let (a, b, c) = (t.a as usize, t.b as usize, t.c as usize);
        let set = Moves::new(m, [t.a, t.b, t.c]);
        let mut watches = [a + b, a + c, b + c].map(|p| Watch::new(m, p));
        // Pad rows: every move and pair sum reads existing rows from the first word on.
        self.pad = (b + c).div_ceil(64) + 1;
        // What the memory allowed holds, less the pad and the row after the last word.
        let room = self
            .max_rows
            .saturating_sub(self.pad + 2)
            .saturating_mul(64);
        self.by_memory = room < max_len;
        let max_len = max_len.min(room);
        // Rows past the given words keep what the last triple left there: each is written
        // before it is read as a value.
        let mut search = FullSearch::new(c * c / 2 + c + 64, max_len);
        self.make_room(64 * (below.len() + 1));
        let known = self.pad + below.len();
        self.rows[..self.pad].fill(NONE);
        self.rows[self.pad..known].copy_from_slice(below);
        self.len = 64 * below.len();
        // The additive period, watched from the first word whose window reaches position -64
        // (it may exceed the pad).
        let mut additive = (c == a + b).then(|| Watch::new(m, theory::additive_period(a, b)));
        let mut prev = m.load(self.rows[self.pad + self.len / 64 - 1]);
        loop {
            let row = self.pad + self.len / 64;
            // The start of the passes (the third pass and on are needed only for a < 32; a
            // wrong start costs passes only): the values b + c earlier. Choosing the pair sum
            // that has held longest instead put the last word's comparisons, and for a + b
            // the last word itself, before the passes could start: 14% slower in all.
            let start = if NEAR > 0 && set.passes > 2 {
                // SAFETY: the pad covers every pair sum.
                unsafe { window(m, &self.rows, row, watches[2].back) }
            } else {
                m.load([0, 0])
            };
            // SAFETY: the pad covers the largest move; rows up to `row + 1` exist.
            let cur = unsafe { set.push_word::<NEAR>(m, &mut self.rows, row, prev, start) };
            prev = cur;
            let x = self.len;
            for watch in &mut watches {
                // SAFETY: the pad covers every pair sum.
                unsafe { watch.compare(m, &self.rows, row, x, cur) };
            }
            if let Some(watch) = additive.as_mut().filter(|w| x + 64 >= w.p) {
                // SAFETY: the window starts at x - P >= -64, within the pad.
                unsafe { watch.compare(m, &self.rows, row, x, cur) };
            }
            self.len += 64;
            let clean_from = watches
                .iter()
                .chain(&additive)
                .fold(usize::MAX, |m, w| m.min(w.clean_from));
            let mut proved = None;
            if clean_from + c <= self.len {
                // The top c values repeat p earlier: p is proved, and every mismatch was seen.
                let w = watches
                    .iter()
                    .chain(&additive)
                    .find(|w| w.clean_from == clean_from)
                    .expect("the least is some watch's");
                proved = Some(Period {
                    period: least_period(&self.values(), c, w.p),
                    preperiod: clean_from - w.p,
                });
            }
            if proved.is_some() || search.due(self.len) {
                let values = self.values();
                match search.settle(proved, &values, &Outcomes(values), c) {
                    Settled::Solved(solution) => return Some(solution),
                    Settled::GaveUp => return None,
                    Settled::Going => {}
                }
            }
            if self.len + 64 > self.room {
                self.make_room(self.len + 64);
            }
        }
    }

    /// Makes rows exist for the words of the first `len` values and the row after them (a
    /// high neighbour for windows and proofs), before each word: the buffer only grows, by
    /// doubling (up to the solver's share of memory), and its rows past the pad are written
    /// before they are read as values.
    fn make_room(&mut self, len: usize) {
        let rows = self.pad + len.div_ceil(64).max(1) + 1;
        if self.rows.len() < rows {
            let doubled = (2 * self.rows.len()).min(self.max_rows);
            self.rows.resize(rows.max(doubled), NONE);
        }
        self.room = 64 * (self.rows.len() - self.pad - 1);
    }

    /// `G(x)` of the last triple solved, `x` below the length it computed.
    #[cfg(test)]
    fn value(&self, x: usize) -> u32 {
        let row = self.values().rows[x / 64];
        (row[0] >> (x % 64) & 1 | (row[1] >> (x % 64) & 1) << 1) as u32
    }

    /// The values computed so far, as a sequence for period proofs.
    fn values(&self) -> Values<'_> {
        Values::new(&self.rows[self.pad..], self.len)
    }
}

/// A prefix of a triple's values, for [`crate::period`]: `rows` from position 0, `len` values,
/// and the row after the last one readable.
#[derive(Clone, Copy)]
struct Values<'a> {
    rows: &'a [Row],
    len: usize,
}

impl<'a> Values<'a> {
    fn new(rows: &'a [Row], len: usize) -> Self {
        assert!(len.is_multiple_of(64) && rows.len() > len / 64);
        Values { rows, len }
    }

    /// Both planes at positions `[x, x + 64)`, `x < len`.
    #[inline(always)]
    fn bits(&self, x: usize) -> Row {
        debug_assert!(x < self.len);
        let bit = (x % 64) as u32;
        // SAFETY: x / 64 + 1 <= len / 64 < rows.len(), checked in `new`.
        let (lo, hi) = unsafe {
            (
                *self.rows.get_unchecked(x / 64),
                *self.rows.get_unchecked(x / 64 + 1),
            )
        };
        Portable.funnel(lo, hi, Portable.count(bit))
    }

    /// [`ShiftCompare::newest_differ`] with `differ`: the top word against the one `shift`
    /// before it, in a few instructions (most wrong periods fail here).
    #[inline(always)]
    fn newest_differ_by(&self, n: usize, shift: usize, differ: impl Fn(Row, Row) -> u64) -> bool {
        if self.len < 64 + shift {
            return false;
        }
        let top = self.bits(self.len - 64);
        let keep = !0u64 << (64 - n.min(64));
        differ(self.bits(self.len - 64 - shift), top) & keep != 0
    }

    /// The largest `x` in `[lo, hi)` where `differ` finds the bits at `x` and `x + shift`
    /// different.
    #[inline(always)]
    fn last_mismatch_by(
        &self,
        lo: usize,
        hi: usize,
        shift: usize,
        differ: impl Fn(Row, Row) -> u64,
    ) -> Option<usize> {
        if lo >= hi {
            return None;
        }
        assert!(hi + shift <= self.len, "comparison outside the prefix");
        // 64 w < hi: row w exists, and 64 w + shift < len.
        last_difference(lo, hi, |w| differ(self.rows[w], self.bits(64 * w + shift)))
    }
}

/// Where two rows of values differ.
#[inline(always)]
fn values_differ(u: Row, v: Row) -> u64 {
    Portable.differ(u, v)
}

/// Where two rows of values differ in being 0 or not (the outcomes).
#[inline(always)]
fn outcomes_differ(u: Row, v: Row) -> u64 {
    (u[0] | u[1]) ^ (v[0] | v[1])
}

impl ShiftCompare for Values<'_> {
    fn known_len(&self) -> usize {
        self.len
    }

    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        self.last_mismatch_by(lo, hi, shift, values_differ)
    }

    #[inline(always)]
    fn newest_differ(&self, n: usize, shift: usize) -> bool {
        self.newest_differ_by(n, shift, values_differ)
    }
}

/// The indicator of `G(x) = 0` (both bits clear) of a prefix: the outcome sequence.
struct Outcomes<'a>(Values<'a>);

impl ShiftCompare for Outcomes<'_> {
    fn known_len(&self) -> usize {
        self.0.len
    }

    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        self.0.last_mismatch_by(lo, hi, shift, outcomes_differ)
    }

    #[inline(always)]
    fn newest_differ(&self, n: usize, shift: usize) -> bool {
        self.0.newest_differ_by(n, shift, outcomes_differ)
    }
}

/// Solves many triples on all cores, in input order, each thread's values within its share of
/// `budget`; any failure stops it.
pub fn solve_triples(
    triples: &[Triple],
    max_len: impl Fn(Triple) -> usize + Sync,
    budget: Budget,
) -> Result<Vec<Solution>, NotCertified> {
    let threads = rayon::current_num_threads() as u64;
    // The pairs' shared words take at most a quarter of the budget (they only save time).
    let shared = PairWords::new(triples, budget.share(4));
    let share = budget
        .less(shared.as_ref().map_or(0, PairWords::bytes))
        .share(threads);
    // The first failure in input order; its triple's slot gets a placeholder, never returned.
    let failed = std::sync::Mutex::new(None::<(usize, NotCertified)>);
    let solved = triples
        .par_iter()
        .enumerate()
        .with_min_len(64)
        .map_init(
            || TripleSolver::within(share),
            |solver, (i, &t)| {
                let below = shared.as_ref().map_or(&[][..], |s| s.below(t));
                solver
                    .solve_after(t, below, max_len(t))
                    .unwrap_or_else(|e| {
                        let mut failed = failed.lock().unwrap_or_else(|p| p.into_inner());
                        if failed.as_ref().is_none_or(|(j, _)| i < *j) {
                            *failed = Some((i, e));
                        }
                        Solution {
                            period: 0,
                            preperiod: 0,
                            outcome_period: 0,
                            outcome_preperiod: 0,
                            checked_len: 0,
                        }
                    })
            },
        )
        .collect();
    match failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some((_, e)) => Err(e),
        None => Ok(solved),
    }
}

/// The words of each game `{a, b}` below `c` for a batch of triples, computed once for all the
/// triples of a pair (more than a tenth of all words when `c <= 200`). Triples look their pair
/// up in input order; for a scan, neighbouring triples have neighbouring pairs, so the table is
/// read in a few streams.
struct PairWords {
    /// Slot of each pair by its dense index (see [`Self::index`]) less `first`; `u32::MAX`:
    /// no triple has that pair.
    slot: Vec<u32>,
    first: usize,
    b_max: usize,
    /// `width` rows a slot: the words below the largest `c`.
    rows: Vec<Row>,
    width: usize,
}

impl PairWords {
    /// `None` where sharing would not pay (no words below `c`, pairs too spread out for a
    /// dense index, or fewer than two triples a pair on average) or would not fit `budget`.
    fn new(triples: &[Triple], budget: Budget) -> Option<Self> {
        let width = triples.iter().map(|t| t.c as usize / 64).max()?;
        let b_max = triples.iter().map(|t| t.b as usize).max()?;
        let index = |t: &Triple| Self::index(t, b_max);
        let first = triples.iter().map(index).min()?;
        let span = triples.iter().map(index).max()? + 1 - first;
        if width == 0 || span > 4 * triples.len() {
            return None;
        }
        let mut slot = vec![u32::MAX; span];
        let mut pairs = Vec::new();
        for t in triples {
            let s = &mut slot[index(t) - first];
            if *s == u32::MAX {
                *s = pairs.len() as u32;
                pairs.push([t.a, t.b]);
            }
        }
        if 2 * pairs.len() > triples.len() {
            return None;
        }
        let bytes = (pairs.len() * width * size_of::<Row>()) as u64;
        budget.check(bytes, String::new).ok()?;
        let mut rows = vec![NONE; pairs.len() * width];
        rows.par_chunks_mut(width)
            .zip(&pairs)
            .for_each_init(Vec::new, |scratch, (out, &moves)| {
                pair_words(moves, out, scratch)
            });
        Some(PairWords {
            slot,
            first,
            b_max,
            rows,
            width,
        })
    }

    /// The bytes its words take.
    fn bytes(&self) -> u64 {
        (self.rows.len() * size_of::<Row>()) as u64
    }

    /// Pairs `1 <= a < b <= b_max` numbered `(a - 1) b_max + b`, in the order a scan lists them
    /// for one `c`: dense enough (at most twice the pairs) and one multiplication.
    fn index(t: &Triple, b_max: usize) -> usize {
        (t.a as usize - 1) * b_max + t.b as usize
    }

    /// The words below `c` of the pair of `t`, one of the batch's triples.
    fn below(&self, t: Triple) -> &[Row] {
        let slot = self.slot[Self::index(&t, self.b_max) - self.first] as usize;
        &self.rows[slot * self.width..][..t.c as usize / 64]
    }
}

/// Fills `out` with the first words of the game `{a, b}`; `scratch` holds the pad in front.
fn pair_words(moves: [u32; 2], out: &mut [Row], scratch: &mut Vec<Row>) {
    let set = Moves::new(Portable, moves);
    let pad = set.backs[1].rows + 1;
    scratch.clear();
    scratch.resize(pad + out.len(), NONE);
    let near = moves.iter().filter(|&&s| s < 64).count();
    let mut prev = NONE;
    for row in pad..scratch.len() {
        // SAFETY: the pad covers b, and the row exists.
        prev = unsafe {
            match near {
                0 => set.push_word::<0>(Portable, scratch, row, prev, [0, 0]),
                1 => set.push_word::<1>(Portable, scratch, row, prev, [0, 0]),
                _ => set.push_word::<2>(Portable, scratch, row, prev, [0, 0]),
            }
        };
    }
    out.copy_from_slice(&scratch[pad..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subtraction::reference;
    use crate::subtraction::triple::TripleFilter;

    /// Every triple with `c <= 40`, and ones whose moves cross 64 in every way, against the
    /// reference: values and periods, with the fastest math this CPU has and with the portable
    /// one.
    #[test]
    fn matches_the_reference() {
        for solver in [TripleSolver::default(), TripleSolver::portable()] {
            matches_the_reference_with(solver);
        }
    }

    fn matches_the_reference_with(mut solver: TripleSolver) {
        let mut triples: Vec<Triple> = TripleFilter::up_to(40).triples().collect();
        for (a, b, c) in [
            (1, 63, 64),
            (5, 64, 129),
            (63, 64, 65),
            (64, 65, 200),
            (31, 70, 101),
            (57, 142, 198),
            (20, 40, 60),
            (13, 34, 47),
        ] {
            triples.push(Triple { a, b, c });
        }
        for t in triples {
            let fast = solver.solve(t, 1 << 22).unwrap();
            let slow = reference::solve(&t.ruleset(), 1 << 22).unwrap();
            assert_eq!(fast.key(), slow.key(), "{t:?}");
            let want = reference::nim_values(&t.ruleset(), solver.len);
            let got: Vec<u32> = (0..want.len()).map(|x| solver.value(x)).collect();
            assert_eq!(got, want, "{t:?}");
        }
    }

    /// The fastest math this CPU has and the portable one on random triples with `c <= 400`
    /// (fresh seed each run, printed on failure; `NIMSEQ_SEED` repeats one): the same solutions.
    #[test]
    fn both_maths_agree_on_random_triples() {
        use rand::{Rng, SeedableRng};
        let seed = std::env::var("NIMSEQ_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(rand::random::<u64>);
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let (mut fastest, mut portable) = (TripleSolver::default(), TripleSolver::portable());
        for _ in 0..1_000 {
            let c = rng.random_range(3..=400);
            let b = rng.random_range(2..c);
            let t = Triple {
                a: rng.random_range(1..b),
                b,
                c,
            };
            let want = portable.solve(t, 1 << 24).unwrap();
            assert_eq!(
                fastest.solve(t, 1 << 24).unwrap(),
                want,
                "{t:?} (seed {seed})"
            );
        }
    }

    /// Each triple starting from its pair's words, shared, in any input order: the same answers
    /// as one triple at a time, without them.
    #[test]
    fn triples_sharing_their_pair_match_one_at_a_time() {
        use rand::seq::SliceRandom;
        let mut triples: Vec<Triple> = TripleFilter::up_to(150)
            .triples()
            .filter(|t| t.a % 7 == 3 && t.b % 5 != 1)
            .collect();
        triples.shuffle(&mut rand::rng());
        let shared = PairWords::new(&triples, Budget::UNLIMITED).expect("pairs shared");
        let mut solver = TripleSolver::default();
        for &t in &triples {
            let want = reference::nim_values(&t.ruleset(), t.c as usize / 64 * 64);
            solver.solve_after(t, shared.below(t), 1 << 20).unwrap();
            let got: Vec<u32> = (0..want.len()).map(|x| solver.value(x)).collect();
            assert_eq!(got, want, "{t:?}: the words below c");
        }
        let together = solve_triples(&triples, |_| 1 << 20, Budget::UNLIMITED).unwrap();
        for (&t, got) in triples.iter().zip(together) {
            let alone = solver.solve(t, 1 << 20).unwrap();
            assert_eq!(got, alone, "{t:?}");
        }
    }
}
