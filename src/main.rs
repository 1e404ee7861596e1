//! The `nimseq` command: parses flags, calls the library, prints. No game logic here.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Parser;
use rayon::prelude::*;

use cli::{
    ArrowsCensusArgs, ArrowsCommand, ArrowsSpidersArgs, BackendChoice, BenchCommand, BenchRuns,
    Cli, Command, KcrossCommand, PlotView, PposArgs, ScanArgs, SeqArgs, SeqFormat, SubCommand,
    SurveyArgs, TableFormat,
};
use nimseq::bench::{
    BenchRow, BenchTable, fastest_of, gpu_figures, time_kcross, time_peer, time_scan,
};
use nimseq::gpu::{GpuContext, GpuError};
use nimseq::kcross;
use nimseq::kcross::gpu::KcrossGpu;
use nimseq::kcross::layout::Layout;
use nimseq::kcross::sequences::{self, Backend as KcrossBackend, Boards, Report, Series, Solver};
use nimseq::kcross::table::TableError;
use nimseq::memory::human_bytes;
use nimseq::output::image::Canvas;
use nimseq::output::resumable::ResumeError;
use nimseq::subtraction::gpu::SubtractionGpu;
use nimseq::subtraction::planes::Planes;
use nimseq::subtraction::plot;
use nimseq::subtraction::scan::{Backend, ScanError, ScanJob, ScanOptions};
use nimseq::subtraction::summary::ScanSummary;
use nimseq::subtraction::survey::Survey;
use nimseq::subtraction::theory::ppos::PposReport;
use nimseq::subtraction::theory::predict::ThetaReport;
use nimseq::subtraction::{TripleFilter, seq};

/// Bad input: the user's to fix; exit code 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadInput(String);

/// Keeps freed memory in the process for reuse, for subtraction scans: they free and take
/// again buffers of several MiB per chunk, and glibc would hand each back to the kernel (above
/// its default thresholds), then fault in every page of the next one (4 KiB a fault: 5% of a
/// `c <= 200` scan on the 2-core VM). Not for the other commands: their large zeroed tables
/// come free as fresh pages, and memory kept back raises their peak (a k-cross Table 5.2 run
/// with it for every command: 102 MB at most resident instead of 71 MB).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    // SAFETY: mallopt only sets allocator parameters; it is called before any other thread
    // exists, and on failure (a 0 return) the defaults stay, which is harmless.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line: clap's first line names the flag and the problem.
            let text = e.render().to_string();
            eprintln!("{}", text.lines().next().unwrap_or("error: bad arguments"));
            return ExitCode::from(2);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if is_broken_pipe(&e) {
                // `nimseq ... | head` is a normal way to stop.
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::from(if is_bad_input(&e) { 2 } else { 1 })
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

fn is_bad_input(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<BadInput>()
            || c.is::<ResumeError>()
            || c.is::<nimseq::arrows::reference::ReferenceError>()
            || matches!(
                c.downcast_ref::<TableError>(),
                Some(
                    TableError::OverBudget { .. }
                        | TableError::RingsOverBudget { .. }
                        | TableError::TooLong { .. }
                )
            )
            || matches!(c.downcast_ref::<ScanError>(), Some(ScanError::Output(_)))
            || c.downcast_ref::<GpuError>().is_some_and(refused_size)
            || matches!(c.downcast_ref::<TableError>(), Some(TableError::Gpu(e)) if refused_size(e))
    })
}

/// A GPU error that refuses what was asked (a size, a setting) rather than failing at it.
fn refused_size(e: &GpuError) -> bool {
    matches!(
        e,
        GpuError::TableTooLarge { .. } | GpuError::TooLarge { .. } | GpuError::Setting { .. }
    )
}

