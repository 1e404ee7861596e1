//! A survey of a scan's rows: the distribution of periods and pre-periods for any move count,
//! and for triples the theory checks 1-8 of `docs/subtraction.md` ("What `survey` checks").
//!
//! Every check counts the rulesets it applies to and those that hold, and keeps the first
//! [`MAX_LISTED`] failures (all are counted). A failure of Theorem 32, Theorem 34 or Proposition 53
//! contradicts a proved theorem: it is a bug in nimseq (or in a proof), reported loudly.

use std::collections::BTreeMap;
use std::fmt;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::moveset::{MoveSet, Triple};
use super::solution::Solution;
use super::summary::ScanSummary;
use super::theory::base::Base;
use super::theory::predict::{Prediction, predict_on};
use super::theory::{additive_period, gcd};
use crate::output::scan::Tally;

/// Failures kept per check; the count covers all of them.
pub const MAX_LISTED: usize = 10_000;

/// One checked statement.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Check {
    pub applied: u64,
    pub held: u64,
    /// The first failures, as `{a,b,c}: what failed`.
    pub failures: Vec<String>,
}

impl Check {
    fn record(&mut self, held: bool, t: Triple, what: impl FnOnce() -> String) {
        self.applied += 1;
        if held {
            self.held += 1;
        } else if self.failures.len() < MAX_LISTED {
            self.failures
                .push(format!("{{{},{},{}}}: {}", t.a, t.b, t.c, what()));
        }
    }

    pub fn failed(&self) -> u64 {
        self.applied - self.held
    }
}

/// The distributions of a scan's periods and pre-periods, every check of
/// `docs/subtraction.md` (1-8) where the sets are triples (none applies to other move counts),
/// and the scan's own totals.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Survey {
    pub summary: ScanSummary,
    /// How many rulesets have each least period, and each pre-period.
    pub periods: BTreeMap<u64, u64>,
    pub preperiods: BTreeMap<u64, u64>,
    /// Item 1, proved direction: covered (primitive, non-additive, a >= 2) => q = 0 and p equals
    /// the least admissible candidate. A failure is a bug.
    pub theorem_32: Check,
    /// Item 1, Conjecture 50: uncovered => q > 0.
    pub conjecture_50: Check,
    /// Conjecture 50 read as necessity, split as docs/subtraction.md splits what is open: among
    /// purely
    /// periodic rulesets, those with p = a+b and K in {0, 1} (open) ...
    pub necessity_a_plus_b_small_k: Check,
    /// ... p = a+b and K >= 2 (Proposition 53, proved: a failure is a bug) ...
    pub necessity_a_plus_b_large_k: Check,
    /// ... p = c+a (open) and p = c+b (open): each must be covered.
    pub necessity_c_plus_a: Check,
    pub necessity_c_plus_b: Check,
    /// Item 2, Conjecture 54: q = 0 => p in {a+b, c+a, c+b}.
    pub conjecture_54: Check,
    /// Item 3, Conjecture 55: q = 0 and p = c+a => T1; q = 0 and p = c+b => T2.
    pub conjecture_55: Check,
    /// Item 4, Moriwaki: b <= 2a and 0 < rho < delta => q > 0.
    pub moriwaki: Check,
    /// Item 5, Ward (nim period, every non-additive ruleset): the pair sums that p divides have
    /// gcd p. Flammenkamp's Vermutung 6: the same for the outcome period.
    pub ward: Check,
    pub flammenkamp_v6: Check,
    /// Item 6, Miklós-Post [12, Conj 1]: outcome period < 2c for every non-additive ruleset.
    pub miklos_post: Check,
    /// Item 7: nim period = outcome period for every non-additive ruleset.
    pub nim_equals_outcome_period: Check,
    /// Item 8: additive c = a+b with a/g >= 2 has q = 0 and p = g p_add (Theorem 34, Remark 35).
    pub additive: Check,
    /// Rulesets with a / gcd(a,b,c) = 1, outside the paper (Remark 6).
    pub outside_theory: u64,
}

/// `gcd` of the pair sums that `p` divides, 0 if it divides none.
fn pair_sum_gcd(t: Triple, p: usize) -> usize {
    let (a, b, c) = (t.a as usize, t.b as usize, t.c as usize);
    [a + b, a + c, b + c]
        .into_iter()
        .filter(|s| s % p == 0)
        .fold(0, gcd)
}

