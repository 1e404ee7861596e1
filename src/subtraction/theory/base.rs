//! The base game `B = {a, b}` on the circle `Z/(a+b)Z` (Manabe's paper).

use std::fmt;

/// Largest `b` of a base pair typed by a user (`sub theta`): the theory's work grows as
/// `(a + b)^2`, about a second at this bound.
pub const MAX_B: usize = 10_000;

/// A base pair as users type it: `a,b` with `1 <= a < b <= MAX_B`.
pub fn parse_pair(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected a,b with 1 <= a < b <= {MAX_B}, e.g. 3,8; got '{s}'");
    let (a, b) = s.split_once(',').ok_or_else(bad)?;
    let (a, b) = (
        a.trim().parse::<usize>().map_err(|_| bad())?,
        b.trim().parse::<usize>().map_err(|_| bad())?,
    );
    if a == 0 || a >= b || b > MAX_B {
        return Err(bad());
    }
    Ok((a, b))
}

/// The structural parameters of `(a, b)`, `1 <= a < b`, and the sets the tests need.
#[derive(Clone, Debug)]
pub struct Base {
    pub a: usize,
    pub b: usize,
    /// `n = a + b`: the circle's size.
    pub n: usize,
    pub delta: usize,
    pub eta: usize,
    pub eps: usize,
    /// `N = |Z|`.
    pub big_n: usize,
    /// `z[x]`: whether `x in Z = W0(B) ∩ [0, a+b)`.
    z: Vec<bool>,
    /// `Lambda = [lo, hi)` (empty when `lo = hi`).
    lambda: (usize, usize),
}

impl Base {
    /// # Panics
    /// Unless `1 <= a < b`.
    pub fn new(a: usize, b: usize) -> Self {
        assert!(1 <= a && a < b, "a base needs 1 <= a < b, got ({a}, {b})");
        let (n, delta) = (a + b, b - a);
        let (eta, eps) = (delta / a, delta % a);
        // Proposition 7.
        let big_n = if eta % 2 == 0 {
            (eta / 2 + 1) * a
        } else {
            delta - (eta - 1) / 2 * a
        };
        let mut z = vec![false; n];
        for k in 0..big_n {
            z[k + a * (k / a)] = true;
        }
        let lambda = if eta % 2 == 0 {
            ((eta + 1) * a, (eta + 1) * a + eps)
        } else {
            (eta * a + eps, (eta + 1) * a)
        };
        Base {
            a,
            b,
            n,
            delta,
            eta,
            eps,
            big_n,
            z,
            lambda,
        }
    }

    /// Whether `x` (taken mod `a + b`) is in `Z`.
    pub fn in_z(&self, x: usize) -> bool {
        self.z[x % self.n]
    }

    /// `Z`, ascending.
    pub fn z(&self) -> Vec<usize> {
        (0..self.n).filter(|&x| self.z[x]).collect()
    }

    /// `D = [a, b) \ Z`.
    pub fn d(&self) -> Vec<usize> {
        (self.a..self.b).filter(|&x| !self.z[x]).collect()
    }

    /// `Lambda`, ascending.
    pub fn lambda(&self) -> Vec<usize> {
        (self.lambda.0..self.lambda.1).collect()
    }

    /// (T0) `rho in Theta_{a+b}  <=>  Z ∩ (Z + rho) = ∅`.
    pub fn t0(&self, rho: usize) -> bool {
        (0..self.n).all(|z| !(self.z[z] && self.in_z(z + rho)))
    }

    /// (T1) `rho in Theta_{c+a}  <=>  Z ∩ [0, delta) ∩ (Z + (delta - rho)) = ∅`.
    pub fn t1(&self, rho: usize) -> bool {
        let n = self.n;
        // x - (delta - rho) mod n, kept non-negative.
        (0..self.delta).all(|x| !(self.z[x] && self.in_z(x + rho % n + n - self.delta % n)))
    }

    /// (T2) `rho in Theta_{c+b}  <=>  (rho + Lambda) ∩ Z = ∅  and  (rho + D) ∩ Lambda = ∅`.
    pub fn t2(&self, rho: usize) -> bool {
        let (lo, hi) = self.lambda;
        (lo..hi).all(|x| !self.in_z(x + rho))
            && (self.a..self.b)
                .filter(|&u| !self.z[u])
                .all(|u| !(lo..hi).contains(&((u + rho) % self.n)))
    }

    /// The angles `rho in [0, a+b)` passing `test`.
    pub fn angles(&self, test: impl Fn(&Self, usize) -> bool) -> Vec<usize> {
        (0..self.n).filter(|&rho| test(self, rho)).collect()
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "(a,b) = ({},{}), a+b = {}, delta = {}, eta = {}, eps = {}, N = {}",
            self.a, self.b, self.n, self.delta, self.eta, self.eps, self.big_n
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Example 1 of the paper (Manabe's paper).
    #[test]
    fn example_1() {
        let base = Base::new(3, 8);
        assert_eq!(
            (base.n, base.delta, base.eta, base.eps, base.big_n),
            (11, 5, 1, 2, 5)
        );
        assert_eq!(base.z(), vec![0, 1, 2, 6, 7]);
        assert_eq!(base.d(), vec![3, 4, 5]);
        assert_eq!(base.lambda(), vec![5]);
        assert_eq!(base.angles(Base::t0), vec![3, 8]);
        assert_eq!(base.angles(Base::t1), vec![2, 8]);
        assert_eq!(base.angles(Base::t2), vec![3, 4, 5, 9, 10]);
    }

    /// Slices (7,12) and (3,17) of docs/subtraction.md, section 6.
    #[test]
    fn published_slices() {
        let base = Base::new(7, 12);
        assert_eq!(base.angles(Base::t0), (7..=12).collect::<Vec<_>>());
        let mut ca = vec![0];
        ca.extend(12..=18);
        assert_eq!(base.angles(Base::t1), ca);
        assert_eq!(base.angles(Base::t2), vec![5, 6, 7]);
        let base = Base::new(3, 17);
        assert_eq!(base.angles(Base::t0), vec![3, 17]);
        assert_eq!(base.angles(Base::t1), vec![11, 17]);
        assert_eq!(base.angles(Base::t2), vec![2, 3, 8, 9, 14, 15]);
    }
}
