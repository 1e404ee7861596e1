//! The fast CPU path: the rare/common split (docs/octal.md, "Making it fast"; Flammenkamp's sparse
//! space, as in Beling's RC methods and Rogalski's solver; this is an implementation of our own).
//!
//! # Why it is exact
//! A mask `m` sorts values by the parity of `popcount(v & m)`. A heap size `s` is **rare** when
//! that parity is its rare parity: 0 for every size (the value split), or `(s + t) & 1` (the
//! position split, for codes whose only splitting digit is the last, `t`). The split is chosen
//! so that rare sizes are few, but any mask is exact: it only changes the speed.
//!
//! A split of a heap into `a + b` offers `G(a) xor G(b)`, whose parity is the xor of theirs. If
//! both `a` and `b` are common, that parity is always the rare parity of `n` (value split: 1 xor
//! 1 = 0; position split: `a + b = n - t`, so the parities add up to `(n + t) & 1`). So every
//! option of the other class comes from a move that leaves no heap, one heap, or a split with a
//! rare part, and those are few: listed in full. A value of the other class that no listed option
//! offers is `G(n)` if it is the least. Values of the rare class below it must each be offered by
//! some split: the common-common splits are scanned, taking in what they offer, until every one
//! of them is seen; one that never is makes `n` rare.
//!
//! # Why it is fast
//! Offered values are bits in bitsets, and both loops run many splits a step
//! ([`super::lanes`]). The splits with a rare part are done for a batch of 16 consecutive
//! sizes at once, where the partners of one rare part are 16 contiguous values (one load, not
//! a gather), each offer a plain store ([`Offers`]); the few splits the batch cannot see (a
//! rare part below 16 or from the batch itself) are added size by size. Where the rare list is
//! long, a batch's offers are made while the batch before it is finished (from rare parts of
//! 32 or more, whose partners then all lie below that batch), in pieces that either thread
//! claims, the one that finishes the batch once it is done: each thread marks its pieces
//! into offers of its own, which stay in its cache (a set that went from one thread to the
//! other cost its cache lines each batch), and the two are merged. The pieces carry a
//! prefix of the common splits too, the part of the scan where it finds most values. The
//! rest of the scan of the common splits, the other half of the work, reads the values'
//! 16-bit copy while they fit.
//!
//! The mask is chosen again each time the length grows by a quarter, from the values'
//! frequencies (the one that makes the fewest sizes rare), and the rare list rebuilt.

use std::borrow::Cow;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

use super::code::OctalCode;
use super::held::Held;
use super::lanes::{BATCH, Kernel, Offers, clear};

/// Which split sorts the sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Split {
    /// A size is rare when `popcount(G & mask)` is even.
    Value,
    /// A size `s` is rare when `popcount(G & mask)` has the parity of `s + t`: codes whose only
    /// splitting digit is the last (0.007-like).
    Position,
}

impl Split {
    /// The rare parity of size `s` for a code whose last digit is `t`.
    #[inline(always)]
    pub fn rare_parity(self, s: usize, t: usize) -> usize {
        match self {
            Split::Value => 0,
            Split::Position => (s + t) & 1,
        }
    }
}

/// The parity of `popcount(v & mask)`, which sorts values into the two classes.
#[inline(always)]
pub fn parity(v: u32, mask: u32) -> usize {
    ((v & mask).count_ones() & 1) as usize
}

/// The sizes of `g` that are rare under `split` and `mask`, ascending (`t`: the code's last
/// digit).
pub fn rare_sizes(g: &[u32], split: Split, mask: u32, t: usize) -> impl Iterator<Item = usize> {
    (0..g.len()).filter(move |&s| parity(g[s], mask) == split.rare_parity(s, t))
}

/// The split used before the first choice from frequencies (any non-zero mask is exact; a
/// zero one would leave the value split no common class), and the length of that choice.
pub const FIRST_SPLIT: (Split, u32) = (Split::Value, 1);
pub const FIRST_CHOICE: usize = 64;

/// Rare sizes from which a batch's bitsets are made alongside the batch before it: with fewer,
/// the work is too small for a second thread to pay. Measured on Zen 5 (2026-12-05): from 256
/// rather than 2,048, Officers (0.6, 1,584 rare sizes) runs 1.6x faster, 0.14 (1,896) 1.4x and
/// Grundy's game (1,274) 1.6x; even from 32, 0.16 (53) lost nothing.
const OVERLAP_RARE: usize = 256;

/// Marks in `offers` the options of the batch of sizes `n0..n0 + BATCH` from the splits whose
/// one part is one of `pos` (sizes, ascending; `val` their values): most of the work, done
/// together for the batch because the partners of one part are then contiguous. Every partner
/// must lie within `g`.
fn offer_parts(
    kernel: Kernel,
    splits: &[usize],
    offers: &mut Offers,
    g: &[u32],
    (pos, val): (&[u32], &[u32]),
    n0: usize,
) {
    for &i in splits {
        if let Some(base) = n0.checked_sub(i) {
            kernel.offer_rare(offers, g, pos, val, base);
        }
    }
}

/// The parts a thread claims at a time when two mark a batch's offers: some 1,000 stores, so
/// that the thread done first waits for at most one such piece of the other's.
const PIECE: usize = 64;

/// The longest prefix of common splits offered with a batch.
const MAX_PREFIX: usize = 4096;

