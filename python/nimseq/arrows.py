"""The Game of Arrows (Game of Cycles on trees): players orient edges and may never make a
sink or a source. The Python face of ``nimseq arrows value``.
"""

from __future__ import annotations

from . import _nimseq
from .sub import Bytes

__all__ = ["value"]


def value(tree: str, *, backend: str = "auto", mem_budget: Bytes = None) -> int:
    """The nim value of the Game of Arrows on one tree.

    Args:
        tree: an edge list "0-1,1-2,1-3", a parent array "parents:0,1,1", or a family:
            "path:9", "spider:1,3,7", "H:3,1/3/4,1".
        backend: "auto" or "cpu" (the normal form, or spider states for a spider) or
            "reference" (the raw rules, up to 40 markable edges).
        mem_budget: most memory the solver may take [default: half the machine's memory].

    Example::

        >>> nimseq.arrows.value("spider:9,14,17")
        9
    """
    return _nimseq.arrows_value(tree, backend, mem_budget)
