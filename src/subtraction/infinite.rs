//! Subtraction games with an infinite set of moves (docs/subtraction.md, infinite sets): every
//! positive integer but a finite set X (`--all-but X`), the squares, the powers of a base, the
//! primes. Values grow with the heap here, so no bit-plane engine: an all-but set's value
//! comes from counts of the values so far (O(|X|) a value), a sparse set's from its moves up
//! to the heap (O(moves below n) a value). Arithmetic periods, `G(n + p) = G(n) + s` from
//! `n = q` on, are proved for all-but sets by the finite test of [`all_but`], and observed
//! over the values computed, not proved, for the others.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::all_but;
use super::misere::MisereError;
use crate::memory::{Budget, OverBudget};
use crate::mex::MexSet;
use crate::misere::{Genus, MisereHeaps, nim_heap_minus};
use crate::period::{Arithmetic, observed_arithmetic};

/// Largest member of an all-but set's exclusions, and largest base of `powers:`.
pub const MAX_EXCLUDED: usize = 1 << 20;

/// An infinite subtraction set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfiniteSet {
    /// Every positive integer but these (ascending, distinct, at least one).
    AllBut(Vec<usize>),
    /// 1, 4, 9, 16, ...
    Squares,
    /// 1, b, b^2, ... for a base `b >= 2`.
    Powers(usize),
    /// 2, 3, 5, 7, 11, ...
    Primes,
}

/// Why a set cannot be read, in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetError(pub String);

impl InfiniteSet {
    /// The all-but set of `excluded` (a comma list), checked.
    pub fn all_but(excluded: &str) -> Result<Self, SetError> {
        let mut xs = Vec::new();
        for part in excluded.split(',') {
            let part = part.trim();
            let x: usize = part.parse().map_err(|_| {
                SetError(format!(
                    "'{part}' is not a positive integer (--all-but takes the moves left out, e.g. 2,3,7)"
                ))
            })?;
            if x == 0 || x > MAX_EXCLUDED {
                return Err(SetError(format!(
                    "{x} is not a move to leave out: they are 1 to {MAX_EXCLUDED}"
                )));
            }
            xs.push(x);
        }
        xs.sort_unstable();
        if xs.windows(2).any(|w| w[0] == w[1]) {
            return Err(SetError("a move is left out twice".into()));
        }
        Ok(InfiniteSet::AllBut(xs))
    }

    /// The moves up to `n`, ascending, for the sparse sets (`None` for an all-but set).
    fn moves_up_to(&self, n: usize) -> Option<Vec<usize>> {
        match self {
            InfiniteSet::AllBut(_) => None,
            InfiniteSet::Squares => Some((1..).map(|k| k * k).take_while(|&s| s <= n).collect()),
            InfiniteSet::Powers(b) => Some(
                std::iter::successors(Some(1usize), |&s| s.checked_mul(*b))
                    .take_while(|&s| s <= n)
                    .collect(),
            ),
            InfiniteSet::Primes => Some(primes_up_to(n)),
        }
    }
}

/// The primes up to `n` (a sieve of Eratosthenes).
fn primes_up_to(n: usize) -> Vec<usize> {
    let mut composite = vec![false; n + 1];
    let mut primes = Vec::new();
    for i in 2..=n {
        if !composite[i] {
            primes.push(i);
            (i * i..=n).step_by(i).for_each(|j| composite[j] = true);
        }
    }
    primes
}

impl FromStr for InfiniteSet {
    type Err = SetError;

    /// `squares`, `primes`, `powers:B` (B >= 2), or `all-but:X`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        match s.split_once(':') {
            None if s == "squares" => Ok(InfiniteSet::Squares),
            None if s == "primes" => Ok(InfiniteSet::Primes),
            Some(("powers", b)) => match b.trim().parse::<usize>() {
                Ok(b) if (2..=MAX_EXCLUDED).contains(&b) => Ok(InfiniteSet::Powers(b)),
                _ => Err(SetError(format!(
                    "'{b}' is not a base of powers: 2 to {MAX_EXCLUDED}"
                ))),
            },
            Some(("all-but", xs)) => InfiniteSet::all_but(xs),
            _ => Err(SetError(format!(
                "'{s}' is not a set: give moves (3,8,13), squares, primes, powers:B or all-but:X"
            ))),
        }
    }
}

impl fmt::Display for InfiniteSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InfiniteSet::AllBut(xs) => {
                let xs: Vec<String> = xs.iter().map(ToString::to_string).collect();
                write!(f, "all-but:{}", xs.join(","))
            }
            InfiniteSet::Squares => write!(f, "squares"),
            InfiniteSet::Powers(b) => write!(f, "powers:{b}"),
            InfiniteSet::Primes => write!(f, "primes"),
        }
    }
}

