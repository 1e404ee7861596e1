//! One position in full, as `nimseq kcross value` shows it: its value, its components with
//! theirs, and every winning move.

use std::fmt;

use serde::Serialize;

use super::board::Board;
use super::components::{components, to_board};
use super::sequences::Solver;
use super::table::TableError;

/// What `nimseq kcross value` prints.
#[derive(Clone, Debug, Serialize)]
pub struct ValueReport {
    pub board: String,
    pub k: usize,
    pub value: u8,
    /// Run vectors and their values; empty for a ring without a dead cell (one cyclic
    /// component).
    pub components: Vec<(Vec<u8>, u8)>,
    /// The boards after each move to a position of value 0.
    pub winning_moves: Vec<String>,
    /// How many moves the player to move has (JSON shows them as the options above).
    #[serde(skip)]
    pub moves: usize,
}

/// The board size a component table needs to value `board` and its options: its largest
/// component (cells and X's), or the whole ring while it is one cyclic component.
pub fn table_size(board: &Board, k: usize) -> usize {
    let n = board.cells.len();
    let cyclic = board.circular && !board.has_dead_cell(k);
    if cyclic {
        return n;
    }
    components(board, k)
        .iter()
        .map(|v| v.len() - 1 + v.iter().map(|&r| usize::from(r)).sum::<usize>())
        .max()
        .unwrap_or(0)
}

/// Values `board` and each of its options with `solver` (built for at least its size); the
/// board must hold no run of `k`.
pub fn describe(board: &Board, k: usize, solver: &mut Solver) -> Result<ValueReport, TableError> {
    let value = solver.value(board)?;
    let n = board.cells.len();
    let cyclic = board.circular && !board.has_dead_cell(k);
    let mut parts = Vec::new();
    if !cyclic {
        for v in components(board, k) {
            let g = solver.value(&to_board(&v))?;
            parts.push((v, g));
        }
    }
    let mut winning = Vec::new();
    let mut moves = 0;
    for i in (0..n).filter(|&i| board.is_live(i, k)) {
        moves += 1;
        let mut next = board.clone();
        next.cells[i] = true;
        if solver.value(&next)? == 0 {
            winning.push(next.to_string());
        }
    }
    Ok(ValueReport {
        board: board.to_string(),
        k,
        value,
        components: parts,
        winning_moves: winning,
        moves,
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
        let winning = if self.moves == 0 {
            "none: the player to move has no move, and loses".to_string()
        } else if self.winning_moves.is_empty() {
            "none (every move leads to a position of nonzero value)".to_string()
        } else {
            self.winning_moves.join(" ")
        };
        write!(f, "winning      {winning}")
    }
}
