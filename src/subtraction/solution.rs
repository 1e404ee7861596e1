//! What every backend answers for one ruleset.

use serde::Serialize;

use super::ruleset::Ruleset;
use crate::memory::human_bytes;
use crate::period::{Period, ShiftCompare, certify, least_period, preperiod};

/// Exact least period and pre-period of the nim sequence and of the P-position indicator.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Solution {
    pub period: usize,
    pub preperiod: usize,
    pub outcome_period: usize,
    pub outcome_preperiod: usize,
    /// Length of the prefix `G[0..checked_len)` that certified the answer.
    pub checked_len: usize,
}

impl Solution {
    /// The four numbers every backend must agree on (`checked_len` depends on the search).
    pub fn key(&self) -> [usize; 4] {
        [
            self.period,
            self.preperiod,
            self.outcome_period,
            self.outcome_preperiod,
        ]
    }
}

impl Solution {
    /// The solution of a sequence whose least period and pre-period `nim` are proved within its
    /// first `len` values, with `window = max S`: the outcome period and pre-period follow. The
    /// nim period is an outcome period, and the outcome pre-period does not depend on which
    /// outcome period measures it; outcomes repeat wherever values do, so only positions below
    /// `outcome_bound` (the nim pre-period, or less where the caller knows where outcomes repeat
    /// from) are compared.
    #[inline(always)]
    pub fn proved(
        nim: Period,
        outcomes: &impl ShiftCompare,
        window: usize,
        len: usize,
        outcome_bound: usize,
    ) -> Self {
        let outcome_period = least_period(outcomes, window, nim.period);
        Self::with_outcome_period(nim, outcome_period, outcomes, len, outcome_bound)
    }

    /// [`Self::proved`] where the least outcome period is known already.
    #[inline(always)]
    pub fn with_outcome_period(
        nim: Period,
        outcome_period: usize,
        outcomes: &impl ShiftCompare,
        len: usize,
        outcome_bound: usize,
    ) -> Self {
        Solution {
            period: nim.period,
            preperiod: nim.preperiod,
            outcome_period,
            outcome_preperiod: preperiod(outcomes, nim.period, outcome_bound),
            checked_len: len,
        }
    }
}

/// No period was certified within the length limit (in whole words of 64 values), or within
/// what a share of the memory budget holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotCertified {
    pub set: Ruleset,
    pub len: usize,
    /// The bytes a solver was allowed, when they and not the length limit stopped it.
    pub memory: Option<u64>,
}

impl std::fmt::Display for NotCertified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (set, len) = (&self.set, self.len);
        match self.memory {
            Some(bytes) => write!(
                f,
                "no period of {set} certified within the first {len} values, all that {} (one thread's share of the memory budget) holds; raise --mem-budget",
                human_bytes(bytes)
            ),
            None => write!(
                f,
                "no period of {set} certified within the first {len} values (the length limit, in whole words of 64 values)"
            ),
        }
    }
}

impl std::error::Error for NotCertified {}

/// The envelope `c^2/2 + c + 64` of docs/subtraction.md, section 2 (`c` the largest move): within
/// it every
/// triple with `c <= 300` settles. Scans size their memory by it, and the fast paths first run
/// the full search there (any move count: it only says when, never what is proved).
pub fn envelope(c: usize) -> usize {
    c * c / 2 + c + 64
}

/// When a fast solve runs the full period search over every `p`: from a first length on (an
/// envelope of where periods are proved), at every doubling after it, and once more at the
/// length limit, so that what the prefix allows is certified before giving up (as the
/// reference does). Shared by the solvers of any set and of triples.
pub struct FullSearch {
    at: usize,
    max_len: usize,
}

/// Where a fast solve stands after a run of words ([`FullSearch::settle`]).
pub enum Settled {
    Solved(Solution),
    /// The length limit is reached with no period certified.
    GaveUp,
    Going,
}

impl FullSearch {
    pub fn new(first: usize, max_len: usize) -> Self {
        FullSearch {
            at: first.min(max_len),
            max_len,
        }
    }

    /// The next length at which the full search runs.
    pub fn at(&self) -> usize {
        self.at
    }

    /// Whether [`Self::settle`] has anything to do at `len` when no candidate proved a period:
    /// a solve asks after every word, and this test is all most words cost.
    #[inline(always)]
    pub fn due(&self, len: usize) -> bool {
        len >= self.at
    }

    /// The end of each run of words of a solve with `window = max S`: the period `proved` by a
    /// candidate, or else the full search when due, then the outcome period and pre-period of
    /// what was proved ([`Solution::proved`]).
    #[inline(always)]
    pub fn settle(
        &mut self,
        proved: Option<Period>,
        values: &impl ShiftCompare,
        outcomes: &impl ShiftCompare,
        window: usize,
    ) -> Settled {
        let len = values.known_len();
        let mut proved = proved;
        if self.due(len) {
            self.at = (2 * len).min(self.max_len);
            proved = proved.or_else(|| certify(values, window, [], true));
        }
        match proved {
            Some(nim) => {
                Settled::Solved(Solution::proved(nim, outcomes, window, len, nim.preperiod))
            }
            None if len >= self.max_len => Settled::GaveUp,
            None => Settled::Going,
        }
    }
}
