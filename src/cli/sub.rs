//! `nimseq sub`: subtraction games.

use std::io;

use anyhow::{Result, bail};

use super::flags::{Play, SeqFormat};
use super::print;
use super::sub_args::{
    AllButScanArgs, PlotView, ScanArgs, SeqSet, SubCommand, SubScanArgs, SurveyArgs,
};
use nimseq::InputError;
use nimseq::backend::choose;
use nimseq::misere::position as misere_position;
use nimseq::output::Format;
use nimseq::output::check_distinct;
use nimseq::output::scan::{ScanJob, ScanOutput};
use nimseq::position;
use nimseq::subtraction::all_but_scan::{self, AllButRow};
use nimseq::subtraction::plot;
use nimseq::subtraction::scan::{Backend, ScanOptions, check_theory};
use nimseq::subtraction::summary::ScanSummary;
use nimseq::subtraction::survey::Survey;
use nimseq::subtraction::theory::ppos::PposReport;
use nimseq::subtraction::theory::predict::ThetaReport;
use nimseq::subtraction::{SetFilter, infinite, misere, misere_survey, seq};

/// Values a finite set's period is looked for in, at most, unless --max-len says.
const FINITE_MAX_LEN: usize = 1 << 26;

/// Values an infinite set's arithmetic period is looked for in, unless --max-len says: a
/// sparse set costs its moves below n a value (the primes to 2^16: about a second).
const INFINITE_MAX_LEN: usize = 1 << 16;

/// Genera a finite set's misère period is looked for in, unless --max-len says (a genus takes
/// 56 bytes, 64 with its value and outcome: 268 MB).
const MISERE_MAX_LEN: usize = 1 << 22;

pub fn run(command: SubCommand) -> Result<()> {
    match command {
        SubCommand::Seq(args) => {
            let budget = args.memory.budget();
            let set = match (args.set, args.all_but) {
                (Some(set), _) => set,
                (None, Some(all_but)) => SeqSet::Infinite(all_but),
                (None, None) => unreachable!("clap requires a set"),
            };
            let set = match set {
                SeqSet::Finite(set) => set,
                SeqSet::Infinite(set) if args.play == Play::Misere => {
                    let max_len = args.max_len.unwrap_or(INFINITE_MAX_LEN);
                    let report = infinite::describe_misere(&set, args.len, max_len, budget)?;
                    return print::sequence(&report, &report.heaps.misere_values, args.format);
                }
                SeqSet::Infinite(set) => {
                    let max_len = args.max_len.unwrap_or(INFINITE_MAX_LEN);
                    let report = infinite::describe(&set, args.len, max_len, budget)?;
                    return print::sequence(&report, &report.values, args.format);
                }
            };
            if args.play == Play::Misere {
                let max_len = args.max_len.unwrap_or(MISERE_MAX_LEN);
                let report = misere::describe(&set, args.len, max_len, budget)?;
                print::sequence(&report, &report.heaps.misere_values, args.format)?;
                if !report.certified {
                    eprintln!(
                        "no genus period of {set} certified within {} values; raise --max-len to look further",
                        report.computed
                    );
                }
                return Ok(());
            }
            let max_len = args.max_len.unwrap_or(FINITE_MAX_LEN);
            let report = seq::describe(&set, args.len, max_len, budget)?;
            print::sequence(&report, &report.values, args.format)?;
            if let Some(unsettled) = &report.unsettled {
                // Not an error: the values stand; the period is open as far as this went.
                eprintln!("{unsettled}; raise --max-len to look further");
            }
            Ok(())
        }
        SubCommand::Value(args) => {
            let p = &args.position;
            if p.play == Play::Misere {
                let report =
                    misere_position::subtraction(&args.set, &p.heaps.0, p.memory.budget())?;
                return print::report(&report, p.format);
            }
            let report = position::subtraction(&args.set, &p.heaps.0, p.memory.budget())?;
            print::report(&report, p.format)
        }
        SubCommand::Scan(args) => scan(args),
        SubCommand::Survey(args) => survey(args),
        SubCommand::AllButScan(args) => all_but(args),
        SubCommand::Ppos(args) => {
            let report = PposReport::for_set(&args.set, args.count as usize, args.memory.budget())?;
            print::report(&report, args.format)
        }
        SubCommand::Theta(args) => {
            let report = ThetaReport::new(args.base.0, args.base.1);
            if let Some(path) = &args.out {
                print::write_png(&plot::circle(&report), path)?;
            }
            print::report(&report, args.format)
        }
        SubCommand::Plot(args) => {
            let canvas = match args.view {
                PlotView::Map => {
                    if args.a + 2 > args.c_max {
                        bail!(InputError(format!(
                            "--a {} leaves no triple with c <= {}",
                            args.a, args.c_max
                        )));
                    }
                    plot::period_map(args.a, args.c_max)?
                }
                PlotView::Figure3 => plot::figure3(args.c_max)?,
            };
            print::write_png(&canvas, &args.out)?;
            eprintln!(
                "wrote {} ({}x{})",
                args.out.display(),
                canvas.width,
                canvas.height
            );
            Ok(())
        }
    }
}

