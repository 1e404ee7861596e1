//! `nimseq merge`: the finished shards of one scan, checked and joined into the file one
//! unsharded run writes, with the same totals.
//!
//! Before anything is written, [`Parts::check`] reads each part's `.done` record
//! ([`Done`]) and refuses a part that is unfinished (its checkpoint is
//! still there, or it has no record), changed since (its length is not the recorded one, or its
//! last row is cut), or of another job (other flags, another shard count), and a set of parts
//! that is not shards `1..N` each once. The join then runs through the scan driver, with the
//! parts as the backend ([`PartsReader`]): each row is read back and checked to be the row of
//! the item the scan expects next, so rows out of order, missing or extra are refused too, and
//! the totals and checksum are made from the rows, as one run makes them. A refusal leaves no
//! output behind. A chunk's rows are read on one thread and parsed and checked on all cores
//! (a cluster node has many); a refusal still names the first row at fault.

use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use indicatif::ProgressBar;
use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::parquet::{self, Column};
use super::resumable::{Done, ResumeError, beside, differences, read_json};
use super::scan::{Plan, RecordedPart, Scan, ScanJob, Shard, SolveOn, Tally};
use super::{Field, Format};

/// One finished part: its file and what its `.done` records.
pub struct Part {
    pub path: PathBuf,
    pub done: Done<Value>,
    pub shard: Shard,
    pub format: Format,
}

/// Parts checked to be the shards `1..N` of one job, in shard order.
pub struct Parts {
    parts: Vec<Part>,
}

fn refuse(why: String) -> ResumeError {
    ResumeError::Part(why)
}

/// The job of a part without its shard: what the shards of one job share.
fn without_shard(job: &Value) -> Value {
    let mut job = job.clone();
    if let Some(map) = job.as_object_mut() {
        map.remove("shard");
    }
    job
}

impl Part {
    /// Reads and checks the part at `path`: finished, and whole as its record says.
    fn open(path: &Path) -> Result<Part, ResumeError> {
        let shown = path.display();
        if beside(path, "checkpoint").exists() {
            return Err(refuse(format!(
                "'{shown}' is unfinished: its checkpoint is still there (run its command again with --resume to finish it)"
            )));
        }
        if !path.exists() {
            return Err(refuse(format!("'{shown}' is not there")));
        }
        let done: Done<Value> = read_json(&beside(path, "done"))?.ok_or_else(|| {
            refuse(format!(
                "'{shown}' has no '{shown}.done': it is not a finished nimseq scan (a scan writes one as it completes)"
            ))
        })?;
        let shard: Shard = serde_json::from_value(done.job["shard"].clone())
            .map_err(|_| refuse(format!("'{shown}.done' names no shard")))?;
        let format: Format = serde_json::from_value(done.job["format"].clone())
            .map_err(|_| refuse(format!("'{shown}.done' names no format")))?;
        if let Some(why) = done.differs(path) {
            return Err(refuse(format!("'{shown}' {why}: it was changed since")));
        }
        Ok(Part {
            path: path.to_path_buf(),
            done,
            shard,
            format,
        })
    }
}

impl Parts {
    /// Checks that `paths` are the finished shards `1..N` of one job, each once.
    pub fn check(paths: &[PathBuf]) -> Result<Parts, ResumeError> {
        let parts = paths
            .iter()
            .map(|p| Part::open(p))
            .collect::<Result<Vec<_>, _>>()?;
        let Some(first) = parts.first() else {
            return Err(refuse("no part to merge".into()));
        };
        let job = without_shard(&first.done.job);
        let count = first.shard.count;
        let mut by_index: BTreeMap<u64, &Part> = BTreeMap::new();
        for part in &parts {
            let shown = part.path.display();
            let theirs = without_shard(&part.done.job);
            if theirs != job {
                return Err(refuse(format!(
                    "'{shown}' is a shard of another job than '{}': {}",
                    first.path.display(),
                    differences(&theirs, &job)
                )));
            }
            if part.shard.count != count {
                return Err(refuse(format!(
                    "'{shown}' is shard {} of another split than '{}' (shard {})",
                    part.shard,
                    first.path.display(),
                    first.shard
                )));
            }
            if let Some(other) = by_index.insert(part.shard.index, part) {
                return Err(refuse(format!(
                    "'{}' and '{shown}' are both shard {}",
                    other.path.display(),
                    part.shard
                )));
            }
        }
        if let Some(missing) = (1..=count).find(|i| !by_index.contains_key(i)) {
            return Err(refuse(format!(
                "shard {missing}/{count} is missing: none of the {} parts given is it",
                parts.len()
            )));
        }
        let mut parts = parts;
        parts.sort_by_key(|p| p.shard.index);
        Ok(Parts { parts })
    }