/// The sizes below [`MAX_PREFIX`], as the part lists of [`offer_batch`] give them.
static SIZES: [u32; MAX_PREFIX] = {
    let mut sizes = [0; MAX_PREFIX];
    let mut a = 0;
    while a < MAX_PREFIX {
        sizes[a] = a as u32;
        a += 1;
    }
    sizes
};

/// Sizes between two tunings of the [`Prefix`].
const TUNE_EVERY: usize = 4096;

/// The common splits `a + (left - a)`, `a` in `2 * BATCH..len`, that a batch made alongside
/// the one before offers with its rare splits, as one more list of parts whose partners are
/// contiguous. The scan finds most wanted values early (the commonest), each at the cost of a
/// mispredicted branch and a reload of its bitset, some 50 cycles (perf, Zen 5), where a split
/// offered with the batch costs about one: the prefix moves that part of the scan to the other
/// thread. `len` doubles while the scan past it finds more than one value per 64 splits of it
/// per size, and halves when below one per 256 (between the two it stays, so that it settles).
#[derive(Default)]
struct Prefix {
    len: usize,
    sizes: usize,
    found: usize,
}

impl Prefix {
    /// Takes in one size's scan, which found `found` wanted values past the prefix.
    fn tally(&mut self, found: u32) {
        self.sizes += 1;
        self.found += found as usize;
        if self.sizes == TUNE_EVERY {
            let reach = self.len.max(2 * BATCH);
            if self.found * 64 > self.sizes * reach {
                self.len = (2 * reach).min(MAX_PREFIX);
            } else if self.found * 256 < self.sizes * reach {
                self.len = match self.len / 2 {
                    half if half > 2 * BATCH => half,
                    _ => 0,
                };
            }
            (self.sizes, self.found) = (0, 0);
        }
    }
}

/// Masks are chosen among the values' lowest bits: enough for every published game.
const MASK_BITS: u32 = 12;

/// The values of one code, computed by the rare/common split; extended on demand.
pub struct Engine {
    /// The code, for messages.
    code: String,
    t: usize,
    /// `(i, leaves nothing, leaves one heap)` for each digit with a 1- or 2-bit.
    takes: Vec<(usize, bool, bool)>,
    /// The indices of the digits with a 4-bit.
    splits: Vec<usize>,
    /// Whether each of `splits` has a `!`: its heaps are unequal, so its split in two equal
    /// halves (value 0) is no move.
    unequal: Vec<bool>,
    /// For a code with a `!`: the sums `a + b` of two rare sizes `a < b` of equal value (whose
    /// split offers 0), one bit each, and the rare sizes of each value, to find them. The
    /// batch's bitsets count a rare size's equal halves too, so bit 0 is found again here.
    zero_sums: Option<ZeroSums>,
    /// Whether the position split is exact for this code (its one splitting digit is `t`).
    position_allowed: bool,
    split: Split,
    mask: u32,
    kernel: Kernel,
    g: Held<u32>,
    /// `g` in 16 bits while every value fits (the AVX2 scan reads twice the splits a step),
    /// `None` from the first value that does not.
    narrow: Option<Held<u16>>,
    /// A bounded run's ends ([`Ends`]); `None`: every value is held.
    ends: Option<Ends>,
    /// Rare sizes, ascending, and their values (apart, for the kernels' loads).
    rare_pos: Vec<u32>,
    rare_val: Vec<u32>,
    /// Size at which the mask is chosen again.
    next_split: usize,
    /// The largest value so far.
    max: u32,
    /// `span`, a power of two above `max`: every xor of two values is below it.
    span: u32,
    /// `class[q]`: the values below `span` whose parity is `q`, one bit each.
    class: [Vec<u64>; 2],
    /// The values below `span` not offered to the size being computed.
    open: Vec<u64>,
    /// The batch's bitsets from [`Kernel::offer_rare`], `batch_words` words each, for the
    /// rare parts in `batch_small..batch_cut`.
    batch_open: Vec<u64>,
    batch_words: usize,
    batch_small: usize,
    batch_cut: usize,
    /// The next batch's bitsets, made alongside this one: the part of each thread.
    next_open: [Vec<u64>; 2],
    /// The offers of the batch, and of the next one made alongside it (each thread's part),
    /// as they are made.
    offers: Offers,
    next_offers: [Offers; 2],
    /// The common splits offered with a batch made alongside the one before.
    prefix: Prefix,
    /// Where the scan of the batch's common splits goes on from `2 * BATCH` (0: the batch
    /// was made before it, by the thread that finishes it, with no prefix).
    batch_prefix: usize,
    /// The rare-class values still to be found among the common-common splits.
    want: Vec<u64>,
}

/// A value that does not fit `u32` (never for a published game): an error, never a wrap.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("heap sizes of {code} past {n} do not fit 32 bits")]
pub struct TooLarge {
    pub code: String,
    pub n: usize,
}

