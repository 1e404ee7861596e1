//! `nimseq octal scan`: every code `0.d1...dk` with `dk != 0` (448 octal codes of 3 digits,
//! 3,584 of 4; 240 hexadecimal codes of 2 digits, 3,840 of 3) to a fixed length, one row each:
//! its certified period and pre-period or none, and ogsolve's checksum of the same
//! `G(0..n-max)`, so that codes with one sequence group by it.
//! Rows go out chunk by chunk, resumable, in shards, through the driver `sub scan` uses
//! ([`crate::output::scan`]); a sample of the GPU's rows is re-checked on the CPU path.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::io;
use std::sync::Mutex;

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::canonical::canonical;
use super::code::OctalCode;
use super::gpu::OctalGpu;
use super::row::{COLUMNS, OctalRow, ScanBackend, solve_shared};
use super::seq::{OctalError, memory};
use crate::backend::{Chosen, announce_calibrated};
use crate::memory::{Budget, OverBudget};
use crate::output::parquet::Column;
use crate::output::resumable::ResumeError;
use crate::output::scan::{Items, OneByOne, Plan, Sample, Scan, ScanOutput, SolveOn, Tally};
use crate::output::{Field, Format, ReadFields, Row};

/// Digits after the point a scan may ask for: 6 is 229,376 octal codes.
pub const MAX_DIGITS: usize = 6;

/// The bases a scan's digits may run over: octal (moves leave up to two heaps) and
/// hexadecimal (up to three: `--base 16`).
pub const BASES: [u32; 2] = [8, 16];

/// The base `text` names if a scan may run over it, else why not.
pub fn parse_base(text: &str) -> Result<u32, String> {
    one_of(text, &BASES, "the base")
}

/// The value `text` names if it is one of `allowed`, else why not (`what` names it).
fn one_of<T: std::str::FromStr + PartialEq + fmt::Display>(
    text: &str,
    allowed: &[T],
    what: &str,
) -> Result<T, String> {
    let names: Vec<String> = allowed.iter().map(T::to_string).collect();
    text.parse()
        .ok()
        .filter(|v| allowed.contains(v))
        .ok_or_else(|| format!("{what} is {}, not '{text}'", names.join(" or ")))
}

/// The digits a scan's codes may have before the point: 0, or 4 (a heap may also be split in
/// two with nothing taken: `4.007`).
pub const FIRST_DIGITS: [u8; 2] = [0, 4];

/// The digit before the point `text` names if a scan may take it, else why not.
pub fn parse_d0(text: &str) -> Result<u8, String> {
    one_of(text, &FIRST_DIGITS, "the digit before the point")
}

/// Values `n_max` a scan computes of each code (`--n-max`).
pub const N_MAX_RANGE: std::ops::RangeInclusive<u64> = 1..=1 << 24;

/// What computes a scan's rows.
pub enum Device<'c> {
    /// One code a thread.
    Cpu(ScanBackend),
    /// Many codes in lock-step on the GPU.
    Gpu(OctalGpu<'c>),
}

/// A scan's device, and the rows it solved lately: the fast paths solve one code of each
/// set that is the same game ([`canonical`]) and copy its row to the others; the reference,
/// the oracle, solves every code itself.
pub struct Backend<'c> {
    pub device: Device<'c>,
    recent: Mutex<Recent>,
}

impl<'c> From<Device<'c>> for Backend<'c> {
    fn from(device: Device<'c>) -> Self {
        Backend {
            device,
            recent: Mutex::default(),
        }
    }
}

/// Canonical codes whose rows a backend keeps: every code of 5 octal digits (28,672), some
/// 10 MB. A code's canonical code comes before it in a scan, most often a few codes before.
const RECENT_ROWS: usize = 1 << 15;

/// The rows of the last [`RECENT_ROWS`] canonical codes solved, all to one `n_max`.
#[derive(Default)]
struct Recent {
    n_max: usize,
    rows: HashMap<OctalCode, OctalRow>,
    order: VecDeque<OctalCode>,
}

impl Recent {
    /// The rows kept for `n_max`: none kept for another length.
    fn to(&mut self, n_max: usize) -> &mut Self {
        if self.n_max != n_max {
            *self = Recent {
                n_max,
                ..Recent::default()
            };
        }
        self
    }

    fn keep(&mut self, code: OctalCode, row: OctalRow) {
        if self.rows.insert(code.clone(), row).is_none() {
            self.order.push_back(code);
        }
        if self.order.len() > RECENT_ROWS {
            let oldest = self.order.pop_front().expect("more rows than the bound");
            self.rows.remove(&oldest);
        }
    }
}

