//! Writers shared by every family: CSV or JSON-lines rows, and result files that resume.
//!
//! * [`Format`]: one row per result, a CSV header first.
//! * [`image`]: an RGB canvas written as PNG, for plots.
//! * [`resumable`]: a result file plus a checkpoint naming the last complete chunk.

pub mod image;
pub mod resumable;

use std::io::{self, Write};

use serde::Serialize;

/// Row formats for scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
pub enum Format {
    Csv,
    Jsonl,
}

/// A result row: its CSV header and fields; JSON comes from `Serialize` with the same names.
pub trait Row: Serialize {
    const CSV_HEADER: &'static str;
    fn write_csv(&self, w: &mut dyn Write) -> io::Result<()>;
}

impl Format {
    /// The header line, for CSV only (JSON lines name their fields in every row).
    pub fn write_header(self, w: &mut dyn Write, header: &str) -> io::Result<()> {
        match self {
            Format::Csv => writeln!(w, "{header}"),
            Format::Jsonl => Ok(()),
        }
    }

    pub fn write_row<R: Row>(self, w: &mut dyn Write, row: &R) -> io::Result<()> {
        match self {
            Format::Csv => row.write_csv(w),
            Format::Jsonl => {
                serde_json::to_writer(&mut *w, row)?;
                writeln!(w)
            }
        }
    }
}

/// A progress bar on stderr, drawn only when stderr is a terminal.
pub fn progress_bar(total: u64, unit: &str) -> indicatif::ProgressBar {
    let style = indicatif::ProgressStyle::with_template(&format!(
        "{{elapsed_precise}} [{{wide_bar}}] {{human_pos}}/{{human_len}} {unit} {{per_sec:0}} ETA {{eta}} {{msg}}"
    ))
    .expect("valid template");
    indicatif::ProgressBar::with_draw_target(Some(total), indicatif::ProgressDrawTarget::stderr())
        .with_style(style)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Pair {
        x: u32,
        y: u32,
    }

    impl Row for Pair {
        const CSV_HEADER: &'static str = "x,y";
        fn write_csv(&self, w: &mut dyn Write) -> io::Result<()> {
            writeln!(w, "{},{}", self.x, self.y)
        }
    }

    #[test]
    fn csv_and_json_lines() {
        let write = |format: Format| {
            let mut out = Vec::new();
            format.write_header(&mut out, Pair::CSV_HEADER).unwrap();
            format.write_row(&mut out, &Pair { x: 1, y: 2 }).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(write(Format::Csv), "x,y\n1,2\n");
        assert_eq!(write(Format::Jsonl), "{\"x\":1,\"y\":2}\n");
    }
}
