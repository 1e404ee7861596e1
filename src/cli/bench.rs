//! `nimseq bench`: the backends (and a peer program) timed on the same work, side by side.

use std::io::Write;

use anyhow::{Context, Result, bail};

use super::bench_args::{BenchCommand, BenchRuns};
use nimseq::InputError;
use nimseq::arrows::spider;
use nimseq::arrows::spider_gpu::{SpiderFill, SpiderGpu};
use nimseq::bench::{
    BenchRow, BenchTable, fastest_of, gpu_figures, time_kcross, time_octal, time_ogsolve,
    time_peer, time_scan, time_spiders,
};
use nimseq::gpu::GpuContext;
use nimseq::kcross::gpu::KcrossGpu;
use nimseq::kcross::sequences::{self, Backend as KcrossBackend};
use nimseq::octal;
use nimseq::octal::gpu::OctalGpu;
use nimseq::octal::row::ScanBackend;
use nimseq::octal::scan::Device as OctalDevice;
use nimseq::subtraction::SetFilter;
use nimseq::subtraction::gpu::SubtractionGpu;
use nimseq::subtraction::scan::Backend;

pub fn run(command: BenchCommand) -> Result<()> {
    match command {
        BenchCommand::Kcross(args) => {
            let (k, n, budget) = (args.k as usize, args.n_max, args.runs.memory.budget());
            sequences::check_size(k, n, false, budget)?;
            eprintln!("timing G([n]) for n <= {n}, k = {k}");
            let gpu = bench_gpu(args.runs.no_gpu);
            let kernel = gpu.as_ref().map(KcrossGpu::new).transpose()?;
            let rows = compare(&args.runs, false, args.reference, &gpu, |timed, label| {
                let backend = match (timed, &kernel) {
                    (Timed::Reference, _) => KcrossBackend::Reference,
                    (Timed::Gpu, Some(kernel)) => KcrossBackend::Gpu(kernel),
                    _ => KcrossBackend::Cpu,
                };
                Ok(time_kcross(k, n, &backend, budget, label)?)
            })?;
            print(&gpu, None, "states", rows)
        }
        BenchCommand::Arrows(args) => {
            let (legs, h) = (args.legs as usize, args.leg_max as usize);
            spider::check_table(legs, h, args.runs.memory.budget())?;
            eprintln!("timing the table of every {legs}-leg spider with legs <= {h}");
            let gpu = bench_gpu(args.runs.no_gpu);
            let kernel = gpu.as_ref().map(SpiderGpu::new).transpose()?;
            let rows = compare(&args.runs, false, args.reference, &gpu, |timed, label| {
                let fill = match (timed, &kernel) {
                    (Timed::Reference, _) => SpiderFill::Recursion,
                    (Timed::Gpu, Some(kernel)) => SpiderFill::Gpu(kernel),
                    _ => SpiderFill::Cpu,
                };
                Ok(time_spiders(legs, h, &fill, label)?)
            })?;
            print(&gpu, None, "tuples", rows)
        }
        BenchCommand::Octal(args) => {
            let n_max = args.n_max as usize;
            let codes = match args.codes.is_empty() {
                true => octal::scan::codes(args.digits as usize, 8, 0).collect(),
                false => args.codes,
            };
            let budget = args.runs.memory.budget();
            let three_heaps = codes.iter().any(|c| c.max_heaps() > 2);
            octal::scan::check_memory(n_max, three_heaps, budget)?;
            eprintln!("timing {} octal code(s) to n = {n_max}", codes.len());
            let gpu = bench_gpu(args.runs.no_gpu);
            let kernel = gpu.as_ref().map(OctalGpu::new).transpose()?;
            let gpu_backend = kernel.map(OctalDevice::Gpu);
            let peer = args.peer.as_deref();
            let rows = compare(
                &args.runs,
                peer.is_some(),
                args.reference,
                &gpu,
                |timed, label| {
                    Ok(match (timed, &gpu_backend) {
                        (Timed::Peer, _) => {
                            let peer = peer.expect("a peer is timed only when given");
                            time_ogsolve(peer, &codes, n_max).context("running the peer")?
                        }
                        (Timed::Reference, _) => {
                            let backend = OctalDevice::Cpu(ScanBackend::Reference);
                            time_octal(&codes, n_max, &backend, budget, label)?
                        }
                        (Timed::Gpu, Some(backend)) => {
                            time_octal(&codes, n_max, backend, budget, label)?
                        }
                        _ => {
                            let backend = OctalDevice::Cpu(ScanBackend::Cpu);
                            time_octal(&codes, n_max, &backend, budget, label)?
                        }
                    })
                },
            )?;
            print(&gpu, None, "codes", rows)
        }
        BenchCommand::Sub(args) => {
            super::keep_freed_memory();
            let (c_max, budget) = (args.c_max, args.runs.memory.budget());
            let filter = SetFilter::sets_up_to(args.moves.into(), c_max);
            filter.check()?;
            if args.peer.is_some() && filter.moves != 3 {
                bail!(InputError(
                    "--peer times the peer's scan of triples: use it with --moves 3".into()
                ));
            }
            eprintln!(
                "timing a scan of every set of {} moves with largest move <= {c_max} ({} round(s), fastest shown)",
                filter.moves, args.runs.repeat
            );
            let gpu = bench_gpu(args.runs.no_gpu);
            let kernel = gpu
                .as_ref()
                .map(|ctx| SubtractionGpu::new(ctx, filter.moves))
                .transpose()?;
            let gpu_backend = kernel.map(Backend::Gpu);
            let peer = args.peer.as_deref();
            let rows = compare(
                &args.runs,
                peer.is_some(),
                args.reference,
                &gpu,
                |timed, label| {
                    Ok(match (timed, &gpu_backend) {
                        (Timed::Peer, _) => {
                            let peer = peer.expect("a peer is timed only when given");
                            time_peer(peer, c_max).context("running the peer")?
                        }
                        (Timed::Reference, _) => {
                            time_scan(&filter, &Backend::Reference, budget, label)?
                        }
                        (Timed::Gpu, Some(backend @ Backend::Gpu(kernel))) => {
                            // The figures printed are the last round's.
                            kernel.take_stats();
                            time_scan(&filter, backend, budget, label)?
                        }
                        _ => time_scan(&filter, &Backend::Cpu, budget, label)?,
                    })
                },
            )?;
            let figures = match (&gpu, &gpu_backend) {
                (Some(ctx), Some(Backend::Gpu(kernel))) => {
                    Some(gpu_figures(ctx, &filter, budget, kernel.take_stats())?)
                }
                _ => None,
            };
            print(&gpu, figures, "rulesets", rows)
        }
    }
}

