"""Subtraction games ``S = {a, b, c, ...}``: ``G(x) = mex{G(x - s) : s in S, s <= x}``.

The Python face of ``nimseq sub``: :func:`values` (``sub seq``'s values), :func:`period`
(its certified period), :func:`arithmetic` (an infinite set's arithmetic period) and
:func:`scan` (``sub scan``).
"""

from __future__ import annotations

import logging
import operator
import os
from dataclasses import dataclass
from typing import Iterable, Optional, Tuple, Union

import numpy as np

from . import _nimseq
from ._args import comma_list
from ._position import Heaps, MiserePosition, Position, heaps_text, position
from ._table import ScanSummary, ScanTable

Moves = Union[str, Iterable[int]]
Bytes = Union[int, str, None]

__all__ = [
    "Arithmetic",
    "Certificate",
    "MiserePosition",
    "Position",
    "arithmetic",
    "period",
    "scan",
    "value",
    "values",
]


def _moves(moves: Moves) -> str:
    """The set as the command line writes it: "1,4,7"."""
    return comma_list(moves, "moves", "1,4,7")


def values(
    moves: Optional[Moves] = None,
    n: Optional[int] = None,
    *,
    all_but: Optional[Moves] = None,
    mem_budget: Bytes = None,
    play: str = "normal",
) -> np.ndarray:
    """G(0), ..., G(n-1) of the subtraction game with these moves.

    Args:
        moves: the subtraction set, as a list of distinct positive integers or as the
            command line writes it ("3,8,13"); any finite set (up to 64 moves); or an
            infinite set by name: "squares", "primes", "powers:B" (1, B, B^2, ...).
        n: how many values.
        all_but: instead of ``moves``, every positive integer but these (a list or "2,3,7").
        mem_budget: most memory the values may take, bytes or a size such as "16G"
            [default: half the machine's memory].
        play: "normal", or "misere" for the misère values G-(0), ..., G-(n-1) (the player
            who makes the last move loses; docs/misere.md).

    Returns:
        A NumPy array of the values in the smallest unsigned type that holds them (``uint8``
        for a finite set: a value is at most the number of moves).

    Raises:
        ValueError: a malformed set (``moves must be positive, found 0``), both or neither of
            ``moves`` and ``all_but``, or values over ``mem_budget``.

    Example::

        >>> nimseq.sub.values([1, 4, 7], 12)
        array([0, 1, 0, 1, 2, 0, 1, 2, 0, 1, 0, 1], dtype=uint8)
        >>> nimseq.sub.values("squares", 10)
        array([0, 1, 0, 1, 2, 0, 1, 0, 1, 2], dtype=uint8)
        >>> nimseq.sub.values(all_but=[2, 3, 7], n=10)
        array([0, 1, 0, 1, 2, 3, 2, 3, 4, 5], dtype=uint8)
        >>> nimseq.sub.values([2, 3, 7], 10, play="misere")
        array([1, 1, 0, 0, 2, 1, 1, 0, 0, 2], dtype=uint8)
    """
    if (moves is None) == (all_but is None):
        raise ValueError("give moves or all_but, one of them")
    if n is None:
        raise TypeError("values() needs n, how many values")
    text = _moves(moves) if all_but is None else "all-but:" + comma_list(all_but, "all_but", "2,3,7")
    return _nimseq.sub_values(text, operator.index(n), mem_budget, play)


def value(
    moves: Moves, heaps: Heaps, *, mem_budget: Bytes = None, play: str = "normal"
) -> Union[Position, MiserePosition]:
    """A position of several heaps of the subtraction game: ``nimseq sub value``.

    Args:
        moves: the subtraction set, as for :func:`values`.
        heaps: the heap sizes, a list of whole numbers or "7,9".
        mem_budget: most memory the values may take [default: half the machine's memory].
        play: "normal", or "misere" for misère play (``--play misere``).

    Returns:
        A :class:`Position`: each heap's value, the nim-sum, the outcome ("P" or "N") and
        every winning move; under misère play a :class:`MiserePosition` (each heap's misère
        value, the outcome and every winning move).

    Raises:
        ValueError: a malformed set or heap, or values over ``mem_budget``.

    Example::

        >>> p = nimseq.sub.value([1, 3, 4], [7, 10])
        >>> p.values, p.nim_sum, p.outcome
        ((0, 1), 1, 'N')
        >>> for move in p.winning_moves:
        ...     print(move)
        WinningMove(index=0, size=7, to=(3,))
        WinningMove(index=1, size=10, to=(9,))
        WinningMove(index=1, size=10, to=(7,))
        >>> nimseq.sub.value([2, 3, 7], [4, 5, 9], play="misere").outcome
        'P'
    """
    return position(_nimseq.sub_value(_moves(moves), heaps_text(heaps), mem_budget, play))


