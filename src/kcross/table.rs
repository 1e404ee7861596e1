//! The value of every component that fits a board of `n` cells, computed level by level
//! (docs/kcross.md): a move lowers the number of live cells `E`, so all states of one level depend
//! only on lower levels and are computed in parallel, on all cores or as GPU dispatches.
//!
//! Reversal keeps the value, so only one vector of each pair is valued from its options
//! ([`Sums::valued_of_its_pair`]); the value goes to the reversal's place too.
//!
//! Values start at 4 bits. The first value over 15 widens the table to 8 bits in place (the
//! finished levels are copied) if the budget allows, and the level is computed again.

use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;

use super::board::Board;
use super::components::components;
use super::layout::{Layout, MAX_N, WIDE};
use super::pieces::Sums;
use crate::gpu::GpuError;
use crate::memory::{Budget, OverBudget, human_bytes};
use crate::mex::MexSet;
use crate::output::checkpoint::{Checkpoint, CheckpointError, Saved};

/// What can stop a table build.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    #[error(
        "rings of {l} cells (k = {k}) need more than {entries} cyclic positions remembered, over what the memory budget leaves ({}); raise --mem-budget",
        human_bytes(*budget)
    )]
    RingsOverBudget {
        k: usize,
        l: usize,
        entries: u64,
        budget: u64,
    },
    #[error("boards of {n} cells are past the limit of {engine}: {limit} cells")]
    TooLong {
        n: usize,
        limit: usize,
        /// Which engine: [`TABLE_ENGINE`] or [`RAW_RULES_ENGINE`].
        engine: &'static str,
    },
    #[error("{what} (k = {k}) has a value over {max}, which does not fit the table")]
    ValueTooLarge { k: usize, what: String, max: u32 },
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// The component table's name in [`TableError::TooLong`].
pub const TABLE_ENGINE: &str = "the component table (backends cpu and gpu)";
/// The raw rules' name in [`TableError::TooLong`].
pub const RAW_RULES_ENGINE: &str = "the raw rules (backend reference)";

/// A checkpoint a CPU build saves its finished levels to, and resumes from.
#[derive(Clone, Copy, Debug)]
pub struct Resumable<'a> {
    pub path: &'a Path,
    /// Continue the build saved there (else the file must not exist yet).
    pub resume: bool,
}

/// Refuses `layout` if its table does not fit `budget`.
pub fn check_budget(layout: &Layout, budget: Budget) -> Result<(), TableError> {
    budget.check(layout.bytes(), || {
        format!(
            "the table of k = {} up to n = {} ({} states at {} bits each)",
            layout.k,
            layout.n,
            layout.states(),
            layout.bits
        )
    })?;
    Ok(())
}

/// A (narrow) layout for `k` up to `n` cells, refused before any allocation if it does not fit
/// `budget` bytes.
pub fn plan(k: usize, n: usize, budget: Budget) -> Result<Layout, TableError> {
    if n > MAX_N {
        return Err(TableError::TooLong {
            n,
            limit: MAX_N,
            engine: TABLE_ENGINE,
        });
    }
    let layout = Layout::new(k, n);
    check_budget(&layout, budget)?;
    Ok(layout)
}

/// Component values in the layout's order and width.
pub struct ValueTable {
    pub layout: Layout,
    words: Vec<u32>,
}

/// A stretch of one block handled by one task: words `[lo, hi)` of block `(e, s)`.
#[derive(Clone, Copy, Debug)]
struct Task {
    e: usize,
    s: usize,
    lo: u64,
    hi: u64,
}

/// Words per CPU task: enough to amortise the unranking, small enough to balance.
const TASK_WORDS: u64 = 1 << 10;

impl Task {
    /// The tasks covering level `e`, in order.
    fn level(layout: &Layout, e: usize) -> Vec<Task> {
        let mut tasks = Vec::new();
        for s in 0..=layout.n - e {
            let start = layout.block_start(e, s);
            let end = start + layout.block_len(e, s).div_ceil(layout.per_word());
            let mut lo = start;
            while lo < end {
                let hi = (lo + TASK_WORDS).min(end);
                tasks.push(Task { e, s, lo, hi });
                lo = hi;
            }
        }
        tasks
    }

