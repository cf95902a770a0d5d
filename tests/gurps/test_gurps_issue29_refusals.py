"""Issue 29 item 5 (refusal texts): a refusal's suggested command is one that could be accepted now, or it names
what must change first (seed §Leaving: "you cannot leave the hex until you break free")."""

from __future__ import annotations

from tests.gurps.gurps_world import HAND, KNIFE, fig
from tests.gurps.test_gurps_issue_entering_leaving import in_close_combat, last_request, refused


async def test_you_cannot_leave_the_hex_until_you_break_free(tussle):
    # Cai, grappled, chose Move: break_free would be refused ("needs an Attack maneuver"), so the refusal of his
    # move says that breaking free takes an Attack maneuver, instead of pointing at gurps.break_free alone.
    enc = await in_close_combat(tussle, turns=1)
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="dun", target="cai", dice=[[3, 3, 3]])
    await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[6, 6, 6]])
    await enc.ok("start_turn", turn=3)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    await refused(
        enc, "gurps.move", "break free first, which takes an Attack maneuver", combatant="cai", path=[[-1, 0]]
    )
    await refused(enc, "gurps.break_free", "needs an Attack maneuver", combatant="cai", target="dun")


async def test_leaving_a_foes_hex_through_his_side_is_an_evade_which_takes_movement(tussle):
    # §Leaving a Foe's Hex: forward through the foe's side only by evading. Under Attack, a step can never evade
    # ("allows at most a step"), so a step that way is told that evading takes a maneuver with movement, not sent
    # to gurps.evade; under Move it is sent there, and gurps.evade is then judged on its own terms.
    enc = await in_close_combat(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    body = await refused(
        enc, "gurps.move", "takes a maneuver with movement, not attack", combatant="cai", path=[[1, 0]]
    )
    assert "Cai must evade" not in body["error"]["message"], body
    await refused(enc, "gurps.evade", "allows at most a step", combatant="cai", target="dun", path=[[1, 0]])


async def test_a_weapon_not_ready_is_readied_by_a_ready_maneuver(tussle):
    # §Readying: readying takes a Ready maneuver. An attack with a carried knife is refused saying so, not
    # "(gurps.ready_item first)", which under the Attack he chose would be refused too.
    carried = [{"id": "knife", "name": "knife", "state": "carried"}]
    cai = fig("cai", "a", [-1, 0], dx=12, move=5, weapons=[KNIFE, HAND], skills={"Knife": 13}, items=carried)
    enc = await in_close_combat(tussle, cai)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    await refused(
        enc,
        "gurps.close_combat_attack",
        "not ready: readying it takes a Ready maneuver (gurps.ready_item)",
        combatant="cai",
        target="dun",
        weapon="knife",
    )
    await refused(enc, "gurps.ready_item", "readying needs a Ready maneuver", combatant="cai", item="knife")
