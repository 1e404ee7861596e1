//! The scan driver that `sub scan`, `sub survey` and `octal scan` share: every item of a fixed
//! list (triples, codes) in fixed chunks, solved on a backend, rows streamed in scan order to
//! CSV or JSON lines, with a checkpoint after each chunk.
//!
//! Chunks are numbered in scan order and never depend on the backend, so a run can be resumed
//! with another backend, and `--shard i/N` (a contiguous `1/N` of the chunks) gives files that
//! concatenate, shard 1 first, to the full result (only shard 1 writes the CSV header), and
//! that `nimseq merge` ([`super::merge`]) checks and joins. A
//! backend may take several chunks in one call (a GPU fills its card with them) and have
//! several calls in flight; the rows still go out chunk by chunk, in order, each chunk
//! checkpointed as it is written.

use std::collections::VecDeque;
use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::{BuildHasher, Hash};
use std::io::{self, Write};
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};

use indicatif::ProgressBar;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::parquet::{Column, PartWriter};
use super::resumable::{Opened, ResumableFile, ResumeError};
use super::{Field, Format, progress_bar};

/// Which part of a scan this run does: the `index`-th (1-based) of `count` contiguous parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Chunks `[first, end)` of `chunks` that belong to this shard (in 128 bits: a shard
    /// count near 2^64 times a chunk count does not fit 64).
    pub fn chunks(self, chunks: u64) -> (u64, u64) {
        let at = |i: u64| (u128::from(i) * u128::from(chunks) / u128::from(self.count)) as u64;
        (at(self.index - 1), at(self.index))
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || format!("invalid shard '{s}': expected i/N with 1 <= i <= N, e.g. 2/8");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            i.trim().parse::<u64>().map_err(|_| bad())?,
            n.trim().parse::<u64>().map_err(|_| bad())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What every scan has beyond its own work: the row format, the part of it this run does,
/// the chunk size, and where the rows go.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScanOutput {
    pub format: Format,
    pub shard: Shard,
    /// Items per chunk: the unit of checkpoints and shards.
    pub chunk_size: u64,
    #[serde(skip)]
    pub out: Option<PathBuf>,
    #[serde(skip)]
    pub resume: bool,
}

impl ScanOutput {
    /// The whole scan as CSV, to the caller's writer (no file): for benches and tests.
    pub fn whole(chunk_size: u64) -> Self {
        ScanOutput {
            format: Format::Csv,
            shard: Shard::WHOLE,
            chunk_size,
            out: None,
            resume: false,
        }
    }

    /// Items per chunk: `chunk_size`, at least one.
    fn chunk(&self) -> u64 {
        self.chunk_size.max(1)
    }
}

/// A scan's items in order, listed a call at a time.
pub trait Items: Iterator {
    /// Appends the next `n` items (fewer at the end) to `list`: the scan's writing thread lists
    /// every item while the others solve, so where items come cheaper in runs than one by one,
    /// this lists them so.
    fn list_into(&mut self, list: &mut Vec<Self::Item>, n: usize);
}

/// Items listed one by one.
pub struct OneByOne<I>(pub I);

impl<I: Iterator> Iterator for OneByOne<I> {
    type Item = I::Item;
    fn next(&mut self) -> Option<I::Item> {
        self.0.next()
    }
}

impl<I: Iterator> Items for OneByOne<I> {
    fn list_into(&mut self, list: &mut Vec<I::Item>, n: usize) {
        list.extend(self.0.by_ref().take(n));
    }
}

/// A scan's own part: its items, their rows, its checks. It serialises to the flags that
/// decide its rows, which a resumed run must share. [`SolveOn`] says how a backend solves it.
pub trait Scan: Serialize + Sync {
    /// One unit of work (a triple, a code).
    type Item: Send + Sync;
    /// What solving an item gives: its row and the totals are made from it.
    type Solved: Send + Sync;
    /// Why a scan stops; the driver's own failures (the result file, the writes) are among them.
    type Error: From<ResumeError> + From<io::Error> + Send;
    /// What the items are, for the progress bar ("rulesets", "codes").
    const UNIT: &'static str;

