//! What `kcross seq|single|ring|table` compute: values of families of boards from one solver
//! per `k`, with the period each series appears to have within the range (observed, not proven:
//! k-cross values have no bounded window that would certify one).

use std::io::{self, Write};

use indicatif::MultiProgress;
use serde::Serialize;

use super::board::Board;
use super::gpu::KcrossGpu;
use super::layout::Layout;
use super::reference;
use super::ring::RingValues;
use super::table::{TableError, ValueTable, plan};
use crate::gpu::segments::TablePlan;
use crate::output::progress_bar;
use crate::period::{OBSERVED_REPEATS, Period, observed};

/// Which implementation values the boards.
pub enum Backend<'a> {
    /// The raw rules on each whole board (exponential; up to 40 cells).
    Reference,
    /// The component table on all cores.
    Cpu,
    /// The component table from the GPU.
    Gpu(&'a KcrossGpu<'a>),
}

/// Values boards of one `k` up to a size.
pub enum Solver {
    Raw {
        k: usize,
    },
    Table {
        // Boxed: a layout is large beside the raw rules' one number.
        table: Box<ValueTable>,
        rings: RingValues,
        /// The table's bindings, when it was computed on the GPU.
        device: Option<TablePlan>,
    },
    /// `G([m])` only, for `m` up to the layout's `n`: what a GPU table was read back for.
    Strips {
        values: Vec<u8>,
        layout: Box<Layout>,
        device: TablePlan,
    },
}

/// Which boards a solver is asked for: a GPU table stays on the device where only empty strips
/// are (their words are read back, not the whole table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Boards {
    EmptyStrips,
    Any,
}

/// A table's size, for logs.
pub struct TableSize {
    pub states: u64,
    pub bits: u32,
    pub bytes: u64,
    /// Its bindings, for a table on the GPU.
    pub device: Option<TablePlan>,
}

/// Refuses boards of `n` cells that the raw rules (`reference`) or the table engines cannot
/// take within `budget` bytes: the checks [`Solver::new`] makes, for callers that want them
/// before choosing a GPU adapter.
pub fn check_size(k: usize, n: usize, reference: bool, budget: u64) -> Result<(), TableError> {
    if !reference {
        return plan(k, n, budget).map(drop);
    }
    if n > reference::MAX_CELLS {
        return Err(TableError::TooLong {
            n,
            limit: reference::MAX_CELLS,
        });
    }
    Ok(())
}

impl Solver {
    /// A solver for boards of up to `n` cells, asked for `boards`; the engines build their
    /// table here (refused before allocating if it does not fit `budget` bytes), with a
    /// progress bar among `bars` (shown on a terminal; several tables may be built at once).
    pub fn new(
        k: usize,
        n: usize,
        backend: &Backend,
        budget: u64,
        bars: &MultiProgress,
        boards: Boards,
    ) -> Result<Self, TableError> {
        let layout = match backend {
            Backend::Reference => {
                return check_size(k, n, true, budget).map(|()| Solver::Raw { k });
            }
            Backend::Cpu | Backend::Gpu(_) => plan(k, n, budget)?,
        };
        // Rings memoise their cyclic positions in what the table leaves of the budget.
        let rest = budget - layout.bytes();
        let bar = bars.add(progress_bar(layout.states(), "states"));
        let solver = match (backend, boards) {
            (Backend::Gpu(gpu), Boards::EmptyStrips) => {
                gpu.strips(layout, budget, &bar)
                    .map(|(values, layout, device)| Solver::Strips {
                        values,
                        layout: Box::new(layout),
                        device,
                    })
            }
            (Backend::Gpu(gpu), Boards::Any) => {
                gpu.build(layout, budget, &bar)
                    .map(|(table, device)| Solver::Table {
                        table: Box::new(table),
                        rings: RingValues::new(rest),
                        device: Some(device),
                    })
            }
            _ => ValueTable::build_cpu(layout, budget, &bar).map(|table| Solver::Table {
                table: Box::new(table),
                rings: RingValues::new(rest),
                device: None,
            }),
        };
        bar.finish_and_clear();
        solver
    }

