"""The event store port: a small interface with one implementation per backend.

An append is one transaction holding one command's events (or several commands', for group commit)
together with the side rows the command implies: dice seeds, token changes and the encounter's
listing row. The store seals the events into the hash chain at append.
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from events.envelope import Event, NewEvent, timestamp
from events.store import receipt_key
from events.store.discord_rows import DiscordStore
from events.store.outbox import OutboxRow, WebhookChange, WebhookRow, WebhookStore
from events.store.receipt_key import ReceiptKeys
from events.store.snapshots import SnapshotStore

T = TypeVar("T")


class SeqConflict(Exception):
    """The stream's head moved past the seq the command was decided on (409 `seq_conflict`)."""

    def __init__(self, expected: int, actual: int):
        super().__init__(f"the encounter is at seq {actual}, not {expected}")
        self.expected = expected
        self.actual = actual


class CommandIdReused(Exception):
    """The command_id was already appended with a different body or actor (409)."""

    def __init__(self, command_id: str):
        super().__init__(f"command_id {command_id!r} was already used for a different command")
        self.command_id = command_id


class TokenRevoked(Exception):
    """The command's token was revoked (or its encounter deleted) before its append committed (401)."""

    def __init__(self) -> None:
        super().__init__("this token was revoked")


class StreamExists(Exception):
    """An encounter with this id already exists."""


class CreationExists(Exception):
    """The client's command_id of a creation (`Append.create_key`) already created an encounter."""

    def __init__(self, command_id: str):
        super().__init__(f"command_id {command_id!r} already created an encounter")
        self.command_id = command_id


class Creation(msgspec.Struct, frozen=True):
    """What a creation's command_id created: the encounter and the identity of the body that made it."""

    stream: str
    identity: str


class SeedRow(msgspec.Struct, frozen=True):
    """A dice seed to store (secret until revealed): given and read back plain, sealed at rest by the store
    under its seed key (events/store/seed_key.py)."""

    commitment: str
    seed: bytes


class TokenRow(msgspec.Struct, frozen=True):
    """A bearer token, stored only as its hash."""

    token_hash: str
    role: str  # admin | gm | player | observer
    seat: str | None = None
    token_id: str | None = None


class TokenRevocation(msgspec.Struct, frozen=True):
    """Revoke tokens of a stream matching role and seat or token_id."""

    role: str
    seat: str | None = None
    token_id: str | None = None


class DeadlineRow(msgspec.Struct, frozen=True):
    """When a pending reaction is answered by default (`reaction_timeout_s`): `due` is a UTC timestamp
    in the envelope's `ts` form, so deadlines sort as text."""

    reaction: str
    due: str


class Deadline(msgspec.Struct, frozen=True):
    """A stored reaction deadline."""

    stream: str
    reaction: str
    due: str


class StreamInfo(msgspec.Struct, frozen=True):
    """The listing row of an encounter."""

    id: str
    name: str
    ruleset: str
    public: bool
    seq: int
    hash: str
    closed: bool


class Append(msgspec.Struct):
    """One command's append: its events and what it writes beside them."""

    stream: str
    expected_seq: int
    command_id: str
    identity: str
    actor: str
    events: list[NewEvent]
    seeds: list[SeedRow] = []
    reveal: list[str] = []  # commitments whose seeds become public
    tokens: list[TokenRow] = []
    revoke: list[TokenRevocation] = []
    create: StreamInfo | None = None  # the first append of a new encounter
    create_key: str | None = None  # the client's command_id of that creation, unique in the store
    closes: bool = False
    webhooks: list[WebhookRow] = []  # subscriptions created (events/store/outbox.py)
    webhook_changes: list[WebhookChange] = []
    outbox: list[OutboxRow] = []  # deliveries these events cause
    deadlines: list[DeadlineRow] = []  # reactions this command leaves waiting with a timeout
    clear_deadlines: list[str] = []  # reactions (ids) this command answers, cancels or voids
    # The hash of the bearer token that sent the command (None: the admin's or the system's, not stored):
    # the append checks inside its transaction that it is still live, so a revoked token never writes.
    token_hash: str | None = None
    # The head hash at expected_seq, as the command was decided on it: lets a backend seal before it
    # reads the head, and then only check it (events/store/postgres_one_trip.py).
    expected_hash: str | None = None


class AppendResult(msgspec.Struct, frozen=True):
    """The command's events as stored; `duplicate` when the command_id was already appended."""

    events: list[Event]
    duplicate: bool = False


class StoredCommand(msgspec.Struct, frozen=True):
    identity: str
    actor: str
    events: list[Event]


