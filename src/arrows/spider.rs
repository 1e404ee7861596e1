//! Spider states (docs/arrows.md, what the solvers rest on, Proposition 6.1): a position of a
//! spider is the
//! centre's status and, for each leg still attached, the unmarked length `h` up to its first arc
//! and that arc's direction `phi`; whatever lies beyond the first arc has split off into runs of
//! known value (Theorem 4.3). One dense table over all such states with legs up to `H` gives
//! `g(S(x_1, ..., x_k))` for every spider with legs up to `H` at once.
//!
//! A leg is coded `3h + phi` (`phi`: 0 no arc, 1 in, 2 out; 0 for a detached leg); a state is the
//! centre's status (n, i or o; a free centre has a closed form) and its leg codes. Values are
//! memoised in the table (`u16`: intermediate values reach the leg lengths, Theorem 4.3's nim
//! heaps). A table for all spiders keeps the codes sorted, in rows (`Rows` below), and is filled
//! bottom-up by wavefronts of equal total attached length (every move lowers it), each on all
//! cores, or on demand by recursion; a family table (legs in fixed slots) by recursion, and one
//! spider's slot table bottom-up over its reachable states ([`super::one_spider`]).

use std::sync::atomic::AtomicU16;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::forest::Status;
use crate::memory::{Budget, OverBudget};
use crate::mex::MexSet;

/// A leg's far end: no arc yet, or the direction of its first arc (relative to the centre).
pub(super) const STAR: u16 = 0;
pub(super) const IN: u16 = 1;
pub(super) const OUT: u16 = 2;

/// Not yet computed.
const UNKNOWN: u16 = u16::MAX;

/// Longest leg a table takes: codes `3h + 2` fit a `u16`, and so does every value (a mex is at
/// most the number of options, two per unit of attached length: below 60,000 for three legs).
pub const MAX_LEG: usize = 10_000;

/// `rho(k; delta, phi)`: a run whose near end is blocked in direction `delta`, far end `phi`.
fn rho(k: u16, delta: u16, phi: u16) -> u16 {
    if phi == STAR {
        k
    } else if phi == delta {
        k % 2
    } else if k == 0 {
        0
    } else {
        (k + 1) % 2
    }
}

/// `rho*(k; phi)`: a run whose near end is free.
fn rho_free(k: u16, phi: u16) -> u16 {
    if phi == STAR { k % 2 } else { k }
}

fn times(s: Status, delta: u16) -> Status {
    let d = if delta == IN { Status::I } else { Status::O };
    match s {
        Status::N => d,
        s if s == d => s,
        _ => Status::F,
    }
}

/// Binomial coefficient for multiset ranks.
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// How a state's leg codes become a table index.
enum Indexing {
    /// Legs are interchangeable (every spider with legs up to a bound), in rows.
    Multiset(Rows),
    /// Leg `t` stays in slot `t` with at most `radix[t]` codes (one family with a growing leg).
    Slots { radix: Vec<u64> },
}

/// Values of spider states, filled on demand.
pub struct SpiderTable {
    pub(super) legs: usize,
    indexing: Indexing,
    /// Atomic so a wavefront's states are stored from all cores in place (relaxed loads and
    /// stores are plain moves; a wavefront only reads lower ones).
    values: Vec<AtomicU16>,
}

impl SpiderTable {
    /// Bytes a table for every `legs`-leg spider with legs up to `h_max` takes: 2 per entry.
    pub fn bytes(legs: usize, h_max: usize) -> u64 {
        Self::entries_for(legs, h_max).saturating_mul(2)
    }

    /// Entries of the table for every `legs`-leg spider with legs up to `h_max`.
    fn entries_for(legs: usize, h_max: usize) -> u64 {
        let (n_block, io_block) = Rows::blocks(legs, 3 * h_max as u64 + 3);
        n_block.saturating_add(io_block.saturating_mul(2))
    }

    /// Bytes a table for the spiders `S(x_1, ..., x_k)` with each `x_t <= bounds[t]` needs.
    pub fn slot_bytes(bounds: &[usize]) -> u64 {
        bounds
            .iter()
            .fold(3u64, |acc, &b| acc.saturating_mul(3 * b as u64 + 3))
            .saturating_mul(2)
    }

    /// A table for every `legs`-leg spider with legs up to `h_max`.
    pub fn new(legs: usize, h_max: usize) -> Self {
        assert!(
            h_max <= MAX_LEG && legs * h_max <= 3 * MAX_LEG,
            "legs up to {h_max}"
        );
        SpiderTable {
            legs,
            indexing: Indexing::Multiset(Rows::new(legs, h_max)),
            values: (0..Self::entries_for(legs, h_max))
                .map(|_| AtomicU16::new(UNKNOWN))
                .collect(),
        }
    }

