//! A position of several heaps under misère play (`sub value --play misere`, `octal value
//! --play misere`): its outcome and every winning move (docs/misere.md, "Positions of several
//! heaps").
//!
//! * A subtraction game: each heap is the nim heap of its normal value under misère play
//!   (docs/misere.md, Theorem 6), so a position plays as misère Nim on those values: the player
//!   to move loses exactly when some value is 2 or more and the nim-sum is 0, or every value is
//!   at most 1 and an odd number are 1 (Bouton; Winning Ways, chapter 13).
//! * A take-and-break code: from the misère quotient of the heaps up to the largest one
//!   (docs/misere.md, Theorem 7), a P-position exactly where the sum's image is in the
//!   P-portion; where the quotient engine gives up, from the genus of every sum the position
//!   reaches ([`SumGenera`]), `G- = 0` exactly at the P-positions. Each heap's own misère value
//!   comes from the sums below it, where they are few enough.

use std::fmt;

use serde::Serialize;

use super::genus::nim_heap_minus;
use super::quotient::Pretension;
use super::sums::{POSITION_BYTES, SumGenera, code_moves, few_sums_below, positions_below};
use crate::memory::Budget;
use crate::octal::OctalCode;
use crate::octal::quotient::{QuotientUsed, pretension_within};
use crate::position::{
    Outcome, WinningMove, subtraction_options, subtraction_values, values_needed, write_outcome,
};
use crate::subtraction::Ruleset;

/// How a misère position was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "name")]
pub enum Method {
    /// Every heap is a nim heap (a subtraction game, docs/misere.md, Theorem 6).
    MisereNim,
    /// The misère quotient of the heaps up to the largest.
    Quotient(QuotientUsed),
    /// The genus of every sum the position reaches.
    Sums { positions: usize },
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::MisereNim => {
                write!(f, "misère Nim on the normal values (every heap a nim heap)")
            }
            Method::Quotient(q) => write!(f, "{q}"),
            Method::Sums { positions } => {
                write!(
                    f,
                    "the genera of every sum the position reaches ({positions})"
                )
            }
        }
    }
}

/// Everything `value --play misere` shows.
#[derive(Clone, Debug, Serialize)]
pub struct MiserePositionReport {
    /// The game: `{1,3,4}` or `·77`.
    pub game: String,
    /// Always `"misere"`.
    pub play: &'static str,
    pub heaps: Vec<usize>,
    /// `G-` of each heap alone; `null` for a heap of a code whose sums below it are more than
    /// [`SINGLE_HEAP_POSITIONS`](super::sums::SINGLE_HEAP_POSITIONS).
    pub misere_values: Vec<Option<u32>>,
    /// How the outcome was found.
    pub method: Method,
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
        misere_values: Vec<Option<u32>>,
        method: Method,
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
            method,
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
        heaps.iter().map(|&h| Some(nim_heap_minus(g[h]))).collect(),
        Method::MisereNim,
        subtraction_options(set),
        |position| Ok(misere_nim_p(position.iter().map(|&h| g[h]))),
    )
}

/// A position of the code `code` under misère play: from the quotient of the heaps up to the
/// largest, or where the engine gives up on it, from every sum the position reaches (refused
/// first if those may not fit `budget`).
pub fn octal(
    code: &OctalCode,
    heaps: &[usize],
    budget: Budget,
) -> anyhow::Result<MiserePositionReport> {
    let largest = values_needed(heaps)? - 1;
    let why_not = match pretension_within(code, largest, budget) {
        Ok(q) => return from_quotient(code, heaps, largest, &q, budget),
        Err(why) => why,
    };
    from_sums(code, heaps, budget, &why_not)
}

/// The position's outcome and winning moves from the quotient `q` of the heaps up to
/// `largest`; each heap's own value from its sums where they are few.
fn from_quotient(
    code: &OctalCode,
    heaps: &[usize],
    largest: usize,
    q: &Pretension,
    budget: Budget,
) -> anyhow::Result<MiserePositionReport> {
    let as_u32 = |hs: &[usize]| hs.iter().map(|&h| h as u32).collect::<Vec<u32>>();
    let mut sums = SumGenera::new(code_moves(code));
    let mut misere_values = Vec::with_capacity(heaps.len());
    for &h in heaps {
        misere_values.push(match few_sums_below(h, budget) {
            true => Some(sums.genus(&[h as u32])?.minus()),
            false => None,
        });
    }
    MiserePositionReport::new(
        code.to_string(),
        heaps,
        misere_values,
        Method::Quotient(QuotientUsed::of(q, largest)),
        |n, emit| code.options(n, emit),
        |position| Ok(q.is_p(&as_u32(position))),
    )
}

