//! `nimseq octal scan`: every code `0.d1...dk` with `dk != 0` (448 codes of 3 digits, 3,584 of
//! 4) to a fixed length, one row each: its certified period and pre-period or none, and
//! ogsolve's checksum of the same `G(0..n-max)`, so that codes with one sequence group by it.
//! Rows go out chunk by chunk, resumable, in shards, as `sub scan`'s do.

use std::fmt;
use std::io::{self, Write};
use std::path::PathBuf;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::code::OctalCode;
use super::fast::{Engine, best_split};
use super::gpu::OctalGpu;
use super::reference;
use super::seq::{Certificate, OctalError, certify_prefix, checksum, look_lengths, memory};
use crate::memory::{Budget, OverBudget};
use crate::output::resumable::{ResumableFile, ResumeError};
use crate::output::{Format, Row, progress_bar};
use crate::subtraction::scan::Shard;

/// Digits after the point a scan may ask for: 6 is 229,376 codes.
pub const MAX_DIGITS: usize = 6;

/// Which CPU solver computes a code's row; both give identical rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ScanBackend {
    /// The plain rule, O(n^2) a code.
    Reference,
    /// The rare/common split.
    Cpu,
}

/// What computes a scan's rows.
pub enum Backend<'c> {
    /// One code a thread.
    Cpu(ScanBackend),
    /// A chunk's codes in lock-step on the GPU.
    Gpu(OctalGpu<'c>),
}

/// What a scan computes and where its rows go.
#[derive(Clone, Debug, Serialize)]
pub struct ScanOptions {
    pub digits: usize,
    pub n_max: usize,
    pub format: Format,
    #[serde(skip)]
    pub out: Option<PathBuf>,
    #[serde(skip)]
    pub resume: bool,
    pub shard: Shard,
    pub chunk_size: u64,
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
}

/// Every code of `digits` digits after the point, the last non-zero, in increasing order.
pub fn codes(digits: usize) -> impl Iterator<Item = OctalCode> {
    let count = 7 * 8usize.pow(digits.saturating_sub(1) as u32);
    (0..count).map(move |k| {
        // The last digit runs over 1..=7, the others over 0..=7, the first most significant.
        let mut text = String::from("0.");
        let (rest, last) = (k / 7, k % 7 + 1);
        for i in (0..digits - 1).rev() {
            text.push(char::from(b'0' + (rest >> (3 * i) & 7) as u8));
        }
        text.push(char::from(b'0' + last as u8));
        text.parse().expect("a valid code")
    })
}

/// One code's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OctalRow {
    pub code: String,
    /// The certified least period and pre-period; none for a code unsettled by `n_max`.
    pub period: Option<usize>,
    pub preperiod: Option<usize>,
    /// The length of the prefix that certified them.
    pub certified_at: Option<usize>,
    /// The largest value of the prefix computed (for a settled code, of all its values).
    pub max_value: u32,
    /// The fewest rare sizes any split gives the prefix computed (spec section 3): a
    /// property of the values, the same whichever solver found them.
    pub rare_count: u64,
    /// ogsolve's checksum of `G(0..n_max)`, past a certified prefix by its period.
    pub checksum: String,
}

impl Row for OctalRow {
    const CSV_HEADER: &'static str =
        "code,period,preperiod,certified_at,max_value,rare_count,checksum";

    fn write_csv(&self, out: &mut Vec<u8>) -> io::Result<()> {
        let field = |x: Option<usize>| x.map_or(String::new(), |x| x.to_string());
        writeln!(
            out,
            "{},{},{},{},{},{},{}",
            self.code,
            field(self.period),
            field(self.preperiod),
            field(self.certified_at),
            self.max_value,
            self.rare_count,
            self.checksum
        )
    }
}

/// The row of `code`: values computed by `backend` at each length a period is looked for,
/// until one is certified or `n_max` is reached.
pub fn solve(code: &OctalCode, n_max: usize, backend: ScanBackend) -> Result<OctalRow, OctalError> {
    let mut engine = Engine::new(code);
    let mut reference_values = Vec::new();
    for at in look_lengths(code, n_max) {
        let g = match backend {
            ScanBackend::Cpu => {
                engine.extend(at)?;
                engine.values()
            }
            ScanBackend::Reference => {
                reference_values = reference::values(code, at);
                &reference_values
            }
        };
        if let Some(c) = certify_prefix(code, g) {
            return Ok(row(code, g, Some((c, at)), n_max));
        }
    }
    let g = match backend {
        ScanBackend::Cpu => engine.values(),
        ScanBackend::Reference => &reference_values,
    };
    Ok(row(code, g, None, n_max))
}