fn run(cli: Cli) -> Result<()> {
    if matches!(
        cli.command,
        Command::Sub(SubCommand::Scan(_) | SubCommand::Survey(_))
            | Command::Bench(BenchCommand::Sub(_))
    ) {
        keep_freed_memory();
    }
    match cli.command {
        Command::Sub(SubCommand::Seq(args)) => seq_command(args),
        Command::Sub(SubCommand::Scan(args)) => scan_command(args),
        Command::Sub(SubCommand::Survey(args)) => survey_command(args),
        Command::Sub(SubCommand::Ppos(args)) => ppos_command(args),
        Command::Sub(SubCommand::Theta(args)) => {
            let report = ThetaReport::new(args.base.0, args.base.1);
            if let Some(path) = &args.out {
                write_png(&plot::circle(&report), path)?;
            }
            print_report(&report, args.format)
        }
        Command::Sub(SubCommand::Plot(args)) => {
            let canvas = match args.view {
                PlotView::Map => {
                    if args.a + 2 > args.c_max {
                        bail!(BadInput(format!(
                            "--a {} leaves no triple with c <= {}",
                            args.a, args.c_max
                        )));
                    }
                    plot::period_map(args.a, args.c_max)?
                }
                PlotView::Figure3 => plot::figure3(args.c_max)?,
            };
            write_png(&canvas, &args.out)?;
            eprintln!(
                "wrote {} ({}x{}): blue p = a+b, orange c+a, green c+b, purple other, grey pre-periodic (darker = longer)",
                args.out.display(),
                canvas.width,
                canvas.height
            );
            Ok(())
        }
        Command::Kcross(command) => kcross_command(command),
        Command::Arrows(ArrowsCommand::Census(args)) => census_command(args),
        Command::Arrows(ArrowsCommand::Family(args)) => {
            use nimseq::arrows::spider::{SpiderTable, family, family_behaviour, on_deep_stack};
            let (x, y, z) = (args.x as usize, args.y as usize, args.z_max as usize);
            within_budget(
                SpiderTable::slot_bytes(&[x, y, z]),
                budget(args.mem_budget),
                || format!("the state table of S({x},{y},z) for z <= {z}"),
            )?;
            // The recursion follows the long leg down.
            let values = on_deep_stack(x + y + z, move || family(x, y, z));
            let mut out = io::BufWriter::new(io::stdout().lock());
            writeln!(out, "z,g")?;
            for (i, g) in values.iter().enumerate() {
                writeln!(out, "{},{g}", i + 1)?;
            }
            out.flush()?;
            eprintln!("S({x},{y},z): {}", family_behaviour(&values));
            Ok(())
        }
        Command::Arrows(ArrowsCommand::Spiders(args)) => spiders_command(args),
        Command::Arrows(ArrowsCommand::Value(args)) => {
            use nimseq::arrows::spider::{SpiderTable, fits_slots};
            use nimseq::arrows::value::{Solver, describe};
            let solver = match args.backend {
                BackendChoice::Reference => Solver::Reference {
                    budget: budget(args.mem_budget),
                },
                BackendChoice::Cpu | BackendChoice::Auto => match args
                    .tree
                    .spider_legs()
                    .map(|legs| nimseq::arrows::Tree::leg_lengths(&legs))
                {
                    Some(lengths) if fits_slots(&lengths) => {
                        within_budget(
                            SpiderTable::slot_bytes(&lengths),
                            budget(args.mem_budget),
                            || format!("the state table of {}", args.tree),
                        )?;
                        Solver::SpiderStates
                    }
                    _ => Solver::NormalForm {
                        budget: budget(args.mem_budget),
                    },
                },
                BackendChoice::Gpu => bail!(BadInput(
                    "arrows value has no GPU path (one tree is small work); use --backend cpu"
                        .into()
                )),
            };
            print_report(&describe(&args.tree, solver)?, args.format)
        }
        Command::Bench(BenchCommand::Kcross(args)) => {
            let (k, n) = (args.k as usize, args.n_max);
            eprintln!("timing G([n]) for n <= {n}, k = {k}");
            bench_backends("states", args.reference, &args.runs, |backend, label| {
                Ok(match backend {
                    Timed::Reference => time_kcross(k, n, &KcrossBackend::Reference, label)?,
                    Timed::Cpu => time_kcross(k, n, &KcrossBackend::Cpu, label)?,
                    Timed::Gpu(ctx) => {
                        let gpu = KcrossGpu::new(ctx)?;
                        time_kcross(k, n, &KcrossBackend::Gpu(&gpu), label)?
                    }
                })
            })
        }
        Command::Bench(BenchCommand::Arrows(args)) => {
            use nimseq::arrows::spider::SpiderTable;
            use nimseq::arrows::spider_gpu::{SpiderFill, SpiderGpu};
            use nimseq::bench::time_spiders;
            let (legs, h) = (args.legs as usize, args.leg_max as usize);
            within_budget(SpiderTable::bytes(legs, h), budget(args.mem_budget), || {
                format!("the state table of {legs}-leg spiders with legs up to {h}")
            })?;
            eprintln!("timing the table of every {legs}-leg spider with legs <= {h}");
            bench_backends("tuples", args.reference, &args.runs, |backend, label| {
                Ok(match backend {
                    Timed::Reference => time_spiders(legs, h, &SpiderFill::Recursion, label)?,
                    Timed::Cpu => time_spiders(legs, h, &SpiderFill::Cpu, label)?,
                    Timed::Gpu(ctx) => {
                        let gpu = SpiderGpu::new(ctx)?;
                        time_spiders(legs, h, &SpiderFill::Gpu(&gpu), label)?
                    }
                })
            })
        }
        Command::Bench(BenchCommand::Sub(args)) => {
            let gpu = bench_gpu(args.runs.no_gpu);
            eprintln!(
                "timing a scan of every triple with c <= {} ({} round(s), fastest shown)",
                args.c_max, args.runs.repeat
            );
            let gpu_backend = match &gpu {
                Some(ctx) => Some((Backend::Gpu(SubtractionGpu::new(ctx)?), ctx)),
                None => None,
            };
            let threads = rayon::current_num_threads();
            let rows = fastest_of(args.runs.repeat, || {
                let mut runs = Vec::new();
                if let Some(peer) = &args.peer {
                    runs.push(time_peer(peer, args.c_max).context("running the peer")?);
                }
                if args.reference {
                    runs.push(time_scan(args.c_max, &Backend::Reference, "reference")?);
                }
                runs.push(time_scan(
                    args.c_max,
                    &Backend::Cpu,
                    &format!("cpu ({threads} threads)"),
                )?);
                if let Some((backend, ctx)) = &gpu_backend {
                    if let Backend::Gpu(gpu) = backend {
                        // The figures printed are the last round's.
                        gpu.take_stats();
                    }
                    runs.push(time_scan(
                        args.c_max,
                        backend,
                        &format!("gpu {}", ctx.info.name),
                    )?);
                }
                Ok::<_, anyhow::Error>(runs)
            })?;
            if let Some((backend, ctx)) = &gpu_backend {
                println!("gpu: {}", ctx.describe());
                if let Backend::Gpu(gpu) = backend {
                    println!("{}", gpu_figures(ctx, args.c_max, gpu.take_stats())?);
                }
            }
            println!(
                "{}",
                BenchTable {
                    unit: "rulesets",
                    rows
                }
            );
            Ok(())
        }
    }
}

