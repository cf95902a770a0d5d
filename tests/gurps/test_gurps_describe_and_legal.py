"""Log sentences for every gurps event, and legal_actions."""

from __future__ import annotations

from rules.gurps import ruleset
from rules.gurps.commands import ChooseManeuver, GurpsMove
from rules.gurps.events import GURPS_EVENTS
from tests.gurps import test_gurps_evading as evading
from tests.gurps import test_gurps_grappling as grappling
from tests.gurps import test_gurps_shields_and_attacks as shields
from tests.gurps.gurps_world import World, fig

OURS = {cls.__name__ for cls in GURPS_EVENTS}


def sentences(w: World) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for e in w.log:
        text = ruleset.describe(w.state, e)
        if e.type in OURS or (e.type == "DieRolled"):
            assert text, (e.type, e.data)
            assert "{" not in text and "None" not in text, text
        if text:
            out.setdefault(e.type, []).append(text)
    return out


def test_every_gurps_event_has_a_sentence():
    seen: dict[str, list[str]] = {}
    w = evading.v1_world()
    w.run(evading.Evade(combatant="ana", target="bors", path=evading.BEHIND_PATH))
    w.respond("stop", dice=[[4, 5, 3], [2, 3, 4]])
    for k, v in sentences(w).items():
        seen.setdefault(k, []).extend(v)
    w = shields.v4()
    w.run(shields.CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[3, 3, 3]])
    w.respond("dodge", dice=[[6, 6, 6], [4]])
    for k, v in sentences(w).items():
        seen.setdefault(k, []).extend(v)
    w = grappling.hex_fight()
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    w.run(grappling.Takedown(combatant="bram", target="dorn", helpers=["cole"]), dice=[[6, 5, 5], [3, 3, 4]])
    for k, v in sentences(w).items():
        seen.setdefault(k, []).extend(v)
    w = evading.v1_world()
    w.run(evading.Evade(combatant="ana", target="bors", path=evading.BEHIND_PATH))
    w.respond("stop", dice=[[6, 6, 5], [2, 3, 4]])
    for k, v in sentences(w).items():
        seen.setdefault(k, []).extend(v)
    missing = OURS - set(seen)
    assert missing == set(), missing
    assert any(
        "Ana rolls 3d6 for the evade: [4, 5, 3] = 12 vs DX 12 + 5 (foe lying down) + 5 (from behind) = 22"
        " — success by 10." == s
        for s in seen["DieRolled"]
    )
    assert (
        "Quick Contest of DX (evade): Ana 12 vs 22, success by 10; Bors 9 vs 11, success by 2. Ana wins by 8: "
        "Ana gets past Bors."
    ) in seen["QuickContestResolved"]
    assert any("Cai rolls 3d6 for the attack" in s for s in seen["DieRolled"])
    assert any("Bors gets in the way" in s for s in seen["EvadeStopped"])


def test_grappled_sentence():
    w = grappling.hex_fight()
    e = next(e for e in w.log if e.type == "Grappled")
    assert (
        ruleset.describe(w.state, e)
        == "Bram grapples Dorn: -4 DX, and no leaving the hex until breaking free."
    )


def test_legal_actions_follow_the_turn():
    w = World()
    w.add(fig("cai", "a", [-2, 0], shield={"name": "shield", "db": 2}))
    w.add(fig("dun", "b", [0, 0]))
    assert ruleset.legal_actions(w.state, "cai") == []
    w.turn(1)
    # Her shield is worn, ready: nothing to ready, so no gurps.ready_item (version 4).
    assert ruleset.legal_actions(w.state, "cai") == ["gurps.choose_maneuver"]
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    assert ruleset.legal_actions(w.state, "cai") == ["gurps.move", "gurps.evade"]
    w.run(GurpsMove(combatant="cai", path=[[-1, 0], [0, 0]]))
    assert ruleset.legal_actions(w.state, "cai") == []
    w.turn(2)
    w.run(ChooseManeuver(combatant="cai", maneuver="attack"))
    # Cai lists no weapon (not even a hand), so no strike; the shield leaves a hand free to grapple; and
    # nobody grapples Dun yet, so no takedown or pin (issue 29 item 5: "a grapple first").
    assert ruleset.legal_actions(w.state, "cai") == ["gurps.move", "gurps.grapple"]
