"""decide / resume called directly with manual Dice over a folded state (no server)."""

from __future__ import annotations

import msgspec
import pytest

from events.common import CombatantJoined, EncounterCreated, InitiativeSet, PhaseStarted, TurnStarted
from events.dice import Dice, DiceNeeded
from events.envelope import Event
from rules.interface import Answer, RuleError
from rules.state import evolve, initial_state
from rules.tft import ruleset
from rules.tft.commands import EnterHth, HthAttack, TftMove
from rules.tft.options import DEFAULTS
from tests.tft.helpers import simeth, troll


def fold(state: dict, events: list) -> dict:
    for e in events:
        env = Event("s", state["seq"] + 1, type(e).__name__, msgspec.to_builtins(e), "gm", "c", "", "", "")
        if env.type == "EncounterCreated":
            state = {**state, "rules": ruleset.initial_state({})}
        state = evolve(state, env, ruleset)
    return state


def joined(c: dict) -> CombatantJoined:
    c = ruleset.validate_combatant({}, c)
    return CombatantJoined(
        c["id"],
        c["name"],
        c["side"],
        None,
        c["stats"],
        c["position"],
        c["facing"],
        c["posture"],
        c["items"],
        {},
        c["reactions"],
    )


@pytest.fixture
def troll_state() -> dict:
    s = fold(
        initial_state(),
        [
            EncounterCreated("t", "tft", "1", DEFAULTS, ruleset.geometry, None, "manual"),
            joined(simeth()),
            joined(troll()),
            TurnStarted(1),
            PhaseStarted("movement"),
        ],
    )
    s = fold(
        s, ruleset.decide(s, TftMove(combatant="simeth", path=[[1, 0]]), Dice(stream="t", command_id="m"))
    )
    return fold(s, [PhaseStarted("action"), InitiativeSet(["simeth", "troll"])])


def test_entry_and_attacks_pure(troll_state: dict) -> None:
    evs = ruleset.decide(
        troll_state,
        EnterHth(combatant="simeth", target="troll", condition="C2"),
        Dice(stream="t", command_id="c", supplied=[[2]]),
    )
    assert [type(e).__name__ for e in evs][-1] == "InitiativeSet"
    s = fold(troll_state, evs)
    assert s["initiative"] == ["troll", "simeth"] and s["groups"]["g1"]["standing"] is False
    with pytest.raises(RuleError, match="it is not Simeth's turn to act"):
        ruleset.decide(s, HthAttack(combatant="simeth", target="troll"), Dice(stream="t", command_id="d"))
    evs = ruleset.decide(
        s,
        HthAttack(combatant="troll", target="simeth", weapon="bite"),
        Dice(stream="t", command_id="e", supplied=[[3, 4, 4], [4]]),
    )
    s = fold(s, evs)
    assert s["combatants"]["simeth"]["wounds"] == 6


def test_manual_dice_missing_is_dice_needed(troll_state: dict) -> None:
    with pytest.raises(DiceNeeded):
        ruleset.decide(
            troll_state,
            EnterHth(combatant="simeth", target="troll"),
            Dice(stream="t", command_id="c", supplied=[]),
        )


def test_resume_of_a_vanished_entrant_is_cancelled(troll_state: dict) -> None:
    pending = {
        "id": "x/1",
        "resume": {
            "engine": "tft",
            "step": "judo_throw",
            "entrant": "ghost",
            "defender": "troll",
            "way": "enter_hth",
            "from": [1, 0],
            "at": [0, 0],
            "total": 7,
        },
    }
    evs = ruleset.resume(troll_state, pending, Answer("0,1", {}, "gm"), Dice(stream="t", command_id="r"))
    assert [type(e).__name__ for e in evs] == ["ReactionCancelled"]