    /// The ranks of the task's states (its last word may be part padding).
    fn ranks(&self, layout: &Layout) -> std::ops::Range<u64> {
        let start = layout.block_start(self.e, self.s);
        let len = layout.block_len(self.e, self.s);
        let per_word = layout.per_word();
        (self.lo - start) * per_word..((self.hi - start) * per_word).min(len)
    }

    /// Runs `f(v, sums)` on every state of the task that [`Sums::valued_of_its_pair`] picks,
    /// in rank order, with `sums` refreshed (`value` reads the lower levels); the others are
    /// stepped over, a shared suffix at a time.
    fn for_each_valued_state(
        &self,
        layout: &Layout,
        sums: &mut Sums,
        value: impl Fn(u64) -> u32 + Copy,
        mut f: impl FnMut(&[u8], &mut Sums),
    ) {
        let ranks = self.ranks(layout);
        let mut v = [0u8; MAX_N + 1];
        let v = &mut v[..=self.e];
        layout.unrank(self.e, self.s, ranks.start, v);
        sums.load(layout, v);
        loop {
            let next = match Sums::valued_of_its_pair(v) {
                Ok(()) => {
                    sums.refresh(layout, v, value);
                    if sums.rank() >= ranks.end {
                        return;
                    }
                    f(v, sums);
                    layout.advance(v, self.e)
                }
                Err(from) => layout.skip_past(v, self.e, from),
            };
            match next {
                Some(i) => sums.step(i),
                None => return,
            }
        }
    }
}

/// The value at state index `index`.
#[inline]
fn value_at(layout: &Layout, words: &[AtomicU32], index: u64) -> u32 {
    let (w, shift) = layout.slot(index);
    layout.extract(words[w].load(Ordering::Relaxed), shift)
}

/// [`value_at`] for a table of `BITS` bits per value (the layout's), with the slot arithmetic
/// constant and no bounds check: this is the innermost read of the table build, and a check or
/// a clamp here cost 4% to 10% of its instructions (callgrind, depending on the other checks).
///
/// # Safety
/// `index` is a state of the table: `index < words.len() * 32 / BITS`.
#[inline(always)]
unsafe fn value_of<const BITS: u32>(words: &[AtomicU32], index: u64) -> u32 {
    let per_word_log2 = 5 - BITS.trailing_zeros();
    let shift = (index as u32 & ((1 << per_word_log2) - 1)) * BITS;
    let w = (index >> per_word_log2) as usize;
    debug_assert!(w < words.len(), "state {index} outside the table");
    // SAFETY: w < words.len() by the caller's contract.
    unsafe { words.get_unchecked(w) }.load(Ordering::Relaxed) >> shift & ((1 << BITS) - 1)
}

/// The mex of the options of `v`, `value` reading the table below its level (`BITS` bits per
/// value).
#[inline(always)]
fn mex_of_options<const BITS: u32>(
    layout: &Layout,
    value: impl Fn(u64) -> u32,
    sums: &Sums,
    v: &[u8],
) -> Result<u32, TableError> {
    debug_assert_eq!(layout.bits, BITS);
    let value = |i| {
        let (left, right) = sums.left_and_right_value(i);
        value(left) ^ right
    };
    let mex = if BITS <= 4 {
        // Option values are below 16: one word of flags. The `& 15` changes no value (both
        // sides of an option's XOR are below 16) but lets the compiler drop two masks from
        // the loop (3% of the build's instructions, callgrind).
        let seen = (1..v.len()).fold(0u32, |seen, i| seen | 1 << (value(i) & 15));
        (!seen).trailing_zeros()
    } else {
        let mut seen = MexSet::default();
        (1..v.len()).for_each(|i| seen.insert(value(i)));
        seen.mex()
    };
    if mex > layout.max_value() {
        return Err(TableError::ValueTooLarge {
            k: layout.k,
            what: format!("the component {v:?}"),
            max: layout.max_value(),
        });
    }
    Ok(mex)
}