class EventStore(abc.ABC):
    """The encounters' streams: appends (each sealed into the hash chain), reads, the listing."""

    # True when no other process can append while this store is open (SQLite, holding its lock file):
    # then a cache kept up to date by this process's own appends needs no catch-up read.
    sole_writer: bool = False

    # The envelope `ts` of each command's events, read once per append. The encounter service sets
    # it from its one source of made-up values (server/encounters/ids.py), so golden tests get the same bytes.
    clock: Callable[[], str] = staticmethod(timestamp)

    def deciding(self, stream: str) -> contextlib.AbstractAsyncContextManager[Any]:
        """Held while one command on `stream` is decided and appended, so that no other process decides
        on it meanwhile: the command is decided on the head it appends after, and never loses a race.
        A sole writer needs nothing: the service's own per-encounter lock already serialises deciding."""
        return contextlib.nullcontext()

    @property
    def serialises_deciding(self) -> bool:
        """True when `deciding` keeps other processes out (then a head read under it is the head)."""
        return False

    def head_known(self, stream: str, seq: int) -> bool:
        """True when `seq` is known to be the stream's committed head without a read: always for a sole
        writer, whose own appends are the only ones; on a shared database while notifications of every
        process's appends keep a cache current (events/store/notified_caches.py)."""
        return self.sole_writer

    def head_generation(self) -> int:
        """Changes whenever what `head_known` knew was thrown away: a head read before a change of
        generation is not evidence of anything (see `saw_head`)."""
        return 0

    def saw_head(self, stream: str, seq: int, generation: int) -> None:
        """A read (begun at `generation`) found the stream's head at `seq`: `head_known` may say so until
        a notification says otherwise."""
        return None

    async def append(self, request: Append) -> AppendResult:
        """Append one command atomically: SeqConflict, CommandIdReused, or the sealed events."""
        (result,) = await self.append_many([request])
        if isinstance(result, Exception):
            raise result
        return result

    async def append_then(self, request: Append, then: Callable[[AppendResult | Exception], T]) -> T:
        """Append one command and answer `then(result)` (`result` the sealed events or the refusal),
        `then` running once the command is committed even when the caller stops waiting (a cancelled
        request): what must follow every commit, such as a cache of the stream's state, follows it."""

        async def committed() -> T:
            (result,) = await self.append_many([request])
            return then(result)

        return await asyncio.shield(committed())

    @abc.abstractmethod
    async def append_many(self, requests: list[Append]) -> list[AppendResult | Exception]:
        """Group commit: each request succeeds or fails alone, in the order given."""

    @abc.abstractmethod
    async def read(self, stream: str, from_seq: int = 1, limit: int | None = None) -> list[Event]:
        """Events of one stream with seq >= from_seq, in seq order."""

    @abc.abstractmethod
    async def read_all(self, after_position: int, limit: int = 1000) -> list[tuple[int, Event]]:
        """The store-wide feed in commit order: (position, event) after a position."""

    @abc.abstractmethod
    async def last_position(self) -> int:
        """The last position of the store-wide feed committed (0 when none): a feed starting now starts after it."""

    @abc.abstractmethod
    async def stream_info(self, stream: str) -> StreamInfo | None: ...

    @abc.abstractmethod
    async def list_streams(self, public_only: bool) -> list[StreamInfo]: ...

    @abc.abstractmethod
    async def delete_stream(self, stream: str) -> bool: ...

    @abc.abstractmethod
    async def find_command(self, stream: str, command_id: str) -> StoredCommand | None: ...

    @abc.abstractmethod
    async def find_creation(self, command_id: str) -> Creation | None:
        """What the creation sent with this command_id created, if any."""


class SeedStore(abc.ABC):
    """The dice seeds behind the commitments (written by appends: `Append.seeds`, `Append.reveal`)."""

    @abc.abstractmethod
    async def seed(self, stream: str, commitment: str) -> bytes | None:
        """The secret seed behind a commitment (for the server's own dice)."""

    @abc.abstractmethod
    async def revealed_seeds(self, stream: str) -> dict[str, str]:
        """commitment -> revealed seed hex."""


class TokenStore(abc.ABC):
    """Bearer tokens by hash (written by appends: `Append.tokens`, `Append.revoke`)."""

    @abc.abstractmethod
    async def token(self, token_hash: str) -> tuple[str, TokenRow] | None:
        """(stream, row) of a live token; the admin token is not stored."""

    @abc.abstractmethod
    async def stream_tokens(self, stream: str) -> list[TokenRow]:
        """The live tokens of one encounter (what `tussle export --with-secrets` carries to a new server)."""


