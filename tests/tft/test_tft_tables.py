"""Pure tests of the literal tables: DX in HTH, the defense roll, damage, Take Down dice; evolve's totality."""

from __future__ import annotations

import msgspec
import pytest

from events.common import CloseCombatJoined, CombatantJoined, EncounterCreated, TurnStarted
from events.dice import Dice
from events.envelope import Event
from rules.state import evolve, initial_state
from rules.tft import ruleset
from rules.tft.damage import fist_damage
from rules.tft.defense_table import DefenseContext, defense_modifiers, may_throw, result_for
from rules.tft.describe import PURPOSE_WORDS, describe
from rules.tft.dx_in_hth import hth_dx
from rules.tft.events import TFT_EVENTS, StandingCheckResolved
from rules.tft.figures import group_standing
from rules.tft.options import DEFAULTS
from rules.tft.standing import take_down_dice
from rules.tft.state import DEFAULT_PREFERENCES


def _fold(events: list, options: dict | None = None) -> dict:
    state = initial_state()
    for i, e in enumerate(
        [
            EncounterCreated(
                "t", "tft", "1", {**DEFAULTS, **(options or {})}, ruleset.geometry, None, "manual"
            ),
            *events,
        ],
        1,
    ):
        env = Event("s", i, type(e).__name__, msgspec.to_builtins(e), "gm", f"c{i}", "", "", "")
        if env.type == "EncounterCreated":
            state = {**state, "rules": ruleset.initial_state({})}
        state = evolve(state, env, ruleset)
    return state


def _join(id: str, side: str, st_: int, dx: int, pos: list[int], **stats) -> CombatantJoined:
    items = stats.pop("items", [])
    data = ruleset.validate_combatant(
        {},
        {
            "id": id,
            "name": id.title(),
            "side": side,
            "stats": {"st": st_, "adj_dx": dx, **stats},
            "items": items,
            "talents": {},
        },
    )
    return CombatantJoined(
        id, id.title(), side, None, data["stats"], pos, 0, "standing", data["items"], {}, {}
    )


@pytest.mark.parametrize(
    "st_other, unarmed, expected",
    [
        (30, False, 14 + 4),  # Judo 2: +4 DX
        (30, True, 14 + 6),  # +6 unarmed
        (10, True, 14 + 8),  # +8 unarmed and strongest (ST 12 + 8 = 20 > 10)
    ],
)
def test_judo2_dx_check(st_other: int, unarmed: bool, expected: int) -> None:
    items = (
        []
        if unarmed
        else [{"id": "d", "kind": "weapon", "dagger_list": True, "hth_damage": "1d6", "state": "ready"}]
    )
    s = _fold(
        [
            _join("k", "a", 12, 14, [0, 0], judo=2, items=items),
            _join("o", "b", st_other, 10, [0, 0]),
            CloseCombatJoined("g1", ["k", "o"], [0, 0], False),
        ]
    )
    assert hth_dx(s, "k")[0] == expected


def test_shield_and_strongest_rows() -> None:
    shield = {"id": "sh", "kind": "shield", "stops": 2, "state": "worn"}
    s = _fold(
        [
            _join("a", "a", 15, 12, [0, 0], items=[shield]),
            _join("b", "b", 11, 12, [0, 0]),
            CloseCombatJoined("g1", ["a", "b"], [0, 0], False),
        ]
    )
    target, mods = hth_dx(s, "a")
    assert target == 12 and [(m.value, m.reason) for m in mods] == [
        (-2, "sh worn (stops 2)"),
        (2, "strongest figure in HTH"),
    ]
    assert hth_dx(s, "b", "spell")[0] == 6


@pytest.mark.parametrize(
    "total, result",
    [
        (-1, "enter_no_draw"),
        (2, "enter_no_draw"),
        (3, "enter_may_draw"),
        (4, "enter_may_draw"),
        (5, "knocked_back"),
        (6, "knocked_back_free_hit"),
        (9, "knocked_back_free_hit"),
    ],
)
def test_defense_result_table(total: int, result: str) -> None:
    assert result_for(total) == result


