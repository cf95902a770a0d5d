"""Issue 25 items 1 and 2: no rotation steers a player's die.

The audit's attack: a player's `skirmish.strike` waits for the GM's `hth_defence` answer; the operator,
who can read the seed, sends `rotate_seed` until the player's pending dice (keyed by the player's
command) come out as wanted, then answers. A resolution's dice keep the seed it began with, so the
rotation is refused; and a command that names the commitment its sender saw is refused, with nothing
rolled, once the seed has moved on.
"""

from __future__ import annotations

import json

import msgspec

from events.envelope import Event
from tests.support.seed_reading import stored_seed
from tests.test_dice_keying import asked_of_the_gm, offline_answers
from tests.test_verify_tamper import export, tussle_cli

ROTATIONS = 48  # the audit's count


async def test_the_audits_rotation_attack_is_refused_and_the_answer_rolls_what_the_strike_began_with(
    tussle, server
):
    enc, attack = await asked_of_the_gm(tussle, "skirmish-manual-e1", ["hale"], 5, {}, None)
    before = await enc.state()
    reaction = before["pending"][-1]
    events = [msgspec.convert(e, Event) for e in await enc.events()]
    seed = stored_seed(server.db_path, enc.id, before["commitment"])
    choice = reaction["options"][0]
    foreseen = offline_answers(events, seed, reaction, choice).pop()  # what the strike's seed gives
    for _ in range(ROTATIONS):
        r = await enc.command("rotate_seed")
        assert r.status == 409, r.body
        assert r.body["error"]["code"] == "resolution_pending"
        assert reaction["id"] in r.body["error"]["message"]
        assert [p["id"] for p in r.body["error"]["details"]["pending"]] == [reaction["id"]]
    after = await enc.state()
    assert (after["seq"], after["commitment"]) == (before["seq"], before["commitment"])  # nothing appended
    answer = await enc.ok("respond", reaction=reaction["id"], choice=choice)
    rolled = [
        (e["data"]["faces"], e["data"]["keyed_command_id"])
        for e in answer["events"]
        if e["type"] == "DieRolled"
    ]
    assert json.dumps(rolled) == foreseen and all(key == attack for _, key in rolled)
    if not (await enc.state())["pending"]:  # once the resolution is over, the seed rotates as before
        assert (await enc.command("rotate_seed")).status == 201
    await enc.ok("close")
    report = (await enc.get("/verify?replay=1")).body
    assert report["ok"], report["problems"]


async def test_a_command_bound_to_a_rotated_commitment_is_refused_and_appends_nothing(tussle):
    enc = await tussle.create()
    await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
    token = await enc.seat("Ann's player", ["ann"])
    seen = (await enc.state(token=token))["commitment"]
    await enc.ok("rotate_seed")  # the operator rotates after the player read the state
    head = (await enc.state())["seq"]
    r = await enc.command(
        "roll",
        token=token,
        expression="1d100",
        combatant="ann",
        command_id="ann-d100",
        expected_commitment=seen,
    )
    assert r.status == 409 and r.body["error"]["code"] == "commitment_moved", r.body
    assert "the dice seed was rotated after you sent this; nothing was rolled" in r.body["error"]["message"]
    assert r.body["error"]["details"]["expected"] == seen
    assert (await enc.state())["seq"] == head
    now = (await enc.state(token=token))["commitment"]
    sent = {"expression": "1d100", "combatant": "ann", "command_id": "ann-d100", "expected_commitment": now}
    first = await enc.command("roll", token=token, **sent)
    assert first.status == 201, first.body
    # Like expected_seq, the commitment is no part of the command's identity: a resend is a resend.
    again = await enc.command("roll", token=token, **{**sent, "expected_commitment": seen})
    assert again.status == 200 and again.body["events"] == first.body["events"]
    bad = await enc.command("note", text="x", expected_commitment="not-a-commitment")
    assert bad.status == 400 and bad.body["error"]["details"]["field"] == "expected_commitment"


async def test_tussle_verify_sent_names_the_rotation_that_refused_a_players_command(tussle, tmp_path):
    enc = await tussle.create()
    await enc.add({"id": "ann", "name": "Ann", "side": "heroes"})
    token = await enc.seat("Ann's player", ["ann"])
    seen = (await enc.state(token=token))["commitment"]
    rotation = (await enc.ok("rotate_seed"))["seq"]
    held = {"command_id": "ann-held", "entropy": "h" * 24, "expected_commitment": seen}
    r = await enc.command("roll", token=token, expression="1d100", combatant="ann", **held)
    assert r.status == 409
    later = {"command_id": "ann-later", "entropy": "l" * 24}
    assert (await enc.command("roll", token=token, expression="1d6", combatant="ann", **later)).status == 201
    await enc.ok("close")
    # The player's record on two devices: the refused send (with the server's answer) on one, the other roll
    # on the other, as the page keeps them.
    phone, laptop = tmp_path / "phone.jsonl", tmp_path / "laptop.jsonl"
    phone.write_text(json.dumps({**held, "refused": {"status": 409, **r.body["error"]}}) + "\n")
    laptop.write_text(json.dumps(later) + "\n")
    path = await export(tussle, enc, tmp_path)
    code, out = await tussle_cli("verify", path, "--sent", str(phone), "--sent", str(laptop), "--json")
    report = json.loads(out)
    assert code == 1 and report["first_bad_seq"] == rotation
    assert [(p["kind"], p["seq"]) for p in report["problems"]] == [("commitment_moved", rotation)]
    code, _ = await tussle_cli("verify", path, "--sent", str(laptop))
    assert code == 0
