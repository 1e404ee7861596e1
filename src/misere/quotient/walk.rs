//! Sums of heaps in lexicographic order, the order every step of the quotient engine relies on.
//!
//! A sum is a word: `counts[h]` heaps of size `h`. Words compare by their counts from the
//! largest heap down ([`cmp_words`]). The order is compatible with addition (`u < v` gives
//! `u + w < v + w`) and puts every option of a sum before the sum (a move replaces one heap by
//! smaller ones). So when words are walked in this order, the first word reaching a monoid
//! element has options whose elements were all reached before it, and a word that is not the
//! first for its element has no extension that is first for its own: [`walk`] may skip every
//! extension of such a word.

use std::cmp::Ordering;

use super::monoid::Monoid;

/// What [`walk`] does after calling back on a word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Walk on into the word's extensions.
    Go,
    /// Skip every extension of this word that adds heaps no larger than the last one added.
    Prune,
    /// End the walk.
    Stop,
}

/// What [`walk`] calls on each word: its counts, its element and its options' elements.
pub type Visit<'a> = dyn FnMut(&[u32], u32, &[u32]) -> Step + 'a;

/// The heaps one game of the closed set offers: each heap's image and its options' images.
pub struct Heaps<'a> {
    /// `phi[h]`: the monoid element of a heap of size `h`.
    pub phi: &'a [u32],
    /// `moves[h]`: the elements of the sums a move from a heap of size `h` leaves (sorted, no
    /// repeats; empty for a heap with no move, which is the identity).
    pub moves: &'a [Vec<u32>],
}

/// The images under `heaps.phi` of the options of each heap (`options[h]`: the heap lists a
/// heap of size `h` may become), sorted without repeats.
pub fn option_images<M: Monoid>(m: &M, phi: &[u32], options: &[Vec<Vec<u32>>]) -> Vec<Vec<u32>> {
    options
        .iter()
        .map(|opts| {
            let mut out: Vec<u32> = opts
                .iter()
                .map(|after| after.iter().fold(0, |x, &h| m.mul(x, phi[h as usize])))
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect()
}

/// Calls `visit(counts, element, option_elements)` on the empty word and then on words in
/// lexicographic order: each word is formed from an earlier one by adding one heap, the
/// callback's [`Step`] decides whether its extensions are walked. Heaps with no move are never
/// added (they are the identity and add no option).
pub fn walk<M: Monoid>(m: &M, heaps: &Heaps, visit: &mut Visit) {
    let n = heaps.phi.len();
    let mut counts = vec![0u32; n];
    if visit(&counts, 0, &[]) != Step::Go {
        return;
    }
    descend(m, heaps, n, 0, Vec::new(), &mut counts, visit);
}

/// [`walk`] over the words that hold the largest heap at least once (those after every word
/// of smaller heaps alone), in the same order.
pub fn walk_with_largest<M: Monoid>(m: &M, heaps: &Heaps, visit: &mut Visit) {
    let n = heaps.phi.len();
    let mut counts = vec![0u32; n];
    if let Some(top) = n.checked_sub(1) {
        add_copies(m, heaps, top, 0, Vec::new(), &mut counts, visit);
    }
}

/// Walks the words that extend the current one by heaps below `top`; true when stopped.
fn descend<M: Monoid>(
    m: &M,
    heaps: &Heaps,
    top: usize,
    element: u32,
    moves: Vec<u32>,
    counts: &mut [u32],
    visit: &mut Visit,
) -> bool {
    let Some(h) = top.checked_sub(1) else {
        return false;
    };
    if descend(m, heaps, h, element, moves.clone(), counts, visit) {
        return true;
    }
    add_copies(m, heaps, h, element, moves, counts, visit)
}

/// Walks the words that extend the current one by one copy or more of heap `h` and then heaps
/// below `h`; true when stopped.
fn add_copies<M: Monoid>(
    m: &M,
    heaps: &Heaps,
    h: usize,
    element: u32,
    moves: Vec<u32>,
    counts: &mut [u32],
    visit: &mut Visit,
) -> bool {
    if heaps.moves[h].is_empty() {
        return false;
    }
    let (mut x, mut t) = (element, moves);
    let stopped = loop {
        // One more heap h: its moves, and every earlier option with h beside it.
        let mut next: Vec<u32> = t.iter().map(|&y| m.mul(y, heaps.phi[h])).collect();
        next.extend(heaps.moves[h].iter().map(|&y| m.mul(x, y)));
        next.sort_unstable();
        next.dedup();
        x = m.mul(x, heaps.phi[h]);
        t = next;
        counts[h] += 1;
        match visit(counts, x, &t) {
            Step::Stop => break true,
            Step::Prune => break false,
            Step::Go => {}
        }
        if descend(m, heaps, h, x, t.clone(), counts, visit) {
            break true;
        }
    };
    counts[h] = 0;
    stopped
}

/// Lexicographic order of words: by the counts of the largest heaps first.
pub fn cmp_words(a: &[u32], b: &[u32]) -> Ordering {
    let n = a.len().max(b.len());
    for h in (0..n).rev() {
        let (x, y) = (a.get(h).copied(), b.get(h).copied());
        match x.unwrap_or(0).cmp(&y.unwrap_or(0)) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    Ordering::Equal
}

/// A word over heaps written as the heaps it holds: `2+2+5`, or `0` for the empty sum.
pub fn word_heaps(word: &[u32]) -> String {
    let heaps: Vec<String> = word
        .iter()
        .enumerate()
        .flat_map(|(h, &k)| std::iter::repeat_n(h.to_string(), k as usize))
        .collect();
    if heaps.is_empty() {
        "0".into()
    } else {
        heaps.join("+")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::quotient::monoid::Table;

    /// Over the free-enough monoid `<x | x^5 = x^4>`, heaps 1 and 2 both `x` with moves, the
    /// walk visits words in lexicographic order and pruning a word skips its extensions.
    #[test]
    fn visits_in_order_and_prunes() {
        let m = Table::cyclic(4, 1);
        let phi = [0, 1, 1];
        let moves = vec![vec![], vec![0], vec![1]];
        let heaps = Heaps {
            phi: &phi,
            moves: &moves,
        };
        let mut seen: Vec<Vec<u32>> = Vec::new();
        walk(&m, &heaps, &mut |counts, x, _| {
            seen.push(counts.to_vec());
            if x >= 2 { Step::Prune } else { Step::Go }
        });
        // [], 1, 1+1 (pruned), 2, 2+1 (pruned), 2+2 (pruned).
        let words: Vec<[u32; 3]> = vec![
            [0, 0, 0],
            [0, 1, 0],
            [0, 2, 0],
            [0, 0, 1],
            [0, 1, 1],
            [0, 0, 2],
        ];
        assert_eq!(seen, words.iter().map(|w| w.to_vec()).collect::<Vec<_>>());
        for pair in seen.windows(2) {
            assert_eq!(cmp_words(&pair[0], &pair[1]), Ordering::Less);
        }
    }
}
