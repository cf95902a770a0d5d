"""Webhooks run from the page (issue 28 item 3): the GM adds a Discord-format webhook, sees its secret once,
tests it, rotates the secret, sees its health and removes it; a player adds one for its own seat. Against a
real local receiver that refuses what Discord refuses and checks the Standard Webhooks signature."""

from __future__ import annotations

import http.server
import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from standardwebhooks import Webhook

from tests.support.serving import ServeProcess
from tests.web.conftest import WAIT_MS, Api, axe_violations

pytestmark = pytest.mark.browser


class DiscordLike:
    """An HTTP receiver on 127.0.0.1 in its own thread: it answers 400, as Discord does, to content over
    2,000 characters or a username outside 1-80 characters or naming discord/clyde; else 204."""

    def __init__(self) -> None:
        self.got: list[tuple[dict[str, str], bytes]] = []
        self.refused: list[str] = []
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the http.server name
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.got.append(({k.lower(): v for k, v in self.headers.items()}, body))
                why = outer.problem(json.loads(body))
                if why:
                    outer.refused.append(why)
                self.send_response(400 if why else 204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api/webhooks/1/secret-token"

    @staticmethod
    def problem(body: dict[str, Any]) -> str | None:
        if "content" in body:  # Discord's own rules
            name = body.get("username", "Tussle")
            if not 0 < len(body["content"]) <= 2000:
                return f"content of {len(body['content'])} characters"
            if not 1 <= len(name) <= 80 or "discord" in name.lower() or "clyde" in name.lower():
                return f"username {name!r}"
        return None

    def verified(self, secret: str) -> list[dict[str, Any]]:
        """Every body received that `secret` signed (Standard Webhooks), in arrival order."""
        out = []
        for headers, body in list(self.got):
            try:
                out.append(Webhook(secret).verify(body, headers))
            except Exception:  # noqa: BLE001 - signed with another secret: not counted
                continue
        return out

    def wait(self, ok: Any, what: str) -> None:
        deadline = time.monotonic() + WAIT_MS / 1000
        while not ok():
            assert time.monotonic() < deadline, f"the receiver never got {what}"
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.shutdown()


@pytest.fixture
def hooks_served(tmp_path) -> Iterator[ServeProcess]:
    srv = ServeProcess("--db", str(tmp_path / "tussle.db"), "--webhook-allow-private")
    assert srv.port is not None, srv.stderr
    yield srv
    srv.stop()


@pytest.fixture
def receivers() -> Iterator[list[DiscordLike]]:
    made: list[DiscordLike] = []
    yield made
    for r in made:
        r.stop()


def test_the_gm_and_a_player_run_webhooks_from_the_page(hooks_served, receivers, open_page):
    api = Api(hooks_served.url)
    discord, bot = DiscordLike(), DiscordLike()
    receivers += [discord, bot]
    enc = api.ok("POST", "/encounters", {"name": "Hooked", "ruleset": "freeform"})
    api.command(enc, "add_combatant", combatant={"id": "ana", "name": "Ana *the* Bold", "side": "a"})
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["ana"]}, enc["gm_token"]
    )
    view = f"{hooks_served.url}/encounters/{enc['id']}/view"

    gm = open_page(f"{view}#token={enc['gm_token']}")
    g = gm.page
    g.locator("#webhooks").wait_for()
    assert "docs/notifications.md" in g.locator("#webhooks").inner_text()
    # The guide is a link the GM can follow from the page (issue 28 item 5), to this server's copy.
    guide = g.request.get(hooks_served.url + g.locator("#webhooks-guide").get_attribute("href"))
    assert guide.status == 200 and guide.headers["content-type"].startswith("text/markdown")
    assert "your_turn" in guide.text()
    g.fill("#webhook-url", discord.url)
    g.select_option("#webhook-format", "discord")
    g.fill("#webhook-avatar", "https://example.org/gm.png")
    g.click("#webhook-add button[type=submit]")
    g.locator("#webhooks .status", has_text="added").wait_for()
    secret = g.locator("#webhooks .secret output").inner_text()
    assert secret.startswith("whsec_") and g.locator("#webhooks .secret button", has_text="Copy").count() == 1
    row = g.locator("#webhooks-list tr[data-webhook]")
    row.first.wait_for()  # the list is drawn again after the status says "added"
    assert row.count() == 1 and "127.0.0.1" in row.inner_text() and "healthy" in row.inner_text()
    assert "notices, log" in row.inner_text() and "everyone" in row.inner_text()

    # A test message, signed with the secret just shown, within Discord's limits; nothing appended.
    head = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["seq"]
    row.locator("button", has_text="Send a test").click()
    discord.wait(
        lambda: any("Test message" in m.get("content", "") for m in discord.verified(secret)), "the test"
    )
    test = next(m for m in discord.verified(secret) if "Test message" in m.get("content", ""))
    assert test["avatar_url"] == "https://example.org/gm.png"
    assert test["username"] == "Tussle" and test["content"].endswith(f"/encounters/{enc['id']}/view")
    assert api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["seq"] == head

    # A new secret, shown once: the next message verifies with it, not with the old.
    row.locator("button", has_text="New secret").click()
    g.locator("#webhooks .status", has_text="New secret made").wait_for()
    rotated = g.locator("#webhooks .secret output").inner_text()
    assert rotated.startswith("whsec_") and rotated != secret
    api.command(enc, "note", text="Ana *the* Bold waits " + "very " * 500 + "long")
    noted = lambda: [m["content"] for m in discord.verified(rotated) if "very" in m["content"]]  # noqa: E731
    discord.wait(lambda: len(noted()) >= 2, "the log of the note, in parts")
    parts = noted()
    assert all(len(p) <= 2000 for p in parts) and "Ana \\*the\\* Bold" in parts[0]
    assert not discord.refused, discord.refused
    assert not [m for m in discord.verified(secret) if "waits" in m.get("content", "")]

    # Removed: the list says so.
    row.locator("button", has_text="Remove").click()
    g.locator("#webhooks-list caption", has_text="No webhooks yet").wait_for()

    # Alice adds her own seat's notices (a bot of hers, JSON), and hears she is asked.
    alice = open_page(f"{view}#token={seat['token']}")
    a = alice.page
    a.locator("#webhooks").wait_for()
    assert a.locator("#webhook-deliver-log").count() == 0  # a player's webhook is its seat's notices
    a.fill("#webhook-url", bot.url)
    a.select_option("#webhook-format", "json")
    a.click("#webhook-add button[type=submit]")
    a.locator("#webhooks .status", has_text="added").wait_for()
    mine = a.locator("#webhooks .secret output").inner_text()
    a.locator("#webhooks-list tr[data-webhook]", has_text="Alice").wait_for()
    api.command(enc, "ask", combatant="ana", kind="dodge", options=["yes", "no"], default="no")
    bot.wait(lambda: any(m["data"].get("kind") == "asked" for m in bot.verified(mine)), "Alice's notice")
    asked = next(m["data"] for m in bot.verified(mine) if m["data"].get("kind") == "asked")
    assert asked["to"] == seat["seat"] and asked["text"].startswith(
        "you are asked (for Ana *the* Bold): dodge"
    )
    # The GM's list shows Alice's webhook too.
    g.reload()
    g.locator("#webhooks-list tr[data-webhook]", has_text="Alice").wait_for()
    assert gm.script_errors() == [] and alice.script_errors() == []
    assert axe_violations(g) == [] and axe_violations(a) == []