@dataclass(frozen=True)
class Certificate:
    """A proved period of a subtraction game, or none within ``checked_len`` values.

    Attributes:
        set: the moves, sorted.
        certified: whether a period was proved; if not, the fields below are ``None``.
        period: the least period p of the nim values.
        preperiod: the pre-period q: G(x + p) = G(x) for every x >= q, and q is least.
        outcome_period: the least period of the outcomes (P-positions) alone.
        outcome_preperiod: its pre-period.
        window: ``(from, to)``: G(x + p) = G(x) was checked for x in [from, to), which proves
            it for all x >= from, since every move is legal from x = max S on.
        checked_len: the values computed, G(0..checked_len).
    """

    set: Tuple[int, ...]
    certified: bool
    period: Optional[int]
    preperiod: Optional[int]
    outcome_period: Optional[int]
    outcome_preperiod: Optional[int]
    window: Optional[Tuple[int, int]]
    checked_len: int


def period(moves: Moves, *, max_len: int = 1 << 26, mem_budget: Bytes = None) -> Certificate:
    """The certified least period and pre-period of a subtraction game (``nimseq sub seq``).

    Args:
        moves: the subtraction set (a list of ints, or "3,8,13").
        max_len: give up if no period is certified within this many values (rounded up to a
            multiple of 64: values are computed 64 at a time) [default: 2^26].
        mem_budget: most memory the search may take [default: half the machine's memory].

    Returns:
        A :class:`Certificate`; ``certified`` is false, and the period ``None``, where none was
        proved within ``max_len`` values.

    Example::

        >>> c = nimseq.sub.period([3, 8, 15])
        >>> (c.period, c.preperiod, c.outcome_period)
        (23, 0, 23)
    """
    d = _nimseq.sub_period(_moves(moves), operator.index(max_len), mem_budget)
    d["set"] = tuple(d["set"])
    return Certificate(**d)


@dataclass(frozen=True)
class Arithmetic:
    """The arithmetic period G(n + p) = G(n) + s for n >= q of an infinite subtraction set.

    Attributes:
        set: the set as the command line writes it ("all-but:2,3,7", "squares").
        certified: whether the period was proved (all-but sets: docs/subtraction.md, Theorem
            7.1); if not, ``period``, ``preperiod`` and ``saltus`` are ``None``.
        period: the least arithmetic period p.
        preperiod: its least pre-period q.
        saltus: s, the growth over one period.
        observed: where none was proved, ``(p, q, s)`` as the values show it, not proved
            (``None`` if they show none).
        checked_len: the values computed, G(0..checked_len).
    """

    set: str
    certified: bool
    period: Optional[int]
    preperiod: Optional[int]
    saltus: Optional[int]
    observed: Optional[Tuple[int, int, int]]
    checked_len: int


def arithmetic(
    moves: Optional[str] = None,
    *,
    all_but: Optional[Moves] = None,
    max_len: int = 1 << 16,
    mem_budget: Bytes = None,
    play: str = "normal",
) -> Arithmetic:
    """The arithmetic period of an infinite set within G(0..max_len) (``nimseq sub seq``).

    Args:
        moves: an infinite set by name: "squares", "primes", "powers:B", "all-but:X".
        all_but: instead of ``moves``, every positive integer but these (a list or "2,3,7").
        max_len: the values to compute and look in [default: 2^16].
        mem_budget: most memory the values may take [default: half the machine's memory].
        play: "normal", or "misere" for the period of the misère values (``--play misere``),
            proved from the normal one for an all-but set.

    Returns:
        An :class:`Arithmetic`: proved for an all-but set whose values suffice, else observed.

    Raises:
        ValueError: a set that cannot be read, both or neither of ``moves`` and ``all_but``.

    Example::

        >>> a = nimseq.sub.arithmetic(all_but=[2, 3, 7])
        >>> (a.certified, a.period, a.preperiod, a.saltus)
        (True, 4, 0, 2)
    """
    if (moves is None) == (all_but is None):
        raise ValueError("give moves or all_but, one of them")
    text = moves if all_but is None else "all-but:" + comma_list(all_but, "all_but", "2,3,7")
    d = _nimseq.sub_arithmetic(text, operator.index(max_len), mem_budget, play)
    if d["observed"] is not None:
        d["observed"] = tuple(d["observed"])
    return Arithmetic(**d)


