//! Command-line flags, as close to what the user types as possible; the commands in the
//! sibling modules build checked domain values from them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use nimseq::arrows::Tree;
pub use nimseq::backend::BackendChoice;
use nimseq::kcross::Board;
use nimseq::memory::Budget;
use nimseq::octal::OctalCode;
use nimseq::output::Format;
use nimseq::output::scan::{ScanOutput, Shard};
use nimseq::subtraction::Ruleset;
use nimseq::subtraction::scan::{C_MAX_RANGE, DEFAULT_CHUNK_SIZE};

#[derive(Parser, Debug)]
#[command(
    name = "nimseq",
    version,
    about = "Exact Sprague-Grundy values of impartial games in bulk, on the GPU and the CPU",
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Subtraction games S = {a,b,c,...}: G(x) = mex{G(x-s)}.
    #[command(subcommand, arg_required_else_help = true)]
    Sub(SubCommand),
    /// Inverse k-cross: X's on a strip or ring, never k in a row.
    #[command(subcommand, arg_required_else_help = true)]
    Kcross(KcrossCommand),
    /// Game of Arrows (Game of Cycles on trees): orient edges, never making a sink or source.
    #[command(subcommand, arg_required_else_help = true)]
    Arrows(ArrowsCommand),
    /// Octal games d0.d1d2... (take-and-break: Kayles 0.77, Treblecross 0.007, ...).
    #[command(subcommand, arg_required_else_help = true)]
    Octal(OctalCommand),
    /// Compare the backends (and a peer program) on the same work, on this machine.
    #[command(subcommand, arg_required_else_help = true)]
    Bench(BenchCommand),
    /// Check the finished shards of one scan or survey (--shard i/N) and join them into the
    /// result one unsharded run writes, with its summary.
    #[command(arg_required_else_help = true)]
    Merge(MergeArgs),
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The shards' result files (CSV, JSON lines or Parquet directories), each with the
    /// `.done` record a finished run writes beside it; in any order.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    /// Write the whole result here (a new file).
    #[arg(long)]
    pub out: PathBuf,
    /// Row format of the result; by default from the extension of --out (.csv, .jsonl,
    /// .parquet), else that of the parts.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// For the shards of a survey: also write its report as JSON here.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
pub enum SubCommand {
    /// The nim sequence of one set: values, P-positions, certified period and pre-period.
    Seq(SeqArgs),
    /// Every set of K moves (three by default: a < b < c <= C): one row per ruleset with its
    /// exact period and pre-period.
    Scan(SubScanArgs),
    /// A scan's report: the distribution of periods and pre-periods, the longest of each, and
    /// for triples every theory check of spec section 4 (items 1-8).
    Survey(SurveyArgs),
    /// P-positions of a triple from the paper's closed forms beside brute force, with the
    /// Theorem 40 reconstruction of every value checked.
    Ppos(PposArgs),
    /// Period maps as PNG: the slice a fixed (b right, c up) or the paper's Figure 3 view.
    Plot(PlotArgs),
    /// Manabe's theory for a base pair (a,b): Z, D, Lambda, the admissible angle sets and the
    /// predicted zone of every angle rho = c mod (a+b).
    Theta(ThetaArgs),
}

fn parse_base(s: &str) -> Result<(usize, usize), String> {
    nimseq::subtraction::theory::base::parse_pair(s)
}

#[derive(Args, Debug)]
pub struct ThetaArgs {
    /// The base pair a,b (1 <= a < b), e.g. 3,8.
    #[arg(value_parser = parse_base, allow_hyphen_values = true)]
    pub base: (usize, usize),
    /// Also draw the circle Z/(a+b)Z as PNG: inner ring Z, outer ring each angle's zone.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
}

#[derive(Subcommand, Debug)]
pub enum KcrossCommand {
    /// The value of one position, its components and its winning moves.
    Value(KcrossValueArgs),
    /// G([n]) for n = 0..n-max, with the period observed in the range.
    Seq(KcrossSeqArgs),
    /// The table G([aXb]) (the paper's Table 5.1 layout: rows a, columns b).
    Single(KcrossSingleArgs),
    /// G((l)) of rings for l = 0..l-max.
    Ring(KcrossRingArgs),
    /// G([n]) for a range of k (the paper's Table 5.2 layout: rows n, columns k).
    Table(KcrossTableArgs),
}

