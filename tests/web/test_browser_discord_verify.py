"""The page's verifier checks commands sent from Discord as `tussle verify` does (issue 25 item 4, since
issue 31 added the check): a request signed by another key than the Discord application's, and a
"Discord" command that keeps no signed request, opened from disk, are FAILED at the seq tussle verify
names; the honest export is OK in both."""

from __future__ import annotations

import asyncio
import threading

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from server.audit.verifying import verify_export
from tests.support.discord_interactions import discord_table
from tests.support.serving import ServeProcess
from tests.support.tampering import encode, parse, rewrite_chain
from tests.test_discord_endpoint import _linked
from tests.web.conftest import Api

pytestmark = pytest.mark.browser


def _discord_export(db: str) -> tuple[bytes, list[str]]:
    """A fight with two rolls sent from Discord, exported (run on its own loop: Playwright's holds this
    thread's); the rolls' command ids."""
    out: dict = {}

    async def play() -> None:
        async with discord_table(db) as t:
            enc = await _linked(t)
            first, _ = await t.command("roll", expression="3d6", purpose="first")
            second, _ = await t.command("roll", expression="1d6", purpose="second")
            await enc.ok("close")
            answer = await t.tussle.request(
                "GET", enc.path + "/events", token=enc.gm_token, headers={"Accept": "application/x-ndjson"}
            )
            out["raw"], out["ids"] = answer.body.encode(), [first["id"], second["id"]]
            # The live page reads the application's key where it reads the receipt keys (GET /keys).
            keys = (await t.tussle.request("GET", "/keys")).body
            assert keys["discord_public_keys"] == [t.side.public_key], keys

    def run() -> None:
        try:
            asyncio.run(play())
        except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
            out["error"] = exc

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(120)
    if "error" in out:
        raise out["error"]
    return out["raw"], out["ids"]


def test_the_page_names_a_forged_discord_command_where_tussle_verify_does(open_page, tmp_path):
    raw, (first, second) = _discord_export(str(tmp_path / "discord.db"))
    events, trailer = parse(raw)
    at = next(e for e in events if e["command_id"] == second and "declaration" in e["data"])
    signed = at["data"]["declaration"]["signed_request"]
    signed["signature"] = (
        Ed25519PrivateKey.generate().sign(signed["timestamp"].encode() + signed["body"].encode()).hex()
    )
    made_up = next(e for e in events if e["command_id"] == first and "declaration" in e["data"])
    del made_up["data"]["declaration"]["signed_request"]
    rewrite_chain(events, trailer)
    forged = encode(events, trailer)
    assert verify_export(raw)["ok"]
    want = verify_export(forged)
    assert {p["seq"] for p in want["problems"] if p["kind"] == "discord"} == {at["seq"], made_up["seq"]}

    served = ServeProcess("--db", str(tmp_path / "page.db"))
    try:
        api = Api(served.url)
        enc = api.ok("POST", "/encounters", {"name": "A page to verify with", "ruleset": "freeform"})
        watched = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}")
        p = watched.page
        p.locator("#connection.live").wait_for()
        for name, data, shown in (
            ("honest", raw, "OK"),
            ("forged", forged, f"FAILED at seq {want['first_bad_seq']}"),
        ):
            (tmp_path / f"{name}.jsonl").write_bytes(data)
            p.locator("#file-report").evaluate("b => b.replaceChildren()")
            p.set_input_files("#export-file", str(tmp_path / f"{name}.jsonl"))
            p.locator("#file-report .chain-state").wait_for()
            text = p.locator("#file-report .chain-state").inner_text()
            assert text.startswith(shown), (name, p.locator("#file-report").inner_text())
        kinds = p.locator("#file-report li[data-kind=discord]").all_inner_texts()
        assert len(kinds) == 2 and any("keeps no signed request" in k for k in kinds), kinds
        assert watched.script_errors() == []
    finally:
        served.stop()
