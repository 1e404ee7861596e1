//! Status-labelled forests and their normal form (spec `arrows.md` section 1.4): the game from any
//! position depends only on the unmarked markable edges and each vertex's status, and splits into
//! independent components once dead edges go and free vertices are cut apart.

use std::collections::HashMap;

use super::tree::{Tree, root};
use crate::mex::MexSet;

/// A vertex's status (Definition 3.1): no arcs, only incoming, only outgoing, or free.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    N,
    I,
    O,
    F,
}

impl Status {
    /// The status after gaining an arc in direction `d` (`I` incoming, `O` outgoing).
    fn times(self, d: Status) -> Status {
        match (self, d) {
            (Status::N, d) => d,
            (s, d) if s == d => s,
            _ => Status::F,
        }
    }

    /// The same status with all arcs reversed.
    fn reversed(self) -> Status {
        match self {
            Status::I => Status::O,
            Status::O => Status::I,
            s => s,
        }
    }

    fn letter(self) -> char {
        match self {
            Status::N => 'n',
            Status::I => 'i',
            Status::O => 'o',
            Status::F => 'f',
        }
    }
}

/// A status-labelled forest: the arrow game's position (Definition 3.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forest {
    pub status: Vec<Status>,
    pub edges: Vec<(usize, usize)>,
}

impl Forest {
    /// The empty position of `tree`: its markable edges, special vertices free, others `N`.
    pub fn of_tree(tree: &Tree) -> Forest {
        let degree = tree.degrees();
        let mut status = vec![Status::N; tree.n];
        for &(u, v) in &tree.edges {
            for (a, b) in [(u, v), (v, u)] {
                if degree[a] >= 2 && degree[b] == 1 {
                    status[a] = Status::F;
                }
            }
        }
        Forest {
            status,
            edges: tree.markable(),
        }
    }

    fn degrees(&self) -> Vec<usize> {
        let mut d = vec![0; self.status.len()];
        for &(u, v) in &self.edges {
            d[u] += 1;
            d[v] += 1;
        }
        d
    }

    /// Whether edge `e` may be oriented `from -> to` (Lemma 3.2), given the degrees.
    fn legal(&self, degree: &[usize], from: usize, to: usize) -> bool {
        let (s, t) = (self.status[from], self.status[to]);
        (degree[from] >= 2 || matches!(s, Status::I | Status::F))
            && (degree[to] >= 2 || matches!(t, Status::O | Status::F))
    }

    /// Every legal move `(edge, from, to)`.
    pub fn moves(&self) -> Vec<(usize, usize, usize)> {
        let degree = self.degrees();
        let mut out = Vec::new();
        for (e, &(u, v)) in self.edges.iter().enumerate() {
            for (from, to) in [(u, v), (v, u)] {
                if self.legal(&degree, from, to) {
                    out.push((e, from, to));
                }
            }
        }
        out
    }

    /// The position after orienting edge `e` as `from -> to`.
    pub fn play(&self, e: usize, from: usize, to: usize) -> Forest {
        let mut next = self.clone();
        next.edges.remove(e);
        next.status[from] = next.status[from].times(Status::O);
        next.status[to] = next.status[to].times(Status::I);
        next
    }

    /// The components of the normal form: dead edges deleted (their ends freed), free vertices
    /// split into one per edge, isolated vertices dropped (Lemmas 3.4, 3.5, Proposition 3.7).
    pub fn components(&self) -> Vec<Forest> {
        let degree = self.degrees();
        let mut status = self.status.clone();
        let mut live = Vec::new();
        for &(u, v) in &self.edges {
            if self.legal(&degree, u, v) || self.legal(&degree, v, u) {
                live.push((u, v));
            } else {
                status[u] = Status::F;
                status[v] = Status::F;
            }
        }
        // Union the non-free ends of live edges; a free vertex joins nothing.
        let n = status.len();
        let mut parent: Vec<usize> = (0..n).collect();
        for &(u, v) in &live {
            if status[u] != Status::F && status[v] != Status::F {
                let (a, b) = (root(&mut parent, u), root(&mut parent, v));
                parent[a] = b;
            }
        }
        // Each live edge belongs to the class of a non-free end; an edge between two free
        // vertices is its own component.
        let mut groups: HashMap<usize, Vec<(usize, usize)>> = HashMap::new();
        let mut alone = Vec::new();
        for &(u, v) in &live {
            match (status[u] == Status::F, status[v] == Status::F) {
                (true, true) => alone.push(vec![(u, v)]),
                (false, _) => groups.entry(root(&mut parent, u)).or_default().push((u, v)),
                (true, false) => groups.entry(root(&mut parent, v)).or_default().push((u, v)),
            }
        }
        let mut keys: Vec<usize> = groups.keys().copied().collect();
        keys.sort_unstable();
        keys.into_iter()
            .map(|k| groups.remove(&k).expect("a key"))
            .chain(alone)
            .map(|edges| relabel(&status, &edges))
            .collect()
    }

    /// A string equal for isomorphic components, and for a component and its reversal (which
    /// have the same value): the least AHU encoding over centres and both orientations.
    pub fn canonical(&self) -> String {
        let reversed: Vec<Status> = self.status.iter().map(|s| s.reversed()).collect();
        let forward = encode(&self.status, &self.edges);
        let backward = encode(&reversed, &self.edges);
        forward.min(backward)
    }
}

