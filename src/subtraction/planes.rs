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

/// The move lengths, as a fixed-size array for triples (so the loops unroll) or a slice.
pub trait Moves: Copy {
    fn as_slice(&self) -> &[u32];
}

impl<const K: usize> Moves for &[u32; K] {
    #[inline(always)]
    fn as_slice(&self) -> &[u32] {
        &self[..]
    }
}

impl Moves for &[u32] {
    #[inline(always)]
    fn as_slice(&self) -> &[u32] {
        self
    }
}

/// A growing prefix `G[0..len)` in bit planes. Reused across rulesets to avoid allocations.
///
/// Layout: the word holding positions `64w .. 64w + 64` of plane `v` is
/// `words[(pad + w) * k + v]`, planes interleaved so that one position's planes are adjacent.
/// `pad` zero rows in front make positions down to `-64 pad` readable (as "no value"), and one
/// zero row stays at the end, so every 64-bit window a move or a comparison reads exists.
#[derive(Default)]
pub struct Planes {
    words: Vec<u64>,
    /// Planes stored: the number of moves.
    k: usize,
    /// Zero rows in front: at least the largest move, in words, plus one.
    pad: usize,
    /// Number of computed positions, a multiple of 64.
    len: usize,
    /// Per plane, the options from moves `>= 64`, which read only finished words.
    far: Vec<u64>,
    /// Per plane, the word being computed.
    cur: Vec<u64>,
}

/// Bits `[x, x + 64)` of plane `v` of `words` laid out as in [`Planes`], with `k` passed in so
/// that a caller knowing it at compile time (a triple) gets constant strides.
///
/// # Safety
/// `v < k`, `x >= -64 pad`, and the row after the one holding `x + 63` exists:
/// `((x + 64 pad) / 64 + 2) * k <= words.len()`. This is the innermost loop of every fast scan;
/// bounds checks here cost about a third of its time.
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

impl Planes {
    /// Starts an empty sequence for a set of `k` moves, the largest `max_move`.
    pub fn reset(&mut self, k: usize, max_move: usize) {
        self.k = k;
        self.pad = max_move.div_ceil(64) + 1;
        self.words.clear();
        self.words.resize((self.pad + 1) * k, 0);
        self.far.resize(k, 0);
        self.cur.resize(k, 0);
        self.len = 0;
    }

    /// Number of computed positions.
    pub fn known_len(&self) -> usize {
        self.len
    }

    /// Bits `[x, x + 64)` of plane `v`.
    ///
    /// # Panics
    /// Unless `v < k`, `x >= -64 pad` and `x + 64 <= len + 64` (positions past `len` read as 0).
    #[inline(always)]
    fn bits_at(&self, v: usize, x: isize) -> u64 {
        assert!(
            v < self.k && x >= -64 * self.pad as isize && x <= self.len as isize,
            "bit window out of range"
        );
        // SAFETY: words holds pad + len/64 + 1 rows (see `push_word`), and the window's high
        // row is at most row pad + len/64, checked just above.
        unsafe { bits_at(&self.words, self.k, self.pad, v, x) }
    }

    /// Computes positions up to at least `target`, in whole words.
    pub fn extend<M: Moves>(&mut self, moves: M, target: usize) {
        while self.len < target {
            self.push_word(moves);
        }
    }

    /// Computes the next 64 positions.
    #[inline]
    pub fn push_word<M: Moves>(&mut self, moves: M) {
        let moves = moves.as_slice();
        let k = moves.len();
        debug_assert_eq!(self.k, k, "reset with the set's size first");
        let x0 = self.len as isize;
        let row = (self.pad + self.len / 64) * k;
        // The row after this word's stays zero: reads of this word's high neighbour need it.
        self.words.resize(row + 2 * k, 0);
        let pad = self.pad;
        let (words, far, cur) = (&self.words, &mut self.far, &mut self.cur);
        for v in 0..k {
            far[v] = moves
                .iter()
                .filter(|&&s| s >= 64)
                // SAFETY: 64 <= s <= max move < 64 (pad - 1), and x0 - s + 63 < x0, whose row
                // exists.
                .fold(0, |acc, &s| {
                    acc | unsafe { bits_at(words, k, pad, v, x0 - s as isize) }
                });
            cur[v] = 0;
        }
        // Moves below 64 read the previous word and this one, kept in `cur` while it fills.
        let prev = &words[row - k..row];
        // Positions [x, x + width) depend only on positions below x.
        let width = (moves[0] as usize).min(64);
        let mut filled = 0;
        while filled < 64 {
            let valid = if filled + width >= 64 {
                !0u64 << filled
            } else {
                ((1u64 << width) - 1) << filled
            };
            // `below`: positions whose options hold every value below v.
            let mut below = !0u64;
            for v in 0..k {
                let offered = moves
                    .iter()
                    .take_while(|&&s| s < 64)
                    .fold(far[v], |acc, &s| {
                        acc | (prev[v] >> (64 - s)) | (cur[v] << s)
                    });
                cur[v] |= below & !offered & valid;
                below &= offered;
            }
            filled += width;
        }
        self.words[row..row + k].copy_from_slice(&self.cur[..k]);
        self.len += 64;
    }

    /// `G(x)`; callers guarantee `x < len`.
    pub fn value(&self, x: usize) -> u32 {
        let row = (self.pad + x / 64) * self.k;
        (0..self.k)
            .position(|v| self.words[row + v] >> (x % 64) & 1 == 1)
            .unwrap_or(self.k) as u32
    }

    /// The P-position indicator (plane 0) as a sequence of its own.
    pub fn outcomes(&self) -> OutcomeView<'_> {
        OutcomeView(self)
    }

    /// The largest `x` in `[lo, hi)` whose bits in planes `0..planes` differ from those at
    /// `x + shift`.
    fn last_mismatch_in(&self, planes: usize, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        if lo >= hi {
            return None;
        }
        // Walk the words of x downwards, top word first: most wrong shifts fail there.
        let mut w = (hi - 1) / 64;
        loop {
            let base = w * 64;
            let row = (self.pad + w) * self.k;
            let mut diff = (0..planes).fold(0, |acc, v| {
                acc | (self.words[row + v] ^ self.bits_at(v, (base + shift) as isize))
            });
            if hi - base < 64 {
                diff &= (1u64 << (hi - base)) - 1;
            }
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
        }
    }
}

impl ShiftCompare for Planes {
    fn known_len(&self) -> usize {
        self.len
    }

    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        self.last_mismatch_in(self.k, lo, hi, shift)
    }

    fn quick_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        self.last_mismatch_in(1, lo, hi, shift)
    }
}

/// The indicator of `G(x) = 0`: the outcome sequence of the game.
pub struct OutcomeView<'a>(&'a Planes);

impl ShiftCompare for OutcomeView<'_> {
    fn known_len(&self) -> usize {
        self.0.len
    }

    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        self.0.last_mismatch_in(1, lo, hi, shift)
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
            planes.reset(set.moves().len(), set.max_move() as usize);
            planes.extend(set.moves(), 700);
            let want = reference::nim_values(&set, planes.known_len());
            let got: Vec<u32> = (0..planes.known_len()).map(|x| planes.value(x)).collect();
            assert_eq!(got, want, "{set}");
        }
    }

    #[test]
    fn mismatch_search_matches_the_slice_version() {
        let set: Ruleset = "5,9,23".parse().unwrap();
        let mut planes = Planes::default();
        planes.reset(3, 23);
        planes.extend(set.moves(), 640);
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