/// The sets a scan's flags ask for, checked.
fn set_filter(args: &ScanArgs) -> Result<SetFilter> {
    let filter = SetFilter {
        moves: args.moves.into(),
        c_min: args.c_min,
        c_max: args.c_max,
        a_min: args.a_min,
        a_max: args.a_max,
        b_min: args.b_min,
        b_max: args.b_max,
        primitive: args.primitive,
    }
    .canonical();
    filter.check()?;
    Ok(filter)
}

/// Checked scan options from the flags, the rows going to `output`.
fn scan_options(args: &ScanArgs, output: ScanOutput) -> Result<ScanOptions> {
    let filter = set_filter(args)?;
    check_theory(&filter, args.theory)?;
    Ok(ScanOptions {
        filter,
        output,
        misere: args.play == Play::Misere,
        theory: args.theory,
        verify_sample: args.verify_sample,
        budget: args.memory.budget(),
    })
}

fn scan(args: SubScanArgs) -> Result<()> {
    super::keep_freed_memory();
    let opts = scan_options(&args.scan, args.output.with_chunks(args.scan.chunk_size))?;
    let args = args.scan;
    // Open (or resume) the output before choosing a backend: bad paths fail before any work.
    let job: ScanJob<_, ScanSummary> = ScanJob::open(&opts)?;
    let chosen = choose(args.backend)?;
    let backend = Backend::chosen(&chosen, &opts)?;
    // Stdout is line-buffered: one write per row would cost a system call each.
    let mut stdout = io::BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let summary = job.run(&backend, &mut stdout)?;
    eprintln!("{summary}");
    Ok(())
}

/// `sub all-but-scan`: the rows, then the counts per size on stderr.
fn all_but(args: AllButScanArgs) -> Result<()> {
    let (k, m) = (args.size_max as usize, args.x_max as usize);
    let count = all_but_scan::set_count(k, m);
    if count > all_but_scan::MAX_SETS {
        bail!(InputError(format!(
            "{count} sets of up to {k} moves below {m} are more than the {} one scan holds",
            all_but_scan::MAX_SETS
        )));
    }
    let format = match args.out.as_deref().map(Format::of_path) {
        Some(Format::Parquet) => bail!(InputError(
            "--out: rows go to .csv or .jsonl files".to_string()
        )),
        Some(format) => format,
        None => Format::Csv,
    };
    let rows = all_but_scan::scan(k, m, args.len, args.memory.budget())?;
    let mut text = Vec::new();
    format.write_header(&mut text, AllButRow::CSV_HEADER)?;
    for row in &rows {
        format.write_row(&mut text, row)?;
    }
    match &args.out {
        Some(path) => std::fs::write(path, &text)
            .map_err(|e| InputError(format!("cannot write '{}': {e}", path.display())))?,
        None => io::Write::write_all(&mut io::stdout().lock(), &text)?,
    }
    for count in all_but_scan::counts(&rows) {
        eprintln!("{count}");
    }
    Ok(())
}

fn survey(args: SurveyArgs) -> Result<()> {
    if args.scan.play == Play::Misere {
        return misere_survey(args);
    }
    super::keep_freed_memory();
    let mut outputs = Vec::new();
    outputs.extend(args.rows.out.as_deref().map(|out| ("--out", out, true)));
    outputs.extend(args.json.as_deref().map(|json| ("--json", json, false)));
    check_distinct(&outputs, &[])?;
    let output = args.rows.with_chunks(None, args.scan.chunk_size);
    let opts = scan_options(&args.scan, output)?;
    let job: ScanJob<_, Survey> = ScanJob::open(&opts)?;
    let chosen = choose(args.scan.backend)?;
    let backend = Backend::chosen(&chosen, &opts)?;
    // Rows go to --out when given; the report is what this command prints.
    let survey = job.run(&backend, &mut io::sink())?;
    write_survey(&survey, args.format, args.json.as_deref())
}

/// `sub survey --play misere`: each set under both plays, the report printed (and written to
/// --json).
fn misere_survey(args: SurveyArgs) -> Result<()> {
    if args.rows.out.is_some() || args.scan.theory {
        bail!(InputError(
            "sub survey --play misere writes no rows and checks no theory: drop --out and --theory"
                .into()
        ));
    }
    let filter = set_filter(&args.scan)?;
    let report = misere_survey::survey(&filter, MISERE_MAX_LEN)?;
    print::report(&report, args.format)?;
    if let Some(path) = &args.json {
        print::write_json(&report, path)?;
    }
    Ok(())
}

/// Prints a survey's report as text or JSON, and writes it as JSON to `json` if given; a
/// contradicted theorem is an error.
pub fn write_survey(
    survey: &Survey,
    format: SeqFormat,
    json: Option<&std::path::Path>,
) -> Result<()> {
    print::report(survey, format)?;
    if let Some(path) = json {
        print::write_json(survey, path)?;
    }
    if survey.bugs() > 0 {
        bail!(
            "{} rulesets contradict a proved theorem: a bug in nimseq or in a proof (listed above)",
            survey.bugs()
        );
    }
    Ok(())
}
