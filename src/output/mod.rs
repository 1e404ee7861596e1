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

/// `i` as two ASCII digits, the tens digit in the low byte (written first).
const DIGIT_PAIRS: [u16; 100] = {
    let mut pairs = [0u16; 100];
    let mut i = 0;
    while i < 100 {
        pairs[i] = (b'0' + (i / 10) as u8) as u16 | ((b'0' + (i % 10) as u8) as u16) << 8;
        i += 1;
    }
    pairs
};

/// A CSV line of up to [`CsvLine::FIELDS`] unsigned integers, built in place.
///
/// A field below 10^8 is spelled in one register, last digit first, and stored with one
/// fixed-size write: formatting each field apart and copying it (a variable-length copy is a
/// libc call) cost twice as much, and a scan formats millions of rows.
pub struct CsvLine {
    /// Eight bytes of slack: a field is stored eight bytes at a time.
    buf: [u8; CsvLine::FIELDS * 21 + 8],
    len: usize,
}

impl Default for CsvLine {
    fn default() -> Self {
        CsvLine {
            buf: [0; CsvLine::FIELDS * 21 + 8],
            len: 0,
        }
    }
}

impl CsvLine {
    /// Fields a line holds.
    pub const FIELDS: usize = 8;

    /// Appends `n` and a comma.
    ///
    /// # Panics
    /// With more than [`Self::FIELDS`] fields.
    #[inline(always)]
    pub fn field(&mut self, n: u64) {
        let at = self.len;
        if n < 100_000_000 {
            // Digits shift in from the top, two at a time, so the first digit ends in the
            // lowest byte, which a little-endian store writes first.
            let (mut word, mut digits, mut rest) = (0u64, 0, n as usize);
            while rest >= 100 {
                word = word << 16 | u64::from(DIGIT_PAIRS[rest % 100]);
                digits += 2;
                rest /= 100;
            }
            if rest >= 10 {
                word = word << 16 | u64::from(DIGIT_PAIRS[rest]);
                digits += 2;
            } else {
                word = word << 8 | (u64::from(b'0') + rest as u64);
                digits += 1;
            }
            self.buf[at..at + 8].copy_from_slice(&word.to_le_bytes());
            self.len = at + digits;
        } else {
            let text = n.to_string();
            self.buf[at..at + text.len()].copy_from_slice(text.as_bytes());
            self.len = at + text.len();
        }
        self.buf[self.len] = b',';
        self.len += 1;
    }

    /// The fields so far with a line end for the last comma; empties the line.
    pub fn finish(&mut self) -> &[u8] {
        let len = std::mem::take(&mut self.len);
        if len == 0 {
            return b"\n";
        }
        self.buf[len - 1] = b'\n';
        &self.buf[..len]
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
    fn csv_lines_spell_numbers_as_display_does() {
        let mut line = CsvLine::default();
        let fields = [0, 7, 10, 99, 4_050_607, 99_999_999, 100_000_000, u64::MAX];
        for n in fields {
            line.field(n);
        }
        let want: Vec<String> = fields.iter().map(u64::to_string).collect();
        assert_eq!(line.finish(), format!("{}\n", want.join(",")).as_bytes());
        // The line starts over after `finish`.
        line.field(42);
        assert_eq!(line.finish(), b"42\n");
        assert_eq!(line.finish(), b"\n");
        // Every digit count, each digit value in each place.
        for digits in 1..=12u32 {
            for lead in 1..=9u64 {
                let n = lead * 10u64.pow(digits - 1) + (1_234_567_890_123 % 10u64.pow(digits - 1));
                line.field(n);
                line.field(n - 1);
                assert_eq!(line.finish(), format!("{n},{}\n", n - 1).as_bytes());
            }
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