fn parse_board(s: &str) -> Result<Board, String> {
    s.parse::<Board>().map_err(|e| e.reason)
}

fn parse_bytes(s: &str) -> Result<u64, String> {
    nimseq::memory::parse_bytes(s)
}

/// Flags shared by the k-cross commands that build a table.
#[derive(Args, Debug)]
pub struct KcrossEngineArgs {
    /// Which implementation values the boards: the raw rules (up to 40 cells, slow), or the
    /// component table on the CPU or the GPU.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,
    #[command(flatten)]
    pub memory: MemoryArgs,
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
    /// Save each finished level of the table here (fsynced), so that an interrupted run can
    /// go on with --resume; removed once the command finishes. The CPU path writes it.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Continue from --checkpoint, after its header (the table asked for, its width, a
    /// checksum of each level) is verified.
    #[arg(long, requires = "checkpoint")]
    pub resume: bool,
}

fn parse_k(s: &str) -> Result<u32, String> {
    nimseq::kcross::board::parse_k(s)
}

#[derive(Args, Debug)]
pub struct KcrossValueArgs {
    /// The board in the paper's notation: [3X4], [X2XX5], [7], or a ring (21).
    #[arg(value_parser = parse_board, allow_hyphen_values = true)]
    pub board: Board,
    /// Runs of this length are forbidden (k >= 2; 3 is Inverse Treblecross).
    #[arg(long, value_parser = parse_k)]
    pub k: u32,
    #[command(flatten)]
    pub engine: KcrossEngineArgs,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum TableFormat {
    /// CSV with a header; observed periods on stderr.
    Csv,
    /// One JSON object with the values and the observed periods.
    Json,
}

/// What the k-cross series commands (`seq`, `single`, `ring`, `table`) share: the engine, the
/// checkpoint of their table, and the output.
#[derive(Args, Debug)]
pub struct SeriesArgs {
    #[command(flatten)]
    pub engine: KcrossEngineArgs,
    #[command(flatten)]
    pub checkpoint: CheckpointArgs,
    #[command(flatten)]
    pub output: SeriesOutput,
}

impl KcrossCommand {
    /// The engine's flags, and the series flags of a series command.
    pub fn flags(&self) -> (&KcrossEngineArgs, Option<&SeriesArgs>) {
        let series = match self {
            KcrossCommand::Value(a) => return (&a.engine, None),
            KcrossCommand::Seq(a) => &a.series,
            KcrossCommand::Single(a) => &a.series,
            KcrossCommand::Ring(a) => &a.series,
            KcrossCommand::Table(a) => &a.series,
        };
        (&series.engine, Some(series))
    }
}

/// How the k-cross series commands print their values.
#[derive(Args, Debug)]
pub struct SeriesOutput {
    /// CSV with a header (observed periods on stderr), one JSON object, or the matrix as
    /// aligned text.
    #[arg(long, value_enum, default_value_t = SeriesFormat::Csv)]
    pub format: SeriesFormat,
    /// CSV and JSON as long rows (one value a row: k,n,g; k,a,b,g; k,l,g), or as the paper's
    /// matrix (rows and columns as in its tables; the text view always is).
    #[arg(long, value_enum, default_value_t = SeriesLayout::Long)]
    pub layout: SeriesLayout,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SeriesFormat {
    Csv,
    Json,
    Text,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SeriesLayout {
    /// One value a row, for pandas, polars and SQL.
    Long,
    /// The paper's matrix.
    Table,
}

#[derive(Args, Debug)]
pub struct KcrossSeqArgs {
    #[arg(long, value_parser = parse_k)]
    pub k: u32,
    /// Largest board [n].
    #[arg(long, default_value_t = 50)]
    pub n_max: usize,
    #[command(flatten)]
    pub series: SeriesArgs,
}

#[derive(Args, Debug)]
pub struct KcrossSingleArgs {
    #[arg(long, value_parser = parse_k)]
    pub k: u32,
    /// Largest a (cells left of the X).
    #[arg(long, default_value_t = 11)]
    pub a_max: usize,
    /// Largest b (cells right of the X).
    #[arg(long, default_value_t = 15)]
    pub b_max: usize,
    #[command(flatten)]
    pub series: SeriesArgs,
}

#[derive(Args, Debug)]
pub struct KcrossRingArgs {
    #[arg(long, value_parser = parse_k)]
    pub k: u32,
    /// Largest ring (l).
    #[arg(long, default_value_t = 40)]
    pub l_max: usize,
    #[command(flatten)]
    pub series: SeriesArgs,
}

#[derive(Args, Debug)]
pub struct KcrossTableArgs {
    /// Smallest k (column).
    #[arg(long, default_value_t = 2, value_parser = parse_k)]
    pub k_min: u32,
    /// Largest k (column).
    #[arg(long, default_value_t = 13, value_parser = parse_k)]
    pub k_max: u32,
    /// Largest board [n] (row).
    #[arg(long, default_value_t = 25)]
    pub n_max: usize,
    #[command(flatten)]
    pub series: SeriesArgs,
}

#[derive(Subcommand, Debug)]
pub enum ArrowsCommand {
    /// g, m, the pieces, the parity conjecture and every first move of one tree.
    Value(ArrowsValueArgs),
    /// Every unlabelled tree with n vertices for n up to --n-max: counts by Grundy value and
    /// parity-conjecture violators.
    Census(ArrowsCensusArgs),
    /// g(S(x,y,z)) for all 1 <= x <= y <= z <= --leg-max (CSV rows), and which values occur,
    /// how often, and their smallest spiders (stderr).
    Spiders(ArrowsSpidersArgs),
    /// z -> g(S(x,y,z)) for z = 1..z-max, with the eventual behaviour observed in the range.
    Family(ArrowsFamilyArgs),
}

#[derive(Args, Debug)]
pub struct ArrowsFamilyArgs {
    /// First leg (markable edges, at most 10,000: states are 16-bit).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub x: u64,
    /// Second leg (at most 10,000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub y: u64,
    /// Longest third leg (at most 10,000).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub z_max: u64,
    #[command(flatten)]
    pub memory: MemoryArgs,
}

#[derive(Args, Debug)]
pub struct ArrowsSpidersArgs {
    /// Longest leg (markable edges).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub leg_max: u64,
    /// Legs per spider.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(3..=6))]
    pub legs: u64,
    /// The table filled bottom-up on all cores (cpu), by one dispatch per wavefront (gpu),
    /// by recursion from each spider on one core (reference), or the GPU when a hardware one
    /// is present (auto).
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,
    #[command(flatten)]
    pub memory: MemoryArgs,
    #[command(flatten)]
    pub checkpoint: CheckpointArgs,
}

#[derive(Args, Debug)]
pub struct ArrowsCensusArgs {
    /// Largest number of vertices.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=40))]
    pub n_max: u64,
    /// Also print each violating tree as an edge list.
    #[arg(long)]
    pub list_violators: bool,
    /// The normal form with one shared memo (cpu, auto), or the raw rules on each tree
    /// (reference: the exhaustive cross-check, up to about n = 16 in minutes). No GPU path:
    /// spec 3.2, a CPU handles censuses well past n = 20.
    #[arg(long, value_enum, default_value_t = CpuChoice::Auto)]
    pub backend: CpuChoice,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// CSV with a header, or one JSON object.
    #[arg(long, value_enum, default_value_t = TableFormat::Csv)]
    pub format: TableFormat,
    /// CSV as long rows (n,g,trees,violators: one a value that occurs), or as a table (a row
    /// per n, a column per value: they change with --n-max).
    #[arg(long, value_enum, default_value_t = SeriesLayout::Long)]
    pub layout: SeriesLayout,
}

fn parse_tree(s: &str) -> Result<Tree, String> {
    s.parse::<Tree>().map_err(|e| e.reason)
}

#[derive(Args, Debug)]
pub struct ArrowsValueArgs {
    /// An edge list 0-1,1-2,1-3, a parent array parents:0,1,1, or path:9, spider:1,3,7,
    /// H:3,1/3/4,1.
    #[arg(value_parser = parse_tree, allow_hyphen_values = true)]
    pub tree: Tree,
    /// The normal form with its memo of canonical components, or spider states for a spider
    /// (cpu, auto), or the raw rules (reference: up to 40 markable edges, as far as memory
    /// allows). No GPU path: one tree is small work.
    #[arg(long, value_enum, default_value_t = CpuChoice::Auto)]
    pub backend: CpuChoice,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
}

#[derive(Subcommand, Debug)]
pub enum OctalCommand {
    /// One code: values, P-positions, the certified period and pre-period (Guy-Smith window),
    /// the split's figures and ogsolve's checksum.
    Seq(OctalSeqArgs),
    /// Value frequencies, the rare/common split and the largest value of G(0..n-max).
    Stats(OctalStatsArgs),
    /// Every code 0.d1...dk with dk != 0 to --n-max: one row per code with its certified
    /// period and pre-period (or none), largest value, rare count and ogsolve's checksum.
    Scan(OctalScanArgs),
}

fn parse_code(s: &str) -> Result<OctalCode, String> {
    s.parse::<OctalCode>().map_err(|e| e.reason)
}

#[derive(Args, Debug)]
pub struct OctalSeqArgs {
    /// The code d0.d1d2...dt: d0 is 0 or 4, the digits 0 to 7 (e.g. 0.77, 0.007, 4.07).
    #[arg(value_parser = parse_code, allow_hyphen_values = true)]
    pub code: OctalCode,
    /// How many values to print.
    #[arg(long, default_value_t = 40)]
    pub len: usize,
    /// Give up if no period is certified within this many values (a period is looked for at
    /// each doubling of the length from 1024). Up to 2^24 and past: 0.376 needs 2^23.
    #[arg(long, default_value_t = 1 << 20)]
    pub max_len: usize,
    /// Stop looking after this many seconds and certify what was computed (0: no limit). A
    /// code whose values grow with n costs O(n^2): 0.7277 takes 16 s to 2^17.
    #[arg(long, default_value_t = 20)]
    pub max_time: u64,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, or one JSON object (also for a code not settled: certified false).
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
}

#[derive(Args, Debug)]
pub struct OctalStatsArgs {
    #[arg(value_parser = parse_code, allow_hyphen_values = true)]
    pub code: OctalCode,
    /// Values G(0..n-max) to compute.
    #[arg(long, default_value_t = 1 << 16)]
    pub n_max: usize,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
}

#[derive(Args, Debug)]
pub struct OctalScanArgs {
    /// Digits after the point: 3 is 448 codes, 4 is 3,584.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..=nimseq::octal::scan::MAX_DIGITS as u64))]
    pub digits: u64,
    /// Values G(0..n-max) of each code: a period is looked for at each doubling from 1024.
    #[arg(long, default_value_t = 1 << 16, value_parser = clap::value_parser!(u64).range(nimseq::octal::scan::N_MAX_RANGE))]
    pub n_max: u64,
    /// Which implementation computes the rows; all give identical rows. reference: every option
    /// of every heap (O(n^2) a code); cpu: the rare/common split, a code a thread; gpu: up to
    /// 4,096 codes a call in lock-step, a workgroup each.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,
    #[command(flatten)]
    pub output: ScanOutputArgs,
    /// Codes per chunk: the unit of checkpoints and shards (a backend may take several
    /// chunks at once: the GPU takes up to 4,096 codes).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_size: u64,
    /// Fraction of rows re-checked by a plainer solver: the GPU's by the CPU path, the CPU
    /// path's by the reference [default: 0.01 on the GPU, else 0].
    #[arg(long, value_parser = parse_fraction)]
    pub verify_sample: Option<f64>,
    #[command(flatten)]
    pub memory: MemoryArgs,
}

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Time a triple scan with each backend: rulesets/s, values/s, checksums compared.
    Sub(BenchSubArgs),
    /// Time G([n]) for one k with each backend: states/s, sequences compared.
    Kcross(BenchKcrossArgs),
    /// Time the table of all spiders with legs up to --leg-max with each backend: leg
    /// tuples/s, spiders/s, every value compared.
    Arrows(BenchArrowsArgs),
    /// Time octal codes to --n-max with each backend (and ogsolve with --peer): codes/s,
    /// values/s, ogsolve's checksum of each code compared.
    Octal(BenchOctalArgs),
}

#[derive(Args, Debug)]
pub struct BenchOctalArgs {
    /// The codes, comma-separated (e.g. 0.16,0.007); else every code of --digits digits.
    #[arg(long, value_delimiter = ',', value_parser = parse_code, conflicts_with = "digits")]
    pub codes: Vec<OctalCode>,
    /// Every code 0.d1...dk with dk != 0, as `octal scan --digits` runs them.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=nimseq::octal::scan::MAX_DIGITS as u64))]
    pub digits: u64,
    /// Values G(0..n-max) of each code (a code stops where its period is certified; ogsolve
    /// computes them all).
    #[arg(long, default_value_t = 1 << 16, value_parser = clap::value_parser!(u64).range(2..=1 << 24))]
    pub n_max: u64,
    /// Also time the plain rule (O(n^2) a code).
    #[arg(long)]
    pub reference: bool,
    /// ogsolve (`cargo install ogsolve`), run as `PEER CODE -n N-1 -m rc2` on each code.
    #[arg(long)]
    pub peer: Option<PathBuf>,
    #[command(flatten)]
    pub runs: BenchRuns,
}

#[derive(Args, Debug)]
pub struct BenchArrowsArgs {
    /// Longest leg.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub leg_max: u64,
    /// Legs per spider.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(3..=6))]
    pub legs: u64,
    /// Also time the recursion from each spider (one core).
    #[arg(long)]
    pub reference: bool,
    #[command(flatten)]
    pub runs: BenchRuns,
}

/// Which backends a bench runs, and how many times.
#[derive(Args, Debug)]
pub struct BenchRuns {
    /// Skip the GPU even if one is found.
    #[arg(long)]
    pub no_gpu: bool,
    /// Rounds of runs (the peer if any, then each backend); each program's fastest run is
    /// shown. On a shared machine single runs vary by tens of percent.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub repeat: u32,
    #[command(flatten)]
    pub memory: MemoryArgs,
}

#[derive(Args, Debug)]
pub struct BenchKcrossArgs {
    #[arg(long, value_parser = parse_k)]
    pub k: u32,
    /// Largest board [n].
    #[arg(long, default_value_t = 25)]
    pub n_max: usize,
    /// Also time the raw rules (exponential: up to about 25 cells in seconds).
    #[arg(long)]
    pub reference: bool,
    #[command(flatten)]
    pub runs: BenchRuns,
}

fn parse_ruleset(s: &str) -> Result<Ruleset, String> {
    s.parse::<Ruleset>().map_err(|e| e.kind.to_string())
}

#[derive(Args, Debug)]
pub struct SeqArgs {
    /// The subtraction set, e.g. 3,8,13 (any finite set of distinct positive integers).
    #[arg(value_parser = parse_ruleset, allow_hyphen_values = true)]
    pub set: Ruleset,
    /// How many values to print.
    #[arg(long, default_value_t = 40)]
    pub len: usize,
    /// Give up if no period is certified within this many values (rounded up to a multiple
    /// of 64: values are computed 64 at a time).
    #[arg(long, default_value_t = 1 << 26)]
    pub max_len: usize,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
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
    #[arg(long)]
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
fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(f) if (0.0..=1.0).contains(&f) => Ok(f),
        _ => Err(format!("{s} is not a fraction between 0 and 1")),
    }
}

/// The sets a scan visits and how it solves them.
#[derive(Args, Debug)]
pub struct ScanArgs {
    /// Moves in each set, K: 2 to 7 (the values of a K-move game fit 3 bit planes up to 7).
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=7))]
    pub moves: u8,
    /// Largest move (c of a triple a < b < c).
    #[arg(long, visible_alias = "max-move", value_name = "D", default_value_t = 200, value_parser = clap::value_parser!(u32).range(C_MAX_RANGE))]
    pub c_max: u32,
    /// Smallest largest move [default: K, the least there is].
    #[arg(
        long,
        visible_alias = "min-move",
        default_value_t = 0,
        hide_default_value = true
    )]
    pub c_min: u32,
    /// Smallest smallest move (a).
    #[arg(long, default_value_t = 1)]
    pub a_min: u32,
    /// Largest smallest move (a).
    #[arg(long)]
    pub a_max: Option<u32>,
    /// Smallest second move (b; three moves or more).
    #[arg(long, default_value_t = 2)]
    pub b_min: u32,
    /// Largest second move (b; three moves or more).
    #[arg(long)]
    pub b_max: Option<u32>,
    /// Only rulesets whose moves have gcd 1.
    #[arg(long)]
    pub primitive: bool,
    /// Which implementation computes the rows; all give identical rows. reference: the
    /// recurrence one value at a time and a search over every period; cpu: bit-parallel rows of
    /// 64 values on all cores; gpu: one invocation per set, bit-sliced.
    #[arg(long, value_enum, default_value_t = BackendChoice::Auto)]
    pub backend: BackendChoice,
    /// Add the theory columns to each row: g, rho, K, T0, T1, T2, the predicted period (-1
    /// uncovered, -2 outside the paper) and whether the computed values agree (triples only).
    #[arg(long)]
    pub theory: bool,
    /// Rulesets per chunk: the unit of checkpoints and shards.
    #[arg(long, default_value_t = DEFAULT_CHUNK_SIZE, value_parser = clap::value_parser!(u64).range(1..))]
    pub chunk_size: u64,
    /// Fraction of rows re-checked by the reference backend [default: 0.001 on the GPU, else 0].
    #[arg(long, value_parser = parse_fraction)]
    pub verify_sample: Option<f64>,
    #[command(flatten)]
    pub memory: MemoryArgs,
}

