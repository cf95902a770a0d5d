"""Property: for random command sequences of every ruleset, accepted or refused, `acting_now` and `next_slot`
never raise, keep their shape, name only combatants that are there, list only reactions while one waits,
and name no combatant `legal_actions` gives nothing to."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events.dice import BadDice, Dice, DiceNeeded
from rules.acting import slot_key
from rules.interface import BadCommand, Forbidden, RuleError
from rules.pipeline import Context
from rules.registry import Registry
from tests.acting.test_acting_ap_grapple import ALDO, BERK
from tests.acting.test_acting_ap_grapple import _fighter as ap_fighter
from tests.acting.test_acting_gurps import _fig as gurps_fig
from tests.acting.test_acting_rogue_trader import _model as rt_model
from tests.acting.test_acting_skirmish import HALE, VOSS
from tests.support.pure_world import PureWorld, decide_command
from tests.tft.helpers import simeth, troll

REGISTRY = Registry.discover()
FIGURES: dict[str, list[dict[str, Any]]] = {
    "tft": [simeth(), troll()],
    "ap-grapple": [ap_fighter("aldo", "a", ALDO, [0, 0]), ap_fighter("berk", "b", BERK, [1, 0])],
    "skirmish": [HALE, VOSS],
    "gurps": [gurps_fig("ana", "a", [-1, 0], 12), gurps_fig("bram", "b", [1, 0], 11)],
    "rogue-trader": [rt_model("m1", "red", 0, 0), rt_model("c1", "blue", 300, 180)],
    "freeform": [
        {"id": "ana", "name": "Ana", "side": "a", "stats": {}, "position": [0, 0]},
        {"id": "bors", "name": "Bors", "side": "b", "stats": {}, "position": [1, 0]},
    ],
}
OPTIONS: dict[str, dict[str, Any]] = {"rogue-trader": {"turn_order": ["red", "blue"]}}
# How each ruleset's fight gets going, so random commands mostly land inside a turn.
OPENING: dict[str, list[dict[str, Any]]] = {
    "tft": [{"type": "start_turn"}, {"type": "start_phase", "phase": "movement"}],
    "ap-grapple": [{"type": "start_turn"}],
    "skirmish": [{"type": "start_turn"}, {"type": "skirmish.draw_card"}],
    "gurps": [{"type": "start_turn"}],
    "rogue-trader": [{"type": "start_turn"}, {"type": "start_phase", "phase": "movement"}],
    "freeform": [],
}


def figures(ruleset_id: str) -> list[dict[str, Any]]:
    """The hand-picked figures above, or those of the ruleset's worked first turn (its guide), so an installed
    ruleset no one listed here is still fought; one with neither gets two bare figures."""
    if ruleset_id in FIGURES:
        return FIGURES[ruleset_id]
    rs = REGISTRY.get(ruleset_id)
    if rs.first_turn is not None:
        return list(rs.first_turn.combatants)
    step = 100 if rs.geometry["kind"] == "plane" else 1
    return [
        {"id": "ana", "name": "Ana", "side": "a", "stats": {}, "position": [0, 0]},
        {"id": "bors", "name": "Bors", "side": "b", "stats": {}, "position": [step, 0]},
    ]


def options(ruleset_id: str) -> dict[str, Any]:
    rs = REGISTRY.get(ruleset_id)
    guide = rs.first_turn.options if rs.first_turn is not None else {}
    return OPTIONS.get(ruleset_id, guide)


PHASES = ["movement", "action", "shooting", "close_combat", "end", "banana"]
WORDS = {
    "weapon": ["bite", "fist", "chainsword", "knife", "hand", "sword", "club"],
    "maneuver": ["move", "attack", "all_out_attack", "ready", "do_nothing", "move_and_attack"],
    "item": ["dagger", "sword", "shield", "club"],
    "choice": ["follow", "hold"],
    "how": ["rescue"],
    "to": ["left", "right", "own_hex", "in_place"],
}


class World(PureWorld):
    """PureWorld with server dice from a fixed seed, so random commands never stop for faces."""

    def send(
        self, type: str, *, dice: list[list[int]] | None = None, actor: str = "gm", **fields: Any
    ) -> Any:
        cmd = self.registry.command(self.ruleset.id, {"type": type, **fields})
        self.commands += 1
        command_id = f"c{self.commands}"
        ctx = Context(stream="s", actor=actor, command_id=command_id)
        d = Dice(stream="s", command_id=command_id, seed=b"\x07" * 32)
        return self._append(decide_command(self.state, self.ruleset, cmd, ctx, d), actor, command_id)


def _value(draw: Any, field: msgspec.inspect.Field, ids: list[str], plane: bool) -> Any:
    if field.name in ("combatant", "target", "group", "unit"):
        return draw(st.sampled_from(ids))
    t = field.type
    if isinstance(t, msgspec.inspect.LiteralType):
        return draw(st.sampled_from(list(t.values)))
    if isinstance(t, msgspec.inspect.BoolType):
        return draw(st.booleans())
    if isinstance(t, msgspec.inspect.IntType):
        return draw(st.integers(0, 3))
    if isinstance(t, msgspec.inspect.StrType):
        return draw(st.sampled_from(WORDS.get(field.name, ["x"])))
    step = 100 if plane else 1
    if field.name == "allocations":
        return [{"attack": "chainsword", "target": draw(st.sampled_from(ids))}]
    if field.name in ("to",):
        return [draw(st.integers(-2, 2)) * step, draw(st.integers(-2, 2)) * step]
    return [[draw(st.integers(-2, 2)) * step, draw(st.integers(-2, 2)) * step]]


@st.composite
def commands(draw: Any, ruleset_id: str) -> dict[str, Any]:
    rs = REGISTRY.get(ruleset_id)
    ids = [f["id"] for f in figures(ruleset_id)]
    plane = rs.geometry["kind"] == "plane"
    common = [
        {"type": "start_turn"},
        {"type": "start_phase", "phase": draw(st.sampled_from(PHASES))},
        {"type": "set_initiative", "order": draw(st.permutations(ids))},
        {
            "type": "ask",
            "combatant": draw(st.sampled_from(ids)),
            "kind": "question",
            "options": ["yes", "no"],
            "default": "no",
        },
        {"type": "respond", "choice": draw(st.sampled_from(["default", "yes", "parry", "evade", "hold"]))},
        {
            "type": "ruling",
            "text": "GM",
            "overrides": {
                "combatants": {
                    draw(st.sampled_from(ids)): {
                        "conditions": draw(
                            st.sampled_from([[], ["stunned"], ["unconscious"], ["dead"], ["prisoner"]])
                        )
                    }
                }
            },
        },
        {"type": "remove_combatant", "combatant": draw(st.sampled_from(ids))},
    ]
    own = []
    for cls in rs.commands:
        fields = [f for f in msgspec.inspect.type_info(cls).fields if f.required]
        own.append(
            {
                "type": cls.__struct_config__.tag,
                **{f.encode_name: _value(draw, f, ids, plane) for f in fields},
            }
        )
    return draw(st.sampled_from(own * 4 + common))


def _check(w: World) -> None:
    rs, state = w.ruleset, w.state
    entries = rs.acting_now(state)
    pending_ids = {p["id"] for p in state["pending"]}
    for e in entries:
        assert set(e) == {"combatant", "asked_of", "why", "until", "reaction", "slot"}, e
        assert set(e["slot"]) == {"turn", "phase", "id"} and isinstance(e["slot"]["id"], str), e
        assert isinstance(e["why"], str) and e["why"]
        assert e["combatant"] is None or e["combatant"] in state["combatants"], e
        if state["pending"]:
            assert e["reaction"] in pending_ids, e
        elif e["combatant"] is not None:
            assert rs.legal_actions(state, e["combatant"]), (e, "named but has no legal actions")
    assert len(entries) >= len(pending_ids)
    keys = [slot_key(e) for e in entries]
    assert len(set(keys)) == len(keys), ("two entries of one opening: a seat would be told once", entries)
    for cid in state["combatants"]:
        sentence = rs.next_slot(state, cid)
        assert sentence is None or (isinstance(sentence, str) and sentence)


def _fight(ruleset_id: str, bodies: list[dict[str, Any]], opening: bool) -> None:
    w = World(REGISTRY.get(ruleset_id), **options(ruleset_id))
    _check(w)
    for f in figures(ruleset_id):
        w.send("add_combatant", combatant=f)
    for body in (OPENING.get(ruleset_id, []) if opening else []) + bodies:
        if body["type"] == "respond":
            body = {**body, "reaction": w.state["pending"][0]["id"] if w.state["pending"] else "none/1"}
        try:
            w.send(**body)
        except (RuleError, BadCommand, Forbidden, BadDice, DiceNeeded):
            pass
        _check(w)


@pytest.mark.parametrize("ruleset_id", sorted(REGISTRY.rulesets))  # every installed ruleset
def test_acting_now_never_raises_and_agrees_with_legal_actions(ruleset_id):
    @settings(max_examples=25, deadline=None)
    @given(st.lists(commands(ruleset_id), max_size=16), st.booleans())
    def run(bodies: list[dict[str, Any]], opening: bool) -> None:
        _fight(ruleset_id, bodies, opening)

    run()
