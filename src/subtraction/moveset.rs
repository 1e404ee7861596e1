//! The sets a scan visits: `K` moves `0 < m_1 < ... < m_K` (`K` = 2..7), by largest move, then
//! lexicographic; [`Triple`], the three-move set the theory of Manabe's paper speaks of.

use std::fmt;

use super::ruleset::Ruleset;
use super::theory::gcd;
use crate::InputError;
use crate::output::scan::Items;

/// The ruleset `{a, b, c}` with `0 < a < b < c`, without the allocation of a [`Ruleset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Triple {
    pub a: u32,
    pub b: u32,
    pub c: u32,
}

impl Triple {
    pub fn ruleset(self) -> Ruleset {
        Ruleset::triple(self.a, self.b, self.c)
    }
}

/// The move counts a scan takes: a `K`-move game's values are at most `K`, so 3 bit planes hold
/// them up to `K = 7`.
pub const MOVE_COUNTS: std::ops::RangeInclusive<usize> = 2..=7;

/// Most moves a [`MoveSet`] holds.
pub const MAX_SCAN_MOVES: usize = 7;

/// The names of the move columns, smallest move first.
pub const MOVE_NAMES: [&str; MAX_SCAN_MOVES] = ["a", "b", "c", "d", "e", "f", "g"];

/// The pairs of `k` moves, by index, in the order every solver watches their sums and every
/// report counts them: `(i, j)` with `i < j`, lexicographic (for triples `a + b`, `a + c`,
/// `b + c`).
pub fn pairs(k: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..k).flat_map(move |i| (i + 1..k).map(move |j| (i, j)))
}

/// How many pairs `k` moves have: `k (k - 1) / 2`.
pub const fn pair_count(k: usize) -> usize {
    k * (k - 1) / 2
}

/// A set of 2 to 7 moves, sorted, in place (a scan holds millions): the item of a scan.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveSet {
    moves: [u32; MAX_SCAN_MOVES],
    k: u8,
}

impl MoveSet {
    /// The set of `moves`, which the caller gives sorted and distinct.
    ///
    /// # Panics
    /// If there are fewer than 2 or more than 7 moves, or they are not positive and increasing.
    pub fn new(moves: &[u32]) -> Self {
        assert!(
            MOVE_COUNTS.contains(&moves.len())
                && moves[0] > 0
                && moves.windows(2).all(|w| w[0] < w[1]),
            "not a scan's move set: {moves:?}"
        );
        let mut m = [0; MAX_SCAN_MOVES];
        m[..moves.len()].copy_from_slice(moves);
        MoveSet {
            moves: m,
            k: moves.len() as u8,
        }
    }

    /// The moves, ascending.
    #[inline(always)]
    pub fn moves(&self) -> &[u32] {
        &self.moves[..self.k as usize]
    }

    /// The moves as an array of their count `K` (a loop over them unrolls), `None` if there
    /// are not `K`.
    #[inline(always)]
    pub fn moves_of<const K: usize>(&self) -> Option<&[u32; K]> {
        match self.k() == K {
            true => self.moves[..K].try_into().ok(),
            false => None,
        }
    }

    /// The number of moves.
    #[inline(always)]
    pub fn k(&self) -> usize {
        self.k as usize
    }

    /// The largest move.
    #[inline(always)]
    pub fn largest(&self) -> u32 {
        self.moves[self.k as usize - 1]
    }

    /// The three moves of a three-move set.
    #[inline(always)]
    pub fn triple(&self) -> Option<Triple> {
        match *self.moves() {
            [a, b, c] => Some(Triple { a, b, c }),
            _ => None,
        }
    }

    pub fn ruleset(&self) -> Ruleset {
        Ruleset::new(self.moves()).expect("a move set is a valid ruleset")
    }
}

impl From<Triple> for MoveSet {
    fn from(t: Triple) -> Self {
        MoveSet::new(&[t.a, t.b, t.c])
    }
}

