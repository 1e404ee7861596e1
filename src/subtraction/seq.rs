//! One ruleset in full: values, P-positions, certified period and the window that proves it.

use std::fmt;

use serde::Serialize;

use super::fast::FastSolver;
use super::ruleset::Ruleset;
use super::solution::NotCertified;
use crate::memory::{Budget, OverBudget};
use crate::output::{values_word, write_values};

/// Everything `nimseq sub seq` shows.
#[derive(Clone, Debug, Serialize)]
pub struct SeqReport {
    /// The moves, least first.
    pub set: Vec<u32>,
    /// `G(0), ..., G(len - 1)`.
    pub values: Vec<u32>,
    /// P-positions (`G(x) = 0`) among those values.
    pub p_positions: Vec<usize>,
    pub certified: bool,
    /// The period and what proves it, when one was certified (`null` otherwise): one
    /// `certificate` object, as `octal seq` gives.
    #[serde(rename = "certificate")]
    pub solution: Option<Certified>,
    /// Values computed and searched: the certificate's prefix, or as far as the search went.
    pub computed: usize,
    /// What stopped a search that certified nothing.
    #[serde(skip)]
    pub unsettled: Option<NotCertified>,
}

/// A certified period of the values and of the outcomes, with the window that proves it.
#[derive(Clone, Debug, Serialize)]
pub struct Certified {
    pub period: usize,
    pub preperiod: usize,
    pub outcome_period: usize,
    pub outcome_preperiod: usize,
    /// `G(q), ..., G(q + p - 1)`.
    pub period_word: Vec<u32>,
    /// The window, beside the period it proves.
    #[serde(flatten)]
    pub certificate: Certificate,
}

/// `G(x + period) = G(x)` was checked for `x` in `[from, to)` within `G(0..checked_len)`; from
/// `max S` on every move is legal, so this window proves it for all `x >= from`.
#[derive(Clone, Debug, Serialize)]
pub struct Certificate {
    pub from: usize,
    pub to: usize,
    pub checked_len: usize,
}

/// The most bytes [`describe`] may take for `set`, `len` values shown and a search of up to
/// `max_len` values: the bit planes (a word of 64 positions per move, behind front padding of
/// `max S / 64` rows, at most doubled as they grow) and the values, P-positions and period
/// word of the report.
pub fn memory(set: &Ruleset, len: usize, max_len: usize) -> u64 {
    let k = set.moves().len() as u64;
    let rows = u64::from(set.max_move()).div_ceil(64) + 4 + (len.max(max_len) as u64).div_ceil(64);
    let planes = rows.saturating_mul(k).saturating_mul(8 * 2);
    let report = (len as u64)
        .saturating_mul(4 + 8)
        .saturating_add((max_len as u64).saturating_mul(4));
    planes.saturating_add(report)
}

/// Solves `set` and collects its first `len` values, refused first if that may not fit
/// `budget`. A search that certifies no period within `max_len` values still gives the values,
/// with `certified` false.
pub fn describe(
    set: &Ruleset,
    len: usize,
    max_len: usize,
    budget: Budget,
) -> Result<SeqReport, OverBudget> {
    budget.check(memory(set, len, max_len), || {
        format!(
            "{set} with --len {len} and --max-len {max_len} ({} moves, the largest {})",
            set.moves().len(),
            set.max_move()
        )
    })?;
    let mut solver = FastSolver::default();
    let solved = solver.solve(set, max_len);
    let shown = match &solved {
        Ok(s) => len.max(s.preperiod + s.period),
        Err(_) => len,
    };
    solver.extend(shown);
    let planes = solver.planes();
    let values: Vec<u32> = (0..len).map(|x| planes.value(x)).collect();
    let (solution, computed, unsettled) = match solved {
        Ok(s) => {
            let certified = Certified {
                period: s.period,
                preperiod: s.preperiod,
                outcome_period: s.outcome_period,
                outcome_preperiod: s.outcome_preperiod,
                period_word: (s.preperiod..s.preperiod + s.period)
                    .map(|x| planes.value(x))
                    .collect(),
                certificate: Certificate {
                    from: s.preperiod,
                    to: s.preperiod + set.max_move() as usize,
                    checked_len: s.checked_len,
                },
            };
            (Some(certified), s.checked_len, None)
        }
        Err(e) => (None, e.len, Some(e)),
    };
    Ok(SeqReport {
        set: set.moves().to_vec(),
        p_positions: (0..len).filter(|&x| values[x] == 0).collect(),
        values,
        certified: solution.is_some(),
        solution,
        computed,
        unsettled,
    })
}

/// Longest period word printed in full in the text report (JSON always has all of it).
const WORD_SHOWN: usize = 200;

impl fmt::Display for SeqReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "set          {}", Ruleset::braces(&self.set))?;
        write_values(f, &self.values)?;
        let Some(s) = &self.solution else {
            return write!(
                f,
                "period       none certified within G(0..{})",
                self.computed
            );
        };
        let (p, q) = (s.period, s.preperiod);
        let kind = if q == 0 {
            "purely periodic"
        } else {
            "pre-periodic"
        };
        writeln!(f, "period       {p}, pre-period {q} ({kind})")?;
        let shown = &s.period_word[..p.min(WORD_SHOWN)];
        let more = if p > WORD_SHOWN {
            format!(" ... ({} more; --format json has all)", p - WORD_SHOWN)
        } else {
            String::new()
        };
        writeln!(
            f,
            "one period   G({q}..{}) = {}{more}",
            q + p,
            values_word(shown)
        )?;
        writeln!(
            f,
            "outcomes     period {}, pre-period {} (P-positions only)",
            s.outcome_period, s.outcome_preperiod
        )?;
        let c = &s.certificate;
        write!(
            f,
            "certificate  G(x+{p}) = G(x) for x in [{}, {}), checked within G(0..{}); every move is legal from x = max S on, so this window proves it for all x >= {}",
            c.from, c.to, c.checked_len, c.from
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_for_3_8_13() {
        let set: Ruleset = "3,8,13".parse().unwrap();
        let r = describe(&set, 20, 1 << 20, Budget::new(1 << 30)).unwrap();
        let s = r.solution.as_ref().unwrap();
        assert_eq!(values_word(&s.period_word), "0001110021100211");
        assert_eq!(r.p_positions, vec![0, 1, 2, 6, 7, 11, 12, 16, 17, 18]);
        let text = r.to_string();
        assert!(text.contains("period       16, pre-period 0 (purely periodic)"));
        assert!(text.contains("[0, 13)"));
    }
}