    /// The command the parts were written by (`nimseq sub scan`, ...).
    pub fn command(&self) -> &str {
        self.parts[0].done.job["command"].as_str().unwrap_or("")
    }

    /// Joins the parts into `out` in `format` (that of the parts if `None`), with the totals
    /// `T` of all their rows, as the unsharded scan `W` would write them. A refusal removes
    /// what was written.
    pub fn merge<W, T>(&self, out: &Path, format: Option<Format>) -> Result<T, W::Error>
    where
        W: Scan + DeserializeOwned,
        T: Tally<W::Item, W::Solved>,
    {
        let first = &self.parts[0];
        for taken in [
            out.to_path_buf(),
            beside(out, "done"),
            beside(out, "checkpoint"),
        ] {
            if taken.exists() {
                return Err(refuse(format!(
                    "'{}' exists: merge writes a new file, so move it away or name another",
                    taken.display()
                ))
                .into());
            }
        }
        let mut job = first.done.job.clone();
        job["shard"] = serde_json::to_value(Shard::WHOLE).expect("a shard serialises");
        job["format"] =
            serde_json::to_value(format.unwrap_or(first.format)).expect("a format serialises");
        let mut work: W = serde_json::from_value(job).map_err(|e| {
            refuse(format!(
                "'{}.done' does not describe a job of this nimseq: {e}",
                first.path.display()
            ))
        })?;
        let output = work.output_mut();
        output.out = Some(out.to_path_buf());
        output.resume = false;
        let recorded = self
            .parts
            .iter()
            .map(|p| {
                let recorded = serde_json::from_value::<T>(p.done.state.clone()).map_err(|e| {
                    refuse(format!("'{}.done' has no totals: {e}", p.path.display()))
                })?;
                Ok(RecordedPart {
                    name: p.path.display().to_string(),
                    end: p.done.chunks[1],
                    recorded,
                })
            })
            .collect::<Result<Vec<_>, ResumeError>>()?;
        let reader = PartsReader {
            header: work.header(),
            columns: work.columns(),
            cursor: Mutex::new(Cursor {
                parts: self.parts.iter().collect(),
                source: None,
                row: 0,
            }),
        };
        let merged = ScanJob::<W, T>::open(&work)
            .and_then(|job| job.check_parts(recorded).run(&reader, &mut io::sink()))
            .and_then(|tally| {
                reader.finish()?;
                Ok(tally)
            });
        if merged.is_err() {
            let _ = std::fs::remove_file(out).or_else(|_| std::fs::remove_dir_all(out));
            let _ = std::fs::remove_file(beside(out, "checkpoint"));
            let _ = std::fs::remove_file(beside(out, "done"));
        }
        merged
    }
}

/// The parts as a backend of the scan driver: each call's rows are read from them, in order.
pub struct PartsReader<'p> {
    header: &'static str,
    /// The types of its columns, which a Parquet part must have, matched by name.
    columns: Vec<Column>,
    cursor: Mutex<Cursor<'p>>,
}

/// How far the reading got.
struct Cursor<'p> {
    /// The parts not yet done, the current one first.
    parts: VecDeque<&'p Part>,
    /// The current part's rows, opened at its first row.
    source: Option<Source>,
    /// Rows read of the current part.
    row: u64,
}

/// The rows of one part.
enum Source {
    Csv(io::Lines<BufReader<File>>),
    Jsonl(io::Lines<BufReader<File>>),
    /// The rows of the part files not yet read, each row's fields in header order.
    Parquet {
        files: VecDeque<PathBuf>,
        header: String,
        columns: Vec<Column>,
        rows: VecDeque<Vec<Owned>>,
    },
}

/// A Parquet field kept between calls.
enum Owned {
    Unsigned(u64),
    Signed(i64),
    Bool(bool),
    Text(String),
    Missing,
}

impl Owned {
    fn of(field: &Field<'_>) -> Self {
        match *field {
            Field::Unsigned(n) => Owned::Unsigned(n),
            Field::Signed(n) => Owned::Signed(n),
            Field::Bool(b) => Owned::Bool(b),
            Field::Text(t) => Owned::Text(t.to_string()),
            Field::Missing => Owned::Missing,
        }
    }

    fn field(&self) -> Field<'_> {
        match self {
            Owned::Unsigned(n) => Field::Unsigned(*n),
            Owned::Signed(n) => Field::Signed(*n),
            Owned::Bool(b) => Field::Bool(*b),
            Owned::Text(t) => Field::Text(t),
            Owned::Missing => Field::Missing,
        }
    }
}