/// Values level `e` into `words` (all lower levels done), counting states on `progress`.
fn compute_level(
    layout: &Layout,
    words: &[AtomicU32],
    e: usize,
    progress: &indicatif::ProgressBar,
) -> Result<(), TableError> {
    match layout.bits {
        2 => compute_level_in::<2>(layout, words, e, progress),
        4 => compute_level_in::<4>(layout, words, e, progress),
        _ => compute_level_in::<8>(layout, words, e, progress),
    }
}

/// [`compute_level`] for a table of `BITS` bits per value.
fn compute_level_in<const BITS: u32>(
    layout: &Layout,
    words: &[AtomicU32],
    e: usize,
    progress: &indicatif::ProgressBar,
) -> Result<(), TableError> {
    // Words start at 0: a zero value needs no write, and OR-ing values in any order is exact.
    Task::level(layout, e).par_iter().try_for_each(|&task| {
        // The task's own `Sums`, a local: the compiler then keeps its fields out of reach
        // of every other write. Taken from `try_for_each_init` through a reference, the
        // build ran 12% more instructions in builds where rayon's loop was not inlined.
        let sums = &mut Sums::default();
        let mut result = Ok(());
        // The task's own words are collected here and OR-ed once each.
        let mut own = vec![0u32; (task.hi - task.lo) as usize];
        let mut reversals = DeferredOrs::new(words);
        let first = task.ranks(layout).start;
        let value = |index| {
            // SAFETY: the readers are `Sums`, whose indices are the options' pieces: states
            // of lower levels of this layout, all in the table (`pieces_match_plain_options`
            // holds each to plain vector surgery; debug builds check every read).
            unsafe { value_of::<BITS>(words, index) }
        };
        task.for_each_valued_state(layout, sums, value, |v, sums| {
            if result.is_err() {
                return;
            }
            match mex_of_options::<BITS>(layout, value, sums, v) {
                Ok(g) => {
                    let (w, shift) = layout.slot(sums.rank() - first);
                    own[w] |= g << shift;
                    if sums.reversed_rank() != sums.rank() && g != 0 {
                        let (w, shift) = layout.slot(layout.index(e, task.s, sums.reversed_rank()));
                        reversals.or(w, g << shift);
                    }
                }
                Err(err) => result = Err(err),
            }
        });
        reversals.flush();
        for (w, bits) in (task.lo..task.hi).zip(own).filter(|(_, bits)| *bits != 0) {
            words[w as usize].fetch_or(bits, Ordering::Relaxed);
        }
        let ranks = task.ranks(layout);
        progress.inc(ranks.end - ranks.start);
        result
    })
}

/// Atomic ORs into words all over a level (the places of the valued vectors' reversals), each
/// made [`DEFERRED`] ORs after its line was asked for: a locked OR on a line that is not in
/// cache holds the core until the line arrives, and by then it has.
struct DeferredOrs<'a> {
    words: &'a [AtomicU32],
    pending: [(usize, u32); DEFERRED],
    next: usize,
}

/// ORs in flight per worker: a dozen valued vectors' time covers a trip to memory.
const DEFERRED: usize = 16;

impl<'a> DeferredOrs<'a> {
    fn new(words: &'a [AtomicU32]) -> Self {
        DeferredOrs {
            words,
            pending: [(0, 0); DEFERRED],
            next: 0,
        }
    }

    /// ORs `bits` into word `w`, soon.
    #[inline]
    fn or(&mut self, w: usize, bits: u32) {
        prefetch(&self.words[w]);
        let (due, due_bits) = std::mem::replace(&mut self.pending[self.next % DEFERRED], (w, bits));
        self.next += 1;
        if due_bits != 0 {
            self.words[due].fetch_or(due_bits, Ordering::Relaxed);
        }
    }

