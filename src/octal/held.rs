//! Values by heap size, as the engine holds them: all of them, or for a bounded run
//! (`octal stats --bounded`, docs/octal.md) a head `G(0..head)` and a tail of the last values,
//! the sizes between handed back to the system as the tail moves on.
//!
//! Both read as one slice indexed by heap size, so the engine's kernels run unchanged; the
//! bounded store maps room for every size it may hold (address space, not memory) and hands
//! back the pages between the two ends. What lies there reads as 0: the engine never reads it,
//! as it checks before each batch that every value it is to read lies in one of the two ends
//! ([`super::fast::Outside`]).

use std::ops::Deref;

/// Values of sizes `0..len`, every one held or (bounded) the two ends.
pub enum Held<T: Copy> {
    All(Vec<T>),
    #[cfg(unix)]
    Ends(Ends<T>),
}

impl<T: Copy> Held<T> {
    /// Every value held.
    pub fn all() -> Self {
        Held::All(Vec::new())
    }

    /// A bounded store resumed from a checkpoint: room for `cap` values, of which sizes below
    /// `head` are never handed back; it holds `first` from size 0 and `last` from size `from`,
    /// and sizes from the head to `dropped_to` read as handed back (as in the run that saved
    /// them). `None` where the system refuses the mapping.
    #[cfg(unix)]
    pub fn resumed_ends(
        cap: usize,
        head: usize,
        first: impl ExactSizeIterator<Item = T>,
        from: usize,
        last: impl ExactSizeIterator<Item = T>,
        dropped_to: usize,
    ) -> Option<Self> {
        assert!(
            first.len() <= from && from + last.len() <= cap,
            "a checkpoint's ends within the run"
        );
        let mut ends = Ends::new(cap, head)?;
        first.for_each(|v| ends.push(v));
        // The sizes between read as 0, as handed-back pages do: the engine reads none of them.
        ends.len = from;
        last.for_each(|v| ends.push(v));
        ends.dropped_to = dropped_to;
        Some(Held::Ends(ends))
    }

    /// Room for `more` values past the ones held.
    pub fn reserve(&mut self, more: usize) {
        match self {
            Held::All(v) => v.reserve(more),
            #[cfg(unix)]
            Held::Ends(_) => {}
        }
    }

    pub fn push(&mut self, value: T) {
        match self {
            Held::All(v) => v.push(value),
            #[cfg(unix)]
            Held::Ends(e) => e.push(value),
        }
    }

    /// The first size of the tail still held after [`Self::drop_before`]: 0 while every value
    /// is held.
    pub fn tail_from(&self) -> usize {
        match self {
            Held::All(_) => 0,
            #[cfg(unix)]
            Held::Ends(e) => e.dropped_to,
        }
    }

    /// Hands back the values of sizes from the head's end to `size` (whole pages), if this
    /// store keeps only the ends.
    pub fn drop_before(&mut self, size: usize) {
        match self {
            Held::All(_) => {}
            #[cfg(unix)]
            Held::Ends(e) => e.drop_before(size),
        }
    }
}

impl<T: Copy> Deref for Held<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Held::All(v) => v,
            #[cfg(unix)]
            Held::Ends(e) => e.as_slice(),
        }
    }
}

/// The bounded store: a private anonymous mapping of room for `cap` values, reserving no
/// swap (`MAP_NORESERVE`: address space for 2^36 sizes is more than a machine's memory),
/// whose pages between `head` and `dropped_to` are handed back (`MADV_DONTNEED`).
#[cfg(unix)]
pub struct Ends<T> {
    ptr: *mut T,
    cap: usize,
    len: usize,
    /// Sizes below it are always held.
    head: usize,
    /// Sizes from `head` to here (rounded to pages) are handed back.
    dropped_to: usize,
}

// SAFETY: `Ends` owns its mapping as a `Vec` owns its buffer; shared references only read.
#[cfg(unix)]
unsafe impl<T: Send> Send for Ends<T> {}
#[cfg(unix)]
unsafe impl<T: Sync> Sync for Ends<T> {}

#[cfg(unix)]
impl<T: Copy> Ends<T> {
    /// Room for `cap` values, of which sizes below `head` are never handed back; `None` where
    /// the system refuses the mapping.
    pub fn new(cap: usize, head: usize) -> Option<Self> {
        let bytes = cap.checked_mul(size_of::<T>())?.max(1);
        // SAFETY: a fresh private anonymous mapping, no address asked for, checked below.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        (ptr != libc::MAP_FAILED).then(|| Ends {
            ptr: ptr.cast(),
            cap,
            len: 0,
            head,
            dropped_to: 0,
        })
    }

    fn push(&mut self, value: T) {
        assert!(
            self.len < self.cap,
            "a bounded store's room is its run's length"
        );
        // SAFETY: `len < cap`: within the mapping, written by this thread alone (`&mut`).
        unsafe { self.ptr.add(self.len).write(value) };
        self.len += 1;
    }

    fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` values are written, or handed back and then read as zeros
        // (a valid `T` for the integers this holds: `u16`, `u32`).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    fn drop_before(&mut self, size: usize) {
        let page = page_size();
        let unit = size_of::<T>();
        let from = (self.head.max(self.dropped_to) * unit).next_multiple_of(page);
        let to = (size.min(self.len) * unit) / page * page;
        if to > from {
            // SAFETY: whole pages within the mapping; no slice of them is alive (`&mut self`).
            let done = unsafe {
                libc::madvise(
                    self.ptr.cast::<u8>().add(from).cast(),
                    to - from,
                    libc::MADV_DONTNEED,
                )
            };
            // Pages not handed back only cost memory; what they hold is still right.
            debug_assert_eq!(done, 0, "madvise");
            self.dropped_to = to / unit;
        }
    }
}

#[cfg(unix)]
impl<T> Drop for Ends<T> {
    fn drop(&mut self) {
        let bytes = (self.cap * size_of::<T>()).max(1);
        // SAFETY: the mapping made in `new`, of that length, unmapped once.
        unsafe { libc::munmap(self.ptr.cast(), bytes) };
    }
}

#[cfg(unix)]
fn page_size() -> usize {
    // SAFETY: sysconf reads a constant of the system.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).unwrap_or(4096).max(1)
}
