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

use crate::output::Format;
use crate::subtraction::TripleFilter;
use crate::subtraction::scan::{
    Backend, DEFAULT_CHUNK_SIZE, ScanError, ScanOptions, Shard, run_scan,
};

/// One timed run.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub name: String,
    pub seconds: f64,
    pub rulesets: u64,
    /// Values computed, where the program reports them.
    pub values: Option<u64>,
    /// The peer-format summary line: equal lines mean equal results.
    pub checksum: String,
}

/// Times a `--c-max` triple scan on `backend`, rows formatted as CSV and discarded.
pub fn time_scan(c_max: u32, backend: &Backend<'_>, label: &str) -> Result<BenchRow, ScanError> {
    let opts = ScanOptions {
        filter: TripleFilter::up_to(c_max),
        chunk_size: DEFAULT_CHUNK_SIZE,
        shard: Shard::WHOLE,
        format: Format::Csv,
        theory: false,
        out: None,
        resume: false,
        verify_sample: Some(0.0),
    };
    let start = Instant::now();
    let summary = run_scan(&opts, backend, &mut io::sink())?;
    Ok(BenchRow {
        name: label.to_string(),
        seconds: start.elapsed().as_secs_f64(),
        rulesets: summary.rulesets,
        values: Some(summary.values),
        checksum: summary.peer_line(),
    })
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
        rulesets,
        values: None,
        checksum,
    })
}

/// The rows side by side, with speed-ups against the reference and the peer where present.
pub struct BenchTable(pub Vec<BenchRow>);

impl fmt::Display for BenchTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let find = |prefix: &str| self.0.iter().find(|r| r.name.starts_with(prefix));
        let (reference, peer) = (find("reference"), find("peer"));
        let first = &self.0[0].checksum;
        writeln!(
            f,
            "{:<38} {:>9} {:>14} {:>14} {:>9} {:>9}  checksum",
            "backend", "seconds", "rulesets/s", "values/s", "vs ref", "vs peer"
        )?;
        for r in &self.0 {
            let ratio = |base: Option<&BenchRow>| {
                base.map_or("-".to_string(), |b| {
                    format!("{:.1}x", b.seconds / r.seconds)
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
                "{:<38} {:>9.3} {:>14.0} {:>14} {:>9} {:>9}  {agrees}",
                r.name,
                r.seconds,
                r.rulesets as f64 / r.seconds,
                values,
                ratio(reference),
                ratio(peer)
            )?;
        }
        write!(f, "checksum line: {first}")
    }
}
