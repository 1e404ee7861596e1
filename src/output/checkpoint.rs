//! Checkpoints of long table builds (k-cross levels, spider wavefronts), so that a killed run
//! goes on where it stopped.
//!
//! The file is a header, then one record per finished step, appended as soon as the step is
//! done (so a killed process loses none) and synced to disk (`fsync`) at least once a second
//! (so a machine that goes down loses a second of work at most; syncing every small step cost
//! a tenth of a spider table's time):
//!
//! * header: `NIMSEQTC`, the format version and the entry width (`u32` each, little-endian),
//!   then the length and text of a JSON object naming the table (what was asked, e.g.
//!   `{"table":"kcross","k":13,"n":33}`);
//! * record: the step (`u64`), the payload's length (`u64`), the payload, and the CRC-32 of
//!   all three.
//!
//! On resume the header must name the same table (else an error says which setting differs)
//! and every record is checked against its CRC; a record cut short by a kill is dropped, and
//! the build redoes that step. The finished output is byte-identical to an uninterrupted run.

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::resumable::differences;

const MAGIC: &[u8; 8] = b"NIMSEQTC";
const VERSION: u32 = 1;
/// A header's JSON above this is not one nimseq wrote.
const MAX_HEADER: u32 = 1 << 16;

/// Why a checkpoint could not be used; all are the user's to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    #[error("cannot write checkpoint '{path}': {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// Appending a record failed mid-run (a full disk, a file size limit): a failure, not bad
    /// input.
    #[error("writing checkpoint '{path}' failed")]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error(
        "'{0}' holds an unfinished run; add --resume to continue it, or delete it to start over"
    )]
    Unfinished(PathBuf),
    #[error("'{path}' is not a nimseq table checkpoint ({why}); delete it to start over")]
    Foreign { path: PathBuf, why: String },
    #[error(
        "'{path}' is the checkpoint of another table: {differ}; resume it with those flags, or delete it"
    )]
    OtherTable { path: PathBuf, differ: String },
}

impl CheckpointError {
    /// Whether the user is to fix it (exit code 2): everything but a write that failed mid-run.
    pub fn is_refusal(&self) -> bool {
        !matches!(self, CheckpointError::Write { .. })
    }
}

/// A checkpoint a run saves its finished steps to, and resumes from.
#[derive(Clone, Copy, Debug)]
pub struct Saving<'a> {
    pub path: &'a Path,
    /// Continue the run saved there (else the file must not exist yet).
    pub resume: bool,
}

/// An open checkpoint, being appended to.
pub struct Checkpoint {
    path: PathBuf,
    file: File,
    synced: Instant,
}

/// Longest time appended records wait for their `fsync`.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// What a resumed checkpoint holds: its entry width and the records, verified, in order.
pub struct Saved {
    pub width: u32,
    pub steps: Vec<(u64, Vec<u8>)>,
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> CheckpointError + '_ {
    move |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Checkpoint {
    /// Starts `path` for the table `identity` at entry width `width`, or, with `resume`,
    /// reopens it: then the steps saved so far come back (checked), and new records follow
    /// them. Resuming where there is no file yet starts one (a run killed before it got to
    /// this table).
    pub fn open(
        path: &Path,
        identity: &Value,
        width: u32,
        resume: bool,
    ) -> Result<(Self, Option<Saved>), CheckpointError> {
        if !resume || !path.exists() {
            if path.exists() {
                return Err(CheckpointError::Unfinished(path.to_path_buf()));
            }
            let file = File::create(path).map_err(io_err(path))?;
            let mut checkpoint = Checkpoint {
                path: path.to_path_buf(),
                file,
                synced: Instant::now(),
            };
            checkpoint.restart(identity, width)?;
            return Ok((checkpoint, None));
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io_err(path))?;
        let (saved, good_len) = read(path, &file, identity)?;
        // Whatever follows the last good record was cut short: it goes.
        file.set_len(good_len).map_err(io_err(path))?;
        let mut checkpoint = Checkpoint {
            path: path.to_path_buf(),
            file,
            synced: Instant::now(),
        };
        checkpoint
            .file
            .seek(SeekFrom::Start(good_len))
            .map_err(io_err(path))?;
        Ok((checkpoint, Some(saved)))
    }

    /// Empties the file and writes a header for `identity` at `width` (a table that widened
    /// starts its records again).
    pub fn restart(&mut self, identity: &Value, width: u32) -> Result<(), CheckpointError> {
        let json = identity.to_string();
        let mut header = Vec::with_capacity(20 + json.len());
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&width.to_le_bytes());
        header.extend_from_slice(&(json.len() as u32).to_le_bytes());
        header.extend_from_slice(json.as_bytes());
        let path = self.path.clone();
        self.file.set_len(0).map_err(io_err(&path))?;
        self.file.seek(SeekFrom::Start(0)).map_err(io_err(&path))?;
        self.file.write_all(&header).map_err(io_err(&path))?;
        self.file.sync_data().map_err(io_err(&path))
    }

