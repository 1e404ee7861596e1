//! Exact eventual period and pre-period of a sequence from a finite prefix, with a certificate.
//!
//! # The certificate (docs/subtraction.md, section 2)
//! If a sequence is determined, from some index on, by the `window` values before each index
//! (for a subtraction game: `window = max S`), then `s(x + p) = s(x)` for all `x` in
//! `[q, q + window)` implies `s(x + p) = s(x)` for every `x >= q`. So a prefix of length `L`
//! proves the period `p` as soon as the top `window` values match the ones `p` earlier.
//!
//! # Why the answer is the least one
//! * The pre-period `q` does not depend on which eventual period is used, and the least period
//!   divides every eventual period.
//! * If any `p'` matches the top window of a prefix, the least period `p* | p'` matches it
//!   too, since `q <= L - window - p' <= L - window - p*`. So after one match, the least
//!   matching divisor of `p'` is the least period, whatever the candidates were.
//!
//! A candidate list therefore only decides how soon a period is found, never which one: a wrong
//! candidate is rejected by the comparison, and a full search over every `p` is the fallback.

use std::sync::OnceLock;

use serde::Serialize;

/// A sequence prefix that can be compared with itself shifted.
pub trait ShiftCompare {
    /// Number of known values.
    fn known_len(&self) -> usize;

    /// The largest `x` in `[lo, hi)` with `s(x) != s(x + shift)`, or `None`.
    /// Callers guarantee `lo <= hi` and `hi + shift <= self.known_len()`.
    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize>;

    /// A quick first test: `true` if some of the newest `min(n, 64)` values surely differ from
    /// those `shift` earlier (`n + shift <= known_len`). Most wrong periods fail there, so a
    /// sequence that can look at them in a few instructions spares the full search; `false`
    /// promises nothing.
    fn newest_differ(&self, _n: usize, _shift: usize) -> bool {
        false
    }

    /// Whether each of `shifts` surely fails to repeat the top `window` values: `true` if each
    /// shows a difference there (`shift + window <= known_len`); `false` promises nothing. The
    /// default asks [`Self::newest_differ`] of each; a sequence that reads words looks on down
    /// the window until every shift has shown one (a sparse sequence, such as the outcomes,
    /// often repeats its newest 64 values at a shift that is no period).
    fn shifts_differ(&self, window: usize, shifts: &[u16]) -> bool {
        shifts
            .iter()
            .all(|&d| self.newest_differ(window, usize::from(d)))
    }

    /// The least `p >= 1` whose top `window` values repeat `p` earlier (`top_window_matches`),
    /// or `None`: the full search. A sequence that can test many shifts at once overrides it;
    /// the answer must stay the least such `p`.
    fn least_matching_shift(&self, window: usize) -> Option<usize> {
        (1..=self.known_len().saturating_sub(window)).find(|&p| top_window_matches(self, window, p))
    }
}

impl<T: PartialEq> ShiftCompare for [T] {
    fn known_len(&self) -> usize {
        self.len()
    }

    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        (lo..hi).rev().find(|&x| self[x] != self[x + shift])
    }
}

/// Eventual behaviour: `s(x + period) = s(x)` for every `x >= preperiod`, both least.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Period {
    pub period: usize,
    pub preperiod: usize,
}

/// Whether the top `window` values match those `p` earlier: then `p` is an eventual period.
#[inline(always)]
pub fn top_window_matches<S: ShiftCompare + ?Sized>(seq: &S, window: usize, p: usize) -> bool {
    let len = seq.known_len();
    p >= 1
        && p + window <= len
        && !seq.newest_differ(window, p)
        && seq.last_mismatch(len - p - window, len - p, p).is_none()
}

/// Watches one candidate period `p` while a sequence grows, proving it (and so the pre-period)
/// as soon as the top `window` values repeat `p` earlier.
///
/// Invariant: `s(x) = s(x + p)` for every `x` in `[clean_lo, checked_hi)`, and `clean_lo` is 0 or
/// one past a mismatch. Each check scans only the new part `[checked_hi, len - p)`, top down, so a
/// wrong `p` costs about one comparison per check and a right one one pass over the sequence.
/// Once `checked_hi - clean_lo >= window`, `p` is an eventual period and `clean_lo` is exactly the
/// pre-period (the last mismatch below the proved range is the last one of all).
#[derive(Clone, Copy, Debug)]
pub struct CandidateWatch {
    pub p: usize,
    clean_lo: usize,
    checked_hi: usize,
    /// Length below which no proof is possible.
    next_check: usize,
}

