//! Theorem 32's prediction for a triple (Manabe's paper), or why there is none.

use std::fmt;

use serde::Serialize;

use super::base::Base;
use super::{additive_period, gcd};

/// Which candidate period an angle admits first, in the order `a+b < c+a < c+b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Zone {
    /// `rho in Theta_{a+b}` (the inert case: `W0(S) = W0(B)`).
    APlusB,
    CPlusA,
    CPlusB,
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Zone::APlusB => "a+b",
            Zone::CPlusA => "c+a",
            Zone::CPlusB => "c+b",
        })
    }
}

/// The least admissible zone of the angle `rho`, `None` if it is uncovered.
pub fn zone(base: &Base, rho: usize) -> Option<Zone> {
    if base.t0(rho) {
        Some(Zone::APlusB)
    } else if base.t1(rho) {
        Some(Zone::CPlusA)
    } else if base.t2(rho) {
        Some(Zone::CPlusB)
    } else {
        None
    }
}

/// Everything `nimseq sub theta a,b` shows: the base, its sets, and the zone of every angle.
#[derive(Clone, Debug, Serialize)]
pub struct ThetaReport {
    pub a: usize,
    pub b: usize,
    pub delta: usize,
    pub eta: usize,
    pub eps: usize,
    pub big_n: usize,
    pub z: Vec<usize>,
    pub d: Vec<usize>,
    pub lambda: Vec<usize>,
    pub theta_a_plus_b: Vec<usize>,
    pub theta_c_plus_a: Vec<usize>,
    pub theta_c_plus_b: Vec<usize>,
    /// For `rho = 0 .. a+b-1`: the least admissible zone, `None` when uncovered.
    pub zones: Vec<Option<Zone>>,
}

impl ThetaReport {
    pub fn new(a: usize, b: usize) -> Self {
        let base = Base::new(a, b);
        ThetaReport {
            a,
            b,
            delta: base.delta,
            eta: base.eta,
            eps: base.eps,
            big_n: base.big_n,
            z: base.z(),
            d: base.d(),
            lambda: base.lambda(),
            theta_a_plus_b: base.angles(Base::t0),
            theta_c_plus_a: base.angles(Base::t1),
            theta_c_plus_b: base.angles(Base::t2),
            zones: (0..base.n).map(|rho| zone(&base, rho)).collect(),
        }
    }
}

impl ThetaReport {
    /// Whether the angle `rho` holds primitive rulesets: `gcd(a, b, c) = gcd(a, b, rho)`.
    pub fn primitive_at(&self, rho: usize) -> bool {
        gcd(gcd(self.a, self.b), rho) == 1
    }
}

impl fmt::Display for ThetaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |v: &[usize]| {
            let items: Vec<String> = v.iter().map(usize::to_string).collect();
            format!("{{{}}}", items.join(","))
        };
        let n = self.a + self.b;
        writeln!(
            f,
            "base         (a,b) = ({},{}), a+b = {n}, delta = {}, eta = {}, eps = {}",
            self.a, self.b, self.delta, self.eta, self.eps
        )?;
        writeln!(f, "Z            {} (N = {})", set(&self.z), self.big_n)?;
        writeln!(f, "D            {}", set(&self.d))?;
        writeln!(f, "Lambda       {}", set(&self.lambda))?;
        writeln!(f, "Theta_a+b    {}", set(&self.theta_a_plus_b))?;
        writeln!(f, "Theta_c+a    {}", set(&self.theta_c_plus_a))?;
        writeln!(f, "Theta_c+b    {}", set(&self.theta_c_plus_b))?;
        if self.a == 1 {
            writeln!(
                f,
                "a = 1 lies outside the paper (Remark 6): the zones below are not predictions"
            )?;
        }
        writeln!(
            f,
            "rho  zone (c = K(a+b) + rho, a primitive non-additive c; Theorem 32)"
        )?;
        for (rho, z) in self.zones.iter().enumerate() {
            let text = match z {
                Some(z) => format!("p = {z}, purely periodic"),
                None => "uncovered: pre-periodic by Conjecture 50".to_string(),
            };
            let note = if !self.primitive_at(rho) {
                " (no primitive c at this angle)"
            } else {
                ""
            };
            writeln!(f, "{rho:>3}  {text}{note}")?;
        }
        write!(
            f,
            "(rho = 0 with K = 1 is the additive c = a+b: purely periodic, Theorem 34)"
        )
    }
}

