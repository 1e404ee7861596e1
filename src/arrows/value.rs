//! One tree in full, as `nimseq arrows value` shows it: n, m, g, its pieces, the parity
//! conjecture, and the value of every first move.

use std::fmt;

use serde::Serialize;

use super::forest::{Canonical, Forest, NormalForm};
use super::reference::{Reference, ReferenceError};
use super::tree::Tree;

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
    /// The raw rules (memo within a budget in bytes).
    Reference { budget: u64 },
    /// The normal form with a memo of canonical components.
    NormalForm,
}

/// Values `tree` and its first moves with `solver`.
pub fn describe(tree: &Tree, solver: Solver) -> Result<ArrowsReport, ReferenceError> {
    let m = tree.markable().len();
    let (g, pieces, first_moves) = match solver {
        Solver::Reference { budget } => {
            let mut raw = Reference::new(tree, budget)?;
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
        Solver::NormalForm => {
            let mut nf = NormalForm::default();
            let empty = Forest::of_tree(tree);
            let pieces: Vec<Piece> = empty
                .components()
                .iter()
                .map(|c| Piece {
                    canonical: c.canonical(),
                    edges: c.edges.len(),
                    value: nf.value(c),
                })
                .collect();
            let g = pieces.iter().fold(0, |acc, p| acc ^ p.value);
            let first = empty
                .moves()
                .into_iter()
                .map(|(e, from, to)| FirstMove {
                    from,
                    to,
                    value: nf.value(&empty.play(e, from, to)),
                })
                .collect();
            (g, pieces, first)
        }
    };
    Ok(ArrowsReport {
        tree: tree.to_string(),
        n: tree.n,
        m,
        g,
        parity_conjecture_holds: (g == 0) == m.is_multiple_of(2),
        pieces,
        first_moves,
    })
}

impl fmt::Display for ArrowsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "tree         {}", self.tree)?;
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
        let winning = if winning.is_empty() {
            "none".to_string()
        } else {
            winning.join(" ")
        };
        write!(f, "winning      {winning}")
    }
}
