//! Many sets at once, a set a lane: the fast CPU path of a scan.
//!
//! [`super::set_solver`] solves one set at a time, and each word waits for the one before: its
//! loop is bound by latency, not by the work. Here one word of 4 or 8 sets is computed at once
//! ([`super::lane_math`]), by the same word loop (its `Moves::push_word`), and a lane whose set
//! is proved takes the next set of its batch at once. Sets with moves below 64, whose words take
//! passes that wait on each other, run in two registers at once (8 or 16 sets,
//! [`super::lane_math::Twice`]).
//!
//! # Batches
//! The sets of a batch share a shape: the move count, which moves are below 64, the passes a
//! word takes, and how many rows back each move reads. Every lane then reads the same rows, and
//! only the shifts within them differ, one count a lane. A pair sum `s_i + s_j` reads
//! `ceil(s_i / 64) + ceil(s_j / 64) - 1` rows back or one more: a blend of two rows a plane picks
//! each lane's.
//!
//! # Periods
//! Each pair sum `p` is watched as in [`super::set_solver`], but a watch keeps only the last row
//! where its comparison differed (one masked move a word, no bit count). The end of that row bounds
//! the exact clean start from above, so a lane is proved at most one word after the exact test
//! would prove it, never before, and the answer is the same: the least period and the pre-period
//! are then measured from the values ([`crate::period`]), and neither depends on where the proof
//! stopped. Two kinds of set go to the one-at-a-time solver, which watches and searches more:
//! triples `c = a + b`, whose period (Theorem 34) is no pair sum, and any set a lane has not
//! proved within [`lane_len`] values, which it starts again (and so do sets with moves of 2^21
//! and more, `SHAPE_MOVES_BELOW`).
//!
//! # Memory
//! Rows hold every lane's words side by side; a lane's set starts at the row the lane is refilled
//! at, after rows of `NONE` that stand for the positions below 0. When the rows run out, the rows
//! the live lanes still need are moved to the front, so a batch needs rows for the longest set a
//! lane may hold, not for all its sets.

use std::ops::Range;
use std::sync::Mutex;

use rayon::prelude::*;

#[cfg(target_arch = "x86_64")]
use super::lane_math::{Avx2Lanes, Avx512Lanes, Twice};
use super::lane_math::{LaneMath, MAX_LANES, PortableLanes};
use super::moveset::{MoveSet, pairs};
use super::row_math::planes_for;
use super::row_math::{Offers, RowMath};
use super::set_solver::{Back, MoveCounts, Moves, Outcomes, SetSolver, Values};
use super::solution::{NotCertified, Solution, envelope};
use crate::memory::Budget;
use crate::period::{
    Period, ShiftCompare, certify, least_period, maximal_divisors, preperiod, top_window_matches,
};

/// How a scan's sets are solved: the lanes of a math, or one set at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Portable,
    Avx2,
    Avx512,
    /// No lanes: [`super::set_solver`] on each set. Where the CPU has no AVX2, the portable
    /// lanes (per-lane shifts one `u64` at a time) are slower than this.
    One,
}

impl Kernel {
    /// Those this CPU runs, fastest first.
    pub fn available() -> Vec<Kernel> {
        let mut kernels = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            if Avx512Lanes::detect().is_some() {
                kernels.push(Kernel::Avx512);
            }
            if Avx2Lanes::detect().is_some() {
                kernels.push(Kernel::Avx2);
            }
        }
        kernels.extend([Kernel::One, Kernel::Portable]);
        kernels
    }

    /// The fastest this CPU runs.
    pub fn best() -> Kernel {
        Kernel::available()[0]
    }
}

/// Values a lane looks at before it hands its set to the one-at-a-time solver: where that
/// solver first searches every period (`c^2/2 + c + 64`), at most 128 windows of `c`, so that
/// the rows of a batch stay small. Nearly every set is proved far below it.
pub fn lane_len(c: usize) -> usize {
    envelope(c).min(128 * c + 64)
}

/// The rows a batch's lanes take, for sets whose words read `back` rows back and whose largest
/// move is `c_rows` rows of 64: what a compaction keeps at most (the rows read back and the
/// longest set a lane holds), twice, and room to go on.
fn lane_rows(back: usize, c_rows: usize) -> usize {
    2 * (back + lane_len(64 * c_rows).div_ceil(64) + 2) + 256
}

/// What a thread's lanes may take for sets of `k` moves up to largest move `c` (the rows of a
/// solver of 8 lanes and one of 16, the most a kernel has): a scan counts it with the
/// one-at-a-time solver's.
pub fn lane_bytes(k: usize, c: usize) -> u64 {
    // A pair sum reads at most two rows more than twice the largest move's.
    let c_rows = c.div_ceil(64);
    let lanes = MAX_LANES + MAX_LANES / 2;
    (lane_rows(2 * c_rows + 1, c_rows) * planes_for(k) * 8 * lanes) as u64
}

/// Sets a batch holds at most: enough that the lanes are seldom idle at its end, few enough
/// that the threads share the work evenly.
const BATCH: usize = 2048;

/// Proved lanes the words stop for at once (of 8; more of more), and the words a proved lane
/// waits for more.
const SETTLE_TOGETHER: u32 = 3;
const SETTLE_WAIT: usize = 6;

/// A lane with no set: its watches never prove anything.
const EMPTY: u64 = 1 << 62;

/// What the sets of a batch share (see the module doc), packed in one number, since a call
/// works it out set by set: the move count, the passes a word takes, and for each move the
/// rows it reads back and whether it is below 64 (16 bits a move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Shape(u128);

/// Moves from this on read more rows back than a [`Shape`] holds: their sets run one at a time
/// (a lane would need rows of 2^21 positions and more anyway).
const SHAPE_MOVES_BELOW: u32 = 1 << 21;

impl Shape {
    /// The runs of one shape among `sets` (the first the `first`-th of the call), in order.
    fn runs(mut sets: &[MoveSet], mut first: usize) -> Vec<(Option<Shape>, Range<usize>)> {
        let mut runs = Vec::new();
        // Each stretch of one move count (a scan's sets have one).
        while let Some(k) = sets.first().map(MoveSet::k) {
            let (now, later) =
                sets.split_at(sets.iter().position(|s| s.k() != k).unwrap_or(sets.len()));
            runs.extend(match k {
                2 => Self::runs_of::<2>(now, first),
                3 => Self::runs_of::<3>(now, first),
                4 => Self::runs_of::<4>(now, first),
                5 => Self::runs_of::<5>(now, first),
                6 => Self::runs_of::<6>(now, first),
                _ => Self::runs_of::<7>(now, first),
            });
            (sets, first) = (later, first + now.len());
        }
        runs
    }