    /// A table for the spiders whose leg `t` is at most `bounds[t]` (legs keep their slots).
    pub fn for_slots(bounds: &[usize]) -> Self {
        assert!(fits_slots(bounds), "legs {bounds:?}");
        let radix: Vec<u64> = bounds.iter().map(|&b| 3 * b as u64 + 3).collect();
        let per_status: u64 = radix.iter().product();
        SpiderTable {
            legs: bounds.len(),
            indexing: Indexing::Slots { radix },
            values: (0..3 * per_status)
                .map(|_| AtomicU16::new(UNKNOWN))
                .collect(),
        }
    }

    /// Where a state is (codes sorted in multiset mode).
    fn index(&self, s: Status, codes: &[u16]) -> usize {
        let per_status = self.values.len() / 3;
        let rank: u64 = match &self.indexing {
            Indexing::Multiset(rows) => return rows.index(s, codes),
            Indexing::Slots { radix } => codes
                .iter()
                .zip(radix)
                .fold(0, |acc, (&c, &r)| acc * r + u64::from(c)),
        };
        let block = match s {
            Status::N => 0,
            Status::I => 1,
            _ => 2,
        };
        block * per_status + rank as usize
    }

    /// The value of a state whose value is stored, or a closed form (a fill's lookup of an
    /// option, always of a lower wavefront).
    pub(super) fn stored(&self, s: Status, codes: &[u16]) -> u16 {
        degenerate(s, codes).unwrap_or_else(|| {
            let g = self.values[self.index(s, codes)].load(Relaxed);
            debug_assert_ne!(g, UNKNOWN, "{s:?} {codes:?} before its options");
            g
        })
    }

