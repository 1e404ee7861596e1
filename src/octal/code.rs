//! Octal codes as users type them: `d0.d1d2...dt` (spec `octal.md` section 1).

use std::fmt;
use std::str::FromStr;

/// Longest code accepted, in digits after the point: far past any published table, and small
/// enough that a code's moves are cheap to list.
pub const MAX_DIGITS: usize = 4096;

/// A finite octal game: digit `i` says what taking `i` tokens from a heap may leave (1: nothing,
/// 2: one heap, 4: two heaps), digit 0 (0 or 4) whether a heap may split without taking.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    /// `digits[i]` for `i = 0..=t`; the last one is non-zero.
    digits: Vec<u8>,
}

/// Why a code was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid octal code '{input}': {reason}")]
pub struct CodeError {
    pub input: String,
    pub reason: String,
}

impl OctalCode {
    /// The code of the subtraction game `moves` (digit 3 at each move).
    pub fn subtraction(moves: &[u32]) -> Self {
        let t = moves.iter().copied().max().unwrap_or(0) as usize;
        let mut digits = vec![0; t + 1];
        for &s in moves {
            digits[s as usize] = 3;
        }
        OctalCode { digits }
    }

    /// The digits `d0..=dt`.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// `t`, the index of the last non-zero digit.
    pub fn t(&self) -> usize {
        self.digits.len() - 1
    }

    /// Whether some move splits a heap in two: then the Guy-Smith window certifies periods,
    /// else the last `t` values alone decide the next.
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }

    /// Whether the one digit with a 4-bit is the last, `t >= 1`: the position split is then
    /// exact (spec section 3).
    pub fn splits_only_last(&self) -> bool {
        self.split_indices() == [self.t()] && self.t() >= 1
    }

    /// The indices of the digits with a 4-bit (the splitting moves).
    pub fn split_indices(&self) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&i| self.digits[i] & 4 != 0)
            .collect()
    }
}

impl FromStr for OctalCode {
    type Err = CodeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |reason: &str| CodeError {
            input: s.to_string(),
            reason: reason.to_string(),
        };
        let t = s.trim();
        let (whole, fraction) = t
            .split_once('.')
            .ok_or_else(|| err("expected d0.d1d2..., e.g. 0.77 or 4.07"))?;
        let d0 = match whole {
            "0" => 0,
            "4" => 4,
            _ => return Err(err("the digit before the point is 0 or 4")),
        };
        if fraction.is_empty() {
            return Err(err("no digit after the point"));
        }
        if fraction.len() > MAX_DIGITS {
            return Err(err(&format!("more than {MAX_DIGITS} digits")));
        }
        let mut digits = vec![d0];
        for c in fraction.chars() {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => {
                    return Err(err(&format!("'{c}' is not an octal digit (0 to 7)")));
                }
            }
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits == [0] {
            return Err(err("no digit allows a move: every heap is a P-position"));
        }
        Ok(OctalCode { digits })
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_and_print() {
        for (text, shown, t) in [
            ("0.77", "0.77", 2),
            ("4.07", "4.07", 2),
            ("0.0070", "0.007", 3),
        ] {
            let code: OctalCode = text.parse().unwrap();
            assert_eq!((code.to_string(), code.t()), (shown.to_string(), t));
        }
        assert_eq!(OctalCode::subtraction(&[1, 3]).to_string(), "0.303");
        assert!("0.007".parse::<OctalCode>().unwrap().splits());
        assert!(!"0.33".parse::<OctalCode>().unwrap().splits());
        assert_eq!(
            "4.".parse::<OctalCode>().unwrap_err().reason,
            "no digit after the point"
        );
        for bad in [
            "0.8", "1.07", "0.", "07", "0.0", "0.000", "", ".3", "0.3x", "-0.3",
        ] {
            assert!(bad.parse::<OctalCode>().is_err(), "{bad}");
        }
    }
}
