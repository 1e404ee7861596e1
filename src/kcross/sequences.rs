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
use super::table::{RAW_RULES_ENGINE, Resumable, TableError, ValueTable, plan};
use crate::backend::Chosen;
use crate::gpu::segments::TablePlan;
use crate::memory::Budget;
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

impl<'a> Backend<'a> {
    /// The backend `chosen` stands for, its GPU kernel `gpu` (made on `chosen`'s adapter).
    pub fn of(chosen: &Chosen, gpu: Option<&'a KcrossGpu<'a>>) -> Self {
        match (chosen, gpu) {
            (Chosen::Reference, _) => Backend::Reference,
            (_, Some(gpu)) => Backend::Gpu(gpu),
            (_, None) => Backend::Cpu,
        }
    }
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
pub fn check_size(k: usize, n: usize, reference: bool, budget: Budget) -> Result<(), TableError> {
    if !reference {
        return plan(k, n, budget).map(drop);
    }
    if n > reference::MAX_CELLS {
        return Err(TableError::TooLong {
            n,
            limit: reference::MAX_CELLS,
            engine: RAW_RULES_ENGINE,
        });
    }
    Ok(())
}

impl Solver {
    /// A solver for boards of up to `n` cells, asked for `boards`; the engines build their
    /// table here (refused before allocating if it does not fit `budget` bytes), with a
    /// progress bar among `bars` (shown on a terminal; several tables may be built at once).
    /// The CPU table saves its levels to `checkpoint`, if given.
    pub fn new(
        k: usize,
        n: usize,
        backend: &Backend,
        budget: Budget,
        bars: &MultiProgress,
        boards: Boards,
        checkpoint: Option<Resumable>,
    ) -> Result<Self, TableError> {
        let layout = match backend {
            Backend::Reference => {
                return check_size(k, n, true, budget).map(|()| Solver::Raw { k });
            }
            Backend::Cpu | Backend::Gpu(_) => plan(k, n, budget)?,
        };
        // Rings memoise their cyclic positions in what the table leaves of the budget.
        let rest = budget.less(layout.bytes());
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
            _ => ValueTable::build_cpu_saved(layout, budget, &bar, checkpoint).map(|table| {
                Solver::Table {
                    table: Box::new(table),
                    rings: RingValues::new(rest),
                    device: None,
                }
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
    /// What it is one of, as `k=3` or `a=2`.
    pub label: String,
    /// That number (the `3` of `k=3`).
    #[serde(skip)]
    pub key: usize,
    pub values: Vec<u8>,
    /// Observed within the range, not proven.
    pub observed: Option<Period>,
}

impl Series {
    /// The series of `name = key` (`k = 3`, `a = 2`).
    pub fn new(name: &str, key: usize, values: Vec<u8>) -> Self {
        let observed = observed(&values[..]);
        Series {
            label: format!("{name}={key}"),
            key,
            values,
            observed,
        }
    }
}

/// How a [`Report`]'s values are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowLayout {
    /// One value a row (`k,n,g`; `k,a,b,g`; `k,l,g`): what data frames and SQL read.
    Long,
    /// The paper's matrix: one row per series (Table 5.1) or one column per series (5.2).
    Table,
}

/// A table of series over one index, as `kcross seq|single|ring|table` print it.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub k: String,
    /// What the values are, e.g. `G([n])`.
    pub what: String,
    /// The index the series run over (`n`, `b`, `l`).
    pub index: String,
    /// What tells the series apart: `k`, or `a` (one `k`).
    #[serde(skip)]
    pub key: String,
    pub series: Vec<Series>,
    /// Matrix orientation: one row per series (Table 5.1) or one column per series (5.2).
    #[serde(skip)]
    pub series_are_rows: bool,
    pub note: String,
}

/// A report as long rows, for JSON: `columns`, then one array per value.
#[derive(Serialize)]
struct LongReport<'a> {
    k: &'a str,
    what: &'a str,
    note: &'a str,
    columns: Vec<&'a str>,
    rows: Vec<Vec<usize>>,
    /// Each series' period, observed in the range.
    observed: Vec<(&'a str, Option<Period>)>,
}

impl Report {
    /// Series told apart by `key` (`k` or `a`) over `index`; `rows`: the matrix has one row
    /// per series.
    pub fn new(
        k: String,
        what: &str,
        index: &str,
        key: &str,
        series: Vec<Series>,
        rows: bool,
    ) -> Self {
        Report {
            k,
            what: what.to_string(),
            index: index.to_string(),
            key: key.to_string(),
            series,
            series_are_rows: rows,
            note: format!(
                "periods are observed in the range (at least {OBSERVED_REPEATS} repeats), not proven"
            ),
        }
    }

