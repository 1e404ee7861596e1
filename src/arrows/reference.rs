//! The raw rules (docs/arrows.md, rules): a position orients some markable edges; a move
//! orients one more, and is legal unless an endpoint of that edge becomes a sink or a source.
//! Checked literally at both endpoints over all their edges (pendant ones stay unmarked), values
//! memoised. Uses no theory: the oracle for the normal form and the spider states.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;

use super::tree::Tree;
use crate::memory::{Budget, human_bytes};

/// Most markable edges: a position is a base-3 number in a `u64`.
pub const MAX_MARKABLE: usize = 40;

/// Bytes a memo entry may take, key and value with the map's overhead.
const ENTRY_BYTES: u64 = 32;

/// Why the raw rules cannot answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    #[error("{tree} has {m} markable edges; the raw rules handle up to {MAX_MARKABLE}")]
    TooLarge { tree: String, m: usize },
    #[error(
        "{tree}: more than {entries} positions to remember, over the memory budget; raise --mem-budget"
    )]
    OverBudget { tree: String, entries: u64 },
    #[error(
        "{tree}: the normal form's memo of components passed the memory budget of {} ({components} components valued); raise --mem-budget",
        human_bytes(*budget)
    )]
    MemoOverBudget {
        tree: String,
        components: usize,
        budget: u64,
    },
    /// Asked to stop (Ctrl-C in Python): not the user's input at fault.
    #[error("interrupted")]
    Interrupted,
}

/// One edge orientation: edge `edge` (an index into the markable edges) pointing `from -> to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    pub edge: usize,
    pub from: usize,
    pub to: usize,
}

/// The raw-rules solver for one tree.
pub struct Reference<'s> {
    tree: String,
    markable: Vec<(usize, usize)>,
    /// Every vertex's degree in the tree, all edges counted.
    degree: Vec<usize>,
    /// The markable edges at each vertex.
    incident: Vec<Vec<usize>>,
    /// 3^i for each markable edge i.
    place: Vec<u64>,
    memo: HashMap<u64, u8>,
    max_entries: u64,
    /// Once set, [`Reference::value`] ends with [`ReferenceError::Interrupted`].
    stop: Option<&'s AtomicBool>,
}

impl<'s> Reference<'s> {
    /// `budget`: what the memo may use.
    pub fn new(tree: &Tree, budget: Budget) -> Result<Self, ReferenceError> {
        let markable = tree.markable();
        if markable.len() > MAX_MARKABLE {
            return Err(ReferenceError::TooLarge {
                tree: tree.to_string(),
                m: markable.len(),
            });
        }
        let mut incident = vec![Vec::new(); tree.n];
        for (i, &(u, v)) in markable.iter().enumerate() {
            incident[u].push(i);
            incident[v].push(i);
        }
        Ok(Reference {
            tree: tree.to_string(),
            place: (0..markable.len()).map(|i| 3u64.pow(i as u32)).collect(),
            markable,
            degree: tree.degrees(),
            incident,
            memo: HashMap::new(),
            max_entries: budget.bytes() / ENTRY_BYTES,
            stop: None,
        })
    }

    /// The same solver, ending its search soon after `stop` is set.
    pub fn stop_on(self, stop: Option<&'s AtomicBool>) -> Self {
        Reference { stop, ..self }
    }

    /// The markable edges, in the tree's order.
    pub fn markable(&self) -> &[(usize, usize)] {
        &self.markable
    }

    /// Edge `i`'s state in `position`: 0 unmarked, 1 first -> second endpoint, 2 the reverse.
    fn digit(&self, position: u64, i: usize) -> u64 {
        position / self.place[i] % 3
    }

    /// Whether `w` is a sink or a source in `position`: it has edges, all marked, all pointing
    /// the same way relative to it.
    fn stuck(&self, position: u64, w: usize) -> bool {
        if self.incident[w].len() < self.degree[w] {
            // An unmarked pendant edge: never all marked.
            return false;
        }
        let mut into = 0;
        for &i in &self.incident[w] {
            let d = self.digit(position, i);
            if d == 0 {
                return false;
            }
            let head = if d == 1 {
                self.markable[i].1
            } else {
                self.markable[i].0
            };
            into += usize::from(head == w);
        }
        into == 0 || into == self.incident[w].len()
    }

