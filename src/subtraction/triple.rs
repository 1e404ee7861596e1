//! Three-move rulesets and the scan's work list: every triple `a < b < c` in a fixed order.

use super::ruleset::Ruleset;
use super::theory::gcd;

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
    /// `shared/peers/sub_scan_naive.c`, so that checksums compare).
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

    /// How many triples [`Self::triples`] visits, without visiting them unless `primitive`.
    pub fn count(&self) -> u64 {
        if self.primitive {
            return self.triples().count() as u64;
        }
        (self.c_min.max(3)..=self.c_max)
            .map(|c| {
                let (a_lo, a_hi) = self.a_range(c);
                let b_hi = self.b_hi(c);
                // a contributes the b's in [b_lo(a), b_hi].
                (a_lo..=a_hi)
                    .map(|a| u64::from(b_hi.saturating_sub(self.b_lo(a) - 1)))
                    .sum::<u64>()
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
            while self.a <= self.a_hi {
                self.b = self.filter.b_lo(self.a);
                if self.b <= self.b_hi {
                    return;
                }
                self.a += 1;
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
