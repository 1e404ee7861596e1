//! Whether a pretension is right: given a monoid `Q`, a P-portion and the image `phi(h)` of
//! every heap, does every sum of heaps have the outcome its image says? docs/misere.md
//! ("Misère quotients", Theorem 7) proves that two finite checks decide it:
//!
//! * the **P-condition**: no sum whose image is in P has an option whose image is in P. The
//!   options of `X + h` that move in `h` have images `phi(X) * t` for `t` an image of an option
//!   of `h`, so it is enough to look at every element `x` and heap `h`;
//! * the **N-condition**: every sum with a move whose image is outside P has an option whose
//!   image is in P. A sum's option images are not a function of its image, so the sums are
//!   walked ([`walk`]), each with the set of its option images; a sum whose set contains
//!   another walked sum's set for the same element is skipped with its extensions (what
//!   passes for the smaller set passes for the larger, and an extension's set grows with it).
//!
//! Each check returns the least word that fails it, in the order of [`walk`]: the least
//! failing sum has options that are all predicted right, so it is itself predicted wrong.

use std::cmp::Ordering;

use super::monoid::Monoid;
use super::walk::{Heaps, Step, Visit, cmp_words, walk, walk_with_largest};

/// Calls `first(counts, element, option_elements)` once for each element reached, on its
/// least word, in the walk's order (so every option's element was met before).
fn each_least_word<M: Monoid>(m: &M, heaps: &Heaps, mut first: impl FnMut(&[u32], u32, &[u32])) {
    let mut seen = vec![false; m.size()];
    walk(m, heaps, &mut |counts, x, moves| {
        if std::mem::replace(&mut seen[x as usize], true) {
            return Step::Prune;
        }
        first(counts, x, moves);
        Step::Go
    });
}

/// For each element, the least word reaching it (`None` for an element no sum reaches).
pub fn least_words<M: Monoid>(m: &M, heaps: &Heaps) -> Vec<Option<Vec<u32>>> {
    let mut words: Vec<Option<Vec<u32>>> = vec![None; m.size()];
    each_least_word(m, heaps, |counts, x, _| {
        words[x as usize] = Some(counts.to_vec())
    });
    words
}

/// The P-portion that the least word of each element gives it: P when it has a move and every
/// option's element (reached by a smaller word, so already marked) is outside P.
pub fn mark<M: Monoid>(m: &M, heaps: &Heaps) -> Vec<bool> {
    let mut p = vec![false; m.size()];
    each_least_word(m, heaps, |_, x, moves| {
        p[x as usize] = !moves.is_empty() && moves.iter().all(|&y| !p[y as usize]);
    });
    p
}

/// Whether `x` times heap `h` (image `phi_h`, option images `moves`) breaks the P-condition:
/// in P with an option in P.
fn breaks_p<M: Monoid>(m: &M, p: &[bool], x: u32, phi_h: u32, moves: &[u32]) -> bool {
    p[m.mul(x, phi_h) as usize] && moves.iter().any(|&t| p[m.mul(x, t) as usize])
}

/// The least word breaking the P-condition, given each element's least word.
pub fn p_failure<M: Monoid>(
    m: &M,
    p: &[bool],
    heaps: &Heaps,
    words: &[Option<Vec<u32>>],
) -> Option<Vec<u32>> {
    let mut least: Option<Vec<u32>> = None;
    for (x, word) in words.iter().enumerate() {
        let Some(word) = word else { continue };
        for (h, moves) in heaps.moves.iter().enumerate() {
            if !breaks_p(m, p, x as u32, heaps.phi[h], moves) {
                continue;
            }
            let mut failure = word.clone();
            failure[h] += 1;
            if least
                .as_ref()
                .is_none_or(|l| cmp_words(&failure, l) == Ordering::Less)
            {
                least = Some(failure);
            }
        }
    }
    least
}

/// The least word breaking the N-condition, if one is below `below`; only words holding the
/// largest heap when `largest_only`.
pub fn n_failure<M: Monoid>(
    m: &M,
    p: &[bool],
    heaps: &Heaps,
    below: Option<&[u32]>,
    largest_only: bool,
) -> Option<Vec<u32>> {
    // For each element, the option sets of the walked sums that no other walked set is inside.
    let mut least_sets: Vec<Vec<Vec<u32>>> = vec![Vec::new(); m.size()];
    let mut failure = None;
    let visit: &mut Visit = &mut |counts, x, moves| {
        if below.is_some_and(|b| cmp_words(counts, b) != Ordering::Less) {
            return Step::Stop;
        }
        if moves.is_empty() {
            return Step::Go;
        }
        let sets = &mut least_sets[x as usize];
        if sets.iter().any(|s| is_subset(s, moves)) {
            return Step::Prune;
        }
        sets.retain(|s| !is_subset(moves, s));
        sets.push(moves.to_vec());
        if !p[x as usize] && moves.iter().all(|&y| !p[y as usize]) {
            failure = Some(counts.to_vec());
            return Step::Stop;
        }
        Step::Go
    };
    if largest_only {
        walk_with_largest(m, heaps, visit);
    } else {
        walk(m, heaps, visit);
    }
    failure
}

/// Whether sorted `a` is inside sorted `b`.
fn is_subset(a: &[u32], b: &[u32]) -> bool {
    let mut it = b.iter();
    a.iter().all(|x| it.any(|y| y == x))
}

/// The least word predicted wrong by (`m`, `p`, `heaps`), or `None` when every sum's outcome
/// is its image's.
pub fn least_failure<M: Monoid>(m: &M, p: &[bool], heaps: &Heaps) -> Option<Vec<u32>> {
    if p[0] {
        return Some(vec![0; heaps.phi.len()]);
    }
    let words = least_words(m, heaps);
    let pf = p_failure(m, p, heaps, &words);
    n_failure(m, p, heaps, pf.as_deref(), false).or(pf)
}

/// Whether (`m`, `p`, `heaps`) predicts every sum right, given that it does every sum without
/// the largest heap `n` (the quotient so far, with `n`'s image an element of it): only the
/// sums holding `n` are checked. For the P-condition, every element `x` with `n` alone; for
/// the N-condition, the walk of the words holding `n`.
pub fn extension_holds<M: Monoid>(m: &M, p: &[bool], heaps: &Heaps) -> bool {
    let n = heaps.phi.len() - 1;
    let phi_n = heaps.phi[n];
    let p_holds = (0..m.size() as u32).all(|x| !breaks_p(m, p, x, phi_n, &heaps.moves[n]));
    p_holds && n_failure(m, p, heaps, None, true).is_none()
}