/// The memory budget asked for with --mem-budget, else half the machine's memory.
fn budget(flag: Option<u64>) -> u64 {
    flag.unwrap_or_else(nimseq::memory::default_budget)
}

/// Bad input unless `bytes` fit `budget`; `what` names what needs them.
fn within_budget(bytes: u64, budget: u64, what: impl FnOnce() -> String) -> Result<()> {
    if bytes > budget {
        bail!(BadInput(format!(
            "{} may need {}, over the memory budget of {}; lower the range or raise --mem-budget",
            what(),
            human_bytes(bytes),
            human_bytes(budget)
        )));
    }
    Ok(())
}

/// A backend `bench_backends` times.
enum Timed<'a> {
    Reference,
    Cpu,
    Gpu(&'a GpuContext),
}

/// Times the reference (when asked), the CPU path and the GPU (when found, unless skipped) on
/// the same work, in `runs.repeat` rounds keeping each one's fastest, and prints the rows side
/// by side.
fn bench_backends(
    unit: &'static str,
    reference: bool,
    runs: &BenchRuns,
    mut time: impl FnMut(Timed<'_>, &str) -> Result<BenchRow>,
) -> Result<()> {
    let gpu = bench_gpu(runs.no_gpu);
    let threads = rayon::current_num_threads();
    let rows = fastest_of(runs.repeat, || {
        let mut runs = Vec::new();
        if reference {
            runs.push(time(Timed::Reference, "reference")?);
        }
        runs.push(time(Timed::Cpu, &format!("cpu ({threads} threads)"))?);
        if let Some(ctx) = &gpu {
            runs.push(time(Timed::Gpu(ctx), &format!("gpu {}", ctx.info.name))?);
        }
        Ok::<_, anyhow::Error>(runs)
    })?;
    if let Some(ctx) = &gpu {
        println!("gpu: {}", ctx.describe());
    }
    println!("{}", BenchTable { unit, rows });
    Ok(())
}

/// The GPU a bench times, if any (a missing one is said, not an error).
fn bench_gpu(skip: bool) -> Option<GpuContext> {
    if skip {
        return None;
    }
    GpuContext::new()
        .inspect_err(|e| eprintln!("no GPU timed: {e}"))
        .ok()
}

/// Most memory `sub seq` may plan for: the bit planes take `max_len / 8` bytes per move.
const SEQ_MEMORY_BUDGET: u64 = 4 << 30;

/// Writes a PNG; an unwritable path is the user's to fix.
fn write_png(canvas: &Canvas, path: &std::path::Path) -> Result<()> {
    canvas
        .write_png(path)
        .map_err(|e| BadInput(format!("cannot write '{}': {e}", path.display())).into())
}

/// Prints a report as text or as one line of JSON.
fn print_report(
    report: &(impl std::fmt::Display + serde::Serialize),
    format: SeqFormat,
) -> Result<()> {
    let mut out = io::stdout().lock();
    match format {
        SeqFormat::Text => writeln!(out, "{report}")?,
        SeqFormat::Json => {
            serde_json::to_writer(&mut out, report)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

/// Most values `sub ppos` computes: P-positions are at most 2c apart, so this bounds `count * c`.
const PPOS_MAX_LEN: usize = 1 << 28;

fn ppos_command(args: PposArgs) -> Result<()> {
    let &[a, b, c] = args.set.moves() else {
        bail!(BadInput(format!(
            "ppos needs three moves a,b,c; got {}",
            args.set
        )));
    };
    let count = args.count as usize;
    // Of any c + 1 consecutive positions one is a P-position, so this length holds `count`.
    let len = (count + 1) * (c as usize + 1);
    if len > PPOS_MAX_LEN {
        bail!(BadInput(format!(
            "--count {count} with c = {c} may need {len} values, over the limit {PPOS_MAX_LEN}"
        )));
    }
    let mut planes = Planes::default();
    planes.reset(args.set.moves(), &[]);
    planes.extend(args.set.moves(), len);
    let g: Vec<u32> = (0..len).map(|x| planes.value(x)).collect();
    let report = PposReport::new(a as usize, b as usize, c as usize, count, &g);
    print_report(&report, args.format)
}

fn seq_command(args: SeqArgs) -> Result<()> {
    let planes_bytes = (args.max_len as u64).div_ceil(64) * 8 * args.set.moves().len() as u64;
    if planes_bytes > SEQ_MEMORY_BUDGET {
        bail!(BadInput(format!(
            "--max-len {} with {} moves may need {} MiB, over the {} MiB budget; lower --max-len",
            args.max_len,
            args.set.moves().len(),
            planes_bytes >> 20,
            SEQ_MEMORY_BUDGET >> 20
        )));
    }
    print_report(
        &seq::describe(&args.set, args.len, args.max_len)?,
        args.format,
    )
}

/// Checked scan options from the flags.
fn scan_options(args: &ScanArgs) -> Result<ScanOptions> {
    if args.c_min > args.c_max {
        bail!(BadInput(format!(
            "--c-min {} is above --c-max {}: no triple to scan",
            args.c_min, args.c_max
        )));
    }
    if let Some(f) = args.verify_sample
        && !(0.0..=1.0).contains(&f)
    {
        bail!(BadInput(format!(
            "--verify-sample {f} is not a fraction between 0 and 1"
        )));
    }
    Ok(ScanOptions {
        filter: TripleFilter {
            c_min: args.c_min,
            c_max: args.c_max,
            a_min: args.a_min,
            a_max: args.a_max,
            b_min: args.b_min,
            b_max: args.b_max,
            primitive: args.primitive,
        },
        chunk_size: args.chunk_size,
        shard: args.shard,
        format: args.format,
        theory: args.theory,
        out: args.out.clone(),
        resume: args.resume,
        verify_sample: args.verify_sample,
    })
}

/// The GPU to use for `choice`, if any, saying on stderr which backend runs: `gpu` insists on
/// one; `auto` takes a hardware adapter and otherwise the fast CPU path.
fn gpu_for(choice: BackendChoice) -> Result<Option<GpuContext>> {
    let found = open_gpu(choice)?;
    if let Some(ctx) = &found {
        eprintln!("backend: gpu, {}", ctx.describe());
    }
    Ok(found)
}

/// [`gpu_for`], saying on stderr only why there is no GPU.
fn open_gpu(choice: BackendChoice) -> Result<Option<GpuContext>> {
    let found = match choice {
        BackendChoice::Reference => {
            eprintln!("backend: reference");
            return Ok(None);
        }
        BackendChoice::Cpu => {
            eprintln!("backend: cpu");
            return Ok(None);
        }
        BackendChoice::Gpu => GpuContext::new()?,
        BackendChoice::Auto => match GpuContext::new() {
            Ok(found) if found.info.device_type != wgpu::DeviceType::Cpu => found,
            Ok(found) => {
                eprintln!(
                    "backend: cpu ({} is a software adapter, slower than the CPU path)",
                    found.info.name
                );
                return Ok(None);
            }
            Err(e) => {
                eprintln!("backend: cpu ({e})");
                return Ok(None);
            }
        },
    };
    Ok(Some(found))
}

/// The scan backend asked for; a GPU context lands in `ctx`. Under `auto`, a scan big enough
/// to matter on a hardware adapter runs on whichever of the GPU and the CPU path is faster on
/// a sample of its own triples (on a software adapter, always the CPU path).
fn choose_backend<'a>(
    choice: BackendChoice,
    filter: &TripleFilter,
    ctx: &'a mut Option<GpuContext>,
) -> Result<Backend<'a>> {
    *ctx = open_gpu(choice)?;
    let Some(ctx) = ctx.as_ref() else {
        return Ok(match choice {
            BackendChoice::Reference => Backend::Reference,
            _ => Backend::Cpu,
        });
    };
    let gpu = SubtractionGpu::new(ctx)?;
    if choice != BackendChoice::Auto {
        eprintln!("backend: gpu, {}", ctx.describe());
        return Ok(Backend::Gpu(gpu));
    }
    let (backend, why) = Backend::faster(filter, gpu)?;
    match backend {
        Backend::Gpu(_) => eprintln!("backend: gpu, {} ({why})", ctx.describe()),
        _ => eprintln!("backend: cpu ({why})"),
    }
    Ok(backend)
}

fn scan_command(args: ScanArgs) -> Result<()> {
    let opts = scan_options(&args)?;
    // Open (or resume) the output before choosing a backend: bad paths fail before any work.
    let job: ScanJob<ScanSummary> = ScanJob::open(&opts)?;
    let mut ctx = None;
    let backend = choose_backend(args.backend, &opts.filter, &mut ctx)?;
    // Stdout is line-buffered: one write per row would cost a system call each.
    let mut stdout = io::BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let summary = job.run(&backend, &mut stdout)?;
    eprintln!("{summary}");
    Ok(())
}

fn survey_command(args: SurveyArgs) -> Result<()> {
    let opts = scan_options(&args.scan)?;
    let job: ScanJob<Survey> = ScanJob::open(&opts)?;
    let mut ctx = None;
    let backend = choose_backend(args.scan.backend, &opts.filter, &mut ctx)?;
    // Rows go to --out when given; the report is what this command prints.
    let survey = job.run(&backend, &mut io::sink())?;
    println!("{survey}");
    if let Some(path) = &args.json {
        let file = std::fs::File::create(path)
            .map_err(|e| BadInput(format!("cannot write '{}': {e}", path.display())))?;
        serde_json::to_writer_pretty(io::BufWriter::new(file), &survey)?;
    }
    if survey.bugs() > 0 {
        bail!(
            "{} rulesets contradict a proved theorem: a bug in nimseq or in the spec (listed above)",
            survey.bugs()
        );
    }
    Ok(())
}

fn kcross_command(command: KcrossCommand) -> Result<()> {
    let engine = match &command {
        KcrossCommand::Value(a) => (a.engine.backend, a.engine.mem_budget),
        KcrossCommand::Seq(a) => (a.engine.backend, a.engine.mem_budget),
        KcrossCommand::Single(a) => (a.engine.backend, a.engine.mem_budget),
        KcrossCommand::Ring(a) => (a.engine.backend, a.engine.mem_budget),
        KcrossCommand::Table(a) => (a.engine.backend, a.engine.mem_budget),
    };
    let (choice, budget) = (engine.0, budget(engine.1));
    let reference = choice == BackendChoice::Reference;
    // Input errors first: no adapter is probed for a command that cannot run.
    match &command {
        KcrossCommand::Value(args) => args
            .board
            .check(args.k as usize)
            .map_err(|e| BadInput(e.to_string()))?,
        KcrossCommand::Table(args) if args.k_min > args.k_max => bail!(BadInput(format!(
            "--k-min {} is above --k-max {}",
            args.k_min, args.k_max
        ))),
        _ => {}
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
    let ctx = gpu_for(choice)?;
    let gpu = ctx.as_ref().map(KcrossGpu::new).transpose()?;
    let backend = match (choice, &gpu) {
        (BackendChoice::Reference, _) => KcrossBackend::Reference,
        (_, Some(gpu)) => KcrossBackend::Gpu(gpu),
        (_, None) => KcrossBackend::Cpu,
    };
    // Builds a solver within `budget` bytes, saying on stderr how large its table is and how
    // long it took.
    let bars = indicatif::MultiProgress::new();
    let solver = |k: u32, n: usize, budget: u64, boards: Boards| {
        let start = std::time::Instant::now();
        let solver = Solver::new(k as usize, n, &backend, budget, &bars, boards)?;
        if let Some(size) = solver.table_size() {
            let seconds = start.elapsed().as_secs_f64();
            let device = size
                .device
                .map_or(String::new(), |plan| format!(", {plan}"));
            bars.suspend(|| {
                eprintln!(
                    "table k = {k}, n <= {n}: {} states at {} bits ({}) in {seconds:.2} s, {:.3e} states/s{device}",
                    size.states,
                    size.bits,
                    human_bytes(size.bytes),
                    size.states as f64 / seconds
                )
            });
        }
        Ok::<_, TableError>(solver)
    };
    let (report, format) = match command {
        KcrossCommand::Value(args) => {
            let k = args.k as usize;
            let mut solver = solver(args.k, value_size(&args.board, k), budget, Boards::Any)?;
            let report = kcross::value::describe(&args.board, k, &mut solver)?;
            return print_report(&report, args.format);
        }
        KcrossCommand::Seq(args) => {
            let values = sequences::strips(
                &mut solver(args.k, args.n_max, budget, Boards::EmptyStrips)?,
                args.n_max,
            )?;
            let series = vec![Series::new(format!("k={}", args.k), values)];
            let report = Report::new(args.k.to_string(), "G([n])", "n", series, false);
            (report, args.format)
        }
        KcrossCommand::Ring(args) => {
            let values = sequences::rings(
                &mut solver(args.k, args.l_max, budget, Boards::Any)?,
                args.l_max,
            )?;
            let series = vec![Series::new(format!("k={}", args.k), values)];
            let report = Report::new(args.k.to_string(), "G((l))", "l", series, false);
            (report, args.format)
        }
        KcrossCommand::Single(args) => {
            let mut solver = solver(args.k, args.a_max + 1 + args.b_max, budget, Boards::Any)?;
            let series = (0..=args.a_max)
                .map(|a| {
                    let values = sequences::singles(&mut solver, a, args.b_max)?;
                    Ok(Series::new(format!("a={a}"), values))
                })
                .collect::<Result<Vec<_>>>()?;
            let report = Report::new(args.k.to_string(), "G([aXb])", "b", series, true);
            (report, args.format)
        }
        KcrossCommand::Table(args) => {
            let strips = |k: u32, budget: u64| {
                let values = sequences::strips(
                    &mut solver(k, args.n_max, budget, Boards::EmptyStrips)?,
                    args.n_max,
                )?;
                Ok(Series::new(format!("k={k}"), values))
            };
            // On the CPU the tables of several k are built at once (each level of a table ends
            // with a core idle, and one table cannot fill both cores through its small levels:
            // 8% faster on two cores, measured), where every table could widen at the same time
            // within the budget: each then gets the room to widen, and no more.
            let ks: Vec<u32> = (args.k_min..=args.k_max).collect();
            // Each table's size at 8 bits, worked out once (and only where it may be used).
            let wide: Vec<u64> = match backend {
                KcrossBackend::Cpu => ks
                    .iter()
                    .map(|&k| Layout::new(k as usize, args.n_max).widened().bytes())
                    .collect(),
                _ => Vec::new(),
            };
            let together = wide.iter().fold(0u64, |sum, &w| sum.saturating_add(w));
            let series = if !wide.is_empty() && together <= budget {
                eprintln!(
                    "tables of k = {}..{} built side by side (their times overlap)",
                    args.k_min, args.k_max
                );
                ks.par_iter()
                    .zip(&wide)
                    .map(|(&k, &room)| strips(k, room))
                    .collect::<Result<Vec<_>>>()?
            } else {
                ks.iter()
                    .map(|&k| strips(k, budget))
                    .collect::<Result<Vec<_>>>()?
            };
            let ks = format!("{}..{}", args.k_min, args.k_max);
            (Report::new(ks, "G([n])", "n", series, false), args.format)
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    match format {
        TableFormat::Csv => {
            report.write_csv(&mut out)?;
            out.flush()?;
            eprintln!("{}", report.observations());
        }
        TableFormat::Json => {
            serde_json::to_writer(&mut out, &report)?;
            writeln!(out)?;
        }
    }
    Ok(())
}

fn spiders_command(args: ArrowsSpidersArgs) -> Result<()> {
    use nimseq::arrows::spider::{SpiderTable, summarise};
    use nimseq::arrows::spider_gpu::{SpiderFill, SpiderGpu};
    let (legs, h) = (args.legs as usize, args.leg_max as usize);
    within_budget(SpiderTable::bytes(legs, h), budget(args.mem_budget), || {
        format!("the state table of {legs}-leg spiders with legs up to {h}")
    })?;
    let ctx = gpu_for(args.backend)?;
    let kernel = ctx.as_ref().map(SpiderGpu::new).transpose()?;
    let fill = match (&kernel, args.backend) {
        (Some(kernel), _) => SpiderFill::Gpu(kernel),
        (None, BackendChoice::Reference) => SpiderFill::Recursion,
        (None, _) => SpiderFill::Cpu,
    };
    let bar = nimseq::output::progress_bar(SpiderTable::tuples(legs, h), "leg tuples");
    let start = std::time::Instant::now();
    let spiders = fill.spiders(legs, h, |done| bar.inc(done))?;
    bar.finish_and_clear();
    if let Some(plan) = &spiders.device {
        eprintln!("{plan}");
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let header: Vec<String> = (1..=legs).map(|t| format!("x{t}")).collect();
    writeln!(out, "{},g", header.join(","))?;
    let summary = summarise(legs, h, &spiders.values, |x, g| {
        for leg in x {
            write!(out, "{leg},")?;
        }
        writeln!(out, "{g}")
    })?;
    out.flush()?;
    eprint!("{summary}");
    eprintln!("time         {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn census_command(args: ArrowsCensusArgs) -> Result<()> {
    use nimseq::arrows::census::{Valuer, census, count_trees};
    let budget = budget(args.mem_budget);
    let mut memo = nimseq::arrows::forest::NormalForm::default();
    let mut valuer = match args.backend {
        // Each tree's raw-rules memo gets a share of the budget per thread.
        BackendChoice::Reference => Valuer::Raw {
            budget: budget / rayon::current_num_threads() as u64,
        },
        BackendChoice::Cpu | BackendChoice::Auto => Valuer::NormalForm(&mut memo),
        BackendChoice::Gpu => bail!(BadInput(
            "arrows census has no GPU path (spec 3.2: a CPU handles censuses well past n = 20); use --backend cpu"
                .into()
        )),
    };
    let mut rows = Vec::new();
    let sizes = 1..=args.n_max as usize;
    let total = sizes
        .clone()
        .map(|n| count_trees(n).unwrap_or(u64::MAX))
        .sum();
    let bar = nimseq::output::progress_bar(total, "trees");
    for n in sizes {
        bar.set_message(format!("n = {n}"));
        let row = census(n, &mut valuer, args.list_violators, budget, |done| {
            bar.inc(done)
        })
        .map_err(|e| BadInput(format!("{e}; lower --n-max or raise --mem-budget")))?;
        rows.push(row);
    }
    bar.finish_and_clear();
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        TableFormat::Json => {
            serde_json::to_writer(&mut out, &serde_json::json!({ "rows": rows }))?;
            writeln!(out)?;
        }
        TableFormat::Csv => {
            let top = rows
                .iter()
                .filter_map(|r| r.by_value.keys().max().copied())
                .max()
                .unwrap_or(0);
            write!(out, "n,trees")?;
            for g in 0..=top {
                write!(out, ",g={g}")?;
            }
            writeln!(out, ",pc_violators")?;
            for r in &rows {
                write!(out, "{},{}", r.n, r.trees)?;
                for g in 0..=top {
                    write!(out, ",{}", r.by_value.get(&g).copied().unwrap_or(0))?;
                }
                writeln!(out, ",{}", r.violators)?;
            }
            out.flush()?;
            for r in rows.iter().filter(|r| !r.violator_trees.is_empty()) {
                for t in &r.violator_trees {
                    eprintln!("violator n = {}: {t}", r.n);
                }
            }
        }
    }
    // Open question 4 of the spec: the smallest tree of each value.
    let mut seen = std::collections::BTreeMap::new();
    for r in &rows {
        for (g, tree) in &r.examples {
            seen.entry(*g).or_insert((r.n, tree));
        }
    }
    for (g, (n, tree)) in seen {
        eprintln!("g = {g} first at n = {n}: {tree}");
    }
    if let Valuer::NormalForm(memo) = valuer {
        eprintln!("distinct components valued: {}", memo.len());
    }
    Ok(())
}
