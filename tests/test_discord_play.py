"""Play from Discord (issue 31): interactions signed as Discord signs them, sent to a live server whose
Discord API is a local receiver that checks every answer, edit and follow-up against Discord's limits."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from server.audit.verifying import verify_export
from tests.support.discord_interactions import ALICE, APPLICATION_ID, GM_USER, Table, discord_table
from tests.tft.helpers import BROADSWORD, DAGGER, fig


@pytest.fixture
async def table(tmp_path) -> AsyncIterator[Table]:
    async with discord_table(str(tmp_path / "tussle.db")) as t:
        yield t


def buttons(answer: dict[str, Any]) -> dict[str, str]:
    """label -> custom_id of a message's buttons."""
    return {
        c["label"]: c["custom_id"]
        for row in answer["data"]["components"]
        for c in row["components"]
        if c["type"] == 2
    }


def menu(answer: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """The select menu's custom_id and its label -> value."""
    sel = next(c for row in answer["data"]["components"] for c in row["components"] if c["type"] == 3)
    return sel["custom_id"], {o["label"]: o["value"] for o in sel["options"]}


# ---- the endpoint ------------------------------------------------------------------------------------


async def test_bad_and_stale_signatures_are_401_and_ping_gets_pong(table: Table):
    side = table.side
    body = b'{"type":1,"id":"1","application_id":"' + APPLICATION_ID.encode() + b'"}'
    assert await side.post(body, side.signed(body)) == (200, {"type": 1})
    forger = Ed25519PrivateKey.generate()
    headers = side.signed(body)
    for bad in (
        side.signed(body, key=forger),  # another key
        {**headers, "X-Signature-Ed25519": "00" * 64},
        {
            **headers,
            "X-Signature-Timestamp": str(int(headers["X-Signature-Timestamp"]) + 1),
        },  # not what was signed
        side.signed(body, timestamp="1000000000"),  # signed, but in 2001: a replay
        {"Content-Type": "application/json"},  # no signature at all
    ):
        status, answer = await side.post(body, bad)
        assert status == 401, (bad, answer)
    status, _ = await side.post(body + b" ", headers)  # the body changed after signing
    assert status == 401


async def test_a_channel_is_bound_and_a_seat_linked_with_page_made_codes(table: Table):
    enc = await table.tussle.create("tft")
    await enc.add(fig("rolf", "a", 12, 12, [0, 0], items=[BROADSWORD]))
    seat = await enc.seat("Alice", ["rolf"])
    _, answer = await table.command("turn")
    assert "plays no encounter" in answer["data"]["content"] and answer["data"]["flags"] == 64
    player_code = (await table.tussle.request("POST", enc.path + "/discord/codes", {}, token=seat)).body
    assert player_code["kind"] == "link"
    r = await table.tussle.request("POST", enc.path + "/discord/codes", {"kind": "bind"}, token=seat)
    assert r.status == 403, "only the GM binds a channel"
    code = (await table.tussle.request("POST", enc.path + "/discord/codes", {}, token=enc.gm_token)).body
    assert code["kind"] == "bind" and code["command"] == f"/tussle bind {code['code']}"
    _, answer = await table.command("bind", GM_USER, code=code["code"])
    assert "now plays **Test fight**" in answer["data"]["content"]
    _, answer = await table.command("bind", GM_USER, code=code["code"])
    assert "unknown, used or expired" in answer["data"]["content"], "a code works once"
    _, answer = await table.command("turn")
    assert "not linked to a seat" in answer["data"]["content"]
    _, answer = await table.command("link", code=player_code["code"])
    assert "linked to seat **Alice** (Rolf)" in answer["data"]["content"] and answer["data"]["flags"] == 64
    links = (await table.tussle.request("GET", enc.path + "/discord/links", token=enc.gm_token)).body
    assert links == {"links": [{"user": ALICE, "username": "Player 11", "role": "player", "seat": "seat-1"}]}
    assert (await table.tussle.request("GET", enc.path + "/discord/links", token=seat)).status == 403
    # A link dies with the token it was made under.
    r = await table.tussle.request("POST", enc.path + "/seats/seat-1/token", token=enc.gm_token)
    _, answer = await table.command("turn")
    assert "not linked to a seat" in answer["data"]["content"], "rotating the seat token ends the link"
    assert (await table.tussle.request("GET", enc.path + "/discord/links", token=enc.gm_token)).body == {
        "links": []
    }
    new_seat = r.body["token"]
    code = (await table.tussle.request("POST", enc.path + "/discord/codes", {}, token=new_seat)).body
    await table.command("link", code=code["code"])
    _, answer = await table.command("turn")
    assert "Rolf" in answer["data"]["content"] or buttons(answer)
    r = await table.tussle.request("DELETE", enc.path + f"/discord/links/{ALICE}", token=enc.gm_token)
    assert r.status == 204
    _, answer = await table.command("turn")
    assert "not linked to a seat" in answer["data"]["content"], "the GM revoked the link"
    code = (await table.tussle.request("POST", enc.path + "/discord/codes", {}, token=new_seat)).body
    await table.command("link", code=code["code"])
    _, answer = await table.command("unlink")
    assert answer["data"]["content"] == "You are unlinked."
    _, answer = await table.command("turn")
    assert "not linked to a seat" in answer["data"]["content"]


# ---- a TFT turn played from Discord ---------------------------------------------------------------------


async def test_a_player_plays_a_tft_turn_from_buttons_and_the_dice_verify(table: Table):
    tussle, api = table.tussle, table.api
    enc = await tussle.create("tft", dice="mixed")
    await enc.add(fig("rolf", "a", 12, 11, [-1, 0], 0, ma=10, items=[dict(BROADSWORD), dict(DAGGER)]))
    await enc.add(fig("ogre", "b", 12, 13, [1, 0], 3, ma=12))
    seat = await enc.seat("Alice", ["rolf"])
    await table.bind_and_link(enc, seat)
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")

    # Movement: Move, then the hex from the menu of destinations.
    _, turn = await table.command("turn")
    assert turn["data"]["flags"] == 64 and "movement phase" in turn["data"]["content"]
    _, choose = await table.click(buttons(turn)["Move"])
    assert choose["type"] == 7, "the choice replaces the turn's message"
    custom_id, hexes = menu(choose)
    moved, answer = await table.click(custom_id, values=[hexes["to 0,0"]])
    assert answer["type"] == 7 and answer["data"]["content"].startswith("Sent.")
    await api.until(lambda: api.to_webhook(moved["token"]), "the move's result in the channel")
    posted = api.to_webhook(moved["token"])[0]
    assert posted.method == "POST" and "flags" not in posted.body, "the result is the channel's"
    assert "Rolf moves" in posted.body["content"] and f"/encounters/{enc.id}/view" in posted.body["content"]
    stale = buttons(turn)["Move"]  # made at the seq before the move

    # The action phase: the ogre gets into hand-to-hand; Alice is asked whether Rolf readies his dagger.
    await enc.ok("start_phase", phase="action")
    await enc.ok("tft.enter_hth", combatant="ogre", target="rolf", dice=[[3]])
    _, turn = await table.command("turn")
    content = turn["data"]["content"]
    # As a notice says it: whom it is for before the question, the default and the steps in words.
    assert "You are asked (for Rolf): " in content, content
    assert "(default: " in content and not any(f"({n})" in content for n in ("start_turn", "start_phase"))
    answered, answer = await table.click(buttons(turn)["Dagger"])
    assert answer["type"] == 7
    state = await enc.state()
    assert state["pending"] == []
    assert next(i for i in state["combatants"]["rolf"]["items"] if i["id"] == "dagger")["state"] == "ready"

    # A stale button is refused, to the clicker only, and sends nothing.
    seq = state["seq"]
    _, refused = await table.click(stale)
    assert refused["type"] == 4 and refused["data"]["flags"] == 64
    assert "Not sent" in refused["data"]["content"] and f"seq {seq}" in refused["data"]["content"]
    assert (await enc.state())["seq"] == seq

    # Rolf's action: the attack the offers hold, rolled by the server under the interaction's id.
    _, turn = await table.command("turn")
    attack = next(label for label in buttons(turn) if "attack" in label.lower())
    clicked, answer = await table.click(buttons(turn)[attack])
    while answer["type"] == 7 and not answer["data"]["content"].startswith("Sent."):
        b = buttons(answer)
        first = next(
            (cid for label, cid in b.items() if label not in ("skip", "back to the turn", "more…")), None
        )
        if first is None:
            cid, options = menu(answer)
            clicked, answer = await table.click(cid, values=[next(iter(options.values()))])
        else:
            clicked, answer = await table.click(first)
    assert answer["data"]["content"].startswith("Sent."), answer
    await api.until(lambda: api.to_webhook(clicked["token"]), "the attack's result in the channel")
    told = "\n".join(c.body["content"] for c in api.to_webhook(clicked["token"]))
    assert "Rolf rolls 3d6 for an HTH attack" in told, told

    # /tussle roll and /tussle log
    rolled, answer = await table.command("roll", expression="3d6", purpose="spot the ambush")
    assert (
        answer["type"] == 4
        and "flags" not in answer["data"]
        and "spot the ambush" in answer["data"]["content"]
    )
    _, log = await table.command("log")
    assert "Rolf" in log["data"]["content"] and log["data"]["flags"] == 64

    # Every command sent from Discord is keyed by its interaction and keeps Discord's signed request.
    events = await enc.events()
    from_discord = {i["id"] for i in table.side.sent}
    mine = [e for e in events if e["command_id"] in from_discord]
    assert {e["command_id"] for e in mine} >= {moved["id"], answered["id"], clicked["id"], rolled["id"]}
    for e in mine:
        if "declaration" in e["data"]:
            declared = e["data"]["declaration"]
            assert declared["keyed_by"] == "discord" and declared["signed_request"]["by"] == "discord"
            assert json.loads(declared["signed_request"]["body"])["id"] == e["command_id"]
    rolls = [e for e in mine if e["type"] == "DieRolled"]
    assert rolls and all(r["data"]["keyed_by"] == "discord" for r in rolls)
    assert all(r["data"]["keyed_command_id"] in from_discord for r in rolls)
    assert all(len(r["data"]["entropy"]) == 64 for r in rolls), "the token's digest: not weak"

    # Revealed, the dice verify, by the server and from the export alone.
    await enc.ok("close")
    verified = (await tussle.request("GET", enc.path + "/verify", token=enc.gm_token)).body
    assert verified["ok"], verified["problems"]
    assert verified["rolls_failed"] == 0 and verified["rolls_verified"] >= len(rolls)
    assert verified["rolls_checked"] - verified["rolls_verified"] == verified["rolls_manual"] == 1  # the GM's
    export = await tussle.request(
        "GET", enc.path + "/events", token=enc.gm_token, headers={"Accept": "application/x-ndjson"}
    )
    raw = export.body.encode() if isinstance(export.body, str) else b""
    report = verify_export(raw)
    assert report["ok"], report["problems"]
    wrong = verify_export(
        raw, discord_keys=[Ed25519PrivateKey.generate().public_key().public_bytes_raw().hex()]
    )
    bad = {p["seq"] for p in wrong["problems"] if p["kind"] == "discord"}
    assert bad and bad <= {e["seq"] for e in mine}, "under another key, no Discord command verifies"