    /// A slot table's entries for the state `(s; codes)` as leg `slot`'s code varies:
    /// `code -> value`, one stride apart (the options on that leg that keep it attached).
    pub(super) fn slot_row(
        &self,
        s: Status,
        codes: &[u16],
        slot: usize,
    ) -> impl Fn(u16) -> u16 + '_ {
        let Indexing::Slots { radix } = &self.indexing else {
            panic!("rows of slots are for slot tables");
        };
        let stride: u64 = radix[slot + 1..].iter().product();
        let mut key = [0u16; MAX_LEGS];
        key[..codes.len()].copy_from_slice(codes);
        key[slot] = 0;
        let base = self.index(s, &key[..codes.len()]);
        move |code| self.values[base + (u64::from(code) * stride) as usize].load(Relaxed)
    }

    /// Stores the value of a state of a slot table (a multiset table stores a state once per
    /// distinct leg: [`Rows::store`]).
    pub(super) fn store_slots(&self, s: Status, codes: &[u16], g: u16) {
        debug_assert!(matches!(self.indexing, Indexing::Slots { .. }));
        self.values[self.index(s, codes)].store(g, Relaxed);
    }

    /// `g(S(x_1, ..., x_k))` (each leg at most `h_max`).
    pub fn spider(&mut self, legs: &[usize]) -> u16 {
        assert_eq!(legs.len(), self.legs);
        let codes: Vec<u16> = legs.iter().map(|&x| 3 * x as u16 + STAR).collect();
        self.gamma(Status::N, &codes)
    }

    /// `Gamma(s; L)` for the attached legs `codes` (0 entries are detached legs).
    pub(super) fn gamma(&mut self, s: Status, codes: &[u16]) -> u16 {
        if let Some(g) = degenerate(s, codes) {
            return g;
        }
        let interchangeable = matches!(self.indexing, Indexing::Multiset(_));
        let mut key = [0u16; MAX_LEGS];
        let key = &mut key[..codes.len()];
        key.copy_from_slice(codes);
        if interchangeable {
            key.sort_unstable();
        }
        let at = self.index(s, key);
        let known = *self.values[at].get_mut();
        if known != UNKNOWN {
            return known;
        }
        let key = key.to_vec();
        let g = mex_of_options(s, &key, interchangeable, |s2, next| self.gamma(s2, next));
        *self.values[at].get_mut() = g;
        g
    }

    /// The value of every spider of a multiset table, `1 <= x_1 <= ... <= x_k <= h_max` in
    /// lexicographic order (as [`each_spider`] visits them).
    pub fn spider_values(&mut self) -> Vec<u16> {
        let mut values = Vec::new();
        each_spider(self.legs, self.h_max(), |x| {
            values.push(self.spider(x));
            Ok::<_, ()>(())
        })
        .expect("values go to a vector");
        values
    }

    /// Values every state of a multiset table bottom-up: wavefronts of equal total attached
    /// length (every move lowers it), each wavefront on all cores; `progress` gets the leg
    /// tuples of each finished wavefront (of [`Self::tuples`] in all).
    pub fn fill(&mut self, progress: impl FnMut(u64)) {
        self.fill_from(0, progress, |_, _| Ok::<_, std::convert::Infallible>(()))
            .unwrap_or_else(|never| match never {});
    }

    /// The wavefronts a fill computes: total attached lengths `0..=wavefronts()`.
    pub fn wavefronts(&self) -> usize {
        self.legs * self.h_max()
    }

    /// [`Self::fill`] from wavefront `start` on (the ones below it already stored, as by
    /// [`Self::restore_wavefront`]), calling `finished` after each wavefront; its error stops
    /// the fill.
    pub fn fill_from<E>(
        &mut self,
        start: usize,
        mut progress: impl FnMut(u64),
        mut finished: impl FnMut(usize, &Self) -> Result<(), E>,
    ) -> Result<(), E> {
        let Indexing::Multiset(rows) = &self.indexing else {
            panic!("fill is for multiset tables");
        };
        let table = &*self;
        for total in start..=self.wavefronts() {
            let done = std::sync::atomic::AtomicU64::new(0);
            // Split by the smallest code: enough pieces for every core.
            (0..valid_codes(self.h_max()))
                .into_par_iter()
                .for_each(|first| {
                    let mut count = 0;
                    for_each_in_front(self.legs, self.h_max(), total, first, |codes| {
                        for s in [Status::N, Status::I, Status::O] {
                            if needs_options(s, codes) {
                                let g = rows.mex(table, s, codes);
                                rows.store(table, s, codes, g);
                            }
                        }
                        count += 1;
                    });
                    done.fetch_add(count, Relaxed);
                });
            progress(done.into_inner());
            finished(total, table)?;
        }
        Ok(())
    }

    /// Calls `visit` with each stored state of wavefront `total` whose smallest code is the
    /// `first`-th valid one, in one fixed order, and returns the leg tuples visited.
    fn each_state_of(
        &self,
        total: usize,
        first: usize,
        mut visit: impl FnMut(&Rows, Status, &[u16]),
    ) -> u64 {
        let Indexing::Multiset(rows) = &self.indexing else {
            panic!("wavefronts are for multiset tables");
        };
        let mut tuples = 0;
        for_each_in_front(self.legs, self.h_max(), total, first, |codes| {
            tuples += 1;
            for s in [Status::N, Status::I, Status::O] {
                if needs_options(s, codes) {
                    visit(rows, s, codes);
                }
            }
        });
        tuples
    }

    /// The values of wavefront `total`, by smallest code, in the order
    /// [`Self::restore_wavefront`] takes (gathered on all cores).
    pub fn wavefront_values(&self, total: usize) -> Vec<u16> {
        let pieces: Vec<Vec<u16>> = (0..valid_codes(self.h_max()))
            .into_par_iter()
            .map(|first| {
                let mut out = Vec::new();
                self.each_state_of(total, first, |rows, s, codes| {
                    out.push(self.values[rows.index(s, codes)].load(Relaxed));
                });
                out
            })
            .collect();
        pieces.concat()
    }

    /// Stores wavefront `total` from [`Self::wavefront_values`] of an earlier fill; returns its
    /// leg tuples, or `None` (storing nothing) if `values` is not one value per state.
    pub fn restore_wavefront(&self, total: usize, values: &[u16]) -> Option<u64> {
        let firsts = 0..valid_codes(self.h_max());
        let states: usize = firsts
            .clone()
            .map(|first| {
                let mut n = 0;
                self.each_state_of(total, first, |_, _, _| n += 1);
                n
            })
            .sum();
        if states != values.len() {
            return None;
        }
        let mut values = values.iter();
        let tuples = firsts
            .map(|first| {
                self.each_state_of(total, first, |rows, s, codes| {
                    let g = *values.next().expect("counted");
                    rows.store(self, s, codes, g);
                })
            })
            .sum();
        Some(tuples)
    }

    /// Overwrites every entry from the GPU's table, which holds each stored value plus one
    /// and 0 where no state is stored (the GPU's words may end in padding).
    pub(super) fn store_all(&mut self, entries: impl Iterator<Item = u32>) {
        for (slot, g) in self.values.iter_mut().zip(entries) {
            *slot.get_mut() = match g.checked_sub(1) {
                None => UNKNOWN,
                Some(g) => u16::try_from(g).expect("GPU entries are 16 bits at most"),
            };
        }
    }

    /// Entries, in index order (tests compare CPU and GPU tables).
    pub fn entries(&mut self) -> Vec<u16> {
        self.values.iter_mut().map(|v| *v.get_mut()).collect()
    }

    /// Sorted tuples of valid leg codes in the table for `legs`-leg spiders with legs up to
    /// `h_max`: the states a fill visits, each with up to three centre statuses.
    pub fn tuples(legs: usize, h_max: usize) -> u64 {
        binomial((3 * h_max + legs) as u64, legs as u64)
    }

    /// Longest leg of a multiset table.
    pub(super) fn h_max(&self) -> usize {
        match &self.indexing {
            Indexing::Multiset(rows) => rows.width / 3 - 1,
            Indexing::Slots { .. } => unreachable!("slot tables have per-leg bounds"),
        }
    }
}