/// The row of `code` from its values `g`, certified (with the length that did it) or not.
pub fn row(
    code: &OctalCode,
    g: &[u32],
    found: Option<(Certificate, usize)>,
    n_max: usize,
) -> OctalRow {
    let mut all = g.to_vec();
    if let Some((c, _)) = &found {
        // Certified: every later value repeats the one a period back.
        for n in all.len()..n_max {
            all.push(all[n - c.period]);
        }
    }
    OctalRow {
        code: code.to_string(),
        period: found.as_ref().map(|(c, _)| c.period),
        preperiod: found.as_ref().map(|(c, _)| c.preperiod),
        certified_at: found.as_ref().map(|&(_, at)| at),
        max_value: g.iter().copied().max().unwrap_or(0),
        rare_count: best_split(g, code.t(), code.splits_only_last()).2,
        checksum: checksum(&all[..n_max]),
    }
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

impl OctalScanSummary {
    fn add(&mut self, row: &OctalRow) {
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

/// Refuses codes to `n_max` that may not fit `budget`, one code on each thread at once.
pub fn check_memory(n_max: usize, budget: Budget) -> Result<(), OverBudget> {
    let threads = rayon::current_num_threads() as u64;
    budget.check(memory(n_max).saturating_mul(threads), || {
        format!("{threads} codes to n = {n_max} at once")
    })
}

/// Runs the scan `opts`, rows to `opts.out` (resumable) or to `stdout`; returns the totals of
/// this shard's rows, resumed ones included.
pub fn run(
    opts: &ScanOptions,
    backend: &Backend<'_>,
    stdout: &mut dyn Write,
) -> Result<OctalScanSummary, ScanError> {
    check_memory(opts.n_max, opts.budget)?;
    let codes: Vec<OctalCode> = codes(opts.digits).collect();
    let cs = opts.chunk_size.max(1);
    let (first, end) = opts.shard.chunks((codes.len() as u64).div_ceil(cs));
    let mut job = serde_json::to_value(opts).expect("options serialise");
    job["command"] = "nimseq octal scan".into();
    let (mut file, mut next, mut summary) = match &opts.out {
        Some(path) => {
            let (file, checkpoint) =
                ResumableFile::open::<OctalScanSummary>(path, &job, opts.resume)?;
            let (next, summary) =
                checkpoint.map_or((first, None), |c| (c.next_chunk.max(first), c.state));
            (Some(file), next, summary.unwrap_or_default())
        }
        None => (None, first, OctalScanSummary::default()),
    };
    if next == 0 {
        let sink: &mut dyn Write = match &mut file {
            Some(f) => f.writer(),
            None => stdout,
        };
        opts.format.write_header(sink, OctalRow::CSV_HEADER)?;
    }
    let chunk_codes = |k: u64| {
        let from = ((k * cs) as usize).min(codes.len());
        &codes[from..((k + 1) * cs).min(codes.len() as u64) as usize]
    };
    let total: usize = (first..end).map(|k| chunk_codes(k).len()).sum();
    let bar = progress_bar(total as u64, "codes");
    bar.set_position((first..next).map(|k| chunk_codes(k).len() as u64).sum());
    while next < end {
        let rows = match backend {
            Backend::Cpu(solver) => chunk_codes(next)
                .par_iter()
                .map(|code| solve(code, opts.n_max, *solver))
                .collect::<Result<Vec<_>, _>>()?,
            Backend::Gpu(gpu) => gpu.solve(chunk_codes(next), opts.n_max)?,
        };
        let mut text = Vec::new();
        for row in &rows {
            opts.format.write_row(&mut text, row)?;
            summary.add(row);
        }
        next += 1;
        match &mut file {
            Some(f) => {
                f.writer().write_all(&text)?;
                f.commit(next, &summary, next == end)?;
            }
            None => stdout.write_all(&text)?,
        }
        bar.inc(rows.len() as u64);
    }
    match &mut file {
        // An empty shard still completes its file.
        Some(f) => f.commit(end, &summary, true)?,
        None => stdout.flush()?,
    }
    bar.finish_and_clear();
    Ok(summary)
}
