//! Take-and-break codes as users type them, `d0.d1d2...dt` (`0.07`, `4.07`, `0.3F`, `4!.0`),
//! or in Winning Ways' notation with a raised point (`·07`, `4·07`), which is how nimseq
//! writes them: a reader of its CSV (pandas, polars, a spreadsheet) keeps `·07` as text, where
//! `0.07` becomes a number and `0.0000001` becomes `1e-07`.
//!
//! Digits are hexadecimal, as in CGSuite's `TakeAndBreak`: bit `k` of digit `i` lets a move
//! take `i` tokens and leave `k` heaps (so up to three), and a `!` after a digit asks the heaps
//! it leaves to be pairwise unequal (Grundy's game is `4!.0`). Octal codes are the codes
//! whose digits are 0 to 7 with no `!`.

use std::fmt;
use std::str::FromStr;

/// Longest code accepted, in digits after the point: far past any published table, and small
/// enough that a code's moves are cheap to list.
pub const MAX_DIGITS: usize = 4096;

/// The most heaps a move may leave: three, the bits of a hexadecimal digit.
pub const MAX_HEAPS: usize = 3;

/// A finite take-and-break game: bit `k` of digit `i` says whether taking `i` tokens from a
/// heap may leave `k` heaps (bit 0: nothing, bit 1: one heap, bit 2: two, bit 3: three), the
/// heaps left being never empty, and pairwise unequal where the digit has a `!`. Digit 0
/// (taking nothing) may only split a heap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct OctalCode {
    /// `digits[i]` for `i = 0..=t`; the last one is non-zero.
    digits: Vec<u8>,
    /// Whether digit `i` has a `!`; only where it may leave two heaps or more.
    unequal: Vec<bool>,
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
        let unequal = vec![false; digits.len()];
        OctalCode { digits, unequal }
    }

    /// The code as most programs read it, with an ASCII point: `0.07`, `4.07` (for ogsolve).
    pub fn ascii(&self) -> String {
        format!("{}.{}", self.digit_text(0), self.fraction())
    }

    /// Digit `i` as written: `0`-`9`, `A`-`F`, then `!` if it has one.
    fn digit_text(&self, i: usize) -> String {
        let d = char::from_digit(self.digits[i].into(), 16)
            .expect("digits are below 16")
            .to_ascii_uppercase();
        let bang = if self.unequal[i] { "!" } else { "" };
        format!("{d}{bang}")
    }

    /// The digits after the point, `d1...dt` (`0` for a code with none past `d0`).
    fn fraction(&self) -> String {
        if self.digits.len() == 1 {
            return "0".to_string();
        }
        (1..self.digits.len()).map(|i| self.digit_text(i)).collect()
    }

    /// The digits `d0..=dt`.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// Whether digit `i` has a `!` (the heaps it leaves are pairwise unequal).
    pub fn unequal(&self, i: usize) -> bool {
        self.unequal[i]
    }

    /// Whether some digit has a `!`.
    pub fn any_unequal(&self) -> bool {
        self.unequal.contains(&true)
    }

    /// `t`, the index of the last non-zero digit.
    pub fn t(&self) -> usize {
        self.digits.len() - 1
    }

    /// Whether this is an octal code (digits 0 to 7, no `!`): what ogsolve and the GPU scan
    /// read.
    pub fn is_octal(&self) -> bool {
        self.digits.iter().all(|&d| d < 8) && !self.any_unequal()
    }

    /// The most heaps a move leaves (0 to [`MAX_HEAPS`]).
    pub fn max_heaps(&self) -> usize {
        self.digits
            .iter()
            .map(|&d| (8 - d.leading_zeros() as usize).saturating_sub(1))
            .max()
            .unwrap_or(0)
    }

    /// Whether the one digit with a 4-bit is the last, `t >= 1`, with no 8-bit and no `!`:
    /// the position split is then exact (docs/octal.md, "Making it fast").
    pub fn splits_only_last(&self) -> bool {
        self.split_indices() == [self.t()]
            && self.t() >= 1
            && self.max_heaps() == 2
            && !self.any_unequal()
    }

    /// Each move from a heap of `n`, as the heaps it leaves (none, or one or more in
    /// ascending order, once each): taking `i` tokens may leave `k` heaps where bit `k` of
    /// digit `i` is set, heaps being never empty and pairwise unequal after a `!`.
    pub fn options<F: FnMut(&[usize]) + ?Sized>(&self, n: usize, emit: &mut F) {
        for (i, &d) in self.digits.iter().enumerate().take(n + 1) {
            let left = n - i;
            if d & 1 != 0 && i >= 1 && left == 0 {
                emit(&[]);
            }
            for k in 1..=MAX_HEAPS {
                if d >> k & 1 != 0 && (i >= 1 || k >= 2) {
                    partitions(left, k, self.unequal[i], emit);
                }
            }
        }
    }

    /// This code without the move that takes `k` tokens and leaves nothing (bit 0 of digit
    /// `k`), if it has that move and keeps its last digit without it (`t` unchanged).
    pub fn without_taking_all(&self, k: usize) -> Option<OctalCode> {
        let d = *self.digits.get(k)?;
        if k == 0 || d & 1 == 0 || (k == self.t() && d == 1) {
            return None;
        }
        let mut code = self.clone();
        code.digits[k] = d & !1;
        Some(code)
    }

    /// The indices of the digits with a 4-bit (the moves that leave two heaps).
    pub fn split_indices(&self) -> Vec<usize> {
        (0..self.digits.len())
            .filter(|&i| self.digits[i] & 4 != 0)
            .collect()
    }
}

