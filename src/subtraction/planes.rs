//! Nim sequences stored one-hot in bit planes, computed 64 positions per word operation.
//!
//! Bit `x` of plane `v` is set iff `G(x) = v`, for `v < k = |S|`; `G(x) = k` where no plane has
//! bit `x` (values never exceed `k`, so plane `k` need not be stored). Two positions hold equal
//! values iff they agree in every stored plane.
//!
//! # Why a block of positions can be computed at once
//! `G(x)` reads only `G(x - s)` with `s >= a = min S`, so positions `[x, x + a)` depend only on
//! positions below `x`. For a block of `w <= min(a, 64)` positions, "some option has value `v`"
//! is the OR over `s in S` of plane `v` shifted by `s`, and the mex follows plane by plane:
//! `G = v` where options hold `0..v` but not `v`. Moves that would leave the board read bits of
//! negative positions, which are zero: an illegal move offers no value, as it should.

use crate::period::ShiftCompare;

/// A growing prefix `G[0..len)` in bit planes, of the set given to [`Planes::reset`] (held
/// here: the unchecked reads rely on the layout fitting the set). Reused across rulesets to
/// avoid allocations.
///
/// No call can hand it other moves than its own: extending `{1, 2}` with the moves of
/// `{1, 100000}` read far out of bounds before, and now does not compile.
/// ```compile_fail
/// let mut planes = nimseq::subtraction::planes::Planes::default();
/// planes.reset(&[1, 2]);
/// planes.extend(&[1, 100000], 128);
/// ```
/// ```
/// let mut planes = nimseq::subtraction::planes::Planes::default();
/// planes.reset(&[1, 2]);
/// planes.extend(128);
/// assert_eq!(planes.value(127), 1);
/// ```
///
/// Layout: the word holding positions `64w .. 64w + 64` of plane `v` is
/// `words[(pad + w) * k + v]`, planes interleaved so that one position's planes are adjacent.
/// `pad` zero rows in front make positions down to `-64 pad` readable (as "no value"), and one
/// zero row stays at the end, so every 64-bit window a move or a comparison reads exists.
#[derive(Default)]
pub struct Planes {
    words: Vec<u64>,
    /// The set, sorted, and how many of its moves are below 64.
    moves: Vec<u32>,
    near: usize,
    /// Planes stored: the number of moves.
    k: usize,
    /// Zero rows in front: at least the largest move, in words, plus one.
    pad: usize,
    /// Number of computed positions, a multiple of 64.
    len: usize,
    /// Passes per word: each makes `min S` more positions final.
    passes: usize,
    /// Three words a plane for the word being computed (see `push_word_near`), kept to spare
    /// an allocation per word.
    scratch: Vec<u64>,
}

/// Bits `[x, x + 64)` of plane `v` of `words` laid out as in [`Planes`].
///
/// # Safety
/// `v < k`, `x >= -64 pad`, and the row after the one holding `x + 63` exists:
/// `((x + 64 pad) / 64 + 2) * k <= words.len()`. This is the innermost loop of every period
/// proof (a shift compared at any position, not only at word starts); bounds checks here cost
/// about a third of its time.
#[inline(always)]
unsafe fn bits_at(words: &[u64], k: usize, pad: usize, v: usize, x: isize) -> u64 {
    debug_assert!(v < k && x >= -64 * pad as isize);
    // OK since x >= -64 pad: the padded position is non-negative.
    let start = (x + 64 * pad as isize) as usize;
    let (i, shift) = ((start / 64) * k + v, (start % 64) as u32);
    debug_assert!(i + k < words.len());
    // SAFETY: i + k < words.len() by the contract above.
    let (lo, hi) = unsafe { (*words.get_unchecked(i), *words.get_unchecked(i + k)) };
    // Two shifts for the high word, so that shift = 0 needs no branch.
    (lo >> shift) | ((hi << 1) << (63 - shift))
}

/// `NEAR` of [`Planes::push_words`] for a count of near moves known only at run time.
pub const ANY_NEAR: usize = usize::MAX;

/// How many of the sorted `moves` are below 64: those read the word being computed.
pub fn near_moves(moves: &[u32]) -> usize {
    moves.iter().take_while(|&&s| s < 64).count()
}

