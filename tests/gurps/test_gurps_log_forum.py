"""Issue 18 item 4, GURPS: the log read against the seed's words, through /log and its forum exports.
Targets as reached, contests that say what follows, names never pronouns, no internal names, and the
bookkeeping the action's sentence already says left out of the Markdown and BBCode posts."""

from __future__ import annotations

from tests.gurps.gurps_http_scenes import encounter, in_close_combat, last_request, log_entries
from tests.gurps.gurps_world import HAND, fig


async def test_a_turn_of_evading_reads_well_on_a_forum(tussle):
    enc = await encounter(
        tussle,
        fig("ana", "a", [-2, 0], dx=12, move=6, weapons=[HAND]),
        fig("bors", "b", [0, 0], facing=0, posture="prone", dx=11, weapons=[HAND]),
    )
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="Move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]])
    await enc.ok("respond", reaction=last_request(b)["id"], choice="stop", dice=[[4, 5, 3], [2, 3, 4]])
    entries = await log_entries(enc)
    texts = [e["text"] for e in entries]
    assert (
        "Ana rolls 3d6 for the evade: [4, 5, 3] = 12 vs DX 12 + 5 (foe lying down) + 5 (from behind) = 22 "
        "— success by 10 (manual dice, not verifiable)."
    ) in texts
    assert (
        "Quick Contest of DX (evade): Ana 12 vs 22, success by 10; Bors 9 vs 11, success by 2. "
        "Ana wins by 8: Ana gets past Bors."
    ) in texts
    asides = {e["type"] for e in entries if e.get("aside")}
    assert asides == {"HalfHexTaken", "GurpsMovementUsed", "ReactionRequested", "ReactionAnswered"}
    for text in texts:
        assert not any(f" {p} " in f" {text} " for p in ("he", "him", "his", "she", "her")), text
        assert "edge" not in text and "hex(es)" not in text and "evade_stop" not in text, text
    r = await enc.get("/log?format=markdown&turn=1")
    assert r.status == 200
    md = r.body if isinstance(r.body, str) else str(r.body)
    assert "holds the half" not in md and "has used 3 hexes" not in md and "is asked" not in md
    assert "Ana gets past Bors" in md and "Ana takes a Move maneuver: 6 hexes of movement." in md
    r = await enc.get("/log?format=bbcode&turn=1")
    bb = r.body if isinstance(r.body, str) else str(r.body)
    assert "holds the half" not in bb and "Ana gets past Bors" in bb


async def test_close_combat_with_one_figure_down_says_which_is_on_the_ground(tussle):
    """Issue 18 (a new user's play-through): 'Cai and Dun are in close combat on the ground' read as if
    both lay there when only Dun was prone; the sentence names who is on the ground."""
    enc = await in_close_combat(
        tussle, dun=fig("dun", "b", [0, 0], facing=3, posture="prone", dx=11, weapons=[HAND]), turns=1
    )
    texts = [e["text"] for e in await log_entries(enc) if e["type"] == "CloseCombatJoined"]
    assert texts == ["Dun and Cai are in close combat at [0, 0]; Dun is on the ground."], texts


async def test_close_combat_with_everyone_down_is_on_the_ground(tussle):
    enc = await in_close_combat(
        tussle,
        cai=fig("cai", "a", [-1, 0], posture="prone", dx=12, move=5, weapons=[HAND]),
        dun=fig("dun", "b", [0, 0], facing=3, posture="prone", dx=11, weapons=[HAND]),
        turns=1,
    )
    texts = [e["text"] for e in await log_entries(enc) if e["type"] == "CloseCombatJoined"]
    assert texts == ["Dun and Cai are in close combat on the ground at [0, 0]."], texts
