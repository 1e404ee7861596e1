//! One code's row of `nimseq octal scan`: its certified period and pre-period (or none), how
//! far it was computed, its largest value, rare count and ogsolve's checksum, from values of
//! either CPU solver or of the GPU (`super::gpu` hands its values here).

use indicatif::ProgressBar;
use serde::Serialize;

use super::code::OctalCode;
use super::fast::best_split;
use super::reference;
use super::seq::{Certificate, OctalError, Room, Run, certify_prefix, checksum, look_lengths};
use crate::memory::{Budget, OverBudget};
use crate::output::Field;
use crate::output::Row;
use crate::output::parquet::{Column, Kind};
use crate::period::observed_arithmetic;

/// Which CPU solver computes a code's row; both give identical rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum ScanBackend {
    /// The plain rule, O(n^2) a code.
    Reference,
    /// The rare/common split.
    Cpu,
}

/// One code's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OctalRow {
    pub code: String,
    /// The certified least period and pre-period; none for a code unsettled by `n_max`.
    pub period: Option<usize>,
    pub preperiod: Option<usize>,
    /// The length of the prefix that certified them.
    pub certified_at: Option<usize>,
    /// Values computed: the prefix that certified the period, or all `n_max` for a code not
    /// settled (how far the search got).
    pub computed: usize,
    /// The largest value of the prefix computed (for a settled code, of all its values).
    pub max_value: u32,
    /// The fewest rare sizes any split gives the prefix computed (docs/octal.md, "Making it
    /// fast"): a
    /// property of the values, the same whichever solver found them.
    pub rare_count: u64,
    /// ogsolve's checksum of `G(0..n_max)`, past a certified prefix by its period.
    pub checksum: String,
    /// For a code not settled: the arithmetic period `G(n + p) = G(n) + s` the values show
    /// (saltus 0 for a plain period), observed over those computed, not proved; a column each,
    /// all three set or none.
    pub observed_period: Option<usize>,
    pub observed_preperiod: Option<usize>,
    pub observed_saltus: Option<u32>,
}

/// The Parquet types of the columns of [`OctalRow::CSV_HEADER`].
pub const COLUMNS: [Column; 11] = [
    Column::required(Kind::Text),
    Column::optional(Kind::U32),
    Column::optional(Kind::U32),
    Column::optional(Kind::U32),
    Column::required(Kind::U32),
    Column::required(Kind::U32),
    Column::required(Kind::U64),
    Column::required(Kind::Text),
    Column::optional(Kind::U32),
    Column::optional(Kind::U32),
    Column::optional(Kind::U32),
];

impl OctalRow {
    pub const CSV_HEADER: &'static str = "code,period,preperiod,certified_at,computed,max_value,\
        rare_count,checksum,observed_period,observed_preperiod,observed_saltus";
}

impl Row for OctalRow {
    fn fields(&self, out: &mut dyn FnMut(Field<'_>)) {
        let number = |x: Option<usize>| x.map_or(Field::Missing, |x| Field::Unsigned(x as u64));
        out(Field::Text(&self.code));
        out(number(self.period));
        out(number(self.preperiod));
        out(number(self.certified_at));
        out(Field::Unsigned(self.computed as u64));
        out(Field::Unsigned(self.max_value.into()));
        out(Field::Unsigned(self.rare_count));
        out(Field::Text(&self.checksum));
        out(number(self.observed_period));
        out(number(self.observed_preperiod));
        out(number(self.observed_saltus.map(|s| s as usize)));
    }
}

/// The row of `code`: values computed by `backend` at each length a period is looked for,
/// until one is certified or `n_max` is reached. The fast path's pair bitsets (three heaps)
/// grow with the values: they are held to `budget` a step at a time.
pub fn solve(
    code: &OctalCode,
    n_max: usize,
    backend: ScanBackend,
    budget: Budget,
) -> Result<OctalRow, OctalError> {
    let room = Room {
        code,
        target: n_max,
        shown: 0,
        budget,
        ends: None,
    };
    let quiet = ProgressBar::hidden();
    let mut run = Run::unsaved(code, room, &quiet);
    let mut reference_values = Vec::new();
    for at in look_lengths(code, n_max) {
        let g = match backend {
            ScanBackend::Cpu => {
                run.extend_until(at, None)?;
                run.values()
            }
            ScanBackend::Reference => {
                reference_values = reference::values(code, at);
                &reference_values
            }
        };
        if let Some(c) = certify_prefix(code, g) {
            return Ok(row(code, g, Some((c, at)), n_max));
        }
    }
    let g = match backend {
        ScanBackend::Cpu => run.values(),
        ScanBackend::Reference => &reference_values,
    };
    Ok(row(code, g, None, n_max))
}

/// [`solve`] for one of `at_once` codes solved together within `budget`: each held to an
/// equal share, a refusal told for all of them.
pub fn solve_shared(
    code: &OctalCode,
    n_max: usize,
    backend: ScanBackend,
    budget: Budget,
    at_once: usize,
) -> Result<OctalRow, OctalError> {
    let at_once = at_once.max(1) as u64;
    solve(code, n_max, backend, budget.share(at_once)).map_err(|e| match e {
        OctalError::OverBudget(e) if at_once > 1 => OverBudget {
            what: format!("{}, {at_once} codes at once,", e.what),
            needed: e.needed.saturating_mul(at_once),
            budget: budget.bytes(),
        }
        .into(),
        e => e,
    })
}

/// The row of `code` from its values `g`, certified (with the length that did it) or not.
pub fn row(
    code: &OctalCode,
    g: &[u32],
    found: Option<(Certificate, usize)>,
    n_max: usize,
) -> OctalRow {
    let mut all = g.to_vec();
    if let Some((c, _)) = &found {
        // Certified: every later value repeats the one a period back.
        for n in all.len()..n_max {
            all.push(all[n - c.period]);
        }
    }
    let observed = found.is_none().then(|| observed_arithmetic(g)).flatten();
    OctalRow {
        code: code.to_string(),
        period: found.as_ref().map(|(c, _)| c.period),
        preperiod: found.as_ref().map(|(c, _)| c.preperiod),
        certified_at: found.as_ref().map(|&(_, at)| at),
        computed: g.len(),
        max_value: g.iter().copied().max().unwrap_or(0),
        rare_count: best_split(g, code.t(), code.splits_only_last()).2,
        checksum: checksum(&all[..n_max]),
        observed_period: observed.map(|a| a.period),
        observed_preperiod: observed.map(|a| a.preperiod),
        observed_saltus: observed.map(|a| a.saltus),
    }
}