/// `{a,b,c}`, as sets are written everywhere in nimseq.
impl fmt::Display for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, m) in self.moves().iter().enumerate() {
            write!(f, "{}{m}", if i > 0 { "," } else { "" })?;
        }
        write!(f, "}}")
    }
}

impl fmt::Debug for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn three() -> usize {
    3
}

fn is_three(k: &usize) -> bool {
    *k == 3
}

/// Which sets a scan visits. Bounds are inclusive; `None` leaves a side open. The bounds keep
/// the names of the three-move scan, where `a < b < c`: `c` is the largest move, `a` the
/// smallest and `b` the second smallest, for any number of moves.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SetFilter {
    /// The number of moves `K`; left out of a job's record when 3, so that the records of
    /// three-move scans are those of the builds before `--moves`.
    #[serde(default = "three", skip_serializing_if = "is_three")]
    pub moves: usize,
    pub c_min: u32,
    pub c_max: u32,
    pub a_min: u32,
    pub a_max: Option<u32>,
    pub b_min: u32,
    pub b_max: Option<u32>,
    /// Only sets whose moves have gcd 1.
    pub primitive: bool,
}

impl SetFilter {
    /// Every triple with `c <= c_max`.
    pub fn up_to(c_max: u32) -> Self {
        Self::sets_up_to(3, c_max)
    }

    /// Every set of `k` moves with largest move at most `c_max`.
    pub fn sets_up_to(k: usize, c_max: u32) -> Self {
        SetFilter {
            moves: k,
            c_min: 0,
            c_max,
            a_min: 1,
            a_max: None,
            b_min: 2,
            b_max: None,
            primitive: false,
        }
    }

    /// The filter with each lower bound written the one way for the same sets: a bound at or
    /// below the least value it can meet (`K` for the largest move, 1 for the smallest, 2 for
    /// the second) is written as the default writes it, so that a scan started without
    /// `--c-min` resumes and merges with one given `--c-min 3`, which scans the same sets.
    pub fn canonical(mut self) -> Self {
        if self.c_min <= self.moves as u32 {
            self.c_min = 0;
        }
        self.a_min = self.a_min.max(1);
        self.b_min = self.b_min.max(2);
        self
    }

