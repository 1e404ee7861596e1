//! `nimseq sub scan` and `survey`: every set of a [`SetFilter`] through one backend, in the
//! chunks of the shared driver ([`crate::output::scan`]), a sample of fast rows re-checked by
//! the reference.

use std::fmt;
use std::io::{self, Write};
use std::sync::LazyLock;

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::gpu::{SubtractionGpu, long_cap};
use super::lanes;
use super::misere::{Genera, MisereError, MiserePeriods};
use super::moveset::{MOVE_COUNTS, MOVE_NAMES, MoveSet, SetFilter};
use super::reference;
use super::set_solver::solver_bytes;
use super::solution::{NotCertified, Solution, envelope};
use super::summary::ScanSummary;
use super::theory::predict::TheoryColumns;
use crate::backend::{Chosen, announce_calibrated};
use crate::gpu::GpuError;
use crate::memory::{Budget, OverBudget};
use crate::output::parquet::{Column, Kind};
use crate::output::resumable::ResumeError;
use crate::output::scan::{Items, Plan, Sample, Scan, ScanJob, ScanOutput, SolveOn, Tally};
use crate::output::{CsvLine, Field, ReadFields, Row};

/// One row of a scan's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ScanRow {
    /// The moves, as columns `a, b, c, ...`.
    #[serde(flatten)]
    pub moves: MoveColumns,
    pub period: usize,
    pub preperiod: usize,
    pub outcome_period: usize,
    pub outcome_preperiod: usize,
    /// With `--play misere`: the misère periods.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub misere: Option<MiserePeriods>,
    /// With `--theory`: the paper's view of the ruleset.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub theory: Option<TheoryColumns>,
}

/// A set's moves as named columns (`a`, `b`, ... in JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveColumns(pub MoveSet);

impl Serialize for MoveColumns {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let moves = self.0.moves();
        let mut map = s.serialize_map(Some(moves.len()))?;
        for (name, m) in MOVE_NAMES.iter().zip(moves) {
            map.serialize_entry(name, m)?;
        }
        map.end()
    }
}

/// The CSV header of rows of `k` moves: the moves, the periods, the misère periods (with
/// `misere`), the theory columns (with `theory`, three moves only).
pub fn csv_header(k: usize, misere: bool, theory: bool) -> &'static str {
    static HEADERS: LazyLock<Vec<String>> = LazyLock::new(|| {
        let mut all = Vec::new();
        for k in MOVE_COUNTS {
            for misere in [false, true] {
                for theory in [false, true] {
                    let mut header = MOVE_NAMES[..k].join(",");
                    header += ",period,preperiod,outcome_period,outcome_preperiod";
                    if misere {
                        header += ",misere_period,misere_preperiod,misere_outcome_period,misere_outcome_preperiod";
                    }
                    if theory {
                        header += ",g,rho,K,T0,T1,T2,predicted_period,agrees";
                    }
                    all.push(header);
                }
            }
        }
        all
    });
    let index = (k - MOVE_COUNTS.start()) * 4 + usize::from(misere) * 2 + usize::from(theory);
    &HEADERS[index]
}

/// The Parquet types of the theory columns (after the seven of every row).
const THEORY_COLUMNS: [Column; 8] = [
    Column::required(Kind::U32),
    Column::required(Kind::U32),
    Column::required(Kind::U32),
    Column::required(Kind::Bool),
    Column::required(Kind::Bool),
    Column::required(Kind::Bool),
    Column::required(Kind::I64),
    Column::optional(Kind::Bool),
];

impl Row for ScanRow {
    fn fields(&self, out: &mut dyn FnMut(Field<'_>)) {
        for &m in self.moves.0.moves() {
            out(Field::Unsigned(m.into()));
        }
        for n in self.periods() {
            out(Field::Unsigned(n));
        }
        for n in self.misere.iter().flat_map(MiserePeriods::key) {
            out(Field::Unsigned(n as u64));
        }
        if let Some(t) = &self.theory {
            for n in [t.g, t.rho, t.k] {
                out(Field::Unsigned(n as u64));
            }
            for b in [t.t0, t.t1, t.t2] {
                out(Field::Bool(b));
            }
            out(Field::Signed(t.predicted_period));
            out(t.agrees.map_or(Field::Missing, Field::Bool));
        }
    }

    fn write_csv(&self, out: &mut Vec<u8>) -> io::Result<()> {
        let mut line = CsvLine::new(out);
        for &m in self.moves.0.moves() {
            line.field(m.into());
        }
        for n in self.periods() {
            line.field(n);
        }
        for n in self.misere.iter().flat_map(MiserePeriods::key) {
            line.field(n as u64);
        }
        match &self.theory {
            None => {
                line.finish();
                Ok(())
            }
            Some(t) => {
                line.leave_open();
                let agrees = t.agrees.map_or(String::new(), |b| b.to_string());
                writeln!(
                    out,
                    ",{},{},{},{},{},{},{},{agrees}",
                    t.g, t.rho, t.k, t.t0, t.t1, t.t2, t.predicted_period
                )
            }
        }
    }
}

impl ScanRow {
    /// The fields every row has after its moves: the certified periods.
    #[inline(always)]
    fn periods(&self) -> [u64; 4] {
        [
            self.period as u64,
            self.preperiod as u64,
            self.outcome_period as u64,
            self.outcome_preperiod as u64,
        ]
    }

