//! `nimseq octal`: octal games.

use anyhow::Result;

use super::args::{OctalCommand, SeqFormat};
use super::print;
use nimseq::octal::seq::{describe, frequency_lines};

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
                    println!("{}", frequency_lines(&report));
                    Ok(())
                }
            }
        }
    }
}