    /// The long rows' columns, and the rows.
    fn long_rows(&self) -> (Vec<&str>, Vec<Vec<usize>>) {
        let one_k: usize = self.k.parse().unwrap_or(0);
        let mut columns = vec!["k"];
        if self.key != "k" {
            columns.push(&self.key);
        }
        columns.extend([self.index.as_str(), "g"]);
        let rows = self
            .series
            .iter()
            .flat_map(|s| {
                s.values.iter().enumerate().map(move |(i, &g)| {
                    let g = usize::from(g);
                    if self.key == "k" {
                        vec![s.key, i, g]
                    } else {
                        vec![one_k, s.key, i, g]
                    }
                })
            })
            .collect();
        (columns, rows)
    }

    /// The paper's matrix, header row first; a missing value is an empty cell.
    fn matrix(&self) -> Vec<Vec<String>> {
        let width = self
            .series
            .iter()
            .map(|s| s.values.len())
            .max()
            .unwrap_or(0);
        let mut out = Vec::new();
        if self.series_are_rows {
            let mut header = vec![self.key.clone()];
            header.extend((0..width).map(|i| format!("{}={i}", self.index)));
            out.push(header);
            for s in &self.series {
                let mut row = vec![s.key.to_string()];
                row.extend(s.values.iter().map(u8::to_string));
                out.push(row);
            }
        } else {
            let mut header = vec![self.index.clone()];
            header.extend(self.series.iter().map(|s| s.label.clone()));
            out.push(header);
            for i in 0..width {
                let mut row = vec![i.to_string()];
                row.extend(
                    self.series
                        .iter()
                        .map(|s| s.values.get(i).map_or(String::new(), u8::to_string)),
                );
                out.push(row);
            }
        }
        out
    }

    /// CSV with a header, in `layout`.
    pub fn write_csv(&self, w: &mut dyn Write, layout: RowLayout) -> io::Result<()> {
        match layout {
            RowLayout::Long => {
                let (columns, rows) = self.long_rows();
                writeln!(w, "{}", columns.join(","))?;
                for row in rows {
                    let cells: Vec<String> = row.iter().map(usize::to_string).collect();
                    writeln!(w, "{}", cells.join(","))?;
                }
            }
            RowLayout::Table => {
                for row in self.matrix() {
                    writeln!(w, "{}", row.join(","))?;
                }
            }
        }
        Ok(())
    }

    /// One JSON object: long rows (`columns` and `rows`), or the series with their values.
    pub fn write_json(&self, w: &mut dyn Write, layout: RowLayout) -> io::Result<()> {
        match layout {
            RowLayout::Long => {
                let (columns, rows) = self.long_rows();
                let long = LongReport {
                    k: &self.k,
                    what: &self.what,
                    note: &self.note,
                    columns,
                    rows,
                    observed: self
                        .series
                        .iter()
                        .map(|s| (s.label.as_str(), s.observed))
                        .collect(),
                };
                serde_json::to_writer(&mut *w, &long)?;
            }
            RowLayout::Table => serde_json::to_writer(&mut *w, self)?,
        }
        writeln!(w)
    }

    /// The matrix as aligned text, with the periods under it.
    pub fn write_text(&self, w: &mut dyn Write) -> io::Result<()> {
        let matrix = self.matrix();
        let columns = matrix.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                matrix
                    .iter()
                    .filter_map(|r| r.get(c))
                    .map(String::len)
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for row in &matrix {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, &width)| format!("{cell:>width$}"))
                .collect();
            writeln!(w, "{}", cells.join(" ").trim_end())?;
        }
        writeln!(w, "{}", self.observations())
    }