impl CandidateWatch {
    pub fn new(p: usize, window: usize) -> Self {
        CandidateWatch {
            p,
            clean_lo: 0,
            checked_hi: 0,
            next_check: p + window,
        }
    }

    /// No proof is possible below this length: calls before it return `None` at once.
    pub fn next_check(&self) -> usize {
        self.next_check
    }

    /// The least period and the pre-period, once the prefix `seq` proves `p`.
    pub fn check<S: ShiftCompare + ?Sized>(&mut self, seq: &S, window: usize) -> Option<Period> {
        if seq.known_len() < self.next_check {
            return None;
        }
        self.observe(seq, seq.known_len(), None);
        self.prove(seq, window)
    }

    /// Takes in a comparison the caller made of the newest values: `s(x) = s(x + p)` for every
    /// `x` in `[from, len - p)` but `last`, the last one that differs, if any. What lies between
    /// the values compared so far and `from` is compared here (only when `last` is `None`: a
    /// mismatch in the newest values makes older ones irrelevant).
    pub fn observe<S: ShiftCompare + ?Sized>(&mut self, seq: &S, from: usize, last: Option<usize>) {
        let hi = seq.known_len().saturating_sub(self.p);
        let last = last.or_else(|| {
            (self.checked_hi < from)
                .then(|| seq.last_mismatch(self.checked_hi, from.min(hi), self.p))?
        });
        if let Some(x) = last {
            self.clean_lo = self.clean_lo.max(x + 1);
        }
        self.checked_hi = self.checked_hi.max(hi);
    }

    /// The least period and the pre-period if the values observed so far prove `p` (the top
    /// `window` of them repeat `p` earlier); else `None`, and [`Self::next_check`] says when to
    /// ask again.
    pub fn prove<S: ShiftCompare + ?Sized>(&mut self, seq: &S, window: usize) -> Option<Period> {
        if self.checked_hi - self.clean_lo < window {
            self.next_check = self.clean_lo + window + self.p;
            return None;
        }
        let period = least_period(seq, window, self.p);
        Some(Period {
            period,
            preperiod: self.clean_lo,
        })
    }
}

/// The least period of `seq`, given that its top `window` values repeat `p` earlier (so `p` is
/// an eventual period, proved). Inlined: a scan asks twice per triple, from code compiled for
/// its CPU's features.
#[inline(always)]
pub fn least_period<S: ShiftCompare + ?Sized>(seq: &S, window: usize, p: usize) -> usize {
    debug_assert!(top_window_matches(seq, window, p), "{p} is not proved");
    // Most proved periods are least: a difference in the window for each maximal divisor shows
    // it, mostly among the newest values.
    if let Some(divisors) = maximal_divisors(p)
        && seq.shifts_differ(window, divisors)
    {
        return p;
    }
    least_matching_divisor(p, |d| top_window_matches(seq, window, d))
}

/// Certified least period and pre-period of the prefix `seq`, or `None` if the prefix is too
/// short to prove any period (then extend it and call again).
///
/// `candidates` are tried first, each at the cost of one window comparison; `full_search` then
/// tries every `p`. The result never depends on the candidates (see the module docs): with
/// `full_search` it is `Some` exactly when `len >= q* + p* + window`.
pub fn certify<S: ShiftCompare + ?Sized>(
    seq: &S,
    window: usize,
    candidates: impl IntoIterator<Item = usize>,
    full_search: bool,
) -> Option<Period> {
    let len = seq.known_len();
    let matches = |p: usize| top_window_matches(seq, window, p);
    let found = candidates.into_iter().find(|&p| matches(p)).or_else(|| {
        if full_search {
            seq.least_matching_shift(window)
        } else {
            None
        }
    })?;
    let period = least_period(seq, window, found);
    Some(Period {
        period,
        preperiod: preperiod(seq, period, len),
    })
}

