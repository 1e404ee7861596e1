//! The checkpoint of a bounded run (`octal stats --bounded --checkpoint FILE`).
//!
//! A run that holds every value saves them as it goes, and a resumed one reads them back; a
//! bounded run cannot (the values are what it runs past), so its checkpoint is the state
//! itself, taken between two steps: the values it still holds (the head and the tail), what
//! it made of those it handed back (the rare lists, the split), and the report's tallies.
//! Each state is written whole to `FILE.part`, synced, and renamed over `FILE`, so a kill at
//! any moment leaves the last whole one. The file is a table checkpoint
//! ([`crate::output::checkpoint`]: header, one record with its CRC) whose header names the
//! code and the ends, so that it resumes only the run that wrote it.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;

use super::code::OctalCode;
use super::fast::{BoundedState, Ends, Split};
use super::tally::{Fletcher, Tally};
use crate::output::checkpoint::{Checkpoint, CheckpointError, Saving};
use crate::output::resumable::beside;

/// The least time between two states written; it grows with the time a write takes, so
/// that writing stays below 1/[`WRITE_SHARE`] of the run.
const EVERY: Duration = Duration::from_secs(1);
const WRITE_SHARE: u32 = 50;

/// Where a bounded run saves its state, and when.
pub(super) struct Snapshots {
    path: PathBuf,
    identity: serde_json::Value,
    every: Duration,
    last: Instant,
}

impl Snapshots {
    /// Opens `saving` for the bounded run of `code` holding `ends`: with `--resume`, the
    /// state saved there (none if the run was killed before its first); else the file must
    /// not exist yet.
    pub(super) fn open(
        saving: Saving,
        code: &OctalCode,
        ends: Ends,
    ) -> Result<(Self, Option<(BoundedState<'static>, Tally)>), CheckpointError> {
        // The run's other checkpoint names the table as `octal`: a refusal then says which
        // flag differs, `--bounded`, and how the ends came out.
        let held = format!(
            "holding G(0..{}) and the last {} values (sized by --mem-budget and --n-max)",
            ends.head, ends.tail
        );
        let identity = json!({"table": "octal", "code": code.to_string(), "bounded": held});
        let (_, saved) = Checkpoint::open(saving.path, &identity, 32, saving.resume)?;
        let state = match saved.and_then(|s| s.steps.into_iter().last()) {
            Some((_, payload)) => {
                Some(
                    decode(&payload, ends).ok_or_else(|| CheckpointError::Foreign {
                        path: saving.path.to_path_buf(),
                        why: "a bounded run's state that does not read back".into(),
                    })?,
                )
            }
            None => None,
        };
        let snapshots = Snapshots {
            path: saving.path.to_path_buf(),
            identity,
            every: EVERY,
            last: Instant::now(),
        };
        Ok((snapshots, state))
    }

    /// Whether the next state is due.
    pub(super) fn due(&self) -> bool {
        self.last.elapsed() >= self.every
    }

    /// Writes `state` and `tally` over the state saved before.
    pub(super) fn write(
        &mut self,
        state: &BoundedState,
        tally: &Tally,
    ) -> Result<(), CheckpointError> {
        let started = Instant::now();
        let part = beside(&self.path, "part");
        crate::output::remove_if_there(&part).map_err(|source| CheckpointError::Io {
            path: part.clone(),
            source,
        })?;
        let (mut file, _) = Checkpoint::open(&part, &self.identity, 32, false)?;
        file.append(state.computed() as u64, &encode(state, tally))?;
        file.sync()?;
        std::fs::rename(&part, &self.path).map_err(|source| CheckpointError::Write {
            path: self.path.clone(),
            source,
        })?;
        self.every = EVERY.max(started.elapsed() * WRITE_SHARE);
        self.last = Instant::now();
        Ok(())
    }
}

/// Little-endian words, each list after its length.
struct Writer(Vec<u8>);

impl Writer {
    fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }

    fn usize(&mut self, x: usize) {
        self.u64(x as u64);
    }

    fn u32s(&mut self, xs: &[u32]) {
        self.usize(xs.len());
        xs.iter()
            .for_each(|x| self.0.extend_from_slice(&x.to_le_bytes()));
    }

    fn u64s(&mut self, xs: &[u64]) {
        self.usize(xs.len());
        xs.iter().for_each(|&x| self.u64(x));
    }
}