    fn new(set: MoveSet, s: &Solution, misere: bool, theory: bool) -> Self {
        let a = set.moves()[0] as usize;
        ScanRow {
            misere: misere.then(|| MiserePeriods::derived(a, s)),
            theory: set.triple().filter(|_| theory).map(|t| {
                let (a, b, c) = (t.a as usize, t.b as usize, t.c as usize);
                TheoryColumns::new(a, b, c, s.period, s.preperiod)
            }),
            moves: MoveColumns(set),
            period: s.period,
            preperiod: s.preperiod,
            outcome_period: s.outcome_period,
            outcome_preperiod: s.outcome_preperiod,
        }
    }
}

/// The three ways to solve a chunk of sets; all give the same rows.
pub enum Backend<'a> {
    Reference,
    Cpu,
    Gpu(SubtractionGpu<'a>),
}

impl Backend<'_> {
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Reference => "reference",
            Backend::Cpu => "cpu",
            Backend::Gpu(_) => "gpu",
        }
    }

    /// Fraction of rows a scan re-checks with the reference unless told otherwise: the GPU path
    /// runs on drivers nimseq does not control, so a small sample is always checked there.
    pub fn default_verify_sample(&self) -> f64 {
        match self {
            Backend::Gpu(_) => 0.001,
            _ => 0.0,
        }
    }

    /// The backend `chosen` stands for. Under `auto`, a scan big enough to matter on a
    /// hardware adapter runs on whichever of the GPU and the CPU path is faster on a sample of
    /// its own sets ([`Self::faster`]); stderr says which runs.
    pub fn chosen<'a>(chosen: &'a Chosen, opts: &ScanOptions) -> Result<Backend<'a>, ScanError> {
        Ok(match chosen {
            Chosen::Reference => Backend::Reference,
            Chosen::Cpu => Backend::Cpu,
            Chosen::Gpu { ctx, auto: false } => {
                log::info!("backend: gpu, {}", ctx.describe());
                Backend::Gpu(SubtractionGpu::new(ctx, opts.filter.moves)?)
            }
            Chosen::Gpu { ctx, auto: true } => {
                let gpu = SubtractionGpu::new(ctx, opts.filter.moves)?;
                let (backend, why) = Backend::faster(&opts.filter, gpu, opts.budget)?;
                announce_calibrated(ctx, matches!(backend, Backend::Gpu(_)), &why);
                backend
            }
        })
    }

    /// `auto` on a hardware GPU: whichever of `gpu` and the fast CPU path is faster on a
    /// sample of `filter` ([`Calibration`]), with the reason in words. Small scans, and a GPU
    /// that fails its calibration (too large for its bindings, a lost device), take the CPU
    /// path; a disagreement between the two is a bug and an error.
    pub fn faster<'a>(
        filter: &SetFilter,
        gpu: SubtractionGpu<'a>,
        budget: Budget,
    ) -> Result<(Backend<'a>, String), ScanError> {
        if filter.count().is_some_and(|n| n < CALIBRATE_FROM) {
            return Ok((
                Backend::Cpu,
                "a small scan, done in moments either way".into(),
            ));
        }
        let name = &gpu.context().info.name;
        Ok(match Calibration::run(filter, &gpu, budget) {
            Err(ScanError::Gpu(e)) => (Backend::Cpu, format!("{name} failed its calibration: {e}")),
            Err(e) => return Err(e),
            Ok(None) => (Backend::Gpu(gpu), "no set to calibrate on".into()),
            Ok(Some(c)) if c.gpu_is_faster() => {
                (Backend::Gpu(gpu), format!("faster than the cpu path: {c}"))
            }
            Ok(Some(c)) => (Backend::Cpu, format!("faster than {name}: {c}")),
        })
    }

    /// Chunks a scan solves at once: two, so that a chunk's rows are formatted (one thread)
    /// while the next is solved, and on the GPU one chunk's passes overlap the CPU's work on
    /// the other's leftovers.
    pub fn chunks_in_flight(&self) -> usize {
        2
    }

    /// Solves `sets` (of one move count) exactly, in order, within `budget`.
    pub fn solve(&self, sets: &[MoveSet], budget: Budget) -> Result<Vec<Solution>, ScanError> {
        Ok(match self {
            Backend::Reference => {
                let share = budget.share(rayon::current_num_threads() as u64);
                sets.par_iter()
                    .map(|&t| reference_within(t, share))
                    .collect::<Result<_, _>>()?
            }
            Backend::Cpu => lanes::solve_sets(sets, long_cap, budget)?,
            Backend::Gpu(gpu) => gpu
                .solve(sets, budget)?
                .into_iter()
                .collect::<Result<_, _>>()?,
        })
    }
}

