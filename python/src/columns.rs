//! A scan's rows as typed columns: the fields the command line would spell as CSV
//! ([`Field`]), gathered column by column, with no text made or read.

use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use nimseq::output::Field;

/// One column's values, typed by its first field that is not missing.
enum Values {
    /// Only missing fields so far: this many.
    Unknown(usize),
    U32(Vec<u32>),
    U64(Vec<u64>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
    Text(Vec<String>),
}

struct Column {
    name: String,
    values: Values,
    /// `true` where a field was missing; made at the first one.
    missing: Option<Vec<bool>>,
}

/// Rows gathered into columns, field by field, in header order.
pub struct Columns {
    columns: Vec<Column>,
    /// Rows expected, to size each column once.
    rows: usize,
    /// The column the next field belongs to.
    next: usize,
    /// A field that does not fit its column (a bug in a row type): the first one, reported
    /// when the columns are handed over.
    mixed: Option<String>,
}

impl Columns {
    /// The most bytes columns named by `header` take for `rows` rows: 8 a number (`u64` and
    /// `i64` the widest), 40 a text (a `String` and its few characters), 1 more for the mask of
    /// missing values.
    pub fn bytes(header: &str, rows: u64) -> u64 {
        let row: u64 = header
            .split(',')
            .map(|name| match name {
                "code" | "checksum" => 40 + 1,
                _ => 8 + 1,
            })
            .sum();
        rows.saturating_mul(row)
    }

    /// Columns named by a CSV `header`, for about `rows` rows.
    pub fn new(header: &str, rows: u64) -> Self {
        Columns {
            columns: header
                .split(',')
                .map(|name| Column {
                    name: name.to_string(),
                    values: Values::Unknown(0),
                    missing: None,
                })
                .collect(),
            rows: usize::try_from(rows).unwrap_or(0),
            next: 0,
            mixed: None,
        }
    }

    /// Takes the next field of the row being read.
    pub fn push(&mut self, field: Field<'_>) {
        let (rows, width) = (self.rows, self.columns.len());
        let column = &mut self.columns[self.next];
        self.next = (self.next + 1) % width;
        if let Err(why) = column.push(field, rows) {
            self.mixed.get_or_insert(why);
        }
    }

    /// The columns as a dict of NumPy arrays (text as lists of `str`), in header order; a
    /// column with missing values as `(values, mask)`, which the Python side makes a masked
    /// array.
    pub fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        if let Some(why) = self.mixed {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(why));
        }
        if self.next != 0 {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "the scan's last row is incomplete",
            ));
        }
        let dict = PyDict::new(py);
        for column in self.columns {
            let values = match column.values {
                // Every field missing: zeros under a full mask.
                Values::Unknown(n) => vec![0u32; n].into_pyarray(py).into_any(),
                Values::U32(v) => v.into_pyarray(py).into_any(),
                Values::U64(v) => v.into_pyarray(py).into_any(),
                Values::I64(v) => v.into_pyarray(py).into_any(),
                Values::Bool(v) => v.into_pyarray(py).into_any(),
                Values::Text(v) => v.into_pyobject(py)?.into_any(),
            };
            match column.missing {
                None => dict.set_item(column.name, values)?,
                Some(mask) => dict.set_item(column.name, (values, mask.into_pyarray(py)))?,
            }
        }
        Ok(dict)
    }
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::Unknown(n) => *n,
            Values::U32(v) => v.len(),
            Values::U64(v) => v.len(),
            Values::I64(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::Text(v) => v.len(),
        }
    }

    /// Values of the type of `field`, `len` zeros first, room for `rows`.
    fn of(field: &Field<'_>, len: usize, rows: usize) -> Values {
        fn zeros<T: Clone + Default>(len: usize, rows: usize) -> Vec<T> {
            let mut v = Vec::with_capacity(rows.max(len));
            v.resize(len, T::default());
            v
        }
        match field {
            Field::Unsigned(_) | Field::Missing => Values::U32(zeros(len, rows)),
            Field::Signed(_) => Values::I64(zeros(len, rows)),
            Field::Bool(_) => Values::Bool(zeros(len, rows)),
            Field::Text(_) => Values::Text(zeros(len, rows)),
        }
    }
}

impl Column {
    /// Appends `field`; an error if its type is not the column's.
    fn push(&mut self, field: Field<'_>, rows: usize) -> Result<(), String> {
        let row = self.values.len();
        let missing = field == Field::Missing;
        if missing {
            self.missing
                .get_or_insert_with(|| vec![false; row])
                .push(true);
        } else if let Some(mask) = &mut self.missing {
            mask.push(false);
        }
        if let Values::Unknown(n) = self.values {
            if missing {
                self.values = Values::Unknown(n + 1);
                return Ok(());
            }
            self.values = Values::of(&field, n, rows);
        }
        match (&mut self.values, field) {
            (Values::U32(v), Field::Missing) => v.push(0),
            (Values::U64(v), Field::Missing) => v.push(0),
            (Values::I64(v), Field::Missing) => v.push(0),
            (Values::Bool(v), Field::Missing) => v.push(false),
            (Values::Text(v), Field::Missing) => v.push(String::new()),
            (Values::U32(v), Field::Unsigned(n)) => match u32::try_from(n) {
                Ok(n) => v.push(n),
                Err(_) => {
                    // Widened once, where a value first does not fit.
                    let mut wide: Vec<u64> = v.iter().map(|&x| u64::from(x)).collect();
                    wide.push(n);
                    self.values = Values::U64(wide);
                }
            },
            (Values::U64(v), Field::Unsigned(n)) => v.push(n),
            (Values::I64(v), Field::Signed(n)) => v.push(n),
            (Values::Bool(v), Field::Bool(b)) => v.push(b),
            (Values::Text(v), Field::Text(t)) => v.push(t.to_string()),
            (_, field) => {
                return Err(format!(
                    "column {}: {field:?} in row {} does not fit its earlier rows",
                    self.name,
                    row + 1
                ));
            }
        }
        Ok(())
    }
}
