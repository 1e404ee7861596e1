"""Take-and-break games ``d0.d1d2...dt``: Kayles ``0.77``, Treblecross ``0.007``, Grundy's game
``4!.0``, hexadecimal codes such as ``0.3F``, ...

The Python face of ``nimseq octal``: :func:`values` (``octal stats``' values), :func:`period`
(``octal seq``'s certified period), :func:`scan` (``octal scan``) and :func:`quotient`
(``octal quotient``, the misère quotient).
"""

from __future__ import annotations

import json
import operator
import os
from dataclasses import dataclass
from typing import Optional, Tuple, Union

import numpy as np

from . import _nimseq
from ._position import Heaps, MiserePosition, Position, heaps_text, position
from ._table import ScanSummary, ScanTable
from .sub import Bytes, _result

__all__ = ["Certificate", "MiserePosition", "Position", "period", "quotient", "scan", "value", "values"]


def values(code: str, n: int, *, mem_budget: Bytes = None, play: str = "normal") -> np.ndarray:
    """G(0), ..., G(n-1) of the octal game ``code``.

    Args:
        code: the code d0.d1d2...dt as a string: d0 is 0 or 4 (or 8, C), the digits 0 to 7
            for an octal game (e.g. "0.77", "0.007", "4.07", or in Winning Ways' notation
            "·77", "4·07", the form nimseq writes codes in), up to F for moves that leave
            three heaps ("0.3F"), a "!" after a digit for pairwise unequal heaps (Grundy's
            game, "4!.0").
        n: how many values.
        mem_budget: most memory the values may take [default: half the machine's memory].
        play: "normal", or "misere" for the misère values G-(0), ..., G-(n-1), from every
            sum of heaps below n (docs/misere.md; a code that splits heaps reaches about
            60 heaps in the default budget).

    Returns:
        A NumPy array of the values, the smallest unsigned type that holds them.

    Example::

        >>> nimseq.octal.values("0.77", 12)
        array([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6], dtype=uint8)
        >>> nimseq.octal.values("0.77", 12, play="misere")
        array([1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4], dtype=uint8)
    """
    return _nimseq.octal_values(_code(code), operator.index(n), mem_budget, play)


def value(
    code: str, heaps: Heaps, *, mem_budget: Bytes = None, play: str = "normal"
) -> Union[Position, MiserePosition]:
    """A position of several heaps of the octal game ``code``: ``nimseq octal value``.

    Args:
        code: the code, as for :func:`values` (e.g. "0.77").
        heaps: the heap sizes, a list of whole numbers or "3,5,8".
        mem_budget: most memory the values may take [default: half the machine's memory].
        play: "normal", or "misere" for misère play, answered from the misère quotient of the
            heaps up to the largest (docs/misere.md).

    Returns:
        A :class:`Position`: each heap's value, the nim-sum, the outcome ("P" or "N") and
        every winning move (``to``: the heaps a move leaves, two where it splits one); under
        misère play a :class:`MiserePosition`.

    Raises:
        ValueError: a malformed code or heap, or values over ``mem_budget``.

    Example::

        >>> p = nimseq.octal.value("0.77", [3, 5, 8])    # Kayles
        >>> p.values, p.nim_sum, p.outcome
        ((3, 4, 1), 6, 'N')
        >>> p.winning_moves
        (WinningMove(index=1, size=5, to=(1, 3)),)
        >>> m = nimseq.octal.value("0.77", [3, 5, 8], play="misere")
        >>> m.misere_values, m.outcome, m.winning_moves
        ((3, 1, 1), 'N', (WinningMove(index=1, size=5, to=(1, 3)),))
    """
    return position(_nimseq.octal_value(_code(code), heaps_text(heaps), mem_budget, play))


def quotient(
    code: str,
    heap_max: int = 40,
    *,
    max_order: int = 1 << 20,
    check_total: Optional[int] = None,
    mem_budget: Bytes = None,
) -> dict:
    """The misère quotient of the heaps 0..heap_max of ``code``: ``nimseq octal quotient``.

    Args:
        code: the code, as for :func:`values` (e.g. "0.77").
        heap_max: the largest heap.
        max_order: give up when a trial monoid would have more elements than this.
        check_total: then hold the quotient against the game tree searched from the rules,
            on every sum of heaps with a total of at most this (``--check-total``).
        mem_budget: most memory the heaps' options, trials and game tree may take [default:
            half the machine's memory].

    Returns:
        The report as ``octal quotient --format json`` prints it, a dict: ``order``,
        ``p_portion``, ``tame``, ``generators`` (``{"name", "heap"}``), ``relations``,
        ``p_elements``, ``heaps`` (each heap's image as a normal form), ``orders``,
        ``expansion_heaps`` and ``period`` (a dict of ``period``, ``from``, ``proved``: whether
        Theorem 8 of docs/misere.md proves it for every heap, and ``proof_from``, the bound
        that would; or ``None``) and ``checked`` (``{"total", "sums"}`` with ``check_total``,
        else ``None``); docs/misere.md.

    Raises:
        ValueError: a malformed code, a bound of 0, heaps over ``mem_budget`` or a quotient
            that outgrows ``max_order``.

    Example::

        >>> q = nimseq.octal.quotient("0.75", 20)
        >>> q["order"], q["p_portion"], q["relations"]
        (8, 2, ['a^2 = 1', 'b^3 = b', 'bc = ab', 'c^2 = b^2'])
    """
    return json.loads(
        _nimseq.octal_quotient(_code(code), heap_max, max_order, check_total, mem_budget)
    )


