"""Every docstring example runs and prints what it shows, and every public function has a
docstring with an example."""

import doctest
import inspect

import pandas
import polars
import pytest

import nimseq

MODULES = [nimseq, nimseq.sub, nimseq.octal, nimseq.kcross, nimseq.arrows, nimseq._table]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_docstring_examples_hold(module):
    flags = doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(module, extraglobs={"nimseq": nimseq, "pandas": pandas, "polars": polars},
                             optionflags=flags, verbose=False)
    assert result.failed == 0


@pytest.mark.parametrize("module", MODULES[1:-1], ids=lambda m: m.__name__)
def test_every_function_is_documented_with_an_example(module):
    for name in module.__all__:
        item = getattr(module, name)
        if inspect.isfunction(item):
            assert item.__doc__ and "Example::" in item.__doc__, f"{module.__name__}.{name}"
