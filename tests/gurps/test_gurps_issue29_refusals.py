"""Issue 29 item 5 (refusal texts): a refusal's suggested command is one that could be accepted now, or it names
what must change first (seed §Leaving: "you cannot leave the hex until you break free")."""

from __future__ import annotations

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
