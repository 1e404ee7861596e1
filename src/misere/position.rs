//! A position of several heaps under misère play (`sub value --play misere`, `octal value
//! --play misere`): its outcome and every winning move (docs/misere.md, "Positions of several
//! heaps").
//!
//! * A subtraction game: each heap is the nim heap of its normal value under misère play
//!   (docs/misere.md, Theorem 6), so a position plays as misère Nim on those values: the player
//!   to move loses exactly when some value is 2 or more and the nim-sum is 0, or every value is
//!   at most 1 and an odd number are 1 (Bouton; Winning Ways, chapter 13).
//! * A take-and-break code: the position's genus from every sum it reaches ([`SumGenera`]),
//!   `G- = 0` exactly at the P-positions.

use std::fmt;

use serde::Serialize;

use super::genus::nim_heap_minus;
use super::sums::{SumGenera, code_moves, positions_below};
use crate::memory::Budget;
use crate::octal::OctalCode;
use crate::position::{
    Outcome, WinningMove, subtraction_options, subtraction_values, values_needed, write_outcome,
};
use crate::subtraction::Ruleset;

/// Bytes one memoised sum may take (as `octal seq --play misere` counts them).
const POSITION_BYTES: u64 = 160;

/// Everything `value --play misere` shows.
#[derive(Clone, Debug, Serialize)]
pub struct MiserePositionReport {
    /// The game: `{1,3,4}` or `·77`.
    pub game: String,
    /// Always `"misere"`.
    pub play: &'static str,
    pub heaps: Vec<usize>,
    /// `G-` of each heap alone.
    pub misere_values: Vec<u32>,
    pub outcome: Outcome,
    /// Every move to a misère P-position, once for each heap size.
    pub winning_moves: Vec<WinningMove>,
}

impl MiserePositionReport {
    /// The report for `heaps`, given the moves from one heap and whether a position (a list of
    /// heaps) is a misère P-position.
    fn new(
        game: String,
        heaps: &[usize],
        misere_values: Vec<u32>,
        options: impl Fn(usize, &mut dyn FnMut(&[usize])),
        mut is_p: impl FnMut(&[usize]) -> anyhow::Result<bool>,
    ) -> anyhow::Result<Self> {
        let outcome = if is_p(heaps)? { Outcome::P } else { Outcome::N };
        let mut winning_moves = Vec::new();
        if outcome == Outcome::N {
            for (index, &h) in heaps.iter().enumerate() {
                if heaps[..index].contains(&h) {
                    continue;
                }
                let mut moves: Vec<Vec<usize>> = Vec::new();
                options(h, &mut |to| moves.push(to.to_vec()));
                for to in moves {
                    let mut next: Vec<usize> = heaps.to_vec();
                    next.remove(index);
                    next.extend(&to);
                    if is_p(&next)? {
                        winning_moves.push(WinningMove { index, from: h, to });
                    }
                }
            }
        }
        Ok(MiserePositionReport {
            game,
            play: "misere",
            heaps: heaps.to_vec(),
            misere_values,
            outcome,
            winning_moves,
        })
    }
}

/// Whether misère Nim with heaps of these sizes is lost by the player to move.
fn misere_nim_p(values: impl Iterator<Item = u32>) -> bool {
    let (mut xor, mut large, mut ones) = (0, false, 0);
    for v in values {
        xor ^= v;
        large |= v >= 2;
        ones += u32::from(v == 1);
    }
    if large { xor == 0 } else { ones % 2 == 1 }
}

/// A position of the subtraction game `set` under misère play.
pub fn subtraction(
    set: &Ruleset,
    heaps: &[usize],
    budget: Budget,
) -> anyhow::Result<MiserePositionReport> {
    let g = subtraction_values(set, heaps, budget)?;
    MiserePositionReport::new(
        set.to_string(),
        heaps,
        heaps.iter().map(|&h| nim_heap_minus(g[h])).collect(),
        subtraction_options(set),
        |position| Ok(misere_nim_p(position.iter().map(|&h| g[h]))),
    )
}

