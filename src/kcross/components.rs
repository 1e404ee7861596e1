//! Positions as sums of independent components (docs/kcross.md, "Why a table of
//! components works").
//!
//! A live empty cell is one an X may still go on: with `l` X's directly left and `r` directly
//! right it is live iff `l + 1 + r < k`. Dead cells never revive, and nothing crosses them, so a
//! position is the sum of the stretches between dead cells and walls. A stretch with `E` live
//! cells is the run vector `(r_0, ..., r_E)`: cell `i` (1-based) sits between runs `r_(i-1)` and
//! `r_i`. Its value depends on the vector alone, and reversing the vector keeps it.

use super::board::Board;

/// A component: the runs around its live cells, `runs.len() = live cells + 1`.
pub type RunVector = Vec<u8>;

/// The components of a strip (every empty cell is live or dead; a ring is cut at a dead cell
/// first). Runs on the walls' side of the outermost live cells count: a run touching a wall stays
/// in the vector as `r_0` or `r_E`.
///
/// # Panics
/// On a ring without a dead cell (that is a cyclic component, not a sum of strips), or a run
/// longer than 255.
pub fn components(board: &Board, k: usize) -> Vec<RunVector> {
    let n = board.cells.len();
    let x = |i: usize| board.cells[i];
    let live = |i: usize| board.is_live(i, k);
    // Cut a ring at its first dead empty cell; a strip at its walls.
    let order: Vec<usize> = if board.circular {
        let cut = (0..n)
            .find(|&i| !x(i) && !live(i))
            .expect("a ring with a dead cell");
        (cut + 1..cut + n).map(|i| i % n).collect()
    } else {
        (0..n).collect()
    };
    let mut out = Vec::new();
    let mut runs: RunVector = vec![0];
    for &i in &order {
        if x(i) {
            let last = runs.last_mut().expect("never empty");
            *last = last.checked_add(1).expect("runs up to 255");
        } else if live(i) {
            runs.push(0);
        } else {
            // A dead cell ends the component (if it has a live cell).
            if runs.len() > 1 {
                out.push(std::mem::replace(&mut runs, vec![0]));
            } else {
                runs = vec![0];
            }
        }
    }
    if runs.len() > 1 {
        out.push(runs);
    }
    out
}

/// The components left after filling live cell `i` (1-based) of `v`. Its runs merge into
/// `r_(i-1) + 1 + r_i`; a neighbouring cell dies when the merged run and the run beyond it leave
/// no room (`sum + 1 >= k`), and each dead cell splits the vector. Parts without a live cell go.
pub fn options(v: &[u8], k: usize, i: usize) -> Vec<RunVector> {
    let e = v.len() - 1;
    debug_assert!((1..=e).contains(&i));
    let merged = v[i - 1] + 1 + v[i];
    // The vector with cell i gone: cells 1..i-1 as before, then old cells i+1..e.
    let mut w: RunVector = Vec::with_capacity(e);
    w.extend_from_slice(&v[..i - 1]);
    w.push(merged);
    w.extend_from_slice(&v[i + 1..]);
    let room = |x: u8, y: u8| usize::from(x) + 1 + usize::from(y) < k;
    // Cells of w (1-based) next to the merged run that die: old i-1 is w's i-1, old i+1 is w's i.
    let left_dies = i >= 2 && !room(w[i - 2], merged);
    let right_dies = i < e && !room(merged, w[i]);
    let mut cuts = Vec::new();
    if left_dies {
        cuts.push(i - 1);
    }
    if right_dies {
        cuts.push(i);
    }
    // Split w at the dead cells: a cell c sits between w[c-1] and w[c].
    let mut parts = Vec::new();
    let mut start = 0;
    for &c in &cuts {
        parts.push(w[start..c].to_vec());
        start = c;
    }
    parts.push(w[start..].to_vec());
    parts.retain(|p| p.len() >= 2);
    parts
}

/// The strip whose only component is `v`: its runs with one empty cell between each two.
pub fn to_board(v: &[u8]) -> Board {
    let mut cells = Vec::new();
    for (j, &r) in v.iter().enumerate() {
        if j > 0 {
            cells.push(false);
        }
        cells.extend(std::iter::repeat_n(true, usize::from(r)));
    }
    Board {
        cells,
        circular: false,
    }
}

/// The representative of `v` and its reversal: both have the same value.
pub fn canonical(mut v: RunVector) -> RunVector {
    let reversed: RunVector = v.iter().rev().copied().collect();
    if reversed < v {
        v = reversed;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_split_into_run_vectors() {
        let b = |s: &str| s.parse::<Board>().unwrap();
        assert_eq!(components(&b("[4]"), 3), vec![vec![0, 0, 0, 0, 0]]);
        // [aXb] is (0^a, 1, 0^b) for k >= 3 (docs/kcross.md).
        assert_eq!(components(&b("[2X3]"), 3), vec![vec![0, 0, 1, 0, 0, 0]]);
        // k = 2: the cells next to an X are dead.
        assert_eq!(components(&b("[2X3]"), 2), vec![vec![0, 0], vec![0, 0, 0]]);
        // [X2XX5], k = 3: the cell right of XX is dead; the cell left of it too (1 + 1 + 2).
        assert_eq!(
            components(&b("[X2XX5]"), 3),
            vec![vec![1, 0], vec![0, 0, 0, 0, 0]]
        );
    }

    #[test]
    fn options_merge_and_split() {
        // [3] with k = 3: the middle cell gives (0,1,0) = [1X1], still one component.
        assert_eq!(options(&[0, 0, 0, 0], 3, 2), vec![vec![0, 1, 0]]);
        // k = 2: both neighbours die, [1] and [1] remain... as (0,0) twice.
        assert_eq!(
            options(&[0, 0, 0, 0, 0, 0], 2, 3),
            vec![vec![0, 0], vec![0, 0]]
        );
        // k = 3, (0,1,0): filling either cell makes XX against the wall-side neighbour's run.
        assert_eq!(options(&[0, 1, 0], 3, 1), vec![] as Vec<RunVector>);
        // An end cell: (0,0,0) with k = 3, fill cell 1 -> (1,0) = [X1].
        assert_eq!(options(&[0, 0, 0], 3, 1), vec![vec![1, 0]]);
    }
}