    /// The sets in scan order: the largest move ascending, then the others lexicographically
    /// (for triples `c`, then `a`, then `b`: the order of `tests/data/sub_scan_naive.c`, so
    /// that checksums compare).
    pub fn sets(&self) -> Sets<'_> {
        let mut it = Sets {
            filter: self,
            cur: [0; MAX_SCAN_MOVES],
            bounds: [(0, 0); MAX_SCAN_MOVES],
            d: self.c_min.max(self.moves as u32).saturating_sub(1),
        };
        it.next_d();
        it
    }

    /// [`Self::sets`] of a three-move filter, as triples.
    ///
    /// # Panics
    /// If the filter's sets do not have three moves.
    pub fn triples(&self) -> impl Iterator<Item = Triple> + '_ {
        assert_eq!(self.moves, 3, "a filter of triples");
        self.sets().map(|s| s.triple().expect("three moves"))
    }

    /// The smallest largest move a set can have.
    fn first_c(&self) -> u32 {
        self.c_min.max(self.moves as u32)
    }

    /// Refuses a move count out of range, bounds that contradict each other (a smallest above
    /// a largest) and bounds that leave no set, naming the flags.
    pub fn check(&self) -> Result<(), InputError> {
        let k = self.moves;
        if !MOVE_COUNTS.contains(&k) {
            return Err(InputError(format!(
                "--moves {k} is out of range: a scan takes sets of {} to {} moves",
                MOVE_COUNTS.start(),
                MOVE_COUNTS.end()
            )));
        }
        // The largest move's flags as the user most likely wrote them.
        let c = match k {
            3 => ["--c-min", "--c-max"],
            _ => ["--min-move", "--max-move"],
        };
        if (self.c_max as usize) < k {
            return Err(InputError(format!(
                "{} {} is below --moves {k}: a set of {k} moves has a largest move of at least {k}",
                c[1], self.c_max
            )));
        }
        if k == 2 && (self.b_min > 2 || self.b_max.is_some()) {
            return Err(InputError(
                "--b-min and --b-max bound the second smallest of three or more moves; with --moves 2 bound the largest with --min-move and --max-move".into(),
            ));
        }
        let pairs = [
            (c, self.c_min, Some(self.c_max)),
            (["--a-min", "--a-max"], self.a_min, self.a_max),
            (["--b-min", "--b-max"], self.b_min, self.b_max),
        ];
        for ([min, max], lo, hi) in pairs {
            if let Some(hi) = hi.filter(|&hi| lo > hi) {
                return Err(InputError(format!(
                    "{min} {lo} is above {max} {hi}: no set to scan"
                )));
            }
        }
        match self.count() {
            Some(0) => Err(InputError(format!(
                "no set of {k} moves fits the bounds (largest move in {}..={}, smallest >= {}{}{})",
                self.first_c(),
                self.c_max,
                self.a_min.max(1),
                self.a_max
                    .map_or(String::new(), |m| format!(", smallest <= {m}")),
                match (k, self.b_max) {
                    (2, _) => String::new(),
                    (_, b_max) => format!(
                        ", second >= {}{}",
                        self.b_min.max(2),
                        b_max.map_or(String::new(), |m| format!(", second <= {m}"))
                    ),
                },
            ))),
            Some(_) => Ok(()),
            None => Err(InputError(format!(
                "more than 2^64 sets of {k} moves up to {}: lower --max-move",
                self.c_max
            ))),
        }
    }

    /// How many sets [`Self::sets`] visits, in closed form for each largest move; primitive
    /// ones by Moebius inversion over the common divisor `g` of the sets that are all
    /// multiples of `g` (`c_max log c_max` steps, where visiting them would take
    /// `c_max^K / K!`). `None` past `u64`.
    pub fn count(&self) -> Option<u64> {
        let n = if !self.primitive {
            self.count_multiples_of(1)
        } else {
            let mu = moebius(self.c_max as usize);
            (1..=self.c_max)
                .map(|g| {
                    (
                        i128::from(mu[g as usize]),
                        self.count_multiples_of(g) as i128,
                    )
                })
                .fold(0i128, |sum, (m, n)| sum + m * n) as u128
        };
        u64::try_from(n).ok()
    }

    /// Sets of the filter (primitive or not) whose moves are all multiples of `g`: for each
    /// largest move `c`, the smallest move `a` and the second `b` by hockey-stick sums of
    /// binomials (the sum of `C(j, r)` for `j` in `[m, n]` is `C(n + 1, r + 1) - C(m, r + 1)`).
    fn count_multiples_of(&self, g: u32) -> u128 {
        let k = self.moves as u64;
        let up = |x: u32| u64::from(x.div_ceil(g));
        let down = |x: u32| u64::from(x / g);
        let (a_min, b_min) = (up(self.a_min.max(1)), up(self.b_min.max(2)));
        let (a_max, b_max) = (self.a_max.map(down), self.b_max.map(down));
        (up(self.first_c()).max(k)..=down(self.c_max))
            .map(|c| {
                let a_lo = a_min;
                let a_hi = a_max.map_or(c - 1, |m| m.min(c - 1));
                if a_lo > a_hi {
                    return 0;
                }
                if k == 2 {
                    return u128::from(a_hi - a_lo + 1);
                }
                let b_hi = b_max.map_or(c - 1, |m| m.min(c - 1));
                // The sets of an `a` whose second move is `b_lo` or more: the other `K - 2`
                // moves below `c` with the lowest in `[b_lo, b_hi]`.
                let above = |b_lo: u64| match b_lo <= b_hi {
                    true => binomial(c - b_lo, k - 2) - binomial(c - 1 - b_hi, k - 2),
                    false => 0,
                };
                // While a < b_min the second move starts at b_min ...
                let flat_hi = a_hi.min(b_min.saturating_sub(1));
                let flat = match a_lo <= flat_hi {
                    true => u128::from(flat_hi - a_lo + 1) * above(b_min),
                    false => 0,
                };
                // ... then at a + 1: the sum over a of C(c - 1 - a, K - 2) - C(c - 1 - b_hi, K -
                // 2).
                let (lo, hi) = (a_lo.max(b_min), a_hi.min(b_hi.saturating_sub(1)));
                let sloped = match lo <= hi {
                    true => {
                        binomial(c - lo, k - 1)
                            - binomial(c - 1 - hi, k - 1)
                            - u128::from(hi - lo + 1) * binomial(c - 1 - b_hi, k - 2)
                    }
                    false => 0,
                };
                flat + sloped
            })
            .sum()
    }

    /// The range of move `i` (0: the smallest) of a set with largest move `c`, before the
    /// moves below it: its bounds, and room left for the moves above it.
    fn range(&self, i: usize, c: u32) -> (u32, u32) {
        let room = c - 1 - (self.moves - 2 - i) as u32;
        match i {
            0 => (self.a_min.max(1), self.a_max.map_or(room, |m| m.min(room))),
            1 => (self.b_min, self.b_max.map_or(room, |m| m.min(room))),
            _ => (0, room),
        }
    }
}

