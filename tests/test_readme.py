"""The README's Python examples run as written."""

from __future__ import annotations

import doctest
import re

from tests.conftest import REPO


def test_readme_examples() -> None:
    result = doctest.testfile(str(REPO / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


def test_an_example_needing_an_extra_names_it_before_the_block() -> None:
    """A reader who installed c4engine plainly runs the examples as they come: one needing an
    optional extra must say so in the prose just before its block, not after it."""
    extras = {"gymnasium": "c4engine[gym]", "pettingzoo": "c4engine[gym]", "pyarrow": "c4engine[parquet]"}
    text = (REPO / "README.md").read_text()
    blocks = re.finditer(r"^```python\n(.*?)^```", text, re.MULTILINE | re.DOTALL)
    checked = 0
    previous_end = 0
    for block in blocks:
        prose = text[previous_end : block.start()]
        for module, extra in extras.items():
            if re.search(rf"^>>> .*\bimport [\w., ]*\b{module}\b", block.group(1), re.MULTILINE):
                assert extra in prose, f"the example importing {module} needs '{extra}' named before it"
                checked += 1
        previous_end = block.end()
    assert checked > 0  # the Gymnasium example is there and was checked
