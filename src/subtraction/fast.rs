//! The fast CPU backend: bit-plane sequences, candidate periods first, stop at the first
//! certified period.
//!
//! Each ruleset pays only for its own length. For a few candidate periods `P` (the pair sums
//! `s_i + s_j`: by Ward's conjecture, spec section 4 item 5, the nim period divides one of them,
//! true for every triple with `c <= 250`; and for the additive triple `c = a + b` the period of
//! Theorem 34) a [`CandidateWatch`] records where new values differ from those `P` earlier, so
//! the moment the top `c` values repeat is seen within one word of 64 values, and the pre-period
//! with it. One candidate at a time is the guess each new word starts from
//! ([`Planes::push_words`]): where it holds, the word can stop after one pass and its comparison
//! comes free; where it breaks, the next candidate takes over and first compares what it missed.
//! Candidates are only hints: a period counts only once the window comparison proves it, and the
//! least period is then the least divisor that matches ([`crate::period`]). A full search over
//! every `p` runs from a length on (for triples the empirical envelope `c^2/2 + c + 64` of spec
//! section 3.2, else `4c + 64`), at every doubling after and at the length limit, so a ruleset
//! that breaks every hint is still solved exactly, only later.
//!
//! Many triples at once ([`solve_triples`]) are solved pair by pair: below `c` a triple's values
//! are those of the game `{a, b}`, computed once for all the triples of a pair.

use rayon::prelude::*;

use super::planes::{ANY_NEAR, Moves, Planes, Shifted, near_moves};
use super::ruleset::Ruleset;
use super::solution::{NotCertified, Solution};
use super::theory;
use super::triple::Triple;
use crate::period::{CandidateWatch, certify, least_period, preperiod};

/// A reusable workspace: one per thread.
#[derive(Default)]
pub struct FastSolver {
    planes: Planes,
    candidates: Vec<Candidate>,
    /// The game `{a, b}` of the last triple solved by [`Self::solve_triple_after_pair`], as
    /// far as its triples have needed it.
    pair: Planes,
    pair_moves: [u32; 2],
    /// The words of `pair` in a triple's layout (three planes a row).
    pair_rows: Vec<u64>,
    /// Words the next solve takes from `pair_rows` (0: none).
    pair_words: usize,
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

    /// [`Self::solve_triple`], starting from the values of the game `{a, b}` below `c`, which
    /// it keeps for the next triple with the same `a` and `b` (they are computed once when
    /// such triples come in a row).
    fn solve_triple_after_pair(
        &mut self,
        t: Triple,
        max_len: usize,
    ) -> Result<Solution, NotCertified> {
        let moves = [t.a, t.b];
        if self.pair_moves != moves {
            self.pair_moves = moves;
            self.pair.reset(&moves, &[]);
            self.pair_rows.clear();
        }
        self.pair_words = t.c as usize / 64;
        let known = self.pair_rows.len() / 3;
        if known < self.pair_words {
            self.pair.extend(&moves, 64 * self.pair_words);
            let new = self.pair.rows()[2 * known..].chunks_exact(2);
            // The pair's values are 0, 1 or 2: plane 2 holds what its two planes do not.
            self.pair_rows
                .extend(new.flat_map(|p| [p[0], p[1], !(p[0] | p[1])]));
        }
        let solved = self.solve_triple_fastest(t, max_len);
        self.pair_words = 0;
        solved
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
        // The count of near moves fixed once per set (see `Planes::push_words`).
        match near_moves(moves.as_slice()) {
            0 => self.solve_near::<M, 0>(moves, max_len),
            1 => self.solve_near::<M, 1>(moves, max_len),
            2 => self.solve_near::<M, 2>(moves, max_len),
            3 => self.solve_near::<M, 3>(moves, max_len),
            _ => self.solve_near::<M, ANY_NEAR>(moves, max_len),
        }
    }

