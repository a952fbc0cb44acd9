"""The rulebook's worked combat examples on the damage arithmetic (rules §6, §12)."""

from __future__ import annotations

from nataterra_core.games.nataterra.rules.combat.damage import (
    attack_total,
    damage_dealt,
    heal_amount,
    resolve_damage,
    retaliation_damage,
    support_amount,
)


def test_N_COMBAT_15_goblin_hits_disciple_6_dealt_4_taken() -> None:
    # Reinforced Goblin (side B attack 3), +2 attack bonus, die +1 -> 6; Disciple armor 0
    # with armor bonus 2 takes 4; both spend their bonus tokens.
    total = attack_total(3, 1, 2, 1)
    assert total == 6
    hit = damage_dealt(
        total, attacking_units=1, pierce=0, armor=0, armor_bonus=2, splash=0, target_units=1
    )
    assert hit.damage == 4
    assert hit.armor_bonus_spent


def test_N_COMBAT_15_armor_bonus_kept_when_armor_stops_everything() -> None:
    hit = damage_dealt(
        3, attacking_units=1, pierce=0, armor=4, armor_bonus=2, splash=0, target_units=1
    )
    assert hit == (0, False)


def test_N_COMBAT_15_damage_is_never_negative() -> None:
    hit = damage_dealt(
        -4, attacking_units=1, pierce=0, armor=0, armor_bonus=0, splash=0, target_units=1
    )
    assert hit.damage == 0


def test_N_ABL_1_pierce_ignores_armor_then_armor_bonus() -> None:
    # 4 Goblins with Pierce 1: p = 4 against armor 2 and armor bonus 3: a' = 0, p' = 2.
    hit = damage_dealt(
        10, attacking_units=4, pierce=1, armor=2, armor_bonus=3, splash=0, target_units=1
    )
    assert hit == (9, True)


def test_N_ABL_12_splash_adds_target_units_minus_one() -> None:
    hit = damage_dealt(
        5, attacking_units=1, pierce=0, armor=1, armor_bonus=0, splash=1, target_units=3
    )
    assert hit.damage == 4 + 2


def test_N_COMBAT_16_two_disciples_with_ten_damage() -> None:
    # Health 8: 10 markers -> one Disciple dies, 2 markers remain.
    assert resolve_damage(10, units=2, health=8) == (1, 2)


def test_N_COMBAT_16_wiped_out_group_keeps_no_markers() -> None:
    assert resolve_damage(30, units=2, health=8) == (2, 0)


def test_N_COMBAT_14_two_orcs_attack_6_of_a_maximum_9() -> None:
    # Orc attack 3: two Orcs attack 6; with the best face (+3) at most 9.
    assert attack_total(3, 2, 0, 0) == 6
    assert attack_total(3, 2, 0, 3) == 9


def test_N_COMBAT_19_cave_golem_support_and_protector() -> None:
    # 2 Cave Golems (attack 2, armor 4): +2 attack or +4 armor; Protector (Reinforce 4 each)
    # adds 8 more.
    assert support_amount(2, units=2, reinforce=0) == 2
    assert support_amount(4, units=2, reinforce=0) == 4
    assert support_amount(4, units=2, reinforce=4) == 4 + 8


def test_N_ABL_3_three_orcs_with_two_heal_remove_6() -> None:
    assert heal_amount(3, 2) == 6


def test_N_ABL_9_two_zealots_retaliate_2() -> None:
    assert retaliation_damage(2, 1) == 2
