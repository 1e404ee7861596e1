//! What every backend answers for one ruleset.

use serde::Serialize;

use super::ruleset::Ruleset;

/// Exact least period and pre-period of the nim sequence and of the P-position indicator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
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

/// No period was certified within the length limit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no period of {set} certified within {len} values; raise --max-len to search further")]
pub struct NotCertified {
    pub set: Ruleset,
    pub len: usize,
}