    fn output(&self) -> &ScanOutput;
    /// The same, to be set (a merge writes the rows of parts to a file of its own).
    fn output_mut(&mut self) -> &mut ScanOutput;
    /// Refuses, before anything is opened or computed, a scan that cannot run (memory).
    fn check(&self) -> Result<(), Self::Error>;
    /// Items in the whole scan.
    fn count(&self) -> u64;
    /// The items from the `skip`-th on, in scan order.
    fn items(&self, skip: u64) -> impl Items<Item = Self::Item> + '_;
    /// The CSV header of the rows.
    fn header(&self) -> &'static str;
    /// The header, recorded in the job where a scan's rows changed columns since older builds
    /// wrote them (`octal scan`, 2026-12-05), so that a file of the old rows is neither resumed
    /// nor merged with new ones; `None` where the columns never changed.
    fn changed_columns(&self) -> Option<&'static str> {
        None
    }
    /// The types of the header's columns, for Parquet.
    fn columns(&self) -> Vec<Column>;
    /// The rows of `items` in the output format, in order, in pieces (formatted on all cores
    /// where that pays).
    fn rows(&self, items: &[Self::Item], solved: &[Self::Solved]) -> io::Result<Vec<Vec<u8>>>;
    /// The same rows as typed fields, in order ([`Row::fields`](super::Row::fields)), for a
    /// reader of columns.
    fn fields(&self, items: &[Self::Item], solved: &[Self::Solved], out: &mut dyn FnMut(Field<'_>));
    /// What a row written for `item` says of it, from the row's fields in header order, or
    /// why the row is not `item`'s: how `nimseq merge` reads back the rows of a part.
    fn read_row(&self, item: &Self::Item, fields: &[Field<'_>]) -> Result<Self::Solved, String>;
}

/// Where [`ScanJob`] sends the rows it does not write to a file.
enum Sink<'s> {
    Text(&'s mut dyn Write),
    Fields(&'s mut dyn FnMut(Field<'_>)),
    /// No rows at all, only the tally (checksum, counts): what a bench times.
    Tally,
}

/// How a backend `B` runs a [`Scan`].
pub trait SolveOn<B>: Scan {
    /// How the driver feeds `backend`; an error refuses the backend before any work.
    fn plan(&self, backend: &B) -> Result<Plan, Self::Error>;
    /// Solves `items` exactly, in order; a long call may say how far it got in the message
    /// of `progress`.
    fn solve(
        &self,
        backend: &B,
        items: &[Self::Item],
        progress: &ProgressBar,
    ) -> Result<Vec<Self::Solved>, Self::Error>;
}

/// How the driver feeds a backend: about `items_per_call` items a call (whole chunks, at least
/// one), with `calls_in_flight` calls at once, each on a thread of its own.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub items_per_call: u64,
    pub calls_in_flight: usize,
}

/// Running totals a scan keeps over its rows, in scan order, saved with each checkpoint.
pub trait Tally<I, S>: Default + Serialize + DeserializeOwned {
    /// The command whose rows these are, as users type it. It is part of the job: a scan's
    /// checkpoint cannot resume a survey.
    const COMMAND: &'static str;
    fn add(&mut self, item: &I, solved: &S);
    /// Adds a chunk's rows, in order: a tally that costs much a row overrides it to do the
    /// costly part on all cores (the writer's thread would otherwise bound the scan).
    fn add_chunk(&mut self, items: &[I], solved: &[S]) {
        for (item, s) in items.iter().zip(solved) {
            self.add(item, s);
        }
    }
    /// Adds what `part` counted beyond its rows (work done, which rows do not record), for
    /// the totals of a merge of parts.
    fn add_work(&mut self, _part: &Self) {}
}

/// A random fraction of a scan's items, picked by a hash of each one's key under a seed drawn
/// afresh: the sample on which a fast backend's rows are re-checked.
pub struct Sample {
    seed: RandomState,
    threshold: u64,
}

impl Sample {
    /// About `fraction` of the items (all of them from 1 on); `None` for 0 or less.
    pub fn new(fraction: f64) -> Option<Self> {
        (fraction > 0.0).then(|| Sample {
            seed: RandomState::new(),
            threshold: match fraction >= 1.0 {
                true => u64::MAX,
                false => (fraction * u64::MAX as f64) as u64,
            },
        })
    }

    /// Whether the item with `key` is in the sample.
    pub fn picks(&self, key: impl Hash) -> bool {
        self.seed.hash_one(key) <= self.threshold
    }
}

/// A scan ready to run: its chunks counted and its output opened (and resumed).
pub struct ScanJob<'w, W, T> {
    work: &'w W,
    /// The shard's chunks are `[first, end)`; `[next, end)` remain.
    first: u64,
    next: u64,
    end: u64,
    file: Option<ResumableFile>,
    /// Set when the file was finished before: nothing is left to do.
    finished: bool,
    tally: T,
    /// Set from elsewhere (a Ctrl-C) to end the run after the calls in flight.
    stop: Option<&'w AtomicBool>,
    /// For a merge: the parts whose rows these are, each with the totals its record claims,
    /// checked against the totals of its rows as they come ([`Self::check_parts`]).
    parts: VecDeque<RecordedPart<T>>,
    /// The totals of the rows of the first part in `parts`, so far.
    part_tally: T,
}

