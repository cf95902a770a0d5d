"""The encounter service: runs commands through the pipeline and the store, keeps state caches.

One asyncio lock per encounter serializes its commands in this process; the store's
expected-seq check serializes them across processes, and a conflict is decided again from fresh
state when the client did not pin `expected_seq` (the dice stay the same: they are keyed on the
command).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import hashlib
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec

from events.canonical import FloatInEventData, canonical, check_integers_only
from events.common import (
    STREAM_RULES,
    EncounterCreated,
    GmTokenRotated,
    ReadTokenCreated,
    ReadTokenRevoked,
    RulesetUpgraded,
    SeatChanged,
    SeatCreated,
    SeatRevoked,
    SeatTokenRotated,
    newer_version,
)
from events.dice import BadDice, Dice, DiceNeeded, commitment_of, is_commitment, valid_entropy
from events.dice_expressions import DEFAULT_LIMITS, RollLimits
from events.envelope import Event, NewEvent
from events.hidden_rolls import hidden_faces, total_of
from events.store.discord_rows import DiscordRow
from events.store.outbox import Delivery, OutboxRow, WebhookRow
from events.store.port import (
    Append,
    AppendResult,
    CommandIdReused,
    Creation,
    CreationExists,
    EventStore,
    SeedRow,
    SeqConflict,
    Store,
    StreamInfo,
    TokenRevocation,
    TokenRevoked,
    TokenRow,
)
from rules.common import commands as common
from rules.common.options import resolve_options
from rules.interface import BadCommand, Forbidden, RuleError, command_type
from rules.pipeline import ID_PATTERN, Context, TooManyEvents, decide_folded, pending_waits, to_new_event
from rules.registry import Registry
from rules.state import evolve, initial_state
from rules.supplied_dice import check_supplied_dice
from server.encounters.access import require
from server.encounters.acting import TS_FORMAT, reaction_deadlines
from server.encounters.dice_wanted import dice_wanted, rolls_wanted
from server.encounters.encounter_cache import DEFAULT_CAPACITY, EncounterCache
from server.encounters.feed import LiveFeed
from server.encounters.ids import RandomIds
from server.encounters.reaction_deadlines import deadline_changes, reminded, timeout_command_id
from server.encounters.service_errors import (
    Closed,
    CommandIdTaken,
    CommitmentMoved,
    NotFound,
    NotPermitted,
    ResolutionPending,
    RuleRefusal,
    SeqMoved,
    ServiceError,
    Unauthenticated,
    bad_request,
)
from server.encounters.snapshots import SNAPSHOT_EVERY, Loaded, Snapshots, read_range
from server.encounters.survived import Survived
from server.encounters.tokens import Principal, new_token, token_hash

DICE_MODES = ("server", "manual", "mixed")


# A conflict between server processes is decided again from fresh state this many times (when the
# client did not pin expected_seq) before the client is told to resend.
CONFLICT_RETRIES = 12


# (state, new events, actor, command id, ruleset, states after each, now): the rows they cause beside
# the events; `now` is the command's one clock reading, which its reaction deadlines are counted from.
SideRows = Callable[
    [dict[str, Any], list[NewEvent], str, str, Any, list[dict[str, Any]] | None, dt.datetime],
    dict[str, Any],
]
# (state at the head, command id) -> side rows of a bookkeeping event that depend on that head.
SideOf = Callable[[dict[str, Any], str], Awaitable[dict[str, Any]]]


def with_side_rows(side: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """`side` with each kind of `more`'s rows added after its own of that kind."""
    return {**side, **{name: [*side.get(name, []), *rows] for name, rows in more.items()}}


async def conflict_pause(attempt: int) -> None:
    """A short random pause before deciding again, growing with each lost race, so that two busy
    processes stop colliding in step and the one with a cold cache still gets its turn."""
    await asyncio.sleep(random.uniform(0, min(0.1, 0.002 * 2**attempt)))


def client_command_id(body: dict[str, Any]) -> str | None:
    """The body's `command_id`, None when absent; anything else that is not 1-64 characters of
    [A-Za-z0-9_.:-] is a 400, the falsy ones (false, 0, "") too: never silently replaced by a server id."""
    command_id = body.get("command_id")
    if command_id is not None and (not isinstance(command_id, str) or not ID_PATTERN.match(command_id)):
        raise bad_request("command_id must be 1-64 characters of [A-Za-z0-9_.:-]", "command_id")
    return command_id


def integers_only(body: dict[str, Any]) -> None:
    """A 400 naming the first float or too-large integer in a body bound for event data."""
    try:
        check_integers_only(body, "body")
    except FloatInEventData as exc:
        raise bad_request(
            f"{exc} (Tussle uses integers: hexes, hundredths of an inch, whole degrees)",
            (exc.field or "").removeprefix("body.") or None,
        ) from None


# Preconditions of the append, not the command: a resend may carry others (API.md "Additions").
NOT_IDENTITY = ("expected_seq", "expected_commitment")


def identity_of(body: dict[str, Any]) -> str:
    """A command's identity: SHA-256 of its canonical body without its preconditions."""
    return hashlib.sha256(canonical({k: v for k, v in body.items() if k not in NOT_IDENTITY})).hexdigest()


def _revoked() -> Unauthenticated:
    return Unauthenticated("this token was revoked; ask the GM for the new one")


class Outcome(msgspec.Struct):
    events: list[Event]
    duplicate: bool = False
    extra: dict[str, Any] = {}