/// One pass over a word: `cur` recomputed from its options, `fixed` (what finished words offer)
/// and `cur` itself shifted by each near move; returns the bits that changed.
#[inline(always)]
fn mex_pass(near: &[u32], fixed: &[u64], cur: &mut [u64]) -> u64 {
    // `below`: positions whose options hold every value below v.
    let mut below = !0u64;
    let mut changed = 0;
    for (v, cur) in cur.iter_mut().enumerate() {
        // Up to three near moves without a loop: the triples' cases.
        let c = *cur;
        let offered = match near {
            [] => fixed[v],
            [s] => fixed[v] | (c << s),
            [s, t] => fixed[v] | (c << s) | (c << t),
            [s, t, u] => fixed[v] | (c << s) | (c << t) | (c << u),
            several => several.iter().fold(fixed[v], |acc, &s| acc | (c << s)),
        };
        *cur = below & !offered;
        changed |= *cur ^ c;
        below &= offered;
    }
    changed
}

impl Planes {
    /// Starts the sequence of the set `moves`: positive, strictly increasing (checked: every
    /// read of the planes relies on it).
    pub fn reset(&mut self, moves: &[u32]) {
        assert!(
            !moves.is_empty() && moves[0] > 0 && moves.windows(2).all(|w| w[0] < w[1]),
            "a subtraction set is positive and sorted: {moves:?}"
        );
        let (min, max) = (moves[0] as usize, moves[moves.len() - 1] as usize);
        self.moves.clear();
        self.moves.extend_from_slice(moves);
        self.near = near_moves(moves);
        self.k = moves.len();
        self.pad = max.div_ceil(64) + 1;
        self.passes = 64usize.div_ceil(min);
        self.scratch.resize(3 * self.k, 0);
        // The zero pad rows, then zero rows (rows past the end stay zero).
        self.words.clear();
        self.words.resize((self.pad + 2) * self.k, 0);
        self.len = 0;
    }

    /// The set whose sequence this is.
    pub fn moves(&self) -> &[u32] {
        &self.moves
    }

    /// Number of computed positions.
    pub fn known_len(&self) -> usize {
        self.len
    }

    /// Computes positions up to at least `target`, in whole words.
    pub fn extend(&mut self, target: usize) {
        if self.len < target {
            self.push_words::<ANY_NEAR>(None, target);
        }
    }

    /// Computes the next 64 positions, and more while each new word repeats `guess` and the
    /// length is below `until` (one word for `until` 0): a run of words that repeat a candidate
    /// period needs nothing from the caller between them, and what depends on the set alone
    /// (where each move reads) is worked out once per run. `guess`, a shift that likely repeats
    /// the sequence here (a candidate period),
    /// is where each word starts from: a right guess takes one pass instead of `64 / min S` (the
    /// result never depends on it). Returns the positions `y` of the last word (bit `y % 64`,
    /// only `y >= shift`) with `G(y) != G(y - shift)`; 0 without a guess.
    ///
    /// `NEAR` is [`near_moves`] of the set (checked), or [`ANY_NEAR`]: a caller that fixes it
    /// once per set lets the compiler unroll the loops over near moves. A `guess` made by
    /// another sequence's [`Self::shifted`] is refused.
    #[inline(always)]
    pub fn push_words<const NEAR: usize>(&mut self, guess: Option<&Shifted>, until: usize) -> u64 {
        assert!(
            NEAR == ANY_NEAR || NEAR == self.near,
            "NEAR is the set's count of moves below 64"
        );
        assert!(
            guess.is_none_or(|g| g.k == self.k),
            "a guess from a sequence of {} planes",
            self.k
        );
        let moves = std::mem::take(&mut self.moves);
        let near = self.near;
        let diff = loop {
            let diff = self.push_word_near::<NEAR>(&moves, near, guess);
            if diff != 0 || self.len >= until {
                break diff;
            }
        };
        self.moves = moves;
        diff
    }

