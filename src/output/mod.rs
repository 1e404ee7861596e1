//! Writers shared by every family: CSV or JSON-lines rows, and result files that resume.
//!
//! * [`Format`]: one row per result, a CSV header first.
//! * [`chart`]: axes, ticks, labels and a legend around a plot, on a canvas.
//! * [`hex`]: 64-bit checksums as hex strings in JSON.
//! * [`image`]: an RGB canvas written as PNG, for plots.
//! * [`merge`]: the finished shards of one scan checked and joined into its whole result.
//! * [`parquet`]: rows as a directory of Parquet part files, one per chunk.
//! * [`resumable`]: a result file plus a checkpoint naming the last complete chunk, and a
//!   record of the finished file.
//! * [`checkpoint`]: the finished steps of a long table build, to resume it.
//! * [`scan`]: the driver of the scans: chunks solved on a backend, rows written in order
//!   to a resumable file, shards.

pub mod chart;
pub mod checkpoint;
pub mod hex;
pub mod image;
pub mod merge;
pub mod parquet;
pub mod resumable;
pub mod scan;

use std::io::{self, Write};

use serde::Serialize;

/// Removes the file at `path`; one that is not there is no error.
pub fn remove_if_there(path: &std::path::Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The file a path names, as one name whatever way it is written (`./a.csv`, `dir/../a.csv`):
/// its directory resolved, the name kept (the file need not exist yet).
fn same_file_key(path: &std::path::Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::canonicalize(&dir).unwrap_or(dir).join(name)
}

/// Refuses outputs that would write over one another or over an input, before anything is
/// written: each output (`(flag, path)`, a result file with its `.done` and `.checkpoint`
/// beside it where `result`) against the others and against every input.
pub fn check_distinct(
    outputs: &[(&str, &std::path::Path, bool)],
    inputs: &[&std::path::Path],
) -> Result<(), crate::InputError> {
    let mut taken: Vec<(std::path::PathBuf, String)> = inputs
        .iter()
        .map(|p| (same_file_key(p), format!("the input '{}'", p.display())))
        .collect();
    for &(flag, path, result) in outputs {
        let mut names = vec![path.to_path_buf()];
        if result {
            names.extend(["done", "checkpoint"].map(|s| resumable::beside(path, s)));
        }
        for name in names {
            let key = same_file_key(&name);
            if let Some((_, what)) = taken.iter().find(|(k, _)| *k == key) {
                return Err(crate::InputError(format!(
                    "{flag} '{}' is {what}: nimseq writes over nothing; name another file",
                    name.display()
                )));
            }
            taken.push((key, format!("what {flag} writes")));
        }
    }
    Ok(())
}

/// Values as digits when all are below 10, else comma-separated: how the text reports show a
/// stretch of a nim sequence.
pub fn values_word(values: &[u32]) -> String {
    if values.iter().all(|&v| v < 10) {
        values.iter().map(|v| v.to_string()).collect()
    } else {
        let shown: Vec<String> = values.iter().map(u32::to_string).collect();
        shown.join(",")
    }
}

/// The `values` and `P-positions` lines of a text report: `G(0..len)` and where it is 0.
pub fn write_values(f: &mut std::fmt::Formatter<'_>, values: &[u32]) -> std::fmt::Result {
    writeln!(
        f,
        "values       G(0..{}) = {}",
        values.len(),
        values_word(values)
    )?;
    let ps: Vec<String> = (0..values.len())
        .filter(|&x| values[x] == 0)
        .map(|x| x.to_string())
        .collect();
    writeln!(f, "P-positions  {} (below {})", ps.join(" "), values.len())
}

/// How one sequence is written as rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequenceRows {
    /// `n,g` with a header.
    Csv,
    /// An OEIS b-file: `n a(n)` lines, from `n = 0`.
    Bfile,
}

/// Writes `G(0), G(1), ...` as `rows` say.
pub fn write_sequence(
    w: &mut dyn std::io::Write,
    values: &[u32],
    rows: SequenceRows,
) -> std::io::Result<()> {
    let separator = match rows {
        SequenceRows::Csv => {
            writeln!(w, "n,g")?;
            ','
        }
        SequenceRows::Bfile => ' ',
    };
    for (n, g) in values.iter().enumerate() {
        writeln!(w, "{n}{separator}{g}")?;
    }
    Ok(())
}

/// Row formats for scans.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, serde::Deserialize)]
pub enum Format {
    Csv,
    Jsonl,
    /// A directory of Parquet files, one per chunk (only to a file, `--out`).
    Parquet,
}

/// One field of a row, typed: what a reader of columns (the Python binding) gets in place of
/// the CSV text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field<'a> {
    Unsigned(u64),
    Signed(i64),
    /// `true` or `false`.
    Bool(bool),
    /// Kept as written: an octal code such as `0.70` is no number.
    Text(&'a str),
    /// An empty CSV field (the period of a code not settled).
    Missing,
}

