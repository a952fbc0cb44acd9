"""The order of bids (L-BID-2, L-BID-4) stated as the rules text states it, checked against
the key the engine compares, for every pair of bids hypothesis finds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from nataterra_core.games.liars_dice.rules.bidding import bid_key

quantities = st.integers(min_value=1, max_value=30)
faces = st.integers(min_value=1, max_value=6)


def raises_as_written(before: tuple[int, int], after: tuple[int, int], wild: bool) -> bool:
    """Whether ``after`` may follow ``before``, in the words of L-BID-2 and L-BID-4."""
    (q0, f0), (q1, f1) = before, after
    if wild and f0 == 1 and f1 == 1:
        return q1 > q0  # ones raise ones by quantity
    if wild and f1 == 1:
        return 2 * q1 >= q0  # at least half the last quantity, rounded up
    if wild and f0 == 1:
        return q1 > 2 * q0  # more than double the ones
    return q1 > q0 or (q1 == q0 and f1 > f0)


@settings(deadline=None, max_examples=400)
@given(quantities, faces, quantities, faces, st.booleans())
def test_L_BID_4_the_engine_s_order_is_the_rules_text_s(
    q0: int, f0: int, q1: int, f1: int, wild: bool
) -> None:
    engine = bid_key(q1, f1, wild) > bid_key(q0, f0, wild)
    assert engine == raises_as_written((q0, f0), (q1, f1), wild)


@settings(deadline=None, max_examples=200)
@given(quantities, faces, quantities, faces, st.booleans())
def test_L_BID_2_two_different_bids_are_always_ordered(
    q0: int, f0: int, q1: int, f1: int, wild: bool
) -> None:
    """A strict total order: of two different bids exactly one may follow the other."""
    if (q0, f0) != (q1, f1):
        assert (bid_key(q0, f0, wild) > bid_key(q1, f1, wild)) != (
            bid_key(q1, f1, wild) > bid_key(q0, f0, wild)
        )
