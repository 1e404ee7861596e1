//! The fast CPU backend: bit-plane sequences, candidate periods first, stop at the first
//! certified period.
//!
//! Each ruleset pays only for its own length. For a few candidate periods `P` (the pair sums
//! `s_i + s_j`: by Ward's conjecture, spec section 4 item 5, the nim period divides one of them,
//! true for every triple with `c <= 250`; and for the additive triple `c = a + b` the period of
//! Theorem 34) a [`CandidateWatch`] compares new values with those `P` earlier, so the moment the
//! top `c` values repeat is seen within one word of 64 values, and the pre-period with it.
//! Candidates are only hints: a period counts only once the window comparison proves it, and the
//! least period is then the least divisor that matches ([`crate::period`]). A full search over
//! every `p` runs from a length on (for triples the empirical envelope `c^2/2 + c + 64` of spec
//! section 3.2, else `4c + 64`) and at every doubling after, so a ruleset that breaks every hint
//! is still solved exactly, only later.

use rayon::prelude::*;

use super::planes::{Moves, Planes};
use super::ruleset::Ruleset;
use super::solution::{NotCertified, Solution};
use super::theory;
use super::triple::Triple;
use crate::period::{CandidateWatch, certify, least_period};

/// A reusable workspace: one per thread.
#[derive(Default)]
pub struct FastSolver {
    planes: Planes,
    candidates: Vec<Candidate>,
}

/// A candidate period `P` under watch.
struct Candidate {
    watch: CandidateWatch,
    /// The P-positions of `[outcomes_clean_from, len)` repeat those `P` earlier.
    outcomes_clean_from: usize,
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
            })
    }

    /// Solves the triple `{a, b, c}` without allocating.
    #[inline(always)]
    pub fn solve_triple(&mut self, t: Triple, max_len: usize) -> Result<Solution, NotCertified> {
        self.solve_moves(&[t.a, t.b, t.c], max_len)
            .ok_or_else(|| NotCertified {
                set: t.ruleset(),
                len: self.planes.known_len(),
            })
    }

    /// [`Self::solve_triple`] compiled for BMI2 where the CPU has it: the bit-plane loops shift
    /// by variable amounts, one instruction with BMI2 and three without (about 8% overall).
    fn solve_triple_fastest(
        &mut self,
        t: Triple,
        max_len: usize,
    ) -> Result<Solution, NotCertified> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the CPU has BMI2, checked just above.
            return unsafe { self.solve_triple_bmi2(t, max_len) };
        }
        self.solve_triple(t, max_len)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,lzcnt")]
    fn solve_triple_bmi2(&mut self, t: Triple, max_len: usize) -> Result<Solution, NotCertified> {
        self.solve_triple(t, max_len)
    }

    /// The sequence computed by the last solve, for printing values.
    pub fn planes(&self) -> &Planes {
        &self.planes
    }

    /// Extends the last solved sequence to at least `len` values.
    pub fn extend(&mut self, set: &Ruleset, len: usize) {
        self.planes.extend(set.moves(), len);
    }

    #[inline(always)]
    fn solve_moves<M: Moves>(&mut self, moves: M, max_len: usize) -> Option<Solution> {
        let slice = moves.as_slice();
        let c = *slice.last().expect("non-empty set") as usize;
        self.set_candidates(slice);
        self.planes.reset(slice);
        let mut full_search_at = if slice.len() == 3 {
            c * c / 2 + c + 64
        } else {
            4 * c + 64
        };
        loop {
            self.planes.push_word(moves);
            let len = self.planes.known_len();
            let planes = &self.planes;
            // The nim period and pre-period, and the outcome pre-period if already known.
            let mut proved = None;
            for Candidate {
                watch,
                outcomes_clean_from: clean,
            } in &mut self.candidates
            {
                // A proof needs the top c values to repeat, P-positions first: watching those
                // costs one extraction a word, and gates the full comparison.
                if let Some(y) = planes.newest_outcome_mismatch(watch.p) {
                    *clean = y + 1;
                }
                if proved.is_none() && *clean + c <= len && len >= watch.next_check() {
                    // P is an outcome period too; the outcome pre-period does not depend on
                    // which outcome period measures it.
                    proved = watch
                        .check(planes, c)
                        .map(|nim| (nim, Some(clean.saturating_sub(watch.p))));
                }
            }
            if len >= full_search_at {
                full_search_at = 2 * len;
                proved = proved.or_else(|| certify(planes, c, [], true).map(|nim| (nim, None)));
            }
            if let Some((nim, outcome_preperiod)) = proved {
                let outcomes = planes.outcomes();
                let outcome_preperiod = outcome_preperiod.unwrap_or_else(|| {
                    certify(&outcomes, c, [nim.period], false)
                        .expect("a nim period is an outcome period, proved by the same window")
                        .preperiod
                });
                return Some(Solution {
                    period: nim.period,
                    preperiod: nim.preperiod,
                    outcome_period: least_period(&outcomes, c, nim.period),
                    outcome_preperiod,
                    checked_len: len,
                });
            }
            if len >= max_len {
                return None;
            }
        }
    }

    /// Pair sums of distinct moves, plus the additive period for `c = a + b`; none for sets of
    /// more than `MAX_TRACKED_MOVES` moves, where tracking would cost more than it saves.
    fn set_candidates(&mut self, moves: &[u32]) {
        self.candidates.clear();
        if moves.len() > MAX_TRACKED_MOVES {
            return;
        }
        let c = moves[moves.len() - 1] as usize;
        let mut add = |p: usize| {
            if !self.candidates.iter().any(|t| t.watch.p == p) {
                self.candidates.push(Candidate {
                    watch: CandidateWatch::new(p, c),
                    outcomes_clean_from: 0,
                });
            }
        };
        for (i, &s) in moves.iter().enumerate() {
            for &t in &moves[i + 1..] {
                add((s + t) as usize);
            }
        }
        if let &[a, b, c] = moves
            && c == a + b
        {
            add(theory::additive_period(a as usize, b as usize));
        }
    }
}

/// Solves many triples on all cores, in input order.
pub fn solve_triples(
    triples: &[Triple],
    max_len: impl Fn(Triple) -> usize + Sync,
) -> Vec<Result<Solution, NotCertified>> {
    triples
        .par_iter()
        .with_min_len(64)
        .map_init(FastSolver::default, |solver, &t| {
            solver.solve_triple_fastest(t, max_len(t))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subtraction::reference;

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