/// Codes a leg may take in a table with legs up to `h_max`: 0 (detached) and `3h + phi` for
/// `1 <= h <= h_max`; the `i`-th is [`code_at`]`(i)`.
pub(super) fn valid_codes(h_max: usize) -> usize {
    1 + 3 * h_max
}

/// Calls `visit` with every sorted code tuple of `legs` valid codes (legs up to `h_max`) of
/// total attached length `total` whose smallest code is the `first`-th valid code.
pub(super) fn for_each_in_front(
    legs: usize,
    h_max: usize,
    total: usize,
    first: usize,
    mut visit: impl FnMut(&[u16]),
) {
    let top = valid_codes(h_max) - 1;
    let mut at = [0usize; MAX_LEGS];
    at[0] = first;
    // Depth-first over the remaining slots, each code at least the previous one and the
    // remaining length reachable with codes in range.
    fn walk(
        at: &mut [usize; MAX_LEGS],
        slot: usize,
        legs: usize,
        top: usize,
        left: usize,
        visit: &mut impl FnMut(&[u16]),
    ) {
        let rest = legs - slot;
        let low = at[slot - 1];
        if rest * length_at(low) > left || rest * length_at(top) < left {
            return;
        }
        if rest == 1 {
            // The last leg has length `left` exactly: its codes are 3 left + phi.
            let codes = if left == 0 {
                0..=0
            } else {
                3 * left - 2..=3 * left
            };
            for i in codes.filter(|&i| i >= low && i <= top) {
                at[slot] = i;
                let mut codes = [0u16; MAX_LEGS];
                for (c, &i) in codes.iter_mut().zip(&at[..legs]) {
                    *c = code_at(i);
                }
                visit(&codes[..legs]);
            }
            return;
        }
        for i in low..=top {
            let h = length_at(i);
            if h * rest > left {
                break;
            }
            at[slot] = i;
            walk(at, slot + 1, legs, top, left - h, visit);
        }
    }
    if let Some(left) = total.checked_sub(length_at(first)) {
        walk(&mut at, 1, legs, top, left, &mut visit);
    }
}

/// The `i`-th valid leg code: 0, then 3, 4, 5, 6, ... (`3h + phi`, `h >= 1`).
fn code_at(i: usize) -> u16 {
    if i == 0 { 0 } else { (i + 2) as u16 }
}

/// The attached length of the `i`-th valid code.
fn length_at(i: usize) -> usize {
    usize::from(code_at(i) / 3)
}

/// Whether state `(s; codes)` (sorted) is one the table stores: reachable (a centre with an
/// arc has a detached leg, sorted first) and not a closed form.
fn needs_options(s: Status, codes: &[u16]) -> bool {
    (s == Status::N || codes[0] == 0) && degenerate(s, codes).is_none()
}

/// The layout of a multiset table (every spider with legs up to a bound). A state is stored
/// once per distinct attached leg `x`, at `row(s, others) + x` where `others` are its other
/// codes, sorted: the options on one leg, which change only its code, are one row read in
/// order rather than entries scattered over the table. Lookups use `x` = the largest code.
///
/// Rows are numbered by multiset rank, `sum_t terms[t][c_t]` with `terms[t][c] =
/// C(c + t, t + 1)`: a centre-n row by its `legs - 1` other codes; a centre with an arc has a
/// detached leg (code 0, sorted first), so an i or o row needs only the `legs - 2` after it,
/// and those blocks are a small fraction of the table.
pub(super) struct Rows {
    legs: usize,
    /// Entries per row: every code `0..3 h_max + 3`.
    pub(super) width: usize,
    pub(super) terms: Vec<Vec<u64>>,
    /// Entries of the n block; an i block and an o block of `io_block` entries follow.
    pub(super) n_block: usize,
    pub(super) io_block: usize,
}

impl Rows {
    pub(super) fn new(legs: usize, h_max: usize) -> Self {
        let width = 3 * h_max as u64 + 3;
        let (n_block, io_block) = Self::blocks(legs, width);
        Rows {
            legs,
            width: width as usize,
            terms: (0..legs as u64 - 1)
                .map(|t| (0..width).map(|c| binomial(c + t, t + 1)).collect())
                .collect(),
            n_block: n_block as usize,
            io_block: io_block as usize,
        }
    }

