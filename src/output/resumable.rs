//! A result file that survives interruption, and says when it is finished.
//!
//! Rows are appended chunk by chunk; after each complete chunk the file is flushed and synced,
//! then `FILE.checkpoint` is replaced atomically (write a temporary file, rename) with the next
//! chunk, the file's length at that point and the caller's running state. Resuming truncates the
//! file to that length, dropping any rows of a chunk that was cut short, and goes on from the
//! recorded chunk: the finished file is byte-identical to an uninterrupted run. A Parquet
//! result is a directory of one part file per chunk ([`super::parquet`]); resuming it drops
//! the parts from the recorded chunk on.
//!
//! Once the last chunk is in, `FILE.done` ([`Done`]) is written and the checkpoint goes: the
//! job, the chunks and rows the file holds, its length, and the running state of its rows. It
//! is how `nimseq merge` knows a shard is finished and whose it is, and it lets a task that is
//! run again with `--resume` (a requeued cluster job) find its work done.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::parquet;

use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

/// How the job `theirs` (written in a file) differs from `ours`, in words: `--c-max 200 there,
/// 100 here` for each flag, the command first, the rows' columns in a sentence.
pub fn differences(theirs: &Value, ours: &Value) -> String {
    let shown = |v: Option<&Value>| match v {
        None | Some(Value::Null) => "unset".to_string(),
        Some(Value::String(s)) => s.clone(),
        // A shard as the flag writes it: 2/8.
        Some(Value::Object(o)) if o.contains_key("index") && o.contains_key("count") => {
            format!("{}/{}", o["index"], o["count"])
        }
        Some(v) => v.to_string(),
    };
    let (Value::Object(a), Value::Object(b)) = (theirs, ours) else {
        return format!("{} there, {} here", shown(Some(theirs)), shown(Some(ours)));
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort_by_key(|k| (k.as_str() != "command", k.as_str()));
    keys.dedup();
    let said: Vec<String> = keys
        .into_iter()
        // A flag absent from one record and null in the other is unset in both.
        .filter(|k| a.get(*k).unwrap_or(&Value::Null) != b.get(*k).unwrap_or(&Value::Null))
        .map(|k| match k.as_str() {
            "columns" => "its rows have other columns (an older build's): rerun it with this \
                build"
                .to_string(),
            "command" => format!(
                "it was written by {}, this is {}",
                shown(a.get(k)),
                shown(b.get(k))
            ),
            _ => format!(
                "--{} {} there, {} here",
                k.replace('_', "-"),
                shown(a.get(k)),
                shown(b.get(k))
            ),
        })
        .collect();
    said.join("; ")
}

/// What a checkpoint records.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Checkpoint<S> {
    /// Identity of the job (the command and the flags that decide its rows): a resumed run
    /// must be the same job.
    pub job: Value,
    /// First chunk not yet in the file.
    pub next_chunk: u64,
    /// Length of the file through the last complete chunk, in bytes (0 for Parquet parts).
    pub bytes: u64,
    /// The caller's running totals through the last complete chunk (`None` before the first).
    pub state: Option<S>,
    /// CRC-32 of the result's contents through the last complete chunk ([`contents_crc`]);
    /// absent in the records of builds before it, which are taken as they are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crc: Option<u32>,
    /// CRC-32 of the record itself without this field ([`seal_of`]): an edited record (a
    /// chunk count, a length) is refused, not trusted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<u32>,
}

/// What `FILE.done` records of a finished result file.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Done<S> {
    /// The job, as in its checkpoints.
    pub job: Value,
    /// The chunks `[first, end)` of the whole scan that the file holds.
    pub chunks: [u64; 2],
    /// Rows in the file.
    pub rows: u64,
    /// The file's length in bytes; `None` for a directory of Parquet parts.
    pub bytes: Option<u64>,
    /// The caller's totals over the file's rows.
    pub state: S,
    /// CRC-32 of the file's contents ([`contents_crc`]); absent in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crc: Option<u32>,
    /// CRC-32 of the record without this field ([`seal_of`]); absent in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seal: Option<u32>,
}