    /// One word of [`Self::push_words`].
    #[inline(always)]
    fn push_word_near<const NEAR: usize>(
        &mut self,
        moves: &[u32],
        near: usize,
        guess: Option<&Shifted>,
    ) -> u64 {
        let near = if NEAR == ANY_NEAR { near } else { NEAR };
        // Per plane: options this word gets from finished words, the word being computed, and
        // the guess it started from.
        let mut scratch = std::mem::take(&mut self.scratch);
        let (fixed, rest) = scratch.split_at_mut(moves.len());
        let (cur, start) = rest.split_at_mut(moves.len());
        let k = moves.len();
        debug_assert_eq!(self.k, k, "the set held since reset");
        let x0 = self.len as isize;
        let row = (self.pad + self.len / 64) * k;
        // The row after this word's must exist and be zero: reads of this word's high
        // neighbour need it. Grow by doubling; rows past the end stay zero until written.
        if self.words.len() < row + 2 * k {
            self.words
                .resize((row + 2 * k).max(2 * self.words.len()), 0);
        }
        for (v, fixed) in fixed.iter_mut().enumerate() {
            // Where each far move reads depends on the move only (a word starts at a multiple
            // of 64): worked out from it here, it stays out of a run of words.
            let far_options = moves[near..].iter().fold(0, |acc, &s| {
                acc | self.shifted_word(k, row, &Shifted::new(s as usize, k), v)
            });
            // What near moves read from the previous word does not change while this one fills.
            let prev = self.words[row - k + v];
            *fixed = moves[..near]
                .iter()
                .fold(far_options, |acc, &s| acc | (prev >> (64 - s)));
        }
        // A window reaching below -64 has nothing to offer (and its rows need not exist).
        let guess = guess.filter(|g| g.shift <= self.len + 64);
        if let Some(g) = guess {
            for (v, word) in start.iter_mut().enumerate() {
                *word = self.shifted_word(k, row, g, v);
            }
            cur.copy_from_slice(start);
        }
        // Positions [x, x + a) depend only on positions below x. So computing the whole word
        // from any start makes `a` more positions final each pass, and recomputing final
        // positions changes nothing: no masks needed. By the same induction the true word is the
        // only one a pass leaves unchanged, so an unchanged word ends the passes (at the first
        // one when the guess was right).
        let this_word_moves = &moves[..near];
        let pass = |cur: &mut [u64]| mex_pass(this_word_moves, fixed, cur);
        if near == 0 {
            // Every move reads finished words: one pass is exact.
            pass(cur);
        } else {
            // Two passes at least, and a third when due, without a test: whether the guess was
            // right is about as often yes as no in a pre-period, and a branch there costs more
            // in mispredictions than the pass it would save (mid-range `a`: 17% less time).
            // Later passes stop at an unchanged word.
            pass(cur);
            pass(cur);
            for _ in 2..self.passes {
                if pass(cur) == 0 {
                    break;
                }
            }
        }
        self.words[row..row + k].copy_from_slice(cur);
        self.len += 64;
        let diff = guess.map_or(0, |g| {
            if g.back == k {
                // The window reached into this word, still zero when the guess was read.
                for (v, word) in start.iter_mut().enumerate() {
                    *word = self.shifted_word(k, row, g, v);
                }
            }
            let diff = (0..k).fold(0, |acc, v| acc | (cur[v] ^ start[v]));
            diff & g.compared_bits(x0 as usize)
        });
        self.scratch = scratch;
        diff
    }

    /// Plane `v` of the window `at.shift` back from the word in row `row`; `k` is `self.k`.
    #[inline(always)]
    fn shifted_word(&self, k: usize, row: usize, at: &Shifted, v: usize) -> u64 {
        // The window [x - shift, x - shift + 64) of the word at x starts at bit `at.bit` of row
        // `row - at.back`: 64 (row - at.back) / k - 64 pad + at.bit = x - shift.
        debug_assert!(k == self.k && at.back <= row && v < k && row + v < self.words.len());
        // SAFETY: callers pass an existing row whose word starts no more than `pad` words
        // above the window (a move: shift <= max S <= 64 (pad - 1); a guess: x - shift >=
        // -64), so the window's first row, ceil(shift / 64) rows back, is at least row 0, and
        // the one after it at most `row`.
        unsafe {
            let lo = *self.words.get_unchecked(row - at.back + v);
            let hi = *self.words.get_unchecked(row - at.back + k + v);
            (lo >> at.bit) | ((hi << 1) << (63 - at.bit))
        }
    }

