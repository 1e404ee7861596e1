//! `nimseq bench`: the same work through every backend and a peer program, timed in one run.
//!
//! Only the scan itself is timed: GPU device creation and shader compilation happen before.
//! A backend whose checksum line differs from the others' is reported as disagreeing; its time
//! means nothing.

use std::fmt;
use std::io;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use indicatif::{MultiProgress, ProgressBar};

use crate::arrows::spider::{SpiderTable, summarise};
use crate::arrows::spider_gpu::{FillError, SpiderFill};
use crate::gpu::GpuContext;
use crate::kcross::reference::{self, Reference};
use crate::kcross::sequences::{Backend as KcrossBackend, Boards, Solver, strips};
use crate::kcross::table::{RAW_RULES_ENGINE, TableError};
use crate::memory::Budget;
use crate::octal::{OctalCode, scan::Device as OctalDevice, seq::OctalError};
use crate::output::scan::ScanOutput;
use crate::subtraction::SetFilter;
use crate::subtraction::gpu::{GpuStats, GpuTuning, SubtractionGpu, WARP};
use crate::subtraction::scan::{
    Backend, Calibration, DEFAULT_CHUNK_SIZE, ScanError, ScanOptions, tally_scan,
};

/// One timed run.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub name: String,
    pub seconds: f64,
    /// Work items done: rulesets for a scan, states for a k-cross table, leg tuples for a
    /// spider table.
    pub items: u64,
    /// Values computed, where the program reports them (spiders, for a spider table).
    pub values: Option<u64>,
    /// The peer-format summary line: equal lines mean equal results.
    pub checksum: String,
}

impl BenchRow {
    /// The faster of two runs of the same work; a checksum that changed between the runs is
    /// replaced by a note, so the table shows it as a disagreement.
    pub fn faster(self, other: BenchRow) -> BenchRow {
        let same = self.checksum == other.checksum;
        let mut best = if other.seconds < self.seconds {
            other
        } else {
            self
        };
        if !same {
            best.checksum = "changed between runs".to_string();
        }
        best
    }
}

/// Runs `round` (the same programs in the same order each time) `rounds` times and keeps each
/// program's fastest run.
pub fn fastest_of<E>(
    rounds: u32,
    mut round: impl FnMut() -> Result<Vec<BenchRow>, E>,
) -> Result<Vec<BenchRow>, E> {
    let mut rows = round()?;
    for _ in 1..rounds {
        let runs = round()?;
        rows = rows
            .into_iter()
            .zip(runs)
            .map(|(a, b)| a.faster(b))
            .collect();
    }
    Ok(rows)
}

/// Times a scan of `filter`'s sets on `backend`: the engine and the tally (counts, checksum),
/// no rows, as the peers print only the checksum line.
pub fn time_scan(
    filter: &SetFilter,
    backend: &Backend<'_>,
    budget: Budget,
    label: &str,
) -> Result<BenchRow, ScanError> {
    let opts = ScanOptions {
        filter: filter.clone(),
        output: ScanOutput::whole(DEFAULT_CHUNK_SIZE),
        misere: false,
        theory: false,
        verify_sample: Some(0.0),
        budget,
    };
    let start = Instant::now();
    let summary = tally_scan(&opts, backend)?;
    Ok(BenchRow {
        name: label.to_string(),
        seconds: start.elapsed().as_secs_f64(),
        items: summary.rulesets,
        values: Some(summary.values),
        checksum: summary.peer_line(),
    })
}

/// The shader's figures for `nimseq bench sub`: the counters of the timed runs, then the lane
/// model worked out on the sample that `auto` calibrates on, in a run of its own (the model
/// costs host time, which must stay out of the timed runs).
pub fn gpu_figures(
    ctx: &GpuContext,
    filter: &SetFilter,
    budget: Budget,
    timed: GpuStats,
) -> Result<String, ScanError> {
    let tuning = GpuTuning {
        lane_model: true,
        ..GpuTuning::default()
    };
    let model = SubtractionGpu::with_tuning(ctx, tuning, filter.moves)?;
    let sample = Calibration::sample(filter);
    let c_max = filter.c_max;
    for solved in model.solve(&sample, budget)? {
        solved?;
    }
    let lanes = match model.take_stats().lanes_busy() {
        Some(busy) => format!(
            "{:.0}% busy in warps of {WARP} (the lane model, on the {} sets with largest move \
             {c_max} that auto calibrates on)",
            100.0 * busy,
            sample.len()
        ),
        None => "no set for the lane model".to_string(),
    };
    Ok(format!("gpu shader: {timed}\ngpu lanes: {lanes}"))
}

