"""Inverse k-cross: players put X's on a strip or a ring and may never make k in a row.

The Python face of ``nimseq kcross``: :func:`values` (``kcross seq``) and :func:`value`
(``kcross value``).
"""

from __future__ import annotations

import operator

import numpy as np

from . import _nimseq
from .sub import Bytes

__all__ = ["value", "values"]


def values(k: int, n_max: int = 50, *, backend: str = "auto", mem_budget: Bytes = None) -> np.ndarray:
    """G([n]) of the empty strips [n], n = 0..n_max: ``nimseq kcross seq``.

    Args:
        k: runs of this length are forbidden (2 to 64; 3 is Inverse Treblecross).
        n_max: the largest strip.
        backend: "auto", "cpu" (the component table on all cores), "gpu" or "reference"
            (the raw rules, up to 40 cells).
        mem_budget: most memory the table may take [default: half the machine's memory].

    Returns:
        A ``uint8`` NumPy array of n_max + 1 values.

    Example::

        >>> nimseq.kcross.values(k=3, n_max=12)
        array([0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0], dtype=uint8)
    """
    return _nimseq.kcross_values(operator.index(k), operator.index(n_max), backend, mem_budget)


def value(board: str, k: int, *, backend: str = "auto", mem_budget: Bytes = None) -> int:
    """The value of one board in the paper's notation: ``nimseq kcross value``.

    Args:
        board: a strip such as "[7]", "[3X4]" or "[X2XX5]", or a ring "(21)".
        k: runs of this length are forbidden (2 to 64).
        backend: "auto", "cpu", "gpu" or "reference".
        mem_budget: most memory the table may take [default: half the machine's memory].

    Example::

        >>> nimseq.kcross.value("[3X4]", k=3)
        3
    """
    return _nimseq.kcross_value(board, operator.index(k), backend, mem_budget)
