"""GRAPPLING (§GRAPPLING; spec 4.8): instead of a blow the standing attacker grapples. The steps run in order in
one command and pause only for a result the GM owes (a chart or a morale test); `resume` says where to go on.

    1 defender_blow   the defender's unopposed damage evaluation (not if unconscious); a grappler left
                      unconscious or dead aborts the grapple (DECISION)
    2 defender_falls  on his back; a one-storey fall roll; he drops grenades, special and regular weapons
    3 morale          the attacker's test: pass -> on his stomach holding a prisoner; fail -> on his back;
                      he drops his weapons (always, or only on a fail: OPTION attacker_drops_weapons)
    4 end             both down in contact; the hand to hand ends; the attacker's action is spent
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.common import (
    ActionSpent,
    CloseCombatJoined,
    ConditionChanged,
    ItemDropped,
    PinApplied,
    PostureChanged,
)
from rules.skirmish import damage
from rules.skirmish.charts import CHART_CHOICES, look_up
from rules.skirmish.events import (
    FallResultAwaited,
    GrappleAborted,
    HandToHandEnded,
    MoraleAwaited,
    PrisonerTaken,
)
from rules.skirmish.figures import has, held_weapons, name_of, stat
from rules.skirmish.gm_asks import ask_gm
from rules.skirmish.options import FALL_ROLL, option
from rules.working import Working

FALL_REACTION = "fall_result"
MORALE_REACTION = "morale"
CONTINUE, PAUSE, STOP = "continue", "pause", "stop"

Grapple = dict[str, Any]  # {"flow": "grapple", "attacker": id, "defender": id}


def _step_defender_blow(w: Working, g: Grapple) -> str:
    if has(w.combatant(g["defender"]), "unconscious"):
        return CONTINUE  # spec 6 row 13: an unconscious defender gets no damage roll
    if damage.evaluate(w, g["defender"], g["attacker"], {**_plain(g), "after": "defender_blow"}):
        return PAUSE
    return _after_defender_blow(w, g)


def _after_defender_blow(w: Working, g: Grapple) -> str:
    a = w.combatant(g["attacker"])
    down = next((c for c in ("dead", "unconscious") if has(a, c)), None)
    if down:
        w.emit(GrappleAborted(g["attacker"], g["defender"], f"the grappler is {down}"))
        return STOP
    return CONTINUE


def _step_defender_falls(w: Working, g: Grapple) -> str:
    d = g["defender"]
    w.emit(PostureChanged(d, "on_back"))
    notation = option(w.state, "fall_roll")
    count, sides = FALL_ROLL.match(notation).groups()
    roll = w.dice.roll(int(count or 1), int(sides), "one-storey fall", combatant=d)
    result = look_up(option(w.state, "fall_chart"), roll.sum)
    w.emit(roll.event(notation=notation, outcome=result or "awaiting the GM's fall result"))
    if result is None:
        ask_gm(
            w,
            FallResultAwaited(d, roll.sum),
            FALL_REACTION,
            CHART_CHOICES,
            "skirmish.record_fall",
            {**_plain(g), "after": "defender_falls", "total": roll.sum},
            f"{name_of(w.state, d)} falls backwards; the one-storey fall roll is {roll.sum}: what is the result?",
        )
        return PAUSE
    return _after_fall(w, g, result)


def _after_fall(w: Working, g: Grapple, result: str) -> str:
    damage.apply_result(w, g["defender"], result, "one-storey fall")
    _drop_weapons(w, g["defender"])
    return CONTINUE


def _drop_weapons(w: Working, cid: str) -> None:
    c = w.combatant(cid)
    for item in held_weapons(c):
        w.emit(ItemDropped(cid, item["id"], c.get("position")))


def _step_morale(w: Working, g: Grapple) -> str:
    a = w.combatant(g["attacker"])
    morale = stat(a, "morale")
    if option(w.state, "morale_mode") == "d100_under_stat" and isinstance(morale, int):
        roll = w.dice.roll(1, 100, "morale", combatant=g["attacker"])
        passed = roll.sum <= morale
        w.emit(roll.event(target=morale, outcome="pass" if passed else "fail"))
        return _after_morale(w, g, passed)
    ask_gm(
        w,
        MoraleAwaited(g["attacker"]),
        MORALE_REACTION,
        (["pass", "fail"], "pass"),
        "skirmish.record_morale",
        {**_plain(g), "after": "morale"},
        f"{a['name']} grapples {name_of(w.state, g['defender'])}: is the morale test passed?",
    )
    return PAUSE


def _after_morale(w: Working, g: Grapple, passed: bool) -> str:
    a, d = g["attacker"], g["defender"]
    if passed:
        w.emit(
            PostureChanged(a, "on_stomach"),
            PinApplied(holder=a, pinned=d, turn=w.turn),
            ConditionChanged(d, "prisoner", True),
            PrisonerTaken(prisoner=d, captor=a),
        )
    else:
        w.emit(PostureChanged(a, "on_back"))
    if option(w.state, "attacker_drops_weapons") == "always" or not passed:
        _drop_weapons(w, a)
    return CONTINUE


def _step_end(w: Working, g: Grapple) -> str:
    a, d = g["attacker"], g["defender"]
    group = w.combatant(d).get("group") or w.combatant(a).get("group") or f"hth:{a}:{d}"
    w.emit(
        CloseCombatJoined(group, [a, d], w.combatant(d).get("position"), False),
        HandToHandEnded(a, d, "grapple over"),
        ActionSpent(a, w.turn, "grappled"),
    )
    return CONTINUE


STEPS: tuple[tuple[str, Callable[[Working, Grapple], str]], ...] = (
    ("defender_blow", _step_defender_blow),
    ("defender_falls", _step_defender_falls),
    ("morale", _step_morale),
    ("end", _step_end),
)
STEP_NAMES = [name for name, _ in STEPS]


def _plain(g: Grapple) -> Grapple:
    return {"flow": "grapple", "attacker": g["attacker"], "defender": g["defender"]}


def run(w: Working, g: Grapple, first: str) -> None:
    """Run the grapple's steps from `first` until it ends, stops or pauses for the GM."""
    for _name, step in STEPS[STEP_NAMES.index(first) :]:
        if step(w, g) != CONTINUE:
            return


def resume(w: Working, pending: dict[str, Any], choice: str) -> None:
    """Go on after the GM's result for the step that paused."""
    g = pending["resume"]
    after = g["after"]
    if after == "defender_blow":
        damage.apply_result(w, g["attacker"], choice, g["defender"])
        outcome = _after_defender_blow(w, g)
    elif after == "defender_falls":
        outcome = _after_fall(w, g, choice)
    else:
        outcome = _after_morale(w, g, choice == "pass")
    if outcome == CONTINUE:
        nxt = STEP_NAMES.index(after) + 1
        if nxt < len(STEP_NAMES):
            run(w, g, STEP_NAMES[nxt])
