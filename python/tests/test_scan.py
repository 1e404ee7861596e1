"""Scans: the columns against the command line's CSV, byte for byte through pandas and through
polars; files, resume and shards as on the command line."""

import io
import json

import numpy as np
import pandas as pd
import polars as pl
import pytest

import nimseq


def pandas_csv(frame: pd.DataFrame) -> str:
    return frame.to_csv(index=False, lineterminator="\n")


def test_sub_scan_is_the_cli_csv_through_pandas_and_polars(cli):
    want = cli("sub", "scan", "--c-max", 60, "--backend", "cpu")
    t = nimseq.sub.scan(c_max=60, backend="cpu")
    assert t.rows == 34220
    assert list(t) == want.splitlines()[0].split(",")
    assert all(column.dtype == np.uint32 for column in t.values())
    assert pandas_csv(pd.DataFrame(t)) == want
    assert pl.DataFrame(t).write_csv() == want
    assert t.summary["purely_periodic"] == 22895
    assert t.summary.checksum == (
        "triples=34220 purely_periodic=22895 sum_p=2252026 sum_q=2057709 max_p=1615"
        " max_q=1394 fnv=b2c7b85d385f0350"
    )


def test_sub_scan_of_four_moves_is_the_cli_csv(cli):
    want = cli("sub", "scan", "--moves", 4, "--max-move", 30, "--backend", "cpu")
    t = nimseq.sub.scan(moves=4, c_max=30, backend="cpu")
    assert t.rows == 27405
    assert list(t)[:5] == ["a", "b", "c", "d", "period"]
    assert pl.DataFrame(t).write_csv() == want
    assert t.summary.checksum.startswith("sets=27405 ")
    with pytest.raises(ValueError, match="drop theory with moves 4"):
        nimseq.sub.scan(moves=4, c_max=30, theory=True)
    with pytest.raises(ValueError, match="invalid value '9' for 'moves': 9 is not in 2..=7"):
        nimseq.sub.scan(moves=9, c_max=30)


def test_sub_scan_filters_and_theory_columns(cli):
    flags = ["--c-max", 40, "--c-min", 20, "--a-min", 2, "--b-max", 30, "--primitive", "--theory"]
    want = cli("sub", "scan", *flags)
    t = nimseq.sub.scan(c_max=40, c_min=20, a_min=2, b_max=30, primitive=True, theory=True)
    assert t["predicted_period"].dtype == np.int64 and t["predicted_period"].min() < 0
    assert t["T0"].dtype == np.bool_
    assert pl.DataFrame(t).write_csv() == want


def test_sub_scan_misere_columns_are_the_cli_csv(cli):
    want = cli("sub", "scan", "--c-max", 40, "--play", "misere", "--verify-sample", 1)
    t = nimseq.sub.scan(c_max=40, play="misere", verify_sample=1.0)
    assert list(t)[7:] == [
        "misere_period", "misere_preperiod", "misere_outcome_period", "misere_outcome_preperiod"
    ]
    assert pl.DataFrame(t).write_csv() == want
    # docs/misere.md, Corollary 6.1: the misère P-positions start a later where the normal
    # ones are pre-periodic.
    frame = pl.DataFrame(t).filter(pl.col("outcome_preperiod") > 0)
    assert frame.height > 0
    assert (frame["misere_outcome_preperiod"] == frame["outcome_preperiod"] + frame["a"]).all()
    with pytest.raises(ValueError, match='play must be "normal" or "misere", not "sideways"'):
        nimseq.sub.scan(c_max=10, play="sideways")


def test_every_backend_gives_the_same_rows(cli):
    want = cli("sub", "scan", "--c-max", 30, "--backend", "reference")
    for backend in ("reference", "cpu", "auto"):
        assert pl.DataFrame(nimseq.sub.scan(c_max=30, backend=backend)).write_csv() == want


def test_octal_scan_keeps_codes_as_text_and_unsettled_periods_missing(cli):
    want = cli("octal", "scan", "--digits", 2, "--n-max", 4096, "--backend", "cpu")
    t = nimseq.octal.scan(digits=2, n_max=4096, backend="cpu")
    assert t.rows == 56
    # Codes as nimseq writes them, with Winning Ways' raised point: text in any reader.
    assert isinstance(t["code"][0], str) and "\u00b707" in t["code"] and "0.07" not in t["code"]
    period = t["period"]
    assert isinstance(period, np.ma.MaskedArray) and period.mask.sum() == 16
    assert t.to_polars().write_csv() == want
    assert t.to_polars()["period"].dtype == pl.UInt32
    assert pandas_csv(t.to_pandas()) == want
    assert t.to_pandas()["period"].dtype == "UInt32"
    assert t.summary["settled"] == 40 and t.summary["unsettled"] == 16


