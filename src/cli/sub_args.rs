//! `nimseq sub`'s flags.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::flags::{
    MemoryArgs, Play, PositionArgs, RowsFileArgs, ScanOutputArgs, SeqFormat, SequenceFormat,
    parse_count, parse_fraction, parse_positive, ranged,
};
use nimseq::backend::BackendChoice;
use nimseq::subtraction::Ruleset;
use nimseq::subtraction::infinite::{InfiniteSet, SetError};
use nimseq::subtraction::scan::{C_MAX_RANGE, DEFAULT_CHUNK_SIZE};

#[derive(Subcommand, Debug)]
pub enum SubCommand {
    /// The nim sequence of one set: values, P-positions, certified period and pre-period.
    Seq(SeqArgs),
    /// A position of several heaps: each heap's value, the nim-sum, the outcome and every
    /// winning move.
    Value(SubValueArgs),
    /// Every set of K moves (three by default: a < b < c <= C): one row per ruleset with its
    /// exact period and pre-period.
    Scan(SubScanArgs),
    /// A scan's report: the distribution of periods and pre-periods, the longest of each, and
    /// for triples every check of docs/subtraction.md, section 5.
    Survey(SurveyArgs),
    /// P-positions of a triple from the closed forms of Manabe's paper (Purely Periodic
    /// Three-move Subtraction Games) beside brute force, with the
    /// Theorem 40 reconstruction of every value checked.
    Ppos(PposArgs),
    /// Period maps as PNG: the slice a fixed (b right, c up) or the Figure 3 view of Manabe's
    /// paper (Purely Periodic Three-move Subtraction Games).
    Plot(PlotArgs),
    /// Every all-but set X (the moves: all positive integers but X) of sizes 1 to --size-max
    /// with max(X) <= --x-max: one CSV row each with the least arithmetic period of its values,
    /// G(n + p) = G(n) + s from n = q, proved where they suffice (the certified column), and per
    /// size on stderr how many show one, how many are proved, how many from n = 0 and which
    /// sets not.
    AllButScan(AllButScanArgs),
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

fn parse_ruleset(s: &str) -> Result<Ruleset, String> {
    s.parse::<Ruleset>().map_err(|e| e.kind.to_string())
}

/// A set `sub seq` takes: finite moves, or an infinite set by name.
#[derive(Clone, Debug)]
pub enum SeqSet {
    Finite(Ruleset),
    Infinite(InfiniteSet),
}

fn parse_seq_set(s: &str) -> Result<SeqSet, String> {
    if s.trim_start()
        .starts_with(|c: char| c.is_ascii_alphabetic())
    {
        s.parse().map(SeqSet::Infinite).map_err(|e: SetError| e.0)
    } else {
        parse_ruleset(s).map(SeqSet::Finite)
    }
}

fn parse_all_but(s: &str) -> Result<InfiniteSet, String> {
    InfiniteSet::all_but(s).map_err(|e| e.0)
}

#[derive(Args, Debug)]
pub struct SeqArgs {
    /// The subtraction set: moves, e.g. 3,8,13 (any finite set of distinct positive
    /// integers), or an infinite set: squares, primes, powers:B (1, B, B^2, ...).
    #[arg(value_parser = parse_seq_set, allow_hyphen_values = true, required_unless_present = "all_but")]
    pub set: Option<SeqSet>,
    /// Every positive integer but the moves X, e.g. 2,3,7: an infinite set.
    #[arg(long, value_name = "X", value_parser = parse_all_but, conflicts_with = "set")]
    pub all_but: Option<InfiniteSet>,
    /// How many values to print.
    #[arg(long, value_parser = parse_count, default_value_t = 40)]
    pub len: usize,
    /// A finite set: give up if no period is certified within this many values (rounded up to
    /// a multiple of 64: values are computed 64 at a time) [default: 2^26]. An infinite set:
    /// the values an arithmetic period is looked for in [default: 2^16].
    #[arg(long, value_parser = parse_count)]
    pub max_len: Option<usize>,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, one JSON object, or the values shown as CSV rows n,g or an OEIS
    /// b-file.
    #[arg(long, value_enum, default_value_t = SequenceFormat::Text)]
    pub format: SequenceFormat,
    /// Normal play, or misère (the last player to move loses): misère values, genera and, for
    /// a finite set, the genus period (--max-len defaults to 2^22 there).
    #[arg(long, value_enum, default_value_t = Play::Normal)]
    pub play: Play,
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
    /// uncovered, -2 outside Manabe's paper) and whether the computed values agree (triples only).
    #[arg(long)]
    pub theory: bool,
    /// Normal play, or misère: sub scan adds the misère periods and pre-periods of the values and
    /// of the P-positions to each row; sub survey compares both plays set by set, on the CPU,
    /// with no rows and no --theory (docs/misere.md).
    #[arg(long, value_enum, default_value_t = Play::Normal)]
    pub play: Play,
    /// Rulesets per chunk: the unit of checkpoints and shards.
    #[arg(long, default_value_t = DEFAULT_CHUNK_SIZE, value_parser = parse_positive)]
    pub chunk_size: u64,
    /// Fraction of rows re-checked by the reference backend [default: 0.001 on the GPU, else 0].
    #[arg(long, value_parser = parse_fraction)]
    pub verify_sample: Option<f64>,
    #[command(flatten)]
    pub memory: MemoryArgs,
}

#[derive(Args, Debug)]
pub struct SubValueArgs {
    /// The subtraction set, as for seq (e.g. 1,3,4).
    #[arg(value_parser = parse_ruleset, allow_hyphen_values = true)]
    pub set: Ruleset,
    #[command(flatten)]
    pub position: PositionArgs,
}

#[derive(Args, Debug)]
pub struct PposArgs {
    /// The triple, e.g. 3,8,13.
    #[arg(value_parser = parse_ruleset, allow_hyphen_values = true)]
    pub set: Ruleset,
    /// How many P-positions to list.
    #[arg(long, default_value_t = 30, value_parser = ranged(1..=1_000_000))]
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
pub struct AllButScanArgs {
    /// Largest size of X.
    #[arg(long, default_value_t = 3, value_parser = ranged(1..=16))]
    pub size_max: u64,
    /// Largest move left out.
    #[arg(long, default_value_t = 30, value_parser = ranged(1..=10_000))]
    pub x_max: u64,
    /// Values G(0..len) of each set in which the period is looked for.
    #[arg(long, value_parser = parse_count, default_value_t = 1 << 14)]
    pub len: usize,
    /// Write the rows here (.csv, or .jsonl for JSON lines) instead of stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    #[command(flatten)]
    pub memory: MemoryArgs,
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
