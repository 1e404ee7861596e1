//! One code in full (`nimseq octal seq` and `stats`): values, P-positions, the period with the
//! window that proves it, the ogsolve-compatible checksum, the split's figures.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use serde::Serialize;

use super::code::OctalCode;
use super::fast::{Ends, Engine, EngineError, LEAST_END, Split};
use super::snapshot::Snapshots;
use super::solver::Solver;
use super::tally::{Fletcher, Tally};
use crate::memory::{Budget, OverBudget};
use crate::output::checkpoint::{Checkpoint, CheckpointError, Saving};
use crate::output::{progress_bar, write_values};
use crate::period::{Arithmetic, Window, certify_windowed, observed_arithmetic};

/// The first length at which a period is looked for; it doubles from there.
const FIRST_LOOK: usize = 1024;

/// Why a code has no report.
#[derive(Debug, thiserror::Error)]
pub enum OctalError {
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Gpu(#[from] crate::gpu::GpuError),
    /// [`Reach::stop`] was set (a Ctrl-C in Python): no report.
    #[error("interrupted")]
    Interrupted,
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A bounded run refused before any work: why.
    #[error("{0}")]
    Bounded(String),
}

/// Bytes a value takes: 32 bits, and a 16-bit copy while the values fit (the scan kernels'
/// loads).
const VALUE_BYTES: u64 = 6;

/// Bytes a rare size takes: its size and value, 8; while the split is chosen again, the new
/// lists beside the old ones and the sizes they are made from, 16 more.
const RARE_BYTES: u64 = 24;

/// Bytes a shown value takes in a report: its copy, and its size in the P-positions if 0.
const SHOWN_BYTES: u64 = 4 + 8;

/// Bytes the values of `len` heap sizes with `rare` rare sizes take, `shown` of them copied
/// into a report.
pub fn memory(len: usize, rare: usize, shown: usize) -> u64 {
    (len as u64)
        .saturating_mul(VALUE_BYTES)
        .saturating_add((rare as u64).saturating_mul(RARE_BYTES))
        .saturating_add((shown as u64).saturating_mul(SHOWN_BYTES))
}

/// A certified period: `G(n + period) = G(n)` was checked for `n` in `[from, to)` within
/// `G(0..checked_len)`, which proves it for every `n >= from`.
#[derive(Clone, Debug, Serialize)]
pub struct Certificate {
    pub period: usize,
    pub preperiod: usize,
    /// 0: a certified period repeats the values (an arithmetic period is only observed).
    pub saltus: u32,
    pub from: usize,
    pub to: usize,
    /// `guy-smith` (a splitting code: the window `[n0, 2 n0 + p + t)`) or `last-t` (no split:
    /// `[n0, n0 + t)`).
    pub window: &'static str,
}

/// The rare/common split as last chosen.
#[derive(Clone, Debug, Serialize)]
pub struct SplitFigures {
    pub kind: Split,
    pub mask: u32,
    pub rare_count: usize,
    pub last_rare: Option<usize>,
    /// The rare sizes themselves (`stats` only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rare_sizes: Vec<u32>,
}

/// Everything `nimseq octal seq` and `stats` show.
#[derive(Clone, Debug, Serialize)]
pub struct OctalReport {
    pub code: String,
    /// `G(0), ..., G(len - 1)` for the `--len` asked.
    pub values: Vec<u32>,
    pub p_positions: Vec<usize>,
    pub certified: bool,
    /// Whether a period was looked for (`seq`; `stats` computes values only).
    #[serde(skip)]
    pub looked: bool,
    /// Whether `seq` stopped at `--max-time` rather than at a certificate or `--max-len`.
    pub timed_out: bool,
    /// The certified period and its window, when one is proved.
    pub certificate: Option<Certificate>,
    /// Where a period was looked for and none certified: the arithmetic period `G(n + p) =
    /// G(n) + s` the values show (docs/octal.md), observed, not proved; `null` if none.
    pub observed: Option<Arithmetic>,
    /// Values computed.
    pub computed: usize,
    pub max_value: u32,
    /// The first size whose value is `max_value` (the tables' "largest index").
    pub max_at: usize,
    /// How often each value occurs among the values computed.
    pub frequencies: BTreeMap<u32, u64>,
    pub split: SplitFigures,
    /// What a bounded run (`stats --bounded`) held: `G(0..head)` and the last `tail` values.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub held: Option<HeldEnds>,
    /// ogsolve's checksum of `G(0..=checksum_n)`.
    pub checksum: String,
    pub checksum_n: usize,
    /// ogsolve's checksum of `G(0..=n)` at each power of two `n` computed (`stats` only), to
    /// compare with `ogsolve CODE -n N` at any of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub checksums: Vec<(usize, String)>,
}

/// The ends a bounded run held, as its report says.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct HeldEnds {
    pub head: usize,
    pub tail: usize,
}

