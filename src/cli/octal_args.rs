//! `nimseq octal`'s flags.

use clap::{Args, Subcommand};

use super::flags::{
    CheckpointArgs, MemoryArgs, Play, PositionArgs, ScanOutputArgs, SeqFormat, SequenceFormat,
    parse_count, parse_fraction, parse_positive, ranged,
};
use nimseq::backend::BackendChoice;
use nimseq::octal::OctalCode;

#[derive(Subcommand, Debug)]
pub enum OctalCommand {
    /// One code: values, P-positions, the certified period and pre-period (Guy-Smith window),
    /// the split's figures and ogsolve's checksum.
    Seq(OctalSeqArgs),
    /// Value frequencies, the rare/common split and the largest value of G(0..n-max).
    Stats(OctalStatsArgs),
    /// Every code 0.d1...dk with dk != 0 (octal digits, or hexadecimal with --base 16) to
    /// --n-max: one row per code with its certified
    /// period and pre-period (or none), largest value, rare count and ogsolve's checksum.
    Scan(OctalScanArgs),
    /// A position of several heaps: each heap's value, the nim-sum, the outcome and every
    /// winning move.
    Value(OctalValueArgs),
    /// The misère quotient of the heaps up to --heap-max: its order, P-portion, tame or wild,
    /// generators and relations, each heap's image (docs/misere.md).
    Quotient(OctalQuotientArgs),
}

pub(super) fn parse_code(s: &str) -> Result<OctalCode, String> {
    s.parse::<OctalCode>().map_err(|e| e.reason)
}

#[derive(Args, Debug)]
pub struct OctalSeqArgs {
    /// The code d0.d1d2...dt: d0 is 0 or 4 (or left out: .77), the digits 0 to 7 (e.g. 0.77,
    /// 0.007, 4.07); hexadecimal digits leave up to three heaps (0.3F, d0 may be 8 or C), and
    /// a '!' after a digit makes its heaps pairwise unequal (Grundy's game: 4!.0).
    #[arg(value_parser = parse_code, allow_hyphen_values = true)]
    pub code: OctalCode,
    /// How many values to print.
    #[arg(long, value_parser = parse_count, default_value_t = 40)]
    pub len: usize,
    /// Give up if no period is certified within this many values (a period is looked for at
    /// each doubling of the length from 1024). Up to 2^24 and past: 0.376 needs 2^23.
    #[arg(long, value_parser = parse_count, default_value_t = 1 << 20)]
    pub max_len: usize,
    /// Stop looking after this many seconds and certify what was computed (0: no limit). A
    /// code whose values grow with n costs O(n^2): 0.7277 takes 16 s to 2^17.
    #[arg(long, default_value_t = 20)]
    pub max_time: u64,
    #[command(flatten)]
    pub checkpoint: CheckpointArgs,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, one JSON object (also for a code not settled: certified false), or
    /// the values shown as CSV rows n,g or an OEIS b-file.
    #[arg(long, value_enum, default_value_t = SequenceFormat::Text)]
    pub format: SequenceFormat,
    /// Normal play, or misère (the last player to move loses): each heap's misère value and
    /// genus, from every sum of smaller heaps (past what --mem-budget holds, each heap's
    /// outcome from the misère quotient), and the genus period of a code whose moves leave at
    /// most one heap (not with --checkpoint).
    #[arg(long, value_enum, default_value_t = Play::Normal, conflicts_with = "checkpoint")]
    pub play: Play,
}

#[derive(Args, Debug)]
pub struct OctalValueArgs {
    /// The code, as for seq (e.g. 0.77).
    #[arg(value_parser = parse_code, allow_hyphen_values = true)]
    pub code: OctalCode,
    #[command(flatten)]
    pub position: PositionArgs,
}

#[derive(Args, Debug)]
pub struct OctalQuotientArgs {
    /// The code, as for seq (e.g. 0.77, 0.07, 4!.0).
    #[arg(value_parser = parse_code, allow_hyphen_values = true)]
    pub code: OctalCode,
    /// The largest heap: the quotient is that of every sum of heaps 0..=heap-max.
    #[arg(long, value_parser = ranged(1..=nimseq::octal::quotient::MAX_HEAP as u64), default_value_t = 40)]
    pub heap_max: u64,
    /// Give up when a trial monoid would have more elements than this.
    #[arg(long, value_parser = ranged(1..=1 << 26), default_value_t = nimseq::octal::quotient::DEFAULT_MAX_ORDER)]
    pub max_order: u64,
    /// Then hold the quotient against the game tree searched from the rules: every sum of
    /// heaps with a total of at most this (3.5 million sums at 56, about a minute).
    #[arg(long, value_parser = ranged(1..=nimseq::octal::quotient::MAX_HEAP as u64))]
    pub check_total: Option<u64>,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
}

#[derive(Args, Debug)]
pub struct OctalStatsArgs {
    #[arg(value_parser = parse_code, allow_hyphen_values = true)]
    pub code: OctalCode,
    /// Values G(0..n-max) to compute.
    #[arg(long, value_parser = parse_count, default_value_t = 1 << 16)]
    pub n_max: usize,
    /// Hold only a head G(0..h) and a tail of the last h values, h a quarter of
    /// --mem-budget each, to run past the machine's memory: for codes whose rare sizes stop
    /// coming (splits read values near 0 and near n). Exact: stops with an error where a
    /// value needs one not held. Codes whose moves leave at most two heaps. With
    /// --checkpoint it saves its whole state now and then (the file is rewritten in place).
    #[arg(long)]
    pub bounded: bool,
    #[command(flatten)]
    pub checkpoint: CheckpointArgs,
    #[command(flatten)]
    pub memory: MemoryArgs,
    /// Text for reading, or one JSON object.
    #[arg(long, value_enum, default_value_t = SeqFormat::Text)]
    pub format: SeqFormat,
}

#[derive(Args, Debug)]
pub struct OctalScanArgs {
    /// Digits after the point: 3 is 448 codes, 4 is 3,584 (in base 16: 2 is 240, 3 is 3,840).
    #[arg(long, default_value_t = 3, value_parser = ranged(1..=nimseq::octal::scan::MAX_DIGITS as u64))]
    pub digits: u64,
    /// The digits' base: 8 (moves leave up to two heaps) or 16 (hexadecimal codes such as
    /// 0.3F, whose digits 8 to F also split a heap in three; those run on the CPU path).
    #[arg(long, default_value = "8", value_parser = nimseq::octal::scan::parse_base)]
    pub base: u32,
    /// The digit before the point: 0, or 4 (a heap may also be split in two with nothing
    /// taken, as in 4.007); the count of codes is the same.
    #[arg(long, default_value = "0", value_parser = nimseq::octal::scan::parse_d0)]
    pub d0: u8,
    /// Values G(0..n-max) of each code: a period is looked for at each doubling from 1024.
    #[arg(long, default_value_t = 1 << 16, value_parser = ranged(nimseq::octal::scan::N_MAX_RANGE))]
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
    #[arg(long, default_value_t = 16, value_parser = parse_positive)]
    pub chunk_size: u64,
    /// Fraction of rows re-checked by a plainer solver: the GPU's by the CPU path, the CPU
    /// path's by the reference [default: 0.01 on the GPU, else 0].
    #[arg(long, value_parser = parse_fraction)]
    pub verify_sample: Option<f64>,
    #[command(flatten)]
    pub memory: MemoryArgs,
}
