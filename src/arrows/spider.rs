//! Spider states (spec `arrows.md` section 1.7, Proposition 6.1): a position of a spider is the
//! centre's status and, for each leg still attached, the unmarked length `h` up to its first arc
//! and that arc's direction `phi`; whatever lies beyond the first arc has split off into runs of
//! known value (Theorem 4.3). One dense table over all such states with legs up to `H` gives
//! `g(S(x_1, ..., x_k))` for every spider with legs up to `H` at once.
//!
//! A leg is coded `3h + phi` (`phi`: 0 no arc, 1 in, 2 out; 0 for a detached leg); a state is the
//! centre's status (n, i or o; a free centre has a closed form) and the sorted codes, ranked as
//! a multiset. Values are memoised in the table (`u16`: intermediate values reach the leg
//! lengths, Theorem 4.3's nim heaps). A table for all spiders is filled bottom-up by wavefronts
//! of equal total attached length (every move lowers it), each on all cores; a family table
//! (legs in fixed slots) is filled on demand by recursion.

use rayon::prelude::*;

use super::forest::Status;
use crate::mex::MexSet;

/// A leg's far end: no arc yet, or the direction of its first arc (relative to the centre).
const STAR: u16 = 0;
const IN: u16 = 1;
const OUT: u16 = 2;

/// Not yet computed.
const UNKNOWN: u16 = u16::MAX;

/// Longest leg a table takes: codes `3h + 2` fit a `u16`, and so does every value (a mex is at
/// most the number of options, two per unit of attached length: below 60,000 for three legs).
pub const MAX_LEG: usize = 10_000;

/// `rho(k; delta, phi)`: a run whose near end is blocked in direction `delta`, far end `phi`.
fn rho(k: u16, delta: u16, phi: u16) -> u16 {
    if phi == STAR {
        k
    } else if phi == delta {
        k % 2
    } else if k == 0 {
        0
    } else {
        (k + 1) % 2
    }
}

/// `rho*(k; phi)`: a run whose near end is free.
fn rho_free(k: u16, phi: u16) -> u16 {
    if phi == STAR { k % 2 } else { k }
}

fn times(s: Status, delta: u16) -> Status {
    let d = if delta == IN { Status::I } else { Status::O };
    match s {
        Status::N => d,
        s if s == d => s,
        _ => Status::F,
    }
}

/// Binomial coefficient for multiset ranks.
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// How a state's leg codes become a table index.
enum Indexing {
    /// Legs are interchangeable: codes sorted, ranked as a multiset of `codes` values (every
    /// spider with legs up to a bound); `terms[t][c] = C(c + t, t + 1)`.
    Multiset { codes: u64, terms: Vec<Vec<u64>> },
    /// Leg `t` stays in slot `t` with at most `radix[t]` codes (one family with a growing leg).
    Slots { radix: Vec<u64> },
}

/// Values of spider states, filled on demand.
pub struct SpiderTable {
    legs: usize,
    indexing: Indexing,
    values: Vec<u16>,
}

impl SpiderTable {
    /// Bytes a table for every `legs`-leg spider with legs up to `h_max` needs while it is
    /// filled: 2 per value, 3 statuses, and the wavefront lists (about 64 per leg tuple).
    pub fn bytes(legs: usize, h_max: usize) -> u64 {
        let codes = 3 * h_max as u64 + 3;
        binomial(codes + legs as u64 - 1, legs as u64) * (3 * 2 + 64)
    }

    /// Bytes a table for the spiders `S(x_1, ..., x_k)` with each `x_t <= bounds[t]` needs.
    pub fn slot_bytes(bounds: &[usize]) -> u64 {
        bounds
            .iter()
            .fold(3u64, |acc, &b| acc.saturating_mul(3 * b as u64 + 3))
            .saturating_mul(2)
    }

    /// A table for every `legs`-leg spider with legs up to `h_max`.
    pub fn new(legs: usize, h_max: usize) -> Self {
        assert!(
            h_max <= MAX_LEG && legs * h_max <= 3 * MAX_LEG,
            "legs up to {h_max}"
        );
        let codes = 3 * h_max as u64 + 3;
        let per_status = binomial(codes + legs as u64 - 1, legs as u64);
        let terms = (0..legs as u64)
            .map(|t| (0..codes).map(|c| binomial(c + t, t + 1)).collect())
            .collect();
        SpiderTable {
            legs,
            indexing: Indexing::Multiset { codes, terms },
            values: vec![UNKNOWN; (3 * per_status) as usize],
        }
    }