def _ctx(
    e: dict, d: dict, dive: bool = False, shift: int = -1, allowed: bool = True, **prefs
) -> DefenseContext:
    return DefenseContext(
        {}, {"stats": e}, {"stats": d}, dive, shift, {**DEFAULT_PREFERENCES, **prefs}, allowed
    )


def test_defense_modifiers() -> None:
    assert [m.value for m in defense_modifiers(_ctx({}, {"dive_block": 2}, dive=True))] == [1, 1, 2]
    assert [m.value for m in defense_modifiers(_ctx({}, {"dive_block": 2}, dive=True, allowed=False))] == [1]
    assert [m.value for m in defense_modifiers(_ctx({"judo": 2}, {}, shift=0))] == [-1]
    assert [m.value for m in defense_modifiers(_ctx({"judo": 2}, {"judo": 2}))] == [-1, -1, 1, 1]
    assert defense_modifiers(_ctx({}, {"judo": 1}, use_judo1_defense=False)) == []
    assert [m.value for m in defense_modifiers(_ctx({}, {"judo": 2}, judo2_shift_defense=-1))] == [1, -1]


def test_throw_needs_judo_unarmed_and_not_large() -> None:
    assert may_throw(7, {"stats": {}}, {"stats": {"judo": 1}, "items": []})
    assert not may_throw(6, {"stats": {}}, {"stats": {"judo": 1}, "items": []})
    assert not may_throw(7, {"stats": {"large": True}}, {"stats": {"judo": 1}, "items": []})
    assert not may_throw(
        7, {"stats": {}}, {"stats": {"judo": 1}, "items": [{"kind": "weapon", "state": "ready"}]}
    )


@pytest.mark.parametrize("st_, dmg", [(8, "1d6-4"), (11, "1d6-2"), (16, "1d6"), (35, "2d6+1"), (60, "3d6+1")])
def test_fist_damage_by_st(st_: int, dmg: str) -> None:
    assert fist_damage({"options": {"fist_damage": "by_st"}}, {"stats": {"st": st_}}) == dmg
    assert fist_damage({"options": {}}, {"stats": {"st": st_}}) == "1d6-4"
    assert fist_damage({"options": {}}, {"stats": {"st": st_, "fist_damage": "1d6-2"}}) == "1d6-2"


def test_take_down_dice_raise_x_for_a_stander_with_no_dice() -> None:
    s = _fold([_join("p", "a", 12, 10, [0, 0], uc=5), _join("s", "b", 12, 10, [0, 0], uc=0)])
    assert take_down_dice(s, "p", "s") == (2, 9)
    s = _fold([_join("p", "a", 12, 10, [0, 0], uc=0), _join("s", "b", 12, 10, [0, 0], uc=5)])
    assert take_down_dice(s, "p", "s") == (4, 1)  # offset -3: X raised from 2 to 4


def test_describe_covers_every_tft_event_and_roll() -> None:
    s = _fold(
        [
            _join("a", "a", 12, 10, [0, 0]),
            _join("b", "b", 12, 10, [0, 0]),
            CloseCombatJoined("g1", ["a", "b"], [0, 0], False),
        ]
    )
    samples = {
        "HthEntryResolved": {
            "entrant": "a",
            "defender": "b",
            "way": "enter_hth",
            "total": 2,
            "result": "enter_no_draw",
        },
        "HthFirstTurn": {"combatant": "a", "turn": 1},
        "HthConsentGiven": {"defender": "b", "entrant": "a", "turn": 1},
        "HthPreferencesSet": {"combatant": "a", **DEFAULT_PREFERENCES},
        "StandingCheckResolved": {"group": "g1", "case": 3, "standing": True},
        "TakeDownResolved": {
            "group": "g1",
            "puller": "a",
            "stander": "b",
            "puller_dice": 2,
            "stander_dice": 4,
            "taken_down": False,
        },
        "TftMoveCounted": {"combatant": "a", "path": [[1, 0]], "hexes_moved": 1},
    }
    assert set(samples) == {cls.__name__ for cls in TFT_EVENTS}
    for t, data in samples.items():
        text = describe(s, Event("s", 9, t, data, "gm", "c", "", "", ""))
        assert text and ("A" in text or "brawl" in text), t
    dice = Dice(stream="t", command_id="c", supplied=[[2, 3, 4]] * len(PURPOSE_WORDS))
    for purpose in PURPOSE_WORDS:
        ev = dice.roll(3, 6, purpose, "b").event(total=9, target=10, outcome="success")
        text = describe(s, Event("s", 9, "DieRolled", msgspec.to_builtins(ev), "gm", "c", "", "", ""))
        assert text and text.startswith("B rolls 3d6"), purpose


