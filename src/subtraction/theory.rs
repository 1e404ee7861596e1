//! Closed forms from H. Manabe, "Purely Periodic Three-move Subtraction Games" (spec
//! `subtraction-theory.md`, section 1). The engine uses them only as hints that it verifies.

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
/// assert_eq!(additive_period(3, 8), 54); // {3,8,11}, spec section 2.2
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
    fn additive_periods_from_the_spec() {
        assert_eq!(additive_period(3, 8), 54);
        assert_eq!(additive_period(2, 7), 15);
        assert_eq!(additive_period(3, 4), 10);
        assert_eq!(gcd(12, 18), 6);
    }
}
