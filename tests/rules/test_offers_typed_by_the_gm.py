"""What only the GM can say is offered with a box to type it in: GURPS's injury (spec 4.4: "the GM
records the injury", `gurps.record_injury`) was reachable only through the typed forms, since its
amount has no values to list; a GM playing at the page found no way to it among the offers."""

from __future__ import annotations

from rules.offers import GM
from tests.rules.test_offers_accepted import refusal
from tests.rules.test_offers_issue29 import _at, _send


def test_the_gm_is_offered_to_record_an_injury_to_any_figure_with_the_hit_points_typed():
    state, gurps = _at("gurps-manual-grapple")
    (injury,) = [o for o in gurps.offers(state, GM) if o["type"] == "gurps.record_injury"]
    assert injury["title"] == "Record an injury"
    (whom,) = injury["choices"]
    assert whom["kind"] == "combatant"
    names = {o["title"] for o in whom["options"]}
    assert names == {c["name"] for c in state["combatants"].values()}
    dorn = next(o for o in whom["options"] if o["value"] == "dorn")
    (amount,) = dorn["then"]
    assert (amount["field"], amount["kind"], amount["options"], amount["required"]) == (
        "amount",
        "number",
        [],
        True,
    )
    body = {"type": "gurps.record_injury", "target": "dorn", "amount": 3}
    assert refusal(state, gurps, body, "gm") is None
    after = _send(state, gurps, body)
    assert after["combatants"]["dorn"] != state["combatants"]["dorn"]  # the Wounded event landed