    /// Appends the record of a finished step, synced to disk if the last sync is a second old.
    pub fn append(&mut self, step: u64, payload: &[u8]) -> Result<(), CheckpointError> {
        let mut head = [0u8; 16];
        head[..8].copy_from_slice(&step.to_le_bytes());
        head[8..].copy_from_slice(&(payload.len() as u64).to_le_bytes());
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&head);
        hasher.update(payload);
        let crc = hasher.finalize().to_le_bytes();
        let failed = |source| CheckpointError::Write {
            path: self.path.clone(),
            source,
        };
        // In three writes, with no copy of the payload (a bounded run's state is its ends):
        // a record cut between them fails its CRC on reading, as one cut inside a write does.
        for part in [&head[..], payload, &crc] {
            self.file.write_all(part).map_err(failed)?;
        }
        if self.synced.elapsed() >= SYNC_EVERY {
            self.file.sync_data().map_err(failed)?;
            self.synced = Instant::now();
        }
        Ok(())
    }

    /// Syncs what was appended to disk now (a file about to be renamed into place).
    pub fn sync(self) -> Result<(), CheckpointError> {
        self.file
            .sync_data()
            .map_err(|source| CheckpointError::Write {
                path: self.path.clone(),
                source,
            })
    }
}

/// The command that wrote the checkpoint at `path` is done with it: it goes (if it is there).
pub fn remove(path: &Path) -> Result<(), CheckpointError> {
    super::remove_if_there(path).map_err(io_err(path))
}

/// The header and records of `file`, checked against `identity`; and the length up to the
/// end of the last good record.
fn read(path: &Path, file: &File, identity: &Value) -> Result<(Saved, u64), CheckpointError> {
    let foreign = |why: &str| CheckpointError::Foreign {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    let mut r = BufReader::new(file);
    let mut fixed = [0u8; 20];
    r.read_exact(&mut fixed)
        .map_err(|_| foreign("shorter than a header"))?;
    let word = |i: usize| u32::from_le_bytes(fixed[i..i + 4].try_into().expect("4 bytes"));
    if &fixed[..8] != MAGIC {
        return Err(foreign("no nimseq header"));
    }
    if word(8) != VERSION {
        return Err(foreign(&format!(
            "format version {}, this nimseq reads {VERSION}",
            word(8)
        )));
    }
    let (width, json_len) = (word(12), word(16));
    if json_len > MAX_HEADER {
        return Err(foreign("a header too long"));
    }
    let mut json = vec![0u8; json_len as usize];
    r.read_exact(&mut json)
        .map_err(|_| foreign("a header cut short"))?;
    let theirs: Value =
        serde_json::from_slice(&json).map_err(|_| foreign("a header that is not JSON"))?;
    if &theirs != identity {
        return Err(CheckpointError::OtherTable {
            path: path.to_path_buf(),
            differ: differences(&theirs, identity),
        });
    }
    let file_len = file.metadata().map_err(io_err(path))?.len();
    let mut good = 20 + u64::from(json_len);
    let mut steps = Vec::new();
    loop {
        let mut head = [0u8; 16];
        if r.read_exact(&mut head).is_err() {
            break;
        }
        let step = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
        let len = u64::from_le_bytes(head[8..].try_into().expect("8 bytes"));
        // A length past the file's end is a record cut short (or garbage): never allocated.
        if len > file_len.saturating_sub(good + 20) {
            break;
        }
        let mut payload = vec![0u8; len as usize];
        let mut crc = [0u8; 4];
        if r.read_exact(&mut payload).is_err() || r.read_exact(&mut crc).is_err() {
            break;
        }
        let mut hasher = crc32fast::Hasher::new();
        hasher.update(&head);
        hasher.update(&payload);
        if hasher.finalize() != u32::from_le_bytes(crc) {
            break;
        }
        good += 20 + len;
        steps.push((step, payload));
    }
    Ok((Saved { width, steps }, good))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// Records come back in order; a cut record is dropped; another table is refused in words.
    #[test]
    fn records_survive_a_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.ckpt");
        let id = serde_json::json!({"table": "kcross", "k": 3, "n": 20});
        let (mut c, saved) = Checkpoint::open(&path, &id, 4, false).unwrap();
        assert!(saved.is_none());
        c.append(1, b"level one").unwrap();
        c.append(2, b"level two").unwrap();
        drop(c);
        // A kill in the middle of the third record.
        let len = fs::metadata(&path).unwrap().len();
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(&3u64.to_le_bytes()).unwrap();
        f.write_all(&100u64.to_le_bytes()).unwrap();
        f.write_all(b"cut").unwrap();
        drop(f);
        assert!(matches!(
            Checkpoint::open(&path, &id, 4, false),
            Err(CheckpointError::Unfinished(_))
        ));
        let (c, saved) = Checkpoint::open(&path, &id, 4, true).unwrap();
        let saved = saved.unwrap();
        assert_eq!(saved.width, 4);
        assert_eq!(
            saved.steps,
            vec![(1, b"level one".to_vec()), (2, b"level two".to_vec())]
        );
        assert_eq!(fs::metadata(&path).unwrap().len(), len);
        drop(c);
        let other = serde_json::json!({"table": "kcross", "k": 4, "n": 20});
        let err = Checkpoint::open(&path, &other, 4, true).err().unwrap();
        assert!(err.to_string().contains("--k 3 there, 4 here"), "{err}");
        // A flipped byte fails its CRC: that record and those after it are redone.
        let mut bytes = fs::read(&path).unwrap();
        let at = bytes.len() - 6;
        bytes[at] ^= 1;
        fs::write(&path, bytes).unwrap();
        let (c, saved) = Checkpoint::open(&path, &id, 4, true).unwrap();
        assert_eq!(saved.unwrap().steps.len(), 1);
        drop(c);
        remove(&path).unwrap();
        assert!(!path.exists());
        // Nothing to resume: a fresh start.
        let (_, saved) = Checkpoint::open(&path, &id, 4, true).unwrap();
        assert!(saved.is_none() && path.exists());
    }
}
