//! `nimseq sub all-but-scan`: every all-but set `X` (the moves are all positive integers but
//! those of `X`) of each size up to `k` with `max(X) <= m`, one row each with the arithmetic
//! period `G(n + p) = G(n) + s` from `n = q` of `G(0..len)`: the least, proved by Theorem 7.1
//! of docs/subtraction.md where the values suffice, else observed and not proved; and per size
//! how many show one, how many are proved, how many have `q = 0` (purely arithmetic-periodic)
//! and which do not.

use std::fmt;

use rayon::prelude::*;
use serde::Serialize;

use super::all_but;
use super::infinite::{self, InfiniteSet};
use crate::memory::{Budget, OverBudget};
use crate::output::{Field, Row};

/// Most sets a scan may cover (`C(m, 1) + ... + C(m, k)`): its rows are held until written.
pub const MAX_SETS: u64 = 1 << 24;

/// One set's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AllButRow {
    /// The moves left out, `x1;x2;...` (a `;` keeps the CSV field whole).
    pub excluded: String,
    pub size: usize,
    /// The arithmetic period, proved or observed; none if the values show none.
    pub period: Option<usize>,
    pub preperiod: Option<usize>,
    pub saltus: Option<u32>,
    /// Whether the period is proved (Theorem 7.1), not only observed.
    pub certified: bool,
    /// Values computed: `G(0..computed)`.
    pub computed: usize,
}

impl AllButRow {
    pub const CSV_HEADER: &'static str = "excluded,size,period,preperiod,saltus,certified,computed";
}

impl Row for AllButRow {
    fn fields(&self, out: &mut dyn FnMut(Field<'_>)) {
        let number = |x: Option<u64>| x.map_or(Field::Missing, Field::Unsigned);
        out(Field::Text(&self.excluded));
        out(Field::Unsigned(self.size as u64));
        out(number(self.period.map(|p| p as u64)));
        out(number(self.preperiod.map(|q| q as u64)));
        out(number(self.saltus.map(u64::from)));
        out(Field::Bool(self.certified));
        out(Field::Unsigned(self.computed as u64));
    }
}

/// The sets of `size` numbers from `1..=max`, ascending each, in lexicographic order.
pub fn sets(size: usize, max: usize) -> Vec<Vec<usize>> {
    let mut all = Vec::new();
    let mut set: Vec<usize> = (1..=size).collect();
    if size == 0 || size > max {
        return all;
    }
    loop {
        all.push(set.clone());
        // The rightmost entry that can still grow, then the ones after it just above it.
        let Some(i) = (0..size).rev().find(|&i| set[i] < max - (size - 1 - i)) else {
            return all;
        };
        set[i] += 1;
        for j in i + 1..size {
            set[j] = set[j - 1] + 1;
        }
    }
}

/// How many sets of sizes `1..=k` from `1..=m` there are, saturating.
pub fn set_count(k: usize, m: usize) -> u64 {
    (1..=k.min(m) as u64)
        .map(|size| {
            // C(m, size), exact in u128 for every size this takes.
            (0..size).fold(1u128, |c, i| c * (m as u128 - i as u128) / (i as u128 + 1))
        })
        .fold(0u64, |sum, c| {
            sum.saturating_add(c.try_into().unwrap_or(u64::MAX))
        })
}

/// The row of the all-but set of `excluded`, from `G(0..len)`.
pub fn row(excluded: &[usize], len: usize, budget: Budget) -> Result<AllButRow, OverBudget> {
    let g = infinite::values(&InfiniteSet::AllBut(excluded.to_vec()), len, budget)?;
    let (proved, seen) = all_but::period(excluded, &g);
    let found = proved.or(seen);
    let list: Vec<String> = excluded.iter().map(usize::to_string).collect();
    Ok(AllButRow {
        excluded: list.join(";"),
        size: excluded.len(),
        period: found.map(|a| a.period),
        preperiod: found.map(|a| a.preperiod),
        saltus: found.map(|a| a.saltus),
        certified: proved.is_some(),
        computed: len,
    })
}

/// The rows of every set of sizes `1..=k` from `1..=m`, size by size, on all cores.
pub fn scan(k: usize, m: usize, len: usize, budget: Budget) -> Result<Vec<AllButRow>, OverBudget> {
    // Each core holds one set's values at a time.
    let cores = rayon::current_num_threads() as u64;
    let one = infinite::report_memory(&InfiniteSet::AllBut(vec![1]), len);
    budget.check(one.saturating_mul(cores), || {
        format!("{len} values of an all-but set and their period on each of {cores} cores")
    })?;
    (1..=k)
        .flat_map(|size| sets(size, m))
        .collect::<Vec<_>>()
        .par_iter()
        .map(|set| row(set, len, Budget::UNLIMITED))
        .collect()
}

/// Per size: the sets, those that show an arithmetic period, those of them proved, those with
/// pre-period 0, and the sets that show one only from a later `n` or none at all.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SizeCount {
    pub size: usize,
    pub sets: usize,
    pub observed: usize,
    pub proved: usize,
    pub purely: usize,
    pub late: Vec<String>,
    pub none: Vec<String>,
}

/// The counts of `rows`, by size.
pub fn counts(rows: &[AllButRow]) -> Vec<SizeCount> {
    let mut by_size: Vec<SizeCount> = Vec::new();
    for r in rows {
        if by_size.last().is_none_or(|c| c.size != r.size) {
            by_size.push(SizeCount {
                size: r.size,
                ..SizeCount::default()
            });
        }
        let c = by_size.last_mut().expect("pushed");
        c.sets += 1;
        c.proved += usize::from(r.certified);
        match r.preperiod {
            Some(0) => {
                c.observed += 1;
                c.purely += 1;
            }
            Some(_) => {
                c.observed += 1;
                c.late.push(r.excluded.clone());
            }
            None => c.none.push(r.excluded.clone()),
        }
    }
    by_size
}

/// One line a size: `size 3: 4060 sets, 4060 show an arithmetic period (4060 proved), 4060
/// from n = 0`, then the sets that are not purely so.
impl fmt::Display for SizeCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "size {}: {} sets, {} show an arithmetic period ({} proved), {} from n = 0",
            self.size, self.sets, self.observed, self.proved, self.purely
        )?;
        if !self.late.is_empty() {
            write!(f, "; from a later n: {}", self.late.join(" "))?;
        }
        if !self.none.is_empty() {
            write!(f, "; none seen: {}", self.none.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_are_every_combination_once() {
        assert_eq!(sets(2, 4), [[1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]]);
        assert_eq!(sets(3, 30).len(), 4060);
        assert_eq!(set_count(4, 30), 30 + 435 + 4060 + 27405);
        assert!(sets(3, 2).is_empty());
    }

    /// {2, 3, 7}: period 4, saltus 2 from n = 0 (CGSuite's test game), in its row and count.
    #[test]
    fn rows_and_counts() {
        let r = row(&[2, 3, 7], 4096, Budget::UNLIMITED).unwrap();
        assert_eq!(
            (
                r.excluded.as_str(),
                r.period,
                r.preperiod,
                r.saltus,
                r.certified
            ),
            ("2;3;7", Some(4), Some(0), Some(2), true)
        );
        let c = counts(&[r]);
        assert_eq!(
            (c[0].size, c[0].sets, c[0].proved, c[0].purely),
            (3, 1, 1, 1)
        );
    }
}