    /// [`Self::runs`] for sets of `K` moves. A set whose moves are those of the set before
    /// but the one below the largest, in the same block of 64 rows, has its shape (unless it
    /// is a triple `c = a + b`): most of a scan's sets, known without working out their shape.
    fn runs_of<const K: usize>(
        sets: &[MoveSet],
        first: usize,
    ) -> Vec<(Option<Shape>, Range<usize>)> {
        let moves = |set: &MoveSet| *set.moves_of::<K>().expect("a stretch of K moves");
        let mut runs = Vec::new();
        let mut before = moves(&sets[0]);
        let (mut shape, mut start) = (Self::of_moves::<K>(&before), first);
        for (i, set) in (first..).zip(sets).skip(1) {
            let now = moves(set);
            let same = K >= 3
                && shape.is_some()
                && now[..K - 2] == before[..K - 2]
                && now[K - 1] == before[K - 1]
                && Self::move_code(now[K - 2]) == Self::move_code(before[K - 2])
                && !(K == 3 && now[2] == now[0] + now[1]);
            before = now;
            if same {
                continue;
            }
            let next = Self::of_moves::<K>(&now);
            if next != shape {
                runs.push((shape, start..i));
                (shape, start) = (next, i);
            }
        }
        runs.push((shape, start..first + sets.len()));
        runs
    }

    /// The shape of a set of `K` moves: `None` for a triple `c = a + b` (see the module doc),
    /// and for sets with a move of [`SHAPE_MOVES_BELOW`] or more.
    #[inline(always)]
    fn of_moves<const K: usize>(moves: &[u32; K]) -> Option<Shape> {
        if K == 3 && moves[K - 1] == moves[0] + moves[1] {
            return None;
        }
        if moves[K - 1] >= SHAPE_MOVES_BELOW {
            return None;
        }
        // The passes a word takes, `ceil(64 / a)` for a least move `a < 64` (a table: a
        // division would be most of the cost).
        const PASSES: [u8; 65] = {
            let mut passes = [1; 65];
            let mut a = 1;
            while a < 64 {
                passes[a] = 64usize.div_ceil(a) as u8;
                a += 1;
            }
            passes
        };
        let passes = PASSES[moves[0].min(64) as usize];
        let mut shape = (K as u128) << 7 | u128::from(passes);
        for &s in moves {
            shape = shape << 16 | u128::from(Self::move_code(s));
        }
        Some(Shape(shape))
    }

    /// What a shape holds of one move: the rows it reads back and whether it is below 64.
    #[inline(always)]
    fn move_code(s: u32) -> u32 {
        s.div_ceil(64) << 1 | u32::from(s < 64)
    }
}

/// A lane math as the word loop of [`super::set_solver`] takes it: a row is `P` words of every
/// lane, a count one a lane, the offers those of `K` moves.
#[derive(Clone, Copy)]
pub(super) struct Rows<M, const K: usize>(M);

impl<const P: usize, M: LaneMath, const K: usize> RowMath<P> for Rows<M, K> {
    type Row = [M::W; P];
    type Reg = [M::W; P];
    type Count = M::Count;
    type Offers = Offers<M::W, K>;

    #[inline(always)]
    fn count(self, bits: u32) -> M::Count {
        self.0.count(&[u64::from(bits); MAX_LANES])
    }

    #[inline(always)]
    fn load(self, row: [M::W; P]) -> [M::W; P] {
        row
    }

    #[inline(always)]
    fn store(self, reg: [M::W; P]) -> [M::W; P] {
        reg
    }

    #[inline(always)]
    fn funnel(self, lo: [M::W; P], hi: [M::W; P], bit: M::Count) -> [M::W; P] {
        let mut out = lo;
        for j in 0..P {
            out[j] = self.0.funnel(lo[j], hi[j], bit);
        }
        out
    }

    #[inline(always)]
    fn near(self, cur: [M::W; P], prev: [M::W; P], s: M::Count) -> [M::W; P] {
        let mut out = cur;
        for j in 0..P {
            out[j] = self.0.near(cur[j], prev[j], s);
        }
        out
    }

    #[inline(always)]
    fn nothing(self) -> Offers<M::W, K> {
        Offers::nothing(self.0)
    }

    #[inline(always)]
    fn add(self, offers: &mut Offers<M::W, K>, option: [M::W; P]) {
        offers.add(self.0, option);
    }

    #[inline(always)]
    fn mex(self, offers: Offers<M::W, K>) -> [M::W; P] {
        offers.mex(self.0)
    }

    /// The positions where the rows differ in some lane.
    #[inline(always)]
    fn differ(self, u: [M::W; P], v: [M::W; P]) -> u64 {
        self.0
            .to_lanes(differ(self.0, u, v))
            .iter()
            .fold(0, |d, &lane| d | lane)
    }

    #[inline(always)]
    fn same(self, u: [M::W; P], v: [M::W; P]) -> bool {
        self.0.is_zero(differ(self.0, u, v))
    }
}

/// Where two rows differ, lane by lane.
#[inline(always)]
fn differ<M: LaneMath, const P: usize>(m: M, u: [M::W; P], v: [M::W; P]) -> M::W {
    let mut d = m.xor(u[0], v[0]);
    for j in 1..P {
        d = m.or(d, m.xor(u[j], v[j]));
    }
    d
}

/// A worker's state: the rows of its lanes and the one-at-a-time solver for the sets lanes
/// hand over.
pub(super) struct LaneSolver<const P: usize, M: LaneMath> {
    m: M,
    rows: Vec<[M::W; P]>,
    one: SetSolver<P>,
    share: Budget,
}

/// The sets of a batch: ranges of a call's sets. A set is known by its place in the batch: the
/// range it is in and where in it, packed in one number ([`Place`]).
#[derive(Clone, Copy)]
pub(super) struct Batch<'s> {
    sets: &'s [MoveSet],
    ranges: &'s [Range<usize>],
}

impl<'s> Batch<'s> {
    fn first(self) -> MoveSet {
        self.sets[self.ranges[0].start]
    }

    /// Each set with its place.
    fn iter(self) -> impl Iterator<Item = (Place, MoveSet)> + 's {
        (0..).zip(self.ranges).flat_map(|(r, range)| {
            (0..)
                .zip(&self.sets[range.clone()])
                .map(move |(at, &set)| (Place::new(r, at), set))
        })
    }

    /// The index among the call's sets of the set at `place`.
    fn index(self, place: Place) -> usize {
        self.ranges[place.range()].start + place.at()
    }
}

/// Where a set is in its batch: the batch's range that holds it and the set's place in that
/// range, packed (a lane keeps it, and a proved set's solution goes straight to it).
#[derive(Clone, Copy)]
struct Place(u32);

