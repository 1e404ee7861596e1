//! The command line's top level: the families and their commands. Each family's flags are in
//! its own file (`sub_args`, `kcross_args`, ...), the flags they share in `flags`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use super::arrows_args::ArrowsCommand;
use super::bench_args::BenchCommand;
use super::kcross_args::KcrossCommand;
use super::octal_args::OctalCommand;
use super::sub_args::SubCommand;
use nimseq::output::Format;

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