/// The values a period certificate of the form "`s(n + p) = s(n)` for `n` in `[n0, end)`"
/// must cover, for a sequence where that window proves `p` from `n0` on; one more than the
/// variants say when `n0 = 0`.
///
/// Octal games (docs/octal.md, periods) have two such windows, `t` being the last digit's
/// index.
///
/// **Why one more at `n0 = 0`.** Both proofs compare the options of `n + p` with those of `n`
/// by induction. Heap sizes up to `t` follow their own rule (bit 1 leaves no heap only when
/// `n = i`, bit 2 leaves a heap only when `n - i >= 1`), and with `n0 = 0` the first induction
/// step meets it:
/// * without a split, at `n = t`: `t + p` may leave the heap `p` (bit 2 of `d_t`, value
///   `G(p) = G(0) = 0`) where `t` leaves nothing (bit 1), so they differ when `d_t` is 1 or 2;
/// * with a split, at `n = p + t`: `2p + t` may split into `(p, p)` (bit 4 of `d_t`, value 0)
///   where `p + t`'s counterpart would leave the heap `p` alone, a move only bit 2 allows.
///
/// In both cases a window that stops one short proves a false period: 0.1 (`G = 0,1,0,0,...`)
/// has `G(0 + 2) = G(0)`, a window of `t = 1` at `n0 = 0` for `p = 2`, and 0.4 (`0,0,0,1,...`)
/// has `G(n + 1) = G(n)` on the window `[0, 2)`. Fifteen codes of up to three digits have
/// such false windows. With `n0 >= 1` every size the induction meets is past `t`, and the
/// theorems hold as stated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// A code with a splitting move: Guy and Smith's `[n0, 2 n0 + p + t)`.
    GuySmith { t: usize },
    /// A code without one: `[n0, n0 + t)`, since each value past `t` is the same function of
    /// the `t` before it.
    LastT { t: usize },
    /// A code whose moves leave up to `heaps` heaps (three, or two with `!`): Guy and Smith's
    /// proof with the largest heap moved by `p`, `[n0, k n0 + (k - 1) p + t)` for `k = heaps`,
    /// or `[n0, k n0 + (k^2 - 1) p + t)` when some heaps must be pairwise unequal; `n0 = 0`
    /// takes the window of `n0 = 1` (docs/octal.md, "Periods of hexadecimal codes").
    Heaps {
        t: usize,
        heaps: usize,
        unequal: bool,
    },
}

impl Window {
    /// Its name in certificates: `guy-smith` or `last-t`.
    pub fn name(&self) -> &'static str {
        match self {
            Window::GuySmith { .. } => "guy-smith",
            Window::LastT { .. } => "last-t",
            Window::Heaps { .. } => "heaps",
        }
    }

    /// The window's end for `p` from `n0` as `slope * n0 + rest`, but for the one more at 0.
    fn slope_and_rest(&self, p: usize) -> (usize, usize) {
        match *self {
            Window::GuySmith { t } => (2, p + t),
            Window::LastT { t } => (1, t),
            Window::Heaps { t, heaps, unequal } => {
                let shifts = if unequal {
                    heaps * heaps - 1
                } else {
                    heaps - 1
                };
                (heaps, shifts * p + t)
            }
        }
    }

    /// The end of the window that proves `p` from `n0`.
    pub fn end(&self, n0: usize, p: usize) -> usize {
        let (slope, rest) = self.slope_and_rest(p);
        match self {
            Window::Heaps { .. } => slope * n0.max(1) + rest,
            _ => slope * n0 + rest + usize::from(n0 == 0),
        }
    }

    /// The largest `n0` whose window for `p` lies inside a prefix of `len` values (it needs
    /// `end + p <= len`), or `None` if even `n0 = 0` does not fit. The window's end grows
    /// with `n0`, so every smaller `n0` fits too.
    fn latest_start(&self, p: usize, len: usize) -> Option<usize> {
        let (slope, rest) = self.slope_and_rest(p);
        let room = len.checked_sub(p + rest)?;
        if let Window::Heaps { .. } = self {
            // Every n0 needs slope * max(n0, 1) <= room.
            return (room >= slope).then_some(room / slope);
        }
        // n0 >= 1 needs slope * n0 <= room; n0 = 0 needs room >= 1.
        match room {
            0 => None,
            r if r < slope => Some(0),
            r => Some(r / slope),
        }
    }
}

