//! `nimseq octal quotient CODE --heap-max N`: the misère quotient of the heaps `0..=N` of a
//! code ([`crate::misere::quotient`]), as a report: order, P-portion, tame or wild, the
//! presentation, each heap's image, where the quotient grew and where its images repeat.

use std::fmt;

use serde::Serialize;

use super::code::OctalCode;
use crate::InputError;
use crate::memory::{Budget, OverBudget, human_bytes};
use crate::misere::brute::quotient_agrees;
use crate::misere::quotient::solve::MAX_QUOTIENT_ORDER;
use crate::misere::quotient::{Pretension, Quotient, QuotientError, pretension_of};
use crate::misere::sums::{POSITION_BYTES, code_moves, positions_below};
use crate::output::progress_bar;

/// The largest `--heap-max`: the engine's walk over sums recurses once per heap size.
pub const MAX_HEAP: usize = 4096;

/// The default bound on a trial monoid's elements (`--max-order`).
pub const DEFAULT_MAX_ORDER: u64 = 1 << 20;

/// Bytes a trial monoid may take per element (its marks, P-portion and classes), and one
/// heap's options per pair of heaps they may leave.
const ELEMENT_BYTES: u64 = 16;
const OPTION_BYTES: u64 = 48;

/// Everything `octal quotient` shows.
#[derive(Clone, Debug, Serialize)]
pub struct QuotientReport {
    pub code: String,
    pub heap_max: usize,
    pub order: usize,
    pub p_portion: usize,
    pub tame: bool,
    /// `{name, heap}`: the generators and the heap each is the image of.
    pub generators: Vec<Generator>,
    /// `"left = right"`: the relations, each a least word that is not a normal form.
    pub relations: Vec<String>,
    /// The elements of the P-portion, as normal forms.
    pub p_elements: Vec<String>,
    /// The pretending function: the image of each heap `0..=heap_max`, as a normal form.
    pub heaps: Vec<String>,
    /// The quotient's order once each heap `0..=heap_max` is in.
    pub orders: Vec<usize>,
    /// The heaps that changed the quotient.
    pub expansion_heaps: Vec<usize>,
    /// The least period of the images, seen over at least two periods before the bound, proved
    /// where the bound is far enough, or `null`.
    pub period: Option<ObservedPeriod>,
    /// The sums the game tree was searched for (`--check-total`), or `null`.
    pub checked: Option<TreeCheck>,
}

/// The quotient held against the game tree: it gave the tree's outcome on every one of `sums`
/// sums of heaps (each at most the bound) with a total of at most `total`.
#[derive(Clone, Debug, Serialize)]
pub struct TreeCheck {
    pub total: usize,
    pub sums: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Generator {
    pub name: String,
    pub heap: usize,
}

/// The least period of the images and where it starts, seen to the bound; proved for every
/// heap when the bound reaches `proof_from` (docs/misere.md, Theorem 8).
#[derive(Clone, Debug, Serialize)]
pub struct ObservedPeriod {
    pub period: usize,
    pub from: usize,
    pub proved: bool,
    /// The heap bound that proves it (`null` for a code the theorem does not cover).
    pub proof_from: Option<usize>,
}

/// Why a quotient report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum QuotientReportError {
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    OverBudget(#[from] OverBudget),
    #[error("{code}: {why}")]
    Engine { code: String, why: QuotientError },
    #[error(
        "{code}: the quotient says {said} where the game tree says {tree} for the sum {sum}: \
         a bug in nimseq, please report it"
    )]
    Disagrees {
        code: String,
        sum: String,
        said: &'static str,
        tree: &'static str,
    },
}

impl QuotientReportError {
    /// A trial over `--max-order` is the user's to raise; an engine that gets stuck is not.
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            QuotientReportError::Input(_)
                | QuotientReportError::OverBudget(_)
                | QuotientReportError::Engine {
                    why: QuotientError::TooLarge { .. },
                    ..
                }
        )
    }
}

/// Bytes the quotient of `code` to `heap_max` may take with trials of up to `max_order`
/// elements: the heaps' options (a move leaves at most `max_heaps` heaps, so a heap has at
/// most about `n^(max_heaps - 1)` options per digit), one trial's vectors and the largest
/// quotient table kept.
pub fn memory(code: &OctalCode, heap_max: usize, max_order: u64) -> u64 {
    let digits = code.digits().len() as u64;
    let n = heap_max as u64;
    let per_heap = match code.max_heaps() {
        0 | 1 => digits,
        2 => digits.saturating_mul(n / 2 + 1),
        _ => digits.saturating_mul((n / 2 + 1).saturating_pow(2)),
    };
    let table = (MAX_QUOTIENT_ORDER as u64).pow(2) * 4;
    n.saturating_add(1)
        .saturating_mul(per_heap)
        .saturating_mul(OPTION_BYTES)
        .saturating_add(max_order.saturating_mul(ELEMENT_BYTES))
        .saturating_add(table)
}