impl Place {
    /// Bits of the place within a range: a batch has at most [`BATCH`] sets.
    const AT_BITS: u32 = BATCH.ilog2() + 1;

    fn new(range: u32, at: u32) -> Self {
        const { assert!(BATCH < 1 << Place::AT_BITS && BATCH.is_power_of_two()) };
        Place(range << Self::AT_BITS | at)
    }

    fn range(self) -> usize {
        (self.0 >> Self::AT_BITS) as usize
    }

    fn at(self) -> usize {
        (self.0 & ((1 << Self::AT_BITS) - 1)) as usize
    }
}

/// The answers of a batch: each set's solution, written where the call's solutions hold it
/// (a copy from a list of the batch's own cost a few percent of a scan), and the sets not
/// certified.
pub(super) struct Answers<'a> {
    /// The call's solutions of each of the batch's ranges, in order.
    pieces: Vec<&'a mut [Solution]>,
    failed: Vec<(Place, NotCertified)>,
}

impl<'a> Answers<'a> {
    /// The answers into `pieces`, the solutions of the batch's ranges in order.
    fn new(pieces: Vec<&'a mut [Solution]>) -> Self {
        Answers {
            pieces,
            failed: Vec::new(),
        }
    }

    /// Where the solution of the set at `place` goes.
    fn slot(&mut self, place: Place) -> &mut Solution {
        &mut self.pieces[place.range()][place.at()]
    }

    fn push(&mut self, place: Place, answer: Result<Solution, NotCertified>) {
        match answer {
            Ok(solution) => *self.slot(place) = solution,
            Err(e) => self.failed.push((place, e)),
        }
    }
}

/// A set's length limit.
type MaxLen<'a> = &'a (dyn Fn(&MoveSet) -> usize + Sync);

/// The lanes' per-set numbers of a batch, kept between words: a vector a number, so that the
/// words run on them in registers and a refill changes one lane of each. Positions are counted
/// from row 0 of the rows (64 a row), for every lane alike.
struct Lanes<M: LaneMath, const K: usize, const PAIRS: usize> {
    /// Each lane's set (its place in the batch, and the set), `None` if empty.
    set: [Option<(Place, MoveSet)>; MAX_LANES],
    /// The row of its first word, and the row at which it is handed over.
    start: [usize; MAX_LANES],
    stop: [usize; MAX_LANES],
    /// Each pair sum of each lane.
    sum: [[usize; PAIRS]; MAX_LANES],
    /// The largest move.
    c: M::W,
    /// Each move's shift as a near move (`s mod 64`) and as a window (`64 ceil(s/64) - s`).
    near: [M::Count; K],
    back: [M::Count; K],
    /// Each pair sum's window: its shift, and whether it reads one row further than the
    /// batch's base.
    sum_bit: [M::Count; PAIRS],
    sum_far: [M::Mask; PAIRS],
    /// For each pair sum `p`, one past the last position whose value differs from the one `p`
    /// before (at least the set's position `p`: positions below compare with positions below
    /// 0), plus `c`: where `p` is proved unless a new difference shows. Where
    /// [`LaneMath::mark`] cannot count bits, the end of the difference's word stands for it.
    deadline: [M::W; PAIRS],
}

/// The lanes of `mask`, lowest first: one step a lane, not a test of every lane (a stop goes
/// through a few lanes, and a branch a lane mispredicts).
fn lanes_of(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let l = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (l < MAX_LANES).then_some(l)
    })
}