    /// Entries of the table.
    pub(super) fn entries(&self) -> u64 {
        (self.n_block + 2 * self.io_block) as u64
    }

    /// Entries of the n block and of each of the i and o blocks.
    fn blocks(legs: usize, width: u64) -> (u64, u64) {
        let rows = |others: u64| binomial(width + others - 1, others).saturating_mul(width);
        (rows(legs as u64 - 1), rows(legs as u64 - 2))
    }

    /// The first entry of the row of `others` (the `legs - 1` other codes, sorted) under
    /// status `s`; for i and o, `others[0]` is the detached leg's 0.
    pub(super) fn row(&self, s: Status, others: &[u16]) -> usize {
        let rank = |codes: &[u16]| -> usize {
            codes
                .iter()
                .zip(&self.terms)
                .map(|(&c, row)| row[usize::from(c)] as usize)
                .sum()
        };
        match s {
            Status::N => rank(others) * self.width,
            Status::I => self.n_block + rank(&others[1..]) * self.width,
            _ => self.n_block + self.io_block + rank(&others[1..]) * self.width,
        }
    }

    /// Where a state (codes sorted) is looked up.
    fn index(&self, s: Status, codes: &[u16]) -> usize {
        debug_assert_eq!(codes.len(), self.legs);
        let (last, others) = codes.split_last().expect("legs");
        self.row(s, others) + usize::from(*last)
    }

    /// Calls `visit` with each distinct slot of a sorted state and the other codes (sorted,
    /// with a spare 0 in front: the state after detaching that leg).
    fn each_leg(codes: &[u16], mut visit: impl FnMut(usize, &[u16])) {
        let legs = codes.len();
        for slot in 0..legs {
            if slot > 0 && codes[slot - 1] == codes[slot] {
                continue;
            }
            let mut detached = [0u16; MAX_LEGS];
            detached[1..slot + 1].copy_from_slice(&codes[..slot]);
            detached[slot + 1..legs].copy_from_slice(&codes[slot + 1..]);
            visit(slot, &detached[..legs]);
        }
    }

    /// Stores a state's value in the row of each of its distinct attached legs.
    fn store(&self, table: &SpiderTable, s: Status, codes: &[u16], g: u16) {
        Self::each_leg(codes, |slot, detached| {
            if codes[slot] != 0 {
                let at = self.row(s, &detached[1..]) + usize::from(codes[slot]);
                table.values[at].store(g, Relaxed);
            }
        });
    }

    /// The mex over the options of a stored state (Proposition 6.1), `codes` sorted.
    fn mex(&self, table: &SpiderTable, s: Status, codes: &[u16]) -> u16 {
        let mut seen = MexSet::default();
        Self::each_leg(codes, |slot, detached| {
            let c = codes[slot];
            if c != 0 {
                let row = &table.values[self.row(s, &detached[1..])..][..self.width];
                offer_leg(
                    &mut seen,
                    s,
                    c,
                    |s2| table.stored(s2, detached),
                    |code| row[usize::from(code)].load(Relaxed),
                );
            }
        });
        seen.mex() as u16
    }
}

/// Offers the options on one attached leg of code `c` in a state of status `s` (Proposition
/// 6.1) to `seen`: `detach(s2)` values the state after the leg detaches (j = 1, the centre
/// then of status `s2`); `entry(code)` the state with the leg's code `3(j - 1) + delta`
/// instead (j >= 2: the same status, one row of the table, read in order).
#[inline]
pub(super) fn offer_leg(
    seen: &mut MexSet,
    s: Status,
    c: u16,
    detach: impl Fn(Status) -> u16,
    entry: impl Fn(u16) -> u16,
) {
    let (h, phi) = (c / 3, c % 3);
    for delta in [IN, OUT] {
        if h == 1 && phi != STAR && delta != phi {
            continue;
        }
        seen.insert(u32::from(rho(h - 1, delta, phi) ^ detach(times(s, delta))));
    }
    for j in 2..=h {
        for delta in [IN, OUT] {
            if j == h && phi != STAR && delta != phi {
                continue;
            }
            seen.insert(u32::from(
                rho(h - j, delta, phi) ^ entry(3 * (j - 1) + delta),
            ));
        }
    }
}

/// Refuses the multiset table of every `legs`-leg spider with legs up to `h_max` if it does
/// not fit `budget`.
pub fn check_table(legs: usize, h_max: usize, budget: Budget) -> Result<(), OverBudget> {
    budget.check(SpiderTable::bytes(legs, h_max), || {
        format!("the state table of {legs}-leg spiders with legs up to {h_max}")
    })
}

