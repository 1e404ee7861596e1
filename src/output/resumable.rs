//! A result file that survives interruption.
//!
//! Rows are appended chunk by chunk; after each complete chunk the file is flushed and synced,
//! then `FILE.checkpoint` is replaced atomically (write a temporary file, rename) with the next
//! chunk, the file's length at that point and the caller's running state. Resuming truncates the
//! file to that length, dropping any rows of a chunk that was cut short, and goes on from the
//! recorded chunk: the finished file is byte-identical to an uninterrupted run. The checkpoint
//! goes once the last chunk is in.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

/// How the job `theirs` (written in a file) differs from `ours`, in words: `--c-max 200 there,
/// 100 here` for each flag, the command first.
pub fn differences(theirs: &Value, ours: &Value) -> String {
    let shown = |v: Option<&Value>| match v {
        None | Some(Value::Null) => "unset".to_string(),
        Some(Value::String(s)) => s.clone(),
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
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| match k.as_str() {
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
    /// Length of the file through the last complete chunk, in bytes.
    pub bytes: u64,
    /// The caller's running totals through the last complete chunk (`None` before the first).
    pub state: Option<S>,
}

/// Why a result file could not be opened or resumed; all are the user's to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ResumeError {
    #[error("cannot write '{path}'")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(
        "'{0}' holds an unfinished run; add --resume to continue it, or delete it and its .checkpoint to start over"
    )]
    Unfinished(PathBuf),
    #[error(
        "'{0}' exists but has no checkpoint to resume from: it is finished (the checkpoint goes when a run completes) or was not written by a resumable run; run without --resume to start over"
    )]
    NoCheckpoint(PathBuf),
    #[error("'{path}' was written by another run: {differ}; resume it with the same flags")]
    OtherJob { path: PathBuf, differ: String },
    #[error("'{0}' is shorter than its checkpoint says; it was changed since, so start over")]
    Truncated(PathBuf),
    #[error("cannot read checkpoint '{path}': {message}")]
    BadCheckpoint { path: PathBuf, message: String },
}

/// An open result file and its checkpoint.
pub struct ResumableFile {
    path: PathBuf,
    checkpoint_path: PathBuf,
    job: Value,
    file: BufWriter<File>,
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> ResumeError + '_ {
    move |source| ResumeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl ResumableFile {
    /// Opens `path` for the job `job`. Returns the checkpoint to resume from, if any: `None`
    /// means start at chunk 0 with an empty file.
    pub fn open<S: Serialize + DeserializeOwned>(
        path: &Path,
        job: &Value,
        resume: bool,
    ) -> Result<(Self, Option<Checkpoint<S>>), ResumeError> {
        let checkpoint_path = PathBuf::from(format!("{}.checkpoint", path.display()));
        let previous: Option<Checkpoint<S>> = match fs::read_to_string(&checkpoint_path) {
            Ok(text) => {
                Some(
                    serde_json::from_str(&text).map_err(|e| ResumeError::BadCheckpoint {
                        path: checkpoint_path.clone(),
                        message: e.to_string(),
                    })?,
                )
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(io_err(&checkpoint_path)(e)),
        };
        let resume_from = match (resume, previous) {
            (false, Some(_)) => {
                return Err(ResumeError::Unfinished(path.to_path_buf()));
            }
            (false, None) => None,
            (true, None) if path.exists() => {
                return Err(ResumeError::NoCheckpoint(path.to_path_buf()));
            }
            (true, None) => None,
            (true, Some(p)) if &p.job != job => {
                return Err(ResumeError::OtherJob {
                    path: path.to_path_buf(),
                    differ: differences(&p.job, job),
                });
            }
            (true, Some(p)) => Some(p),
        };
        let mut file = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(io_err(path))?;
        let keep = resume_from.as_ref().map_or(0, |p| p.bytes);
        if file.metadata().map_err(io_err(path))?.len() < keep {
            return Err(ResumeError::Truncated(path.to_path_buf()));
        }
        file.set_len(keep).map_err(io_err(path))?;
        file.seek(SeekFrom::Start(keep)).map_err(io_err(path))?;
        let out = ResumableFile {
            path: path.to_path_buf(),
            checkpoint_path,
            job: job.clone(),
            file: BufWriter::with_capacity(1 << 20, file),
        };
        if resume_from.is_none() {
            // A fresh start is itself a checkpoint, so that --resume after an early kill works.
            out.write_checkpoint(&Checkpoint::<S> {
                job: job.clone(),
                next_chunk: 0,
                bytes: 0,
                state: None,
            })?;
        }
        Ok((out, resume_from))
    }

    /// Where rows go.
    pub fn writer(&mut self) -> &mut BufWriter<File> {
        &mut self.file
    }

    /// Records that every chunk before `next_chunk` is in the file, with `state` after them;
    /// when `complete`, the file is whole and the checkpoint goes.
    pub fn commit<S: Serialize>(
        &mut self,
        next_chunk: u64,
        state: &S,
        complete: bool,
    ) -> Result<(), ResumeError> {
        self.file.flush().map_err(io_err(&self.path))?;
        let file = self.file.get_ref();
        file.sync_data().map_err(io_err(&self.path))?;
        if complete {
            return match fs::remove_file(&self.checkpoint_path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    Err(io_err(&self.checkpoint_path)(e))
                }
                _ => Ok(()),
            };
        }
        let bytes = file.metadata().map_err(io_err(&self.path))?.len();
        let checkpoint = Checkpoint {
            job: self.job.clone(),
            next_chunk,
            bytes,
            state: Some(state),
        };
        self.write_checkpoint(&checkpoint)
    }

    fn write_checkpoint<S: Serialize>(&self, c: &Checkpoint<S>) -> Result<(), ResumeError> {
        let tmp = self.checkpoint_path.with_extension("checkpoint.tmp");
        let text = serde_json::to_string_pretty(c).expect("checkpoints serialise");
        fs::write(&tmp, text).map_err(io_err(&tmp))?;
        fs::rename(&tmp, &self.checkpoint_path).map_err(io_err(&self.checkpoint_path))
    }
}