/// ogsolve's Fletcher-style checksum of `values` (docs/octal.md, "The checksum").
pub fn checksum(values: &[u32]) -> String {
    let mut sum = Fletcher::default();
    values.iter().for_each(|&g| sum.add(g));
    sum.hex()
}

/// The lengths at which a period of `code` is looked for, up to `max_len`: doubling from
/// `FIRST_LOOK` (or `4 t`, for long codes).
pub fn look_lengths(code: &OctalCode, max_len: usize) -> impl Iterator<Item = usize> {
    let first = FIRST_LOOK.max(4 * code.t()).min(max_len);
    std::iter::successors(Some(first), move |&at| {
        (at < max_len).then(|| (2 * at).min(max_len))
    })
}

/// The window that certifies periods of `code` (see [`Window`]).
pub fn window(code: &OctalCode) -> Window {
    let t = code.t();
    let heaps = code.max_heaps();
    let unequal = code.any_unequal();
    match (heaps, unequal) {
        (0 | 1, _) => Window::LastT { t },
        (2, false) => Window::GuySmith { t },
        _ => Window::Heaps { t, heaps, unequal },
    }
}

/// The period the prefix `g` of `code` proves, if any, with its window.
pub fn certify_prefix(code: &OctalCode, g: &[u32]) -> Option<Certificate> {
    let window = window(code);
    certify_windowed(g, window).map(|p| Certificate {
        period: p.period,
        preperiod: p.preperiod,
        saltus: 0,
        from: p.preperiod,
        to: window.end(p.preperiod, p.period),
        window: window.name(),
    })
}

/// How far [`describe`] goes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reach<'a> {
    /// Values to show.
    pub len: usize,
    /// The most values to compute (`seq`), or the values to compute (`stats`).
    pub max_len: usize,
    /// Whether a period is looked for (`seq`), stopping where one is certified; `stats`
    /// computes `max_len` values and certifies none.
    pub look_for_period: bool,
    /// `seq` stops looking once this much time has passed, and certifies what it computed.
    pub max_time: Option<Duration>,
    /// Set from elsewhere (a Ctrl-C) to end the work at the next step, with
    /// [`OctalError::Interrupted`].
    pub stop: Option<&'a AtomicBool>,
    /// Where the values are saved as they are computed, a record a step, and a killed run's
    /// values taken back from ([`Solver::adopt`]).
    pub saving: Option<Saving<'a>>,
    /// Hold only a head and a tail of the values, each a quarter of the budget (`stats` of a
    /// code whose moves leave at most two heaps); `saving` then keeps the run's state
    /// ([`super::snapshot`]).
    pub bounded: bool,
}

/// Values computed between two looks at the clock and the progress bar, for codes of up to
/// 64 digits; a longer code's values cost more each (every take and split of its `t` digits),
/// so it looks that many times more often ([`step`]), down to a batch of 16.
const STEP: usize = 1 << 12;

/// [`STEP`] for `code`: about as much work between two looks whatever its length, so that
/// `--max-time` holds for a code of 4,096 digits too.
fn step(code: &OctalCode) -> usize {
    (STEP * 64 / code.t().max(64)).max(16)
}

/// What a run may take: the values it is to compute and show, refused up front past the
/// budget, and checked again at each step as the rare list grows (that depends on the values).
pub(super) struct Room<'a> {
    pub(super) code: &'a OctalCode,
    pub(super) target: usize,
    pub(super) shown: usize,
    pub(super) budget: Budget,
    /// A bounded run's ends; `None`: all `target` values are held.
    pub(super) ends: Option<Ends>,
}

impl Room<'_> {
    /// Refuses the run if the values with `rare` rare sizes and `table` bytes of the pair
    /// bitsets may not fit (`n` values computed).
    pub(super) fn check(&self, n: usize, rare: usize, table: u64) -> Result<(), OverBudget> {
        let Room {
            code,
            target,
            shown,
            budget,
            ends,
        } = *self;
        let held = ends.map_or(target, |e| target.min(e.head + e.tail));
        let bytes = memory(held, rare, shown).saturating_add(table);
        budget.check(bytes, || match (n, table) {
            (0, _) if held < target => {
                format!("{target} values of {code}, {held} of them held at once")
            }
            (0, _) => format!("{target} values of {code}"),
            // Three heaps: the bitsets of the splits in two, as wide as the values so far.
            (n, 1..) => {
                format!("{target} values of {code} with pair bitsets as wide as G(0..{n})'s")
            }
            (n, 0) => format!("{target} values of {code} with the {rare} rare sizes below {n}"),
        })
    }
}