    /// Where the values `shift` back from a word are, computed once per shift so that a guess
    /// or a candidate's comparison costs no index arithmetic per word.
    pub fn shifted(&self, shift: usize) -> Shifted {
        Shifted::new(shift, self.k)
    }

    /// `G(x)`, `x` below the computed length.
    pub fn value(&self, x: usize) -> u32 {
        assert!(
            x < self.len,
            "G({x}) is past the {} values computed",
            self.len
        );
        let row = (self.pad + x / 64) * self.k;
        (0..self.k)
            .position(|v| self.words[row + v] >> (x % 64) & 1 == 1)
            .unwrap_or(self.k) as u32
    }

    /// The P-position indicator (plane 0) as a sequence of its own.
    pub fn outcomes(&self) -> OutcomeView<'_> {
        OutcomeView(self)
    }

    /// [`ShiftCompare::newest_differ`] for planes `0..planes` (`PLANES` as in
    /// [`Self::last_mismatch_of`]): the top word against the window `shift` before it.
    #[inline(always)]
    fn newest_differ_of<const PLANES: usize>(&self, planes: usize, n: usize, shift: usize) -> bool {
        let planes = if PLANES == 0 { planes } else { PLANES };
        assert!(
            planes <= self.k && n >= 1 && n + shift <= self.len,
            "comparison outside the computed prefix"
        );
        // len is a positive multiple of 64: the top word starts at y, and its window at
        // y - shift >= n - 64 > -64.
        let y = self.len - 64;
        let (words, k, pad) = (&self.words[..], self.k, self.pad);
        let diff = (0..planes).fold(0, |acc, v| {
            // SAFETY: row pad + y / 64 is the newest; the window's rows lie at or below it, and
            // the row after the newest exists (see `push_word_near`).
            acc | unsafe {
                words.get_unchecked((pad + y / 64) * k + v)
                    ^ bits_at(words, k, pad, v, y as isize - shift as isize)
            }
        });
        // Only the top n positions when n < 64.
        diff & (!0u64 << (64 - n.min(64))) != 0
    }

    /// The largest `x` in `[lo, hi)` whose bits in planes `0..planes` differ from those at
    /// `x + shift`; `PLANES` fixes the count where it is known (outcomes: 1), so that the loop
    /// over planes unrolls (this runs for every candidate check), 0 leaves it to `planes`.
    fn last_mismatch_of<const PLANES: usize>(
        &self,
        planes: usize,
        lo: usize,
        hi: usize,
        shift: usize,
    ) -> Option<usize> {
        let planes = if PLANES == 0 { planes } else { PLANES };
        if lo >= hi {
            return None;
        }
        assert!(
            planes <= self.k && hi + shift <= self.len,
            "comparison outside the computed prefix"
        );
        let (words, k, pad) = (&self.words[..], self.k, self.pad);
        let diff_at = |w: usize| {
            (0..planes).fold(0, |acc, v| {
                // SAFETY: 64 w < hi, so the shifted window ends below hi + shift + 64 <=
                // len + 64: its rows, and row pad + w itself, exist (see the assert above).
                acc | unsafe {
                    words.get_unchecked((pad + w) * k + v)
                        ^ bits_at(words, k, pad, v, (w * 64 + shift) as isize)
                }
            })
        };
        last_difference(lo, hi, diff_at)
    }
}

/// The largest `x` in `[lo, hi)` (`lo < hi`) whose bit is set in `diff_at(x / 64)`, the
/// differences found in the word of positions `[64 w, 64 w + 64)`. Walks the words downwards,
/// top word first: most wrong shifts fail there.
#[inline(always)]
pub fn last_difference(lo: usize, hi: usize, diff_at: impl Fn(usize) -> u64) -> Option<usize> {
    let mut w = (hi - 1) / 64;
    let mut diff = diff_at(w) & (!0u64 >> (63 - (hi - 1) % 64));
    loop {
        let base = w * 64;
        if lo > base {
            diff &= !0u64 << (lo - base);
        }
        if diff != 0 {
            return Some(base + 63 - diff.leading_zeros() as usize);
        }
        if base <= lo || w == 0 {
            return None;
        }
        w -= 1;
        diff = diff_at(w);
    }
}

impl ShiftCompare for Planes {
    fn known_len(&self) -> usize {
        self.len
    }

