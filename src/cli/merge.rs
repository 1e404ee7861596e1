//! `nimseq merge`: the shards of one scan joined, with the summary one run prints.

use anyhow::Result;

use super::args::MergeArgs;
use super::flags::SeqFormat;
use super::sub::write_survey;
use nimseq::InputError;
use nimseq::octal;
use nimseq::output::merge::Parts;
use nimseq::output::{Format, check_distinct};
use nimseq::subtraction::scan::ScanOptions;
use nimseq::subtraction::summary::ScanSummary;
use nimseq::subtraction::survey::Survey;

pub fn run(args: MergeArgs) -> Result<()> {
    let mut outputs = vec![("--out", args.out.as_path(), true)];
    outputs.extend(args.json.as_deref().map(|json| ("--json", json, false)));
    let inputs: Vec<&std::path::Path> = args.parts.iter().map(|p| p.as_path()).collect();
    check_distinct(&outputs, &inputs)?;
    let parts = Parts::check(&args.parts)?;
    let format = args.format.or_else(|| Format::named_by(&args.out));
    let command = parts.command().to_string();
    if args.json.is_some() && command != "nimseq sub survey" {
        return Err(InputError(format!(
            "--json is for the shards of a survey; these are of '{command}'"
        ))
        .into());
    }
    match command.as_str() {
        "nimseq sub scan" => {
            let summary = parts.merge::<ScanOptions, ScanSummary>(&args.out, format)?;
            eprintln!("{summary}");
            Ok(())
        }
        "nimseq sub survey" => {
            let survey = parts.merge::<ScanOptions, Survey>(&args.out, format)?;
            write_survey(&survey, SeqFormat::Text, args.json.as_deref())
        }
        "nimseq octal scan" => {
            let summary =
                parts.merge::<octal::scan::ScanOptions, octal::scan::OctalScanSummary>(&args.out, format)?;
            eprintln!("{summary}");
            Ok(())
        }
        other => Err(InputError(format!(
            "'{}' holds rows of '{other}', which merge does not join (sub scan, sub survey, octal scan)",
            args.parts[0].display()
        ))
        .into()),
    }
}
