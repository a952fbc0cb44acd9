"""Amounts of food, wood and metal (rules §5): the one value type stocks, incomes, costs and
multipliers share. Kept apart so that every rules module can use it without import cycles."""

from __future__ import annotations

from typing import Annotated, Protocol

import msgspec

from nataterra_core.kernel.secrets import PUBLIC

__all__ = ["Amounts", "Resources"]


class Amounts(Protocol):
    """Anything with food, wood and metal amounts (a content pack's ``Cost``)."""

    @property
    def food(self) -> int: ...
    @property
    def wood(self) -> int: ...
    @property
    def metal(self) -> int: ...


class Resources(msgspec.Struct, frozen=True, gc=False):
    """Food, wood and metal: a stock, an income, a cost or the multipliers."""

    food: Annotated[int, PUBLIC] = 0
    wood: Annotated[int, PUBLIC] = 0
    metal: Annotated[int, PUBLIC] = 0

    @classmethod
    def of(cls, amounts: Amounts) -> Resources:
        """The same amounts as a value of this type (from a pack's ``Cost``)."""
        return cls(amounts.food, amounts.wood, amounts.metal)

    def __add__(self, other: Resources) -> Resources:
        return Resources(self.food + other.food, self.wood + other.wood, self.metal + other.metal)

    def covers(self, cost: Resources) -> bool:
        """Whether this stock can pay ``cost``."""
        return self.food >= cost.food and self.wood >= cost.wood and self.metal >= cost.metal

    def __sub__(self, other: Resources) -> Resources:
        return Resources(self.food - other.food, self.wood - other.wood, self.metal - other.metal)

    def discounted(self, discount: Resources) -> Resources:
        """This cost lowered by ``discount``, never below zero (tactic-card discounts)."""
        return Resources(
            max(0, self.food - discount.food),
            max(0, self.wood - discount.wood),
            max(0, self.metal - discount.metal),
        )

    def scaled(self, times: int) -> Resources:
        """``times`` this amount (a gain per counted thing)."""
        return Resources(self.food * times, self.wood * times, self.metal * times)
