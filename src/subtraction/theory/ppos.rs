//! P-positions from the closed forms (Theorem 29 / Table 2, Theorem 34) and all nim-values
//! rebuilt from them (Theorem 40): Manabe's paper.

use super::super::planes::Planes;
use super::super::ruleset::Ruleset;
use super::base::Base;
use super::predict::{Prediction, Zone, predict, predict_on};
use super::{additive_period, gcd};
use crate::InputError;
use crate::memory::Budget;

/// `w_B(n)`: the `n`-th P-position of the base game `{a, b}` (Proposition 7).
fn w_base(base: &Base, n: usize) -> usize {
    let k = n % base.big_n;
    base.n * (n / base.big_n) + k + base.a * (k / base.a)
}

/// The first `count` P-positions of `{a, b, c}` by the closed form the paper gives for it, with
/// the form's name; `None` where the paper gives none (uncovered, or `a / g = 1`).
pub fn closed_form(
    a: usize,
    b: usize,
    c: usize,
    count: usize,
) -> Option<(&'static str, Vec<usize>)> {
    let g = gcd(gcd(a, b), c);
    let (a1, b1, c1) = (a / g, b / g, c / g);
    let base = Base::new(a1, b1);
    let prediction = predict_on(&base, c1, g);
    // Lemma 5: W0(g S') = { g m + r : m in W0(S'), 0 <= r < g }.
    let primitive_count = count.div_ceil(g);
    let (name, primitive): (&str, Vec<usize>) = match prediction {
        Prediction::OutsideTheory | Prediction::Uncovered => return None,
        Prediction::Additive { .. } => {
            let (eta, delta) = ((b1 - a1) / a1, b1 - a1);
            let p_add = additive_period(a1, b1);
            let (m, alpha): (usize, Box<dyn Fn(usize) -> usize>) = if eta % 2 == 0 {
                ((eta / 2 + 1) * a1, Box::new(move |n| n + a1 * (n / a1)))
            } else {
                let m_eta = delta - (eta - 1) / 2 * a1;
                (
                    a1 * m_eta,
                    Box::new(move |n| n + a1 * (n / a1) + b1 * (n / m_eta)),
                )
            };
            let w = (0..primitive_count).map(|n| alpha(n % m) + p_add * (n / m));
            ("Theorem 34 (additive)", w.collect())
        }
        Prediction::Covered { zone, .. } => {
            let rho = c1 % base.n;
            let n_c = c1 / base.n * base.big_n + (0..rho).filter(|&x| base.in_z(x)).count();
            match zone {
                Zone::APlusB => (
                    "Theorem 29, inert: w_B(n)",
                    (0..primitive_count).map(|n| w_base(&base, n)).collect(),
                ),
                Zone::CPlusA => (
                    "Theorem 29, p = c+a: w_B(n mod N_c) + (c+a) floor(n / N_c)",
                    (0..primitive_count)
                        .map(|n| w_base(&base, n % n_c) + (c1 + a1) * (n / n_c))
                        .collect(),
                ),
                Zone::CPlusB => {
                    // The band D_rho = { u in D : rho + u in Z }.
                    let band: Vec<usize> = base
                        .d()
                        .into_iter()
                        .filter(|&u| base.in_z(rho + u))
                        .collect();
                    let block = n_c + band.len();
                    let w = (0..primitive_count).map(|n| {
                        let nbar = n % block;
                        let head = if nbar < n_c {
                            w_base(&base, nbar)
                        } else {
                            c1 + band[nbar - n_c]
                        };
                        head + (c1 + b1) * (n / block)
                    });
                    ("Theorem 29, p = c+b: with the band D_rho", w.collect())
                }
            }
        }
    };
    let dilated = primitive
        .into_iter()
        .flat_map(|m| (0..g).map(move |r| g * m + r))
        .take(count)
        .collect();
    Some((name, dilated))
}

/// Theorem 40: all nim-values on `[0, len)` from the P-positions alone. `W1 = W0 + a`; on the
/// rest, the length `L` of the backward `a`-chain decides: 2 if even, 3 if odd.
pub fn values_from_p_positions(is_p: &[bool], a: usize) -> Vec<u32> {
    let len = is_p.len();
    let in_w1 = |x: usize| x >= a && is_p[x - a];
    let in_v = |x: usize| !(is_p[x] || in_w1(x));
    let mut g = vec![0u32; len];
    for (x, value) in g.iter_mut().enumerate() {
        *value = if is_p[x] {
            0
        } else if in_w1(x) {
            1
        } else {
            // L(v) = min{ t : v - a t not in V } - 1, negative positions not in V.
            let mut t = 0;
            while t * a <= x && in_v(x - t * a) {
                t += 1;
            }
            if (t - 1) % 2 == 0 { 2 } else { 3 }
        };
    }
    g
}

/// Most values [`PposReport::for_set`] computes: P-positions are at most `c + 1` apart, so this
/// bounds `count * c`.
pub const MAX_LEN: usize = 1 << 28;

