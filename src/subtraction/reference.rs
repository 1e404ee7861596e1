//! The reference solver: the recurrence and the period search exactly as docs/subtraction.md
//! (section 2) states them.
//!
//! Short and obviously right, and deliberately slow: one value at a time, and the period search of
//! docs/subtraction.md, section 2 (`sg.h: perq`) over every `p`, growing the prefix four-fold from
//! `8c + 64`
//! until a period is certified. It shares nothing with the fast paths but the [`Ruleset`] type,
//! so that the tests comparing them compare two independent programs.

use super::ruleset::Ruleset;
use super::solution::{NotCertified, Solution};

/// `G(0), ..., G(len - 1)`: `G(x) = mex{ G(x - s) : s in S, s <= x }`.
pub fn nim_values(set: &Ruleset, len: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(len);
    for x in 0..len {
        let options: Vec<u32> = set
            .moves()
            .iter()
            .filter(|&&s| s as usize <= x)
            .map(|&s| g[x - s as usize])
            .collect();
        let mex = (0..).find(|v| !options.contains(v)).expect("mex exists");
        g.push(mex);
    }
    g
}

/// Least `(p, q)` with `g[x + p] == g[x]` for all `x >= q`, proved by a matched window of `c`
/// values inside the prefix; `None` if the prefix is too short (docs/subtraction.md, section 2,
/// verbatim).
pub fn perq<T: PartialEq>(g: &[T], c: usize) -> Option<(usize, usize)> {
    let len = g.len();
    let mut p = 1;
    while p + c <= len {
        // 1 + the last mismatch below len - p (0 if none).
        let mut x = len - p;
        while x > 0 && g[x - 1 + p] == g[x - 1] {
            x -= 1;
        }
        let q = x;
        if q + p + c <= len {
            return Some((p, q));
        }
        p += 1;
    }
    None
}

/// Exact least period and pre-period of the nim sequence and of its P-position indicator.
pub fn solve(set: &Ruleset, max_len: usize) -> Result<Solution, NotCertified> {
    let c = set.max_move() as usize;
    let mut len = 8 * c + 64;
    loop {
        let len_now = len.min(max_len);
        let g = nim_values(set, len_now);
        if let Some((period, preperiod)) = perq(&g, c) {
            let outcome: Vec<bool> = g.iter().map(|&v| v == 0).collect();
            let (outcome_period, outcome_preperiod) =
                perq(&outcome, c).expect("the nim period also certifies the outcomes");
            return Ok(Solution {
                period,
                preperiod,
                outcome_period,
                outcome_preperiod,
                checked_len: len_now,
            });
        }
        if len_now == max_len {
            return Err(NotCertified {
                set: set.clone(),
                len: max_len,
                memory: None,
            });
        }
        len *= 4;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_3_8_13() {
        let set: Ruleset = "3,8,13".parse().unwrap();
        let g: String = nim_values(&set, 16)
            .iter()
            .map(|v| char::from_digit(*v, 10).unwrap())
            .collect();
        assert_eq!(g, "0001110021100211");
        let s = solve(&set, 1 << 20).unwrap();
        assert_eq!((s.period, s.preperiod), (16, 0));
    }
}
