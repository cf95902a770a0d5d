"""A group commit's appends checked in Python and written to SQLite in bulk, a fixed handful of
statements per batch whatever its size.

`SqliteStore` gives every batch of appends one transaction. Checking and writing them one command
at a time cost about seven statements per command (a savepoint, the resend lookup, the head, the
inserts, the head update, the release).

Here the batch is read in two statements (the heads of its encounters, the commands whose ids it
reuses; the keys travel as one JSON array through `json_each`, so the statement text is fixed and
the number of bound variables unlimited), checked and sealed in Python in request order — exactly
the checks of one command at a time, each accepted command moving its encounter's head for the next
— and written with one prepared statement per table (`executemany`). The rarely written side tables
(seeds, tokens) get their statements in request order, since a later command may revoke a token an
earlier one created.

A failure here is never half-applied by design: every check comes before the writes of its command,
and a constraint the checks did not foresee (an `sqlite3.IntegrityError`) propagates, for the caller
to roll the batch back and write it command by command.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import msgspec

from events.canonical import canonical
from events.envelope import ZERO_HASH, Event, seal, timestamp
from events.store.port import Append, AppendResult, CommandIdReused, CreationExists, SeqConflict, StreamExists
from events.store.sqlite_webhooks import write_webhook_rows

EVENT_COLUMNS = "stream, seq, type, data, actor, command_id, ts, prev_hash, hash"

_HEADS = "SELECT id, seq, hash FROM streams WHERE id IN (SELECT value FROM json_each(?))"
_PRIORS = (
    "SELECT c.stream, c.command_id, c.identity, c.actor, c.first_seq, c.last_seq FROM json_each(?) AS k "
    "JOIN commands AS c ON c.stream = json_extract(k.value, '$[0]') AND c.command_id = json_extract(k.value, '$[1]')"
)
_INSERT_EVENTS = f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_COMMANDS = "INSERT INTO commands (stream, command_id, identity, actor, first_seq, last_seq) VALUES (?, ?, ?, ?, ?, ?)"
_UPDATE_HEAD = "UPDATE streams SET seq = ?, hash = ?, closed = closed OR ? WHERE id = ?"

_encode = msgspec.json.encode


def _event(row: Any) -> Event:
    stream, seq, type_, data, actor, command_id, ts, prev_hash, hash_ = row
    return Event(stream, seq, type_, msgspec.json.decode(data), actor, command_id, ts, prev_hash, hash_)


def append_batch(db: sqlite3.Connection, requests: list[Append],
                 clock: Callable[[], str] = timestamp) -> list[AppendResult | Exception]:
    """Check, seal and write a batch inside the caller's open transaction; one result per request,
    in order: its sealed events, the stored events of a resend, or the exception it failed with."""
    streams = sorted({r.stream for r in requests})
    heads: dict[str, tuple[int, str]] = {
        row[0]: (row[1], row[2]) for row in db.execute(_HEADS, (_encode(streams).decode(),))}
    keys = sorted({(r.stream, r.command_id) for r in requests})
    priors: dict[tuple[str, str], tuple[str, str, int, int]] = {
        (row[0], row[1]): (row[2], row[3], row[4], row[5]) for row in db.execute(_PRIORS, (_encode(keys).decode(),))}
    sealed_here: dict[tuple[str, str], list[Event]] = {}
    moved: dict[str, list[Any]] = {}  # stream -> [seq, hash, closes] after this batch
    event_rows: list[tuple[Any, ...]] = []
    command_rows: list[tuple[Any, ...]] = []
    results: list[AppendResult | Exception] = []
    for req in requests:
        key = (req.stream, req.command_id)
        prior = priors.get(key)
        if prior is not None:
            identity, actor, first, last = prior
            if identity != req.identity or actor != req.actor:
                results.append(CommandIdReused(req.command_id))
            elif key in sealed_here:
                results.append(AppendResult(sealed_here[key], duplicate=True))
            else:
                rows = db.execute(f"SELECT {EVENT_COLUMNS} FROM events WHERE stream = ? AND seq BETWEEN ? AND ? "
                                  "ORDER BY seq", (req.stream, first, last)).fetchall()
                results.append(AppendResult([_event(r) for r in rows], duplicate=True))
            continue
        head = heads.get(req.stream)
        if req.create is not None:
            if head is not None:
                results.append(StreamExists(req.stream))
                continue
            if creation_taken(db, req):
                results.append(CreationExists(req.create_key or ""))
                continue
            info = req.create
            db.execute(
                "INSERT INTO streams (id, name, ruleset, public, seq, hash, closed) VALUES (?, ?, ?, ?, 0, ?, 0)",
                (info.id, info.name, info.ruleset, int(info.public), ZERO_HASH),
            )
            head = (0, ZERO_HASH)
        if head is None:
            results.append(SeqConflict(req.expected_seq, 0))
            continue
        seq, prev = head
        if seq != req.expected_seq:
            results.append(SeqConflict(req.expected_seq, seq))
            continue
        sealed: list[Event] = []
        ts = clock()
        for new in req.events:
            seq += 1
            ev = seal(req.stream, seq, new, req.actor, req.command_id, ts, prev)
            prev = ev.hash
            sealed.append(ev)
            event_rows.append((ev.stream, ev.seq, ev.type, canonical(ev.data).decode(), ev.actor, ev.command_id,
                               ev.ts, ev.prev_hash, ev.hash))
        if sealed:
            command_rows.append((req.stream, req.command_id, req.identity, req.actor, sealed[0].seq, sealed[-1].seq))
            priors[key] = (req.identity, req.actor, sealed[0].seq, sealed[-1].seq)
            sealed_here[key] = sealed
        heads[req.stream] = (seq, prev)
        head_row = moved.setdefault(req.stream, [seq, prev, 0])
        head_row[0], head_row[1] = seq, prev
        head_row[2] |= int(req.closes)
        write_side_rows(db, req)
        results.append(AppendResult(sealed))
    db.executemany(_INSERT_EVENTS, event_rows)
    db.executemany(_INSERT_COMMANDS, command_rows)
    db.executemany(_UPDATE_HEAD, [(h[0], h[1], h[2], stream) for stream, h in moved.items()])
    return results


def creation_taken(db: sqlite3.Connection, req: Append) -> bool:
    """Whether the creation's command_id already created an encounter (this batch's included: their
    rows are written as each command is accepted)."""
    return req.create_key is not None and db.execute(
        "SELECT 1 FROM creations WHERE command_id = ?", (req.create_key,)).fetchone() is not None


def write_side_rows(db: sqlite3.Connection, req: Append) -> None:
    """Seeds, revealed seeds, token changes and reaction deadlines of one accepted command (most
    commands have none)."""
    if req.create is not None and req.create_key is not None:
        db.execute("INSERT INTO creations (command_id, stream, identity) VALUES (?, ?, ?)",
                   (req.create_key, req.stream, req.identity))
    for s in req.seeds:
        db.execute("INSERT INTO dice_seeds (stream, commitment, seed) VALUES (?, ?, ?)",
                   (req.stream, s.commitment, s.seed))
    for c in req.reveal:
        db.execute("UPDATE dice_seeds SET revealed = 1 WHERE stream = ? AND commitment = ?", (req.stream, c))
    # Revocations first: a rotation revokes the old tokens and then adds the new one.
    for r in req.revoke:
        if r.token_id is not None:
            db.execute("UPDATE tokens SET revoked = 1 WHERE stream = ? AND token_id = ?", (req.stream, r.token_id))
        else:
            db.execute("UPDATE tokens SET revoked = 1 WHERE stream = ? AND role = ? AND seat IS ?",
                       (req.stream, r.role, r.seat))
    for t in req.tokens:
        db.execute("INSERT INTO tokens (token_hash, stream, role, seat, token_id) VALUES (?, ?, ?, ?, ?)",
                   (t.token_hash, req.stream, t.role, t.seat, t.token_id))
    if req.webhooks or req.webhook_changes or req.outbox:
        write_webhook_rows(db, req)
    for reaction in req.clear_deadlines:
        db.execute("DELETE FROM reaction_deadlines WHERE stream = ? AND reaction = ?", (req.stream, reaction))
    for d in req.deadlines:
        db.execute("INSERT OR REPLACE INTO reaction_deadlines (stream, reaction, due) VALUES (?, ?, ?)",
                   (req.stream, d.reaction, d.due))
