"""The rows of a scan as columns, and its summary."""

from __future__ import annotations

from typing import Any, Dict, Optional, Union

import numpy as np


class ScanSummary(dict):
    """A scan's totals, as the command line prints them on stderr.

    A dict of the totals (their names as in the JSON of a checkpoint), with the command line's
    text in :attr:`text` and its ``checksum:`` line in :attr:`checksum`.
    """

    def __init__(self, fields: Dict[str, Any], text: str) -> None:
        super().__init__(fields)
        self.text = text

    @property
    def checksum(self) -> Optional[str]:
        """The ``checksum:`` line's value (subtraction scans), or ``None``."""
        for line in self.text.splitlines():
            if line.startswith("checksum:"):
                return line.split(":", 1)[1].strip()
        return None

    def __str__(self) -> str:
        return self.text


Column = Union[np.ndarray, "np.ma.MaskedArray"]


class ScanTable(dict):
    """The rows of a scan: a dict of NumPy columns in the command line's column order.

    ``pandas.DataFrame(table)`` and ``polars.DataFrame(table)`` take it as it is. Whole numbers
    are ``uint32`` (``uint64`` where one does not fit, ``int64`` where they may be negative),
    text columns (an octal ``code`` such as ``·07``, a ``checksum``) are arrays of ``str``
    objects. A column with missing values (the period of an octal code not settled, ``agrees``
    outside the paper) is a masked array: :meth:`to_polars` makes its masked values nulls (so
    does ``polars.DataFrame(table)`` with a recent polars), :meth:`to_pandas` pandas' nullable
    integers and booleans (``pandas.DataFrame(table)`` makes such a column float or object).
    """

    def __init__(self, columns: Dict[str, Any], summary: ScanSummary) -> None:
        super().__init__((name, _column(data)) for name, data in columns.items())
        self.summary = summary

    @property
    def rows(self) -> int:
        """How many rows the scan gave.

        Example::

            >>> nimseq.sub.scan(c_max=10).rows
            120
        """
        return len(next(iter(self.values()))) if self else 0

    def to_pandas(self) -> Any:
        """A ``pandas.DataFrame``, columns with missing values as nullable integers or booleans.

        Example::

            >>> t = nimseq.octal.scan(digits=1, n_max=4096)
            >>> t.to_pandas().dtypes["period"], pandas.DataFrame(t).dtypes["period"]
            (UInt32Dtype(), dtype('float64'))
        """
        import pandas as pd

        data = {}
        for name, column in self.items():
            if isinstance(column, np.ma.MaskedArray):
                # With a mask: pandas' nullable UInt32 (or UInt64, Int64), or boolean.
                mask = np.ma.getmaskarray(column)
                values = np.ma.getdata(column)
                if values.dtype == np.bool_:
                    column = pd.arrays.BooleanArray(values, mask)
                else:
                    column = pd.arrays.IntegerArray(values, mask)
            data[name] = column
        return pd.DataFrame(data)

    def to_polars(self) -> Any:
        """A ``polars.DataFrame``, masked values as nulls with any polars version (a recent
        polars does the same for ``polars.DataFrame(table)``; older ones ignore the mask).

        Example::

            >>> nimseq.sub.scan(c_max=10).to_polars().shape
            (120, 7)
        """
        import polars as pl

        columns = []
        for name, column in self.items():
            series = pl.Series(name, np.ma.getdata(column))
            if isinstance(column, np.ma.MaskedArray):
                missing = pl.Series(np.ma.getmaskarray(column))
                nulls = pl.when(missing).then(None).otherwise(series).alias(name)
                series = pl.select(nulls).to_series()
            columns.append(series)
        return pl.DataFrame(columns)

    def __repr__(self) -> str:
        return f"ScanTable({self.rows:,} rows: {', '.join(self)})"


def _column(data: Any) -> Column:
    if isinstance(data, tuple):
        values, mask = data
        return np.ma.MaskedArray(values, mask=mask)
    if isinstance(data, list):
        column = np.empty(len(data), dtype=object)
        column[:] = data
        return column
    return data