/// What a round times.
#[derive(Clone, Copy)]
enum Timed {
    Peer,
    Reference,
    Cpu,
    Gpu,
}

/// Times, in `runs.repeat` rounds keeping each one's fastest run: the peer program (when
/// `peer` is given), the reference (when asked), the CPU path on all cores, and the GPU
/// (when there is one), each labelled as its row.
fn compare(
    runs: &BenchRuns,
    peer: bool,
    reference: bool,
    gpu: &Option<GpuContext>,
    mut time: impl FnMut(Timed, &str) -> Result<BenchRow>,
) -> Result<Vec<BenchRow>> {
    let threads = rayon::current_num_threads();
    let mut timed = Vec::new();
    if peer {
        timed.push((Timed::Peer, "peer".to_string()));
    }
    if reference {
        timed.push((Timed::Reference, "reference".to_string()));
    }
    timed.push((Timed::Cpu, format!("cpu ({threads} threads)")));
    if let Some(ctx) = gpu {
        timed.push((Timed::Gpu, format!("gpu {}", ctx.info.name)));
    }
    fastest_of(runs.repeat, || {
        timed
            .iter()
            .map(|(which, label)| time(*which, label))
            .collect::<Result<Vec<_>>>()
    })
}

/// The rows side by side, under the GPU's line and its `figures`, if any.
fn print(
    gpu: &Option<GpuContext>,
    figures: Option<String>,
    unit: &'static str,
    rows: Vec<BenchRow>,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if let Some(ctx) = gpu {
        writeln!(out, "gpu: {}", ctx.describe())?;
    }
    if let Some(figures) = figures {
        writeln!(out, "{figures}")?;
    }
    writeln!(out, "{}", BenchTable { unit, rows })?;
    Ok(out.flush()?)
}

/// The GPU a bench times, if any (a missing one is said, not an error): any adapter, software
/// ones too, since a bench is there to compare.
fn bench_gpu(skip: bool) -> Option<GpuContext> {
    if skip {
        return None;
    }
    GpuContext::new()
        .inspect_err(|e| eprintln!("no GPU timed: {e}"))
        .ok()
}
