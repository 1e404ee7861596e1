//! A position of several heaps of one heap game (`sub value`, `octal value`): by the
//! Sprague-Grundy theorem a sum of games is a P-position (the player to move loses) exactly
//! when the xor of its parts' values, the nim-sum, is 0, and a winning move is a move in one
//! heap to a position whose value makes the nim-sum 0.

use std::fmt;

use serde::Serialize;

use crate::InputError;
use crate::memory::Budget;
use crate::octal::OctalCode;
use crate::octal::seq::{Reach, describe_with_bar};
use crate::subtraction::Ruleset;
use crate::subtraction::planes::Planes;
use crate::subtraction::seq;

/// Most heaps in one position: far past a position a person plays, and small enough that
/// listing every move of each stays quick.
pub const MAX_HEAPS: usize = 1000;

/// The heap sizes as typed: `3,5,8` (whole numbers, at least one, duplicates allowed).
pub fn parse_heaps(s: &str) -> Result<Vec<usize>, String> {
    let heaps = s
        .split(',')
        .map(|h| {
            let h = h.trim();
            h.parse::<usize>().map_err(|_| {
                if !h.is_empty() && h.bytes().all(|b| b.is_ascii_digit()) {
                    format!("heap size {h} is too large")
                } else {
                    format!("heap sizes are whole numbers separated by commas, found '{h}'")
                }
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    if heaps.len() > MAX_HEAPS {
        return Err(format!(
            "{} heaps, more than the {MAX_HEAPS} a position may have",
            heaps.len()
        ));
    }
    Ok(heaps)
}

/// Where a move generator hands each move, as the heaps it leaves.
pub type Emit<'a> = dyn FnMut(&[usize]) + 'a;

/// Who wins with perfect play: the player to move (`N`) or the other (`P`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    P,
    N,
}

/// One winning move: heap number `index` (from 0, in the order given), of size `from`, is
/// replaced by the heaps `to` (none: the heap is taken whole).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WinningMove {
    pub index: usize,
    pub from: usize,
    pub to: Vec<usize>,
}

/// Everything `sub value` and `octal value` show.
#[derive(Clone, Debug, Serialize)]
pub struct PositionReport {
    /// The game: `{1,3,4}` or `·77`.
    pub game: String,
    pub heaps: Vec<usize>,
    /// `G` of each heap.
    pub values: Vec<u32>,
    pub nim_sum: u32,
    pub outcome: Outcome,
    /// Every move to a P-position, once for each heap size (equal heaps have the same moves).
    pub winning_moves: Vec<WinningMove>,
}

impl PositionReport {
    /// The report for `heaps` of a game whose heap values are `g` (at least up to the largest
    /// heap) and whose moves from a heap of `n` are the heap lists that `options(n, emit)`
    /// emits.
    fn new(
        game: String,
        heaps: &[usize],
        g: &[u32],
        options: impl Fn(usize, &mut dyn FnMut(&[usize])),
    ) -> Self {
        let values: Vec<u32> = heaps.iter().map(|&h| g[h]).collect();
        let nim_sum = values.iter().fold(0, |s, &v| s ^ v);
        let mut winning_moves = Vec::new();
        if nim_sum != 0 {
            for (index, &h) in heaps.iter().enumerate() {
                if heaps[..index].contains(&h) {
                    continue;
                }
                // The heap's part of the nim-sum must become what the others' parts xor to.
                let wanted = nim_sum ^ g[h];
                options(h, &mut |to| {
                    if to.iter().fold(0, |s, &a| s ^ g[a]) == wanted {
                        winning_moves.push(WinningMove {
                            index,
                            from: h,
                            to: to.to_vec(),
                        });
                    }
                });
            }
        }
        PositionReport {
            game,
            heaps: heaps.to_vec(),
            values,
            nim_sum,
            outcome: if nim_sum == 0 { Outcome::P } else { Outcome::N },
            winning_moves,
        }
    }
}

/// Heaps of at least one, and the length of the values they read.
pub fn values_needed(heaps: &[usize]) -> Result<usize, InputError> {
    let largest = heaps
        .iter()
        .max()
        .ok_or_else(|| InputError("a position needs at least one heap".to_string()))?;
    largest
        .checked_add(1)
        .ok_or_else(|| InputError(format!("heap size {largest} is too large")))
}

/// A position of the subtraction game `set`, refused first if its values may not fit `budget`.
pub fn subtraction(
    set: &Ruleset,
    heaps: &[usize],
    budget: Budget,
) -> anyhow::Result<PositionReport> {
    let g = subtraction_values(set, heaps, budget)?;
    Ok(PositionReport::new(
        set.to_string(),
        heaps,
        &g,
        subtraction_options(set),
    ))
}

/// The values of `set` up to the largest of `heaps`, refused first if they may not fit
/// `budget`.
pub fn subtraction_values(
    set: &Ruleset,
    heaps: &[usize],
    budget: Budget,
) -> anyhow::Result<Vec<u32>> {
    let len = values_needed(heaps)?;
    budget.check(seq::memory(set, len, len), || {
        format!("the values of {set} up to heap {}", len - 1)
    })?;
    let mut planes = Planes::default();
    planes.reset(set.moves());
    planes.extend(len);
    Ok((0..len).map(|x| planes.value(x)).collect())
}

/// The moves of `set` from a heap of `n`, each as the heaps it leaves (none, or one).
pub fn subtraction_options(set: &Ruleset) -> impl Fn(usize, &mut Emit) + '_ {
    move |n, emit| {
        for &s in set.moves().iter().take_while(|&&s| s as usize <= n) {
            let left = [n - s as usize];
            emit(if left[0] == 0 { &[] } else { &left });
        }
    }
}

/// A position of the octal game `code`, refused first if its values may not fit `budget`.
pub fn octal(code: &OctalCode, heaps: &[usize], budget: Budget) -> anyhow::Result<PositionReport> {
    let len = values_needed(heaps)?;
    let reach = Reach {
        len,
        max_len: len,
        look_for_period: false,
        ..Reach::default()
    };
    let report = describe_with_bar(code, &reach, budget)?;
    Ok(PositionReport::new(
        code.to_string(),
        heaps,
        &report.values,
        |n, emit| code.options(n, emit),
    ))
}

impl fmt::Display for PositionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
        writeln!(f, "game         {}", self.game)?;
        writeln!(f, "heaps        {}", list(&self.heaps))?;
        let values: Vec<usize> = self.values.iter().map(|&v| v as usize).collect();
        writeln!(f, "values       {}", list(&values))?;
        writeln!(f, "nim-sum      {}", self.nim_sum)?;
        write_outcome(
            f,
            self.outcome,
            &self.winning_moves,
            "every move leaves a nonzero nim-sum",
        )
    }
}