/// Which totals of `want` (a record) the rows' totals `got` do not match, in words.
fn totals_differ(want: &serde_json::Value, got: &serde_json::Value) -> String {
    use serde_json::Value;
    let (Value::Object(want), Value::Object(got)) = (want, got) else {
        return "other totals".to_string();
    };
    let said: Vec<String> = want
        .iter()
        .filter(|(k, v)| got.get(*k) != Some(v))
        .map(|(k, v)| match (v, got.get(k)) {
            (
                Value::Number(_) | Value::String(_),
                Some(g @ (Value::Number(_) | Value::String(_))),
            ) => {
                format!("{k} {v} recorded, {g} in the rows")
            }
            _ => format!("{k} differs"),
        })
        .collect();
    said.join(", ")
}

/// A part of a merge: the chunks below `end` complete it, and its record says `recorded`.
pub struct RecordedPart<T> {
    pub name: String,
    pub end: u64,
    pub recorded: T,
}

/// One call's chunks, solved, their rows already formatted.
struct Solved<I, S> {
    items: Vec<I>,
    solved: Vec<S>,
    /// Each chunk's rows, in pieces.
    rows: Vec<Vec<Vec<u8>>>,
}

impl<'w, W: Scan, T: Tally<W::Item, W::Solved>> ScanJob<'w, W, T> {
    /// Checks the scan and opens its output, resuming it if asked: every error here is the
    /// user's to fix, and nothing has been computed yet.
    pub fn open(work: &'w W) -> Result<Self, W::Error> {
        let output = work.output();
        if output.format == Format::Parquet && output.out.is_none() {
            return Err(ResumeError::ParquetNeedsFile.into());
        }
        work.check()?;
        let chunks = work.count().div_ceil(output.chunk());
        let (first, end) = output.shard.chunks(chunks);
        let mut job = serde_json::to_value(work).expect("options serialise");
        job["command"] = T::COMMAND.into();
        if let Some(columns) = work.changed_columns() {
            job["columns"] = columns.into();
        }
        let mut scan = ScanJob {
            work,
            first,
            next: first,
            end,
            file: None,
            finished: false,
            tally: T::default(),
            stop: None,
            parts: VecDeque::new(),
            part_tally: T::default(),
        };
        if let Some(path) = &output.out {
            let parts = output.format == Format::Parquet;
            let (file, opened) = ResumableFile::open::<T>(path, &job, output.resume, parts)?;
            match opened {
                Opened::Fresh => {}
                Opened::Resumed(c) => {
                    scan.next = c.next_chunk.max(first);
                    scan.tally = c.state.unwrap_or_default();
                }
                Opened::Finished(done) => {
                    scan.next = end;
                    scan.finished = true;
                    scan.tally = done.state;
                }
            }
            scan.file = Some(file);
        }
        Ok(scan)
    }

    /// For a merge: adds the work `parts` counted to a fresh run's totals
    /// ([`Tally::add_work`]), and checks, as each part's last chunk is tallied, that its rows
    /// give the totals its record claims (rows count, sums, maxima, checksum): a part whose
    /// rows were changed in place, even to the same length, is refused by name.
    pub fn check_parts(mut self, parts: Vec<RecordedPart<T>>) -> Self {
        if self.next == self.first && !self.finished {
            for part in &parts {
                self.tally.add_work(&part.recorded);
            }
            self.parts = parts.into();
            self.start_part();
        }
        self
    }

    /// Starts the totals of the next part: the work it counted beyond its rows, then its rows.
    fn start_part(&mut self) {
        self.part_tally = T::default();
        if let Some(part) = self.parts.front() {
            self.part_tally.add_work(&part.recorded);
        }
    }