/// Codes the GPU takes in one call: more than a large card holds at once (an H200's 132
/// multiprocessors run 8 workgroups of 256 each), so that codes which settle early leave room
/// for others, and every code of 4 digits (3,584) in one call. The GPU host splits a call
/// that does not fit its memory.
pub const GPU_CODES_PER_CALL: u64 = 4096;

/// Codes a call of the CPU paths takes per thread: enough that one slow code does not leave
/// the other threads idle at the end of the call.
const CPU_CODES_PER_THREAD: u64 = 8;

impl Device<'_> {
    pub fn name(&self) -> &'static str {
        match self {
            Device::Cpu(ScanBackend::Reference) => "reference",
            Device::Cpu(ScanBackend::Cpu) => "cpu",
            Device::Gpu(_) => "gpu",
        }
    }

    /// The rows of `codes` to `n_max`, in order, the GPU's host copies within `budget`; the
    /// GPU says in the message of `progress` how far its rounds got. Every code is solved
    /// itself (what `nimseq bench` times).
    pub fn solve(
        &self,
        codes: &[OctalCode],
        n_max: usize,
        budget: Budget,
        progress: &ProgressBar,
    ) -> Result<Vec<OctalRow>, OctalError> {
        match self {
            Device::Cpu(solver) => {
                let threads = rayon::current_num_threads();
                codes
                    .par_iter()
                    .map(|code| solve_shared(code, n_max, *solver, budget, threads))
                    .collect()
            }
            Device::Gpu(gpu) => gpu.solve(codes, n_max, budget, progress),
        }
    }
}

impl Backend<'_> {
    /// The rows of `codes` to `n_max`, in order (see [`Device::solve`]). The fast paths
    /// solve only the canonical codes whose rows they do not keep, and keep them.
    pub fn solve(
        &self,
        codes: &[OctalCode],
        n_max: usize,
        budget: Budget,
        progress: &ProgressBar,
    ) -> Result<Vec<OctalRow>, OctalError> {
        if let Device::Cpu(ScanBackend::Reference) = self.device {
            return self.device.solve(codes, n_max, budget, progress);
        }
        let images: Vec<OctalCode> = codes.par_iter().map(canonical).collect();
        let wanted: Vec<OctalCode> = {
            let mut recent = self
                .recent
                .lock()
                .expect("no thread panicked holding the rows");
            let kept = &recent.to(n_max).rows;
            let mut seen = HashSet::new();
            images
                .iter()
                .filter(|image| !kept.contains_key(*image) && seen.insert(*image))
                .cloned()
                .collect()
        };
        let solved = self.device.solve(&wanted, n_max, budget, progress)?;
        let mut recent = self
            .recent
            .lock()
            .expect("no thread panicked holding the rows");
        let recent = recent.to(n_max);
        let rows = {
            let fresh: HashMap<&OctalCode, &OctalRow> = wanted.iter().zip(&solved).collect();
            let row_of = |image| {
                fresh
                    .get(image)
                    .copied()
                    .unwrap_or_else(|| &recent.rows[image])
            };
            codes
                .iter()
                .zip(&images)
                .map(|(code, image)| OctalRow {
                    code: code.to_string(),
                    ..row_of(image).clone()
                })
                .collect()
        };
        for (image, row) in wanted.into_iter().zip(solved) {
            recent.keep(image, row);
        }
        Ok(rows)
    }

    /// Codes one call should take to keep the backend busy.
    pub fn codes_per_call(&self) -> u64 {
        match self.device {
            Device::Cpu(_) => CPU_CODES_PER_THREAD * rayon::current_num_threads() as u64,
            Device::Gpu(_) => GPU_CODES_PER_CALL,
        }
    }

    /// Fraction of rows a scan re-checks unless told otherwise: the GPU path runs on drivers
    /// nimseq does not control, so a small sample is always checked there.
    pub fn default_verify_sample(&self) -> f64 {
        match self.device {
            Device::Gpu(_) => 0.01,
            Device::Cpu(_) => 0.0,
        }
    }

    /// The solver that re-checks this backend's rows, code by code (each solved itself, so a
    /// copied row checks the rule that copied it): the CPU path the GPU's, the reference the
    /// CPU path's; none checks the reference.
    fn checker(&self) -> Option<ScanBackend> {
        match self.device {
            Device::Gpu(_) => Some(ScanBackend::Cpu),
            Device::Cpu(ScanBackend::Cpu) => Some(ScanBackend::Reference),
            Device::Cpu(ScanBackend::Reference) => None,
        }
    }
}

