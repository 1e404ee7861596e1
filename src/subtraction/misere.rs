//! One subtraction set under misère play: misère values, P-positions and genera, with the
//! certified period of the genus sequence (docs/misere.md).
//!
//! A heap's genus is a function of the genera of the heaps `x - s`, so from `x = max S` on the
//! genus sequence is determined by its last `max S` terms, as the nim values are: a matched
//! window of genera proves its period exactly as docs/subtraction.md, section 2 proves a
//! normal-play one. The misère values (`γ0`) and the misère P-positions are determined by their
//! own last `max S` terms too, so their least periods follow by the same argument.

use std::fmt;

use serde::Serialize;

use super::ruleset::Ruleset;
use super::seq::Certificate;
use super::solution::Solution;
use crate::memory::{Budget, OverBudget};
use crate::misere::{Genus, GenusTooLong, MisereHeaps};
use crate::output::values_word;
use crate::period::{Period, certify};

/// Everything `nimseq sub seq SET --play misere` shows.
#[derive(Clone, Debug, Serialize)]
pub struct MisereReport {
    pub set: Vec<u32>,
    #[serde(flatten)]
    pub heaps: MisereHeaps,
    pub certified: bool,
    /// The genus period and what proves it (`null` when none was certified).
    pub certificate: Option<MisereCertified>,
    /// Genera computed and searched.
    pub computed: usize,
}

/// The certified least periods of the genus sequence, of the misère values and of the misère
/// P-positions, with the window of genera that proves them.
#[derive(Clone, Debug, Serialize)]
pub struct MisereCertified {
    /// Of the genus sequence.
    pub period: usize,
    pub preperiod: usize,
    pub misere_period: usize,
    pub misere_preperiod: usize,
    pub outcome_period: usize,
    pub outcome_preperiod: usize,
    /// `G-(q), ..., G-(q + p - 1)` for the misère values' own `(p, q)`.
    pub misere_word: Vec<u32>,
    #[serde(flatten)]
    pub certificate: Certificate,
}

/// A scan row's misère columns: the least periods and pre-periods of the misère values and of
/// the misère P-positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MiserePeriods {
    pub misere_period: usize,
    pub misere_preperiod: usize,
    pub misere_outcome_period: usize,
    pub misere_outcome_preperiod: usize,
}

impl MiserePeriods {
    /// The misère periods of a set whose least move is `a`, from its certified normal-play
    /// solution: the values' are the normal ones (docs/misere.md, Theorem 6), the P-positions'
    /// period is the normal one, and their pre-period is the normal one plus `a`, or 0 where the
    /// normal P-positions are purely periodic (Corollary 6.1).
    pub fn derived(a: usize, normal: &Solution) -> Self {
        MiserePeriods {
            misere_period: normal.period,
            misere_preperiod: normal.preperiod,
            misere_outcome_period: normal.outcome_period,
            misere_outcome_preperiod: match normal.outcome_preperiod {
                0 => 0,
                q => q + a,
            },
        }
    }

    /// The same periods as the genera prove them, from the rules.
    pub fn of_genera(proof: &MisereCertified) -> Self {
        MiserePeriods {
            misere_period: proof.misere_period,
            misere_preperiod: proof.misere_preperiod,
            misere_outcome_period: proof.outcome_period,
            misere_outcome_preperiod: proof.outcome_preperiod,
        }
    }

    /// The four numbers in column order.
    pub fn key(&self) -> [usize; 4] {
        [
            self.misere_period,
            self.misere_preperiod,
            self.misere_outcome_period,
            self.misere_outcome_preperiod,
        ]
    }
}

/// Why a misère report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum MisereError {
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    #[error("{set}, heap {heap}: {source}")]
    GenusTooLong {
        set: String,
        heap: usize,
        source: GenusTooLong,
    },
}

/// The genera of the heaps `0, 1, ...`, grown on demand.
pub struct Genera {
    set: Ruleset,
    genera: Vec<Genus>,
}

impl Genera {
    pub fn new(set: &Ruleset) -> Self {
        Genera {
            set: set.clone(),
            genera: Vec::new(),
        }
    }