def scan(
    *,
    moves: int = 3,
    c_max: int = 200,
    c_min: int = 0,
    a_min: int = 1,
    a_max: Optional[int] = None,
    b_min: int = 2,
    b_max: Optional[int] = None,
    primitive: bool = False,
    theory: bool = False,
    play: str = "normal",
    backend: str = "auto",
    out: Union[str, "os.PathLike[str]", None] = None,
    resume: bool = False,
    format: Optional[str] = None,
    shard: str = "1/1",
    chunk_size: Optional[int] = None,
    verify_sample: Optional[float] = None,
    mem_budget: Bytes = None,
) -> Union[ScanTable, ScanSummary]:
    """Every set of ``moves`` moves within the bounds (by default the triples {a, b, c} with
    a < b < c): ``nimseq sub scan``.

    One row per set, in the command line's order (the largest move, then the others
    lexicographically; for triples c, then a, then b) and columns: the moves a, b, c, ... (as
    many as ``moves``), period, preperiod, outcome_period, outcome_preperiod, with
    ``play="misere"`` also misere_period, misere_preperiod, misere_outcome_period,
    misere_outcome_preperiod, and with ``theory=True`` (triples only) also g, rho, K, T0, T1,
    T2, predicted_period (-1 uncovered, -2 outside the paper) and agrees. Every period is
    certified.

    Args:
        moves: moves in each set, 2 to 7.
        c_max: largest move (c of a triple; 2 to 100000).
        c_min: smallest largest move (0: the least there is).
        a_min, a_max: bounds on the smallest move a.
        b_min, b_max: bounds on the second move b (three moves or more).
        primitive: only rulesets whose moves have gcd 1.
        theory: add the theory columns (Manabe's criterion and prediction) to each row.
        play: "normal", or "misere" to add the misère columns: the least periods and
            pre-periods of the misère values and of the misère P-positions (docs/misere.md).
        backend: "auto" (the GPU on a hardware adapter when it is faster on a sample of the
            scan, else the CPU), "cpu" (bit-parallel on all cores), "gpu" (WGSL through
            wgpu) or "reference" (the plain recurrence); all give identical rows.
        out: write the rows to this file (resumable) instead of returning them; then the
            summary is returned, and logged (logger ``nimseq``) as the command line prints
            it, with a progress bar on a terminal.
        resume: continue an interrupted scan of ``out`` after its last complete chunk.
        format: "csv", "jsonl" or "parquet" (a directory of Parquet files, one per chunk),
            for ``out`` [default: from the extension of ``out``, ".jsonl" or ".parquet",
            else "csv"].
        shard: run the i-th of N contiguous parts, "i/N"; the N files concatenate in order.
        chunk_size: rulesets per chunk: the unit of checkpoints and shards [default: 262144,
            the command line's; 65536 for a scan into columns on the CPU, which keeps what is
            in flight below the columns' own memory].
        verify_sample: fraction of rows re-checked by the reference backend, and with
            ``play="misere"`` by the genera [default: 0.001 on the GPU, else 0].
        mem_budget: most memory the solvers may take, all threads together, bytes or a size
            such as "16G" [default: half the machine's memory].

    Returns:
        Without ``out``, a :class:`ScanTable`: a dict of NumPy columns for
        ``pandas.DataFrame`` or ``polars.DataFrame``, its totals in ``.summary``. With
        ``out``, the :class:`ScanSummary`.

    Raises:
        ValueError: bounds that leave no triple, a bad flag, a scan over ``mem_budget``, or
            an ``out`` file that exists unfinished without ``resume=True``.
        KeyboardInterrupt: Ctrl-C; a scan to ``out`` keeps its finished chunks for ``resume``.

    Example::

        >>> t = nimseq.sub.scan(c_max=60)
        >>> t.rows, t.summary["purely_periodic"]
        (34220, 22895)
        >>> polars.DataFrame(t).filter(polars.col("period") > 1000).height
        40
    """
    columns, fields, text = _nimseq.sub_scan(
        moves, c_max, c_min, a_min, a_max, b_min, b_max, primitive, theory, backend,
        None if out is None else os.fspath(out), resume, format, shard, chunk_size,
        verify_sample, mem_budget, play,
    )
    return _result(columns, fields, text)


def _result(columns, fields: str, text: str) -> Union[ScanTable, ScanSummary]:
    """A scan's columns as a table, or its summary (printed) when its rows went to a file."""
    import json

    summary = ScanSummary(json.loads(fields), text)
    if columns is None:
        logging.getLogger("nimseq").info(text)
        return summary
    return ScanTable(columns, summary)
