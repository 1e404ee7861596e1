//! Writing what the commands produce: reports as text or JSON, and PNG files.

use std::io::{self, Write};
use std::path::Path;

use anyhow::Result;

use super::args::SeqFormat;
use nimseq::InputError;
use nimseq::output::image::Canvas;

/// Writes a PNG; an unwritable path is the user's to fix.
pub fn write_png(canvas: &Canvas, path: &Path) -> Result<()> {
    canvas
        .write_png(path)
        .map_err(|e| InputError(format!("cannot write '{}': {e}", path.display())).into())
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
