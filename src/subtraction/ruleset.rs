//! The subtraction set S: a finite set of distinct positive move lengths.

use std::fmt;
use std::str::FromStr;

/// Most moves a set may have: values never exceed |S|, and the fast paths keep one bit plane per
/// value, so the work per position grows as |S|^2.
pub const MAX_MOVES: usize = 256;

/// Largest move length accepted: positions are addressed with `u32` on the GPU.
pub const MAX_MOVE: u32 = 1 << 30;

/// A subtraction set, moves sorted ascending and distinct.
///
/// Invariant: non-empty, every move in `1..=MAX_MOVE`, strictly increasing, at most `MAX_MOVES`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    moves: Vec<u32>,
}

/// Why a subtraction set was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid subtraction set '{input}': {kind}")]
pub struct RulesetError {
    pub input: String,
    pub kind: RulesetErrorKind,
}

/// One variant per way a set can be malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesetErrorKind {
    #[error("the set is empty (give moves like 3,8,13)")]
    Empty,
    #[error("'{0}' is not a whole number")]
    NotANumber(String),
    #[error("moves must be positive, found {0}")]
    NotPositive(String),
    #[error("move {0} appears more than once")]
    Duplicate(u32),
    #[error("move {0} is larger than the limit {max}", max = MAX_MOVE)]
    TooLarge(String),
    #[error("{0} moves is more than the limit {max}", max = MAX_MOVES)]
    TooMany(usize),
}

impl Ruleset {
    /// Builds a set from move lengths in any order.
    pub fn new(moves: &[u32]) -> Result<Self, RulesetError> {
        let input = moves
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        Self::checked(moves.iter().map(|&m| i64::from(m)).collect(), &input)
    }

    /// The triple {a, b, c}; the caller guarantees `0 < a < b < c <= MAX_MOVE`.
    ///
    /// # Panics
    /// If the triple is not strictly increasing and positive.
    pub fn triple(a: u32, b: u32, c: u32) -> Self {
        assert!(
            0 < a && a < b && b < c && c <= MAX_MOVE,
            "not a triple: {a},{b},{c}"
        );
        Ruleset {
            moves: vec![a, b, c],
        }
    }

    fn checked(mut moves: Vec<i64>, input: &str) -> Result<Self, RulesetError> {
        let err = |kind| RulesetError {
            input: input.to_string(),
            kind,
        };
        if moves.is_empty() {
            return Err(err(RulesetErrorKind::Empty));
        }
        if let Some(&bad) = moves.iter().find(|&&m| m <= 0) {
            return Err(err(RulesetErrorKind::NotPositive(bad.to_string())));
        }
        if let Some(&big) = moves.iter().find(|&&m| m > i64::from(MAX_MOVE)) {
            return Err(err(RulesetErrorKind::TooLarge(big.to_string())));
        }
        if moves.len() > MAX_MOVES {
            return Err(err(RulesetErrorKind::TooMany(moves.len())));
        }
        moves.sort_unstable();
        if let Some(w) = moves.windows(2).find(|w| w[0] == w[1]) {
            // OK since every move was checked to lie in 1..=MAX_MOVE above.
            return Err(err(RulesetErrorKind::Duplicate(w[0] as u32)));
        }
        Ok(Ruleset {
            moves: moves.into_iter().map(|m| m as u32).collect(),
        })
    }

    /// The moves, ascending.
    pub fn moves(&self) -> &[u32] {
        &self.moves
    }

    /// The smallest move.
    pub fn min_move(&self) -> u32 {
        self.moves[0]
    }

    /// The largest move: from there on every move is legal, so a matched window of this many
    /// values certifies a period (docs/subtraction.md, section 2).
    pub fn max_move(&self) -> u32 {
        self.moves[self.moves.len() - 1]
    }

    /// Nim-values never exceed the number of moves.
    pub fn max_value(&self) -> usize {
        self.moves.len()
    }
}

impl FromStr for Ruleset {
    type Err = RulesetError;

    /// Parses `3,8,13`, also with braces or spaces: `{3, 8, 13}`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let body = s.trim().trim_start_matches('{').trim_end_matches('}');
        let err = |kind| RulesetError {
            input: s.to_string(),
            kind,
        };
        if body.trim().is_empty() {
            return Err(err(RulesetErrorKind::Empty));
        }
        let moves = body
            .split(',')
            .map(|part| {
                let part = part.trim();
                part.parse::<i64>().map_err(|_| {
                    // Digits that do not fit 64 bits are a number, past any limit.
                    let digits = part.strip_prefix('-').unwrap_or(part);
                    err(
                        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                            RulesetErrorKind::NotANumber(part.to_string())
                        } else if part.starts_with('-') {
                            RulesetErrorKind::NotPositive(part.to_string())
                        } else {
                            RulesetErrorKind::TooLarge(part.to_string())
                        },
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::checked(moves, s)
    }
}

impl Ruleset {
    /// `moves` as a set is written: `{3,8,15}`.
    pub fn braces(moves: &[u32]) -> String {
        let list: Vec<String> = moves.iter().map(u32::to_string).collect();
        format!("{{{}}}", list.join(","))
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Ruleset::braces(&self.moves))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_sorts() {
        let s: Ruleset = " {13, 3,8} ".parse().unwrap();
        assert_eq!(s.moves(), &[3, 8, 13]);
        assert_eq!(s.to_string(), "{3,8,13}");
        assert_eq!(s.max_move(), 13);
    }

    #[test]
    fn refuses_bad_sets_with_a_reason() {
        let msg = |s: &str| s.parse::<Ruleset>().unwrap_err().to_string();
        assert_eq!(
            msg("0,3"),
            "invalid subtraction set '0,3': moves must be positive, found 0"
        );
        assert!(msg("3,3,5").contains("move 3 appears more than once"));
        assert!(msg("5,x").contains("'x' is not a whole number"));
        assert!(
            msg("99999999999999999999")
                .contains("move 99999999999999999999 is larger than the limit")
        );
        assert!(msg("3,-99999999999999999999").contains("moves must be positive, found -9999"));
        assert!(msg("").contains("empty"));
        assert!(msg("{}").contains("empty"));
        assert!(msg("-2,4").contains("found -2"));
        assert!(msg("99999999999").contains("larger than the limit"));
    }
}
