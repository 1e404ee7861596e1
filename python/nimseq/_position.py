"""A position of several heaps: ``nimseq sub value`` and ``nimseq octal value``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Tuple, Union

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


def heaps_text(heaps: Heaps) -> str:
    """The heaps as the command line writes them: "3,5,8"."""
    return comma_list(heaps, "heaps", "3,5,8")


def position(text: str) -> Position:
    """The position from the JSON the command line prints."""
    d = json.loads(text)
    moves = tuple(WinningMove(m["index"], m["from"], tuple(m["to"])) for m in d["winning_moves"])
    return Position(d["game"], tuple(d["heaps"]), tuple(d["values"]), d["nim_sum"],
                    d["outcome"], moves)