def test_turn_start_resets_the_turn_records() -> None:
    s = _fold([_join("a", "a", 12, 10, [0, 0]), TurnStarted(1)])
    rules = ruleset.evolve(
        s["rules"], Event("s", 9, "HthFirstTurn", {"combatant": "a", "turn": 1}, "gm", "c", "", "", "")
    )
    assert rules["figures"]["a"]["hth_first_turn"] == 1
    rules = ruleset.evolve(rules, Event("s", 10, "TurnStarted", {"turn": 2}, "gm", "c", "", "", ""))
    assert rules["figures"]["a"]["hth_first_turn"] is None and rules["turn"] == 2


def test_a_group_stands_as_the_common_state_says() -> None:
    joins = [_join("a", "a", 12, 10, [0, 0]), _join("b", "b", 12, 10, [0, 0])]
    s = _fold([*joins, CloseCombatJoined("g1", ["a", "b"], [0, 0], True)], {"standing_in_hth": True})
    assert group_standing(s, s["groups"]["g1"]) is True
    # A fall re-emits the group: common flag and tft record both say fallen; members are unchanged.
    s = _fold(
        [
            *joins,
            CloseCombatJoined("g1", ["a", "b"], [0, 0], True),
            StandingCheckResolved("g1", 1, False),
            CloseCombatJoined("g1", ["a", "b"], [0, 0], False),
        ]
    )
    assert s["groups"]["g1"]["standing"] is False and s["groups"]["g1"]["combatants"] == ["a", "b"]
    assert s["rules"]["groups"]["g1"]["standing"] is False and group_standing(s, s["groups"]["g1"]) is False
    assert (
        describe(
            s,
            Event(
                "s",
                9,
                "CloseCombatJoined",
                {"group": "g1", "combatants": ["a", "b"], "at": [0, 0], "standing": False},
                "gm",
                "c",
                "",
                "",
                "",
            ),
        )
        is None
    )


def test_a_fall_recorded_only_by_the_tft_part_still_counts() -> None:
    """Streams written before the re-emit: the common flag stayed true, StandingCheckResolved said fallen."""
    s = _fold(
        [
            _join("a", "a", 12, 10, [0, 0]),
            _join("b", "b", 12, 10, [0, 0]),
            CloseCombatJoined("g1", ["a", "b"], [0, 0], True),
            StandingCheckResolved("g1", 3, False),
        ]
    )
    assert s["groups"]["g1"]["standing"] is True
    assert group_standing(s, s["groups"]["g1"]) is False


def test_the_re_emitted_group_is_described_as_a_fall() -> None:
    s = _fold(
        [
            _join("a", "a", 12, 10, [3, 4]),
            _join("b", "b", 12, 10, [3, 4]),
            CloseCombatJoined("g1", ["a", "b"], [3, 4], True),
        ]
    )
    fall = Event(
        "s",
        9,
        "CloseCombatJoined",
        {"group": "g1", "combatants": ["a", "b"], "at": [3, 4], "standing": False},
        "gm",
        "c",
        "",
        "",
        "",
    )
    assert describe(s, fall) == "The brawl at [3, 4] is now on the ground."
