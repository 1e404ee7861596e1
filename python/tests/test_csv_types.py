"""Every CSV of docs/output.md's "Column types" loads in polars and pandas with the columns and
types that page documents: the command in each heading is run, its CSV read both ways."""

import io
import re
import shlex

import pandas as pd
import polars as pl
import pytest

from conftest import ROOT

DOC = ROOT / "docs" / "output.md"


def documented():
    """(command args, [(column, polars type, pandas type)]) for each table of the page."""
    tables, args = [], None
    for line in DOC.read_text().splitlines():
        heading = re.fullmatch(r"### `nimseq (.+)`", line)
        if heading:
            args = shlex.split(heading.group(1))
            tables.append((args, []))
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if args and line.startswith("|") and len(cells) == 4 and cells[0] not in ("column", "---"):
            tables[-1][1].append(tuple(cells[:3]))
    return tables


TABLES = documented()


def test_the_page_documents_each_family():
    commands = [" ".join(args[:2]) for args, _ in TABLES]
    for family in ("sub scan", "octal scan", "arrows census", "kcross seq"):
        assert family in commands, commands
    assert all(columns for _, columns in TABLES)


@pytest.mark.parametrize("args,columns", TABLES, ids=[" ".join(a) for a, _ in TABLES])
def test_csv_loads_with_the_documented_types(cli, args, columns):
    text = cli(*args)
    names = [name for name, _, _ in columns]
    assert text.splitlines()[0].split(",") == names, "header"
    frame = pl.read_csv(io.StringIO(text))
    assert [(c, str(t)) for c, t in frame.schema.items()] == [(n, p) for n, p, _ in columns]
    pandas = pd.read_csv(io.StringIO(text), dtype_backend="numpy_nullable")
    assert [(c, str(t)) for c, t in pandas.dtypes.items()] == [(n, d) for n, _, d in columns]
    assert len(frame) == len(pandas) > 0


def test_missing_values_stay_missing_and_codes_stay_text(cli):
    text = cli("octal", "scan", "--digits", "2", "--n-max", "2048")
    frame = pl.read_csv(io.StringIO(text))
    unsettled = frame.filter(pl.col("period").is_null())
    assert unsettled.height > 0 and (unsettled["computed"] == 2048).all()
    assert "\u00b707" in frame["code"].to_list()
    pandas = pd.read_csv(io.StringIO(text), dtype_backend="numpy_nullable")
    assert pandas["period"].isna().sum() == unsettled.height
    theory = pl.read_csv(io.StringIO(cli("sub", "scan", "--c-max", "12", "--theory")))
    assert theory["agrees"].null_count() > 0 and theory["agrees"].sum() > 0
