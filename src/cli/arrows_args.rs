//! `nimseq arrows`'s flags.

use clap::{Args, Subcommand};

use super::flags::{
    CheckpointArgs, CpuChoice, MemoryArgs, SeqFormat, SeriesLayout, TableFormat, ranged,
};
use nimseq::arrows::Tree;
use nimseq::backend::BackendChoice;

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
    #[arg(long, value_parser = ranged(1..=10_000))]
    pub x: u64,
    /// Second leg (at most 10,000).
    #[arg(long, value_parser = ranged(1..=10_000))]
    pub y: u64,
    /// Longest third leg (at most 10,000).
    #[arg(long, default_value_t = 2000, value_parser = ranged(1..=10_000))]
    pub z_max: u64,
    #[command(flatten)]
    pub memory: MemoryArgs,
}

#[derive(Args, Debug)]
pub struct ArrowsSpidersArgs {
    /// Longest leg (markable edges).
    #[arg(long, default_value_t = 30, value_parser = ranged(1..=1000))]
    pub leg_max: u64,
    /// Legs per spider.
    #[arg(long, default_value_t = 3, value_parser = ranged(3..=6))]
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
    #[arg(long, default_value_t = 16, value_parser = ranged(1..=40))]
    pub n_max: u64,
    /// Also print each violating tree as an edge list.
    #[arg(long)]
    pub list_violators: bool,
    /// The normal form with one shared memo (cpu, auto), or the raw rules on each tree
    /// (reference: the exhaustive cross-check, up to about n = 16 in minutes). No GPU path:
    /// docs/arrows.md, a CPU handles censuses well past n = 20.
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
