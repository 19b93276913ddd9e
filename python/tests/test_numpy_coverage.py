"""docs/guides/numpy-coverage.md's table of jax.numpy's functions says which
tracec.numpy has: checked against the package, so the table stays true."""
import os
import re

import tracec.numpy as tnp

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "guides",
                   "numpy-coverage.md")


def table():
    with open(DOC) as f:
        text = f.read()
    cells = re.findall(r"\| `(\w+)` \| (yes|) ", text)
    count = re.search(r"\*\*(\d+) of\s+(\d+)\*\*", text)
    return {name: mark == "yes" for name, mark in cells}, count


def test_table_matches_the_package():
    claims, count = table()
    assert len(claims) > 250
    wrong = {name for name, has in claims.items()
             if has != callable(getattr(tnp, name, None))}
    assert not wrong, f"the coverage table is wrong about {sorted(wrong)}"
    assert int(count.group(1)) == sum(claims.values())
    assert int(count.group(2)) == len(claims)