    /// A table for the spiders whose leg `t` is at most `bounds[t]` (legs keep their slots).
    pub fn for_slots(bounds: &[usize]) -> Self {
        assert!(
            bounds.iter().all(|&b| b <= MAX_LEG) && bounds.iter().sum::<usize>() <= 3 * MAX_LEG,
            "legs {bounds:?}"
        );
        let radix: Vec<u64> = bounds.iter().map(|&b| 3 * b as u64 + 3).collect();
        let per_status: u64 = radix.iter().product();
        SpiderTable {
            legs: bounds.len(),
            indexing: Indexing::Slots { radix },
            values: vec![UNKNOWN; (3 * per_status) as usize],
        }
    }

    /// The rank of the codes (sorted in multiset mode), after the status.
    fn index(&self, s: Status, codes: &[u16]) -> usize {
        let per_status = self.values.len() / 3;
        let rank: u64 = match &self.indexing {
            Indexing::Multiset { terms, .. } => codes
                .iter()
                .zip(terms)
                .map(|(&c, row)| row[usize::from(c)])
                .sum(),
            Indexing::Slots { radix } => codes
                .iter()
                .zip(radix)
                .fold(0, |acc, (&c, &r)| acc * r + u64::from(c)),
        };
        let block = match s {
            Status::N => 0,
            Status::I => 1,
            _ => 2,
        };
        block * per_status + rank as usize
    }

    /// `g(S(x_1, ..., x_k))` (each leg at most `h_max`).
    pub fn spider(&mut self, legs: &[usize]) -> u16 {
        assert_eq!(legs.len(), self.legs);
        let codes: Vec<u16> = legs.iter().map(|&x| 3 * x as u16 + STAR).collect();
        self.gamma(Status::N, &codes)
    }

    /// `Gamma(s; L)` for the attached legs `codes` (0 entries are detached legs).
    fn gamma(&mut self, s: Status, codes: &[u16]) -> u16 {
        if let Some(g) = degenerate(s, codes) {
            return g;
        }
        let interchangeable = matches!(self.indexing, Indexing::Multiset { .. });
        let mut key = [0u16; MAX_LEGS];
        let key = &mut key[..codes.len()];
        key.copy_from_slice(codes);
        if interchangeable {
            key.sort_unstable();
        }
        let at = self.index(s, key);
        if self.values[at] != UNKNOWN {
            return self.values[at];
        }
        let key = key.to_vec();
        let g = mex_of_options(s, &key, interchangeable, |s2, next| self.gamma(s2, next));
        self.values[at] = g;
        g
    }

    /// Values every state of a multiset table bottom-up: wavefronts of equal total attached
    /// length (every move lowers it), each wavefront on all cores.
    pub fn fill(&mut self) {
        let Indexing::Multiset { codes, .. } = self.indexing else {
            panic!("fill is for multiset tables");
        };
        let h_max = (codes / 3 - 1) as usize;
        // Sorted code tuples by total attached length.
        let mut fronts: Vec<Vec<Vec<u16>>> = vec![Vec::new(); self.legs * h_max + 1];
        let valid: Vec<u16> = std::iter::once(0)
            .chain((1..=h_max as u16).flat_map(|h| [3 * h, 3 * h + 1, 3 * h + 2]))
            .collect();
        let mut tuple = vec![0usize; self.legs];
        loop {
            let codes: Vec<u16> = tuple.iter().map(|&i| valid[i]).collect();
            let total: usize = codes.iter().map(|&c| usize::from(c / 3)).sum();
            fronts[total].push(codes);
            // Next non-decreasing index tuple.
            let Some(i) = (0..self.legs).rev().find(|&i| tuple[i] + 1 < valid.len()) else {
                break;
            };
            tuple[i] += 1;
            let v = tuple[i];
            tuple[i + 1..].fill(v);
        }
        for front in fronts {
            let table = &*self;
            let done: Vec<(usize, u16)> = front
                .par_iter()
                .flat_map_iter(|codes| {
                    // A centre with an arc has a detached leg (code 0, sorted first): the
                    // other states are never reached.
                    [Status::N, Status::I, Status::O]
                        .into_iter()
                        .filter(|&s| s == Status::N || codes[0] == 0)
                        .filter(|&s| degenerate(s, codes).is_none())
                        .map(|s| {
                            let g = mex_of_options(s, codes, true, |s2, next| {
                                degenerate(s2, next).unwrap_or_else(|| {
                                    let mut key = [0u16; MAX_LEGS];
                                    let key = &mut key[..next.len()];
                                    key.copy_from_slice(next);
                                    key.sort_unstable();
                                    table.values[table.index(s2, key)]
                                })
                            });
                            (table.index(s, codes), g)
                        })
                })
                .collect();
            for (at, g) in done {
                self.values[at] = g;
            }
        }
    }
}

