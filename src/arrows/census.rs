//! Censuses of all trees (docs/arrows.md, published values): every unlabelled tree with `n`
//! vertices, valued by the normal form with one memo shared by all of them.
//!
//! Trees come from the generator of Wright, Richmond, Odlyzko and McKay (SIAM J. Comput. 15,
//! 1986): free trees as level sequences of their centre-rooted forms, each once, in O(n) per tree
//! here (the split below is linear; the paper's bookkeeping makes it constant). Nothing is
//! stored between trees: a census holds only the component memo. Their number per `n` is
//! Otter's count, which the tests check against the generator.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

#[cfg(test)]
use super::forest::Status;
use super::forest::{Forest, NormalForm};
use super::reference::{Reference, ReferenceError};
use super::tree::Tree;
use crate::memory::{Budget, human_bytes};

/// The unlabelled trees with `n` vertices as level sequences (depth of each vertex in preorder
/// from a centre), each tree once.
pub struct FreeTrees {
    next: Option<Vec<u8>>,
}

impl FreeTrees {
    pub fn new(n: usize) -> Self {
        assert!((1..=255).contains(&n), "n = {n}");
        // The path rooted at its centre.
        let first = (0..=n / 2)
            .chain(1..n.div_ceil(2))
            .map(|d| d as u8)
            .collect();
        FreeTrees { next: Some(first) }
    }
}

impl Iterator for FreeTrees {
    type Item = Vec<u8>;

    fn next(&mut self) -> Option<Vec<u8>> {
        let candidate = self.next.take()?;
        if candidate.len() <= 2 {
            return Some(candidate);
        }
        let tree = next_free(candidate);
        self.next = next_rooted(&tree, None);
        Some(tree)
    }
}

/// The left subtree of the root (depths less one) and the rest (the root and later subtrees).
fn split(layout: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let m = (2..layout.len())
        .find(|&i| layout[i] == 1)
        .unwrap_or(layout.len());
    let left = layout[1..m].iter().map(|d| d - 1).collect();
    let rest = std::iter::once(0)
        .chain(layout[m..].iter().copied())
        .collect();
    (left, rest)
}

/// `candidate` if it is the canonical form of a free tree (centre-rooted: the left subtree no
/// higher than the rest and, at equal height, no larger), else the next one that is.
fn next_free(candidate: Vec<u8>) -> Vec<u8> {
    let (left, rest) = split(&candidate);
    let height = |l: &[u8]| l.iter().copied().max().unwrap_or(0);
    let (lh, rh) = (height(&left), height(&rest));
    let valid = rh > lh
        || (rh == lh && (left.len() < rest.len() || (left.len() == rest.len() && left <= rest)));
    if valid {
        return candidate;
    }
    let p = left.len();
    let mut next = next_rooted(&candidate, Some(p)).expect("p >= 1 has a successor");
    if candidate[p] > 2 {
        let h = usize::from(height(&split(&next).0));
        let len = next.len();
        for (slot, d) in next[len - h - 1..].iter_mut().zip(1..) {
            *slot = d;
        }
    }
    next
}

/// The next rooted tree in reverse lexicographic order of level sequences (Beyer and
/// Hedetniemi), changing from position `p` (default: the last depth above 1).
fn next_rooted(layout: &[u8], p: Option<usize>) -> Option<Vec<u8>> {
    let p = p.unwrap_or_else(|| {
        (0..layout.len())
            .rev()
            .find(|&i| layout[i] != 1)
            .unwrap_or(0)
    });
    if p == 0 {
        return None;
    }
    let q = (0..p).rev().find(|&q| layout[q] + 1 == layout[p])?;
    let mut next = layout.to_vec();
    for i in p..next.len() {
        next[i] = next[i - p + q];
    }
    Some(next)
}

/// The edges of a level sequence: each vertex hangs from the last one a level up.
pub fn level_edges(layout: &[u8]) -> Vec<(usize, usize)> {
    let mut last = vec![0usize; layout.len()];
    (1..layout.len())
        .map(|v| {
            let d = usize::from(layout[v]);
            last[d] = v;
            (last[d - 1], v)
        })
        .collect()
}