/// Certified least period and pre-period of the prefix `seq` of a sequence that `window`
/// certifies, or `None` if no window inside the prefix proves a period.
///
/// For each `p` in turn, `p` is proved iff the prefix has no mismatch `s(x) != s(x + p)` at
/// or above the latest start whose window fits (a window that holds proves `p` from its start,
/// so the last mismatch sits below it; and its own window, from one past the last mismatch,
/// is no longer). The first `p` proved is the least period: the least period divides any
/// proved one, has the same pre-period and a window no longer. Its pre-period is one past its
/// last mismatch.
///
/// # What an earlier version got wrong
/// It skipped every multiple of a shift that matched "all the way down" to its last mismatch,
/// on the grounds that a multiple could not match from lower down. It can: a small shift often
/// matches the newest few values by chance (in 0.7003, `0,1,0,1,2,3,2,3` repeated, shift 2
/// matches whenever the prefix ends on `0,1,0,1`), and skipping its multiples skipped the true
/// period 8. Codes of every kind lost their proof that way (0.7003, 0.7063, 0.045, 0.1171 and
/// more). Here a matched shift only bounds where its multiples are compared: a multiple of `d`
/// matches wherever `d` does, so a multiple is compared below the lowest known start of its
/// matched divisors and nowhere else (for a true period, one comparison finds the mismatch
/// just below its pre-period).
pub fn certify_windowed<S: ShiftCompare + ?Sized>(seq: &S, window: Window) -> Option<Period> {
    let len = seq.known_len();
    // (d, one past d's last mismatch) for shifts that matched on at least two of their periods.
    let mut matched: Vec<(usize, usize)> = Vec::new();
    for p in 1..len {
        let Some(latest) = window.latest_start(p, len) else {
            // Longer shifts have longer windows: none fits.
            return None;
        };
        // No mismatch at shift p at or above `clean` (a matched divisor's start bounds it).
        let clean = matched
            .iter()
            .filter(|&&(d, _)| p.is_multiple_of(d))
            .map(|&(_, start)| start)
            .fold(len - p, usize::min);
        let Some(x) = (latest < clean)
            .then(|| seq.last_mismatch(latest, clean, p))
            .flatten()
        else {
            return Some(Period {
                period: p,
                preperiod: preperiod(seq, p, latest.min(clean)),
            });
        };
        let start = x + 1;
        if start < clean && start + 2 * p <= len {
            matched.push((p, start));
        }
    }
    None
}

/// The pre-period of `seq`, given that `period` is a proved eventual period of it (any one: the
/// pre-period does not depend on which) and that `s(x) = s(x + period)` for every `x >= bound`
/// (so only `[0, bound)` is compared).
pub fn preperiod<S: ShiftCompare + ?Sized>(seq: &S, period: usize, bound: usize) -> usize {
    let hi = bound.min(seq.known_len() - period);
    seq.last_mismatch(0, hi, period).map_or(0, |x| x + 1)
}

/// Full periods an [`observed`] period must show within the range.
pub const OBSERVED_REPEATS: usize = 3;

/// The eventual period a finite sequence appears to have, for sequences with no certificate
/// (no bounded window determines them): the `(p, q)` with the least `p + q` (then least `p`)
/// such that `s(x + p) = s(x)` on the whole range from `q`, seen for at least
/// [`OBSERVED_REPEATS`] periods and over a stretch at least as long as the pre-period (a few
/// equal values at the end of a long irregular start are no evidence). Observed in the range,
/// not proven.
pub fn observed<S: ShiftCompare + ?Sized>(seq: &S) -> Option<Period> {
    let len = seq.known_len();
    let mut best: Option<Period> = None;
    for p in 1..=len / OBSERVED_REPEATS {
        // A longer shift has p + q >= p: none past the best sum wins (nor one equal to it,
        // whose p is larger), and its multiples would each scan down to the pre-period.
        if best.is_some_and(|b| p >= b.period + b.preperiod) {
            break;
        }
        let q = seq.last_mismatch(0, len - p, p).map_or(0, |x| x + 1);
        let seen = len - q;
        let better = best.is_none_or(|b| p + q < b.period + b.preperiod);
        if seen >= OBSERVED_REPEATS * p && seen >= q && better {
            best = Some(Period {
                period: p,
                preperiod: q,
            });
        }
    }
    best
}

