//! Status-labelled forests and their normal form (docs/arrows.md, what the solvers rest on): the
//! game from any
//! position depends only on the unmarked markable edges and each vertex's status, and splits into
//! independent components once dead edges go and free vertices are cut apart.

use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};

use dashmap::DashMap;
use rustc_hash::FxBuildHasher;

use super::tree::{Tree, root};
use crate::memory::Budget;
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
}

/// A status-labelled forest: the arrow game's position (Definition 3.3).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
        let n = self.status.len();
        let mut status = self.status.clone();
        let mut live = Vec::with_capacity(self.edges.len());
        for &(u, v) in &self.edges {
            if self.legal(&degree, u, v) || self.legal(&degree, v, u) {
                live.push((u, v));
            } else {
                status[u] = Status::F;
                status[v] = Status::F;
            }
        }
        // Union the non-free ends of live edges; a free vertex joins nothing.
        let mut parent: Vec<usize> = (0..n).collect();
        for &(u, v) in &live {
            if status[u] != Status::F && status[v] != Status::F {
                let (a, b) = (root(&mut parent, u), root(&mut parent, v));
                parent[a] = b;
            }
        }
        // Each live edge belongs to the class of a non-free end; an edge between two free
        // vertices is its own component. Classes are numbered as first met.
        let mut class = vec![usize::MAX; n];
        let mut out: Vec<Forest> = Vec::new();
        let mut local = vec![usize::MAX; n];
        for &(u, v) in &live {
            let anchor = [u, v].into_iter().find(|&x| status[x] != Status::F);
            let c = match anchor {
                None => {
                    out.push(Forest::default());
                    out.len() - 1
                }
                Some(x) => {
                    let r = root(&mut parent, x);
                    if class[r] == usize::MAX {
                        class[r] = out.len();
                        out.push(Forest::default());
                    }
                    class[r]
                }
            };
            // Vertices on the component's own numbering; each free end is a new vertex.
            let forest = &mut out[c];
            let mut vertex = |x: usize| {
                if status[x] == Status::F {
                    forest.status.push(Status::F);
                    return forest.status.len() - 1;
                }
                if local[x] == usize::MAX {
                    local[x] = forest.status.len();
                    forest.status.push(status[x]);
                }
                local[x]
            };
            let a = vertex(u);
            let b = vertex(v);
            forest.edges.push((a, b));
        }
        out
    }

    /// A key equal for isomorphic components, and for a component and its reversal (which
    /// have the same value): the least AHU encoding over centres and both orientations.
    pub fn canonical(&self) -> Canonical {
        let mut encoder = Encoder::default();
        Canonical(encoder.canonical(self).into())
    }

    /// A run (Definition 4.1): a path whose interior vertices have status `n`, with ends of
    /// status f, i or o; its value by Theorem 4.3, or `None` for any other component.
    fn run_value(&self, degree: &[usize]) -> Option<u32> {
        let k = self.edges.len() as u32;
        let mut ends = Vec::with_capacity(2);
        for (v, (&d, &s)) in degree.iter().zip(&self.status).enumerate() {
            match d {
                1 => ends.push(v),
                2 if s == Status::N => {}
                _ => return None,
            }
        }
        let [a, b] = ends[..] else { return None };
        let (a, b) = (self.status[a], self.status[b]);
        if a == Status::N || b == Status::N {
            return None;
        }
        Some(match (a == Status::F, b == Status::F) {
            (true, true) => k % 2,
            (true, false) | (false, true) => k,
            // i at one end and o at the other force one through-direction (C_k); equal ends
            // force opposite directions (D_k).
            _ if a != b => k % 2,
            _ => (k + 1) % 2,
        })
    }
}

/// A component's canonical form: its AHU encoding, one byte per vertex opening (its status)
/// and one closing; shown as `n(f()i())`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Canonical(Box<[u8]>);

/// The byte closing a vertex; statuses open with 1 + their index.
const CLOSE: u8 = 0;

impl std::fmt::Display for Canonical {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for &b in self.0.iter() {
            let s = match b {
                CLOSE => ")",
                1 => "n(",
                2 => "i(",
                3 => "o(",
                _ => "f(",
            };
            f.write_str(s)?;
        }
        Ok(())
    }
}