/// Bytes the fast path takes for `len` values: the values, and the counts of an all-but set
/// or the moves of a sparse set, each at most one per value.
pub fn memory(len: usize) -> u64 {
    (len as u64).saturating_mul(4 + 8)
}

/// Bytes [`describe`] takes for `len` values of `set`: [`memory`], and for an all-but set the
/// proof of its period besides ([`all_but::PROOF_BYTES`] a value).
pub fn report_memory(set: &InfiniteSet, len: usize) -> u64 {
    let proof = match set {
        InfiniteSet::AllBut(_) => all_but::PROOF_BYTES,
        _ => 0,
    };
    memory(len).saturating_add((len as u64).saturating_mul(proof))
}

/// `G(0..len)`, refused first if that may not fit `budget`.
pub fn values(set: &InfiniteSet, len: usize, budget: Budget) -> Result<Vec<u32>, OverBudget> {
    budget.check(memory(len), || format!("{len} values of {set}"))?;
    Ok(match set {
        InfiniteSet::AllBut(xs) => all_but::values(xs, len),
        _ => sparse_values(&set.moves_up_to(len).expect("a sparse set"), len),
    })
}

/// `G(0..len)` for the sorted `moves`: the mex of the values a move back.
fn sparse_values(moves: &[usize], len: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len {
        let mut seen = MexSet::default();
        for &s in moves.iter().take_while(|&&s| s <= n) {
            seen.insert(g[n - s]);
        }
        g.push(seen.mex());
    }
    g
}

/// What `nimseq sub seq` shows for an infinite set.
#[derive(Clone, Debug, Serialize)]
pub struct InfiniteReport {
    pub set: String,
    pub values: Vec<u32>,
    pub p_positions: Vec<usize>,
    /// Whether `certificate` holds: an all-but set's period proved by Theorem 7.1 of
    /// docs/subtraction.md (no theorem here bounds the check for the other sets).
    pub certified: bool,
    /// The least arithmetic period and its pre-period, proved from `G(0..computed)`.
    pub certificate: Option<Arithmetic>,
    /// Where none is proved, the arithmetic period observed over `G(0..computed)` (`null` if
    /// none).
    pub observed: Option<Arithmetic>,
    pub computed: usize,
    pub max_value: u32,
}

/// The arithmetic period of `set` the values `g` prove (all-but sets), and else the one they
/// show: `(proved, observed)`.
fn proved_or_seen(set: &InfiniteSet, g: &[u32]) -> (Option<Arithmetic>, Option<Arithmetic>) {
    match set {
        InfiniteSet::AllBut(xs) => all_but::period(xs, g),
        _ => (None, observed_arithmetic(g)),
    }
}

/// The first `len` values of `set`, and the arithmetic period of the first `max_len`
/// (at least `len`), refused first if that may not fit `budget`.
pub fn describe(
    set: &InfiniteSet,
    len: usize,
    max_len: usize,
    budget: Budget,
) -> Result<InfiniteReport, OverBudget> {
    let computed = max_len.max(len);
    budget.check(report_memory(set, computed), || {
        format!("{computed} values of {set} and their period")
    })?;
    let g = values(set, computed, budget)?;
    let shown = &g[..len];
    let (certificate, observed) = proved_or_seen(set, &g);
    Ok(InfiniteReport {
        set: set.to_string(),
        values: shown.to_vec(),
        p_positions: (0..len).filter(|&n| g[n] == 0).collect(),
        certified: certificate.is_some(),
        certificate,
        observed,
        computed,
        max_value: g.iter().copied().max().unwrap_or(0),
    })
}

/// What `nimseq sub seq SET --play misere` shows for an infinite set: each heap is the nim heap
/// of its normal value under misère play (docs/misere.md, Theorem 6), so the misère values are
/// the normal ones with 0 and 1 exchanged.
#[derive(Clone, Debug, Serialize)]
pub struct InfiniteMisereReport {
    pub set: String,
    #[serde(flatten)]
    pub heaps: MisereHeaps,
    /// Whether `certificate` holds: the misère period follows from a proved normal one.
    pub certified: bool,
    /// The misère values' least arithmetic period and pre-period, proved.
    pub certificate: Option<Arithmetic>,
    /// Where none is proved, the arithmetic period the misère values show over
    /// `G-(0..computed)`, not proved.
    pub observed: Option<Arithmetic>,
    pub computed: usize,
}