    /// Computes the genera of every heap below `len`.
    pub fn extend(&mut self, len: usize) -> Result<&[Genus], MisereError> {
        let mut options = Vec::with_capacity(self.set.moves().len());
        for x in self.genera.len()..len {
            options.clear();
            options.extend(
                self.set
                    .moves()
                    .iter()
                    .take_while(|&&s| s as usize <= x)
                    .map(|&s| self.genera[x - s as usize]),
            );
            let genus =
                Genus::from_options(&options).map_err(|source| MisereError::GenusTooLong {
                    set: self.set.to_string(),
                    heap: x,
                    source,
                })?;
            self.genera.push(genus);
        }
        Ok(&self.genera[..len])
    }

    /// Computes genera until their period is certified, growing the prefix four-fold from
    /// `8 max S + 64` up to `max_len`: the periods proved, if any, and the genera searched.
    pub fn certify(
        &mut self,
        max_len: usize,
    ) -> Result<(Option<MisereCertified>, usize), MisereError> {
        let c = self.set.max_move() as usize;
        let mut search = (8 * c + 64).min(max_len);
        loop {
            let prefix = self.extend(search)?;
            if let Some(proof) = certify(prefix, c, [], true) {
                return Ok((Some(prove(prefix, proof, c)), search));
            }
            if search >= max_len {
                return Ok((None, search));
            }
            search = search.saturating_mul(4).min(max_len);
        }
    }
}

/// Bytes [`describe`] may take: a genus per position searched and its misère value and outcome
/// while the period is proved, and the strings shown.
pub fn memory(len: usize, max_len: usize) -> u64 {
    let genus = std::mem::size_of::<Genus>() as u64;
    (len.max(max_len) as u64)
        .saturating_mul(genus + 8)
        .saturating_add((len as u64).saturating_mul(4 + 4 + 8 + 48))
}

/// Computes the genera of `set` until their period is certified (growing the prefix four-fold
/// from `8 max S + 64`, up to `max_len`) and reports the first `len` heaps. A search that proves
/// nothing within `max_len` still gives the values, with `certified` false.
pub fn describe(
    set: &Ruleset,
    len: usize,
    max_len: usize,
    budget: Budget,
) -> Result<MisereReport, MisereError> {
    budget.check(memory(len, max_len), || {
        format!("the genera of {set} with --len {len} and --max-len {max_len}")
    })?;
    let mut genera = Genera::new(set);
    let (certificate, computed) = genera.certify(max_len)?;
    let shown = genera.extend(len)?;
    Ok(MisereReport {
        set: set.moves().to_vec(),
        heaps: MisereHeaps::new(shown),
        certified: certificate.is_some(),
        certificate,
        computed,
    })
}

/// The periods of the misère values and outcomes, given the genus period proved in `prefix`.
fn prove(prefix: &[Genus], genus: Period, c: usize) -> MisereCertified {
    let minus: Vec<u32> = prefix.iter().map(Genus::minus).collect();
    let p_positions: Vec<bool> = minus.iter().map(|&v| v == 0).collect();
    // The genus window matches at `genus.period`, so both projections' windows do.
    let values = certify(&minus[..], c, [genus.period], false).expect("the genus period proves it");
    let outcomes =
        certify(&p_positions[..], c, [genus.period], false).expect("the genus period proves it");
    MisereCertified {
        period: genus.period,
        preperiod: genus.preperiod,
        misere_period: values.period,
        misere_preperiod: values.preperiod,
        outcome_period: outcomes.period,
        outcome_preperiod: outcomes.preperiod,
        misere_word: minus[values.preperiod..values.preperiod + values.period].to_vec(),
        certificate: Certificate {
            from: genus.preperiod,
            to: genus.preperiod + c,
            checked_len: prefix.len(),
        },
    }
}

/// Longest period word printed in full in the text report.
const WORD_SHOWN: usize = 200;

