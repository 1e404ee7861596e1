//! One spider's value and the value after each first move (`nimseq arrows value`): a slot
//! table (legs keep their order) filled bottom-up over the states reachable from the empty
//! spider, in wavefronts of equal total attached length (every move lowers it), each on all
//! cores. The work is known before it starts ([`SpiderWork`]), so a long fill shows its
//! progress, and it stops between two pieces of a wavefront when asked.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};

use rayon::prelude::*;

use super::forest::Status;
use super::spider::{
    IN, LegMove, MAX_LEGS, OUT, STAR, SpiderTable, degenerate, for_each_option, offer_leg,
};
use crate::mex::MexSet;

/// The work of one spider's fill: the states it values and the option values it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpiderWork {
    pub states: u64,
    pub options: u64,
}

impl SpiderWork {
    /// The work for `S(legs)`. Each set of detached legs (none: centre n; some: centre i or
    /// o) with two or more legs attached (fewer is a closed form) takes every combination of
    /// the attached legs' codes (all a leg takes but the detached 0). Saturates past `u64`.
    pub fn of(legs: &[usize]) -> Self {
        let k = legs.len();
        let (mut states, mut options) = (0u128, 0u128);
        for detached in 0u32..1 << k {
            let attached: Vec<u128> = (0..k)
                .filter(|t| detached & (1 << t) == 0)
                .map(|t| legs[t] as u128)
                .collect();
            if attached.len() < 2 {
                continue;
            }
            let statuses = if detached == 0 { 1 } else { 2 };
            // A leg of length x: 2x - 1 codes, 2x + 2 (x - 1)^2 options over them all.
            let codes = |x: u128| 2 * x - 1;
            let reads = |x: u128| 2 * x + 2 * (x - 1) * (x - 1);
            let tuples: u128 = attached.iter().map(|&x| codes(x)).product();
            let read: u128 = attached.iter().map(|&x| tuples / codes(x) * reads(x)).sum();
            states += statuses * tuples;
            options += statuses * read;
        }
        let clamp = |n: u128| u64::try_from(n).unwrap_or(u64::MAX);
        SpiderWork {
            states: clamp(states),
            options: clamp(options),
        }
    }
}

/// The fill stopped because it was asked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped;

/// The codes leg `x` takes from the empty spider on, by length: 0 (detached), `3h + IN` and
/// `3h + OUT` for `1 <= h < x`, and the untouched `3x` (no arc yet).
fn leg_codes(x: usize) -> Vec<u16> {
    let mut codes = vec![0];
    for h in 1..x as u16 {
        codes.extend([3 * h + IN, 3 * h + OUT]);
    }
    codes.push(3 * x as u16 + STAR);
    codes
}

/// The options of a leg code: two per edge, one fewer when its far edge is already an arc.
fn options_of(code: u16) -> u64 {
    let h = u64::from(code / 3);
    match (h, code % 3) {
        (0, _) => 0,
        (h, STAR) => 2 * h,
        (h, _) => 2 * h - 1,
    }
}

/// The mex over the options of a state of the slot table whose options are stored: each
/// attached leg's options read along its row.
fn mex(table: &SpiderTable, s: Status, codes: &[u16]) -> u16 {
    let mut seen = MexSet::default();
    let mut detached = [0u16; MAX_LEGS];
    let detached = &mut detached[..codes.len()];
    for (slot, &c) in codes.iter().enumerate() {
        if c == 0 {
            continue;
        }
        detached.copy_from_slice(codes);
        detached[slot] = 0;
        let detached = &*detached;
        offer_leg(
            &mut seen,
            s,
            c,
            |s2| table.stored(s2, detached),
            table.slot_row(s, codes, slot),
        );
    }
    seen.mex() as u16
}

/// Values the states of one leg-code tuple (centre n if every leg is attached, else i and
/// o) from their options; returns the option values read.
fn value_states(table: &SpiderTable, codes: &[u16]) -> u64 {
    let statuses: &[Status] = if codes.contains(&0) {
        &[Status::I, Status::O]
    } else {
        &[Status::N]
    };
    let options: u64 = codes.iter().map(|&c| options_of(c)).sum();
    let mut read = 0;
    for &s in statuses {
        if degenerate(s, codes).is_some() {
            continue;
        }
        table.store_slots(s, codes, mex(table, s, codes));
        read += options;
    }
    read
}

/// Calls `visit` with every tuple whose slot `t` (other than `fixed`, already in `key`) holds
/// one of `codes[t]` and whose lengths from `slot` on sum to `left`. The last free slot takes
/// the codes of its one remaining length directly.
fn each_tuple(
    codes: &[Vec<u16>],
    fixed: usize,
    slot: usize,
    left: usize,
    key: &mut [u16; MAX_LEGS],
    visit: &mut impl FnMut(&[u16]),
) {
    let k = codes.len();
    if slot == k {
        if left == 0 {
            visit(&key[..k]);
        }
        return;
    }
    if slot == fixed {
        return each_tuple(codes, fixed, slot + 1, left, key, visit);
    }
    let last = (slot + 1..k).all(|t| t == fixed);
    if last {
        for &c in codes[slot].iter().filter(|&&c| usize::from(c / 3) == left) {
            key[slot] = c;
            visit(&key[..k]);
        }
        return;
    }
    for &c in &codes[slot] {
        let h = usize::from(c / 3);
        if h > left {
            break;
        }
        key[slot] = c;
        each_tuple(codes, fixed, slot + 1, left - h, key, visit);
    }
}

