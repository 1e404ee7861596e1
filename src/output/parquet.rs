//! Rows as Parquet: one file per chunk, typed columns, zstd-compressed.
//!
//! A scan written as Parquet is a directory (`rows.parquet/`) of part files named by their
//! chunk in the whole scan (`part-000042.parquet`), so that a directory read in name order
//! holds the rows in scan order, and the parts of the shards of one scan (each written to a
//! directory of its own) can be gathered side by side without clashing. A part is written to a temporary name and renamed once complete: a part file is
//! never cut short, and a resumed run drops the parts at and after its checkpoint's chunk.
//!
//! Only the low-level column writer of the `parquet` crate is used (no Arrow): the rows are
//! few column types, each spelled out in [`Kind`].

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::{Compression, ZstdLevel};
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::record::Field as ParquetField;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::Type;

use super::Field;

/// A column's type in Parquet: unsigned integers keep their width (polars and pyarrow read
/// them as `UInt32`/`UInt64`), text is UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    U16,
    U32,
    U64,
    I64,
    Bool,
    Text,
}

/// One column: its type and whether a row may leave it empty ([`Field::Missing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub kind: Kind,
    pub optional: bool,
}

impl Column {
    pub const fn required(kind: Kind) -> Self {
        Column {
            kind,
            optional: false,
        }
    }

    pub const fn optional(kind: Kind) -> Self {
        Column {
            kind,
            optional: true,
        }
    }

    /// The column's line in a Parquet message type.
    fn schema_line(&self, name: &str) -> String {
        let repetition = if self.optional {
            "OPTIONAL"
        } else {
            "REQUIRED"
        };
        let ty = match self.kind {
            Kind::U16 => "INT32 {} (INTEGER(16,false))",
            Kind::U32 => "INT32 {} (INTEGER(32,false))",
            Kind::U64 => "INT64 {} (INTEGER(64,false))",
            Kind::I64 => "INT64 {}",
            Kind::Bool => "BOOLEAN {}",
            Kind::Text => "BYTE_ARRAY {} (STRING)",
        };
        format!("{repetition} {};", ty.replace("{}", name))
    }
}

/// The name of the part file of chunk `chunk` (0-based, in the whole scan).
pub fn part_name(chunk: u64) -> String {
    format!("part-{:06}.parquet", chunk + 1)
}

/// The name of the one file of a shard with no chunk, which begins where chunk `chunk` would:
/// no rows, only the columns, so that polars and pyarrow read the directory as an empty frame
/// (an empty directory they refuse). Not a part of any chunk, so that it clashes with none.
pub fn empty_part_name(chunk: u64) -> String {
    format!("empty-{:06}.parquet", chunk + 1)
}

/// The chunk of a part file's name, if it is one.
fn chunk_of(name: &str) -> Option<u64> {
    let digits = name.strip_prefix("part-")?.strip_suffix(".parquet")?;
    digits.parse::<u64>().ok()?.checked_sub(1)
}

/// The part files of `dir` with their chunks, in chunk order.
pub fn parts(dir: &Path) -> io::Result<Vec<(u64, PathBuf)>> {
    let mut found = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if let Some(chunk) = entry.file_name().to_str().and_then(chunk_of) {
            found.push((chunk, entry.path()));
        }
    }
    found.sort();
    Ok(found)
}

/// Makes `dir` hold the parts of the chunks below `keep` only: later parts, and temporary
/// files of a part cut short, go. Creates `dir` if it is not there.
pub fn keep_parts_below(dir: &Path, keep: u64) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let late = chunk_of(&name).is_some_and(|c| c >= keep);
        if late || (name.starts_with("part-") && name.ends_with(".tmp")) {
            fs::remove_file(entry.path())?;
        }
    }
    Ok(())
}