impl Tally<MoveSet, Solution> for Survey {
    const COMMAND: &'static str = "nimseq sub survey";
    fn add_work(&mut self, part: &Self) {
        Tally::<MoveSet, Solution>::add_work(&mut self.summary, &part.summary);
    }
    fn add(&mut self, set: &MoveSet, s: &Solution) {
        let theory = set.triple().and_then(|t| Theory::of(t, s));
        self.add_with(set, s, theory.as_ref());
    }
    fn add_chunk(&mut self, sets: &[MoveSet], solved: &[Solution]) {
        let theories: Vec<Option<Theory>> = sets
            .par_iter()
            .zip(solved)
            .map(|(set, s)| set.triple().and_then(|t| Theory::of(t, s)))
            .collect();
        for ((set, s), theory) in sets.iter().zip(solved).zip(&theories) {
            self.add_with(set, s, theory.as_ref());
        }
    }
}

/// What the paper's machinery says of a primitive, non-additive triple with `a >= 2` (items
/// 1-4): the costly part of its checks (the base takes `O(a + b)`), worked out apart from the
/// tally so that a chunk's rows are worked out on all cores.
struct Theory {
    prediction: Prediction,
    /// Where the row is purely periodic with `p = c+a` (`c+b`): whether `rho` passes T1 (T2).
    admissible: Option<bool>,
}

impl Theory {
    /// `None` for a triple outside items 1-4: additive, non-primitive, or `a = 1`.
    fn of(t: Triple, s: &Solution) -> Option<Theory> {
        let (a, b, c) = (t.a as usize, t.b as usize, t.c as usize);
        if c == a + b || gcd(gcd(a, b), c) != 1 || a < 2 {
            return None;
        }
        let base = Base::new(a, b);
        let rho = c % (a + b);
        let admissible = match (s.preperiod, s.period) {
            (0, p) if p == c + a => Some(base.t1(rho)),
            (0, p) if p == c + b => Some(base.t2(rho)),
            _ => None,
        };
        Some(Theory {
            prediction: predict_on(&base, c, 1),
            admissible,
        })
    }
}

impl Survey {
    /// Takes in one row, with its triple's [`Theory`] where it has one.
    fn add_with(&mut self, set: &MoveSet, s: &Solution, theory: Option<&Theory>) {
        self.summary.add(set, s);
        *self.periods.entry(s.period as u64).or_default() += 1;
        *self.preperiods.entry(s.preperiod as u64).or_default() += 1;
        if let Some(t) = set.triple() {
            self.check(t, s, theory);
        }
    }

    /// The theory checks of one triple.
    fn check(&mut self, t: Triple, s: &Solution, theory: Option<&Theory>) {
        let (a, b, c) = (t.a as usize, t.b as usize, t.c as usize);
        let (p, q, p0, q0) = (s.period, s.preperiod, s.outcome_period, s.outcome_preperiod);
        let found = || format!("p = {p}, q = {q}, p0 = {p0}, q0 = {q0}");
        let g = gcd(gcd(a, b), c);
        if c == a + b {
            if a / g >= 2 {
                let want = g * additive_period(a / g, b / g);
                self.additive.record(q == 0 && p == want, t, || {
                    format!("{}; Theorem 34 says p = {want}, q = 0 (BUG)", found())
                });
            }
            return;
        }
        // Items 5-7: every non-additive ruleset, a = 1 and non-primitive included.
        self.ward.record(pair_sum_gcd(t, p) == p, t, found);
        self.flammenkamp_v6
            .record(pair_sum_gcd(t, p0) == p0, t, found);
        self.miklos_post.record(p0 < 2 * c, t, found);
        self.nim_equals_outcome_period.record(p == p0, t, found);
        let Some(theory) = theory else {
            self.outside_theory += u64::from(a / g == 1);
            return;
        };
        // Items 1-4: primitive, non-additive, a >= 2.
        let rho = c % (a + b);
        let k = c / (a + b);
        let prediction = theory.prediction;
        match prediction {
            Prediction::Covered { zone, period } => {
                self.theorem_32.record(q == 0 && p == period, t, || {
                    format!(
                        "{}; Theorem 32 says p = {period} ({zone}), q = 0 (BUG)",
                        found()
                    )
                });
            }
            Prediction::Uncovered => {
                self.conjecture_50.record(q > 0, t, || {
                    format!("{}; uncovered (rho = {rho}) yet purely periodic", found())
                });
            }
            Prediction::Additive { .. } | Prediction::OutsideTheory => {
                unreachable!("additive and a/g = 1 were handled above")
            }
        }
        if q == 0 {
            let covered = matches!(prediction, Prediction::Covered { .. });
            let uncovered = || format!("{}; purely periodic at uncovered rho = {rho}", found());
            if p == a + b && k <= 1 {
                self.necessity_a_plus_b_small_k
                    .record(covered, t, uncovered);
            } else if p == a + b {
                self.necessity_a_plus_b_large_k.record(covered, t, || {
                    format!("{} (Proposition 53: BUG)", uncovered())
                });
            } else if p == c + a {
                self.necessity_c_plus_a.record(covered, t, uncovered);
            } else if p == c + b {
                self.necessity_c_plus_b.record(covered, t, uncovered);
            }
            self.conjecture_54
                .record([a + b, c + a, c + b].contains(&p), t, found);
            if let Some(admissible) = theory.admissible {
                self.conjecture_55.record(admissible, t, || {
                    format!(
                        "{}; rho = {rho} fails T{}",
                        found(),
                        if p == c + a { 1 } else { 2 }
                    )
                });
            }
        }
        if b <= 2 * a && 0 < rho && rho < b - a {
            self.moriwaki.record(q > 0, t, found);
        }
    }