/// A CSV field as the rows write it: empty, `true`/`false`, a number, or text.
fn csv_field(text: &str) -> Field<'_> {
    if text.is_empty() {
        Field::Missing
    } else if let Ok(b) = text.parse::<bool>() {
        Field::Bool(b)
    } else if let Ok(n) = text.parse::<u64>() {
        Field::Unsigned(n)
    } else if let Ok(n) = text.parse::<i64>() {
        Field::Signed(n)
    } else {
        Field::Text(text)
    }
}

/// A JSON value of a row as the field it was written from.
fn json_field(value: Option<&Value>) -> Field<'_> {
    match value {
        None | Some(Value::Null) => Field::Missing,
        Some(Value::Bool(b)) => Field::Bool(*b),
        Some(Value::String(s)) => Field::Text(s),
        Some(Value::Number(n)) => match (n.as_u64(), n.as_i64()) {
            (Some(n), _) => Field::Unsigned(n),
            (None, Some(n)) => Field::Signed(n),
            _ => Field::Text("a fraction"),
        },
        Some(_) => Field::Text("a nested value"),
    }
}

impl Source {
    fn open(part: &Part, header: &str, columns: &[Column]) -> Result<Source, String> {
        let lines = || -> Result<io::Lines<BufReader<File>>, String> {
            Ok(BufReader::with_capacity(
                1 << 20,
                File::open(&part.path).map_err(|e| e.to_string())?,
            )
            .lines())
        };
        Ok(match part.format {
            Format::Csv => {
                let mut lines = lines()?;
                // The header opens the whole scan: shard 1's file.
                if part.shard.index == 1 {
                    let first = lines.next().transpose().map_err(|e| e.to_string())?;
                    if first.as_deref() != Some(header) {
                        return Err(format!(
                            "its first line is {first:?}, not the header '{header}'"
                        ));
                    }
                }
                Source::Csv(lines)
            }
            Format::Jsonl => Source::Jsonl(lines()?),
            Format::Parquet => Source::Parquet {
                files: parquet::parts(&part.path)
                    .map_err(|e| e.to_string())?
                    .into_iter()
                    .map(|(_, path)| path)
                    .collect(),
                header: header.to_string(),
                columns: columns.to_vec(),
                rows: VecDeque::new(),
            },
        })
    }

    /// The next row, not yet parsed; `None` at the end of the part.
    fn next(&mut self) -> Result<Option<Raw>, String> {
        let line = |lines: &mut io::Lines<BufReader<File>>| {
            lines.next().transpose().map_err(|e| e.to_string())
        };
        match self {
            Source::Csv(lines) => Ok(line(lines)?.map(Raw::Csv)),
            Source::Jsonl(lines) => Ok(line(lines)?.map(Raw::Jsonl)),
            Source::Parquet {
                files,
                header,
                columns,
                rows,
            } => {
                while rows.is_empty() {
                    let Some(file) = files.pop_front() else {
                        return Ok(None);
                    };
                    parquet::read_rows(&file, header, columns, &mut |fields| {
                        rows.push_back(fields.iter().map(Owned::of).collect());
                        Ok(())
                    })?;
                }
                Ok(rows.pop_front().map(Raw::Fields))
            }
        }
    }
}

/// A row as read, with its part and its number there (from 0), for messages.
struct RawRow<'p> {
    raw: Raw,
    part: &'p Part,
    row: u64,
}

impl RawRow<'_> {
    /// A refusal naming row `row` of `part`.
    fn refusal(part: &Part, row: u64, why: String) -> ResumeError {
        refuse(format!("'{}', row {}: {why}", part.path.display(), row + 1))
    }

    fn at(&self, why: String) -> ResumeError {
        Self::refusal(self.part, self.row, why)
    }
}

/// A row as read from its part, parsed later (on all cores: the reading is serial).
enum Raw {
    Csv(String),
    Jsonl(String),
    Fields(Vec<Owned>),
}

