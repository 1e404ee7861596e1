//! One tree in full, as `nimseq arrows value` shows it: n, m, g, the parity conjecture, and the
//! value of every first move.

use std::fmt;

use serde::Serialize;

use super::reference::{Reference, ReferenceError};
use super::tree::Tree;

/// One first move and the value of the position it leaves.
#[derive(Clone, Debug, Serialize)]
pub struct FirstMove {
    pub from: usize,
    pub to: usize,
    pub value: u8,
}

/// What `nimseq arrows value` prints.
#[derive(Clone, Debug, Serialize)]
pub struct ArrowsReport {
    pub tree: String,
    pub n: usize,
    pub m: usize,
    pub g: u8,
    /// Conjecture 1.1: g = 0 exactly when m is even.
    pub parity_conjecture_holds: bool,
    pub first_moves: Vec<FirstMove>,
}

/// Solves `tree` by the raw rules (memo within `budget` bytes).
pub fn describe(tree: &Tree, budget: u64) -> Result<ArrowsReport, ReferenceError> {
    let mut raw = Reference::new(tree, budget)?;
    let g = raw.value(0)?;
    let m = raw.markable().len();
    let mut first_moves = Vec::new();
    for (mv, next) in raw.moves(0) {
        first_moves.push(FirstMove {
            from: mv.from,
            to: mv.to,
            value: raw.value(next)?,
        });
    }
    Ok(ArrowsReport {
        tree: tree.to_string(),
        n: tree.n,
        m,
        g,
        parity_conjecture_holds: (g == 0) == (m % 2 == 0),
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