    /// The checks in report order, with their names and whether a failure is a bug.
    pub fn checks(&self) -> Vec<(&'static str, &Check, bool)> {
        vec![
            (
                "1  Theorem 32: covered => q = 0, p as predicted",
                &self.theorem_32,
                true,
            ),
            (
                "1  Conjecture 50: uncovered => q > 0",
                &self.conjecture_50,
                false,
            ),
            (
                "1  q = 0, p = a+b, K <= 1 => covered (open)",
                &self.necessity_a_plus_b_small_k,
                false,
            ),
            (
                "1  q = 0, p = a+b, K >= 2 => covered (Prop 53)",
                &self.necessity_a_plus_b_large_k,
                true,
            ),
            (
                "1  q = 0, p = c+a => covered (open)",
                &self.necessity_c_plus_a,
                false,
            ),
            (
                "1  q = 0, p = c+b => covered (open)",
                &self.necessity_c_plus_b,
                false,
            ),
            (
                "2  Conjecture 54: q = 0 => p in {a+b,c+a,c+b}",
                &self.conjecture_54,
                false,
            ),
            (
                "3  Conjecture 55: p = c+a => T1, p = c+b => T2",
                &self.conjecture_55,
                false,
            ),
            (
                "4  Moriwaki: b <= 2a, 0 < rho < delta => q > 0",
                &self.moriwaki,
                false,
            ),
            ("5  Ward: gcd of pair sums p divides = p", &self.ward, false),
            (
                "5  Flammenkamp V6: the same for p0",
                &self.flammenkamp_v6,
                false,
            ),
            ("6  Miklos-Post: p0 < 2c", &self.miklos_post, false),
            (
                "7  p = p0 (nim and outcome periods)",
                &self.nim_equals_outcome_period,
                false,
            ),
            (
                "8  additive: q = 0, p = g p_add (Thm 34, Rem 35)",
                &self.additive,
                true,
            ),
        ]
    }

    /// Failures of proved theorems: bugs, never conjecture news.
    pub fn bugs(&self) -> u64 {
        self.checks()
            .iter()
            .filter(|(_, _, bug)| *bug)
            .map(|(_, c, _)| c.failed())
            .sum()
    }
}

/// Most common periods the text report lists.
const COMMON_LISTED: usize = 12;