    /// Checks every part completed by the chunks below `done`.
    fn close_parts(&mut self, done: u64) -> Result<(), ResumeError> {
        while let Some(part) = self.parts.front().filter(|p| p.end <= done) {
            let got = serde_json::to_value(&self.part_tally).expect("totals serialise");
            let want = serde_json::to_value(&part.recorded).expect("totals serialise");
            if got != want {
                return Err(ResumeError::Part(format!(
                    "'{}': its rows are not what its .done records ({}): it was changed since",
                    part.name,
                    totals_differ(&want, &got)
                )));
            }
            self.parts.pop_front();
            self.start_part();
        }
        Ok(())
    }

    /// Ends the run once `stop` is set: no call starts after that, the calls in flight are
    /// written and checkpointed (a `--resume` goes on from them), and [`Self::run`] returns an
    /// [`io::ErrorKind::Interrupted`] error.
    pub fn stop_on(mut self, stop: &'w AtomicBool) -> Self {
        self.stop = Some(stop);
        self
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Runs the remaining chunks on `backend`, rows to the file or to `stdout`; returns the
    /// totals of every row of this shard, resumed ones included.
    pub fn run<B: Sync>(self, backend: &B, stdout: &mut dyn Write) -> Result<T, W::Error>
    where
        W: SolveOn<B>,
    {
        self.run_into(backend, Sink::Text(stdout))
    }

    /// [`Self::run`] for a reader of columns: each row's typed fields go to `fields`, in
    /// order, and no text is made (unless the scan has a file, which gets its rows too).
    pub fn run_fields<B: Sync>(
        self,
        backend: &B,
        fields: &mut dyn FnMut(Field<'_>),
    ) -> Result<T, W::Error>
    where
        W: SolveOn<B>,
    {
        self.run_into(backend, Sink::Fields(fields))
    }

    /// [`Self::run`] without rows (unless the scan has a file): the tally only, as a bench
    /// times the engine.
    pub fn run_tally<B: Sync>(self, backend: &B) -> Result<T, W::Error>
    where
        W: SolveOn<B>,
    {
        self.run_into(backend, Sink::Tally)
    }

    fn run_into<B: Sync>(mut self, backend: &B, mut sink: Sink<'_>) -> Result<T, W::Error>
    where
        W: SolveOn<B>,
    {
        let work = self.work;
        if let (true, Some(f)) = (self.finished, &self.file) {
            log::info!(
                "'{}' was finished before (its .done is there): nothing left to compute",
                f.path().display()
            );
            return Ok(self.tally);
        }
        let output = work.output();
        let text = match &self.file {
            Some(_) => output.format != Format::Parquet,
            None => matches!(sink, Sink::Text(_)),
        };
        let plan = work.plan(backend)?;
        let cs = output.chunk();
        let total = work.count();
        // The header opens the whole scan: shard 1 writes it (other shards may start at chunk
        // 0 too, when there are fewer chunks than shards).
        if self.next == 0 && output.shard.index == 1 {
            match (&mut self.file, &mut sink) {
                (Some(f), _) => {
                    if let Some(w) = f.writer() {
                        output.format.write_header(w, work.header())?;
                    }
                }
                (None, Sink::Text(stdout)) => output.format.write_header(*stdout, work.header())?,
                (None, Sink::Fields(_) | Sink::Tally) => {}
            }
        }
        let items_below = |chunk: u64| (chunk * cs).min(total);
        let bar = progress_bar(items_below(self.end) - items_below(self.first), W::UNIT);
        bar.set_position(items_below(self.next) - items_below(self.first));
        let solve = |items: Vec<W::Item>| -> Result<Solved<W::Item, W::Solved>, W::Error> {
            let solved = work.solve(backend, &items, &bar)?;
            bar.set_message("");
            let rows = match text {
                true => items
                    .chunks(cs as usize)
                    .zip(solved.chunks(cs as usize))
                    .map(|(items, solved)| work.rows(items, solved))
                    .collect::<io::Result<_>>()?,
                false => Vec::new(),
            };
            Ok(Solved {
                items,
                solved,
                rows,
            })
        };
        let end = self.end;
        let per_call = plan.items_per_call.div_ceil(cs).max(1);
        let chunks_from = |k: u64| per_call.min(end - k);
        let mut items = work.items(items_below(self.next));
        // The items of the call from chunk `k`, in a list sized up front: the items' iterator
        // does not know its length, and a list grown by doubling copies megabytes each call.
        let mut take = |k: u64| -> Vec<W::Item> {
            let n = (items_below(k + chunks_from(k)) - items_below(k)) as usize;
            let mut list = Vec::with_capacity(n);
            items.list_into(&mut list, n);
            list
        };
        // A call is solved on another thread while the one before is written and checkpointed
        // and the next listed; a backend that gains from it has more calls in flight (the GPU
        // runs one call's passes while the CPU finishes another's leftovers).
        std::thread::scope(|scope| -> Result<(), W::Error> {
            let mut in_flight = VecDeque::new();
            let mut solved = None;
            let mut k = self.next;
            let mut listed = if k < end { take(k) } else { Vec::new() };
            loop {
                while in_flight.len() < plan.calls_in_flight.max(1) && k < end && !self.stopped() {
                    let call = std::mem::take(&mut listed);
                    in_flight.push_back((k, scope.spawn(|| solve(call))));
                    k += chunks_from(k);
                    if k < end {
                        listed = take(k);
                    }
                }
                if let Some((first_chunk, done)) = solved.take() {
                    self.write(first_chunk, &done, &mut sink, &bar)?;
                }
                let Some((first_chunk, solving)) = in_flight.pop_front() else {
                    if k < end {
                        return Err(
                            io::Error::new(io::ErrorKind::Interrupted, "interrupted").into()
                        );
                    }
                    break;
                };
                let done = solving.join().expect("the solver thread does not panic")?;
                solved = Some((first_chunk, done));
            }
            Ok(())
        })?;
        self.close_parts(self.end)?;
        if self.first == self.end
            && let Some(dir) = self.file.as_ref().and_then(|f| f.part_path(self.first))
            && let Some(dir) = dir.parent()
        {
            // A shard with no chunk still holds the columns, for readers of the directory.
            let columns = self.work.columns();
            let empty = PartWriter::new(self.work.header(), &columns);
            empty.write(&dir.join(super::parquet::empty_part_name(self.first)))?;
        }
        match (&mut self.file, sink) {
            // An empty shard still completes its file.
            (Some(f), _) => f.finish(
                [self.first, self.end],
                items_below(self.end) - items_below(self.first),
                &self.tally,
            )?,
            (None, Sink::Text(stdout)) => stdout.flush()?,
            (None, Sink::Fields(_) | Sink::Tally) => {}
        }
        bar.finish_and_clear();
        Ok(self.tally)
    }

    /// Writes one call's chunks, the first numbered `first_chunk`, recording after each that
    /// the chunks below the next are done.
    fn write(
        &mut self,
        first_chunk: u64,
        done: &Solved<W::Item, W::Solved>,
        sink: &mut Sink<'_>,
        bar: &ProgressBar,
    ) -> Result<(), W::Error> {
        let cs = self.work.output().chunk() as usize;
        let chunks = done.items.chunks(cs).zip(done.solved.chunks(cs));
        // Without text (fields or the tally only), no chunk has rows.
        let none = Vec::new();
        let rows = done.rows.iter().chain(std::iter::repeat(&none));
        for (k, ((items, solved), rows)) in (first_chunk..).zip(chunks.zip(rows)) {
            if let Some(path) = self.file.as_ref().and_then(|f| f.part_path(k)) {
                let columns = self.work.columns();
                let mut part = PartWriter::new(self.work.header(), &columns);
                self.work.fields(items, solved, &mut |f| part.push(f));
                part.write(&path)?;
            }
            let text: Option<&mut dyn Write> = match (&mut self.file, &mut *sink) {
                (Some(f), _) => f.writer().map(|w| w as &mut dyn Write),
                (None, Sink::Text(stdout)) => Some(&mut **stdout),
                (None, Sink::Fields(_) | Sink::Tally) => None,
            };
            if let Some(text) = text {
                for piece in rows {
                    text.write_all(piece)?;
                }
            }
            if let Sink::Fields(fields) = sink {
                self.work.fields(items, solved, *fields);
            }
            self.tally.add_chunk(items, solved);
            if !self.parts.is_empty() {
                self.close_parts(k)?;
                self.part_tally.add_chunk(items, solved);
            }
            if let Some(f) = &mut self.file
                && k + 1 < self.end
            {
                f.commit(k + 1, &self.tally)?;
            }
            bar.inc(items.len() as u64);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_chunks_contiguously() {
        let parts: Vec<(u64, u64)> = (1..=3)
            .map(|i| Shard { index: i, count: 3 }.chunks(10))
            .collect();
        assert_eq!(parts, vec![(0, 3), (3, 6), (6, 10)]);
        assert!("3/2".parse::<Shard>().is_err());
        assert!("0/2".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { index: 2, count: 8 }));
    }
}
