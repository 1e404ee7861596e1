//! One tree in full, as `nimseq arrows value` shows it: n, m, g, its pieces, the parity
//! conjecture, and the value of every first move.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;

use indicatif::ProgressBar;
use serde::Serialize;

use super::forest::{Canonical, Forest, NormalForm};
use super::one_spider::{SpiderWork, Stopped, spider_and_first_moves};
use super::reference::{Reference, ReferenceError};
use super::spider::{SpiderTable, fits_slots};
use super::tree::Tree;
use crate::memory::{Budget, OverBudget};
use crate::output::progress_bar;

/// One first move and the value of the position it leaves.
#[derive(Clone, Debug, Serialize)]
pub struct FirstMove {
    pub from: usize,
    pub to: usize,
    pub value: u32,
}

/// A piece of the tree (a component of the empty position): its canonical form, markable
/// edges and value.
#[derive(Clone, Debug, Serialize)]
pub struct Piece {
    pub canonical: Canonical,
    pub edges: usize,
    pub value: u32,
}

/// What `nimseq arrows value` prints.
#[derive(Clone, Debug, Serialize)]
pub struct ArrowsReport {
    pub tree: String,
    /// Which solver valued it.
    pub solver: &'static str,
    pub n: usize,
    pub m: usize,
    pub g: u32,
    /// Conjecture 1.1: g = 0 exactly when m is even.
    pub parity_conjecture_holds: bool,
    /// Empty with the raw rules, which do not split the tree.
    pub pieces: Vec<Piece>,
    pub first_moves: Vec<FirstMove>,
}

/// Which solver values the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solver {
    /// The raw rules (memo within a budget).
    Reference { budget: Budget },
    /// The normal form with a memo of canonical components (within a budget).
    NormalForm { budget: Budget },
    /// Spider states (Proposition 6.1) in a table with one slot per leg: polynomial in the
    /// legs where the normal form is exponential. The tree must be a spider
    /// ([`Tree::spider_legs`]) that [`super::spider::fits_slots`] accepts.
    SpiderStates,
}

impl Solver {
    /// The solver for `tree`: the raw rules when `reference`, else spider states for a spider
    /// whose table fits, else the normal form; each within `budget` (a spider's table is
    /// refused before it is allocated).
    pub fn for_tree(tree: &Tree, reference: bool, budget: Budget) -> Result<Self, OverBudget> {
        if reference {
            return Ok(Solver::Reference { budget });
        }
        let legs = tree.spider_legs().map(|legs| Tree::leg_lengths(&legs));
        match legs {
            Some(lengths) if fits_slots(&lengths) => {
                budget.check(SpiderTable::slot_bytes(&lengths), || {
                    format!("the state table of {tree}")
                })?;
                Ok(Solver::SpiderStates)
            }
            _ => Ok(Solver::NormalForm { budget }),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Solver::Reference { .. } => "raw rules",
            Solver::NormalForm { .. } => "normal form",
            Solver::SpiderStates => "spider states",
        }
    }
}

