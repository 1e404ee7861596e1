//! Every set of a scan under misère play (`nimseq sub survey --play misere`): how the misère
//! periods compare with the normal-play ones (docs/misere.md, "Every set: sub survey --play
//! misere").
//!
//! Each set is solved in normal play by the fast path, and its values are checked over one
//! period past the window for the condition that makes every heap a nim heap under misère play
//! (each heap with a move has an option of value 0 or 1). Where it holds, the misère values are
//! the normal ones with 0 and 1 exchanged, so their least period and pre-period are the normal
//! ones, and the misère P-positions are the heaps of value 1. Where it fails the set's genera
//! are computed and certified from the rules ([`Genera`]). Both ways are exact. (It never
//! fails: docs/misere.md, Theorem 6; the survey checks it rather than assume it.)

use std::fmt;

use rayon::prelude::*;
use serde::Serialize;

use super::fast::FastSolver;
use super::misere::{Genera, MisereError};
use super::moveset::SetFilter;
use super::ruleset::Ruleset;
use crate::output::progress_bar;
use crate::period::{Period, certify};

/// Sets solved per parallel batch: a progress step, and the sets held at once.
const BATCH: usize = 1 << 14;

/// Examples kept of each kind.
const EXAMPLES: usize = 10;

/// One set's periods under both plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BothPlays {
    pub normal: Period,
    pub normal_outcomes: Period,
    pub misere: Period,
    pub misere_outcomes: Period,
    /// Every heap is a nim heap under misère play (checked, see the module docs).
    pub nim_heaps: bool,
    /// Whether the misère P-positions are the normal ones moved up by the least move (checked
    /// where every heap is a nim heap; `None` elsewhere).
    pub moved_up: Option<bool>,
}

/// A set neither play certified within the length limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsettled;

/// Both plays' periods of `set`, looking at no more than `max_len` values of either.
pub fn both_plays(
    solver: &mut FastSolver,
    set: &Ruleset,
    max_len: usize,
) -> Result<Result<BothPlays, Unsettled>, MisereError> {
    let Ok(s) = solver.solve(set, max_len) else {
        return Ok(Err(Unsettled));
    };
    let normal = Period {
        period: s.period,
        preperiod: s.preperiod,
    };
    let normal_outcomes = Period {
        period: s.outcome_period,
        preperiod: s.outcome_preperiod,
    };
    let (a, c) = (set.min_move() as usize, set.max_move() as usize);
    // Past q + p + c each heap's options repeat those p earlier, and so does each relation
    // checked below; a more for the shifted comparison.
    let n = s.preperiod + s.period + c + a;
    solver.extend(n);
    let g: Vec<u32> = (0..n).map(|x| solver.planes().value(x)).collect();
    let nim_heaps = (a..n).all(|x| {
        set.moves()
            .iter()
            .any(|&m| m as usize <= x && g[x - m as usize] <= 1)
    });
    let (misere, misere_outcomes, moved_up) = if nim_heaps {
        // The misère values are the normal ones with 0 and 1 exchanged: the same periods, and
        // the misère P-positions are the heaps of value 1.
        let p_positions: Vec<bool> = g.iter().map(|&v| v == 1).collect();
        let outcomes = certify(&p_positions[..], c, [s.period], false)
            .expect("the values' window proves their period for the outcomes");
        // Both sequences repeat with period p past q + a, so [0, n) shows the whole relation.
        let moved_up = (0..n).all(|x| p_positions[x] == (x >= a && g[x - a] == 0));
        (normal, outcomes, Some(moved_up))
    } else {
        let (Some(proof), _) = Genera::new(set).certify(max_len)? else {
            return Ok(Err(Unsettled));
        };
        let misere = Period {
            period: proof.misere_period,
            preperiod: proof.misere_preperiod,
        };
        let outcomes = Period {
            period: proof.outcome_period,
            preperiod: proof.outcome_preperiod,
        };
        (misere, outcomes, None)
    };
    Ok(Ok(BothPlays {
        normal,
        normal_outcomes,
        misere,
        misere_outcomes,
        nim_heaps,
        moved_up,
    }))
}

/// What `nimseq sub survey --play misere` reports.
#[derive(Clone, Debug, Default, Serialize)]
pub struct MisereSurvey {
    /// Moves per set and the largest move.
    pub moves: usize,
    pub c_max: u32,
    pub sets: u64,
    /// Sets with no period certified in either play within the limit.
    pub unsettled: u64,
    /// Sets every heap of which is a nim heap under misère play.
    pub nim_heaps: u64,
    /// Sets whose misère values' period or pre-period differ from the normal ones.
    pub period_differs: u64,
    /// Sets whose misère P-positions' least period differs from the normal ones'.
    pub outcome_period_differs: u64,
    /// Sets whose misère P-positions' pre-period differs from the normal ones'.
    pub outcome_preperiod_differs: u64,
    /// Sets whose misère P-positions are the normal ones moved up by the least move (among
    /// those whose heaps are all nim heaps).
    pub moved_up: u64,
    /// Examples (up to ten each): sets with a heap that is no nim heap, sets whose misère
    /// periods differ, sets whose outcome periods differ, sets whose P-positions do not move
    /// up, sets left unsettled.
    pub not_nim_heaps: Vec<String>,
    pub period_examples: Vec<String>,
    pub outcome_examples: Vec<String>,
    pub not_moved_up: Vec<String>,
    pub unsettled_examples: Vec<String>,
}

