"""The Python examples of the README and docs/python.md, run as doctests: as a module for the
tests, and as a script (standard library only) that scripts/python-tests.sh runs in a fresh
environment where only the package is installed, as a new user has it after the README's
install line.

    python python/tests/page_examples.py README.md
"""

import doctest
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def failures(page: str) -> int:
    """How many lines of the page's first ```python block print something else than it shows."""
    text = (ROOT / page).read_text()
    example = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    test = doctest.DocTestParser().get_doctest(example, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    return runner.summarize(verbose=False).failed


if __name__ == "__main__":
    failed = sum(failures(page) for page in sys.argv[1:])
    sys.exit(1 if failed else 0)
