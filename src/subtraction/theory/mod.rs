//! The theory of H. Manabe, "Purely Periodic Three-move Subtraction Games"
//! (docs/subtraction.md, sections 3-4): integer arithmetic on the circle `Z/(a+b)Z`.
//!
//! * [`base`]: the two-move base game `{a, b}`, its pattern `Z`, and the exact finite tests
//!   T0, T1, T2 of Definition 19 for the admissible angle sets.
//! * [`closed`]: the same sets from the closed forms (Lemma 14, Theorems 57 and 28), a second
//!   implementation that the tests compare with the finite tests.
//! * [`predict`]: Theorem 32's prediction for a triple, or why there is none.
//!
//! The engine uses none of this to compute a value; the fast path takes Theorem 34's period only
//! as a candidate that it then proves.

pub mod base;
pub mod closed;
pub mod ppos;
pub mod predict;

/// Greatest common divisor.
pub fn gcd(mut x: usize, mut y: usize) -> usize {
    while y != 0 {
        (x, y) = (y, x % y);
    }
    x
}

/// Period of the additive game `{a, b, a + b}`: Theorem 34 for `gcd(a, b) = 1`, `a >= 2`, scaled
/// by `g = gcd(a, b)` as in Remark 35. For `a / g = 1` the paper claims nothing, and the value is
/// only a guess for the caller to verify.
///
/// ```
/// use nimseq::subtraction::theory::additive_period;
/// assert_eq!(additive_period(3, 8), 54); // {3,8,11}, docs/subtraction.md, section 6
/// assert_eq!(additive_period(2, 4), 8);  // (2,4,6) = 2 * {1,2,3}, Remark 35
/// ```
pub fn additive_period(a: usize, b: usize) -> usize {
    let g = gcd(a, b);
    let (a, b) = (a / g, b / g);
    let delta = b - a;
    let eta = delta / a;
    let p = if eta % 2 == 0 {
        (eta + 2) * a + b
    } else {
        let m_eta = delta - (eta - 1) / 2 * a;
        a * (2 * m_eta + b)
    };
    g * p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn additive_periods_from_the_paper() {
        assert_eq!(additive_period(3, 8), 54);
        assert_eq!(additive_period(2, 7), 15);
        assert_eq!(additive_period(3, 4), 10);
        assert_eq!(gcd(12, 18), 6);
    }
}