    /// The legal moves from `position` and the positions they lead to.
    pub fn moves(&self, position: u64) -> Vec<(Move, u64)> {
        let mut out = Vec::new();
        for (i, &(u, v)) in self.markable.iter().enumerate() {
            if self.digit(position, i) != 0 {
                continue;
            }
            for (d, from, to) in [(1, u, v), (2, v, u)] {
                let next = position + d * self.place[i];
                if !self.stuck(next, u) && !self.stuck(next, v) {
                    out.push((Move { edge: i, from, to }, next));
                }
            }
        }
        out
    }

    /// `G` of `position` (0: the empty position).
    pub fn value(&mut self, position: u64) -> Result<u8, ReferenceError> {
        if let Some(&g) = self.memo.get(&position) {
            return Ok(g);
        }
        let mut options = Vec::new();
        for (_, next) in self.moves(position) {
            options.push(self.value(next)?);
        }
        // At most 2 * MAX_MARKABLE options, so the mex fits a u8.
        let g = (0..=u8::MAX)
            .find(|g| !options.contains(g))
            .expect("fewer than 256 options");
        if self.stop.is_some_and(|s| s.load(Relaxed)) {
            return Err(ReferenceError::Interrupted);
        }
        if self.memo.len() as u64 >= self.max_entries {
            return Err(ReferenceError::OverBudget {
                tree: self.tree.clone(),
                entries: self.max_entries,
            });
        }
        self.memo.insert(position, g);
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(tree: &str) -> (u8, usize) {
        let tree: Tree = tree.parse().unwrap();
        let mut r = Reference::new(&tree, Budget::new(1 << 32)).unwrap();
        (r.value(0).unwrap(), r.markable().len())
    }

    /// docs/arrows.md, published values spot values (g, m) within the raw rules' reach, the two
    /// 17-vertex H-trees of
    /// Theorem 7.1(c), and paths (Corollary 4.4: g = (n - 3) mod 2).
    #[test]
    fn spot_values() {
        assert_eq!(g("spider:1,1,1"), (1, 3));
        assert_eq!(g("spider:1,3,7"), (0, 11));
        assert_eq!(g("spider:1,4,6"), (0, 11));
        assert_eq!(g("spider:1,4,7"), (1, 12));
        assert_eq!(g("spider:1,2,3,4"), (0, 10));
        assert_eq!(g("H:3,1|3|4,1"), (2, 12));
        assert_eq!(g("H:5,2|1|3,1"), (4, 12));
        for n in 1..=12 {
            let want = if n >= 3 { (n - 3) % 2 } else { 0 };
            assert_eq!(g(&format!("path:{n}")).0, want as u8, "path:{n}");
        }
    }

    /// The first moves on S(1,3,7) (docs/arrows.md, published values: legs X, Y, Z, edges numbered
    /// from the centre,
    /// both orientations alike), and the one-marked-edge values of Proposition 7.2.
    #[test]
    fn first_moves() {
        let tree = Tree::spider(&[1, 3, 7]).unwrap();
        let mut r = Reference::new(&tree, Budget::new(1 << 32)).unwrap();
        // Markable edges come leg by leg from the centre: X1, Y1..Y3, Z1..Z7.
        let want = [2, 2, 6, 6, 6, 6, 6, 4, 6, 4, 8];
        for (mv, next) in r.moves(0) {
            assert_eq!(r.value(next).unwrap(), want[mv.edge], "edge {}", mv.edge);
        }
        // S(1,3,4): Y3 pointing away from the centre; S(2,3,3): the same edge.
        for (legs, edge, value) in [(&[1, 3, 4][..], 3, 4), (&[2, 3, 3], 4, 6)] {
            let tree = Tree::spider(legs).unwrap();
            let mut r = Reference::new(&tree, Budget::new(1 << 32)).unwrap();
            let (u, v) = r.markable()[edge];
            let out = r
                .moves(0)
                .into_iter()
                .find(|(mv, _)| mv.edge == edge && (mv.from, mv.to) == (u, v))
                .unwrap()
                .1;
            assert_eq!(r.value(out).unwrap(), value, "{legs:?}");
        }
    }

    #[test]
    fn memo_respects_the_budget() {
        let tree = Tree::spider(&[2, 3, 4]).unwrap();
        let err = Reference::new(&tree, Budget::new(10 * ENTRY_BYTES))
            .unwrap()
            .value(0)
            .unwrap_err();
        assert!(matches!(err, ReferenceError::OverBudget { .. }), "{err}");
    }
}
