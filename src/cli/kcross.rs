//! `nimseq kcross`: Inverse k-cross.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Result, bail};
use indicatif::MultiProgress;
use rayon::prelude::*;

use super::backend::choose_for_checkpoint;
use super::flags::{CheckpointArgs, SeriesLayout};
use super::kcross_args::{KcrossCommand, SeriesFormat, SeriesOutput};
use super::print;
use nimseq::InputError;
use nimseq::backend::BackendChoice;
use nimseq::kcross;
use nimseq::kcross::gpu::KcrossGpu;
use nimseq::kcross::sequences::{
    self, Backend, Boards, Report, RowLayout, Series, Solver, side_by_side,
};
use nimseq::kcross::table::{Resumable, TableError};
use nimseq::memory::{Budget, human_bytes};
use nimseq::output::checkpoint;
use nimseq::output::{SequenceRows, write_sequence};

pub fn run(command: KcrossCommand) -> Result<()> {
    let (engine, series) = command.flags();
    let saving = series.map(|s| &s.checkpoint);
    let (choice, budget) = (engine.backend, engine.memory.budget());
    let reference = choice == BackendChoice::Reference;
    // Input errors first: no adapter is probed for a command that cannot run.
    match &command {
        KcrossCommand::Value(args) => args
            .board
            .check(args.k as usize)
            .map_err(|e| InputError(e.to_string()))?,
        KcrossCommand::Table(args) if args.k_min > args.k_max => bail!(InputError(format!(
            "--k-min {} is above --k-max {}",
            args.k_min, args.k_max
        ))),
        _ => {}
    }
    if matches!(command, KcrossCommand::Single(_) | KcrossCommand::Table(_))
        && series.is_some_and(|s| s.output.format == SeriesFormat::Bfile)
    {
        bail!(InputError(
            "--format bfile is for one sequence: kcross seq or kcross ring".to_string()
        ));
    }
    // The boards each command needs, as (k, cells): sizes and budgets are checked up front too.
    let value_size = |board: &kcross::board::Board, k: usize| {
        if reference {
            board.cells.len()
        } else {
            kcross::value::table_size(board, k)
        }
    };
    let tables: Vec<(u32, usize)> = match &command {
        KcrossCommand::Value(a) => vec![(a.k, value_size(&a.board, a.k as usize))],
        KcrossCommand::Seq(a) => vec![(a.k, a.n_max)],
        KcrossCommand::Ring(a) => vec![(a.k, a.l_max)],
        KcrossCommand::Single(a) => vec![(a.k, a.a_max + 1 + a.b_max)],
        KcrossCommand::Table(a) => (a.k_min..=a.k_max).map(|k| (k, a.n_max)).collect(),
    };
    for &(k, n) in &tables {
        sequences::check_size(k as usize, n, reference, budget)?;
    }
    let no_checkpoint = CheckpointArgs {
        checkpoint: None,
        resume: false,
    };
    let saving = saving.unwrap_or(&no_checkpoint);
    let chosen = choose_for_checkpoint(choice, saving)?.announce();
    let gpu = chosen.gpu().map(KcrossGpu::new).transpose()?;
    let backend = Backend::of(&chosen, gpu.as_ref());
    let several = matches!(command, KcrossCommand::Table(_));
    let builder = Builder {
        backend: &backend,
        bars: MultiProgress::new(),
        saving,
        several,
    };
    let report = match &command {
        KcrossCommand::Value(args) => {
            let k = args.k as usize;
            // The one table listed above, sized and checked there.
            let size = tables[0].1;
            let mut solver = builder.solver(args.k, size, budget, Boards::Any)?;
            let report = kcross::value::describe(&args.board, k, &mut solver)?;
            return print::report(&report, args.format);
        }
        KcrossCommand::Seq(args) => {
            let strips = (Boards::EmptyStrips, "G([n])", "n");
            builder.one_series(args.k, args.n_max, budget, strips, sequences::strips)?
        }
        KcrossCommand::Ring(args) => {
            let rings = (Boards::Any, "G((l))", "l");
            builder.one_series(args.k, args.l_max, budget, rings, sequences::rings)?
        }
        KcrossCommand::Single(args) => {
            let n = args.a_max + 1 + args.b_max;
            let mut solver = builder.solver(args.k, n, budget, Boards::Any)?;
            let series = (0..=args.a_max)
                .map(|a| {
                    let values = sequences::singles(&mut solver, a, args.b_max)?;
                    Ok(Series::new("a", a, values))
                })
                .collect::<Result<Vec<_>>>()?;
            Report::new(args.k.to_string(), "G([aXb])", "b", "a", series, true)
        }
        KcrossCommand::Table(args) => {
            let strips = |k: u32, budget: Budget| {
                let mut solver = builder.solver(k, args.n_max, budget, Boards::EmptyStrips)?;
                let values = sequences::strips(&mut solver, args.n_max)?;
                Ok(Series::new("k", k as usize, values))
            };
            let ks: Vec<u32> = (args.k_min..=args.k_max).collect();
            let sizes: Vec<usize> = ks.iter().map(|&k| k as usize).collect();
            let series = match side_by_side(&sizes, args.n_max, &backend, budget) {
                Some(rooms) => {
                    eprintln!(
                        "tables of k = {}..{} built side by side (their times overlap)",
                        args.k_min, args.k_max
                    );
                    ks.par_iter()
                        .zip(rooms)
                        .map(|(&k, room)| strips(k, room))
                        .collect::<Result<Vec<_>>>()?
                }
                None => ks
                    .iter()
                    .map(|&k| strips(k, budget))
                    .collect::<Result<Vec<_>>>()?,
            };
            let ks = format!("{}..{}", args.k_min, args.k_max);
            Report::new(ks, "G([n])", "n", "k", series, false)
        }
    };
    write_report(&report, &series.expect("a series command").output)?;
    // The results are out: the checkpoints have served.
    for &(k, _) in &tables {
        if let Some(path) = builder.checkpoint_path(k) {
            checkpoint::remove(&path)?;
        }
    }
    Ok(())
}