/// `C(n, r)`, 0 where `r > n`.
fn binomial(n: u64, r: u64) -> u128 {
    if r > n {
        return 0;
    }
    (0..r).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
}

/// The iterator of [`SetFilter::sets`]: an odometer over the moves below the largest, `d`,
/// since a scan walks millions of sets (twice when it resumes).
#[derive(Clone, Debug)]
pub struct Sets<'f> {
    filter: &'f SetFilter,
    /// The moves below the largest, `K - 1` of them, and the range of each for this largest
    /// move (before the moves below it).
    cur: [u32; MAX_SCAN_MOVES],
    bounds: [(u32, u32); MAX_SCAN_MOVES],
    /// The largest move; past `c_max` once done.
    d: u32,
}

/// The Moebius function of `0..=n` (`mu[0]` unused), by a sieve.
fn moebius(n: usize) -> Vec<i8> {
    let mut mu = vec![1i8; n + 1];
    let mut composite = vec![false; n + 1];
    for p in 2..=n {
        if composite[p] {
            continue;
        }
        for m in (p..=n).step_by(p) {
            composite[m] = m != p || composite[m];
            mu[m] = -mu[m];
        }
        for m in (p * p..=n).step_by(p * p) {
            mu[m] = 0;
        }
    }
    mu
}

impl Sets<'_> {
    /// Sets moves `i..` to the least each can take after the ones below: false if one cannot
    /// (then no larger move below `i` helps: each lower bound only rises with them).
    fn fill(&mut self, from: usize) -> bool {
        for i in from..self.filter.moves - 1 {
            let (lo, hi) = self.bounds[i];
            let least = match i {
                0 => lo,
                _ => lo.max(self.cur[i - 1] + 1),
            };
            if least > hi {
                return false;
            }
            self.cur[i] = least;
        }
        true
    }

    /// Moves on to the first set of the next largest move that has one; past `c_max` if none.
    fn next_d(&mut self) {
        loop {
            self.d += 1;
            if self.d > self.filter.c_max {
                return;
            }
            for i in 0..self.filter.moves - 1 {
                self.bounds[i] = self.filter.range(i, self.d);
            }
            if self.fill(0) {
                return;
            }
        }
    }

    /// Moves to the next set in scan order, filters aside.
    fn step(&mut self) {
        for i in (0..self.filter.moves - 1).rev() {
            self.cur[i] += 1;
            if self.cur[i] <= self.bounds[i].1 && self.fill(i + 1) {
                return;
            }
        }
        self.next_d();
    }
}

impl Iterator for Sets<'_> {
    type Item = MoveSet;

    #[inline]
    fn next(&mut self) -> Option<MoveSet> {
        let k = self.filter.moves;
        while self.d <= self.filter.c_max {
            let mut moves = self.cur;
            moves[k - 1] = self.d;
            let set = MoveSet { moves, k: k as u8 };
            // The move below the largest steps on its own nearly always (a scan's writing
            // thread lists every set, while the others solve them).
            let i = k - 2;
            match self.cur[i] < self.bounds[i].1 {
                true => self.cur[i] += 1,
                false => self.step(),
            }
            if !self.filter.primitive || set.moves().iter().fold(0, |g, &m| gcd(g, m as usize)) == 1
            {
                return Some(set);
            }
        }
        None
    }
}

