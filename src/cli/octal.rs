//! `nimseq octal`: octal games.

use anyhow::Result;

use super::args::{OctalCommand, OctalScanArgs, SeqFormat};
use super::backend::{Chosen, choose};
use super::print;
use nimseq::octal::gpu::OctalGpu;
use nimseq::octal::scan::{Backend, OctalScanSummary, ScanBackend, ScanOptions};
use nimseq::octal::seq::{describe, stats_lines};
use nimseq::output::scan::ScanJob;

pub fn run(command: OctalCommand) -> Result<()> {
    match command {
        OctalCommand::Seq(args) => {
            let report = describe(
                &args.code,
                args.len,
                args.max_len,
                true,
                args.memory.budget(),
            )?;
            print::report(&report, args.format)?;
            if !report.certified {
                // Not an error: the values stand; the period is open as far as this went.
                eprintln!(
                    "no period of {} certified within {} values",
                    report.code, report.computed
                );
            }
            Ok(())
        }
        OctalCommand::Stats(args) => {
            let report = describe(&args.code, 0, args.n_max, false, args.memory.budget())?;
            match args.format {
                SeqFormat::Json => print::report(&report, args.format),
                SeqFormat::Text => {
                    println!("{report}");
                    println!("{}", stats_lines(&report));
                    Ok(())
                }
            }
        }
        OctalCommand::Scan(args) => run_scan(args),
    }
}

fn run_scan(args: OctalScanArgs) -> Result<()> {
    let opts = ScanOptions {
        digits: args.digits as usize,
        n_max: args.n_max as usize,
        output: args.output.with_chunks(args.chunk_size),
        verify_sample: args.verify_sample,
        budget: args.memory.budget(),
    };
    // Open (or resume) the output before choosing a backend: bad paths fail before any work.
    let job: ScanJob<_, OctalScanSummary> = ScanJob::open(&opts)?;
    let chosen = choose(args.backend)?;
    let backend = match &chosen {
        Chosen::Reference => Backend::Cpu(ScanBackend::Reference),
        Chosen::Cpu => Backend::Cpu(ScanBackend::Cpu),
        Chosen::Gpu { ctx, .. } => {
            eprintln!("backend: gpu, {}", ctx.describe());
            Backend::Gpu(OctalGpu::new(ctx)?)
        }
    };
    // Stdout is line-buffered: one write per row would cost a system call each.
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let summary = job.run(&backend, &mut stdout)?;
    eprintln!("{summary}");
    Ok(())
}
