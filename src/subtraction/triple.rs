//! Three-move rulesets and the scan's work list: every triple `a < b < c` in a fixed order.

use super::ruleset::Ruleset;
use super::theory::gcd;
use crate::InputError;

/// The ruleset `{a, b, c}` with `0 < a < b < c`, without the allocation of a [`Ruleset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Triple {
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

impl Triple {
    pub fn ruleset(self) -> Ruleset {
        Ruleset::triple(self.a, self.b, self.c)
    }
}

/// Which triples a scan visits. Bounds are inclusive; `None` leaves a side open.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TripleFilter {
    pub c_min: u32,
    pub c_max: u32,
    pub a_min: u32,
    pub a_max: Option<u32>,
    pub b_min: u32,
    pub b_max: Option<u32>,
    /// Only `gcd(a, b, c) = 1`.
    pub primitive: bool,
}

impl TripleFilter {
    /// Every triple with `c <= c_max`.
    pub fn up_to(c_max: u32) -> Self {
        TripleFilter {
            c_min: 3,
            c_max,
            a_min: 1,
            a_max: None,
            b_min: 2,
            b_max: None,
            primitive: false,
        }
    }

    /// The triples in scan order: `c` ascending, then `a`, then `b` (the order of
    /// `tests/data/sub_scan_naive.c`, so that checksums compare).
    pub fn triples(&self) -> Triples<'_> {
        let c = self.c_min.max(3);
        // With no `c` in range, `a > a_hi` makes `settle` step past `c_max` at once.
        let mut it = Triples {
            filter: self,
            a: 1,
            b: 0,
            c,
            a_hi: 0,
            b_hi: 0,
        };
        if c <= self.c_max {
            it.enter_c();
        }
        it.settle();
        it
    }

    /// Refuses bounds that contradict each other (a smallest above a largest) and bounds that
    /// leave no triple, naming the flags.
    pub fn check(&self) -> Result<(), InputError> {
        let pairs = [
            ("c", self.c_min, Some(self.c_max)),
            ("a", self.a_min, self.a_max),
            ("b", self.b_min, self.b_max),
        ];
        for (x, lo, hi) in pairs {
            if let Some(hi) = hi.filter(|&hi| lo > hi) {
                return Err(InputError(format!(
                    "--{x}-min {lo} is above --{x}-max {hi}: no triple to scan"
                )));
            }
        }
        if self.count() == 0 {
            return Err(InputError(format!(
                "no triple a < b < c fits the bounds (c in {}..={}, a >= {}{}, b >= {}{})",
                self.c_min.max(3),
                self.c_max,
                self.a_min.max(1),
                self.a_max.map_or(String::new(), |m| format!(", a <= {m}")),
                self.b_min.max(2),
                self.b_max.map_or(String::new(), |m| format!(", b <= {m}")),
            )));
        }
        Ok(())
    }

    /// How many triples [`Self::triples`] visits, in closed form for each `c`; primitive ones
    /// by Moebius inversion over the common divisor `d` of the triples that are all multiples
    /// of `d` (`c_max log c_max` steps, where visiting them would take `c_max^3 / 6`).
    pub fn count(&self) -> u64 {
        if !self.primitive {
            return self.count_multiples_of(1);
        }
        let mu = moebius(self.c_max as usize);
        (1..=self.c_max)
            .map(|d| (i64::from(mu[d as usize]), self.count_multiples_of(d)))
            .fold(0i64, |sum, (m, n)| sum + m * n as i64) as u64
    }

    /// Triples of the filter (primitive or not) whose moves are all multiples of `d`.
    fn count_multiples_of(&self, d: u32) -> u64 {
        let up = |x: u32| x.div_ceil(d);
        let down = |x: u32| x / d;
        let (a_min, b_min) = (up(self.a_min.max(1)), up(self.b_min.max(2)));
        let (a_max, b_max) = (self.a_max.map(down), self.b_max.map(down));
        (up(self.c_min.max(3)).max(3)..=down(self.c_max))
            .map(|c| {
                let a_hi = a_max.map_or(c - 1, |m| m.min(c - 1));
                let b_hi = u64::from(b_max.map_or(c - 1, |m| m.min(c - 1)));
                let (a_lo, b_min) = (u64::from(a_min), u64::from(b_min));
                let a_hi = u64::from(a_hi);
                if a_lo > a_hi {
                    return 0;
                }
                // a contributes the b's in [max(b_min, a + 1), b_hi]: b_hi - b_min + 1 of them
                // while a < b_min, then b_hi - a.
                let flat = (a_hi.min(b_min.saturating_sub(1)) + 1).saturating_sub(a_lo);
                let flat = flat * (b_hi + 1).saturating_sub(b_min);
                let (lo, hi) = (a_lo.max(b_min), a_hi.min(b_hi.saturating_sub(1)));
                let sloped = if lo <= hi {
                    // The sum of b_hi - a for a in [lo, hi].
                    (hi - lo + 1) * (2 * b_hi - lo - hi) / 2
                } else {
                    0
                };
                flat + sloped
            })
            .sum()
    }

    fn a_range(&self, c: u32) -> (u32, u32) {
        (
            self.a_min.max(1),
            self.a_max.map_or(c - 1, |m| m.min(c - 1)),
        )
    }

    /// The smallest `b` for `a` (at least 2, so `b_lo(a) - 1` does not wrap).
    fn b_lo(&self, a: u32) -> u32 {
        self.b_min.max(a + 1)
    }

    fn b_hi(&self, c: u32) -> u32 {
        self.b_max.map_or(c - 1, |m| m.min(c - 1))
    }
}

