//! Boards in the paper's notation: `[3X4]`, `[X2XX5]`, `[7]` for strips, `(21)` for rings.

use std::fmt;
use std::str::FromStr;

/// A strip (walls at both ends) or a ring of cells, each empty or holding an X.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// `true` where an X stands, left to right (clockwise on a ring).
    pub cells: Vec<bool>,
    pub circular: bool,
}

/// Why a board was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid board '{input}': {reason}")]
pub struct BoardError {
    pub input: String,
    pub reason: String,
}

/// Longest board the notation accepts, in cells: valuing a board looks at every move, and each
/// option's components, so the work grows as the square of its length (a second here).
pub const MAX_CELLS: usize = 1 << 12;

/// `k` as users type it: runs of this length are forbidden, `2 <= k <= 64` (3 is Inverse
/// Treblecross).
pub fn parse_k(s: &str) -> Result<u32, String> {
    let k: u32 = s
        .parse()
        .map_err(|_| format!("expected a whole number, got '{s}'"))?;
    if !(2..=64).contains(&k) {
        return Err(format!("k = {k}: k must be between 2 and 64"));
    }
    Ok(k)
}

impl FromStr for Board {
    type Err = BoardError;

    /// `[`...`]` is a strip, `(`...`)` a ring; inside, `X` is an X and a number is that many
    /// empty cells.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| BoardError {
            input: s.to_string(),
            reason,
        };
        let t = s.trim();
        let (circular, body) = if let Some(body) = t.strip_prefix('[') {
            let body = body
                .strip_suffix(']')
                .ok_or_else(|| err("a strip starts with '[' and ends with ']'".into()))?;
            (false, body)
        } else if let Some(body) = t.strip_prefix('(') {
            let body = body
                .strip_suffix(')')
                .ok_or_else(|| err("a ring starts with '(' and ends with ')'".into()))?;
            (true, body)
        } else {
            return Err(err(
                "expected '[' (a strip) or '(' (a ring) first, e.g. [3X4] or (21)".into(),
            ));
        };
        let mut cells = Vec::new();
        let mut chars = body.chars().peekable();
        while let Some(&ch) = chars.peek() {
            if ch == 'X' || ch == 'x' {
                if cells.len() == MAX_CELLS {
                    return Err(err(format!("more than {MAX_CELLS} cells")));
                }
                cells.push(true);
                chars.next();
            } else if ch.is_ascii_digit() {
                let mut digits = String::new();
                while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(d);
                    chars.next();
                }
                let n: usize = digits
                    .parse()
                    .ok()
                    .filter(|&n| cells.len() + n <= MAX_CELLS)
                    .ok_or_else(|| err(format!("more than {MAX_CELLS} cells")))?;
                cells.extend(std::iter::repeat_n(false, n));
            } else {
                return Err(err(format!(
                    "unexpected '{ch}': only X and numbers of empty cells go between the ends"
                )));
            }
        }
        Ok(Board { cells, circular })
    }
}

impl Board {
    /// The empty strip `[n]`.
    pub fn strip(n: usize) -> Self {
        Board {
            cells: vec![false; n],
            circular: false,
        }
    }

    /// The empty ring `(l)`.
    pub fn ring(l: usize) -> Self {
        Board {
            cells: vec![false; l],
            circular: true,
        }
    }

    /// The longest run of X's (on a ring, runs wrap around; a full ring is one run of its size).
    pub fn longest_run(&self) -> usize {
        let n = self.cells.len();
        if self.circular && n > 0 && self.cells.iter().all(|&x| x) {
            return n;
        }
        let laps = if self.circular { 2 } else { 1 };
        let (mut best, mut run) = (0, 0);
        for i in 0..n * laps {
            run = if self.cells[i % n] { run + 1 } else { 0 };
            best = best.max(run.min(n));
        }
        best
    }

    /// Whether an X may go on cell `i`: it is empty and the run through it stays below `k`.
    /// On a ring the last empty cell closes a run of the whole ring.
    pub fn is_live(&self, i: usize, k: usize) -> bool {
        let n = self.cells.len();
        if self.cells[i] {
            return false;
        }
        let x = |j: usize| self.cells[j % n];
        // Looked for only on rings, and it stops at the first other empty cell: counting every
        // cell here made the components of a long board quadratic in its length.
        if self.circular && !self.cells.iter().enumerate().any(|(j, &c)| j != i && !c) {
            return n < k;
        }
        // Some other cell is empty, so neither count can wrap past cell i on a ring.
        let left = (1..n)
            .take_while(|&d| (self.circular || d <= i) && x(i + n - d))
            .count();
        let right = (1..n)
            .take_while(|&d| (self.circular || i + d < n) && x(i + d))
            .count();
        left + 1 + right < k
    }

    /// Whether some empty cell is dead (no X may ever go there). A ring without one is a
    /// single cyclic component; any other position is a sum of run vectors.
    pub fn has_dead_cell(&self, k: usize) -> bool {
        (0..self.cells.len()).any(|i| !self.cells[i] && !self.is_live(i, k))
    }

    /// Refuses a board that already holds a run of `k`: no game position looks like that.
    pub fn check(&self, k: usize) -> Result<(), BoardError> {
        let run = self.longest_run();
        if run >= k {
            return Err(BoardError {
                input: self.to_string(),
                reason: format!("it already holds a run of {run} X's, and k = {k}"),
            });
        }
        Ok(())
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (open, close) = if self.circular {
            ('(', ')')
        } else {
            ('[', ']')
        };
        write!(f, "{open}")?;
        let mut empty = 0;
        for &x in &self.cells {
            if x {
                if empty > 0 {
                    write!(f, "{empty}")?;
                    empty = 0;
                }
                write!(f, "X")?;
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            write!(f, "{empty}")?;
        }
        write!(f, "{close}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_papers_notation() {
        for text in ["[7]", "[3X4]", "[X2XX5]", "(21)", "[]", "[XX]"] {
            let board: Board = text.parse().unwrap();
            assert_eq!(board.to_string(), text);
        }
        let b: Board = "[X2XX5]".parse().unwrap();
        assert_eq!(b.cells.len(), 10);
        assert_eq!(b.longest_run(), 2);
        assert!(b.check(3).is_ok());
        assert!(b.check(2).unwrap_err().to_string().contains("run of 2"));
    }

    #[test]
    fn rejects_malformed_boards() {
        for (text, part) in [
            ("[3X", "ends with ']'"),
            ("[2Y4]", "unexpected 'Y'"),
            ("[X-1]", "unexpected '-'"),
            ("3X4", "expected '['"),
            ("(5", "ends with ')'"),
        ] {
            let e = text.parse::<Board>().unwrap_err().to_string();
            assert!(e.contains(part), "{text}: {e}");
        }
    }

    #[test]
    fn ring_runs_wrap() {
        let b: Board = "(X3X)".parse().unwrap();
        assert_eq!(b.longest_run(), 2);
        let full: Board = "(XXX)".parse().unwrap();
        assert_eq!(full.longest_run(), 3);
    }
}
