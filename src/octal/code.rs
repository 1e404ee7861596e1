//! Octal codes as users type them, `d0.d1d2...dt` (`0.07`, `4.07`), or in Winning Ways'
//! notation with a raised point (`·07`, `4·07`), which is how nimseq writes them: a reader of
//! its CSV (pandas, polars, a spreadsheet) keeps `·07` as text, where `0.07` becomes a number
//! and `0.0000001` becomes `1e-07`.

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

    /// The code as most programs read it, with an ASCII point: `0.07`, `4.07` (for ogsolve).
    pub fn ascii(&self) -> String {
        format!("{}.{}", self.digits[0], self.fraction())
    }

    /// The digits after the point, `d1...dt` (`0` for a code with none past `d0`).
    fn fraction(&self) -> String {
        if self.digits.len() == 1 {
            return "0".to_string();
        }
        self.digits[1..]
            .iter()
            .map(|&d| char::from(b'0' + d))
            .collect()
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
    /// exact (docs/octal.md, "Making it fast").
    pub fn splits_only_last(&self) -> bool {
        self.split_indices() == [self.t()] && self.t() >= 1
    }

    /// Each move from a heap of `n`, as the heaps it leaves (none, one, or two in either
    /// order once): taking `i` tokens may leave nothing (bit 1 of digit `i`), one heap (bit
    /// 2) or two (bit 4), heaps being never empty.
    pub fn options(&self, n: usize, emit: &mut dyn FnMut(&[usize])) {
        for (i, &d) in self.digits.iter().enumerate().take(n + 1) {
            let left = n - i;
            if d & 1 != 0 && i >= 1 && left == 0 {
                emit(&[]);
            }
            if d & 2 != 0 && i >= 1 && left >= 1 {
                emit(&[left]);
            }
            if d & 4 != 0 {
                for a in 1..=left / 2 {
                    emit(&[a, left - a]);
                }
            }
        }
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
            .split_once(POINT)
            .or_else(|| t.split_once('.'))
            .ok_or_else(|| err("expected d0.d1d2..., e.g. 0.77, 4.07 or ·77"))?;
        let d0 = match whole {
            // Winning Ways and OEIS leave out a leading 0: `·07`, `.07`.
            "0" | "" => 0,
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

/// The raised point of Winning Ways' notation, with which codes are written.
pub const POINT: char = '\u{b7}';

/// `·d1d2...dt`, or `4·d1...dt` when a heap may split without taking.
impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.digits[0] != 0 {
            write!(f, "{}", self.digits[0])?;
        }
        write!(f, "{POINT}{}", self.fraction())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_parse_and_print() {
        for (text, shown, t) in [
            ("0.77", "\u{b7}77", 2),
            ("4.07", "4\u{b7}07", 2),
            ("0.0070", "\u{b7}007", 3),
            ("\u{b7}007", "\u{b7}007", 3),
            ("0\u{b7}16", "\u{b7}16", 2),
            ("4\u{b7}0", "4\u{b7}0", 0),
            (".77", "\u{b7}77", 2),
        ] {
            let code: OctalCode = text.parse().unwrap();
            assert_eq!((code.to_string(), code.t()), (shown.to_string(), t));
        }
        assert_eq!(OctalCode::subtraction(&[1, 3]).to_string(), "\u{b7}303");
        for ascii in ["0.77", "4.07", "4.0", "0.007"] {
            assert_eq!(ascii.parse::<OctalCode>().unwrap().ascii(), ascii);
        }
        assert!("0.007".parse::<OctalCode>().unwrap().splits());
        assert!(!"0.33".parse::<OctalCode>().unwrap().splits());
        assert_eq!(
            "4.".parse::<OctalCode>().unwrap_err().reason,
            "no digit after the point"
        );
        for bad in [
            "0.8",
            "1.07",
            "0.",
            "07",
            "0.0",
            "0.000",
            "",
            ".",
            "0.3x",
            "-0.3",
            "\u{b7}",
            "4\u{b7}",
            "\u{b7}\u{b7}3",
            "1\u{b7}3",
        ] {
            assert!(bad.parse::<OctalCode>().is_err(), "{bad}");
        }
    }
}
