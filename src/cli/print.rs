//! Writing what the commands produce: reports as text or JSON, and PNG files.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;

use super::flags::{SeqFormat, SequenceFormat};
use nimseq::InputError;
use nimseq::output::image::Canvas;
use nimseq::output::{SequenceRows, write_sequence};

/// Writes a PNG; an unwritable path is the user's to fix.
pub fn write_png(canvas: &Canvas, path: &Path) -> Result<()> {
    canvas
        .write_png(path)
        .map_err(|e| InputError(format!("cannot write '{}': {e}", path.display())).into())
}

/// Writes `value` as pretty JSON to `path` (a survey's `--json`); an unwritable path is the
/// user's to fix.
pub fn write_json(value: &impl serde::Serialize, path: &Path) -> Result<()> {
    let file = std::fs::File::create(path)
        .map_err(|e| InputError(format!("cannot write '{}': {e}", path.display())))?;
    serde_json::to_writer_pretty(io::BufWriter::new(file), value)?;
    Ok(())
}

/// Prints a report as text or as one line of JSON.
pub fn report(
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

/// Prints the report of one sequence as `format` asks: the report as text or JSON, or its
/// `values` as CSV rows or an OEIS b-file.
pub fn sequence(
    report: &(impl std::fmt::Display + serde::Serialize),
    values: &[u32],
    format: SequenceFormat,
) -> Result<()> {
    let rows = match format {
        SequenceFormat::Text => return self::report(report, SeqFormat::Text),
        SequenceFormat::Json => return self::report(report, SeqFormat::Json),
        SequenceFormat::Csv => SequenceRows::Csv,
        SequenceFormat::Bfile => SequenceRows::Bfile,
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    write_sequence(&mut out, values, rows)?;
    out.flush()?;
    Ok(())
}
