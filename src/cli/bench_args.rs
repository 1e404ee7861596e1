//! `nimseq bench`'s flags.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::flags::{MemoryArgs, parse_count, ranged};
use super::kcross_args::parse_k;
use super::octal_args::parse_code;
use nimseq::octal::OctalCode;
use nimseq::subtraction::scan::C_MAX_RANGE;

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
    #[arg(long, default_value_t = 2, value_parser = ranged(1..=nimseq::octal::scan::MAX_DIGITS as u64))]
    pub digits: u64,
    /// Values G(0..n-max) of each code (a code stops where its period is certified; ogsolve
    /// computes them all).
    #[arg(long, default_value_t = 1 << 16, value_parser = ranged(2..=1 << 24))]
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
    #[arg(long, default_value_t = 60, value_parser = ranged(1..=1000))]
    pub leg_max: u64,
    /// Legs per spider.
    #[arg(long, default_value_t = 3, value_parser = ranged(3..=6))]
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
    #[arg(long, value_parser = parse_count, default_value_t = 25)]
    pub n_max: usize,
    /// Also time the raw rules (exponential: up to about 25 cells in seconds).
    #[arg(long)]
    pub reference: bool,
    #[command(flatten)]
    pub runs: BenchRuns,
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
