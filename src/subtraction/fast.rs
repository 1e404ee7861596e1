//! The fast CPU backend: bit-plane sequences, candidate periods first, stop at the first
//! certified period.
//!
//! Each ruleset pays only for its own length. For a few candidate periods `P` (the pair sums
//! `s_i + s_j`: by Ward's conjecture, docs/subtraction.md, section 5, the nim period divides one
//! of them,
//! true for every triple with `c <= 250`; and for the additive triple `c = a + b` the period of
//! Theorem 34) a [`CandidateWatch`] records where new values differ from those `P` earlier, so
//! the moment the top `c` values repeat is seen within one word of 64 values, and the pre-period
//! with it. One candidate at a time is the guess each new word starts from
//! ([`Planes::push_words`]): where it holds, the word can stop after one pass and its comparison
//! comes free; where it breaks, the next candidate takes over and first compares what it missed.
//! Candidates are only hints: a period counts only once the window comparison proves it, and the
//! least period is then the least divisor that matches ([`crate::period`]). A full search over
//! every `p` runs from a length on (for triples the empirical envelope `c^2/2 + c + 64` of
//! docs/subtraction.md, section 2, else `4c + 64`), at every doubling after and at the length
//! limit, so a ruleset
//! that breaks every hint is still solved exactly, only later.
//!
//! This is the path for any set; a scan's sets (2 to 7 moves) take [`super::set_solver`].

use super::planes::{ANY_NEAR, Planes, Shifted, near_moves};
use super::ruleset::Ruleset;
use super::solution::{FullSearch, NotCertified, Settled, Solution, envelope};
use super::theory;
use crate::period::CandidateWatch;

/// A reusable workspace: one per thread.
#[derive(Default)]
pub struct FastSolver {
    planes: Planes,
    candidates: Vec<Candidate>,
}

/// A candidate period `P` under watch.
struct Candidate {
    watch: CandidateWatch,
    /// Where the values `P` back from the newest word are.
    back: Shifted,
}

/// Sets with more moves than this get no candidate periods, only the full search.
const MAX_TRACKED_MOVES: usize = 8;

impl FastSolver {
    /// Solves any subtraction set, looking at no more than about `max_len` values.
    pub fn solve(&mut self, set: &Ruleset, max_len: usize) -> Result<Solution, NotCertified> {
        let moves = set.moves();
        self.solve_moves(moves, max_len)
            .ok_or_else(|| NotCertified {
                set: set.clone(),
                len: self.planes.known_len(),
                memory: None,
            })
    }

    /// The sequence computed by the last solve, for printing values.
    pub fn planes(&self) -> &Planes {
        &self.planes
    }

    /// Extends the last solved sequence to at least `len` values.
    pub fn extend(&mut self, len: usize) {
        self.planes.extend(len);
    }

    fn solve_moves(&mut self, moves: &[u32], max_len: usize) -> Option<Solution> {
        // The count of near moves fixed once per set (see `Planes::push_words`).
        match near_moves(moves) {
            0 => self.solve_near::<0>(moves, max_len),
            1 => self.solve_near::<1>(moves, max_len),
            2 => self.solve_near::<2>(moves, max_len),
            3 => self.solve_near::<3>(moves, max_len),
            _ => self.solve_near::<ANY_NEAR>(moves, max_len),
        }
    }

