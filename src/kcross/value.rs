//! One position in full, as `nimseq kcross value` shows it: its value, its components with
//! theirs, and every winning move.

use std::fmt;

use serde::Serialize;

use super::board::{Board, BoardError};
use super::components::components;
use super::memo::ComponentValues;
use super::reference;

/// What `nimseq kcross value` prints.
#[derive(Clone, Debug, Serialize)]
pub struct ValueReport {
    pub board: String,
    pub k: usize,
    pub value: u8,
    /// Run vectors and their values; empty for a ring (its components are cyclic).
    pub components: Vec<(Vec<u8>, u8)>,
    /// The boards after each move to a position of value 0.
    pub winning_moves: Vec<String>,
}

/// Solves `board` by the raw rules, refusing a board that holds a run of `k` or is too large for
/// them.
pub fn describe(board: &Board, k: usize) -> Result<ValueReport, BoardError> {
    board.check(k)?;
    if board.cells.len() > reference::MAX_CELLS {
        return Err(BoardError {
            input: board.to_string(),
            reason: format!(
                "{} cells; the raw-rules solver handles up to {} until the component engine lands",
                board.cells.len(),
                reference::MAX_CELLS
            ),
        });
    }
    let (value, winning) = reference::solve(board, k);
    let mut engine = ComponentValues::new(k);
    let parts = if board.circular {
        Vec::new()
    } else {
        components(board, k)
            .into_iter()
            .map(|v| {
                let g = engine.value(&v);
                (v, g)
            })
            .collect()
    };
    Ok(ValueReport {
        board: board.to_string(),
        k,
        value,
        components: parts,
        winning_moves: winning.iter().map(ToString::to_string).collect(),
    })
}

impl fmt::Display for ValueReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "board        {} (k = {})", self.board, self.k)?;
        writeln!(f, "value        {}", self.value)?;
        if !self.components.is_empty() {
            let parts: Vec<String> = self
                .components
                .iter()
                .map(|(v, g)| {
                    let runs: Vec<String> = v.iter().map(u8::to_string).collect();
                    format!("({}) = {g}", runs.join(","))
                })
                .collect();
            writeln!(f, "components   {}", parts.join(", "))?;
        }
        let winning = if self.winning_moves.is_empty() {
            "none (every move leads to a position of nonzero value)".to_string()
        } else {
            self.winning_moves.join(" ")
        };
        write!(f, "winning      {winning}")
    }
}
