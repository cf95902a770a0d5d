"""The GM's hidden rolls (issue 16 item 5): "behind the GM screen", and provably not changed afterwards.

A real server over a real SQLite file, real HTTP and websocket clients, the real `tussle verify` and
docs/verifying.md's example verifier, as in tests/test_verify_cases.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import aiohttp

from events.hidden_rolls import roll_commitment
from tests.support.tampering import encode, parse, rewrite_chain
from tests.test_verify_cases import cli_first_bad, doc_verifier, run_doc_verifier
from tests.test_verify_tamper import export, tussle_cli

ANN = {"id": "ann", "name": "Ann", "side": "heroes"}


async def table(tussle) -> tuple[Any, str]:
    """An encounter with Ann's player seated."""
    enc = await tussle.create("freeform")
    await enc.add(ANN)
    return enc, await enc.seat("Ann's player", ["ann"])


async def websocket_text(tussle, enc, token: str, projection: str, until_seq: int) -> str:
    """Every frame a subscriber of `projection` receives up to `until_seq`, as the text it read."""
    frames = []
    async with tussle.session.ws_connect(
        f"{tussle.base_url}{enc.path}/ws", headers={"Authorization": f"Bearer {token}"}
    ) as ws:
        await ws.send_json({"op": "subscribe", "projection": projection, "after": 0})
        while True:
            msg = await ws.receive(timeout=30)
            assert msg.type == aiohttp.WSMsgType.TEXT, msg
            frames.append(msg.data)
            seqs = [int(n) for n in re.findall(r'"seq":\s*(\d+)', msg.data)]
            if seqs and max(seqs) >= until_seq:
                return "\n".join(frames)


async def test_the_faces_stay_behind_the_screen_everywhere(tussle, tmp_path):
    enc, player = await table(tussle)
    out = await enc.ok(
        "roll",
        expression="4d6",
        purpose="spot the ambush",
        hidden=True,
        command_id="gm-peek",
        entropy="g" * 20,
    )
    (made,) = out["events"]
    assert made["type"] == "HiddenRollMade" and set(made["data"]) >= {"commitment", "expression", "entropy"}
    assert "faces" not in made["data"] and "total" not in made["data"]
    secret = (await enc.get("/hidden-rolls")).body["hidden_rolls"]
    (roll,) = secret
    assert roll["seq"] == made["seq"] and roll["revealed"] is False and len(roll["faces"][0]) == 4
    faces = roll["faces"][0]
    salt_free = [json.dumps(faces), json.dumps(faces, separators=(",", ":")), "+".join(map(str, faces))]

    public: dict[str, str] = {
        "events": json.dumps(await enc.events(token=player)),
        "state": json.dumps(await enc.state(token=player)),
        "log": json.dumps((await enc.get("/log", token=player)).body),
        "markdown": json.dumps((await enc.get("/log?format=markdown", token=player)).body),
        "audit": json.dumps((await enc.get("/audit", token=player)).body),
        "verify": json.dumps((await enc.get("/verify", token=player)).body),
        "export": Path(await export(tussle, enc, tmp_path)).read_text(),
        "events socket": await websocket_text(tussle, enc, player, "events", made["seq"]),
        "log socket": await websocket_text(tussle, enc, player, "log", made["seq"]),
        "page": (await tussle.request("GET", f"{enc.path}/view")).body,
    }
    code, cli_export = await tussle_cli("export", enc.id, "--db", tussle.db_path)
    assert code == 0
    public["tussle export"] = cli_export
    for where, text in public.items():
        for shown in salt_free:
            assert shown not in text, f"the hidden faces {shown} show in {where}"
    assert "The GM rolls behind the screen (4d6): spot the ambush." in public["log"]
    # Nothing to redact: a reader checks the chain, and the commitment is all it holds of the roll.
    assert (await enc.get("/verify", token=player)).body["ok"]


async def test_only_the_gm_rolls_and_reads_behind_the_screen(tussle):
    enc, player = await table(tussle)
    refused = await enc.command("roll", expression="3d6", hidden=True, token=player)
    assert (
        refused.status == 403 and "only the GM may roll behind the screen" in refused.body["error"]["message"]
    )
    await enc.ok("roll", expression="3d6", hidden=True)
    for token in (
        player,
        (await tussle.request("POST", f"{enc.path}/read-tokens", {}, token=enc.gm_token)).body.get("token"),
    ):
        r = await enc.get("/hidden-rolls", token=token)
        assert r.status == 403 and "behind the GM screen" in r.body["error"]["message"], r.body
    assert (await enc.command("reveal_roll", seq=2, token=player)).status == 403
    assert (await enc.command("reveal_roll", seq=1)).status == 422, "seq 1 is no hidden roll"
    manual = await tussle.create("freeform", dice="manual")
    r = await manual.command("roll", expression="1d6", hidden=True)
    assert r.status == 422 and "hidden seed" in r.body["error"]["message"]
    mixed = await tussle.create("freeform", dice="mixed")
    r = await mixed.command("roll", expression="1d6", hidden=True, dice=[[6]])
    assert r.status == 400 and "leave out dice" in r.body["error"]["message"], r.body