/// `g(S(x_1, ..., x_k))` and the value after each first move (legs in the order given).
/// `progress` gets the option values read by each finished wavefront ([`SpiderWork::options`]
/// in all); once `stop` is set the fill ends within a piece of a wavefront.
pub fn spider_and_first_moves(
    legs: &[usize],
    stop: Option<&AtomicBool>,
    mut progress: impl FnMut(u64),
) -> Result<(u16, Vec<(LegMove, u16)>), Stopped> {
    let table = SpiderTable::for_slots(legs);
    let codes: Vec<Vec<u16>> = legs.iter().map(|&x| leg_codes(x)).collect();
    let stopped = || stop.is_some_and(|s| s.load(Relaxed));
    // Each wavefront split by the longest leg's code: the most pieces for the cores.
    let split = (0..legs.len()).max_by_key(|&t| legs[t]).expect("legs");
    for total in 0..=legs.iter().sum() {
        let read = AtomicU64::new(0);
        codes[split]
            .par_iter()
            .filter(|&&c| usize::from(c / 3) <= total)
            .for_each(|&c| {
                if stopped() {
                    return;
                }
                let mut key = [0; MAX_LEGS];
                key[split] = c;
                let mut piece = 0;
                let left = total - usize::from(c / 3);
                each_tuple(&codes, split, 0, left, &mut key, &mut |codes| {
                    piece += value_states(&table, codes);
                });
                read.fetch_add(piece, Relaxed);
            });
        if stopped() {
            return Err(Stopped);
        }
        progress(read.into_inner());
    }
    let root: Vec<u16> = legs.iter().map(|&x| 3 * x as u16 + STAR).collect();
    let g = table.stored(Status::N, &root);
    let mut moves = Vec::new();
    for_each_option(
        Status::N,
        &root,
        false,
        |s2, next| table.stored(s2, next),
        |mv, g| moves.push((mv, g)),
    );
    Ok((g, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fill reads exactly the options [`SpiderWork`] counts, and gives the recursion's
    /// value and first moves (the recursion's own table, filled on demand), on spiders of 3 to
    /// 6 legs in every order, short legs and one long one.
    #[test]
    fn fill_reads_what_work_counts_and_agrees_with_the_recursion() {
        let spiders: [&[usize]; 8] = [
            &[1, 1, 1],
            &[3, 4, 7],
            &[7, 4, 3],
            &[2, 3, 40],
            &[40, 1, 5],
            &[1, 2, 3, 4],
            &[3, 1, 2, 2, 1],
            &[2, 1, 1, 3, 1, 2],
        ];
        for legs in spiders {
            let mut read = 0;
            let (g, moves) = spider_and_first_moves(legs, None, |r| read += r).unwrap();
            assert_eq!(read, SpiderWork::of(legs).options, "S{legs:?}");
            let mut recursion = SpiderTable::for_slots(legs);
            assert_eq!(g, recursion.spider(legs), "S{legs:?}");
            // Each first move's value is the recursion's value of the state it leaves.
            let root: Vec<u16> = legs.iter().map(|&x| 3 * x as u16 + STAR).collect();
            let mut want = Vec::new();
            for_each_option(
                Status::N,
                &root,
                false,
                |s2, next| recursion.gamma(s2, next),
                |mv, g| want.push((mv, g)),
            );
            assert_eq!(moves, want, "S{legs:?}");
        }
    }

    /// States counted in closed form equal the states the fill values; S(1, 1, 1) by hand:
    /// centre n with codes (3, 3, 3), and i, o with one leg detached (3 ways): 7 states, 6 + 2
    /// * 3 * 4 = 30 option reads.
    #[test]
    fn work_in_closed_form() {
        assert_eq!(
            SpiderWork::of(&[1, 1, 1]),
            SpiderWork {
                states: 7,
                options: 30
            }
        );
        for legs in [&[2, 3, 4][..], &[5, 1, 2, 2]] {
            let codes: Vec<Vec<u16>> = legs.iter().map(|&x| leg_codes(x)).collect();
            let mut states = 0;
            let total: usize = legs.iter().sum();
            for left in 0..=total {
                let mut key = [0; MAX_LEGS];
                // Slot `legs.len()` is no slot: nothing fixed.
                each_tuple(&codes, legs.len(), 0, left, &mut key, &mut |codes| {
                    let attached = codes.iter().filter(|&&c| c != 0).count();
                    states += match attached {
                        a if a == codes.len() => 1,
                        a if a >= 2 => 2,
                        _ => 0,
                    };
                });
            }
            assert_eq!(SpiderWork::of(legs).states, states, "S{legs:?}");
        }
        // Six legs of 10,000 overflow u64 and saturate.
        assert_eq!(SpiderWork::of(&[10_000; 6]).options, u64::MAX);
    }

    /// A stop already set ends the fill before its first wavefront's work.
    #[test]
    fn a_stop_ends_the_fill() {
        let stop = AtomicBool::new(true);
        let mut read = 0;
        assert_eq!(
            spider_and_first_moves(&[5, 5, 50], Some(&stop), |r| read += r),
            Err(Stopped)
        );
        assert_eq!(read, 0);
    }
}
