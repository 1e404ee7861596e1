"""The Python examples of the README and of docs/python.md run as written and print what they
show."""

from page_examples import failures


def test_the_readme_example_holds():
    assert failures("README.md") == 0


def test_the_python_page_example_holds():
    assert failures("docs/python.md") == 0