/// Refuses the slot table of the family `S(x, y, z)`, `z <= z_max`, if it does not fit
/// `budget`.
pub fn check_family(x: usize, y: usize, z_max: usize, budget: Budget) -> Result<(), OverBudget> {
    budget.check(SpiderTable::slot_bytes(&[x, y, z_max]), || {
        format!("the state table of S({x},{y},z) for z <= {z_max}")
    })
}

/// Whether a slot table takes legs up to `bounds`: at most [`MAX_LEGS`] legs, each at most
/// [`MAX_LEG`], 3 * [`MAX_LEG`] in all (codes and values are 16-bit).
pub fn fits_slots(bounds: &[usize]) -> bool {
    (3..=MAX_LEGS).contains(&bounds.len())
        && bounds.iter().all(|&b| b <= MAX_LEG)
        && bounds.iter().sum::<usize>() <= 3 * MAX_LEG
}

/// Most legs a spider table handles.
pub const MAX_LEGS: usize = 6;

/// The closed forms (N1)-(N3) of Proposition 6.1, or `None` when the state needs its options.
pub(super) fn degenerate(s: Status, codes: &[u16]) -> Option<u16> {
    let mut attached = codes.iter().filter(|&&c| c != 0).map(|&c| (c / 3, c % 3));
    if s == Status::F {
        return Some(attached.fold(0, |acc, (h, phi)| acc ^ rho_free(h, phi)));
    }
    let first = attached.next();
    let second = attached.next();
    match (first, second) {
        (None, _) => Some(0),
        (Some((h, phi)), None) if s != Status::N => {
            Some(rho(h, if s == Status::I { OUT } else { IN }, phi))
        }
        _ => None,
    }
}

/// The mex over the options of a non-degenerate state (Proposition 6.1); `value(s', L')` values
/// a successor, its codes in slot order. `skip_equal`: equal neighbouring codes are the same leg
/// (sorted multiset states), so their options are taken once.
fn mex_of_options(
    s: Status,
    codes: &[u16],
    skip_equal: bool,
    value: impl FnMut(Status, &[u16]) -> u16,
) -> u16 {
    let mut seen = MexSet::default();
    for_each_option(s, codes, skip_equal, value, |_, g| {
        seen.insert(u32::from(g))
    });
    // At most 2 options per unit of attached length, below u16::MAX for the legs the
    // commands accept.
    seen.mex() as u16
}

/// A move on a spider: leg `slot`, its `edge`-th unmarked edge from the centre, oriented away
/// from the centre (`out`) or towards it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegMove {
    pub slot: usize,
    pub edge: usize,
    pub out: bool,
}

/// Calls `visit` with every option of a non-degenerate state (Proposition 6.1) and its value.
pub(super) fn for_each_option(
    s: Status,
    codes: &[u16],
    skip_equal: bool,
    mut value: impl FnMut(Status, &[u16]) -> u16,
    mut visit: impl FnMut(LegMove, u16),
) {
    let mut next = [0u16; MAX_LEGS];
    let next = &mut next[..codes.len()];
    for slot in 0..codes.len() {
        let c = codes[slot];
        if c == 0 || (skip_equal && slot > 0 && codes[slot - 1] == c) {
            continue;
        }
        let (h, phi) = (c / 3, c % 3);
        for j in 1..=h {
            for delta in [IN, OUT] {
                if j == h && phi != STAR && delta != phi {
                    continue;
                }
                let detached = rho(h - j, delta, phi);
                let (s2, code) = if j >= 2 {
                    (s, 3 * (j - 1) + delta)
                } else {
                    (times(s, delta), 0)
                };
                next.copy_from_slice(codes);
                next[slot] = code;
                let mv = LegMove {
                    slot,
                    edge: usize::from(j),
                    out: delta == OUT,
                };
                visit(mv, detached ^ value(s2, next));
            }
        }
    }
}

/// Runs `f` on a thread whose stack holds a recursion through `depth` spider states (the slot
/// tables recurse along the legs).
pub fn on_deep_stack<T: Send + 'static>(depth: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size((64 << 20) + depth * 4096)
        .spawn(f)
        .expect("a thread for the recursion")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// `z -> g(S(x, y, z))` for `z = 1..=z_max` from one table whose third leg grows.
pub fn family(x: usize, y: usize, z_max: usize) -> Vec<u16> {
    let mut table = SpiderTable::for_slots(&[x, y, z_max]);
    // Ascending z: each spider's sub-states with a shorter third leg are already known.
    (1..=z_max).map(|z| table.spider(&[x, y, z])).collect()
}