/// The iterator of [`TripleFilter::triples`]: a plain odometer over `(c, a, b)`, since a scan
/// walks millions of triples (twice when it resumes).
#[derive(Clone, Debug)]
pub struct Triples<'f> {
    filter: &'f TripleFilter,
    a: u32,
    b: u32,
    c: u32,
    /// The largest `a` and `b` for this `c`.
    a_hi: u32,
    b_hi: u32,
}

/// The Moebius function of `0..=n` (`mu[0]` unused), by a sieve.
fn moebius(n: usize) -> Vec<i8> {
    let mut mu = vec![1i8; n + 1];
    let mut composite = vec![false; n + 1];
    for p in 2..=n {
        if composite[p] {
            continue;
        }
        for m in (p..=n).step_by(p) {
            composite[m] = m != p || composite[m];
            mu[m] = -mu[m];
        }
        for m in (p * p..=n).step_by(p * p) {
            mu[m] = 0;
        }
    }
    mu
}

impl Triples<'_> {
    /// Takes the bounds of the current `c` and its first `a`.
    fn enter_c(&mut self) {
        (self.a, self.a_hi) = self.filter.a_range(self.c);
        self.b_hi = self.filter.b_hi(self.c);
    }

    /// From the current `a` on, stops at the first `(a, b)` with a `b` in range, moving on to
    /// the next `c` as needed; past the last `c` if there is none.
    fn settle(&mut self) {
        loop {
            if self.a <= self.a_hi {
                self.b = self.filter.b_lo(self.a);
                // `b_lo` never falls as `a` grows: no larger `a` has a `b` in range either.
                if self.b <= self.b_hi {
                    return;
                }
            }
            self.c += 1;
            if self.c > self.filter.c_max {
                return;
            }
            self.enter_c();
        }
    }

    /// Moves to the next `(a, b, c)` in scan order, filters aside.
    fn step(&mut self) {
        self.b += 1;
        if self.b > self.b_hi {
            self.a += 1;
            self.settle();
        }
    }
}

impl Iterator for Triples<'_> {
    type Item = Triple;

    fn next(&mut self) -> Option<Triple> {
        while self.c <= self.filter.c_max {
            let t = Triple {
                a: self.a,
                b: self.b,
                c: self.c,
            };
            self.step();
            if !self.filter.primitive || gcd(gcd(t.a as usize, t.b as usize), t.c as usize) == 1 {
                return Some(t);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_triple_in_peer_order() {
        let all: Vec<Triple> = TripleFilter::up_to(200).triples().collect();
        assert_eq!(all.len(), 1_313_400);
        assert_eq!(TripleFilter::up_to(200).count(), 1_313_400);
        assert_eq!(all[0], Triple { a: 1, b: 2, c: 3 });
        assert_eq!(all[1], Triple { a: 1, b: 2, c: 4 });
        assert_eq!(all[2], Triple { a: 1, b: 3, c: 4 });
    }

    /// The odometer and the count against nested loops, over bounds that cut every way
    /// (empty ranges included).
    #[test]
    fn matches_nested_loops() {
        for c_min in [0, 3, 9, 30] {
            for (a_min, a_max) in [(0, None), (4, Some(7)), (5, Some(2)), (12, None)] {
                for (b_min, b_max) in [(0, None), (6, Some(11)), (20, None), (3, Some(3))] {
                    for primitive in [false, true] {
                        let f = TripleFilter {
                            c_min,
                            c_max: 25,
                            a_min,
                            a_max,
                            b_min,
                            b_max,
                            primitive,
                        };
                        let mut want = Vec::new();
                        for c in 3..=25u32 {
                            for a in 1..c {
                                for b in a + 1..c {
                                    let keep = c >= c_min
                                        && a >= a_min
                                        && a_max.is_none_or(|m| a <= m)
                                        && b >= b_min
                                        && b_max.is_none_or(|m| b <= m)
                                        && (!primitive
                                            || gcd(gcd(a as usize, b as usize), c as usize) == 1);
                                    if keep {
                                        want.push(Triple { a, b, c });
                                    }
                                }
                            }
                        }
                        assert_eq!(f.triples().collect::<Vec<_>>(), want, "{f:?}");
                        assert_eq!(f.count(), want.len() as u64, "{f:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn filters_apply() {
        let f = TripleFilter {
            a_min: 2,
            a_max: Some(3),
            b_max: Some(6),
            primitive: true,
            ..TripleFilter::up_to(8)
        };
        for t in f.triples() {
            assert!((2..=3).contains(&t.a) && t.b <= 6 && t.c <= 8);
            assert_eq!(gcd(gcd(t.a as usize, t.b as usize), t.c as usize), 1);
        }
        assert!(f.triples().any(|t| t == Triple { a: 3, b: 5, c: 8 }));
        assert_eq!(f.count(), f.triples().count() as u64);
        assert!(!f.triples().any(|t| t == Triple { a: 2, b: 4, c: 6 }));
    }
}
