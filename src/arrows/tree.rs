//! Trees as users type them (docs/arrows.md, "Rules"): an edge list `0-1,1-2,1-3`, a parent
//! array `parents:0,1,1` (the parents of vertices 1, 2, ...; vertex 0 is the root), or a named
//! family: `path:9` (9 vertices), `spider:1,3,7` (legs with 1, 3, 7 markable edges), or
//! `H:3,1/3/4,1` (also `H:3,1|3|4,1`, the paper's `H(a1,a2|l|b1,b2)`).

use std::fmt;
use std::str::FromStr;

/// A finite tree on vertices `0..n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    pub n: usize,
    pub edges: Vec<(usize, usize)>,
    /// The text it was read from, for reports.
    pub name: String,
}

/// Why a tree was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid tree '{input}': {reason}")]
pub struct TreeError {
    pub input: String,
    pub reason: String,
}

/// Most vertices a typed tree may have.
pub const MAX_VERTICES: usize = 1 << 16;

impl Tree {
    /// A tree from edges, checked: no loops or repeated edges, `n - 1` edges, connected.
    pub fn new(n: usize, edges: Vec<(usize, usize)>, name: &str) -> Result<Self, TreeError> {
        let err = |reason: String| TreeError {
            input: name.to_string(),
            reason,
        };
        if n == 0 {
            return Err(err("a tree has at least one vertex".into()));
        }
        check_vertices(Some(n), name)?;
        let mut seen = std::collections::HashSet::new();
        for &(u, v) in &edges {
            if u == v {
                return Err(err(format!("the edge {u}-{v} is a loop")));
            }
            if u >= n || v >= n {
                return Err(err(format!(
                    "the edge {u}-{v} names a vertex past {}",
                    n - 1
                )));
            }
            if !seen.insert((u.min(v), u.max(v))) {
                return Err(err(format!("the edge {u}-{v} appears twice")));
            }
        }
        // Union-find: a cycle joins two vertices already connected.
        let mut parent: Vec<usize> = (0..n).collect();
        for &(u, v) in &edges {
            let (a, b) = (root(&mut parent, u), root(&mut parent, v));
            if a == b {
                return Err(err(format!("the edge {u}-{v} closes a cycle")));
            }
            parent[a] = b;
        }
        if edges.len() != n - 1 {
            return Err(err(format!(
                "{} vertices but {} edges: not connected",
                n,
                edges.len()
            )));
        }
        Ok(Tree {
            n,
            edges,
            name: name.to_string(),
        })
    }

    /// The path with `n` vertices.
    pub fn path(n: usize) -> Result<Self, TreeError> {
        let name = format!("path:{n}");
        check_vertices(Some(n), &name)?;
        let edges = (1..n).map(|v| (v - 1, v)).collect();
        Tree::new(n, edges, &name)
    }