/// The eventual behaviour a family shows within its range (observed, not proven): the least
/// `z0` from which `g = z mod 2` up to the end (needing at least 6 values), else a period.
pub fn family_behaviour(values: &[u16]) -> String {
    let len = values.len();
    let parity = |i: usize| values[i] == ((i + 1) % 2) as u16;
    let from = (0..len).rev().take_while(|&i| parity(i)).last();
    match from {
        Some(i) if len - i >= 6 => format!(
            "g = z mod 2 from z = {} observed for z <= {len} (not proven)",
            i + 1
        ),
        _ => match crate::period::observed(values) {
            Some(p) => format!(
                "period {} from z = {} observed for z <= {len} (not proven)",
                p.period,
                p.preperiod + 1
            ),
            None => format!("no eventual behaviour observed for z <= {len}"),
        },
    }
}

/// What `nimseq arrows spiders` reports: each value that occurs, how often, and its smallest
/// spider (least `m = x_1 + ... + x_k`, ties lexicographic).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct SpiderSummary {
    pub spiders: u64,
    /// `(value, count, smallest legs)` by value.
    pub values: Vec<(u16, u64, Vec<usize>)>,
}

/// Calls `visit` with every leg tuple `1 <= x_1 <= ... <= x_k <= h_max` in lexicographic
/// order, until it returns an error.
pub fn each_spider<E>(
    legs: usize,
    h_max: usize,
    mut visit: impl FnMut(&[usize]) -> Result<(), E>,
) -> Result<(), E> {
    let mut x = vec![1; legs];
    loop {
        visit(&x)?;
        let Some(i) = (0..legs).rev().find(|&i| x[i] < h_max) else {
            return Ok(());
        };
        x[i] += 1;
        let v = x[i];
        x[i + 1..].fill(v);
    }
}

/// The summary of every spider `1 <= x_1 <= ... <= x_k <= h_max`, given their `values` in
/// lexicographic order (as [`each_spider`] visits them); each is also passed to `row`.
pub fn summarise(
    legs: usize,
    h_max: usize,
    values: &[u16],
    mut row: impl FnMut(&[usize], u16) -> std::io::Result<()>,
) -> std::io::Result<SpiderSummary> {
    let mut found: std::collections::BTreeMap<u16, (u64, Vec<usize>)> = Default::default();
    let mut summary = SpiderSummary::default();
    let mut values = values.iter();
    each_spider(legs, h_max, |x| {
        let g = *values.next().expect("a value for every spider");
        row(x, g)?;
        summary.spiders += 1;
        let m: usize = x.iter().sum();
        let entry = found.entry(g).or_insert_with(|| (0, x.to_vec()));
        entry.0 += 1;
        let best: usize = entry.1.iter().sum();
        if (m, x) < (best, &entry.1[..]) {
            entry.1 = x.to_vec();
        }
        Ok::<_, std::io::Error>(())
    })?;
    summary.values = found.into_iter().map(|(g, (n, x))| (g, n, x)).collect();
    Ok(summary)
}

