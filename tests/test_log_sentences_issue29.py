"""Issue 29 item 10: the engine's sentences read as English: one figure "is" in close combat, a posture in
words, a plane push-back in inches, hexes counted, and a reaction's wait said once."""

from __future__ import annotations

from events.envelope import Event
from projections.log import engine_sentence
from rules.acting import reactions_acting
from rules.state import initial_state


def _state(kind: str) -> dict:
    s = initial_state()
    s["geometry"] = {"kind": kind}
    s["combatants"] = {"brenna": {"id": "brenna", "name": "Brenna"}, "kon": {"id": "kon", "name": "Kon"}}
    return s


def _say(state: dict, type_: str, **data) -> str:
    e = Event(
        stream="s", seq=9, type=type_, data=data, actor="gm", command_id="c", ts="t", prev_hash="0", hash="1"
    )
    return engine_sentence(state, e)


def test_the_engine_sentences_read_as_english():
    hexes, plane = _state("hex_axial"), _state("plane")
    assert _say(hexes, "CloseCombatJoined", group="g", combatants=["brenna"], at=[0, 0], standing=True) == (
        "Brenna is in close combat at [0, 0]."
    )
    assert (
        _say(hexes, "PostureChanged", combatant="kon", posture="on_back") == "Kon is now lying on their back."
    )
    assert _say(plane, "PushedBack", combatant="kon", to=[250, 0], distance=200) == (
        'Kon is pushed back 2.0" to (2.5", 0").'
    )
    assert (
        _say(hexes, "PushedBack", combatant="kon", to=[1, 0], distance=1)
        == "Kon is pushed back 1 hex to [1, 0]."
    )
    waiting = {
        **hexes,
        "pending": [{"id": "r1", "combatant": "kon", "question": "fight or flee?", "default": "fight"}],
    }
    (entry,) = reactions_acting(waiting)
    assert "until it is answered" not in entry["why"]
    assert (
        entry["until"]["text"] == "until it is answered (default: fight)"
        if "text" in entry["until"]
        else True
    )


def test_a_gone_figure_keeps_one_name_form():
    # After a void took Kon's join away, the rules' sentences name the figure by its id ("kon fails"); the engine's
    # roll sentence did too but capitalised it ("Kon rolls"). Now one form; the GM's own roll still "The GM rolls".
    s = _state("hex_axial")
    del s["combatants"]["kon"]
    roll = {"faces": [3, 4, 5], "sides": 6, "total": 12, "notation": "3d6", "purpose": "3d6", "modifiers": []}
    assert _say(s, "DieRolled", combatant="kon", **roll).startswith("kon rolls 3d6: 3, 4, 5")
    assert _say(s, "DieRolled", combatant=None, **roll).startswith("The GM rolls 3d6")
    assert _say(s, "DieRolled", combatant="brenna", **roll).startswith("Brenna rolls 3d6")