/// CRC-32 of a record (a checkpoint, a `.done`) in one canonical form (keys sorted), without
/// its seal: what its `seal` field holds, so that a record edited by hand is found out.
pub fn seal_of<T: Serialize>(record: &T) -> u32 {
    let mut value = serde_json::to_value(record).expect("records serialise");
    if let Some(map) = value.as_object_mut() {
        map.remove("seal");
    }
    crc32fast::hash(value.to_string().as_bytes())
}

/// Whether a record's seal, where it has one, is that of its contents.
fn seal_holds<T: Serialize>(record: &T, seal: Option<u32>) -> bool {
    seal.is_none_or(|s| s == seal_of(record))
}

/// The CRC-32 `crc` of a result's contents so far, taken on to `to`: for a text file its bytes
/// from `from` to `to`; for a directory of Parquet parts (`parts`) the bytes of the part files
/// of the chunks from `from` to `to`, in chunk order.
pub fn contents_crc(path: &Path, parts: bool, crc: u32, from: u64, to: u64) -> io::Result<u32> {
    use std::io::Read;
    let mut hasher = crc32fast::Hasher::new_with_initial(crc);
    if parts {
        for (chunk, part) in parquet::parts(path)? {
            if (from..to).contains(&chunk) {
                hasher.update(&fs::read(part)?);
            }
        }
    } else {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(from))?;
        let mut rest = file.take(to.saturating_sub(from));
        let mut buf = vec![0; 1 << 20];
        loop {
            let n = rest.read(&mut buf)?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
    }
    Ok(hasher.finalize())
}

impl<S: Serialize> Done<S> {
    /// How the file at `path` differs from what this record says it holds, if it does: its
    /// length, a last row cut short, (Parquet) the part files of its chunks, its contents'
    /// checksum; or the record's own seal is broken.
    pub fn differs(&self, path: &Path) -> Option<String> {
        if !seal_holds(self, self.seal) {
            return Some("has a .done that was edited by hand".into());
        }
        let found = self.differs_in_form(path);
        if found.is_some() {
            return found;
        }
        let crc = self.crc?;
        let (parts, end) = match self.bytes {
            Some(bytes) => (false, bytes),
            None => (true, self.chunks[1]),
        };
        match contents_crc(path, parts, 0, 0, end) {
            Ok(c) if c == crc => None,
            Ok(_) => {
                Some("holds other rows than its .done records (their checksum differs)".into())
            }
            Err(e) => Some(format!("cannot be read ({e})")),
        }
    }

    /// [`Self::differs`] in length, last row and part files.
    fn differs_in_form(&self, path: &Path) -> Option<String> {
        let unreadable = |e: io::Error| Some(format!("cannot be read ({e})"));
        match self.bytes {
            Some(bytes) => {
                let len = match fs::metadata(path) {
                    Ok(m) => m.len(),
                    Err(e) => return unreadable(e),
                };
                if len != bytes {
                    return Some(format!("is {len} bytes, its .done says {bytes}"));
                }
                match last_byte(path) {
                    Ok(Some(b'\n') | None) => None,
                    Ok(Some(_)) => Some("ends in the middle of a row".into()),
                    Err(e) => unreadable(e),
                }
            }
            None => {
                let found: Vec<u64> = match parquet::parts(path) {
                    Ok(parts) => parts.into_iter().map(|(chunk, _)| chunk).collect(),
                    Err(e) => return unreadable(e),
                };
                let [first, end] = self.chunks;
                (found != (first..end).collect::<Vec<u64>>()).then(|| {
                    format!(
                        "holds the part files of chunks {found:?}, its .done says {}..{end}",
                        first + 1
                    )
                })
            }
        }
    }
}