/// Values `tree` and its first moves with `solver`. Once `stop` is set the search ends soon
/// with [`ReferenceError::Interrupted`]; spider states count on `bar` the option values read,
/// of [`SpiderWork::options`] known up front.
pub fn describe(
    tree: &Tree,
    solver: Solver,
    stop: Option<&AtomicBool>,
    bar: &ProgressBar,
) -> Result<ArrowsReport, ReferenceError> {
    let m = tree.markable().len();
    let stopped = || stop.is_some_and(|s| s.load(Relaxed));
    let (g, pieces, first_moves) = match solver {
        Solver::Reference { budget } => {
            let mut raw = Reference::new(tree, budget)?.stop_on(stop);
            let g = u32::from(raw.value(0)?);
            let mut first = Vec::new();
            for (mv, next) in raw.moves(0) {
                first.push(FirstMove {
                    from: mv.from,
                    to: mv.to,
                    value: u32::from(raw.value(next)?),
                });
            }
            (g, Vec::new(), first)
        }
        Solver::NormalForm { budget } => {
            let mut nf = NormalForm::within(budget);
            let empty = Forest::of_tree(tree);
            let (pieces, first) = halting(stop, nf.halter(), || {
                let pieces: Vec<Piece> = empty
                    .components()
                    .iter()
                    .map(|c| Piece {
                        canonical: c.canonical(),
                        edges: c.edges.len(),
                        value: nf.value(c),
                    })
                    .collect();
                let first = first_moves(&empty, |e, from, to| nf.value(&empty.play(e, from, to)));
                (pieces, first)
            });
            if stopped() {
                return Err(ReferenceError::Interrupted);
            }
            if nf.over_budget() {
                return Err(ReferenceError::MemoOverBudget {
                    tree: tree.to_string(),
                    components: nf.len(),
                    budget: budget.bytes(),
                });
            }
            let g = pieces.iter().fold(0, |acc, p| acc ^ p.value);
            (g, pieces, first)
        }
        Solver::SpiderStates => {
            let legs = tree.spider_legs().expect("a spider");
            let lengths = Tree::leg_lengths(&legs);
            let work = SpiderWork::of(&lengths);
            log::info!(
                "spider states: {} states, {} option values to read",
                work.states,
                work.options
            );
            bar.set_length(work.options);
            let (g, options) = spider_and_first_moves(&lengths, stop, |read| bar.inc(read))
                .map_err(|Stopped| ReferenceError::Interrupted)?;
            // Each leg move as the edge it orients, listed in the normal form's order.
            let by_edge: HashMap<(usize, usize), u32> = options
                .into_iter()
                .map(|(mv, value)| {
                    let path = &legs[mv.slot];
                    let (near, far) = (path[mv.edge - 1], path[mv.edge]);
                    let arc = if mv.out { (near, far) } else { (far, near) };
                    (arc, u32::from(value))
                })
                .collect();
            let empty = Forest::of_tree(tree);
            let first = first_moves(&empty, |_, from, to| by_edge[&(from, to)]);
            // A spider with no leaf at its centre is one piece.
            let pieces = vec![Piece {
                canonical: empty.canonical(),
                edges: empty.edges.len(),
                value: u32::from(g),
            }];
            (u32::from(g), pieces, first)
        }
    };
    Ok(ArrowsReport {
        tree: tree.to_string(),
        solver: solver.name(),
        n: tree.n,
        m,
        g,
        parity_conjecture_holds: (g == 0) == m.is_multiple_of(2),
        pieces,
        first_moves,
    })
}

/// [`describe`] with a progress bar on stderr (drawn on a terminal only, and only by spider
/// states), cleared when it ends: how the command line and the Python binding call it.
pub fn describe_with_bar(
    tree: &Tree,
    solver: Solver,
    stop: Option<&AtomicBool>,
) -> Result<ArrowsReport, ReferenceError> {
    let bar = progress_bar(0, "option values");
    let report = describe(tree, solver, stop, &bar);
    bar.finish_and_clear();
    report
}

/// How often a watch on a normal-form search looks at its stop flag.
const STOP_POLL: Duration = Duration::from_millis(10);

/// Runs `work`, calling `halt` from a watching thread if `stop` is set meanwhile.
fn halting<T>(stop: Option<&AtomicBool>, halt: impl Fn() + Send, work: impl FnOnce() -> T) -> T {
    let Some(stop) = stop else {
        return work();
    };
    let done = &AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watch = scope.spawn(move || {
            while !done.load(Relaxed) {
                if stop.load(Relaxed) {
                    halt();
                    return;
                }
                std::thread::park_timeout(STOP_POLL);
            }
        });
        let out = work();
        done.store(true, Relaxed);
        watch.thread().unpark();
        out
    })
}

/// Every legal first move from `empty` with `value(edge, from, to)` of the position it leaves.
fn first_moves(
    empty: &Forest,
    mut value: impl FnMut(usize, usize, usize) -> u32,
) -> Vec<FirstMove> {
    empty
        .moves()
        .into_iter()
        .map(|(e, from, to)| FirstMove {
            from,
            to,
            value: value(e, from, to),
        })
        .collect()
}