/// Scans of less work than this (codes times `n_max`) run on the CPU path under `auto`: over
/// in moments either way, not worth a calibration.
pub const CALIBRATE_FROM: u64 = 1 << 22;
/// Values a calibration computes on each backend, codes times length, at most.
const CALIBRATION_WORK: usize = 1 << 22;

/// The CPU path and the GPU timed on the same codes, for `auto` on a hardware adapter.
#[derive(Clone, Copy, Debug)]
pub struct Calibration {
    pub codes: usize,
    /// The length each code was computed to: an eighth of the scan's (1,024 at least), so
    /// that the sample costs a small part of the scan.
    pub n: usize,
    pub cpu: std::time::Duration,
    pub gpu: std::time::Duration,
}

impl Calibration {
    /// Times both on codes spread evenly over the scan (as many as one GPU call takes, within
    /// 2^22 values), checking that their rows are the same.
    pub fn run(opts: &ScanOptions, gpu: &Backend<'_>) -> Result<Self, ScanError> {
        let n = (opts.n_max / 8).max(1024).min(opts.n_max);
        let total = code_count(opts.digits, opts.base) as usize;
        let wanted = (GPU_CODES_PER_CALL as usize)
            .min(CALIBRATION_WORK / n)
            .clamp(1, total);
        let sample: Vec<OctalCode> = codes(opts.digits, opts.base, opts.d0)
            .step_by(total.div_ceil(wanted))
            .collect();
        let quiet = ProgressBar::hidden();
        let start = std::time::Instant::now();
        let want =
            Backend::from(Device::Cpu(ScanBackend::Cpu)).solve(&sample, n, opts.budget, &quiet)?;
        let cpu = start.elapsed();
        let start = std::time::Instant::now();
        let got = gpu.solve(&sample, n, opts.budget, &quiet)?;
        let gpu_time = start.elapsed();
        for ((code, got), want) in sample.iter().zip(&got).zip(&want) {
            if got != want {
                return Err(ScanError::Mismatch {
                    backend: "gpu",
                    checker: "cpu",
                    code: code.to_string(),
                    got: csv_line(got)?,
                    want: csv_line(want)?,
                });
            }
        }
        Ok(Calibration {
            codes: sample.len(),
            n,
            cpu,
            gpu: gpu_time,
        })
    }
}

impl fmt::Display for Calibration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} codes to n = {}: gpu {:.1} ms, cpu {:.1} ms",
            self.codes,
            self.n,
            self.gpu.as_secs_f64() * 1e3,
            self.cpu.as_secs_f64() * 1e3
        )
    }
}

impl<'c> Backend<'c> {
    /// The backend `chosen` stands for. Under `auto` on a hardware adapter, whichever of the
    /// GPU and the CPU path is faster on a sample of the scan's codes ([`Self::faster`]);
    /// stderr says which runs.
    pub fn chosen(chosen: &'c Chosen, opts: &ScanOptions) -> Result<Self, ScanError> {
        Ok(match chosen {
            Chosen::Reference => Device::Cpu(ScanBackend::Reference).into(),
            Chosen::Cpu => Device::Cpu(ScanBackend::Cpu).into(),
            Chosen::Gpu { ctx, auto: false } => {
                log::info!("backend: gpu, {}", ctx.describe());
                Device::Gpu(OctalGpu::new(ctx).map_err(OctalError::Gpu)?).into()
            }
            Chosen::Gpu { ctx, auto: true } => {
                let gpu = OctalGpu::new(ctx).map_err(OctalError::Gpu)?;
                let (backend, why) = Backend::faster(opts, gpu)?;
                announce_calibrated(ctx, matches!(backend.device, Device::Gpu(_)), &why);
                backend
            }
        })
    }

    /// `auto` on a hardware GPU: whichever of `gpu` and the CPU path is faster on a sample of
    /// the scan's codes ([`Calibration`]), with the reason in words. Small scans, and a GPU
    /// that fails its calibration, take the CPU path; rows that differ are a bug and an error.
    pub fn faster(opts: &ScanOptions, gpu: OctalGpu<'c>) -> Result<(Self, String), ScanError> {
        let cpu = Device::Cpu(ScanBackend::Cpu).into();
        if code_count(opts.digits, opts.base).saturating_mul(opts.n_max as u64) < CALIBRATE_FROM {
            return Ok((cpu, "a small scan, done in moments either way".into()));
        }
        let name = gpu.context().info.name.clone();
        let gpu = Backend::from(Device::Gpu(gpu));
        Ok(match Calibration::run(opts, &gpu) {
            Err(ScanError::Octal(OctalError::Gpu(e))) => {
                (cpu, format!("{name} failed its calibration: {e}"))
            }
            Err(e) => return Err(e),
            Ok(c) if c.gpu < c.cpu => (gpu, format!("faster than the cpu path: {c}")),
            Ok(c) => (cpu, format!("faster than {name}: {c}")),
        })
    }
}