class Encounters:
    """Everything the HTTP layer asks of encounters, with no HTTP in it."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        *,
        max_events: int = 1000,
        feed: LiveFeed | None = None,
        ids: Any = None,
        cache_encounters: int = DEFAULT_CAPACITY,
        snapshot_every: int = SNAPSHOT_EVERY,
        roll_limits: RollLimits = DEFAULT_LIMITS,
    ):
        self.store = store
        self.roll_limits = roll_limits  # the caps on a `roll` command, put in each command's context
        self.ids = (
            ids or RandomIds()
        )  # every id, seed and time this service makes comes from here (server/encounters/ids.py)
        store.clock = self.ids.now
        self.registry = registry
        self.max_events = max_events
        self.feed = feed or LiveFeed()
        # False when another publisher delivers every committed event to the feed (on PostgreSQL the
        # feed listener does, once and in position order, for this process's appends and others').
        self.publish_appends = True
        # States, commitments, locks and seeds of the encounters in use, at most `cache_encounters` of
        # them (server/encounters/encounter_cache.py); never one a command is at work on.
        self.cache = EncounterCache(cache_encounters, on_evict=self._evicted)
        self.survived = Survived()  # errors its background parts log and go on after (/metrics counts them)
        self.snapshots = Snapshots(
            store, store, registry, snapshot_every, survived=self.survived
        )  # cold loads and ?at= (server/encounters/snapshots.py)
        # What else an append writes because of its events, e.g. the webhook deliveries they cause
        # (server/webhooks/): (state, events, actor, command_id, ruleset, the state after each event or
        # None) -> Append fields to add.
        self.side_rows: SideRows | None = None
        self.after_side_rows: Callable[[], None] | None = None  # called once such an append has committed
        # The deliveries of a reminder (`reminder_before_s`) of a pending reaction and its deadline
        # (server/webhooks/): (state, pending reaction, deadline) -> rows, written outside any append.
        self.reminder_rows: (
            Callable[[dict[str, Any], dict[str, Any], dt.datetime], list[OutboxRow]] | None
        ) = None
        # When each pending reaction of a loaded encounter was asked (its ReactionRequested's ts), for the
        # deadlines the views show (server/encounters/acting.py). Answering on time goes by the store's deadline rows.
        self.reaction_deadlines: dict[tuple[str, str], str] = {}
        # Appends that found another process had moved the encounter first, decided again (GET /metrics).
        self.conflicts = 0

    def metric_lines(self) -> list[str]:
        """Prometheus family of the service (GET /metrics)."""
        return [
            "# HELP tussle_append_conflicts_total Appends that found the encounter moved by another "
            "process first, decided again (0 while deciding is serialised per encounter).",
            "# TYPE tussle_append_conflicts_total counter",
            f"tussle_append_conflicts_total {self.conflicts}",
        ]

    # ---- reading ---------------------------------------------------------------------------

    def ruleset_of(self, state: dict[str, Any]) -> Any:
        return self.registry.get(state["ruleset"])

    def _ruleset_for_event(self, e: Event) -> Any:
        return self.registry.get(e.data["ruleset"])

    async def info(self, stream: str) -> StreamInfo:
        cached = self.cache.state(stream)
        if cached is not None and self.store.head_known(stream, cached["seq"]):
            # Every append of a sole writer goes through _apply (or forgets the state), and on a shared
            # database the store knows when its head is the cached one: the cached state holds the listing
            # row's fields, without a read per request.
            return StreamInfo(
                stream,
                cached["name"],
                cached["ruleset"],
                cached["public"],
                cached["seq"],
                cached["hash"],
                cached["closed"],
            )
        info = await self.store.stream_info(stream)
        if info is None:
            raise NotFound(f"there is no encounter {stream!r}")
        return info

    async def state(self, stream: str) -> dict[str, Any]:
        """The live state, caught up from the store on first use and after other processes' appends."""
        cached = self.cache.state(stream)
        generation = self.store.head_generation()
        if cached is None:
            with self.cache.using(stream):
                loaded = await self.snapshots.load(stream)
                if loaded is None:
                    raise NotFound(f"there is no encounter {stream!r}")
                raced = self.cache.state(stream)  # another request loaded it (and perhaps applied more) first
                if raced is not None and raced["seq"] >= loaded.state["seq"]:
                    return raced
                self.cache.put(stream, loaded.state, loaded.commitments, loaded.skipped)
                for reaction, ts in loaded.asked.items():
                    self.reaction_deadlines[(stream, reaction)] = ts
                cached = loaded.state
            self.store.saw_head(
                stream, cached["seq"], generation
            )  # the load read the head after `generation`
            return cached
        if self.store.head_known(stream, cached["seq"]):
            return cached  # every append went through _apply, or the store heard of none since
        return await self._caught_up(stream, cached, generation)

    async def _head_state(self, stream: str, generation: int) -> dict[str, Any]:
        """The state to decide on, under store.deciding: where that keeps other processes out, the
        cached state caught up with what they committed before it (their notifications may lag)."""
        state = await self.state(stream)
        if self.store.serialises_deciding:
            state = await self._caught_up(stream, state, generation)
        return state

    async def _caught_up(self, stream: str, cached: dict[str, Any], generation: int) -> dict[str, Any]:
        """The cached state with the events other processes appended since, read from the store."""
        newer = await self.store.read(stream, cached["seq"] + 1)
        if newer:
            cached = self._apply(stream, cached, newer)
        self.store.saw_head(stream, cached["seq"], generation)
        return cached

    def _apply(
        self,
        stream: str,
        state: dict[str, Any],
        events: list[Event],
        after: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """`state` with `events` applied; `after[i]`, where given, is already the state after events[i]."""
        ruleset = self.ruleset_of(state)
        needs_replay = False
        held = self.cache.state(stream) is not None  # else it is read again on next use: keep nothing
        before = state["seq"]
        commitments = list(self.cache.commitments(stream))
        for i, e in enumerate(events):
            if e.seq != state["seq"] + 1:
                continue
            if e.type == "EventVoided":
                needs_replay = True
            elif e.type == "DiceSeedRotated" and e.data.get("commitment"):
                commitments.append(e.data["commitment"])
            self._note_asked(stream, (e,))
            state = after[i] if after is not None else evolve(state, e, ruleset)
        if needs_replay or not held:
            self.cache.drop_state(stream)
            return state  # the caller re-reads through state(), which replays without the voided events
        self.cache.put(stream, state, commitments)
        if self.snapshots.due(before, state):
            asked = {
                p["id"]: self.reaction_deadlines[(stream, p["id"])]
                for p in state["pending"]
                if (stream, p["id"]) in self.reaction_deadlines
            }
            skipped = list(self.cache.skipped(stream))  # unchanged: a void makes the state be read again
            self.snapshots.save_later([self.snapshots.row(Loaded(state, commitments, asked, skipped))])
        return state

    def _note_asked(self, stream: str, events: Any) -> None:
        for e in events:
            if e.type == "ReactionRequested":
                self.reaction_deadlines[(stream, e.data["id"])] = e.ts
            elif e.type in ("ReactionAnswered", "ReactionCancelled"):
                self.reaction_deadlines.pop((stream, e.data["id"]), None)

    async def state_at(self, stream: str, at: int | None) -> dict[str, Any]:
        """The state as of seq `at`: from the nearest snapshot, then the events after it (voids with
        seq <= at only)."""
        if at is None:
            return await self.state(stream)
        cached = self.cache.state(stream)
        if cached is not None and cached["seq"] == at:
            return cached
        loaded = await self.snapshots.load(stream, at)
        if loaded is None:
            raise NotFound(f"there is no encounter {stream!r}")
        return loaded.state

    async def commitments(self, stream: str) -> list[str]:
        """Every commitment the encounter published, in order, without reading its stream."""
        await self.state(stream)
        return list(self.cache.commitments(stream))

    def cache_size(self) -> int:
        return self.cache.loaded()

    def _evicted(self, stream: str) -> None:
        for key in [k for k in self.reaction_deadlines if k[0] == stream]:
            del self.reaction_deadlines[key]

    def forget(self, stream: str) -> None:
        self.cache.drop_state(stream)

    @property
    def events(self) -> EventStore:
        """The event port alone, for readers that page through a stream past the cache (exports)."""
        return self.store

    async def list_encounters(self, public_only: bool) -> list[StreamInfo]:
        return await self.store.list_streams(public_only)

    async def read_range(self, stream: str, first: int, last: int | None) -> list[Event]:
        """Events `first`..`last` of a stream, read in pages that yield to the loop between them."""
        return await read_range(self.store, stream, first, last)

    async def revealed_seeds(self, stream: str) -> dict[str, str]:
        """commitment -> revealed seed hex, for every seed the encounter has revealed."""
        return await self.store.revealed_seeds(stream)

    async def token_holder(self, hash_: str) -> tuple[str, TokenRow] | None:
        """(encounter, row) of a live bearer token, by its hash."""
        return await self.store.token(hash_)

    async def webhook(self, wid: str) -> WebhookRow | None:
        return await self.store.webhook(wid)

    async def webhooks(self, stream: str) -> list[WebhookRow]:
        return await self.store.webhooks(stream)

    async def deliveries(self, wid: str, limit: int) -> list[Delivery]:
        return await self.store.deliveries(wid, limit)

    async def redeliver(self, wid: str, now: float) -> int:
        """Make a webhook's undelivered deliveries due now; how many."""
        return await self.store.redeliver(wid, now)

    # What the Discord interactions keep (server/discord/binding.py): codes, bound channels, links.

    async def discord_row(self, key: str) -> DiscordRow | None:
        return await self.store.discord_row(key)

    async def put_discord_row(self, row: DiscordRow) -> None:
        await self.store.put_discord_row(row)

    async def take_discord_row(self, key: str) -> DiscordRow | None:
        return await self.store.take_discord_row(key)

    async def discord_rows(self, stream: str, kind: str) -> list[DiscordRow]:
        return await self.store.discord_rows(stream, kind)

    async def add_delivery(self, stream: str, row: OutboxRow, now: float) -> None:
        """A delivery outside any append (a test message): it appends nothing to the stream."""
        await self.store.add_delivery(stream, row, now)

    async def delete(self, stream: str, who: Principal | None) -> None:
        """Delete an encounter and all it stored (the admin only)."""
        await self.info(stream)
        require(who, "delete_encounter")
        await self.store.delete_stream(stream)
        self.forget(stream)

    # ---- creating --------------------------------------------------------------------------

    async def create(self, body: dict[str, Any], actor: str) -> tuple[StreamInfo, str | None, Outcome]:
        """A new encounter and its GM token; a resend (same command_id and body) gets the same encounter
        and no token."""
        name = body.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > 200:
            raise bad_request("name must be a non-empty string of at most 200 characters", "name")
        ruleset_id = body.get("ruleset")
        ruleset = self.registry.get(ruleset_id) if isinstance(ruleset_id, str) else None
        if ruleset is None:
            raise bad_request(f"ruleset must be one of {', '.join(self.registry.rulesets)}", "ruleset")
        allowed = {"name", "ruleset", "options", "public", "dice", "command_id"}
        unknown = set(body) - allowed
        if unknown:
            raise bad_request(f"unknown field {sorted(unknown)[0]!r}", sorted(unknown)[0])
        public = body.get("public", False)
        if not isinstance(public, bool):
            raise bad_request("public must be true or false", "public")
        dice_mode = body.get("dice", "server")
        if dice_mode not in DICE_MODES:
            raise bad_request("dice must be server, manual or mixed", "dice")
        integers_only(body)  # the options are stored in EncounterCreated
        try:
            options = resolve_options(ruleset, _options_of(body))
        except BadCommand as exc:
            raise bad_request(exc.message, exc.field) from None
        command_id = client_command_id(body)
        identity = identity_of(body)
        if command_id is not None:
            resent = await self._created_by(command_id, identity)
            if resent is not None:
                return resent
        stream = self.ids.encounter()
        gm_token = new_token()
        seeds, commitment, hidden_commitment = [], None, None
        if dice_mode != "manual":
            seed, hidden_seed = self.ids.seed(), self.ids.seed()  # the second behind the GM's hidden rolls
            commitment, hidden_commitment = commitment_of(seed), commitment_of(hidden_seed)
            seeds = [SeedRow(commitment, seed), SeedRow(hidden_commitment, hidden_seed)]
        created = EncounterCreated(
            name,
            ruleset.id,
            ruleset.version,
            options,
            dict(ruleset.geometry),
            commitment,
            dice_mode,
            public,
            hidden_commitment,
            STREAM_RULES,
        )
        info = StreamInfo(stream, name, ruleset.id, public, 0, "", False)
        req = Append(
            stream,
            0,
            f"create-{stream}",
            identity,
            actor,
            [to_new_event(created)],
            seeds=seeds,
            tokens=[TokenRow(token_hash(gm_token), "gm")],
            create=info,
            create_key=command_id,
        )
        (result,) = await self.store.append_many([req])
        if isinstance(result, CreationExists):  # the same command_id's creation committed just before
            resent = await self._created_by(result.command_id, identity)
            assert resent is not None, "a creation the store reported is gone"
            return resent
        if isinstance(result, Exception):
            raise result
        if self.publish_appends:
            self.feed.publish(stream, result.events)
        return await self.info(stream), gm_token, Outcome(result.events)

    async def _created_by(self, command_id: str, identity: str) -> tuple[StreamInfo, None, Outcome] | None:
        """The answer to a resent creation: the encounter its command_id made, without a GM token (anyone
        who has the body must not get one: the admin rotates it for a creator who lost it); a 409 when
        that command_id created an encounter from another body; None when it created none."""
        found = await self.store.find_creation(command_id)
        if found is None:
            # Encounters created before ids were random had the id derived from the command_id.
            legacy = hashlib.sha256(f"tussle-encounter:{command_id}".encode()).hexdigest()[:16]
            prior = await self.store.find_command(legacy, f"create-{legacy}")
            if prior is None:
                return None
            found = Creation(legacy, prior.identity)
        if found.identity != identity:
            raise CommandIdTaken(
                f"command_id {command_id!r} already created a different encounter", {"command_id": command_id}
            )
        stored = await self.store.find_command(found.stream, f"create-{found.stream}")
        if stored is None:  # deleted between the two reads
            return None
        return await self.info(found.stream), None, Outcome(stored.events, duplicate=True)

    # ---- commands --------------------------------------------------------------------------

    async def execute(
        self, stream: str, who: Principal, body: dict[str, Any], signed: dict[str, Any] | None = None
    ) -> Outcome:
        """Run one command body for `who`: resend, closed, expected_seq, decide, append. `signed`: the
        request Discord signed that sent it (server/discord/), whose interaction id is the body's
        command_id: its dice are keyed by Discord, and the declaration keeps the request."""
        require(who, "send_command")
        command_id = client_command_id(body)
        keyed_by = "client" if signed is None else "discord"
        if command_id is None:
            command_id = self.ids.command()
            keyed_by = "server"
        entropy = body.get("entropy", "")
        if not valid_entropy(entropy):
            raise bad_request("entropy must be 0-128 characters of [A-Za-z0-9_.:=+/-]", "entropy")
        expected = body.get("expected_seq")
        if expected is not None and (
            not isinstance(expected, int) or isinstance(expected, bool) or expected < 0
        ):
            raise bad_request("expected_seq must be a non-negative integer", "expected_seq")
        pinned = body.get("expected_commitment")
        if pinned is not None and not is_commitment(pinned):
            raise bad_request(
                "expected_commitment must be 64 lowercase hex (a commitment)", "expected_commitment"
            )
        integers_only(body)
        identity = identity_of(body)
        for attempt in range(CONFLICT_RETRIES):
            try:
                # Decided and appended under the encounter's lock: the next command is decided on the
                # state this one committed. Other encounters' commands share its group commit.
                with self.cache.using(stream):
                    async with self.cache.lock(stream), self.store.deciding(stream):
                        return await self._execute_once(
                            stream, who, body, command_id, keyed_by, identity, expected, signed
                        )
            except SeqConflict as exc:
                self.forget(stream)
                self.conflicts += 1
                if expected is not None:
                    raise SeqMoved(
                        f"the encounter moved on to seq {exc.actual}",
                        {"expected": expected, "actual": exc.actual},
                    ) from None
                await conflict_pause(attempt)
        raise SeqMoved("the encounter kept moving; send the command again")

    async def _execute_once(
        self,
        stream: str,
        who: Principal,
        body: dict[str, Any],
        command_id: str,
        keyed_by: str,
        identity: str,
        expected: int | None,
        signed: dict[str, Any] | None = None,
    ) -> Outcome:
        # The resend check comes before every check below (API.md), but it costs a read, and the
        # append transaction makes it again anyway (answering a resend with the stored events, a reuse
        # with CommandIdReused). So a command goes straight on, and only a refusal on the way asks
        # whether the command_id was already appended: then the resend's answer wins over the refusal.
        try:
            return await self._decide_and_append(
                stream, who, body, command_id, keyed_by, identity, expected, signed
            )
        except ServiceError:
            if keyed_by != "server":
                prior = await self.store.find_command(stream, command_id)
                if prior is not None:
                    return self._resent(
                        prior.identity, prior.actor, prior.events, identity, who.actor, command_id
                    )
            raise

    @staticmethod
    def _resent(
        prior_identity: str, prior_actor: str, events: list[Event], identity: str, actor: str, command_id: str
    ) -> Outcome:
        """A command_id already appended: the original outcome when it is the same command, else a 409."""
        if prior_identity == identity and prior_actor == actor:
            return Outcome(events, duplicate=True)
        raise CommandIdTaken(
            f"command_id {command_id!r} was already used for a different command", {"command_id": command_id}
        )

    async def _decide_and_append(
        self,
        stream: str,
        who: Principal,
        body: dict[str, Any],
        command_id: str,
        keyed_by: str,
        identity: str,
        expected: int | None,
        signed: dict[str, Any] | None = None,
    ) -> Outcome:
        """Decide the command on the committed state and append it."""
        generation = self.store.head_generation()
        state = await self._head_state(stream, generation)
        state, expected = await self._announce_version(stream, state, expected)
        try:
            decided = await self._decide(stream, who, body, command_id, keyed_by, expected, state, signed)
        except ServiceError:
            if self.store.sole_writer:
                raise
            # The head may be a cached one that another process's commit has just moved (its notification
            # not heard yet): a refusal, or a 409 on a pinned expected_seq, is only given on the stored head.
            fresher = await self._caught_up(stream, state, generation)
            if fresher["seq"] == state["seq"]:
                raise
            state = fresher
            decided = await self._decide(stream, who, body, command_id, keyed_by, expected, state, signed)
        new, states, fresh_seed, voided_reactions = decided
        return await self._append(
            stream,
            state,
            new,
            who,
            command_id,
            identity,
            fresh_seed=fresh_seed,
            voided_reactions=voided_reactions,
            states=states,
        )

    async def _announce_version(
        self, stream: str, state: dict[str, Any], expected: int | None
    ) -> tuple[dict[str, Any], int | None]:
        """The first write of a newer ruleset version to an older encounter announces it in the stream
        (`RulesetUpgraded`, its own command, by the system), so that every declaration after it names a
        version the stream announced (docs/verifying.md "Versions"). A client's expected_seq, pinned on
        the head before the announcement, still holds."""
        ruleset = self.ruleset_of(state)
        if state["closed"] or not newer_version(ruleset.version, state["ruleset_version"]):
            return state, expected
        upgrade = RulesetUpgraded(ruleset.id, ruleset.version, state["ruleset_version"])
        command_id = f"upgrade-{ruleset.id}-{ruleset.version}"
        try:
            await self._append(
                stream,
                state,
                [to_new_event(upgrade)],
                Principal("system", stream),
                command_id,
                identity_of(msgspec.to_builtins(upgrade)),
            )
        except CommandIdTaken:  # another process announced it first
            pass
        fresher = await self.state(stream)
        return fresher, fresher["seq"] if expected == state["seq"] else expected

    async def _decide(
        self,
        stream: str,
        who: Principal,
        body: dict[str, Any],
        command_id: str,
        keyed_by: str,
        expected: int | None,
        state: dict[str, Any],
        signed: dict[str, Any] | None = None,
    ) -> tuple[list[NewEvent], list[dict[str, Any]], bytes | None, list[str]]:
        """The events the command appends on `state` and the state after each (with the fresh seed they
        commit to and the reactions a void takes back), or a ServiceError."""
        actor = who.actor
        if state["closed"]:
            raise Closed("this encounter is closed; it can be read but not changed")
        if expected is not None and expected != state["seq"]:
            raise SeqMoved(
                f"you expected seq {expected} but the encounter is at {state['seq']}",
                {"expected": expected, "actual": state["seq"]},
            )
        pinned = body.get("expected_commitment")
        if pinned is not None and pinned != state["commitment"]:
            raise CommitmentMoved(
                "the dice seed was rotated after you sent this; nothing was rolled "
                f"(you expected commitment {pinned}, it is now {state['commitment']})",
                {"expected": pinned, "actual": state["commitment"]},
            )
        ruleset = self.ruleset_of(state)
        try:
            cmd = self.registry.command(state["ruleset"], body)
        except BadCommand as exc:
            raise bad_request(exc.message, exc.field) from None
        if isinstance(cmd, common.RotateSeed) and state["pending"] and state["dice"] != "manual":
            # A resolution's dice keep the seed it began with (DESIGN.md "Dice"): a rotation now would let
            # whoever reads the seed re-roll a player's pending dice until they suit.
            raise ResolutionPending(
                "the dice seed cannot be rotated while a resolution is under way: "
                f"{pending_waits(state['pending'])}; its dice keep the seed it began with, so rotate "
                "once it is answered",
                {"pending": state["pending"]},
            )
        dice = await self._dice_for(stream, state, cmd, who, command_id, keyed_by)
        ctype = command_type(cmd)
        ctx, fresh_seed, voided_reactions = await self._context(stream, state, cmd, actor, command_id)
        if signed is not None:
            ctx = msgspec.structs.replace(ctx, signed_request=signed)
        try:
            new, states = decide_folded(state, ruleset, cmd, ctx, dice, self.max_events)
        except RuleError as exc:
            details = dict(exc.details)
            raise RuleRefusal(exc.message, details, code=exc.code) from None
        except Forbidden as exc:
            raise NotPermitted(exc.message) from None
        except BadCommand as exc:
            raise bad_request(exc.message, exc.field) from None
        except BadDice as exc:
            raise bad_request(str(exc), exc.field) from None
        except TooManyEvents as exc:
            raise RuleRefusal(str(exc)) from None
        except DiceNeeded as exc:
            needed = dice_wanted(state, exc)
            raise RuleRefusal(
                "this command needs dice faces: " + "; ".join(needed),
                {"needed": needed, "rolls": rolls_wanted(state, exc), "more_may_follow": True},
                code="dice_needed",
            ) from None
        if not new:
            raise RuleRefusal(f"{ctype} changes nothing now")
        return new, states, fresh_seed, voided_reactions

    def _side_rows_committed(self, req: Append) -> None:
        if self.after_side_rows is not None and (req.outbox or req.webhooks or req.webhook_changes):
            self.after_side_rows()

    async def _append(
        self,
        stream: str,
        state: dict[str, Any],
        new: list[NewEvent],
        who: Principal,
        command_id: str,
        identity: str,
        tokens: list[TokenRow] | None = None,
        revoke: list[TokenRevocation] | None = None,
        fresh_seed: bytes | None = None,
        side: dict[str, Any] | None = None,
        voided_reactions: list[str] | None = None,
        states: list[dict[str, Any]] | None = None,
    ) -> Outcome:
        """Append events decided on `state`; once committed, apply them to the cached state and the feed.
        `states`, when the decider folded them, are the state after each event: nobody folds again.
        What follows the commit runs in the store's own task (`append_then`): a request that goes away
        does not stop its events reaching the cache and the feed."""
        req = self._append_request(
            stream,
            state,
            new,
            who.actor,
            command_id,
            identity,
            tokens,
            revoke,
            fresh_seed,
            side,
            voided_reactions,
            token=who.token_hash,
            states=states,
        )
        return await self.store.append_then(
            req, functools.partial(self._committed, stream, state, req, states)
        )

    def _committed(
        self,
        stream: str,
        state: dict[str, Any],
        req: Append,
        states: list[dict[str, Any]] | None,
        result: AppendResult | Exception,
    ) -> Outcome:
        """Once the store answered: a refusal in the API's words, or the events applied to the cache and the feed."""
        if isinstance(result, CommandIdReused):  # the same command_id reached another server process first
            raise CommandIdTaken(
                f"command_id {req.command_id!r} was already used for a different command",
                {"command_id": req.command_id},
            ) from None
        if isinstance(result, TokenRevoked):
            raise _revoked() from None
        if isinstance(result, Exception):
            raise result
        if result.duplicate:
            return Outcome(result.events, duplicate=True)
        after = _sealed_states(result.events, states)
        self._apply(stream, state, result.events, after)
        if self.publish_appends:
            self.feed.publish(stream, result.events, after)
        self._side_rows_committed(req)
        return Outcome(result.events)

    def _append_request(
        self,
        stream: str,
        state: dict[str, Any],
        new: list[NewEvent],
        actor: str,
        command_id: str,
        identity: str,
        tokens: list[TokenRow] | None,
        revoke: list[TokenRevocation] | None,
        fresh_seed: bytes | None,
        side: dict[str, Any] | None = None,
        voided_reactions: list[str] | None = None,
        token: str | None = None,
        states: list[dict[str, Any]] | None = None,
    ) -> Append:
        seeds, reveal = [], []
        for ne in new:
            if ne.type == "HiddenSeedRevealed":
                reveal.append(ne.data["commitment"])
            if ne.type == "DiceSeedRotated":
                reveal.append(state["commitment"])
                if ne.data["commitment"] is not None:
                    assert fresh_seed is not None and commitment_of(fresh_seed) == ne.data["commitment"]
                    seeds.append(SeedRow(ne.data["commitment"], fresh_seed))
        extra = dict(side or {})
        # One clock reading for the command: an "asked" notice names the deadline the store keeps.
        now = dt.datetime.now(dt.UTC)
        if self.side_rows is not None:
            extra = with_side_rows(
                extra, self.side_rows(state, new, actor, command_id, self.ruleset_of(state), states, now)
            )
        extra["deadlines"], extra["clear_deadlines"] = deadline_changes(
            state, new, voided_reactions or [], now
        )
        return Append(
            stream,
            state["seq"],
            command_id,
            identity,
            actor,
            new,
            seeds=seeds,
            reveal=reveal,
            tokens=tokens or [],
            revoke=revoke or [],
            closes=any(ne.type == "EncounterClosed" for ne in new),
            token_hash=token,
            expected_hash=state["hash"],
            **extra,
        )

    async def _context(
        self, stream: str, state: dict[str, Any], cmd: Any, actor: str, command_id: str
    ) -> tuple[Context, bytes | None, list[str]]:
        """What decide may need from outside: the seed to reveal and a fresh one's commitment (drawn
        here, kept by the caller until the append that stores it), what a void names, and the
        reactions whose requests it voids (their deadlines go with them)."""
        current_seed = next_commitment = fresh = None
        rotating = isinstance(cmd, (common.RotateSeed, common.Close)) or state["options"].get(
            "rotate_seed_each_turn"
        )
        if state["dice"] != "manual" and rotating:
            seed = await self._seed(stream, state["commitment"])
            current_seed = seed.hex() if seed else None
            fresh = self.ids.seed()
            next_commitment = commitment_of(fresh)
        voided: list[Event] = []
        if isinstance(cmd, common.Void):
            if cmd.seq is not None:
                if not 1 <= cmd.seq <= state["seq"]:
                    raise RuleRefusal(f"there is no seq {cmd.seq} in this encounter (1..{state['seq']})")
                voided = await self.store.read(stream, cmd.seq, 1)
            elif cmd.target_command_id is not None:
                found = await self.store.find_command(stream, cmd.target_command_id)
                voided = found.events if found else []
        targets = [(e.seq, e.type) for e in voided]
        voided_reactions = [e.data["id"] for e in voided if e.type == "ReactionRequested"]
        behind_screen = isinstance(cmd, (common.RevealRoll, common.Close)) or (
            isinstance(cmd, common.RollDice) and cmd.hidden
        )
        hidden_seed = await self._seed(stream, state.get("hidden_commitment")) if behind_screen else None
        return (
            Context(
                stream,
                actor,
                command_id,
                current_seed,
                next_commitment,
                targets,
                hidden_seed,
                roll_limits=self.roll_limits,
            ),
            fresh,
            voided_reactions,
        )

    async def hidden_rolls(self, stream: str) -> list[dict[str, Any]]:
        """The GM's view of the hidden rolls: each one's faces and total, derived from the hidden seed."""
        state = await self.state(stream)
        rolls = state.get("hidden_rolls", [])
        seed = await self._seed(stream, state.get("hidden_commitment")) if rolls else None
        out = []
        for r in rolls:
            assert seed is not None, "a hidden roll without its hidden seed"
            faces = hidden_faces(seed, stream, r["keyed_command_id"], r["entropy"], r["expression"])
            out.append(
                {
                    "seq": r["seq"],
                    "expression": r["expression"],
                    "purpose": r["purpose"],
                    "combatant": r["combatant"],
                    "faces": faces,
                    "total": total_of(r["expression"], faces),
                    "revealed": r["revealed"],
                }
            )
        return out

    async def _seed(self, stream: str, commitment: str | None) -> bytes | None:
        if commitment is None:
            return None
        seed = self.cache.seed(stream, commitment)
        if seed is None:
            seed = await self.store.seed(stream, commitment)
            if seed is None:
                return None
            self.cache.put_seed(stream, commitment, seed)
        return seed

    async def _dice_for(
        self, stream: str, state: dict[str, Any], cmd: Any, who: Principal, command_id: str, keyed_by: str
    ) -> Dice:
        mode = state["dice"]
        supplied = cmd.dice
        if supplied is not None:
            try:
                check_supplied_dice(state, who.actor)
            except BadCommand as exc:
                raise bad_request(exc.message, exc.field) from None
            except Forbidden as exc:
                raise NotPermitted(exc.message) from None
        if mode == "manual" or supplied is not None:
            return Dice(
                stream=stream,
                command_id=command_id,
                entropy=cmd.entropy,
                keyed_by=keyed_by,
                supplied=supplied or [],
            )
        seed = await self._seed(stream, state["commitment"])
        return Dice(stream=stream, command_id=command_id, entropy=cmd.entropy, keyed_by=keyed_by, seed=seed)

    # ---- seats and tokens ------------------------------------------------------------------

    async def admin_event(
        self,
        stream: str,
        who: Principal,
        body: dict[str, Any],
        struct: Any,
        tokens: list[TokenRow] | None = None,
        revoke: list[TokenRevocation] | None = None,
        check: Any = None,
        side: dict[str, Any] | None = None,
        action: str = "manage_seats",
        side_of: SideOf | None = None,
    ) -> Outcome:
        """Append a bookkeeping event (seats, tokens, webhooks: who may is `action`'s rule in
        server/encounters/access.py) with its side rows, in one transaction; `side_of(state, command_id)`
        adds the rows that depend on the head it is appended at (under the encounter's lock)."""
        require(who, action)
        command_id = client_command_id(body) or self.ids.command()
        identity = identity_of(body)
        with self.cache.using(stream):
            async with self.cache.lock(stream), self.store.deciding(stream):
                for attempt in range(CONFLICT_RETRIES):
                    prior = await self.store.find_command(stream, command_id)
                    if prior is not None:
                        if prior.identity == identity and prior.actor == who.actor:
                            return Outcome(prior.events, duplicate=True)
                        raise CommandIdTaken(
                            f"command_id {command_id!r} was already used", {"command_id": command_id}
                        )
                    state = await self._head_state(stream, self.store.head_generation())
                    if state["closed"]:
                        raise Closed("this encounter is closed; it can be read but not changed")
                    if check is not None:
                        check(state)
                    extra = dict(side or {})
                    if side_of is not None:
                        extra = with_side_rows(extra, await side_of(state, command_id))
                    try:
                        return await self._append(
                            stream,
                            state,
                            [to_new_event(struct)],
                            who,
                            command_id,
                            identity,
                            tokens,
                            revoke,
                            side=extra,
                        )
                    except SeqConflict:  # another server process appended first: check again on fresh state
                        self.forget(stream)
                        self.conflicts += 1
                        await conflict_pause(attempt)
                raise SeqMoved("the encounter kept moving; send the request again")

    async def create_seat(self, stream: str, who: Principal, body: dict[str, Any]) -> tuple[str, str | None]:
        name, combatants = _seat_fields(body, require=True)
        state = await self.state(stream)
        seat = body.get("seat") or f"seat-{len(state['seats']) + 1}"
        token = new_token()

        def check(st: dict[str, Any]) -> None:
            _check_combatants(st, combatants)
            if seat in st["seats"]:
                raise RuleRefusal(f"there is already a seat {seat!r}")

        out = await self.admin_event(
            stream,
            who,
            body,
            SeatCreated(seat, name, combatants),
            tokens=[TokenRow(token_hash(token), "player", seat)],
            check=check,
        )
        if out.duplicate:
            return out.events[0].data["seat"], None
        return seat, token

    async def change_seat(self, stream: str, who: Principal, seat: str, body: dict[str, Any]) -> Outcome:
        state = await self.state(stream)
        current = _seat_or_404(state, seat)
        name, combatants = _seat_fields(body, require=False)
        ev = SeatChanged(
            seat, name or current["name"], combatants if combatants is not None else current["combatants"]
        )
        return await self.admin_event(
            stream, who, body, ev, check=lambda st: _check_combatants(st, ev.combatants)
        )

    async def rotate_seat_token(self, stream: str, who: Principal, seat: str) -> str:
        _seat_or_404(await self.state(stream), seat)
        token = new_token()
        await self.admin_event(
            stream,
            who,
            {},
            SeatTokenRotated(seat),
            tokens=[TokenRow(token_hash(token), "player", seat)],
            revoke=[TokenRevocation("player", seat=seat)],
        )
        return token

    async def revoke_seat(self, stream: str, who: Principal, seat: str) -> Outcome:
        _seat_or_404(await self.state(stream), seat)
        return await self.admin_event(
            stream, who, {}, SeatRevoked(seat), revoke=[TokenRevocation("player", seat=seat)]
        )

    async def create_read_token(self, stream: str, who: Principal) -> tuple[str, str]:
        token, token_id = new_token(), self.ids.read_token()
        await self.admin_event(
            stream,
            who,
            {},
            ReadTokenCreated(token_id),
            tokens=[TokenRow(token_hash(token), "observer", None, token_id)],
        )
        return token_id, token

    async def revoke_read_token(self, stream: str, who: Principal, token_id: str) -> Outcome:
        events = await self.store.read(stream)
        made = {e.data["token_id"] for e in events if e.type == "ReadTokenCreated"}
        gone = {e.data["token_id"] for e in events if e.type == "ReadTokenRevoked"}
        if token_id not in made or token_id in gone:
            raise NotFound(f"there is no read token {token_id!r}")
        return await self.admin_event(
            stream,
            who,
            {},
            ReadTokenRevoked(token_id),
            revoke=[TokenRevocation("observer", token_id=token_id)],
        )

    async def rotate_gm_token(self, stream: str, who: Principal) -> str:
        """A new GM token, the old one revoked: by the GM, or by the admin for a creator who lost it."""
        token = new_token()
        await self.admin_event(
            stream,
            who,
            {},
            GmTokenRotated(),
            tokens=[TokenRow(token_hash(token), "gm")],
            revoke=[TokenRevocation("gm")],
            action="rotate_gm_token",
        )
        return token

    # ---- reaction timeouts -----------------------------------------------------------------

    async def answer_overdue(self, now_ts: str) -> int:
        """Answer with its default, as actor `system`, every reaction whose stored deadline has passed
        (server/encounters/reaction_deadlines.py); how many this process answered."""
        answered = 0
        for due in await self.store.due_deadlines(now_ts):
            reaction = reminded(due.reaction)
            if reaction is not None:
                await self._remind(due.stream, due.reaction, reaction)
                continue
            try:
                out = await self.execute(
                    due.stream,
                    Principal("system", due.stream),
                    {
                        "type": "respond",
                        "reaction": due.reaction,
                        "choice": "default",
                        "command_id": timeout_command_id(due.reaction),
                    },
                )
            except ServiceError as exc:
                if not isinstance(exc, SeqMoved):  # no longer pending, closed or gone: nothing to answer
                    await self.store.clear_deadline(due.stream, due.reaction)
                continue
            if out.duplicate:  # answered before, by this process or another, whose append left the row
                await self.store.clear_deadline(due.stream, due.reaction)
            else:
                answered += 1
        return answered

    async def _remind(self, stream: str, row: str, reaction: str) -> None:
        """Write the reminder of `reaction`, still waiting, to its seat's webhooks, then forget its row.
        Written again after a crash between the two, its deliveries' ids make it one."""
        try:
            state = await self.state(stream)
        except NotFound:
            state = None
        if state is not None and not state["closed"] and self.reminder_rows is not None:
            p = next((p for p in state["pending"] if p["id"] == reaction), None)
            deadline = reaction_deadlines(self.reaction_deadlines, stream, state).get(reaction)
            if p is not None and deadline is not None:
                at = dt.datetime.strptime(deadline, TS_FORMAT).replace(tzinfo=dt.UTC)
                rows = self.reminder_rows(state, p, at)
                for r in rows:
                    await self.store.add_delivery(stream, r, time.time())
                if rows and self.after_side_rows is not None:
                    self.after_side_rows()
        await self.store.clear_deadline(stream, row)


def _sealed_states(events: list[Event], states: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """The decider's state after each event, with the hash the store sealed it with."""
    if states is None or len(states) != len(events):
        return None
    return [{**st, "hash": e.hash} for st, e in zip(states, events, strict=True)]


def _options_of(body: dict[str, Any]) -> dict[str, Any]:
    """A creation's `options`: an object, or absent (or null) for the defaults. `false`, `0` or `[]`
    are the wrong type (a 400), never read as "no options" (issue 33 item 8)."""
    options = body.get("options")
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise bad_request("options must be an object of the ruleset's options", "options")
    return options


def _seat_fields(body: dict[str, Any], require: bool) -> tuple[str | None, list[str] | None]:
    unknown = set(body) - {"name", "combatants", "command_id", "seat"}
    if unknown:
        raise bad_request(f"unknown field {sorted(unknown)[0]!r}", sorted(unknown)[0])
    name = body.get("name")
    combatants = body.get("combatants")
    if (require or name is not None) and (not isinstance(name, str) or not name.strip()):
        raise bad_request("name must be a non-empty string", "name")
    if require and "combatants" in body and combatants is None:
        raise bad_request("combatants must be a list of combatant ids (leave it out for none)", "combatants")
    if require and combatants is None:
        combatants = []
    if combatants is not None and (
        not isinstance(combatants, list) or not all(isinstance(c, str) for c in combatants)
    ):
        raise bad_request("combatants must be a list of combatant ids", "combatants")
    seat = body.get("seat")
    if seat is not None and (not isinstance(seat, str) or not ID_PATTERN.match(seat)):
        raise bad_request("seat must be 1-64 characters of [A-Za-z0-9_.:-]", "seat")
    return name, combatants


def _check_combatants(state: dict[str, Any], combatants: list[str]) -> None:
    missing = [c for c in combatants if c not in state["combatants"]]
    if missing:
        raise RuleRefusal(f"there is no combatant {missing[0]!r} in this encounter")


def _seat_or_404(state: dict[str, Any], seat: str) -> dict[str, Any]:
    s = state["seats"].get(seat)
    if s is None or s.get("revoked"):
        raise NotFound(f"there is no seat {seat!r}")
    return s


__all__ = ["Encounters", "Outcome", "initial_state", "CommandIdReused"]
