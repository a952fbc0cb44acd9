"""Kaladan's content pack on the shared loader: provisional values marked, overlay by id,
binding facts checked, a malformed pack refused with every problem named (K-CARD-1,
K-CARD-2, K-TER-1, K-BUY-2, K-SET-1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from nataterra_core.games.kaladan.content import load_pack
from nataterra_core.games.kaladan.content.checks import EVENT_EFFECTS, MAGIC_EFFECTS
from nataterra_core.kernel.errors import ContentError


def test_K_CARD_1_K_CARD_2_the_provisional_pack() -> None:
    pack = load_pack()
    assert pack.base.provisional and pack.economy.provisional
    assert len(pack.events) == 24 and len(pack.magic_cards()) == 16 and len(pack.magic) == 8
    assert all(c.provisional for c in (*pack.events.values(), *pack.magic.values()))
    assert all(u.provisional for u in pack.units.values())
    assert all(m.provisional for m in pack.maps.values())
    assert {e.kind for c in pack.events.values() for e in c.effects} == EVENT_EFFECTS
    assert {c.effect.kind for c in pack.magic.values()} == set(MAGIC_EFFECTS)
    assert {c.scope for c in pack.events.values()} == {"personal", "global"}
    assert {c.target for c in pack.events.values()} == {"active", "all", "richest", "strongest"}
    assert any(c.condition is not None for c in pack.events.values())


def test_a_user_pack_overlays_by_id(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text('[pack]\nid = "mine"\nversion = "1"\n')
    (tmp_path / "cards.toml").write_text(
        '[[events]]\nid = "tithe"\neffects = [{ kind = "gold", amount = 3 }]\n'
        '[[units]]\nid = "archer"\nattack = 12\n'
    )
    pack = load_pack(tmp_path)
    assert pack.pack_id == "mine" and pack.events["tithe"].effects[0].amount == 3
    assert pack.events["tithe"].title == "Tithe" and pack.units["archer"].attack == 12
    assert pack.sha256 != load_pack().sha256


def test_K_TER_1_K_BUY_2_a_malformed_pack_is_refused_with_every_problem_named(
    tmp_path: Path,
) -> None:
    """An unknown unit, a capacity contradicting the binding table and an effect breaking
    K-TER-1 are reported at once, each with its file and path."""
    (tmp_path / "pack.toml").write_text('[pack]\nid = "bad"\nversion = "1"\n')
    (tmp_path / "economy.toml").write_text("[economy]\nstart_reserve = { wizard = 2 }\n")
    (tmp_path / "terrain.toml").write_text('[[terrains]]\nid = "plain"\ncapacity = 5\n')
    (tmp_path / "cards.toml").write_text(
        '[[events]]\nid = "tithe"\neffects = [{ kind = "capacity", amount = 1 }]\n'
        '[[units]]\nid = "catapult"\nplace_cost = 1\n'
    )
    with pytest.raises(ContentError) as raised:
        load_pack(tmp_path)
    found = {(p.file, p.path): p.message for p in raised.value.problems}
    assert (
        "unknown unit 'wizard'" in found[("overlay/economy.toml", "$.economy.start_reserve.wizard")]
    )
    assert "K-TER-1" in found[("overlay/terrain.toml", "$.terrains[0].capacity")]
    assert "K-TER-1" in found[("overlay/cards.toml", "$.events[0].effects[0].kind")]
    assert "K-BUY-2" in found[("overlay/cards.toml", "$.units[0].place_cost")]
    assert len(raised.value.problems) == 4
    text = str(raised.value)
    assert text.count("overlay/") == 4


def test_K_EV_6_an_event_harming_a_crown_is_refused(tmp_path: Path) -> None:
    (tmp_path / "pack.toml").write_text('[pack]\nid = "bad"\nversion = "1"\n')
    (tmp_path / "cards.toml").write_text(
        '[[events]]\nid = "plague"\neffects = [{ kind = "lose_unit", unit = "crown" }]\n'
        '[[magic]]\nid = "haste"\ntiming = "income"\n'
    )
    with pytest.raises(ContentError) as raised:
        load_pack(tmp_path)
    messages = [p.message for p in raised.value.problems]
    assert any("K-EV-6" in text for text in messages)
    assert any("K-CARD-2" in text for text in messages)