/// The last byte of the file at `path`; `None` if it is empty.
fn last_byte(path: &Path) -> io::Result<Option<u8>> {
    use std::io::Read;
    let mut file = File::open(path)?;
    if file.metadata()?.len() == 0 {
        return Ok(None);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut byte = [0u8];
    file.read_exact(&mut byte)?;
    Ok(Some(byte[0]))
}

/// Where a result file stands when it is opened.
pub enum Opened<S> {
    /// Nothing of it yet: start at chunk 0 with an empty file.
    Fresh,
    /// Go on after the checkpoint's chunks.
    Resumed(Checkpoint<S>),
    /// It was finished by this job before; nothing is to be done.
    Finished(Done<S>),
}

/// Why a result file could not be opened or resumed; all are the user's to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    /// A file that cannot be opened or set up before the run: the path is the user's to fix.
    #[error("cannot write '{path}'")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// Writing rows or their records failed mid-run (a full disk, a file size limit): a
    /// failure, not bad input, so that a cluster script retries it.
    #[error("writing '{path}' failed")]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(
        "'{0}' holds an unfinished run; add --resume to continue it, or delete it and its .checkpoint to start over"
    )]
    Unfinished(PathBuf),
    #[error(
        "'{0}' exists but has no checkpoint to resume from: it was not written by a resumable run of nimseq; delete it or name another --out"
    )]
    NoCheckpoint(PathBuf),
    #[error(
        "'{path}' was written by another run: {differ}; run that one's flags (with --resume to go on), or name another --out"
    )]
    OtherJob { path: PathBuf, differ: String },
    #[error(
        "'{0}' exists and is no result of this scan; nimseq writes over nothing: delete it or name another --out"
    )]
    Exists(PathBuf),
    #[error("'{0}' is shorter than its checkpoint says; it was changed since, so start over")]
    Truncated(PathBuf),
    #[error("'{path}' {why}: it was changed since, so start over")]
    Changed { path: PathBuf, why: String },
    #[error("cannot read '{path}': {message}")]
    BadCheckpoint { path: PathBuf, message: String },
    #[error("Parquet rows go to a directory: add --out NAME.parquet")]
    ParquetNeedsFile,
    /// A part given to `nimseq merge` that cannot be merged.
    #[error("{0}")]
    Part(String),
}

impl ResumeError {
    /// Whether the user is to fix it (exit code 2): everything but a write that failed mid-run.
    pub fn is_refusal(&self) -> bool {
        !matches!(self, ResumeError::Write { .. })
    }

    /// The error as a failure of the run under way: a file that cannot be written is then
    /// [`ResumeError::Write`].
    fn mid_run(self) -> Self {
        match self {
            ResumeError::Io { path, source } => ResumeError::Write { path, source },
            e => e,
        }
    }
}

/// Where rows go: a text file (CSV, JSON lines), or a directory of Parquet parts.
enum Target {
    Text(BufWriter<File>),
    Parts,
}

/// An open result file and its checkpoint.
pub struct ResumableFile {
    path: PathBuf,
    checkpoint_path: PathBuf,
    job: Value,
    target: Target,
    /// CRC-32 of the contents through `hashed` (bytes, or the next chunk for parts).
    crc: u32,
    hashed: u64,
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> ResumeError + '_ {
    move |source| ResumeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// `PATH.suffix`, beside `path`.
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    PathBuf::from(format!("{}.{suffix}", path.display()))
}

/// The JSON file at `path`, if there is one.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, ResumeError> {
    match fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| ResumeError::BadCheckpoint {
                path: path.to_path_buf(),
                message: e.to_string(),
            }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io_err(path)(e)),
    }
}

/// Writes `value` to `path` as JSON, atomically (a temporary file renamed).
fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), ResumeError> {
    let tmp = beside(path, "tmp");
    let text = serde_json::to_string_pretty(value).expect("checkpoints serialise");
    fs::write(&tmp, text).map_err(io_err(&tmp))?;
    fs::rename(&tmp, path).map_err(io_err(path))
}

/// Whether something is at `path` that a fresh run would write over: a file, or a directory
/// with anything in it (another shard's Parquet parts, say).
fn occupied(path: &Path) -> bool {
    match fs::read_dir(path) {
        Ok(mut entries) => entries.next().is_some(),
        Err(_) => path.exists(),
    }
}

/// Removes the file at `path` if it is there.
fn remove_if_there(path: &Path) -> Result<(), ResumeError> {
    super::remove_if_there(path).map_err(io_err(path))
}