impl<const P: usize, M: LaneMath> LaneSolver<P, M>
where
    SetSolver<P>: MoveCounts<P>,
{
    fn new(m: M, share: Budget) -> Self {
        const {
            assert!(
                size_of::<M::W>() == 8 * M::LANES,
                "a word is one u64 a lane"
            )
        };
        LaneSolver {
            m,
            rows: Vec::new(),
            one: SetSolver::within(share),
            share,
        }
    }

    /// The words of every lane, plane by plane, row by row.
    fn words(&self) -> &[u64] {
        // SAFETY: a row is `P` words of `LANES` `u64`s each, plain integers (checked in `new`).
        unsafe {
            std::slice::from_raw_parts(
                self.rows.as_ptr().cast::<u64>(),
                self.rows.len() * P * M::LANES,
            )
        }
    }

    /// Solves a batch of `K`-move sets of one shape with `NEAR` moves below 64.
    #[inline(always)]
    fn solve_near<const K: usize, const PAIRS: usize, const NEAR: usize>(
        &mut self,
        batch: Batch,
        max_len: MaxLen,
        out: &mut Answers<'_>,
    ) {
        // More near moves than moves: an instance the dispatch never calls.
        if NEAR > K {
            return;
        }
        let m = self.m;
        let r = Rows::<M, K>(m);
        let first: [u32; K] = batch.first().moves().try_into().expect("K moves");
        let dist = first.map(|s| s.div_ceil(64) as usize);
        let mut pair = [(0, 0); PAIRS];
        for (slot, ij) in pair.iter_mut().zip(pairs(K)) {
            *slot = ij;
        }
        let base = pair.map(|(i, j)| dist[i] + dist[j] - 1);
        // Rows a word reads back: the largest move, each pair sum's blend.
        let back = dist[K - 1].max(base.iter().max().expect("a pair") + 1);
        let passes = 64usize.div_ceil(first[0] as usize);
        let want = lane_rows(back, dist[K - 1]);
        let bytes = (want * size_of::<[M::W; P]>()) as u64;
        if self.share.check(bytes, String::new).is_err() {
            for (place, set) in batch.iter() {
                out.push(place, self.one.solve(set, max_len(&set)));
            }
            return;
        }
        if self.rows.len() < want {
            self.rows.resize(want, [m.ones(); P]);
        }
        let end = self.rows.len() - 1;
        let all = (1u32 << M::LANES) - 1;
        let none = [0; MAX_LANES];
        let mut lanes = Lanes::<M, K, PAIRS> {
            set: [None; MAX_LANES],
            start: [0; MAX_LANES],
            stop: [0; MAX_LANES],
            sum: [[0; PAIRS]; MAX_LANES],
            c: m.zero(),
            near: [m.count(&none); K],
            back: [m.count(&none); K],
            sum_bit: [m.count(&none); PAIRS],
            sum_far: [m.mask(&none); PAIRS],
            deadline: [m.splat(EMPTY); PAIRS],
        };
        let mut queue = batch.iter();
        let settle_together = SETTLE_TOGETHER.max(SETTLE_TOGETHER * M::LANES as u32 / 8);
        let mut row = back;
        let mut active = 0u32;
        let mut proved = 0u32;
        let mut next_stop = usize::MAX;
        loop {
            // What the last words settled: proved lanes are finished, lanes at their limit
            // handed over.
            let mut settled = proved;
            if row >= next_stop {
                settled |= lanes_of(active)
                    .filter(|&l| row >= lanes.stop[l])
                    .fold(0, |s, l| s | 1 << l);
            }
            if settled != 0 {
                // (Loops, not closures: see `Offers::add`.)
                let mut deadline = [[0; MAX_LANES]; PAIRS];
                for (each, &w) in deadline.iter_mut().zip(&lanes.deadline) {
                    *each = m.to_lanes(w);
                }
                for l in lanes_of(settled) {
                    let (i, set) = lanes.set[l].take().expect("a settled lane has a set");
                    let c = set.largest() as usize;
                    let from = 64 * lanes.start[l];
                    let answer = match (0..PAIRS).find(|&j| deadline[j][l] <= 64 * row as u64) {
                        Some(j) => {
                            self.finish(
                                l,
                                lanes.start[l]..row,
                                c,
                                lanes.sum[l][j],
                                deadline[j][l] as usize - c - from,
                                out.slot(i),
                            );
                            continue;
                        }
                        // No pair sum proved: every period is searched, as the one-at-a-time
                        // solver would at this length, which takes the set over if that fails.
                        // Not for triples: through `c <= 500` every non-additive triple's
                        // period divides a pair sum, so one unproved here has a pre-period
                        // past the lane's end, and the search (a few percent of a scan) fails.
                        None if K == 3 => self.one.solve(set, max_len(&set)),
                        None => self
                            .search(l, lanes.start[l], row, c)
                            .ok_or(())
                            .or_else(|()| self.one.solve(set, max_len(&set))),
                    };
                    out.push(i, answer);
                }
                active &= !settled;
            }
            if row >= end {
                row = self.compact(&mut lanes, active, row, back);
            }
            for l in lanes_of(all & !active) {
                match queue.next() {
                    Some(item) => {
                        self.refill(&mut lanes, l, row, item, &dist, &base, max_len);
                        active |= 1 << l;
                    }
                    None => {
                        for deadline in &mut lanes.deadline {
                            *deadline = m.set_lane(*deadline, l, EMPTY);
                        }
                    }
                }
            }
            if active == 0 {
                return;
            }
            next_stop = lanes_of(active).fold(usize::MAX, |e, l| e.min(lanes.stop[l]));
            let next_event = next_stop.min(end);
            // The lanes' numbers in registers, for the words until the next event.
            let mut backs = [Back::<P, Rows<M, K>> {
                rows: 0,
                bit: lanes.back[0],
            }; K];
            for i in 0..K {
                backs[i] = Back {
                    rows: dist[i],
                    bit: lanes.back[i],
                };
            }
            let moves = Moves::<P, Rows<M, K>, K> {
                near: lanes.near,
                backs,
                passes,
            };
            let (sum_bit, sum_far) = (lanes.sum_bit, lanes.sum_far);
            let mut deadline = lanes.deadline;
            let step = m.splat(64);
            // One past each lane's newest position plus its `c`.
            let mut end_c = m.add(lanes.c, m.splat(64 * row as u64));
            let mut prev = self.rows[row - 1];
            let mut first_proved = None;
            loop {
                let start = if NEAR > 0 && passes > 2 {
                    // SAFETY: rows from `row - back` to `row + 1` exist (`end`).
                    unsafe {
                        self.sum_window(
                            row,
                            base[PAIRS - 1],
                            sum_far[PAIRS - 1],
                            sum_bit[PAIRS - 1],
                        )
                    }
                } else {
                    [m.zero(); P]
                };
                // SAFETY: every lane's rows below `row` hold its values, or NONE down to
                // `dist[K - 1]` rows below its start; `row + 1 <= end` exists.
                let cur = unsafe { moves.push_word::<NEAR>(r, &mut self.rows, row, prev, start) };
                prev = cur;
                end_c = m.add(end_c, step);
                let len = 64 * (row + 1) as u64;
                let mut done = 0;
                for j in 0..PAIRS {
                    // SAFETY: as above.
                    let was = unsafe { self.sum_window(row, base[j], sum_far[j], sum_bit[j]) };
                    deadline[j] = m.mark(differ(m, cur, was), end_c, deadline[j]);
                    done |= m.at_most(deadline[j], len);
                }
                row += 1;
                proved = done & active;
                // A lane proved goes on with its set (its values stay right) for a few words
                // while another may be proved too: each stop of the words costs about as much
                // as a word of every lane.
                if proved != 0 {
                    let since = *first_proved.get_or_insert(row);
                    if proved.count_ones() >= settle_together || row >= since + SETTLE_WAIT {
                        break;
                    }
                }
                if row >= next_event {
                    break;
                }
            }
            lanes.deadline = deadline;
        }
    }

    /// The values a pair sum back from the word at `row`, each lane from `base` rows back or,
    /// where `far`, one more.
    ///
    /// # Safety
    /// Rows `row - base - 1` to `row + 1` exist.
    #[inline(always)]
    unsafe fn sum_window(&self, row: usize, base: usize, far: M::Mask, bit: M::Count) -> [M::W; P] {
        let m = self.m;
        // SAFETY: the caller's.
        let (lo, mid, hi) = unsafe {
            (
                *self.rows.get_unchecked(row - base - 1),
                *self.rows.get_unchecked(row - base),
                *self.rows.get_unchecked(row - base + 1),
            )
        };
        let mut out = mid;
        for j in 0..P {
            out[j] = m.funnel(
                m.select(far, lo[j], mid[j]),
                m.select(far, mid[j], hi[j]),
                bit,
            );
        }
        out
    }

    /// Starts `set` in lane `l` at `row`. (Inlined: it runs the lane math, whose instructions
    /// need the target features of the caller.)
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn refill<const K: usize, const PAIRS: usize>(
        &mut self,
        lanes: &mut Lanes<M, K, PAIRS>,
        l: usize,
        row: usize,
        (i, set): (Place, MoveSet),
        dist: &[usize; K],
        base: &[usize; PAIRS],
        max_len: MaxLen,
    ) {
        let m = self.m;
        let moves = set.moves();
        let c = set.largest() as usize;
        lanes.set[l] = Some((i, set));
        lanes.start[l] = row;
        lanes.stop[l] = row + lane_len(c).min(max_len(&set)).div_ceil(64);
        lanes.c = m.set_lane(lanes.c, l, c as u64);
        for (k, &s) in moves.iter().enumerate() {
            lanes.near[k] = m.set_count(lanes.near[k], l, u64::from(s % 64));
            lanes.back[k] = m.set_count(lanes.back[k], l, (64 * dist[k] - s as usize) as u64);
        }
        for (j, (a, b)) in pairs(K).enumerate() {
            let p = (moves[a] + moves[b]) as usize;
            let rows = p.div_ceil(64);
            debug_assert!(rows == base[j] || rows == base[j] + 1);
            lanes.sum[l][j] = p;
            lanes.sum_bit[j] = m.set_count(lanes.sum_bit[j], l, (64 * rows - p) as u64);
            lanes.sum_far[j] = m.set_flag(lanes.sum_far[j], l, rows > base[j]);
            lanes.deadline[j] = m.set_lane(lanes.deadline[j], l, (64 * row + p + c) as u64);
        }
        // Positions below 0 hold NONE, as far back as the largest move reads. Whole words
        // rewritten, not the lane's `u64`: the next words load these rows whole, and a load
        // wider than a store waits for that store to reach the cache.
        for r in &mut self.rows[row - dist[K - 1]..row] {
            for w in r.iter_mut() {
                *w = m.set_lane(*w, l, !0);
            }
        }
    }

    /// Moves the rows the `active` lanes still need (and `back` before `row`, for lanes
    /// refilled there) to the front; returns where `row` is then.
    #[inline(always)]
    fn compact<const K: usize, const PAIRS: usize>(
        &mut self,
        lanes: &mut Lanes<M, K, PAIRS>,
        active: u32,
        row: usize,
        back: usize,
    ) -> usize {
        let m = self.m;
        let from = lanes_of(active).fold(row - back, |f, l| f.min(lanes.start[l] - back));
        self.rows.copy_within(from..row, 0);
        for l in lanes_of(active) {
            lanes.start[l] -= from;
            lanes.stop[l] -= from;
        }
        // Every lane moves back: an empty lane's EMPTY stays far out of reach.
        let back_by = m.splat((64 * from as u64).wrapping_neg());
        for deadline in &mut lanes.deadline {
            *deadline = m.add(*deadline, back_by);
        }
        row - from
    }

    /// The values of lane `l`'s set, whose words are rows `start..row`.
    fn values(&self, l: usize, start: usize, row: usize) -> Values<'_, P> {
        let lanes = M::LANES;
        Values::strided(
            &self.words()[start * P * lanes + l..],
            P * lanes,
            lanes,
            64 * (row - start),
        )
    }

    /// The solution of lane `l`'s set from a search of every period, if its words (rows
    /// `start..row`) prove one.
    fn search(&self, l: usize, start: usize, row: usize, c: usize) -> Option<Solution> {
        let values = self.values(l, start, row);
        let nim = certify(&values, c, [], true)?;
        Some(Solution::proved(
            nim,
            &Outcomes(values),
            c,
            values.known_len(),
            nim.preperiod,
        ))
    }

    /// The solution of lane `l`'s set, whose words are the rows `rows`, with the pair sum `p`
    /// proved: its values repeat `p` earlier from `clean` on (a position from the set's 0;
    /// exact, or the end of a word where [`LaneMath::mark`] cannot count bits), so the
    /// pre-period is at most that less `p` (exactly, where exact: the pre-period does not
    /// depend on which period measures it, and `clean` is one past the last difference). The
    /// outcomes' pre-period is searched down from the values' (it is at most that, and mostly
    /// within a word of it: not worth following in the words).
    ///
    /// The solution is written to `into` field by field: returned, it was copied on by wide
    /// loads of its fields' narrow stores, each waiting for them.
    fn finish(
        &self,
        l: usize,
        rows: Range<usize>,
        c: usize,
        p: usize,
        clean: usize,
        into: &mut Solution,
    ) {
        let values = self.values(l, rows.start, rows.end);
        // The proof the lanes stand on, checked again where the tests run.
        if cfg!(test) {
            assert!(top_window_matches(&values, c, p), "{p} is not proved");
        }
        let outcomes = Outcomes(values);
        // Mostly `p` is the least period of both: the values and the outcomes are tested at
        // its maximal divisors together, reading the words once.
        let least = maximal_divisors(p).map(|d| values.shifts_differ_with_outcomes(c, d));
        let period = match least {
            Some([true, _]) => p,
            _ => least_period(&values, c, p),
        };
        let outcome_period = match least {
            Some([true, true]) => p,
            _ => least_period(&outcomes, c, period),
        };
        // An exact mark is the pre-period itself (the last difference `p` apart is where the
        // run of equal values starts); an upper bound is searched down from.
        let bound = clean.max(p) - p;
        let preperiod = match M::EXACT_MARK {
            true => bound,
            false => preperiod(&values, period, bound),
        };
        if cfg!(test) && M::EXACT_MARK {
            assert_eq!(preperiod, crate::period::preperiod(&values, period, bound));
        }
        *into = Solution::with_outcome_period(
            Period { period, preperiod },
            outcome_period,
            &outcomes,
            values.known_len(),
            preperiod,
        );
    }
}