/// Times a peer program run as `peer C_MAX`; its last output line is its checksum line.
pub fn time_peer(peer: &Path, c_max: u32) -> io::Result<BenchRow> {
    let start = Instant::now();
    let out = Command::new(peer).arg(c_max.to_string()).output()?;
    let seconds = start.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(io::Error::other(format!(
            "peer {} failed: {}",
            peer.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let checksum = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    let rulesets = checksum
        .split_whitespace()
        .find_map(|f| f.strip_prefix("triples="))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    Ok(BenchRow {
        name: format!("peer {}", peer.display()),
        seconds,
        items: rulesets,
        values: None,
        checksum,
    })
}

/// Times `G([n])` for `n <= n_max` at `k` on `backend`: the table build (or the raw rules' memo
/// per board) and the lookups. The checksum is the sequence itself.
pub fn time_kcross(
    k: usize,
    n_max: usize,
    backend: &KcrossBackend<'_>,
    budget: Budget,
    label: &str,
) -> Result<BenchRow, TableError> {
    let start = Instant::now();
    let (values, items) = match backend {
        KcrossBackend::Reference => {
            if n_max > reference::MAX_CELLS {
                return Err(TableError::TooLong {
                    n: n_max,
                    limit: reference::MAX_CELLS,
                    engine: RAW_RULES_ENGINE,
                });
            }
            let mut states = 0;
            let values: Vec<u8> = (0..=n_max)
                .map(|n| {
                    let mut raw = Reference::new(k, n, false);
                    let g = raw.value(0);
                    states += raw.states() as u64;
                    g
                })
                .collect();
            (values, states)
        }
        _ => {
            let mut solver = Solver::new(
                k,
                n_max,
                backend,
                budget,
                &MultiProgress::new(),
                Boards::EmptyStrips,
                None,
            )?;
            let states = solver.table_size().map_or(0, |size| size.states);
            (strips(&mut solver, n_max)?, states)
        }
    };
    let seconds = start.elapsed().as_secs_f64();
    let seq: Vec<String> = values.iter().map(u8::to_string).collect();
    Ok(BenchRow {
        name: label.to_string(),
        seconds,
        items,
        values: None,
        checksum: format!("k={k} G([0..={n_max}])={}", seq.join(",")),
    })
}

/// Times the table of every `legs`-leg spider with legs up to `h_max` filled by `fill`, and
/// every spider read from it. The checksum hashes every spider's value in order.
pub fn time_spiders(
    legs: usize,
    h_max: usize,
    fill: &SpiderFill<'_>,
    label: &str,
) -> Result<BenchRow, FillError> {
    use std::hash::{Hash, Hasher};
    let start = Instant::now();
    let spiders = fill.spiders(legs, h_max, None, |_| ())?;
    let mut hash = std::hash::DefaultHasher::new();
    let summary = summarise(legs, h_max, &spiders.values, |_, g| {
        g.hash(&mut hash);
        Ok(())
    })
    .expect("the rows go nowhere");
    Ok(BenchRow {
        name: label.to_string(),
        seconds: start.elapsed().as_secs_f64(),
        items: SpiderTable::tuples(legs, h_max),
        values: Some(summary.spiders),
        checksum: format!(
            "spiders={} distinct={} hash={:016x}",
            summary.spiders,
            summary.values.len(),
            hash.finish()
        ),
    })
}

/// The rows of `codes` to `n_max` on `device`, timed: a scan's work with every code solved
/// (none copied from a code of the same game), each stopping where its period is certified;
/// the checksum line is each code's checksum of `G(0..n_max)`.
pub fn time_octal(
    codes: &[OctalCode],
    n_max: usize,
    device: &OctalDevice<'_>,
    budget: Budget,
    label: &str,
) -> Result<BenchRow, OctalError> {
    let start = Instant::now();
    let rows = device.solve(codes, n_max, budget, &ProgressBar::hidden())?;
    let seconds = start.elapsed().as_secs_f64();
    let line: Vec<String> = rows
        .iter()
        .map(|r| format!("{}:{}", r.code, r.checksum))
        .collect();
    Ok(BenchRow {
        name: label.to_string(),
        seconds,
        items: codes.len() as u64,
        values: Some(rows.iter().map(|r| r.computed as u64).sum()),
        checksum: line.join(" "),
    })
}

/// Times ogsolve (Beling's, `cargo install ogsolve`) on each of `codes` in turn as
/// `PEER CODE -n N -m rc2` with `N = n_max - 1` (it computes `G(0..=N)`), reading the checksum
/// it prints.
pub fn time_ogsolve(peer: &Path, codes: &[OctalCode], n_max: usize) -> io::Result<BenchRow> {
    let start = Instant::now();
    let mut line = Vec::new();
    if let Some(code) = codes.iter().find(|c| !c.is_octal()) {
        return Err(io::Error::other(format!(
            "ogsolve reads octal codes only (digits 0 to 7, no '!'): {code}"
        )));
    }
    for code in codes {
        let out = Command::new(peer)
            .arg(code.ascii())
            .args(["-n", &(n_max - 1).to_string(), "-m", "rc2"])
            .output()?;
        let text = String::from_utf8_lossy(&out.stdout);
        let sum = text
            .split_whitespace()
            .skip_while(|w| *w != "checksum:")
            .nth(1)
            .and_then(|hex| u32::from_str_radix(hex, 16).ok());
        match (out.status.success(), sum) {
            (true, Some(sum)) => line.push(format!("{code}:0x{sum:08x}")),
            _ => {
                return Err(io::Error::other(format!(
                    "peer {} on {code} printed no checksum: {}",
                    peer.display(),
                    String::from_utf8_lossy(&out.stderr).trim()
                )));
            }
        }
    }
    Ok(BenchRow {
        name: format!("peer {}", peer.display()),
        seconds: start.elapsed().as_secs_f64(),
        items: codes.len() as u64,
        values: Some((codes.len() * n_max) as u64),
        checksum: line.join(" "),
    })
}

/// The rows side by side, with speed-ups against the reference and the peer where present.
pub struct BenchTable {
    /// What the rows count: `rulesets` or `states`.
    pub unit: &'static str,
    pub rows: Vec<BenchRow>,
}

impl fmt::Display for BenchTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let find = |prefix: &str| self.rows.iter().find(|r| r.name.starts_with(prefix));
        let (reference, peer, cpu) = (find("reference"), find("peer"), find("cpu"));
        let first = &self.rows[0].checksum;
        writeln!(
            f,
            "{:<38} {:>9} {:>14} {:>14} {:>9} {:>9} {:>9}  checksum",
            "backend",
            "seconds",
            format!("{}/s", self.unit),
            "values/s",
            "vs ref",
            "vs peer",
            "vs cpu"
        )?;
        for r in &self.rows {
            let ratio = |base: Option<&BenchRow>| {
                base.map_or("-".to_string(), |b| {
                    let x = b.seconds / r.seconds;
                    // Slower than the base shows as a fraction, with the digits to read it.
                    if x < 0.95 {
                        format!("{x:.3}x")
                    } else {
                        format!("{x:.1}x")
                    }
                })
            };
            let values = r
                .values
                .map_or("-".to_string(), |v| format!("{:.3e}", v as f64 / r.seconds));
            let agrees = if &r.checksum == first {
                "same"
            } else {
                "DIFFERS"
            };
            writeln!(
                f,
                "{:<38} {:>9.3} {:>14.0} {:>14} {:>9} {:>9} {:>9}  {agrees}",
                r.name,
                r.seconds,
                r.items as f64 / r.seconds,
                values,
                ratio(reference),
                ratio(peer),
                ratio(cpu)
            )?;
        }
        write!(f, "checksum line: {first}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(seconds: f64, checksum: &str) -> BenchRow {
        BenchRow {
            name: "cpu".into(),
            seconds,
            items: 10,
            values: None,
            checksum: checksum.into(),
        }
    }

    #[test]
    fn the_faster_run_is_kept_and_a_changed_checksum_shown() {
        assert_eq!(run(2.0, "x").faster(run(1.0, "x")).seconds, 1.0);
        assert_eq!(run(1.0, "x").faster(run(2.0, "x")).seconds, 1.0);
        let changed = run(1.0, "x").faster(run(2.0, "y"));
        assert_eq!(changed.checksum, "changed between runs");
    }

    /// Each program keeps its own fastest round; every round runs.
    #[test]
    fn rounds_keep_each_programs_fastest() {
        let times = [[3.0, 1.0], [2.0, 5.0], [4.0, 2.0]];
        let mut round = 0;
        let rows = fastest_of(3, || {
            let runs = times[round].iter().map(|&t| run(t, "x")).collect();
            round += 1;
            Ok::<_, ()>(runs)
        })
        .unwrap();
        assert_eq!(round, 3);
        let seconds: Vec<f64> = rows.iter().map(|r| r.seconds).collect();
        assert_eq!(seconds, [2.0, 1.0]);
    }
}