/// What a scan computes and where its rows go.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScanOptions {
    pub digits: usize,
    /// 8 or 16 ([`BASES`]); left out of the job's record when 8, as before there was a choice,
    /// so that octal scans resume and merge with those of older builds.
    #[serde(default = "octal", skip_serializing_if = "is_octal")]
    pub base: u32,
    /// 0 or 4 ([`FIRST_DIGITS`]); left out of the job's record when 0, as for `base`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub d0: u8,
    pub n_max: usize,
    /// Format, shard, chunk size (in codes), where the rows go.
    #[serde(flatten)]
    pub output: ScanOutput,
    /// Fraction of rows re-solved by the backend's checker; `None`: the backend's default.
    #[serde(skip)]
    pub verify_sample: Option<f64>,
    #[serde(skip)]
    pub budget: Budget,
}

/// Why a scan stopped.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error(transparent)]
    Octal(#[from] OctalError),
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    #[error(transparent)]
    Resume(#[from] ResumeError),
    #[error("cannot write the rows")]
    Io(#[from] io::Error),
    /// A backend disagreed with its checker on a sampled code: a bug, never ignored.
    #[error(
        "the {backend} backend disagrees with the {checker} path on {code}: row {got}, the {checker} path's {want}"
    )]
    Mismatch {
        backend: &'static str,
        checker: &'static str,
        code: String,
        got: String,
        want: String,
    },
}

fn octal() -> u32 {
    8
}

fn is_octal(base: &u32) -> bool {
    *base == 8
}

fn is_zero(d0: &u8) -> bool {
    *d0 == 0
}

/// How many codes have `digits` digits of `base` after the point, the last non-zero.
pub fn code_count(digits: usize, base: u32) -> u64 {
    let base = u64::from(base);
    (base - 1).saturating_mul(base.saturating_pow(digits.saturating_sub(1) as u32))
}

/// Every code `d0.d1...` of `digits` digits of `base` (8 or 16) after the point, the last
/// non-zero, in increasing order.
pub fn codes(digits: usize, base: u32, d0: u8) -> impl Iterator<Item = OctalCode> {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    let b = u64::from(base);
    (0..code_count(digits, base)).map(move |k| {
        // The last digit runs over 1..base, the others over 0..base, the first most significant.
        let mut text = format!("{d0}.");
        let (rest, last) = (k / (b - 1), k % (b - 1) + 1);
        for i in (0..digits - 1).rev() {
            text.push(char::from(DIGITS[(rest / b.pow(i as u32) % b) as usize]));
        }
        text.push(char::from(DIGITS[last as usize]));
        text.parse().expect("a valid code")
    })
}

/// Running totals over a scan's rows, saved with each checkpoint.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct OctalScanSummary {
    pub settled: u64,
    pub unsettled: u64,
    /// The longest period and pre-period and a code (the first) that has it.
    pub longest_period: Option<(usize, String)>,
    pub longest_preperiod: Option<(usize, String)>,
}

impl Tally<OctalCode, OctalRow> for OctalScanSummary {
    const COMMAND: &'static str = "nimseq octal scan";
    fn add(&mut self, _: &OctalCode, row: &OctalRow) {
        let (Some(p), Some(pre)) = (row.period, row.preperiod) else {
            self.unsettled += 1;
            return;
        };
        self.settled += 1;
        let longer = |best: &Option<(usize, String)>, x| best.as_ref().is_none_or(|b| x > b.0);
        if longer(&self.longest_period, p) {
            self.longest_period = Some((p, row.code.clone()));
        }
        if longer(&self.longest_preperiod, pre) {
            self.longest_preperiod = Some((pre, row.code.clone()));
        }
    }
}

