//! A proved quotient as a reader wants it: generators named `a, b, c, ...` (the heaps that
//! appear in least words), each element by its least word over them (its normal form), the
//! relations (the least words that are not normal forms, each equal to a normal form: every
//! other non-normal word contains one of them, so they present the monoid), the P-portion and
//! the image of every heap.

use std::collections::HashSet;

use super::check::least_words;
use super::solve::Pretension;
use super::walk::{Heaps, cmp_words, option_images};

/// A quotient written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presentation {
    /// `(name, heap)` for each generator.
    pub generators: Vec<(String, usize)>,
    /// `"left = right"` for each relation, least left side first.
    pub relations: Vec<String>,
    /// The normal form of each element, element 0 (`1`) first.
    pub elements: Vec<String>,
    /// The normal form of each heap's image, heap 0 first.
    pub heaps: Vec<String>,
}

/// The letters of the generators in heap order: `a`..`z`, then `g27`, `g28`, ...
fn letter(i: usize) -> String {
    if i < 26 {
        char::from(b'a' + i as u8).to_string()
    } else {
        format!("g{}", i + 1)
    }
}

impl Presentation {
    pub fn of(q: &Pretension, options: &[Vec<Vec<u32>>]) -> Self {
        let moves = option_images(&q.table, &q.phi, options);
        let heaps = Heaps {
            phi: &q.phi,
            moves: &moves,
        };
        let words: Vec<Vec<u32>> = least_words(&q.table, &heaps)
            .into_iter()
            .map(|w| w.expect("every element of a generated quotient has a word"))
            .collect();
        let gen_heaps: Vec<usize> = (0..q.phi.len())
            .filter(|&h| words.iter().any(|w| w[h] > 0))
            .collect();
        let name = |word: &[u32]| -> String {
            let mut out = String::new();
            for (i, &h) in gen_heaps.iter().enumerate() {
                match word[h] {
                    0 => {}
                    1 => out.push_str(&letter(i)),
                    k => out.push_str(&format!("{}^{k}", letter(i))),
                }
            }
            if out.is_empty() { "1".into() } else { out }
        };
        let normal: HashSet<&Vec<u32>> = words.iter().collect();
        let mut lefts: Vec<Vec<u32>> = Vec::new();
        for word in &words {
            for &g in &gen_heaps {
                let mut w = word.clone();
                w[g] += 1;
                let minimal = !normal.contains(&w)
                    && (0..w.len()).filter(|&h| w[h] > 0).all(|h| {
                        let mut d = w.clone();
                        d[h] -= 1;
                        normal.contains(&d)
                    });
                if minimal && !lefts.contains(&w) {
                    lefts.push(w);
                }
            }
        }
        lefts.sort_by(|a, b| cmp_words(a, b));
        Presentation {
            generators: gen_heaps
                .iter()
                .enumerate()
                .map(|(i, &h)| (letter(i), h))
                .collect(),
            relations: lefts
                .iter()
                .map(|w| format!("{} = {}", name(w), name(&words[q.image(w) as usize])))
                .collect(),
            elements: words.iter().map(|w| name(w)).collect(),
            heaps: q.phi.iter().map(|&x| name(&words[x as usize])).collect(),
        }
    }
}