    /// The spider `S(x_1, ..., x_k)`: leg `t` is a path of `x_t + 1` edges from the centre 0
    /// whose last edge is pendant, so it has `x_t` markable edges.
    pub fn spider(legs: &[usize]) -> Result<Self, TreeError> {
        let name = format!(
            "spider:{}",
            legs.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        let err = |reason: &str| TreeError {
            input: name.clone(),
            reason: reason.to_string(),
        };
        if legs.len() < 3 {
            return Err(err("a spider has at least 3 legs"));
        }
        if legs.contains(&0) {
            return Err(err("every leg has at least 1 markable edge"));
        }
        // The centre and each leg's x + 1 vertices, counted before any edge is built.
        let vertices = legs
            .iter()
            .try_fold(1usize, |n, &x| n.checked_add(x.checked_add(1)?));
        check_vertices(vertices, &name)?;
        let mut edges = Vec::new();
        let mut n = 1;
        for &x in legs {
            let mut at = 0;
            for _ in 0..=x {
                edges.push((at, n));
                at = n;
                n += 1;
            }
        }
        Tree::new(n, edges, &name)
    }

    /// `H(a1,a2|l|b1,b2)`: branch vertices u and v joined by `l` markable edges, u with legs of
    /// `a1`, `a2` markable edges, v with legs of `b1`, `b2`, each leg ending in a pendant edge.
    pub fn h_tree(a: [usize; 2], l: usize, b: [usize; 2]) -> Result<Self, TreeError> {
        let name = format!("H:{},{}/{l}/{},{}", a[0], a[1], b[0], b[1]);
        if l == 0 || a.contains(&0) || b.contains(&0) {
            return Err(TreeError {
                input: name,
                reason: "every leg and the middle path have at least 1 markable edge".into(),
            });
        }
        // u, v, the l - 1 inner vertices of the middle path and x + 1 for each leg, counted
        // before any edge is built.
        let vertices = l.checked_add(1).and_then(|start| {
            a.iter()
                .chain(&b)
                .try_fold(start, |n, &x| n.checked_add(x.checked_add(1)?))
        });
        check_vertices(vertices, &name)?;
        let mut edges = Vec::new();
        let mut n = 2; // u = 0, v = 1
        let mut path = |from: usize, len: usize, to: Option<usize>, edges: &mut Vec<_>| {
            let mut at = from;
            for step in 0..len {
                let next = match to {
                    Some(end) if step + 1 == len => end,
                    _ => {
                        n += 1;
                        n - 1
                    }
                };
                edges.push((at, next));
                at = next;
            }
        };
        path(0, l, Some(1), &mut edges);
        for (centre, legs) in [(0, a), (1, b)] {
            for x in legs {
                path(centre, x + 1, None, &mut edges);
            }
        }
        Tree::new(n, edges, &name)
    }

    /// A spider whose legs all have markable edges: each leg as its vertex path from the
    /// centre (centre first, leaf last), or `None` for any other tree (no vertex or several of
    /// degree >= 3, or a leaf at the centre, which splits the tree into runs).
    pub fn spider_legs(&self) -> Option<Vec<Vec<usize>>> {
        let degree = self.degrees();
        let mut branch = (0..self.n).filter(|&v| degree[v] >= 3);
        let centre = branch.next()?;
        if branch.next().is_some() {
            return None;
        }
        let mut adj = vec![Vec::new(); self.n];
        for &(u, v) in &self.edges {
            adj[u].push(v);
            adj[v].push(u);
        }
        let legs: Vec<Vec<usize>> = adj[centre]
            .iter()
            .map(|&first| {
                let mut path = vec![centre, first];
                while let Some(&next) = adj[path[path.len() - 1]]
                    .iter()
                    .find(|&&w| w != path[path.len() - 2])
                {
                    path.push(next);
                }
                path
            })
            .collect();
        // A leg of one edge is a leaf at the centre.
        legs.iter().all(|p| p.len() >= 3).then_some(legs)
    }

    /// The markable edges of each leg of a spider ([`Tree::spider_legs`]): its path less the
    /// centre and the leaf.
    pub fn leg_lengths(legs: &[Vec<usize>]) -> Vec<usize> {
        legs.iter().map(|path| path.len() - 2).collect()
    }

    /// Degree of every vertex.
    pub fn degrees(&self) -> Vec<usize> {
        let mut d = vec![0; self.n];
        for &(u, v) in &self.edges {
            d[u] += 1;
            d[v] += 1;
        }
        d
    }

    /// The non-pendant edges (neither end a leaf), in input order.
    pub fn markable(&self) -> Vec<(usize, usize)> {
        let d = self.degrees();
        self.edges
            .iter()
            .copied()
            .filter(|&(u, v)| d[u] >= 2 && d[v] >= 2)
            .collect()
    }
}

/// Refuses a tree of `n` vertices (`None`: more than `usize` counts) over [`MAX_VERTICES`],
/// before anything of its size is allocated.
fn check_vertices(n: Option<usize>, name: &str) -> Result<(), TreeError> {
    match n {
        Some(n) if n <= MAX_VERTICES => Ok(()),
        _ => Err(TreeError {
            input: name.to_string(),
            reason: format!("more than {MAX_VERTICES} vertices"),
        }),
    }
}

/// The representative of `x` in a union-find forest (path halving).
pub(crate) fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

fn numbers(s: &str, what: &str, input: &str) -> Result<Vec<usize>, TreeError> {
    s.split(',')
        .map(|x| {
            x.trim().parse::<usize>().map_err(|_| TreeError {
                input: input.to_string(),
                reason: format!("expected {what} as numbers separated by commas, got '{x}'"),
            })
        })
        .collect()
}

impl FromStr for Tree {
    type Err = TreeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let err = |reason: &str| TreeError {
            input: t.to_string(),
            reason: reason.to_string(),
        };
        if let Some(rest) = t.strip_prefix("path:") {
            let n = numbers(rest, "the vertex count", t)?;
            let &[n] = n.as_slice() else {
                return Err(err("path:N takes one number of vertices"));
            };
            return Tree::path(n);
        }
        if let Some(rest) = t.strip_prefix("spider:") {
            return Tree::spider(&numbers(rest, "the legs", t)?);
        }
        if let Some(rest) = t.strip_prefix("H:") {
            let parts: Vec<&str> = rest.split(['/', '|']).collect();
            let [a, l, b] = parts.as_slice() else {
                return Err(err("H:a1,a2/l/b1,b2 has three parts"));
            };
            let (a, l, b) = (
                numbers(a, "a1,a2", t)?,
                numbers(l, "l", t)?,
                numbers(b, "b1,b2", t)?,
            );
            let (&[a1, a2], &[l], &[b1, b2]) = (a.as_slice(), l.as_slice(), b.as_slice()) else {
                return Err(err("H:a1,a2/l/b1,b2 takes two, one and two numbers"));
            };
            return Tree::h_tree([a1, a2], l, [b1, b2]);
        }
        if let Some(rest) = t.strip_prefix("parents:") {
            let parents = numbers(rest, "parents", t)?;
            let edges: Vec<(usize, usize)> = parents
                .iter()
                .enumerate()
                .map(|(i, &p)| (p, i + 1))
                .collect();
            return Tree::new(parents.len() + 1, edges, t);
        }
        // An edge list.
        let mut edges = Vec::new();
        for pair in t.split(',') {
            let (u, v) = pair.split_once('-').ok_or_else(|| {
                err(&format!(
                    "expected an edge list like 0-1,1-2, a parent array parents:0,1 or a family (path:, spider:, H:), got '{pair}'"
                ))
            })?;
            let parse = |x: &str| {
                x.trim().parse::<usize>().map_err(|_| {
                    err(&format!(
                        "'{x}' in the edge '{pair}' is not a vertex number"
                    ))
                })
            };
            let (u, v) = (parse(u)?, parse(v)?);
            // Checked here: the vertex count is one past the largest vertex named.
            check_vertices(u.max(v).checked_add(1), t)?;
            edges.push((u, v));
        }
        let n = edges.iter().map(|&(u, v)| u.max(v) + 1).max().unwrap_or(1);
        Tree::new(n, edges, t)
    }
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_have_the_papers_sizes() {
        let t: Tree = "spider:1,3,7".parse().unwrap();
        assert_eq!((t.n, t.markable().len()), (15, 11));
        let h: Tree = "H:3,1|3|4,1".parse().unwrap();
        assert_eq!((h.n, h.markable().len()), (17, 12));
        let p: Tree = "path:4".parse().unwrap();
        assert_eq!((p.n, p.markable().len()), (4, 1));
        let e: Tree = "0-1,1-2,1-3".parse().unwrap();
        assert_eq!((e.n, e.markable().len()), (4, 0));
        let q: Tree = "parents:0,1,2".parse().unwrap();
        assert_eq!(q.edges, p.edges);
    }

    #[test]
    fn refuses_what_is_not_a_tree() {
        for (text, part) in [
            ("0-1,1-2,2-0", "cycle"),
            ("0-1,2-3", "not connected"),
            ("0-1,0-1,1-2", "twice"),
            ("0-x", "not a vertex"),
            ("0-0", "loop"),
            ("spider:1,0,2", "at least 1"),
            ("spider:1,2", "at least 3 legs"),
            ("H:1,1/0/1,1", "at least 1"),
            ("H:1,1/2", "three parts"),
            ("parents:0,5", "past"),
            ("tree", "expected an edge list"),
        ] {
            let e = text.parse::<Tree>().unwrap_err().to_string();
            assert!(e.contains(part), "{text}: {e}");
        }
    }
}