/// Builds the solvers of one command.
struct Builder<'a> {
    backend: &'a Backend<'a>,
    bars: MultiProgress,
    saving: &'a CheckpointArgs,
    /// One table per k (`kcross table`): each gets its own checkpoint file.
    several: bool,
}

impl Builder<'_> {
    /// The checkpoint of the table of `k`: `FILE`, or `FILE.kK` where a command builds several.
    fn checkpoint_path(&self, k: u32) -> Option<PathBuf> {
        let path = self.saving.checkpoint.as_deref()?;
        Some(if self.several {
            PathBuf::from(format!("{}.k{k}", path.display()))
        } else {
            path.to_path_buf()
        })
    }

    /// The one series of `k` up to `n` cells that `values` reads from a solver built for
    /// `boards`, as a report of `what` over `index`.
    fn one_series(
        &self,
        k: u32,
        n: usize,
        budget: Budget,
        (boards, what, index): (Boards, &str, &str),
        values: fn(&mut Solver, usize) -> Result<Vec<u8>, TableError>,
    ) -> Result<Report> {
        let mut solver = self.solver(k, n, budget, boards)?;
        let series = vec![Series::new("k", k as usize, values(&mut solver, n)?)];
        Ok(Report::new(k.to_string(), what, index, "k", series, false))
    }

    /// A solver within `budget`, saying on stderr how large its table is and how long it took.
    fn solver(
        &self,
        k: u32,
        n: usize,
        budget: Budget,
        boards: Boards,
    ) -> Result<Solver, TableError> {
        let start = Instant::now();
        let path = self.checkpoint_path(k);
        let checkpoint = path.as_deref().map(|path: &Path| Resumable {
            path,
            resume: self.saving.resume,
        });
        let solver = Solver::new(
            k as usize,
            n,
            self.backend,
            budget,
            &self.bars,
            boards,
            checkpoint,
        )?;
        if let Some(size) = solver.table_size() {
            let seconds = start.elapsed().as_secs_f64();
            let device = size
                .device
                .map_or(String::new(), |plan| format!(", {plan}"));
            self.bars.suspend(|| {
                eprintln!(
                    "table k = {k}, n <= {n}: {} states at {} bits ({}) in {seconds:.2} s, {:.3e} states/s{device}",
                    size.states,
                    size.bits,
                    human_bytes(size.bytes),
                    size.states as f64 / seconds
                )
            });
        }
        Ok(solver)
    }
}

/// Prints a series report as asked: CSV (observed periods on stderr), JSON or the text matrix.
fn write_report(report: &Report, output: &SeriesOutput) -> Result<()> {
    let layout = match output.layout {
        SeriesLayout::Long => RowLayout::Long,
        SeriesLayout::Table => RowLayout::Table,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    match output.format {
        SeriesFormat::Csv => {
            report.write_csv(&mut out, layout)?;
            out.flush()?;
            eprintln!("{}", report.observations());
        }
        SeriesFormat::Json => report.write_json(&mut out, layout)?,
        SeriesFormat::Text => report.write_text(&mut out)?,
        SeriesFormat::Bfile => {
            let [series] = &report.series[..] else {
                unreachable!("refused up front for commands of several series")
            };
            let values: Vec<u32> = series.values.iter().map(|&v| v.into()).collect();
            write_sequence(&mut out, &values, SequenceRows::Bfile)?;
            eprintln!("{}", report.observations());
        }
    }
    out.flush()?;
    Ok(())
}
