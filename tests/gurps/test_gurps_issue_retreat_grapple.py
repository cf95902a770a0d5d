"""A user's play-through (GURPS, Ana the player's, Bors the GM's): Bors grapples Ana in [0, 0]; Ana parries
with a retreat to [-1, 0] and the parry fails. The log then said "Bors grapples Ana ... no leaving the hex"
although Ana stood in [-1, 0] and Bors in [0, 0]; and on Ana's next turn, under Attack, GET /me listed
`legal_actions: {"ana": []}`: no break free, nothing at all.

§Defense in Close Combat: "You can retreat in close combat, if you aren't being grappled. Simply step out of
close combat ..." and §Leaving a Foe's Hex: "If your foe has grappled you ... you cannot leave the hex until
you break free". A grapple that takes hold is close combat in one hex: whoever is held stands in the
grappler's hex, and may always try to break free (under an Attack maneuver)."""

from __future__ import annotations

from typing import Any

from rules.offers import variants
from tests.gurps.gurps_http_scenes import encounter, last_request, log_text, of_type, replay_equals_live
from tests.gurps.gurps_world import HAND, fig


async def _scene(tussle: Any) -> tuple[Any, str, dict[str, Any]]:
    """Bors steps into Ana's hex [0, 0] from [1, 0] and grapples (3,3,3); Ana parries bare-handed with a
    retreat to [-1, 0] (a hex on her side) and rolls 6,6,6: the parry fails. Returns (encounter, Ana's
    seat, the answer's response body)."""
    enc = await encounter(
        tussle,
        fig("ana", "a", [0, 0], facing=0, dx=12, weapons=[HAND]),
        fig("bors", "b", [1, 0], facing=3, st=12, dx=11, weapons=[HAND]),
    )
    ana_seat = await enc.seat("Ann", ["ana"])
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="wait")
    await enc.ok("gurps.choose_maneuver", combatant="bors", maneuver="attack")
    await enc.ok("gurps.move", combatant="bors", path=[[0, 0]])
    b = await enc.ok("gurps.grapple", combatant="bors", target="ana", dice=[[3, 3, 3]])
    req = last_request(b)
    assert req["combatant"] == "ana" and "parry" in req["options"], req
    answered = await enc.ok(
        "respond",
        reaction=req["id"],
        choice="parry",
        weapon="hand",
        retreat=True,
        to=[-1, 0],
        dice=[[6, 6, 6]],
    )
    return enc, ana_seat, answered


async def test_a_failed_retreating_defence_against_a_grapple_leaves_the_two_in_one_hex(tussle):
    enc, _, answered = await _scene(tussle)
    assert of_type(answered, "Grappled") == [{"grappler": "bors", "target": "ana"}], answered
    st = await enc.state()
    ana, bors = st["combatants"]["ana"], st["combatants"]["bors"]
    # The log's "no leaving the hex" holds only if the held figure is in the grappler's hex.
    assert ana["position"] == bors["position"] == [0, 0], (ana["position"], bors["position"])
    assert "ana" in next(iter(st["rules"]["hexes"].values()))["occupants"], st["rules"]["hexes"]
    text = await log_text(enc)
    assert "Bors grapples Ana" in text, text
    assert "retreat" in text and "[-1, 0]" in text, text  # the log says what became of her retreat
    await replay_equals_live(enc)


async def test_the_grappled_figure_is_offered_a_way_to_break_free_and_the_server_accepts_it(tussle):
    enc, ana_seat, _ = await _scene(tussle)
    await enc.ok("start_turn", turn=2)
    chose = await enc.command("gurps.choose_maneuver", combatant="ana", maneuver="attack", token=ana_seat)
    assert chose.status == 201, chose.body
    me = (await enc.get("/me", token=ana_seat)).body
    assert me["legal_actions"]["ana"], me
    assert "gurps.break_free" in me["legal_actions"]["ana"], me
    bodies = [v for o in me["offers"]["ana"] for v in variants(o)]
    assert bodies, me["offers"]
    assert {b["type"] for b in bodies} == set(me["legal_actions"]["ana"]), (bodies, me["legal_actions"])
    for body in bodies:
        # Each offered command, sent by Ana's seat into the same moment of a fresh copy of the fight.
        enc2, seat2, _ = await _scene(tussle)
        await enc2.ok("start_turn", turn=2)
        await enc2.command("gurps.choose_maneuver", combatant="ana", maneuver="attack", token=seat2)
        dice = [[3, 3, 3], [6, 6, 6]] if body["type"] == "gurps.break_free" else [[3, 3, 3]]
        r = await enc2.command(**body, token=seat2, dice=dice)
        if r.status == 403:  # manual dice come from the GM here: the GM sends the seat's command with dice
            r = await enc2.command(**body, dice=dice)
        assert r.status in (200, 201), (body, r.status, r.body)
    free = [b for b in bodies if b["type"] == "gurps.break_free"]
    assert free == [{"type": "gurps.break_free", "combatant": "ana", "target": "bors"}], free