/// An arithmetic period `G(n + p) = G(n) + s` for `n >= q`, observed over the values (as
/// [`observed`] sees a period: at least three periods and a stretch as long as `q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Arithmetic {
    pub period: usize,
    pub preperiod: usize,
    pub saltus: u32,
}

/// `G(n + p) = G(n) + s from n = q`, as reports write it.
impl std::fmt::Display for Arithmetic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "G(n + {}) = G(n) + {} from n = {}",
            self.period, self.saltus, self.preperiod
        )
    }
}

/// The differences `G(n + 1) - G(n)` of values, compared without being stored.
struct Steps<'a>(&'a [u32]);

impl Steps<'_> {
    fn at(&self, x: usize) -> i64 {
        i64::from(self.0[x + 1]) - i64::from(self.0[x])
    }
}

impl ShiftCompare for Steps<'_> {
    fn known_len(&self) -> usize {
        self.0.len().saturating_sub(1)
    }

    fn last_mismatch(&self, lo: usize, hi: usize, shift: usize) -> Option<usize> {
        (lo..hi).rev().find(|&x| self.at(x) != self.at(x + shift))
    }
}

/// The arithmetic period `values` show, if any: `G(n + p) - G(n) = s` from `q` on is the
/// differences `G(n + 1) - G(n)` having period `p` from `q` on; `s` is then `G(q + p) - G(q)`
/// (never negative: values that fall for good are no game's).
pub fn observed_arithmetic(values: &[u32]) -> Option<Arithmetic> {
    let Period { period, preperiod } = observed(&Steps(values))?;
    let saltus = values[preperiod + period].checked_sub(values[preperiod])?;
    Some(Arithmetic {
        period,
        preperiod,
        saltus,
    })
}

/// The least arithmetic period of `values` and its pre-period, given `proved`: `G(n + p) =
/// G(n) + s` holds for every `n >= q`, proved beyond the values, and the values reach
/// `G(q + 2p - 1)`. Exact, not observed: every arithmetic period from some `n` on is a multiple
/// of the least (`G(n + d) - G(n)` repeats with period `p` from `q`, so `d` is one iff that
/// difference is constant over `q..q + p`), and every period has the same least pre-period,
/// found by looking down from `q`. `None` if the values are too short.
pub fn least_arithmetic(values: &[u32], proved: Arithmetic) -> Option<Arithmetic> {
    let Arithmetic {
        period: p,
        preperiod: q,
        saltus: s,
    } = proved;
    if q + 2 * p > values.len() {
        return None;
    }
    let step = |n: usize, d: usize| i64::from(values[n + d]) - i64::from(values[n]);
    let constant = |d: usize| (q..q + p).all(|n| step(n, d) == step(q, d));
    let d = least_matching_divisor(p, constant);
    let saltus = u32::try_from(step(q, d)).ok()?;
    debug_assert_eq!(u64::from(saltus) * (p / d) as u64, u64::from(s));
    let preperiod = (0..q)
        .rev()
        .find(|&n| step(n, d) != i64::from(saltus))
        .map_or(0, |n| n + 1);
    Some(Arithmetic {
        period: d,
        preperiod,
        saltus,
    })
}

/// The least divisor of `p` that `matches`, given that `p` matches and that the matching divisors
/// are exactly the multiples of one of them (true of periods: they are the multiples of the least
/// period). Divides out one prime at a time while the quotient still matches.
pub fn least_matching_divisor(p: usize, matches: impl Fn(usize) -> bool) -> usize {
    let mut d = p;
    let mut rest = p;
    while rest > 1 {
        let (r, e, others) = split_smallest_prime(rest);
        for _ in 0..e {
            let q = d / r;
            if !matches(q) {
                break;
            }
            d = q;
        }
        rest = others;
    }
    d
}

/// Periods with their maximal divisors in a table ([`maximal_divisors`]): the pair sums of
/// triples with `c` up to 2000.
const MAXIMAL_DIVISORS_BELOW: usize = 1 << 12;

