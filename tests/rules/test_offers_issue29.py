"""Issue 29 items 5 and 7 on the offers side: offer only what the rules allow (GURPS §Leaving a Foe's
Hex, §Grappling; Rogue Trader "A model may not 'stand and fire' and 'run away'")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from events.dice import Dice
from events.envelope import Event
from rules.pipeline import Context, decide_command
from rules.state import evolve, replay
from tests.golden.renders import REGISTRY, read_stream
from tests.rules.test_offers_accepted import refusal

SCRIPTS = Path(__file__).resolve().parents[1] / "golden" / "scripts"


def _at(name: str, seq: int | None = None) -> tuple[dict[str, Any], Any]:
    events = read_stream(SCRIPTS / f"{name}.jsonl")
    return replay(events[:seq] if seq else events, lambda e: REGISTRY.get(e.data["ruleset"])), REGISTRY.get(
        events[0].data["ruleset"]
    )


def _send(state: dict[str, Any], ruleset: Any, body: dict[str, Any]) -> dict[str, Any]:
    cmd = REGISTRY.command(ruleset.id, body)
    ctx = Context(stream=state["stream"], actor="gm", command_id=f"t{state['seq']}")
    for ne in decide_command(
        state, ruleset, cmd, ctx, Dice(stream=state["stream"], command_id="t", supplied=[])
    ):
        state = evolve(
            state, Event(state["stream"], state["seq"] + 1, ne.type, ne.data, "gm", "t", "", "", ""), ruleset
        )
    return state


def test_leaving_a_foes_hex_a_grappled_figure_who_chose_move_is_offered_no_move():
    state, gurps = _at("gurps-manual-grapple")
    state = _send(state, gurps, {"type": "start_turn"})
    state = _send(state, gurps, {"type": "gurps.choose_maneuver", "combatant": "dorn", "maneuver": "move"})
    # The maneuver would allow a move; the grapple forbids it, and legal_actions agrees.
    assert "gurps.move" not in gurps.legal_actions(state, "dorn")
    assert [o["type"] for o in gurps.offers(state, "dorn")] == []
    step = {"type": "gurps.move", "combatant": "dorn", "path": [[1, 0]]}
    assert "break free" in (refusal(state, gurps, step, "gm") or "")


def test_grappling_takedown_and_pin_are_offered_only_at_a_foe_he_grapples():
    state, gurps = _at("gurps-manual-grapple", 31)  # Bram chose Attack; nobody grapples yet
    types = [o["type"] for o in gurps.offers(state, "bram")]
    assert "gurps.grapple" in types and "gurps.takedown" not in types and "gurps.pin" not in types
    state, gurps = _at("gurps-manual-grapple", 41)  # Bram grapples Dorn, who stands
    ids = [o["id"] for o in gurps.offers(state, "bram")]
    assert "gurps.takedown:dorn" in ids and not any(i.startswith("gurps.pin") for i in ids)


def test_a_charge_is_answered_only_as_the_rules_allow():
    state, rt = _at("rogue-trader-manual-devil", 9)  # T1 charges the unarmed devil: hold or run away
    (pending,) = state["pending"]
    offered = {o["fields"]["choice"] for o in rt.offers(state, "gm") if o["type"] == "respond"}
    for choice in pending["options"]:
        body = {"type": "respond", "reaction": pending["id"], "choice": choice}
        assert (choice in offered) == (refusal(state, rt, body, "gm") is None), choice
    assert "stand_and_fire" not in offered
