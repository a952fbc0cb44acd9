"""The research hooks' generic parts (``kernel/encoding.py``): layouts and factored codecs."""

from __future__ import annotations

import pytest
from dicegame import Hold, Roll, Stake

from nataterra_core.kernel.encoding import Block, CodecError, FactoredCodec, Layout, Segment


def _codec() -> FactoredCodec:
    return FactoredCodec(
        (
            Block(Roll, (), ()),
            Block(Stake, (), (("multiplier", (1, 2, 3)),)),
            Block(Hold, (), ()),
        )
    )


def test_blocks_are_numbered_in_order_and_each_index_has_one_meaning() -> None:
    codec = _codec()
    assert codec.size == 5
    assert [
        codec.encode(c) for c in (Roll(), Stake(multiplier=1), Stake(multiplier=3), Hold())
    ] == [
        0,
        1,
        3,
        4,
    ]
    assert codec.describe(2) == "stake.v1 multiplier=2"
    assert codec.meaning(4) == (Hold, {})
    assert codec.summary() == [("roll.v1", 1), ("stake.v1", 3), ("hold.v1", 1)]


def test_decode_picks_the_listed_command_and_refuses_what_is_not_listed() -> None:
    codec = _codec()
    legal = (Roll(), Stake(multiplier=2))
    assert codec.decode(2, legal) is legal[1]
    assert list(codec.mask(legal)) == [1, 0, 1, 0, 0]
    with pytest.raises(CodecError, match="not legal now"):
        codec.decode(4, legal)
    with pytest.raises(CodecError, match="outside"):
        codec.decode(5, legal)


def test_a_value_outside_the_domains_has_no_index() -> None:
    with pytest.raises(CodecError, match="no index"):
        _codec().encode(Stake(multiplier=4))


def test_true_is_not_one_and_none_is_not_zero() -> None:
    """Domain values are told apart by type, as msgspec tells the commands apart."""
    codec = FactoredCodec((Block(Stake, (), (("multiplier", (0, 1)),)),))
    with pytest.raises(CodecError):
        codec.encode(Stake(multiplier=True))


def test_a_layout_documents_offsets_and_checks_positions() -> None:
    layout = Layout((Segment("a", 2, "first"), Segment("b", 3, "second")))
    assert layout.size == 5 and layout.offsets == {"a": 0, "b": 2}
    assert layout.describe().splitlines()[1].split() == ["2", "3", "b:", "second"]
    features = layout.features()
    features.set("b", 2, 7)
    features.add("b", 2, 1)
    features.put("a", (1, 2))
    assert features.values == [1.0, 2.0, 0.0, 0.0, 8.0]
    with pytest.raises(IndexError, match=r"b\[3\]"):
        features.set("b", 3, 1)
    with pytest.raises(ValueError, match="twice"):
        Layout((Segment("a", 1, ""), Segment("a", 1, "")))