    /// One line per series: the period it shows in the range.
    pub fn observations(&self) -> String {
        let lines: Vec<String> = self
            .series
            .iter()
            .map(|s| {
                let last = s.values.len().saturating_sub(1);
                let (seen, repeats) = match s.observed {
                    Some(o) => (
                        format!("period {} from {} = {}", o.period, self.index, o.preperiod),
                        format!(
                            "{:.1} repeats, ",
                            (s.values.len() - o.preperiod) as f64 / o.period as f64
                        ),
                    ),
                    None => ("no period".to_string(), String::new()),
                };
                format!(
                    "{} {}: {seen} observed for {} <= {last} ({repeats}not proven)",
                    self.what, s.label, self.index,
                )
            })
            .collect();
        lines.join("\n")
    }
}

/// The budgets the strip tables of `ks` (up to `n` cells) are built under side by side, or
/// `None` to build them one after another with the whole budget each. On the CPU each level
/// of a table ends with a core idle, and one table cannot fill both cores through its small
/// levels (side by side: 8% faster on two cores, measured); that is done where every table
/// could widen to 8 bits at the same time within `budget`, each given the room to widen.
pub fn side_by_side(
    ks: &[usize],
    n: usize,
    backend: &Backend,
    budget: Budget,
) -> Option<Vec<Budget>> {
    if !matches!(backend, Backend::Cpu) || ks.len() < 2 {
        return None;
    }
    let wide: Vec<u64> = ks
        .iter()
        .map(|&k| Layout::new(k, n).widened().bytes())
        .collect();
    let together = wide.iter().fold(0u64, |sum, &w| sum.saturating_add(w));
    (together <= budget.bytes()).then(|| wide.into_iter().map(Budget::new).collect())
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
    fn any_boards(k: usize, n: usize, backend: &Backend, budget: Budget) -> Solver {
        Solver::new(
            k,
            n,
            backend,
            budget,
            &MultiProgress::new(),
            Boards::Any,
            None,
        )
        .unwrap()
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
        let mut engine = any_boards(3, 21, &Backend::Cpu, Budget::new(1 << 30));
        let mut raw = any_boards(3, 16, &Backend::Reference, Budget::new(0));
        for (a, row) in table_5_1.iter().enumerate() {
            assert_eq!(singles(&mut engine, a, 15).unwrap(), row, "a = {a}");
            let small = singles(&mut raw, a, 15 - a).unwrap();
            assert_eq!(small, row[..small.len()], "a = {a}");
        }
        let k4 = [
            0, 1, 0, 1, 1, 0, 2, 1, 0, 1, 2, 0, 1, 1, 0, 1, 0, 0, 1, 2, 0, 1, 0, 3, 1, 2,
        ];
        let mut engine = any_boards(4, 25, &Backend::Cpu, Budget::new(1 << 30));
        assert_eq!(strips(&mut engine, 25).unwrap(), k4);
    }

    #[test]
    fn csv_layouts() {
        let series = vec![
            Series::new("a", 0, vec![0, 1]),
            Series::new("a", 1, vec![1, 1]),
        ];
        let singles = Report::new("3".into(), "G([aXb])", "b", "a", series, true);
        let csv = |report: &Report, layout| {
            let mut out = Vec::new();
            report.write_csv(&mut out, layout).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(csv(&singles, RowLayout::Table), "a,b=0,b=1\n0,0,1\n1,1,1\n");
        assert_eq!(
            csv(&singles, RowLayout::Long),
            "k,a,b,g\n3,0,0,0\n3,0,1,1\n3,1,0,1\n3,1,1,1\n"
        );
        let series = vec![
            Series::new("k", 2, vec![0, 1]),
            Series::new("k", 3, vec![0]),
        ];
        let strips = Report::new("2..3".into(), "G([n])", "n", "k", series, false);
        assert_eq!(csv(&strips, RowLayout::Table), "n,k=2,k=3\n0,0,0\n1,1,\n");
        assert_eq!(
            csv(&strips, RowLayout::Long),
            "k,n,g\n2,0,0\n2,1,1\n3,0,0\n"
        );
        let mut json = Vec::new();
        strips.write_json(&mut json, RowLayout::Long).unwrap();
        let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(json["columns"], serde_json::json!(["k", "n", "g"]));
        assert_eq!(json["rows"][1], serde_json::json!([2, 1, 1]));
        let mut text = Vec::new();
        strips.write_text(&mut text).unwrap();
        assert!(
            String::from_utf8(text)
                .unwrap()
                .starts_with("n k=2 k=3\n0   0   0\n1   1\n")
        );
    }
}