/// A position of the code `code` under misère play, refused first if the sums it reaches (the
/// partitions of the numbers up to its total) may not fit `budget`.
pub fn octal(
    code: &OctalCode,
    heaps: &[usize],
    budget: Budget,
) -> anyhow::Result<MiserePositionReport> {
    values_needed(heaps)?;
    let total: usize = heaps.iter().sum();
    budget.check(
        positions_below(total).saturating_mul(POSITION_BYTES),
        || {
            format!(
                "the misère position {} of {} (every sum of heaps up to a total of {total})",
                heaps
                    .iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(","),
                code.ascii()
            )
        },
    )?;
    let mut sums = SumGenera::new(code_moves(code));
    let as_u32 = |hs: &[usize]| hs.iter().map(|&h| h as u32).collect::<Vec<u32>>();
    let mut misere_values = Vec::with_capacity(heaps.len());
    for &h in heaps {
        misere_values.push(sums.genus(&[h as u32])?.minus());
    }
    MiserePositionReport::new(
        code.to_string(),
        heaps,
        misere_values,
        |n, emit| code.options(n, emit),
        |position| Ok(sums.genus(&as_u32(position))?.minus() == 0),
    )
}

impl fmt::Display for MiserePositionReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[usize]| v.iter().map(usize::to_string).collect::<Vec<_>>().join(" ");
        writeln!(f, "game         {}", self.game)?;
        writeln!(
            f,
            "play         misère (the player who makes the last move loses)"
        )?;
        writeln!(f, "heaps        {}", list(&self.heaps))?;
        let values: Vec<usize> = self.misere_values.iter().map(|&v| v as usize).collect();
        writeln!(f, "values       {} (G- of each heap alone)", list(&values))?;
        write_outcome(
            f,
            self.outcome,
            &self.winning_moves,
            "every move leaves a position the player to move wins",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::brute::{MisereBrute, subtraction_moves};
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// Random positions of random sets and of Kayles (fresh seed): the outcome and every
    /// winning move equal the game tree's, searched from the rules.
    #[test]
    fn positions_equal_the_brute_force() {
        let seed = crate::test_seed();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..20 {
            let mut moves: Vec<u32> = (0..rng.random_range(1..=4))
                .map(|_| rng.random_range(1..=9))
                .collect();
            moves.sort_unstable();
            moves.dedup();
            let set = Ruleset::new(&moves).unwrap();
            let heaps: Vec<usize> = (0..rng.random_range(1..=4))
                .map(|_| rng.random_range(0..=12))
                .collect();
            let r = subtraction(&set, &heaps, Budget::UNLIMITED).unwrap();
            let mut brute = MisereBrute::new(subtraction_moves(set.moves()));
            check(&r, &heaps, &mut brute, seed);
        }
        let kayles: OctalCode = "0.77".parse().unwrap();
        let mut brute = MisereBrute::new(code_moves(&kayles));
        for _ in 0..10 {
            let heaps: Vec<usize> = (0..rng.random_range(1..=3))
                .map(|_| rng.random_range(0..=8))
                .collect();
            let r = octal(&kayles, &heaps, Budget::UNLIMITED).unwrap();
            check(&r, &heaps, &mut brute, seed);
        }
    }

    /// The report against the game tree: the outcome, each heap's value, and the winning moves
    /// exactly (each option of each heap size is tried).
    fn check(
        r: &MiserePositionReport,
        heaps: &[usize],
        brute: &mut MisereBrute<impl Fn(u32) -> Vec<Vec<u32>>>,
        seed: u64,
    ) {
        let as_u32 = |hs: &[usize]| hs.iter().map(|&h| h as u32).collect::<Vec<u32>>();
        let p = brute.value(&as_u32(heaps), 0, 0) == 0;
        assert_eq!(
            r.outcome == Outcome::P,
            p,
            "{} {heaps:?} (seed {seed})",
            r.game
        );
        for (h, &v) in heaps.iter().zip(&r.misere_values) {
            assert_eq!(brute.value(&[*h as u32], 0, 0), v, "{} heap {h}", r.game);
        }
        let mut winning = Vec::new();
        if !p {
            for (index, &h) in heaps.iter().enumerate() {
                if heaps[..index].contains(&h) {
                    continue;
                }
                for to in brute.moves(h as u32) {
                    let mut next = as_u32(heaps);
                    next.remove(index);
                    next.extend(&to);
                    if brute.value(&next, 0, 0) == 0 {
                        winning.push((index, to));
                    }
                }
            }
        }
        let mut listed: Vec<(usize, Vec<u32>)> = r
            .winning_moves
            .iter()
            .map(|m| (m.index, as_u32(&m.to)))
            .collect();
        let norm = |v: &mut Vec<(usize, Vec<u32>)>| {
            for (_, to) in v.iter_mut() {
                to.retain(|&h| h > 0);
                to.sort_unstable();
            }
            v.sort();
            v.dedup();
        };
        norm(&mut listed);
        norm(&mut winning);
        assert_eq!(listed, winning, "{} {heaps:?} (seed {seed})", r.game);
    }
}
