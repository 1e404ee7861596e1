//! Misère quotients (Plambeck and Siegel): the monoid of the sums of a game's heaps up to some
//! size, two sums being equal when no third sum tells them apart under misère play.
//! docs/misere.md ("Misère quotients") has the definitions and the theorem the check rests on.
//!
//! * [`monoid`]: finite commutative monoids, products, reduction.
//! * [`walk`]: sums of heaps in the order every step relies on.
//! * [`check`]: the proof that a monoid and images predict every sum's outcome.
//! * [`solve`]: the heap-by-heap engine.
//! * [`present`]: generators, relations and normal forms.

pub mod check;
pub mod monoid;
pub mod present;
pub mod solve;
pub mod walk;

pub use present::Presentation;
pub use solve::{HeapStep, Pretension, QuotientError, Solver};

use indicatif::ProgressBar;
use monoid::Monoid;

/// The quotient of heaps `0..=heap_max` of a game, with what a report shows.
#[derive(Clone, Debug)]
pub struct Quotient {
    pub pretension: Pretension,
    pub presentation: Presentation,
    pub steps: Vec<HeapStep>,
    /// Whether the quotient is that of some misère Nim heaps.
    pub tame: bool,
}

impl Quotient {
    /// The quotient of the heaps up to `heap_max` of the game whose heap of size `n` may
    /// become each heap list of `moves(n)` (every heap smaller than `n`); no trial monoid may
    /// exceed `limit` elements. `bar` counts the heaps done.
    pub fn of(
        moves: impl Fn(u32) -> Vec<Vec<u32>>,
        heap_max: usize,
        limit: u64,
        bar: &ProgressBar,
    ) -> Result<Self, QuotientError> {
        let solver = solve_up_to(&moves, heap_max, limit, bar)?;
        let tame = is_tame(&solver.current, limit)?;
        Ok(Quotient {
            presentation: Presentation::of(&solver.current, solver.options()),
            pretension: solver.current,
            steps: solver.steps,
            tame,
        })
    }

    pub fn order(&self) -> usize {
        self.pretension.order()
    }

    /// How many elements are in the P-portion.
    pub fn p_portion(&self) -> usize {
        self.pretension.p_portion()
    }

    /// Whether the sum of `heaps` is a misère P-position (the player to move loses).
    pub fn is_p(&self, heaps: &[u32]) -> bool {
        self.pretension.is_p(heaps)
    }

    /// The least period `p` and the least start `q` with `phi(n + p) = phi(n)` for every `n`
    /// from `q` to the bound, seen over at least two periods and on at least
    /// [`MIN_PERIOD_SPAN`] heaps: observed, not proved.
    pub fn observed_period(&self) -> Option<(usize, usize)> {
        let phi = &self.pretension.phi;
        let len = phi.len();
        (1..=len / 2).find_map(|p| {
            let mut q = len - p;
            while q > 0 && phi[q - 1] == phi[q - 1 + p] {
                q -= 1;
            }
            (q + 2 * p <= len && len - p - q >= MIN_PERIOD_SPAN).then_some((p, q))
        })
    }
}

/// The fewest heaps `n` on which `phi(n + p) = phi(n)` must be seen for a period to be
/// reported: two equal images in a row are not a period.
pub const MIN_PERIOD_SPAN: usize = 12;

/// The pretending function and P-portion of the heaps up to `heap_max` alone (no presentation,
/// no tameness test): what a position of those heaps is answered from.
pub fn pretension_of(
    moves: impl Fn(u32) -> Vec<Vec<u32>>,
    heap_max: usize,
    limit: u64,
    bar: &ProgressBar,
) -> Result<Pretension, QuotientError> {
    Ok(solve_up_to(&moves, heap_max, limit, bar)?.current)
}

/// The engine run over heaps `1..=heap_max`.
fn solve_up_to(
    moves: &impl Fn(u32) -> Vec<Vec<u32>>,
    heap_max: usize,
    limit: u64,
    bar: &ProgressBar,
) -> Result<Solver, QuotientError> {
    let mut solver = Solver::new(limit);
    for n in 1..=heap_max as u32 {
        solver.push(moves(n))?;
        bar.inc(1);
    }
    Ok(solver)
}

/// Whether `q` is isomorphic (with its P-portion) to the quotient `T_k` of the misère Nim
/// heaps below `2^k` for some `k`: the tame quotients (Plambeck and Siegel, section 3). `T_k`
/// has order 1, 2, then `2^k + 2` for `k >= 2` (the tests check it to `k = 4`), so only the
/// one `k` the order allows is built and compared.
fn is_tame(q: &Pretension, limit: u64) -> Result<bool, QuotientError> {
    let k = match q.table.size() {
        1 => 0,
        2 => 1,
        n if n >= 6 && (n - 2).is_power_of_two() => (n - 2).trailing_zeros(),
        _ => return Ok(false),
    };
    let t = nim_quotient(k, limit)?;
    let gens: Vec<u32> = (0..k).map(|i| t.phi[1 << i]).collect();
    Ok(t.table.size() == q.table.size() && isomorphic(&t, &gens, q))
}

/// The quotient of the misère Nim heaps below `2^k`.
fn nim_quotient(k: u32, limit: u64) -> Result<Pretension, QuotientError> {
    let nim = |n: u32| (0..n).map(|h| vec![h]).collect::<Vec<_>>();
    Ok(solve_up_to(&nim, (1 << k) - 1, limit, &ProgressBar::hidden())?.current)
}