    /// The table's size, for logs (`None` for the raw rules).
    pub fn table_size(&self) -> Option<TableSize> {
        let (layout, device) = match self {
            Solver::Raw { .. } => return None,
            Solver::Table { table, device, .. } => (&table.layout, device.clone()),
            Solver::Strips { layout, device, .. } => (&**layout, Some(device.clone())),
        };
        Some(TableSize {
            states: layout.states(),
            bits: layout.bits,
            bytes: layout.bytes(),
            device,
        })
    }

    /// `G(board)`; the board must be within the solver's size and hold no run of `k` (and be
    /// an empty strip for a solver built for [`Boards::EmptyStrips`]).
    pub fn value(&mut self, board: &Board) -> Result<u8, TableError> {
        match self {
            Solver::Raw { k } => Ok(reference::solve(board, *k).0),
            Solver::Table { table, rings, .. } if board.circular => rings.value(table, board),
            Solver::Table { table, .. } => Ok(table.strip_value(board)),
            Solver::Strips { values, .. } => {
                assert!(
                    !board.circular && !board.cells.contains(&true),
                    "a strips-only solver asked for {board}"
                );
                Ok(values[board.cells.len()])
            }
        }
    }
}

/// One sequence of values and the period it shows within its range.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    pub label: String,
    pub values: Vec<u8>,
    /// Observed within the range, not proven.
    pub observed: Option<Period>,
}

impl Series {
    pub fn new(label: String, values: Vec<u8>) -> Self {
        let observed = observed(&values);
        Series {
            label,
            values,
            observed,
        }
    }
}

/// A table of series over one index, as `kcross seq|single|ring|table` print it.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub k: String,
    /// What the values are, e.g. `G([n])`.
    pub what: String,
    /// The index the series run over (`n`, `b`, `l`).
    pub index: String,
    pub series: Vec<Series>,
    /// CSV orientation: one row per series (Table 5.1) or one column per series (Table 5.2).
    #[serde(skip)]
    pub series_are_rows: bool,
    pub note: String,
}

impl Report {
    pub fn new(k: String, what: &str, index: &str, series: Vec<Series>, rows: bool) -> Self {
        Report {
            k,
            what: what.to_string(),
            index: index.to_string(),
            series,
            series_are_rows: rows,
            note: format!(
                "periods are observed in the range (at least {OBSERVED_REPEATS} repeats), not proven"
            ),
        }
    }

    /// CSV with a header.
    pub fn write_csv(&self, w: &mut dyn Write) -> io::Result<()> {
        let width = self
            .series
            .iter()
            .map(|s| s.values.len())
            .max()
            .unwrap_or(0);
        if self.series_are_rows {
            let labels = self
                .series
                .first()
                .map_or("row", |s| s.label.split('=').next().unwrap_or("row"));
            write!(w, "{labels}")?;
            for i in 0..width {
                write!(w, ",{}={i}", self.index)?;
            }
            writeln!(w)?;
            for s in &self.series {
                let value = s.label.split('=').nth(1).unwrap_or(&s.label);
                write!(w, "{value}")?;
                for g in &s.values {
                    write!(w, ",{g}")?;
                }
                writeln!(w)?;
            }
        } else {
            write!(w, "{}", self.index)?;
            for s in &self.series {
                write!(w, ",{}", s.label)?;
            }
            writeln!(w)?;
            for i in 0..width {
                write!(w, "{i}")?;
                for s in &self.series {
                    match s.values.get(i) {
                        Some(g) => write!(w, ",{g}")?,
                        None => write!(w, ",")?,
                    }
                }
                writeln!(w)?;
            }
        }
        Ok(())
    }