/// The values of one column, as Parquet stores them.
enum Values {
    I32(Vec<i32>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
    Bytes(Vec<ByteArray>),
}

/// One chunk's rows, column by column, fed field by field in row order.
pub struct PartWriter<'c> {
    names: Vec<&'c str>,
    columns: &'c [Column],
    values: Vec<Values>,
    /// Per optional column, 1 for a value and 0 for an empty field.
    levels: Vec<Vec<i16>>,
    /// The column the next field belongs to.
    at: usize,
    rows: u64,
    /// The first field that did not fit its column.
    error: Option<String>,
}

impl<'c> PartWriter<'c> {
    /// A part with the columns `header` names (comma-separated), of the types `columns`.
    pub fn new(header: &'c str, columns: &'c [Column]) -> Self {
        let names: Vec<&str> = header.split(',').collect();
        assert_eq!(names.len(), columns.len(), "a type for every column");
        let values = columns
            .iter()
            .map(|c| match c.kind {
                Kind::U16 | Kind::U32 => Values::I32(Vec::new()),
                Kind::U64 | Kind::I64 => Values::I64(Vec::new()),
                Kind::Bool => Values::Bool(Vec::new()),
                Kind::Text => Values::Bytes(Vec::new()),
            })
            .collect();
        PartWriter {
            names,
            columns,
            values,
            levels: vec![Vec::new(); columns.len()],
            at: 0,
            rows: 0,
            error: None,
        }
    }