def test_hexadecimal_scan_shows_observed_arithmetic_periods(cli):
    want = cli("octal", "scan", "--digits", 1, "--base", 16, "--n-max", 2048, "--backend", "cpu")
    t = nimseq.octal.scan(digits=1, base=16, n_max=2048, backend="cpu")
    assert t.rows == 15 and t.to_polars().write_csv() == want
    frame = t.to_polars().filter(pl.col("observed_saltus") > 0)
    # 0.8: G(n + 3) = G(n) + 1 from n = 1; 0.C: G(n + 2) = G(n) + 1 from n = 1.
    assert frame.select("code", "observed_period", "observed_preperiod", "observed_saltus").rows() == [
        ("\u00b78", 3, 1, 1),
        ("\u00b7C", 2, 1, 1),
    ]


def test_scan_to_a_file_is_the_cli_file(cli, tmp_path):
    ours, theirs = tmp_path / "py.csv", tmp_path / "cli.csv"
    summary = nimseq.sub.scan(c_max=80, out=ours, chunk_size=10000)
    cli("sub", "scan", "--c-max", 80, "--out", theirs, "--chunk-size", 10000)
    assert ours.read_bytes() == theirs.read_bytes()
    assert isinstance(summary, nimseq.ScanSummary) and summary["rulesets"] == 82160
    jsonl = tmp_path / "rows.jsonl"
    cli("sub", "scan", "--c-max", 50, "--out", jsonl, "--format", "jsonl")
    nimseq.sub.scan(c_max=50, out=tmp_path / "py.jsonl", format="jsonl")
    assert (tmp_path / "py.jsonl").read_bytes() == jsonl.read_bytes()


def test_shards_concatenate_to_the_whole(cli, tmp_path):
    whole = cli("sub", "scan", "--c-max", 50, "--chunk-size", 1000)
    parts = []
    for i in (1, 2, 3):
        part = tmp_path / f"part{i}.csv"
        nimseq.sub.scan(c_max=50, chunk_size=1000, shard=f"{i}/3", out=part)
        parts.append(part.read_text())
    assert "".join(parts) == whole
    # Into columns, a shard is its rows alone.
    rows = sum(nimseq.sub.scan(c_max=50, chunk_size=1000, shard=f"{i}/3").rows for i in (1, 2, 3))
    assert rows == len(whole.splitlines()) - 1


def test_parquet_rows_load_typed_in_polars_and_pandas(cli, tmp_path):
    csv = pl.read_csv(io.StringIO(cli("sub", "scan", "--c-max", 60, "--theory")))
    ours = tmp_path / "py.parquet"
    nimseq.sub.scan(c_max=60, theory=True, out=ours, chunk_size=5000)
    theirs = tmp_path / "cli.parquet"
    cli("sub", "scan", "--c-max", 60, "--theory", "--out", theirs, "--chunk-size", 5000)
    # A directory of part files, in scan order by name, the same whichever way it was written.
    names = sorted(p.name for p in ours.iterdir())
    assert names == [f"part-{i:06}.parquet" for i in range(1, 8)]
    assert [(ours / n).read_bytes() for n in names] == [(theirs / n).read_bytes() for n in names]
    frame = pl.read_parquet(ours)
    assert frame.schema["a"] == pl.UInt16 and frame.schema["period"] == pl.UInt32
    assert frame.schema["T0"] == pl.Boolean
    assert frame.schema["predicted_period"] == pl.Int64
    assert frame.equals(csv.cast(frame.schema))
    assert pd.read_parquet(ours)["period"].dtype == np.uint32
    # Octal rows: codes stay text, unsettled periods are missing.
    octal = tmp_path / "octal.parquet"
    cli("octal", "scan", "--digits", 2, "--n-max", 200, "--out", octal)
    codes = pl.read_parquet(octal)
    assert codes["code"][0] == "·01" and codes["period"].null_count() > 0
    assert codes.schema["rare_count"] == pl.UInt64
    # Shards merged by the command line load as one frame.
    for i in (1, 2):
        nimseq.sub.scan(c_max=60, chunk_size=5000, shard=f"{i}/2", out=tmp_path / f"s{i}.parquet")
    cli("merge", tmp_path / "s2.parquet", tmp_path / "s1.parquet", "--out", tmp_path / "all.parquet")
    moves = frame.select(frame.columns[:7])
    assert pl.read_parquet(tmp_path / "all.parquet").equals(moves)


def test_an_empty_parquet_shard_reads_as_an_empty_frame(tmp_path):
    # A shard with no chunk: one file of columns and no rows, not an empty directory, which
    # polars and pyarrow refuse to read.
    out = tmp_path / "empty.parquet"
    nimseq.sub.scan(c_max=30, shard="1/3", out=str(out))
    frame = pl.read_parquet(out)
    assert frame.height == 0
    assert frame.columns == ["a", "b", "c", "period", "preperiod", "outcome_period", "outcome_preperiod"]
    assert pd.read_parquet(out).shape == (0, 7)