@dataclass(frozen=True)
class Certificate:
    """A proved period of an octal game, or none within ``computed`` values.

    Attributes:
        code: the code as nimseq writes it.
        certified: whether a period was proved; if not, period, preperiod and window are
            ``None``.
        period: the least period p.
        preperiod: the pre-period n0: G(n + p) = G(n) for every n >= n0, and n0 is least.
        window: ``(from, to)``: G(n + p) = G(n) was checked for n in [from, to), which
            proves it for all n >= from.
        window_kind: "guy-smith" (a code whose moves split heaps in two: the window
            2 n0 + p + t), "heaps" (moves that leave three heaps, or two unequal ones: the
            general window of docs/octal.md) or "last-t" (no move splits a heap).
        observed: where no period was proved, ``(p, q, s)``: the arithmetic period
            G(n + p) = G(n) + s for n >= q that the values computed show, observed and not
            proved; ``None`` if they show none (or a period was proved).
        computed: the values computed, G(0..computed).
        timed_out: whether ``max_time`` ended the search.
        max_value: the largest value computed.
        rare_count: the rare sizes of the split the engine chose.
        checksum: ogsolve's checksum of the values computed.
    """

    code: str
    certified: bool
    period: Optional[int]
    preperiod: Optional[int]
    window: Optional[Tuple[int, int]]
    window_kind: Optional[str]
    observed: Optional[Tuple[int, int, int]]
    computed: int
    timed_out: bool
    max_value: int
    rare_count: int
    checksum: str


def period(
    code: str, *, max_len: int = 1 << 20, max_time: float = 20.0, mem_budget: Bytes = None
) -> Certificate:
    """The certified least period and pre-period of an octal game (``nimseq octal seq``).

    A period is looked for at each doubling of the length from 1024, and proved by the
    Guy-Smith window, never guessed.

    Args:
        code: the code, e.g. "0.16" or "·16" (``Certificate.code`` has the latter form).
        max_len: give up if no period is certified within this many values [default: 2^20].
        max_time: stop looking after this many seconds and certify what was computed
            (0: no limit) [default: 20].
        mem_budget: most memory the values may take [default: half the machine's memory].

    Returns:
        A :class:`Certificate` (``certified`` false where none was proved).

    Example::

        >>> c = nimseq.octal.period("0.16")
        >>> (c.period, c.preperiod)
        (149459, 105351)
    """
    return Certificate(
        **_nimseq.octal_period(_code(code), operator.index(max_len), float(max_time), mem_budget)
    )


def scan(
    *,
    digits: int = 3,
    n_max: int = 1 << 16,
    backend: str = "auto",
    out: Union[str, "os.PathLike[str]", None] = None,
    resume: bool = False,
    format: Optional[str] = None,
    shard: str = "1/1",
    chunk_size: int = 16,
    verify_sample: Optional[float] = None,
    mem_budget: Bytes = None,
    base: int = 8,
    d0: int = 0,
) -> Union[ScanTable, ScanSummary]:
    """Every code d0.d1...dk with dk != 0 to ``n_max``: ``nimseq octal scan``.

    One row per code: code, period, preperiod, certified_at (empty where no period was
    proved), computed, max_value, rare_count, checksum (ogsolve's, of G(0..n_max)), and for a
    code not settled observed_period, observed_preperiod, observed_saltus: the arithmetic
    period G(n + p) = G(n) + s its values show, not proved (empty where none shows).

    Args:
        digits: digits after the point (1 to 6): 3 is 448 codes, 4 is 3,584 (in base 16: 2
            is 240, 3 is 3,840).
        n_max: values G(0..n_max) of each code (1 to 2^24); a period is looked for at each
            doubling from 1024.
        backend: "auto", "cpu", "gpu" or "reference"; all give identical rows.
        out: write the rows to this file (resumable) instead of returning them.
        resume: continue an interrupted scan of ``out``.
        format: "csv", "jsonl" or "parquet" (a directory of Parquet files, one per chunk),
            for ``out`` [default: from the extension of ``out``, ".jsonl" or ".parquet",
            else "csv"].
        shard: run the i-th of N contiguous parts, "i/N".
        chunk_size: codes per chunk: the unit of checkpoints and shards.
        verify_sample: fraction of rows re-checked by a plainer solver [default: 0.01 on the
            GPU, else 0].
        mem_budget: most memory the values may take [default: half the machine's memory].
        base: 8, or 16 for hexadecimal codes such as 0.3F (digits 8 to F also split a heap
            in three; those codes run on the CPU path).
        d0: the digit before the point, 0 or 4 (a heap may also be split in two with nothing
            taken, as in 4.007).

    Returns:
        Without ``out``, a :class:`ScanTable` (the period columns masked where a code was not
        settled); with ``out``, the :class:`ScanSummary`.

    Example::

        >>> t = nimseq.octal.scan(digits=2, n_max=4096)
        >>> t.rows, t.summary["settled"]
        (56, 40)
    """
    columns, fields, text = _nimseq.octal_scan(
        digits, n_max, backend, None if out is None else os.fspath(out), resume, format,
        shard, chunk_size, verify_sample, mem_budget, base, d0,
    )
    return _result(columns, fields, text)


def _code(code: str) -> str:
    if not isinstance(code, str):
        raise TypeError(
            f"an octal code is a string such as '0.77', not {type(code).__name__}"
            " (0.7 and 0.70 are different games)"
        )
    return code