    /// Makes every pending OR.
    fn flush(&mut self) {
        for (w, bits) in std::mem::replace(&mut self.pending, [(0, 0); DEFERRED]) {
            if bits != 0 {
                self.words[w].fetch_or(bits, Ordering::Relaxed);
            }
        }
    }
}

/// Asks for the cache line of `word` (a hint; a no-op off x86-64).
#[inline(always)]
fn prefetch(word: &AtomicU32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints the cache and cannot fault; `_mm_prefetch` needs SSE, which
    // every x86-64 target has.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(word.as_ptr().cast_const().cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

/// The values of levels below `e` of `narrow`, copied into a table of the `wide` layout.
fn widen(narrow: &Layout, words: &[AtomicU32], wide: &Layout, e: usize) -> Vec<AtomicU32> {
    let out: Vec<AtomicU32> = (0..wide.words()).map(|_| AtomicU32::new(0)).collect();
    let blocks: Vec<(usize, usize)> = (1..e)
        .flat_map(|e| (0..=narrow.n - e).map(move |s| (e, s)))
        .collect();
    blocks.par_iter().for_each(|&(e, s)| {
        for rank in 0..narrow.block_len(e, s) {
            let g = value_at(narrow, words, narrow.index(e, s, rank));
            let (w, shift) = wide.slot(wide.index(e, s, rank));
            out[w].fetch_or(g << shift, Ordering::Relaxed);
        }
    });
    out
}

/// The words of level `e`, little-endian, as a checkpoint stores them.
fn level_bytes(layout: &Layout, words: &[AtomicU32], e: usize) -> Vec<u8> {
    let range = layout.level_words(e);
    words[range.start as usize..range.end as usize]
        .iter()
        .flat_map(|w| w.load(Ordering::Relaxed).to_le_bytes())
        .collect()
}

/// Loads the levels saved in `checkpoint` (of the table `layout`, at the width it was saved
/// at, within `budget`); returns the layout, its words and the first level not saved.
fn resume_levels(
    path: &Path,
    layout: Layout,
    saved: Saved,
    budget: Budget,
) -> Result<(Layout, Vec<AtomicU32>, usize), TableError> {
    let bad = |why: String| CheckpointError::Foreign {
        path: path.to_path_buf(),
        why,
    };
    let layout = match saved.width {
        w if w == layout.bits => layout,
        WIDE => {
            let wide = layout.widened();
            check_budget(&wide, budget)?;
            wide
        }
        w => return Err(bad(format!("entries of {w} bits")).into()),
    };
    let words: Vec<AtomicU32> = (0..layout.words()).map(|_| AtomicU32::new(0)).collect();
    let mut e = 1;
    for (step, payload) in saved.steps {
        let range = layout.level_words(e);
        if step != e as u64 || e > layout.n || payload.len() as u64 != 4 * (range.end - range.start)
        {
            return Err(bad(format!("a record for level {step} where level {e} was due")).into());
        }
        for (word, bytes) in words[range.start as usize..]
            .iter()
            .zip(payload.chunks_exact(4))
        {
            word.store(
                u32::from_le_bytes(bytes.try_into().expect("4 bytes")),
                Ordering::Relaxed,
            );
        }
        e += 1;
    }
    Ok((layout, words, e))
}

impl ValueTable {
    /// Computes every level on the CPU with rayon, widening to 8 bits if a value needs it and
    /// `budget` allows; `progress` counts states.
    pub fn build_cpu(
        layout: Layout,
        budget: Budget,
        progress: &indicatif::ProgressBar,
    ) -> Result<Self, TableError> {
        Self::build_cpu_saved(layout, budget, progress, None)
    }

    /// [`Self::build_cpu`], saving each finished level to `checkpoint` (when given) and first
    /// taking back the levels it holds, if asked to resume. The file stays for the caller to
    /// remove ([`crate::output::checkpoint::remove`]) once the table's results are out.
    pub fn build_cpu_saved(
        layout: Layout,
        budget: Budget,
        progress: &indicatif::ProgressBar,
        checkpoint: Option<Resumable>,
    ) -> Result<Self, TableError> {
        let identity = serde_json::json!({"table": "kcross", "k": layout.k, "n": layout.n});
        let mut file = None;
        let (mut layout, mut words, mut e) = match checkpoint {
            Some(c) => {
                let (opened, saved) = Checkpoint::open(c.path, &identity, layout.bits, c.resume)?;
                file = Some(opened);
                match saved {
                    Some(saved) => resume_levels(c.path, layout, saved, budget)?,
                    None => {
                        let words = (0..layout.words()).map(|_| AtomicU32::new(0)).collect();
                        (layout, words, 1)
                    }
                }
            }
            None => {
                let words = (0..layout.words()).map(|_| AtomicU32::new(0)).collect();
                (layout, words, 1)
            }
        };
        progress.set_position(layout.states_below(e));
        while e <= layout.n {
            progress.set_message(format!("k = {}, level {e}/{}", layout.k, layout.n));
            match compute_level(&layout, &words, e, progress) {
                Ok(()) => {
                    if let Some(file) = &mut file {
                        file.append(e as u64, &level_bytes(&layout, &words, e))?;
                    }
                    e += 1;
                }
                Err(TableError::ValueTooLarge { .. }) if layout.bits < WIDE => {
                    let wide = layout.widened();
                    check_budget(&wide, budget)?;
                    words = widen(&layout, &words, &wide, e);
                    layout = wide;
                    progress.set_position(layout.states_below(e));
                    // The saved levels are narrow: the checkpoint starts again at 8 bits.
                    if let Some(file) = &mut file {
                        file.restart(&identity, layout.bits)?;
                        for done in 1..e {
                            file.append(done as u64, &level_bytes(&layout, &words, done))?;
                        }
                    }
                }
                Err(err) => return Err(err),
            }
        }
        Ok(ValueTable {
            layout,
            words: words.into_iter().map(AtomicU32::into_inner).collect(),
        })
    }

    /// A table from words computed elsewhere (the GPU), in the layout's order.
    pub fn from_words(layout: Layout, words: Vec<u32>) -> Self {
        assert_eq!(words.len() as u64, layout.words());
        ValueTable { layout, words }
    }

    /// The raw words, for comparing backends.
    pub fn words(&self) -> &[u32] {
        &self.words
    }

    /// `G` of the component `v` (at least two runs, fitting the table).
    pub fn value(&self, v: &[u8]) -> u8 {
        let (w, shift) = self.layout.slot_of(v);
        self.layout.extract(self.words[w], shift) as u8
    }

    /// `G` of a strip position of at most `n` cells: the XOR of its components.
    pub fn strip_value(&self, board: &Board) -> u8 {
        assert!(!board.circular, "rings are for ring::RingValues");
        components(board, self.layout.k)
            .iter()
            .fold(0, |acc, v| acc ^ self.value(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kcross::reference;

    fn cpu_table(k: usize, n: usize) -> ValueTable {
        ValueTable::build_cpu(
            Layout::new(k, n),
            Budget::UNLIMITED,
            &indicatif::ProgressBar::hidden(),
        )
        .unwrap()
    }

    /// Every strip of up to 12 cells with any placement of X's (no run of k), k = 2..8, against
    /// the raw rules (random longer strips: `tests/kcross_values.rs`, beside the GPU's).
    #[test]
    fn agrees_with_the_raw_rules() {
        for k in 2..=8 {
            let table = cpu_table(k, 12);
            for n in 0..=12 {
                // One raw-rules memo per board size serves every position on it.
                let mut raw = reference::Reference::new(k, n, false);
                for mask in 0u64..1 << n {
                    let board = Board {
                        cells: (0..n).map(|i| mask >> i & 1 == 1).collect(),
                        circular: false,
                    };
                    if board.check(k).is_err() {
                        continue;
                    }
                    assert_eq!(
                        table.strip_value(&board),
                        raw.value(mask),
                        "{board} k = {k}"
                    );
                }
            }
        }
    }

    /// k = 2: A002187 for n <= 51 (one state per level); k = 3: Theorem 1.1 for n <= 40.
    #[test]
    fn published_sequences() {
        let a002187 = [
            0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0,
            4, 5, 2, 7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2,
        ];
        let k2 = cpu_table(2, 51);
        for (n, &want) in a002187.iter().enumerate() {
            assert_eq!(k2.strip_value(&Board::strip(n)), want, "k = 2, [{n}]");
        }
        let k3 = cpu_table(3, 40);
        for n in 0..=40 {
            let zero = [0, 2, 3, 6, 9].contains(&(n % 10));
            assert_eq!(
                k3.strip_value(&Board::strip(n)),
                u8::from(!zero),
                "k = 3, [{n}]"
            );
        }
    }

    /// Every component value of `table`, in layout order.
    pub fn all_values(table: &ValueTable) -> Vec<u8> {
        let layout = &table.layout;
        let mut out = Vec::new();
        for e in 1..=layout.n {
            for s in 0..=layout.n - e {
                let mut v = vec![0u8; e + 1];
                for rank in 0..layout.block_len(e, s) {
                    layout.unrank(e, s, rank, &mut v);
                    out.push(table.value(&v));
                }
            }
        }
        out
    }

    /// A build saved to a checkpoint and cut short anywhere (a kill) resumes to the same
    /// words: at the width it started (2 bits here, to stay small), and after widening to 8.
    #[test]
    fn checkpointed_builds_resume_to_the_same_table() {
        let hidden = indicatif::ProgressBar::hidden();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("table.ckpt");
        for (n, bits) in [(9, 2), (22, 8)] {
            let narrow = Layout::with_bits(3, n, 2);
            let want = ValueTable::build_cpu(narrow.clone(), Budget::UNLIMITED, &hidden).unwrap();
            assert_eq!(want.layout.bits, bits);
            let build = |resume| {
                let saved = Resumable {
                    path: &path,
                    resume,
                };
                ValueTable::build_cpu_saved(narrow.clone(), Budget::UNLIMITED, &hidden, Some(saved))
                    .unwrap()
            };
            let whole = build(false);
            assert_eq!(whole.words, want.words);
            let full = std::fs::read(&path).unwrap();
            for keep in [0.0, 0.3, 0.7, 1.0] {
                let cut = 20 + ((full.len() - 20) as f64 * keep) as usize;
                std::fs::write(&path, &full[..cut.max(60)]).unwrap();
                let table = build(true);
                assert_eq!(table.layout.bits, bits, "kept {keep}");
                assert_eq!(table.words, want.words, "n = {n}, kept {keep}");
            }
            std::fs::remove_file(&path).unwrap();
        }
    }

    /// A table started at 2 bits widens to 8 when a value passes 3, keeping what it had.
    #[test]
    fn widens_when_a_value_does_not_fit() {
        let hidden = indicatif::ProgressBar::hidden();
        let narrow = Layout::with_bits(3, 22, 2);
        let widened = ValueTable::build_cpu(narrow.clone(), Budget::UNLIMITED, &hidden).unwrap();
        assert_eq!(widened.layout.bits, 8);
        let want = cpu_table(3, 22);
        assert!(all_values(&want).iter().any(|&g| g > 3));
        assert_eq!(all_values(&widened), all_values(&want));
        // Without room for the wide table, the overflow is an error naming the budget.
        let err = ValueTable::build_cpu(narrow.clone(), Budget::new(narrow.bytes()), &hidden)
            .err()
            .unwrap();
        assert!(
            matches!(&err, TableError::OverBudget(e) if e.what.contains("at 8 bits")),
            "{err}"
        );
    }

    #[test]
    fn budget_is_checked_before_allocating() {
        let err = plan(13, 40, Budget::new(1 << 30))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("the table of k = 13 up to n = 40 ("), "{err}");
        assert!(plan(3, 30, Budget::new(1 << 30)).is_ok());
        assert!(matches!(
            plan(3, 64, Budget::UNLIMITED),
            Err(TableError::TooLong { n: 64, .. })
        ));
    }
}
