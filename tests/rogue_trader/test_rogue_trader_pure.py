"""Pure tests (no server): the to-hit chart and 7+ procedure (E1, E2), weapon S vs creature S (E3),
arcs, results, the reducer's totality and the log sentences."""

from __future__ import annotations

import msgspec
import pytest

from events.dice import Dice, Modifier
from events.envelope import Event
from rules.rogue_trader import ruleset
from rules.rogue_trader.allocation import arc_of, build_blow
from rules.rogue_trader.attacks import Blow, resolve_blow, roll_to_hit, table_to_hit, wound_score
from rules.rogue_trader.combat_round import unit_result
from rules.rogue_trader.options import DEFAULTS
from rules.rogue_trader.tables import DEFAULT_HIGH_TO_HIT, DEFAULT_WOUND_CHART, TO_HIT
from rules.state import initial_state

HIGH = dict(DEFAULT_HIGH_TO_HIT)


def dice(*faces: list[int]) -> Dice:
    return Dice(stream="t", command_id="c", supplied=[list(f) for f in faces])


def hit(table: int, mods: list[Modifier], *faces: list[int]) -> tuple[str, list]:
    d = dice(*faces)
    outcome, events = roll_to_hit(d, table, mods, HIGH, "to_hit", "a")
    d.check_all_used()
    return outcome, events


CHARGING = Modifier(1, "charging")


def test_to_hit_chart_is_the_seed_table():
    assert table_to_hit(4, 3) == 4 and table_to_hit(9, 1) == 2 and table_to_hit(1, 5) == 7
    assert table_to_hit(3, 3) == 5 and table_to_hit(2, 10) == 9 and table_to_hit(5, 3) == 4
    assert table_to_hit(12, 0) == TO_HIT[9][0]  # A32: clamped to 1-10
    assert [row[0] for row in TO_HIT] == [5, 4, 4, 3, 3, 2, 2, 2, 2, 2]


def test_e1_ws4_vs_ws3():
    outcome, evs = hit(4, [], [3])
    assert outcome == "miss" and evs[0].total == 3 and evs[0].target == 4
    outcome, evs = hit(4, [CHARGING], [3])
    assert outcome == "hit" and evs[0].total == 4 and evs[0].modifiers == [CHARGING]
    outcome, evs = hit(4, [CHARGING], [1])
    assert outcome == "miss" and evs[0].total == 2


def test_e2a_minimum_two():
    frenzied = [Modifier(2, "frenzied")]
    assert hit(2, frenzied, [1])[0] == "miss"
    assert hit(2, frenzied, [2])[0] == "hit"


def test_e2b_seven_plus():
    outcome, evs = hit(7, [], [6], [4])
    assert outcome == "hit" and evs[0].outcome == "six_rolled" and evs[1].purpose == "to_hit_second"
    assert evs[1].target == 4
    assert hit(7, [], [6], [3])[0] == "miss"
    outcome, evs = hit(7, [], [5])
    assert outcome == "miss" and len(evs) == 1


def test_e2c_charging_brings_seven_to_six():
    outcome, evs = hit(7, [CHARGING], [6])
    assert outcome == "hit" and len(evs) == 1


def test_e2d_improvised_makes_seven():
    assert hit(5, [Modifier(-2, "improvised")], [6], [4])[0] == "hit"


def test_e2e_impossible_draws_no_die():
    outcome, evs = hit(9, [Modifier(-2, "improvised")])
    assert outcome == "impossible" and evs == []


def _model(cid: str, **stats) -> dict:
    base = {
        "M": 4,
        "WS": 4,
        "BS": 4,
        "S": 4,
        "T": 4,
        "W": 1,
        "I": 4,
        "A": 1,
        "Ld": 8,
        "save": None,
        "weapons": [],
    }
    base.update(stats)
    return {
        "id": cid,
        "name": cid,
        "side": "a",
        "stats": base,
        "position": [0, 0],
        "facing": 0,
        "conditions": [],
        "wounds": 0,
    }


