"""Links that keep working, and sends that never re-roll (issue 27 items 5 and 6): the page remembers the
token it was opened with per encounter, so a notice's tokenless link opens as that seat in the same
browser; without one it says what to do and disables its controls; a lost answer is resent with the
same command_id and entropy, so the dice are the ones stored the first time."""

from __future__ import annotations

import json
import re

import pytest

from tests.support.tampering import parse
from tests.web.conftest import Api, axe_violations
from tests.web.dropping_proxy import DroppingProxy
from tests.web.test_browser_play import open_action

pytestmark = pytest.mark.browser


def _private_fight(api: Api) -> tuple[dict, str, str]:
    """A freeform encounter (not public) with one figure and a seat "Alice" for it."""
    enc = api.ok("POST", "/encounters", {"name": "Behind closed doors", "ruleset": "freeform"})
    api.command(
        enc, "add_combatant", combatant={"id": "ana", "name": "Ana", "side": "heroes", "position": [0, 0]}
    )
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["ana"]}, enc["gm_token"]
    )
    return enc, seat["seat"], seat["token"]


def test_a_tokenless_link_opens_as_the_seat_this_browser_was_given(served, api, open_page):
    enc, seat, seat_token = _private_fight(api)
    view = f"{served.url}/encounters/{enc['id']}/view"

    # A browser that never had the seat link: it says what to do, and its controls are off.
    stranger = open_page(view, width=390, height=844)
    s = stranger.page
    s.locator("#fatal", has_text="open your seat link once on this device").wait_for()
    for control in ("#copy-md", "#copy-bb", "#at", "#live"):
        assert s.locator(control).is_disabled(), control
    s.click("#copy-md", force=True)  # a disabled control does nothing, and throws nothing
    assert stranger.script_errors(allow_status=(401,)) == []
    assert not [v for v in axe_violations(s) if v["impact"] in ("serious", "critical")]

    # Alice opens her seat link once; the notice's plain link then opens as her, in the same browser.
    alice = open_page(f"{view}#token={seat_token}", width=390, height=844)
    a = alice.page
    a.locator("#connection.live").wait_for()
    assert "remembers this link" in a.locator("#device").inner_text()
    notice = open_page(view, context=a.context)
    n = notice.page
    n.locator("#connection.live").wait_for()
    assert "Alice (player, " in n.locator('[data-fact="you-are"]').inner_text()
    assert "remembers" in n.locator("#device").inner_text()
    assert all("token" not in u.split("#")[0] for u in notice.urls)  # never in a URL sent anywhere

    # The GM makes her a new link: it says it signs her out elsewhere, and it is shown once to copy.
    gm = open_page(f"{view}#token={enc['gm_token']}")
    g = gm.page
    g.locator("#connection.live").wait_for()
    seats = g.locator("ul.seats li", has_text="Alice")
    assert "signs this seat out on its other devices" in seats.inner_text()
    seats.get_by_role("button", name="New link").click()
    row = g.locator("#made-links .link-row", has_text="New seat link for Alice")
    row.wait_for()
    assert (
        "signed out on every other device" in row.inner_text() and "Shown only this once" in row.inner_text()
    )
    assert row.get_by_role("button", name="Copy").is_visible()
    new_url = row.locator("output.link").inner_text()

    # Her old device: the remembered token no longer works, and the page says why and what to do.
    n.reload()
    n.locator("#device", has_text="no longer works").wait_for()
    n.locator("#fatal", has_text="open your seat link once on this device").wait_for()
    assert n.evaluate(f"localStorage.getItem('tussle-token:{enc['id']}')") is None

    # The new link, once, then the plain link again; and "forget this device" forgets it.
    n.goto(new_url)
    n.locator("#connection.live").wait_for()
    n.goto(view)
    n.locator("#connection.live").wait_for()
    assert "Alice (player, " in n.locator('[data-fact="you-are"]').inner_text()
    n.click("#forget-device")
    n.locator("#fatal", has_text="open your seat link once on this device").wait_for()
    assert n.evaluate(f"localStorage.getItem('tussle-token:{enc['id']}')") is None
    assert gm.script_errors() == []
    for w in (alice, notice):  # Alice's first page, still open, holds the token the GM replaced: 401s
        assert w.script_errors(allow_status=(401,)) == []


def test_a_roll_whose_answer_is_lost_is_resent_and_answers_with_the_stored_roll(served, api, open_page):
    enc = api.ok("POST", "/encounters", {"name": "Lossy line", "ruleset": "freeform"})
    proxy = DroppingProxy(served.port, marker=b'"type":"roll"')
    try:
        gm = open_page(f"{proxy.url}/encounters/{enc['id']}/view#token={enc['gm_token']}")
        g = gm.page
        g.locator("#connection.live").wait_for()
        form = open_action(g, "gm:roll")
        form.locator("input[name=expression]").fill("3d6")
        form.locator("input[name=purpose]").fill("the troll's morale")
        form.locator("button[type=submit]").click()
        g.locator("#last-result", has_text=re.compile("roll: Done: seq")).wait_for()
        said = g.locator("#last-result").inner_text()
    finally:
        proxy.close()

    assert proxy.dropped == 1  # the first answer was lost after the server had committed the roll
    sent = [json.loads(r[r.index(b"{") :].decode()) for r in proxy.requests_with_marker]
    assert len(sent) == 2 and sent[0] == sent[1]  # resent: the same command_id and entropy, the same body
    status, raw = api.call(
        "GET", f"/encounters/{enc['id']}/events", token=enc["gm_token"], accept="application/x-ndjson"
    )
    assert status == 200
    events, _ = parse(raw)
    rolls = [e for e in events if e["type"] == "DieRolled"]
    assert len(rolls) == 1, rolls  # rolled once, not again on the resend
    assert f"seq {rolls[0]['seq']}" in said  # the page's answer is the stored roll's
    assert rolls[0]["data"]["entropy"] == sent[0]["entropy"]
    g.locator("ol.log li", has_text="the troll's morale").wait_for()
    assert g.locator("ol.log li", has_text="the troll's morale").count() == 1
    assert [e for e in gm.script_errors() if "net::ERR_" not in e] == []  # the lost answer, on purpose