impl fmt::Display for OctalScanSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} codes: {} settled, {} unsettled",
            self.settled + self.unsettled,
            self.settled,
            self.unsettled
        )?;
        if let (Some((p, pc)), Some((pre, prec))) = (&self.longest_period, &self.longest_preperiod)
        {
            write!(
                f,
                "; longest period {p} ({pc}), longest pre-period {pre} ({prec})"
            )?;
        }
        Ok(())
    }
}

/// Refuses codes to `n_max` that may not fit `budget`, one code on each thread at once. Any
/// code may make every size rare; the pair bitsets of codes that split a heap in three take at
/// least a word a size, and are checked again as the values widen them
/// ([`super::row::solve`]).
pub fn check_memory(n_max: usize, three_heaps: bool, budget: Budget) -> Result<(), OverBudget> {
    let threads = rayon::current_num_threads() as u64;
    let bitsets = if three_heaps { 8 * n_max as u64 } else { 0 };
    let one = memory(n_max, n_max, 0).saturating_add(bitsets);
    budget.check(one.saturating_mul(threads), || {
        format!("{threads} codes to n = {n_max} at once")
    })
}

impl Scan for ScanOptions {
    type Item = OctalCode;
    type Solved = OctalRow;
    type Error = ScanError;
    const UNIT: &'static str = "codes";

    fn output(&self) -> &ScanOutput {
        &self.output
    }

    fn output_mut(&mut self) -> &mut ScanOutput {
        &mut self.output
    }

    fn check(&self) -> Result<(), ScanError> {
        Ok(check_memory(self.n_max, self.base > 8, self.budget)?)
    }

    fn count(&self) -> u64 {
        code_count(self.digits, self.base)
    }