async def test_reveal_roll_shows_the_faces_and_verifies(tussle, tmp_path):
    enc, player = await table(tussle)
    made = (await enc.ok("roll", expression="3d6+2", hidden=True, command_id="behind", entropy="e" * 20))[
        "events"
    ][0]
    (secret,) = (await enc.get("/hidden-rolls")).body["hidden_rolls"]
    await enc.ok("rotate_seed")  # the ordinary seed's reveal shows nothing of the hidden roll
    assert json.dumps(secret["faces"][0]) not in json.dumps(await enc.events(token=player))
    shown = (await enc.ok("reveal_roll", seq=made["seq"]))["events"][0]
    assert shown["type"] == "HiddenRollRevealed" and shown["data"]["faces"] == secret["faces"]
    assert shown["data"]["total"] == secret["total"] == sum(secret["faces"][0]) + 2
    assert roll_commitment(shown["data"]["faces"], shown["data"]["salt"]) == made["data"]["commitment"]
    text = "+".join(map(str, secret["faces"][0]))
    log = [e["text"] for e in (await enc.get("/log", token=player)).body["entries"]]
    assert f"The GM reveals the roll at seq {made['seq']}: {text} = {secret['total']}." in log
    assert (await enc.command("reveal_roll", seq=made["seq"])).status == 422, "already revealed"
    report = (await enc.get("/verify", token=player)).body
    assert report["ok"] and report["hidden_rolls"] == report["hidden_rolls_verified"] == 1, report
    code, out = await tussle_cli("verify", await export(tussle, enc, tmp_path))
    assert code == 0 and "1 made, 1 revealed, 1 of them verified" in out, out


async def test_close_reveals_every_hidden_roll_and_the_hidden_seed(tussle, tmp_path):
    enc, player = await table(tussle)
    first = (await enc.ok("roll", expression="2d6", hidden=True))["events"][0]["seq"]
    second = (await enc.ok("roll", expression="1d20", hidden=True))["events"][0]["seq"]
    await enc.ok("reveal_roll", seq=first)
    assert (await enc.command("void", seq=second, reason="never mind")).status == 422, "a hidden roll stays"
    closed = (await enc.ok("close"))["events"]
    types = [e["type"] for e in closed]
    assert types == ["HiddenRollRevealed", "HiddenSeedRevealed", "DiceSeedRotated", "EncounterClosed"]
    assert closed[0]["data"]["seq"] == second
    report = (await enc.get("/verify")).body
    assert report["ok"] and report["hidden_rolls"] == 2 and report["hidden_rolls_verified"] == 2, report
    path = await export(tussle, enc, tmp_path)
    assert await cli_first_bad(Path(path)) is None
    assert await run_doc_verifier(doc_verifier(tmp_path), path) is None
    code, out = await tussle_cli("verify", path, "--replay")  # the rules decide every hidden roll alike
    assert code == 0, out
    replayed = (await enc.get("/verify?replay=1")).body
    assert replayed["ok"] and replayed["replay"]["skipped"] == [], replayed
    created = (await enc.events())[0]["data"]
    assert created["hidden_commitment"] and created["hidden_commitment"] != created["commitment"]


def changed_hidden_roll(events: list[dict[str, Any]], trailer: dict[str, Any]) -> int:
    """The GM's revealed hidden roll changed after the fact (a better face, its total), chain rehashed."""
    e = next(e for e in events if e["type"] == "HiddenRollRevealed")
    e["data"]["faces"][0][0] = e["data"]["faces"][0][0] % 6 + 1
    e["data"]["total"] = sum(e["data"]["faces"][0])
    rewrite_chain(events, trailer)
    return e["seq"]


def recommitted_hidden_roll(events: list[dict[str, Any]], trailer: dict[str, Any]) -> int:
    """The roll and its commitment both replaced (faces, salt and commitment agree): only the hidden seed,
    revealed at close, shows that the commitment is not the one the seed gives."""
    made = next(e for e in events if e["type"] == "HiddenRollMade")
    shown = next(e for e in events if e["type"] == "HiddenRollRevealed" and e["data"]["seq"] == made["seq"])
    shown["data"]["faces"][0][0] = shown["data"]["faces"][0][0] % 6 + 1
    shown["data"]["total"] = sum(shown["data"]["faces"][0])
    made["data"]["commitment"] = roll_commitment(shown["data"]["faces"], shown["data"]["salt"])
    rewrite_chain(events, trailer)
    return made["seq"]