/// A bounded engine between two steps ([`Engine::bounded_state`]): the values it holds, and
/// what it made of those it handed back (the rare lists, the split, the prefix's tuning).
/// The lists borrow the engine's when it is saved (no copy of the ends beside them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundedState<'a> {
    /// `G(0..h)`, `h` the head or every value computed if fewer.
    pub head: Cow<'a, [u32]>,
    /// The first size of `tail`: at least the head's end.
    pub from: usize,
    /// `G(from..len)`: every value held past the head.
    pub tail: Cow<'a, [u32]>,
    /// Past the head, sizes below this are handed back (0: none yet).
    pub dropped_to: usize,
    /// Whether the values so far fit 16 bits (the engine keeps a 16-bit copy while they do).
    pub narrow: bool,
    pub split: Split,
    pub mask: u32,
    pub rare_pos: Cow<'a, [u32]>,
    pub rare_val: Cow<'a, [u32]>,
    pub max: u32,
    pub span: u32,
    pub next_split: usize,
    /// The prefix of common splits (`Prefix`): its length and its tally since it was last
    /// tuned.
    pub prefix: [usize; 3],
}

impl BoundedState<'_> {
    /// The values computed.
    pub fn computed(&self) -> usize {
        self.from + self.tail.len()
    }
}

/// What a bounded run holds: the values of sizes below `head`, and the last `tail`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    pub head: usize,
    pub tail: usize,
}

/// The least `head` and `tail` a bounded run takes: the tail holds every size a move that
/// leaves one heap reads, the head every rare part the batches leave to size-by-size splits.
pub const LEAST_END: usize = 64 * BATCH;

/// A value whose proof reads a value a bounded run no longer holds: the run stops, never
/// guesses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "G({n}) of {code} needs G({needed}) (the split of {left} into {part} + {needed}), which this \
     bounded run no longer holds: it keeps G(0..{head}) and the last {tail} values; rerun with \
     a larger --mem-budget (its quarters size the two ends), or without --bounded"
)]
pub struct Outside {
    pub code: String,
    pub n: usize,
    pub left: usize,
    pub part: usize,
    pub needed: usize,
    pub head: usize,
    pub tail: usize,
}

/// Why the engine stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    #[error(transparent)]
    Outside(#[from] Outside),
}

impl Engine {
    /// The engine with the fastest kernel this CPU runs.
    pub fn new(code: &OctalCode) -> Self {
        Self::with_kernel(code, Kernel::detect())
    }

    /// The engine of a bounded run to `len` values (at most), which holds only `ends` of them:
    /// `None` where the system gives no room for them. The tail must hold every size a take
    /// reads (`t` back), which no check before a read covers.
    pub fn bounded(code: &OctalCode, len: usize, ends: Ends) -> Option<Self> {
        assert!(
            ends.head >= LEAST_END && ends.tail >= LEAST_END + code.t(),
            "ends of {ends:?} for {code}"
        );
        let room = len + BATCH;
        Some(Engine {
            g: Held::Ends(super::held::Ends::new(room, ends.head)?),
            narrow: Some(Held::Ends(super::held::Ends::new(room, ends.head)?)),
            ends: Some(ends),
            ..Self::new(code)
        })
    }