def test_e3_power_sword_strength():
    state = {**initial_state(), "options": DEFAULTS, "rules": ruleset.initial_state({})}
    sword = {"attack": "weapon", "weapon": "ps", "hand": "R", "damage": "1", "S": 5, "save_mod": 0}
    m2 = _model("m2", S=4)
    c2 = _model("c2", T=3, WS=3)
    blow = build_blow(state, m2, c2, sword, weapons_in_use=1, in_round=True)
    assert blow.strength == 5
    assert wound_score(DEFAULT_WOUND_CHART, 5, 3) == 2
    result = resolve_blow(dice([4], [2]), blow, c2, DEFAULTS)
    assert result.outcome == "wounded" and result.wounds == 1
    ogre = _model("ogre", S=6)
    assert build_blow(state, ogre, c2, sword, weapons_in_use=1, in_round=True).strength == 6


def test_wound_chart_no_effect_draws_no_die():
    blow = Blow("a", "b", "weapon", 1, 0, "1", 4, [])
    result = resolve_blow(dice([6]), blow, _model("b", T=5), DEFAULTS)
    assert result.outcome == "no_effect" and len(result.events) == 1


def test_save_modifiers_and_natural_one():
    blow = Blow("a", "b", "weapon", 4, -2, "1", 4, [])
    target = _model("b", save=3)
    saved = resolve_blow(dice([6], [6], [5]), blow, target, DEFAULTS)
    assert saved.outcome == "saved"
    roll = saved.events[-1]
    assert roll.purpose == "save" and roll.total == 3 and roll.target == 3
    failed = resolve_blow(dice([6], [6], [4]), blow, target, DEFAULTS)
    assert failed.outcome == "wounded"
    hopeless = resolve_blow(dice([6], [6]), Blow("a", "b", "weapon", 4, -4, "1", 4, []), target, DEFAULTS)
    assert hopeless.outcome == "wounded"  # 3 + 4 = 7 needed: no roll


@pytest.mark.parametrize(
    ("defender", "arc"),
    [
        ((0, 150), "front"),
        ((0, -150), "rear"),
        ((150, 0), "right"),
        ((-150, 0), "left"),
        ((100, 100), "front"),
        ((100, -100), "right"),
    ],
)
def test_e5_arcs(defender, arc):
    assert arc_of([0, 0], 90, list(defender)) == arc


@pytest.mark.parametrize(
    ("pairs", "result"),
    [
        (["win", "loss"], "messy_draw"),
        (["loss"], "lost"),
        (["win", "draw"], "won"),
        (["draw"], "draw"),
    ],
)
def test_e9_unit_results(pairs, result):
    assert unit_result(pairs) == result


def _fold(events: list[msgspec.Struct]) -> dict:
    state = {**initial_state(), "rules": ruleset.initial_state({})}
    from rules.state import evolve

    for i, ev in enumerate(events, start=1):
        state = evolve(
            state, Event("s", i, type(ev).__name__, msgspec.to_builtins(ev), "gm", "c", "", "", ""), ruleset
        )
    return state


def test_describe_sentences():
    from rules.rogue_trader.events import RtCombatRoundResolved

    ev = Event(
        "s",
        1,
        "DieRolled",
        msgspec.to_builtins(roll_to_hit(dice([3]), 4, [CHARGING], HIGH, "to_hit", "m1")[1][0]),
        "gm",
        "c",
        "",
        "",
        "",
    )
    state = {**initial_state(), "combatants": {"m1": {"name": "Sgt Varro"}}}
    assert ruleset.describe(state, ev) == "Sgt Varro rolls to hit: 3 +1 (charging) = 4, needs 4 — hit."
    rr = RtCombatRoundResolved(
        3,
        "g",
        [],
        [{"unit": "R", "vs": "B", "caused": 1, "received": 0, "result": "win"}],
        {"R": "won", "B": "lost"},
    )
    sentence = ruleset.describe(
        state, Event("s", 2, "RtCombatRoundResolved", msgspec.to_builtins(rr), "gm", "c", "", "", "")
    )
    assert sentence == (
        "Round 3: unit R caused 1 wound and took 0; unit B caused 0 wounds and took 0 — unit R wins the "
        "round; unit B loses it and must take a rout test."
    )