/// The move counts whose values fit `P` planes, each an instance with the count fixed at compile
/// time (as [`MoveCounts`] for one set at a time), for every lane math.
pub(super) trait LaneCounts<const P: usize> {
    /// Solves a batch of one shape.
    fn solve_batch<M: LaneMath>(
        solver: &mut LaneSolver<P, M>,
        batch: Batch,
        max_len: MaxLen,
        out: &mut Answers<'_>,
    );
}

/// The plane count `P`, as a type to hang [`LaneCounts`] on.
pub(super) struct Planes<const P: usize>;

/// Dispatches a batch on its count of near moves.
macro_rules! by_near {
    ($solver:expr, $k:literal, $pairs:literal, $batch:expr, $max_len:expr, $out:expr) => {{
        let near = $batch.first().moves().iter().filter(|&&s| s < 64).count();
        match near {
            0 => $solver.solve_near::<$k, $pairs, 0>($batch, $max_len, $out),
            1 => $solver.solve_near::<$k, $pairs, 1>($batch, $max_len, $out),
            2 => $solver.solve_near::<$k, $pairs, 2>($batch, $max_len, $out),
            3 => $solver.solve_near::<$k, $pairs, 3>($batch, $max_len, $out),
            4 => $solver.solve_near::<$k, $pairs, 4>($batch, $max_len, $out),
            5 => $solver.solve_near::<$k, $pairs, 5>($batch, $max_len, $out),
            6 => $solver.solve_near::<$k, $pairs, 6>($batch, $max_len, $out),
            _ => $solver.solve_near::<$k, $pairs, 7>($batch, $max_len, $out),
        }
    }};
}

impl LaneCounts<2> for Planes<2> {
    #[inline(always)]
    fn solve_batch<M: LaneMath>(
        solver: &mut LaneSolver<2, M>,
        batch: Batch,
        max_len: MaxLen,
        out: &mut Answers<'_>,
    ) {
        match batch.first().k() {
            2 => by_near!(solver, 2, 1, batch, max_len, out),
            _ => by_near!(solver, 3, 3, batch, max_len, out),
        }
    }
}

