"""nimseq: exact Sprague-Grundy (nim) values of impartial games in bulk.

One module per game family, with the command line's names and defaults:

* :mod:`nimseq.sub`: subtraction games ``S = {a, b, c, ...}`` (``nimseq sub``)
* :mod:`nimseq.octal`: octal games such as Kayles ``0.77`` and Treblecross ``0.007``
* :mod:`nimseq.kcross`: Inverse k-cross on strips and rings
* :mod:`nimseq.arrows`: the Game of Arrows (Game of Cycles on trees)

Values come back as NumPy arrays (the smallest unsigned type that holds them), scans as a
:class:`ScanTable`, a dict of NumPy columns that ``pandas.DataFrame`` and ``polars.DataFrame``
take directly. Every call runs in Rust with the GIL released; Ctrl-C stops a scan within a
second. A bad input raises ``ValueError`` with the command line's message.

Example::

    >>> import nimseq
    >>> nimseq.sub.values([1, 4, 7], 12)
    array([0, 1, 0, 1, 2, 0, 1, 2, 0, 1, 0, 1], dtype=uint8)
    >>> nimseq.sub.period([3, 8, 15]).period
    23
"""

import os as _os

# Mesa's device-select Vulkan layer orders adapters for a display and, without one, prints
# "error: XDG_RUNTIME_DIR is invalid ..." when an adapter is probed: off unless the user set
# it, as the command line does. Set before the native module can open a GPU.
_os.environ.setdefault("NODEVICE_SELECT", "1")

from . import arrows, kcross, octal, sub  # noqa: E402
from ._nimseq import __version__  # noqa: E402
from ._table import ScanSummary, ScanTable  # noqa: E402

__all__ = ["ScanSummary", "ScanTable", "__version__", "arrows", "kcross", "octal", "sub"]