impl ResumableFile {
    /// Opens `path` for the job `job`, as a directory of Parquet parts if `parts`, and says
    /// where it stands ([`Opened`]); a finished file is left as it is.
    pub fn open<S: Serialize + DeserializeOwned>(
        path: &Path,
        job: &Value,
        resume: bool,
        parts: bool,
    ) -> Result<(Self, Opened<S>), ResumeError> {
        let checkpoint_path = beside(path, "checkpoint");
        let done_path = beside(path, "done");
        // Read with their totals untyped: a record of another command (a scan's, given to a
        // survey) is then refused as another job, not as an unreadable file.
        let previous: Option<Checkpoint<Value>> = read_json(&checkpoint_path)?;
        let typed = |state: Value, at: &Path| {
            serde_json::from_value::<S>(state).map_err(|e| ResumeError::BadCheckpoint {
                path: at.to_path_buf(),
                message: e.to_string(),
            })
        };
        let opened = match (resume, previous) {
            (false, Some(_)) => return Err(ResumeError::Unfinished(path.to_path_buf())),
            (true, Some(p)) if &p.job != job => {
                return Err(ResumeError::OtherJob {
                    path: path.to_path_buf(),
                    differ: differences(&p.job, job),
                });
            }
            (true, Some(p)) if !seal_holds(&p, p.seal) => {
                return Err(ResumeError::Changed {
                    path: checkpoint_path,
                    why: "was edited by hand (its seal does not hold)".into(),
                });
            }
            (true, Some(p)) => Opened::Resumed(Checkpoint {
                state: p.state.map(|s| typed(s, &checkpoint_path)).transpose()?,
                job: p.job,
                next_chunk: p.next_chunk,
                bytes: p.bytes,
                crc: p.crc,
                seal: p.seal,
            }),
            // Nothing at all there (a .done left without its file describes nothing).
            (false, None) if !path.exists() => Opened::Fresh,
            // No run under way here: a finished result of this job is left as it is (with or
            // without --resume), anything else that is there is refused, never written over.
            (_, None) => match read_json::<Done<Value>>(&done_path)? {
                Some(d) if &d.job != job => {
                    return Err(ResumeError::OtherJob {
                        path: path.to_path_buf(),
                        differ: differences(&d.job, job),
                    });
                }
                Some(d) => match d.differs(path) {
                    Some(why) => {
                        return Err(ResumeError::Changed {
                            path: path.to_path_buf(),
                            why,
                        });
                    }
                    None => Opened::Finished(Done {
                        state: typed(d.state, &done_path)?,
                        job: d.job,
                        chunks: d.chunks,
                        rows: d.rows,
                        bytes: d.bytes,
                        crc: d.crc,
                        seal: d.seal,
                    }),
                },
                None if resume && path.exists() => {
                    return Err(ResumeError::NoCheckpoint(path.to_path_buf()));
                }
                None if occupied(path) => return Err(ResumeError::Exists(path.to_path_buf())),
                None => Opened::Fresh,
            },
        };
        let mut out = ResumableFile {
            path: path.to_path_buf(),
            checkpoint_path,
            job: job.clone(),
            target: Target::Parts,
            crc: 0,
            hashed: 0,
        };
        if matches!(opened, Opened::Finished(_)) {
            return Ok((out, opened));
        }
        // The file changes from here: an old .done no longer describes it.
        remove_if_there(&done_path)?;
        if matches!(opened, Opened::Fresh) {
            // A fresh start is itself a checkpoint, so that --resume after an early kill works;
            // written first, so that a place where it cannot be written is refused before the
            // result file is made.
            out.write_checkpoint::<S>(0, 0, None)?;
        }
        let keep = match &opened {
            Opened::Resumed(p) if parts => p.next_chunk,
            Opened::Resumed(p) => p.bytes,
            _ => 0,
        };
        if let Opened::Resumed(p) = &opened {
            // The rows kept must be the ones the checkpoint recorded: a part deleted, a row
            // edited in place is found here, before the run goes on from them.
            let kept = match fs::metadata(path) {
                Ok(m) if !parts && m.len() < keep => {
                    return Err(ResumeError::Truncated(path.to_path_buf()));
                }
                Ok(_) => contents_crc(path, parts, 0, 0, keep).map_err(io_err(path))?,
                Err(e) => return Err(io_err(path)(e)),
            };
            if p.crc.is_some_and(|crc| crc != kept) {
                return Err(ResumeError::Changed {
                    path: path.to_path_buf(),
                    why: "holds other rows than its checkpoint records (their checksum differs)"
                        .into(),
                });
            }
            (out.crc, out.hashed) = (kept, keep);
        }
        if parts {
            parquet::keep_parts_below(path, keep).map_err(io_err(path))?;
        } else {
            let mut file = OpenOptions::new()
                .create(true)
                .write(true)
                .truncate(false)
                .open(path)
                .map_err(io_err(path))?;
            if file.metadata().map_err(io_err(path))?.len() < keep {
                return Err(ResumeError::Truncated(path.to_path_buf()));
            }
            file.set_len(keep).map_err(io_err(path))?;
            file.seek(SeekFrom::Start(keep)).map_err(io_err(path))?;
            out.target = Target::Text(BufWriter::with_capacity(1 << 20, file));
        }
        Ok((out, opened))
    }