impl LaneCounts<3> for Planes<3> {
    #[inline(always)]
    fn solve_batch<M: LaneMath>(
        solver: &mut LaneSolver<3, M>,
        batch: Batch,
        max_len: MaxLen,
        out: &mut Answers<'_>,
    ) {
        match batch.first().k() {
            4 => by_near!(solver, 4, 6, batch, max_len, out),
            5 => by_near!(solver, 5, 10, batch, max_len, out),
            6 => by_near!(solver, 6, 15, batch, max_len, out),
            _ => by_near!(solver, 7, 21, batch, max_len, out),
        }
    }
}

/// Whether a batch's sets have moves below 64: their words take passes that wait on each other.
fn has_near(batch: Batch) -> bool {
    batch.first().moves()[0] < 64
}

/// A worker of one of the kernels.
enum Worker<const P: usize> {
    Portable(LaneSolver<P, PortableLanes>),
    /// Each with a solver of twice the lanes for sets with moves below 64 (see [`Twice`]).
    #[cfg(target_arch = "x86_64")]
    Avx2(LaneSolver<P, Avx2Lanes>, LaneSolver<P, Twice<Avx2Lanes>>),
    #[cfg(target_arch = "x86_64")]
    Avx512(
        LaneSolver<P, Avx512Lanes>,
        LaneSolver<P, Twice<Avx512Lanes>>,
    ),
}

impl<const P: usize> Worker<P>
where
    SetSolver<P>: MoveCounts<P>,
    Planes<P>: LaneCounts<P>,
{
    fn new(kernel: Kernel, share: Budget) -> Self {
        match kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => {
                let m = Avx512Lanes::detect().expect("AVX-512 lanes on this CPU");
                let share = share.share(2);
                Worker::Avx512(LaneSolver::new(m, share), LaneSolver::new(Twice(m), share))
            }
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                let m = Avx2Lanes::detect().expect("AVX2 lanes on this CPU");
                let share = share.share(2);
                Worker::Avx2(LaneSolver::new(m, share), LaneSolver::new(Twice(m), share))
            }
            _ => Worker::Portable(LaneSolver::new(PortableLanes, share)),
        }
    }

    fn solve_batch(&mut self, batch: Batch, max_len: MaxLen, out: &mut Answers<'_>) {
        match self {
            Worker::Portable(solver) => Planes::<P>::solve_batch(solver, batch, max_len, out),
            // SAFETY: the solver's math exists, so the CPU has the features (`detect`).
            #[cfg(target_arch = "x86_64")]
            Worker::Avx2(far, near) => match has_near(batch) {
                false => unsafe { batch_avx2(far, batch, max_len, out) },
                true => unsafe { batch_avx2(near, batch, max_len, out) },
            },
            #[cfg(target_arch = "x86_64")]
            Worker::Avx512(far, near) => match has_near(batch) {
                false => unsafe { batch_avx512(far, batch, max_len, out) },
                true => unsafe { batch_avx512(near, batch, max_len, out) },
            },
        }
    }

    /// The one-at-a-time solver.
    fn one(&mut self) -> &mut SetSolver<P> {
        match self {
            Worker::Portable(solver) => &mut solver.one,
            #[cfg(target_arch = "x86_64")]
            Worker::Avx2(solver, _) => &mut solver.one,
            #[cfg(target_arch = "x86_64")]
            Worker::Avx512(solver, _) => &mut solver.one,
        }
    }
}

/// [`LaneCounts::solve_batch`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt")]
fn batch_avx2<const P: usize, M: LaneMath>(
    solver: &mut LaneSolver<P, M>,
    batch: Batch,
    max_len: MaxLen,
    out: &mut Answers<'_>,
) where
    SetSolver<P>: MoveCounts<P>,
    Planes<P>: LaneCounts<P>,
{
    Planes::<P>::solve_batch(solver, batch, max_len, out)
}

/// [`LaneCounts::solve_batch`] compiled for AVX-512.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512cd,avx512vbmi2,bmi1,bmi2,lzcnt")]
fn batch_avx512<const P: usize, M: LaneMath>(
    solver: &mut LaneSolver<P, M>,
    batch: Batch,
    max_len: MaxLen,
    out: &mut Answers<'_>,
) where
    SetSolver<P>: MoveCounts<P>,
    Planes<P>: LaneCounts<P>,
{
    Planes::<P>::solve_batch(solver, batch, max_len, out)
}

/// Solves many sets on all cores, in input order, each thread's values within its share of
/// `budget`; any failure stops it (the first in input order is the one returned).
///
/// # Panics
/// If the sets' values do not all fit the planes of the first's (a scan's sets have one move
/// count).
pub fn solve_sets(
    sets: &[MoveSet],
    max_len: impl Fn(&MoveSet) -> usize + Sync,
    budget: Budget,
) -> Result<Vec<Solution>, NotCertified> {
    solve_sets_with(Kernel::best(), sets, max_len, budget)
}

/// [`solve_sets`] with the lanes of `kernel` (one this CPU runs: [`Kernel::available`]).
pub fn solve_sets_with(
    kernel: Kernel,
    sets: &[MoveSet],
    max_len: impl Fn(&MoveSet) -> usize + Sync,
    budget: Budget,
) -> Result<Vec<Solution>, NotCertified> {
    let Some(first) = sets.first() else {
        return Ok(Vec::new());
    };
    let share = budget.share(rayon::current_num_threads() as u64);
    match planes_for(first.k()) {
        2 => solve::<2>(kernel, sets, &max_len, share),
        _ => solve::<3>(kernel, sets, &max_len, share),
    }
}

/// A value taken from a pool, which gets it back when dropped.
struct Pooled<'p, T> {
    value: Option<T>,
    pool: &'p Mutex<Vec<T>>,
}

impl<'p, T> Pooled<'p, T> {
    /// One of `pool`'s values, or a new one.
    fn take(pool: &'p Mutex<Vec<T>>, new: impl FnOnce() -> T) -> Self {
        let value = pool.lock().expect("the pool is not poisoned").pop();
        Pooled {
            value: Some(value.unwrap_or_else(new)),
            pool,
        }
    }
}

impl<T> Drop for Pooled<'_, T> {
    fn drop(&mut self) {
        if let (Some(value), Ok(mut pool)) = (self.value.take(), self.pool.lock()) {
            pool.push(value);
        }
    }
}

impl<T> std::ops::Deref for Pooled<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value.as_ref().expect("a value until dropped")
    }
}

impl<T> std::ops::DerefMut for Pooled<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value.as_mut().expect("a value until dropped")
    }
}

