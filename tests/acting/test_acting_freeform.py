"""Whose turn it is in freeform (no turn order: the GM runs the table) and while a reaction waits, through
HTTP: the seat asked acts now until it answers, with the deadline `reaction_timeout_s` gives."""

from __future__ import annotations

import datetime as dt

from tests.acting.acting_support import acting, me


def _ana(cid: str, name: str) -> dict:
    return {"id": cid, "name": name, "side": cid, "stats": {}, "position": [0, 0]}


async def test_freeform_the_gm_runs_the_table_and_the_seat_asked_acts_until_it_answers(tussle):
    enc = await tussle.create("freeform", options={"reaction_timeout_s": 3600})
    await enc.add(_ana("ana", "Ana"))
    await enc.add(_ana("bors", "Bors"))
    ana = await enc.seat("Ana's player", ["ana"])
    bors = await enc.seat("Bors's player", ["bors"])
    await enc.ok("set_initiative", order=["bors", "ana"])

    [gm] = await acting(enc)
    assert (gm["combatant"], gm["asked_of"], gm["until"]) == (None, "gm", None)
    assert "the GM says who acts" in gm["why"] and "Bors, Ana" in gm["why"]
    assert (await me(enc, ana))["your_turn"] is False
    assert (await me(enc, ana))["next_slot"]["ana"] == (
        "Ana acts when the GM calls on Ana (freeform keeps no turn order of its own: the GM says who acts)"
    )

    asked = await enc.ok(
        "ask", combatant="ana", kind="dodge_or_parry", options=["dodge", "parry"], default="dodge"
    )
    requested = asked["events"][-1]
    [entry] = await acting(enc)
    seat_ana = (await me(enc, ana))["seat"]
    assert (entry["combatant"], entry["asked_of"], entry["reaction"]) == (
        "ana",
        seat_ana,
        requested["data"]["id"],
    )
    assert "Ana is asked" in entry["why"] and "default: dodge" in entry["until"]["text"]
    asked_at = dt.datetime.strptime(requested["ts"], "%Y-%m-%dT%H:%M:%S.%fZ")
    deadline = dt.datetime.strptime(entry["until"]["deadline"], "%Y-%m-%dT%H:%M:%S.%fZ")
    assert deadline - asked_at == dt.timedelta(seconds=3600)

    mine = await me(enc, ana)
    assert mine["your_turn"] is True and mine["acting_now"] == [entry]
    [reaction] = mine["reactions"]
    assert (reaction["id"], reaction["kind"], reaction["options"], reaction["default"]) == (
        entry["reaction"],
        "dodge_or_parry",
        ["dodge", "parry"],
        "dodge",
    )
    assert reaction["deadline"] == entry["until"]["deadline"]
    assert mine["next_slot"] == {"ana": None}
    other = await me(enc, bors)
    assert other["your_turn"] is False and other["acting_now"] == [] and other["reactions"] == []
    gm_me = await me(enc, enc.gm_token)
    assert gm_me["your_turn"] is False and gm_me["acting_now"] == [entry]
    r = await tussle.request("POST", f"{enc.path}/read-tokens", {}, token=enc.gm_token)
    assert r.status == 201, r.body
    watcher = await me(enc, r.body["token"])
    assert (watcher["role"], watcher["your_turn"], watcher["acting_now"], watcher["next_slot"]) == (
        "observer",
        False,
        [],
        {},
    )

    r = await enc.command("respond", token=ana, reaction=entry["reaction"], choice="parry")
    assert r.status == 201, r.body
    assert [e["combatant"] for e in await acting(enc)] == [None]
    assert (await me(enc, ana))["your_turn"] is False


async def test_a_question_for_the_gm_is_the_gms_turn_without_a_deadline(tussle):
    enc = await tussle.create("freeform")
    await enc.add(_ana("ana", "Ana"))
    await enc.ok("ask", combatant="ana", kind="ruling", options=["yes", "no"], default="no")
    [entry] = await acting(enc)
    assert entry["asked_of"] == "gm" and entry["until"]["deadline"] is None
    gm_me = await me(enc, enc.gm_token)
    assert gm_me["your_turn"] is True and gm_me["reactions"][0]["deadline"] is None


async def test_the_websocket_state_carries_acting_now_with_the_deadline(tussle):
    from tests.support.ws import frame, subscribe, until

    enc = await tussle.create("freeform", options={"reaction_timeout_s": 600})
    await enc.add(_ana("ana", "Ana"))
    await enc.seat("Ana's player", ["ana"])
    ws = await subscribe(enc, "state")
    try:
        snapshot = await frame(ws)
        assert snapshot["type"] == "snapshot" and [
            e["combatant"] for e in snapshot["data"]["acting_now"]
        ] == [None]
        await until(ws, "caught_up")
        asked = await enc.ok(
            "ask", combatant="ana", kind="dodge_or_parry", options=["dodge", "parry"], default="dodge"
        )
        live = await frame(ws)
        while live["seq"] < asked["seq"]:
            live = await frame(ws)
        [entry] = live["data"]["acting_now"]
        assert entry["combatant"] == "ana" and entry["until"]["deadline"] is not None
        assert entry == (await enc.state())["acting_now"][0]
    finally:
        await ws.close()


async def test_a_reactions_deadline_is_still_shown_after_a_restart(server, tussle):
    enc = await tussle.create("freeform", options={"reaction_timeout_s": 3600})
    await enc.add(_ana("ana", "Ana"))
    ana = await enc.seat("Ana's player", ["ana"])
    await enc.ok("ask", combatant="ana", kind="dodge_or_parry", options=["dodge", "parry"], default="dodge")
    before = await me(enc, ana)
    await server.stop()
    await server.start()
    after = await me(enc, ana)
    assert after["reactions"][0]["deadline"] == before["reactions"][0]["deadline"] is not None
    assert after["acting_now"] == before["acting_now"]
