//! Codes that are the same game as a smaller code of as many digits (docs/octal.md, "Codes
//! that are the same game"), so that a scan solves one code of each such set and copies its
//! row to the others.
//!
//! The move that takes `k` tokens and leaves nothing (bit 0 of digit `k`) is played only from
//! a heap of exactly `k`, where it offers the value 0. Where the heap's other moves already
//! offer 0, it adds nothing to the values offered: the code without it has the same values at
//! every heap. Kept to codes whose last digit stays (so `t`, and with it the certificate's
//! window and the split, are those of the code), the two codes have the same row.

use super::code::OctalCode;
use super::reference;

/// `code` without every move that takes a whole heap and changes no value: the least code of
/// the same digits' count that is the same game by the rule above (the code itself if none).
pub fn canonical(code: &OctalCode) -> OctalCode {
    let t = code.t();
    // The values of `code` up to `t`, which every code on the way to the result shares.
    let g = reference::values(code, t + 1);
    let mut same = code.clone();
    for k in 1..=t {
        let Some(without) = same.without_taking_all(k) else {
            continue;
        };
        // The empty option of heap `k` is the move taken away; any other offering 0?
        let mut zero = false;
        code.options(k, &mut |heaps| {
            zero |= !heaps.is_empty() && heaps.iter().fold(0, |x, &h| x ^ g[h]) == 0;
        });
        if zero {
            same = without;
        }
    }
    same
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn code(text: &str) -> OctalCode {
        text.parse().unwrap()
    }

    /// By hand: in 0.23 a heap of 2 may lose one token and leave a heap of 1, a P-position
    /// (no move takes 1 and leaves nothing), so taking both is the same as not: 0.22. In 4.37
    /// a heap of 2 splits into two of 1 (value 0), but nothing else moves from a heap of 1:
    /// 4.36. In 0.13 no other move of that heap offers 0; 0.21 would lose its last digit.
    #[test]
    fn moves_that_add_nothing_go() {
        assert_eq!(canonical(&code("0.23")), code("0.22"));
        assert_eq!(canonical(&code("0.77")), code("0.77"));
        assert_eq!(canonical(&code("0.13")), code("0.13"));
        assert_eq!(canonical(&code("0.21")), code("0.21"));
        assert_eq!(canonical(&code("4.37")), code("4.36"));
    }

    /// How many distinct games the scans' codes are, counted by an independent script (a
    /// Python mex over the same rule, stop 68): 448 codes of 3 digits are 278 games (d0 = 0)
    /// and 152 (d0 = 4); 3,584 of 4 digits are 1,406 and 640.
    #[test]
    fn distinct_games_of_the_scans() {
        for (digits, d0, games) in [(3, 0, 278), (3, 4, 152), (4, 0, 1406), (4, 4, 640)] {
            // Every `d0.d1...dD` with `dD != 0`: the digits of 8^D + k, past its leading 1.
            let all: Vec<OctalCode> = (0..8usize.pow(digits))
                .filter(|k| k % 8 != 0)
                .map(|k| {
                    code(&format!(
                        "{d0}.{}",
                        &format!("{:o}", 8usize.pow(digits) + k)[1..]
                    ))
                })
                .collect();
            assert_eq!(all.len(), 7 * 8usize.pow(digits - 1));
            let images: HashSet<OctalCode> = all.iter().map(canonical).collect();
            assert_eq!(images.len(), games, "{digits} digits, d0 = {d0}");
        }
    }
}
