//! `nimseq octal`: octal games.

use std::io::Write;
use std::time::Duration;

use anyhow::Result;

use super::flags::{Play, SeqFormat};
use super::octal_args::{OctalCommand, OctalScanArgs};
use super::print;
use nimseq::backend::choose;
use nimseq::misere::position as misere_position;
use nimseq::octal::misere;
use nimseq::octal::quotient;
use nimseq::octal::scan::{Backend, OctalScanSummary, ScanOptions};
use nimseq::octal::seq::{Reach, describe_with_bar, stats_lines};
use nimseq::output::scan::ScanJob;
use nimseq::position;

pub fn run(command: OctalCommand) -> Result<()> {
    match command {
        OctalCommand::Seq(args) if args.play == Play::Misere => {
            let report = misere::describe_past_sums(
                &args.code,
                args.len,
                args.max_len,
                args.memory.budget(),
            )?;
            print::sequence(&report, &report.heaps.misere_values, args.format)
        }
        OctalCommand::Seq(args) => {
            let reach = Reach {
                len: args.len,
                max_len: args.max_len,
                look_for_period: true,
                max_time: (args.max_time > 0).then(|| Duration::from_secs(args.max_time)),
                stop: None,
                saving: args.checkpoint.saving(),
                bounded: false,
            };
            let report = describe_with_bar(&args.code, &reach, args.memory.budget())?;
            print::sequence(&report, &report.values, args.format)?;
            args.checkpoint.done()?;
            if !report.certified {
                // Not an error: the values stand; the period is open as far as this went.
                let (stop, flag) = if report.timed_out {
                    (format!("after {} s", args.max_time), "--max-time")
                } else {
                    (format!("at --max-len {}", args.max_len), "--max-len")
                };
                eprintln!(
                    "no period of {} certified within {} values: stopped {stop}; raise {flag} to look further",
                    report.code, report.computed
                );
            }
            Ok(())
        }
        OctalCommand::Stats(args) => {
            let reach = Reach {
                len: 0,
                max_len: args.n_max,
                look_for_period: false,
                saving: args.checkpoint.saving(),
                bounded: args.bounded,
                ..Reach::default()
            };
            let report = describe_with_bar(&args.code, &reach, args.memory.budget())?;
            match args.format {
                SeqFormat::Json => print::report(&report, args.format)?,
                SeqFormat::Text => {
                    // A full disk or a closed pipe is an error here, never a panic.
                    let mut out = std::io::stdout().lock();
                    writeln!(out, "{report}")?;
                    writeln!(out, "{}", stats_lines(&report))?;
                    out.flush()?;
                }
            }
            Ok(args.checkpoint.done()?)
        }
        OctalCommand::Scan(args) => run_scan(args),
        OctalCommand::Quotient(args) => {
            let report = quotient::describe(
                &args.code,
                args.heap_max as usize,
                args.max_order,
                args.check_total.map(|t| t as usize),
                args.memory.budget(),
            )?;
            print::report(&report, args.format)
        }
        OctalCommand::Value(args) => {
            let p = &args.position;
            if p.play == Play::Misere {
                let report = misere_position::octal(&args.code, &p.heaps.0, p.memory.budget())?;
                return print::report(&report, p.format);
            }
            let report = position::octal(&args.code, &p.heaps.0, p.memory.budget())?;
            print::report(&report, p.format)
        }
    }
}

fn run_scan(args: OctalScanArgs) -> Result<()> {
    let opts = ScanOptions {
        digits: args.digits as usize,
        base: args.base,
        d0: args.d0,
        n_max: args.n_max as usize,
        output: args.output.with_chunks(args.chunk_size),
        verify_sample: args.verify_sample,
        budget: args.memory.budget(),
    };
    // Open (or resume) the output before choosing a backend: bad paths fail before any work.
    let job: ScanJob<_, OctalScanSummary> = ScanJob::open(&opts)?;
    let chosen = choose(args.backend)?;
    let backend = Backend::chosen(&chosen, &opts)?;
    // Stdout is line-buffered: one write per row would cost a system call each.
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let summary = job.run(&backend, &mut stdout)?;
    eprintln!("{summary}");
    Ok(())
}
