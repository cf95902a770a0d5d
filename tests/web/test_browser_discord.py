"""Discord from the page (issue 31 item 2): the GM page makes the code that binds a channel and lists and
ends the links; a player's page makes the code that links a Discord user to the seat. The codes are
used as Discord would send them: interactions signed with the application's key."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.support.serving import ServeProcess
from tests.support.tampering import encode, parse, rewrite_chain
from tests.web.conftest import Api, axe_violations

pytestmark = pytest.mark.browser
KEY = Ed25519PrivateKey.generate()


@pytest.fixture
def discord_served(tmp_path) -> Iterator[ServeProcess]:
    public = KEY.public_key().public_bytes_raw().hex()
    srv = ServeProcess(
        "--db", str(tmp_path / "tussle.db"), "--discord-public-key", public, "--discord-application-id", "77"
    )
    assert srv.port is not None, srv.stderr
    yield srv
    srv.stop()


def slash(url: str, sub: str, user: str, **options: str) -> dict[str, Any]:
    """/tussle <sub> as Discord sends it, signed; the endpoint's answer."""
    body = json.dumps(
        {
            "id": str(1300000000000000000 + time.monotonic_ns() % 10**9),
            "application_id": "77",
            "type": 2,
            "token": "tok-" + user,
            "channel_id": "555",
            "member": {"user": {"id": user, "username": f"user{user}"}},
            "data": {
                "name": "tussle",
                "options": [
                    {"type": 1, "name": sub, "options": [{"name": k, "value": v} for k, v in options.items()]}
                ],
            },
        }
    ).encode()
    ts = str(int(time.time()))
    request = urllib.request.Request(
        url + "/discord/interactions",
        data=body,
        headers={"X-Signature-Ed25519": KEY.sign(ts.encode() + body).hex(), "X-Signature-Timestamp": ts},
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def test_the_pages_make_the_codes_and_the_gm_ends_a_link(discord_served, open_page):
    api = Api(discord_served.url)
    enc = api.ok("POST", "/encounters", {"name": "On Discord", "ruleset": "freeform"})
    api.command(enc, "add_combatant", combatant={"id": "ana", "name": "Ana", "side": "a"})
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["ana"]}, enc["gm_token"]
    )
    view = f"{discord_served.url}/encounters/{enc['id']}/view"

    gm = open_page(f"{view}#token={enc['gm_token']}")
    g = gm.page
    g.click("#discord-bind")
    command = g.locator("#discord-code output").inner_text()
    assert command.startswith("/tussle bind ")
    answer = slash(discord_served.url, "bind", "9", code=command.split()[-1])
    assert "now plays **On Discord**" in answer["data"]["content"]
    g.locator("#discord-links caption", has_text="No Discord user").wait_for()

    alice = open_page(f"{view}#token={seat['token']}")
    a = alice.page
    assert a.locator("#discord-bind").count() == 0, "a player binds no channel"
    a.click("#discord-link")
    command = a.locator("#discord-code output").inner_text()
    assert command.startswith("/tussle link ")
    answer = slash(discord_served.url, "link", "11", code=command.split()[-1])
    assert "seat **Alice** (Ana)" in answer["data"]["content"]

    g.reload()
    row = g.locator("#discord-links tr", has_text="user11")
    row.wait_for()
    assert "seat" in row.inner_text()
    g.on("dialog", lambda d: d.accept())
    row.locator("button", has_text="End link").click()
    g.locator("#discord-links caption", has_text="No Discord user").wait_for()
    assert "not linked" in slash(discord_served.url, "turn", "11")["data"]["content"]
    assert gm.script_errors() == [] and alice.script_errors() == []
    assert axe_violations(g) == [] and axe_violations(a) == []


def test_the_pages_verifier_checks_discord_signatures(discord_served, open_page):
    api = Api(discord_served.url)
    enc = api.ok("POST", "/encounters", {"name": "Rolled on Discord", "ruleset": "freeform"})
    seat = api.ok("POST", f"/encounters/{enc['id']}/seats", {"name": "Alice"}, enc["gm_token"])
    code = api.ok("POST", f"/encounters/{enc['id']}/discord/codes", {}, enc["gm_token"])["code"]
    slash(discord_served.url, "bind", "9", code=code)
    code = api.ok("POST", f"/encounters/{enc['id']}/discord/codes", {}, seat["token"])["code"]
    slash(discord_served.url, "link", "11", code=code)
    rolled = slash(discord_served.url, "roll", "11", expression="3d6", purpose="the page checks this")
    assert "the page checks this" in rolled["data"]["content"]
    api.command(enc, "close")
    request = urllib.request.Request(
        f"{discord_served.url}/encounters/{enc['id']}/events",
        headers={"Accept": "application/x-ndjson", "Authorization": f"Bearer {enc['gm_token']}"},
    )
    with urllib.request.urlopen(request, timeout=30) as r:
        honest = r.read()
    events, trailer = parse(honest)
    first = next(e for e in events if e["data"].get("declaration", {}).get("keyed_by") == "discord")
    signed = first["data"]["declaration"]["signed_request"]
    forger = Ed25519PrivateKey.generate()
    signed["signature"] = forger.sign(signed["timestamp"].encode() + signed["body"].encode()).hex()
    rewrite_chain(events, trailer)
    forged = encode(events, trailer).decode()
    page = open_page(discord_served.url + "/")
    got = page.page.evaluate(
        """async ([honest, forged]) => {
        const v = await import('/static/js/verify.js');
        const a = v.verifyExport(honest), b = v.verifyExport(forged);
        return [a.ok, a.problems, b.first_bad_seq, b.problems.map((p) => p.kind)];
    }""",
        [honest.decode(), forged],
    )
    assert got[0] is True, got[1]
    assert got[2] == first["seq"] and got[3] == ["discord"]
    assert page.script_errors() == []
