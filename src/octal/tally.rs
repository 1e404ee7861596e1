//! What a run of one code counts over its values as they are computed (`octal seq` and
//! `stats`), which a bounded run's checkpoint saves with its state: ogsolve's checksum, the
//! values' frequencies, where the largest is first.

use std::collections::BTreeMap;

/// ogsolve's checksum as it runs over the values.
#[derive(Clone, Copy, Default)]
pub struct Fletcher {
    s0: u16,
    s1: u16,
}

impl Fletcher {
    /// Both sums in one word, as [`Self::hex`] shows them.
    pub fn pack(self) -> u32 {
        (u32::from(self.s1) << 16) | u32::from(self.s0)
    }

    pub fn unpack(word: u32) -> Self {
        Fletcher {
            s0: word as u16,
            s1: (word >> 16) as u16,
        }
    }

    pub fn add(&mut self, g: u32) {
        self.s0 = self.s0.wrapping_add(g as u16);
        self.s1 = self.s1.wrapping_add(self.s0);
    }

    /// With its 0x: eight hex digits that happen to be decimal ones stay text in a CSV reader.
    pub fn hex(self) -> String {
        format!("0x{:08x}", self.pack())
    }
}

/// What a report counts over every value computed, taken in as they are computed (a bounded
/// run no longer holds them at the end): how often each value occurs, the first size of the
/// largest, ogsolve's checksum, and (`stats`) the checksum at each power of two.
pub struct Tally {
    pub counts: Vec<u64>,
    pub max_at: usize,
    pub sum: Fletcher,
    pub at_powers: bool,
    pub checksums: Vec<(usize, Fletcher)>,
    /// Values taken in: sizes `0..taken`.
    pub taken: usize,
}

impl Tally {
    pub fn new(at_powers: bool) -> Self {
        Tally {
            counts: Vec::new(),
            max_at: 0,
            sum: Fletcher::default(),
            at_powers,
            checksums: Vec::new(),
            taken: 0,
        }
    }

    /// Takes in the values of sizes `taken..` of `g`.
    pub fn take(&mut self, g: &[u32]) {
        for (n, &v) in g.iter().enumerate().skip(self.taken) {
            let v = v as usize;
            if v >= self.counts.len() {
                self.counts.resize(v + 1, 0);
                self.max_at = n;
            }
            self.counts[v] += 1;
            self.sum.add(v as u32);
            if self.at_powers && n.is_power_of_two() {
                self.checksums.push((n, self.sum));
            }
        }
        self.taken = self.taken.max(g.len());
    }

    pub fn frequencies(&self) -> BTreeMap<u32, u64> {
        let seen = self.counts.iter().enumerate().filter(|&(_, &c)| c > 0);
        seen.map(|(v, &c)| (v as u32, c)).collect()
    }
}
