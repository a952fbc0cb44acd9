"""The scenario book (``docs/SCENARIOS.md``): six scenarios of the rulebook and two skirmish
maps, as data. The maps, where markers and units start and the stocks are pictures in the
rulebook that its text does not reproduce: every placement here is provisional (a Ruling
of ``docs/SCENARIOS.md``), like the provisional content pack.
"""

from __future__ import annotations

from .model import (
    Effects,
    HoldToTheEnd,
    MarkerDestroyedWins,
    MarkerInBase,
    MarkerReaches,
    MarkerRule,
    PointsLead,
    RoundsHeld,
    Scenario,
    Setup,
    UnitsOnMarker,
)

__all__ = ["BOOK"]

_BEST_MAP = (
    "structured:t1@0,0,0;t2@-1,1,2;t3@-1,0,4;velathi@-4,1,1;beasts@2,-3,3;humans@0,3,5"
    "|mountain:t1.z4;mountain:t2.z5;lake:t1.z6"
)
"""What We Do Best (N-SCN-BEST-1): the three-player map with a lake (the harbour, the crown)
next to the Humans' base, where the supply ship calls."""

_HOLLOW_MAP = (
    "structured:t0a@0,0,0;t12@1,-1,4;t1@4,-1,3;t13@4,0,2;t5@1,3,3;velathi@1,4,3;beasts@5,0,2"
    "|mountain:beasts.z4;mountain:velathi.z2;mountain:beasts.z3;mountain:velathi.z4"
)
_SAND_MAP = (
    "structured:t0a@0,0,0;t1@1,-1,4;t2@4,-3,1;t10@2,2,4;t4@1,3,3;beasts@5,0,2;velathi@1,4,1"
    "|mountain:velathi.z3;mountain:beasts.z3;mountain:velathi.z2;mountain:beasts.z4"
)

FERGUS = Scenario(
    id="fergus_grove",
    title="The Battle of Fergus Grove",
    title_de="Die Schlacht von Fergus Grove",
    kind="story",
    seats=("velathi", "naga"),
    map="four_players",
    goal="Velathi: 5 combat units on the crown at the start of a turn; Naga: hold to the end",
    first="velathi",
    max_turns=30,
    setup=Setup(
        units=(
            ("velathi.z1", "velathi", "disciple", 3),
            ("velathi.z1", "velathi", "zealot", 3),
            ("t4.z5", "naga", "kambar", 3),
            ("t4.z5", "naga", "fairy", 3),
        ),
        markers=(
            ("crown", "t4.z5", None),
            ("portal", "t2.z6", "naga"),
            ("portal", "t3.z6", "naga"),
            ("portal", "t4.z6", "naga"),
        ),
    ),
    markers=(
        MarkerRule("portal", "N-SCN-FERGUS-7", enemy_of="velathi", destroy_rule="N-SCN-FERGUS-7"),
    ),
    effects=Effects(
        flare_at_start=("naga", 30, "N-SCN-FERGUS-3"),
        single_structure=("sacred_tree", "N-SCN-FERGUS-4"),
        marker_recruit=("naga", "portal", "forest_snake", 1, "N-SCN-FERGUS-5"),
        draw_at_end=("velathi", "N-SCN-FERGUS-6"),
    ),
    wins=(
        UnitsOnMarker("N-SCN-FERGUS-2", "velathi", "crown", 5),
        HoldToTheEnd("N-SCN-FERGUS-8", "naga"),
    ),
)

CARRIAGE = Scenario(
    id="peril_of_the_carriage",
    title="The Peril of the Carriage",
    title_de="Die Gefahr der Kutsche",
    kind="story",
    seats=("beasts", "humans"),
    map="three_players",
    goal="Beasts: destroy the carriage; Humans: bring the carriage to the crown",
    first="beasts",
    max_turns=24,
    setup=Setup(
        units=(
            ("beasts.z1", "beasts", "goblin", 4),
            ("beasts.z1", "beasts", "orc", 3),
            ("humans.z4", "humans", "spearman", 3),
            ("humans.z1", "humans", "marksman", 3),
        ),
        markers=(
            ("carriage", "humans.z4", "humans"),
            ("crown", "t3.z5", None),
            ("village", "t3.z2", None),
        ),
    ),
    markers=(
        MarkerRule(
            "carriage",
            "N-SCN-CARRIAGE-4",
            moves={"humans": 1},
            enemy_of="beasts",
            destroy_rule="N-SCN-CARRIAGE-6",
        ),
    ),
    effects=Effects(marker_recruit=("beasts", "village", None, 0, "N-SCN-CARRIAGE-5")),
    wins=(
        MarkerDestroyedWins("N-SCN-CARRIAGE-2", "beasts", "carriage"),
        MarkerReaches("N-SCN-CARRIAGE-3", "humans", "carriage", "crown"),
    ),
)