    /// One line per series: the period it shows in the range.
    pub fn observations(&self) -> String {
        let lines: Vec<String> = self
            .series
            .iter()
            .map(|s| {
                let seen = match s.observed {
                    Some(o) => format!("period {} from {} = {}", o.period, self.index, o.preperiod),
                    None => "no period".to_string(),
                };
                format!(
                    "{} {}: {seen} observed for {} <= {} (not proven)",
                    self.what,
                    s.label,
                    self.index,
                    s.values.len().saturating_sub(1)
                )
            })
            .collect();
        lines.join("\n")
    }
}

/// `G([n])` for `n = 0..=n_max`.
pub fn strips(solver: &mut Solver, n_max: usize) -> Result<Vec<u8>, TableError> {
    (0..=n_max)
        .map(|n| solver.value(&Board::strip(n)))
        .collect()
}

/// `G((l))` for `l = 0..=l_max`.
pub fn rings(solver: &mut Solver, l_max: usize) -> Result<Vec<u8>, TableError> {
    (0..=l_max).map(|l| solver.value(&Board::ring(l))).collect()
}

/// `G([aXb])` for `b = 0..=b_max`, one `a`.
pub fn singles(solver: &mut Solver, a: usize, b_max: usize) -> Result<Vec<u8>, TableError> {
    (0..=b_max)
        .map(|b| {
            let mut board = Board::strip(a + 1 + b);
            board.cells[a] = true;
            solver.value(&board)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The paper's Table 5.1 (k = 3, a <= 5, b <= 15) and Table 5.2's k = 4 column, from the
    /// engine; the raw rules agree on every board of up to 16 cells.
    /// A solver for any boards of up to `n` cells.
    fn any_boards(k: usize, n: usize, backend: &Backend, budget: u64) -> Solver {
        Solver::new(k, n, backend, budget, &MultiProgress::new(), Boards::Any).unwrap()
    }

    #[test]
    fn papers_tables() {
        let table_5_1 = [
            [0, 1, 1, 0, 3, 1, 0, 0, 1, 2, 0, 1, 1, 0, 3, 1],
            [1, 1, 2, 3, 1, 2, 3, 3, 2, 3, 3, 2, 2, 3, 2, 2],
            [1, 2, 0, 1, 2, 0, 3, 1, 0, 3, 1, 2, 0, 1, 2, 0],
            [0, 3, 1, 0, 3, 1, 2, 0, 1, 2, 0, 3, 1, 0, 3, 1],
            [3, 1, 2, 3, 1, 2, 3, 3, 2, 4, 3, 2, 2, 3, 5, 2],
            [1, 2, 0, 1, 2, 0, 3, 1, 0, 3, 1, 2, 0, 1, 2, 0],
        ];
        let mut engine = any_boards(3, 21, &Backend::Cpu, 1 << 30);
        let mut raw = any_boards(3, 16, &Backend::Reference, 0);
        for (a, row) in table_5_1.iter().enumerate() {
            assert_eq!(singles(&mut engine, a, 15).unwrap(), row, "a = {a}");
            let small = singles(&mut raw, a, 15 - a).unwrap();
            assert_eq!(small, row[..small.len()], "a = {a}");
        }
        let k4 = [
            0, 1, 0, 1, 1, 0, 2, 1, 0, 1, 2, 0, 1, 1, 0, 1, 0, 0, 1, 2, 0, 1, 0, 3, 1, 2,
        ];
        let mut engine = any_boards(4, 25, &Backend::Cpu, 1 << 30);
        assert_eq!(strips(&mut engine, 25).unwrap(), k4);
    }

    #[test]
    fn csv_layouts() {
        let series = vec![
            Series::new("a=0".into(), vec![0, 1]),
            Series::new("a=1".into(), vec![1, 1]),
        ];
        let mut out = Vec::new();
        Report::new("3".into(), "G([aXb])", "b", series.clone(), true)
            .write_csv(&mut out)
            .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "a,b=0,b=1\n0,0,1\n1,1,1\n");
        let mut out = Vec::new();
        Report::new("3".into(), "G([n])", "n", series, false)
            .write_csv(&mut out)
            .unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "n,a=0,a=1\n0,0,1\n1,1,1\n");
    }
}
