"""Snapshots (issue 19 item 3): a state loaded from the nearest snapshot and the events after it is the
state a full replay computes, for every golden stream and every prefix, in SQLite and PostgreSQL; a
snapshot made by other code, or of another chain, is discarded."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from events.envelope import Event, NewEvent
from events.store.port import Append, Store, StreamInfo
from events.store.postgres import PostgresStore
from events.store.sqlite import SqliteStore
from rules.registry import Registry
from rules.state import replay
from server.encounters.snapshots import Loaded, Snapshots, note
from tests.golden.renders import read_stream

GOLDEN = sorted(Path(__file__).parent.joinpath("golden").glob("*/*.jsonl"))
REGISTRY = Registry.discover()


def ruleset_for(e: Event) -> Any:
    return REGISTRY.get(e.data["ruleset"])


@pytest.fixture(params=["sqlite", "postgres"])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    if request.param == "sqlite":
        return lambda: SqliteStore(str(tmp_path / "snapshots.db"))
    dsn = request.getfixturevalue("pg_schema_dsn")
    return lambda: PostgresStore(dsn)


@pytest.fixture
async def store(make_store: Callable[[], Store]) -> AsyncIterator[Store]:
    s = make_store()
    await s.open()
    yield s
    await s.close()


async def stored_copy(store: Store, path: Path) -> list[Event]:
    """The golden stream appended to the store command by command (sealed anew), as read back."""
    events = read_stream(path)
    stream = events[0].stream
    seq = 0
    for command_id, group in itertools.groupby(events, key=lambda e: e.command_id):
        new = [NewEvent(e.type, e.data) for e in group]
        first = new[0]
        create = (
            StreamInfo(stream, first.data["name"], first.data["ruleset"], False, 0, "", False)
            if seq == 0
            else None
        )
        await store.append(Append(stream, seq, command_id, command_id, "gm", new, create=create))
        seq += len(new)
    return await store.read(stream)


def replayed(events: list[Event], at: int) -> Loaded:
    """What a full replay computes up to `at`, with the commitments and asking times beside it."""
    loaded = Loaded(replay(events, ruleset_for, at), [], {})
    for e in events[:at]:
        note(loaded, e)
    return loaded


def same(a: Loaded, b: Loaded) -> bool:
    return msgspec.json.encode(a) == msgspec.json.encode(b)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
async def test_snapshot_and_tail_is_a_full_replay_for_every_prefix(store, path):
    events = await stored_copy(store, path)
    stream = events[0].stream
    saved = 0
    for every in (1, 2, 3, 7):
        snaps = Snapshots(store, store, REGISTRY, every=every)
        await store.drop_snapshots(stream)
        head = await snaps.load(stream)  # a replay from the start: it saves the snapshots
        assert same(head, replayed(events, len(events)))
        for at in range(1, len(events) + 1):
            loaded = await snaps.load(stream, at)
            assert same(loaded, replayed(events, at)), f"every={every}: the state at seq {at} differs"
        # Every saved snapshot is itself what a replay to its seq computes.
        for at in range(1, len(events) + 1):
            row = await store.nearest_snapshot(stream, at)
            if row is not None and row.seq == at:
                saved += 1
                assert same(Snapshots.restore(row), replayed(events, at)), f"the snapshot at {at} is wrong"
    assert saved, "no load started from a snapshot"


async def test_a_snapshot_of_another_version_or_chain_is_discarded(store):
    events = await stored_copy(store, GOLDEN[0])
    stream = events[0].stream
    snaps = Snapshots(store, store, REGISTRY, every=1)
    await snaps.load(stream)
    row = await store.nearest_snapshot(stream)
    assert row is not None
    wrong = Loaded({**Snapshots.restore(row).state, "name": "not from this chain"}, [], {})
    for stale in (
        msgspec.structs.replace(row, ruleset_version="old", data=snaps.row(wrong).data),
        msgspec.structs.replace(row, state_version=row.state_version + 1, data=snaps.row(wrong).data),
        msgspec.structs.replace(row, hash="0" * 64, data=snaps.row(wrong).data),
    ):
        await store.save_snapshots([stale])
        assert same(await snaps.load(stream), replayed(events, len(events)))
        fresh = await store.nearest_snapshot(stream, row.seq)
        assert fresh is not None and Snapshots.restore(fresh).state["name"] != "not from this chain"


async def test_deleting_an_encounter_deletes_its_snapshots(store):
    events = await stored_copy(store, GOLDEN[0])
    stream = events[0].stream
    await Snapshots(store, store, REGISTRY, every=2).load(stream)
    assert await store.delete_stream(stream)
    assert await store.nearest_snapshot(stream) is None