/// One run of the engine: what it may take, where it saves its values, what it shows and
/// what it listens to.
pub(super) struct Run<'a> {
    engine: Solver,
    step: usize,
    room: Room<'a>,
    saved: Option<Checkpoint>,
    /// A bounded run's checkpoint: its whole state now and then, in place of the values.
    snapshots: Option<Snapshots>,
    /// A killed run's values, taken in step by step as this run reaches them, so that it
    /// looks, certifies and chooses its splits at the sizes an unbroken run does.
    replay: Vec<u32>,
    stop: Option<&'a AtomicBool>,
    bar: &'a ProgressBar,
    /// What a report counts, taken in step by step (`describe`'s; a scan row reads its
    /// values at the end).
    tally: Option<Tally>,
}

impl<'a> Run<'a> {
    /// A run of `code` within `room` that saves nothing, listens to nothing and shows its
    /// steps on `bar` (a scan's row).
    pub(super) fn unsaved(code: &OctalCode, room: Room<'a>, bar: &'a ProgressBar) -> Self {
        Run {
            engine: Solver::new(code),
            step: step(code),
            room,
            saved: None,
            snapshots: None,
            replay: Vec::new(),
            stop: None,
            bar,
            tally: None,
        }
    }

    /// The values computed so far.
    pub(super) fn values(&self) -> &[u32] {
        self.engine.values()
    }

    /// Extends the engine to `len` values, a step at a time, saving and showing each and
    /// keeping to the room; `false` if `deadline` came first, an error if `stop` was set.
    pub(super) fn extend_until(
        &mut self,
        len: usize,
        deadline: Option<Instant>,
    ) -> Result<bool, OctalError> {
        while self.engine.values().len() < len {
            if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(OctalError::Interrupted);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(false);
            }
            let from = self.engine.values().len();
            let to = len.min(from + self.step);
            if from < self.replay.len() {
                self.engine
                    .adopt(&self.replay[from..to.min(self.replay.len())])?;
            } else {
                self.replay = Vec::new();
                self.engine.extend(to)?;
                if let Some(saved) = &mut self.saved {
                    let g = &self.engine.values()[from..];
                    let bytes: Vec<u8> = g.iter().flat_map(|v| v.to_le_bytes()).collect();
                    saved.append(from as u64, &bytes)?;
                }
            }
            if let Some(tally) = &mut self.tally {
                tally.take(self.engine.values());
            }
            let n = self.engine.values().len();
            let table = self.engine.table_bytes(self.room.target);
            self.room.check(n, self.engine.rare_count(), table)?;
            if let (Some(snapshots), Some(tally)) = (&mut self.snapshots, &self.tally)
                && snapshots.due()
                && let Solver::Split(engine) = &self.engine
                && let Some(state) = engine.bounded_state()
            {
                snapshots.write(&state, tally)?;
            }
            self.bar.set_position(n as u64);
        }
        Ok(true)
    }
}