#[derive(Args, Debug)]
pub struct PposArgs {
    /// The triple, e.g. 3,8,13.
    #[arg(value_parser = parse_ruleset, allow_hyphen_values = true)]
    pub set: Ruleset,
    /// How many P-positions to list.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PlotView {
    /// The slice a fixed: b to the right, c upwards.
    Map,
    /// x = rho/(a+b) against t = a/b for every primitive non-additive triple (Figure 3).
    Figure3,
}

#[derive(Args, Debug)]
pub struct PlotArgs {
    #[arg(long, value_enum, default_value_t = PlotView::Map)]
    pub view: PlotView,
    /// The smallest move a of the slice (view map).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub a: u32,
    /// Largest c.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u32).range(3..=2_000))]
    pub c_max: u32,
    /// The PNG to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// `sub scan`: the sets, and where their rows go.
#[derive(Args, Debug)]
pub struct SubScanArgs {
    #[command(flatten)]
    pub scan: ScanArgs,
    #[command(flatten)]
    pub output: ScanOutputArgs,
}

#[derive(Args, Debug)]
pub struct SurveyArgs {
    #[command(flatten)]
    pub scan: ScanArgs,
    /// The rows too, in the format the extension of --out names (.csv, .jsonl, .parquet).
    #[command(flatten)]
    pub rows: RowsFileArgs,
    /// The report as text, or as one line of JSON.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
    /// Also write the report as JSON here.
    #[arg(long)]
    pub json: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct BenchSubArgs {
    /// Moves in each set, K: 2 to 7.
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=7))]
    pub moves: u8,
    /// Largest move of the scan to time (c of a triple).
    #[arg(long, visible_alias = "max-move", value_name = "D", default_value_t = 100, value_parser = clap::value_parser!(u32).range(C_MAX_RANGE))]
    pub c_max: u32,
    /// A peer program run as `PEER C_MAX`, printing the same checksum line
    /// (e.g. tests/data/sub_scan_naive.c built with cc -O2).
    #[arg(long)]
    pub peer: Option<PathBuf>,
    /// Also time the reference backend (slow: about 100 times the fast CPU path).
    #[arg(long)]
    pub reference: bool,
    #[command(flatten)]
    pub runs: BenchRuns,
}