    fn items(&self, skip: u64) -> impl Items<Item = OctalCode> + '_ {
        OneByOne(codes(self.digits, self.base, self.d0).skip(skip as usize))
    }

    fn header(&self) -> &'static str {
        OctalRow::CSV_HEADER
    }

    /// Three columns were added (the observed arithmetic period): older files have 8.
    fn changed_columns(&self) -> Option<&'static str> {
        Some(OctalRow::CSV_HEADER)
    }

    fn columns(&self) -> Vec<Column> {
        COLUMNS.to_vec()
    }

    fn read_row(&self, code: &OctalCode, fields: &[Field<'_>]) -> Result<OctalRow, String> {
        let f = ReadFields::new(self.header(), fields)?;
        let written = f.text(0)?;
        if written != code.to_string() {
            return Err(format!(
                "the row of {written} where the scan has {code} next"
            ));
        }
        let optional = |i| f.optional(i).map(|n| n.map(|n| n as usize));
        Ok(OctalRow {
            code: written,
            period: optional(1)?,
            preperiod: optional(2)?,
            certified_at: optional(3)?,
            computed: f.unsigned(4)? as usize,
            max_value: u32::try_from(f.unsigned(5)?).map_err(|e| e.to_string())?,
            rare_count: f.unsigned(6)?,
            checksum: f.text(7)?,
            observed_period: optional(8)?,
            observed_preperiod: optional(9)?,
            observed_saltus: f
                .optional(10)?
                .map(u32::try_from)
                .transpose()
                .map_err(|e| e.to_string())?,
        })
    }

    fn fields(&self, _: &[OctalCode], rows: &[OctalRow], out: &mut dyn FnMut(Field<'_>)) {
        for row in rows {
            row.fields(out);
        }
    }

    fn rows(&self, _: &[OctalCode], rows: &[OctalRow]) -> io::Result<Vec<Vec<u8>>> {
        let mut text = Vec::new();
        for row in rows {
            self.output.format.write_row(&mut text, row)?;
        }
        Ok(vec![text])
    }
}

impl<'c> SolveOn<Backend<'c>> for ScanOptions {
    fn plan(&self, backend: &Backend<'c>) -> Result<Plan, ScanError> {
        Ok(Plan {
            items_per_call: backend.codes_per_call(),
            calls_in_flight: 1,
        })
    }

    /// The backend's rows, a sample of them re-solved by its checker
    /// ([`ScanOptions::verify_sample`]).
    fn solve(
        &self,
        backend: &Backend<'c>,
        codes: &[OctalCode],
        progress: &ProgressBar,
    ) -> Result<Vec<OctalRow>, ScanError> {
        let rows = backend.solve(codes, self.n_max, self.budget, progress)?;
        let fraction = self
            .verify_sample
            .unwrap_or(backend.default_verify_sample());
        verify_sample(backend, codes, &rows, self.n_max, fraction, self.budget)?;
        Ok(rows)
    }
}

/// `row` as its CSV line, for messages.
fn csv_line(row: &OctalRow) -> io::Result<String> {
    let mut line = Vec::new();
    Format::Csv.write_row(&mut line, row)?;
    Ok(String::from_utf8_lossy(&line).trim_end().to_string())
}

/// Re-solves a random `fraction` of `codes` with the checker of `backend` and compares the
/// rows it gave.
fn verify_sample(
    backend: &Backend<'_>,
    codes: &[OctalCode],
    rows: &[OctalRow],
    n_max: usize,
    fraction: f64,
    budget: Budget,
) -> Result<(), ScanError> {
    let (Some(checker), Some(sample)) = (backend.checker(), Sample::new(fraction)) else {
        return Ok(());
    };
    let checker_name = Device::Cpu(checker).name();
    let threads = rayon::current_num_threads();
    codes
        .par_iter()
        .zip(rows)
        .filter(|(code, _)| sample.picks(code))
        .try_for_each(|(code, got)| {
            let want = solve_shared(code, n_max, checker, budget, threads)?;
            if &want == got {
                return Ok(());
            }
            Err(ScanError::Mismatch {
                backend: backend.device.name(),
                checker: checker_name,
                code: code.to_string(),
                got: csv_line(got)?,
                want: csv_line(&want)?,
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::octal::row;

    /// A row that differs from its checker's is reported with both rows; equal rows pass, and
    /// a fraction of 0 checks nothing.
    #[test]
    fn a_sampled_row_that_differs_is_an_error() {
        let codes: Vec<OctalCode> = codes(1, 8, 0).collect();
        let cpu = Backend::from(Device::Cpu(ScanBackend::Cpu));
        let quiet = ProgressBar::hidden();
        let mut rows = cpu.solve(&codes, 300, Budget::UNLIMITED, &quiet).unwrap();
        verify_sample(&cpu, &codes, &rows, 300, 1.0, Budget::UNLIMITED).unwrap();
        rows[3].checksum = "0x00000000".into();
        let err = verify_sample(&cpu, &codes, &rows, 300, 1.0, Budget::UNLIMITED).unwrap_err();
        let message = err.to_string();
        assert!(
            message.starts_with(
                "the cpu backend disagrees with the reference path on \u{b7}4: row \u{b7}4,"
            ),
            "{message}"
        );
        assert!(
            message.contains(",0x00000000,,,, the reference path's \u{b7}4,"),
            "{message}"
        );
        verify_sample(&cpu, &codes, &rows, 300, 0.0, Budget::UNLIMITED).unwrap();
    }

    /// The CPU path copies the rows of codes that are the same game (3-digit codes: 448 are
    /// 278 games with d0 = 0, 152 with 4): every row, fed as a scan feeds it (16 codes a call),
    /// equals the reference's own row of that code; then the same codes to another length,
    /// where the rows kept for the first must not be taken.
    #[test]
    fn copied_rows_equal_the_reference() {
        let quiet = ProgressBar::hidden();
        let reference = Device::Cpu(ScanBackend::Reference);
        for d0 in FIRST_DIGITS {
            let all: Vec<OctalCode> = codes(3, 8, d0).collect();
            let cpu = Backend::from(Device::Cpu(ScanBackend::Cpu));
            for n in [500, 300] {
                let want = reference.solve(&all, n, Budget::UNLIMITED, &quiet).unwrap();
                let got: Vec<OctalRow> = all
                    .chunks(16)
                    .flat_map(|c| cpu.solve(c, n, Budget::UNLIMITED, &quiet).unwrap())
                    .collect();
                assert_eq!(got.len(), want.len());
                for (got, want) in got.iter().zip(&want) {
                    assert_eq!(got, want, "d0 = {d0}, n = {n}");
                }
            }
        }
    }

    /// The rows kept are the last [`RECENT_ROWS`]: older ones go first.
    #[test]
    fn recent_rows_are_bounded() {
        let row = |code: &OctalCode| row::row(code, &[0, 1], None, 2);
        let mut recent = Recent::default();
        let many: Vec<OctalCode> = codes(6, 8, 0).take(RECENT_ROWS + 10).collect();
        for code in &many {
            recent.to(2).keep(code.clone(), row(code));
        }
        assert_eq!(
            (recent.rows.len(), recent.order.len()),
            (RECENT_ROWS, RECENT_ROWS)
        );
        assert!(!recent.rows.contains_key(&many[9]));
        assert_eq!(recent.rows[&many[10]], row(&many[10]));
        assert!(recent.to(3).rows.is_empty());
    }
}