async def test_a_figure_held_from_another_hex_is_still_offered_break_free(tussle):
    """The GM's position correction (the common `move`) may set a held figure down in the next hex; the
    grapple stands until it is broken or released, so under an Attack the held figure must still be
    offered break free (the offers said nothing at all: break free was offered only at a foe beside)."""
    enc, ana_seat, _ = await _scene(tussle)
    await enc.ok("move", combatant="ana", to=[-1, 0])
    await enc.ok("start_turn", turn=2)
    chose = await enc.command("gurps.choose_maneuver", combatant="ana", maneuver="attack", token=ana_seat)
    assert chose.status == 201, chose.body
    me = (await enc.get("/me", token=ana_seat)).body
    assert me["legal_actions"]["ana"] == ["gurps.break_free"], me
    bodies = [v for o in me["offers"]["ana"] for v in variants(o)]
    assert bodies == [{"type": "gurps.break_free", "combatant": "ana", "target": "bors"}], bodies
    b = await enc.ok(**bodies[0], dice=[[1, 1, 2], [6, 6, 6]])
    assert of_type(b, "GrappleReleased") == [{"grappler": "bors", "target": "ana", "why": "broken free"}], b
    await replay_equals_live(enc)


async def test_pulled_back_out_of_the_close_combat_the_retreat_stepped_into(tussle):
    """A retreat into a hex holding another foe is close combat there; when the grapple lands the hold
    pulls the figure back out of it, and Cato is left alone in his hex."""
    enc = await encounter(
        tussle,
        fig("ana", "a", [0, 0], facing=0, dx=12, weapons=[HAND]),
        fig("bors", "b", [1, 0], facing=3, st=12, dx=11, weapons=[HAND]),
        fig("cato", "b", [-1, 0], facing=0, weapons=[HAND]),
    )
    await enc.ok("gurps.choose_maneuver", combatant="bors", maneuver="attack")
    await enc.ok("gurps.move", combatant="bors", path=[[0, 0]])
    b = await enc.ok("gurps.grapple", combatant="bors", target="ana", dice=[[3, 3, 3]])
    b = await enc.ok(
        "respond", reaction=last_request(b)["id"], choice="dodge", retreat=True, to=[-1, 0], dice=[[6, 6, 6]]
    )
    left = [(d["combatant"], d["how"]) for d in of_type(b, "CloseCombatLeft")]
    assert ("ana", "retreat") in left and ("ana", "held") in left, left
    moved = of_type(b, "Moved")
    assert [(m["reason"], m["from"], m["to"]) for m in moved] == [
        ("disengage", [0, 0], [-1, 0]),
        ("held", [-1, 0], [0, 0]),
    ], moved
    st = await enc.state()
    assert [h["at"] for h in st["rules"]["hexes"].values()] == [[0, 0]], st["rules"]["hexes"]
    assert st["rules"]["grapples"] == [{"grappler": "bors", "grappled": "ana"}], st["rules"]["grapples"]
    assert "Ana is pulled back out of the close combat by a grapple" in await log_text(enc)
    await replay_equals_live(enc)


async def test_a_failed_break_free_is_the_maneuvers_one_attack_so_a_second_is_refused(tussle):
    """The offers stop at one try a maneuver (legal.py); the server refused a second only as far as the
    offers went: it now says so too."""
    enc, ana_seat, _ = await _scene(tussle)
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="attack")
    await enc.ok("gurps.break_free", combatant="ana", target="bors", dice=[[6, 6, 6], [3, 3, 3]])
    me = (await enc.get("/me", token=ana_seat)).body
    assert "gurps.break_free" not in me["legal_actions"]["ana"], me
    again = await enc.command("gurps.break_free", combatant="ana", target="bors", dice=[[3, 3, 3], [6, 6, 6]])
    assert again.status == 422 and "already attacked this maneuver" in again.body["error"]["message"], (
        again.body
    )