/// Most legs a spider table handles.
pub const MAX_LEGS: usize = 6;

/// The closed forms (N1)-(N3) of Proposition 6.1, or `None` when the state needs its options.
fn degenerate(s: Status, codes: &[u16]) -> Option<u16> {
    let mut attached = codes.iter().filter(|&&c| c != 0).map(|&c| (c / 3, c % 3));
    if s == Status::F {
        return Some(attached.fold(0, |acc, (h, phi)| acc ^ rho_free(h, phi)));
    }
    let first = attached.next();
    let second = attached.next();
    match (first, second) {
        (None, _) => Some(0),
        (Some((h, phi)), None) if s != Status::N => {
            Some(rho(h, if s == Status::I { OUT } else { IN }, phi))
        }
        _ => None,
    }
}

/// The mex over the options of a non-degenerate state (Proposition 6.1); `value(s', L')` values
/// a successor, its codes in slot order. `skip_equal`: equal neighbouring codes are the same leg
/// (sorted multiset states), so their options are taken once.
fn mex_of_options(
    s: Status,
    codes: &[u16],
    skip_equal: bool,
    mut value: impl FnMut(Status, &[u16]) -> u16,
) -> u16 {
    let mut seen = MexSet::default();
    let mut next = [0u16; MAX_LEGS];
    let next = &mut next[..codes.len()];
    for slot in 0..codes.len() {
        let c = codes[slot];
        if c == 0 || (skip_equal && slot > 0 && codes[slot - 1] == c) {
            continue;
        }
        let (h, phi) = (c / 3, c % 3);
        for j in 1..=h {
            for delta in [IN, OUT] {
                if j == h && phi != STAR && delta != phi {
                    continue;
                }
                let detached = rho(h - j, delta, phi);
                let (s2, code) = if j >= 2 {
                    (s, 3 * (j - 1) + delta)
                } else {
                    (times(s, delta), 0)
                };
                next.copy_from_slice(codes);
                next[slot] = code;
                seen.insert(u32::from(detached ^ value(s2, next)));
            }
        }
    }
    // At most 2 options per unit of attached length, below u16::MAX for the legs the
    // commands accept.
    seen.mex() as u16
}

/// `z -> g(S(x, y, z))` for `z = 1..=z_max` from one table whose third leg grows.
pub fn family(x: usize, y: usize, z_max: usize) -> Vec<u16> {
    let mut table = SpiderTable::for_slots(&[x, y, z_max]);
    // Ascending z: each spider's sub-states with a shorter third leg are already known.
    (1..=z_max).map(|z| table.spider(&[x, y, z])).collect()
}

/// The eventual behaviour a family shows within its range (observed, not proven): the least
/// `z0` from which `g = z mod 2` up to the end (needing at least 6 values), else a period.
pub fn family_behaviour(values: &[u16]) -> String {
    let len = values.len();
    let parity = |i: usize| values[i] == ((i + 1) % 2) as u16;
    let from = (0..len).rev().take_while(|&i| parity(i)).last();
    match from {
        Some(i) if len - i >= 6 => format!(
            "g = z mod 2 from z = {} observed for z <= {len} (not proven)",
            i + 1
        ),
        _ => match crate::period::observed(values) {
            Some(p) => format!(
                "period {} from z = {} observed for z <= {len} (not proven)",
                p.period,
                p.preperiod + 1
            ),
            None => format!("no eventual behaviour observed for z <= {len}"),
        },
    }
}

/// What `nimseq arrows spiders` reports: each value that occurs, how often, and its smallest
/// spider (least `m = x_1 + ... + x_k`, ties lexicographic).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SpiderSummary {
    pub spiders: u64,
    /// `(value, count, smallest legs)` by value.
    pub values: Vec<(u16, u64, Vec<usize>)>,
}

/// Every spider with `legs` legs `1 <= x_1 <= ... <= x_k <= h_max`, in lexicographic order,
/// passed to `row` with its value; returns the summary.
pub fn all_spiders(
    legs: usize,
    h_max: usize,
    mut row: impl FnMut(&[usize], u16) -> std::io::Result<()>,
) -> std::io::Result<SpiderSummary> {
    let mut table = SpiderTable::new(legs, h_max);
    table.fill();
    let mut found: std::collections::BTreeMap<u16, (u64, Vec<usize>)> = Default::default();
    let mut summary = SpiderSummary::default();
    let mut x = vec![1; legs];
    loop {
        let g = table.spider(&x);
        row(&x, g)?;
        summary.spiders += 1;
        let m: usize = x.iter().sum();
        let entry = found.entry(g).or_insert_with(|| (0, x.clone()));
        entry.0 += 1;
        let best: usize = entry.1.iter().sum();
        if (m, &x) < (best, &entry.1) {
            entry.1 = x.clone();
        }
        let Some(i) = (0..legs).rev().find(|&i| x[i] < h_max) else {
            break;
        };
        x[i] += 1;
        let v = x[i];
        x[i + 1..].fill(v);
    }
    summary.values = found.into_iter().map(|(g, (n, x))| (g, n, x)).collect();
    Ok(summary)
}