/// Primes dividing a number below [`MAXIMAL_DIVISORS_BELOW`], at most (2 * 3 * 5 * 7 * 11 * 13
/// is larger).
const MAX_PRIMES: usize = 5;

/// `n / r` for each prime `r` dividing `n`, `2 <= n < 4096`, smallest `r` first. A period `n`
/// is the least iff none of these is a period (every proper divisor divides one of them).
pub fn maximal_divisors(n: usize) -> Option<&'static [u16]> {
    /// Per `n`: how many primes divide it, and the divisors.
    static TABLE: [(u8, [u16; MAX_PRIMES]); MAXIMAL_DIVISORS_BELOW] = {
        let mut table = [(0, [0; MAX_PRIMES]); MAXIMAL_DIVISORS_BELOW];
        let mut n = 2;
        while n < MAXIMAL_DIVISORS_BELOW {
            let (mut rest, mut r, mut k) = (n, 2, 0);
            while rest > 1 {
                if r * r > rest {
                    // What is left is prime.
                    r = rest;
                }
                if rest.is_multiple_of(r) {
                    table[n].1[k] = (n / r) as u16;
                    k += 1;
                    while rest.is_multiple_of(r) {
                        rest /= r;
                    }
                }
                r += 1;
            }
            table[n].0 = k as u8;
            n += 1;
        }
        table
    };
    (2..MAXIMAL_DIVISORS_BELOW).contains(&n).then(|| {
        let (count, divisors) = &TABLE[n];
        &divisors[..usize::from(*count)]
    })
}

/// Below this, factors come from a table: a scan factors millions of periods, and dividing is
/// most of the cost of factoring.
const FACTOR_TABLE: usize = 1 << 18;

