"""The Discord endpoint's edges (issue 31): work answered late through the interaction's webhook, 429s
honoured, `tussle serve`'s flags, `tussle discord register`, and a forged "Discord" command named by
`tussle verify` at its seq."""

from __future__ import annotations

import json

import aiohttp
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from server.discord.register import COMMANDS
from tests.support.discord_interactions import GM_USER, DiscordSide, discord_table
from tests.support.receivers import DiscordApiReceiver
from tests.support.serving import ServeProcess
from tests.support.tampering import encode, parse, rewrite_chain
from tests.test_verify_cases import doc_verifier, run_doc_verifier
from tests.test_verify_tamper import tussle_cli


async def _linked(t, ruleset: str = "freeform"):
    enc = await t.tussle.create(ruleset)
    seat = await enc.seat("Alice", [])
    bind = (await t.tussle.request("POST", enc.path + "/discord/codes", {}, token=enc.gm_token)).body
    await t.command("bind", GM_USER, code=bind["code"])
    link = (await t.tussle.request("POST", enc.path + "/discord/codes", {}, token=seat)).body
    await t.command("link", code=link["code"])
    return enc


async def test_slow_work_is_deferred_and_finished_through_the_webhook_after_a_429(tmp_path):
    """With no time to answer at once, a command is deferred (ephemeral for /tussle turn) and its answer
    edits the original through the interaction's webhook; Discord's first 429 is waited out, then sent."""
    api = DiscordApiReceiver(limited=lambda n: 0.05 if n == 0 else None)
    async with discord_table(str(tmp_path / "t.db"), api, discord_defer_after_s=0) as t:
        enc = await _linked(t)
        assert [a["type"] for a in t.answers] == [5, 5] and all(a["data"]["flags"] == 64 for a in t.answers)
        rolled, answer = await t.command("roll", expression="2d6", purpose="luck")
        assert answer == {"type": 5, "data": {}}, "a roll's answer is the channel's: a public deferral"
        await api.until(lambda: api.to_webhook(rolled["token"]), "the deferred roll's answer")
        (edit,) = api.to_webhook(rolled["token"])
        assert edit.method == "PATCH" and edit.path.endswith("/messages/@original")
        assert "luck" in edit.body["content"] and "flags" not in edit.body
        assert len(api.calls) == 3, "the 429 was sent again, once"  # bind, link, roll: each edit arrived
        clicked, answer = await t.click("t:1:0")
        assert answer == {"type": 6}, "a click defers as an update of its message"
        await api.until(lambda: api.to_webhook(clicked["token"]), "the deferred click's answer")
        assert api.to_webhook(clicked["token"])[0].method == "PATCH"
        assert (await enc.state())["seq"] >= 2


async def test_tussle_serve_takes_the_discord_flags(tmp_path):
    refused = ServeProcess("--db", str(tmp_path / "t.db"), "--discord-public-key", "zz")
    assert refused.port is None and "64 hex digits" in refused.stop(), "a key that is no key is refused"
    discord = Ed25519PrivateKey.generate()
    public = discord.public_key().public_bytes_raw().hex()
    srv = ServeProcess(
        "--db", str(tmp_path / "t.db"), "--discord-public-key", public, "--discord-application-id", "1"
    )
    try:
        async with aiohttp.ClientSession() as session:
            side = DiscordSide(session, srv.url)
            side.key = discord
            body = b'{"type":1}'
            assert await side.post(body, side.signed(body)) == (200, {"type": 1})
            assert (await side.post(body, side.signed(body, key=Ed25519PrivateKey.generate())))[0] == 401
    finally:
        srv.stop()


async def test_register_overwrites_the_commands_honouring_a_429(monkeypatch):
    api = await DiscordApiReceiver(limited=lambda n: 0.05 if n == 0 else None).start()
    try:
        monkeypatch.delenv("DISCORD_BOT_TOKEN", raising=False)
        register = ("discord", "register", "--application-id", "42", "--api-base", api.base)
        code, out = await tussle_cli(*register, "--dry-run")
        assert code == 0 and api.calls == [] and "$DISCORD_BOT_TOKEN" in out
        assert json.loads(out[out.index("[") :]) == COMMANDS
        code, out = await tussle_cli(*register)
        assert code == 2 and "DISCORD_BOT_TOKEN" in out
        monkeypatch.setenv("DISCORD_BOT_TOKEN", "b0t")
        code, out = await tussle_cli(*register)
        assert code == 0, out
        (call,) = api.calls
        assert (call.method, call.path, call.body) == ("PUT", "/applications/42/commands", COMMANDS)
        subs = {o["name"] for o in COMMANDS[0]["options"]}
        assert subs == {"bind", "link", "unlink", "turn", "roll", "log"}
    finally:
        await api.stop()