impl Survey {
    /// The theory checks as a table, their failures listed.
    fn write_checks(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<52} {:>12} {:>12} {:>8}",
            "check (numbered as in docs/subtraction.md)", "applied", "held", "failed"
        )?;
        for (name, check, _) in self.checks() {
            writeln!(
                f,
                "{name:<52} {:>12} {:>12} {:>8}",
                check.applied,
                check.held,
                check.failed()
            )?;
        }
        writeln!(
            f,
            "outside the paper (a/g = 1, non-additive): {}",
            self.outside_theory
        )?;
        for (name, check, bug) in self.checks() {
            if check.failed() > 0 {
                let label = if bug {
                    "BUG in nimseq or in a proof"
                } else {
                    "failures"
                };
                writeln!(
                    f,
                    "\n{name}: {} {label} (first {} listed)",
                    check.failed(),
                    check.failures.len()
                )?;
                for line in &check.failures {
                    writeln!(f, "  {line}")?;
                }
            }
        }
        writeln!(f)
    }

    /// The distributions in a few lines: the most common periods, and the pre-periods by
    /// powers of two (the whole of both is in the JSON).
    fn write_distributions(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.summary.rulesets.max(1) as f64;
        let share = |n: u64| 100.0 * n as f64 / total;
        let mut common: Vec<(u64, u64)> = self.periods.iter().map(|(&p, &n)| (p, n)).collect();
        common.sort_by_key(|&(p, n)| (std::cmp::Reverse(n), p));
        writeln!(
            f,
            "distinct periods:  {} (the most common below)",
            self.periods.len()
        )?;
        for (p, n) in common.into_iter().take(COMMON_LISTED) {
            writeln!(f, "  period {p:>8}: {n:>12} ({:.2}%)", share(n))?;
        }
        writeln!(f, "pre-periods:")?;
        // Buckets 0, 1, [2, 4), [4, 8), ...
        let mut buckets: BTreeMap<u32, u64> = BTreeMap::new();
        for (&q, &n) in &self.preperiods {
            *buckets.entry(u64::BITS - q.leading_zeros()).or_default() += n;
        }
        for (bits, n) in buckets {
            let range = match bits {
                0 => "0".to_string(),
                1 => "1".to_string(),
                _ => format!("{}..{}", 1u64 << (bits - 1), (1u64 << bits) - 1),
            };
            writeln!(f, "  q in {range:>13}: {n:>12} ({:.2}%)", share(n))?;
        }
        Ok(())
    }
}

impl fmt::Display for Survey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The checks speak of triples only.
        if self.summary.moves() == 3 {
            self.write_checks(f)?;
        }
        self.write_distributions(f)?;
        write!(f, "\n{}", self.summary)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solution(p: usize, q: usize) -> Solution {
        Solution {
            period: p,
            preperiod: q,
            outcome_period: p,
            outcome_preperiod: q,
            checked_len: 0,
        }
    }

    /// A wrong answer on a covered triple is a loud bug; a purely periodic uncovered one would be
    /// a counterexample to Conjecture 50, listed as a failure.
    #[test]
    fn failures_are_counted_listed_and_bugs_flagged() {
        let mut survey = Survey::default();
        // {3,8,13} is covered with p = 16, q = 0 (docs/subtraction.md, section 6): feed a wrong
        // period.
        survey.add(&Triple { a: 3, b: 8, c: 13 }.into(), &solution(17, 0));
        // {3,8,12} is uncovered: pretend it were purely periodic.
        survey.add(&Triple { a: 3, b: 8, c: 12 }.into(), &solution(5, 0));
        assert_eq!(survey.theorem_32.failed(), 1);
        assert_eq!(survey.conjecture_50.failed(), 1);
        assert_eq!(survey.bugs(), 1);
        let report = survey.to_string();
        assert!(report.contains("BUG in nimseq or in a proof"), "{report}");
        assert!(report.contains("{3,8,13}: p = 17, q = 0"), "{report}");
        assert!(report.contains("{3,8,12}: p = 5, q = 0"), "{report}");
    }

    /// A chunk taken in at once (its theory worked out on all cores) gives the same survey,
    /// failures listed in the same order, as its rows taken in one by one. The rows are random
    /// triples with periods drawn to reach every check, true or not (fresh seed each run,
    /// printed on failure; `NIMSEQ_SEED` repeats one).
    #[test]
    fn a_chunk_at_once_equals_its_rows_one_by_one() {
        use rand::{Rng, SeedableRng};
        let seed = crate::test_seed();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let (sets, solved): (Vec<MoveSet>, Vec<Solution>) = (0..20_000)
            .map(|_| {
                let c: u32 = rng.random_range(3..=300);
                let b = rng.random_range(2..c);
                let t = Triple {
                    a: rng.random_range(1..b),
                    b,
                    c,
                };
                let (a, b, c) = (t.a as usize, t.b as usize, t.c as usize);
                let p = match rng.random_range(0..4) {
                    0 => a + b,
                    1 => c + a,
                    2 => c + b,
                    _ => rng.random_range(1..4 * c),
                };
                let q = rng.random_range(0..3) * rng.random_range(0..2 * c);
                (MoveSet::from(t), solution(p, q))
            })
            .unzip();
        let (mut one_by_one, mut at_once) = (Survey::default(), Survey::default());
        for (set, s) in sets.iter().zip(&solved) {
            one_by_one.add(set, s);
        }
        at_once.add_chunk(&sets, &solved);
        assert!(at_once.theorem_32.failed() > 0 && at_once.conjecture_55.applied > 0);
        assert_eq!(
            serde_json::to_string(&at_once).unwrap(),
            serde_json::to_string(&one_by_one).unwrap(),
            "seed {seed}"
        );
    }
}
