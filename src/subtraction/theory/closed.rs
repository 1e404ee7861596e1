//! The admissible angle sets from the paper's closed forms (Manabe's paper): a second
//! implementation, independent of the finite tests in [`super::base`], for the tests to compare.

use super::base::Base;

/// Sorted angles in `[0, n)` from closed arcs `[lo, hi]` (empty when `lo > hi`), taken mod `n`.
fn arcs(n: usize, arcs: &[(usize, usize)]) -> Vec<usize> {
    let mut out: Vec<usize> = arcs
        .iter()
        .flat_map(|&(lo, hi)| (lo..=hi).map(move |x| x % n))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Lemma 14: `I = Theta_{a+b}`; `[a, b]` if `b <= 2a`; the odd multiples `j a <= b` if `b = k a`
/// with `k` odd; `{a, b}` otherwise.
pub fn theta_a_plus_b(base: &Base) -> Vec<usize> {
    let (a, b, n) = (base.a, base.b, base.n);
    if b <= 2 * a {
        arcs(n, &[(a, b)])
    } else if b % a == 0 && (b / a) % 2 == 1 {
        (1..=b / a).step_by(2).map(|j| j * a).collect()
    } else {
        arcs(n, &[(a, a), (b, b)])
    }
}

/// Theorem 57, for `a >= 2`: `Theta_{c+a}` is `{0} ∪ [b, a+b)` if `b <= 2a`; `I` if `b = k a`
/// with `k` odd; `{(delta - a) mod (a+b), b}` otherwise.
pub fn theta_c_plus_a(base: &Base) -> Vec<usize> {
    let (a, b, n) = (base.a, base.b, base.n);
    if b <= 2 * a {
        arcs(n, &[(0, 0), (b, n - 1)])
    } else if b % a == 0 && (b / a) % 2 == 1 {
        theta_a_plus_b(base)
    } else {
        arcs(n, &[(b - 2 * a, b - 2 * a), (b, b)])
    }
}

/// Theorem 28, for `a ∤ b`: `Theta_{c+b} = C_{a,b} ⊔ {a}`.
///
/// # Panics
/// If `a` divides `b` (the harmonic rows have no such closed form).
pub fn theta_c_plus_b(base: &Base) -> Vec<usize> {
    let (a, n, eta, eps) = (base.a, base.n, base.eta, base.eps);
    assert!(eps != 0, "Theorem 28 needs a not dividing b");
    let mut c = Vec::new();
    if eta % 2 == 0 {
        // [eps, a) ∪ union_{i=1..t} [2ia + eps, (2i+1)a]
        c.push((eps, a - 1));
        c.extend((1..=eta / 2).map(|i| (2 * i * a + eps, (2 * i + 1) * a)));
    } else {
        // [a+1, a+eps] ∪ union_{j=2..t+1} [(2j-1)a, (2j-1)a + eps] ∪ [(eta+2)a, (eta+1)a + 2eps]
        let t = (eta - 1) / 2;
        c.push((a + 1, a + eps));
        c.extend((2..=t + 1).map(|j| ((2 * j - 1) * a, (2 * j - 1) * a + eps)));
        c.push(((eta + 2) * a, (eta + 1) * a + 2 * eps));
    }
    c.push((a, a));
    arcs(n, &c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/subtraction.md, section 6: every closed form equals its finite test for all `a < b <=
    /// 60`.
    #[test]
    fn closed_forms_match_the_finite_tests() {
        for b in 2..=60 {
            for a in 1..b {
                let base = Base::new(a, b);
                assert_eq!(
                    theta_a_plus_b(&base),
                    base.angles(Base::t0),
                    "Lemma 14 at ({a},{b})"
                );
                if a < 2 {
                    continue;
                }
                assert_eq!(
                    theta_c_plus_a(&base),
                    base.angles(Base::t1),
                    "Thm 57 at ({a},{b})"
                );
                if b % a != 0 {
                    assert_eq!(
                        theta_c_plus_b(&base),
                        base.angles(Base::t2),
                        "Thm 28 at ({a},{b})"
                    );
                } else if (b / a) % 2 == 1 {
                    // Odd harmonic: Lambda is empty, every angle passes.
                    assert_eq!(base.angles(Base::t2).len(), base.n, "({a},{b})");
                } else {
                    // Even harmonic, Prop 61: only multiples of a.
                    assert!(
                        base.angles(Base::t2).iter().all(|r| r % a == 0),
                        "({a},{b})"
                    );
                }
            }
        }
    }
}