    /// A bounded engine's state between two calls of [`Self::extend`], for its checkpoint
    /// (`None` for an engine that holds every value).
    pub fn bounded_state(&self) -> Option<BoundedState<'_>> {
        let ends = self.ends?;
        let len = self.g.len();
        let head = len.min(ends.head);
        let dropped_to = self.g.tail_from();
        let from = dropped_to.max(head);
        Some(BoundedState {
            head: Cow::Borrowed(&self.g[..head]),
            from,
            tail: Cow::Borrowed(&self.g[from..]),
            dropped_to,
            narrow: self.narrow.is_some(),
            split: self.split,
            mask: self.mask,
            rare_pos: Cow::Borrowed(&self.rare_pos),
            rare_val: Cow::Borrowed(&self.rare_val),
            max: self.max,
            span: self.span,
            next_split: self.next_split,
            prefix: [self.prefix.len, self.prefix.sizes, self.prefix.found],
        })
    }

    /// The bounded engine of `code` to `len` values, holding `ends`, that `state` saved:
    /// what it computes from there is what the run that saved it would have. `None` where
    /// the system gives no room for the values.
    pub fn resume_bounded(
        code: &OctalCode,
        len: usize,
        ends: Ends,
        state: BoundedState,
    ) -> Option<Self> {
        let room = len.max(state.computed()) + BATCH;
        let (head, from, dropped_to) = (ends.head, state.from, state.dropped_to);
        let (first, last) = (state.head.iter().copied(), state.tail.iter().copied());
        let held = Held::resumed_ends(room, head, first, from, last, dropped_to)?;
        let narrow = if state.narrow {
            // Every value so far fits 16 bits: the copy is the values'.
            let (first, last) = (state.head.iter(), state.tail.iter());
            let (first, last) = (first.map(|&v| v as u16), last.map(|&v| v as u16));
            Some(Held::resumed_ends(
                room, head, first, from, last, dropped_to,
            )?)
        } else {
            None
        };
        let [len, sizes, found] = state.prefix;
        let mut engine = Engine {
            g: held,
            narrow,
            ends: Some(ends),
            split: state.split,
            mask: state.mask,
            max: state.max,
            span: state.span,
            next_split: state.next_split,
            prefix: Prefix { len, sizes, found },
            ..Self::new(code)
        };
        if let Some(zero) = &mut engine.zero_sums {
            for (&s, &v) in state.rare_pos.iter().zip(state.rare_val.iter()) {
                zero.add(s as usize, v);
            }
        }
        (engine.rare_pos, engine.rare_val) =
            (state.rare_pos.into_owned(), state.rare_val.into_owned());
        engine.build_classes();
        Some(engine)
    }

    /// The engine with the given kernel (tests compare them).
    pub fn with_kernel(code: &OctalCode, kernel: Kernel) -> Self {
        let digits = code.digits();
        let t = code.t();
        let takes = (1..digits.len())
            .filter(|&i| digits[i] & 3 != 0)
            .map(|i| (i, digits[i] & 1 != 0, digits[i] & 2 != 0))
            .collect();
        let splits = code.split_indices();
        let unequal: Vec<bool> = splits.iter().map(|&i| code.unequal(i)).collect();
        let zero_sums = unequal.contains(&true).then(ZeroSums::default);
        let position_allowed = code.splits_only_last();
        let mut engine = Engine {
            code: code.to_string(),
            t,
            takes,
            splits,
            unequal,
            zero_sums,
            position_allowed,
            split: FIRST_SPLIT.0,
            mask: FIRST_SPLIT.1,
            kernel,
            g: Held::all(),
            narrow: Some(Held::all()),
            ends: None,
            rare_pos: Vec::new(),
            rare_val: Vec::new(),
            next_split: FIRST_CHOICE,
            max: 0,
            span: 64,
            class: [Vec::new(), Vec::new()],
            open: Vec::new(),
            batch_open: Vec::new(),
            batch_words: 0,
            batch_small: BATCH,
            batch_cut: 0,
            next_open: Default::default(),
            prefix: Prefix::default(),
            batch_prefix: 0,
            offers: Offers::default(),
            next_offers: Default::default(),
            want: Vec::new(),
        };
        engine.build_classes();
        engine
    }

    /// The values computed so far.
    pub fn values(&self) -> &[u32] {
        &self.g
    }

    /// The largest value computed so far.
    pub fn max(&self) -> u32 {
        self.max
    }

    /// The split in use: its kind, mask, and the rare sizes, ascending.
    pub fn split(&self) -> (Split, u32, &[u32]) {
        (self.split, self.mask, &self.rare_pos)
    }

    /// The rare parity of size `s`.
    #[inline(always)]
    fn rare_parity(&self, s: usize) -> usize {
        self.split.rare_parity(s, self.t)
    }

    #[inline(always)]
    fn parity(&self, v: u32) -> usize {
        parity(v, self.mask)
    }

    /// The class bitsets for the mask and span in use.
    fn build_classes(&mut self) {
        let words = self.span as usize / 64;
        for q in 0..2 {
            let mut bits = vec![0u64; words];
            for v in (0..self.span).filter(|&v| self.parity(v) == q) {
                bits[v as usize / 64] |= 1 << (v % 64);
            }
            self.class[q] = bits;
        }
    }

    /// Computes values up to `len` (at least), a batch of up to [`BATCH`] sizes at a time.
    pub fn extend(&mut self, len: usize) -> Result<(), EngineError> {
        // On a pool thread, the batches' joins (`finish_overlapped`) are the pool's own: from
        // any other thread each join hands both halves to the pool and sleeps on a latch, a
        // futex wait and wake every 16 sizes (15% of 0.007's time to 2^19, in the kernel).
        rayon::scope(|_| self.extend_on_pool(len))
    }

    fn extend_on_pool(&mut self, len: usize) -> Result<(), EngineError> {
        // Room for every value and rare size to come, so that the buffers never move while
        // a thread reads their prefixes (`finish_overlapped`).
        let more = len.saturating_sub(self.g.len()) + BATCH;
        self.g.reserve(more);
        if let Some(narrow) = &mut self.narrow {
            narrow.reserve(more);
        }
        self.rare_pos.reserve(more);
        self.rare_val.reserve(more);
        // Whether `batch_open` already holds the batch at `g.len()` (made during the last one).
        let mut ready = false;
        while self.g.len() < len {
            let n0 = self.g.len();
            if self.split_if_due() {
                ready = false;
                // The rare lists may be new: room again for every append to come.
                self.rare_pos.reserve(more);
                self.rare_val.reserve(more);
            }
            let batch = BATCH.min(len - n0).min(self.next_split - n0);
            // Sizes are kept as u32 in the rare list.
            if u32::try_from(n0 + batch).is_err() {
                return Err(TooLarge {
                    code: self.code.clone(),
                    n: n0,
                }
                .into());
            }
            self.check_rare_partners(n0)?;
            if !ready {
                let words = self.span as usize / 64;
                let from = self.rare_pos.partition_point(|&s| (s as usize) < BATCH);
                let (g, pos, val) = (&self.g[..], &self.rare_pos[from..], &self.rare_val[from..]);
                self.offers.reset(self.span as usize);
                offer_parts(
                    self.kernel,
                    &self.splits,
                    &mut self.offers,
                    g,
                    (pos, val),
                    n0,
                );
                self.offers.open_bitsets(&mut self.batch_open);
                (self.batch_words, self.batch_small, self.batch_cut) = (words, BATCH, n0);
                self.batch_prefix = 0;
            }
            let next = n0 + batch;
            let long = self.rare_pos.len() >= OVERLAP_RARE;
            ready = long && next < len && next < self.next_split;
            if ready {
                self.finish_overlapped(n0, batch)?;
            } else {
                self.finish(n0, batch)?;
            }
            if let Some(ends) = self.ends {
                let past = self.g.len().saturating_sub(ends.tail);
                self.g.drop_before(past);
                if let Some(narrow) = &mut self.narrow {
                    narrow.drop_before(past);
                }
            }
        }
        Ok(())
    }

    /// In a bounded run, that every value the splits with a rare part read for the sizes
    /// `n0..n0 + 2 * BATCH` (this batch, and the next, whose bitsets may be made alongside it)
    /// is held: a partner `left - s` of a rare part `s` below the head or in the tail.
    fn check_rare_partners(&self, n0: usize) -> Result<(), Outside> {
        let Some(Ends { head, tail }) = self.ends else {
            return Ok(());
        };
        let tail_from = self.g.tail_from();
        if tail_from <= head {
            return Ok(());
        }
        for &i in &self.splits {
            let Some(first) = n0.checked_sub(i) else {
                continue;
            };
            let last = first + 2 * BATCH - 1;
            // Partners in [head, tail_from): s in (left - tail_from, left - head] for some left.
            let (above, upto) = (first.saturating_sub(tail_from), last.saturating_sub(head));
            let k = self.rare_pos.partition_point(|&s| (s as usize) <= above);
            if let Some(&s) = self.rare_pos.get(k).filter(|&&s| (s as usize) <= upto) {
                let s = s as usize;
                let left = first.max(s + head);
                return Err(Outside {
                    code: self.code.clone(),
                    n: left + i,
                    left,
                    part: s,
                    needed: left - s,
                    head,
                    tail,
                });
            }
        }
        Ok(())
    }

    /// Chooses the split again if the values have reached the size for it; whether it did.
    fn split_if_due(&mut self) -> bool {
        let due = self.g.len() == self.next_split;
        if due {
            self.choose_split();
            self.next_split += self.next_split / 4;
        }
        due
    }

    /// Takes in values computed before (a checkpoint's) as if computed here, splits chosen
    /// again at the same sizes: what follows is what an unbroken run computes and reports.
    pub fn adopt(&mut self, values: &[u32]) -> Result<(), EngineError> {
        if u32::try_from(self.g.len() + values.len()).is_err() {
            return Err(TooLarge {
                code: self.code.clone(),
                n: self.g.len(),
            }
            .into());
        }
        for &v in values {
            self.split_if_due();
            self.push(self.g.len(), v);
        }
        Ok(())
    }

    /// Computes the batch's values, `batch_open` holding its options from the bulk of the
    /// splits with a rare part.
    fn finish(&mut self, n0: usize, batch: usize) -> Result<(), Outside> {
        for l in 0..batch {
            let n = n0 + l;
            let v = self.next_value(n, l)?;
            self.push(n, v);
        }
        Ok(())
    }

    /// Where the prefix a batch from `n0` made alongside the one before offers ends (its
    /// splits are `a` in `2 * BATCH..end`; none where `end` is `2 * BATCH`): they are proper
    /// and unequal (`a < left / 2`), and in a bounded run both parts are held (the partners
    /// within the last `tail`, as the batch before reads them).
    fn prefix_end(&self, n0: usize) -> usize {
        let mut len = self.prefix.len;
        if let Some(Ends { head, tail }) = self.ends {
            len = len.min(head).min(tail.saturating_sub(self.t + 4 * BATCH));
        }
        if n0 < 4 * len + 4 * BATCH + self.t || len <= 2 * BATCH {
            return 2 * BATCH;
        }
        len
    }

    /// [`Self::finish`], while another thread makes the next batch's bitsets (into
    /// `next_open`, then swapped in), joined by this one once done, from what is known before
    /// this batch: the rare sizes below `n0` from 2 * BATCH up, whose partners for the next
    /// batch all lie below `n0`.
    /// The next batch's size-by-size splits then take the rare parts below 2 * BATCH and from
    /// `n0` on.
    fn finish_overlapped(&mut self, n0: usize, batch: usize) -> Result<(), Outside> {
        let words = self.span as usize / 64;
        let from = self.rare_pos.partition_point(|&s| (s as usize) < 2 * BATCH);
        let to = self.rare_pos.len();
        // SAFETY: the prefixes `g[..n0]` and the rare lists' first `to` entries are written
        // by no one while these views live (until the join below returns): the batch only
        // appends past them, and `extend` reserved room for every append, so the buffers do
        // not move. (`Vec::as_ptr` makes no reference to the whole buffer, and the appends
        // write through the vectors' own pointers past the viewed ends.)
        let (g, pos, val) = unsafe {
            (
                std::slice::from_raw_parts(self.g.as_ptr(), n0),
                std::slice::from_raw_parts(self.rare_pos.as_ptr().add(from), to - from),
                std::slice::from_raw_parts(self.rare_val.as_ptr().add(from), to - from),
            )
        };
        let (kernel, splits) = (self.kernel, self.splits.clone());
        let span = self.span;
        let prefix = self.prefix_end(n0 + batch);
        let (ppos, pval) = (&SIZES[2 * BATCH..prefix], &g[2 * BATCH..prefix]);
        // The rare list, then the prefix, in pieces that either thread claims.
        let cut = pos.len().div_ceil(PIECE);
        let pieces = cut + ppos.len().div_ceil(PIECE);
        let piece = |i: usize| {
            let (pos, val, i) = if i < cut {
                (pos, val, i)
            } else {
                (ppos, pval, i - cut)
            };
            let items = PIECE * i..pos.len().min(PIECE * (i + 1));
            (&pos[items.clone()], &val[items])
        };
        let claimed = AtomicUsize::new(0);
        // Each thread marks its pieces into offers of its own, which stay in its cache from
        // batch to batch, and makes their bitsets; the two sets are merged below.
        let mark = |offers: &mut Offers, open: &mut Vec<u64>| {
            offers.reset(span as usize);
            loop {
                let i = claimed.fetch_add(1, Relaxed);
                if i >= pieces {
                    break;
                }
                offer_parts(kernel, &splits, offers, g, piece(i), n0 + batch);
            }
            offers.open_bitsets(open);
        };
        let [mut mine, mut theirs] = std::mem::take(&mut self.next_offers);
        let [mut my_open, mut their_open] = std::mem::take(&mut self.next_open);
        let (done, ()) = rayon::join(
            || {
                let done = self.finish(n0, batch);
                mark(&mut mine, &mut my_open);
                done
            },
            || mark(&mut theirs, &mut their_open),
        );
        for (w, o) in my_open.iter_mut().zip(&their_open) {
            *w &= o;
        }
        std::mem::swap(&mut self.batch_open, &mut my_open);
        self.next_offers = [mine, theirs];
        self.next_open = [my_open, their_open];
        (self.batch_words, self.batch_small, self.batch_cut) = (words, 2 * BATCH, n0);
        self.batch_prefix = prefix;
        done
    }

    /// Takes in `G(n) = v`: the values, the rare list, the largest value and the span.
    fn push(&mut self, n: usize, v: u32) {
        if self.parity(v) == self.rare_parity(n) {
            self.rare_pos.push(n as u32);
            self.rare_val.push(v);
            if let Some(zero) = &mut self.zero_sums {
                zero.add(n, v);
            }
        }
        if v >= self.max {
            self.max = v;
            if v >= self.span {
                self.span *= 2;
                self.build_classes();
            }
        }
        self.g.push(v);
        match u16::try_from(v) {
            Ok(v) => {
                if let Some(narrow) = &mut self.narrow {
                    narrow.push(v);
                }
            }
            Err(_) => self.narrow = None,
        }
    }

    /// `G(n)` for the size `n`, lane `l` of its batch, the values below `n` known (in a bounded
    /// run, those it reads held: else the error says which it needs).
    fn next_value(&mut self, n: usize, l: usize) -> Result<u32, Outside> {
        let words = self.span as usize / 64;
        let lane = &self.batch_open[l * self.batch_words..][..self.batch_words];
        self.open.clear();
        self.open.extend_from_slice(lane);
        // A value past the batch's span is offered by no split of values from before it.
        self.open.resize(words, !0);
        if let Some(zero) = &self.zero_sums {
            // 0 again, from the splits that offer it but a `!` digit's equal halves: the
            // pairs of rare sizes (an equal value means an equal class), and the equal
            // halves of a digit without `!`. Common pairs are the scan's.
            self.open[0] |= 1;
            for (&i, &unequal) in self.splits.iter().zip(&self.unequal) {
                let Some(left) = n.checked_sub(i).filter(|&left| left >= 2) else {
                    continue;
                };
                if zero.has(left) || (!unequal && left.is_multiple_of(2)) {
                    clear(&mut self.open, 0);
                }
            }
        }
        for &(i, nothing, one) in &self.takes {
            if i > n {
                break;
            }
            if nothing && i == n {
                clear(&mut self.open, 0);
            }
            if one && i < n {
                clear(&mut self.open, self.g[n - i]);
            }
        }
        // The splits with a rare part that the batch's bitsets left out: a part below
        // `batch_small`, or one from `batch_cut` on (the batch itself, and the one before it
        // when they were made alongside it). Every option of the common class for n comes from
        // a split with a rare part.
        let (small, cut) = (self.batch_small, self.batch_cut.max(self.batch_small));
        let small = self.rare_pos.partition_point(|&s| s == 0)
            ..self.rare_pos.partition_point(|&s| (s as usize) < small);
        let recent = self.rare_pos.partition_point(|&s| (s as usize) < cut);
        for (&i, &unequal) in self.splits.iter().zip(&self.unequal) {
            if n < i + 2 {
                continue;
            }
            let left = n - i;
            let end = self.rare_pos.partition_point(|&s| (s as usize) < left);
            for k in small.clone().chain(recent..end) {
                let s = self.rare_pos[k] as usize;
                if s < left && !(unequal && 2 * s == left) {
                    clear(&mut self.open, self.rare_val[k] ^ self.g[left - s]);
                }
            }
        }
        // The least value of n's common class not offered; past `span` nothing is offered, so
        // `span` itself is then the least value not offered.
        let rare_class = &self.class[self.rare_parity(n)];
        let common = (0..words)
            .find_map(|w| {
                let free = self.open[w] & !rare_class[w];
                (free != 0).then(|| 64 * w as u32 + free.trailing_zeros())
            })
            .unwrap_or(self.span);
        // The rare-class values below it that no listed option offers: each must come from a
        // split of two common parts, or it is G(n).
        self.want.clear();
        self.want.extend((0..words).map(|w| {
            let below = match (common as usize).checked_sub(64 * w) {
                Some(k) if k < 64 => (1u64 << k) - 1,
                Some(_) => !0,
                None => 0,
            };
            self.open[w] & rare_class[w] & below
        }));
        let mut wanted: u32 = self.want.iter().map(|w| w.count_ones()).sum();
        // A bounded run reads splits `a + (left - a)` with `a` in the head and `left - a` in
        // the tail only: the first split it could not read, if a wanted value is left.
        let mut unread = None;
        // Wanted values found past the prefix, to tune its length.
        let mut found = 0;
        let tail_from = self.g.tail_from();
        for (&i, &unequal) in self.splits.iter().zip(&self.unequal) {
            if wanted == 0 {
                break;
            }
            if n < i + 2 {
                continue;
            }
            let left = n - i;
            // A `!` digit's splits stop short of the equal halves.
            let last = if unequal { (left - 1) / 2 } else { left / 2 };
            let held = match self.ends {
                Some(ends) if tail_from > ends.head => {
                    last.min(ends.head - 1).min(left.saturating_sub(tail_from))
                }
                _ => last,
            };
            // The splits from `2 * BATCH` to the batch's prefix were offered with it.
            let ranges = [(1, 2 * BATCH - 1), (self.batch_prefix.max(2 * BATCH), last)];
            for (k, (first, to)) in ranges.into_iter().enumerate() {
                let before = wanted;
                wanted = self.kernel.offer_common(
                    &mut self.want,
                    &self.g,
                    self.narrow.as_deref(),
                    left,
                    first..=to.min(held),
                    wanted,
                );
                if k == 1 {
                    found += before - wanted;
                }
            }
            // The first split not read: past `held`, and past the prefix, which was read
            // while its splits were held.
            let unread_from = match held + 1 {
                a if a >= 2 * BATCH => a.max(self.batch_prefix),
                a => a,
            };
            if unread_from <= last && unread.is_none() {
                unread = Some((left, unread_from));
            }
        }
        if self.batch_prefix > 0 {
            self.prefix.tally(found);
        }
        if let (Some((left, a)), Some(Ends { head, tail })) =
            (unread.filter(|_| wanted != 0), self.ends)
        {
            let needed = if a >= head { a } else { left - a };
            return Err(Outside {
                code: self.code.clone(),
                n,
                left,
                part: left - needed,
                needed,
                head,
                tail,
            });
        }
        // The least value never offered.
        Ok((0..words)
            .find(|&w| self.want[w] != 0)
            .map_or(common, |w| 64 * w as u32 + self.want[w].trailing_zeros()))
    }

    /// Chooses the split and mask that make the fewest sizes rare, from the values' frequencies
    /// (by the parity of the size, for the position split, which only codes whose one splitting
    /// digit is the last may use), and rebuilds the rare list.
    fn choose_split(&mut self) {
        // Once a bounded run has handed values back, the rare list could not be made again:
        // it keeps its split (any split is exact; this one only goes on being fast or not).
        if self.g.tail_from() > 0 {
            return;
        }
        let (split, mask, _) = best_split(&self.g, self.t, self.position_allowed);
        if (split, mask) != (self.split, self.mask) {
            self.split = split;
            self.mask = mask;
            let rare: Vec<usize> = rare_sizes(&self.g, split, mask, self.t).collect();
            self.rare_pos = rare.iter().map(|&s| s as u32).collect();
            self.rare_val = rare.iter().map(|&s| self.g[s]).collect();
            if let Some(zero) = &mut self.zero_sums {
                *zero = ZeroSums::default();
                for &s in &rare {
                    zero.add(s, self.g[s]);
                }
            }
            self.build_classes();
        }
    }
}