class ServerTokenStore(abc.ABC):
    """Reader tokens of the whole server (events/store/server_tokens.py), and which encounters granted each."""

    @abc.abstractmethod
    async def add_server_token(self, row: TokenRow) -> None:
        """Store a new server-level token (its hash, role and id)."""

    @abc.abstractmethod
    async def revoke_server_token(self, token_id: str) -> bool:
        """Revoke a server-level token by id (False: no live one has it); every process stops it at once."""

    @abc.abstractmethod
    async def server_tokens(self) -> list[TokenRow]:
        """The live server-level tokens."""

    @abc.abstractmethod
    async def granted_streams(self, token_id: str) -> list[str]:
        """The encounters whose live grant lets reader token `token_id` read them."""


class DeadlineStore(abc.ABC):
    """Reaction deadlines (written by appends: `Append.deadlines`, `Append.clear_deadlines`)."""

    @abc.abstractmethod
    async def due_deadlines(self, now: str, limit: int = 100) -> list[Deadline]:
        """Reaction deadlines due at `now` or before, of every encounter, earliest first."""

    @abc.abstractmethod
    async def clear_deadline(self, stream: str, reaction: str) -> None:
        """Forget a deadline whose reaction no longer waits (answered or voided without clearing it)."""


class WholeStreamReads(EventStore):
    """The events port, and whole streams read outside the event loop (GET /verify and /audit:
    server/audit/whole_stream.py)."""

    def whole_stream_reader(self) -> Callable[[str, int], list[Event]] | None:
        """A picklable callable that a worker process calls with a stream id and a seq to read that
        stream's events after the seq (0: the whole stream) itself, in seq order, through a connection of
        its own; None when no other process can open this store (its reports are then made from pages
        read on the loop)."""
        return None

    @abc.abstractmethod
    async def external_writes_marker(self) -> int | None:
        """A number that changes when anyone but this handle has written to the database since it was last
        read, so what this process checked of a stream earlier (GET /verify's verified prefix) is no longer
        to be trusted; None for a database others legitimately write to, or that cannot tell."""


class Listening(abc.ABC):
    """An open subscription to a shared database's commit notices (`SharedFeed.listen`)."""

    # The database's own id of the connection that listens (operators and tests name it), if it has one.
    server_pid: int | None = None

    @abc.abstractmethod
    async def last_committed(self, timeout: float) -> int:
        """The last position committed by any process, read over the listening connection: the feed's
        backstop poll, which also proves that connection is still alive."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Stop listening; never raises, however the connection ended."""


class SharedFeed(WholeStreamReads):
    """A database several processes append to (PostgreSQL): every commit, whichever process made it,
    is announced by a notice that is only a wake-up; the events themselves are read by position
    (`read_all`). A process's feed listener (server/live/pg_listener.py) listens, catches up and tells
    the store what it heard, so that the store's caches stay current while notices keep coming."""

    @abc.abstractmethod
    def on_commit(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener()` after each append this handle commits; returns the function that stops it."""

    @abc.abstractmethod
    async def listen(self, heard: Callable[[str], None], lost: Callable[[], None]) -> Listening:
        """Open a connection of its own that calls `heard(payload)` with each notice's text, and `lost()`
        once should the connection end."""

    @abc.abstractmethod
    def notified(self, payload: dict[str, Any]) -> None:
        """What a notice said (stream, seq, position; tokens or deleted): the caches forget what it changed."""

    @abc.abstractmethod
    def notices_trusted(self, trusted: bool) -> None:
        """True from the moment a listen is in force, False once it may have missed a notice (the caches
        are then dropped: a notice sent while nobody listened is lost for good)."""

    @abc.abstractmethod
    def notice_unreadable(self) -> None:
        """A notice on the channel was not ours to read: trust nothing cached before it."""


class Store(
    WholeStreamReads,
    SeedStore,
    TokenStore,
    ServerTokenStore,
    DeadlineStore,
    WebhookStore,
    SnapshotStore,
    DiscordStore,
):
    """One backend's database, every port at once. Every method is safe to call concurrently."""

    @abc.abstractmethod
    async def open(self) -> None: ...

    @abc.abstractmethod
    async def close(self) -> None: ...

    def receipt_keys(self) -> ReceiptKeys:
        """The keys that sign receipts, kept beside the seed key and never in the database: made for this
        process alone unless the backend keeps them (events/store/receipt_key.py)."""
        return receipt_key.ephemeral()

    def unavailable(self, exc: BaseException) -> str | None:
        """Why the storage cannot be used for now, when `exc` says so (a full disk, a database gone);
        None for any other error. The server answers 503 with Retry-After: nothing was written."""
        return None

    async def __aenter__(self) -> Store:
        await self.open()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
