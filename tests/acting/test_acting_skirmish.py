"""Whose turn it is in skirmish (spec 4.1: card activation), through HTTP: the GM draws, the figure on the
card drawn acts until the next draw, the defender asked acts while the defence waits, and a figure who
fought on this card waits for the next one; the sentences use the `pronoun` stat, else "their"."""

from __future__ import annotations

from tests.acting.acting_support import acting, me, who_acts

HALE = {
    "id": "hale",
    "name": "Sgt Hale",
    "side": "a",
    "position": [-500, 0],
    "facing": 0,
    "stats": {"street_fighter": True, "hth_weapon": "sword", "morale": 60, "move_in": 6, "pronoun": "he"},
    "items": [{"id": "sword", "kind": "regular_weapon", "name": "sword"}],
}
VOSS = {
    "id": "voss",
    "name": "Pvt Voss",
    "side": "b",
    "position": [0, 0],
    "facing": 0,
    "stats": {"hth_weapon": "rifle_bayonet", "speedy": True, "move_in": 6},
    "items": [{"id": "rifle", "kind": "regular_weapon", "name": "rifle and bayonet"}],
}


async def _draw(enc, cid: str) -> None:
    rules = (await enc.state())["rules"]
    card = next(c["card"] for c in rules["deck"] if cid in c["combatants"])
    # The last undrawn card is turned up with no roll, so no dice for it.
    dice = [[rules["undrawn"].index(card) + 1]] if len(rules["undrawn"]) > 1 else None
    await enc.ok("skirmish.draw_card", **({"dice": dice} if dice else {}))


async def test_skirmish_the_card_drawn_acts_and_the_defender_answers(tussle):
    enc = await tussle.create("skirmish", dice="manual")
    await enc.add(HALE)
    await enc.add(VOSS)
    hale = await enc.seat("Hale's player", ["hale"])
    voss = await enc.seat("Voss's player", ["voss"])
    [gm] = await acting(enc)
    assert gm["combatant"] is None and "start_turn" in gm["why"]
    assert (await me(enc, hale))["next_slot"][
        "hale"
    ] == "Sgt Hale acts when his card is drawn, once the GM starts the turn"

    await enc.ok("start_turn")
    [gm] = await acting(enc)
    assert "skirmish.draw_card" in gm["why"] and "2 of 2 cards" in gm["why"]
    await _draw(enc, "hale")
    [entry] = await acting(enc)
    assert entry["combatant"] == "hale" and entry["why"].startswith("Sgt Hale acts: his card is drawn")
    assert entry["until"] == {"kind": "card", "text": "until the GM draws the next card"}
    assert (await me(enc, hale))["your_turn"] is True
    waiting = await me(enc, voss)
    assert waiting["your_turn"] is False
    assert waiting["next_slot"]["voss"].startswith(
        "Pvt Voss acts when their card is drawn: 1 card still to come"
    )

    r = await enc.command("skirmish.strike", token=hale, combatant="hale", target="voss")
    assert r.status == 201, r.body
    [asked] = await acting(enc)
    assert (
        asked["combatant"] == "voss"
        and asked["reaction"] is not None
        and asked["until"]["kind"] == "reaction"
    )
    defender = await me(enc, voss)
    assert defender["your_turn"] is True and defender["reactions"][0]["id"] == asked["reaction"]
    assert defender["legal_actions"]["voss"] == ["respond"]
    assert (await me(enc, hale))["your_turn"] is False

    # A tied counterstrike ends the hand to hand; Hale has fought on this card and waits for his next.
    await enc.ok("respond", reaction=asked["reaction"], choice="parry", dice=[[35], [88], [68], [58]])
    [gm] = await acting(enc)
    assert gm["combatant"] is None and "1 of 2 cards" in gm["why"]
    assert (await me(enc, hale))["next_slot"]["hale"] == (
        "Sgt Hale holds the card drawn but may do nothing more on it, and acts again on his next card"
    )

    await _draw(enc, "voss")
    [entry] = await acting(enc)
    assert entry["combatant"] == "voss"
    assert entry["until"]["kind"] == "turn"  # the turn's last card: no next draw ends it
    assert "has been drawn this turn" in (await me(enc, hale))["next_slot"]["hale"]
    await enc.ok("start_turn")
    assert await who_acts(enc) == [None]