/// Emits each way of writing `left` as `k` parts (1 to [`MAX_HEAPS`]), each at least 1, in
/// ascending order, pairwise unequal if `unequal`.
fn partitions<F: FnMut(&[usize]) + ?Sized>(left: usize, k: usize, unequal: bool, emit: &mut F) {
    let step = usize::from(unequal);
    match k {
        1 if left >= 1 => emit(&[left]),
        2 => {
            // a <= b (a < b after `!`), a + b = left.
            for a in 1..=left.saturating_sub(step) / 2 {
                emit(&[a, left - a]);
            }
        }
        3 => {
            // a <= b <= c (a < b < c after `!`), a + b + c = left.
            for a in 1..=left / 3 {
                let rest = left - a;
                for b in a + step..=rest.saturating_sub(step) / 2 {
                    emit(&[a, b, rest - b]);
                }
            }
        }
        _ => {}
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
            .ok_or_else(|| err("expected d0.d1d2..., e.g. 0.77, 4.07, 0.3F, 4!.0 or ·77"))?;
        // Winning Ways and OEIS leave out a leading 0: `·07`, `.07`.
        let whole = if whole.is_empty() { "0" } else { whole };
        let mut digits = Vec::new();
        let mut unequal = Vec::new();
        read_digits(whole, &mut digits, &mut unequal).map_err(|r| err(&r))?;
        if digits.len() != 1 {
            return Err(err(
                "one digit before the point at most (digits that add tokens are not supported)",
            ));
        }
        if digits[0] & 3 != 0 {
            return Err(err(
                "the digit before the point is 0, 4, 8 or C: taking nothing must split the heap",
            ));
        }
        if fraction.is_empty() {
            return Err(err("no digit after the point"));
        }
        read_digits(fraction, &mut digits, &mut unequal).map_err(|r| err(&r))?;
        if digits.len() > MAX_DIGITS + 1 {
            return Err(err(&format!("more than {MAX_DIGITS} digits")));
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
            unequal.pop();
        }
        if digits == [0] {
            return Err(err("no digit allows a move: every heap is a P-position"));
        }
        // A `!` says nothing where a move leaves fewer than two heaps (as in CGSuite).
        for (u, &d) in unequal.iter_mut().zip(&digits) {
            *u &= d >= 4;
        }
        Ok(OctalCode { digits, unequal })
    }
}