NIGHT = Scenario(
    id="night_of_flames_and_shadows",
    title="The Night of Flames and Shadows",
    title_de="Die Nacht der Flammen und Schatten",
    kind="story",
    seats=("velathi", "beasts"),
    map="learning",
    goal="Velathi: destroy the crown; Beasts: protect the crown for 10 rounds",
    first="velathi",
    max_turns=24,
    setup=Setup(
        units=(
            ("velathi.z1", "velathi", "disciple", 3),
            ("velathi.z1", "velathi", "zealot", 3),
            ("beasts.z2", "beasts", "orc", 3),
            ("beasts.z2", "beasts", "goblin", 4),
        ),
        markers=(("crown", "beasts.z2", "beasts"),),
    ),
    markers=(
        MarkerRule("crown", "N-SCN-NIGHT-3", enemy_of="velathi", destroy_rule="N-SCN-NIGHT-3"),
    ),
    effects=Effects(round_die=("beasts", "N-SCN-NIGHT-2")),
    wins=(
        RoundsHeld("N-SCN-NIGHT-4", "beasts", "crown", 10),
        MarkerDestroyedWins("N-SCN-NIGHT-5", "velathi", "crown"),
    ),
)

BEST = Scenario(
    id="what_we_do_best",
    title="What We Do Best",
    title_de="Was wir am besten können",
    kind="story",
    seats=("velathi", "humans"),
    map=_BEST_MAP,
    goal="Both: have the cyclops in your base at the start of your turn",
    first="velathi",
    max_turns=30,
    setup=Setup(
        units=(
            ("velathi.z1", "velathi", "disciple", 3),
            ("velathi.z1", "velathi", "zealot", 3),
            ("t2.z1", "humans", "marksman", 3),
            ("t2.z1", "humans", "spearman", 3),
        ),
        markers=(
            ("cyclops", "t2.z1", None),
            ("ship", "humans.z1", "humans"),
            ("crown", "t1.z6", None),
        ),
    ),
    markers=(
        MarkerRule("cyclops", "N-SCN-BEST-2", moves={"humans": 1, "velathi": 2}, control="occupy"),
        MarkerRule(
            "ship",
            "N-SCN-BEST-3",
            moves={"humans": 2},
            water=True,
            dock="crown",
            enemy_of="velathi",
            destroy_rule="N-SCN-BEST-5",
        ),
    ),
    effects=Effects(cargo=("humans", "crown", 3, "N-SCN-BEST-4")),
    wins=(MarkerInBase("N-SCN-BEST-6", ("velathi", "humans"), "cyclops"),),
)

FRAGMENT = Scenario(
    id="the_found_fragment",
    title="The Found Fragment",
    title_de="Das gefundene Fragment",
    kind="mission",
    seats=("velathi", "beasts", "humans"),
    map="three_players",
    goal="Have the fragment in your base at the start of your turn",
    first=None,
    max_turns=36,
    setup=Setup(
        units=(
            ("velathi.z1", "velathi", "disciple", 3),
            ("beasts.z1", "beasts", "orc", 3),
            ("humans.z1", "humans", "spearman", 3),
        ),
        markers=(("fragment", "t2.z1", None),),
    ),
    markers=(
        MarkerRule(
            "fragment",
            "N-SCN-FRAGMENT-2",
            moves={"velathi": 2, "beasts": 2, "humans": 2},
            control="occupy",
        ),
    ),
    wins=(MarkerInBase("N-SCN-FRAGMENT-3", ("velathi", "beasts", "humans"), "fragment"),),
)

HOME = Scenario(
    id="a_new_home",
    title="A New Home",
    title_de="Ein neues Zuhause",
    kind="mission",
    seats=("beasts", "velathi", "naga"),
    map="four_players",
    goal="Sacrifice workers on the village for points; win 3 points ahead of everyone",
    first=None,
    max_turns=36,
    setup=Setup(
        units=(
            ("beasts.z1", "beasts", "orc", 3),
            ("velathi.z1", "velathi", "disciple", 3),
            ("naga.z1", "naga", "kambar", 3),
        ),
        markers=(("village", "t2.z6", None),),
    ),
    effects=Effects(sacrifice=("village", "N-SCN-HOME-2", "N-SCN-HOME-3")),
    wins=(PointsLead("N-SCN-HOME-4", 3),),
)


def _skirmish(scenario_id: str, title: str, title_de: str, map_id: str) -> Scenario:
    """A skirmish (N-SCN-GEN-1): Velathi and Beasts, advanced mode, a predefined map."""
    return Scenario(
        id=scenario_id,
        title=title,
        title_de=title_de,
        kind="skirmish",
        seats=("velathi", "beasts"),
        map=map_id,
        goal="The standard advanced victory conditions (strategy, war, glory)",
        first=None,
        max_turns=80,
        mode="advanced",
    )


HOLLOW = _skirmish("the_cursed_hollow", "The Cursed Hollow", "Die verfluchte Mulde", _HOLLOW_MAP)
SAND = _skirmish("golden_sand", "Golden Sand", "Goldener Sand", _SAND_MAP)

BOOK: dict[str, Scenario] = {
    s.id: s for s in (FERGUS, CARRIAGE, NIGHT, BEST, FRAGMENT, HOME, HOLLOW, SAND)
}
"""Every scenario by id, in book order."""
