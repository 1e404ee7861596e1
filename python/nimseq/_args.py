"""Arguments as the command line reads them."""

from __future__ import annotations

import operator
from typing import Iterable, Union


def comma_list(values: Union[str, Iterable[int]], what: str, example: str) -> str:
    """Whole numbers as the command line writes them ("1,4,7"); a str is taken as it is."""
    if isinstance(values, str):
        return values
    if isinstance(values, (bytes, bytearray)):
        # Iterating bytes gives their codes: b"1,4" would be 44, 49, 52.
        raise TypeError(f"{what} are a list of whole numbers or a str such as '{example}', not bytes")
    return ",".join(str(operator.index(v)) for v in values)
