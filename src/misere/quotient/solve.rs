//! The misère quotient of the heaps `0..=n` of a heap game, heap by heap.
//!
//! The quotient of the heaps below `n` is known and proved (a reduced monoid, its P-portion
//! and each heap's image). Heap `n` first tries every element of it as its image (the quotient
//! does not change); otherwise a trial monoid gets a new cyclic part for heap `n`, its
//! P-portion is marked by the least words ([`mark`]) and it is reduced. While the check finds
//! a sum predicted wrong, the heaps of that sum get fresh cyclic parts (one heap, then two,
//! ...), until a trial predicts that sum right; the loop ends when nothing fails. Every trial
//! is only a guess: what is kept is what [`least_failure`] proves, so the answer is exact or
//! an error, never a wrong quotient. Siegel's MisereSolver builds quotients this way
//! (docs/misere.md has the sources); this is written from the theory, not from its code.

use super::check::{extension_holds, least_failure, mark};
use super::monoid::{MAX_PARTS, Monoid, Product, Table, reduce};
use super::walk::{Heaps, option_images};

/// The largest quotient order kept, trials included: its product table takes `4 order^2` bytes
/// (1 GiB here).
pub const MAX_QUOTIENT_ORDER: usize = 1 << 14;

/// A proved quotient: the monoid, its P-portion, and the image of each heap.
#[derive(Clone, Debug)]
pub struct Pretension {
    pub table: Table,
    pub p: Vec<bool>,
    pub phi: Vec<u32>,
}

impl Pretension {
    /// The element of the word `word` (`word[h]` heaps of size `h`).
    pub fn image(&self, word: &[u32]) -> u32 {
        word.iter().enumerate().fold(0, |x, (h, &k)| {
            (0..k).fold(x, |x, _| self.table.mul(x, self.phi[h]))
        })
    }

    /// The element of the sum of `heaps` (each at most the heap bound).
    pub fn image_of_heaps(&self, heaps: &[u32]) -> u32 {
        heaps
            .iter()
            .fold(0, |x, &h| self.table.mul(x, self.phi[h as usize]))
    }

    /// Whether the sum of `heaps` is a misère P-position (the player to move loses).
    pub fn is_p(&self, heaps: &[u32]) -> bool {
        self.p[self.image_of_heaps(heaps) as usize]
    }

    /// How many elements the monoid has.
    pub fn order(&self) -> usize {
        self.table.size()
    }

    /// How many elements are in the P-portion.
    pub fn p_portion(&self) -> usize {
        self.p.iter().filter(|&&p| p).count()
    }
}

/// Why a quotient was not found.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum QuotientError {
    /// A trial monoid, or a quotient's table, would have more elements than allowed.
    #[error(
        "the quotient outgrows the limit at heap {heap}: a monoid of {elements} elements, over \
         {limit} (raise --max-order up to 2^26 for trials; a quotient's own table stops at \
         16384 elements)"
    )]
    TooLarge {
        heap: usize,
        elements: u64,
        limit: u64,
    },
    /// No trial predicted the least failing sum right.
    #[error(
        "no trial monoid predicted the sum {} right at heap {heap}; the quotient is not found",
        super::walk::word_heaps(word)
    )]
    Stuck { heap: usize, word: Vec<u32> },
}

impl QuotientError {
    /// The reason in words that name no flag, for the commands that use a quotient without
    /// offering `--max-order`.
    pub fn brief(&self) -> String {
        match self {
            QuotientError::TooLarge { heap, elements, .. } => {
                format!("it outgrows its limit at heap {heap} (a monoid of {elements} elements)")
            }
            QuotientError::Stuck { .. } => self.to_string(),
        }
    }
}

/// What happened at each heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapStep {
    /// The quotient's order once this heap is in.
    pub order: usize,
    /// Whether this heap changed the quotient (an expansion heap: no element of the quotient
    /// before it could be its image).
    pub expanded: bool,
}

/// The quotient engine for one game.
pub struct Solver {
    /// `options[h]`: the heap lists a heap of size `h` may become.
    options: Vec<Vec<Vec<u32>>>,
    pub current: Pretension,
    pub steps: Vec<HeapStep>,
    /// The most elements a trial monoid may have.
    limit: u64,
}

impl Solver {
    /// The quotient of heap 0 alone (the trivial monoid); `limit` bounds every trial monoid.
    pub fn new(limit: u64) -> Self {
        Solver {
            options: vec![Vec::new()],
            current: Pretension {
                table: Table::trivial(),
                p: vec![false],
                phi: vec![0],
            },
            steps: vec![HeapStep {
                order: 1,
                expanded: false,
            }],
            limit,
        }
    }

    /// `options()[h]`: the heap lists a heap of size `h` may become, for every heap added.
    pub fn options(&self) -> &[Vec<Vec<u32>>] {
        &self.options
    }

    /// Adds the next heap, whose options (heap lists, every heap smaller) are `options`.
    pub fn push(&mut self, options: Vec<Vec<u32>>) -> Result<(), QuotientError> {
        let heap = self.options.len();
        self.options.push(options);
        let mut expanded = false;
        if self.options[heap].is_empty() {
            self.current.phi.push(0);
        } else if let Some(x) = self.conservative(heap) {
            self.current.phi.push(x);
        } else {
            self.current = self.expand(heap)?;
            expanded = true;
        }
        self.steps.push(HeapStep {
            order: self.current.table.size(),
            expanded,
        });
        Ok(())
    }