    #[inline]
    fn newest_differ(&self, n: usize, shift: usize) -> bool {
        self.newest_differ_of::<0>(self.k, n, shift)
    }

    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        self.last_mismatch_of::<0>(self.k, lo, hi, shift)
    }
}

/// A shift precomputed by [`Planes::shifted`]: the window `shift` positions back from the newest
/// word starts `back` words before it, at bit `bit`.
#[derive(Clone, Copy, Debug)]
pub struct Shifted {
    shift: usize,
    back: usize,
    bit: u32,
    /// The planes of the sequence it was made for.
    k: usize,
}

impl Shifted {
    /// The window `shift` back from a word of `k` planes.
    #[inline(always)]
    fn new(shift: usize, k: usize) -> Self {
        let back_words = shift.div_ceil(64);
        Shifted {
            shift,
            back: back_words * k,
            bit: (back_words * 64 - shift) as u32,
            k,
        }
    }

    /// The bits of the word at `base` whose positions `y >= shift` have a value to compare with.
    #[inline(always)]
    fn compared_bits(&self, base: usize) -> u64 {
        (!0u64)
            .checked_shl(self.shift.saturating_sub(base) as u32)
            .unwrap_or(0)
    }
}

/// The indicator of `G(x) = 0`: the outcome sequence of the game.
pub struct OutcomeView<'a>(&'a Planes);

impl ShiftCompare for OutcomeView<'_> {
    fn known_len(&self) -> usize {
        self.0.len
    }

    #[inline]
    fn newest_differ(&self, n: usize, shift: usize) -> bool {
        self.0.newest_differ_of::<1>(1, n, shift)
    }

    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        self.0.last_mismatch_of::<1>(1, lo, hi, shift)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subtraction::{reference, ruleset::Ruleset};

    #[test]
    fn agrees_with_the_plain_recurrence() {
        for text in [
            "1",
            "3,8,13",
            "1,2,3",
            "2,5,7,40",
            "64,65,200",
            "7,70,71,100,101",
        ] {
            let set: Ruleset = text.parse().unwrap();
            let mut planes = Planes::default();
            planes.reset(set.moves());
            planes.extend(700);
            let want = reference::nim_values(&set, planes.known_len());
            let got: Vec<u32> = (0..planes.known_len()).map(|x| planes.value(x)).collect();
            assert_eq!(got, want, "{set}");
        }
    }

    /// What the unchecked reads rely on is checked in every build (this runs in release with
    /// `cargo test --release`): a set out of order, a count of near moves that is not the
    /// set's, a guess made for another sequence.
    #[test]
    fn misuse_is_refused_not_undefined() {
        use std::panic::catch_unwind;
        assert!(catch_unwind(|| Planes::default().reset(&[100000, 1])).is_err());
        assert!(catch_unwind(|| Planes::default().reset(&[0, 3])).is_err());
        assert!(
            catch_unwind(|| {
                let mut planes = Planes::default();
                planes.reset(&[1, 100000]);
                planes.push_words::<2>(None, 0)
            })
            .is_err()
        );
        assert!(
            catch_unwind(|| {
                let mut other = Planes::default();
                other.reset(&[1, 2, 3, 4, 5]);
                let far = other.shifted(100000);
                let mut planes = Planes::default();
                planes.reset(&[1, 2]);
                planes.push_words::<ANY_NEAR>(Some(&far), 0)
            })
            .is_err()
        );
        let mut planes = Planes::default();
        planes.reset(&[1, 2]);
        assert!(catch_unwind(move || planes.value(0)).is_err());
    }

    #[test]
    fn mismatch_search_matches_the_slice_version() {
        let set: Ruleset = "5,9,23".parse().unwrap();
        let mut planes = Planes::default();
        planes.reset(set.moves());
        planes.extend(640);
        let g = reference::nim_values(&set, 640);
        for (lo, hi, shift) in [
            (0, 600, 28),
            (3, 70, 5),
            (100, 101, 7),
            (0, 639, 1),
            (64, 128, 64),
        ] {
            assert_eq!(
                planes.last_mismatch(lo, hi, shift),
                g[..].last_mismatch(lo, hi, shift),
                "{lo} {hi} {shift}"
            );
        }
    }
}