/// The quotient the outcomes of a position or of single heaps were read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct QuotientUsed {
    pub heap_max: usize,
    pub order: usize,
    pub p_portion: usize,
}

impl QuotientUsed {
    /// `q`, the quotient of the heaps up to `heap_max`.
    pub fn of(q: &Pretension, heap_max: usize) -> Self {
        QuotientUsed {
            heap_max,
            order: q.order(),
            p_portion: q.p_portion(),
        }
    }
}

impl fmt::Display for QuotientUsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the misère quotient of the heaps up to {} (order {}, P-portion {})",
            self.heap_max, self.order, self.p_portion
        )
    }
}

/// The proved pretending function and P-portion of the heaps up to `heap_max` of `code`, with
/// trials of up to [`DEFAULT_MAX_ORDER`] elements, for the commands that answer positions from
/// it; `Err` says in words why there is none (a heap past [`MAX_HEAP`], over `budget`, or the
/// engine gave up).
pub fn pretension_within(
    code: &OctalCode,
    heap_max: usize,
    budget: Budget,
) -> Result<Pretension, String> {
    let needed = memory(code, heap_max, DEFAULT_MAX_ORDER);
    if heap_max == 0 {
        return Err("no heap to build it from".into());
    }
    if heap_max > MAX_HEAP {
        return Err(format!(
            "heap {heap_max} is past the quotient's bound {MAX_HEAP}"
        ));
    }
    if !budget.fits(needed) {
        return Err(format!("it may need {}", human_bytes(needed)));
    }
    let bar = progress_bar(heap_max as u64, "heaps");
    let q = pretension_of(code_moves(code), heap_max, DEFAULT_MAX_ORDER, &bar);
    bar.finish_and_clear();
    q.map_err(|e| e.brief())
}

/// The quotient of the heaps `0..=heap_max` of `code`, refused first if it may not fit
/// `budget`; with `check_total`, held against the game tree on every sum of total up to it.
pub fn describe(
    code: &OctalCode,
    heap_max: usize,
    max_order: u64,
    check_total: Option<usize>,
    budget: Budget,
) -> Result<QuotientReport, QuotientReportError> {
    if heap_max == 0 || heap_max > MAX_HEAP {
        return Err(InputError(format!("--heap-max {heap_max} is not in 1..={MAX_HEAP}")).into());
    }
    // The game tree's memo holds every sum below the total, at most.
    let tree = check_total.map_or(0, |t| positions_below(t).saturating_mul(POSITION_BYTES));
    budget.check(
        memory(code, heap_max, max_order).saturating_add(tree),
        || {
            let check = check_total.map_or(String::new(), |t| {
                format!(" and the game tree of every sum to --check-total {t}")
            });
            format!(
                "the misère quotient of {} to --heap-max {heap_max} (trials of up to \
                 --max-order {max_order} elements){check}",
                code.ascii()
            )
        },
    )?;
    let bar = progress_bar(heap_max as u64, "heaps");
    let q = Quotient::of(code_moves(code), heap_max, max_order, &bar);
    bar.finish_and_clear();
    let q = q.map_err(|why| QuotientReportError::Engine {
        code: code.ascii(),
        why,
    })?;
    let checked = match check_total {
        Some(total) => {
            let bar = progress_bar(positions_below(total), "sums");
            let agreed = quotient_agrees(|s| q.is_p(s), code_moves(code), heap_max, total, &bar);
            bar.finish_and_clear();
            let outcome = |p: bool| if p { "P" } else { "N" };
            let sums = agreed.map_err(|sum| QuotientReportError::Disagrees {
                code: code.ascii(),
                sum: sum.iter().map(u32::to_string).collect::<Vec<_>>().join("+"),
                said: outcome(q.is_p(&sum)),
                tree: outcome(!q.is_p(&sum)),
            })?;
            Some(TreeCheck { total, sums })
        }
        None => None,
    };
    let pres = &q.presentation;
    Ok(QuotientReport {
        code: code.to_string(),
        heap_max,
        order: q.order(),
        p_portion: q.p_portion(),
        tame: q.tame,
        generators: pres
            .generators
            .iter()
            .map(|(name, heap)| Generator {
                name: name.clone(),
                heap: *heap,
            })
            .collect(),
        relations: pres.relations.clone(),
        p_elements: pres
            .elements
            .iter()
            .zip(&q.pretension.p)
            .filter(|(_, p)| **p)
            .map(|(e, _)| e.clone())
            .collect(),
        heaps: pres.heaps.clone(),
        orders: q.steps.iter().map(|s| s.order).collect(),
        expansion_heaps: (0..q.steps.len())
            .filter(|&h| q.steps[h].expanded)
            .collect(),
        period: q.observed_period().map(|(period, from)| ObservedPeriod {
            period,
            from,
            proved: proves_period(code, period, from, heap_max),
            proof_from: proof_heaps(code, period, from),
        }),
        checked,
    })
}

