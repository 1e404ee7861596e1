//! `nimseq kcross`'s flags.

use clap::{Args, Subcommand, ValueEnum};

use super::flags::{CheckpointArgs, MemoryArgs, SeqFormat, SeriesLayout, parse_count};
use nimseq::backend::BackendChoice;
use nimseq::kcross::Board;

#[derive(Subcommand, Debug)]
pub enum KcrossCommand {
    /// The value of one position, its components and its winning moves.
    Value(KcrossValueArgs),
    /// G([n]) for n = 0..n-max, with the period observed in the range.
    Seq(KcrossSeqArgs),
    /// The table G([aXb]) (Liang and Li's Table 5.1 layout: rows a, columns b).
    Single(KcrossSingleArgs),
    /// G((l)) of rings for l = 0..l-max.
    Ring(KcrossRingArgs),
    /// G([n]) for a range of k (Liang and Li's Table 5.2 layout: rows n, columns k).
    Table(KcrossTableArgs),
}

fn parse_board(s: &str) -> Result<Board, String> {
    s.parse::<Board>().map_err(|e| e.reason)
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

pub(super) fn parse_k(s: &str) -> Result<u32, String> {
    nimseq::kcross::board::parse_k(s)
}

#[derive(Args, Debug)]
pub struct KcrossValueArgs {
    /// The board in Liang and Li's notation (A Weak Solution of Inverse Treblecross): [3X4],
    /// [X2XX5], [7], or a ring (21).
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
    /// CSV with a header (observed periods on stderr), one JSON object, the matrix as aligned
    /// text, or (seq and ring: one sequence) an OEIS b-file, lines "n a(n)".
    #[arg(long, value_enum, default_value_t = SeriesFormat::Csv)]
    pub format: SeriesFormat,
    /// CSV and JSON as long rows (one value a row: k,n,g; k,a,b,g; k,l,g), or as Liang and
    /// Li's matrix (rows and columns as in its tables; the text view always is).
    #[arg(long, value_enum, default_value_t = SeriesLayout::Long)]
    pub layout: SeriesLayout,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SeriesFormat {
    Csv,
    Json,
    Text,
    Bfile,
}

#[derive(Args, Debug)]
pub struct KcrossSeqArgs {
    #[arg(long, value_parser = parse_k)]
    pub k: u32,
    /// Largest board [n].
    #[arg(long, value_parser = parse_count, default_value_t = 50)]
    pub n_max: usize,
    #[command(flatten)]
    pub series: SeriesArgs,
}

#[derive(Args, Debug)]
pub struct KcrossSingleArgs {
    #[arg(long, value_parser = parse_k)]
    pub k: u32,
    /// Largest a (cells left of the X).
    #[arg(long, value_parser = parse_count, default_value_t = 11)]
    pub a_max: usize,
    /// Largest b (cells right of the X).
    #[arg(long, value_parser = parse_count, default_value_t = 15)]
    pub b_max: usize,
    #[command(flatten)]
    pub series: SeriesArgs,
}

#[derive(Args, Debug)]
pub struct KcrossRingArgs {
    #[arg(long, value_parser = parse_k)]
    pub k: u32,
    /// Largest ring (l).
    #[arg(long, value_parser = parse_count, default_value_t = 40)]
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
    #[arg(long, value_parser = parse_count, default_value_t = 25)]
    pub n_max: usize,
    #[command(flatten)]
    pub series: SeriesArgs,
}