/// The position from the genus of every sum it reaches, refused first if those may not fit
/// `budget`, saying `why_not` the quotient did not answer.
fn from_sums(
    code: &OctalCode,
    heaps: &[usize],
    budget: Budget,
    why_not: &str,
) -> anyhow::Result<MiserePositionReport> {
    let total: usize = heaps.iter().sum();
    budget.check(
        positions_below(total).saturating_mul(POSITION_BYTES),
        || {
            format!(
                "the misère position {} of {} (every sum of heaps up to a total of {total}; no quotient: {why_not})",
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
        misere_values.push(Some(sums.genus(&[h as u32])?.minus()));
    }
    let mut report = MiserePositionReport::new(
        code.to_string(),
        heaps,
        misere_values,
        Method::Sums { positions: 0 },
        |n, emit| code.options(n, emit),
        |position| Ok(sums.genus(&as_u32(position))?.minus() == 0),
    )?;
    report.method = Method::Sums {
        positions: sums.len(),
    };
    Ok(report)
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
        let values: Vec<String> = self
            .misere_values
            .iter()
            .map(|v| v.map_or("-".to_string(), |v| v.to_string()))
            .collect();
        let unknown = match self.misere_values.contains(&None) {
            true => "; - where the heap's sums are too many to search",
            false => "",
        };
        writeln!(
            f,
            "values       {} (G- of each heap alone{unknown})",
            values.join(" ")
        )?;
        writeln!(f, "solved by    {}", self.method)?;
        if self.outcome == Outcome::N && self.winning_moves.is_empty() {
            // Only the empty position: no move is left, and not moving wins.
            return write!(
                f,
                "outcome      N (no move is left: the player to move has won)"
            );
        }
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

    /// Positions of random codes of 2 and 3 digits (fresh seed), both ways: from the quotient
    /// (when the engine finds it) and from every sum, each against the game tree.
    #[test]
    fn octal_positions_both_ways_equal_the_brute_force() {
        let seed = crate::test_seed();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut by_quotient = 0;
        for _ in 0..12 {
            let n = rng.random_range(2..=3);
            // The last digit is not 0 (that code is the shorter one).
            let digits: String = (0..n)
                .map(|i| char::from(b'0' + rng.random_range(u8::from(i + 1 == n)..8)))
                .collect();
            let code: OctalCode = format!("0.{digits}").parse().unwrap();
            let mut brute = MisereBrute::new(code_moves(&code));
            let heaps: Vec<usize> = (0..rng.random_range(1..=3))
                .map(|_| rng.random_range(0..=7))
                .collect();
            let r = octal(&code, &heaps, Budget::UNLIMITED).unwrap();
            by_quotient += usize::from(matches!(r.method, Method::Quotient(_)));
            check(&r, &heaps, &mut brute, seed);
            let r = from_sums(&code, &heaps, Budget::UNLIMITED, "a test").unwrap();
            assert!(matches!(r.method, Method::Sums { positions } if positions > 0));
            check(&r, &heaps, &mut brute, seed);
        }
        assert!(by_quotient >= 6, "{by_quotient} of 12 (seed {seed})");
    }

    /// Past the sums it can search, a position is answered from the quotient alone (Kayles
    /// heaps 60, 61 and 5: the sums of a total of 126 are far too many), with the values of the
    /// heaps too large to search left out, and the moves listed exactly those the quotient
    /// says lead to P-positions.
    #[test]
    fn large_heaps_from_the_quotient() {
        let kayles: OctalCode = "0.77".parse().unwrap();
        let r = octal(&kayles, &[60, 61, 5], Budget::UNLIMITED).unwrap();
        assert_eq!(r.misere_values[..2], [None, None]);
        assert_eq!(r.misere_values[2], Some(1));
        assert!(
            matches!(r.method, Method::Quotient(QuotientUsed { heap_max: 61, order, .. }) if order > 12)
        );
        // A winning move is one to a P-position, which the quotient says: check each.
        let q = pretension_within(&kayles, 61, Budget::UNLIMITED).unwrap();
        for m in &r.winning_moves {
            let mut next: Vec<u32> = vec![60, 61, 5];
            next.remove(m.index);
            next.extend(m.to.iter().map(|&h| h as u32));
            assert!(q.is_p(&next), "{m:?}");
        }
        assert_eq!(r.outcome == Outcome::P, q.is_p(&[60, 61, 5]));
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
            assert_eq!(
                Some(brute.value(&[*h as u32], 0, 0)),
                v,
                "{} heap {h}",
                r.game
            );
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
