"""Issue 25 item 8: an encounter of server dice created from the page rotates its seed each turn unless the
GM unticks it (the API's default is unchanged); manual dice have no seed to rotate, so no box."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def _created_options(p, api) -> dict:
    p.click("#create button[type=submit]")
    gm_url = p.locator("#created .link-row output.link").first.inner_text()
    stream, token = re.search(r"/encounters/(\w+)/view#token=([\w-]+)", gm_url).groups()
    return api.ok("GET", f"/encounters/{stream}/state", token=token)["options"]


def test_the_page_rotates_the_seed_each_turn_by_default_and_the_gm_may_untick_it(served, api, open_page):
    landing = open_page(served.url + "/")
    p = landing.page
    p.locator("#c-options .field").first.wait_for()
    box = p.locator("#c-rotate-each-turn")
    assert box.is_checked() and "recommended" in p.locator("label[for=c-rotate-each-turn]").inner_text()
    p.fill("#c-name", "Play by post")
    assert _created_options(p, api)["rotate_seed_each_turn"] is True
    p.locator("#created").evaluate("b => { b.hidden = true; b.replaceChildren(); }")
    box.uncheck()
    assert _created_options(p, api)["rotate_seed_each_turn"] is False
    p.select_option("#c-dice", "manual")
    assert box.is_hidden()
    box.evaluate("b => { b.checked = true; }")  # even ticked, manual dice send no rotation
    assert _created_options(p, api)["rotate_seed_each_turn"] is False
    created = api.ok("POST", "/encounters", {"name": "API", "ruleset": "freeform"})
    assert (
        api.ok("GET", f"/encounters/{created['id']}/state", token=created["gm_token"])["options"][
            "rotate_seed_each_turn"
        ]
        is False
    )  # the API's default is unchanged
    assert landing.script_errors() == []