/// A component on its own vertices `0..`, free ends split apart (each free end of an edge gets
/// its own vertex).
fn relabel(status: &[Status], edges: &[(usize, usize)]) -> Forest {
    let mut map: HashMap<usize, usize> = HashMap::new();
    let mut out = Forest {
        status: Vec::new(),
        edges: Vec::new(),
    };
    let mut vertex = |x: usize, out: &mut Forest| {
        if status[x] == Status::F {
            out.status.push(Status::F);
            return out.status.len() - 1;
        }
        *map.entry(x).or_insert_with(|| {
            out.status.push(status[x]);
            out.status.len() - 1
        })
    };
    for &(u, v) in edges {
        let a = vertex(u, &mut out);
        let b = vertex(v, &mut out);
        out.edges.push((a, b));
    }
    out
}

/// The least AHU string of a tree rooted at a centre.
pub(crate) fn encode(status: &[Status], edges: &[(usize, usize)]) -> String {
    let n = status.len();
    let mut adj = vec![Vec::new(); n];
    for &(u, v) in edges {
        adj[u].push(v);
        adj[v].push(u);
    }
    // Centres: peel leaves.
    let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
    let mut layer: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
    let mut left = n;
    while left > 2 {
        left -= layer.len();
        let mut next = Vec::new();
        for &v in &layer {
            for &w in &adj[v] {
                degree[w] -= 1;
                if degree[w] == 1 {
                    next.push(w);
                }
            }
        }
        layer = next;
    }
    fn ahu(v: usize, parent: usize, status: &[Status], adj: &[Vec<usize>]) -> String {
        let mut kids: Vec<String> = adj[v]
            .iter()
            .filter(|&&w| w != parent)
            .map(|&w| ahu(w, v, status, adj))
            .collect();
        kids.sort_unstable();
        format!("{}({})", status[v].letter(), kids.concat())
    }
    layer
        .iter()
        .map(|&c| ahu(c, usize::MAX, status, &adj))
        .min()
        .unwrap_or_default()
}

/// Component values, memoised by canonical form (shared across trees: pieces repeat a lot).
#[derive(Default)]
pub struct NormalForm {
    memo: HashMap<String, u32>,
}

impl NormalForm {
    /// `G` of a position: the XOR of its components' values (unbounded: a run of k edges is a
    /// nim heap of size k).
    pub fn value(&mut self, forest: &Forest) -> u32 {
        forest
            .components()
            .iter()
            .fold(0, |acc, c| acc ^ self.component(c))
    }

    /// `G` of one component: the mex of its options.
    fn component(&mut self, c: &Forest) -> u32 {
        let key = c.canonical();
        if let Some(&g) = self.memo.get(&key) {
            return g;
        }
        let mut seen = MexSet::default();
        for (e, from, to) in c.moves() {
            seen.insert(self.value(&c.play(e, from, to)));
        }
        let g = seen.mex();
        self.memo.insert(key, g);
        g
    }

    /// Distinct components valued so far.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::*;
    use crate::arrows::reference::Reference;

    fn both(tree: &Tree) -> (u32, u32) {
        let mut raw = Reference::new(tree, 1 << 32).unwrap();
        let g = NormalForm::default().value(&Forest::of_tree(tree));
        (g, u32::from(raw.value(0).unwrap()))
    }

    /// The normal form against the raw rules on random trees of up to 14 vertices (fresh seed),
    /// and on the spot values of spec 2.3.
    #[test]
    fn agrees_with_the_raw_rules() {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64;
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..300 {
            let n = rng.random_range(2..=14);
            // A random labelled tree: each vertex joins an earlier one.
            let edges = (1..n).map(|v| (rng.random_range(0..v), v)).collect();
            let tree = Tree::new(n, edges, "random").unwrap();
            let (nf, raw) = both(&tree);
            assert_eq!(nf, raw, "{:?} (seed {seed})", tree.edges);
        }
        for (name, g) in [
            ("spider:1,3,7", 0),
            ("spider:3,4,7", 2),
            ("spider:2,3,9", 3),
            ("H:5,2|1|3,1", 4),
            ("spider:1,2,3,4", 0),
        ] {
            let tree: Tree = name.parse().unwrap();
            assert_eq!(
                NormalForm::default().value(&Forest::of_tree(&tree)),
                g,
                "{name}"
            );
        }
    }

    /// Theorem 4.3 (runs): a path of k edges with ends free, blocked or opposed, k <= 16.
    #[test]
    fn runs_are_nim_heaps() {
        let run = |k: usize, left: Status, right: Status| {
            let mut status = vec![Status::N; k + 1];
            (status[0], status[k]) = (left, right);
            let edges = (1..=k).map(|j| (j - 1, j)).collect();
            NormalForm::default().value(&Forest { status, edges })
        };
        for k in 0..=16u32 {
            let k_ = k as usize;
            // Left end: I forces e_1 away from it (->), O towards it (<-); right end mirrored.
            assert_eq!(run(k_, Status::F, Status::F), k % 2, "A_{k}");
            assert_eq!(run(k_, Status::F, Status::O), k, "B_{k}");
            assert_eq!(run(k_, Status::I, Status::O), k % 2, "C_{k}");
            let d = if k == 0 { 0 } else { (k + 1) % 2 };
            assert_eq!(run(k_, Status::I, Status::I), d, "D_{k}");
        }
    }
}
