"""The GM adds figures through a structured form built from the ruleset's stats schema (issue 27 item 3):
a box per stat with the required ones marked, items as rows, two figures in one send; no JSON typed."""

from __future__ import annotations

import pytest

from tests.web.conftest import axe_violations

pytestmark = pytest.mark.browser


def _fill_figure(
    form, n: int, name: str, side: str, q: int, stats: dict[str, str], weapon: str | None = None
):
    fig = form.locator(f'fieldset.figure-form[data-figure="{n}"]')
    fig.get_by_label("Name (required)").fill(name)
    fig.get_by_label("Side (required)").fill(side)
    fig.get_by_label("Position q").fill(str(q))
    for stat, value in stats.items():
        fig.locator(f'input[data-stat="{stat}"]').fill(value)
    if weapon:
        fig.get_by_role("button", name="Add to items").click()
        fig.locator('[data-option="id"] input').fill(weapon.lower())
        fig.locator('[data-option="name"] input').fill(weapon)
        fig.locator('[data-option="damage"] input').fill("2d6")
    return fig


def _gm_at_phone_width(served, api, open_page, name: str, ruleset: str):
    """A new encounter's GM page at 390x844, live: (encounter, page, its add-figures form)."""
    enc = api.ok("POST", "/encounters", {"name": name, "ruleset": ruleset})
    gm = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", width=390, height=844)
    gm.page.locator("#connection.live").wait_for()
    return enc, gm, gm.page.locator("#add-figures")


def test_the_gm_adds_two_figures_at_once_through_the_stats_form(served, api, open_page):
    enc, gm, form = _gm_at_phone_width(served, api, open_page, "Stats by boxes", "tft")
    g = gm.page
    st = form.locator('fieldset.figure-form[data-figure="1"] label[for$="stat-st"]')
    assert "(required)" in st.inner_text()  # marked from the stats schema
    assert form.locator("textarea").count() == 0

    # A required stat left out: the form says which, and sends nothing.
    _fill_figure(form, 1, "Simeth", "heroes", 2, {"adj_dx": "13", "ma": "10"}, weapon="Broadsword")
    form.get_by_role("button", name="Add to the fight").click()
    form.locator(".status", has_text="the stat st is required").wait_for()

    form.locator('fieldset.figure-form[data-figure="1"] input[data-stat="st"]').fill("12")
    form.get_by_role("button", name="Add another figure").click()
    _fill_figure(form, 2, "Troll", "monsters", 0, {"st": "30", "adj_dx": "11", "ma": "10"})
    assert not [v for v in axe_violations(g) if v["impact"] in ("serious", "critical")]
    form.get_by_role("button", name="Add to the fight").click()
    g.locator("ol.log li", has_text="Troll joins the fight").wait_for()
    state = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])
    simeth, troll = state["combatants"]["simeth"], state["combatants"]["troll"]
    assert simeth["stats"]["st"] == 12 and simeth["stats"]["adj_dx"] == 13 and simeth["position"] == [2, 0]
    assert [i["name"] for i in simeth["items"]] == ["Broadsword"] and simeth["items"][0]["state"] == "ready"
    assert troll["side"] == "monsters" and troll["stats"]["st"] == 30
    assert gm.script_errors() == []


@pytest.mark.parametrize("ruleset", ["gurps", "tft"])
def test_a_ruling_with_only_its_words_is_made_from_the_page(served, api, open_page, ruleset):
    """The ruling's form is the encounter's own ruleset's (not /openapi.json's union, which offered other
    rulesets' overridable paths), and a box left blank is not sent as "": a plain ruling was a 422."""
    enc = api.ok("POST", "/encounters", {"name": "A ruling", "ruleset": ruleset})
    gm = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", width=390, height=844)
    g = gm.page
    g.locator("#connection.live").wait_for()
    g.get_by_text("Make a ruling", exact=True).click()
    form = g.locator('form[data-type="ruling"]')
    form.locator('input[name="text"]').fill("Ana slips the hold")
    form.get_by_role("button", name="Send").click()
    form.locator(".status.ok").wait_for()
    g.locator("ol.log li", has_text="Ana slips the hold").wait_for()
    events = api.ok("GET", f"/encounters/{enc['id']}/events", token=enc["gm_token"])["events"]
    ruling = [e for e in events if e["type"] == "RulingMade"]
    assert len(ruling) == 1 and ruling[0]["data"]["text"] == "Ana slips the hold"
    assert gm.script_errors() == []


def test_a_true_false_stat_typed_with_a_capital_is_read_as_true(served, api, open_page):
    """A phone keyboard capitalises the first letter: skirmish's "street fighter" typed as "True" was a
    400 ("must be true or false"); the stat boxes no longer capitalise, and "True" reads as true."""
    enc, gm, form = _gm_at_phone_width(served, api, open_page, "Capitals", "skirmish")
    g = gm.page
    fig = form.locator('fieldset.figure-form[data-figure="1"]')
    box = fig.locator('input[data-stat="street_fighter"]')
    assert box.get_attribute("autocapitalize") == "off"
    fig.get_by_label("Name (required)").fill("Sgt Hale")
    fig.get_by_label("Side (required)").fill("allies")
    box.fill("True")
    fig.locator('input[data-stat="speedy"]').fill("FALSE")
    form.get_by_role("button", name="Add to the fight").click()
    g.locator("ol.log li", has_text="Sgt Hale").first.wait_for()
    (hale,) = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["combatants"].values()
    assert hale["stats"]["street_fighter"] is True and hale["stats"]["speedy"] is False
    assert gm.script_errors() == []