impl serde::Serialize for Canonical {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Scratch space for canonical forms, reused across components (no allocation per vertex).
#[derive(Default)]
struct Encoder {
    offsets: Vec<usize>,
    neighbours: Vec<usize>,
    degree: Vec<usize>,
    layer: Vec<usize>,
    next: Vec<usize>,
    /// Open byte per vertex for the orientation being encoded.
    open: Vec<u8>,
    out: Vec<u8>,
    best: Vec<u8>,
    tmp: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Encoder {
    /// The least AHU encoding of `forest` (one tree) over its centres and both orientations.
    fn canonical(&mut self, forest: &Forest) -> &[u8] {
        let n = forest.status.len();
        // Adjacency in one array.
        self.degree.clear();
        self.degree.resize(n, 0);
        for &(u, v) in &forest.edges {
            self.degree[u] += 1;
            self.degree[v] += 1;
        }
        self.offsets.clear();
        self.offsets.push(0);
        for v in 0..n {
            self.offsets.push(self.offsets[v] + self.degree[v]);
        }
        self.neighbours.clear();
        self.neighbours.resize(2 * forest.edges.len(), 0);
        let mut fill = self.offsets[..n].to_vec();
        for &(u, v) in &forest.edges {
            self.neighbours[fill[u]] = v;
            fill[u] += 1;
            self.neighbours[fill[v]] = u;
            fill[v] += 1;
        }
        // Centres: peel leaves.
        self.layer.clear();
        self.layer.extend((0..n).filter(|&v| self.degree[v] <= 1));
        let mut left = n;
        while left > 2 {
            left -= self.layer.len();
            self.next.clear();
            for &v in &self.layer {
                for &w in &self.neighbours[self.offsets[v]..self.offsets[v + 1]] {
                    self.degree[w] -= 1;
                    if self.degree[w] == 1 {
                        self.next.push(w);
                    }
                }
            }
            std::mem::swap(&mut self.layer, &mut self.next);
        }
        self.best.clear();
        for reversed in [false, true] {
            self.open.clear();
            self.open.extend(forest.status.iter().map(|&s| {
                let s = if reversed { s.reversed() } else { s };
                1 + s as u8
            }));
            for c in 0..self.layer.len() {
                self.out.clear();
                self.ahu(self.layer[c], usize::MAX);
                if self.best.is_empty() || self.out < self.best {
                    std::mem::swap(&mut self.out, &mut self.best);
                }
            }
        }
        &self.best
    }

    /// Appends the encoding of the subtree at `v` (away from `parent`): children sorted.
    fn ahu(&mut self, v: usize, parent: usize) {
        self.out.push(self.open[v]);
        let first = self.out.len();
        let mark = self.spans.len();
        for i in self.offsets[v]..self.offsets[v + 1] {
            let w = self.neighbours[i];
            if w != parent {
                let start = self.out.len();
                self.ahu(w, v);
                self.spans.push((start, self.out.len()));
            }
        }
        if self.spans.len() - mark >= 2 {
            let (out, tmp) = (&mut self.out, &mut self.tmp);
            let kids = &mut self.spans[mark..];
            kids.sort_unstable_by(|a, b| out[a.0..a.1].cmp(&out[b.0..b.1]));
            tmp.clear();
            for &(a, b) in kids.iter() {
                tmp.extend_from_slice(&out[a..b]);
            }
            out.truncate(first);
            out.extend_from_slice(tmp);
        }
        self.spans.truncate(mark);
        self.out.push(CLOSE);
    }
}

/// Component values by canonical form, shared by every [`NormalForm`] made from one
/// (concurrently: sharded locks).
struct Memo {
    values: DashMap<Box<[u8]>, u32, FxBuildHasher>,
    /// Bytes the keys take on the heap.
    key_bytes: AtomicU64,
    /// What the memo may take ([`NormalForm::bytes`]); past it the memo stops (see `over`).
    budget: Budget,
    /// Set once the memo passed its budget: from then on every component is valued 0 at once,
    /// so the recursion unwinds quickly, and the caller must discard what it got
    /// ([`NormalForm::over_budget`]).
    over: AtomicBool,
}

/// Component values, memoised by canonical form (shared across trees: pieces repeat a lot).
pub struct NormalForm {
    memo: Arc<Memo>,
    encoder: Encoder,
    /// Components inserted since the memo's size was last looked at (that costs a pass over
    /// its shards).
    unchecked: u32,
}

/// Memo inserts between two looks at its size.
const BUDGET_CHECK_EVERY: u32 = 1 << 8;

impl Default for NormalForm {
    /// A memo without a budget (callers that bound memory themselves, like the census).
    fn default() -> Self {
        NormalForm::within(Budget::UNLIMITED)
    }
}

impl NormalForm {
    /// A memo that stops once it takes more than `budget`.
    pub fn within(budget: Budget) -> Self {
        NormalForm {
            memo: Arc::new(Memo {
                values: DashMap::default(),
                key_bytes: AtomicU64::new(0),
                budget,
                over: AtomicBool::new(false),
            }),
            encoder: Encoder::default(),
            unchecked: 0,
        }
    }

