//! Totals of a scan: counts, period classes, extremes, and the checksum shared with the peer.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::solution::Solution;
use super::triple::Triple;

/// FNV-1a offset basis and prime exactly as the peer program `tests/data/sub_scan_naive.c` writes them. Its
/// basis, 1469598103934665603, is the standard 14695981039346656037 with the last digit dropped;
/// the checksum is defined by the peer, so it is kept.
const FNV_OFFSET: u64 = 1_469_598_103_934_665_603;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Running totals over rows in scan order. Serialisable, so a checkpoint can carry it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanSummary {
    pub rulesets: u64,
    pub purely_periodic: u64,
    /// Rulesets whose least period is `a+b`, `c+a`, `c+b`, or something else.
    pub period_a_plus_b: u64,
    pub period_c_plus_a: u64,
    pub period_c_plus_b: u64,
    pub period_other: u64,
    pub sum_period: u64,
    pub sum_preperiod: u64,
    /// Largest period and pre-period, with the first ruleset (in scan order) reaching them.
    pub max_period: (u64, [u32; 3]),
    pub max_preperiod: (u64, [u32; 3]),
    /// FNV-1a over `(a, b, c, p, q)` of every row, each as a 32-bit word, in scan order; hex
    /// in JSON, as in the text.
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
            period_a_plus_b: 0,
            period_c_plus_a: 0,
            period_c_plus_b: 0,
            period_other: 0,
            sum_period: 0,
            sum_preperiod: 0,
            max_period: (0, [0; 3]),
            max_preperiod: (0, [0; 3]),
            fnv: FNV_OFFSET,
            values: 0,
        }
    }
}

impl ScanSummary {
    /// Adds one row; rows must come in scan order for the checksum to match the peer's.
    pub fn add(&mut self, t: Triple, s: &Solution) {
        let (p, q) = (s.period as u64, s.preperiod as u64);
        let (a, b, c) = (u64::from(t.a), u64::from(t.b), u64::from(t.c));
        self.rulesets += 1;
        self.purely_periodic += u64::from(q == 0);
        match p {
            _ if p == a + b => self.period_a_plus_b += 1,
            _ if p == c + a => self.period_c_plus_a += 1,
            _ if p == c + b => self.period_c_plus_b += 1,
            _ => self.period_other += 1,
        }
        self.sum_period += p;
        self.sum_preperiod += q;
        self.values += s.checked_len as u64;
        if p > self.max_period.0 {
            self.max_period = (p, [t.a, t.b, t.c]);
        }
        if q > self.max_preperiod.0 {
            self.max_preperiod = (q, [t.a, t.b, t.c]);
        }
        // The peer XORs each field as a C `unsigned` (32 bits) into the 64-bit hash.
        for field in [a, b, c, p, q] {
            self.fnv ^= field & 0xFFFF_FFFF;
            self.fnv = self.fnv.wrapping_mul(FNV_PRIME);
        }
    }

    /// The peer's own summary line, for a side-by-side comparison.
    pub fn peer_line(&self) -> String {
        format!(
            "triples={} purely_periodic={} sum_p={} sum_q={} max_p={} max_q={} fnv={:016x}",
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
        let at = |(value, t): (u64, [u32; 3])| {
            if value == 0 {
                "0".to_string()
            } else {
                format!("{value} at {{{},{},{}}}", t[0], t[1], t[2])
            }
        };
        writeln!(f, "rulesets:          {}", self.rulesets)?;
        writeln!(f, "purely periodic:   {}", self.purely_periodic)?;
        writeln!(
            f,
            "period classes:    a+b {}, c+a {}, c+b {}, other {}",
            self.period_a_plus_b, self.period_c_plus_a, self.period_c_plus_b, self.period_other
        )?;
        writeln!(f, "max period:        {}", at(self.max_period))?;
        writeln!(f, "max pre-period:    {}", at(self.max_preperiod))?;
        write!(f, "checksum:          {}", self.peer_line())
    }
}