/// Opens the checkpoint `saving` for `code`, and a resumed one's values (up to the room's
/// target), checked to be one run's steps in order and to fit the budget beside the values
/// to come.
fn open_saved(
    code: &OctalCode,
    saving: Saving,
    room: &Room,
) -> Result<(Checkpoint, Vec<u32>), OctalError> {
    let identity = serde_json::json!({"table": "octal", "code": code.to_string()});
    let (file, saved) = Checkpoint::open(saving.path, &identity, 32, saving.resume)?;
    let steps = saved.map_or(Vec::new(), |s| s.steps);
    let held: usize = steps.iter().map(|(_, payload)| payload.len() / 4).sum();
    let held = held.min(room.target);
    // Until the engine has taken them all in, the values are held twice.
    room.budget.check(
        memory(room.target, 0, room.shown).saturating_add(4 * held as u64),
        || format!("{} values of {code}, {held} of them resumed", room.target),
    )?;
    let mut values = Vec::with_capacity(held);
    for (step, payload) in steps {
        if step != values.len() as u64 || payload.len() % 4 != 0 {
            return Err(CheckpointError::Foreign {
                path: saving.path.to_path_buf(),
                why: format!(
                    "a record of {} bytes at size {step}, after {} values",
                    payload.len(),
                    values.len()
                ),
            }
            .into());
        }
        let words = payload.chunks_exact(4);
        values.extend(words.map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes"))));
    }
    values.truncate(held);
    Ok((file, values))
}

/// Computes `code` until a period is certified (looking at each doubling of the length), or
/// `reach.max_len` values, or until `reach.max_time` has passed (then certifying the values
/// computed), refused first if that may not fit `budget`; `reach.len` values are shown.
/// `bar` counts the values computed.
pub fn describe(
    code: &OctalCode,
    reach: &Reach,
    budget: Budget,
    bar: &ProgressBar,
) -> Result<OctalReport, OctalError> {
    let &Reach {
        len,
        max_len,
        look_for_period,
        max_time,
        stop,
        saving,
        bounded,
    } = reach;
    let target = max_len.max(len);
    let ends = bounded
        .then(|| ends_within(code, target, budget))
        .transpose()?;
    let room = Room {
        code,
        target,
        shown: len,
        budget,
        ends,
    };
    room.check(0, 0, 0)?;
    bar.set_length(target as u64);
    let mut tally = Tally::new(!look_for_period);
    let (mut saved, mut replay, mut snapshots) = (None, Vec::new(), None);
    let engine = match (ends, saving) {
        (Some(ends), saving) => {
            let mut resumed = None;
            if let Some(saving) = saving {
                let (file, state) = Snapshots::open(saving, code, ends)?;
                snapshots = Some(file);
                resumed = state;
            }
            let engine = match resumed {
                Some((state, _)) if state.computed() > target => {
                    return Err(OctalError::Bounded(format!(
                        "the checkpoint's run is past --n-max {target} ({} values computed); \
                         resume it with --n-max {} or more",
                        state.computed(),
                        state.computed()
                    )));
                }
                Some((state, counted)) => {
                    tally = counted;
                    Engine::resume_bounded(code, target, ends, state)
                }
                None => Engine::bounded(code, target, ends),
            };
            Solver::Split(engine.ok_or_else(|| {
                OctalError::Bounded(format!(
                    "the system gives no address space for {target} values of {code}"
                ))
            })?)
        }
        (None, Some(saving)) => {
            let (file, values) = open_saved(code, saving, &room)?;
            (saved, replay) = (Some(file), values);
            Solver::new(code)
        }
        (None, None) => Solver::new(code),
    };
    let mut run = Run {
        engine,
        saved,
        snapshots,
        replay,
        stop,
        tally: Some(tally),
        ..Run::unsaved(code, room, bar)
    };
    let mut certificate = None;
    let mut timed_out = false;
    if look_for_period {
        let deadline = max_time.map(|t| Instant::now() + t);
        for at in look_lengths(code, max_len) {
            timed_out = !run.extend_until(at, deadline)?;
            certificate = certify_prefix(code, run.engine.values());
            if certificate.is_some() || timed_out {
                break;
            }
        }
    }
    // `stats` computes what it was asked; `seq` what it showed or certified.
    let last = if look_for_period { len } else { target };
    run.extend_until(last, None)?;
    let (engine, tally) = (run.engine, run.tally.expect("describe's run counts"));
    let g = engine.values();
    let (kind, mask, rare) = engine.split(code.t());
    let observed = (look_for_period && certificate.is_none())
        .then(|| observed_arithmetic(g))
        .flatten();
    Ok(OctalReport {
        code: code.to_string(),
        values: g[..len].to_vec(),
        p_positions: (0..len).filter(|&n| g[n] == 0).collect(),
        certified: certificate.is_some(),
        looked: look_for_period,
        timed_out,
        certificate,
        observed,
        computed: g.len(),
        max_value: engine.max(),
        max_at: tally.max_at,
        frequencies: tally.frequencies(),
        split: SplitFigures {
            kind,
            mask,
            rare_count: rare.len(),
            last_rare: rare.last().map(|&s| s as usize),
            rare_sizes: if look_for_period { Vec::new() } else { rare },
        },
        held: ends.map(|Ends { head, tail }| HeldEnds { head, tail }),
        checksum: tally.sum.hex(),
        checksum_n: g.len().saturating_sub(1),
        checksums: tally.checksums.iter().map(|&(n, s)| (n, s.hex())).collect(),
    })
}

/// The ends a bounded run of `code` to `target` values holds: a quarter of `budget` each (the
/// rest for the rare lists), whole values; refused where the code splits a heap in three (the
/// pair bitsets read every value) or the budget leaves an end too short to compute with.
fn ends_within(code: &OctalCode, target: usize, budget: Budget) -> Result<Ends, OctalError> {
    if code.max_heaps() > 2 {
        return Err(OctalError::Bounded(format!(
            "--bounded runs codes whose moves leave at most two heaps, not {code}"
        )));
    }
    // The tail holds every value a step reads back, and every size a take reads.
    let least = LEAST_END + code.t() + 2 * step(code);
    budget.check(4 * VALUE_BYTES * least as u64, || {
        format!("{target} values of {code} held as a head and a tail of {least} each")
    })?;
    // No longer than the run, but never shorter than the least the engine takes.
    let each = (budget.bytes() / 4 / VALUE_BYTES).min(target as u64) as usize;
    let each = each.max(least);
    Ok(Ends {
        head: each,
        tail: each,
    })
}

/// [`describe`] with a progress bar of the values on stderr (drawn on a terminal only),
/// cleared when it ends: how the command line and the Python binding call it.
pub fn describe_with_bar(
    code: &OctalCode,
    reach: &Reach,
    budget: Budget,
) -> Result<OctalReport, OctalError> {
    let bar = progress_bar(0, "values");
    let report = describe(code, reach, budget, &bar);
    bar.finish_and_clear();
    report
}

impl fmt::Display for OctalReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "code         {}", self.code)?;
        if !self.values.is_empty() {
            write_values(f, &self.values)?;
        }
        match &self.certificate {
            Some(c) => {
                let kind = if c.preperiod == 0 {
                    "purely periodic"
                } else {
                    "pre-periodic"
                };
                writeln!(
                    f,
                    "period       {}, pre-period {} ({kind})",
                    c.period, c.preperiod
                )?;
                let why = match (c.window, c.from) {
                    ("heaps", _) => {
                        "the Guy-Smith window for moves that leave k heaps, k n0 + (k - 1) p + t \
                         (k^2 - 1 with '!'), n0 taken as 1 at least"
                    }
                    ("guy-smith", 0) => "the Guy-Smith window p + t + 1 from n0 = 0",
                    ("guy-smith", _) => "the Guy-Smith window 2 n0 + p + t",
                    (_, 0) => "t + 1 values from n0 = 0 (no move splits a heap)",
                    _ => "t values past n0 (no move splits a heap)",
                };
                writeln!(
                    f,
                    "certificate  G(n+{}) = G(n) for n in [{}, {}), checked within G(0..{}): {why}, so for all n >= {}",
                    c.period, c.from, c.to, self.computed, c.from
                )?;
            }
            None if self.looked => {
                writeln!(
                    f,
                    "period       none certified within G(0..{}) (raise {} to look further)",
                    self.computed,
                    if self.timed_out {
                        "--max-time"
                    } else {
                        "--max-len"
                    }
                )?;
                if let Some(a) = self.observed {
                    writeln!(
                        f,
                        "observed     {a} over G(0..{}), not proved",
                        self.computed
                    )?;
                }
            }
            None => writeln!(f, "computed     G(0..{})", self.computed)?,
        }
        writeln!(
            f,
            "largest      {}, first at {}",
            self.max_value, self.max_at
        )?;
        if let Some(HeldEnds { head, tail }) = self.held {
            writeln!(
                f,
                "held         G(0..{head}) and the last {tail} values at once (--bounded)"
            )?;
        }
        let s = &self.split;
        writeln!(
            f,
            "split        {:?} split, mask {:#x}: {} rare size{}{}",
            s.kind,
            s.mask,
            s.rare_count,
            if s.rare_count == 1 { "" } else { "s" },
            s.last_rare
                .map_or(String::new(), |r| format!(", the last at {r}"))
        )?;
        write!(
            f,
            "checksum     {} (ogsolve's, of G(0..={}))",
            self.checksum, self.checksum_n
        )
    }
}

/// What `stats` shows past the report: the checksum at each power of two, then the value
/// frequencies, one line each.
pub fn stats_lines(report: &OctalReport) -> String {
    let checksums = report
        .checksums
        .iter()
        .map(|(n, sum)| format!("checksum of G(0..={n}): {sum}"));
    let frequencies = report
        .frequencies
        .iter()
        .map(|(v, n)| format!("g = {v:<4} {n} size{}", if *n == 1 { "" } else { "s" }));
    checksums.chain(frequencies).collect::<Vec<_>>().join("\n")
}