    /// An element of the current quotient that heap `heap` may be, if one is.
    fn conservative(&self, heap: usize) -> Option<u32> {
        let cur = &self.current;
        let mut phi = cur.phi.clone();
        phi.push(0);
        // Options hold smaller heaps only: their images do not depend on heap's own.
        let moves = option_images(&cur.table, &phi, &self.options);
        // A heap with a move is P alone exactly when none of its options is.
        let alone_p = moves[heap].iter().all(|&t| !cur.p[t as usize]);
        (0..cur.table.size() as u32)
            .filter(|&x| cur.p[x as usize] == alone_p)
            .find(|&x| {
                phi[heap] = x;
                let heaps = Heaps {
                    phi: &phi,
                    moves: &moves,
                };
                extension_holds(&cur.table, &cur.p, &heaps)
            })
    }

    /// A new quotient in which heap `heap` gets its own part, corrected until proved.
    fn expand(&self, heap: usize) -> Result<Pretension, QuotientError> {
        let mut phi: Vec<u32> = self.current.phi.clone();
        phi.push(0);
        let mut trial = self.trial(heap, &self.current.table, &phi, &[heap], &[(2, 2)])?;
        // Each correction fixes the least failing sum, and the next failure is larger; the
        // bound only stops a search that does not settle.
        let mut last = Vec::new();
        for _ in 0..64 * (heap + 1) {
            let moves = option_images(&trial.table, &trial.phi, &self.options);
            let heaps = Heaps {
                phi: &trial.phi,
                moves: &moves,
            };
            let Some(word) = least_failure(&trial.table, &trial.p, &heaps) else {
                return Ok(trial);
            };
            trial = self.recalibrate(heap, &trial, &word)?;
            last = word;
        }
        Err(QuotientError::Stuck { heap, word: last })
    }

    /// A trial that predicts `word` (the least sum `trial` predicts wrong) the other way: the
    /// heaps of `word`, one subset at a time from the smallest, get fresh cyclic parts.
    fn recalibrate(
        &self,
        heap: usize,
        trial: &Pretension,
        word: &[u32],
    ) -> Result<Pretension, QuotientError> {
        let image = |t: &Pretension| t.image(word);
        let want_p = !trial.p[image(trial) as usize];
        let involved: Vec<usize> = (0..word.len()).filter(|&h| word[h] > 0).collect();
        for size in 1..=involved.len().min(MAX_PARTS - 1) {
            for subset in combinations(&involved, size) {
                let cycles: Vec<(usize, usize)> = subset
                    .iter()
                    .map(|&h| {
                        // Long enough for the powers of h the failing sum holds; the
                        // period grows with the index, as powers may cycle slowly.
                        let index = trial
                            .table
                            .index_of(trial.phi[h])
                            .max(word[h].saturating_sub(1) as usize);
                        (index, 2.max(2 * (index.saturating_sub(4) / 2)))
                    })
                    .collect();
                let candidate = self.trial(heap, &trial.table, &trial.phi, &subset, &cycles)?;
                if candidate.p[image(&candidate) as usize] == want_p {
                    return Ok(candidate);
                }
            }
        }
        Err(QuotientError::Stuck {
            heap,
            word: word.to_vec(),
        })
    }

    /// The reduced trial in which the heaps `fresh` get the cyclic parts `cycles` (index,
    /// period) and every other heap keeps its image in `base`.
    fn trial(
        &self,
        heap: usize,
        base: &Table,
        phi: &[u32],
        fresh: &[usize],
        cycles: &[(usize, usize)],
    ) -> Result<Pretension, QuotientError> {
        // The part of `base` the other heaps generate.
        let kept: Vec<u32> = (0..phi.len())
            .filter(|h| !fresh.contains(h))
            .map(|h| phi[h])
            .collect();
        let (regen, map) = base.generated(&distinct(kept));
        let mut parts = vec![regen];
        parts.extend(cycles.iter().map(|&(i, p)| Table::cyclic(i, p)));
        let elements: u64 = parts.iter().map(|t| t.size() as u64).product();
        if elements > self.limit {
            return Err(QuotientError::TooLarge {
                heap,
                elements,
                limit: self.limit,
            });
        }
        let product = Product::new(parts);
        let width = fresh.len() + 1;
        let trial_phi: Vec<u32> = (0..phi.len())
            .map(|h| {
                let mut coords = vec![0u32; width];
                match fresh.iter().position(|&f| f == h) {
                    Some(i) => coords[i + 1] = 1,
                    None => coords[0] = map[phi[h] as usize],
                }
                product.element(&coords)
            })
            .collect();
        let moves = option_images(&product, &trial_phi, &self.options);
        let heaps = Heaps {
            phi: &trial_phi,
            moves: &moves,
        };
        let p = mark(&product, &heaps);
        // Many heaps share an image: generate from each image once.
        let gens = distinct(trial_phi.clone());
        let elems = product.reachable(&gens);
        let (table, p, class) =
            reduce(&product, &elems, &p, &gens, MAX_QUOTIENT_ORDER).map_err(|order| {
                QuotientError::TooLarge {
                    heap,
                    elements: order as u64,
                    limit: MAX_QUOTIENT_ORDER as u64,
                }
            })?;
        Ok(Pretension {
            table,
            p,
            phi: trial_phi.iter().map(|&x| class[x as usize]).collect(),
        })
    }
}

/// `elements` sorted, without repeats.
fn distinct(mut elements: Vec<u32>) -> Vec<u32> {
    elements.sort_unstable();
    elements.dedup();
    elements
}

/// The subsets of `items` of `size` elements, in lexicographic order.
fn combinations(items: &[usize], size: usize) -> Vec<Vec<usize>> {
    if size == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], size - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}
