//! Flags that several families share: the memory budget, checkpoints, output formats and
//! where a scan's rows go.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use nimseq::memory::Budget;
use nimseq::output::Format;
use nimseq::output::checkpoint::{self, CheckpointError, Saving};
use nimseq::output::scan::{ScanOutput, Shard};

pub(super) fn parse_bytes(s: &str) -> Result<u64, String> {
    nimseq::memory::parse_bytes(s)
}

/// `--mem-budget`, shared by every command that allocates by its input.
#[derive(Args, Debug)]
pub struct MemoryArgs {
    /// Most memory the command's tables and values may take, e.g. 16G or 512M [default: half
    /// the machine's memory].
    #[arg(long, value_parser = parse_bytes)]
    pub mem_budget: Option<u64>,
}

impl MemoryArgs {
    pub fn budget(&self) -> Budget {
        Budget::from_flag(self.mem_budget)
    }
}

/// `--checkpoint` and `--resume` for the commands that build one long table.
#[derive(Args, Debug)]
pub struct CheckpointArgs {
    /// Save each finished step here (a table's level, a run of values; fsynced), so that an
    /// interrupted run can go on with --resume; removed once the command finishes. The CPU
    /// path writes it.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Continue from --checkpoint, after its header (what was asked, the entry width, a
    /// checksum of each step) is verified.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
}

impl CheckpointArgs {
    /// Where the run saves its steps, if anywhere.
    pub fn saving(&self) -> Option<Saving<'_>> {
        self.checkpoint.as_deref().map(|path| Saving {
            path,
            resume: self.resume,
        })
    }

    /// The output is out: the checkpoint has served, and goes.
    pub fn done(&self) -> Result<(), CheckpointError> {
        self.checkpoint
            .as_deref()
            .map_or(Ok(()), checkpoint::remove)
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TableFormat {
    /// CSV with a header; observed periods on stderr.
    Csv,
    /// One JSON object with the values and the observed periods.
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SeriesLayout {
    /// One value a row, for pandas, polars and SQL.
    Long,
    /// The paper's matrix.
    Table,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SeqFormat {
    Text,
    Json,
}

/// The backends of the commands without a GPU path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CpuChoice {
    /// The fast CPU path.
    Auto,
    /// The raw rules.
    Reference,
    /// The fast CPU path.
    Cpu,
}

/// Where a scan's rows go, in what form, and which part of it this run does.
#[derive(Args, Debug)]
pub struct ScanOutputArgs {
    /// Row format: CSV with a header, one JSON object per line, or a directory of Parquet
    /// files, one per chunk (with --out); by default from the extension of --out (.jsonl,
    /// .parquet), else CSV.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    #[command(flatten)]
    pub file: RowsFileArgs,
}

/// Where a scan's rows go and which part of it this run does (their format from the name).
#[derive(Args, Debug)]
pub struct RowsFileArgs {
    /// Write rows here (resumable) instead of stdout.
    #[arg(long, value_parser = parse_out)]
    pub out: Option<PathBuf>,
    /// Continue an interrupted scan of --out after its last complete chunk.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Run the i-th of N contiguous parts (1 <= i <= N); the N files concatenate in order.
    #[arg(long, default_value = "1/1")]
    pub shard: Shard,
}

impl RowsFileArgs {
    /// The scan's output, in chunks of `chunk_size` items, as `format` or as the extension of
    /// --out says (.jsonl, .parquet; else CSV).
    pub fn with_chunks(&self, format: Option<Format>, chunk_size: u64) -> ScanOutput {
        let by_name = self.out.as_deref().map_or(Format::Csv, Format::of_path);
        ScanOutput {
            format: format.unwrap_or(by_name),
            shard: self.shard,
            chunk_size,
            out: self.out.clone(),
            resume: self.resume,
        }
    }
}

impl ScanOutputArgs {
    /// The scan's output, in chunks of `chunk_size` items.
    pub fn with_chunks(&self, chunk_size: u64) -> ScanOutput {
        self.file.with_chunks(self.format, chunk_size)
    }
}

/// A fraction between 0 and 1 (`--verify-sample`).
pub(super) fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("{s} is not a fraction between 0 and 1")),
    }
}

/// Who wins: the player who makes the last move (normal play) or the other one (misère).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Play {
    /// The player who makes the last move wins.
    #[default]
    Normal,
    /// The player who makes the last move loses (docs/misere.md).
    #[value(alias = "misère")]
    Misere,
}

/// How a command that computes one sequence (`sub seq`, `octal seq`) prints it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SequenceFormat {
    /// The report, for reading.
    Text,
    /// The report as one JSON object.
    Json,
    /// The values shown (--len) as rows n,g, with a header.
    Csv,
    /// The values shown as an OEIS b-file: lines "n a(n)" from n = 0.
    Bfile,
}

/// What `sub value` and `octal value` take after the game: the heaps of the position.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// The heap sizes, comma-separated (e.g. 3,5,8).
    #[arg(value_parser = parse_heaps, allow_hyphen_values = true)]
    pub heaps: Heaps,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
    /// Normal play, or misère (the last player to move loses): the outcome and winning moves
    /// under misère play; a code's from its misère quotient of the heaps up to the largest
    /// (docs/misere.md).
    #[arg(long, value_enum, default_value_t = Play::Normal)]
    pub play: Play,
}

/// The heaps of a position, as typed: `3,5,8`.
#[derive(Clone, Debug)]
pub struct Heaps(pub Vec<usize>);

fn parse_heaps(s: &str) -> Result<Heaps, String> {
    nimseq::position::parse_heaps(s).map(Heaps)
}

/// A whole number of things (`--len`, `--n-max`, ...), with words for what is wrong with one
/// that is not.
pub(super) fn parse_count(s: &str) -> Result<usize, String> {
    whole(s, 0)
}

/// A whole number of at least 1 (`--chunk-size`).
pub(super) fn parse_positive(s: &str) -> Result<u64, String> {
    whole(s, 1).map(|n| n as u64)
}

fn whole(s: &str, least: usize) -> Result<usize, String> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("'{s}' is not a whole number"));
    }
    let n = match s.parse::<usize>() {
        Ok(n) if n >= least => return Ok(n),
        Ok(n) => n.to_string(),
        Err(_) if s.starts_with('-') => s.to_string(),
        Err(_) => return Err(format!("{s} is too large (at most {})", usize::MAX)),
    };
    Err(format!(
        "{n} is below {least}: give a whole number, {least} or more"
    ))
}

/// A whole number in `range`, parsed as clap parses its smaller types, so that a negative one
/// reads "-1 is not in 1..=1000" (clap's parser of `u64` says "invalid digit found in string").
pub(super) fn ranged(
    range: std::ops::RangeInclusive<u64>,
) -> clap::builder::RangedI64ValueParser<u64> {
    let bound = |b: u64| i64::try_from(b).unwrap_or(i64::MAX);
    clap::builder::RangedI64ValueParser::new().range(bound(*range.start())..=bound(*range.end()))
}

/// A result file's name; `-`, which would name a file `-`, is refused: without `--out` the rows
/// go to stdout.
fn parse_out(s: &str) -> Result<PathBuf, String> {
    match s {
        "-" => Err("rows go to stdout without --out; '-' would be a file of that name".into()),
        "" => Err("an empty file name".into()),
        _ => Ok(PathBuf::from(s)),
    }
}