    /// Another solver on the same memo, with its own scratch space: one per thread.
    pub fn worker(&self) -> NormalForm {
        NormalForm {
            memo: Arc::clone(&self.memo),
            encoder: Encoder::default(),
            unchecked: 0,
        }
    }

    /// What makes every later component value 0 at once, as the budget does, so that a search
    /// on this memo (in another thread) ends soon; what it returns is then meaningless.
    pub fn halter(&self) -> impl Fn() + Send + use<> {
        let memo = Arc::clone(&self.memo);
        move || memo.over.store(true, Relaxed)
    }

    /// Whether the memo passed its budget: every value computed since is meaningless.
    pub fn over_budget(&self) -> bool {
        self.memo.over.load(Relaxed)
    }

    /// `G` of a position: the XOR of its components' values (unbounded: a run of k edges is a
    /// nim heap of size k).
    pub fn value(&mut self, forest: &Forest) -> u32 {
        forest
            .components()
            .iter()
            .fold(0, |acc, c| acc ^ self.component(c))
    }

    /// `G` of one component: a run's closed form, else the mex of its options, memoised.
    fn component(&mut self, c: &Forest) -> u32 {
        let degree = c.degrees();
        if let Some(g) = c.run_value(&degree) {
            return g;
        }
        if self.over_budget() {
            return 0;
        }
        if let Some(g) = self.memo.values.get(self.encoder.canonical(c)) {
            return *g;
        }
        let mut seen = MexSet::default();
        for (e, &(u, v)) in c.edges.iter().enumerate() {
            for (from, to) in [(u, v), (v, u)] {
                if c.legal(&degree, from, to) {
                    seen.insert(self.value(&c.play(e, from, to)));
                }
            }
        }
        let g = seen.mex();
        // The encoder's buffer was reused by the options: encode again.
        let key: Box<[u8]> = self.encoder.canonical(c).into();
        self.memo.key_bytes.fetch_add(key.len() as u64, Relaxed);
        self.memo.values.insert(key, g);
        self.unchecked += 1;
        if self.unchecked == BUDGET_CHECK_EVERY {
            self.unchecked = 0;
            if self.bytes() > self.memo.budget.bytes() {
                self.memo.over.store(true, Relaxed);
            }
        }
        g
    }

    /// Bytes the memo takes, about: its keys, and per entry the table slot and the allocator's
    /// overhead.
    pub fn bytes(&self) -> u64 {
        self.memo.key_bytes.load(Relaxed) + 48 * self.memo.values.capacity() as u64
    }

    /// Distinct components valued so far.
    pub fn len(&self) -> usize {
        self.memo.values.len()
    }

    pub fn is_empty(&self) -> bool {
        self.memo.values.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng, rngs::StdRng};

    use super::*;
    use crate::arrows::reference::Reference;

    fn both(tree: &Tree) -> (u32, u32) {
        let mut raw = Reference::new(tree, Budget::new(1 << 32)).unwrap();
        let g = NormalForm::default().value(&Forest::of_tree(tree));
        (g, u32::from(raw.value(0).unwrap()))
    }

    /// The normal form against the raw rules on random trees of up to 14 vertices (fresh seed),
    /// and on the spot values of docs/arrows.md, published values.
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