/// Appends the digits of `text` (hexadecimal, each with an optional `!`) to `digits` and
/// `unequal`, or says what is wrong.
fn read_digits(text: &str, digits: &mut Vec<u8>, unequal: &mut Vec<bool>) -> Result<(), String> {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let d = match c.to_digit(16) {
            Some(d) => d as u8,
            None if c.is_ascii_alphanumeric() => {
                return Err(format!(
                    "'{c}' is not a digit: digits are 0-9 and A-F (a move leaves at most \
                     {MAX_HEAPS} heaps)"
                ));
            }
            None if "!?=".contains(c) => {
                return Err(format!(
                    "'{c}' must follow a digit, once: a digit may be followed by '!' (the heaps \
                     it leaves are pairwise unequal)"
                ));
            }
            None => return Err(format!("'{c}' is not a digit (0-9, A-F)")),
        };
        let bang = chars.next_if_eq(&'!').is_some();
        if let Some(&c) = chars.peek().filter(|c| "!?=".contains(**c)) {
            return Err(if c == '!' {
                "'!' must follow a digit, once".to_string()
            } else {
                format!("'{c}' is not supported: a digit may be followed by '!' only")
            });
        }
        digits.push(d);
        unequal.push(bang);
    }
    Ok(())
}

/// The raised point of Winning Ways' notation, with which codes are written.
pub const POINT: char = '\u{b7}';

/// `·d1d2...dt`, or `4·d1...dt` when a heap may split without taking.
impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.digits[0] != 0 || self.unequal[0] {
            write!(f, "{}", self.digit_text(0))?;
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
            ("0.3F", "\u{b7}3F", 2),
            ("0.3f", "\u{b7}3F", 2),
            ("4!.0", "4!\u{b7}0", 0),
            ("4!\u{b7}0", "4!\u{b7}0", 0),
            ("0.3!4!", "\u{b7}34!", 2),
            ("C.0", "C\u{b7}0", 0),
        ] {
            let code: OctalCode = text.parse().unwrap();
            assert_eq!((code.to_string(), code.t()), (shown.to_string(), t));
        }
        assert_eq!(OctalCode::subtraction(&[1, 3]).to_string(), "\u{b7}303");
        for ascii in ["0.77", "4.07", "4.0", "0.007"] {
            assert_eq!(ascii.parse::<OctalCode>().unwrap().ascii(), ascii);
        }
        assert_eq!("0.007".parse::<OctalCode>().unwrap().max_heaps(), 2);
        assert_eq!("0.33".parse::<OctalCode>().unwrap().max_heaps(), 1);
        let grundy: OctalCode = "4!.0".parse().unwrap();
        assert_eq!((grundy.max_heaps(), grundy.is_octal()), (2, false));
        assert_eq!("0.3F".parse::<OctalCode>().unwrap().max_heaps(), 3);
        assert!("0.77".parse::<OctalCode>().unwrap().is_octal());
        assert_eq!(
            "4.".parse::<OctalCode>().unwrap_err().reason,
            "no digit after the point"
        );
        for bad in [
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
            "0.G",
            "4!!.0",
            "44.0",
            "0.3?",
            "0.!3",
            "1.0",
            "5.0",
        ] {
            assert!(bad.parse::<OctalCode>().is_err(), "{bad}");
        }
    }

    /// The moves of a heap, listed from the rules by hand: 0.3F's heap of 5 (take 1 leaving
    /// 0 or 1 heap, take 2 leaving 0 to 3 heaps), Grundy's game's heap of 7 (split into two
    /// unequal heaps), and 0.8! (take 1, leave three pairwise unequal heaps) on 7.
    #[test]
    fn options_follow_the_rules() {
        let listed = |code: &str, n: usize| {
            let mut all = Vec::new();
            code.parse::<OctalCode>()
                .unwrap()
                .options(n, &mut |h| all.push(h.to_vec()));
            all
        };
        let v = |h: &[usize]| h.to_vec();
        assert_eq!(
            listed("0.3F", 5),
            [v(&[4]), v(&[3]), v(&[1, 2]), v(&[1, 1, 1])]
        );
        assert_eq!(listed("4!.0", 7), [v(&[1, 6]), v(&[2, 5]), v(&[3, 4])]);
        assert_eq!(listed("4.0", 4), [v(&[1, 3]), v(&[2, 2])]);
        assert_eq!(listed("0.8!", 7), [v(&[1, 2, 3])]);
        assert_eq!(
            listed("0.8", 7),
            [v(&[1, 1, 4]), v(&[1, 2, 3]), v(&[2, 2, 2])]
        );
        assert_eq!(listed("0.8!", 6), Vec::<Vec<usize>>::new());
    }
}