    /// [`Self::solve_moves`] for a set with `NEAR` moves below 64 (or any number: [`ANY_NEAR`]).
    fn solve_near<const NEAR: usize>(&mut self, moves: &[u32], max_len: usize) -> Option<Solution> {
        let c = *moves.last().expect("non-empty set") as usize;
        self.planes.reset(moves);
        self.set_candidates(moves);
        let first_search = if moves.len() == 3 {
            envelope(c)
        } else {
            4 * c + 64
        };
        let mut search = FullSearch::new(first_search, max_len);
        // The candidate each word starts from (in turn, each time a guess breaks).
        let mut guess = 0;
        loop {
            let start = self.planes.known_len();
            let diff = match self.candidates.get(guess) {
                // Words while the guess holds, up to the next length where something is due.
                Some(g) => {
                    let until = g.watch.next_check().min(search.at());
                    self.planes.push_words::<NEAR>(Some(&g.back), until)
                }
                None => self.planes.push_words::<NEAR>(None, 0),
            };
            let len = self.planes.known_len();
            let planes = &self.planes;
            let mut proved = None;
            if let Some(Candidate { watch, .. }) = self.candidates.get_mut(guess) {
                // push_words compared the new words with the guess: watching it costs nothing
                // more. A run that holds is taken in from its first word (the words after it
                // only extend what was compared); a guess that breaks takes in its mismatch
                // (which makes the values before it irrelevant) and hands over to the next
                // candidate, which catches up (compares what it missed) once it holds a word.
                if diff == 0 {
                    watch.observe(planes, start.saturating_sub(watch.p), None);
                    if len >= watch.next_check() {
                        proved = watch.prove(planes, c);
                    }
                } else {
                    let y = len - 1 - diff.leading_zeros() as usize;
                    let from = (len - 64).saturating_sub(watch.p);
                    watch.observe(planes, from, Some(y - watch.p));
                    guess += 1;
                    if guess == self.candidates.len() {
                        guess = 0;
                    }
                }
            }
            match search.settle(proved, planes, &planes.outcomes(), c) {
                Settled::Solved(solution) => return Some(solution),
                Settled::GaveUp => return None,
                Settled::Going => {}
            }
        }
    }

    /// Pair sums of distinct moves, plus the additive period for `c = a + b`; none for sets of
    /// more than `MAX_TRACKED_MOVES` moves, where tracking would cost more than it saves.
    fn set_candidates(&mut self, moves: &[u32]) {
        self.candidates.clear();
        if let &[a, b, c] = moves {
            // Written out for triples, whose pair sums are distinct: this runs per ruleset.
            let (a, b, c) = (a as usize, b as usize, c as usize);
            for p in [a + b, a + c, b + c] {
                self.add_candidate(p, c, true);
            }
            if c == a + b {
                self.add_candidate(theory::additive_period(a, b), c, false);
            }
            return;
        }
        if moves.len() > MAX_TRACKED_MOVES {
            return;
        }
        let c = moves[moves.len() - 1] as usize;
        // Two pairs may share a sum (1 + 4 = 2 + 3).
        for (i, &s) in moves.iter().enumerate() {
            for &t in &moves[i + 1..] {
                self.add_candidate((s + t) as usize, c, false);
            }
        }
    }

    /// Watches `p`, unless it is already watched (looked up only where it may be: not `distinct`).
    fn add_candidate(&mut self, p: usize, window: usize, distinct: bool) {
        if !distinct && self.candidates.iter().any(|t| t.watch.p == p) {
            return;
        }
        self.candidates.push(Candidate {
            watch: CandidateWatch::new(p, window),
            back: self.planes.shifted(p),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subtraction::reference;

    /// A limit below the first full search still gets one: {1..9} (no candidates: more than
    /// `MAX_TRACKED_MOVES` moves; p = 10) within one word, and {49,105,136,164,241}, whose
    /// `q + p + c` = 1,187,188 lies between the last doubling (1,052,672) and 2^21.
    #[test]
    fn certifies_whatever_the_limit_allows() {
        let mut solver = FastSolver::default();
        for (text, max_len) in [("1,2,3,4,5,6,7,8,9", 64), ("49,105,136,164,241", 1 << 21)] {
            let set: Ruleset = text.parse().unwrap();
            let fast = solver.solve(&set, max_len).unwrap();
            let slow = reference::solve(&set, max_len).unwrap();
            assert_eq!(fast.key(), slow.key(), "{set}");
        }
    }

    #[test]
    fn matches_the_reference_on_small_sets() {
        let mut solver = FastSolver::default();
        for text in [
            "1", "2", "1,2", "2,6", "3,8,13", "3,8,11", "2,4,6", "1,3,5", "4,7,13", "3,5,9,20",
        ] {
            let set: Ruleset = text.parse().unwrap();
            let fast = solver.solve(&set, 1 << 22).unwrap();
            let slow = reference::solve(&set, 1 << 22).unwrap();
            assert_eq!(fast.key(), slow.key(), "{set}");
        }
    }
}