/// The per-ruleset theory columns of `nimseq sub scan --theory` (docs/subtraction.md section 5's
/// record), all computed on the primitive ruleset `S / g`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TheoryColumns {
    pub g: usize,
    pub rho: usize,
    #[serde(rename = "K")]
    pub k: usize,
    #[serde(rename = "T0")]
    pub t0: bool,
    #[serde(rename = "T1")]
    pub t1: bool,
    #[serde(rename = "T2")]
    pub t2: bool,
    /// The predicted least period; -1 uncovered (pre-periodic by Conjecture 50), -2 outside the
    /// paper (`a / g = 1`).
    pub predicted_period: i64,
    /// Whether the computed period agrees where the paper makes a claim (a theorem, or
    /// Conjecture 50 for uncovered angles); none outside it.
    pub agrees: Option<bool>,
}

impl TheoryColumns {
    /// The columns for `{a, b, c}` whose computed period and pre-period are `p` and `q`.
    pub fn new(a: usize, b: usize, c: usize, p: usize, q: usize) -> Self {
        let g = gcd(gcd(a, b), c);
        let (a1, b1, c1) = (a / g, b / g, c / g);
        let base = Base::new(a1, b1);
        let rho = c1 % (a1 + b1);
        let (predicted_period, agrees) = match predict_on(&base, c1, g) {
            Prediction::Covered { period, .. } | Prediction::Additive { period } => {
                (period as i64, Some(q == 0 && p == period))
            }
            Prediction::Uncovered => (-1, Some(q > 0)),
            Prediction::OutsideTheory => (-2, None),
        };
        TheoryColumns {
            g,
            rho,
            k: c1 / (a1 + b1),
            t0: base.t0(rho),
            t1: base.t1(rho),
            t2: base.t2(rho),
            predicted_period,
            agrees,
        }
    }
}

/// What the paper says about `{a, b, c}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Prediction {
    /// `a / gcd(a, b, c) = 1`: outside the paper (Remark 6).
    OutsideTheory,
    /// `c = a + b` (after dividing by the gcd): purely periodic, Theorem 34 and Remark 35.
    Additive { period: usize },
    /// Theorem 32: purely periodic with exactly this least period.
    Covered { zone: Zone, period: usize },
    /// Uncovered angle: pre-periodic by Conjecture 50.
    Uncovered,
}

/// The prediction for `a < b < c`, reduced by `g = gcd(a, b, c)` and scaled back (Lemma 5).
pub fn predict(a: usize, b: usize, c: usize) -> Prediction {
    let g = gcd(gcd(a, b), c);
    predict_on(&Base::new(a / g, b / g), c / g, g)
}

/// [`predict`] on the base of the reduced pair, `c1` the reduced largest move and `g` the gcd
/// it was reduced by: for callers that need the base too, which is then built once.
pub fn predict_on(base: &Base, c1: usize, g: usize) -> Prediction {
    let (a, b) = (base.a, base.b);
    if a == 1 {
        return Prediction::OutsideTheory;
    }
    if c1 == a + b {
        return Prediction::Additive {
            period: g * additive_period(a, b),
        };
    }
    match zone(base, c1 % (a + b)) {
        Some(zone) => Prediction::Covered {
            zone,
            period: g * match zone {
                Zone::APlusB => a + b,
                Zone::CPlusA => c1 + a,
                Zone::CPlusB => c1 + b,
            },
        },
        None => Prediction::Uncovered,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_3_8_of_the_paper() {
        // docs/subtraction.md, section 6, zone column.
        let expect = [
            (9, Some(Zone::CPlusB)),
            (10, Some(Zone::CPlusB)),
            (12, None),
            (13, Some(Zone::CPlusA)),
            (14, Some(Zone::APlusB)),
            (15, Some(Zone::CPlusB)),
            (17, None),
            (24, Some(Zone::CPlusA)),
        ];
        for (c, z) in expect {
            let got = match predict(3, 8, c) {
                Prediction::Covered { zone, .. } => Some(zone),
                _ => None,
            };
            assert_eq!(got, z, "{{3,8,{c}}}");
        }
        assert_eq!(predict(3, 8, 11), Prediction::Additive { period: 54 });
        assert_eq!(
            predict(3, 8, 15),
            Prediction::Covered {
                zone: Zone::CPlusB,
                period: 23
            }
        );
        // Remarks 33 and 51: outside the theory, or reduced by the gcd.
        assert_eq!(predict(1, 3, 5), Prediction::OutsideTheory);
        assert_eq!(predict(2, 14, 18), Prediction::OutsideTheory);
        assert_eq!(predict(2, 4, 6), Prediction::OutsideTheory);
    }
}