/// [`describe`] under misère play.
pub fn describe_misere(
    set: &InfiniteSet,
    len: usize,
    max_len: usize,
    budget: Budget,
) -> Result<InfiniteMisereReport, MisereError> {
    let computed = max_len.max(len);
    budget.check(
        report_memory(set, computed).saturating_add(memory(computed)),
        || format!("{computed} misère values of {set} and their period"),
    )?;
    let g = values(set, computed, budget)?;
    let genera = g[..len]
        .iter()
        .enumerate()
        .map(|(heap, &v)| {
            Genus::nim_heap(v).map_err(|source| MisereError::GenusTooLong {
                set: set.to_string(),
                heap,
                source,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let exchanged: Vec<u32> = g.iter().map(|&v| nim_heap_minus(v)).collect();
    // Only an all-but set's normal period is proved, and only a proved one carries over.
    let certificate = match set {
        InfiniteSet::AllBut(xs) => all_but::period(xs, &g).0,
        _ => None,
    }
    .and_then(|normal| all_but::misere(&exchanged, normal));
    Ok(InfiniteMisereReport {
        set: set.to_string(),
        heaps: MisereHeaps::new(&genera),
        certified: certificate.is_some(),
        certificate,
        observed: certificate
            .is_none()
            .then(|| observed_arithmetic(&exchanged))
            .flatten(),
        computed,
    })
}

/// The line of the arithmetic period: proved (by the theorems `proof` names), observed, or
/// none seen, over `name(0..computed)`.
fn write_arithmetic(
    f: &mut fmt::Formatter<'_>,
    (name, proof): (&str, &str),
    certificate: Option<Arithmetic>,
    observed: Option<Arithmetic>,
    computed: usize,
) -> fmt::Result {
    match (certificate, observed) {
        (Some(a), _) => write!(
            f,
            "certificate  {a}, proved from {name}(0..{computed}) ({proof})"
        ),
        (None, Some(a)) => write!(f, "observed     {a} over {name}(0..{computed}), not proved"),
        (None, None) => write!(
            f,
            "observed     no arithmetic period over {name}(0..{computed})"
        ),
    }
}

impl fmt::Display for InfiniteMisereReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "set          {}", self.set)?;
        write!(f, "{}", self.heaps)?;
        write_arithmetic(
            f,
            (
                "G-",
                "docs/subtraction.md, Theorem 7.1; docs/misere.md, Theorem 6",
            ),
            self.certificate,
            self.observed,
            self.computed,
        )
    }
}

impl fmt::Display for InfiniteReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "set          {}", self.set)?;
        crate::output::write_values(f, &self.values)?;
        write_arithmetic(
            f,
            ("G", "docs/subtraction.md, Theorem 7.1"),
            self.certificate,
            self.observed,
            self.computed,
        )?;
        writeln!(f)?;
        write!(
            f,
            "largest      {} in G(0..{})",
            self.max_value, self.computed
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Written from the rule alone: the options of `n` are `G(n - s)` for every member `s <=
    /// n`, membership tested one number at a time; the mex by search.
    fn plain(set: &InfiniteSet, len: usize) -> Vec<u32> {
        let member = |s: usize| normal_member(set, s);
        let mut g: Vec<u32> = Vec::new();
        for n in 0..len {
            let options: Vec<u32> = (1..=n).filter(|&s| member(s)).map(|s| g[n - s]).collect();
            g.push((0..).find(|v| !options.contains(v)).unwrap());
        }
        g
    }

    /// Misère play: CGSuite's values for all-but {2,3,7} (GameHeapTest.scala), and every named
    /// set and a random all-but set against the game tree searched from the rules.
    #[test]
    fn misere_values_of_infinite_sets() {
        use crate::misere::brute::MisereBrute;
        use rand::{Rng, SeedableRng};
        let set = InfiniteSet::all_but("2,3,7").unwrap();
        let r = describe_misere(&set, 21, 1024, Budget::UNLIMITED).unwrap();
        assert_eq!(
            r.heaps.misere_values,
            [
                1, 0, 1, 0, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7, 8, 9, 8, 9, 10
            ]
        );
        assert_eq!(r.heaps.genus[..5].join(","), "0,1,0,1,2");
        let seed = crate::test_seed();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        // Distinct moves: an all-but set refuses a move left out twice.
        let count = rng.random_range(1..=3);
        let excluded: Vec<String> = rand::seq::index::sample(&mut rng, 12, count)
            .iter()
            .map(|i| (i + 1).to_string())
            .collect();
        let random = InfiniteSet::all_but(&excluded.join(",")).unwrap();
        for set in [
            InfiniteSet::Squares,
            InfiniteSet::Primes,
            InfiniteSet::Powers(2),
            random,
        ] {
            let moves = |n: u32| -> Vec<Vec<u32>> {
                (1..=n)
                    .filter(|&s| normal_member(&set, s as usize))
                    .map(|s| vec![n - s])
                    .collect()
            };
            let mut brute = MisereBrute::new(moves);
            let r = describe_misere(&set, 30, 30, Budget::UNLIMITED).unwrap();
            for n in 0..30u32 {
                assert_eq!(
                    r.heaps.misere_values[n as usize],
                    brute.value(&[n], 0, 0),
                    "{set}, heap {n} (seed {seed})"
                );
            }
        }
    }

    /// Whether `s` is a move of `set`, by its definition.
    fn normal_member(set: &InfiniteSet, s: usize) -> bool {
        match set {
            InfiniteSet::AllBut(xs) => !xs.contains(&s),
            InfiniteSet::Squares => (1..=s).take_while(|k| k * k <= s).any(|k| k * k == s),
            InfiniteSet::Powers(b) => {
                let mut p = 1;
                while p < s {
                    p *= b;
                }
                p == s
            }
            InfiniteSet::Primes => {
                s >= 2
                    && (2..s)
                        .take_while(|d| d * d <= s)
                        .all(|d| !s.is_multiple_of(d))
            }
        }
    }

    /// The fast paths equal the plain rule on the named sets and on random all-but sets
    /// (fresh seed).
    #[test]
    fn fast_paths_equal_the_plain_rule() {
        use rand::{Rng, SeedableRng};
        let seed = rand::random::<u64>();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut sets = vec![
            InfiniteSet::Squares,
            InfiniteSet::Primes,
            InfiniteSet::Powers(2),
            InfiniteSet::Powers(3),
            InfiniteSet::all_but("2,3,7").unwrap(),
            InfiniteSet::all_but("1").unwrap(),
        ];
        for _ in 0..20 {
            let k = rng.random_range(1..=5);
            let xs: Vec<String> = (0..k)
                .map(|_| rng.random_range(1..=40usize))
                .collect::<std::collections::BTreeSet<_>>()
                .iter()
                .map(ToString::to_string)
                .collect();
            sets.push(InfiniteSet::all_but(&xs.join(",")).unwrap());
        }
        for set in sets {
            let fast = values(&set, 600, Budget::UNLIMITED).unwrap();
            assert_eq!(fast, plain(&set, 600), "{set} (seed {seed})");
        }
    }

    /// OEIS A014586 (subtract-a-square) from its first 101 terms; all-but {2,3,7} is
    /// arithmetic-periodic with period 4, pre-period 0 and saltus 2 (CGSuite's test game), proved.
    #[test]
    fn published_values() {
        let a014586 = [
            0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 3, 2, 3, 4,
            5, 3, 2, 3, 4, 0, 1, 2, 3, 2, 0, 1, 2, 3, 2, 0, 1, 2, 3, 2, 3, 4, 5, 0, 1, 3, 4, 5, 0,
            1, 3, 4, 5, 0, 1, 3, 0, 1, 0, 1, 2, 4, 3, 0, 1, 5, 6, 2, 3, 4, 5, 6, 2, 3, 4, 5, 0, 1,
            6, 3, 2, 4, 2, 6, 4, 5, 0, 1, 6, 4,
        ];
        let squares = values(&InfiniteSet::Squares, a014586.len(), Budget::UNLIMITED).unwrap();
        assert_eq!(squares, a014586);
        let report = describe(
            &InfiniteSet::all_but("2,3,7").unwrap(),
            12,
            1 << 12,
            Budget::UNLIMITED,
        )
        .unwrap();
        assert_eq!(
            (report.certified, report.certificate, report.observed),
            (
                true,
                Some(Arithmetic {
                    period: 4,
                    preperiod: 0,
                    saltus: 2
                }),
                None
            )
        );
        // Subtract-a-square: no theorem, so at most observed.
        let squares = describe(&InfiniteSet::Squares, 4, 1 << 10, Budget::UNLIMITED).unwrap();
        assert_eq!((squares.certified, squares.certificate), (false, None));
        assert_eq!(report.values, [0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5]);
    }

    #[test]
    fn sets_parse_and_refuse() {
        for (text, shown) in [
            ("squares", "squares"),
            ("primes", "primes"),
            ("powers:2", "powers:2"),
            ("all-but:7,2,3", "all-but:2,3,7"),
        ] {
            assert_eq!(text.parse::<InfiniteSet>().unwrap().to_string(), shown);
        }
        for bad in [
            "cubes",
            "powers:1",
            "powers:x",
            "all-but:",
            "all-but:0",
            "all-but:2,2",
        ] {
            assert!(bad.parse::<InfiniteSet>().is_err(), "{bad}");
        }
    }
}
