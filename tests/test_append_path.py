"""The fast append path: bulk-written batches, the sole writer's token cache, resends checked last.

Store tests use a real SQLite file through `SqliteStore`; HTTP tests the real server (fixture `tussle`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from events.envelope import NewEvent, first_broken_link
from events.store.port import (
    Append,
    SeqConflict,
    StreamInfo,
    TokenRevocation,
    TokenRow,
)
from events.store.sqlite import SqliteStore


def creation(stream: str, tokens: list[TokenRow] | None = None) -> Append:
    return Append(
        stream,
        0,
        f"create-{stream}",
        "create-body",
        "gm",
        [NewEvent("EncounterCreated", {"name": stream})],
        tokens=tokens or [],
        create=StreamInfo(stream, stream, "freeform", False, 0, "", False),
    )


def note(stream: str, expected: int, command_id: str, identity: str | None = None, **extra: Any) -> Append:
    return Append(
        stream,
        expected,
        command_id,
        identity or f"body-{command_id}",
        "gm",
        [NewEvent("NotePosted", {"text": command_id})],
        **extra,
    )


async def open_store(tmp_path: Any, lock: bool = True) -> SqliteStore:
    store = SqliteStore(str(tmp_path / "append.db"), lock=lock)
    await store.open()
    return store


async def test_a_constraint_the_checks_missed_fails_only_its_own_command(tmp_path):
    store = await open_store(tmp_path)
    try:
        await store.append(creation("c", tokens=[TokenRow("h-taken", "gm")]))
        results = await store.append_many(
            [
                note("c", 1, "fine"),
                note("c", 2, "clash", tokens=[TokenRow("h-taken", "player", "s1")]),  # the token hash exists
                note("c", 2, "also-fine"),
            ]
        )
        assert [type(r).__name__ for r in results] == ["AppendResult", "SeqConflict", "AppendResult"]
        events = await store.read("c")
        assert [e.command_id for e in events] == ["create-c", "fine", "also-fine"]
        assert first_broken_link(events) is None
        assert (await store.stream_info("c")).seq == 3
    finally:
        await store.close()


async def test_a_revocation_empties_the_token_cache_even_across_a_lookup_in_flight(tmp_path):
    store = await open_store(tmp_path)
    try:
        await store.append(creation("r", tokens=[TokenRow("h-p", "player", "s1")]))
        assert await store.token("h-p") == ("r", TokenRow("h-p", "player", "s1"))  # now cached
        for round_ in range(20):
            await store.append(
                note("r", 1 + 2 * round_, f"seat-{round_}", tokens=[TokenRow(f"h-{round_}", "player", "s1")])
            )
            assert await store.token(f"h-{round_}") is not None
            _, appended = await asyncio.gather(
                store.token(f"h-{round_}"),
                store.append(
                    note(
                        "r", 2 + 2 * round_, f"revoke-{round_}", revoke=[TokenRevocation("player", seat="s1")]
                    )
                ),
            )
            assert appended.events
            assert await store.token(f"h-{round_}") is None
        assert await store.token("h-p") is None
    finally:
        await store.close()


async def test_a_sole_writer_waits_for_a_writer_that_breaks_the_rule(tmp_path):
    sole = await open_store(tmp_path)
    other = await open_store(tmp_path, lock=False)  # a second writer on the same file, as only tests do
    try:
        await sole.append(creation("w"))
        await sole.append(creation("x"))
        holding = asyncio.Event()

        async def hold(requests: list[Append]) -> None:
            holding.set()
            await asyncio.sleep(0.3)

        other.before_commit = hold
        slow = asyncio.create_task(other.append(note("x", 1, "held")))
        await holding.wait()
        result = await sole.append(note("w", 1, "waited"))  # BEGIN IMMEDIATE is busy: waits on the thread
        assert [e.seq for e in result.events] == [2]
        assert [e.seq for e in (await slow).events] == [2]
        (stale,) = await sole.append_many([note("w", 1, "stale")])
        assert isinstance(stale, SeqConflict) and stale.actual == 2
    finally:
        await other.close()
        await sole.close()


# ---- over HTTP ---------------------------------------------------------------------------------


async def _fight(tussle: Any) -> Any:
    enc = await tussle.create("freeform")
    await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0], "facing": 0})
    await enc.add({"id": "bob", "name": "Bob", "side": "blue", "position": [1, 0], "facing": 3})
    return enc


async def test_a_resend_the_rules_would_now_refuse_gets_its_first_answer(tussle):
    enc = await _fight(tussle)
    first = await enc.command("remove_combatant", combatant="bob", command_id="rm-bob")
    assert first.status == 201
    again = await enc.command("remove_combatant", combatant="bob", command_id="rm-bob")
    assert again.status == 200 and again.body == first.body
    other = await enc.command("remove_combatant", combatant="ann", command_id="rm-bob")
    assert other.status == 409 and other.body["error"]["code"] == "command_id_reused"
    fresh = await enc.command("remove_combatant", combatant="bob", command_id="rm-bob-2")
    assert fresh.status == 422, "a new command_id is decided, and refused"


async def test_the_listing_row_follows_every_append(tussle):
    enc = await _fight(tussle)
    seat = await enc.seat_full("Alice", ["ann"])
    results = await asyncio.gather(
        *(enc.command("roll", expression="1d6", command_id=f"r{i}") for i in range(10))
    )
    assert all(r.status == 201 for r in results)
    await enc.ok("close")
    head = (await enc.get("/events")).body["head"]
    r = await enc.get("")
    assert (r.body["seq"], r.body["hash"], r.body["closed"]) == (head["seq"], head["hash"], True)
    listed = await tussle.request("GET", "/encounters", token=None)
    assert all(e["id"] != enc.id for e in listed.body["encounters"]), "not public"
    assert (await enc.command("roll", token=seat["token"], expression="1d6")).status == 409


async def test_commands_racing_on_one_encounter_land_in_order_on_the_feed_and_the_state(tussle):
    from tests.support.ws import events_until_seq, subscribe, until

    enc = await _fight(tussle)
    head = (await enc.get("")).body["seq"]
    ws = await subscribe(enc, "events", after=head)
    await until(ws, "caught_up")
    results = await asyncio.gather(
        *(enc.command("roll", expression="2d6", command_id=f"race-{i}") for i in range(40))
    )
    assert all(r.status == 201 for r in results)
    assert sorted(r.body["seq"] for r in results) == list(range(head + 1, head + 41))
    frames = await events_until_seq(ws, head + 40)
    assert [f["seq"] for f in frames] == list(range(head + 1, head + 41))
    assert all(
        f["event"]["prev_hash"] == p["event"]["hash"] for p, f in zip(frames, frames[1:], strict=False)
    )
    state = await enc.state()
    assert state["seq"] == head + 40
    await ws.close()


async def test_resends_racing_new_commands_on_one_encounter(tussle):
    enc = await _fight(tussle)
    first = await enc.command("roll", expression="3d6", command_id="orig", entropy="abcdefghijklmnopq")
    assert first.status == 201
    sends = []
    for i in range(10):
        sends.append(enc.command("roll", expression="3d6", command_id="orig", entropy="abcdefghijklmnopq"))
        sends.append(enc.command("note", text=f"n{i}", command_id=f"note-{i}"))
    results = await asyncio.gather(*sends)
    resends, notes = results[0::2], results[1::2]
    assert all(r.status == 200 and r.body == first.body for r in resends)
    assert all(r.status == 201 for r in notes)
    events = (await enc.get("/events")).body["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert [e["command_id"] for e in events].count("orig") == 1
    assert len(events) == first.body["seq"] + 10


async def test_the_writer_thread_runs_calls_in_order_and_hands_back_errors():
    from events.store.writer_thread import WriterThread

    thread = WriterThread("test-writer")
    try:
        seen: list[int] = []
        results = await asyncio.gather(*(thread.run(lambda n=n: seen.append(n) or n * 2) for n in range(20)))
        assert results == [n * 2 for n in range(20)] and seen == list(range(20))

        def fail() -> None:
            raise ValueError("boom")

        try:
            await thread.run(fail)
            raise AssertionError("the error was not handed back")
        except ValueError as exc:
            assert str(exc) == "boom"
        gate = __import__("threading").Event()
        waiting = asyncio.ensure_future(thread.run(gate.wait, 5))
        await asyncio.sleep(0.01)
        waiting.cancel()  # the caller gives up; the call still runs, and the thread goes on
        gate.set()
        assert await thread.run(lambda: "after") == "after"
    finally:
        thread.stop()
