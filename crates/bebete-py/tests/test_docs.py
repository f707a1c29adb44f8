"""Every Python block of the README and docs/python.md runs as written, in
order, in one scratch folder (a block may use what an earlier one wrote)."""

import contextlib
import io
import re

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", ROOT / "docs" / "python.md"]


def python_blocks(page):
    """Each Python block, and the text block that follows it after one line
    ("It prints:") when there is one: what the block must print."""
    return re.findall(
        r"```python\n(.*?)```\n(?:\n[^\n`]+\n\n```text\n(.*?)```)?", page.read_text(), flags=re.S
    )


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_python_block_runs(page, scratch):
    blocks = python_blocks(page)
    assert blocks, f"{page} shows no Python"
    for block, shown in blocks:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block, f"{page.name} block", "exec"), {"__name__": "__main__"})
        if shown:
            assert printed.getvalue() == shown, f"{page.name}: the block printed\n{printed.getvalue()}"