async def test_a_hidden_roll_changed_after_the_fact_is_caught_at_its_seq(server, tussle, tmp_path):
    enc, _ = await table(tussle)
    made = await enc.ok("roll", expression="3d6", hidden=True, command_id="gm-screen", entropy="s" * 20)
    await enc.ok("note", text="the guard looks away")
    await enc.ok("reveal_roll", seq=made["seq"])
    await enc.ok("close")
    honest = Path(await export(tussle, enc, tmp_path))
    verifier = doc_verifier(tmp_path)
    for tamper in (changed_hidden_roll, recommitted_hidden_roll):
        events, trailer = parse(honest.read_bytes())
        seq = tamper(events, trailer)
        path = tmp_path / f"{tamper.__name__}.jsonl"
        path.write_bytes(encode(events, trailer))
        assert await cli_first_bad(path) == seq, tamper.__name__
        assert await run_doc_verifier(verifier, str(path)) == seq, tamper.__name__
        code, out = await tussle_cli("verify", str(path))
        assert code != 0 and f"seq {seq}" in out, out

    # The same change made in the database itself: GET /verify names it at the same seq.
    from tests.test_verify_cases import _rewrite_db

    events, trailer = parse(honest.read_bytes())
    seq = changed_hidden_roll(events, trailer)
    await server.stop()
    _rewrite_db(server.db_path, enc.id, events, events[-1])
    await server.start()
    report = (await enc.get("/verify")).body
    assert not report["ok"] and report["first_bad_seq"] == seq, report["problems"]
    assert "changed after it was made" in report["problems"][0]["message"]


async def test_a_live_encounter_with_hidden_rolls_moves_with_its_secrets(tussle, tmp_path):
    enc, _ = await table(tussle)
    made = (await enc.ok("roll", expression="2d8", hidden=True))["events"][0]
    (before,) = (await enc.get("/hidden-rolls")).body["hidden_rolls"]
    code, moving = await tussle_cli("export", enc.id, "--db", tussle.db_path, "--with-secrets")
    assert code == 0
    (tmp_path / "moving.jsonl").write_text(moving)
    new_db = str(tmp_path / "new.db")
    code, out = await tussle_cli("import", str(tmp_path / "moving.jsonl"), "--db", new_db)
    assert code == 0, out
    from tests.support.client import RunningServer, TussleClient

    other = await RunningServer(new_db).start()
    try:
        async with aiohttp.ClientSession() as session:
            moved = type(enc)(
                TussleClient(other.base_url, session, new_db), {"id": enc.id, "gm_token": enc.gm_token}
            )
            assert (await moved.get("/hidden-rolls")).body["hidden_rolls"] == [before]
            shown = (await moved.ok("reveal_roll", seq=made["seq"]))["events"][0]
            assert shown["data"]["faces"] == before["faces"]
            assert (await moved.get("/verify")).body["ok"]
    finally:
        await other.stop()


async def test_the_roll_command_reads_neutral_and_its_hidden_field_says_gm_only(tussle):
    """Issue 18 (a new user's play-through): the players' roll form showed the command's description, which
    spoke of rolling "behind the GM screen (hidden)" — a thing only the GM may do."""
    r = await tussle.request("GET", "/openapi.json")
    assert r.status == 200
    schemas = r.body["components"]["schemas"]
    mapping = schemas["Command"]["discriminator"]["mapping"]
    roll = schemas[mapping["roll"].rsplit("/", 1)[1]]
    assert "hidden" not in roll["description"] and "GM" not in roll["description"], roll["description"]
    assert roll["properties"]["hidden"]["description"].startswith("GM only"), roll["properties"]["hidden"]


async def test_the_admin_reads_behind_the_screen_as_the_openapi_text_says(tmp_path):
    """Issue 33 item 11: the admin read /hidden-rolls while OpenAPI said "GM only". Decided: the admin
    may (the operator holds the seed key and can read the hidden seed anyway); code and text agree."""
    import aiohttp

    from tests.support.client import RunningServer, TussleClient

    srv = await RunningServer(str(tmp_path / "admin.db"), admin_token="admin-" + "x" * 40).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(srv.base_url, session, srv.db_path)
            enc = await client.create("freeform", token="admin-" + "x" * 40)
            await enc.ok("roll", expression="3d6", hidden=True)
            r = await enc.get("/hidden-rolls", token="admin-" + "x" * 40)
            assert r.status == 200 and len(r.body["hidden_rolls"]) == 1, r.body
            doc = (await client.request("GET", "/openapi.json")).body
            text = doc["paths"]["/encounters/{id}/hidden-rolls"]["get"]
            said = " ".join(str(text.get(k, "")) for k in ("summary", "description"))
            assert "admin" in said and "GM only" not in said, said
    finally:
        await srv.stop()
