//! Memory budgets: sizes as users type them, a safe default for this machine, and the one
//! check every command makes before a large allocation.

/// Most memory one command may allocate, checked with [`Budget::check`] before each large
/// allocation: `--mem-budget`, else half the machine's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget(u64);

/// What a budget refused: `what` would need `needed` bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{what} may need {}, over the memory budget of {}; lower the range or raise --mem-budget",
    human_bytes(*needed),
    human_bytes(*budget)
)]
pub struct OverBudget {
    pub what: String,
    pub needed: u64,
    pub budget: u64,
}

impl Default for Budget {
    /// The default budget of [`Budget::from_flag`].
    fn default() -> Self {
        Budget::from_flag(None)
    }
}

impl Budget {
    /// No limit: for tests and benches that size their work themselves.
    pub const UNLIMITED: Budget = Budget(u64::MAX);

    /// A budget of `bytes`.
    pub const fn new(bytes: u64) -> Self {
        Budget(bytes)
    }

    /// The budget a `--mem-budget` flag asks for, else [`default_budget`].
    pub fn from_flag(flag: Option<u64>) -> Self {
        Budget(flag.unwrap_or_else(default_budget))
    }

    pub fn bytes(self) -> u64 {
        self.0
    }

    /// `Ok` if `needed` bytes fit; else an error naming `what()` needs them.
    pub fn check(self, needed: u64, what: impl FnOnce() -> String) -> Result<(), OverBudget> {
        if !self.fits(needed) {
            return Err(OverBudget {
                what: what(),
                needed,
                budget: self.0,
            });
        }
        Ok(())
    }

    /// Whether `needed` bytes fit.
    pub fn fits(self, needed: u64) -> bool {
        needed <= self.0
    }

    /// What is left after `used` bytes (none if they are over).
    pub fn less(self, used: u64) -> Self {
        Budget(self.0.saturating_sub(used))
    }

    /// One of `parts` equal shares (at least one part).
    pub fn share(self, parts: u64) -> Self {
        Budget(self.0 / parts.max(1))
    }
}

/// `16G`, `512M`, `64K`, `1.5G` or a plain number of bytes (binary units).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let bad = || format!("expected a size such as 16G, 512M or 1000000, got '{s}'");
    let (number, unit) = match t.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let scale: u64 = match unit
        .to_ascii_uppercase()
        .trim_end_matches("IB")
        .trim_end_matches('B')
    {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => return Err(bad()),
    };
    let x: f64 = number.trim().parse().map_err(|_| bad())?;
    if !x.is_finite() || x <= 0.0 {
        return Err(bad());
    }
    Ok((x * scale as f64) as u64)
}

/// `1536 MiB`-style sizes for messages.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut x = bytes as f64;
    let mut unit = 0;
    while x >= 1024.0 && unit + 1 < UNITS.len() {
        x /= 1024.0;
        unit += 1;
    }
    format!("{x:.1} {}", UNITS[unit])
}

/// Half of the machine's memory (from `/proc/meminfo`), or 4 GiB where that cannot be read.
pub fn default_budget() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024 / 2)
        })
        .unwrap_or(4 << 30)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_bytes("16G"), Ok(16 << 30));
        assert_eq!(parse_bytes("512MiB"), Ok(512 << 20));
        assert_eq!(parse_bytes("1.5k"), Ok(1536));
        assert_eq!(parse_bytes("1000"), Ok(1000));
        for bad in ["", "G", "-1G", "3X", "0"] {
            assert!(parse_bytes(bad).is_err(), "{bad}");
        }
        assert!(default_budget() >= 1 << 20);
    }
}