/// Solves `sets` (of one plane count `P`) on all cores with `kernel`, each thread within
/// `share`, as [`solve_sets_with`].
fn solve<const P: usize>(
    kernel: Kernel,
    sets: &[MoveSet],
    max_len: MaxLen,
    share: Budget,
) -> Result<Vec<Solution>, NotCertified>
where
    SetSolver<P>: MoveCounts<P>,
    Planes<P>: LaneCounts<P>,
{
    // Runs of one shape in input order (a scan lists neighbouring sets together, so runs are
    // long), then the runs of each shape together, cut into batches: far cheaper than sorting
    // the sets.
    let mut runs: Vec<(Option<Shape>, Range<usize>)> = sets
        .par_chunks(BATCH)
        .enumerate()
        .flat_map_iter(|(n, chunk)| Shape::runs(chunk, n * BATCH))
        .collect();
    runs.par_sort_unstable_by_key(|(shape, range)| (*shape, range.start));
    // Each batch with its shape (`None`: sets for the one-at-a-time solver).
    let mut batches: Vec<(Option<Shape>, Vec<Range<usize>>)> = Vec::new();
    let mut size = 0;
    for (shape, mut range) in runs {
        while !range.is_empty() {
            if batches.last().is_none_or(|(open, _)| *open != shape) || size == BATCH {
                batches.push((shape, Vec::new()));
                size = 0;
            }
            let take = range.len().min(BATCH - size);
            let (_, ranges) = batches.last_mut().expect("a batch");
            ranges.push(range.start..range.start + take);
            size += take;
            range.start += take;
        }
    }
    // Each batch's ranges of the solutions (they cover them, one range each): its workers
    // fill them in place.
    let mut solved = vec![Solution::default(); sets.len()];
    let mut pieces: Vec<Vec<&mut [Solution]>> = batches.iter().map(|_| Vec::new()).collect();
    let mut starts: Vec<(usize, usize, usize)> = (batches.iter().enumerate())
        .flat_map(|(b, (_, ranges))| ranges.iter().map(move |r| (r.start, r.len(), b)))
        .collect();
    starts.sort_unstable();
    let mut rest = solved.as_mut_slice();
    for (_, len, b) in starts {
        let (piece, after) = std::mem::take(&mut rest).split_at_mut(len);
        pieces[b].push(piece);
        rest = after;
    }
    // Rayon makes a worker for each piece of the work it splits off, dozens a call: they are
    // kept for the next piece, with the rows their lanes have touched.
    let workers = Mutex::new(Vec::new());
    let failed = batches
        .par_iter()
        .zip(pieces)
        .map_init(
            || Pooled::take(&workers, || Worker::<P>::new(kernel, share)),
            |worker, ((shape, ranges), pieces)| {
                let batch = Batch { sets, ranges };
                let mut out = Answers::new(pieces);
                if kernel != Kernel::One && shape.is_some() {
                    worker.solve_batch(batch, max_len, &mut out);
                } else {
                    for (place, set) in batch.iter() {
                        out.push(place, worker.one().solve(set, max_len(&set)));
                    }
                }
                (out.failed.into_iter())
                    .map(|(place, e)| (batch.index(place), e))
                    .min_by_key(|(i, _)| *i)
            },
        )
        .flatten()
        .min_by_key(|(i, _)| *i);
    match failed {
        Some((_, e)) => Err(e),
        None => Ok(solved),
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::subtraction::SetFilter;
    use crate::subtraction::reference;

    /// A random set of `k` moves with largest move `c` (`c >= k`).
    fn random_set(rng: &mut impl Rng, k: usize, c: u32) -> MoveSet {
        let mut moves = vec![c];
        while moves.len() < k {
            let s = rng.random_range(1..c);
            if !moves.contains(&s) {
                moves.push(s);
            }
        }
        moves.sort_unstable();
        MoveSet::new(&moves)
    }

    /// Every kernel this CPU runs against the reference, on random sets of every move count
    /// (fresh seed each run, printed on failure; `NIMSEQ_SEED` repeats one). Sets of one shape
    /// come by the dozen, so lanes are refilled mid-batch; small sets are proved within their
    /// first word; triples `c = a + b` and sets no pair sum proves go through the
    /// one-at-a-time solver.
    #[test]
    fn every_kernel_matches_the_reference_on_random_sets() {
        let seed = crate::test_seed();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        for k in 2..=7 {
            let mut sets: Vec<MoveSet> = (0..400)
                .map(|n| {
                    // Largest moves below 64, around it and past it.
                    let c = match n % 4 {
                        0 => rng.random_range(k as u32..20),
                        1 => rng.random_range(k as u32..64),
                        2 => rng.random_range(60..140),
                        _ => rng.random_range(k as u32..200),
                    };
                    random_set(&mut rng, k, c)
                })
                .collect();
            // Five dozen of one shape (every move in 65..=127): lanes refilled mid-batch.
            sets.extend((0..60).map(|_| {
                let mut moves = Vec::new();
                while moves.len() < k {
                    let s = rng.random_range(65..=127);
                    if !moves.contains(&s) {
                        moves.push(s);
                    }
                }
                moves.sort_unstable();
                MoveSet::new(&moves)
            }));
            // Proved in the first word, and additive triples.
            sets.push(MoveSet::new(&(1..=k as u32).collect::<Vec<_>>()));
            if k == 3 {
                sets.extend([[1, 2, 3], [5, 64, 69], [20, 40, 60]].map(|m| MoveSet::new(&m)));
            }
            // A set whose period the reference does not certify within 2^22 (a rare long
            // period: CI drew {11,25,84,98,109}) has no answer to compare with; every kernel
            // failing such a set as the reference does is the next test's.
            let drawn = sets.len();
            let (sets, want): (Vec<MoveSet>, Vec<Solution>) = sets
                .into_iter()
                .filter_map(|set| {
                    let want = reference::solve(&set.ruleset(), 1 << 22).ok()?;
                    Some((set, want))
                })
                .unzip();
            assert!(
                sets.len() * 10 >= drawn * 9,
                "{} of {drawn} certified (seed {seed})",
                sets.len()
            );
            for kernel in Kernel::available() {
                let got = solve_sets_with(kernel, &sets, |_| 1 << 22, Budget::UNLIMITED).unwrap();
                for ((set, got), want) in sets.iter().zip(&got).zip(&want) {
                    assert_eq!(got.key(), want.key(), "{set} with {kernel:?} (seed {seed})");
                }
            }
        }
    }

    /// The runs of one shape, found without working out most sets' shapes, are those of each
    /// set's own shape: over scans of every move count (additive triples, moves across 64 and
    /// 128) and a list of mixed move counts.
    #[test]
    fn runs_are_those_of_each_sets_shape() {
        let shape = |set: &MoveSet| {
            let moves = set.moves();
            let m = |i: usize| moves[i];
            match moves.len() {
                3 if m(2) == m(0) + m(1) => None,
                _ if set.largest() >= SHAPE_MOVES_BELOW => None,
                k => {
                    let passes = match m(0) < 64 {
                        true => 64u32.div_ceil(m(0)),
                        false => 1,
                    };
                    let mut shape = (k as u128) << 7 | u128::from(passes);
                    for &s in moves {
                        let rows = s.div_ceil(64);
                        shape = shape << 16 | u128::from(rows << 1 | u32::from(s < 64));
                    }
                    Some(Shape(shape))
                }
            }
        };
        let mut lists: Vec<Vec<MoveSet>> = [(2, 300), (3, 150), (4, 40), (7, 14)]
            .map(|(k, c)| SetFilter::sets_up_to(k, c).sets().collect())
            .into();
        lists.push(
            lists
                .iter()
                .flat_map(|l| l.iter().step_by(7).copied())
                .collect(),
        );
        for sets in lists {
            let mut want: Vec<(Option<Shape>, Range<usize>)> = Vec::new();
            for (i, set) in sets.iter().enumerate() {
                match want.last_mut() {
                    Some((last, range)) if *last == shape(set) => range.end = i + 1,
                    _ => want.push((shape(set), i..i + 1)),
                }
            }
            let got: Vec<_> = (sets.chunks(BATCH).enumerate())
                .flat_map(|(n, chunk)| Shape::runs(chunk, n * BATCH))
                .collect();
            // Runs cut at a chunk's end are joined again.
            let mut joined: Vec<(Option<Shape>, Range<usize>)> = Vec::new();
            for (shape, range) in got {
                match joined.last_mut() {
                    Some((last, open)) if *last == shape && open.end == range.start => {
                        open.end = range.end
                    }
                    _ => joined.push((shape, range)),
                }
            }
            assert_eq!(joined, want);
        }
    }

    /// A length limit too short for some sets: every kernel fails on the same set, the first in
    /// input order, with the same error as the one-at-a-time solver.
    #[test]
    fn every_kernel_fails_as_the_one_at_a_time_solver() {
        let sets: Vec<MoveSet> = SetFilter::up_to(90).sets().collect();
        let max_len = |set: &MoveSet| 64 + 8 * set.largest() as usize;
        let mut one = SetSolver::<2>::default();
        let first = sets
            .iter()
            .find_map(|&set| one.solve(set, max_len(&set)).err())
            .expect("some set is not certified");
        for kernel in Kernel::available() {
            let got = solve_sets_with(kernel, &sets, max_len, Budget::UNLIMITED);
            assert_eq!(got.unwrap_err(), first, "{kernel:?}");
        }
    }

    /// Each operation of every lane math this CPU runs against its definition, lane by lane.
    #[test]
    fn lane_maths_agree_with_definitions() {
        #[cfg(target_arch = "x86_64")]
        {
            if let Some(m) = Avx512Lanes::detect() {
                agrees_with_definitions(m, true);
                agrees_with_definitions(Twice(m), true);
            }
            if let Some(m) = Avx2Lanes::detect() {
                agrees_with_definitions(m, false);
                agrees_with_definitions(Twice(m), false);
            }
        }
        agrees_with_definitions(PortableLanes, true);
    }

    fn agrees_with_definitions<M: LaneMath>(m: M, exact: bool) {
        let mut rng = rand::rng();
        let lanes = M::LANES;
        for _ in 0..2000 {
            let mut random = || -> [u64; MAX_LANES] {
                std::array::from_fn(|l| match (l < lanes, rng.random_range(0..4)) {
                    (false, _) => 0,
                    (true, 0) => 0,
                    (true, 1) => 1 << rng.random_range(0..62),
                    _ => rng.random::<u64>() >> 2,
                })
            };
            let (a, b, c) = (random(), random(), random());
            let bits: [u64; MAX_LANES] = std::array::from_fn(|l| a[l] % 64);
            let near: [u64; MAX_LANES] = std::array::from_fn(|l| 1 + b[l] % 63);
            let (wa, wb, wc) = (m.load_lanes(&a), m.load_lanes(&b), m.load_lanes(&c));
            assert_eq!(m.to_lanes(wa), a);
            let funnel = m.to_lanes(m.funnel(wb, wc, m.count(&bits)));
            let shifted = m.to_lanes(m.near(wb, wc, m.count(&near)));
            let flags = m.mask(&a);
            let select = m.to_lanes(m.select(flags, wb, wc));
            // Ends of words are at least 64, and positions stay below 2^62.
            let ends: [u64; MAX_LANES] = std::array::from_fn(|l| b[l] / 2 + 64);
            let mark = m.to_lanes(m.mark(wa, m.load_lanes(&ends), wc));
            let limit = b[0];
            let at_most = m.at_most(wa, limit);
            let l0 = (c[0] % lanes as u64) as usize;
            let set = m.to_lanes(m.set_lane(wa, l0, b[1]));
            let set_count =
                m.to_lanes(m.funnel(wb, wc, m.set_count(m.count(&bits), l0, near[l0] % 64)));
            let set_flag = m.to_lanes(m.select(m.set_flag(flags, l0, true), wb, wc));
            for l in 0..lanes {
                let fun = |lo: u64, hi: u64, s: u64| {
                    ((u128::from(hi) << 64 | u128::from(lo)) >> s) as u64
                };
                assert_eq!(funnel[l], fun(b[l], c[l], bits[l]));
                assert_eq!(shifted[l], b[l] << near[l] | c[l] >> (64 - near[l]));
                assert_eq!(select[l], if a[l] != 0 { b[l] } else { c[l] });
                let end = ends[l]
                    - if exact {
                        u64::from(a[l].leading_zeros())
                    } else {
                        0
                    };
                assert_eq!(mark[l], if a[l] != 0 { c[l].max(end) } else { c[l] });
                assert_eq!(at_most >> l & 1 == 1, a[l] <= limit);
                assert_eq!(set[l], if l == l0 { b[1] } else { a[l] });
                let s = if l == l0 { near[l0] % 64 } else { bits[l] };
                assert_eq!(set_count[l], fun(b[l], c[l], s));
                assert_eq!(set_flag[l], if l == l0 || a[l] != 0 { b[l] } else { c[l] });
            }
            assert_eq!(at_most >> lanes, 0);
            assert_eq!(m.is_zero(wa), a.iter().all(|&x| x == 0));
            let sum = m.to_lanes(m.add(wa, wb));
            for l in 0..lanes {
                assert_eq!(sum[l], a[l].wrapping_add(b[l]));
            }
        }
    }
}