impl Items for Sets<'_> {
    /// Without the primitive filter, the sets of a run of the move below the largest (the rest
    /// fixed) in one loop, written in place: one at a time, each set was built on the stack
    /// and copied, its wide load waiting for the narrow stores (most of the listing's time).
    fn list_into(&mut self, list: &mut Vec<MoveSet>, n: usize) {
        match self.filter.moves {
            2 => self.list_runs::<2>(list, n),
            3 => self.list_runs::<3>(list, n),
            4 => self.list_runs::<4>(list, n),
            5 => self.list_runs::<5>(list, n),
            6 => self.list_runs::<6>(list, n),
            _ => self.list_runs::<7>(list, n),
        }
    }
}

impl Sets<'_> {
    /// [`Items::list_into`] for sets of `K` moves.
    fn list_runs<const K: usize>(&mut self, list: &mut Vec<MoveSet>, n: usize) {
        let end = list.len() + n;
        while list.len() < end && self.d <= self.filter.c_max {
            if self.filter.primitive {
                list.extend(self.next());
                continue;
            }
            let i = K - 2;
            let (from, last) = (self.cur[i], self.bounds[i].1);
            let count = (last - from + 1).min((end - list.len()) as u32);
            let mut below = [0; K];
            below[..K - 1].copy_from_slice(&self.cur[..K - 1]);
            below[K - 1] = self.d;
            list.extend((from..from + count).map(|m| {
                let mut moves = [0; MAX_SCAN_MOVES];
                moves[..K].copy_from_slice(&below);
                moves[i] = m;
                MoveSet { moves, k: K as u8 }
            }));
            self.cur[i] = from + count - 1;
            self.step();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_triple_in_peer_order() {
        let all: Vec<Triple> = SetFilter::up_to(200).triples().collect();
        assert_eq!(all.len(), 1_313_400);
        assert_eq!(SetFilter::up_to(200).count(), Some(1_313_400));
        assert_eq!(all[0], Triple { a: 1, b: 2, c: 3 });
        assert_eq!(all[1], Triple { a: 1, b: 2, c: 4 });
        assert_eq!(all[2], Triple { a: 1, b: 3, c: 4 });
    }

    /// The counts: every 4-move set up to 60 and every 5-move set up to 40.
    #[test]
    fn counts_the_sets_of_more_moves() {
        assert_eq!(SetFilter::sets_up_to(4, 60).count(), Some(487_635));
        assert_eq!(SetFilter::sets_up_to(5, 40).count(), Some(658_008));
        assert_eq!(
            SetFilter::sets_up_to(7, 1000).count(),
            Some(194_280_608_456_793_000)
        );
        assert_eq!(SetFilter::sets_up_to(7, 100_000).count(), None);
    }

    /// Every set of `k` moves up to `c_max`, by nested choice, in scan order.
    fn nested(k: usize, c_max: u32) -> Vec<Vec<u32>> {
        fn below(k: usize, from: u32, to: u32) -> Vec<Vec<u32>> {
            if k == 0 {
                return vec![vec![]];
            }
            (from..to)
                .flat_map(|m| {
                    below(k - 1, m + 1, to).into_iter().map(move |mut rest| {
                        rest.insert(0, m);
                        rest
                    })
                })
                .collect()
        }
        (1..=c_max)
            .flat_map(|c| {
                below(k - 1, 1, c).into_iter().map(move |mut s| {
                    s.push(c);
                    s
                })
            })
            .collect()
    }

    /// The odometer and the count against nested loops, for 2 to 5 moves, over bounds that cut
    /// every way (empty ranges included).
    #[test]
    fn matches_nested_loops() {
        for k in 2..=5 {
            let c_max = [0, 0, 30, 25, 18, 15][k];
            let all = nested(k, c_max);
            for c_min in [0, 3, 9, 14] {
                for (a_min, a_max) in [(0, None), (4, Some(7)), (5, Some(2)), (12, None)] {
                    let bs: &[(u32, Option<u32>)] = match k {
                        2 => &[(0, None)],
                        _ => &[(0, None), (6, Some(11)), (20, None), (3, Some(3))],
                    };
                    for &(b_min, b_max) in bs {
                        for primitive in [false, true] {
                            let f = SetFilter {
                                moves: k,
                                c_min,
                                c_max,
                                a_min,
                                a_max,
                                b_min,
                                b_max,
                                primitive,
                            };
                            let want: Vec<&Vec<u32>> = all
                                .iter()
                                .filter(|s| {
                                    let (a, c) = (s[0], s[k - 1]);
                                    let g = s.iter().fold(0, |g, &m| gcd(g, m as usize));
                                    c >= c_min
                                        && a >= a_min
                                        && a_max.is_none_or(|m| a <= m)
                                        && (k == 2 || s[1] >= b_min)
                                        && (k == 2 || b_max.is_none_or(|m| s[1] <= m))
                                        && (!primitive || g == 1)
                                })
                                .collect();
                            let got: Vec<Vec<u32>> = f.sets().map(|s| s.moves().to_vec()).collect();
                            assert_eq!(got.iter().collect::<Vec<_>>(), want, "{f:?}");
                            assert_eq!(f.count(), Some(want.len() as u64), "{f:?}");
                            // Listed in runs, `n` at a time, cutting runs anywhere.
                            for n in [1, 7, 1000] {
                                let (mut sets, mut listed) = (f.sets(), Vec::new());
                                loop {
                                    let before = listed.len();
                                    sets.list_into(&mut listed, n);
                                    assert!(listed.len() - before <= n);
                                    if listed.len() == before {
                                        break;
                                    }
                                }
                                let listed: Vec<Vec<u32>> =
                                    listed.iter().map(|s| s.moves().to_vec()).collect();
                                assert_eq!(listed.iter().collect::<Vec<_>>(), want, "{f:?}, {n}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn filters_apply() {
        let f = SetFilter {
            a_min: 2,
            a_max: Some(3),
            b_max: Some(6),
            primitive: true,
            ..SetFilter::up_to(8)
        };
        for t in f.triples() {
            assert!((2..=3).contains(&t.a) && t.b <= 6 && t.c <= 8);
            assert_eq!(gcd(gcd(t.a as usize, t.b as usize), t.c as usize), 1);
        }
        assert!(f.triples().any(|t| t == Triple { a: 3, b: 5, c: 8 }));
        assert_eq!(f.count(), Some(f.triples().count() as u64));
        assert!(!f.triples().any(|t| t == Triple { a: 2, b: 4, c: 6 }));
    }

    #[test]
    fn refuses_counts_and_bounds_out_of_range() {
        for (f, says) in [
            (SetFilter::sets_up_to(1, 10), "--moves 1 is out of range"),
            (SetFilter::sets_up_to(9, 10), "--moves 9 is out of range"),
            (
                SetFilter::sets_up_to(5, 4),
                "--max-move 4 is below --moves 5",
            ),
            (
                SetFilter {
                    c_min: 30,
                    ..SetFilter::sets_up_to(4, 20)
                },
                "--min-move 30 is above --max-move 20",
            ),
        ] {
            let e = f.check().unwrap_err().to_string();
            assert!(e.contains(says), "{e}");
        }
    }

    #[test]
    fn writes_sets_as_nimseq_does() {
        let s = MoveSet::new(&[1, 4, 9, 16]);
        assert_eq!(s.to_string(), "{1,4,9,16}");
        assert_eq!((s.k(), s.largest(), s.triple()), (4, 16, None));
        assert_eq!(
            MoveSet::from(Triple { a: 3, b: 8, c: 13 }).triple(),
            Some(Triple { a: 3, b: 8, c: 13 })
        );
    }
}