/// The `outcome` and `winning` lines of a position's report; `why_none` says why a P-position
/// has no winning move.
pub fn write_outcome(
    f: &mut fmt::Formatter<'_>,
    outcome: Outcome,
    winning_moves: &[WinningMove],
    why_none: &str,
) -> fmt::Result {
    match outcome {
        Outcome::P => {
            writeln!(f, "outcome      P (the player to move loses)")?;
            write!(f, "winning      none ({why_none})")
        }
        Outcome::N => {
            writeln!(f, "outcome      N (the player to move wins)")?;
            let moves: Vec<String> = winning_moves
                .iter()
                .map(|m| {
                    let to = if m.to.is_empty() {
                        "0".to_string()
                    } else {
                        m.to.iter()
                            .map(usize::to_string)
                            .collect::<Vec<_>>()
                            .join("+")
                    };
                    format!("{} -> {to}", m.from)
                })
                .collect();
            write!(f, "winning      {}", moves.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heaps_parse_and_refuse() {
        assert_eq!(parse_heaps("3,5,8"), Ok(vec![3, 5, 8]));
        assert_eq!(parse_heaps(" 0 ,7"), Ok(vec![0, 7]));
        assert!(parse_heaps("3,x").unwrap_err().contains("'x'"));
        assert!(parse_heaps("3,,5").unwrap_err().contains("''"));
        assert!(parse_heaps("-1").unwrap_err().contains("'-1'"));
        assert!(
            parse_heaps("99999999999999999999999")
                .unwrap_err()
                .contains("too large")
        );
        let many = vec!["1"; MAX_HEAPS + 1].join(",");
        assert!(parse_heaps(&many).unwrap_err().contains("more than"));
    }

    /// Nim itself is the subtraction game of every move up to the heap: G(n) = n.
    #[test]
    fn nim_positions() {
        let set: Ruleset = (1..=8)
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",")
            .parse()
            .unwrap();
        let r = subtraction(&set, &[3, 5, 6], Budget::UNLIMITED).unwrap();
        assert_eq!((r.nim_sum, r.outcome), (0, Outcome::P));
        assert!(r.winning_moves.is_empty());
        let r = subtraction(&set, &[3, 5, 7], Budget::UNLIMITED).unwrap();
        assert_eq!((r.nim_sum, r.outcome), (1, Outcome::N));
        // 3 -> 2, 5 -> 4, 7 -> 6: each leaves 0 nim-sum.
        let moves: Vec<(usize, Vec<usize>)> = r
            .winning_moves
            .iter()
            .map(|m| (m.from, m.to.clone()))
            .collect();
        assert_eq!(moves, [(3, vec![2]), (5, vec![4]), (7, vec![6])]);
    }
}
