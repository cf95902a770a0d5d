"""Creating from GET /: every installed ruleset, its options as structured inputs built from their JSON
Schemas (never a string where the server wants an object or a list), and the admin token where the
server has one (issue 27 item 1)."""

from __future__ import annotations

import re

import pytest

from tests.support.serving import ServeProcess
from tests.web.conftest import Api, axe_violations

pytestmark = pytest.mark.browser

ADMIN = "admin-secret-for-the-page-test"


def _create(p, name: str) -> str:
    """Press Create and return the new encounter's id (from the GM link the page hands out)."""
    p.fill("#c-name", name)
    p.click("#create button[type=submit]")
    p.locator("#created h3", has_text=f"“{name}” is ready").wait_for()
    gm_url = p.locator("#created .link-row output.link").first.inner_text()
    return re.search(r"/encounters/(\w+)/view#token=([\w-]+)", gm_url).groups()


def _pick(p, ruleset: str) -> None:
    p.select_option("#c-ruleset", ruleset)
    p.locator(f'#c-options[data-ruleset="{ruleset}"]').wait_for()


def _options(api: Api, enc_id: str, token: str) -> dict:
    return api.ok("GET", f"/encounters/{enc_id}", token=token)["options"]


def test_every_ruleset_is_created_from_the_page_with_defaults_and_structured_options(served, api, open_page):
    landing = open_page(served.url + "/", width=390, height=844)
    p = landing.page
    p.locator("#c-options .field").first.wait_for()
    assert p.locator("#c-admin").is_hidden()  # a server without an admin token creates as before
    rulesets = {r["id"]: r for r in api.ok("GET", "/rulesets")["rulesets"]}
    assert len(rulesets) >= 6
    for ruleset in rulesets:
        _pick(p, ruleset)
        # Every option says what it does and what its default is, once.
        for opt in p.locator("#c-options > .field, #c-options > fieldset").all():
            text = opt.inner_text().strip()
            said = "Default (when omitted)" in text  # the schema's own words
            assert said or "(default: " in text, text
            assert not (said and re.search(r"\(default: [^)]*\)$", text)), text  # not said twice
        enc_id, gm = _create(p, f"Defaults of {ruleset}")
        defaults = {o["name"]: o["default"] for o in rulesets[ruleset]["options"]}
        defaults["rotate_seed_each_turn"] = True  # the landing page's own default (server dice), its own box
        got = _options(api, enc_id, gm)
        # An option left at a null default may be left out of the stored options (reminder_before_s).
        assert {k: got.get(k) for k in defaults} == defaults, ruleset

    # GURPS: a map of integers (retreat_bonus), a value changed and a key removed.
    _pick(p, "gurps")
    bonus = p.locator('#c-options [data-option="retreat_bonus"]')
    assert bonus.locator("textarea").count() == 0
    row = bonus.locator(".map-row", has=p.locator('input[value="dodge"]'))
    row.locator("input[type=number]").fill("2")
    bonus.locator(".map-row", has=p.locator('input[value="parry"]')).get_by_role(
        "button", name=re.compile("Remove")
    ).click()
    p.check('#c-options [data-option="assume_foes_stop"] input[type=checkbox]')
    p.select_option('#c-options [data-option="crowded_evade"] select', label="each foe")
    enc_id, gm = _create(p, "GURPS with a smaller dodge retreat")
    got = _options(api, enc_id, gm)
    assert got["retreat_bonus"] == {"dodge": 2, "parry_fencing_or_unarmed": 3}
    assert got["assume_foes_stop"] is True and got["crowded_evade"] == "each_foe"

    # Rogue Trader: a map (high_to_hit, a key added), a list of lists (wound_chart, one cell changed),
    # a list of strings (turn_order, two rows added).
    _pick(p, "rogue-trader")
    high = p.locator('#c-options [data-option="high_to_hit"]')
    high.get_by_role("button", name="Add to high to hit").click()
    new_row = high.locator(".map-row").last
    new_row.locator("input[type=text]").fill("10")
    new_row.locator("input[type=number]").fill("6")
    chart = p.locator('#c-options [data-option="wound_chart"]')
    first_row = chart.locator("fieldset.list-scalars").first
    first_row.locator("input[type=text]").nth(4).fill("6")  # "N" -> 6
    order = p.locator('#c-options [data-option="turn_order"]')
    for side in ("orks", "marines"):
        order.get_by_role("button", name="Add to turn order").click()
        order.locator("input[type=text]").last.fill(side)
    enc_id, gm = _create(p, "Rogue Trader with its own charts")
    got = _options(api, enc_id, gm)
    assert got["high_to_hit"] == {"7": 4, "8": 5, "9": 6, "10": 6}
    assert got["wound_chart"][0][:6] == [4, 5, 6, 6, 6, "N"] and len(got["wound_chart"]) == 10
    assert got["turn_order"] == ["orks", "marines"]

    # Skirmish: a nullable list of structs (deck: set, a card with a list of ids) and of rows with an
    # enum and open bounds (damage_chart).
    _pick(p, "skirmish")
    deck = p.locator('#c-options [data-option="deck"]')
    deck.get_by_label("Set deck").check()
    deck.get_by_role("button", name="Add to deck").click()
    card = deck.locator("fieldset.struct").first
    card.locator('[data-option="card"] input').fill("Sergeant")
    card.get_by_role("button", name="Add to combatants").click()
    card.locator('[data-option="combatants"] input[type=text]').last.fill("hale")
    dmg = p.locator('#c-options [data-option="damage_chart"]')
    dmg.get_by_label("Set damage chart").check()
    dmg.get_by_role("button", name="Add to damage chart").click()
    dmg.locator('[data-option="result"] select').select_option(label="light")
    dmg.locator('[data-option="max"] input').fill("40")
    enc_id, gm = _create(p, "Skirmish with its own deck")
    got = _options(api, enc_id, gm)
    assert got["deck"] == [{"card": "Sergeant", "combatants": ["hale"]}]
    assert got["damage_chart"] == [{"result": "light", "max": 40}] or got["damage_chart"] == [
        {"result": "light", "min": None, "max": 40}
    ]

    # A box that cannot be read says so and sends nothing.
    _pick(p, "tft")
    p.fill('#c-options [data-option="prone_crawl_hexes"] input', "")
    p.fill("#c-name", "Never created")
    p.click("#create button[type=submit]")
    p.locator("#create-status", has_text="give a number").wait_for()
    assert not [v for v in axe_violations(p) if v["impact"] in ("serious", "critical")]
    assert landing.script_errors() == []


