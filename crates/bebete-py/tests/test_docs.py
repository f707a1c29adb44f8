"""Every Python block of the README and docs/python.md runs as written, in
order, in one scratch folder (a block may use what an earlier one wrote)."""

import re

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]


def python_blocks(page):
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_block_runs(page, scratch):
    blocks = python_blocks(page)
    assert blocks, f"{page} shows no Python"
    for block in blocks:
        exec(compile(block, f"{page.name} block", "exec"), {"__name__": "__main__"})