/// [`Writer`]'s words read back; `None` past the end (a list's length is checked against
/// the bytes left before anything is allocated).
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn bytes<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }

    fn u64(&mut self) -> Option<u64> {
        self.bytes().map(u64::from_le_bytes)
    }

    fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.u64()?).ok()
    }

    fn u32(&mut self) -> Option<u32> {
        u32::try_from(self.u64()?).ok()
    }

    fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.usize()?;
        (n <= self.0.len() / 4).then_some(())?;
        (0..n)
            .map(|_| self.bytes().map(u32::from_le_bytes))
            .collect()
    }

    fn u64s(&mut self) -> Option<Vec<u64>> {
        let n = self.usize()?;
        (n <= self.0.len() / 8).then_some(())?;
        (0..n).map(|_| self.u64()).collect()
    }
}

fn encode(state: &BoundedState, tally: &Tally) -> Vec<u8> {
    // Room for it all at once: a buffer grown by doubling would hold the ends twice as it
    // moves, past what the budget leaves.
    let words = state.head.len() + state.tail.len() + state.rare_pos.len() * 2;
    let longs = 32 + tally.counts.len() + tally.checksums.len() * 2;
    let mut w = Writer(Vec::with_capacity(4 * words + 8 * longs));
    w.u32s(&state.head);
    w.usize(state.from);
    w.u32s(&state.tail);
    w.usize(state.dropped_to);
    w.u64(u64::from(state.narrow));
    w.u64(match state.split {
        Split::Value => 0,
        Split::Position => 1,
    });
    w.u64(u64::from(state.mask));
    w.u32s(&state.rare_pos);
    w.u32s(&state.rare_val);
    w.u64(u64::from(state.max));
    w.u64(u64::from(state.span));
    w.usize(state.next_split);
    state.prefix.iter().for_each(|&x| w.usize(x));
    w.u64s(&tally.counts);
    w.usize(tally.max_at);
    w.u64(u64::from(tally.sum.pack()));
    w.u64(u64::from(tally.at_powers));
    w.usize(tally.checksums.len());
    for &(n, sum) in &tally.checksums {
        w.usize(n);
        w.u64(u64::from(sum.pack()));
    }
    w.usize(tally.taken);
    w.0
}

/// What [`encode`] wrote, if it reads back whole and fits `ends`.
fn decode(bytes: &[u8], ends: Ends) -> Option<(BoundedState<'static>, Tally)> {
    let mut r = Reader(bytes);
    let state = BoundedState {
        head: r.u32s()?.into(),
        from: r.usize()?,
        tail: r.u32s()?.into(),
        dropped_to: r.usize()?,
        narrow: r.u64()? != 0,
        split: match r.u64()? {
            0 => Split::Value,
            1 => Split::Position,
            _ => return None,
        },
        mask: r.u32()?,
        rare_pos: r.u32s()?.into(),
        rare_val: r.u32s()?.into(),
        max: r.u32()?,
        span: r.u32()?,
        next_split: r.usize()?,
        prefix: [r.usize()?, r.usize()?, r.usize()?],
    };
    let mut tally = Tally::new(false);
    tally.counts = r.u64s()?;
    tally.max_at = r.usize()?;
    tally.sum = Fletcher::unpack(r.u32()?);
    tally.at_powers = r.u64()? != 0;
    let checksums = r.usize()?;
    (checksums <= r.0.len() / 16).then_some(())?;
    for _ in 0..checksums {
        let n = r.usize()?;
        tally.checksums.push((n, Fletcher::unpack(r.u32()?)));
    }
    tally.taken = r.usize()?;
    let fits = r.0.is_empty()
        && state.head.len() == state.computed().min(ends.head)
        && state.from >= state.head.len()
        && state.rare_pos.len() == state.rare_val.len()
        && tally.taken == state.computed();
    fits.then_some((state, tally))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state and its tallies read back as they were written; anything cut or added is
    /// refused.
    #[test]
    fn states_read_back() {
        let ends = Ends { head: 4, tail: 6 };
        let state = BoundedState {
            head: vec![0, 1, 2, 3].into(),
            from: 9,
            tail: vec![7, 8, 1].into(),
            dropped_to: 9,
            narrow: true,
            split: Split::Position,
            mask: 0x7b8,
            rare_pos: vec![1, 5].into(),
            rare_val: vec![1, 70_000].into(),
            max: 70_000,
            span: 1 << 17,
            next_split: 16,
            prefix: [64, 3, 2],
        };
        let mut tally = Tally::new(true);
        tally.take(&[0, 1, 2, 3, 0, 0, 0, 0, 0, 7, 8, 1]);
        let bytes = encode(&state, &tally);
        let (back, back_tally) = decode(&bytes, ends).expect("reads back");
        assert_eq!(back, state);
        assert_eq!(encode(&back, &back_tally), bytes);
        assert_eq!(back_tally.taken, 12);
        assert!(decode(&bytes[..bytes.len() - 1], ends).is_none());
        assert!(decode(&[&bytes[..], &[0]].concat(), ends).is_none());
        assert!(decode(&bytes, Ends { head: 3, tail: 6 }).is_none());
    }
}
