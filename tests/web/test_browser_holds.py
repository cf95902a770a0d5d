"""A GURPS grapple at the page (played at 390x844): the combatants table said nothing of it — only the log
did — so a player could not see that Dorn was held at -4 DX and could not leave the hex; a pin showed. The
state's `holds` (Ruleset.holds) now says it, and the page's HTH column shows it on both figures' rows."""

from __future__ import annotations

import pytest

from tests.golden.scripts import load

pytestmark = pytest.mark.browser


def _grappled(api) -> tuple[dict, str]:
    """The golden GURPS fight up to Bram's grapple of Dorn (Dorn's dodge fails); Dorn's seat token."""
    script = load("gurps-manual-grapple")
    enc = api.ok("POST", "/encounters", {**script["create"], "command_id": None})
    token = ""
    for step in script["steps"][:16]:
        if "seat" in step:
            seat = api.ok("POST", f"/encounters/{enc['id']}/seats", step["seat"], enc["gm_token"])
            token = seat["token"]
            continue
        body = dict(step["command"])
        if "$pending" in body.values():
            pending = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["pending"]
            body = {k: pending[-1]["id"] if v == "$pending" else v for k, v in body.items()}
        api.ok("POST", f"/encounters/{enc['id']}/commands", body, enc["gm_token"])
    return enc, token


def test_a_grapple_shows_on_the_held_and_the_holders_rows(served, api, open_page):
    enc, token = _grappled(api)
    state = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])
    assert state["holds"] == [
        {
            "holder": "bram",
            "held": "dorn",
            "hold": "grapple",
            "effect": "-4 DX; cannot leave the hex until breaking free",
        }
    ]
    page = open_page(f"{served.url}/encounters/{enc['id']}/view#token={token}", width=390, height=844).page
    dorn = page.locator('#combatants tr[data-combatant="dorn"] [data-col="hth"]')
    dorn.filter(has_text="held by Bram").wait_for()
    assert "held by Bram (grapple: -4 DX; cannot leave the hex until breaking free)" in dorn.inner_text()
    bram = page.locator('#combatants tr[data-combatant="bram"] [data-col="hth"]')
    assert "holds Dorn (grapple)" in bram.inner_text()
