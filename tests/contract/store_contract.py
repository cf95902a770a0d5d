"""The store contract: every test here runs against SQLite and PostgreSQL alike, as the methods of one
abstract class (`StoreContract`) that tests/contract/test_sqlite_store.py and test_postgres_store.py
subclass.

A test may open several handles on one database (`backend.handle()`): for PostgreSQL they stand for
several server processes; for SQLite, for a second reader or writer of the same file.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from events.envelope import ZERO_HASH, NewEvent, event_hash
from events.store.discord_rows import DiscordRow
from events.store.outbox import (
    ACTIVE,
    CANCELLED,
    DELIVERED,
    DISABLED,
    PENDING,
    REVOKED,
    Attempt,
    OutboxRow,
    WebhookChange,
    WebhookRow,
)
from events.store.port import (
    Append,
    AppendResult,
    CommandIdReused,
    Creation,
    CreationExists,
    DeadlineRow,
    SeedRow,
    SeqConflict,
    Store,
    TokenRevocation,
    TokenRevoked,
    TokenRow,
)
from events.store.seed_key import SeedKey, SeedKeyError
from tests.support.appends import assert_chain, command, created, creation, read_feed


@dataclass
class Backend:
    """One database and a way to open more handles onto it."""

    name: str
    make: Callable[..., Store]  # (first, seed_key=None): None is the key the suite's stores all use
    opened: list[Store]

    async def handle(self) -> Store:
        """Another open handle on the same database (closed by the fixture)."""
        store = self.make(not self.opened)
        await store.open()
        self.opened.append(store)
        return store


# ---- webhooks and their outbox (events/store/outbox.py) ------------------------------------------------


def hook(stream: str, wid: str, seat: str | None = None) -> WebhookRow:
    return WebhookRow(
        wid,
        stream,
        f"https://example.test/{wid}?token=t",
        f"whsec_{wid}",
        seat,
        ["events"],
        "json",
        "http://tussle.test",
        1.0,
    )


def owed(wid: str, seq: int, part: int = 0) -> OutboxRow:
    return OutboxRow(f"{wid}.{seq}.{part}", wid, seq, part, "event", "{}")


class StoreContract:
    """What every backend promises (events/store/port.py), written once; each backend's test module
    subclasses it and gives the `make_handle` fixture (how to open a handle on one database; its
    argument says whether it is the first), as eventsourcing's recorder test cases are subclassed per
    recorder. Not collected itself: pytest collects only the `Test*` subclasses."""

    name: str

    @pytest.fixture
    def make_handle(self) -> Callable[..., Store]:
        raise NotImplementedError("a backend's subclass gives the make_handle fixture")

    @pytest.fixture
    async def backend(self, make_handle: Callable[..., Store]) -> AsyncIterator[Backend]:
        b = Backend(self.name, make_handle, [])
        yield b
        for store in reversed(b.opened):
            await store.close()

    @pytest.fixture
    async def store(self, backend: Backend) -> Store:
        return await backend.handle()

    async def test_appends_get_contiguous_seqs_a_valid_chain_and_dense_positions(self, store: Store):
        await created(store, "alpha")
        r1 = await store.append(command("alpha", 1, "c1", n=3))
        r2 = await store.append(command("alpha", 4, "c2", n=2))
        assert [e.seq for e in r1.events + r2.events] == [2, 3, 4, 5, 6]
        assert {e.command_id for e in r1.events} == {"c1"} and len({e.ts for e in r1.events}) == 1
        events = await store.read("alpha")
        assert_chain(events)
        assert events[1:] == r1.events + r2.events
        info = await store.stream_info("alpha")
        assert (info.seq, info.hash) == (6, events[-1].hash)
        assert await store.read("alpha", 3, 2) == events[2:4]
        feed = await read_feed(store)
        assert [p for p, _ in feed] == [1, 2, 3, 4, 5, 6]
        assert [e for _, e in feed] == events

    async def test_its_own_writes_never_move_the_external_writes_marker(self, store: Store):
        # The marker tells GET /verify that someone else wrote: this handle's own appends, snapshots and
        # deletions are what the verified prefix already accounts for.
        before = await store.external_writes_marker()
        await created(store, "mine")
        await store.append(command("mine", 1, "c1", n=3))
        await created(store, "gone")
        await store.delete_stream("gone")
        assert await store.external_writes_marker() == before

    async def test_data_is_stored_and_hashed_exactly_as_sealed(self, store: Store):
        await created(store, "texts")
        data = {
            "text": 'Ænæ "quoted" \\ \n\t\u0001 ✓ 𝄞',
            "zeta": 1,
            "alpha": {"b": [1, -2, 2**52], "a": None},
            "flag": True,
        }
        (ev,) = (
            await store.append(Append("texts", 1, "t1", "b", "seat:s1", [NewEvent("NotePosted", data)]))
        ).events
        (back,) = await store.read("texts", 2)
        assert back == ev and back.data == data
        assert back.hash == event_hash(
            stream="texts",
            seq=2,
            type="NotePosted",
            data=data,
            actor="seat:s1",
            command_id="t1",
            ts=back.ts,
            prev_hash=back.prev_hash,
        )

    async def test_two_writers_racing_on_one_stream_exactly_one_wins_each_seq(self, backend: Backend):
        a, b = await backend.handle(), await backend.handle()
        await created(a, "race")
        head = 1
        for round_ in range(15):
            ra, rb = await asyncio.gather(
                a.append_many([command("race", head, f"a{round_}", n=2)]),
                b.append_many([command("race", head, f"b{round_}", n=1)]),
            )
            outcomes = ra + rb
            wins = [o for o in outcomes if isinstance(o, AppendResult)]
            losses = [o for o in outcomes if isinstance(o, SeqConflict)]
            assert len(wins) == 1 and len(losses) == 1, outcomes
            assert wins[0].events[0].seq == head + 1
            head = wins[0].events[-1].seq
            assert (losses[0].expected, losses[0].actual) == (head - len(wins[0].events), head)
        assert_chain(await b.read("race"))
        assert (await a.stream_info("race")).seq == head

    async def test_many_writers_through_one_handle_all_land(self, store: Store):
        await created(store, "busy")
        streams = [f"s{i}" for i in range(12)]
        await asyncio.gather(*(created(store, s) for s in streams))

        async def writer(stream: str) -> None:
            for i in range(5):
                await store.append(command(stream, i + 1, f"{stream}-{i}"))

        await asyncio.gather(*(writer(s) for s in streams))
        for s in streams:
            assert_chain(await store.read(s))
        feed = await read_feed(store)
        assert [p for p, _ in feed] == list(range(1, len(feed) + 1))
        assert len(feed) == 1 + 12 * 6

    async def test_a_slow_writer_is_never_skipped_by_a_reader_bookmarking_by_position(self, backend: Backend):
        slow, fast, reader = await backend.handle(), await backend.handle(), await backend.handle()
        await created(slow, "slow")
        await created(slow, "fast")
        bookmark = (await read_feed(reader))[-1][0]
        inside = asyncio.Event()

        async def hold_open(requests: list[Append]) -> None:
            inside.set()
            await asyncio.sleep(0.5)  # the fast writer and the reader run meanwhile

        slow.before_commit = hold_open
        seen: list[tuple[int, Any]] = []
        writing = True

        async def read_by_bookmark() -> None:
            nonlocal bookmark
            while True:
                done = not writing
                for position, event in await reader.read_all(bookmark):
                    seen.append((position, event))
                    bookmark = position
                if done:
                    return
                await asyncio.sleep(0.005)

        async def write_fast() -> None:
            await inside.wait()
            for i in range(3):
                await fast.append(command("fast", 1 + i, f"fast-{i}"))

        polling = asyncio.create_task(read_by_bookmark())
        await asyncio.gather(slow.append(command("slow", 1, "slow-1", n=2)), write_fast())
        writing = False
        await polling
        got = {(e.stream, e.seq) for _, e in seen}
        assert got == {("slow", 2), ("slow", 3), ("fast", 2), ("fast", 3), ("fast", 4)}
        positions = [p for p, _ in seen]
        assert positions == list(range(positions[0], positions[0] + 5))
        # Commit order: the slow writer took its positions first, so it committed first.
        assert [e.stream for _, e in seen[:2]] == ["slow", "slow"]

    async def test_resend_by_command_id_returns_the_stored_events(self, backend: Backend):
        a, b = await backend.handle(), await backend.handle()
        await created(a, "resend")
        first = await a.append(command("resend", 1, "once", n=2))
        await a.append(command("resend", 3, "later"))
        again = await b.append(
            command("resend", 1, "once", n=2)
        )  # stale expected_seq: still the same command
        assert again.duplicate and again.events == first.events
        found = await b.find_command("resend", "once")
        assert found is not None and found.identity == "body-once" and found.actor == "gm"
        assert found.events == first.events
        with pytest.raises(CommandIdReused):
            await b.append(command("resend", 4, "once", identity="another body"))
        with pytest.raises(CommandIdReused):
            await a.append(command("resend", 4, "once", actor="seat:s1"))
        assert (await a.stream_info("resend")).seq == 4
        assert await a.find_command("resend", "never") is None

    async def test_concurrent_resends_store_the_command_once(self, backend: Backend):
        a, b = await backend.handle(), await backend.handle()
        await created(a, "twice")
        outcomes = await asyncio.gather(
            *(h.append_many([command("twice", 1, "same", n=3)]) for h in (a, b, a, b))
        )
        results = [o for (o,) in outcomes]
        stored = [r for r in results if isinstance(r, AppendResult) and not r.duplicate]
        assert len(stored) == 1
        # The others either saw the stored command or lost the seq race; a resend then finds it.
        for r in results:
            assert isinstance(r, (AppendResult, SeqConflict))
        again = await b.append(command("twice", 1, "same", n=3))
        assert again.duplicate and again.events == stored[0].events
        assert_chain(await a.read("twice"))
        assert (await a.stream_info("twice")).seq == 4

    async def test_a_rollback_leaves_no_trace(self, backend: Backend):
        store, other = await backend.handle(), await backend.handle()
        await created(store, "kept")
        before = await read_feed(other)

        async def fail(requests: list[Append]) -> None:
            raise RuntimeError("the disk caught fire")

        store.before_commit = fail
        with pytest.raises(RuntimeError):
            await store.append(
                creation(
                    "ghost", seeds=[SeedRow("c-ghost", b"\x01" * 32)], tokens=[TokenRow("h-ghost", "gm")]
                )
            )
        with pytest.raises(RuntimeError):
            await store.append(
                command(
                    "kept",
                    1,
                    "lost",
                    n=3,
                    seeds=[SeedRow("c-lost", b"\x02" * 32)],
                    tokens=[TokenRow("h-lost", "player", "s1")],
                    closes=True,
                )
            )
        store.before_commit = None
        for h in (store, other):
            assert await h.stream_info("ghost") is None
            assert await h.read("ghost") == []
            assert await h.seed("ghost", "c-ghost") is None and await h.token("h-ghost") is None
            assert await h.seed("kept", "c-lost") is None and await h.token("h-lost") is None
            assert await h.find_command("kept", "lost") is None
            info = await h.stream_info("kept")
            assert (info.seq, info.closed) == (1, False)
            assert await read_feed(h) == before
            assert [s.id for s in await h.list_streams(public_only=False)] == ["kept"]
        # The positions the rolled-back transactions took were given back: the feed stays dense.
        await store.append(command("kept", 1, "next"))
        assert [p for p, _ in await read_feed(other)] == [1, 2]

    async def test_group_commit_each_request_succeeds_or_fails_alone(self, backend: Backend):
        store = await backend.handle()
        await created(store, "g1")
        await store.append(command("g1", 1, "taken"))
        results = await store.append_many(
            [
                command("g1", 2, "ok-1", n=2),
                command("g1", 2, "stale"),  # decided before ok-1 landed
                creation("g2"),
                command("g2", 1, "ok-2"),
                command("g1", 4, "taken", identity="different"),
                msgspec.structs.replace(creation("g1"), command_id="re-create"),
                command("nowhere", 0, "lost"),
                command("g1", 4, "ok-3"),
            ]
        )
        kinds = [type(r).__name__ for r in results]
        assert kinds == [
            "AppendResult",
            "SeqConflict",
            "AppendResult",
            "AppendResult",
            "CommandIdReused",
            "StreamExists",
            "SeqConflict",
            "AppendResult",
        ]
        assert (results[1].expected, results[1].actual) == (2, 4)
        assert (results[6].expected, results[6].actual) == (0, 0)
        assert [e.seq for e in results[7].events] == [5]
        assert_chain(await store.read("g1"))
        assert_chain(await store.read("g2"))
        other = await backend.handle()
        feed = await read_feed(other)
        assert [p for p, _ in feed] == list(range(1, 8))
        assert await store.find_command("g1", "stale") is None

    async def test_what_follows_a_commit_runs_even_when_its_caller_stops_waiting(self, store: Store):
        # The service keeps its cached state with `then`: a request cancelled mid-commit (a client that
        # hung up) must not leave the cache behind the stream.
        await created(store, "after")
        seen: list[Any] = []

        def then(result: AppendResult | Exception) -> int:
            seen.append(result)
            if isinstance(result, Exception):
                raise result
            return result.events[-1].seq

        assert await store.append_then(command("after", 1, "kept"), then) == 2
        waiting = asyncio.ensure_future(store.append_then(command("after", 2, "gone"), then))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        for _ in range(200):
            if len(seen) == 2:
                break
            await asyncio.sleep(0.01)
        assert [r.events[-1].seq for r in seen] == [2, 3]
        with pytest.raises(SeqConflict):  # a refusal reaches `then`, and what it raises the caller
            await store.append_then(command("after", 2, "stale"), then)
        assert isinstance(seen[-1], SeqConflict)
        assert [e.command_id for e in await store.read("after")][1:] == ["kept", "gone"]

    async def test_creating_an_encounter_twice(self, backend: Backend):
        a, b = await backend.handle(), await backend.handle()
        outcomes = await asyncio.gather(a.append_many([creation("dup")]), b.append_many([creation("dup")]))
        results = [o for (o,) in outcomes]
        assert sum(isinstance(r, AppendResult) and not r.duplicate for r in results) == 1
        assert all(isinstance(r, AppendResult) for r in results)  # the same creation resent is a duplicate
        assert results[0].events == results[1].events
        with pytest.raises(CommandIdReused):
            await a.append(creation("dup", identity="another body"))
        assert_chain(await b.read("dup"))

    async def test_seeds_tokens_and_the_listing(self, store: Store):
        seed1, seed2 = bytes(range(32)), bytes(range(32, 64))
        await created(
            store, "open", public=True, seeds=[SeedRow("c1", seed1)], tokens=[TokenRow("h-gm", "gm")]
        )
        await created(store, "hidden")
        assert await store.seed("open", "c1") == seed1
        assert await store.seed("hidden", "c1") is None
        assert await store.revealed_seeds("open") == {}
        await store.append(
            command(
                "open",
                1,
                "seats",
                tokens=[
                    TokenRow("h-p1", "player", "s1"),
                    TokenRow("h-p2", "player", "s2"),
                    TokenRow("h-ro", "observer", None, "r1"),
                ],
            )
        )
        assert await store.token("h-gm") == ("open", TokenRow("h-gm", "gm"))
        assert await store.token("h-ro") == ("open", TokenRow("h-ro", "observer", None, "r1"))
        await store.append(
            command(
                "open",
                2,
                "revoke",
                revoke=[TokenRevocation("player", seat="s1"), TokenRevocation("observer", token_id="r1")],
            )
        )
        assert await store.token("h-p1") is None and await store.token("h-ro") is None
        assert await store.token("h-p2") == ("open", TokenRow("h-p2", "player", "s2"))
        await store.append(command("open", 3, "rotate", seeds=[SeedRow("c2", seed2)], reveal=["c1"]))
        assert await store.revealed_seeds("open") == {"c1": seed1.hex()}
        await store.append(command("open", 4, "close", closes=True))
        assert [(s.id, s.public, s.closed, s.seq) for s in await store.list_streams(public_only=False)] == [
            ("open", True, True, 5),
            ("hidden", False, False, 1),
        ]
        assert [s.id for s in await store.list_streams(public_only=True)] == ["open"]
        assert await store.delete_stream("open") is True
        assert await store.delete_stream("open") is False
        assert await store.stream_info("open") is None and await store.read("open") == []
        assert await store.token("h-p2") is None and await store.seed("open", "c2") is None
        assert [s.id for s in await store.list_streams(public_only=False)] == ["hidden"]

    async def test_seeds_open_only_under_the_key_the_database_recorded(self, backend: Backend):
        seed = bytes(range(100, 132))
        store = await backend.handle()
        await created(store, "keyed", seeds=[SeedRow("c1", seed)])
        stranger = backend.make(False, SeedKey(bytes(32), "a stranger's key"))
        with pytest.raises(SeedKeyError, match="fingerprint mismatch"):
            await stranger.open()
        again = await backend.handle()  # another process with the database's own key
        assert await again.seed("keyed", "c1") == seed
        await again.append(command("keyed", 1, "rotate", seeds=[SeedRow("c2", seed[::-1])], reveal=["c1"]))
        assert await store.revealed_seeds("keyed") == {"c1": seed.hex()}
        assert await store.seed("keyed", "c2") == seed[::-1]

    async def test_a_rotation_revokes_the_old_token_and_keeps_the_new_one(self, store: Store):
        await created(store, "rot", tokens=[TokenRow("h-old", "player", "s1"), TokenRow("h-gm1", "gm")])
        await store.append(
            command(
                "rot",
                1,
                "rotate-seat",
                tokens=[TokenRow("h-new", "player", "s1")],
                revoke=[TokenRevocation("player", seat="s1")],
            )
        )
        await store.append(
            command("rot", 2, "rotate-gm", tokens=[TokenRow("h-gm2", "gm")], revoke=[TokenRevocation("gm")])
        )
        assert await store.token("h-old") is None and await store.token("h-gm1") is None
        assert await store.token("h-new") == ("rot", TokenRow("h-new", "player", "s1"))
        assert await store.token("h-gm2") == ("rot", TokenRow("h-gm2", "gm"))

    async def test_an_append_to_a_missing_stream_is_a_conflict_at_zero(self, store: Store):
        with pytest.raises(SeqConflict) as exc:
            await store.append(command("missing", 0, "x"))
        assert (exc.value.expected, exc.value.actual) == (0, 0)
        assert await store.stream_info("missing") is None
        assert (await store.read("missing")) == []

    async def test_an_append_with_no_events_stores_no_command(self, store: Store):
        await created(store, "quiet")
        result = await store.append(Append("quiet", 1, "empty", "b", "gm", []))
        assert result.events == [] and await store.find_command("quiet", "empty") is None
        info = await store.stream_info("quiet")
        assert info.seq == 1 and info.hash == (await store.read("quiet"))[0].hash != ZERO_HASH

    async def test_webhooks_and_their_deliveries_are_written_with_the_append_that_causes_them(
        self, store: Store
    ):
        await created(store, "hooked")
        await store.append(
            command("hooked", 1, "subscribe", webhooks=[hook("hooked", "w1"), hook("hooked", "w2", "s1")])
        )
        assert [(w.id, w.seat, w.deliver, w.status) for w in await store.webhooks("hooked")] == [
            ("w1", None, ["events"], ACTIVE),
            ("w2", "s1", ["events"], ACTIVE),
        ]
        assert (await store.webhook("w1")).url == "https://example.test/w1?token=t"
        # Deliveries are committed with their events, or not at all.
        with pytest.raises(SeqConflict):
            await store.append(command("hooked", 1, "stale", outbox=[owed("w1", 2)]))
        assert await store.pending("w1", 10) == []
        await store.append(
            command("hooked", 2, "c1", n=2, outbox=[owed("w1", 4), owed("w1", 3), owed("w2", 3)])
        )
        assert [d.id for d in await store.pending("w1", 10)] == ["w1.3.0", "w1.4.0"]
        assert await store.outbox_depth() == 3
        await store.append(
            command("hooked", 4, "rotate", webhook_changes=[WebhookChange("w1", secret="whsec_new")])
        )
        assert (await store.webhook("w1")).secret == "whsec_new"
        await store.append(
            command("hooked", 5, "revoke", webhook_changes=[WebhookChange("w2", status=REVOKED)])
        )
        assert [d.status for d in await store.deliveries("w2")] == [CANCELLED]
        assert await store.outbox_depth() == 2

    async def test_an_endpoint_is_leased_to_one_claimer_and_its_attempts_are_recorded(self, backend: Backend):
        one, two = await backend.handle(), await backend.handle()
        await created(one, "leased")
        await one.append(
            command("leased", 1, "subscribe", webhooks=[hook("leased", "w1"), hook("leased", "w2")])
        )
        await one.append(command("leased", 2, "c1", outbox=[owed("w1", 3), owed("w2", 3)]))
        claims = await asyncio.gather(
            one.claim_endpoints(100.0, 30.0, 10), two.claim_endpoints(100.0, 30.0, 10)
        )
        assert sorted(w.id for c in claims for w in c) == ["w1", "w2"]  # each endpoint to exactly one claimer
        assert await one.claim_endpoints(101.0, 30.0, 10) == []  # still leased
        await one.record_attempts(
            [Attempt("w1.3.0", "w1", 102.0, ok=False, status=500, error="HTTP 500", retry_at=160.0)]
        )
        assert await one.claim_endpoints(120.0, 30.0, 10) == []  # w1 backs off until 160, w2 leased to 130
        (failed,) = await one.deliveries("w1")
        assert (failed.status, failed.attempts, failed.last_status, failed.next_at) == (
            PENDING,
            1,
            500,
            160.0,
        )
        assert (await one.webhook("w1")).failing_since == 102.0
        assert [w.id for w in await two.claim_endpoints(160.0, 30.0, 10)] == [
            "w1",
            "w2",
        ]  # w2's lease ran out
        await two.record_attempts([Attempt("w1.3.0", "w1", 161.0, ok=True, status=204, lease_s=30.0)])
        assert await one.claim_endpoints(162.0, 30.0, 10) == []  # w1's lease was renewed (to 191), w2 leased
        await two.release_endpoint("w2")
        (done,) = await one.deliveries("w1")
        assert (done.status, done.attempts, done.delivered_at) == (DELIVERED, 2, 161.0)
        assert (await one.webhook("w1")).failing_since is None
        assert [w.id for w in await one.claim_endpoints(162.0, 30.0, 10)] == ["w2"]  # w1 has nothing pending
        await one.record_attempts(
            [Attempt("w2.3.0", "w2", 163.0, ok=False, error="timeout", retry_at=999.0, disable=True)]
        )
        assert (await one.webhook("w2")).status == DISABLED
        assert await one.claim_endpoints(1000.0, 30.0, 10) == [] and await one.outbox_depth() == 0
        assert await one.delete_stream("leased") and await one.webhooks("leased") == []

    async def test_redelivery_makes_the_undelivered_due_again_and_a_test_delivery_appends_nothing(
        self, store: Store
    ):
        await created(store, "again")
        await store.append(command("again", 1, "subscribe", webhooks=[hook("again", "w1")]))
        await store.append(command("again", 2, "c1", n=2, outbox=[owed("w1", 3), owed("w1", 4)]))
        await store.record_attempts(
            [
                Attempt(
                    "w1.3.0", "w1", 10.0, ok=False, status=500, error="HTTP 500", retry_at=900.0, disable=True
                )
            ]
        )
        await store.append(
            command("again", 4, "disable", webhook_changes=[WebhookChange("w1", status=DISABLED)])
        )
        assert {d.status for d in await store.deliveries("w1")} == {CANCELLED}
        await store.append(
            command("again", 5, "enable", webhook_changes=[WebhookChange("w1", status=ACTIVE)])
        )
        assert await store.redeliver("w1", 20.0) == 2
        assert [(d.id, d.next_at) for d in await store.pending("w1", 10)] == [
            ("w1.3.0", 20.0),
            ("w1.4.0", 20.0),
        ]
        w = await store.webhook("w1")
        assert (w.status, w.failing_since, w.next_at) == (ACTIVE, None, 0.0)
        await store.add_delivery("again", OutboxRow("w1.test.x", "w1", 6, 1_000_000, "test", "{}"), 21.0)
        assert [d.id for d in await store.pending("w1", 10)] == ["w1.3.0", "w1.4.0", "w1.test.x"]
        assert len(await store.read("again")) == 6  # the test delivery appended nothing

    async def test_deadlines_are_written_and_cleared_with_their_commands(self, backend: Backend):
        store, other = await backend.handle(), await backend.handle()
        await created(store, "d1")
        await created(store, "d2")
        # In one batch: two waits on d1, one on d2, and a conflicting command whose deadline must not stay.
        results = await store.append_many(
            [
                command(
                    "d1",
                    1,
                    "ask-1",
                    deadlines=[
                        DeadlineRow("ask-1/1", "2030-01-01T00:00:02.000000Z"),
                        DeadlineRow("ask-1/2", "2030-01-01T00:00:09.000000Z"),
                    ],
                ),
                command("d2", 1, "ask-2", deadlines=[DeadlineRow("ask-2/1", "2030-01-01T00:00:01.000000Z")]),
                command("d2", 1, "stale", deadlines=[DeadlineRow("stale/1", "2030-01-01T00:00:00.000000Z")]),
            ]
        )
        assert isinstance(results[2], SeqConflict)
        due = await other.due_deadlines("2030-01-01T00:00:05.000000Z")
        assert [(d.stream, d.reaction) for d in due] == [("d2", "ask-2/1"), ("d1", "ask-1/1")], (
            "due ones, earliest first"
        )
        assert len(await other.due_deadlines("2030-01-01T00:00:10.000000Z")) == 3
        await store.append(command("d1", 2, "answer", clear_deadlines=["ask-1/1"]))
        assert [d.reaction for d in await other.due_deadlines("2031-01-01T00:00:00.000000Z")] == [
            "ask-2/1",
            "ask-1/2",
        ]
        await other.clear_deadline("d1", "ask-1/2")
        assert await store.delete_stream("d2")
        assert await store.due_deadlines("2031-01-01T00:00:00.000000Z") == []

    async def test_a_rolled_back_command_leaves_no_deadline(self, backend: Backend):
        store = await backend.handle()
        await created(store, "r1")

        async def fail(requests: list[Append]) -> None:
            raise RuntimeError("the disk caught fire")

        store.before_commit = fail
        with pytest.raises(RuntimeError):
            await store.append(
                command("r1", 1, "ask", deadlines=[DeadlineRow("ask/1", "2030-01-01T00:00:00.000000Z")])
            )
        store.before_commit = None
        assert await store.due_deadlines("2031-01-01T00:00:00.000000Z") == []

    async def test_a_creation_command_id_makes_one_encounter(self, backend: Backend):
        store, other = await backend.handle(), await backend.handle()

        def made(stream: str, identity: str = "create-body") -> Append:
            req = creation(stream, identity=identity)
            req.create_key = "client-cid"
            return req

        results = await store.append_many([made("e1"), made("e2")])  # one batch: the second is refused
        assert isinstance(results[0], AppendResult) and isinstance(results[1], CreationExists)
        assert isinstance((await other.append_many([made("e3")]))[0], CreationExists)
        assert await other.find_creation("client-cid") == Creation("e1", "create-body")
        assert await other.stream_info("e2") is None and await other.stream_info("e3") is None
        assert await store.find_creation("no-such") is None
        assert await store.delete_stream("e1") and await other.find_creation("client-cid") is None

    async def test_a_command_id_twice_in_one_batch_is_appended_once(self, store: Store):
        await created(store, "b")
        first, resent, reused = await store.append_many(
            [command("b", 1, "twice"), command("b", 2, "twice"), command("b", 2, "twice", identity="other")]
        )
        assert isinstance(first, AppendResult) and not first.duplicate
        assert isinstance(resent, AppendResult) and resent.duplicate and resent.events == first.events
        assert isinstance(reused, CommandIdReused)
        assert_chain(await store.read("b"))

    async def test_side_rows_keep_the_order_of_the_commands_in_a_batch(self, store: Store):
        await created(store, "t")
        await store.append_many(
            [
                command("t", 1, "seat", tokens=[TokenRow("h-s1", "player", "s1")]),
                command("t", 2, "revoke", revoke=[TokenRevocation("player", seat="s1")]),
                command("t", 3, "seat-again", tokens=[TokenRow("h-s1b", "player", "s1")]),
            ]
        )
        assert await store.token("h-s1") is None
        assert await store.token("h-s1b") == ("t", TokenRow("h-s1b", "player", "s1"))

    async def test_a_missing_stream_in_a_batch_is_a_conflict_at_zero(self, store: Store):
        await created(store, "real")
        real, ghost = await store.append_many([command("real", 1, "fine"), command("ghost", 0, "boo")])
        assert isinstance(real, AppendResult) and [e.seq for e in real.events] == [2]
        assert isinstance(ghost, SeqConflict) and (ghost.expected, ghost.actual) == (0, 0)

    # ---- commands that name the head they were decided on (Append.expected_hash) ----------------

    async def test_commands_naming_their_head_land_and_a_stale_head_is_a_conflict_not_a_fork(
        self, backend: Backend
    ):
        """On PostgreSQL such a batch of plain commands takes one round trip (events/store/postgres_one_trip.py)."""
        a, b = await backend.handle(), await backend.handle()
        heads = {}
        for s in ("h1", "h2", "h3"):
            heads[s] = (1, (await a.append(creation(s))).events[-1].hash)

        def at(stream: str, cid: str, **kw: Any) -> Append:
            seq, hash_ = heads[stream]
            return command(stream, seq, cid, expected_hash=hash_, **kw)

        for round_ in range(3):  # a batch over several encounters, two commands on one of them
            first = at("h1", f"x{round_}", n=2)
            results = await a.append_many([first, at("h2", f"y{round_}"), at("h3", f"z{round_}")])
            assert all(isinstance(r, AppendResult) and not r.duplicate for r in results), results
            for r in results:
                heads[r.events[-1].stream] = (r.events[-1].seq, r.events[-1].hash)
        stale = heads["h1"]
        moved = await b.append(at("h1", "moved-by-b"))  # another process moves h1 on
        heads["h1"] = (moved.events[-1].seq, moved.events[-1].hash)
        late, fine = await a.append_many(
            [command("h1", stale[0], "late", expected_hash=stale[1]), at("h2", "fine")]
        )
        assert isinstance(late, SeqConflict) and (late.expected, late.actual) == (stale[0], heads["h1"][0])
        assert isinstance(fine, AppendResult) and [e.seq for e in fine.events] == [heads["h2"][0] + 1]
        resent = await a.append(command("h2", heads["h2"][0], "fine", expected_hash=heads["h2"][1]))
        assert resent.duplicate and resent.events == fine.events
        for s in ("h1", "h2", "h3"):
            assert_chain(await b.read(s))
        feed = await read_feed(b)
        assert [p for p, _ in feed] == list(range(1, len(feed) + 1))

    async def test_two_writers_naming_the_same_head_exactly_one_wins(self, backend: Backend):
        a, b = await backend.handle(), await backend.handle()
        head = (await a.append(creation("duel"))).events[-1]
        for round_ in range(10):
            ra, rb = await asyncio.gather(
                a.append_many([command("duel", head.seq, f"a{round_}", expected_hash=head.hash)]),
                b.append_many([command("duel", head.seq, f"b{round_}", n=2, expected_hash=head.hash)]),
            )
            wins = [o for o in ra + rb if isinstance(o, AppendResult)]
            assert len(wins) == 1 and any(isinstance(o, SeqConflict) for o in ra + rb), ra + rb
            head = wins[0].events[-1]
        assert_chain(await b.read("duel"))

    # ---- the sending token, checked inside the append's transaction -------------------------------

    async def test_a_revoked_token_never_writes(self, backend: Backend):
        a, b = await backend.handle(), await backend.handle()
        await created(a, "tok", tokens=[TokenRow("h-gm", "gm"), TokenRow("h-p1", "player", "p1")])
        ok = await b.append(command("tok", 1, "by-p1", actor="seat:p1", token_hash="h-p1"))
        assert [e.seq for e in ok.events] == [2]
        assert await b.token("h-p1") is not None  # now perhaps cached in b
        await a.append(
            command("tok", 2, "revoke", token_hash="h-gm", revoke=[TokenRevocation("player", seat="p1")])
        )
        head = (await b.read("tok"))[-1]
        for kw in ({}, {"expected_hash": head.hash}):
            with pytest.raises(TokenRevoked):
                await b.append(command("tok", 3, f"after{len(kw)}", actor="seat:p1", token_hash="h-p1", **kw))
        with pytest.raises(TokenRevoked):  # a token of another encounter is no better
            await created(a, "other", tokens=[TokenRow("h-other", "gm")])
            await b.append(command("tok", 3, "foreign", token_hash="h-other", expected_hash=head.hash))
        # Revoked by a command earlier in the same batch: the later one is refused, the others land.
        await a.append(
            command("tok", 3, "seat2", token_hash="h-gm", tokens=[TokenRow("h-p2", "player", "p2")])
        )
        revoke, refused, gm = await a.append_many(
            [
                command(
                    "tok", 4, "revoke2", token_hash="h-gm", revoke=[TokenRevocation("player", seat="p2")]
                ),
                command("tok", 5, "by-p2", actor="seat:p2", token_hash="h-p2"),
                command("tok", 5, "by-gm", token_hash="h-gm"),
            ]
        )
        assert (
            isinstance(revoke, AppendResult)
            and isinstance(refused, TokenRevoked)
            and isinstance(gm, AppendResult)
        )
        assert [e.seq for e in gm.events] == [6]
        assert_chain(await b.read("tok"))
        assert await b.token("h-p1") is None and await b.token("h-p2") is None

    async def test_discord_rows_are_kept_taken_once_and_go_with_their_encounter(self, backend: Backend):
        a, b = await backend.handle(), await backend.handle()
        await created(a, "dc")
        code = DiscordRow("code:abc", "dc", "bind_code", '{"role": "gm"}', 1e12)
        await a.put_discord_row(code)
        await a.put_discord_row(DiscordRow("link:dc:2", "dc", "link", "{}"))
        await a.put_discord_row(DiscordRow("link:dc:1", "dc", "link", '{"n": 1}'))
        await a.put_discord_row(DiscordRow("link:dc:1", "dc", "link", '{"n": 2}'))  # replaced
        assert await b.discord_row("code:abc") == code
        assert [(r.key, r.data) for r in await b.discord_rows("dc", "link")] == [
            ("link:dc:1", '{"n": 2}'),
            ("link:dc:2", "{}"),
        ]
        taken = await asyncio.gather(a.take_discord_row("code:abc"), b.take_discord_row("code:abc"))
        assert sorted(taken, key=lambda r: r is None) == [code, None], "one taker gets a code"
        await a.delete_stream("dc")
        assert await b.discord_rows("dc", "link") == [] and await b.discord_row("link:dc:1") is None