/// The heap bound from which Theorem 8 of docs/misere.md proves the images' period `p` from
/// `q` for `code`: `2 max(q, 1) + 2p + t`; `None` for a code it does not cover (a move leaving
/// three heaps or more, or a digit with `!`).
fn proof_heaps(code: &OctalCode, p: usize, q: usize) -> Option<usize> {
    (code.max_heaps() <= 2 && !code.any_unequal()).then(|| 2 * q.max(1) + 2 * p + code.t())
}

/// Whether Theorem 8 proves the period `p` from `q` seen to `heap_max`.
fn proves_period(code: &OctalCode, p: usize, q: usize, heap_max: usize) -> bool {
    proof_heaps(code, p, q).is_some_and(|n| heap_max >= n)
}

impl fmt::Display for QuotientReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = if self.tame { "tame" } else { "wild" };
        writeln!(f, "game         {}", self.code)?;
        writeln!(
            f,
            "play         misère (the player who makes the last move loses)"
        )?;
        writeln!(f, "heaps        0..={}", self.heap_max)?;
        writeln!(
            f,
            "order        {} (P-portion {}), {kind}",
            self.order, self.p_portion
        )?;
        let gens: Vec<String> = self
            .generators
            .iter()
            .map(|g| format!("{}={}", g.name, g.heap))
            .collect();
        writeln!(f, "generators   {} (name=heap)", gens.join(" "))?;
        write!(f, "relations   ")?;
        for (i, r) in self.relations.iter().enumerate() {
            if i > 0 && i % 6 == 0 {
                write!(f, "\n            ")?;
            }
            write!(
                f,
                " {r}{}",
                if i + 1 < self.relations.len() {
                    ","
                } else {
                    ""
                }
            )?;
        }
        writeln!(f)?;
        writeln!(f, "P-portion    {}", self.p_elements.join(" "))?;
        let grew: Vec<String> = self
            .expansion_heaps
            .iter()
            .map(|&h| format!("{h}:{}", self.orders[h]))
            .collect();
        writeln!(f, "grew at      {} (heap:order)", grew.join(" "))?;
        match &self.period {
            Some(p) if p.proved => writeln!(
                f,
                "period       phi(n+{}) = phi(n) for every n >= {}: proved (Theorem 8: seen to heap {} >= {})",
                p.period,
                p.from,
                self.heap_max,
                p.proof_from.unwrap_or(0)
            )?,
            Some(p) => {
                let proof = match p.proof_from {
                    Some(n) => format!("--heap-max {n} proves it"),
                    None => "no proof for codes whose moves leave three heaps or have !".into(),
                };
                writeln!(
                    f,
                    "period       phi(n+{}) = phi(n) for n in [{}, {}]; observed, not proved ({proof})",
                    p.period,
                    p.from,
                    self.heap_max - p.period
                )?
            }
            None => writeln!(
                f,
                "period       none seen (two periods on 12 heaps or more) within the bound"
            )?,
        }
        if let Some(c) = &self.checked {
            writeln!(
                f,
                "checked      against the game tree: all {} sums of heaps <= {} with total <= {} agree",
                c.sums,
                self.heap_max.min(c.total),
                c.total
            )?;
        }
        write!(f, "phi")?;
        for (row, chunk) in self.heaps.chunks(10).enumerate() {
            let sep = if row == 0 {
                "          "
            } else {
                "\n             "
            };
            write!(f, "{sep}{:>3}+ {}", row * 10, chunk.join(" "))?;
        }
        Ok(())
    }
}
