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

/// Takes one field into an FNV-1a checksum.
#[inline(always)]
fn fnv_step(fnv: u64, field: u64) -> u64 {
    (fnv ^ (field & 0xFFFF_FFFF)).wrapping_mul(FNV_PRIME)
}

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
        self.add_rows(std::slice::from_ref(t), std::slice::from_ref(s));
    }

    /// Adds rows of one move count, in scan order. This runs on the scan's one writing thread,
    /// every row, beside the threads that solve: the loop holds the totals in registers, its
    /// loops over the moves unrolled for their count.
    pub fn add_rows(&mut self, sets: &[MoveSet], solutions: &[Solution]) {
        match sets.first().map(MoveSet::k) {
            None => {}
            Some(2) => self.add_rows_of::<2>(sets, solutions),
            Some(3) => self.add_rows_of::<3>(sets, solutions),
            Some(4) => self.add_rows_of::<4>(sets, solutions),
            Some(5) => self.add_rows_of::<5>(sets, solutions),
            Some(6) => self.add_rows_of::<6>(sets, solutions),
            Some(_) => self.add_rows_of::<7>(sets, solutions),
        }
    }

    /// [`Self::add_rows`] for sets of `K` moves.
    fn add_rows_of<const K: usize>(&mut self, sets: &[MoveSet], solutions: &[Solution]) {
        if self.period_pair_sums.is_empty() {
            self.period_pair_sums = vec![0; pair_count(K)];
        }
        // Rows by the first pair (in the order of `pairs`) whose sum is the period, and past
        // them those whose period is no pair sum.
        let mut classes = [0u64; pair_count(MOVE_NAMES.len()) + 1];
        let (mut purely, mut sum_p, mut sum_q, mut values) = (0, 0, 0, 0);
        let mut fnv = self.fnv;
        for (t, s) in sets.iter().zip(solutions) {
            let (p, q) = (s.period as u64, s.preperiod as u64);
            let moves = t
                .moves_of::<K>()
                .expect("the rows' sets have one move count");
            purely += u64::from(q == 0);
            // A bit a pair whose sum is the period, without a loop that stops at the first
            // (its exit mispredicted on most sets).
            let (mut sums_equal, mut bit) = (0u32, 0);
            for i in 0..K {
                for j in i + 1..K {
                    let equal = u64::from(moves[i]) + u64::from(moves[j]) == p;
                    sums_equal |= u32::from(equal) << bit;
                    bit += 1;
                }
            }
            classes[(sums_equal | 1 << bit).trailing_zeros() as usize] += 1;
            sum_p += p;
            sum_q += q;
            values += s.checked_len as u64;
            if p > self.max_period.0 {
                self.max_period = (p, moves.to_vec());
            }
            if q > self.max_preperiod.0 {
                self.max_preperiod = (q, moves.to_vec());
            }
            // The peer XORs each field as a C `unsigned` (32 bits) into the 64-bit hash.
            for &m in moves {
                fnv = fnv_step(fnv, u64::from(m));
            }
            fnv = fnv_step(fnv_step(fnv, p), q);
        }
        let pairs = self.period_pair_sums.len();
        for (n, add) in self.period_pair_sums.iter_mut().zip(classes) {
            *n += add;
        }
        self.period_other += classes[pairs];
        self.rulesets += sets.len() as u64;
        self.purely_periodic += purely;
        self.sum_period += sum_p;
        self.sum_preperiod += sum_q;
        self.values += values;
        self.fnv = fnv;
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