impl fmt::Display for ArrowsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "tree         {}", self.tree)?;
        writeln!(f, "solver       {}", self.solver)?;
        writeln!(f, "vertices     {}", self.n)?;
        writeln!(f, "markable     {}", self.m)?;
        writeln!(f, "value        {}", self.g)?;
        let pc = if self.parity_conjecture_holds {
            "holds"
        } else {
            "FAILS (g = 0 and m odd, or g != 0 and m even)"
        };
        writeln!(f, "parity conj. {pc}")?;
        for p in &self.pieces {
            writeln!(
                f,
                "piece        {} edges, value {}: {}",
                p.edges, p.value, p.canonical
            )?;
        }
        let moves: Vec<String> = self
            .first_moves
            .iter()
            .map(|mv| format!("{}->{}={}", mv.from, mv.to, mv.value))
            .collect();
        writeln!(f, "first moves  {}", moves.join(" "))?;
        let winning: Vec<String> = self
            .first_moves
            .iter()
            .filter(|mv| mv.value == 0)
            .map(|mv| format!("{}->{}", mv.from, mv.to))
            .collect();
        let winning = if self.first_moves.is_empty() {
            "none: the player to move has no move, and loses".to_string()
        } else if winning.is_empty() {
            "none".to_string()
        } else {
            winning.join(" ")
        };
        write!(f, "winning      {winning}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A memo over its budget is an error, not a value: the run stops soon after it passes.
    #[test]
    fn normal_form_stops_at_its_budget() {
        let tree: Tree = "H:2,3/4/3,4".parse().unwrap();
        let err = describe(
            &tree,
            Solver::NormalForm {
                budget: Budget::new(1024),
            },
            None,
            &ProgressBar::hidden(),
        )
        .unwrap_err();
        assert!(
            matches!(err, ReferenceError::MemoOverBudget { components, .. } if components < 672),
            "{err}"
        );
        let full = describe(
            &tree,
            Solver::NormalForm {
                budget: Budget::UNLIMITED,
            },
            None,
            &ProgressBar::hidden(),
        )
        .unwrap();
        assert_eq!(full.g, 0);
    }

    /// Spider states and the normal form give the same report (value, piece, every first
    /// move in the same order) on 3-leg spiders with legs <= 6 and some 4- and 5-leg ones;
    /// the published first-move values on S(1,3,7) (docs/arrows.md, published values).
    #[test]
    fn spider_states_report_equals_the_normal_form() {
        let mut spiders: Vec<Vec<usize>> = Vec::new();
        for x in 1..=6 {
            for y in x..=6 {
                for z in y..=6 {
                    spiders.push(vec![x, y, z]);
                    spiders.push(vec![z, x, y]);
                }
            }
        }
        spiders.extend([vec![1, 2, 3, 4], vec![3, 1, 2, 2], vec![2, 1, 1, 3, 1]]);
        for legs in spiders {
            let tree = Tree::spider(&legs).unwrap();
            let nf = describe(
                &tree,
                Solver::NormalForm {
                    budget: Budget::UNLIMITED,
                },
                None,
                &ProgressBar::hidden(),
            )
            .unwrap();
            let ss = describe(&tree, Solver::SpiderStates, None, &ProgressBar::hidden()).unwrap();
            let values = |r: &ArrowsReport| {
                let moves: Vec<_> = r
                    .first_moves
                    .iter()
                    .map(|m| (m.from, m.to, m.value))
                    .collect();
                let pieces: Vec<_> = r.pieces.iter().map(|p| (p.edges, p.value)).collect();
                (r.g, pieces, moves)
            };
            assert_eq!(values(&ss), values(&nf), "S{legs:?}");
        }
        // Legs X, Y, Z (1, 3, 7 markable edges); `out` and `in` have equal values.
        let tree = Tree::spider(&[1, 3, 7]).unwrap();
        let report = describe(&tree, Solver::SpiderStates, None, &ProgressBar::hidden()).unwrap();
        let out: Vec<u32> = report
            .first_moves
            .iter()
            .filter(|m| m.from < m.to)
            .map(|m| m.value)
            .collect();
        assert_eq!(out, [2, 2, 6, 6, 6, 6, 6, 4, 6, 4, 8]);
        assert!(
            report
                .first_moves
                .chunks(2)
                .all(|p| p[0].value == p[1].value)
        );
    }
}