impl MisereSurvey {
    fn add(&mut self, set: &Ruleset, r: &Result<BothPlays, Unsettled>) {
        self.sets += 1;
        let keep = |list: &mut Vec<String>, line: String| {
            if list.len() < EXAMPLES {
                list.push(line);
            }
        };
        let r = match r {
            Ok(r) => r,
            Err(Unsettled) => {
                self.unsettled += 1;
                keep(&mut self.unsettled_examples, set.to_string());
                return;
            }
        };
        let pq = |p: &Period| format!("{}/{}", p.period, p.preperiod);
        if r.nim_heaps {
            self.nim_heaps += 1;
        } else {
            keep(&mut self.not_nim_heaps, set.to_string());
        }
        if r.misere != r.normal {
            self.period_differs += 1;
            let line = format!("{set}: normal {}, misère {}", pq(&r.normal), pq(&r.misere));
            keep(&mut self.period_examples, line);
        }
        if r.misere_outcomes.preperiod != r.normal_outcomes.preperiod {
            self.outcome_preperiod_differs += 1;
        }
        if r.misere_outcomes.period != r.normal_outcomes.period {
            self.outcome_period_differs += 1;
            let line = format!(
                "{set}: normal {}, misère {}",
                pq(&r.normal_outcomes),
                pq(&r.misere_outcomes)
            );
            keep(&mut self.outcome_examples, line);
        }
        match r.moved_up {
            Some(true) => self.moved_up += 1,
            Some(false) => keep(&mut self.not_moved_up, set.to_string()),
            None => {}
        }
    }
}

/// Surveys every set of `filter`, each looked at up to `max_len` values, in parallel, with a
/// progress bar on stderr.
pub fn survey(filter: &SetFilter, max_len: usize) -> Result<MisereSurvey, MisereError> {
    let mut report = MisereSurvey {
        moves: filter.moves,
        c_max: filter.c_max,
        ..MisereSurvey::default()
    };
    let bar = progress_bar(filter.count().unwrap_or(0), "sets");
    let mut sets = filter.sets().map(|s| s.ruleset()).peekable();
    while sets.peek().is_some() {
        let batch: Vec<Ruleset> = sets.by_ref().take(BATCH).collect();
        let solved: Vec<_> = batch
            .par_iter()
            .map_init(FastSolver::default, |solver, set| {
                both_plays(solver, set, max_len)
            })
            .collect::<Result<_, _>>()?;
        for (set, r) in batch.iter().zip(&solved) {
            report.add(set, r);
        }
        bar.inc(batch.len() as u64);
    }
    bar.finish_and_clear();
    Ok(report)
}

impl fmt::Display for MisereSurvey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[String]| {
            if v.is_empty() {
                String::new()
            } else {
                format!(": {}", v.join("; "))
            }
        };
        writeln!(
            f,
            "sets                       {} ({} moves, largest move <= {}), under misère and normal play",
            self.sets, self.moves, self.c_max
        )?;
        writeln!(
            f,
            "every heap a nim heap      {} of {}{}",
            self.nim_heaps,
            self.sets - self.unsettled,
            list(&self.not_nim_heaps)
        )?;
        writeln!(
            f,
            "misère period differs      {}{}",
            self.period_differs,
            list(&self.period_examples)
        )?;
        writeln!(
            f,
            "outcome period differs     {} (misère P-positions against normal ones){}",
            self.outcome_period_differs,
            list(&self.outcome_examples)
        )?;
        writeln!(
            f,
            "outcome pre-period differs {}",
            self.outcome_preperiod_differs
        )?;
        writeln!(
            f,
            "P-positions moved up by a  {} of {} (misère P = normal P + least move){}",
            self.moved_up,
            self.nim_heaps,
            list(&self.not_moved_up)
        )?;
        write!(
            f,
            "unsettled                  {}{}",
            self.unsettled,
            list(&self.unsettled_examples)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subtraction::misere::Genera;

    /// Both ways to the misère periods agree: for sets where every heap is a nim heap, the
    /// periods derived from the normal values equal those of the genera themselves.
    #[test]
    fn derived_periods_equal_the_genera() {
        let filter = SetFilter::up_to(24);
        let mut solver = FastSolver::default();
        let mut checked = 0;
        for set in filter.sets().map(|s| s.ruleset()).step_by(37) {
            let r = both_plays(&mut solver, &set, 1 << 20).unwrap().unwrap();
            let (proof, _) = Genera::new(&set).certify(1 << 20).unwrap();
            let proof = proof.unwrap();
            assert_eq!(
                (r.misere.period, r.misere.preperiod),
                (proof.misere_period, proof.misere_preperiod),
                "{set}"
            );
            assert_eq!(
                (r.misere_outcomes.period, r.misere_outcomes.preperiod),
                (proof.outcome_period, proof.outcome_preperiod),
                "{set}"
            );
            checked += 1;
        }
        assert!(checked > 40, "{checked}");
    }

    #[test]
    fn survey_of_small_triples() {
        let s = survey(&SetFilter::up_to(12), 1 << 20).unwrap();
        assert_eq!(s.sets, 220);
        assert_eq!(s.unsettled, 0);
        assert_eq!(s.nim_heaps + s.not_nim_heaps.len() as u64, 220);
    }
}
