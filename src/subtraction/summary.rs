//! Totals of a scan: counts, period classes, extremes, and the checksum shared with the peer.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::moveset::{MOVE_NAMES, MoveSet, pair_count, pairs};
use super::solution::Solution;

/// FNV-1a offset basis and prime exactly as the peer program `tests/data/sub_scan_naive.c` writes
/// them. Its
/// basis, 1469598103934665603, is the standard 14695981039346656037 with the last digit dropped;
/// the checksum is defined by the peer, so it is kept.
const FNV_OFFSET: u64 = 1_469_598_103_934_665_603;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Running totals over rows in scan order. Serialisable, so a checkpoint can carry it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanSummary {
    pub rulesets: u64,
    pub purely_periodic: u64,
    /// Rulesets whose least period is each pair sum of the moves (in the order of
    /// [`pair_names`]: for triples `a+b`, `c+a`, `c+b`), the first that it equals; and those
    /// whose period is none of them.
    pub period_pair_sums: Vec<u64>,
    pub period_other: u64,
    pub sum_period: u64,
    pub sum_preperiod: u64,
    /// Largest period and pre-period, with the first ruleset (in scan order) reaching them.
    pub max_period: (u64, Vec<u32>),
    pub max_preperiod: (u64, Vec<u32>),
    /// FNV-1a over the moves, `p` and `q` of every row, each as a 32-bit word, in scan order
    /// (for triples `(a, b, c, p, q)`, the peer's); hex in JSON, as in the text.
    #[serde(with = "crate::output::hex")]
    pub fnv: u64,
    /// Values computed to certify the rows (depends on the backend's search, unlike the rest).
    pub values: u64,
}

impl Default for ScanSummary {
    fn default() -> Self {
        ScanSummary {
            rulesets: 0,
            purely_periodic: 0,
            period_pair_sums: Vec::new(),
            period_other: 0,
            sum_period: 0,
            sum_preperiod: 0,
            max_period: (0, Vec::new()),
            max_preperiod: (0, Vec::new()),
            fnv: FNV_OFFSET,
            values: 0,
        }
    }
}

/// The pair sums of `k` moves in words, the largest move first where it takes part (for triples
/// `a+b`, `c+a`, `c+b`, as Manabe's paper writes them).
pub fn pair_names(k: usize) -> Vec<String> {
    pairs(k)
        .map(|(i, j)| match j == k - 1 {
            true => format!("{}+{}", MOVE_NAMES[j], MOVE_NAMES[i]),
            false => format!("{}+{}", MOVE_NAMES[i], MOVE_NAMES[j]),
        })
        .collect()
}

impl ScanSummary {
    /// Adds one row; rows must come in scan order for the checksum to match the peer's.
    pub fn add(&mut self, t: &MoveSet, s: &Solution) {
        let (p, q) = (s.period as u64, s.preperiod as u64);
        let moves = t.moves();
        self.rulesets += 1;
        self.purely_periodic += u64::from(q == 0);
        let k = moves.len();
        if self.period_pair_sums.is_empty() {
            self.period_pair_sums = vec![0; pair_count(k)];
        }
        // The first pair, in the order of `pairs`, whose sum is the period, from a bit per
        // pair: a loop that stops at it mispredicted its exit on most sets (this runs once a
        // row, on the scan's one writing thread).
        let mut sums_equal = 0u32;
        for (bit, (i, j)) in pairs(k).enumerate() {
            let equal = u64::from(moves[i]) + u64::from(moves[j]) == p;
            sums_equal |= u32::from(equal) << bit;
        }
        match self
            .period_pair_sums
            .get_mut(sums_equal.trailing_zeros() as usize)
        {
            Some(n) => *n += 1,
            None => self.period_other += 1,
        }
        self.sum_period += p;
        self.sum_preperiod += q;
        self.values += s.checked_len as u64;
        if p > self.max_period.0 {
            self.max_period = (p, moves.to_vec());
        }
        if q > self.max_preperiod.0 {
            self.max_preperiod = (q, moves.to_vec());
        }
        // The peer XORs each field as a C `unsigned` (32 bits) into the 64-bit hash.
        for &m in moves {
            self.hash(u64::from(m));
        }
        self.hash(p);
        self.hash(q);
    }

    /// Takes one field into the checksum.
    #[inline(always)]
    fn hash(&mut self, field: u64) {
        self.fnv ^= field & 0xFFFF_FFFF;
        self.fnv = self.fnv.wrapping_mul(FNV_PRIME);
    }

    /// The move count of the rows, from the number of pair sums (0 before the first row).
    pub fn moves(&self) -> usize {
        (2..=MOVE_NAMES.len())
            .find(|&k| pair_count(k) == self.period_pair_sums.len())
            .unwrap_or(0)
    }

    /// The peer's own summary line, for a side-by-side comparison (the peer's words for
    /// triples, `sets=` for other move counts).
    pub fn peer_line(&self) -> String {
        format!(
            "{}={} purely_periodic={} sum_p={} sum_q={} max_p={} max_q={} fnv={:016x}",
            match self.moves() {
                0 | 3 => "triples",
                _ => "sets",
            },
            self.rulesets,
            self.purely_periodic,
            self.sum_period,
            self.sum_preperiod,
            self.max_period.0,
            self.max_preperiod.0,
            self.fnv
        )
    }
}

impl fmt::Display for ScanSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The first ruleset reaching an extreme, none while the extreme is still 0.
        let at = |(value, t): &(u64, Vec<u32>)| {
            if *value == 0 {
                "0".to_string()
            } else {
                let moves: Vec<String> = t.iter().map(u32::to_string).collect();
                format!("{value} at {{{}}}", moves.join(","))
            }
        };
        writeln!(f, "rulesets:          {}", self.rulesets)?;
        writeln!(f, "purely periodic:   {}", self.purely_periodic)?;
        let mut classes: Vec<String> = pair_names(self.moves())
            .iter()
            .zip(&self.period_pair_sums)
            .map(|(name, n)| format!("{name} {n}"))
            .collect();
        classes.push(format!("other {}", self.period_other));
        writeln!(f, "period classes:    {}", classes.join(", "))?;
        writeln!(f, "max period:        {}", at(&self.max_period))?;
        writeln!(f, "max pre-period:    {}", at(&self.max_preperiod))?;
        write!(f, "checksum:          {}", self.peer_line())
    }
}