impl std::fmt::Display for SpiderSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "spiders      {}", self.spiders)?;
        let present: Vec<String> = self.values.iter().map(|(g, ..)| g.to_string()).collect();
        writeln!(f, "values       {}", present.join(" "))?;
        for (g, count, legs) in &self.values {
            let legs: Vec<String> = legs.iter().map(ToString::to_string).collect();
            writeln!(
                f,
                "g = {g:<3} {count:>9} spiders, smallest S({})",
                legs.join(",")
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrows::forest::{Forest, NormalForm};
    use crate::arrows::tree::Tree;

    /// Every 3-leg spider with legs <= 8 and every 4-leg spider with legs <= 3 against the
    /// normal form (spec 2.4: the two solvers agree).
    #[test]
    fn agrees_with_the_normal_form() {
        let mut nf = NormalForm::default();
        for (legs, h_max) in [(3, 8), (4, 3)] {
            let mut table = SpiderTable::new(legs, h_max);
            let mut x = vec![1; legs];
            loop {
                let tree = Tree::spider(&x).unwrap();
                let want = nf.value(&Forest::of_tree(&tree));
                assert_eq!(u32::from(table.spider(&x)), want, "S{x:?}");
                // Next non-decreasing tuple.
                let Some(i) = (0..legs).rev().find(|&i| x[i] < h_max) else {
                    break;
                };
                x[i] += 1;
                let v = x[i];
                x[i + 1..].fill(v);
            }
        }
    }

    /// Smallest spiders per value among legs <= 9: g = 2 first at S(3,4,7), g = 3 at S(2,3,9)
    /// (spec 2.3, Theorem 7.3).
    #[test]
    fn summary_finds_the_smallest_spiders() {
        let mut rows = 0;
        let summary = all_spiders(3, 9, |_, _| {
            rows += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!((summary.spiders, rows), (165, 165));
        let smallest = |g: u16| {
            summary
                .values
                .iter()
                .find(|v| v.0 == g)
                .map(|v| v.2.clone())
        };
        assert_eq!(smallest(2), Some(vec![3, 4, 7]));
        assert_eq!(smallest(3), Some(vec![2, 3, 9]));
    }

    /// Spec 2.4 families: S(2,3,z) (z mod 2 from z = 14, Theorem 8.1), S(1,4,z) (period 8
    /// from z = 3), S(1,2,z) = (z+1) mod 2; slot tables agree with the multiset table.
    #[test]
    fn families() {
        let s23 = family(2, 3, 120);
        assert_eq!(
            family_behaviour(&s23),
            "g = z mod 2 from z = 14 observed for z <= 120 (not proven)"
        );
        let s14 = family(1, 4, 60);
        assert_eq!(s14[2..10], [0, 1, 0, 0, 1, 0, 1, 0]);
        assert_eq!(
            family_behaviour(&s14),
            "period 8 from z = 3 observed for z <= 60 (not proven)"
        );
        let s12 = family(1, 2, 40);
        assert!(
            s12.iter()
                .enumerate()
                .all(|(i, &g)| g == (i as u16 + 2) % 2)
        );
        let mut table = SpiderTable::new(3, 20);
        for z in 1..=20 {
            assert_eq!(s23[z - 1], table.spider(&[2, 3, z]), "S(2,3,{z})");
        }
    }

    /// Spec 2.3: S(5,8,9) = 4, S(7,12,19) = 8; S(2,3,z) for z = 1..20 (spec 2.4).
    #[test]
    fn spot_values_and_a_family() {
        let mut table = SpiderTable::new(3, 20);
        assert_eq!(table.spider(&[5, 8, 9]), 4);
        assert_eq!(table.spider(&[7, 12, 19]), 8);
        let s23: Vec<u16> = (1..=20).map(|z| table.spider(&[2, 3, z])).collect();
        assert_eq!(
            s23,
            [0, 1, 0, 1, 0, 1, 0, 0, 3, 2, 2, 1, 0, 0, 1, 0, 1, 0, 1, 0]
        );
    }
}
