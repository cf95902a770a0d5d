"""What a GM met setting up and running a skirmish fight at the page on a phone (390x844):

- a stat that is one of a list of names, typed as its help reads it ("sword, rifle_bayonet, other or
  none": "rifle bayonet", or "Sword" as a phone capitalises it), was a 400 ("stats.hth_weapon must be one
  of sword, rifle_bayonet, other, none"): the box now reads the name it means;
- the combatants' table spoke the API: posture "on_back", stats "wound_level none, hth_weapon
  rifle_bayonet, move_in 6": now "on back", "wound level none, hth weapon rifle bayonet, move in 6".
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def _gm(api, served, open_page):
    enc = api.ok("POST", "/encounters", {"name": "Farm", "ruleset": "skirmish"})
    gm = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", width=390, height=844)
    gm.page.locator("#connection.live").wait_for()
    return enc, gm.page


def test_a_named_stat_typed_as_its_help_reads_is_taken(served, api, open_page):
    enc, g = _gm(api, served, open_page)
    first = g.locator("input[id$='-1-name']")
    pre = first.get_attribute("id")[: -len("-name")]
    g.fill(f"#{pre}-name", "Pierre")
    g.fill(f"#{pre}-side", "blue")
    g.fill(f"#{pre}-stat-hth_weapon", "rifle bayonet")
    g.fill(f"#{pre}-stat-pronoun", "He")
    g.get_by_role("button", name="Add to the fight").click()
    g.get_by_text("Pierre joins the fight").wait_for()
    pierre = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["combatants"]["pierre"]
    assert pierre["stats"]["hth_weapon"] == "rifle_bayonet" and pierre["stats"]["pronoun"] == "he"


def test_the_combatants_table_speaks_in_words(served, api, open_page):
    enc, g = _gm(api, served, open_page)
    api.command(
        enc,
        "add_combatant",
        combatant={
            "id": "pierre",
            "name": "Pierre",
            "side": "blue",
            "posture": "on_back",
            "stats": {"hth_weapon": "rifle_bayonet", "wound_level": "none", "move_in": 6},
        },
    )
    row = g.locator('tr[data-combatant="pierre"]')
    row.wait_for()
    posture = row.locator('td[data-col="posture"]').inner_text()
    stats = row.locator('td[data-col="stats"]').inner_text()
    assert posture == "on back", posture
    assert "_" not in stats and "hth weapon rifle bayonet" in stats and "move in 6" in stats, stats