def test_a_server_with_an_admin_token_asks_the_landing_page_for_it(tmp_path, open_page):
    srv = ServeProcess("--db", str(tmp_path / "tussle.db"), "--admin-token", ADMIN, "--host", "127.0.0.1")
    try:
        api = Api(srv.url)
        landing = open_page(srv.url + "/")
        p = landing.page
        field = p.locator("#c-admin")
        field.wait_for()
        assert "sessionStorage" in field.inner_text() and "admin" in field.inner_text()
        p.fill("#c-name", "Without the token")
        p.click("#create button[type=submit]")
        p.locator("#create-status", has_text="only its admin").wait_for()
        p.fill("#c-admin-token", ADMIN)
        enc_id, gm = _create(p, "With the token")
        assert api.ok("GET", f"/encounters/{enc_id}", token=gm)["name"] == "With the token"
        # Kept for this tab only: sessionStorage, never localStorage.
        assert p.evaluate("sessionStorage.getItem('tussle-admin-token')") == ADMIN
        assert ADMIN not in p.evaluate("JSON.stringify(Object.values(localStorage))")
        p.reload()
        p.locator("#c-admin").wait_for()
        assert p.locator("#c-admin-token").input_value() == ADMIN  # the same tab remembers it
        assert landing.script_errors(allow_status=(401,)) == []
    finally:
        srv.stop()
