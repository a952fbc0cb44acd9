"""``docs/BOTS.md``'s bots (issue 29 item 5): every Python block runs as written, and the
section names a complete example for every registered game that ships its own pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

BOTS = Path(__file__).resolve().parents[2] / "docs" / "BOTS.md"
BLOCKS = re.findall(r"```python\n(.*?)```", BOTS.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_there_is_one_example_per_game() -> None:
    games = sorted(re.findall(r'system\("([a-z-]+)"\)', "\n".join(BLOCKS)))
    assert games == ["battlelore", "kaladan", "liars-dice", "nataterra"]


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: re.findall(r"^class (\w+)", b, re.M)[0])
def test_the_example_plays_a_whole_verified_game(block: str) -> None:
    namespace: dict[str, object] = {"__name__": "bots_example"}
    exec(compile(block, str(BOTS), "exec"), namespace)
    session = namespace["session"]
    assert session.closed  # type: ignore[attr-defined]  # the game ran to its end