def test_on_a_phone_each_webhook_is_a_card_whose_words_stay_whole(hooks_served, receivers, open_page):
    """Six table columns at 390 px broke every word ("Hos t", "127 .0.0 .1"): each webhook is a card of
    labelled lines, the host and the format each on one line."""
    api = Api(hooks_served.url)
    bot = DiscordLike()
    receivers.append(bot)
    enc = api.ok("POST", "/encounters", {"name": "Hooked", "ruleset": "freeform"})
    gm = open_page(
        f"{hooks_served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", width=390, height=844
    )
    g = gm.page
    g.locator("#webhooks").wait_for()
    g.fill("#webhook-url", bot.url)
    g.select_option("#webhook-format", "json")
    g.click("#webhook-add button[type=submit]")
    row = g.locator("#webhooks-list tr[data-webhook]")
    row.first.wait_for()
    lines = g.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#webhooks-list tr[data-webhook] td[data-label]')]
            .map((td) => { const r = document.createRange(); r.selectNodeContents(td);
                           const tops = new Set([...r.getClientRects()].map((x) => Math.round(x.top)));
                           return [td.dataset.label, tops.size]; }))"""
    )
    assert lines["Host"] == 1 and lines["Format"] == 1, lines
    label = g.evaluate(
        "getComputedStyle(document.querySelector('#webhooks-list td[data-label=Host]'), '::before').content"
    )
    assert label == '"Host: "' and "127.0.0.1" in row.inner_text()
    width = g.evaluate("document.documentElement.clientWidth")
    assert row.bounding_box()["width"] <= width
    assert gm.script_errors() == []


def test_a_seat_made_after_the_page_opened_is_offered_for_a_webhook(hooks_served, open_page):
    """The webhooks panel read the seats once: a seat made since was missing from "For" until a reload."""
    api = Api(hooks_served.url)
    enc = api.ok("POST", "/encounters", {"name": "Late seat", "ruleset": "freeform"})
    api.command(enc, "add_combatant", combatant={"id": "ana", "name": "Ana", "side": "a"})
    gm = open_page(
        f"{hooks_served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", width=390, height=844
    )
    g = gm.page
    g.locator("#webhook-seat").wait_for()
    assert "Bea" not in g.locator("#webhook-seat").inner_text()
    api.ok("POST", f"/encounters/{enc['id']}/seats", {"name": "Bea", "combatants": ["ana"]}, enc["gm_token"])
    g.locator("#webhook-seat option", has_text="Bea's notices only").wait_for(state="attached")
    assert gm.script_errors() == []