    /// Adds the next field of the current row.
    pub fn push(&mut self, field: Field<'_>) {
        let (column, name) = (self.columns[self.at], self.names[self.at]);
        let misfit = |what: String| format!("{what} does not fit the Parquet column '{name}'");
        let stored = match (&mut self.values[self.at], field) {
            (_, Field::Missing) if column.optional => Ok(false),
            (Values::I32(v), Field::Unsigned(n)) => {
                let bits = if column.kind == Kind::U16 { 16 } else { 32 };
                if n >> bits == 0 {
                    // Stored in an INT32 by its bits; readers see the unsigned type.
                    v.push(n as u32 as i32);
                    Ok(true)
                } else {
                    Err(misfit(format!("{n} (over {bits} bits)")))
                }
            }
            (Values::I64(v), Field::Unsigned(n)) if column.kind == Kind::U64 => {
                v.push(n as i64);
                Ok(true)
            }
            (Values::I64(v), Field::Signed(n)) if column.kind == Kind::I64 => {
                v.push(n);
                Ok(true)
            }
            (Values::Bool(v), Field::Bool(b)) => {
                v.push(b);
                Ok(true)
            }
            (Values::Bytes(v), Field::Text(t)) => {
                v.push(ByteArray::from(t));
                Ok(true)
            }
            (_, other) => Err(misfit(format!("{other:?}"))),
        };
        match stored {
            Ok(present) if column.optional => self.levels[self.at].push(i16::from(present)),
            Ok(_) => {}
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self.at += 1;
        if self.at == self.columns.len() {
            self.at = 0;
            self.rows += 1;
        }
    }

    /// Writes the rows to `path`, through a temporary file renamed once complete.
    pub fn write(self, path: &Path) -> io::Result<()> {
        if let Some(e) = self.error {
            return Err(io::Error::new(io::ErrorKind::InvalidData, e));
        }
        let schema = schema(&self.names, self.columns).map_err(io::Error::other)?;
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_created_by(format!("nimseq {}", env!("CARGO_PKG_VERSION")))
            .build();
        let tmp = path.with_extension("parquet.tmp");
        let file = File::create(&tmp)?;
        let mut writer = SerializedFileWriter::new(file, Arc::new(schema), Arc::new(props))
            .map_err(io::Error::other)?;
        let mut group = writer.next_row_group().map_err(io::Error::other)?;
        for (values, (column, levels)) in self
            .values
            .iter()
            .zip(self.columns.iter().zip(&self.levels))
        {
            let mut col = group
                .next_column()
                .map_err(io::Error::other)?
                .expect("a writer per column");
            let levels = column.optional.then_some(&levels[..]);
            let written = match (col.untyped(), values) {
                (ColumnWriter::Int32ColumnWriter(w), Values::I32(v)) => {
                    w.write_batch(v, levels, None)
                }
                (ColumnWriter::Int64ColumnWriter(w), Values::I64(v)) => {
                    w.write_batch(v, levels, None)
                }
                (ColumnWriter::BoolColumnWriter(w), Values::Bool(v)) => {
                    w.write_batch(v, levels, None)
                }
                (ColumnWriter::ByteArrayColumnWriter(w), Values::Bytes(v)) => {
                    w.write_batch(v, levels, None)
                }
                _ => unreachable!("the schema follows the columns"),
            };
            written.map_err(io::Error::other)?;
            col.close().map_err(io::Error::other)?;
        }
        group.close().map_err(io::Error::other)?;
        writer.close().map_err(io::Error::other)?;
        fs::rename(&tmp, path)
    }
}

/// The Parquet schema of columns named `names`, of the types `columns`: the one a part is
/// written with, and the one a part read back must have.
fn schema(names: &[&str], columns: &[Column]) -> parquet::errors::Result<Type> {
    let lines: Vec<String> = (columns.iter().zip(names))
        .map(|(c, name)| c.schema_line(name))
        .collect();
    parse_message_type(&format!("message rows {{ {} }}", lines.join(" ")))
}

/// Calls `each` with the fields of every row of the part file `path`, in order, in the order
/// of `header`'s columns, which the file must hold by name and each of the type of `columns`
/// (in any order: they are matched by name, never by position); stops at the first error
/// `each` returns.
pub fn read_rows(
    path: &Path,
    header: &str,
    columns: &[Column],
    each: &mut dyn FnMut(&[Field<'_>]) -> Result<(), String>,
) -> Result<(), String> {
    let names: Vec<&str> = header.split(',').collect();
    let want = schema(&names, columns).map_err(|e| e.to_string())?;
    let file = File::open(path).map_err(|e| e.to_string())?;
    let reader = SerializedFileReader::new(file).map_err(|e| e.to_string())?;
    let found = reader.metadata().file_metadata().schema().get_fields();
    // For each column of the header, where the file has it.
    let mut at = Vec::with_capacity(names.len());
    for wanted in want.get_fields() {
        let name = wanted.name();
        match found.iter().position(|f| f.name() == name) {
            Some(i) if found[i] == *wanted => at.push(i),
            Some(_) => {
                return Err(format!(
                    "its column '{name}' is not of the type nimseq writes"
                ));
            }
            None => return Err(format!("it has no column '{name}'")),
        }
    }
    if found.len() != names.len() {
        let extra: Vec<&str> = found
            .iter()
            .map(|f| f.name())
            .filter(|n| !names.contains(n))
            .collect();
        return Err(format!(
            "it has columns nimseq does not write: {}",
            extra.join(", ")
        ));
    }
    let rows = reader.get_row_iter(None).map_err(|e| e.to_string())?;
    for row in rows {
        let row = row.map_err(|e| e.to_string())?;
        let values: Vec<&ParquetField> = row.get_column_iter().map(|(_, v)| v).collect();
        let mut fields = Vec::with_capacity(at.len());
        for &i in &at {
            fields.push(match values[i] {
                ParquetField::Null => Field::Missing,
                ParquetField::Bool(b) => Field::Bool(*b),
                ParquetField::UShort(n) => Field::Unsigned(u64::from(*n)),
                ParquetField::UInt(n) => Field::Unsigned(u64::from(*n)),
                ParquetField::ULong(n) => Field::Unsigned(*n),
                ParquetField::Long(n) => Field::Signed(*n),
                ParquetField::Str(s) => Field::Text(s),
                other => return Err(format!("a value of an unexpected type: {other:?}")),
            });
        }
        each(&fields)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows go in and come back field for field, empty fields included; a value too wide for
    /// its column is an error, never a wrapped number.
    #[test]
    fn rows_come_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let header = "a,p,code,ok,d,m";
        let columns = [
            Column::required(Kind::U32),
            Column::optional(Kind::U64),
            Column::required(Kind::Text),
            Column::optional(Kind::Bool),
            Column::required(Kind::I64),
            Column::required(Kind::U16),
        ];
        let rows = [
            [
                Field::Unsigned(u64::from(u32::MAX)),
                Field::Unsigned(u64::MAX),
                Field::Text("·07"),
                Field::Missing,
                Field::Signed(-1),
                Field::Unsigned(65535),
            ],
            [
                Field::Unsigned(3),
                Field::Missing,
                Field::Text("4·07"),
                Field::Bool(true),
                Field::Signed(7),
                Field::Unsigned(0),
            ],
        ];
        let mut part = PartWriter::new(header, &columns);
        for row in &rows {
            for &f in row {
                part.push(f);
            }
        }
        let path = dir.path().join(part_name(4));
        part.write(&path).unwrap();
        assert_eq!(parts(dir.path()).unwrap(), vec![(4, path.clone())]);
        let mut back = Vec::new();
        read_rows(&path, header, &columns, &mut |fields| {
            back.push(format!("{fields:?}"));
            Ok(())
        })
        .unwrap();
        let want: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
        assert_eq!(back, want);

        // A value too wide for its column: the first of the row, then the last.
        for (a, wide) in [(1 << 32, "column 'a'"), (1, "65536 (over 16 bits)")] {
            let mut part = PartWriter::new(header, &columns);
            for f in [
                Field::Unsigned(a),
                Field::Missing,
                Field::Text("x"),
                Field::Missing,
                Field::Signed(0),
                Field::Unsigned(1 << 16),
            ] {
                part.push(f);
            }
            let err = part.write(&dir.path().join(part_name(5))).unwrap_err();
            assert!(err.to_string().contains(wide), "{err}");
        }
        // Parts at and after a resumed chunk go; the others stay.
        keep_parts_below(dir.path(), 4).unwrap();
        assert!(parts(dir.path()).unwrap().is_empty());
    }

    /// Columns are read by name and type, never by position: a part with two columns in
    /// the other order reads as written; one with a column renamed, retyped or added is
    /// refused, naming it.
    #[test]
    fn columns_are_matched_by_name_and_type() {
        let dir = tempfile::tempdir().unwrap();
        let (u32c, u64c) = (Column::required(Kind::U32), Column::required(Kind::U64));
        let write = |header: &str, columns: &[Column], row: &[u64]| {
            let mut part = PartWriter::new(header, columns);
            for &v in row {
                part.push(Field::Unsigned(v));
            }
            let path = dir.path().join(format!("{header}.parquet"));
            part.write(&path).unwrap();
            path
        };
        let read = |path: &Path| {
            let mut back = Vec::new();
            read_rows(path, "a,p,q", &[u32c, u32c, u32c], &mut |f| {
                back.push(format!("{f:?}"));
                Ok(())
            })
            .map(|()| back)
        };
        let swapped = write("a,q,p", &[u32c, u32c, u32c], &[1, 3, 2]);
        let want = format!(
            "{:?}",
            [Field::Unsigned(1), Field::Unsigned(2), Field::Unsigned(3)]
        );
        assert_eq!(read(&swapped).unwrap(), [want]);
        let renamed = write("a,p,r", &[u32c, u32c, u32c], &[1, 2, 3]);
        assert_eq!(read(&renamed).unwrap_err(), "it has no column 'q'");
        let retyped = write("a,p,q", &[u32c, u64c, u32c], &[1, 2, 3]);
        assert!(
            read(&retyped)
                .unwrap_err()
                .contains("column 'p' is not of the type")
        );
        let wider = write("a,p,q,x", &[u32c, u32c, u32c, u32c], &[1, 2, 3, 4]);
        assert!(read(&wider).unwrap_err().contains("does not write: x"));
    }
}