/// Bytes the reference holds per value at most: the values (`u32`) and the outcomes (`bool`).
const REFERENCE_BYTES_PER_VALUE: u64 = 5;

/// The reference's solution of `t` within `share` bytes.
fn reference_within(t: MoveSet, share: Budget) -> Result<Solution, NotCertified> {
    let room = usize::try_from(share.bytes() / REFERENCE_BYTES_PER_VALUE).unwrap_or(usize::MAX);
    let cap = long_cap(&t);
    reference::solve(&t.ruleset(), cap.min(room)).map_err(|mut e| {
        if room < cap {
            e.memory = Some(share.bytes());
        }
        e
    })
}

/// Refuses a scan whose sets may not fit `budget` on all threads at once: up to the envelope
/// `c^2/2 + c + 64` (docs/subtraction.md, section 2 for triples; `c` the largest move) values of
/// one set per
/// thread, with the reference's `reference_bytes` or the fast path's bytes per value. (Past the
/// envelope a set grows within its thread's share, and is reported if that is not enough.)
pub fn check_memory(filter: &SetFilter, reference: bool, budget: Budget) -> Result<(), OverBudget> {
    let c = filter.c_max as usize;
    let threads = rayon::current_num_threads() as u64;
    let envelope = envelope(c);
    let per_thread = if reference {
        envelope as u64 * REFERENCE_BYTES_PER_VALUE
    } else {
        solver_bytes(filter.moves, c, envelope) + lanes::lane_bytes(filter.moves, c)
    };
    budget.check(per_thread.saturating_mul(threads), || {
        format!(
            "a scan with largest moves up to {c} ({threads} threads, each holding up to {envelope} values of one set and its lanes' rows)"
        )
    })
}

/// Scans smaller than this many rulesets run on the CPU under `auto`: over in moments on either
/// path, not worth a calibration.
pub const CALIBRATE_FROM: u64 = 1 << 22;
/// Sets a calibration times on each backend.
pub const CALIBRATION_SETS: usize = 1 << 16;

/// The fast CPU path and the GPU timed on the same sample, for `auto` on a hardware adapter.
#[derive(Clone, Copy, Debug)]
pub struct Calibration {
    pub sets: usize,
    /// The sample's largest move `c`: the largest of the scan, whose sets are most of its
    /// work.
    pub c: u32,
    pub cpu: std::time::Duration,
    pub gpu: std::time::Duration,
}

impl Calibration {
    /// Times both backends on sets spread over the largest `c` of `filter` (`None` if it has
    /// none), checking that they agree.
    pub fn run(
        filter: &SetFilter,
        gpu: &SubtractionGpu<'_>,
        budget: Budget,
    ) -> Result<Option<Self>, ScanError> {
        let sample = Self::sample(filter);
        if sample.is_empty() {
            return Ok(None);
        }
        let start = std::time::Instant::now();
        let on_cpu = Backend::Cpu.solve(&sample, budget)?;
        let cpu = start.elapsed();
        let start = std::time::Instant::now();
        let on_gpu = gpu.solve(&sample, budget)?;
        let gpu_time = start.elapsed();
        gpu.take_stats();
        for ((t, want), got) in sample.iter().zip(&on_cpu).zip(on_gpu) {
            let got = got?;
            if got.key() != want.key() {
                return Err(ScanError::Mismatch {
                    backend: "gpu",
                    set: t.ruleset().to_string(),
                    got: got.key(),
                    want: want.key(),
                });
            }
        }
        Ok(Some(Calibration {
            sets: sample.len(),
            c: filter.c_max,
            cpu,
            gpu: gpu_time,
        }))
    }