/// The fields of a row read back ([`scan::Scan::read_row`]), by position, with the header's
/// column names in what is wrong.
pub struct ReadFields<'f> {
    names: Vec<&'static str>,
    fields: &'f [Field<'f>],
}

impl<'f> ReadFields<'f> {
    /// `fields` of a row with the columns `header` names; as many fields as columns.
    pub fn new(header: &'static str, fields: &'f [Field<'f>]) -> Result<Self, String> {
        let names: Vec<&str> = header.split(',').collect();
        if names.len() != fields.len() {
            return Err(format!(
                "{} fields where the header has {} columns",
                fields.len(),
                names.len()
            ));
        }
        Ok(ReadFields { names, fields })
    }

    fn wrong(&self, i: usize, want: &str) -> String {
        format!("'{}' is {:?}, not {want}", self.names[i], self.fields[i])
    }

    /// Field `i`, a number.
    pub fn unsigned(&self, i: usize) -> Result<u64, String> {
        match self.fields[i] {
            Field::Unsigned(n) => Ok(n),
            _ => Err(self.wrong(i, "a number")),
        }
    }

    /// Field `i`, a number or empty.
    pub fn optional(&self, i: usize) -> Result<Option<u64>, String> {
        match self.fields[i] {
            Field::Missing => Ok(None),
            _ => self.unsigned(i).map(Some),
        }
    }

    /// Field `i`, text (which may look like a number).
    pub fn text(&self, i: usize) -> Result<String, String> {
        match self.fields[i] {
            Field::Text(t) => Ok(t.to_string()),
            Field::Unsigned(n) => Ok(n.to_string()),
            _ => Err(self.wrong(i, "text")),
        }
    }
}

/// A result row: its fields, in the order of its scan's CSV header ([`scan::Scan::header`]);
/// JSON comes from `Serialize` with the same names.
pub trait Row: Serialize {
    /// The row's fields, in the header's order.
    fn fields(&self, out: &mut dyn FnMut(Field<'_>));

    /// Appends the row as a CSV line ([`fields_csv`] unless a row spells itself faster).
    fn write_csv(&self, out: &mut Vec<u8>) -> io::Result<()> {
        fields_csv(self, out)
    }
}

/// Appends `row` as a CSV line of its [`Row::fields`], a missing one empty: the text of every
/// row (rows written by the million spell their numbers faster themselves, to the same text).
pub fn fields_csv<R: Row + ?Sized>(row: &R, out: &mut Vec<u8>) -> io::Result<()> {
    let mut first = true;
    let mut result = Ok(());
    row.fields(&mut |field| {
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        let written = match field {
            Field::Unsigned(n) => write!(out, "{n}"),
            Field::Signed(n) => write!(out, "{n}"),
            Field::Bool(b) => write!(out, "{b}"),
            Field::Text(t) => out.write_all(t.as_bytes()),
            Field::Missing => Ok(()),
        };
        if result.is_ok() {
            result = written;
        }
    });
    out.push(b'\n');
    result
}

impl Format {
    /// The format the extension of `path` names (`.csv`, `.jsonl`, `.parquet`), if it names one.
    pub fn named_by(path: &std::path::Path) -> Option<Format> {
        match path
            .extension()
            .and_then(|e| e.to_str())?
            .to_ascii_lowercase()
            .as_str()
        {
            "csv" => Some(Format::Csv),
            "jsonl" => Some(Format::Jsonl),
            "parquet" => Some(Format::Parquet),
            _ => None,
        }
    }

    /// The format of a file named `path`: [`Self::named_by`] its extension, CSV for any other.
    pub fn of_path(path: &std::path::Path) -> Format {
        Format::named_by(path).unwrap_or(Format::Csv)
    }

    /// The header line, for CSV only (JSON lines name their fields in every row).
    pub fn write_header(self, w: &mut dyn Write, header: &str) -> io::Result<()> {
        match self {
            Format::Csv => writeln!(w, "{header}"),
            Format::Jsonl | Format::Parquet => Ok(()),
        }
    }

    /// Appends one row to `out` (rows are formatted in memory, many at a time).
    pub fn write_row<R: Row>(self, out: &mut Vec<u8>, row: &R) -> io::Result<()> {
        match self {
            Format::Csv => row.write_csv(out),
            Format::Jsonl => {
                serde_json::to_writer(&mut *out, row)?;
                writeln!(out)
            }
            Format::Parquet => unreachable!("Parquet rows are written as columns"),
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

/// `n < 1000` spelled out, first digit in the low byte, and its digit count in the top byte: most
/// fields of a scan's rows (moves, periods) are this small, and one load beats the digit loop.
static SMALL_NUMBERS: [u32; 1000] = {
    let mut table = [0u32; 1000];
    const fn digit(d: usize) -> u32 {
        (b'0' + (d % 10) as u8) as u32
    }
    let mut n = 0;
    while n < 1000 {
        table[n] = if n < 10 {
            digit(n) | 1 << 24
        } else if n < 100 {
            digit(n / 10) | digit(n) << 8 | 2 << 24
        } else {
            digit(n / 100) | digit(n / 10) << 8 | digit(n) << 16 | 3 << 24
        };
        n += 1;
    }
    table
};

/// A CSV line of up to [`CsvLine::FIELDS`] unsigned integers, built at the end of its output.
///
/// A field below 10^8 is spelled in one register, last digit first, and stored with one
/// fixed-size write straight into the output: formatting each field apart and copying it (a
/// variable-length copy is a libc call) cost twice as much, and so did building the line in a
/// buffer of its own and copying that. (Spelling all eight digits at once without a loop was
/// slower still: the digit counts of neighbouring rows agree, so the loop's branches are
/// predicted.)
pub struct CsvLine<'o> {
    out: &'o mut Vec<u8>,
    /// Where the line starts, and its length so far.
    start: usize,
    len: usize,
}

impl<'o> CsvLine<'o> {
    /// Fields a line holds.
    pub const FIELDS: usize = 8;

    /// The longest line, and eight bytes of slack: a field is stored eight bytes at a time.
    const ROOM: usize = CsvLine::FIELDS * 21 + 8;

    /// Starts a line at the end of `out`.
    #[inline]
    pub fn new(out: &'o mut Vec<u8>) -> Self {
        let start = out.len();
        out.resize(start + Self::ROOM, 0);
        CsvLine { out, start, len: 0 }
    }

    /// Appends `n` and a comma.
    ///
    /// # Panics
    /// With more than [`Self::FIELDS`] fields.
    #[inline(always)]
    pub fn field(&mut self, n: u64) {
        let at = self.start + self.len;
        if n < 1000 {
            let entry = SMALL_NUMBERS[n as usize];
            self.out[at..at + 4].copy_from_slice(&entry.to_le_bytes());
            self.len += (entry >> 24) as usize;
        } else if n < 100_000_000 {
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
            self.out[at..at + 8].copy_from_slice(&word.to_le_bytes());
            self.len += digits;
        } else {
            let text = n.to_string();
            self.out[at..at + text.len()].copy_from_slice(text.as_bytes());
            self.len += text.len();
        }
        self.out[self.start + self.len] = b',';
        self.len += 1;
    }

    /// Ends the line: a line end in place of the last comma.
    #[inline]
    pub fn finish(self) {
        let end = self.start + self.len;
        if self.len == 0 {
            self.out.truncate(end);
            self.out.push(b'\n');
        } else {
            self.out[end - 1] = b'\n';
            self.out.truncate(end);
        }
    }

    /// Ends the fields without ending the line, for more text: the last comma dropped.
    #[inline]
    pub fn leave_open(self) {
        let end = self.start + self.len.saturating_sub(1);
        self.out.truncate(end);
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

    impl Pair {
        const CSV_HEADER: &'static str = "x,y";
    }

    impl Row for Pair {
        fn fields(&self, out: &mut dyn FnMut(Field<'_>)) {
            out(Field::Unsigned(self.x.into()));
            out(Field::Unsigned(self.y.into()));
        }
    }

    #[test]
    fn csv_lines_spell_numbers_as_display_does() {
        let line_of = |fields: &[u64]| {
            let mut out = Vec::new();
            let mut line = CsvLine::new(&mut out);
            for &n in fields {
                line.field(n);
            }
            line.finish();
            String::from_utf8(out).unwrap()
        };
        let want_of = |fields: &[u64]| {
            let want: Vec<String> = fields.iter().map(u64::to_string).collect();
            format!("{}\n", want.join(","))
        };
        for fields in [
            &[0, 7, 10, 99, 4_050_607, 99_999_999, 100_000_000, u64::MAX][..],
            &[u64::MAX; CsvLine::FIELDS],
            &[42],
            &[],
        ] {
            assert_eq!(line_of(fields), want_of(fields));
        }
        // Appended to what is there, and left open for more.
        let mut out = b"x\n".to_vec();
        let mut line = CsvLine::new(&mut out);
        line.field(7);
        line.field(123_456_789);
        line.leave_open();
        out.extend_from_slice(b",y\n");
        assert_eq!(out, b"x\n7,123456789,y\n");
        // Random numbers of every size.
        let mut rng = rand::rng();
        for _ in 0..10_000 {
            use rand::Rng;
            let fields: Vec<u64> = (0..3)
                .map(|_| rng.random::<u64>() >> rng.random_range(0..64))
                .collect();
            assert_eq!(line_of(&fields), want_of(&fields));
        }
        // Every digit count, each digit value in each place.
        for digits in 1..=12u32 {
            for lead in 1..=9u64 {
                let n = lead * 10u64.pow(digits - 1) + (1_234_567_890_123 % 10u64.pow(digits - 1));
                assert_eq!(line_of(&[n, n - 1]), want_of(&[n, n - 1]));
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