impl std::fmt::Display for SpiderSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "spiders      {}", self.spiders)?;
        let present: Vec<String> = self.values.iter().map(|(g, ..)| g.to_string()).collect();
        writeln!(f, "values       {}", present.join(" "))?;
        for (g, count, legs) in &self.values {
            let legs: Vec<String> = legs.iter().map(ToString::to_string).collect();
            let noun = if *count == 1 { "spider" } else { "spiders" };
            writeln!(
                f,
                "g = {g:<3} {count:>9} {noun}, smallest S({})",
                legs.join(",")
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arrows::forest::{Forest, NormalForm};
    use crate::arrows::tree::Tree;

    /// Every 3-leg spider with legs <= 10 and every 4-leg spider with legs <= 4: the
    /// bottom-up fill, the recursion and the normal form agree (docs/arrows.md, published values:
    /// the solvers agree).
    #[test]
    fn fill_recursion_and_normal_form_agree() {
        let mut nf = NormalForm::default();
        for (legs, h_max) in [(3, 10), (4, 4)] {
            let mut filled = SpiderTable::new(legs, h_max);
            filled.fill(|_| ());
            let mut recursion = SpiderTable::new(legs, h_max);
            each_spider(legs, h_max, |x| {
                let want = nf.value(&Forest::of_tree(&Tree::spider(x).unwrap()));
                assert_eq!(u32::from(filled.spider(x)), want, "fill S{x:?}");
                assert_eq!(u32::from(recursion.spider(x)), want, "recursion S{x:?}");
                Ok::<_, ()>(())
            })
            .unwrap();
            // Every state the recursion reached, the fill stored alike.
            let reached = recursion.values.iter_mut().map(|v| *v.get_mut());
            for (i, (r, f)) in reached.zip(filled.values.iter_mut()).enumerate() {
                assert!(r == UNKNOWN || r == *f.get_mut(), "state {i}");
            }
        }
    }

    /// Smallest spiders per value among legs <= 9: g = 2 first at S(3,4,7), g = 3 at S(2,3,9)
    /// (docs/arrows.md, published values, Theorem 7.3).
    #[test]
    fn summary_finds_the_smallest_spiders() {
        let mut rows = 0;
        let mut table = SpiderTable::new(3, 9);
        table.fill(|_| ());
        let summary = summarise(3, 9, &table.spider_values(), |_, _| {
            rows += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!((summary.spiders, rows), (165, 165));
        let smallest = |g: u16| {
            summary
                .values
                .iter()
                .find(|v| v.0 == g)
                .map(|v| v.2.clone())
        };
        assert_eq!(smallest(2), Some(vec![3, 4, 7]));
        assert_eq!(smallest(3), Some(vec![2, 3, 9]));
    }

    /// docs/arrows.md, published values families: S(2,3,z) (z mod 2 from z = 14, Theorem 8.1),
    /// S(1,4,z) (period 8
    /// from z = 3), the periods of S(1,2j,z) for j <= 16, twins, S(1,2,z) = (z+1) mod 2; slot
    /// tables agree with the multiset table.
    #[test]
    fn families() {
        let s23 = family(2, 3, 120);
        assert_eq!(
            family_behaviour(&s23),
            "g = z mod 2 from z = 14 observed for z <= 120 (not proven)"
        );
        let s14 = family(1, 4, 60);
        assert_eq!(s14[2..10], [0, 1, 0, 0, 1, 0, 1, 0]);
        assert_eq!(
            family_behaviour(&s14),
            "period 8 from z = 3 observed for z <= 60 (not proven)"
        );
        // S(1,2j,z): least period 2^(ceil(log2 j) + 2) (Theorem 9.1), values 0 and 1.
        for j in 2..=16usize {
            let period = 1 << (j.next_power_of_two().trailing_zeros() + 2);
            let values = family(1, 2 * j, 2 * j + 2 + 4 * period);
            assert!(values.iter().all(|&g| g <= 1), "S(1,{},z)", 2 * j);
            let said = family_behaviour(&values);
            assert!(
                said.starts_with(&format!("period {period} ")),
                "j = {j}: {said}"
            );
        }
        // Twins (Corollary 5.7): S(x,x,z) = z mod 2.
        let twins = family(3, 3, 40);
        assert!(
            twins
                .iter()
                .enumerate()
                .all(|(i, &g)| g == (i as u16 + 1) % 2)
        );
        let s12 = family(1, 2, 40);
        assert!(
            s12.iter()
                .enumerate()
                .all(|(i, &g)| g == (i as u16 + 2) % 2)
        );
        let mut table = SpiderTable::new(3, 20);
        for z in 1..=20 {
            assert_eq!(s23[z - 1], table.spider(&[2, 3, z]), "S(2,3,{z})");
        }
    }

    /// docs/arrows.md, published values and Theorem 7.3: the powers of two 1, 2, 4, ..., 32 at
    /// S(1,1,1), S(3,4,7),
    /// S(5,8,9), S(7,12,19), S(13,44,51), S(17,90,95) (one table, legs <= 95); S(2,3,9) = 3;
    /// S(2,3,4,5) = S(1,2,3,4) = 0; S(2,3,z) for z = 1..20 (docs/arrows.md, published values).
    #[test]
    fn spot_values_and_a_family() {
        let mut big = SpiderTable::new(3, 95);
        big.fill(|_| ());
        for (legs, g) in [
            ([1, 1, 1], 1),
            ([3, 4, 7], 2),
            ([5, 8, 9], 4),
            ([7, 12, 19], 8),
            ([13, 44, 51], 16),
            ([17, 90, 95], 32),
            ([2, 3, 9], 3),
        ] {
            assert_eq!(big.spider(&legs), g, "S{legs:?}");
        }
        let mut four = SpiderTable::new(4, 5);
        assert_eq!(four.spider(&[2, 3, 4, 5]), 0);
        assert_eq!(four.spider(&[1, 2, 3, 4]), 0);
        let mut table = SpiderTable::new(3, 20);
        let s23: Vec<u16> = (1..=20).map(|z| table.spider(&[2, 3, z])).collect();
        assert_eq!(
            s23,
            [0, 1, 0, 1, 0, 1, 0, 0, 3, 2, 2, 1, 0, 0, 1, 0, 1, 0, 1, 0]
        );
    }
}