    /// Up to [`CALIBRATION_SETS`] sets spread evenly over the largest `c` of `filter`.
    pub fn sample(filter: &SetFilter) -> Vec<MoveSet> {
        let top = SetFilter {
            c_min: filter.c_max,
            ..filter.clone()
        };
        let count = top.count().map_or(usize::MAX, |n| n as usize).max(1);
        top.sets()
            .step_by(count.div_ceil(CALIBRATION_SETS))
            .collect()
    }

    pub fn gpu_is_faster(&self) -> bool {
        self.gpu < self.cpu
    }
}

impl fmt::Display for Calibration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} sets with largest move {}: gpu {:.1} ms, cpu {:.1} ms",
            self.sets,
            self.c,
            self.gpu.as_secs_f64() * 1e3,
            self.cpu.as_secs_f64() * 1e3
        )
    }
}

/// Everything that can stop a scan.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScanError {
    #[error(transparent)]
    Output(#[from] ResumeError),
    #[error("writing results failed")]
    Io(#[from] io::Error),
    #[error(transparent)]
    NotCertified(#[from] NotCertified),
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A fast backend disagreed with the reference on a sampled ruleset: a bug, never ignored.
    #[error(
        "the {backend} backend disagrees with the reference on {set}: (p, q, p0, q0) = {got:?}, reference {want:?}"
    )]
    Mismatch {
        backend: &'static str,
        set: String,
        got: [usize; 4],
        want: [usize; 4],
    },
    #[error(transparent)]
    Misere(#[from] MisereError),
    /// A sampled set whose genera prove no period within the check's length.
    #[error(
        "the genera of {set} prove no period within {len} heaps, so its misère columns cannot be checked; lower --verify-sample or raise --mem-budget"
    )]
    MisereUnchecked { set: String, len: usize },
    /// The misère columns derived from a row disagree with the genera: a bug, never ignored.
    #[error(
        "the misère columns of {set} derived from normal play (docs/misere.md, Corollary 6.1) are {got:?}, its genera prove {want:?}: a bug in nimseq or in the proof"
    )]
    MisereMismatch {
        set: String,
        got: [usize; 4],
        want: [usize; 4],
    },
}

/// Refuses the theory columns for sets of other than three moves: Manabe's paper, which they
/// come from, is about triples.
pub fn check_theory(filter: &SetFilter, theory: bool) -> Result<(), crate::InputError> {
    match theory && filter.moves != 3 {
        true => Err(crate::InputError(format!(
            "the theory columns come from Manabe's paper, which is about three moves: drop --theory with --moves {}",
            filter.moves
        ))),
        false => Ok(()),
    }
}

/// What a scan does, beyond the backend.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScanOptions {
    #[serde(flatten)]
    pub filter: SetFilter,
    /// Format, shard, chunk size (in sets), where the rows go.
    #[serde(flatten)]
    pub output: ScanOutput,
    /// Add the misère columns ([`MiserePeriods`]) to each row.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub misere: bool,
    /// Add the theory columns ([`TheoryColumns`]) to each row.
    pub theory: bool,
    /// Fraction of rows re-solved by the reference backend; `None`: the backend's default.
    #[serde(skip)]
    pub verify_sample: Option<f64>,
    /// What the solvers' values may take, all threads together.
    #[serde(skip)]
    pub budget: Budget,
}

/// The largest moves `c_max` a scan takes (`--c-max`, `--max-move`).
pub const C_MAX_RANGE: std::ops::RangeInclusive<i64> = 2..=100_000;

/// Default chunk size: large enough to fill a big GPU, small enough to checkpoint often.
pub const DEFAULT_CHUNK_SIZE: u64 = 1 << 18;

impl Tally<MoveSet, Solution> for ScanSummary {
    const COMMAND: &'static str = "nimseq sub scan";
    fn add(&mut self, t: &MoveSet, s: &Solution) {
        ScanSummary::add(self, t, s);
    }

    fn add_chunk(&mut self, sets: &[MoveSet], solved: &[Solution]) {
        self.add_rows(sets, solved);
    }

    fn add_work(&mut self, part: &Self) {
        self.values += part.values;
    }
}