/// The sums of two rare sizes of equal value, for a code with a `!` ([`Engine`]'s
/// `zero_sums`).
#[derive(Default)]
struct ZeroSums {
    /// Bit `m`: some two rare sizes `a < b` of equal value have `a + b = m`.
    sums: Vec<u64>,
    /// The rare sizes of each value.
    of_value: std::collections::HashMap<u32, Vec<usize>>,
}

impl ZeroSums {
    /// Takes in the rare size `s` of value `v`, past every one before it.
    fn add(&mut self, s: usize, v: u32) {
        // Heaps are never empty: size 0 is no part of a split.
        if s == 0 {
            return;
        }
        let same = self.of_value.entry(v).or_default();
        for &a in same.iter() {
            let m = a + s;
            if m / 64 >= self.sums.len() {
                self.sums.resize((m / 64 + 1).next_power_of_two(), 0);
            }
            self.sums[m / 64] |= 1 << (m % 64);
        }
        same.push(s);
    }

    /// Whether two rare sizes of equal value add up to `m`.
    fn has(&self, m: usize) -> bool {
        self.sums
            .get(m / 64)
            .is_some_and(|w| w >> (m % 64) & 1 != 0)
    }
}

/// The split and mask (over the values' lowest `MASK_BITS` bits) that make the fewest of the
/// sizes of `g` rare, and how many: the position split only where `position_allowed` (the
/// code's one splitting digit is its last, `t`).
pub fn best_split(g: &[u32], t: usize, position_allowed: bool) -> (Split, u32, u64) {
    let max = g.iter().copied().max().unwrap_or(0);
    let bits = (32 - max.leading_zeros()).clamp(1, MASK_BITS);
    let values = 1usize << bits;
    let mut count = vec![[0u64; 2]; values];
    for (s, &v) in g.iter().enumerate() {
        count[v as usize & (values - 1)][(s + t) & 1] += 1;
    }
    let rare_for = |split: Split, mask: u32| -> u64 {
        (0..values)
            .map(|v| {
                let parity = (v as u32 & mask).count_ones() & 1;
                match split {
                    Split::Value if parity == 0 => count[v][0] + count[v][1],
                    Split::Value => 0,
                    // Rare where the parity equals (s + t) & 1.
                    Split::Position => count[v][parity as usize],
                }
            })
            .sum()
    };
    let splits: &[Split] = if position_allowed {
        &[Split::Value, Split::Position]
    } else {
        &[Split::Value]
    };
    splits
        .iter()
        .flat_map(|&split| (1..values as u32).map(move |mask| (split, mask)))
        .map(|(split, mask)| (split, mask, rare_for(split, mask)))
        .min_by_key(|&(_, _, rare)| rare)
        .expect("some mask")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values taken in from a cut-short run, then computed on, are the unbroken run's, and so
    /// is the split the engine ends with (chosen again at the same sizes), on codes with a
    /// value split, a position split (0.6: Officers) and a 4 before the point.
    #[test]
    fn adopted_values_go_on_as_computed() {
        for code in ["0.007", "0.6", "0.1777", "4.07"] {
            let code: OctalCode = code.parse().unwrap();
            let mut whole = Engine::new(&code);
            whole.extend(40_000).unwrap();
            for cut in [1, 1_000, 12_345, 30_000] {
                let mut resumed = Engine::new(&code);
                resumed.adopt(&whole.values()[..cut]).unwrap();
                resumed.extend(40_000).unwrap();
                assert_eq!(resumed.values(), whole.values(), "{code} cut at {cut}");
                assert_eq!(resumed.split(), whole.split(), "{code} cut at {cut}");
            }
        }
    }

    /// A bounded engine made again from its state (as a resumed checkpoint makes it) goes on
    /// as the unbroken one: the same values held, rare lists, split and prefix at the end, or
    /// the same stop, cut at sizes before and after the first values are handed back, on codes
    /// with a value split, a position split, a `!` and a 4 before the point (0.16 and Kayles
    /// run through; the others stop, a rare part's partner no longer held).
    #[test]
    fn bounded_engines_go_on_from_their_state() {
        let (n, ends) = (
            1 << 17,
            Ends {
                head: 32_768,
                tail: 32_768,
            },
        );
        for code in ["0.6", "0.007", "4!.0", "0.16", "4.07", "0.77"] {
            let code: OctalCode = code.parse().unwrap();
            // The same calls of `extend` (a batch begins each, which the prefix's tuning
            // counts), one engine made again from its state after each.
            let mut whole = Engine::bounded(&code, n, ends).unwrap();
            let mut cut = Engine::bounded(&code, n, ends).unwrap();
            for to in [5_001, 20_000, 40_960, 77_777, n] {
                let (whole_end, cut_end) = (whole.extend(to), cut.extend(to));
                assert_eq!(cut_end, whole_end, "{code} to {to}");
                let state = cut.bounded_state().unwrap();
                cut = Engine::resume_bounded(&code, n, ends, state).unwrap();
                if cut_end.is_err() {
                    break;
                }
            }
            assert_eq!(cut.bounded_state(), whole.bounded_state(), "{code}");
        }
    }

    /// Whatever prefix of common splits the batches offer, the values are the same: the
    /// prefix set from the start at several lengths (then tuned as the run goes), on codes
    /// whose batches are made alongside the one before (value split, position split, `!`).
    #[test]
    fn any_prefix_gives_the_same_values() {
        for (code, len) in [("0.6", 60_000), ("0.007", 30_000), ("4!.0", 60_000)] {
            let code: OctalCode = code.parse().unwrap();
            let mut plain = Engine::with_kernel(&code, Kernel::Plain);
            plain.extend(len).unwrap();
            for start in [0, 64, 1000, MAX_PREFIX] {
                let mut engine = Engine::new(&code);
                engine.prefix.len = start;
                engine.extend(len).unwrap();
                assert_eq!(
                    engine.values(),
                    plain.values(),
                    "{code} from a prefix of {start}"
                );
                // The last batch was made with a prefix (each code's scans tune one in).
                assert!(engine.batch_prefix > 2 * BATCH, "{code} from {start}");
            }
        }
    }

    /// Codes with `!` (Grundy's game and others that split into two unequal heaps) equal the
    /// reference, with every kernel this CPU runs.
    #[test]
    fn unequal_splits_equal_the_reference() {
        for code in [
            "4!.0", "0.4!", "0.04!", "4!.4", "0.54!", "4!.34!", "0.3744!", "4!.7",
        ] {
            let code: OctalCode = code.parse().unwrap();
            let want = crate::octal::reference::values(&code, 3000);
            for kernel in Kernel::available() {
                let mut engine = Engine::with_kernel(&code, kernel);
                engine.extend(3000).unwrap();
                assert_eq!(engine.values(), &want[..], "{code} {kernel:?}");
            }
        }
    }
}
