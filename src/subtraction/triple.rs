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
    pub fn triples(&self) -> impl Iterator<Item = Triple> + '_ {
        (self.c_min.max(3)..=self.c_max).flat_map(move |c| {
            let a_hi = self.a_max.map_or(c - 1, |m| m.min(c - 1));
            (self.a_min.max(1)..=a_hi).flat_map(move |a| {
                let b_hi = self.b_max.map_or(c - 1, |m| m.min(c - 1));
                (self.b_min.max(a + 1)..=b_hi)
                    .map(move |b| Triple { a, b, c })
                    .filter(move |t| {
                        !self.primitive || gcd(gcd(t.a as usize, t.b as usize), t.c as usize) == 1
                    })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_triple_in_peer_order() {
        let all: Vec<Triple> = TripleFilter::up_to(200).triples().collect();
        assert_eq!(all.len(), 1_313_400);
        assert_eq!(all[0], Triple { a: 1, b: 2, c: 3 });
        assert_eq!(all[1], Triple { a: 1, b: 2, c: 4 });
        assert_eq!(all[2], Triple { a: 1, b: 3, c: 4 });
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
        assert!(!f.triples().any(|t| t == Triple { a: 2, b: 4, c: 6 }));
    }
}