impl Scan for ScanOptions {
    type Item = MoveSet;
    type Solved = Solution;
    type Error = ScanError;
    const UNIT: &'static str = "rulesets";

    fn output(&self) -> &ScanOutput {
        &self.output
    }

    fn output_mut(&mut self) -> &mut ScanOutput {
        &mut self.output
    }

    fn check(&self) -> Result<(), ScanError> {
        Ok(check_memory(&self.filter, false, self.budget)?)
    }

    fn count(&self) -> u64 {
        self.filter
            .count()
            .expect("a checked filter counts within u64")
    }

    fn items(&self, skip: u64) -> impl Items<Item = MoveSet> + '_ {
        let mut sets = self.filter.sets();
        if let Some(last) = skip.checked_sub(1) {
            sets.nth(last as usize);
        }
        sets
    }

    fn header(&self) -> &'static str {
        csv_header(self.filter.moves, self.misere, self.theory)
    }

    /// The moves as `UInt16` where they fit (every `c_max` below 65,536): the columns a
    /// notebook holds in memory are then a fifth smaller, and load faster.
    fn columns(&self) -> Vec<Column> {
        let moves = match self.filter.c_max <= u32::from(u16::MAX) {
            true => Kind::U16,
            false => Kind::U32,
        };
        let mut columns = vec![Column::required(moves); self.filter.moves];
        columns.extend([Column::required(Kind::U32); 4]);
        if self.misere {
            columns.extend([Column::required(Kind::U32); 4]);
        }
        if self.theory {
            columns.extend(THEORY_COLUMNS);
        }
        columns
    }

    /// The moves must be `t`'s; the misère and theory columns, made from the rest, are not read.
    fn read_row(&self, t: &MoveSet, fields: &[Field<'_>]) -> Result<Solution, String> {
        let f = ReadFields::new(self.header(), fields)?;
        let k = t.k();
        let moves = (0..k)
            .map(|i| f.unsigned(i))
            .collect::<Result<Vec<_>, _>>()?;
        if moves
            .iter()
            .copied()
            .ne(t.moves().iter().map(|&m| u64::from(m)))
        {
            let read: Vec<String> = moves.iter().map(u64::to_string).collect();
            return Err(format!(
                "the row of {{{}}} where the scan has {t} next",
                read.join(",")
            ));
        }
        let number = |i| f.unsigned(i).map(|n| n as usize);
        Ok(Solution {
            period: number(k)?,
            preperiod: number(k + 1)?,
            outcome_period: number(k + 2)?,
            outcome_preperiod: number(k + 3)?,
            // Not in the rows: the work of finding them.
            checked_len: 0,
        })
    }

    fn fields(&self, sets: &[MoveSet], solutions: &[Solution], out: &mut dyn FnMut(Field<'_>)) {
        for (&t, s) in sets.iter().zip(solutions) {
            ScanRow::new(t, s, self.misere, self.theory).fields(out);
        }
    }

    /// The rows formatted on all cores, `ROWS_PER_PIECE` a task.
    fn rows(&self, sets: &[MoveSet], solutions: &[Solution]) -> io::Result<Vec<Vec<u8>>> {
        sets.par_chunks(ROWS_PER_PIECE)
            .zip(solutions.par_chunks(ROWS_PER_PIECE))
            .map(|(sets, solutions)| {
                let mut text = Vec::with_capacity(sets.len() * 40);
                for (&t, s) in sets.iter().zip(solutions) {
                    self.output
                        .format
                        .write_row(&mut text, &ScanRow::new(t, s, self.misere, self.theory))?;
                }
                Ok(text)
            })
            .collect()
    }
}

impl<'a> SolveOn<Backend<'a>> for ScanOptions {
    /// A chunk a call; the reference's memory is checked here, as only it needs more.
    fn plan(&self, backend: &Backend<'a>) -> Result<Plan, ScanError> {
        if matches!(backend, Backend::Reference) {
            check_memory(&self.filter, true, self.budget)?;
        }
        Ok(Plan {
            items_per_call: self.output.chunk_size,
            calls_in_flight: backend.chunks_in_flight(),
        })
    }

    /// The backend's solutions, a sample of them re-solved by the reference
    /// ([`ScanOptions::verify_sample`]).
    fn solve(
        &self,
        backend: &Backend<'a>,
        sets: &[MoveSet],
        _: &ProgressBar,
    ) -> Result<Vec<Solution>, ScanError> {
        let solutions = backend.solve(sets, self.budget)?;
        let fraction = self
            .verify_sample
            .unwrap_or(backend.default_verify_sample());
        let share = self.budget.share(rayon::current_num_threads() as u64);
        let checks = Checks {
            // The reference backend's rows are the reference's.
            normal: !matches!(backend, Backend::Reference),
            misere: self.misere,
        };
        verify_sample(backend.name(), sets, &solutions, fraction, checks, share)?;
        Ok(solutions)
    }
}

/// Rows per piece formatted by one task.
const ROWS_PER_PIECE: usize = 1 << 12;

/// Opens and runs a scan in one step.
pub fn run_scan(
    opts: &ScanOptions,
    backend: &Backend<'_>,
    stdout: &mut dyn Write,
) -> Result<ScanSummary, ScanError> {
    ScanJob::<_, ScanSummary>::open(opts)?.run(backend, stdout)
}

/// [`run_scan`] without rows (unless `opts` names a file): the summary only, what a bench
/// times.
pub fn tally_scan(opts: &ScanOptions, backend: &Backend<'_>) -> Result<ScanSummary, ScanError> {
    ScanJob::<_, ScanSummary>::open(opts)?.run_tally(backend)
}

/// What a sampled row is checked for.
#[derive(Clone, Copy)]
struct Checks {
    /// The normal-play columns, against the reference.
    normal: bool,
    /// The misère columns, against the genera computed from the rules.
    misere: bool,
}

/// Re-solves a random `fraction` of `sets` and compares.
fn verify_sample(
    backend: &'static str,
    sets: &[MoveSet],
    solutions: &[Solution],
    fraction: f64,
    checks: Checks,
    share: Budget,
) -> Result<(), ScanError> {
    let Some(sample) = Sample::new(fraction).filter(|_| checks.normal || checks.misere) else {
        return Ok(());
    };
    sets.par_iter()
        .zip(solutions)
        .filter(|(t, _)| sample.picks(t.moves()))
        .try_for_each(|(t, got)| {
            if checks.normal {
                let want = reference_within(*t, share)?;
                if want.key() != got.key() {
                    return Err(ScanError::Mismatch {
                        backend,
                        set: t.ruleset().to_string(),
                        got: got.key(),
                        want: want.key(),
                    });
                }
            }
            if checks.misere {
                let got = MiserePeriods::derived(t.moves()[0] as usize, got);
                let want = misere_within(*t, share)?;
                if want != got {
                    return Err(ScanError::MisereMismatch {
                        set: t.ruleset().to_string(),
                        got: got.key(),
                        want: want.key(),
                    });
                }
            }
            Ok(())
        })
}

/// Genera a misère check computes at most for one set, within its thread's share too.
const MISERE_CHECK_LEN: usize = 1 << 22;

/// The misère periods of `t` as its genera prove them from the rules, within `share` bytes.
fn misere_within(t: MoveSet, share: Budget) -> Result<MiserePeriods, ScanError> {
    let genus = std::mem::size_of::<crate::misere::Genus>() as u64;
    let room = usize::try_from(share.bytes() / genus).unwrap_or(usize::MAX);
    let set = t.ruleset();
    match Genera::new(&set).certify(room.min(MISERE_CHECK_LEN))? {
        (Some(proof), _) => Ok(MiserePeriods::of_genera(&proof)),
        (None, len) => Err(ScanError::MisereUnchecked {
            set: set.to_string(),
            len,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::fields_csv;

    /// The fast CSV spelling of a row is the text of its typed fields (which the Python
    /// binding reads), with and without the misère and theory columns, for every triple with
    /// c <= 40.
    #[test]
    fn rows_spell_their_fields() {
        let filter = SetFilter::up_to(40);
        let triples: Vec<MoveSet> = filter.sets().collect();
        let solutions = Backend::Cpu
            .solve(&triples, Budget::from_flag(Some(1 << 30)))
            .unwrap();
        for (misere, theory) in [(false, false), (false, true), (true, false), (true, true)] {
            let header = csv_header(3, misere, theory);
            for (&t, s) in triples.iter().zip(&solutions) {
                let row = ScanRow::new(t, s, misere, theory);
                let (mut fast, mut plain) = (Vec::new(), Vec::new());
                row.write_csv(&mut fast).unwrap();
                fields_csv(&row, &mut plain).unwrap();
                assert_eq!(String::from_utf8(fast), String::from_utf8(plain));
                let mut count = 0;
                row.fields(&mut |_| count += 1);
                assert_eq!(count, header.split(',').count());
            }
        }
    }
}