impl Raw {
    /// Calls `read` with the row's fields, in `header` order.
    fn read<S>(
        &self,
        header: &str,
        read: impl FnOnce(&[Field<'_>]) -> Result<S, String>,
    ) -> Result<S, String> {
        match self {
            Raw::Csv(text) => {
                let fields: Vec<Field<'_>> = text.split(',').map(csv_field).collect();
                read(&fields)
            }
            Raw::Jsonl(text) => {
                let object: serde_json::Map<String, Value> =
                    serde_json::from_str(text).map_err(|e| format!("not a JSON row: {e}"))?;
                let fields: Vec<Field<'_>> = header
                    .split(',')
                    .map(|name| json_field(object.get(name)))
                    .collect();
                read(&fields)
            }
            Raw::Fields(row) => {
                let fields: Vec<Field<'_>> = row.iter().map(Owned::field).collect();
                read(&fields)
            }
        }
    }
}

impl PartsReader<'_> {
    /// Checks that every row of every part was read.
    fn finish(&self) -> Result<(), ResumeError> {
        let mut cursor = self.cursor.lock().expect("no reader panics");
        while let Some(part) = cursor.parts.front().copied() {
            cursor.end_part(part, self.header, &self.columns)?;
        }
        Ok(())
    }
}

impl Cursor<'_> {
    /// The rows of `part`, the current one, opened at its first row if not yet open.
    fn source(
        &mut self,
        part: &Part,
        header: &str,
        columns: &[Column],
    ) -> Result<&mut Source, String> {
        if self.source.is_none() {
            self.source = Some(Source::open(part, header, columns)?);
        }
        Ok(self.source.as_mut().expect("opened above"))
    }

    /// Ends the current part, which must have no rows left, and moves to the next.
    fn end_part(
        &mut self,
        part: &Part,
        header: &str,
        columns: &[Column],
    ) -> Result<(), ResumeError> {
        let at = |why: String| refuse(format!("'{}': {why}", part.path.display()));
        if self.row != part.done.rows {
            return Err(at(format!(
                "{} rows read, its .done says {}",
                self.row, part.done.rows
            )));
        }
        let source = self.source(part, header, columns).map_err(at)?;
        if source.next().map_err(at)?.is_some() {
            return Err(at(format!(
                "a row after its last ({} rows, as its .done says)",
                part.done.rows
            )));
        }
        self.parts.pop_front();
        self.source = None;
        self.row = 0;
        Ok(())
    }
}

impl<W: Scan> SolveOn<PartsReader<'_>> for W {
    fn plan(&self, _: &PartsReader<'_>) -> Result<Plan, W::Error> {
        Ok(Plan {
            items_per_call: self.output().chunk_size,
            calls_in_flight: 1,
        })
    }

    /// The rows of `items`, read from the parts in order, each checked to be its item's: read
    /// on one thread, parsed and checked on all cores. A refusal names the first row at fault,
    /// as a reading row by row would.
    fn solve(
        &self,
        reader: &PartsReader<'_>,
        items: &[W::Item],
        _: &ProgressBar,
    ) -> Result<Vec<W::Solved>, W::Error> {
        let (rows, cut) = reader.read(items.len());
        let parsed: Vec<Result<W::Solved, String>> = rows
            .par_iter()
            .zip(items)
            .map(|(r, item)| {
                r.raw
                    .read(reader.header, |fields| self.read_row(item, fields))
            })
            .collect();
        // In row order, so that the first row at fault is the one named.
        let solved = parsed
            .into_iter()
            .zip(&rows)
            .map(|(parsed, r)| parsed.map_err(|why| r.at(why)))
            .collect::<Result<Vec<_>, _>>()?;
        match cut {
            Some(why) => Err(why.into()),
            None => Ok(solved),
        }
    }
}

impl<'p> PartsReader<'p> {
    /// The next `count` rows, and why they stop short if they do.
    fn read(&self, count: usize) -> (Vec<RawRow<'p>>, Option<ResumeError>) {
        let mut cursor = self.cursor.lock().expect("no reader panics");
        let mut rows = Vec::with_capacity(count);
        while rows.len() < count {
            let Some(part) = cursor.parts.front().copied() else {
                return (
                    rows,
                    Some(refuse("the parts hold fewer rows than the scan".into())),
                );
            };
            if cursor.row == part.done.rows {
                if let Err(why) = cursor.end_part(part, self.header, &self.columns) {
                    return (rows, Some(why));
                }
                continue;
            }
            let row = cursor.row;
            let read = cursor
                .source(part, self.header, &self.columns)
                .and_then(Source::next);
            match read {
                Ok(Some(raw)) => rows.push(RawRow { raw, part, row }),
                Ok(None) => {
                    let why = format!(
                        "'{}' ends after {row} rows, its .done says {}",
                        part.path.display(),
                        part.done.rows
                    );
                    return (rows, Some(refuse(why)));
                }
                Err(why) => return (rows, Some(RawRow::refusal(part, row, why))),
            }
            cursor.row += 1;
        }
        (rows, None)
    }
}