/// `n >= 2` as `(r, e, m)`: its smallest prime factor `r`, which divides it exactly `e` times,
/// and the rest `m = n / r^e`.
fn split_smallest_prime(n: usize) -> (usize, u32, usize) {
    // Per n: r | e << 24 (r < 2^18), and m.
    static TABLE: OnceLock<Vec<[u32; 2]>> = OnceLock::new();
    if n < FACTOR_TABLE {
        let table = TABLE.get_or_init(|| {
            let mut spf = vec![0u32; FACTOR_TABLE];
            for i in 2..FACTOR_TABLE {
                if spf[i] == 0 {
                    for j in (i..FACTOR_TABLE).step_by(i) {
                        if spf[j] == 0 {
                            spf[j] = i as u32;
                        }
                    }
                }
            }
            // n = r * q: q's entry says whether r divides q again.
            let mut table = vec![[0u32; 2]; FACTOR_TABLE];
            for n in 2..FACTOR_TABLE {
                let r = spf[n];
                let q = n / r as usize;
                table[n] = if q >= 2 && spf[q] == r {
                    [table[q][0] + (1 << 24), table[q][1]]
                } else {
                    [r | 1 << 24, q as u32]
                };
            }
            table
        });
        let [re, m] = table[n];
        return ((re & 0xFF_FFFF) as usize, re >> 24, m as usize);
    }
    let r = (2..)
        .take_while(|r| r * r <= n)
        .find(|&r| n.is_multiple_of(r))
        .unwrap_or(n);
    let (mut e, mut m) = (0, n);
    while m.is_multiple_of(r) {
        m /= r;
        e += 1;
    }
    (r, e, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_off_the_smallest_prime() {
        for (n, want) in [
            (2, (2, 1, 1)),
            (9, (3, 2, 1)),
            (97, (97, 1, 1)),
            (360, (2, 3, 45)),
            (1 << 17, (2, 17, 1)),
            (262_143, (3, 3, 9_709)),
            // Past the table: trial division.
            (262_147, (262_147, 1, 1)),
            (262_149, (3, 1, 87_383)),
            (1_000_003 * 49, (7, 2, 1_000_003)),
        ] {
            assert_eq!(split_smallest_prime(n), want, "{n}");
        }
        // The maximal divisors: one per prime factor, over all of their table.
        for n in 2..MAXIMAL_DIVISORS_BELOW {
            let (mut want, mut rest) = (Vec::new(), n);
            while rest > 1 {
                let (r, _, others) = split_smallest_prime(rest);
                want.push(n / r);
                rest = others;
            }
            let got: Vec<usize> = maximal_divisors(n)
                .unwrap()
                .iter()
                .map(|&d| d.into())
                .collect();
            assert_eq!(got, want, "{n}");
        }
        assert_eq!(maximal_divisors(1), None);
        assert_eq!(maximal_divisors(MAXIMAL_DIVISORS_BELOW), None);
        // The table against trial division, over all of it.
        for n in 2..FACTOR_TABLE {
            let (r, e, m) = split_smallest_prime(n);
            assert!(
                (2..r)
                    .take_while(|f| f * f <= n)
                    .all(|f| !n.is_multiple_of(f)),
                "{n}"
            );
            assert_eq!(r.pow(e) * m, n, "{n}");
            assert!(!m.is_multiple_of(r), "{n}");
        }
    }

    #[test]
    fn least_divisor_among_multiples() {
        for least in 1..40 {
            for k in 1..12 {
                let p = least * k;
                assert_eq!(least_matching_divisor(p, |d| d % least == 0), least, "{p}");
            }
        }
    }

    #[test]
    fn finds_least_period_and_preperiod() {
        // 5 junk values, then (0 1 2) repeated; window 3.
        let mut s = vec![9u8, 9, 9, 9, 9];
        s.extend([0, 1, 2].iter().cycle().take(30));
        let p = certify(&s[..], 3, [], true).unwrap();
        assert_eq!((p.period, p.preperiod), (3, 5));
        // A multiple as candidate reduces to the least period.
        assert_eq!(certify(&s[..], 3, [12], false), Some(p));
        // A wrong candidate alone finds nothing, and a short prefix proves nothing.
        assert_eq!(certify(&s[..], 3, [4], false), None);
        assert_eq!(certify(&s[..9], 3, [], true), None);
    }

    #[test]
    fn watch_proves_as_the_sequence_grows() {
        let mut s = vec![9u8, 9, 9, 9, 9];
        s.extend([0, 1, 2].iter().cycle().take(30));
        let mut watch = CandidateWatch::new(6, 3);
        let proved: Vec<Option<Period>> = (1..=s.len()).map(|n| watch.check(&s[..n], 3)).collect();
        // Proved first at length q + P + window = 5 + 6 + 3, with the least period 3.
        assert!(proved[..13].iter().all(Option::is_none));
        assert_eq!(
            proved[13],
            Some(Period {
                period: 3,
                preperiod: 5
            })
        );
        assert_eq!(proved[13], certify(&s[..14], 3, [], true));
    }

    #[test]
    fn observe_takes_in_the_callers_comparisons_and_fills_gaps() {
        // Mismatches at shift 6: x = 2 (s(2) = 7 vs s(8)), x = 4 (s(4) = 8 vs s(10)).
        let mut s = vec![9u8, 9, 7, 9, 8];
        s.extend([0, 1, 2].iter().cycle().take(40));
        let mut watch = CandidateWatch::new(6, 5);
        // The caller compared x in [20, 24) (len 30) and saw no mismatch: the gap [0, 20) is
        // compared here, and its last mismatch found.
        watch.observe(&s[..30], 20, None);
        assert_eq!(watch.prove(&s[..30], 5).map(|p| p.preperiod), Some(5));
        // A mismatch the caller reports in the newest values is taken as the last one, without
        // looking below it, and never lowers what is known.
        let mut watch = CandidateWatch::new(6, 5);
        watch.observe(&s[..12], 0, Some(4));
        assert_eq!(watch.prove(&s[..12], 5), None);
        assert_eq!(watch.next_check(), 5 + 5 + 6);
        watch.observe(&s[..14], 6, Some(3));
        assert_eq!(watch.prove(&s[..14], 5), None);
        watch.observe(&s[..25], 14, None);
        assert_eq!(
            watch.prove(&s[..25], 5),
            Some(Period {
                period: 3,
                preperiod: 5
            })
        );
    }

    #[test]
    fn observed_periods() {
        let seq: Vec<u8> = (0..51)
            .map(|n| u8::from(![0, 2, 3, 6, 9].contains(&(n % 10))))
            .collect();
        assert_eq!(
            observed(&seq[..]),
            Some(Period {
                period: 10,
                preperiod: 0
            })
        );
        let mut tail = vec![7, 7, 5];
        tail.extend([1, 2, 3].repeat(4));
        assert_eq!(
            observed(&tail[..]),
            Some(Period {
                period: 3,
                preperiod: 3
            })
        );
        // Two repeats are not enough.
        assert_eq!(observed(&[4, 1, 2, 3, 1, 2, 3][..]), None);
        // Nor five equal values after twenty that show no period (G((l)) of k = 3 to l = 24:
        // G((25)) = 1 breaks the run of zeros).
        let mut late: Vec<u8> = (0..20).map(|n| (n * 7 % 5) as u8 + 1).collect();
        late.extend([0; 5]);
        assert_eq!(observed(&late[..]), None);
        late.extend([0; 15]);
        assert_eq!(
            observed(&late[..]),
            Some(Period {
                period: 1,
                preperiod: 20
            })
        );
    }

    /// From a proved multiple and a late start, the least period, its saltus and pre-period.
    #[test]
    fn least_arithmetic_period() {
        // 9, 9, then 0 1 0 1 2 3 2 3 ...: period 4, saltus 2 from n = 2.
        let mut g = vec![9, 9];
        g.extend((0..40u32).map(|n| n / 4 * 2 + (n % 2)));
        let proved = Arithmetic {
            period: 8,
            preperiod: 6,
            saltus: 4,
        };
        assert_eq!(
            least_arithmetic(&g, proved),
            Some(Arithmetic {
                period: 4,
                preperiod: 2,
                saltus: 2
            })
        );
        assert_eq!(least_arithmetic(&g[..21], proved), None);
    }

    #[test]
    fn windowed_finds_a_period_behind_a_chance_match_at_the_top() {
        // 0.7003's values: 0,1,0,1,2,3,2,3 repeated, t = 4. Ending on 0,1,0,1, shift 2 matches
        // the newest values (down to 8k), which must not hide the period 8.
        let g: Vec<u8> = [0, 1, 0, 1, 2, 3, 2, 3]
            .iter()
            .cycle()
            .take(8 * 20 + 4)
            .copied()
            .collect();
        let guy_smith = Window::GuySmith { t: 4 };
        let want = Period {
            period: 8,
            preperiod: 0,
        };
        assert_eq!(certify_windowed(&g[..], guy_smith), Some(want));
        // [0, p + t + 1) plus p values: 21 are enough, 20 are not.
        assert_eq!(certify_windowed(&g[..21], guy_smith), Some(want));
        assert_eq!(certify_windowed(&g[..20], guy_smith), None);
    }

    #[test]
    fn windowed_needs_one_more_at_zero() {
        // 0.4 begins 0,0,0,1: G(n + 1) = G(n) on [0, 2) is no proof (the window is [0, 3)).
        let g = [0u8, 0, 0, 1, 1, 2];
        let guy_smith = Window::GuySmith { t: 1 };
        assert_eq!(guy_smith.end(0, 1), 3);
        assert_eq!(certify_windowed(&g[..3], guy_smith), None);
        assert_eq!(certify_windowed(&g[..4], guy_smith), None);
        // 0.1 begins 0,1,0,0,0: shift 2 matches at 0 but not at 1; period 1 from 2.
        let last_t = Window::LastT { t: 1 };
        let g = [0u8, 1, 0, 0, 0, 0, 0];
        assert_eq!(certify_windowed(&g[..3], last_t), None);
        assert_eq!(
            certify_windowed(&g[..], last_t),
            Some(Period {
                period: 1,
                preperiod: 2
            })
        );
    }

    #[test]
    fn needs_the_whole_window() {
        // Period 4 from 0, but the window is 6: L = 10 is enough, L = 9 is not.
        let s: Vec<u8> = [1, 2, 3, 4].iter().cycle().take(10).copied().collect();
        assert_eq!(
            certify(&s[..], 6, [], true),
            Some(Period {
                period: 4,
                preperiod: 0
            })
        );
        assert_eq!(certify(&s[..9], 6, [], true), None);
    }
}