    /// Where text rows go; `None` for Parquet parts.
    pub fn writer(&mut self) -> Option<&mut BufWriter<File>> {
        match &mut self.target {
            Target::Text(file) => Some(file),
            Target::Parts => None,
        }
    }

    /// Where the part file of `chunk` goes, for Parquet; `None` for text.
    pub fn part_path(&self, chunk: u64) -> Option<PathBuf> {
        match self.target {
            Target::Text(_) => None,
            Target::Parts => Some(self.path.join(parquet::part_name(chunk))),
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes and syncs the rows of the chunks before `next_chunk`, and takes the contents'
    /// checksum on through them; the file's length (0 for parts) and that checksum.
    fn sync(&mut self, next_chunk: u64) -> Result<(u64, u32), ResumeError> {
        let failed = |source| ResumeError::Write {
            path: self.path.clone(),
            source,
        };
        let (bytes, parts, to) = match &mut self.target {
            Target::Text(file) => {
                file.flush().map_err(failed)?;
                let file = file.get_ref();
                file.sync_data().map_err(failed)?;
                let bytes = file.metadata().map_err(failed)?.len();
                (bytes, false, bytes)
            }
            Target::Parts => (0, true, next_chunk),
        };
        self.crc = contents_crc(&self.path, parts, self.crc, self.hashed, to).map_err(failed)?;
        self.hashed = to;
        Ok((bytes, self.crc))
    }

    /// Writes the checkpoint: the chunks before `next_chunk` are in the file, its first
    /// `bytes`, with `state` after them; sealed, with the contents' checksum.
    fn write_checkpoint<S: Serialize>(
        &self,
        next_chunk: u64,
        bytes: u64,
        state: Option<&S>,
    ) -> Result<(), ResumeError> {
        let mut checkpoint = Checkpoint {
            job: self.job.clone(),
            next_chunk,
            bytes,
            state,
            crc: Some(self.crc),
            seal: None,
        };
        checkpoint.seal = Some(seal_of(&checkpoint));
        write_json(&self.checkpoint_path, &checkpoint)
    }

    /// Records that every chunk before `next_chunk` is in the file, with `state` after them.
    pub fn commit<S: Serialize>(&mut self, next_chunk: u64, state: &S) -> Result<(), ResumeError> {
        let (bytes, _) = self.sync(next_chunk)?;
        self.write_checkpoint(next_chunk, bytes, Some(state))
            .map_err(ResumeError::mid_run)
    }

    /// The file is whole: it holds `rows` rows of the chunks `chunks`, with totals `state`.
    /// Writes `FILE.done`, then removes the checkpoint.
    pub fn finish<S: Serialize>(
        &mut self,
        chunks: [u64; 2],
        rows: u64,
        state: &S,
    ) -> Result<(), ResumeError> {
        let (bytes, crc) = self.sync(chunks[1])?;
        let mut done = Done {
            job: self.job.clone(),
            chunks,
            rows,
            bytes: matches!(self.target, Target::Text(_)).then_some(bytes),
            state,
            crc: Some(crc),
            seal: None,
        };
        done.seal = Some(seal_of(&done));
        write_json(&beside(&self.path, "done"), &done).map_err(ResumeError::mid_run)?;
        remove_if_there(&self.checkpoint_path).map_err(ResumeError::mid_run)
    }
}