async def test_a_forged_discord_command_is_named_at_its_seq(tmp_path):
    async with discord_table(str(tmp_path / "t.db")) as t:
        enc = await _linked(t)
        first, _ = await t.command("roll", expression="3d6", purpose="first")
        second, _ = await t.command("roll", expression="1d6", purpose="second")
        await enc.ok("close")
        raw = (
            await t.tussle.request(
                "GET", enc.path + "/events", token=enc.gm_token, headers={"Accept": "application/x-ndjson"}
            )
        ).body.encode()
    events, trailer = parse(raw)
    path = tmp_path / "export.jsonl"
    path.write_bytes(raw)
    code, out = await tussle_cli("verify", str(path))
    assert code == 0, out
    documented = doc_verifier(tmp_path)  # docs/verifying.md's example verifier checks the signatures too
    assert await run_doc_verifier(documented, str(path)) is None
    # The operator rewrites the second roll's declaration: signed by a key of its own, not Discord's.
    at = next(e for e in events if e["command_id"] == second["id"] and "declaration" in e["data"])
    signed = at["data"]["declaration"]["signed_request"]
    forger = Ed25519PrivateKey.generate()
    signed["signature"] = forger.sign(signed["timestamp"].encode() + signed["body"].encode()).hex()
    # And makes up a "Discord" command: the first roll keeps no signed request.
    made_up = next(e for e in events if e["command_id"] == first["id"] and "declaration" in e["data"])
    del made_up["data"]["declaration"]["signed_request"]
    rewrite_chain(events, trailer)
    path.write_bytes(encode(events, trailer))
    code, out = await tussle_cli("verify", str(path), "--json")
    report = json.loads(out)
    assert code == 1 and report["chain_ok"]
    named = {p["seq"]: p["message"] for p in report["problems"] if p["kind"] == "discord"}
    assert set(named) == {at["seq"], made_up["seq"]}, report["problems"]
    assert "does not verify under the Discord application's public key" in named[at["seq"]]
    assert "keeps no signed request" in named[made_up["seq"]]
    assert await run_doc_verifier(documented, str(path)) == min(named)
    key = forger.public_key().public_bytes_raw().hex()
    assert await run_doc_verifier(documented, str(path), "--discord-key", key) == made_up["seq"]
    # The key given on the command line is the one checked (the trailer's is only the operator's word).
    code, out = await tussle_cli("verify", str(path), "--json", "--discord-key", key)
    named = {p["seq"] for p in json.loads(out)["problems"] if p["kind"] == "discord"}
    assert named == {made_up["seq"]}, (
        "under the forger's key its signature verifies: the key given is the one used"
    )


async def test_codes_bindings_and_links_live_in_either_store(store_dsn, tmp_path):
    """SQLite and PostgreSQL keep the codes, the channel's encounter and the links alike, and deleting an
    encounter deletes them with it."""
    admin = "admin-" + "x" * 20
    async with discord_table(str(tmp_path / "t.db"), pg_dsn=store_dsn, admin_token=admin) as t:
        enc = await t.tussle.create("freeform", token=admin)
        seat = await enc.seat("Alice", [])
        bind = (await t.tussle.request("POST", enc.path + "/discord/codes", {}, token=enc.gm_token)).body
        await t.command("bind", GM_USER, code=bind["code"])
        link = (await t.tussle.request("POST", enc.path + "/discord/codes", {}, token=seat)).body
        _, answer = await t.command("link", code=link["code"])
        assert "seat **Alice**" in answer["data"]["content"]
        listed = (await t.tussle.request("GET", enc.path + "/discord/links", token=enc.gm_token)).body
        assert [x["seat"] for x in listed["links"]] == ["seat-1"]
        assert (await t.tussle.request("DELETE", enc.path, token=admin)).status == 204
        _, answer = await t.command("turn")
        assert "plays no encounter" in answer["data"]["content"], "the binding went with the encounter"


async def test_a_refusal_is_the_senders_alone_in_the_rules_words(tmp_path):
    async with discord_table(str(tmp_path / "t.db")) as t:
        enc = await _linked(t)
        head = (await enc.state())["seq"]
        _, answer = await t.command("roll", expression="3d", purpose="nothing")
        direct = await enc.command("roll", expression="3d", purpose="nothing")
        assert answer["type"] == 4 and answer["data"]["flags"] == 64
        assert answer["data"]["content"] == f"Not done: {direct.body['error']['message']}"
        assert (await enc.state())["seq"] == head
