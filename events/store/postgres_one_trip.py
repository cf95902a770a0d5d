"""One round trip for a PostgreSQL batch of plain commands: sealed before the head is read, checked in SQL.

A command is decided on a state whose head (seq and hash) the server knows, and it carries that head
(`Append.expected_seq`, `Append.expected_hash`). So the plan (events/store/sealing.py) can seal the
batch against those heads without reading them, and one statement then locks the batch's encounters
(`FOR UPDATE`, in id order, as the full path does), checks that every head is the assumed one, that no
command_id of the batch is stored and that every sending token is live, and writes the batch only if
all of that holds (every write of the statement is gated on the one check). Sent outside a transaction
block, the statement commits on its own: one round trip for the whole batch.

When a check fails nothing is written, and the backend runs the full path (read, plan, write), which
answers each command on its own (a resend, `command_id_reused`, a `SeqConflict`, a revoked token).
Why a stale snapshot does not matter: the statement's reads of `commands` and `tokens` see what was
committed when it began, but anything another process commits to an encounter of the batch afterwards
moves that encounter's head, which the locking read sees (it waits for that commit and reads the new
row), so the head check fails; a deletion takes the row away, which fails it too.

Only plain commands take this path: a batch in which some request creates an encounter or writes side
rows (seeds, tokens, revocations, webhooks, deadlines) goes the full path whole.
"""

from __future__ import annotations

from collections.abc import Callable

from events.store.port import Append
from events.store.sealing import Plan, plan_batch

# The checks, ahead of the writes (PostgresStore._WRITE_EVENTS, parameters $1-$24), which all read
# `checks.ok`.
ONE_TRIP_CHECKS = (
    "WITH assumed AS (SELECT * FROM unnest($25::text[], $26::bigint[], $27::text[]) AS a(id, seq, hash)),"
    " locked AS (SELECT s.id, s.seq, s.hash FROM streams AS s WHERE s.id = ANY($25::text[]) ORDER BY s.id FOR UPDATE),"
    " checks AS (SELECT"
    "   (SELECT count(*) FROM locked JOIN assumed USING (id)"
    "    WHERE locked.seq = assumed.seq AND locked.hash = assumed.hash) = cardinality($25::text[])"
    "   AND NOT EXISTS (SELECT 1 FROM commands AS c"
    "                   JOIN unnest($28::text[], $29::text[]) AS k(stream, command_id) USING (stream, command_id))"
    "   AND (SELECT count(*) FROM tokens AS t JOIN unnest($30::text[], $31::text[]) AS k(token_hash, stream)"
    "        USING (token_hash, stream) WHERE NOT t.revoked) = cardinality($30::text[]) AS ok),"
)


def _plain(req: Append) -> bool:
    return (
        bool(req.expected_hash)
        and req.create is None
        and not (
            req.seeds
            or req.reveal
            or req.tokens
            or req.revoke
            or req.webhooks
            or req.webhook_changes
            or req.outbox
            or req.deadlines
            or req.clear_deadlines
        )
    )


def _assumed(requests: list[Append]) -> dict[str, tuple[int, str]]:
    """Each encounter's head as its first request of the batch was decided on."""
    heads: dict[str, tuple[int, str]] = {}
    for r in requests:
        assert r.expected_hash is not None
        heads.setdefault(r.stream, (r.expected_seq, r.expected_hash))
    return heads


def one_trip_plan(requests: list[Append], clock: Callable[[], str]) -> Plan | None:
    """The batch checked and sealed on its assumed heads, with no stored commands and every token live;
    None when it cannot take one trip (not every request plain, or nothing to write)."""
    if not all(_plain(r) for r in requests):
        return None
    plan = plan_batch(requests, _assumed(requests), {}, set(), clock)
    return plan if plan.accepted else None


def one_trip_arguments(requests: list[Append], plan: Plan) -> list[object]:
    """$25-$31 of ONE_TRIP_CHECKS."""
    heads = _assumed(requests)
    streams = sorted(heads)
    keys = sorted({(r.stream, r.command_id) for r in requests})
    tokens = sorted({(r.token_hash, r.stream) for r in plan.accepted if r.token_hash is not None})
    return [
        streams,
        [heads[s][0] for s in streams],
        [heads[s][1] for s in streams],
        [k[0] for k in keys],
        [k[1] for k in keys],
        [t[0] for t in tokens],
        [t[1] for t in tokens],
    ]