    /// [`Self::solve_moves`] for a set with `NEAR` moves below 64 (or any number: [`ANY_NEAR`]).
    #[inline(always)]
    fn solve_near<M: Moves, const NEAR: usize>(
        &mut self,
        moves: M,
        max_len: usize,
    ) -> Option<Solution> {
        let slice = moves.as_slice();
        let c = *slice.last().expect("non-empty set") as usize;
        self.planes
            .reset(slice, &self.pair_rows[..3 * self.pair_words]);
        self.set_candidates(slice);
        let first_search = if slice.len() == 3 {
            c * c / 2 + c + 64
        } else {
            4 * c + 64
        };
        let mut full_search_at = first_search.min(max_len);
        // The candidate each word starts from (in turn, each time a guess breaks).
        let mut guess = 0;
        loop {
            let start = self.planes.known_len();
            let diff = match self.candidates.get(guess) {
                // Words while the guess holds, up to the next length where something is due.
                Some(g) => {
                    let until = g.watch.next_check().min(full_search_at).min(max_len);
                    self.planes
                        .push_words::<M, NEAR>(moves, Some(&g.back), until)
                }
                None => self.planes.push_words::<M, NEAR>(moves, None, 0),
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
            if len >= full_search_at {
                // Doubling, and once more at `max_len`: what the prefix allowed is certified
                // before giving up (as the reference does).
                full_search_at = (2 * len).min(max_len);
                proved = proved.or_else(|| certify(planes, c, [], true));
            }
            if let Some(nim) = proved {
                // The nim period is an outcome period, and the outcome pre-period does not
                // depend on which outcome period measures it; outcomes repeat wherever values
                // do, so only positions below the nim pre-period are compared.
                let outcomes = planes.outcomes();
                return Some(Solution {
                    period: nim.period,
                    preperiod: nim.preperiod,
                    outcome_period: least_period(&outcomes, c, nim.period),
                    outcome_preperiod: preperiod(&outcomes, nim.period, nim.preperiod),
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

/// Solves many triples on all cores, in input order; any failure stops it.
pub fn solve_triples(
    triples: &[Triple],
    max_len: impl Fn(Triple) -> usize + Sync,
) -> Result<Vec<Solution>, NotCertified> {
    // Solved pair by pair, so that each pair's values are computed once for all its triples;
    // then put back in input order, also on all cores (a serial pass here held both cores up).
    let (by_pair, rank) = pair_major_order(triples);
    let solved: Vec<_> = by_pair
        .par_iter()
        .with_min_len(64)
        .map_init(FastSolver::default, |solver, &t| {
            solver.solve_triple_after_pair(t, max_len(t))
        })
        .collect();
    if let Some(Err(e)) = solved.par_iter().find_first(|s| s.is_err()) {
        return Err(e.clone());
    }
    // Indexed, so that rayon writes each answer in place (collecting the results as one
    // `Result` went through a list of pieces: a tenth of the time).
    Ok(rank
        .par_iter()
        .map(|&r| match solved[r as usize] {
            Ok(s) => s,
            Err(_) => unreachable!("failures returned above"),
        })
        .collect())
}

/// `triples` grouped by pair `(a, b)`, in input order within a pair (for a scan: ascending
/// `c`), and the rank of each triple in that order. One counting pass over a dense index of
/// pairs (a comparison sort of a chunk cost 7% of its solve); input order where pairs are too
/// many for that. The triples themselves, not their indices: reading them through indices in
/// this order missed the cache at every triple.
fn pair_major_order(triples: &[Triple]) -> (Vec<Triple>, Vec<u32>) {
    let n = triples.len();
    // Pairs a < b <= b_max, numbered b (b - 1) / 2 + a - 1 (a >= 1).
    let pair = |t: &Triple| t.b as usize * (t.b as usize - 1) / 2 + t.a as usize - 1;
    let pairs = triples.iter().map(pair).max().map_or(0, |m| m + 1);
    if pairs > 4 * n {
        return (triples.to_vec(), (0..n as u32).collect());
    }
    let mut next = vec![0u32; pairs];
    for t in triples {
        next[pair(t)] += 1;
    }
    // Counts to starting positions.
    let mut start = 0;
    for slot in &mut next {
        (*slot, start) = (start, start + *slot);
    }
    let (mut by_pair, mut rank) = (triples.to_vec(), vec![0u32; n]);
    for (t, rank) in triples.iter().zip(&mut rank) {
        let slot = &mut next[pair(t)];
        by_pair[*slot as usize] = *t;
        *rank = *slot;
        *slot += 1;
    }
    (by_pair, rank)
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

    /// Pair by pair, each triple starting from its pair's words, in any input order: the same
    /// answers as one triple at a time, back in input order.
    #[test]
    fn triples_sharing_their_pair_match_one_at_a_time() {
        use rand::seq::SliceRandom;
        let mut triples: Vec<Triple> = crate::subtraction::triple::TripleFilter::up_to(150)
            .triples()
            .filter(|t| t.a % 7 == 3 && t.b % 5 != 1)
            .collect();
        triples.shuffle(&mut rand::rng());
        let (by_pair, rank) = pair_major_order(&triples);
        for (t, &r) in triples.iter().zip(&rank) {
            assert_eq!(by_pair[r as usize], *t, "rank says where each triple went");
        }
        // Each pair's triples in one run, in input order.
        let mut done = std::collections::HashSet::new();
        let mut last_rank = std::collections::HashMap::new();
        for (t, &r) in triples.iter().zip(&rank) {
            if let Some(before) = last_rank.insert((t.a, t.b), r) {
                assert!(before < r, "input order kept within a pair");
            }
        }
        for w in by_pair.windows(2) {
            if (w[0].a, w[0].b) != (w[1].a, w[1].b) {
                assert!(
                    done.insert((w[0].a, w[0].b)),
                    "{:?}: its pair comes in one run",
                    w[0]
                );
            }
        }
        let shared = solve_triples(&triples, |_| 1 << 20).unwrap();
        let mut solver = FastSolver::default();
        for (&t, got) in triples.iter().zip(shared) {
            let alone = solver.solve_triple(t, 1 << 20).unwrap();
            assert_eq!(got, alone, "{t:?}");
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
