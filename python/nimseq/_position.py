"""A position of several heaps: ``nimseq sub value`` and ``nimseq octal value``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Dict, Iterable, NamedTuple, Optional, Tuple, Union

from ._args import comma_list

Heaps = Union[str, Iterable[int]]


class WinningMove(NamedTuple):
    """A move to a P-position: heap number ``index`` (from 0, in the order given), of size
    ``size``, is replaced by the heaps ``to`` (none: the heap is taken whole)."""

    index: int
    size: int
    to: Tuple[int, ...]


@dataclass(frozen=True)
class Position:
    """A sum of heaps of one game, by the Sprague-Grundy theorem: the value of each heap, their
    nim-sum (xor), the outcome (``"P"``: the player to move loses, exactly when the nim-sum is
    0; ``"N"``: the player to move wins) and every winning move, once for each heap size.
    """

    game: str
    heaps: Tuple[int, ...]
    values: Tuple[int, ...]
    nim_sum: int
    outcome: str
    winning_moves: Tuple[WinningMove, ...]


@dataclass(frozen=True)
class MiserePosition:
    """A sum of heaps of one game under misère play (the player who makes the last move
    loses): each heap's misère value alone (``None`` for a heap of a take-and-break code whose
    sums are too many to search), how the outcome was found (``method``: ``{"name":
    "quotient", "heap_max", "order", "p_portion"}``, ``{"name": "sums", "positions"}`` or
    ``{"name": "misere_nim"}``), the outcome (``"P"``: the player to move loses) and every
    winning move, once for each heap size. There is no nim-sum: misère play has no
    Sprague-Grundy theorem (docs/misere.md).
    """

    game: str
    heaps: Tuple[int, ...]
    misere_values: Tuple[Optional[int], ...]
    method: Dict[str, Any]
    outcome: str
    winning_moves: Tuple[WinningMove, ...]


def heaps_text(heaps: Heaps) -> str:
    """The heaps as the command line writes them: "3,5,8"."""
    return comma_list(heaps, "heaps", "3,5,8")


def position(text: str) -> Union[Position, MiserePosition]:
    """The position from the JSON the command line prints (a misère one has ``play``)."""
    d = json.loads(text)
    moves = tuple(WinningMove(m["index"], m["from"], tuple(m["to"])) for m in d["winning_moves"])
    if d.get("play") == "misere":
        return MiserePosition(d["game"], tuple(d["heaps"]), tuple(d["misere_values"]),
                              d["method"], d["outcome"], moves)
    return Position(d["game"], tuple(d["heaps"]), tuple(d["values"]), d["nim_sum"],
                    d["outcome"], moves)