impl fmt::Display for MisereReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "set          {}", Ruleset::braces(&self.set))?;
        write!(f, "{}", self.heaps)?;
        let Some(s) = &self.certificate else {
            return write!(
                f,
                "period       none certified within genus(0..{})",
                self.computed
            );
        };
        let kind = |q: usize| {
            if q == 0 {
                "purely periodic"
            } else {
                "pre-periodic"
            }
        };
        writeln!(
            f,
            "period       {}, pre-period {} (genus; {})",
            s.period,
            s.preperiod,
            kind(s.preperiod)
        )?;
        let (p, q) = (s.misere_period, s.misere_preperiod);
        let word = &s.misere_word[..p.min(WORD_SHOWN)];
        let cut = if p > WORD_SHOWN { " ..." } else { "" };
        writeln!(
            f,
            "one period   G-({q}..{}) = {}{cut} (misère values: period {p}, pre-period {q})",
            q + p,
            values_word(word)
        )?;
        writeln!(
            f,
            "outcomes     period {}, pre-period {} (misère P-positions only)",
            s.outcome_period, s.outcome_preperiod
        )?;
        let c = &s.certificate;
        write!(
            f,
            "certificate  genus(x+{}) = genus(x) for x in [{}, {}), checked within genus(0..{}); every move is legal from x = max S on, so this window proves it for all x >= {}",
            s.period, c.from, c.to, c.checked_len, c.from
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::brute::{MisereBrute, subtraction_moves};
    use rand::{Rng, SeedableRng, rngs::StdRng};

    /// CGSuite's test suite (GameHeapTest.scala): Subtraction([2,3,7]) for heaps 0..20.
    #[test]
    fn subtraction_2_3_7_as_cgsuite_gives_it() {
        let set: Ruleset = "2,3,7".parse().unwrap();
        let r = describe(&set, 21, 1 << 16, Budget::new(1 << 30)).unwrap();
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
        assert_eq!(
            list(&r.heaps.misere_values),
            "1,1,0,0,2,1,1,0,0,2,1,1,0,0,2,1,1,0,0,2,1"
        );
        assert_eq!(
            r.heaps.genus.join(","),
            "0,0,1,1,2,0,0,1,1,2,0,0,1,1,2,0,0,1,1,2,0"
        );
        let s = r.certificate.unwrap();
        assert_eq!((s.period, s.preperiod), (5, 0));
        assert_eq!((s.misere_period, s.outcome_period), (5, 5));
    }

    /// A triple `a < b < c` with `c <= c_max`, uniformly in each in turn.
    fn random_triple(rng: &mut StdRng, c_max: u32) -> Ruleset {
        let c = rng.random_range(3..=c_max);
        let b = rng.random_range(2..c);
        Ruleset::triple(rng.random_range(1..b), b, c)
    }

    /// Random triples with c <= 20, fresh seed: every misère value and every genus digit up to
    /// where the superscript alternates (and two past it) equals the game tree of
    /// `x + k copies of *2` searched from the rules.
    #[test]
    fn genus_digits_equal_the_brute_force() {
        let seed = crate::test_seed();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..12 {
            let set = random_triple(&mut rng, 20);
            let c = set.max_move();
            let len = 3 * c as usize + 10;
            let mut genera = Genera::new(&set);
            let genera = genera.extend(len).unwrap();
            let mut brute = MisereBrute::new(subtraction_moves(set.moves()));
            for (x, genus) in genera.iter().enumerate() {
                let digits = genus.superscript().len() + 2;
                for k in 0..digits {
                    assert_eq!(
                        u32::from(genus.digit(k)),
                        brute.value(&[x as u32], k as u32, 0),
                        "{set}, heap {x}, digit {k} (seed {seed})"
                    );
                }
            }
        }
    }

    /// docs/misere.md, Theorem 6, on random sets of 1 to 6 moves (fresh seed): the misère values
    /// of the genera are the reference's normal values with 0 and 1 exchanged, every heap is a
    /// nim heap, and the misère P-positions are the normal ones moved up by the least move.
    #[test]
    fn misere_values_exchange_0_and_1() {
        let seed = crate::test_seed();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..40 {
            let k = rng.random_range(1..=6);
            let mut moves: Vec<u32> = (0..k).map(|_| rng.random_range(1..=40)).collect();
            moves.sort_unstable();
            moves.dedup();
            let set = Ruleset::new(&moves).unwrap();
            let normal = crate::subtraction::reference::nim_values(&set, 300);
            let mut genera = Genera::new(&set);
            let genera = genera.extend(300).unwrap();
            let a = set.min_move() as usize;
            for (x, g) in genera.iter().enumerate() {
                let exchanged = if normal[x] <= 1 {
                    1 - normal[x]
                } else {
                    normal[x]
                };
                assert_eq!(g.minus(), exchanged, "{set}, heap {x} (seed {seed})");
                assert!(g.is_nim_heap(), "{set}, heap {x} (seed {seed})");
                let moved_up = x >= a && normal[x - a] == 0;
                assert_eq!(g.minus() == 0, moved_up, "{set}, heap {x} (seed {seed})");
            }
        }
    }

    /// Corollary 6.1: the misère columns derived from the reference's normal-play solutions
    /// equal those the genera prove from the rules, on every triple with c <= 20 and on random
    /// sets of 2 to 7 moves up to 60 (fresh seed).
    #[test]
    fn derived_misere_periods_equal_the_genera() {
        use crate::subtraction::moveset::{MoveSet, SetFilter};
        let seed = crate::test_seed();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut sets: Vec<MoveSet> = SetFilter::up_to(20).sets().collect();
        for _ in 0..60 {
            let k = rng.random_range(2..=7);
            let mut moves = rand::seq::index::sample(&mut rng, 60, k)
                .into_iter()
                .map(|m| m as u32 + 1)
                .collect::<Vec<_>>();
            moves.sort_unstable();
            sets.push(MoveSet::new(&moves));
        }
        let mut pure = 0;
        for t in sets {
            let set = t.ruleset();
            let normal = crate::subtraction::reference::solve(&set, 1 << 22).unwrap();
            let (proof, _) = Genera::new(&set).certify(1 << 22).unwrap();
            let want = MiserePeriods::of_genera(&proof.unwrap());
            let a = set.min_move() as usize;
            assert_eq!(
                MiserePeriods::derived(a, &normal),
                want,
                "{set} (seed {seed})"
            );
            pure += usize::from(normal.outcome_preperiod == 0);
        }
        // Both cases of the corollary occur.
        assert!(pure > 100, "{pure}");
    }

    /// A heap called a nim heap plays as one: beside a nim heap `*m` and a few `*2`, its misère
    /// outcome is that of the nim heap `*g`, by the game tree of the sum.
    #[test]
    fn nim_heaps_play_as_nim_heaps() {
        let seed = crate::test_seed();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..6 {
            let set = random_triple(&mut rng, 12);
            let c = set.max_move();
            let len = 2 * c as usize;
            let mut genera = Genera::new(&set);
            let genera = genera.extend(len).unwrap();
            // Heaps of the game are sizes below `NIM`; `NIM + m` is the nim heap *m.
            const NIM: u32 = 1000;
            let moves = |h: u32| -> Vec<Vec<u32>> {
                if h >= NIM {
                    (0..h - NIM)
                        .map(|j| if j == 0 { vec![] } else { vec![NIM + j] })
                        .collect()
                } else {
                    subtraction_moves(set.moves())(h)
                }
            };
            let mut brute = MisereBrute::new(moves);
            for (x, genus) in genera.iter().enumerate().filter(|(_, g)| g.is_nim_heap()) {
                let heap = |v: u32| if v == 0 { vec![] } else { vec![NIM + v] };
                for m in 0..4u32 {
                    for twos in 0..3 {
                        let mut game = heap(m);
                        game.push(x as u32);
                        let mut nim = heap(m);
                        nim.extend(heap(genus.plus()));
                        assert_eq!(
                            brute.value(&game, twos, 0) == 0,
                            brute.value(&nim, twos, 0) == 0,
                            "{set}: heap {x} as *{} beside *{m} and {twos} *2 (seed {seed})",
                            genus.plus()
                        );
                    }
                }
            }
        }
    }
}