/// Whether some map of `gens` (generating `t`) into `q` extends to an isomorphism of monoids
/// that keeps the P-portions. Backtracking over the generators' images.
fn isomorphic(t: &Pretension, gens: &[u32], q: &Pretension) -> bool {
    let n = t.table.size();
    // Each element of t as a product of generators: breadth first from the identity.
    let mut word: Vec<Option<Vec<usize>>> = vec![None; n];
    word[0] = Some(Vec::new());
    let mut queue = vec![0u32];
    while let Some(x) = queue.pop() {
        for (i, &g) in gens.iter().enumerate() {
            let y = t.table.mul(x, g) as usize;
            if word[y].is_none() {
                let mut w = word[x as usize].clone().expect("reached");
                w.push(i);
                word[y] = Some(w);
                queue.insert(0, y as u32);
            }
        }
    }
    // A generator's image is in P with it, and its powers cycle as its own do.
    let shape = |m: &Pretension, x: u32| (m.p[x as usize], m.table.index_of(x), m.table.mul(x, x));
    let candidates: Vec<Vec<u32>> = gens
        .iter()
        .map(|&g| {
            let (p, index, square) = shape(t, g);
            (0..q.table.size() as u32)
                .filter(|&y| {
                    let (qp, qi, qs) = shape(q, y);
                    qp == p && qi == index && (qs == 0) == (square == 0)
                })
                .collect()
        })
        .collect();
    let mut images = vec![0u32; gens.len()];
    search(t, q, &word, &candidates, &mut images, 0)
}

fn search(
    t: &Pretension,
    q: &Pretension,
    word: &[Option<Vec<usize>>],
    candidates: &[Vec<u32>],
    images: &mut [u32],
    at: usize,
) -> bool {
    if at == images.len() {
        let f: Vec<u32> = word
            .iter()
            .map(|w| {
                w.as_ref()
                    .expect("generated")
                    .iter()
                    .fold(0, |x, &i| q.table.mul(x, images[i]))
            })
            .collect();
        let n = f.len();
        let bijective = f.iter().collect::<std::collections::HashSet<_>>().len() == n;
        return bijective
            && (0..n).all(|x| t.p[x] == q.p[f[x] as usize])
            && (0..n).all(|x| {
                (0..n)
                    .all(|y| f[t.table.mul(x as u32, y as u32) as usize] == q.table.mul(f[x], f[y]))
            });
    }
    for &y in &candidates[at] {
        images[at] = y;
        if search(t, q, word, candidates, images, at + 1) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::brute::quotient_agrees;
    use crate::misere::sums::code_moves;
    use crate::octal::OctalCode;

    const LIMIT: u64 = 1 << 20;

    fn nim(n: u32) -> Vec<Vec<u32>> {
        (0..n).map(|k| vec![k]).collect()
    }

    /// Every sum of heaps up to `heap_max` with total at most `total`, against the game tree.
    fn check_sums(
        q: &Quotient,
        moves: impl Fn(u32) -> Vec<Vec<u32>>,
        heap_max: usize,
        total: usize,
    ) -> u64 {
        quotient_agrees(
            |s| q.is_p(s),
            moves,
            heap_max,
            total,
            &ProgressBar::hidden(),
        )
        .unwrap_or_else(|sum| panic!("the sum {sum:?}"))
    }

    /// Misère Nim: the heaps below 4 have the quotient T2 = <a, b | a^2 = 1, b^3 = b> of
    /// order 6 with two P-positions (Plambeck and Siegel, section 3); below 2, order 2.
    #[test]
    fn misere_nim_is_tame() {
        let q = Quotient::of(nim, 3, LIMIT, &ProgressBar::hidden()).unwrap();
        assert_eq!((q.order(), q.p_portion(), q.tame), (6, 2, true));
        assert_eq!(q.presentation.heaps, ["1", "a", "b", "ab"]);
        assert_eq!(q.presentation.relations, ["a^2 = 1", "b^3 = b"]);
        // Every sum: the partitions of 0..=14 into parts of at most 3.
        assert_eq!(check_sums(&q, nim, 3, 14), 147);
        let q = Quotient::of(nim, 1, LIMIT, &ProgressBar::hidden()).unwrap();
        assert_eq!((q.order(), q.p_portion(), q.tame), (2, 1, true));
        // T_k has order 2^k + 2 from k = 2 on, and two P-positions.
        for k in 2..=4 {
            let t = nim_quotient(k, LIMIT).unwrap();
            assert_eq!(t.table.size(), (1 << k) + 2, "T_{k}");
            assert_eq!(t.p.iter().filter(|&&p| p).count(), 2, "T_{k}");
        }
    }

    /// Kayles and Dawson's Kayles: each quotient predicts every sum of total up to 20.
    #[test]
    fn octal_quotients_equal_the_game_tree() {
        // `sums`: the partitions of 0..=20 into parts of at most `heap_max`, each checked.
        for (code, heap_max, sums) in [("0.77", 12, 2594), ("0.07", 14, 2669)] {
            let code: OctalCode = code.parse().unwrap();
            let q =
                Quotient::of(code_moves(&code), heap_max, LIMIT, &ProgressBar::hidden()).unwrap();
            let checked = check_sums(&q, code_moves(&code), heap_max, 20);
            assert_eq!(checked, sums, "{code}");
        }
    }
}