/// Everything `nimseq sub ppos` shows: closed form beside brute force, and Theorem 40's check.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PposReport {
    pub set: [usize; 3],
    /// Which closed form, or why there is none.
    pub formula: String,
    pub closed_form: Option<Vec<usize>>,
    pub brute_force: Vec<usize>,
    /// Whether Theorem 40 rebuilds every value below the last listed P-position from the
    /// brute-force P-positions.
    pub theorem_40_holds: bool,
}

impl PposReport {
    /// `g` is the brute-force nim sequence, long enough to hold `count` P-positions.
    ///
    /// # Panics
    /// If `g` holds fewer than `count` P-positions.
    /// The first `count` P-positions of the triple `set`, refused if it is not a triple, or
    /// `count` may need more than [`MAX_LEN`] values or more than `budget` holds.
    pub fn for_set(set: &Ruleset, count: usize, budget: Budget) -> Result<Self, InputError> {
        let &[a, b, c] = set.moves() else {
            return Err(InputError(format!(
                "ppos needs three moves a,b,c; got {set}"
            )));
        };
        // Of any c + 1 consecutive positions one is a P-position, so this length holds `count`.
        let len = count
            .checked_add(1)
            .and_then(|n| n.checked_mul(c as usize + 1))
            .filter(|&len| len <= MAX_LEN)
            .ok_or_else(|| {
                InputError(format!(
                    "--count {count} with c = {c} may need more than {MAX_LEN} values; lower --count"
                ))
            })?;
        // The values (4 bytes each) and their bit planes (a word of 64 per move, grown by
        // doubling).
        let bytes = len as u64 * 4 + (len as u64).div_ceil(64) * 3 * 8 * 2;
        budget
            .check(bytes, || format!("--count {count} for {set}"))
            .map_err(|e| InputError(e.to_string()))?;
        let mut planes = Planes::default();
        planes.reset(set.moves());
        planes.extend(len);
        let g: Vec<u32> = (0..len).map(|x| planes.value(x)).collect();
        Ok(Self::new(a as usize, b as usize, c as usize, count, &g))
    }

    pub fn new(a: usize, b: usize, c: usize, count: usize, g: &[u32]) -> Self {
        let brute_force: Vec<usize> = (0..g.len()).filter(|&x| g[x] == 0).take(count).collect();
        assert_eq!(brute_force.len(), count, "the sequence is too short");
        let len = brute_force[count - 1] + 1;
        let is_p: Vec<bool> = g[..len].iter().map(|&v| v == 0).collect();
        let closed = closed_form(a, b, c, count);
        let formula = match (&closed, predict(a, b, c)) {
            (Some((name, _)), _) => name.to_string(),
            (None, Prediction::Uncovered) => {
                "none: uncovered angle, pre-periodic by Conjecture 50".to_string()
            }
            (None, _) => "none: a / gcd(a,b,c) = 1, outside the paper (Remark 6)".to_string(),
        };
        PposReport {
            set: [a, b, c],
            formula,
            closed_form: closed.map(|(_, w)| w),
            brute_force,
            theorem_40_holds: values_from_p_positions(&is_p, a) == g[..len],
        }
    }
}

impl std::fmt::Display for PposReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [a, b, c] = self.set;
        writeln!(f, "set          {{{a},{b},{c}}}")?;
        writeln!(f, "closed form  {}", self.formula)?;
        writeln!(f, "{:>5} {:>12} {:>12}", "n", "closed form", "brute force")?;
        for (n, &x) in self.brute_force.iter().enumerate() {
            let closed = self
                .closed_form
                .as_ref()
                .map_or("-".to_string(), |w| w[n].to_string());
            let mark = match &self.closed_form {
                Some(w) if w[n] != x => "  DIFFERS",
                _ => "",
            };
            writeln!(f, "{n:>5} {closed:>12} {x:>12}{mark}")?;
        }
        let agree = match &self.closed_form {
            Some(w) if *w == self.brute_force => "closed form = brute force on every row",
            Some(_) => "closed form DIFFERS from brute force",
            None => "no closed form to compare",
        };
        writeln!(f, "{agree}")?;
        write!(
            f,
            "Theorem 40   values rebuilt from the P-positions {} on [0, {}]",
            if self.theorem_40_holds {
                "match G"
            } else {
                "DIFFER from G"
            },
            self.brute_force.last().copied().unwrap_or(0)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subtraction::{Ruleset, reference};

    /// Every covered, additive or dilated triple with c <= 40: closed form = brute force, and
    /// Theorem 40 rebuilds every value.
    #[test]
    fn closed_forms_and_reconstruction_match_brute_force() {
        let mut checked = 0;
        for c in 3..=40 {
            for b in 2..c {
                for a in 1..b {
                    let Some((_, w)) = closed_form(a, b, c, 60) else {
                        continue;
                    };
                    let set = Ruleset::new(&[a as u32, b as u32, c as u32]).unwrap();
                    let len = w[59] + 1;
                    let g = reference::nim_values(&set, len);
                    let want: Vec<usize> = (0..len).filter(|&x| g[x] == 0).collect();
                    assert_eq!(w, want, "{set}");
                    let is_p: Vec<bool> = g.iter().map(|&v| v == 0).collect();
                    assert_eq!(values_from_p_positions(&is_p, a), g, "Theorem 40 on {set}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 4000, "{checked}");
    }
}