/// The number of unlabelled trees with `n` vertices (OEIS A000055), by Otter's formula from
/// the rooted counts (A000081); `None` past `u64`.
pub fn count_trees(n: usize) -> Option<u64> {
    // r[i]: rooted trees with i vertices.
    let mut r = vec![0u128, 1];
    for m in 1..n {
        let mut sum = 0u128;
        for k in 1..=m {
            let divisors: u128 = (1..=k)
                .filter(|d| k % d == 0)
                .map(|d| d as u128 * r[d])
                .sum();
            sum = sum.checked_add(divisors.checked_mul(r[m - k + 1])?)?;
        }
        r.push(sum / m as u128);
    }
    if n == 0 {
        return Some(0);
    }
    let pairs: u128 = (1..n).map(|i| r[i] * r[n - i]).sum();
    let half = if n.is_multiple_of(2) { r[n / 2] } else { 0 };
    u64::try_from(r[n] - (pairs - half) / 2).ok()
}

/// A tree as an edge list `0-1,1-2,...`.
pub fn edge_list(t: &Tree) -> String {
    t.edges
        .iter()
        .map(|(u, v)| format!("{u}-{v}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// One row of the census.
#[derive(Clone, Debug, Serialize)]
pub struct CensusRow {
    pub n: usize,
    pub trees: u64,
    /// Trees by Grundy value.
    pub by_value: BTreeMap<u32, u64>,
    /// Parity-conjecture violators: g = 0 with m odd, or g != 0 with m even.
    pub violators: u64,
    /// The violators by Grundy value (values with none left out).
    pub violators_by_value: BTreeMap<u32, u64>,
    /// The violators as edge lists, when asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub violator_trees: Vec<String>,
    /// For each value above 1, the first tree with it (in the generator's order).
    pub examples: BTreeMap<u32, String>,
}

/// The census as long CSV rows, `n,g,trees,violators`: one row for each value that occurs
/// among the trees of `n` vertices, with how many trees have it and how many of those violate
/// the parity conjecture. The columns stay the same whatever the range.
pub fn write_csv(rows: &[CensusRow], out: &mut impl std::io::Write) -> std::io::Result<()> {
    writeln!(out, "n,g,trees,violators")?;
    for r in rows {
        for (g, trees) in &r.by_value {
            let violators = r.violators_by_value.get(g).copied().unwrap_or(0);
            writeln!(out, "{},{g},{trees},{violators}", r.n)?;
        }
    }
    Ok(())
}

/// The census as a table, a row per `n`: `n,trees,g=0,...,g=top,violators`, `top` the
/// largest value seen (so the columns depend on the range).
pub fn write_table_csv(rows: &[CensusRow], out: &mut impl std::io::Write) -> std::io::Result<()> {
    let top = rows
        .iter()
        .filter_map(|r| r.by_value.keys().max().copied())
        .max()
        .unwrap_or(0);
    write!(out, "n,trees")?;
    for g in 0..=top {
        write!(out, ",g={g}")?;
    }
    writeln!(out, ",violators")?;
    for r in rows {
        write!(out, "{},{}", r.n, r.trees)?;
        for g in 0..=top {
            write!(out, ",{}", r.by_value.get(&g).copied().unwrap_or(0))?;
        }
        writeln!(out, ",{}", r.violators)?;
    }
    Ok(())
}

/// An open question of the paper (docs/arrows.md): the first tree of each value (above 1), with
/// its size, by
/// value.
pub fn smallest_of_each_value(rows: &[CensusRow]) -> Vec<(u32, usize, &str)> {
    let mut seen = BTreeMap::new();
    for r in rows {
        for (g, tree) in &r.examples {
            seen.entry(*g).or_insert((r.n, tree.as_str()));
        }
    }
    seen.into_iter()
        .map(|(g, (n, tree))| (g, n, tree))
        .collect()
}

/// Trees valued between two looks at the memory budget.
const BATCH: usize = 8192;

/// Why a census stopped.
#[derive(Debug, thiserror::Error)]
pub enum CensusError {
    #[error(
        "the component memo reached {} at n = {n}, over the memory budget of {}",
        human_bytes(*bytes),
        human_bytes(*budget)
    )]
    OverBudget { n: usize, bytes: u64, budget: u64 },
    /// A tree the raw rules cannot take within their limits.
    #[error(transparent)]
    Raw(#[from] ReferenceError),
}

/// What values each tree of a census.
pub enum Valuer<'a> {
    /// The normal form, one memo shared by every tree and thread.
    NormalForm(&'a mut NormalForm),
    /// The raw rules, a fresh memo per tree (each within this many bytes): the reference sweep.
    Raw { budget: Budget },
}

/// The census of trees with `n` vertices; `list` keeps the violators' edge lists; `progress`
/// gets counts of trees done; the normal form's memo may grow to `budget`.
pub fn census(
    n: usize,
    valuer: &mut Valuer<'_>,
    list: bool,
    budget: Budget,
    mut progress: impl FnMut(u64),
) -> Result<CensusRow, CensusError> {
    let mut row = CensusRow {
        n,
        trees: 0,
        by_value: BTreeMap::new(),
        violators: 0,
        violators_by_value: BTreeMap::new(),
        violator_trees: Vec::new(),
        examples: BTreeMap::new(),
    };
    // Trees in batches from the generator, valued on all cores with one shared memo.
    let mut trees = FreeTrees::new(n).peekable();
    while trees.peek().is_some() {
        let batch: Vec<Vec<u8>> = trees.by_ref().take(BATCH).collect();
        // (g, violates, the edge list where a row may keep it)
        let (shared, raw_budget) = match valuer {
            Valuer::NormalForm(memo) => (Some(&**memo), Budget::new(0)),
            Valuer::Raw { budget } => (None, *budget),
        };
        let valued: Vec<(u32, bool, Option<String>)> = batch
            .par_iter()
            .map_init(
                || shared.map(NormalForm::worker),
                |nf, layout| -> Result<_, ReferenceError> {
                    let tree = Tree {
                        n,
                        edges: level_edges(layout),
                        name: String::new(),
                    };
                    let forest = Forest::of_tree(&tree);
                    let g = match nf {
                        Some(nf) => nf.value(&forest),
                        None => u32::from(Reference::new(&tree, raw_budget)?.value(0)?),
                    };
                    // Parity conjecture: g = 0 exactly when m is even.
                    let violates = (g == 0) != forest.edges.len().is_multiple_of(2);
                    let kept = (g >= 2 || (violates && list)).then(|| edge_list(&tree));
                    Ok((g, violates, kept))
                },
            )
            .collect::<Result<_, _>>()?;
        for (g, violates, edges) in valued {
            row.trees += 1;
            *row.by_value.entry(g).or_default() += 1;
            if violates {
                row.violators += 1;
                *row.violators_by_value.entry(g).or_default() += 1;
            }
            if let Some(edges) = edges {
                if g >= 2 && !row.examples.contains_key(&g) {
                    row.examples.insert(g, edges.clone());
                }
                if violates && list {
                    row.violator_trees.push(edges);
                }
            }
        }
        progress(batch.len() as u64);
        if let Some(memo) = shared.filter(|memo| memo.bytes() > budget.bytes()) {
            return Err(CensusError::OverBudget {
                n,
                bytes: memo.bytes(),
                budget: budget.bytes(),
            });
        }
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    const A000055: [u64; 20] = [
        1, 1, 1, 2, 3, 6, 11, 23, 47, 106, 235, 551, 1301, 3159, 7741, 19320, 48629, 123867,
        317955, 823065,
    ];

    /// Otter's count is OEIS A000055; the generator gives that many trees for n <= 16, all
    /// pairwise non-isomorphic for n <= 12 (so every tree, once).
    #[test]
    fn generator_gives_every_tree_once() {
        for n in 1..=20 {
            assert_eq!(count_trees(n), Some(A000055[n - 1]), "n = {n}");
        }
        for n in 1..=16 {
            let mut keys = HashSet::new();
            let mut count = 0;
            for layout in FreeTrees::new(n) {
                count += 1;
                if n <= 12 {
                    let tree = Tree::new(n, level_edges(&layout), "").unwrap();
                    let all_n = Forest {
                        status: vec![Status::N; n],
                        edges: tree.edges,
                    };
                    assert!(keys.insert(all_n.canonical()), "n = {n}: {layout:?} twice");
                }
            }
            assert_eq!(count, A000055[n - 1], "n = {n}");
        }
    }

    /// The published census rows (docs/arrows.md, published values), Theorem 7.1(b)'s two
    /// violators at n = 15 and
    /// 7.1(c)'s two trees with g >= 2 at n = 17, none before.
    #[test]
    fn census_rows() {
        let key = |s: &str| {
            let t: Tree = s.parse().unwrap();
            Forest {
                status: vec![Status::N; t.n],
                edges: t.edges,
            }
            .canonical()
        };
        let mut memo = NormalForm::default();
        for n in 1..=17 {
            let row = census(
                n,
                &mut Valuer::NormalForm(&mut memo),
                true,
                Budget::UNLIMITED,
                |_| (),
            )
            .unwrap();
            assert_eq!(row.trees, A000055[n - 1]);
            let want = match n {
                4 => Some((1, 1, 0)),
                8 => Some((11, 12, 0)),
                10 => Some((52, 54, 0)),
                12 => Some((273, 278, 0)),
                13 => Some((657, 644, 0)),
                14 => Some((1573, 1586, 0)),
                15 => Some((3887, 3854, 2)),
                _ => None,
            };
            if let Some((g0, g1, violators)) = want {
                let count = |g| row.by_value.get(&g).copied().unwrap_or(0);
                assert_eq!(
                    (count(0), count(1), row.violators),
                    (g0, g1, violators),
                    "n = {n}"
                );
                assert_eq!(row.by_value.len(), if n >= 4 { 2 } else { 1 }, "n = {n}");
            }
            if n < 17 {
                assert!(row.examples.is_empty(), "n = {n}");
            } else {
                assert_eq!(row.by_value.get(&2).copied(), Some(1));
                assert_eq!(row.by_value.get(&4).copied(), Some(1));
                assert_eq!(key(&row.examples[&2]), key("H:3,1/3/4,1"));
                assert_eq!(key(&row.examples[&4]), key("H:5,2/1/3,1"));
            }
            if n == 15 {
                let want: HashSet<_> = ["spider:1,3,7", "spider:1,4,6"].map(key).into();
                let got: HashSet<_> = row.violator_trees.iter().map(|s| key(s)).collect();
                assert_eq!(got, want);
            }
        }
        let mut fresh = NormalForm::default();
        let over = census(
            12,
            &mut Valuer::NormalForm(&mut fresh),
            false,
            Budget::new(1000),
            |_| (),
        );
        assert!(over.is_err(), "a 1000-byte memo budget");
        // The reference sweep: every tree by the raw rules, the same rows.
        let mut memo = NormalForm::default();
        for n in 1..=13 {
            let fast = census(
                n,
                &mut Valuer::NormalForm(&mut memo),
                true,
                Budget::UNLIMITED,
                |_| (),
            );
            let raw = census(
                n,
                &mut Valuer::Raw {
                    budget: Budget::new(1 << 30),
                },
                true,
                Budget::UNLIMITED,
                |_| (),
            );
            let (fast, raw) = (fast.unwrap(), raw.unwrap());
            assert_eq!(
                (fast.by_value, fast.violators, fast.violator_trees),
                (raw.by_value, raw.violators, raw.violator_trees),
                "n = {n}"
            );
        }
    }
}
